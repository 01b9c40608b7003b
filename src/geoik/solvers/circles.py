"""Inverse kinematics by intersection of circles.

Seed 003 (Srinivasan & John, "A fast inverse kinematics solver using intersection of circles",
Eurographics 2013), Section 4 and its Appendix 1. The end effector is put on the target and the
interior joints are placed one by one, backwards from the end effector, each at an intersection
of two circles (reconstructed in ``seeds/README.md``, since the paper's circle equations (1) and
(2) are lost): one centred on the already placed child joint with the child link's length as
radius, one centred on the base with radius ``R``, the distance the rest of the chain keeps from
the base. The joint next to the base is placed last, by the same step with ``R`` equal to the
first link's length (the "final iteration" of the paper's Fig. 4C).

Choices where the seed is ambiguous or its text is lost
-------------------------------------------------------
Joints and links. Here joints ``p_0`` (base) to ``p_n`` (end effector) are joined by links
``0..n-1``; the paper numbers its joints from the end effector (``j_1``) to the base (``j_n``).

Choice of ``R``. Placing joint ``k`` (``n - 1`` down to ``1``) with its child ``p_{k+1}`` at
distance ``D`` from the base, ``R`` must lie in the "safe zone" of the sub-chain of links
``0..k-1`` (seed 003 §4.1: ``[max(0, 2 max l_i - sum l_i), sum l_i]``, its minimum and maximum
reach) and in ``[|D - l_k|, D + l_k]`` for the two circles to meet. Here ``R`` is the joint's
current distance from the base clamped into both intervals, so a pose that already nearly fits
barely moves (continuity for animation). The two intervals always overlap: ``D`` lies in the
reach of links ``0..k``, by induction from the end effector, which is first clamped into the
chain's annulus; so every target in the annulus is reached exactly by an unconstrained chain.

Which intersection. The one nearer the joint's current position (continuity from frame to
frame); on a tie (current position on the line from the base to the child, within
``1e-12 L``) the one counter-clockwise of that line, seen in the working plane.

3-D. As the paper's orthographic projections do (§3.3, Fig. 3), the placement is 2-D, in the
plane through the base and the (clamped) target that best contains the current chain: the plane
spanned by the base-to-target direction ``u`` and the principal direction, perpendicular to
``u``, of the current joints' offsets from the base (least squares). A chain lying on the line of
``u`` gives no direction; the plane then contains the component of +z perpendicular to ``u``
(+y when ``u`` is along z), so a chain and target in the xy-plane stay there. Current positions
are projected orthographically into the plane to choose the intersection; ``R`` uses their true
distances from the base.

Targets. Beyond the maximum reach (``|t - b| > sum l``) the chain straightens towards the
target in one step and the kernel reports CLOSEST. Inside the minimum reach the target is moved
to the nearest point at the minimum reach (towards the current end effector when the target is
the base) before placing. A target at the base, which gives no direction, takes the current end
effector's direction from the base, else the first link's.

Joint limits. The placement ignores limits. Placed positions become the kernel state in one pass
from the base: each joint points its link at its placed child as nearly as its limits allow
(2-D: the relative angle clamped to ``[lo, hi]``, the angularly nearer bound; a free joint takes
the turn of at most half a revolution from its old angle. 3-D: the minimal rotation of the old
link direction onto the new one, applied to the old rotation so its twist is kept, then
``geometry.constrain_joint_3d``). A limited chain may thus miss the target; ``geoik.solve``
judges the final status honestly (the kernel says STALLED).

Counting. ``iterations`` is the number of circle steps, the paper's "n - 2" with its ``n``
counting the base and end-effector joints: ``n - 1`` for a chain of ``n >= 2`` links, 1 for a
one-link chain (it only points), 1 for the straightening of an out-of-reach target, 0 when the
end effector already lies within ``tol`` of the target. ``max_iter`` is not used.

Motion. Position-based: one keyframe for the whole placement, so ``capacity = 2``.
"""

from __future__ import annotations

import math

import numpy as np
from numba import njit

