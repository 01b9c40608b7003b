// geoik viewer: the robot the server was started with (geoik view --robot NAME, or --urdf FILE
// --tip LINK [--tip LINK ...]), in 3-D with its meshes. Each tip has a handle (a ball; the
// selected one carries the arrows and rings); dragging one asks the server to solve every tip
// onto its handle (every frame while it moves, from the previous solution, several tips together
// as geoik.solve_tree does); every link is placed where the server's forward kinematics puts it.
// The page has no kinematics of its own. An arm with a finite set of solutions for a pose (a
// 6-joint arm with a closed form: geoik.solve_all) shows the others as faint ghost arms, placed
// by the server's poses too; a click on one solves from its joint values.
import { $, S, fmt, onDisconnect, rateText, request, setStale, setTexts, showError } from "./common.js";
import { SOFTWARE_GL, THREE, View3D } from "./view3d.js";
import { simplify } from "./simplify.js";
import { ColladaLoader } from "three/addons/loaders/ColladaLoader.js";
import { OBJLoader } from "three/addons/loaders/OBJLoader.js";
import { STLLoader } from "three/addons/loaders/STLLoader.js";

const MAX_INFLIGHT = 2;
const R = (S.robot = {
  model: null,
  reply: null,
  meshes: { loaded: 0, total: 0, failed: [], triangles: [0, 0] },
  frames: 0,
  fps: 0,
  drawFps: 0,
  sent: 0,
  tips: [], // per tip: {name, position, quaternion} of its handle (base frame)
  others: null, // the last reply's other solutions ({solutions, own, ghosts, reason}) or null
  ghostsShown: 0, // ghost arms drawn now
  picked: null, // the joint values of the ghost last clicked
  selected: 0, // the tip whose handle carries the arrows
  stale: false,
});
let view = null;
const links = {}; // link name -> Group placed by the server's poses
const markers = []; // a ball per tip's handle, pressed to select it
const ghosts = []; // a translucent copy of the robot per other solution, reused reply to reply
const GHOST_LOOK = { color: "#3d7fd9", transparent: true, opacity: 0.22, depthWrite: false, roughness: 0.6 };
let ghostMaterial = null;
const st = { start: null, press: null, ghostMeshes: -1, inflight: 0, sentMoves: -1, force: false, reset: false, times: [], renders: [], shown: 0, t0: 0, cells: [], ray: new THREE.Raycaster(), pointer: new THREE.Vector2() };

onDisconnect(() => (st.inflight = 0));
// whether a move of the handle or a change of the solve's settings is still to be sent (it goes
// on the next frame once a request is free): tests wait for false before reading a reply as the
// last one's
Object.defineProperty(R, "queued", { get: () => Boolean(view) && (view.handleMoves !== st.sentMoves || st.force), enumerable: true });

/** Show the robot panel (made on first use: WebGL needs a laid-out canvas). */
export function showRobot() {
  const none = !S.models.robot;
  $("r-none").hidden = !none;
  $("r-controls").hidden = none;
  if (none || view) return;
  view = new View3D($("r-3d"), "z");
  S.view3d.robot = view;
  view.onHandle = () => {
    if (!view.dragging) return;
    $("r-auto").checked = false;
  };
  view.onResize = () => R.model && frameRobot(false);
  // a press on a tip's ball selects it before the arrows' own handler sees the press, so
  // that one press-and-drag moves any tip
  $("r-3d").parentElement.addEventListener("pointerdown", pickTip, { capture: true });
  // after the gizmo's own handler, which says whether the press is on one of its arrows
  $("r-3d").addEventListener("pointerdown", (ev) => (st.press = { x: ev.clientX, y: ev.clientY, gizmo: view.transform.axis !== null }));
  $("r-3d").addEventListener("click", pickGhost);
  request({ type: "robot" }).then(build, (e) => showError(e, "r-err"));
}

