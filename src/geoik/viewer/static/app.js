// geoik viewer: a 2-D chain panel and seed 003's three scenes, solved by the Python server
// over one WebSocket. No build step, no external assets. Page state is on window.geoikState.
"use strict";

const $ = (id) => document.getElementById(id);

const S = {
  connected: false,
  scene: "chain",
  methods: [],
  treeMethods: [],
  method: "fabrik",
  target: [8.33, 2.83],
  lastReply: null,
  lastError: null,
  endEffector: null,
  positions: null,
  angles: null,
  reach: null,
  overlay: false,
  map: { state: "off", text: "", reply: null },
  replaying: false,
  fps: 0,
  renderFps: 0,
  sceneReply: null,
  sceneFrames: 0,
  errors: [],
  worldToClient: null,
  viewToClient: null,
};
window.geoikState = S;

// ------------------------------------------------------------------ connection

const conn = { ws: null, next: 1, pending: new Map() };

function connect() {
  const proto = location.protocol === "https:" ? "wss:" : "ws:";
  const ws = new WebSocket(`${proto}//${location.host}/ws`);
  conn.ws = ws;
  ws.onopen = () => {
    S.connected = true;
    setConn(true);
    request({ type: "methods" }).then(gotMethods, showError);
  };
  ws.onclose = () => {
    S.connected = false;
    setConn(false);
    for (const p of conn.pending.values()) p.reject({ message: "connection closed" });
    conn.pending.clear();
    inflight.solve = false;
    inflight.scene = 0;
    setTimeout(connect, 1000);
  };
  ws.onmessage = (ev) => {
    const reply = JSON.parse(ev.data);
    const p = conn.pending.get(reply.id);
    if (!p) return;
    conn.pending.delete(reply.id);
    reply.rtt_ms = performance.now() - p.sent;
    if (reply.type === "error") {
      S.errors.push(reply);
      if (S.errors.length > 20) S.errors.shift();
      p.reject(reply);
    } else {
      p.resolve(reply);
    }
  };
}

function setConn(on) {
  const el = $("conn");
  el.textContent = on ? "connected" : "disconnected: retrying…";
  el.className = "conn " + (on ? "on" : "off");
}

function request(msg) {
  return new Promise((resolve, reject) => {
    if (!conn.ws || conn.ws.readyState !== WebSocket.OPEN) {
      reject({ message: "not connected" });
      return;
    }
    const id = conn.next++;
    conn.pending.set(id, { resolve, reject, sent: performance.now() });
    conn.ws.send(JSON.stringify(Object.assign({ id }, msg)));
  });
}

function showError(e, where = "err") {
  S.lastError = e;
  $(where).textContent = e && e.message ? e.message : String(e);
}

function gotMethods(reply) {
  S.methods = reply.methods;
  S.treeMethods = reply.tree_methods;
  const sel = $("method");
  sel.innerHTML = "";
  for (const m of reply.methods) {
    if (!m.dims.includes(2)) continue;
    const o = new Option(`${m.name}`, m.name);
    o.title = `${m.summary} (${m.source})`;
    sel.add(o);
  }
  if ([...sel.options].some((o) => o.value === S.method)) sel.value = S.method;
  S.method = sel.value;
  const metric = $("metric");
  metric.innerHTML = "";
  for (const name of reply.map_metrics) metric.add(new Option(name, name));
  fillSceneMethods();
  chainChanged();
}

// ------------------------------------------------------------------ the 2-D panel

const c2d = $("c2d");
const g2d = c2d.getContext("2d");
const view = { scale: 20, cx: 360, cy: 300 };
const inflight = { solve: false, scene: 0 };
let wantSolve = null;
let dragging = false;
let motion = null; // the last reply's recorded motion
let anim = null;

function chainSpec() {
  const n = Math.max(1, Math.min(64, Math.round(Number($("links").value) || 1)));
  const parts = $("lengths").value.split(",").map((s) => Number(s.trim())).filter((v) => v > 0);
  const lengths = [];
  for (let i = 0; i < n; i++) lengths.push(parts.length ? parts[Math.min(i, parts.length - 1)] : 1);
  const bend = $("bend").value.trim();
  const spec = { lengths, dim: 2 };
  if (bend !== "") spec.max_bend_deg = Number(bend);
  return spec;
}

