// geoik viewer: a 3-D view (three.js, vendored in static/vendor/three): an orbit camera, lights,
// a ground grid and a target handle (three's TransformControls) that the user drags. It draws
// what the server solved; it solves nothing. Drawn on demand: only when something changed.
import * as THREE from "three";
import { OrbitControls } from "three/addons/controls/OrbitControls.js";
import { TransformControls } from "three/addons/controls/TransformControls.js";

const UP = { y: new THREE.Vector3(0, 1, 0), z: new THREE.Vector3(0, 0, 1) };

/** Whether WebGL runs on a software renderer (SwiftShader, llvmpipe: a machine without a GPU,
 *  a headless browser), where antialiasing costs the frame rate. */
function softwareGL() {
  const gl = document.createElement("canvas").getContext("webgl2");
  if (!gl) return false;
  const info = gl.getExtension("WEBGL_debug_renderer_info");
  const name = String(info ? gl.getParameter(info.UNMASKED_RENDERER_WEBGL) : gl.getParameter(gl.RENDERER));
  const lose = gl.getExtension("WEBGL_lose_context");
  if (lose) lose.loseContext();
  return /swiftshader|llvmpipe|software/i.test(name);
}
export const SOFTWARE_GL = softwareGL();

export class View3D {
  /** A view on ``canvas`` whose world has ``up`` ("z": robots and scenes, "y": most BVH). */
  constructor(canvas, up = "z") {
    this.canvas = canvas;
    this.renderer = new THREE.WebGLRenderer({ canvas, antialias: !SOFTWARE_GL });
    this.renderer.setPixelRatio(SOFTWARE_GL ? 1 : Math.min(window.devicePixelRatio || 1, 2)); // pixels cost CPU
    this.renderer.setClearColor(0xeef0f2);
    this.scene = new THREE.Scene();
    this.camera = new THREE.PerspectiveCamera(40, 2, 0.01, 1000);
    this.scene.add(new THREE.HemisphereLight(0xffffff, 0x8d8d8d, 1.6));
    this.sun = new THREE.DirectionalLight(0xffffff, 2.2);
    this.scene.add(this.sun);
    this.content = new THREE.Group();
    this.scene.add(this.content);
    this.grid = null;
    // the handle first, so that a press on it is its own and not the orbit's
    this.handle = new THREE.Group();
    this.scene.add(this.handle);
    this.transform = new TransformControls(this.camera, canvas);
    this.transform.setSize(0.9);
    this.transform.addEventListener("dragging-changed", (e) => {
      this.orbit.enabled = !e.value;
      this.dragging = e.value;
      if (this.onDrag) this.onDrag(e.value);
    });
    this.transform.addEventListener("objectChange", () => {
      this.handleMoves++;
      if (this.onHandle) this.onHandle(this.handle);
    });
    this.transform.addEventListener("change", () => (this.dirty = true));
    this.scene.add(this.transform.getHelper());
    this.orbit = new OrbitControls(this.camera, canvas);
    this.orbit.addEventListener("change", () => (this.dirty = true));
    this.orbit.addEventListener("start", () => (this.userMoved = true));
    this.userMoved = false; // the user turned or zoomed the camera: framing leaves it alone
    this.dragging = false;
    this.handleMoves = 0;
    this.onHandle = null;
    this.onDrag = null;
    this.frames = 0;
    this.dirty = true;
    this.setUp(up);
    new ResizeObserver(() => this.resize()).observe(canvas);
  }

  setUp(up) {
    this.up = up;
    this.camera.up.copy(UP[up]);
    this.orbit.update();
    this.dirty = true;
  }

  /** The ground grid: ``size`` across in ``divisions`` cells, at ``height`` along the up axis. */
  setGrid(size, divisions, height = 0, center = [0, 0, 0]) {
    if (this.grid) this.scene.remove(this.grid);
    this.grid = new THREE.GridHelper(size, divisions, 0x8a9096, 0xc9cdd1);
    if (this.up === "z") {
      this.grid.rotation.x = Math.PI / 2;
      this.grid.position.set(center[0], center[1], height);
    } else {
      this.grid.position.set(center[0], height, center[2]);
    }
    this.scene.add(this.grid);
    this.dirty = true;
  }