from geoik.geometry import (
    CLOSEST,
    REACHED,
    STALLED,
    clamp,
    constrain_joint_3d,
    dist2,
    fk_2d,
    fk_3d,
    parent_frame,
    q_between,
    qmul,
    qnormalize,
    qrot,
    wrap,
)
from geoik.solvers.base import Solver

IN_REACH = 0
BEYOND = 1
INSIDE = 2
TINY = 1e-300
TIE = 1e-12


@njit(cache=True)
def reach_of(lengths, k):  # pragma: no cover - compiled
    """(minimum, maximum) reach of the unconstrained sub-chain of links ``0..k-1``."""
    total = 0.0
    longest = 0.0
    for i in range(k):
        total += lengths[i]
        longest = max(longest, lengths[i])
    return max(0.0, 2.0 * longest - total), total


@njit(cache=True)
def circle_point(x1, y1, link, radius, hx, hy, tie):  # pragma: no cover - compiled
    """Intersection, nearer to the hint ``(hx, hy)``, of the circle of ``radius`` about the
    origin and the circle of radius ``link`` about ``(x1, y1)``; ties go counter-clockwise."""
    d = math.sqrt(x1 * x1 + y1 * y1)
    if d <= TINY:
        hn = math.sqrt(hx * hx + hy * hy)
        if hn <= TINY:
            return radius, 0.0
        return radius * hx / hn, radius * hy / hn
    ex, ey = x1 / d, y1 / d
    a = clamp((radius * radius - link * link + d * d) / (2.0 * d), -radius, radius)
    h = math.sqrt(max(0.0, radius * radius - a * a))
    side = ex * hy - ey * hx
    s = -1.0 if side < -tie else 1.0
    return a * ex - s * h * ey, a * ey + s * h * ex


@njit(cache=True)
def plane_basis(cur, base, u, v):  # pragma: no cover - compiled
    """In-plane unit ``v`` perpendicular to unit ``u``: the best fit of the current joints'
    offsets (3-D), or ``u`` turned by +90 degrees (2-D)."""
    if base.shape[0] == 2:
        v[0], v[1] = -u[1], u[0]
        return
    # fallback normal: +z (else +y) made perpendicular to u
    mx, my, mz = 0.0, 0.0, 1.0
    if abs(u[2]) > 0.9:
        mx, my, mz = 0.0, 1.0, 0.0
    k = mx * u[0] + my * u[1] + mz * u[2]
    mx, my, mz = mx - k * u[0], my - k * u[1], mz - k * u[2]
    mn = math.sqrt(mx * mx + my * my + mz * mz)
    mx, my, mz = mx / mn, my / mn, mz / mn
    # e1 = m x u, so that (u, e1, m) is right-handed
    e1x, e1y, e1z = my * u[2] - mz * u[1], mz * u[0] - mx * u[2], mx * u[1] - my * u[0]
    sxx, sxy, syy = 0.0, 0.0, 0.0
    for i in range(1, cur.shape[0]):
        wx, wy, wz = cur[i, 0] - base[0], cur[i, 1] - base[1], cur[i, 2] - base[2]
        a = wx * e1x + wy * e1y + wz * e1z
        b = wx * mx + wy * my + wz * mz
        sxx += a * a
        sxy += a * b
        syy += b * b
    phi = 0.0
    if sxx + syy > 1e-24 * (1.0 + sxx + syy) and (abs(sxy) > 0.0 or sxx != syy):
        phi = 0.5 * math.atan2(2.0 * sxy, sxx - syy)
    c, s = math.cos(phi), math.sin(phi)
    v[0], v[1], v[2] = c * e1x + s * mx, c * e1y + s * my, c * e1z + s * mz


@njit(cache=True)
def goal_direction(cur, goal, u):  # pragma: no cover - compiled
    """Unit direction from the base ``cur[0]`` to ``goal`` into ``u``; returns the distance.

    A goal at the base takes the current end effector's direction, else the first link's."""
    dim = cur.shape[1]
    last = cur.shape[0] - 1
    dist = math.sqrt(dist2(goal, cur[0]))
    for src in (0, 1, 2):
        n2 = 0.0
        for c in range(dim):
            if src == 0:
                u[c] = goal[c] - cur[0, c]
            elif src == 1:
                u[c] = cur[last, c] - cur[0, c]
            else:
                u[c] = cur[1, c] - cur[0, c]
            n2 += u[c] * u[c]
        norm = math.sqrt(n2)
        if norm > TINY:
            for c in range(dim):
                u[c] /= norm
            return dist
    for c in range(dim):
        u[c] = 0.0
    u[0] = 1.0
    return dist


