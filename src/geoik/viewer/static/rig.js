// geoik viewer: the BVH clip the server was started with (geoik view --bvh FILE). The page plays
// it, asking the server for each frame; pinned joints (a hand or foot the user pressed and
// dragged) are re-solved on every frame as geoik pose does; Save writes the posed clip.
import { $, S, fmt, onDisconnect, rateText, request, setStale, setTexts, showError } from "./common.js";
import { Solids, THREE, View3D } from "./view3d.js";

const MAX_INFLIGHT = 3;
const G = (S.rig = { clip: null, reply: null, frame: 0, playing: true, pins: [], selected: null, frames: 0, fps: 0, drawFps: 0, saved: null });
let view = null;
let solids = null;
const st = { inflight: 0, t0: 0, f0: 0, sentKey: "", times: [], renders: [], shown: 0, effectors: [], ray: new THREE.Raycaster(), pointer: new THREE.Vector2() };

onDisconnect(() => (st.inflight = 0));

/** Show the rig panel (made on first use: WebGL needs a laid-out canvas). */
export function showRig() {
  const none = !S.models.clip;
  $("g-none").hidden = !none;
  $("g-controls").hidden = none;
  if (none || G.clip || st.asked) return;
  st.asked = true;
  request({ type: "clip" }).then(build, (e) => showError(e, "g-err"));
}

function build(c) {
  G.clip = c;
  const up = c.up === 2 ? "z" : "y";
  view = new View3D($("g-3d"), up);
  S.view3d.rig = view;
  solids = new Solids(view.content);
  const [lo, hi] = c.box;
  const mid = [0, 1, 2].map((k) => (lo[k] + hi[k]) / 2);
  const u = c.up === 2 ? 2 : 1;
  const s = c.size;
  const eye = mid.slice();
  if (u === 1) {
    eye[0] += 0.9 * s;
    eye[1] += 0.35 * s;
    eye[2] += 1.5 * s;
  } else {
    eye[0] += 0.9 * s;
    eye[1] -= 1.5 * s;
    eye[2] += 0.35 * s;
  }
  view.look(eye, mid);
  const cells = 24;
  const step = niceStep((2.5 * s) / cells);
  view.setGrid(step * cells, cells, lo[u], mid);
  $("g-title").textContent = `${c.file}: ${c.names.length} joints, ${c.frames} frames at ${(1 / c.frame_time).toFixed(0)} frames/s`;
  $("g-frame").max = String(c.frames - 1);
  const method = $("g-method");
  for (const m of c.methods) method.add(new Option(m, m));
  const joint = $("g-joint");
  const others = c.names.filter((n) => n !== c.root && !c.effectors.includes(n));
  for (const n of c.effectors.concat(others)) joint.add(new Option(n, n));
  const geom = new THREE.SphereGeometry(0.035 * s, 20, 14);
  st.effectors = c.effectors.map((name) => {
    const m = new THREE.Mesh(geom, new THREE.MeshStandardMaterial({ color: "#ef6c00", roughness: 0.4 }));
    m.userData.joint = name;
    view.content.add(m);
    return m;
  });
  view.onHandle = () => {
    const pin = G.pins.find((p) => p.joint === G.selected);
    if (pin && view.dragging) pin.target = view.handlePose().position;
  };
  $("g-3d").addEventListener("pointerdown", pick);
  st.t0 = performance.now();
}

function niceStep(x) {
  const e = Math.pow(10, Math.floor(Math.log10(x)));
  return [1, 2, 5, 10].map((k) => k * e).find((v) => v >= x);
}

// ------------------------------------------------------------------ pins

function pick(ev) {
  if (!view || view.transform.axis) return; // a press on the handle is the handle's
  const r = view.canvas.getBoundingClientRect();
  st.pointer.set(((ev.clientX - r.left) / r.width) * 2 - 1, -((ev.clientY - r.top) / r.height) * 2 + 1);
  st.ray.setFromCamera(st.pointer, view.camera);
  const hit = st.ray.intersectObjects(st.effectors, false)[0];
  if (hit) pinJoint(hit.object.userData.joint);
}

/** Pin ``joint`` where it is in the frame shown (or select its pin), with the handle on it. */
export function pinJoint(joint) {
  let pin = G.pins.find((p) => p.joint === joint);
  if (!pin) {
    const at = G.reply ? G.reply.positions[G.clip.names.indexOf(joint)] : null;
    if (!at) return;
    pin = { joint, target: at.slice(), frames: "" };
    G.pins.push(pin);
    listPins();
  }
  select(joint);
}

function select(joint) {
  G.selected = joint;
  const pin = G.pins.find((p) => p.joint === joint);
  if (pin) view.showHandle(pin.target);
  else view.hideHandle();
  for (const row of document.querySelectorAll("#g-pins .pin")) row.classList.toggle("active", row.dataset.joint === joint);
}

