"""Numba-compiled geometry shared by every solver kernel.

Everything here works on plain float64 arrays and scalars, so that kernels stay free of Python
objects (numbagg style). Angles are radians.

Conventions
-----------
2-D
    Relative joint angles ``angles`` of shape ``(n,)``; joint ``i``'s angle is measured from the
    direction of link ``i - 1`` (joint 0: from +x), counter-clockwise positive. Limits are
    ``lo[i] <= angles[i] <= hi[i]``; a free joint has ``lo = -inf`` and ``hi = +inf``.
3-D
    Each joint holds a unit quaternion ``(w, x, y, z)`` turning the parent link's frame into its
    own link's frame; a link points along the +x axis of its own frame. ``hinge[i]`` is a unit
    axis in the parent link's frame (perpendicular to +x) or the zero vector for a ball joint;
    ``cone[i]`` bounds the angle between a ball joint's link and its parent link, and ``lo[i]``,
    ``hi[i]`` bound the signed angle of a hinge.
"""

from __future__ import annotations

import math

import numpy as np
from numba import njit

PI = math.pi

# Kernel status codes (see geoik.solution.Status).
REACHED = 0
CLOSEST = 1
MAX_ITERATIONS = 2
STALLED = 3

TINY = 1e-300
"""Distances (and squared distances) below this are taken as zero."""
TREE_MOVED = 1e-12
"""A tree round moving no joint more than this times the skeleton's scale has stalled."""


@njit(cache=True)
def sq(x):
    """``x * x``. Kernels square with it rather than ``x ** 2``: compiled, both are one
    correctly rounded product, but run as plain Python (:mod:`geoik.jit`) ``** 2`` calls the C
    library's ``pow``, which is off by one unit in the last place now and then, so the two forms
    of a kernel would drift apart."""
    return x * x


@njit(cache=True)
def copy_into(dst, src):
    """Copy ``src`` (1-D or 2-D) into ``dst`` of the same shape, element by element.

    Kernels copy arrays with it rather than ``dst[:] = src``: numba compiles a slice assignment
    from an array with a shape-mismatch error whose message formatting costs about 3 s of
    compilation in every process that compiles such a kernel (once per number of dimensions),
    more than many kernels take themselves."""
    if src.ndim == 1:
        for i in range(src.shape[0]):
            dst[i] = src[i]
    else:
        for i in range(src.shape[0]):
            for j in range(src.shape[1]):
                dst[i, j] = src[i, j]


@njit(cache=True)
def total_length(lengths):
    """The links' lengths summed in order (as every kernel sums them: NumPy's own sum pairs
    terms, so it may round differently)."""
    total = 0.0
    for i in range(lengths.shape[0]):
        total += lengths[i]
    return total


# ----------------------------------------------------------------------------------------- 2-D


@njit(cache=True, inline="always")  # inlined: a call counts references to its four arrays
def fk_2d(lengths, base, angles, out):
    """Forward kinematics: joint positions ``out`` (n + 1, 2) from relative ``angles`` (n,)."""
    out[0, 0] = base[0]
    out[0, 1] = base[1]
    a = 0.0
    for i in range(lengths.shape[0]):
        a += angles[i]
        out[i + 1, 0] = out[i, 0] + lengths[i] * math.cos(a)
        out[i + 1, 1] = out[i, 1] + lengths[i] * math.sin(a)


@njit(cache=True)
def wrap(a):
    """Wrap an angle into (-pi, pi]."""
    w = a - 2.0 * PI * math.floor((a + PI) / (2.0 * PI))  # in [-pi, pi)
    if w <= -PI:
        w += 2.0 * PI
    return w


@njit(cache=True)
def clamp(x, lo, hi):
    """``x`` (a float) held within ``[lo, hi]``."""
    if x < lo:
        return lo
    if x > hi:
        return hi
    return x


@njit(cache=True)
def fit_angle(a, cur, lo, hi):
    """(angle, allowed): the relative angle ``a`` as a joint with limits ``[lo, hi]`` may hold it.

    A free joint (infinite limits) takes the representative of ``a`` nearest its current angle
    ``cur``, so that its angle moves continuously. A limited joint (``-pi <= lo <= hi <= pi``)
    takes ``a`` (wrapped into (-pi, pi], or the representative 2 pi away that lies in
    ``[lo, hi]``) when it can, else the limit nearer to ``a`` in angle, with ``allowed`` False.
    """
    if not (math.isfinite(lo) and math.isfinite(hi)):
        return cur + wrap(a - cur), True
    a = wrap(a)
    for k in (0.0, -2.0 * PI, 2.0 * PI):
        if lo <= a + k <= hi:
            return a + k, True
    if abs(wrap(a - hi)) <= abs(wrap(a - lo)):
        return hi, False
    return lo, False