function solveFields() {
  const msg = { chain: chainSpec(), method: S.method };
  const tol = $("tol").value.trim();
  const it = $("maxiter").value.trim();
  if (tol !== "") msg.tol = Number(tol);
  if (it !== "") msg.max_iter = Number(it);
  return msg;
}

function chainChanged() {
  S.angles = null;
  motion = null;
  const spec = chainSpec();
  const total = spec.lengths.reduce((a, b) => a + b, 0);
  fit(total);
  request({ type: "reach", chain: spec }).then(
    (r) => {
      S.reach = r;
      $("reach-text").textContent = `min ${fmt(r.min)}, max ${fmt(r.max)}`;
      draw2d();
    },
    (e) => {
      S.reach = null;
      $("reach-text").textContent = e.message;
      draw2d();
    },
  );
  solveNow({ fromRest: true, motion: true });
  if (S.overlay) loadMap();
}

function fit(total) {
  view.scale = Math.min(c2d.width, c2d.height) / (2.25 * Math.max(total, 1e-9));
  view.cx = c2d.width / 2;
  view.cy = c2d.height / 2;
}

const toScreen = (p) => [view.cx + p[0] * view.scale, view.cy - p[1] * view.scale];
const toWorld = (x, y) => [(x - view.cx) / view.scale, (view.cy - y) / view.scale];

S.worldToClient = (p) => {
  const r = c2d.getBoundingClientRect();
  const [x, y] = toScreen(p);
  return [r.left + (x * r.width) / c2d.width, r.top + (y * r.height) / c2d.height];
};

function clampTarget(t) {
  if (!$("clamp").checked || !S.reach) return t;
  const b = S.reach.base;
  const dx = t[0] - b[0], dy = t[1] - b[1];
  const d = Math.hypot(dx, dy);
  const want = Math.min(Math.max(d, S.reach.min), S.reach.max);
  if (d === want) return t;
  if (d === 0) return [b[0] + want, b[1]];
  return [b[0] + (dx * want) / d, b[1] + (dy * want) / d];
}

function solveNow(opts) {
  wantSolve = opts;
  pump();
}

function pump() {
  if (inflight.solve || !wantSolve || !S.connected) return;
  const opts = wantSolve;
  wantSolve = null;
  const msg = Object.assign({ type: "solve", target: S.target, motion: opts.motion }, solveFields());
  if (!opts.fromRest && $("follow").checked && S.angles && S.angles.length === msg.chain.lengths.length)
    msg.start = S.angles;
  inflight.solve = true;
  request(msg).then(
    (r) => {
      inflight.solve = false;
      gotSolve(r, opts);
      pump();
    },
    (e) => {
      inflight.solve = false;
      if (e && e.field === "start") S.angles = null; // limits changed under the last pose
      showError(e);
      pump();
    },
  );
}

function gotSolve(r, opts) {
  $("err").textContent = "";
  S.lastReply = r;
  S.angles = r.angles;
  if (r.motion) motion = r.motion;
  else if (!opts.keepMotion) motion = null;
  if (!S.replaying) setPose(r.positions);
  $("r-status").textContent = r.status;
  $("r-status").className = r.reached ? "" : "err";
  $("r-iter").textContent = r.iterations;
  $("r-error").textContent = `${fmt(r.error)} (tol ${fmt(r.tol)})`;
  $("r-rot5").textContent = r.costs.rotations_over_5deg;
  $("r-rotsum").textContent = `${r.costs.rotation_sum_deg.toFixed(1)}°`;
  $("r-path").textContent = fmt(r.costs.path_length);
  $("r-ms").textContent = `${r.solve_ms.toFixed(3)} ms`;
  $("r-rtt").textContent = `${r.rtt_ms.toFixed(1)} ms`;
  if (opts.replay) startReplay();
  draw2d();
}

function setPose(positions) {
  S.positions = positions;
  S.endEffector = positions ? positions[positions.length - 1] : null;
}

function fmt(v) {
  if (v === null || v === undefined || !isFinite(v)) return "–";
  const a = Math.abs(v);
  return a !== 0 && (a < 1e-3 || a >= 1e5) ? v.toExponential(3) : v.toFixed(4);
}

// pointer: press anywhere on the canvas to put the target there, then drag it
c2d.addEventListener("pointerdown", (ev) => {
  dragging = true;
  c2d.setPointerCapture(ev.pointerId);
  moveTarget(ev);
});
c2d.addEventListener("pointermove", (ev) => {
  if (dragging) moveTarget(ev);
});
const endDrag = () => {
  if (!dragging) return;
  dragging = false;
  solveNow({ motion: true });
};
c2d.addEventListener("pointerup", endDrag);
c2d.addEventListener("pointercancel", endDrag);