function listPins() {
  const box = $("g-pins");
  box.innerHTML = "";
  for (const pin of G.pins) {
    const row = document.createElement("div");
    row.className = "pin";
    row.dataset.joint = pin.joint;
    const name = document.createElement("button");
    name.type = "button";
    name.textContent = pin.joint;
    name.title = "move this pin's handle";
    name.addEventListener("click", () => select(pin.joint));
    const frames = document.createElement("input");
    frames.type = "text";
    frames.placeholder = "all frames";
    frames.title = "the frames it holds on: 10-30, 40-, 0-9,20 (from 0); empty: all";
    frames.value = pin.frames;
    frames.dataset.label = `${pin.joint}'s frames`;
    // checked as typed; the pins are sent only while every pin's frames are valid
    frames.addEventListener("input", () => {
      pin.invalid = framesProblem(frames.value, G.clip.frames);
      markPins();
    });
    frames.addEventListener("change", () => {
      pin.invalid = framesProblem(frames.value, G.clip.frames);
      if (!pin.invalid) pin.frames = frames.value.trim();
      markPins();
    });
    const out = document.createElement("span");
    out.className = "small state";
    const drop = document.createElement("button");
    drop.type = "button";
    drop.textContent = "×";
    drop.title = "remove this pin";
    drop.addEventListener("click", () => {
      G.pins = G.pins.filter((p) => p !== pin);
      if (G.selected === pin.joint) select(null);
      listPins();
      markPins();
    });
    name.className = "name";
    row.append(name, frames, drop, out);
    box.append(row);
  }
  select(G.selected);
}

/** What is wrong with a pin's frames as typed ("10-30", "40-", "0-9,20"; empty or "all":
 *  every frame), as geoik.rigs.clip.parse_frames reads them; null if nothing. */
export function framesProblem(text, count) {
  const t = text.trim();
  if (t === "" || t.toLowerCase() === "all") return null;
  for (const part of t.split(",")) {
    const m = part.trim().match(/^(\d+)(?:\s*-\s*(\d*))?$/);
    if (!m) return `expected frame numbers as N, A-B or A- (from 0), got “${part.trim()}”`;
    const lo = Number(m[1]);
    const hi = m[2] === undefined ? lo : m[2] === "" ? count - 1 : Number(m[2]);
    if (!(lo <= hi && hi < count)) return `expected frames within 0-${count - 1} (first <= last), got “${part.trim()}”`;
  }
  return null;
}

/** Mark the pins whose frames are refused (here, or by the server) and say why, once. */
function markPins() {
  const rows = document.querySelectorAll("#g-pins .pin");
  const lines = [];
  G.pins.forEach((pin, k) => {
    const input = rows[k] && rows[k].querySelector("input");
    const why = pin.invalid || pin.refused;
    if (input) {
      if (why) input.setAttribute("aria-invalid", "true");
      else input.removeAttribute("aria-invalid");
    }
    if (why) lines.push(`${pin.joint}'s frames: ${why}`);
  });
  G.invalid = lines;
  $("g-err").textContent = lines.join("\n");
  if (lines.length) invalidate();
}

function pinsMessage() {
  return G.pins.map((p) => (p.frames ? { joint: p.joint, target: p.target, frames: p.frames } : { joint: p.joint, target: p.target }));
}

// ------------------------------------------------------------------ playing and posing

function draw(r) {
  const c = G.clip,
    s = c.size,
    pos = r.positions;
  solids.begin();
  c.parents.forEach((p, j) => {
    if (p >= 0) solids.capsule(pos[p], pos[j], 0.011 * s, "#5c6bc0", false);
  });
  for (const [j, q] of pos.entries()) if (c.parents[j] >= 0 || j === 0) solids.sphere(q, 0.016 * s, "#283593");
  for (const pin of G.pins) {
    solids.sphere(pin.target, 0.02 * s, "#d32f2f", 0.6);
  }
  solids.end();
  const pinned = new Set(r.pins.filter((p) => p.active).map((p) => p.joint));
  for (const m of st.effectors) {
    m.position.set(...pos[c.names.indexOf(m.userData.joint)]);
    m.material.color.set(pinned.has(m.userData.joint) ? "#c62828" : "#ef6c00");
  }
  view.dirty = true;
}