function build(r) {
  R.model = r;
  const tips = r.tips || [r.tip];
  const frames = r.tip_frames || [r.tip_frame];
  const to = tips.length === 1 ? `to ${tips[0]}` : `to ${tips.length} tips`;
  $("r-title").textContent = `${r.name}: ${r.joints.length} joints ${to}`;
  const sel = $("r-method");
  sel.innerHTML = "";
  for (const m of r.methods) sel.add(new Option(m, m));
  sel.value = r.methods.includes("auto") ? "auto" : r.methods[0];
  // a hand's fingers cannot follow an orientation as well as a position: positions only
  $("r-orient").checked = tips.length === 1;
  const others = r.others || { available: false, reason: "not offered by this server" };
  $("r-others").disabled = !others.available;
  $("r-others").checked = others.available;
  $("r-others-label").title = others.available ? "every other solution of the pose, as faint arms: click one to take it" : others.reason;
  $("r-others-note").textContent = others.available ? "" : `other solutions: none shown (${others.reason})`;
  const s = r.size;
  const across = Math.max(1, Math.ceil(2.5 * s));
  view.setGrid(across, across * 10);
  const mats = new Map();
  const material = (rgba) => {
    const key = (rgba || [0.82, 0.84, 0.86, 1]).join(",");
    if (!mats.has(key)) {
      const [cr, cg, cb, a] = rgba || [0.82, 0.84, 0.86, 1];
      const m = new THREE.MeshStandardMaterial({ color: new THREE.Color(cr, cg, cb), roughness: 0.5, metalness: 0.1 });
      if (a < 1) Object.assign(m, { transparent: true, opacity: a });
      mats.set(key, m);
    }
    return mats.get(key);
  };
  const meshes = r.meshes.map(() => null);
  R.meshes = { loaded: 0, total: 0, failed: [], triangles: [0, 0] };
  for (const [k, name] of r.links.entries()) {
    const g = new THREE.Group();
    g.name = name;
    view.content.add(g);
    links[name] = g;
    setPose(g, r.poses[k]);
    for (const v of r.visuals[name]) {
      const holder = new THREE.Group();
      holder.position.set(...v.position);
      holder.quaternion.set(v.quaternion[1], v.quaternion[2], v.quaternion[3], v.quaternion[0]);
      g.add(holder);
      if (v.shape === "mesh") {
        holder.scale.set(...v.scale);
        R.meshes.total++;
        meshes[v.mesh] ||= loadMesh(r.meshes[v.mesh]);
        meshes[v.mesh].then(
          (obj) => {
            const o = obj.clone();
            if (v.rgba || !hasOwnMaterial(o)) o.traverse((c) => c.isMesh && (c.material = material(v.rgba)));
            holder.add(o);
            R.meshes.loaded++;
            meshText();
            if (R.meshes.loaded + R.meshes.failed.length === R.meshes.total) {
              frameRobot(false);
              showGhosts(R.others); // copied again, with every mesh
            }
            view.dirty = true;
          },
          (e) => {
            R.meshes.failed.push(r.meshes[v.mesh].name);
            meshText();
            showError({ message: `${r.meshes[v.mesh].name}: ${e && e.message ? e.message : e}` }, "r-err");
          },
        );
      } else {
        holder.add(primitive(v, material(v.rgba)));
      }
    }
  }
  const geom = new THREE.SphereGeometry(0.025 * s, 16, 10);
  R.tips = tips.map((name, k) => {
    links[name].add(new THREE.AxesHelper((tips.length > 1 ? 0.04 : 0.12) * s));
    // drawn over the meshes (a fingertip's handle starts inside its fingertip)
    const look = { color: "#ef6c00", transparent: true, opacity: 0.9, depthTest: false };
    const m = new THREE.Mesh(geom, new THREE.MeshBasicMaterial(look));
    m.renderOrder = 10;
    m.userData.tip = k;
    view.content.add(m);
    markers.push(m);
    return { name, position: frames[k].position.slice(), quaternion: frames[k].quaternion.slice() };
  });
  view.handle.add(new THREE.AxesHelper((tips.length > 1 ? 0.05 : 0.08) * s));
  R.selected = 0;
  view.showHandle(R.tips[0].position, R.tips[0].quaternion);
  placeMarkers();
  buildTips();
  buildJoints(r);
  meshText();
  view.look([1.0 * s, -1.15 * s, 0.75 * s], [0, 0, 0.35 * s]);
  frameRobot(true);
  st.t0 = performance.now();
  st.force = true;
}

/** Frame the robot by its bounds (its links' origins, its meshes once loaded) and every
 *  handle, each handle well inside the view with room for its arrows; ``always``: even after
 *  the user turned the camera. */