function moveTarget(ev) {
  const r = c2d.getBoundingClientRect();
  const x = ((ev.clientX - r.left) * c2d.width) / r.width;
  const y = ((ev.clientY - r.top) * c2d.height) / r.height;
  S.target = clampTarget(toWorld(x, y));
  stopReplay();
  solveNow({ motion: false });
  draw2d();
}

// replay: linear interpolation of the relative angles between keyframes, as geoik.Motion
function fk(lengths, angles) {
  const out = [[0, 0]];
  let a = 0, x = 0, y = 0;
  for (let i = 0; i < lengths.length; i++) {
    a += angles[i];
    x += lengths[i] * Math.cos(a);
    y += lengths[i] * Math.sin(a);
    out.push([x, y]);
  }
  return out;
}

function startReplay() {
  if (!motion || motion.keys.length < 1) return;
  const steps = Math.max(1, motion.keys.length - 1);
  const speed = Number($("speed").value) || 1;
  anim = { t0: performance.now(), dur: Math.min(6000, Math.max(1200, steps * 50)) / speed, path: [] };
  S.replaying = true;
  requestAnimationFrame(replayFrame);
}

function stopReplay() {
  if (!S.replaying) return;
  S.replaying = false;
  anim = null;
  if (S.lastReply) setPose(S.lastReply.positions);
}

function anglesAt(keys, f) {
  const i = Math.min(Math.floor(f), keys.length - 1);
  const j = Math.min(i + 1, keys.length - 1);
  const w = f - i;
  return keys[i].map((a, k) => a + w * (keys[j][k] - a));
}

// the end effector from keyframe position fa to fb, sampled so no joint turns over 1 degree
function tracePath(keys, lengths, fa, fb, out) {
  const STEP = Math.PI / 180;
  let f = fa;
  while (f < fb) {
    const i = Math.min(Math.floor(f), keys.length - 2);
    let rate = 0;
    keys[i].forEach((a, k) => (rate = Math.max(rate, Math.abs(keys[i + 1][k] - a))));
    const next = Math.min(fb, i + 1);
    const n = Math.max(1, Math.ceil(((next - f) * rate) / STEP));
    for (let s = 1; s <= n; s++) {
      const pos = fk(lengths, anglesAt(keys, f + ((next - f) * s) / n));
      out.push(pos[pos.length - 1]);
    }
    f = next;
  }
}

function replayFrame(now) {
  if (!S.replaying || !anim || !motion) return;
  const keys = motion.keys;
  const lengths = chainSpec().lengths;
  const u = Math.max(0, Math.min(1, (now - anim.t0) / anim.dur)); // rAF time may precede t0
  const f = u * (keys.length - 1);
  if (!anim.path.length) anim.path.push(fk(lengths, keys[0])[lengths.length]);
  if (keys.length > 1) tracePath(keys, lengths, anim.f || 0, f, anim.path);
  anim.f = f;
  setPose(fk(lengths, anglesAt(keys, f)));
  draw2d();
  if (u < 1) requestAnimationFrame(replayFrame);
  else {
    S.replaying = false;
    setPose(S.lastReply.positions);
    draw2d();
  }
}

$("replay").addEventListener("click", () => {
  stopReplay();
  solveNow({ fromRest: true, motion: true, replay: true });
});

function draw2d() {
  const g = g2d;
  g.setTransform(1, 0, 0, 1, 0, 0);
  g.clearRect(0, 0, c2d.width, c2d.height);
  if (S.overlay) drawMap(g);
  drawAxes(g);
  if (S.reach && $("zones").checked) {
    const b = toScreen(S.reach.base);
    g.setLineDash([6, 5]);
    g.lineWidth = 1.5;
    for (const [r, color] of [[S.reach.max, "#2e7d32"], [S.reach.min, "#b3261e"]]) {
      if (r <= 0) continue;
      g.strokeStyle = color;
      g.beginPath();
      g.arc(b[0], b[1], r * view.scale, 0, 2 * Math.PI);
      g.stroke();
    }
    g.setLineDash([]);
  }
  if (motion && motion.trace) polyline(g, motion.trace, "rgba(230,120,20,0.45)", 1.5);
  if (anim && anim.path.length > 1) polyline(g, anim.path, "#e67814", 2.5);
  if (S.positions) drawChain(g, S.positions);
  drawTarget(g, S.target);
}

