"""Analytic two-bone IK by circle intersection.

Seed 001 (Inigo Quilez, analytic two-bone IK): with the base at the origin, the target at ``p``
and links of lengths ``r1``, ``r2``, the elbow ``x`` lies on both circles ``|x| = r1`` and
``|x - p| = r2``. Their chord's midpoint is ``q = p (1/2 + (r1^2 - r2^2) / (2 |p|^2))`` (for. 1)
and the two solutions are ``x = q +- s q_perp`` (for. 2) with ``s = sqrt(r1^2 / |q|^2 - 1)``
(for. 3). The seed's single-division form is used: with ``h = |p|^2`` and
``w = h + r1^2 - r2^2``, ``x = (w p +- sqrt(max(4 r1^2 h - w^2, 0)) p_perp) / (2 h)``; only the
elbow's direction matters here, ``w p +- sqrt(...) p_perp``, so no division is needed.

Branches and reach
------------------
2-D: option ``elbow = +1`` puts the elbow on the counter-clockwise (left) side of the line from
the base to the target, so the second joint bends clockwise (negative relative angle); ``-1`` is
the mirror image. 3-D: option ``pole`` (default ``(0, 1, 0)``, matching ``elbow = +1`` for a
target along +x) is a direction; the elbow goes to the pole's side of the base-target line, in
the plane of base, target and pole. A pole parallel to the target direction (within ``1e-9`` of
its length) is replaced by +z, or +y when the target direction is within 25 degrees of z, as in
``geometry.q_between``. In 3-D, ``elbow = -1`` puts the elbow on the side opposite the pole;
``pole`` has no effect on a 2-D chain, whose plane leaves only the two branches. The twist is
the smallest rotation, except that a ball first joint followed by a hinge turns about its link
so that the hinge's axis is normal to the bend plane.

As the seed suggests, ``s`` is forced non-negative when the circles miss each other: a target
beyond reach (``c > r1 + r2``, ``c = |p|``) then gets the straight chain pointing at it, and one
inside the minimum reach (``c < |r1 - r2|``) the folded chain pointing towards it, in both cases
the closest reachable point (status CLOSEST). A target at the base keeps the first link's current
direction and folds the second back on it (no NaN; the direction is arbitrary there).

Limits
------
The ``elbow`` / ``pole`` branch is tried first; if it breaks a limit, the mirror branch. If both
do, each branch is clamped: the elbow angle to its nearer limit, then the first joint turned to
point the end effector at the target as far as its limits allow, then the second joint re-aimed
from where the elbow ended, each joint held to its limits (3-D: ``geometry.constrain_joint_3d``).
The branch ending nearer the target is kept. Such a result is generally not on the target and
``geoik.solve`` does not report it REACHED (nor CLOSEST unless provably closest).

Counting. Convergence is checked on the start pose (0 iterations, no keyframe, when it already
reaches); otherwise the solution is one iteration and one keyframe in which both joints move
together (capacity 2).
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
    fk_3d,
    joint_quat_toward,
    q_axis_angle,
    q_between,
    qmul,
    qnormalize,
    qrot,
)
from geoik.solvers.base import Option, Solver, sign

EXACT = 1e-12
"""A branch within this times ``r1 + r2`` of the target counts as exact."""


@njit(cache=True)
def wrap_pi(a):  # pragma: no cover - compiled
    """Wrap an angle into (-pi, pi]."""
    a = (a + PI) % (2.0 * PI)
    if a <= 0.0:
        a += 2.0 * PI
    return a - PI


@njit(cache=True)
def fit(a, cur, lo, hi):  # pragma: no cover - compiled
    """(angle, allowed): ``a`` as the joint may hold it, or the limit nearer to it in angle.

    A free joint takes the representative of ``a`` nearest its current angle ``cur``.
    """
    if not (math.isfinite(lo) and math.isfinite(hi)):
        return cur + wrap_pi(a - cur), True
    a = wrap_pi(a)
    for k in (0.0, -2.0 * PI, 2.0 * PI):
        if lo <= a + k <= hi:
            return a + k, True
    if abs(wrap_pi(a - hi)) <= abs(wrap_pi(a - lo)):
        return hi, False
    return lo, False


@njit(cache=True)
def elbow_direction(ux, uy, uz, vx, vy, vz, c, r1, r2, side):  # pragma: no cover - compiled
    """Unit direction of the first link (seed 001, for. 1-3, single-division form).

    ``u`` is the unit direction to the target at distance ``c``, ``v`` a unit vector normal to
    it on the elbow's side when ``side = +1``; ``s`` is forced non-negative out of reach.
    """
    w = c * c + r1 * r1 - r2 * r2
    s = math.sqrt(max(4.0 * r1 * r1 * c * c - w * w, 0.0))
    dx, dy, dz = w * ux + side * s * vx, w * uy + side * s * vy, w * uz + side * s * vz
    m = math.sqrt(dx * dx + dy * dy + dz * dz)
    if m < 1e-300:
        return vx, vy, vz
    return dx / m, dy / m, dz / m


@njit(cache=True)
def unit_or_zero(p):  # pragma: no cover - compiled
    """(unit vector, length) of ``p`` (d,), padded to 3-D; zeros and 0 for the zero vector."""
    big = 0.0
    for k in range(p.shape[0]):
        big = max(big, abs(p[k]))
    if big == 0.0:
        return 0.0, 0.0, 0.0, 0.0
    x, y = p[0] / big, p[1] / big
    z = p[2] / big if p.shape[0] == 3 else 0.0
    m = math.sqrt(x * x + y * y + z * z)
    return x / m, y / m, z / m, big * m


@njit(cache=True)
def judge_kernel(end, base, target, r1, r2, tol):  # pragma: no cover - compiled
    """Kernel status: REACHED within tol, CLOSEST at the provably closest point, else STALLED."""
    if dist2(end, target) <= tol * tol:
        return REACHED
    c = math.sqrt(dist2(target, base))
    if c > r1 + r2:
        radius = r1 + r2
    elif c < abs(r1 - r2):
        radius = abs(r1 - r2)
    else:
        return STALLED
    if c == 0.0:
        return CLOSEST if math.sqrt(dist2(end, target)) <= radius + tol else STALLED
    s = 0.0
    for k in range(base.shape[0]):
        s += (end[k] - base[k] - (target[k] - base[k]) * (radius / c)) ** 2
    return CLOSEST if s <= tol * tol else STALLED


# ----------------------------------------------------------------------------------------- 2-D


@njit(cache=True)
def end_error_2d(r1, r2, a0, a1, px, py):  # pragma: no cover - compiled
    ex = r1 * math.cos(a0) + r2 * math.cos(a0 + a1)
    ey = r1 * math.sin(a0) + r2 * math.sin(a0 + a1)
    return math.sqrt((ex - px) ** 2 + (ey - py) ** 2)


@njit(cache=True)
def branch_2d(r1, r2, px, py, side, angles, lo, hi):  # pragma: no cover - compiled
    """(a0, a1) of one branch; clamped as the module docstring says if it breaks a limit."""
    ux, uy, _, c = unit_or_zero(np.array((px, py)))
    if c == 0.0:
        a0, a1 = angles[0], side * PI
    else:
        dx, dy, _ = elbow_direction(ux, uy, 0.0, -uy, ux, 0.0, c, r1, r2, side)
        a0 = math.atan2(dy, dx)
        a1 = math.atan2(py - r1 * dy, px - r1 * dx) - a0
    a0, ok0 = fit(a0, angles[0], lo[0], hi[0])
    a1, ok1 = fit(a1, angles[1], lo[1], hi[1])
    if ok0 and ok1:
        return a0, a1
    beta = math.atan2(r2 * math.sin(a1), r1 + r2 * math.cos(a1))
    a0 = fit(math.atan2(py, px) - beta, angles[0], lo[0], hi[0])[0]
    ex, ey = r1 * math.cos(a0), r1 * math.sin(a0)
    a1 = fit(math.atan2(py - ey, px - ex) - a0, angles[1], lo[1], hi[1])[0]
    return a0, a1


@njit(cache=True)
def two_bone_2d(
    lengths, base, lo, hi, target, angles, tol, max_iter, opts, rec
):  # pragma: no cover
    r1, r2 = lengths[0], lengths[1]
    px, py = target[0] - base[0], target[1] - base[1]
    end = np.empty(2)
    end[0] = base[0] + r1 * math.cos(angles[0]) + r2 * math.cos(angles[0] + angles[1])
    end[1] = base[1] + r1 * math.sin(angles[0]) + r2 * math.sin(angles[0] + angles[1])
    if dist2(end, target) <= tol * tol:
        return REACHED, 0, 1
    side = 1.0 if opts[0] >= 0.0 else -1.0
    b0, b1 = branch_2d(r1, r2, px, py, side, angles, lo, hi)
    best = end_error_2d(r1, r2, b0, b1, px, py)
    if best > EXACT * (r1 + r2):
        m0, m1 = branch_2d(r1, r2, px, py, -side, angles, lo, hi)
        if end_error_2d(r1, r2, m0, m1, px, py) < best:
            b0, b1 = m0, m1
    angles[0], angles[1] = b0, b1
    rec[1, :] = angles
    end[0] = base[0] + r1 * math.cos(b0) + r2 * math.cos(b0 + b1)
    end[1] = base[1] + r1 * math.sin(b0) + r2 * math.sin(b0 + b1)
    return judge_kernel(end, base, target, r1, r2, tol), 1, 2


# ----------------------------------------------------------------------------------------- 3-D


@njit(cache=True)
def is_hinge(hinge, j):  # pragma: no cover - compiled
    return hinge[j, 0] != 0.0 or hinge[j, 1] != 0.0 or hinge[j, 2] != 0.0


@njit(cache=True)
def pole_normal(ux, uy, uz, pole):  # pragma: no cover - compiled
    """Unit component of ``pole`` normal to ``u``; +z (else +y) when the pole is along ``u``."""
    px, py, pz = pole[0], pole[1], pole[2]
    pn = math.sqrt(px * px + py * py + pz * pz)
    k = px * ux + py * uy + pz * uz
    vx, vy, vz = px - k * ux, py - k * uy, pz - k * uz
    m = math.sqrt(vx * vx + vy * vy + vz * vz)
    if m <= 1e-9 * pn or m < 1e-300:
        px, py, pz = (0.0, 1.0, 0.0) if abs(uz) > 0.9 else (0.0, 0.0, 1.0)
        k = uz if pz == 1.0 else uy
        vx, vy, vz = px - k * ux, py - k * uy, pz - k * uz
        m = math.sqrt(vx * vx + vy * vy + vz * vz)
    return vx / m, vy / m, vz / m


@njit(cache=True)
def first_joint(d, bend_axis, gamma, cone, hinge, lo, hi):  # pragma: no cover - compiled
    """Joint 0's rotation pointing its link along ``d``, limited.

    A ball joint followed by a hinge is twisted about ``d`` so that the hinge's world axis is
    ``+bend_axis`` (bend ``+gamma``) or ``-bend_axis`` (bend ``-gamma``), whichever the hinge's
    limits allow (else the nearer).
    """
    q0, q1, q2, q3 = q_between(1.0, 0.0, 0.0, d[0], d[1], d[2])
    if not is_hinge(hinge, 0) and is_hinge(hinge, 1):
        g_pos = fit(gamma, 0.0, lo[1], hi[1])
        g_neg = fit(-gamma, 0.0, lo[1], hi[1])
        sgn = 1.0
        if not g_pos[1] and (g_neg[1] or abs(g_neg[0] + gamma) < abs(g_pos[0] - gamma)):
            sgn = -1.0
        kx, ky, kz = sgn * bend_axis[0], sgn * bend_axis[1], sgn * bend_axis[2]
        hx, hy, hz = qrot(q0, q1, q2, q3, hinge[1, 0], hinge[1, 1], hinge[1, 2])
        cx, cy, cz = hy * kz - hz * ky, hz * kx - hx * kz, hx * ky - hy * kx
        tau = math.atan2(cx * d[0] + cy * d[1] + cz * d[2], hx * kx + hy * ky + hz * kz)
        t0, t1, t2, t3 = q_axis_angle(d[0], d[1], d[2], tau)
        q0, q1, q2, q3 = qmul(t0, t1, t2, t3, q0, q1, q2, q3)
    q0, q1, q2, q3 = constrain_joint_3d(q0, q1, q2, q3, 0, cone, hinge, lo, hi)
    return qnormalize(q0, q1, q2, q3)


@njit(cache=True)
def aim_second(lengths, base, target, cone, hinge, lo, hi, quats, pos, world):  # noqa: E501  # pragma: no cover
    """Point joint 1's link at the target from the elbow, as far as its limits allow."""
    fk_3d(lengths, base, quats, pos, world)
    dx, dy, dz = target[0] - pos[1, 0], target[1] - pos[1, 1], target[2] - pos[1, 2]
    if dx * dx + dy * dy + dz * dz > 0.0:
        quats[1, :] = joint_quat_toward(1, dx, dy, dz, world, cone, hinge, lo, hi)
    fk_3d(lengths, base, quats, pos, world)