export function frameRobot(always) {
  if (!view || (!always && view.userMoved)) return;
  const points = Object.values(links).map((g) => g.position.toArray());
  for (const t of R.tips) points.push(t.position);
  view.frame(view.content, points, R.tips.map((t) => t.position));
}

function placeMarkers() {
  for (const [k, m] of markers.entries()) {
    m.position.set(...R.tips[k].position);
    m.visible = k !== R.selected || R.tips.length > 1;
    m.material.color.set(k === R.selected ? "#1f6fb2" : "#ef6c00");
  }
  view.dirty = true;
}

/** Put the arrows on tip ``k``'s handle. */
function selectTip(k) {
  if (k === R.selected || !R.tips[k]) return;
  R.selected = k;
  const t = R.tips[k];
  view.showHandle(t.position, t.quaternion, view.transform.mode);
  view.transform.getHelper().updateMatrixWorld(true); // picked at once by this very press
  placeMarkers();
  for (const [i, row] of [...document.querySelectorAll("#r-tips tbody tr")].entries()) row.classList.toggle("selected", i === k);
}

function pickTip(ev) {
  if (!view || !R.model || R.tips.length < 2) return;
  const r = view.canvas.getBoundingClientRect();
  st.pointer.set(((ev.clientX - r.left) / r.width) * 2 - 1, -((ev.clientY - r.top) / r.height) * 2 + 1);
  st.ray.setFromCamera(st.pointer, view.camera);
  const hit = st.ray.intersectObjects(markers, false)[0];
  if (hit) selectTip(hit.object.userData.tip);
}

/** Tip ``k``'s handle position on the page (client pixels), for tests. */
R.handleClient = (k) => view.toClient(R.tips[k].position);

function hasOwnMaterial(o) {
  let own = false;
  o.traverse((c) => (own ||= c.isMesh && c.material && c.material.type !== "MeshBasicMaterial"));
  return own;
}

function meshText() {
  const m = R.meshes;
  $("r-meshes").textContent = m.total
    ? `meshes: ${m.loaded} of ${m.total} loaded${m.failed.length ? `, ${m.failed.length} failed` : ""}` +
      (m.triangles[1] < m.triangles[0]
        ? ` (software WebGL: ${m.triangles[1].toLocaleString("en")} of their ` +
          `${m.triangles[0].toLocaleString("en")} triangles drawn)`
        : "")
    : "no meshes: links drawn by their frames";
}

/** A mesh file loaded (a three.js object), its triangles reduced on a software renderer
 *  (simplify.js); the triangles before and after are counted in the ``R.meshes.triangles`` of
 *  the robot being built (not a later one's, should the page build it again meanwhile). */
function loadMesh(mesh) {
  const tally = R.meshes.triangles;
  const counted = (obj) => {
    const [before, after] = SOFTWARE_GL ? simplify(obj) : simplify(obj, Infinity);
    tally[0] += before;
    tally[1] += after;
    return obj;
  };
  return loadFile(mesh).then(counted);
}

function loadFile(mesh) {
  return new Promise((resolve, reject) => {
    const fail = (e) => reject(e);
    if (mesh.format === "stl") {
      new STLLoader().load(mesh.url, (geom) => {
        geom.computeVertexNormals();
        resolve(new THREE.Mesh(geom, new THREE.MeshBasicMaterial()));
      }, undefined, fail);
    } else if (mesh.format === "dae") {
      new ColladaLoader().load(mesh.url, (dae) => {
        // URDF meshes are in their link's frame: undo the loader's turn to y-up (keep its unit)
        dae.scene.rotation.set(0, 0, 0);
        resolve(dae.scene);
      }, undefined, fail);
    } else {
      new OBJLoader().load(mesh.url, resolve, undefined, fail);
    }
  });
}

function primitive(v, material) {
  if (v.shape === "box") {
    const m = new THREE.Mesh(new THREE.BoxGeometry(...v.size), material);
    return m;
  }
  if (v.shape === "sphere") return new THREE.Mesh(new THREE.SphereGeometry(v.radius, 20, 12), material);
  const m = new THREE.Mesh(new THREE.CylinderGeometry(v.radius, v.radius, v.length, 20), material);
  m.rotation.x = Math.PI / 2; // URDF cylinders stand along z, three's along y
  return m;
}

