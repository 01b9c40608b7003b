// geoik viewer: the BVH clip the server was started with (geoik view --bvh FILE). The page plays
// it, asking the server for each frame; pinned joints (a hand or foot the user pressed and
// dragged) are re-solved on every frame as geoik pose does; Save writes the posed clip.
import { $, S, fmt, onDisconnect, request, showError } from "./common.js";
import { Solids, THREE, View3D } from "./view3d.js";

const MAX_INFLIGHT = 3;
const G = (S.rig = { clip: null, reply: null, frame: 0, playing: true, pins: [], selected: null, frames: 0, fps: 0, drawFps: 0, saved: null });
let view = null;
let solids = null;
const st = { inflight: 0, t0: 0, f0: 0, sentKey: "", times: [], ticks: [], effectors: [], ray: new THREE.Raycaster(), pointer: new THREE.Vector2() };

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
    frames.addEventListener("change", () => (pin.frames = frames.value.trim()));
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
    });
    row.append(name, frames, drop, out);
    box.append(row);
  }
  select(G.selected);
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
  $("g-err").textContent = "";
  $("g-ms").textContent = r.solved ? `${r.solve_ms.toFixed(2)} ms (${r.method})` : "– (no pin on this frame)";
  const active = r.pins.filter((p) => p.active);
  const held = active.filter((p) => p.reached).length;
  $("g-status").textContent = G.pins.length ? `${held} of ${active.length} held on this frame` : "none: press a hand or foot";
  for (const row of document.querySelectorAll("#g-pins .pin")) {
    const p = r.pins.find((q) => q.joint === row.dataset.joint);
    row.querySelector(".state").textContent = !p ? "" : !p.active ? "off this frame" : `${p.reached ? "held" : "NOT held"}, error ${fmt(p.error, 3)}`;
  }
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
    $("g-frame").value = String(G.frame);
  }
  $("g-frame-text").textContent = `frame ${G.frame} of ${c.frames - 1} (${(G.frame * c.frame_time).toFixed(2)} s)`;
  const msg = poseMessage();
  const key = JSON.stringify(msg);
  if (key !== st.sentKey && st.inflight < MAX_INFLIGHT && S.connected) {
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
        showError(e, "g-err");
      },
    );
  }
  const cut = now - 1000;
  st.ticks.push(now);
  while (st.times.length && st.times[0] < cut) st.times.shift();
  while (st.ticks.length && st.ticks[0] < cut) st.ticks.shift();
  G.fps = st.times.length;
  G.drawFps = st.ticks.length;
  $("g-fps").textContent = `${G.fps} solved frames/s`;
  $("g-draw").textContent = `${G.drawFps} frames/s`;
  view.render();
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