@njit(cache=True)
def wrap_free_joints(angles, lo, hi, out):
    """Copy ``angles`` into ``out``, wrapping free joints (no limits) into (-pi, pi]."""
    for i in range(angles.shape[0]):
        free = lo[i] == -np.inf and hi[i] == np.inf
        out[i] = wrap(angles[i]) if free else angles[i]


@njit(cache=True)
def angles_from_positions_2d(pos, out):
    """Relative joint angles (wrapped into (-pi, pi]) of a pose given by its joint positions."""
    prev = 0.0
    for i in range(out.shape[0]):
        a = math.atan2(pos[i + 1, 1] - pos[i, 1], pos[i + 1, 0] - pos[i, 0])
        out[i] = wrap(a - prev)
        prev = a


# ----------------------------------------------------------------------------------------- 3-D


@njit(cache=True)
def qmul(a0, a1, a2, a3, b0, b1, b2, b3):
    """Hamilton product of two quaternions given by their components."""
    return (
        a0 * b0 - a1 * b1 - a2 * b2 - a3 * b3,
        a0 * b1 + a1 * b0 + a2 * b3 - a3 * b2,
        a0 * b2 - a1 * b3 + a2 * b0 + a3 * b1,
        a0 * b3 + a1 * b2 - a2 * b1 + a3 * b0,
    )


@njit(cache=True)
def qrot(q0, q1, q2, q3, x, y, z):
    """Rotate the vector (x, y, z) by the unit quaternion q."""
    # t = 2 q_v x v ; v' = v + w t + q_v x t
    tx = 2.0 * (q2 * z - q3 * y)
    ty = 2.0 * (q3 * x - q1 * z)
    tz = 2.0 * (q1 * y - q2 * x)
    return (
        x + q0 * tx + (q2 * tz - q3 * ty),
        y + q0 * ty + (q3 * tx - q1 * tz),
        z + q0 * tz + (q1 * ty - q2 * tx),
    )


@njit(cache=True)
def qnormalize(q0, q1, q2, q3):
    """The unit quaternion ``(w, x, y, z)`` along ``(q0, q1, q2, q3)``; the identity for a zero
    quaternion."""
    s = math.sqrt(q0 * q0 + q1 * q1 + q2 * q2 + q3 * q3)
    if s == 0.0:
        return 1.0, 0.0, 0.0, 0.0
    return q0 / s, q1 / s, q2 / s, q3 / s


@njit(cache=True)
def q_axis_angle(ax, ay, az, angle):
    """Quaternion of a rotation by ``angle`` about the unit axis (ax, ay, az)."""
    s = math.sin(0.5 * angle)
    return math.cos(0.5 * angle), ax * s, ay * s, az * s


@njit(cache=True)
def q_angle(q0, q1, q2, q3):
    """Rotation angle in [0, pi] of a unit quaternion."""
    v = math.sqrt(q1 * q1 + q2 * q2 + q3 * q3)
    return 2.0 * math.atan2(v, abs(q0))


@njit(cache=True)
def q_to_rotvec(q0, q1, q2, q3):
    """Rotation vector (axis times angle, angle in [0, pi]) of a unit quaternion."""
    if q0 < 0.0:
        q0, q1, q2, q3 = -q0, -q1, -q2, -q3
    v = math.sqrt(q1 * q1 + q2 * q2 + q3 * q3)
    if v < 1e-300:
        return 2.0 * q1, 2.0 * q2, 2.0 * q3
    k = 2.0 * math.atan2(v, q0) / v
    return q1 * k, q2 * k, q3 * k


@njit(cache=True)
def rotvec_to_q(x, y, z):
    """The unit quaternion ``(w, x, y, z)`` of the rotation vector ``(x, y, z)`` (radians about its
    direction)."""
    a = math.sqrt(x * x + y * y + z * z)
    if a < 1e-300:
        return 1.0, 0.5 * x, 0.5 * y, 0.5 * z
    s = math.sin(0.5 * a) / a
    return math.cos(0.5 * a), x * s, y * s, z * s


