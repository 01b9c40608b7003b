// geoik viewer: orthographic side, top and front views of a 3-D scene (seed 003 Fig. 3), drawn
// back to front on canvases. Coordinates are x forward, y left, z up.
import { $ } from "./common.js";

export const VIEWS = {
  side: { canvas: $("v-side"), axes: [0, 2], toward: [0, -1, 0] }, // seen from -y
  top: { canvas: $("v-top"), axes: [0, 1], toward: [0, 0, 1] }, // seen from above
  front: { canvas: $("v-front"), axes: [1, 2], toward: [1, 0, 0] }, // seen from +x
};

/** Per view: the axes drawn, a common scale fitting ``box`` in every view, and the centre. */
export function viewBoxes(box) {
  let scale = Infinity;
  for (const v of Object.values(VIEWS)) {
    const [a, b] = v.axes;
    const w = v.canvas.width - 16,
      h = v.canvas.height - 16;
    scale = Math.min(scale, w / (box[a][1] - box[a][0]), h / (box[b][1] - box[b][0]));
  }
  const out = {};
  for (const [name, v] of Object.entries(VIEWS)) {
    const [a, b] = v.axes;
    const cx = v.canvas.width / 2 - (scale * (box[a][0] + box[a][1])) / 2;
    const cy = v.canvas.height / 2 + (scale * (box[b][0] + box[b][1])) / 2;
    out[name] = { name, a, b, scale, cx, cy, toward: v.toward };
  }
  return out;
}

export function project(vb, p) {
  return [vb.cx + p[vb.a] * vb.scale, vb.cy - p[vb.b] * vb.scale];
}

export function unproject(vb, canvas, ev) {
  const r = canvas.getBoundingClientRect();
  const x = ((ev.clientX - r.left) * canvas.width) / r.width;
  const y = ((ev.clientY - r.top) * canvas.height) / r.height;
  return { a: vb.a, b: vb.b, u: (x - vb.cx) / vb.scale, v: (vb.cy - y) / vb.scale };
}

function depthOf(vb, p) {
  const pts = p.pts || [p.center];
  let d = 0;
  for (const q of pts) d += q[0] * vb.toward[0] + q[1] * vb.toward[1] + q[2] * vb.toward[2];
  return d / pts.length + (p.bias || 0);
}

/** Draw primitives into every view, farthest first (a painter's algorithm per view).
 *  Primitive kinds: line (pts), dots (pts, radius in pixels), poly (pts, filled), hull (the
 *  convex outline of pts as seen in the view: a solid's silhouette), ball (center, radius), ring (center,
 *  radius, plane), cyl (a vertical cylinder: center of its foot, radius, height), target.
 *  Line widths are ``width`` pixels, or ``size`` scene units (limbs keep their proportions). */
export function drawViews(boxes, prims, ground) {
  for (const [name, v] of Object.entries(VIEWS)) {
    const g = v.canvas.getContext("2d");
    const vb = boxes[name];
    g.setTransform(1, 0, 0, 1, 0, 0);
    g.clearRect(0, 0, v.canvas.width, v.canvas.height);
    if (ground !== null && name !== "top") drawGround(g, vb, ground);
    const mine = prims.filter((p) => !p.only || p.only === name);
    const keyed = mine.map((p) => [p.layer || 0, depthOf(vb, p), p]);
    keyed.sort((x, y) => x[0] - y[0] || x[1] - y[1]);
    for (const [, , p] of keyed) drawPrim(g, vb, p);
  }
}

function drawGround(g, vb, z) {
  const y = vb.cy - z * vb.scale;
  g.fillStyle = "#eef0ec";
  g.fillRect(0, y, g.canvas.width, g.canvas.height - y);
  g.strokeStyle = "#b9bdb5";
  g.lineWidth = 1;
  g.beginPath();
  g.moveTo(0, y);
  g.lineTo(g.canvas.width, y);
  g.stroke();
}

function path(g, vb, pts, close) {
  g.beginPath();
  pts.forEach((q, k) => {
    const [x, y] = project(vb, q);
    if (k) g.lineTo(x, y);
    else g.moveTo(x, y);
  });
  if (close) g.closePath();
}