@njit(cache=True)
def place_chain(lengths, cur, goal, out):  # pragma: no cover - compiled
    """Place a chain's joints by intersection of circles (seed 003 Section 4).

    Parameters
    ----------
    lengths : (n,) link lengths.
    cur : (n + 1, d) current joint positions, ``cur[0]`` the base (kept).
    goal : (d,) where the end effector should go.
    out : (n + 1, d) placed positions (output).

    Returns
    -------
    IN_REACH, BEYOND (straightened towards the goal) or INSIDE (goal inside the minimum reach,
    end effector put at the nearest point of it).
    """
    n = lengths.shape[0]
    dim = cur.shape[1]
    base = cur[0]
    u = np.empty(dim)
    v = np.empty(dim)
    dist = goal_direction(cur, goal, u)
    rmin, rmax = reach_of(lengths, n)
    out[0, :] = base
    if dist > rmax:
        s = 0.0
        for i in range(n):
            s += lengths[i]
            for c in range(dim):
                out[i + 1, c] = base[c] + s * u[c]
        return BEYOND
    code = IN_REACH
    g = dist
    if dist < rmin:
        code = INSIDE
        g = rmin
    plane_basis(cur, base, u, v)
    ox = np.zeros(n + 1)
    oy = np.zeros(n + 1)
    ox[n] = g
    tie = TIE * rmax
    for k in range(n - 1, 0, -1):
        hx, hy, r2 = 0.0, 0.0, 0.0
        for c in range(dim):
            w = cur[k, c] - base[c]
            hx += w * u[c]
            hy += w * v[c]
            r2 += w * w
        lo, hi = reach_of(lengths, k)
        d = math.sqrt(ox[k + 1] ** 2 + oy[k + 1] ** 2)
        lk = lengths[k]
        radius = clamp(math.sqrt(r2), max(lo, abs(d - lk)), min(hi, d + lk))
        ox[k], oy[k] = circle_point(ox[k + 1], oy[k + 1], lk, radius, hx, hy, tie)
    for i in range(1, n + 1):
        for c in range(dim):
            out[i, c] = base[c] + ox[i] * u[c] + oy[i] * v[c]
    if code == IN_REACH:
        out[n, :] = goal
    return code


@njit(cache=True)
def angles_toward_2d(lengths, base, lo, hi, placed, angles):  # pragma: no cover - compiled
    """Set relative angles, base to tip, pointing each link at its placed child within limits."""
    x, y = base[0], base[1]
    heading = 0.0
    for j in range(lengths.shape[0]):
        dx, dy = placed[j + 1, 0] - x, placed[j + 1, 1] - y
        old = angles[j]
        if dx * dx + dy * dy > TINY:
            rel = wrap(math.atan2(dy, dx) - heading)
            if lo[j] == -math.inf and hi[j] == math.inf:
                new = old + wrap(rel - old)
            elif rel < lo[j] or rel > hi[j]:
                new = lo[j] if abs(wrap(rel - lo[j])) <= abs(wrap(rel - hi[j])) else hi[j]
            else:
                new = rel
            angles[j] = new
        heading += angles[j]
        x += lengths[j] * math.cos(heading)
        y += lengths[j] * math.sin(heading)