@njit(cache=True)
def q_between(ux, uy, uz, vx, vy, vz):
    """Minimal rotation taking unit vector u to unit vector v.

    When u and v are opposite the axis is ambiguous; the one chosen is perpendicular to u and, for
    u = +x, is +z (so a planar chain in the xy-plane stays planar).
    """
    d = ux * vx + uy * vy + uz * vz
    cx = uy * vz - uz * vy
    cy = uz * vx - ux * vz
    cz = ux * vy - uy * vx
    if d < -1.0 + 1e-12 and cx * cx + cy * cy + cz * cz < 1e-20:
        # a half turn about the axis nearest +z (else +y) that is perpendicular to u
        ex, ey, ez = 0.0, 0.0, 1.0
        if abs(uz) > 0.9:
            ex, ey, ez = 0.0, 1.0, 0.0
        k = ex * ux + ey * uy + ez * uz
        px, py, pz = ex - k * ux, ey - k * uy, ez - k * uz
        n = math.sqrt(px * px + py * py + pz * pz)
        return 0.0, px / n, py / n, pz / n
    return qnormalize(1.0 + d, cx, cy, cz)


@njit(cache=True)
def fk_3d(lengths, base, quats, pos, world):
    """Forward kinematics in 3-D.

    Parameters
    ----------
    lengths : (n,) link lengths.
    base : (3,) base position.
    quats : (n, 4) local joint rotations.
    pos : (n + 1, 3) output joint positions.
    world : (n, 4) output world orientation of each link's frame.
    """
    pos[0, 0] = base[0]
    pos[0, 1] = base[1]
    pos[0, 2] = base[2]
    f0, f1, f2, f3 = 1.0, 0.0, 0.0, 0.0
    for i in range(lengths.shape[0]):
        f0, f1, f2, f3 = qmul(f0, f1, f2, f3, quats[i, 0], quats[i, 1], quats[i, 2], quats[i, 3])
        f0, f1, f2, f3 = qnormalize(f0, f1, f2, f3)
        world[i, 0] = f0
        world[i, 1] = f1
        world[i, 2] = f2
        world[i, 3] = f3
        dx, dy, dz = qrot(f0, f1, f2, f3, 1.0, 0.0, 0.0)
        pos[i + 1, 0] = pos[i, 0] + lengths[i] * dx
        pos[i + 1, 1] = pos[i, 1] + lengths[i] * dy
        pos[i + 1, 2] = pos[i, 2] + lengths[i] * dz


@njit(cache=True)
def fk_3d_from(j, lengths, quats, pos, world):
    """Recompute frames and positions of links j..n-1, trusting everything before joint j."""
    if j == 0:
        f0, f1, f2, f3 = 1.0, 0.0, 0.0, 0.0
    else:
        f0, f1, f2, f3 = world[j - 1, 0], world[j - 1, 1], world[j - 1, 2], world[j - 1, 3]
    for i in range(j, lengths.shape[0]):
        f0, f1, f2, f3 = qmul(f0, f1, f2, f3, quats[i, 0], quats[i, 1], quats[i, 2], quats[i, 3])
        f0, f1, f2, f3 = qnormalize(f0, f1, f2, f3)
        world[i, 0] = f0
        world[i, 1] = f1
        world[i, 2] = f2
        world[i, 3] = f3
        dx, dy, dz = qrot(f0, f1, f2, f3, 1.0, 0.0, 0.0)
        pos[i + 1, 0] = pos[i, 0] + lengths[i] * dx
        pos[i + 1, 1] = pos[i, 1] + lengths[i] * dy
        pos[i + 1, 2] = pos[i, 2] + lengths[i] * dz


@njit(cache=True)
def parent_frame(j, world):
    """World orientation of joint j's parent link (identity for the first joint)."""
    if j == 0:
        return 1.0, 0.0, 0.0, 0.0
    return world[j - 1, 0], world[j - 1, 1], world[j - 1, 2], world[j - 1, 3]


@njit(cache=True)
def is_hinge(hinge, j):
    """Whether joint j turns about a hinge axis (a nonzero row of ``hinge``)."""
    return hinge[j, 0] != 0.0 or hinge[j, 1] != 0.0 or hinge[j, 2] != 0.0


@njit(cache=True)
def hinge_angle(q0, q1, q2, q3, hx, hy, hz):
    """Signed angle about the hinge h (perpendicular to +x) of the direction q takes +x to."""
    ux, uy, uz = qrot(q0, q1, q2, q3, 1.0, 0.0, 0.0)
    # cross(x, u) . h  and  x . u  after projecting u on the plane normal to h
    cx, cy, cz = 0.0, -uz, uy
    return math.atan2(cx * hx + cy * hy + cz * hz, ux)