function gotPose(r) {
  G.reply = r;
  S.lastReply = r;
  G.frames++;
  st.times.push(performance.now());
  draw(r);
  if (G.stale) {
    G.stale = false;
    setStale($("g-3d"), false);
  }
  for (const pin of G.pins) pin.refused = null;
  if (!G.invalid || !G.invalid.length) $("g-err").textContent = "";
  const active = r.pins.filter((p) => p.active);
  const held = active.filter((p) => p.reached).length;
  setTexts({
    "g-ms": r.solved ? `${r.solve_ms.toFixed(2)} ms (${r.method})` : "– (no pin on this frame)",
    "g-status": G.pins.length ? `${held} of ${active.length} held on this frame` : "none: press a hand or foot",
  });
  for (const row of document.querySelectorAll("#g-pins .pin")) {
    const p = r.pins.find((q) => q.joint === row.dataset.joint);
    const text = !p ? "" : !p.active ? "off this frame" : `${p.reached ? "held" : "NOT held"}, error ${fmt(p.error, 3)}`;
    const out = row.querySelector(".state");
    if (out.textContent !== text) out.textContent = text;
  }
}

/** An error, or a refused field: the readouts show "–" and the rig stays in its last posed
 *  frame, greyed, until a new frame is posed. */
function invalidate() {
  G.stale = true;
  setTexts({ "g-ms": "–", "g-status": "–" });
  for (const out of document.querySelectorAll("#g-pins .pin .state")) out.textContent = "–";
  setStale($("g-3d"), true);
}

/** The server refused the pose: a pin's frames (named ``pins[k].frames``) are marked as the
 *  page's own checks mark them; anything else is shown as it is. */
function refused(e) {
  const m = typeof e.field === "string" && e.field.match(/^pins\[(\d+)\]\.frames$/);
  const pin = m ? G.pins[Number(m[1])] : null;
  if (pin) {
    pin.refused = e.message.replace(/^pins\[\d+\]\.frames:\s*/, "");
    markPins();
  } else {
    showError(e, "g-err");
  }
  invalidate();
}

function poseMessage() {
  return { type: "pose", frame: G.frame, pins: pinsMessage(), method: $("g-method").value };
}

/** Whether the last reply is for the frame and the pins shown now (for tests). */
G.settled = () => G.replyKey === JSON.stringify(poseMessage());

/** Called every animation frame: advance the clip, pose the frame shown, draw. */
export function rigLoop(now) {
  if (S.scene !== "rig" || !view || !G.clip) return;
  const c = G.clip;
  if (G.playing) {
    G.frame = (st.f0 + Math.floor((now - st.t0) / 1000 / c.frame_time)) % c.frames;
    if ($("g-frame").value !== String(G.frame)) $("g-frame").value = String(G.frame);
  }
  setTexts({ "g-frame-text": `frame ${G.frame} of ${c.frames - 1} (${(G.frame * c.frame_time).toFixed(2)} s)` });
  const msg = poseMessage();
  const key = JSON.stringify(msg);
  const valid = !G.pins.some((p) => p.invalid);
  if (valid && key !== st.sentKey && st.inflight < MAX_INFLIGHT && S.connected) {
    st.sentKey = key;
    st.inflight++;
    request(msg).then(
      (r) => {
        st.inflight--;
        G.replyKey = key;
        gotPose(r);
      },
      (e) => {
        st.inflight--;
        refused(e);
      },
    );
  }
  if (view.render()) st.renders.push(now);
  const cut = now - 1000;
  while (st.times.length && st.times[0] < cut) st.times.shift();
  while (st.renders.length && st.renders[0] < cut) st.renders.shift();
  G.fps = st.times.length;
  G.drawFps = st.renders.length;
  if (now - st.shown >= 500) {
    st.shown = now;
    setTexts({ "g-fps": rateText(G.fps), "g-draw": rateText(G.drawFps) });
  }
}

function play(on) {
  G.playing = on;
  $("g-play").textContent = on ? "pause" : "play";
  if (on) {
    st.t0 = performance.now();
    st.f0 = G.frame;
  }
}

$("g-play").addEventListener("click", () => play(!G.playing));
$("g-frame").addEventListener("input", () => {
  play(false);
  G.frame = Number($("g-frame").value);
});
$("g-pin").addEventListener("click", () => pinJoint($("g-joint").value));
$("g-save").addEventListener("click", () => {
  if (G.pins.some((p) => p.invalid)) {
    $("g-saved").textContent = "not saved: fix the frames marked in red first";
    return;
  }
  $("g-saved").textContent = "posing every frame and writing…";
  request({ type: "save", pins: pinsMessage(), method: $("g-method").value }).then(
    (r) => {
      G.saved = r;
      const held = r.pins.map((p) => `${p.joint} held on ${p.reached} of ${p.frames} frames`).join("; ");
      $("g-saved").textContent = `wrote ${r.path} (${r.frames} frames, ${r.ms.toFixed(0)} ms): ${held}`;
    },
    (e) => {
      G.saved = e;
      $("g-saved").textContent = "";
      showError(e, "g-err");
    },
  );
});