@njit(cache=True)
def aim_first(lengths, base, target, cone, hinge, lo, hi, quats, pos, world):  # noqa: E501  # pragma: no cover
    """Turn joint 0 so the end effector points at the target from the base, limited."""
    ax, ay, az, na = unit_or_zero(pos[2] - base)
    bx, by, bz, nb = unit_or_zero(target - base)
    if na == 0.0 or nb == 0.0:
        return
    r0, r1, r2, r3 = q_between(ax, ay, az, bx, by, bz)
    q0, q1, q2, q3 = qmul(r0, r1, r2, r3, quats[0, 0], quats[0, 1], quats[0, 2], quats[0, 3])
    q0, q1, q2, q3 = constrain_joint_3d(q0, q1, q2, q3, 0, cone, hinge, lo, hi)
    quats[0, :] = qnormalize(q0, q1, q2, q3)
    fk_3d(lengths, base, quats, pos, world)


@njit(cache=True)
def branch_3d(lengths, base, cone, hinge, lo, hi, target, pole, side, quats, pos, world):  # noqa: E501  # pragma: no cover
    """Set ``quats`` to one branch (clamped if it breaks a limit); returns its error."""
    r1, r2 = lengths[0], lengths[1]
    d = np.empty(3)
    axis = np.zeros(3)
    ux, uy, uz, c = unit_or_zero(target - base)
    if c == 0.0:
        fk_3d(lengths, base, quats, pos, world)
        d[:] = (pos[1] - base) / r1
        gamma = PI
    else:
        vx, vy, vz = pole_normal(ux, uy, uz, pole)
        d[:] = elbow_direction(ux, uy, uz, vx, vy, vz, c, r1, r2, side)
        # the bend turns link 0 towards link 1 about -side (u x v)
        axis[0], axis[1], axis[2] = -side * (uy * vz - uz * vy), -side * (uz * vx - ux * vz), \
            -side * (ux * vy - uy * vx)  # fmt: skip
        ex, ey, ez = c * ux - r1 * d[0], c * uy - r1 * d[1], c * uz - r1 * d[2]
        cx, cy, cz = d[1] * ez - d[2] * ey, d[2] * ex - d[0] * ez, d[0] * ey - d[1] * ex
        gamma = math.atan2(
            math.sqrt(cx * cx + cy * cy + cz * cz), d[0] * ex + d[1] * ey + d[2] * ez
        )
    quats[0, :] = first_joint(d, axis, gamma, cone, hinge, lo, hi)
    aim_second(lengths, base, target, cone, hinge, lo, hi, quats, pos, world)
    if dist2(pos[2], target) > (EXACT * (r1 + r2)) ** 2:
        aim_first(lengths, base, target, cone, hinge, lo, hi, quats, pos, world)
        aim_second(lengths, base, target, cone, hinge, lo, hi, quats, pos, world)
    return math.sqrt(dist2(pos[2], target))