function drawAxes(g) {
  g.strokeStyle = "#eceeef";
  g.lineWidth = 1;
  g.beginPath();
  g.moveTo(0, view.cy);
  g.lineTo(c2d.width, view.cy);
  g.moveTo(view.cx, 0);
  g.lineTo(view.cx, c2d.height);
  g.stroke();
}

function polyline(g, pts, color, width) {
  g.strokeStyle = color;
  g.lineWidth = width;
  g.beginPath();
  pts.forEach((p, k) => {
    const [x, y] = toScreen(p);
    if (k) g.lineTo(x, y);
    else g.moveTo(x, y);
  });
  g.stroke();
}

function drawChain(g, pos) {
  polyline(g, pos, "#1f6fb2", 4);
  g.fillStyle = "#0d3b66";
  for (const p of pos) {
    const [x, y] = toScreen(p);
    g.beginPath();
    g.arc(x, y, 3.5, 0, 2 * Math.PI);
    g.fill();
  }
  const [bx, by] = toScreen(pos[0]);
  g.fillStyle = "#1d2327";
  g.fillRect(bx - 6, by - 6, 12, 12);
}

function drawTarget(g, t) {
  const [x, y] = toScreen(t);
  g.strokeStyle = "#d32f2f";
  g.lineWidth = 2;
  g.beginPath();
  g.arc(x, y, 8, 0, 2 * Math.PI);
  g.moveTo(x - 12, y);
  g.lineTo(x + 12, y);
  g.moveTo(x, y - 12);
  g.lineTo(x, y + 12);
  g.stroke();
}

// ------------------------------------------------------------------ metric-map overlay

let mapImage = null;

function loadMap() {
  S.map = { state: "loading", text: "computing…", reply: null };
  $("map-text").textContent = "computing…";
  const msg = Object.assign({ type: "map", metric: $("metric").value, size: Number($("mapsize").value) }, solveFields());
  request(msg).then(
    (r) => {
      if (!S.overlay) return;
      const img = new ImageData(new Uint8ClampedArray(base64Bytes(r.rgba)), r.width, r.height);
      const off = document.createElement("canvas");
      off.width = r.width;
      off.height = r.height;
      off.getContext("2d").putImageData(img, 0, 0);
      mapImage = off;
      S.map = { state: "shown", text: "", reply: { metric: r.metric, vmin: r.vmin, vmax: r.vmax, coverage: r.coverage, cached: r.cached } };
      const cov = r.coverage === null ? "" : `coverage ${(100 * r.coverage).toFixed(1)} %, `;
      $("map-text").textContent = `${r.method}, ${r.metric}: ${cov}${r.cached ? "cached" : `${r.compute_ms.toFixed(0)} ms`}`;
      S.map.geometry = { half: r.half, center: r.center };
      drawLegend(r);
      draw2d();
    },
    (e) => {
      mapImage = null;
      S.map = { state: "error", text: e.message, reply: null };
      $("map-text").textContent = e.message;
      drawLegend(null);
      draw2d();
    },
  );
}

function base64Bytes(text) {
  const bin = atob(text);
  const out = new Uint8Array(bin.length);
  for (let i = 0; i < bin.length; i++) out[i] = bin.charCodeAt(i);
  return out;
}

function drawMap(g) {
  if (!mapImage || !S.map.geometry) return;
  const { half, center } = S.map.geometry;
  const [x0, y0] = toScreen([center[0] - half, center[1] + half]);
  const side = 2 * half * view.scale;
  g.imageSmoothingEnabled = false;
  g.globalAlpha = 0.75;
  g.drawImage(mapImage, x0, y0, side, side);
  g.globalAlpha = 1;
}

function hue(t) {
  return `hsl(${(1 - t) * 240}, 100%, 50%)`;
}