function ringPoints(p) {
  const pts = [];
  for (let k = 0; k <= 64; k++) {
    const a = (2 * Math.PI * k) / 64;
    const q = p.center.slice();
    q[p.plane[0]] += p.radius * Math.cos(a);
    q[p.plane[1]] += p.radius * Math.sin(a);
    pts.push(q);
  }
  return pts;
}

function drawPrim(g, vb, p) {
  g.strokeStyle = p.color || "#1f6fb2";
  g.fillStyle = p.fill || p.color || "#1f6fb2";
  g.lineWidth = p.size ? Math.max(1, p.size * vb.scale) : p.width || 2;
  g.lineCap = "round";
  g.lineJoin = "round";
  g.globalAlpha = p.alpha === undefined ? 1 : p.alpha;
  g.setLineDash(p.dash || []);
  if (p.kind === "line") {
    path(g, vb, p.pts, false);
    g.stroke();
    if (p.joints) {
      g.fillStyle = p.jointColor || "#0d3b66";
      for (const q of p.joints === true ? p.pts : p.joints) {
        const [x, y] = project(vb, q);
        g.beginPath();
        g.arc(x, y, p.jointRadius || 3, 0, 2 * Math.PI);
        g.fill();
      }
    }
  } else if (p.kind === "dots") {
    for (const q of p.pts) {
      const [x, y] = project(vb, q);
      g.beginPath();
      g.arc(x, y, p.radius, 0, 2 * Math.PI);
      g.fill();
    }
  } else if (p.kind === "hull") {
    const h = hull(p.pts.map((q) => project(vb, q)));
    g.beginPath();
    h.forEach(([x, y], k) => (k ? g.lineTo(x, y) : g.moveTo(x, y)));
    g.closePath();
    g.fill();
    if (p.color) g.stroke();
  } else if (p.kind === "poly") {
    path(g, vb, p.pts, true);
    g.fill();
    if (p.color) g.stroke();
  } else if (p.kind === "ball") {
    const [x, y] = project(vb, p.center);
    const r = Math.max(1, p.radius * vb.scale);
    g.beginPath();
    g.arc(x, y, r, 0, 2 * Math.PI);
    if (p.shade) {
      const grad = g.createRadialGradient(x - 0.35 * r, y - 0.35 * r, 0.1 * r, x, y, r);
      grad.addColorStop(0, p.shade[0]);
      grad.addColorStop(1, p.shade[1]);
      g.fillStyle = grad;
      g.fill();
    } else if (p.fill) g.fill();
    if (p.color) g.stroke();
  } else if (p.kind === "ring") {
    path(g, vb, ringPoints(p), false);
    g.stroke();
  } else if (p.kind === "cyl") {
    drawCylinder(g, vb, p);
  } else if (p.kind === "target") {
    const [x, y] = project(vb, p.center);
    g.lineWidth = 1.5;
    g.beginPath();
    g.arc(x, y, 9, 0, 2 * Math.PI);
    for (const [dx, dy] of [[1, 0], [-1, 0], [0, 1], [0, -1]]) {
      g.moveTo(x + 9 * dx, y + 9 * dy);
      g.lineTo(x + 14 * dx, y + 14 * dy);
    }
    g.stroke();
  }
  g.globalAlpha = 1;
  g.setLineDash([]);
}

/** Convex hull of 2-D points (Andrew's monotone chain), counter-clockwise. */
function hull(points) {
  const pts = points.slice().sort((a, b) => a[0] - b[0] || a[1] - b[1]);
  if (pts.length < 3) return pts;
  const cross = (o, a, b) => (a[0] - o[0]) * (b[1] - o[1]) - (a[1] - o[1]) * (b[0] - o[0]);
  const half = (list) => {
    const out = [];
    for (const p of list) {
      while (out.length >= 2 && cross(out[out.length - 2], out[out.length - 1], p) <= 0) out.pop();
      out.push(p);
    }
    out.pop();
    return out;
  };
  return half(pts).concat(half(pts.slice().reverse()));
}

function drawCylinder(g, vb, p) {
  const [cx, cy] = project(vb, p.center);
  const r = p.radius * vb.scale;
  g.beginPath();
  if (vb.b === 2) g.rect(cx - r, cy - p.height * vb.scale, 2 * r, p.height * vb.scale);
  else g.arc(cx, cy, r, 0, 2 * Math.PI);
  g.fill();
  g.stroke();
}
