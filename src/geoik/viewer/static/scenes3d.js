// geoik viewer: seed 003's scenes as 3-D models of simple solids (capsules, spheres, boxes,
// rings), built from the same server replies the orthographic views draw. z is up.
import { Solids, View3D } from "./view3d.js";

const STEEL = "#4a4f53";
const ORANGE = "#f29f05";
const SKIN = "#e3b08a";
const FRAME = "#b71c1c";

/** Camera, grid and handle of each scene. */
export const LOOK = {
  arm: { eye: [3.2, -4.2, 2.9], at: [0.4, 0.2, 0.8], grid: [6, 12, 0] },
  cyclist: { eye: [1.9, -2.6, 1.5], at: [0.08, 0, 0.72], grid: [4, 16, 0] },
  hand: { eye: [2.6, -2.5, 1.3], at: [1.0, 0.0, -0.45], grid: [4, 16, -1.45] },
};

export class SceneView {
  constructor(canvas) {
    this.view = new View3D(canvas, "z");
    this.solids = new Solids(this.view.content);
    this.scene = null;
  }

  /** Switch to ``scene``: camera, grid, and the handle (the arm's target, the hand's ball). */
  setScene(scene) {
    this.scene = scene;
    const look = LOOK[scene];
    this.view.look(look.eye, look.at);
    this.view.setGrid(look.grid[0], look.grid[1], look.grid[2]);
    this.view.hideHandle();
    this.solids.begin();
    this.solids.end();
  }

  /** Draw a scene reply; the handle follows the reply (``current``: it answers the handle's
   *  last place, not one it was dragged from since) unless the user is dragging it. */
  draw(r, current = true) {
    const s = this.solids;
    s.begin();
    if (r.scene === "arm") arm(s, r);
    else if (r.scene === "cyclist") cyclist(s, r);
    else hand(s, r);
    s.end();
    const at = r.scene === "arm" ? r.target3 : r.scene === "hand" ? r.ball : null;
    if (at && !this.view.dragging && current) {
      if (!this.view.transform.object) this.view.showHandle(at);
      else this.view.handle.position.set(...at);
    }
    this.view.dirty = true;
  }
}

function arm(s, r) {
  const ped = r.pedestal;
  const yaw = (r.yaw_deg * Math.PI) / 180;
  const c = Math.cos(yaw),
    sn = Math.sin(yaw);
  const at = (q) => [q[0] * c, q[0] * sn, q[1] + ped];
  s.capsule([0, 0, 0], [0, 0, ped], 0.2, "#8a8f93", false);
  s.capsule([0, 0, ped], [0, 0, ped + 0.02], 0.23, STEEL, false);
  const pts = r.points;
  for (let k = 0; k + 1 < pts.length; k++) s.capsule(pts[k], pts[k + 1], 0.075 - 0.012 * k, ORANGE, false);
  for (const p of pts.slice(0, -1)) s.sphere(p, 0.1, STEEL);
  // the gripper: two jaws along the last link, in the arm's plane
  const n = r.planar.length;
  const [x1, z1] = r.planar[n - 2],
    [x2, z2] = r.planar[n - 1];
  const len = Math.hypot(x2 - x1, z2 - z1) || 1;
  const u = [(x2 - x1) / len, (z2 - z1) / len],
    w = [-u[1], u[0]];
  for (const k of [1, -1]) {
    const a = at([x2 + 0.07 * k * w[0], z2 + 0.07 * k * w[1]]);
    const b = at([x2 + 0.07 * k * w[0] + 0.14 * u[0], z2 + 0.07 * k * w[1] + 0.14 * u[1]]);
    s.capsule(a, b, 0.022, STEEL);
  }
  s.capsule(at([x2 + 0.07 * w[0], z2 + 0.07 * w[1]]), at([x2 - 0.07 * w[0], z2 - 0.07 * w[1]]), 0.025, STEEL);
  s.sphere(r.target3, 0.035, "#d32f2f");
  // the safe zones about the shoulder, in the arm's plane
  s.ring([0, 0, ped], r.reach[1], [-sn, c, 0], 0.006, "#2e7d32");
  if (r.reach[0] > 0) s.ring([0, 0, ped], r.reach[0], [-sn, c, 0], 0.006, "#b3261e");
}