function drawLegend(r) {
  const lg = $("legend").getContext("2d");
  const w = $("legend").width;
  lg.clearRect(0, 0, w, 58);
  if (!r) return;
  for (let x = 0; x < w; x++) {
    lg.fillStyle = hue(x / (w - 1));
    lg.fillRect(x, 0, 1, 14);
  }
  lg.fillStyle = "#1d2327";
  lg.font = "11px system-ui, sans-serif";
  lg.textBaseline = "top";
  lg.fillText(fmt(r.vmin), 0, 16);
  const hi = fmt(r.vmax);
  lg.fillText(hi, w - lg.measureText(hi).width, 16);
  lg.fillText(r.metric, w / 2 - lg.measureText(r.metric).width / 2, 16);
  lg.fillStyle = "#000";
  lg.fillRect(0, 36, 14, 14);
  lg.fillStyle = "rgb(205,205,205)";
  lg.fillRect(90, 36, 14, 14);
  lg.fillStyle = "#1d2327";
  lg.fillText("not reached", 18, 38);
  lg.fillText("out of reach", 108, 38);
}

// ------------------------------------------------------------------ controls

for (const id of ["links", "lengths", "bend", "tol", "maxiter"]) $(id).addEventListener("change", chainChanged);
$("method").addEventListener("change", () => {
  S.method = $("method").value;
  stopReplay();
  solveNow({ fromRest: true, motion: true });
  if (S.overlay) loadMap();
});
$("overlay").addEventListener("change", () => {
  S.overlay = $("overlay").checked;
  if (S.overlay) loadMap();
  else {
    mapImage = null;
    S.map = { state: "off", text: "", reply: null };
    $("map-text").textContent = "";
    drawLegend(null);
  }
  draw2d();
});
for (const id of ["metric", "mapsize"]) $(id).addEventListener("change", () => S.overlay && loadMap());
$("zones").addEventListener("change", draw2d);
$("clamp").addEventListener("change", () => {
  S.target = clampTarget(S.target);
  solveNow({ motion: true });
});

// ------------------------------------------------------------------ 3-D scenes

const VIEWS = {
  side: { canvas: $("v-side"), axes: [0, 2] },
  top: { canvas: $("v-top"), axes: [0, 1] },
  front: { canvas: $("v-front"), axes: [1, 2] },
};
const SCENES = {
  arm: {
    title: "Robot arm (seed 003 Fig. 5)",
    help: "Drag in the side view (the arm's own plane) to move the end effector within the safe zones; drag in the top view to turn the base.",
    box: [[-2.6, 2.6], [-2.6, 2.6], [-0.2, 3.0]],
    captions: ["side: the arm's plane (r-z)", "top (x-y)", "front (y-z)"],
  },
  cyclist: {
    title: "Cyclist (seed 003 Fig. 6)",
    help: "Both legs are solved by the server every frame, each from its previous pose, with their ankles on the turning pedals.",
    box: [[-1.0, 1.0], [-0.6, 0.6], [-0.05, 1.8]],
    captions: ["side (x-z)", "top (x-y)", "front (y-z)"],
  },
  hand: {
    title: "Hand grasping a ball (seed 003 Fig. 7)",
    help: "Drag the ball in any view; the five fingertips close on it.",
    box: [[-0.4, 2.6], [-1.2, 1.2], [-1.3, 1.1]],
    captions: ["side (x-z)", "top (x-y)", "front (y-z)"],
  },
};
const sceneInput = { arm: { target: [1.2, 0.9], yaw: 20 }, hand: { ball: [1.45, 0.05, -0.45] } };
const clock = { t0: performance.now(), frames: [], renders: [] };
let sceneDrag = null;

function fillSceneMethods() {
  const sel = $("scene-method");
  const prev = sel.value;
  sel.innerHTML = "";
  if (S.scene === "hand") {
    for (const m of S.treeMethods.length ? S.treeMethods : ["fabrik", "ccd"]) sel.add(new Option(m, m));
  } else {
    const links = S.scene === "arm" ? 3 : 2;
    for (const m of S.methods) {
      const [lo, hi] = m.links;
      if (m.dims.includes(2) && links >= lo && (hi === null || links <= hi)) sel.add(new Option(m.name, m.name));
    }
  }
  const want = prev || (S.scene === "hand" ? "circles" : "fabrik");
  const pick = [...sel.options].find((o) => o.value === want) || [...sel.options].find((o) => o.value === (S.scene === "hand" ? "circles" : "fabrik"));
  if (pick) sel.value = pick.value;
}

function viewBox(name) {
  const v = VIEWS[name];
  const box = SCENES[S.scene].box;
  const [a, b] = v.axes;
  const w = v.canvas.width, h = v.canvas.height;
  const scale = Math.min(w / (box[a][1] - box[a][0]), h / (box[b][1] - box[b][0]));
  const cx = w / 2 - (scale * (box[a][0] + box[a][1])) / 2;
  const cy = h / 2 + (scale * (box[b][0] + box[b][1])) / 2;
  return { a, b, scale, cx, cy };
}

