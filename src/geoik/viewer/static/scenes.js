// geoik viewer: seed 003's three scenes (robot arm, cyclist, hand grasping a ball), each frame
// solved by the server and drawn as a 3-D model (scenes3d.js) and in three orthographic views.
import { $, S, fmt, onDisconnect, rateText, request, setStale, setTexts, showError } from "./common.js";
import { VIEWS, drawViews, project, unproject, viewBoxes } from "./draw3d.js";
import { SceneView } from "./scenes3d.js";

const SCENES = {
  arm: {
    title: "Robot arm (seed 003 Fig. 5)",
    help:
      "Drag the handle in the 3-D view (drag elsewhere to turn the camera, scroll to zoom), or " +
      "drag in the side view (the arm's own plane) to move the end effector; it stays above the " +
      "floor and within the safe zones. Drag in the top view to turn the base.",
    box: [[-2.5, 2.5], [-2.5, 2.5], [-0.15, 2.75]],
    captions: ["side: the arm's plane (r-z)", "top (x-y)", "front (y-z)"],
    methods: "links3",
    ground: 0,
  },
  cyclist: {
    title: "Cyclist (seed 003 Fig. 6)",
    help:
      "Both legs are solved by the server every frame, each from its previous pose, so that " +
      "the balls of the feet stay on the turning pedals; the knees bend forwards only.",
    box: [[-0.85, 1.0], [-0.6, 0.6], [-0.03, 1.78]],
    captions: ["side, from the right (x-z)", "top (x-y)", "front (y-z)"],
    methods: "links2",
    ground: 0,
  },
  hand: {
    title: "Hand grasping a ball (seed 003 Fig. 7)",
    help:
      "Drag the ball's handle in the 3-D view, or the ball in any other view. Each finger " +
      "closes in its own plane until it touches the ball; the whole hand is one tree solved " +
      "by geoik.tree.solve_tree within its anatomical limits (fingers bend towards the palm only).",
    box: [[-0.7, 2.3], [-1.0, 1.0], [-1.45, 0.45]],
    captions: ["side, from the little finger (x-z)", "top, the back of the hand (x-y)", "front, towards the wrist (y-z)"],
    methods: "tree",
    ground: null,
  },
};
const input = { arm: { target: [1.3, 0.9], yaw: 20 }, hand: { ball: [1.05, 0.0, -0.65] } };
// t: the animation's time in seconds, which runs only while "animate" is on
const clock = { t: 0, last: performance.now(), frames: [], renders: [], sceneStart: performance.now(), shown: 0 };
const inflight = { scene: 0 };
const MAX_INFLIGHT = 3; // pipelined: frames are solved while earlier ones travel
let drag = null;
let dirty = false;
// the id of the last request sent when the 3-D handle last moved: a reply to a request sent
// before then answers an older place of the handle, and does not move it back there
let handleMovedAfter = 0;
let boxes = viewBoxes(SCENES.arm.box);
let view3d = null; // made when a scene is first shown (WebGL needs a laid-out canvas)

/** The handle dragged in the 3-D view moves what the scene's drag moves. */
function handleMoved(h) {
  $("auto").checked = false;
  handleMovedAfter = S.lastSent;
  const [x, y, z] = [h.position.x, h.position.y, h.position.z];
  if (S.scene === "arm") {
    const ped = S.sceneReply && S.sceneReply.scene === "arm" ? S.sceneReply.pedestal : 0.3;
    input.arm.target = [Math.hypot(x, y), z - ped];
    input.arm.yaw = (Math.atan2(y, x) * 180) / Math.PI;
  } else if (S.scene === "hand") {
    input.hand.ball = [x, y, z];
  }
}

onDisconnect(() => {
  inflight.scene = 0;
});

export function fillSceneMethods() {
  const sel = $("scene-method");
  const info = SCENES[S.scene];
  if (!info) return;
  const prev = sel.value;
  sel.innerHTML = "";
  if (info.methods === "tree") {
    for (const m of S.treeMethods) sel.add(new Option(m, m));
  } else {
    const links = info.methods === "links3" ? 3 : 2;
    for (const m of S.methods) {
      const [lo, hi] = m.links;
      if (m.dims.includes(2) && links >= lo && (hi === null || links <= hi)) sel.add(new Option(m.name, m.name));
    }
  }
  const fallback = info.methods === "tree" ? "circles" : "fabrik";
  const pick = [...sel.options].find((o) => o.value === prev) || [...sel.options].find((o) => o.value === fallback);
  if (pick) sel.value = pick.value;
}