function cyclist(s, r) {
  const b = r.bike,
    rd = r.rider;
  for (const w of b.wheels) {
    s.ring(w, b.wheel_radius - 0.018, [0, 1, 0], 0.018, "#2b2b2b");
    s.ring(w, b.wheel_radius - 0.045, [0, 1, 0], 0.008, "#9aa0a4");
    s.capsule([w[0], -0.05, w[2]], [w[0], 0.05, w[2]], 0.02, "#777");
  }
  for (const t of b.tubes) s.capsule(t[0], t[1], 0.018, FRAME);
  s.capsule(b.saddle[0], b.saddle[1], 0.03, "#222");
  s.capsule(b.handlebar[0], b.handlebar[1], 0.016, "#444");
  s.ring(b.chainring.center, b.chainring.radius, [0, 1, 0], 0.008, "#666");
  s.capsule(rd.pelvis[0], rd.pelvis[1], 0.075, "#263238");
  s.capsule(rd.torso[0], rd.torso[1], 0.12, "#1565c0");
  s.capsule(rd.shoulders[0], rd.shoulders[1], 0.06, "#1565c0");
  for (const a of rd.arms) s.polyline(a, 0.034, SKIN);
  s.sphere(rd.head, rd.head_radius, SKIN);
  for (const side of ["left", "right"]) {
    const leg = r.legs[side];
    s.capsule(leg.crank[0], leg.crank[1], 0.013, "#333");
    const [px, py, pz] = leg.pedal;
    const k = Math.sign(py);
    s.box([px, py + 0.02 * k, pz], [0.09, 0.08, 0.02], "#111");
    const [hip, knee, ankle] = leg.points;
    const tone = side === "right" ? "#263238" : "#546e7a";
    s.capsule(hip, knee, 0.065, tone);
    s.capsule(knee, ankle, 0.05, tone);
    const [heel, , ball, toe] = leg.foot;
    s.capsule(heel, ball, 0.035, "#37474f");
    s.capsule(ball, toe, 0.03, "#37474f");
  }
}

const FINGER_SIZE = [0.095, 0.085, 0.075];
const TOUCH = { tip: "#2e7d32", finger: "#ef6c00", none: "#9e9e9e" };

function hand(s, r) {
  const pos = r.points,
    idx = (n) => r.names.indexOf(n);
  s.sphere(r.ball, r.radius, "#1e88e5", 0.55);
  s.capsule([-0.75, 0, -0.12], [0.0, 0, -0.12], 0.21, SKIN, false);
  // the palm as a slab: rods round its outline and across it
  const palm = r.palm;
  for (let k = 0; k < palm.length; k++) {
    const a = palm[k],
      b = palm[(k + 1) % palm.length];
    s.capsule([a[0], a[1], a[2] - 0.11], [b[0], b[1], b[2] - 0.11], 0.11, SKIN);
  }
  for (let k = 1; k + 1 < palm.length; k++) {
    const a = palm[0],
      b = palm[k];
    s.capsule([a[0], a[1], a[2] - 0.11], [b[0], b[1], b[2] - 0.11], 0.11, SKIN);
  }
  for (const [f, v] of Object.entries(r.fingers)) {
    const joints = [r.parents[idx(f + "_1")], idx(f + "_1"), idx(f + "_2"), idx(f)];
    for (let k = 0; k < 3; k++) {
      const size = (f === "thumb" ? 1.15 : 1) * FINGER_SIZE[k];
      s.capsule(pos[joints[k]], pos[joints[k + 1]], size * 0.9, SKIN);
    }
    s.sphere(pos[idx(f)], 0.05, TOUCH[v.touch]);
  }
}
