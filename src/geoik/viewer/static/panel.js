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
let motion = null; // the last reply's recorded motion, with the link lengths it was solved for
let anim = null;
let fieldsGen = 0; // counts edits of the fields: a reply to older fields is not shown

onDisconnect(() => {
  inflight.solve = false;
});

// ------------------------------------------------------------------ the fields, checked as typed

/** A field's value refused as typed: the message names the field by its label. */
class FieldError extends Error {
  constructor(id, text) {
    super(`${$(id).dataset.label}: ${text}`);
    this.id = id;
  }
}

const quote = (text) => `“${text.length > 40 ? text.slice(0, 40) + "…" : text}”`;
const NUMBER = /^[+-]?(\d+\.?\d*|\.\d+)(e[+-]?\d+)?$/i;

/** ``text`` as a finite number, or null if it is not one as typed. */
function numberOf(text) {
  const t = text.trim();
  return NUMBER.test(t) ? Number(t) : null;
}

/** A whole number from ``lo`` to ``hi`` typed in field ``id``; ``fallback`` when empty (if
 *  allowed). */
function wholeNumber(id, lo, hi, fallback = undefined) {
  const text = $(id).value;
  if (text.trim() === "" && fallback !== undefined) return fallback;
  const v = numberOf(text);
  if (v === null || !Number.isInteger(v) || v < lo || v > hi) {
    throw new FieldError(id, `expected a whole number from ${lo} to ${hi}, got ${quote(text)}`);
  }
  return v;
}

/** One value for every link or one per link: the entries of a comma-separated field. */
function entries(id, n, what) {
  const parts = $(id).value.split(",");
  if (n !== null && parts.length !== 1 && parts.length !== n) {
    throw new FieldError(id, `expected one ${what} for every link or one per link (${n}), got ${parts.length}`);
  }
  return parts;
}

/** The lengths field: positive numbers within the server's cap. */
function readLengths(n) {
  const cap = S.caps.coordinate;
  const values = entries("lengths", n, "length").map((part, i, all) => {
    const v = numberOf(part);
    if (v === null || !(v > 0) || v > cap) {
      const which = all.length > 1 ? ` (link ${i + 1})` : "";
      throw new FieldError("lengths", `expected a length > 0 and at most ${cap}${which}, got ${quote(part.trim())}`);
    }
    return v;
  });
  return n === null ? values : Array.from({ length: n }, (_, i) => values[Math.min(i, values.length - 1)]);
}

/** The joint limits field: "" (free), "90" (every joint), "-30:120", or one entry per joint
 *  separated by commas ("none,90,-30:120"), as the command line takes them. Returns what
 *  geoik.Chain.planar takes. */
export function parseLimits(text, n) {
  if (text.trim() === "") return null;
  const parts = entries("limits", n, "limit");
  const entry = (s, i) => {
    const e = s.trim().toLowerCase();
    const which = parts.length > 1 ? ` (joint ${i + 1})` : "";
    if (e === "none" || e === "free" || (e === "" && parts.length > 1)) return null;
    if (e.includes(":")) {
      const [lo, hi] = e.split(":").map(numberOf);
      const ok = lo !== null && hi !== null && Math.abs(lo) <= 180 && Math.abs(hi) <= 180 && lo <= hi;
      if (!ok) throw new FieldError("limits", `expected a range min:max within -180:180 degrees${which}, got ${quote(s.trim())}`);
      return [lo, hi];
    }
    const b = numberOf(e);
    if (b === null || b < 0 || b > 180) {
      throw new FieldError("limits", `expected a maximum bend from 0 to 180 degrees, min:max or none${which}, got ${quote(s.trim())}`);
    }
    return b;
  };
  if (parts.length === 1) return entry(parts[0], 0);
  return parts.map(entry);
}

/** Whether solver ``m`` (from the methods reply) takes a planar chain of ``n`` links; the
 *  reason it does not, otherwise. */
function refusal(m, n) {
  const [lo, hi] = m.links;
  if (n >= lo && (hi === null || n <= hi)) return null;
  const want = hi === lo ? `exactly ${lo}` : hi === null ? `at least ${lo}` : `${lo} to ${hi}`;
  return `needs ${want} links`;
}

/** Every field read and checked as typed: the chain, the solver and its settings, and the
 *  fields refused (each with its message). Nothing is sent while one is refused. */