function project(vb, p) {
  return [vb.cx + p[vb.a] * vb.scale, vb.cy - p[vb.b] * vb.scale];
}

S.viewToClient = (name, p3) => {
  const c = VIEWS[name].canvas;
  const r = c.getBoundingClientRect();
  const [x, y] = project(viewBox(name), p3);
  return [r.left + (x * r.width) / c.width, r.top + (y * r.height) / c.height];
};

function unproject(name, ev) {
  const c = VIEWS[name].canvas;
  const r = c.getBoundingClientRect();
  const vb = viewBox(name);
  const x = ((ev.clientX - r.left) * c.width) / r.width;
  const y = ((ev.clientY - r.top) * c.height) / r.height;
  return { a: vb.a, b: vb.b, u: (x - vb.cx) / vb.scale, v: (vb.cy - y) / vb.scale };
}

for (const name of Object.keys(VIEWS)) {
  const c = VIEWS[name].canvas;
  c.addEventListener("pointerdown", (ev) => {
    sceneDrag = name;
    c.setPointerCapture(ev.pointerId);
    $("auto").checked = false;
    sceneDragTo(name, ev);
  });
  c.addEventListener("pointermove", (ev) => sceneDrag === name && sceneDragTo(name, ev));
  const end = () => (sceneDrag = null);
  c.addEventListener("pointerup", end);
  c.addEventListener("pointercancel", end);
}

function sceneDragTo(name, ev) {
  const q = unproject(name, ev);
  if (S.scene === "arm") {
    if (name === "side") sceneInput.arm.target = [q.u, q.v - (S.sceneReply?.pedestal ?? 0.3)];
    else if (name === "top") sceneInput.arm.yaw = (Math.atan2(q.v, q.u) * 180) / Math.PI;
  } else if (S.scene === "hand") {
    const ball = sceneInput.hand.ball.slice();
    ball[q.a] = q.u;
    ball[q.b] = q.v;
    sceneInput.hand.ball = ball;
  }
}

function animateInputs(t) {
  if (!$("auto").checked) return;
  if (S.scene === "arm") {
    sceneInput.arm.target = [1.15 + 0.6 * Math.cos(0.9 * t), 0.8 + 0.7 * Math.sin(1.3 * t)];
    sceneInput.arm.yaw = 35 * Math.sin(0.5 * t);
  } else if (S.scene === "hand") {
    sceneInput.hand.ball = [1.5 + 0.35 * Math.sin(0.7 * t), 0.12 * Math.cos(0.9 * t), -0.5 + 0.22 * Math.sin(1.1 * t)];
  }
}

function sceneMessage(t) {
  const method = $("scene-method").value || undefined;
  if (S.scene === "arm") return { type: "scene", scene: "arm", target: sceneInput.arm.target, yaw_deg: sceneInput.arm.yaw, method };
  if (S.scene === "cyclist") return { type: "scene", scene: "cyclist", t, cadence: Number($("cadence").value), method };
  return { type: "scene", scene: "hand", ball: sceneInput.hand.ball, radius: 0.3, method };
}

const MAX_SCENE_INFLIGHT = 3; // pipelined: frames solving while earlier ones travel
let sceneDirty = false;

function sceneLoop(now) {
  requestAnimationFrame(sceneLoop);
  if (S.scene === "chain") return;
  const t = (now - clock.t0) / 1000;
  clock.renders.push(now);
  animateInputs(t);
  if (inflight.scene < MAX_SCENE_INFLIGHT && S.connected) {
    inflight.scene++;
    const scene = S.scene;
    request(sceneMessage(t)).then(
      (r) => {
        inflight.scene--;
        if (r.scene !== S.scene || scene !== S.scene) return;
        S.sceneReply = r;
        S.lastReply = r;
        sceneDirty = true;
      },
      (e) => {
        inflight.scene--;
        showError(e, "scene-err");
      },
    );
  }
  if (sceneDirty && S.sceneReply && S.sceneReply.scene === S.scene) {
    sceneDirty = false;
    S.sceneFrames++;
    clock.frames.push(now);
    $("scene-err").textContent = "";
    drawScene(S.sceneReply);
  }
  updateFps(now);
}

