// geoik viewer: the 2-D panel. A planar chain solved by the server while the target is dragged,
// the recorded motion replayed with its end-effector trace, the metric map behind the chain,
// the safe zones and the joint limits drawn.
import { $, S, fmt, onDisconnect, request, showError } from "./common.js";
import { anglesAt, fk, tracePath } from "./motion.js";
import { clearMap, drawMap, requestMap } from "./overlay.js";

const c2d = $("c2d");
const g2d = c2d.getContext("2d");
const view = { scale: 20, cx: 330, cy: 290 };
const inflight = { solve: false };
let wantSolve = null;
let dragging = false;
let motion = null; // the last reply's recorded motion
let anim = null;

onDisconnect(() => {
  inflight.solve = false;
});

// ------------------------------------------------------------------ the chain typed in

/** The joint limits field: "" (free), "90" (every joint), "-30:120", or one entry per joint
 *  separated by commas ("none,90,-30:120"). Returns what geoik.Chain.planar takes. */
export function parseLimits(text, n) {
  const t = text.trim();
  if (t === "") return null;
  const entry = (s) => {
    const e = s.trim().toLowerCase();
    if (e === "" || e === "none" || e === "free") return null;
    if (e.includes(":")) {
      const [lo, hi] = e.split(":").map((v) => Number(v.trim()));
      return [lo, hi];
    }
    return Number(e);
  };
  const parts = t.split(",");
  if (parts.length === 1) return entry(parts[0]);
  const out = [];
  for (let i = 0; i < n; i++) out.push(entry(parts[Math.min(i, parts.length - 1)]));
  return out;
}

