// geoik viewer: fewer triangles for a robot's meshes where WebGL runs on the CPU (SwiftShader,
// llvmpipe). There a frame costs in proportion to the triangles drawn: the Panda's visual meshes
// (134,000 triangles) took about 45 ms a frame in headless Chromium, so a dragged handle lagged
// and the frame rates read low. Each mesh is reduced by vertex clustering: the vertices falling
// in one cell of a grid over the mesh's bounds become one (their mean), and the triangles whose
// corners fall in fewer than three cells vanish. The grid is the first, from fine to coarse,
// that keeps the mesh within its share of the budget. Shapes keep their outline to within a
// cell; shading turns flat. Meshes of fewer than 64 triangles, textured meshes and meshes
// coloured per vertex (their UV coordinates or colours would be lost) are kept whole.
import * as THREE from "three";

/** The triangles a mesh file is reduced to on a software renderer (its meshes kept whole
 *  aside, see above). */
export const SOFTWARE_MESH_TRIANGLES = 2500;

/** Reduce the meshes under ``object`` (as a loader returns it) to at most ``budget`` triangles
 *  in all (each its share, at least 32; the meshes kept whole aside), in place; returns
 *  [triangles before, triangles after, the fewest cells a side of the grids used (Infinity if
 *  none was)]. */
export function simplify(object, budget = SOFTWARE_MESH_TRIANGLES) {
  const meshes = [];
  object.traverse((c) => c.isMesh && c.geometry && c.geometry.attributes.position && meshes.push(c));
  const before = meshes.reduce((s, m) => s + triangles(m.geometry), 0);
  let after = 0;
  let coarsest = Infinity;
  for (const m of meshes) {
    const n = triangles(m.geometry);
    const textured = [m.material].flat().some((mat) => mat && mat.map);
    const coloured = Boolean(m.geometry.attributes.color); // per-vertex colours would be lost
    if (textured || coloured || before <= budget || n < 64) {
      after += n;
      continue;
    }
    const share = Math.max(32, Math.floor((budget * n) / before)); // each mesh its share
    const out = reduced(m.geometry, share);
    if (out) {
      m.geometry.dispose();
      m.geometry = out.geometry;
      coarsest = Math.min(coarsest, out.cells);
    }
    after += triangles(m.geometry);
  }
  return [before, after, coarsest];
}

function triangles(g) {
  return Math.floor((g.index ? g.index.count : g.attributes.position.count) / 3);
}

/** ``{geometry, cells}``: ``geometry`` clustered on the finest grid tried (of at most 512 cells
 *  a side) that keeps it within ``budget`` triangles, flat-shaded and non-indexed, its material
 *  groups kept, and that grid's cells a side; null if no grid of at least 4 cells a side does. */
function reduced(geometry, budget) {
  const pos = geometry.attributes.position;
  const index = geometry.index;
  const corners = index ? index.count : pos.count;
  const corner = index ? (i) => index.getX(i) : (i) => i;
  geometry.computeBoundingBox();
  const box = geometry.boundingBox;
  const size = new THREE.Vector3();
  box.getSize(size);
  const side = Math.max(size.x, size.y, size.z);
  if (!(side > 0)) return null;
  const groups = geometry.groups.length
    ? geometry.groups
    : [{ start: 0, count: corners, materialIndex: 0 }];
  let cells = Math.min(512, Math.max(4, Math.round(Math.sqrt(budget) * 2)));
  for (let attempt = 0; attempt < 8 && cells >= 4; attempt++) {
    const out = cluster(pos, corner, groups, box.min, side / cells, cells);
    if (out.triangles <= budget) return { geometry: build(out), cells };
    cells = Math.floor(cells * Math.min(0.9, Math.sqrt(budget / out.triangles)));
  }
  return null;
}

function cluster(pos, corner, groups, min, h, cells) {
  const n = cells + 1;
  const cellOf = new Map(); // grid cell -> its new vertex
  const sums = []; // per new vertex: x, y, z, count
  const vertexOf = new Int32Array(pos.count).fill(-1);
  const vertex = (i) => {
    if (vertexOf[i] >= 0) return vertexOf[i];
    const x = pos.getX(i), y = pos.getY(i), z = pos.getZ(i);
    const key =
      Math.min(cells, Math.floor((x - min.x) / h)) +
      n * (Math.min(cells, Math.floor((y - min.y) / h)) + n * Math.min(cells, Math.floor((z - min.z) / h)));
    let v = cellOf.get(key);
    if (v === undefined) {
      v = sums.length / 4;
      cellOf.set(key, v);
      sums.push(0, 0, 0, 0);
    }
    sums[4 * v] += x;
    sums[4 * v + 1] += y;
    sums[4 * v + 2] += z;
    sums[4 * v + 3] += 1;
    vertexOf[i] = v;
    return v;
  };
  const tris = [];
  const outGroups = [];
  for (const grp of groups) {
    const first = tris.length;
    for (let i = grp.start; i + 2 < grp.start + grp.count; i += 3) {
      const a = vertex(corner(i)), b = vertex(corner(i + 1)), c = vertex(corner(i + 2));
      if (a !== b && b !== c && a !== c) tris.push(a, b, c);
    }
    outGroups.push({ start: first, count: tris.length - first, materialIndex: grp.materialIndex });
  }
  return { sums, tris, groups: outGroups, triangles: tris.length / 3 };
}

function build({ sums, tris, groups }) {
  const xyz = new Float32Array(tris.length * 3);
  for (let k = 0; k < tris.length; k++) {
    const v = 4 * tris[k], m = sums[v + 3];
    xyz[3 * k] = sums[v] / m;
    xyz[3 * k + 1] = sums[v + 1] / m;
    xyz[3 * k + 2] = sums[v + 2] / m;
  }
  const g = new THREE.BufferGeometry();
  g.setAttribute("position", new THREE.BufferAttribute(xyz, 3));
  for (const grp of groups) g.addGroup(grp.start, grp.count, grp.materialIndex);
  g.computeVertexNormals(); // non-indexed: each triangle's own normal (flat shading)
  return g;
}