S.viewToClient = (name, p3) => {
  const c = VIEWS[name].canvas;
  const r = c.getBoundingClientRect();
  const [x, y] = project(boxes[name], p3);
  return [r.left + (x * r.width) / c.width, r.top + (y * r.height) / c.height];
};

for (const name of Object.keys(VIEWS)) {
  const c = VIEWS[name].canvas;
  c.addEventListener("pointerdown", (ev) => {
    if (S.scene === "cyclist") return;
    drag = name;
    c.setPointerCapture(ev.pointerId);
    $("auto").checked = false;
    dragTo(name, ev);
  });
  c.addEventListener("pointermove", (ev) => drag === name && dragTo(name, ev));
  const end = () => (drag = null);
  c.addEventListener("pointerup", end);
  c.addEventListener("pointercancel", end);
}

function dragTo(name, ev) {
  const q = unproject(boxes[name], VIEWS[name].canvas, ev);
  if (S.scene === "arm") {
    const ped = S.sceneReply && S.sceneReply.scene === "arm" ? S.sceneReply.pedestal : 0.3;
    if (name === "side") input.arm.target = [q.u, q.v - ped];
    else if (name === "top") input.arm.yaw = (Math.atan2(q.v, q.u) * 180) / Math.PI;
  } else if (S.scene === "hand") {
    const ball = input.hand.ball.slice();
    ball[q.a] = q.u;
    ball[q.b] = q.v;
    input.hand.ball = ball;
  }
}

function animateInputs(t) {
  if (!$("auto").checked) return;
  if (S.scene === "arm") {
    input.arm.target = [1.25 + 0.6 * Math.cos(0.9 * t), 0.8 + 0.7 * Math.sin(1.3 * t)];
    input.arm.yaw = 35 * Math.sin(0.5 * t);
  } else if (S.scene === "hand") {
    // in and out of the grasp: the fingertips meet the ball, then reach for it
    input.hand.ball = [1.05 + 0.2 * Math.sin(0.6 * t), 0.06 * Math.sin(0.9 * t), -0.66 + 0.06 * Math.sin(1.3 * t)];
  }
}

function sceneMessage(t) {
  const method = $("scene-method").value || undefined;
  if (S.scene === "arm") return { type: "scene", scene: "arm", target: input.arm.target, yaw_deg: input.arm.yaw, method };
  if (S.scene === "cyclist") return { type: "scene", scene: "cyclist", t, cadence: Number($("cadence").value), method };
  return { type: "scene", scene: "hand", ball: input.hand.ball, radius: 0.35, method };
}

let sentKey = ""; // the last message sent: the next is sent only when it differs
// whether the scene's current input is still to be sent (it goes on the next frame once a
// request is free): tests wait for false before reading a reply as the last input's
Object.defineProperty(S, "sceneQueued", {
  get: () => Boolean(SCENES[S.scene]) && JSON.stringify(sceneMessage(clock.t)) !== sentKey,
  enumerable: true,
});

export function sceneLoop(now) {
  requestAnimationFrame(sceneLoop);
  if (!SCENES[S.scene]) return;
  if ($("auto").checked) clock.t += Math.min(0.1, (now - clock.last) / 1000);
  clock.last = now;
  animateInputs(clock.t);
  const msg = sceneMessage(clock.t);
  const key = JSON.stringify(msg);
  if (key !== sentKey && inflight.scene < MAX_INFLIGHT && S.connected) {
    sentKey = key;
    inflight.scene++;
    const scene = S.scene;
    request(msg).then(
      (r) => {
        inflight.scene--;
        if (r.scene !== S.scene || scene !== S.scene) return;
        S.sceneReply = r;
        S.lastReply = r;
        dirty = true;
      },
      (e) => {
        inflight.scene--;
        if (scene !== S.scene) return;
        showError(e, "scene-err");
        invalidateScene();
      },
    );
  }
  if (dirty && S.sceneReply && S.sceneReply.scene === S.scene) {
    dirty = false;
    S.sceneFrames++;
    clock.frames.push(now);
    $("scene-err").textContent = "";
    drawScene(S.sceneReply);
  }
  if (view3d && view3d.view.render()) clock.renders.push(now);
  updateFps(now);
}