function setPose(g, p) {
  g.position.set(p[0], p[1], p[2]);
  g.quaternion.set(p[4], p[5], p[6], p[3]);
}

// ------------------------------------------------------------------ the tips' readouts

function buildTips() {
  const body = document.querySelector("#r-tips tbody");
  body.innerHTML = "";
  R.tips.forEach((t, k) => {
    const row = document.createElement("tr");
    row.innerHTML = `<th title="${t.name}">${t.name}</th><td>–</td><td>–</td><td>–</td>`;
    row.addEventListener("click", () => selectTip(k));
    row.classList.toggle("selected", k === R.selected);
    body.append(row);
  });
}

/** An error for people: "< 1e-9" below what the solvers resolve, else three decimals. */
const tiny = (v) => (v < 1e-9 ? "< 1e-9" : fmt(v, 3));

function showTips(r) {
  const rows = document.querySelectorAll("#r-tips tbody tr");
  for (const [k, t] of R.tips.entries()) {
    const got = r ? r.tips.find((x) => x.name === t.name) : null;
    const cells = rows[k].querySelectorAll("td");
    const text = got
      ? [got.status, `${tiny(got.error * 1000)} mm`, got.angle_error === null ? "–" : `${tiny((got.angle_error * 180) / Math.PI)}°`]
      : ["–", "–", "–"];
    cells.forEach((c, i) => {
      if (c.textContent !== text[i]) c.textContent = text[i];
    });
    cells[0].className = got ? (got.reached ? "ok" : "bad") : "";
  }
}

// ------------------------------------------------------------------ the joints table

function buildJoints(r) {
  const rows = r.joints.map((j) => {
    const lim = j.lo === null ? "continuous" : `${limitText(j, j.lo)} … ${limitText(j, j.hi)}`;
    return `<tr><th>${j.name}</th><td class="val">–</td><td>${lim}</td><td><div class="bar"><span></span></div></td></tr>`;
  });
  $("r-joints").innerHTML = `<table class="joints"><tr><th>joint</th><th>value</th><th>limits in use</th><th></th></tr>${rows.join("")}</table>`;
  st.cells = [...document.querySelectorAll("#r-joints tr")].slice(1).map((tr) => [tr.querySelector(".val"), tr.querySelector(".bar span")]);
}

function limitText(j, v) {
  return j.unit === "m" ? `${(v * 1000).toFixed(0)} mm` : `${((v * 180) / Math.PI).toFixed(0)}°`;
}

function showJoints(r) {
  r.angles.forEach((v, k) => {
    const j = R.model.joints[k];
    const [cell, mark] = st.cells[k];
    cell.textContent = j.unit === "m" ? `${(v * 1000).toFixed(1)} mm` : `${((v * 180) / Math.PI).toFixed(1)}°`;
    if (j.lo === null) mark.style.left = `${(100 * ((((v / (2 * Math.PI)) % 1) + 1) % 1)).toFixed(1)}%`;
    else {
      const u = j.hi > j.lo ? (v - j.lo) / (j.hi - j.lo) : 0.5;
      mark.style.left = `${(100 * Math.min(1, Math.max(0, u))).toFixed(1)}%`;
      mark.classList.toggle("edge", u < 0.01 || u > 0.99);
    }
  });
}

// ------------------------------------------------------------------ solving, frame by frame

function animate(now) {
  const c = (R.model.tip_frames || [R.model.tip_frame])[R.selected].position;
  const s = 0.09 * R.model.size * (R.tips.length > 1 ? 0.3 : 1);
  const t = (now - st.t0) / 1000;
  view.handle.position.set(c[0] + s * Math.sin(0.9 * t), c[1] + s * (1 - Math.cos(0.9 * t)), c[2] - 0.5 * s * (1 - Math.cos(1.3 * t)));
  view.handleMoves++;
  view.dirty = true;
}

