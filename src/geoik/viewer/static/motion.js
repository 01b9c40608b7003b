// geoik viewer: replaying a recorded motion in the browser, as geoik.Motion defines it: between
// two keyframes every relative joint angle changes linearly.

/** Joint positions of a planar chain from its base, link lengths and relative angles. */
export function fk(base, lengths, angles) {
  const out = [base.slice()];
  let a = 0,
    x = base[0],
    y = base[1];
  for (let i = 0; i < lengths.length; i++) {
    a += angles[i];
    x += lengths[i] * Math.cos(a);
    y += lengths[i] * Math.sin(a);
    out.push([x, y]);
  }
  return out;
}

/** The relative angles at fractional keyframe position ``f``. */
export function anglesAt(keys, f) {
  const i = Math.min(Math.floor(f), keys.length - 1);
  const j = Math.min(i + 1, keys.length - 1);
  const w = f - i;
  return keys[i].map((a, k) => a + w * (keys[j][k] - a));
}

/** The end effector from keyframe position ``fa`` to ``fb`` appended to ``out``, sampled so
 *  that no joint turns more than a degree between two points. */
export function tracePath(keys, base, lengths, fa, fb, out) {
  const STEP = Math.PI / 180;
  let f = fa;
  while (f < fb) {
    const i = Math.min(Math.floor(f), keys.length - 2);
    let rate = 0;
    keys[i].forEach((a, k) => (rate = Math.max(rate, Math.abs(keys[i + 1][k] - a))));
    const next = Math.min(fb, i + 1);
    const n = Math.max(1, Math.ceil(((next - f) * rate) / STEP));
    for (let s = 1; s <= n; s++) {
      const pos = fk(base, lengths, anglesAt(keys, f + ((next - f) * s) / n));
      out.push(pos[pos.length - 1]);
    }
    f = next;
  }
}