/** An error: the readouts show "–" and the views keep the last frame, greyed, until a new
 *  frame is solved. */
function invalidateScene() {
  S.sceneStale = true;
  setTexts({ "s-status": "–", "s-iter": "–", "s-ms": "–", "s-solver": "–" });
  $("scene-detail").innerHTML = "";
  setStale($("v-3d"), true);
  setStale(document.querySelector("#scene-panel .ortho"), true);
}

function updateFps(now) {
  const cut = now - 1000;
  while (clock.frames.length && clock.frames[0] < cut) clock.frames.shift();
  while (clock.renders.length && clock.renders[0] < cut) clock.renders.shift();
  const span = Math.min(1000, now - clock.sceneStart);
  if (span < 500 || now - clock.shown < 500) return; // the readout changes twice a second
  clock.shown = now;
  S.fps = (clock.frames.length * 1000) / span;
  S.renderFps = (clock.renders.length * 1000) / span;
  setTexts({
    "s-fps": S.fps ? `${S.fps.toFixed(1)} frames/s` : rateText(0),
    "s-rfps": S.renderFps ? `${S.renderFps.toFixed(1)} frames/s` : rateText(0),
  });
}

function drawScene(r) {
  S.sceneDrawn = r.id; // the reply drawn last: tests wait for the last reply's drawing
  const prims = r.scene === "arm" ? armPrims(r) : r.scene === "cyclist" ? cyclistPrims(r) : handPrims(r);
  drawViews(boxes, prims, SCENES[r.scene].ground);
  view3d.draw(r, r.id > handleMovedAfter);
  if (S.sceneStale) {
    S.sceneStale = false;
    setStale($("v-3d"), false);
    setStale(document.querySelector("#scene-panel .ortho"), false);
  }
  setTexts({
    "s-ms": `${r.solve_ms.toFixed(3)} ms`,
    "s-iter": String(r.iterations),
    "s-solver": r.solver || `${r.method}, geoik.solve${r.scene === "cyclist" ? " per leg" : ""}`,
    "s-status": sceneStatus(r),
  });
  const detail = sceneDetail(r);
  if (detail !== shownDetail) {
    shownDetail = detail;
    $("scene-detail").innerHTML = detail;
  }
}

let shownDetail = "";

function sceneStatus(r) {
  if (r.scene === "arm") return `${r.status}, error ${fmt(r.error)}`;
  if (r.scene === "cyclist") return `left ${r.legs.left.status}, right ${r.legs.right.status}`;
  return `${r.on_ball} of 5 fingertips on the ball`;
}

const TOUCH = { tip: "fingertip on the ball", finger: "touches it, not with the tip", none: "does not reach it" };

function sceneDetail(r) {
  if (r.scene === "cyclist") {
    const leg = (s) => `${s}: knee ${r.legs[s].knee_deg.toFixed(0)}°, error ${fmt(r.legs[s].error)}`;
    return `crank ${r.crank_deg.toFixed(0)}°<br>${leg("left")}<br>${leg("right")}`;
  }
  if (r.scene !== "hand") return "";
  const rows = Object.entries(r.fingers).map(([f, v]) => {
    const bends = v.bends_deg.map((b) => b.toFixed(0)).join(", ");
    return `<tr class="t-${v.touch}"><th>${f}</th><td>${TOUCH[v.touch]}</td><td>${bends}°</td></tr>`;
  });
  const pin = `palm edge held: ${r.pin.status}`;
  return `<table class="fingers"><tr><th></th><th>contact</th><th>bends</th></tr>${rows.join("")}</table><div>${pin}</div>`;
}

// ------------------------------------------------------------------ the scenes' drawings