function send() {
  const pose = view.handlePose();
  Object.assign(R.tips[R.selected], { position: pose.position, quaternion: pose.quaternion });
  placeMarkers();
  const msg = { type: "robot_solve", method: $("r-method").value, targets: {} };
  if ($("r-orient").checked) msg.orientations = {};
  for (const t of R.tips) {
    msg.targets[t.name] = t.position;
    if (msg.orientations) msg.orientations[t.name] = t.quaternion;
  }
  if (st.reset) msg.reset = true;
  if (st.start) msg.start = st.start;
  if ($("r-others").checked && !$("r-others").disabled) msg.others = true;
  st.reset = false;
  st.start = null;
  st.inflight++;
  R.sent++;
  request(msg).then(
    (r) => {
      st.inflight--;
      gotSolve(r);
    },
    (e) => {
      st.inflight--;
      showError(e, "r-err");
      invalidate();
    },
  );
}

/** An error: every readout shows "–" and the robot stays in its last solved pose, greyed,
 *  until a new solve succeeds. */
function invalidate() {
  R.stale = true;
  showTips(null);
  setTexts({ "r3-tol": "–", "r3-iter": "–", "r3-ms": "–" });
  setStale($("r-3d"), true);
}

function gotSolve(r) {
  R.reply = r;
  S.lastReply = r;
  R.frames++;
  st.times.push(performance.now());
  if (R.stale) {
    R.stale = false;
    setStale($("r-3d"), false);
  }
  r.poses.forEach((p, k) => setPose(links[R.model.links[k]], p));
  $("r-err").textContent = "";
  showTips(r);
  const angle = r.angle_tol === null ? "position only" : `${fmt((r.angle_tol * 180) / Math.PI, 3)}°`;
  setTexts({
    "r3-tol": `${fmt(r.tol * 1000, 3)} mm, ${angle}`,
    "r3-iter": String(r.iterations),
    "r3-ms": `${r.solve_ms.toFixed(2)} ms (${r.method})`,
  });
  showJoints(r);
  showGhosts(r.others);
  view.dirty = true;
}

// ------------------------------------------------------------------ the other solutions

/** A translucent copy of every link (their geometry shared with the robot's), under one group. */
function makeGhost() {
  ghostMaterial ||= new THREE.MeshStandardMaterial(GHOST_LOOK);
  const root = new THREE.Group();
  root.name = "ghost";
  const parts = {};
  for (const name of R.model.links) {
    const g = links[name].clone(true);
    const drop = [];
    g.traverse((c) => {
      if (c.isMesh) c.material = ghostMaterial;
      else if (c.isLine) drop.push(c); // the tip's axes
    });
    for (const c of drop) c.removeFromParent();
    g.traverse((c) => (c.userData.ghost = ghosts.length));
    root.add(g);
    parts[name] = g;
  }
  view.content.add(root);
  return { root, parts, angles: null };
}

/** Draw the reply's other solutions (none when the toggle is off or the reply has none). */
function showGhosts(others) {
  R.others = others || null;
  const list = others && $("r-others").checked ? others.ghosts : [];
  const meshes = R.meshes.loaded;
  if (st.ghostMeshes !== meshes) {
    // copies made before every mesh had loaded lack some: copy again
    for (const g of ghosts) g.root.removeFromParent();
    ghosts.length = 0;
    st.ghostMeshes = meshes;
  }
  while (ghosts.length < list.length) ghosts.push(makeGhost());
  ghosts.forEach((g, k) => {
    const on = k < list.length;
    if (on) {
      g.angles = list[k].angles;
      list[k].poses.forEach((p, i) => setPose(g.parts[R.model.links[i]], p));
    }
    g.root.visible = on;
  });
  if (R.ghostsShown !== list.length || list.length) view.dirty = true;
  R.ghostsShown = list.length;
  othersText(others);
}

function othersText(others) {
  if ($("r-others").disabled) return;
  let text = "";
  if (!$("r-others").checked) text = "other solutions: hidden";
  else if (others && others.reason) text = `other solutions: none (${others.reason})`;
  else if (others) {
    const n = others.ghosts.length;
    const what = others.nearest
      ? `orientation out of this arm's reach: ${others.solutions} poses at the nearest it can take`
      : `${others.solutions} solutions of this pose`;
    text = `${what}: ${n} other${n === 1 ? "" : "s"} shown${n ? ", click one to take it" : ""}`;
  }
  if ($("r-others-note").textContent !== text) $("r-others-note").textContent = text;
}

