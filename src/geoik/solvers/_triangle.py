"""Numba helpers shared by the triangle-based solvers (``triangulation`` and ``single-pass``).

Joint turns with limits, the side a link turns to, rotation axes when the geometry leaves them
undefined, and the length of a sub-chain fully collapsed under its limits (seed 000 §3.1.3).
"""

from __future__ import annotations

import math

import numpy as np
from numba import njit

from geoik.geometry import (
    CLOSEST,
    PI,
    REACHED,
    STALLED,
    constrain_joint_3d,
    dist2,
    hinge_angle,
    is_hinge,
    parent_frame,
    q_angle,
    q_axis_angle,
    qmul,
    qnormalize,
    qrot,
    wrap,
)

# A joint whose rotation is at most this (radians) did not move: no step is recorded.
MOVED = 1e-12
# Sines below this count as parallel vectors: the rotation axis is undefined (seed 000 §3.1.1).
PARALLEL = 1e-12
TINY = 1e-300
# Coordinate-descent sweeps when collapsing a limited sub-chain.
COLLAPSE_SWEEPS = 40


@njit(cache=True)
def limit_angle(t, lo, hi):
    """The allowed relative angle nearest to ``t`` along the circle.

    Free joints (infinite limits) return ``t`` itself. A limited joint returns ``t`` moved by a
    multiple of 2 pi into ``[lo, hi]`` if it can be, else the limit nearer to it on the circle.
    """
    if lo <= t <= hi:  # also keeps t bit for bit: callers test ``limit_angle(t) == t``
        return t
    if not (math.isfinite(lo) and math.isfinite(hi)):
        return min(max(t, lo), hi)
    if hi - lo >= 2.0 * PI:
        return t
    s = lo + (t - lo) % (2.0 * PI)
    if s <= hi:
        return s
    if s - hi <= lo + 2.0 * PI - s:
        return hi
    return lo


@njit(cache=True)
def turn_2d(j, theta, angles, lo, hi):
    """Turn 2-D joint ``j`` by ``theta`` (shortest way), held inside its limits.

    Returns the rotation actually made; ``angles[j]`` is updated.
    """
    old = angles[j]
    new = limit_angle(old + wrap(theta), lo[j], hi[j])
    angles[j] = new
    return new - old


@njit(cache=True)
def side_turn_2d(alpha, delta, prev_side):
    """Rotation that leaves a link at angle ``delta`` from the target vector, on its own side.

    ``alpha`` is the signed angle from the link to the target vector. Seed 000 eqs. (6)-(7): the
    link turns by ``|alpha| - delta`` about ``a x c``. When the link is parallel to the target
    vector (the axis is undefined, §3.1.1) the previous side ``prev_side`` (+1 or -1) is used.
    Returns (signed rotation, side used).
    """
    s = prev_side
    mag = abs(alpha)
    if abs(math.sin(alpha)) > PARALLEL:
        s = 1.0 if alpha > 0.0 else -1.0
    elif math.cos(alpha) > 0.0:
        mag = 0.0
    else:
        mag = PI
    return s * (mag - delta), s


@njit(cache=True)
def law_of_cosines(a, b, c):
    """Angle opposite ``b`` in the triangle of sides a, b, c (seed 000 eq. 5), in [0, pi]."""
    den = 2.0 * a * c
    if den < TINY:
        return 0.0
    x = (a * a + c * c - b * b) / den
    return math.acos(min(1.0, max(-1.0, x)))


@njit(cache=True)
def finish(pos, target, outer, is_beyond, tol):
    """Kernel status after the pass: REACHED, CLOSEST (beyond reach, at the nearest point) or
    STALLED (the pass is over and missed; ``geoik.solve`` judges the final pose)."""
    n = pos.shape[0] - 1
    if dist2(pos[n], target) <= tol * tol:
        return REACHED
    if is_beyond and dist2(pos[n], outer) <= tol * tol:
        return CLOSEST
    return STALLED


# ----------------------------------------------------------------------- collapsed lengths