// the arm's planar pose (r, z) put in 3-D, turned by the yaw about the vertical
function armGeometry(r, yaw) {
  const c = Math.cos(yaw),
    s = Math.sin(yaw),
    ped = r.pedestal;
  const at = (q) => [q[0] * c, q[0] * s, q[1] + ped];
  const links = r.planar.map(at);
  const n = r.planar.length;
  const [x1, z1] = r.planar[n - 2],
    [x2, z2] = r.planar[n - 1];
  const len = Math.hypot(x2 - x1, z2 - z1) || 1;
  const u = [(x2 - x1) / len, (z2 - z1) / len],
    w = [-u[1], u[0]];
  const jaw = (k) => [
    at([x2 + 0.08 * k * w[0], z2 + 0.08 * k * w[1]]),
    at([x2 + 0.08 * k * w[0] + 0.14 * u[0], z2 + 0.08 * k * w[1] + 0.14 * u[1]]),
  ];
  return { links, gripper: [jaw(1), jaw(-1), [jaw(1)[0], jaw(-1)[0]]] };
}

function armPrims(r) {
  const ped = r.pedestal;
  const yaw = (r.yaw_deg * Math.PI) / 180;
  const out = [{ kind: "cyl", center: [0, 0, 0], radius: 0.2, height: ped, color: "#4a4f53", fill: "#8a8f93", layer: -1 }];
  for (const [geom, views] of [[armGeometry(r, 0), ["side"]], [armGeometry(r, yaw), ["top", "front"]]]) {
    for (const only of views) {
      out.push({ kind: "line", pts: geom.links, color: "#f29f05", size: 0.12, joints: true, jointRadius: 7, jointColor: "#3b3b3b", only });
      for (const jaw of geom.gripper) out.push({ kind: "line", pts: jaw, color: "#3b3b3b", size: 0.035, only, bias: 0.01 });
    }
  }
  out.push({ kind: "target", center: [r.target[0], 0, r.target[1] + ped], color: "#d32f2f", layer: 2, only: "side" });
  for (const only of ["top", "front"]) out.push({ kind: "target", center: r.target3, color: "#d32f2f", layer: 2, only });
  out.push({ kind: "line", pts: [[0, 0, 0], [2.4 * Math.cos(yaw), 2.4 * Math.sin(yaw), 0]], color: "#9aa0a4", width: 1, dash: [4, 4], layer: -2, only: "top" });
  for (const [rad, color] of [[r.reach[1], "#2e7d32"], [r.reach[0], "#b3261e"]]) {
    if (rad > 0) out.push({ kind: "ring", center: [0, 0, ped], radius: rad, plane: [0, 2], color, width: 1, dash: [5, 4], layer: -2, only: "side" });
  }
  return out;
}

const SKIN = "#e3b08a";
const SKIN_EDGE = "#a8704c";

function cyclistPrims(r) {
  const b = r.bike,
    rd = r.rider;
  const out = [];
  for (const w of b.wheels) {
    out.push({ kind: "ring", center: w, radius: b.wheel_radius - 0.012, plane: [0, 2], color: "#2b2b2b", size: 0.025 });
    out.push({ kind: "ring", center: w, radius: 0.03, plane: [0, 2], color: "#777", width: 2 });
  }
  for (const tube of b.tubes) out.push({ kind: "line", pts: tube, color: "#b71c1c", size: 0.035 });
  out.push({ kind: "line", pts: b.saddle, color: "#222", size: 0.045 });
  out.push({ kind: "line", pts: b.handlebar, color: "#444", size: 0.03 });
  out.push({ kind: "ring", center: b.chainring.center, radius: b.chainring.radius, plane: [0, 2], color: "#666", size: 0.015 });
  out.push({ kind: "line", pts: rd.pelvis, color: "#263238", size: 0.14 });
  out.push({ kind: "line", pts: rd.torso, color: "#1565c0", size: 0.24 });
  out.push({ kind: "line", pts: rd.shoulders, color: "#1565c0", size: 0.12 });
  for (const arm of rd.arms) out.push({ kind: "line", pts: arm, color: SKIN, size: 0.065 });
  out.push({ kind: "ball", center: rd.head, radius: rd.head_radius, color: SKIN_EDGE, fill: SKIN });
  for (const side of ["left", "right"]) {
    const leg = r.legs[side];
    const near = side === "right"; // the side view looks at the rider's right
    out.push({ kind: "line", pts: leg.crank, color: "#333", size: 0.025 });
    const [px, py, pz] = leg.pedal;
    const s = Math.sign(py);
    out.push({ kind: "line", pts: [[px, py - 0.05 * s, pz], [px, py + 0.05 * s, pz]], color: "#111", size: 0.03 });
    const [hip, knee, ankle] = leg.points;
    const tone = near ? "#263238" : "#607d8b";
    out.push({ kind: "line", pts: [hip, knee], color: tone, size: 0.13, bias: 0.002 });
    out.push({ kind: "line", pts: [knee, ankle], color: tone, size: 0.1, bias: 0.002 });
    out.push({ kind: "dots", pts: leg.points, radius: 3.5, fill: "#cfd8dc", bias: 0.003 });
    out.push({ kind: "poly", pts: leg.foot, fill: near ? "#37474f" : "#78909c", color: "#111", width: 1, bias: 0.001 });
  }
  return out;
}

