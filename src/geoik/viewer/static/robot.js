// geoik viewer: the robot the server was started with (geoik view --robot NAME, or --urdf FILE
// --tip LINK), in 3-D with its meshes. Dragging the handle asks the server to solve the tip
// onto it (every frame while it moves, from the previous solution); every link is placed where
// the server's forward kinematics puts it. The page has no kinematics of its own.
import { $, S, fmt, onDisconnect, request, showError } from "./common.js";
import { THREE, View3D } from "./view3d.js";
import { ColladaLoader } from "three/addons/loaders/ColladaLoader.js";
import { OBJLoader } from "three/addons/loaders/OBJLoader.js";
import { STLLoader } from "three/addons/loaders/STLLoader.js";

const MAX_INFLIGHT = 2;
const R = (S.robot = {
  model: null,
  reply: null,
  meshes: { loaded: 0, total: 0, failed: [] },
  frames: 0,
  fps: 0,
  drawFps: 0,
  sent: 0,
});
let view = null;
const links = {}; // link name -> Group placed by the server's poses
const st = { inflight: 0, sentMoves: -1, force: false, reset: false, times: [], ticks: [], t0: 0, cells: [] };

onDisconnect(() => (st.inflight = 0));

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
  request({ type: "robot" }).then(build, (e) => showError(e, "r-err"));
}

function build(r) {
  R.model = r;
  $("r-title").textContent = `${r.name}: ${r.joints.length} joints to ${r.tip}`;
  const sel = $("r-method");
  sel.innerHTML = "";
  for (const m of r.methods) sel.add(new Option(m, m));
  sel.value = r.methods.includes("dls") ? "dls" : r.methods[0];
  const s = r.size;
  view.look([1.0 * s, -1.15 * s, 0.75 * s], [0, 0, 0.35 * s]);
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
  R.meshes = { loaded: 0, total: 0, failed: [] };
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
  links[r.tip].add(new THREE.AxesHelper(0.12 * s));
  view.handle.add(new THREE.AxesHelper(0.08 * s));
  view.showHandle(r.tip_frame.position, r.tip_frame.quaternion);
  buildJoints(r);
  meshText();
  st.t0 = performance.now();
  st.force = true;
}

function hasOwnMaterial(o) {
  let own = false;
  o.traverse((c) => (own ||= c.isMesh && c.material && c.material.type !== "MeshBasicMaterial"));
  return own;
}

function meshText() {
  const m = R.meshes;
  $("r-meshes").textContent = m.total
    ? `meshes: ${m.loaded} of ${m.total} loaded${m.failed.length ? `, ${m.failed.length} failed` : ""}`
    : "no meshes: links drawn by their frames";
}

function loadMesh(mesh) {
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
  if (v.shape === "sphere") return new THREE.Mesh(new THREE.SphereGeometry(v.radius, 24, 16), material);
  const m = new THREE.Mesh(new THREE.CylinderGeometry(v.radius, v.radius, v.length, 24), material);
  m.rotation.x = Math.PI / 2; // URDF cylinders stand along z, three's along y
  return m;
}

function setPose(g, p) {
  g.position.set(p[0], p[1], p[2]);
  g.quaternion.set(p[4], p[5], p[6], p[3]);
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
  const c = R.model.tip_frame.position;
  const s = 0.09 * R.model.size;
  const t = (now - st.t0) / 1000;
  view.handle.position.set(c[0] + s * Math.sin(0.9 * t), c[1] + s * (1 - Math.cos(0.9 * t)), c[2] - 0.5 * s * (1 - Math.cos(1.3 * t)));
  view.dirty = true;
}

function send() {
  const pose = view.handlePose();
  const msg = { type: "robot_solve", target: pose.position, method: $("r-method").value };
  if ($("r-orient").checked) msg.orientation = pose.quaternion;
  if (st.reset) msg.reset = true;
  st.reset = false;
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
    },
  );
}

function gotSolve(r) {
  R.reply = r;
  S.lastReply = r;
  R.frames++;
  st.times.push(performance.now());
  r.poses.forEach((p, k) => setPose(links[R.model.links[k]], p));
  $("r-err").textContent = "";
  const status = $("r3-status");
  status.textContent = r.status;
  status.className = r.reached ? "ok" : "bad";
  $("r3-error").textContent = `${fmt(r.error * 1000, 3)} mm (tol ${fmt(r.tol * 1000, 3)} mm)`;
  $("r3-angle").textContent = r.angle_error === null ? "– (position only)" : `${fmt((r.angle_error * 180) / Math.PI, 3)}° (tol ${fmt((r.angle_tol * 180) / Math.PI, 3)}°)`;
  $("r3-iter").textContent = r.iterations;
  $("r3-ms").textContent = `${r.solve_ms.toFixed(2)} ms (${r.method})`;
  showJoints(r);
  view.dirty = true;
}

/** Called every animation frame: move the handle if animating, solve when it moved, draw. */
export function robotLoop(now) {
  if (S.scene !== "robot" || !view || !R.model) return;
  if ($("r-auto").checked && !view.dragging) animate(now);
  const moved = view.handleMoves !== st.sentMoves || $("r-auto").checked || st.force;
  if (moved && st.inflight < MAX_INFLIGHT && S.connected) {
    st.sentMoves = view.handleMoves;
    st.force = false;
    send();
  }
  const cut = now - 1000;
  st.ticks.push(now);
  while (st.times.length && st.times[0] < cut) st.times.shift();
  while (st.ticks.length && st.ticks[0] < cut) st.ticks.shift();
  R.fps = st.times.length;
  R.drawFps = st.ticks.length;
  $("r3-fps").textContent = `${R.fps} solved frames/s`;
  $("r3-draw").textContent = `${R.drawFps} frames/s`;
  view.render();
}

$("r-move").addEventListener("click", () => setMode("translate"));
$("r-turn").addEventListener("click", () => setMode("rotate"));
$("r-rest").addEventListener("click", () => {
  const f = R.model.tip_frame;
  view.showHandle(f.position, f.quaternion, view.transform.mode);
  st.reset = true;
  st.force = true;
});
for (const id of ["r-method", "r-orient"]) $(id).addEventListener("change", () => (st.force = true));

function setMode(mode) {
  view.transform.setMode(mode);
  $("r-move").classList.toggle("active", mode === "translate");
  $("r-turn").classList.toggle("active", mode === "rotate");
  if (mode === "rotate") $("r-orient").checked = true;
  view.dirty = true;
}