@njit(cache=True)
def two_bone_3d(lengths, base, cone, hinge, lo, hi, target, quats, tol, max_iter, opts, rec):  # noqa: E501  # pragma: no cover
    r1, r2 = lengths[0], lengths[1]
    pos = np.empty((3, 3))
    world = np.empty((2, 4))
    fk_3d(lengths, base, quats, pos, world)
    if dist2(pos[2], target) <= tol * tol:
        return REACHED, 0, 1
    start = quats.copy()
    side = 1.0 if opts[0] >= 0.0 else -1.0
    pole = opts[1:4]
    best = branch_3d(lengths, base, cone, hinge, lo, hi, target, pole, side, quats, pos, world)
    if best > EXACT * (r1 + r2):
        chosen = quats.copy()
        quats[:, :] = start
        other = branch_3d(
            lengths, base, cone, hinge, lo, hi, target, pole, -side, quats, pos, world
        )
        if not other < best:
            quats[:, :] = chosen
    fk_3d(lengths, base, quats, pos, world)
    rec[1, :, :] = quats
    return judge_kernel(pos[2], base, target, r1, r2, tol), 1, 2


def _pole_check(value: np.ndarray) -> str | None:
    return None if float(np.linalg.norm(value)) > 0.0 else "a non-zero direction"


SOLVER = Solver(
    name="two-bone",
    summary="Analytic two-link IK by circle intersection, elbow branch chosen by sign or pole",
    source="Quilez, analytic two-bone IK (seed 001), for. 1-3",
    module=__name__,
    kernel_2d=two_bone_2d,
    kernel_3d=two_bone_3d,
    capacity=lambda n, max_iter: 2,
    options=(
        Option(
            "elbow",
            1.0,
            "+1: elbow counter-clockwise of base->target (2-D), on the pole side (3-D); -1: mirror",
            check=sign,
        ),
        Option(
            "pole",
            (0.0, 1.0, 0.0),
            "3-D only: a direction picking the bend plane; the elbow goes to its side",
            size=3,
            check=_pole_check,
        ),
    ),
    default_max_iter=1,
    iterative=False,
    links=(2, 2),
)