function readFields() {
  const errors = [];
  const attempt = (f, fallback) => {
    try {
      return f();
    } catch (e) {
      if (!(e instanceof FieldError)) throw e;
      errors.push({ id: e.id, label: $(e.id).dataset.label, message: e.message });
      return fallback;
    }
  };
  const n = attempt(() => wholeNumber("links", 1, S.caps.links), null);
  const lengths = attempt(() => readLengths(n), null);
  const limits = attempt(() => parseLimits($("limits").value, n), null);
  const total = lengths ? lengths.reduce((a, b) => a + b, 0) : null;
  const tol = attempt(() => {
    const text = $("tol").value;
    if (text.trim() === "") return null;
    const v = numberOf(text);
    if (v === null || !(v > 0) || (total !== null && v >= total)) {
      const below = total !== null ? ` and below the chain's length (${fmt(total)})` : "";
      throw new FieldError("tol", `expected a distance > 0${below}, got ${quote(text.trim())}`);
    }
    return v;
  }, null);
  const maxIter = attempt(() => wholeNumber("maxiter", 1, S.caps.max_iter, null), null);
  const method = S.methods.find((m) => m.name === S.method);
  if (method && n !== null) {
    attempt(() => {
      const why = refusal(method, n);
      if (why) throw new FieldError("method", `${method.name} ${why}; this chain has ${n}: pick another`);
    });
  }
  const spec = lengths ? { lengths, dim: 2 } : null;
  if (spec && limits !== null) spec.max_bend_deg = limits;
  return { n, spec, tol, maxIter, errors };
}

/** Check every field, mark the refused ones (by this page, or by the server until the fields
 *  are ``edited``) and name them in one message; grey out the solvers the chain rules out.
 *  Returns the fields as read, with every refusal in ``errors``. */
export function checkFields(edited = false) {
  const f = readFields();
  if (edited) serverMarks.clear(); // the server's verdict holds until the fields are edited
  markFields(f.errors);
  f.errors = S.invalid;
  if (f.n !== null) fillSolverStates(f.n);
  return f;
}

const FIELD_IDS = ["method", "links", "lengths", "limits", "tol", "maxiter"];
const serverMarks = new Map(); // field id -> message of the server's last error on it

function markFields(errors) {
  S.invalid = errors.concat([...serverMarks].map(([id, message]) => ({ id, label: $(id).dataset.label, message })));
  const bad = new Set(S.invalid.map((e) => e.id));
  for (const id of FIELD_IDS) {
    const el = $(id);
    if (bad.has(id)) el.setAttribute("aria-invalid", "true");
    else el.removeAttribute("aria-invalid");
  }
  $("chain-err").textContent = S.invalid.map((e) => e.message).join("\n");
}

function fillSolverStates(n) {
  for (const o of $("method").options) {
    const m = S.methods.find((x) => x.name === o.value);
    const why = m ? refusal(m, n) : null;
    o.disabled = Boolean(why) && o.value !== S.method;
    o.textContent = why ? `${o.value} (${why})` : o.value;
    o.title = why ? `${o.value} ${why}; this chain has ${n}` : m ? `${m.summary} (${m.source})` : "";
  }
}

/** The server's error ``e`` in the user's words: the field's label instead of its name in the
 *  message (``chain.lengths[2]`` is "lengths (link 3)"), and the field marked. False if the
 *  error names no field of the panel. */
const SERVER_FIELDS = [
  [/^chain\.lengths(?:\[(\d+)\])?$/, "lengths", "link"],
  [/^chain\.max_bend_deg(?:\[(\d+)\])?$/, "limits", "joint"],
  [/^chain$/, "method", null],
  [/^chain\./, "links", null],
  [/^tol$/, "tol", null],
  [/^max_iter$/, "maxiter", null],
  [/^method$/, "method", null],
];

function markServerError(e) {
  if (!e || typeof e.field !== "string") return false;
  for (const [pattern, id, unit] of SERVER_FIELDS) {
    const m = e.field.match(pattern);
    if (!m) continue;
    const which = unit && m[1] !== undefined ? ` (${unit} ${Number(m[1]) + 1})` : "";
    const text = e.message.startsWith(e.field) ? e.message.slice(e.field.length).replace(/^:\s*/, "") : e.message;
    serverMarks.set(id, `${$(id).dataset.label}${which}: ${text}`);
    markFields(S.invalid.filter((x) => !serverMarks.has(x.id)));
    return true;
  }
  return false;
}