@njit(cache=True)
def quats_toward_3d(lengths, base, cone, hinge, lo, hi, placed, quats, pos, world):  # noqa: E501  # pragma: no cover
    """Set local rotations, base to tip, pointing each link at its placed child within limits;
    ``pos`` and ``world`` receive the resulting forward kinematics."""
    pos[0, :] = base
    for j in range(lengths.shape[0]):
        p0, p1, p2, p3 = parent_frame(j, world)
        o0, o1, o2, o3 = quats[j, 0], quats[j, 1], quats[j, 2], quats[j, 3]
        dx = placed[j + 1, 0] - pos[j, 0]
        dy = placed[j + 1, 1] - pos[j, 1]
        dz = placed[j + 1, 2] - pos[j, 2]
        lx, ly, lz = qrot(p0, -p1, -p2, -p3, dx, dy, dz)
        ln = math.sqrt(lx * lx + ly * ly + lz * lz)
        if ln > TINY:
            ax, ay, az = qrot(o0, o1, o2, o3, 1.0, 0.0, 0.0)
            r0, r1, r2, r3 = q_between(ax, ay, az, lx / ln, ly / ln, lz / ln)
            q0, q1, q2, q3 = qmul(r0, r1, r2, r3, o0, o1, o2, o3)
            q0, q1, q2, q3 = constrain_joint_3d(q0, q1, q2, q3, j, cone, hinge, lo, hi)
            q0, q1, q2, q3 = qnormalize(q0, q1, q2, q3)
            quats[j, 0], quats[j, 1], quats[j, 2], quats[j, 3] = q0, q1, q2, q3
        f0, f1, f2, f3 = qmul(p0, p1, p2, p3, quats[j, 0], quats[j, 1], quats[j, 2], quats[j, 3])
        f0, f1, f2, f3 = qnormalize(f0, f1, f2, f3)
        world[j, 0], world[j, 1], world[j, 2], world[j, 3] = f0, f1, f2, f3
        ex, ey, ez = qrot(f0, f1, f2, f3, 1.0, 0.0, 0.0)
        pos[j + 1, 0] = pos[j, 0] + lengths[j] * ex
        pos[j + 1, 1] = pos[j, 1] + lengths[j] * ey
        pos[j + 1, 2] = pos[j, 2] + lengths[j] * ez


@njit(cache=True)
def _verdict(code, end, target, goal, tol, n):  # pragma: no cover - compiled
    """(status, iterations) of a placement, judged on the end effector's final position."""
    steps = 1 if code == BEYOND else max(1, n - 1)
    tol2 = tol * tol
    if dist2(end, target) <= tol2:
        return REACHED, steps
    if code != IN_REACH and dist2(end, goal) <= tol2:
        return CLOSEST, steps
    return STALLED, steps


@njit(cache=True)
def circles_2d(lengths, base, lo, hi, target, angles, tol, max_iter, opts, rec):  # pragma: no cover
    n = lengths.shape[0]
    cur = np.empty((n + 1, 2))
    fk_2d(lengths, base, angles, cur)
    if dist2(cur[n], target) <= tol * tol:
        return REACHED, 0, 1
    placed = np.empty((n + 1, 2))
    code = place_chain(lengths, cur, target, placed)
    angles_toward_2d(lengths, base, lo, hi, placed, angles)
    rec[1, :] = angles
    fk_2d(lengths, base, angles, cur)
    status, steps = _verdict(code, cur[n], target, placed[n], tol, n)
    return status, steps, 2


@njit(cache=True)
def circles_3d(lengths, base, cone, hinge, lo, hi, target, quats, tol, max_iter, opts, rec):  # noqa: E501  # pragma: no cover
    n = lengths.shape[0]
    cur = np.empty((n + 1, 3))
    world = np.empty((n, 4))
    fk_3d(lengths, base, quats, cur, world)
    if dist2(cur[n], target) <= tol * tol:
        return REACHED, 0, 1
    placed = np.empty((n + 1, 3))
    code = place_chain(lengths, cur, target, placed)
    quats_toward_3d(lengths, base, cone, hinge, lo, hi, placed, quats, cur, world)
    rec[1, :, :] = quats
    status, steps = _verdict(code, cur[n], target, placed[n], tol, n)
    return status, steps, 2


SOLVER = Solver(
    name="circles",
    summary="Intersection of circles: interior joints placed from the end effector back, n - 2 "
    "steps",
    source="Srinivasan & John 2013, Section 4, Appendix 1 (circles reconstructed, see notes)",
    module=__name__,
    kernel_2d=circles_2d,
    kernel_3d=circles_3d,
    capacity=lambda n, max_iter: 2,
    default_max_iter=1,
    iterative=False,
)