@njit(cache=True)
def _tip_distance(lengths, j0, ang):
    x, y, a = 0.0, 0.0, 0.0
    for j in range(j0, lengths.shape[0]):
        a += ang[j]
        x += lengths[j] * math.cos(a)
        y += lengths[j] * math.sin(a)
    return math.sqrt(x * x + y * y)


@njit(cache=True)
def _descend(lengths, lo, hi, j0, ang):
    """Coordinate descent of the tip's distance from joint j0 (CCD towards the sub-chain's root)."""
    n = lengths.shape[0]
    px = np.empty(n + 1)
    py = np.empty(n + 1)
    for _ in range(COLLAPSE_SWEEPS):
        biggest = 0.0
        for j in range(n - 1, j0, -1):
            px[j0], py[j0], a = 0.0, 0.0, 0.0
            for m in range(j0, n):
                a += ang[m]
                px[m + 1] = px[m] + lengths[m] * math.cos(a)
                py[m + 1] = py[m] + lengths[m] * math.sin(a)
            vx, vy = px[n] - px[j], py[n] - py[j]
            wx, wy = -px[j], -py[j]
            th = math.atan2(vx * wy - vy * wx, vx * wx + vy * wy)
            new = limit_angle(ang[j] + th, lo[j], hi[j])
            biggest = max(biggest, abs(new - ang[j]))
            ang[j] = new
        if biggest <= MOVED:
            break
    return _tip_distance(lengths, j0, ang)


@njit(cache=True)
def collapsed_lengths(lengths, lo, hi, out):
    """``out[i]``: the distance from joint i + 1 to the tip when links i + 1.. are fully collapsed.

    That is the smallest distance the sub-chain of links ``i + 1 .. n - 1`` can put its tip from
    its first joint, given the limits ``[lo, hi]`` (relative angles, planar) of joints
    ``i + 2 .. n - 1`` (joint i + 1's own limit only turns the sub-chain as a whole). With every
    one of those joints free it is ``max(0, 2 max - sum)`` of the sub-chain's lengths, exactly.
    Otherwise it is the least of two coordinate descents (each joint in turn, tip to root, turned
    to bring the tip nearest the root, held in its limits, until no joint moves or 40 sweeps),
    started from every joint at its upper and at its lower limit (a free joint: folded by +-pi):
    a distance some pose within the limits does achieve. ``out[n - 1] = 0``.
    """
    n = lengths.shape[0]
    ang = np.zeros(n)
    out[n - 1] = 0.0
    for i in range(n - 2, -1, -1):
        j0 = i + 1
        free = True
        longest, total = 0.0, 0.0
        for j in range(j0, n):
            longest = max(longest, lengths[j])
            total += lengths[j]
            if j > j0 and (math.isfinite(lo[j]) or math.isfinite(hi[j])):
                free = False
        if free:
            out[i] = max(0.0, 2.0 * longest - total)
            continue
        best = total
        for sign in (1.0, -1.0):
            ang[j0] = 0.0
            for j in range(j0 + 1, n):
                ang[j] = min(max(sign * PI, lo[j]), hi[j])
            best = min(best, _descend(lengths, lo, hi, j0, ang))
        out[i] = best


@njit(cache=True)
def planar_bounds(cone, hinge, lo, hi, lo2, hi2):
    """Planar stand-ins for 3-D limits: a ball joint bends in +-cone, a hinge in [lo, hi]."""
    for j in range(cone.shape[0]):
        if is_hinge(hinge, j):
            lo2[j], hi2[j] = lo[j], hi[j]
        elif cone[j] >= PI:
            lo2[j], hi2[j] = -math.inf, math.inf
        else:
            lo2[j], hi2[j] = -cone[j], cone[j]


# ----------------------------------------------------------------------- 3-D rotations


@njit(cache=True)
def unit(x, y, z):
    """(x, y, z) normalised, and its length (0 and a zero vector when it has none)."""
    m = math.sqrt(x * x + y * y + z * z)
    if m < TINY:
        return 0.0, 0.0, 0.0, 0.0
    return x / m, y / m, z / m, m