function updateFps(now) {
  const cut = now - 1000;
  while (clock.frames.length && clock.frames[0] < cut) clock.frames.shift();
  while (clock.renders.length && clock.renders[0] < cut) clock.renders.shift();
  const span = Math.min(1000, now - clock.sceneStart);
  if (span < 500) return;
  S.fps = (clock.frames.length * 1000) / span;
  S.renderFps = (clock.renders.length * 1000) / span;
  $("s-fps").textContent = `${S.fps.toFixed(1)} solved frames/s`;
  $("s-rfps").textContent = `${S.renderFps.toFixed(1)} frames/s`;
}

function drawScene(r) {
  const prims = scenePrimitives(r);
  for (const name of Object.keys(VIEWS)) {
    const c = VIEWS[name].canvas;
    const g = c.getContext("2d");
    const vb = viewBox(name);
    g.clearRect(0, 0, c.width, c.height);
    drawGround(g, vb, name);
    for (const p of prims) drawPrim(g, vb, p, name);
  }
  $("s-ms").textContent = `${r.solve_ms.toFixed(3)} ms`;
  $("s-solver").textContent = r.solver || `${r.method}${S.scene === "cyclist" ? " per leg (geoik.solve)" : " (geoik.solve)"}`;
  $("s-status").textContent = sceneStatus(r);
}

function sceneStatus(r) {
  if (r.scene === "arm") return `${r.status}, error ${fmt(r.error)}`;
  if (r.scene === "cyclist") return `left ${r.legs.left.status}, right ${r.legs.right.status}`;
  const n = Object.values(r.fingers).filter((f) => f.status === "REACHED").length;
  return `${n} of 5 fingertips on the ball`;
}

function drawGround(g, vb, name) {
  if (name === "top") return;
  const y = vb.cy;
  g.strokeStyle = "#c9ccce";
  g.lineWidth = 1;
  g.beginPath();
  g.moveTo(0, y);
  g.lineTo(g.canvas.width, y);
  g.stroke();
}

function drawPrim(g, vb, p, name) {
  if (p.only && p.only !== name) return;
  g.strokeStyle = p.color || "#1f6fb2";
  g.fillStyle = p.fill || p.color || "#1f6fb2";
  g.lineWidth = p.width || 2;
  g.setLineDash(p.dash || []);
  if (p.kind === "line") {
    g.beginPath();
    p.pts.forEach((q, k) => {
      const [x, y] = project(vb, q);
      if (k) g.lineTo(x, y);
      else g.moveTo(x, y);
    });
    g.stroke();
    if (p.joints) {
      for (const q of p.joints === true ? p.pts : p.joints) {
        const [x, y] = project(vb, q);
        g.beginPath();
        g.arc(x, y, p.jointRadius || 3, 0, 2 * Math.PI);
        g.fill();
      }
    }
  } else if (p.kind === "ball") {
    const [x, y] = project(vb, p.center);
    g.beginPath();
    g.arc(x, y, p.radius * vb.scale, 0, 2 * Math.PI);
    if (p.fill) g.fill();
    g.stroke();
  } else if (p.kind === "ring") {
    g.beginPath();
    for (let k = 0; k <= 48; k++) {
      const a = (2 * Math.PI * k) / 48;
      const q = p.center.slice();
      q[p.plane[0]] += p.radius * Math.cos(a);
      q[p.plane[1]] += p.radius * Math.sin(a);
      const [x, y] = project(vb, q);
      if (k) g.lineTo(x, y);
      else g.moveTo(x, y);
    }
    g.stroke();
  }
  g.setLineDash([]);
}

function scenePrimitives(r) {
  if (r.scene === "arm") return armPrims(r);
  if (r.scene === "cyclist") return cyclistPrims(r);
  return handPrims(r);
}