const FINGER_SIZE = [0.19, 0.17, 0.15];

function handPrims(r) {
  const pos = r.points,
    idx = (n) => r.names.indexOf(n);
  const out = [
    { kind: "ball", center: r.ball, radius: r.radius, color: "#0d47a1", shade: ["rgba(144,202,249,0.92)", "rgba(21,101,192,0.88)"], width: 1 },
    { kind: "line", pts: [[-0.75, 0, -0.1], [0.02, 0, -0.1]], color: SKIN, size: 0.44, layer: -1 },
    // the palm as a slab: its outline and the same 0.22 dm lower, seen as a solid
    { kind: "hull", pts: r.palm.concat(r.palm.map((q) => [q[0], q[1], q[2] - 0.22])), fill: "#eabd98", color: SKIN_EDGE, width: 1.5 },
  ];
  for (const [f, v] of Object.entries(r.fingers)) {
    const joints = [idx(f + "_1") >= 0 ? r.parents[idx(f + "_1")] : -1, idx(f + "_1"), idx(f + "_2"), idx(f)];
    for (let k = 0; k < 3; k++) {
      const seg = [pos[joints[k]], pos[joints[k + 1]]];
      const size = (f === "thumb" ? 1.15 : 1) * FINGER_SIZE[k];
      out.push({ kind: "line", pts: seg, color: SKIN_EDGE, size: size + 0.03 });
      out.push({ kind: "line", pts: seg, color: SKIN, size, bias: 1e-6, joints: [seg[0]], jointRadius: 2, jointColor: SKIN_EDGE });
    }
    const color = { tip: "#2e7d32", finger: "#ef6c00", none: "#9e9e9e" }[v.touch];
    out.push({ kind: "ball", center: pos[idx(f)], radius: 0.045, fill: color, color: "#1d2327", width: 1, bias: 0.02 });
  }
  return out;
}

/** Show a scene (or the 2-D panel: "chain"). */
export function setScene(scene) {
  const info = SCENES[scene];
  if (!view3d) {
    view3d = new SceneView($("v-3d"));
    view3d.view.onHandle = handleMoved;
    S.view3d.scene = view3d.view;
  }
  view3d.setScene(scene);
  $("scene-title").textContent = info.title;
  $("scene-help").textContent = info.help;
  ["cap-side", "cap-top", "cap-front"].forEach((id, k) => ($(id).textContent = info.captions[k]));
  $("cadence-row").hidden = scene !== "cyclist";
  boxes = viewBoxes(info.box);
  $("scene-method").innerHTML = ""; // each scene starts with its default solver
  fillSceneMethods();
  clock.frames = [];
  clock.renders = [];
  clock.sceneStart = performance.now();
  clock.shown = 0;
  S.fps = 0;
  S.renderFps = 0;
  S.sceneReply = null;
  sentKey = "";
  shownDetail = "";
  $("scene-detail").innerHTML = "";
  setTexts({ "s-status": "–", "s-iter": "–", "s-ms": "–", "s-solver": "–", "s-fps": "–", "s-rfps": "–" });
  dirty = false;
}