  /** Look at ``target`` from ``eye`` (world coordinates). */
  look(eye, target) {
    this.camera.position.set(...eye);
    this.orbit.target.set(...target);
    const d = this.camera.position.distanceTo(this.orbit.target);
    this.camera.near = d / 200;
    this.camera.far = d * 50;
    this.camera.updateProjectionMatrix();
    this.orbit.update();
    const sun = new THREE.Vector3(...eye).sub(this.orbit.target).multiplyScalar(0.6);
    sun.add(UP[this.up].clone().multiplyScalar(2 * d));
    this.sun.position.copy(sun.add(this.orbit.target));
    this.dirty = true;
  }

  /** Frame ``object`` (its bounds, once its meshes are loaded) and ``points`` (world
   *  coordinates) from the camera's present direction: all of them in the view, and each of
   *  ``handles`` well inside it (within 70 % of the way from the centre to each edge), so that
   *  its arrows show whole. */
  frame(object, points, handles = []) {
    const box = new THREE.Box3().setFromObject(object);
    for (const p of points) box.expandByPoint(new THREE.Vector3(...p));
    if (box.isEmpty()) return;
    const sphere = box.getBoundingSphere(new THREE.Sphere());
    const r = Math.max(sphere.radius, 1e-6);
    const dir = this.camera.position.clone().sub(this.orbit.target);
    if (dir.lengthSq() === 0) dir.set(1, -1, 0.6);
    dir.normalize();
    const vfov = (this.camera.fov * Math.PI) / 180;
    const hfov = 2 * Math.atan(Math.tan(vfov / 2) * this.camera.aspect);
    let d = (1.1 * r) / Math.sin(Math.min(vfov, hfov) / 2);
    this.orbit.target.copy(sphere.center);
    const inside = () => {
      this.camera.position.copy(sphere.center).addScaledVector(dir, d);
      this.camera.lookAt(sphere.center);
      this.camera.updateMatrixWorld();
      return handles.every((p) => {
        const v = new THREE.Vector3(...p).project(this.camera);
        return Math.abs(v.x) <= 0.7 && Math.abs(v.y) <= 0.7 && v.z < 1;
      });
    };
    for (let k = 0; k < 30 && !inside(); k++) d *= 1.12;
    this.look(this.camera.position.toArray(), sphere.center.toArray());
    this.framed = { center: sphere.center.toArray(), radius: r, distance: d };
  }

  /** Show the handle at ``position`` (and ``quaternion`` [w, x, y, z]) with the gizmo on it. */
  showHandle(position, quaternion = null, mode = "translate") {
    this.handle.position.set(...position);
    if (quaternion) this.handle.quaternion.set(quaternion[1], quaternion[2], quaternion[3], quaternion[0]);
    this.transform.attach(this.handle);
    this.transform.setMode(mode);
    this.dirty = true;
  }

  hideHandle() {
    this.transform.detach();
    this.dirty = true;
  }

  /** The handle's pose: position [x, y, z] and quaternion [w, x, y, z]. */
  handlePose() {
    const p = this.handle.position,
      q = this.handle.quaternion;
    return { position: [p.x, p.y, p.z], quaternion: [q.w, q.x, q.y, q.z] };
  }

  /** Client (page) coordinates of world point ``p``, for tests and tooltips. */
  toClient(p) {
    const v = new THREE.Vector3(...p).project(this.camera);
    const r = this.canvas.getBoundingClientRect();
    return [r.left + ((v.x + 1) / 2) * r.width, r.top + ((1 - v.y) / 2) * r.height];
  }

  resize() {
    const w = this.canvas.clientWidth,
      h = this.canvas.clientHeight;
    if (!w || !h) return;
    this.renderer.setSize(w, h, false);
    this.camera.aspect = w / h;
    this.camera.updateProjectionMatrix();
    this.dirty = true;
    if (this.onResize) this.onResize();
  }

  /** Draw if anything changed since the last drawing; true if it drew. */
  render() {
    if (!this.dirty || !this.canvas.clientWidth) return false;
    this.dirty = false;
    this.renderer.render(this.scene, this.camera);
    this.frames++;
    return true;
  }
}

// ------------------------------------------------------------------ simple solids, reused