function armPrims(r) {
  const yaw = (r.yaw_deg * Math.PI) / 180;
  const sidePts = [[0, 0, 0]].concat(r.planar.map((p) => [p[0], 0, p[1] + r.pedestal]));
  const out = [
    { kind: "line", pts: sidePts, color: "#1f6fb2", width: 6, joints: true, jointRadius: 5, fill: "#0d3b66", only: "side" },
    { kind: "line", pts: r.points, color: "#1f6fb2", width: 6, joints: true, jointRadius: 5, fill: "#0d3b66", only: "top" },
    { kind: "line", pts: r.points, color: "#1f6fb2", width: 6, joints: true, jointRadius: 5, fill: "#0d3b66", only: "front" },
    { kind: "ball", center: [r.target[0], 0, r.target[1] + r.pedestal], radius: 0.06, color: "#d32f2f", only: "side" },
    { kind: "ball", center: r.target3, radius: 0.06, color: "#d32f2f", only: "top" },
    { kind: "ball", center: r.target3, radius: 0.06, color: "#d32f2f", only: "front" },
    { kind: "line", pts: [[0, 0, 0], [2.4 * Math.cos(yaw), 2.4 * Math.sin(yaw), 0]], color: "#c9ccce", width: 1, dash: [4, 4], only: "top" },
  ];
  for (const [rad, color] of [[r.reach[1], "#2e7d32"], [r.reach[0], "#b3261e"]]) {
    if (rad > 0) out.push({ kind: "ring", center: [0, 0, r.pedestal], radius: rad, plane: [0, 2], color, width: 1, dash: [5, 4], only: "side" });
  }
  return out;
}

function cyclistPrims(r) {
  const b = r.bike;
  const out = [];
  for (const w of b.wheels) out.push({ kind: "ring", center: w, radius: b.wheel_radius, plane: [0, 2], color: "#555", width: 2 });
  out.push({ kind: "line", pts: b.frame, color: "#8a8f93", width: 3 });
  out.push({ kind: "line", pts: b.handlebar, color: "#8a8f93", width: 3 });
  out.push({ kind: "line", pts: b.torso, color: "#6d4c41", width: 8 });
  for (const arm of b.arms) out.push({ kind: "line", pts: arm, color: "#8d6e63", width: 5 });
  out.push({ kind: "ball", center: b.head, radius: b.head_radius, color: "#6d4c41", fill: "#d7ccc8" });
  for (const side of ["right", "left"]) {
    const leg = r.legs[side];
    const near = side === "left";
    out.push({ kind: "line", pts: [b.crank, leg.pedal], color: "#333", width: 3 });
    out.push({ kind: "line", pts: [[leg.pedal[0] - 0.05, leg.pedal[1], leg.pedal[2]], [leg.pedal[0] + 0.05, leg.pedal[1], leg.pedal[2]]], color: "#111", width: 4 });
    out.push({ kind: "line", pts: leg.points, color: near ? "#1f6fb2" : "#7fa7cf", width: 7, joints: true, jointRadius: 4, fill: "#0d3b66" });
    out.push({ kind: "line", pts: [leg.points[leg.points.length - 1], leg.toe], color: near ? "#1f6fb2" : "#7fa7cf", width: 5 });
  }
  return out;
}

function handPrims(r) {
  const out = [{ kind: "ball", center: r.ball, radius: r.radius, color: "#1565c0", fill: "rgba(66,133,244,0.25)" }];
  const bones = [];
  r.parents.forEach((p, j) => p >= 0 && bones.push([r.points[p], r.points[j]]));
  for (const bone of bones) out.push({ kind: "line", pts: bone, color: "#8d6e63", width: 6, joints: true, jointRadius: 3, fill: "#4e342e" });
  for (const [f, t] of Object.entries(r.targets)) {
    const ok = r.fingers[f].status === "REACHED";
    out.push({ kind: "ball", center: t, radius: 0.025, color: ok ? "#2e7d32" : "#d32f2f" });
  }
  return out;
}

// ------------------------------------------------------------------ tabs

function setScene(scene) {
  S.scene = scene;
  for (const b of document.querySelectorAll("#tabs button")) b.classList.toggle("active", b.dataset.scene === scene);
  $("chain-panel").hidden = scene !== "chain";
  $("scene-panel").hidden = scene === "chain";
  if (scene === "chain") {
    draw2d();
    return;
  }
  const info = SCENES[scene];
  $("scene-title").textContent = info.title;
  $("scene-help").textContent = info.help;
  ["cap-side", "cap-top", "cap-front"].forEach((id, k) => ($(id).textContent = info.captions[k]));
  $("cadence-row").hidden = scene !== "cyclist";
  $("scene-method").value = "";
  fillSceneMethods();
  clock.frames = [];
  clock.renders = [];
  clock.sceneStart = performance.now();
  S.fps = 0;
  S.renderFps = 0;
  S.sceneReply = null;
  sceneDirty = false;
}

for (const b of document.querySelectorAll("#tabs button")) b.addEventListener("click", () => setScene(b.dataset.scene));

fit(20);
draw2d();
connect();
requestAnimationFrame(sceneLoop);