@njit(cache=True)
def constrain_joint_3d(q0, q1, q2, q3, j, cone, hinge, lo, hi):
    """Nearest rotation to q that joint j's limits allow.

    A hinge keeps only the rotation about its axis, with the signed angle clamped to
    ``[lo[j], hi[j]]``. A ball joint keeps its twist about the link and has its swing (the bend
    away from the parent link) clamped to ``cone[j]``.
    """
    if is_hinge(hinge, j):
        hx, hy, hz = hinge[j, 0], hinge[j, 1], hinge[j, 2]
        phi = clamp(hinge_angle(q0, q1, q2, q3, hx, hy, hz), lo[j], hi[j])
        return q_axis_angle(hx, hy, hz, phi)
    c = cone[j]
    if c >= PI:
        return qnormalize(q0, q1, q2, q3)
    ux, uy, uz = qrot(q0, q1, q2, q3, 1.0, 0.0, 0.0)
    s = math.sqrt(uy * uy + uz * uz)
    bend = math.atan2(s, ux)
    if bend <= c:
        return qnormalize(q0, q1, q2, q3)
    # swing-twist split: twist about x, swing = q * conj(twist)
    tn = math.sqrt(q0 * q0 + q1 * q1)
    if tn < 1e-12:
        t0, t1 = 1.0, 0.0
    else:
        t0, t1 = q0 / tn, q1 / tn
    if s < 1e-12:
        ax, ay, az = 0.0, 0.0, 1.0
    else:
        ax, ay, az = 0.0, -uz / s, uy / s
    w0, w1, w2, w3 = q_axis_angle(ax, ay, az, c)
    return qmul(w0, w1, w2, w3, t0, t1, 0.0, 0.0)


@njit(cache=True)
def joint_quat_toward(j, dx, dy, dz, world, cone, hinge, lo, hi):
    """Local rotation of joint j that points its link as close to world direction d as allowed."""
    p0, p1, p2, p3 = parent_frame(j, world)
    lx, ly, lz = qrot(p0, -p1, -p2, -p3, dx, dy, dz)
    n = math.sqrt(lx * lx + ly * ly + lz * lz)
    if n < 1e-300:
        return 1.0, 0.0, 0.0, 0.0
    q0, q1, q2, q3 = q_between(1.0, 0.0, 0.0, lx / n, ly / n, lz / n)
    return constrain_joint_3d(q0, q1, q2, q3, j, cone, hinge, lo, hi)


def identity_quats(n: int) -> np.ndarray:
    """(n, 4) identity rotations: the rest pose, straight along +x."""
    q = np.zeros((n, 4))
    q[:, 0] = 1.0
    return q


@njit(cache=True)
def quats_from_positions_3d(pos, out):
    """Local joint rotations (swing only, no twist) that put the links along a pose's segments."""
    f0, f1, f2, f3 = 1.0, 0.0, 0.0, 0.0
    for i in range(out.shape[0]):
        dx = pos[i + 1, 0] - pos[i, 0]
        dy = pos[i + 1, 1] - pos[i, 1]
        dz = pos[i + 1, 2] - pos[i, 2]
        lx, ly, lz = qrot(f0, -f1, -f2, -f3, dx, dy, dz)
        n = math.sqrt(lx * lx + ly * ly + lz * lz)
        if n < 1e-300:
            q0, q1, q2, q3 = 1.0, 0.0, 0.0, 0.0
        else:
            q0, q1, q2, q3 = q_between(1.0, 0.0, 0.0, lx / n, ly / n, lz / n)
        out[i, 0] = q0
        out[i, 1] = q1
        out[i, 2] = q2
        out[i, 3] = q3
        f0, f1, f2, f3 = qnormalize(*qmul(f0, f1, f2, f3, q0, q1, q2, q3))


@njit(cache=True)
def rotvecs_from_quats(q, out):
    """Write into ``out`` (n, 3) the rotation vectors (radians) of the unit quaternions ``q``
    (n, 4), ``(w, x, y, z)`` each."""
    for i in range(q.shape[0]):
        x, y, z = q_to_rotvec(q[i, 0], q[i, 1], q[i, 2], q[i, 3])
        out[i, 0] = x
        out[i, 1] = y
        out[i, 2] = z