@njit(cache=True)
def axis_perp(ux, uy, uz, kx, ky, kz):
    """Unit axis perpendicular to unit u: k with its u part removed, else the fixed axis.

    The fixed axis is +z (+y when u is within 25 degrees of z) made perpendicular to u: a chain in
    the xy-plane then keeps turning in that plane (seed 000 §3.1.1 names the vertical y axis;
    +z is this library's vertical for planar chains, as in ``geometry.q_between``).
    """
    d = kx * ux + ky * uy + kz * uz
    px, py, pz, m = unit(kx - d * ux, ky - d * uy, kz - d * uz)
    if m > 1e-6:
        return px, py, pz
    ex, ey, ez = 0.0, 0.0, 1.0
    if abs(uz) > 0.9:
        ex, ey, ez = 0.0, 1.0, 0.0
    d = ex * ux + ey * uy + ez * uz
    px, py, pz, m = unit(ex - d * ux, ey - d * uy, ez - d * uz)
    return px, py, pz


@njit(cache=True)
def side_axis(ux, uy, uz, cx, cy, cz, kx, ky, kz):
    """Axis and angle of the turn from unit u towards unit c: (axis, angle in [0, pi]).

    The axis is ``u x c`` (seed 000 eq. 7); when u and c are parallel it is the previous axis k
    (made perpendicular to u), else the fixed one (:func:`axis_perp`).
    """
    rx, ry, rz = uy * cz - uz * cy, uz * cx - ux * cz, ux * cy - uy * cx
    s = math.sqrt(rx * rx + ry * ry + rz * rz)
    d = ux * cx + uy * cy + uz * cz
    if s > PARALLEL:
        return rx / s, ry / s, rz / s, math.atan2(s, d)
    ax, ay, az = axis_perp(ux, uy, uz, kx, ky, kz)
    return ax, ay, az, 0.0 if d > 0.0 else PI


@njit(cache=True)
def turn_world_3d(j, k, theta, c, quats, world, model):
    """Turn joint j by the world rotation (unit axis ``k``, a 3-tuple; angle ``theta``,
    radians), held in its limits.

    When the next joint is a hinge, a ball joint j also twists its link so that hinge's axis is
    normal to the plane of the link and ``c`` (3,), the target vector: the hinge can then bend
    the rest of the chain towards the target (:func:`twist_to_hinge`). ``quats`` and ``world``
    are the local and world rotations (n, 4), ``model`` the chain's ``kernel_arrays``. Returns
    the angle of the change actually made; ``quats[j]`` is updated (the caller refreshes the
    frames and positions with ``fk_3d_from``).
    """
    kx, ky, kz = k
    _, _, cone, hinge, lo, hi = model
    p0, p1, p2, p3 = parent_frame(j, world)
    o0, o1, o2, o3 = quats[j, 0], quats[j, 1], quats[j, 2], quats[j, 3]
    r0, r1, r2, r3 = q_axis_angle(kx, ky, kz, theta)
    l0, l1, l2, l3 = qmul(p0, -p1, -p2, -p3, r0, r1, r2, r3)
    l0, l1, l2, l3 = qmul(l0, l1, l2, l3, p0, p1, p2, p3)
    q0, q1, q2, q3 = qmul(l0, l1, l2, l3, o0, o1, o2, o3)
    q0, q1, q2, q3 = constrain_joint_3d(q0, q1, q2, q3, j, cone, hinge, lo, hi)
    if j + 1 < hinge.shape[0] and hinge[j, 0] == 0.0 and hinge[j, 1] == 0.0 and hinge[j, 2] == 0.0:
        q0, q1, q2, q3 = twist_to_hinge(j, q0, q1, q2, q3, c, world, hinge)
    return _commit(j, q0, q1, q2, q3, quats)