/** The ghost (its index) first under client point (x, y), or -1 (the robot or nothing). */
function ghostAt(x, y) {
  const r = view.canvas.getBoundingClientRect();
  st.pointer.set(((x - r.left) / r.width) * 2 - 1, -((y - r.top) / r.height) * 2 + 1);
  st.ray.setFromCamera(st.pointer, view.camera);
  const shown = ghosts.filter((g) => g.root.visible).map((g) => g.root);
  if (!shown.length) return -1;
  const hit = st.ray.intersectObjects([...Object.values(links), ...shown], true).find((h) => h.object.isMesh);
  return hit && hit.object.userData.ghost !== undefined ? hit.object.userData.ghost : -1;
}

/** A click (not a drag, not on the handle's arrows) on a ghost: solve from its joint values. */
function pickGhost(ev) {
  const p = st.press;
  st.press = null;
  if (!p || p.gizmo || Math.hypot(ev.clientX - p.x, ev.clientY - p.y) > 4) return;
  const k = ghostAt(ev.clientX, ev.clientY);
  if (k < 0) return;
  st.start = ghosts[k].angles.slice();
  R.picked = st.start;
  st.force = true;
}

/** A client point on ghost ``k`` where a click picks it (none of the robot, another ghost or
 *  the handle in front), or null: for tests. */
R.ghostClient = (k) => {
  const g = ghosts[k];
  if (!g || !g.root.visible) return null;
  const handle = view.toClient(view.handle.position.toArray());
  const r = view.canvas.getBoundingClientRect();
  const v = new THREE.Vector3();
  const found = [];
  g.root.updateMatrixWorld(true);
  g.root.traverse((c) => {
    if (!c.isMesh) return;
    const pos = c.geometry.attributes.position;
    const step = Math.max(1, Math.floor(pos.count / 24));
    for (let i = 0; i < pos.count; i += step) found.push(v.fromBufferAttribute(pos, i).applyMatrix4(c.matrixWorld).toArray());
  });
  for (const w of found) {
    const [x, y] = view.toClient(w);
    const inside = x > r.left + 4 && x < r.right - 4 && y > r.top + 4 && y < r.bottom - 4;
    if (inside && Math.hypot(x - handle[0], y - handle[1]) > 90 && ghostAt(x, y) === k) return [x, y];
  }
  return null;
};

/** Called every animation frame: move the handle if animating, solve when it moved, draw. */
export function robotLoop(now) {
  if (S.scene !== "robot" || !view || !R.model) return;
  if ($("r-auto").checked && !view.dragging) animate(now);
  const moved = view.handleMoves !== st.sentMoves || st.force;
  if (moved && st.inflight < MAX_INFLIGHT && S.connected) {
    st.sentMoves = view.handleMoves;
    st.force = false;
    send();
  }
  if (view.render()) st.renders.push(now);
  const cut = now - 1000;
  while (st.times.length && st.times[0] < cut) st.times.shift();
  while (st.renders.length && st.renders[0] < cut) st.renders.shift();
  R.fps = st.times.length;
  R.drawFps = st.renders.length;
  if (now - st.shown >= 500) {
    st.shown = now;
    setTexts({ "r3-fps": rateText(R.fps), "r3-draw": rateText(R.drawFps) });
  }
}

$("r-move").addEventListener("click", () => setMode("translate"));
$("r-turn").addEventListener("click", () => setMode("rotate"));
$("r-rest").addEventListener("click", () => {
  const frames = R.model.tip_frames || [R.model.tip_frame];
  R.tips.forEach((t, k) => Object.assign(t, { position: frames[k].position.slice(), quaternion: frames[k].quaternion.slice() }));
  const f = frames[R.selected];
  view.showHandle(f.position, f.quaternion, view.transform.mode);
  placeMarkers();
  st.reset = true;
  st.start = null;
  st.force = true;
});
$("r-frame").addEventListener("click", () => frameRobot(true));
for (const id of ["r-method", "r-orient"]) $(id).addEventListener("change", () => (st.force = true));
$("r-others").addEventListener("change", () => {
  showGhosts(R.others); // hidden at once; shown again with the next solve's
  if ($("r-others").checked) st.force = true;
});

function setMode(mode) {
  view.transform.setMode(mode);
  $("r-move").classList.toggle("active", mode === "translate");
  $("r-turn").classList.toggle("active", mode === "rotate");
  if (mode === "rotate") $("r-orient").checked = true;
  st.force = true;
  view.dirty = true;
}