@njit(cache=True)
def beyond_reach(lengths, base, target, out):
    """If the target lies beyond the chain's total length, write into ``out`` the point at that
    length from the base towards it (the closest reachable point of a chain that can straighten
    and point anywhere) and return True; else return False."""
    total = 0.0
    for i in range(lengths.shape[0]):
        total += lengths[i]
    d2 = 0.0
    for k in range(base.shape[0]):
        d2 += sq(target[k] - base[k])
    dist = math.sqrt(d2)
    if dist <= total:
        return False
    for k in range(base.shape[0]):
        out[k] = base[k] + (target[k] - base[k]) * (total / dist)
    return True


@njit(cache=True)
def norm3(x, y, z):
    """|(x, y, z)| without overflow or underflow: the plain sum of squares where it is safe
    (every realistic case, rounded as NumPy's norm is), scaled otherwise. A 2-D vector has z = 0,
    which adds nothing."""
    s = x * x + y * y + z * z
    if 1e-280 < s < 1e280:
        return math.sqrt(s)
    big = max(abs(x), abs(y), abs(z))
    if big == 0.0 or not math.isfinite(big):
        return big
    x, y, z = x / big, y / big, z / big
    return big * math.sqrt(x * x + y * y + z * z)


@njit(cache=True)
def distance(p, q):
    """|p - q| of two (2,) or (3,) points, without overflow or underflow (:func:`norm3`)."""
    dz = p[2] - q[2] if p.shape[0] == 3 else 0.0
    return norm3(p[0] - q[0], p[1] - q[1], dz)


@njit(cache=True)
def annulus_closest(t, centre, rmin, rmax, out):
    """When ``t`` lies outside the shell ``rmin <= |p - centre| <= rmax``, write its nearest
    point of the shell into ``out`` and return True; else (within it, or at the centre, where a
    whole sphere is nearest) return False."""
    dist = distance(t, centre)
    if dist > rmax:
        r = rmax
    elif 0.0 < dist < rmin:
        r = rmin
    else:
        return False
    for q in range(t.shape[0]):
        out[q] = centre[q] + (t[q] - centre[q]) * (r / dist)
    return True


@njit(cache=True, inline="always")
def dist2(p, q):
    """The squared distance between the points ``p`` and ``q`` (d,)."""
    s = 0.0
    for k in range(p.shape[0]):
        s += sq(p[k] - q[k])
    return s


# ------------------------------------------------------------------------ trees (positions)
#
# Tree kernels work on joint positions. Arrays describe the tree: ``parent (m,)`` (-1 for the
# root), ``lengths (m,)`` (link from the parent), ``order (m,)`` (each joint after its parent,
# the root first), ``active (m,)`` (on the path from the root to a targeted end effector),
# ``targeted (m,)``, ``targets (m, d)`` (rows of targeted joints used), ``has_closest (m,)`` and
# ``closest (m, d)`` (a targeted joint whose target is out of its reach is done when within
# ``tol`` of that point). ``pos (m, d)`` holds the start pose on entry and the result on return.
# Tree kernels return ``(code, iterations)`` with code REACHED (every targeted joint done),
# STALLED or MAX_ITERATIONS.


@njit(cache=True)
def all_done(pos, targeted, targets, has_closest, closest, tol):
    """True when every targeted joint of ``pos`` (m, d) is within ``tol`` of its target, or of its
    closest reachable point when the target is out of its reach (see the section's arrays)."""
    tol2 = tol * tol
    for j in range(pos.shape[0]):
        if not targeted[j] or dist2(pos[j], targets[j]) <= tol2:
            continue
        if has_closest[j] and dist2(pos[j], closest[j]) <= tol2:
            continue
        return False
    return True


@njit(cache=True)
def toward(src, dst, fallback_from, fallback_to, length, out):
    """``out = src + length * unit(dst - src)``; a zero direction takes the fallback's, then +x."""
    dim = src.shape[0]
    n2 = dist2(dst, src)
    if n2 > TINY:
        k = length / math.sqrt(n2)
        for c in range(dim):
            out[c] = src[c] + k * (dst[c] - src[c])
        return
    n2 = dist2(fallback_to, fallback_from)
    for c in range(dim):
        out[c] = src[c]
    if n2 > TINY:
        k = length / math.sqrt(n2)
        for c in range(dim):
            out[c] += k * (fallback_to[c] - fallback_from[c])
    else:
        out[0] += length


@njit(cache=True)
def max_move(pos, prev, active):
    """The largest distance a joint on a targeted path (``active``) moved from ``prev`` to ``pos``
    (m, d)."""
    worst = 0.0
    for j in range(pos.shape[0]):
        if active[j]:
            worst = max(worst, dist2(pos[j], prev[j]))
    return math.sqrt(worst)