const _up = new THREE.Vector3(0, 1, 0);
const _dir = new THREE.Vector3();

/** Builds a model from capsules, spheres, boxes and rings each frame, reusing the meshes of
 *  the previous frame (begin(), then the solids, then end() hides what was not used). */
export class Solids {
  constructor(parent) {
    this.group = new THREE.Group();
    parent.add(this.group);
    this.pools = {};
    this.used = {};
    this.materials = new Map();
    // light geometry: a software renderer (no GPU) draws every triangle on the CPU
    this.geometry = {
      cylinder: new THREE.CylinderGeometry(1, 1, 1, SOFTWARE_GL ? 12 : 20, 1),
      sphere: new THREE.SphereGeometry(1, SOFTWARE_GL ? 14 : 24, SOFTWARE_GL ? 9 : 16),
      box: new THREE.BoxGeometry(1, 1, 1),
    };
  }

  material(colour, opacity = 1) {
    const key = `${colour}/${opacity}`;
    if (!this.materials.has(key)) {
      const m = new THREE.MeshStandardMaterial({ color: colour, roughness: 0.55, metalness: 0.05 });
      if (opacity < 1) Object.assign(m, { transparent: true, opacity, depthWrite: false });
      this.materials.set(key, m);
    }
    return this.materials.get(key);
  }

  begin() {
    this.used = {};
  }

  end() {
    for (const [kind, pool] of Object.entries(this.pools)) {
      for (let i = this.used[kind] || 0; i < pool.length; i++) pool[i].visible = false;
    }
  }

  mesh(kind, colour, opacity = 1) {
    const pool = (this.pools[kind] ||= []);
    const i = (this.used[kind] = (this.used[kind] || 0) + 1) - 1;
    if (i === pool.length) {
      const m = new THREE.Mesh(this.geometry[kind], this.material(colour, opacity));
      this.group.add(m);
      pool.push(m);
    }
    const m = pool[i];
    m.material = this.material(colour, opacity);
    m.visible = true;
    m.quaternion.identity();
    return m;
  }

  /** A rod of radius ``r`` from ``a`` to ``b`` with rounded ends (a capsule). */
  capsule(a, b, r, colour, ends = true) {
    const A = new THREE.Vector3(...a),
      B = new THREE.Vector3(...b);
    _dir.subVectors(B, A);
    const len = _dir.length();
    const m = this.mesh("cylinder", colour);
    m.position.addVectors(A, B).multiplyScalar(0.5);
    m.scale.set(r, Math.max(len, 1e-9), r);
    if (len > 0) m.quaternion.setFromUnitVectors(_up, _dir.normalize());
    if (ends) {
      this.sphere(a, r, colour);
      this.sphere(b, r, colour);
    }
    return m;
  }

  /** A capsule through several points. */
  polyline(pts, r, colour) {
    for (let k = 0; k + 1 < pts.length; k++) this.capsule(pts[k], pts[k + 1], r, colour);
  }

  sphere(c, r, colour, opacity = 1) {
    const m = this.mesh("sphere", colour, opacity);
    m.position.set(...c);
    m.scale.set(r, r, r);
    return m;
  }

  /** A box of ``size`` centred at ``c``, its axes turned by quaternion ``q`` [w, x, y, z]. */
  box(c, size, colour, q = null) {
    const m = this.mesh("box", colour);
    m.position.set(...c);
    m.scale.set(...size);
    if (q) m.quaternion.set(q[1], q[2], q[3], q[0]);
    return m;
  }

  /** A ring (torus) of ``radius`` about ``c`` whose axis is ``axis``, tube radius ``tube``. */
  ring(c, radius, axis, tube, colour) {
    const kind = `ring ${radius} ${tube}`;
    this.geometry[kind] ||= new THREE.TorusGeometry(radius, tube, SOFTWARE_GL ? 6 : 10, SOFTWARE_GL ? 40 : 64);
    const m = this.mesh(kind, colour);
    m.position.set(...c);
    m.scale.set(1, 1, 1);
    m.quaternion.setFromUnitVectors(new THREE.Vector3(0, 0, 1), new THREE.Vector3(...axis).normalize());
    return m;
  }
}

export { THREE };