// ------------------------------------------------------------------ stale readouts

const READOUTS = ["r-status", "r-iter", "r-error", "r-tol", "r-rot5", "r-rotsum", "r-path", "r-ms", "r-rtt"];

/** The readouts no longer describe the fields: show "–" and keep the last pose drawn, greyed,
 *  until a new solve succeeds. ``why``: words for the canvas. */
function invalidate(why) {
  S.stale = why;
  for (const id of READOUTS) {
    $(id).textContent = "–";
    $(id).className = "";
  }
  $("reach-text").textContent = "–";
  motion = null;
  anim = null;
  S.replaying = false;
  draw2d();
}

function freshen() {
  S.stale = null;
}

/** The chain, solver and settings as a message's fields, or null while a field is refused. */
function solveFields() {
  const f = checkFields();
  if (f.errors.length) return null;
  const msg = { chain: f.spec, method: S.method };
  if (f.tol !== null) msg.tol = f.tol;
  if (f.maxIter !== null) msg.max_iter = f.maxIter;
  return msg;
}

/** A field was committed (Enter, or focus left it): solve the chain anew, from its rest pose;
 *  a refused field only marks the readouts as stale. */
export function chainChanged() {
  S.angles = null;
  motion = null;
  anim = null;
  const fields = solveFields();
  if (!fields) {
    invalidate(`not solved: ${S.invalid.map((e) => e.label).join(", ")} to fix`);
    return;
  }
  const spec = fields.chain;
  fit(spec.lengths.reduce((a, b) => a + Math.abs(b), 0));
  request({ type: "reach", chain: spec }).then(
    (r) => {
      S.reach = r;
      S.limits = r.limits_deg;
      $("reach-text").textContent = `min ${fmt(r.min)}, max ${fmt(r.max)}`;
      if ($("clamp").checked) S.target = clampTarget(S.target);
      draw2d();
    },
    (e) => {
      S.reach = null;
      S.limits = null;
      if (!markServerError(e)) showError(e);
      invalidate("not solved: the chain was refused");
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
  const fields = solveFields();
  if (!fields) return; // a field is refused: nothing is sent until it is fixed
  const opts = wantSolve;
  wantSolve = null;
  const msg = Object.assign({ type: "solve", target: S.target, motion: opts.motion }, fields);
  const follow = !opts.fromRest && $("follow").checked && S.angles;
  if (follow && S.angles.length === msg.chain.lengths.length) msg.start = S.angles;
  inflight.solve = true;
  const gen = fieldsGen;
  request(msg).then(
    (r) => {
      inflight.solve = false;
      if (gen === fieldsGen) gotSolve(r, opts, msg.chain); // else: of fields since changed
      pump();
    },
    (e) => {
      inflight.solve = false;
      if (gen === fieldsGen && e && e.field === "start") {
        S.angles = null; // the limits changed under the last pose: again from the rest pose
        if (!wantSolve) wantSolve = Object.assign({}, opts, { fromRest: true });
      } else if (gen === fieldsGen) {
        S.lastReply = e;
        if (!markServerError(e)) showError(e);
        invalidate(`not solved: ${S.invalid.length ? S.invalid.map((x) => x.label).join(", ") + " to fix" : "see the message"}`);
      }
      pump();
    },
  );
}

function gotSolve(r, opts, chain) {
  freshen();
  $("err").textContent = "";
  S.lastReply = r;
  S.angles = r.angles;
  if (r.motion) motion = Object.assign(r.motion, { lengths: chain.lengths });
  else if (!opts.keepMotion) motion = null;
  if (!S.replaying) setPose(r.positions);
  $("r-status").textContent = r.status;
  $("r-status").className = r.reached ? "ok" : "bad";
  $("r-iter").textContent = r.iterations;
  $("r-error").textContent = fmt(r.error);
  $("r-tol").textContent = fmt(r.tol);
  $("r-rot5").textContent = r.costs.rotations_over_5deg;
  $("r-rotsum").textContent = `${r.costs.rotation_sum_deg.toFixed(1)}°`;
  $("r-path").textContent = fmt(r.costs.path_length);
  $("r-ms").textContent = `${r.solve_ms.toFixed(3)} ms`;
  $("r-rtt").textContent = `${r.rtt_ms.toFixed(1)} ms`;
  if (S.reach && $("reach-text").textContent === "–") $("reach-text").textContent = `min ${fmt(S.reach.min)}, max ${fmt(S.reach.max)}`;
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
  const spec = motion; // the lengths the motion was solved for
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
  const fresh = !S.stale;
  if (S.overlay && fresh) drawMap(g, toScreen, view.scale);
  drawAxes(g);
  drawScale(g);
  if (fresh && S.reach && $("zones").checked) drawZones(g);
  if (fresh && motion && motion.trace) polyline(g, motion.trace, "rgba(230,120,20,0.5)", 1.5);
  if (anim && anim.path.length > 1) {
    polyline(g, anim.path, "rgba(255,255,255,0.85)", 5.5);
    polyline(g, anim.path, "#e65100", 2.5);
  }
  drawTarget(g, S.target); // under the chain, so that the end effector shows on it
  if (S.positions) {
    if (fresh && S.limits && $("showlimits").checked) drawLimits(g, S.positions);
    drawChain(g, S.positions, fresh ? "#0d3b66" : "#a3a9ad");
  }
  if (!fresh) {
    const k = c2d.width / (c2d.clientWidth || c2d.width);
    g.font = `${Math.round(14 * k)}px system-ui, sans-serif`;
    g.fillStyle = "#b3261e";
    g.textBaseline = "top";
    g.fillText(S.stale, 10 * k, 10 * k);
  }
}

/** A scale bar in the bottom-left corner: a round length in the unit of the link lengths. */
function drawScale(g) {
  const k = c2d.width / (c2d.clientWidth || c2d.width); // canvas pixels per screen pixel
  const want = (110 * Math.min(k, 1.6)) / view.scale; // about 110 screen pixels
  const e = Math.pow(10, Math.floor(Math.log10(want)));
  const len = [1, 2, 5, 10].map((k) => k * e).filter((v) => v <= want).pop() || e;
  const px = len * view.scale;
  const x = 14 * k,
    y = c2d.height - 14 * k;
  g.strokeStyle = "#3b4247";
  g.fillStyle = "#3b4247";
  g.lineWidth = 2;
  g.beginPath();
  g.moveTo(x, y - 5 * k);
  g.lineTo(x, y);
  g.lineTo(x + px, y);
  g.lineTo(x + px, y - 5 * k);
  g.stroke();
  g.font = `${Math.round(12 * k)}px system-ui, sans-serif`;
  g.textBaseline = "bottom";
  const text = `${Number(len.toPrecision(6))} (unit of the lengths)`;
  g.fillText(text, x, y - 6 * k);
  S.scaleBar = { length: len, pixels: px, text };
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

function drawChain(g, pos, ink) {
  g.lineCap = "round";
  polyline(g, pos, "rgba(255,255,255,0.9)", 8); // a halo keeps the chain visible over the map
  polyline(g, pos, ink, 4);
  g.lineWidth = 1.5;
  g.strokeStyle = ink;
  g.fillStyle = "#fff";
  for (const p of pos) {
    const [x, y] = toScreen(p);
    g.beginPath();
    g.arc(x, y, 3.5, 0, 2 * Math.PI);
    g.fill();
    g.stroke();
  }
  const [bx, by] = toScreen(pos[0]);
  g.fillStyle = ink;
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
  const fields = solveFields();
  if (!fields) return;
  requestMap(Object.assign({ metric: $("metric").value, size: Number($("mapsize").value) }, fields), draw2d);
}

export function setMethods(reply) {
  const sel = $("method");
  sel.innerHTML = "";
  for (const m of reply.methods) {
    if (!m.dims.includes(2)) continue;
    sel.add(new Option(m.name, m.name));
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
  checkFields();
}

// typing checks the field at once (marked, named); committing it (Enter, or leaving it) solves
for (const id of ["links", "lengths", "limits", "tol", "maxiter"]) {
  $(id).addEventListener("input", () => {
    fieldsGen++;
    const f = checkFields(true);
    if (f.errors.length) invalidate(`not solved: ${f.errors.map((e) => e.label).join(", ")} to fix`);
  });
  $(id).addEventListener("change", () => {
    fieldsGen++;
    checkFields(true);
    chainChanged();
  });
}
$("method").addEventListener("change", () => {
  fieldsGen++;
  S.method = $("method").value;
  stopReplay();
  if (checkFields(true).errors.length) {
    invalidate(`not solved: ${S.invalid.map((e) => e.label).join(", ")} to fix`);
    return;
  }
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