export function chainSpec() {
  const n = Math.max(1, Math.min(64, Math.round(Number($("links").value) || 1)));
  const parts = $("lengths").value.split(",").map((s) => Number(s.trim()));
  const lengths = [];
  for (let i = 0; i < n; i++) lengths.push(parts.length ? parts[Math.min(i, parts.length - 1)] : 1);
  const spec = { lengths, dim: 2 };
  const limits = parseLimits($("limits").value, n);
  if (limits !== null) spec.max_bend_deg = limits;
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

export function chainChanged() {
  S.angles = null;
  motion = null;
  anim = null;
  const spec = chainSpec();
  fit(spec.lengths.reduce((a, b) => a + Math.abs(b), 0));
  request({ type: "reach", chain: spec }).then(
    (r) => {
      S.reach = r;
      S.limits = r.limits_deg;
      $("reach-text").textContent = `min ${fmt(r.min)}, max ${fmt(r.max)}`;
      $("chain-err").textContent = "";
      if ($("clamp").checked) S.target = clampTarget(S.target);
      draw2d();
    },
    (e) => {
      S.reach = null;
      S.limits = null;
      $("reach-text").textContent = "";
      $("chain-err").textContent = e.message;
      draw2d();
    },
  );
  solveNow({ fromRest: true, motion: true });
  if (S.overlay) loadMap();
}

function fit(total) {
  view.scale = Math.min(c2d.width, c2d.height) / (2.3 * Math.max(total, 1e-9));
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
  const dx = t[0] - b[0],
    dy = t[1] - b[1];
  const d = Math.hypot(dx, dy);
  const want = Math.min(Math.max(d, S.reach.min), S.reach.max);
  if (d === want) return t;
  if (d === 0) return [b[0] + want, b[1]];
  return [b[0] + (dx * want) / d, b[1] + (dy * want) / d];
}

// ------------------------------------------------------------------ solving

/** Ask for a solve; while one is in flight only the newest wish is kept. */
export function solveNow(opts) {
  wantSolve = opts;
  pump();
}

function pump() {
  if (inflight.solve || !wantSolve || !S.connected) return;
  const opts = wantSolve;
  wantSolve = null;
  const msg = Object.assign({ type: "solve", target: S.target, motion: opts.motion }, solveFields());
  const follow = !opts.fromRest && $("follow").checked && S.angles;
  if (follow && S.angles.length === msg.chain.lengths.length) msg.start = S.angles;
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
      S.lastReply = e;
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
  $("r-status").className = r.reached ? "ok" : "bad";
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

// ------------------------------------------------------------------ dragging (mouse and touch)

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
  S.lastPointer = ev.pointerType;
  stopReplay();
  solveNow({ motion: false });
  draw2d();
}

// ------------------------------------------------------------------ replay


function startReplay() {
  if (!motion || motion.keys.length < 1) return;
  const steps = Math.max(1, motion.keys.length - 1);
  const speed = Number($("speed").value) || 1;
  const dur = Math.min(6000, Math.max(1200, steps * 50)) / speed;
  anim = { t0: performance.now(), dur, path: [], f: 0 };
  S.replaying = true;
  requestAnimationFrame(replayFrame);
}

function stopReplay() {
  if (!S.replaying) return;
  S.replaying = false;
  anim = null;
  if (S.lastReply && S.lastReply.positions) setPose(S.lastReply.positions);
}

function replayFrame(now) {
  if (!S.replaying || !anim || !motion) return;
  const keys = motion.keys;
  const spec = chainSpec();
  const base = S.reach ? S.reach.base : [0, 0];
  const u = Math.max(0, Math.min(1, (now - anim.t0) / anim.dur)); // rAF time may precede t0
  const f = u * (keys.length - 1);
  if (!anim.path.length) anim.path.push(fk(base, spec.lengths, keys[0])[spec.lengths.length]);
  if (keys.length > 1) tracePath(keys, base, spec.lengths, anim.f, f, anim.path);
  anim.f = f;
  setPose(fk(base, spec.lengths, anglesAt(keys, f)));
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

// ------------------------------------------------------------------ drawing

export function draw2d() {
  const g = g2d;
  g.setTransform(1, 0, 0, 1, 0, 0);
  g.clearRect(0, 0, c2d.width, c2d.height);
  if (S.overlay) drawMap(g, toScreen, view.scale);
  drawAxes(g);
  if (S.reach && $("zones").checked) drawZones(g);
  if (motion && motion.trace) polyline(g, motion.trace, "rgba(230,120,20,0.5)", 1.5);
  if (anim && anim.path.length > 1) {
    polyline(g, anim.path, "rgba(255,255,255,0.85)", 5.5);
    polyline(g, anim.path, "#e65100", 2.5);
  }
  drawTarget(g, S.target); // under the chain, so that the end effector shows on it
  if (S.positions) {
    if (S.limits && $("showlimits").checked) drawLimits(g, S.positions);
    drawChain(g, S.positions);
  }
}

function drawAxes(g) {
  g.strokeStyle = "rgba(0,0,0,0.08)";
  g.lineWidth = 1;
  g.beginPath();
  g.moveTo(0, view.cy);
  g.lineTo(c2d.width, view.cy);
  g.moveTo(view.cx, 0);
  g.lineTo(view.cx, c2d.height);
  g.stroke();
}

function drawZones(g) {
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

// each limited joint: the directions its link may take, a wedge about the parent link
function drawLimits(g, pos) {
  let heading = 0;
  for (let i = 0; i < pos.length - 1; i++) {
    const lim = S.limits[i];
    const dx = pos[i + 1][0] - pos[i][0],
      dy = pos[i + 1][1] - pos[i][1];
    const len = Math.hypot(dx, dy);
    if (lim) {
      const [x, y] = toScreen(pos[i]);
      const r = Math.max(10, Math.min(46, 0.5 * len * view.scale));
      const a0 = heading + (lim[0] * Math.PI) / 180,
        a1 = heading + (lim[1] * Math.PI) / 180;
      g.fillStyle = "rgba(46,125,50,0.13)";
      g.strokeStyle = "rgba(46,125,50,0.55)";
      g.lineWidth = 1;
      g.beginPath();
      g.moveTo(x, y);
      g.arc(x, y, r, -a0, -a1, true);
      g.closePath();
      g.fill();
      g.stroke();
    }
    if (len > 0) heading = Math.atan2(dy, dx);
  }
}

function polyline(g, pts, color, width) {
  g.strokeStyle = color;
  g.lineWidth = width;
  g.lineJoin = "round";
  g.beginPath();
  pts.forEach((p, k) => {
    const [x, y] = toScreen(p);
    if (k) g.lineTo(x, y);
    else g.moveTo(x, y);
  });
  g.stroke();
}

function drawChain(g, pos) {
  g.lineCap = "round";
  polyline(g, pos, "rgba(255,255,255,0.9)", 8); // a halo keeps the chain visible over the map
  polyline(g, pos, "#0d3b66", 4);
  g.lineWidth = 1.5;
  g.strokeStyle = "#0d3b66";
  g.fillStyle = "#fff";
  for (const p of pos) {
    const [x, y] = toScreen(p);
    g.beginPath();
    g.arc(x, y, 3.5, 0, 2 * Math.PI);
    g.fill();
    g.stroke();
  }
  const [bx, by] = toScreen(pos[0]);
  g.fillStyle = "#1d2327";
  g.fillRect(bx - 6, by - 6, 12, 12);
}

function drawTarget(g, t) {
  const [x, y] = toScreen(t);
  for (const [color, width] of [["rgba(255,255,255,0.9)", 5], ["#d32f2f", 2]]) {
    g.strokeStyle = color;
    g.lineWidth = width;
    crosshair(g, x, y);
  }
}

function crosshair(g, x, y) {
  g.beginPath();
  g.arc(x, y, 8, 0, 2 * Math.PI);
  g.moveTo(x - 12, y);
  g.lineTo(x + 12, y);
  g.moveTo(x, y - 12);
  g.lineTo(x, y + 12);
  g.stroke();
}

// ------------------------------------------------------------------ controls

export function loadMap() {
  const msg = Object.assign({ metric: $("metric").value, size: Number($("mapsize").value) }, solveFields());
  requestMap(msg, draw2d);
}

export function setMethods(reply) {
  const sel = $("method");
  sel.innerHTML = "";
  for (const m of reply.methods) {
    if (!m.dims.includes(2)) continue;
    const o = new Option(m.name, m.name);
    o.title = `${m.summary} (${m.source})`;
    sel.add(o);
  }
  if ([...sel.options].some((o) => o.value === S.method)) sel.value = S.method;
  S.method = sel.value;
  const metric = $("metric");
  const was = metric.value;
  metric.innerHTML = "";
  for (const name of reply.map_metrics) {
    const { words, unit } = reply.map_metric_labels[name];
    const o = new Option(words, name);
    if (unit) o.title = `${words} (${unit})`;
    metric.add(o);
  }
  if (was) metric.value = was;
}

for (const id of ["links", "lengths", "limits", "tol", "maxiter"]) $(id).addEventListener("change", chainChanged);
$("method").addEventListener("change", () => {
  S.method = $("method").value;
  stopReplay();
  solveNow({ fromRest: true, motion: true });
  if (S.overlay) loadMap();
});
$("overlay").addEventListener("change", () => {
  S.overlay = $("overlay").checked;
  if (S.overlay) loadMap();
  else clearMap();
  draw2d();
});
for (const id of ["metric", "mapsize"]) $(id).addEventListener("change", () => S.overlay && loadMap());
for (const id of ["zones", "showlimits"]) $(id).addEventListener("change", draw2d);
$("clamp").addEventListener("change", () => {
  S.target = clampTarget(S.target);
  solveNow({ motion: true });
  draw2d();
});

fit(20);