@njit(cache=True)
def twist_to_hinge(j, q0, q1, q2, q3, c, world, hinge):
    """Ball joint j's rotation q twisted about its link so the hinge of joint j + 1 is normal to
    the plane of the link and c (the smaller of the two twists; none if that plane is undefined or
    joint j + 1 is no hinge). The twist leaves the link's direction, hence its bend, unchanged."""
    hx, hy, hz = hinge[j + 1, 0], hinge[j + 1, 1], hinge[j + 1, 2]
    if hx == 0.0 and hy == 0.0 and hz == 0.0:
        return q0, q1, q2, q3
    p0, p1, p2, p3 = parent_frame(j, world)
    f0, f1, f2, f3 = qnormalize(*qmul(p0, p1, p2, p3, q0, q1, q2, q3))
    dx, dy, dz = qrot(f0, f1, f2, f3, 1.0, 0.0, 0.0)
    wx, wy, wz = qrot(f0, f1, f2, f3, hx, hy, hz)
    nx, ny, nz, m = unit(dy * c[2] - dz * c[1], dz * c[0] - dx * c[2], dx * c[1] - dy * c[0])
    if m <= PARALLEL * math.sqrt(c[0] * c[0] + c[1] * c[1] + c[2] * c[2]):
        return q0, q1, q2, q3
    cx, cy, cz = wy * nz - wz * ny, wz * nx - wx * nz, wx * ny - wy * nx
    phi = math.atan2(cx * dx + cy * dy + cz * dz, wx * nx + wy * ny + wz * nz)
    if phi > 0.5 * PI:
        phi -= PI
    elif phi < -0.5 * PI:
        phi += PI
    return qmul(q0, q1, q2, q3, math.cos(0.5 * phi), math.sin(0.5 * phi), 0.0, 0.0)


@njit(cache=True)
def _commit(j, q0, q1, q2, q3, quats):
    q0, q1, q2, q3 = qnormalize(q0, q1, q2, q3)
    o0, o1, o2, o3 = quats[j, 0], quats[j, 1], quats[j, 2], quats[j, 3]
    d0, d1, d2, d3 = qmul(q0, q1, q2, q3, o0, -o1, -o2, -o3)
    th = q_angle(d0, d1, d2, d3)
    if th <= MOVED:
        return 0.0
    quats[j, 0], quats[j, 1], quats[j, 2], quats[j, 3] = q0, q1, q2, q3
    return th


@njit(cache=True)
def turn_hinge_onto_cone(j, u, c, delta, quats, world, model):
    """Turn hinge joint j so that its link makes the angle ``delta`` with unit ``c`` (a
    3-tuple), if it can.

    The hinge sweeps the link (unit ``u``, a 3-tuple) round the plane normal to its world axis
    w; that circle meets the cone of half-angle delta about c in up to two directions. Of those
    the one within the limits and nearest the current direction is taken; with none, the
    direction nearest the cone; the hinge angle is then held in [lo, hi]. ``quats``, ``world``
    and ``model`` as :func:`turn_world_3d` takes them. Returns the rotation made (radians).
    """
    ux, uy, uz = u
    cx, cy, cz = c
    _, _, _, hinge, lo, hi = model
    p0, p1, p2, p3 = parent_frame(j, world)
    hx, hy, hz = hinge[j, 0], hinge[j, 1], hinge[j, 2]
    wx, wy, wz = qrot(p0, p1, p2, p3, hx, hy, hz)
    vx, vy, vz = wy * uz - wz * uy, wz * ux - wx * uz, wx * uy - wy * ux
    cu = cx * ux + cy * uy + cz * uz
    cv = cx * vx + cy * vy + cz * vz
    s = math.sqrt(cu * cu + cv * cv)
    if s < PARALLEL:
        return 0.0
    phic = math.atan2(cv, cu)
    x = math.cos(delta) / s
    if x >= 1.0:
        spread = 0.0
    elif x <= -1.0:
        spread = PI
    else:
        spread = math.acos(x)
    o0, o1, o2, o3 = quats[j, 0], quats[j, 1], quats[j, 2], quats[j, 3]
    old = hinge_angle(o0, o1, o2, o3, hx, hy, hz)
    best, best_cost = old, math.inf
    for sgn in (1.0, -1.0):
        phi = wrap(phic + sgn * spread)
        want = old + phi
        got = limit_angle(want, lo[j], hi[j])
        cost = abs(phi) + 10.0 * abs(wrap(got - want))
        if cost < best_cost:
            best, best_cost = got, cost
    q0, q1, q2, q3 = q_axis_angle(hx, hy, hz, best)
    return _commit(j, q0, q1, q2, q3, quats)
