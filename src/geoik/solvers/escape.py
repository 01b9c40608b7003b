"""Leaving singular poses: the ``escape`` option of ``ccd``, ``dls`` and ``fabrik``.

A straight chain, or a chain folded onto one line, is a singular pose: every joint turns the end
effector across that line, never along it. A target on the line (the straight rest pose and a
target on its own line, seed 004's CCD void) leaves CCD nothing to turn, DLS a Jacobian blind to
the error and FABRIK a chain that only slides along the line: all three stop short as STALLED.
The same poses are the closest reachable poses of out-of-reach targets, which the iterative
methods approach slowly or not at all. With ``escape=1`` (the default of ``dls`` and ``fabrik``;
``ccd`` keeps the seeds' algorithm unless asked) a kernel

- on an iteration that moves nothing short of the target, bends one joint by the fixed angle
  :data:`ESCAPE_BEND` within its limits and goes on (:func:`bend_2d`, :func:`bend_3d`), at most
  :data:`ESCAPES` times per solve: the ``k``-th escape bends the joint nearest the middle of the
  chain (``n // 2 + k``, wrapping round) that can turn at least half that far,
  counter-clockwise (3-D: about the link's own z axis) or, where its limits forbid it, the other
  way. The bend is that iteration's step;
- FABRIK only: when the stalled chain is straight and the target strictly inside its length
  (a target on the chain's line), bends that joint instead by the angle that puts the end
  effector at the target's distance from the base and turns joint 0 so that it lies on the
  target, when both fit their limits (:func:`land_2d`, :func:`land_3d`): one step that reaches
  it, where from a fixed bend FABRIK's passes, slow near full extension, took hundreds;
- on a target nearer to the base than the minimum reach of a chain without limits, folds the
  chain onto the target's line in one step counted as the first iteration (the longest link
  towards the target, the others back: the closest reachable pose), and ends CLOSEST
  (:func:`reach_out_2d`, :func:`reach_out_3d`);
- CCD only: on a target beyond the chain's length, when every joint but the first allows 0,
  straightens the chain towards it in the same way (joint 0 as near the target's bearing as
  its limits allow; FABRIK's first pass does this by itself and DLS aims at that point); and a
  free joint (3-D: a ball joint or hinge) whose end-effector and target vectors are exactly
  opposite turns by ``pi - ESCAPE_BEND`` rather than by ``pi``, so that the chain curls off the
  line instead of folding back onto it, where CCD would stall again.

Nothing is random, so the same solve gives the same result; every step is recorded as a
keyframe, so the motion and its costs include it.

What it does not do: CCD's sweeps may still curl a chain into a fold whose joints all see the
target straight ahead or behind (a minimum along every single joint, approached without ever
stalling), and then end at MAX_ITERATIONS, as they may on targets off the line; DLS, which
turns every joint at once, gets through such poses, and ``method="auto"`` runs it first.
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np
from numba import njit

from geoik.geometry import (
    PI,
    clamp,
    constrain_joint_3d,
    dist2,
    fit_angle,
    fk_3d,
    hinge_angle,
    is_hinge,
    q_angle,
    q_axis_angle,
    q_between,
    qmul,
    qnormalize,
    sq,
)

__all__ = [
    "ESCAPES",
    "ESCAPE_BEND",
    "ESCAPE_HELP",
    "bend_2d",
    "bend_3d",
    "land_2d",
    "land_3d",
    "reach_out_2d",
    "reach_out_3d",
]

ESCAPE_BEND = 0.1
"""The bend (radians) of one escape from a stall."""
ESCAPES = 4
"""Escapes from stalls allowed in one solve."""
ESCAPE_HELP = (
    "1: leave singular poses: a step that moves nothing short of the target bends one joint by "
    "0.1 rad, and a target inside a free chain's minimum reach folds the chain in one step"
)
"""The ``escape`` option's help, shared by the solvers that take it."""


@njit(cache=True)
def escape_joint(n, k, i):
    """The ``i``-th candidate joint of the ``k``-th escape of a chain of ``n`` joints."""
    return (n // 2 + k + i) % n


@njit(cache=True)
def bend_2d(angles, lo, hi, k):
    """The ``k``-th escape: turn one joint by :data:`ESCAPE_BEND` within its limits (at least
    half of it); returns the joint turned, or -1 when no joint can turn that far."""
    n = angles.shape[0]
    for i in range(n):
        j = escape_joint(n, k, i)
        for step in (ESCAPE_BEND, -ESCAPE_BEND):
            new = clamp(angles[j] + step, lo[j], hi[j])
            if abs(new - angles[j]) >= 0.5 * ESCAPE_BEND:
                angles[j] = new
                return j
    return -1


@njit(cache=True)
def bend_3d(quats, cone, hinge, lo, hi, k):
    """:func:`bend_2d` in 3-D: a hinge turns about its axis, a ball joint about its link's own
    z axis (so the link bends away from its direction), each held in its limits."""
    n = quats.shape[0]
    for i in range(n):
        j = escape_joint(n, k, i)
        o0, o1, o2, o3 = quats[j, 0], quats[j, 1], quats[j, 2], quats[j, 3]
        for step in (ESCAPE_BEND, -ESCAPE_BEND):
            if is_hinge(hinge, j):
                hx, hy, hz = hinge[j, 0], hinge[j, 1], hinge[j, 2]
                phi = hinge_angle(o0, o1, o2, o3, hx, hy, hz)
                q0, q1, q2, q3 = q_axis_angle(hx, hy, hz, clamp(phi + step, lo[j], hi[j]))
            else:
                r0, r1, r2, r3 = q_axis_angle(0.0, 0.0, 1.0, step)
                q0, q1, q2, q3 = qmul(o0, o1, o2, o3, r0, r1, r2, r3)
                q0, q1, q2, q3 = constrain_joint_3d(q0, q1, q2, q3, j, cone, hinge, lo, hi)
            q0, q1, q2, q3 = qnormalize(q0, q1, q2, q3)
            d0, d1, d2, d3 = qmul(q0, q1, q2, q3, o0, -o1, -o2, -o3)
            if q_angle(d0, d1, d2, d3) >= 0.5 * ESCAPE_BEND:
                quats[j, 0], quats[j, 1], quats[j, 2], quats[j, 3] = q0, q1, q2, q3
                return j
    return -1


@njit(cache=True)
def _landing(lengths, base, target, e2):
    """The target's distance from the base if the chain is straight (its end effector a full
    length from the base: ``e2`` is its squared distance) and the target strictly inside that
    length, else -1."""
    total = 0.0
    for m in range(lengths.shape[0]):
        total += lengths[m]
    d2 = 0.0
    for c in range(base.shape[0]):
        d2 += sq(target[c] - base[c])
    d = math.sqrt(d2)
    if e2 < sq(total * (1.0 - 1e-12)) or not 0.0 < d < total:
        return -1.0
    return d


@njit(cache=True)
def _split(lengths, d, j):
    """(bend, turn): the bend of joint ``j`` of a straight chain (radians, in [0, pi]) that puts
    its end effector at distance ``d`` from the base, and the angle the end effector then lies
    off the first link; bend -1 when joint ``j`` cannot make that distance."""
    a = 0.0
    for m in range(j):
        a += lengths[m]
    b = 0.0
    for m in range(j, lengths.shape[0]):
        b += lengths[m]
    if j == 0 or d < abs(a - b):
        return -1.0, 0.0
    bend = math.acos(clamp((d * d - a * a - b * b) / (2.0 * a * b), -1.0, 1.0))
    return bend, math.atan2(b * math.sin(bend), a + b * math.cos(bend))


@njit(cache=True)
def land_2d(lengths, base, lo, hi, target, angles, ex, ey, k):
    """FABRIK's ``k``-th escape from a straight chain stalled on its target's line (its end
    effector at ``(ex, ey)``): one joint (``n // 2 + k`` first, as :func:`bend_2d` picks) bent so
    that the end effector lies at the target's distance from the base, and joint 0 turned so
    that it lies on the target, both within their limits. Returns the joint bent, or -1
    (nothing changed) when the chain is not straight, the target not strictly inside its
    length, or no joint and sign of the bend fit the limits."""
    n = lengths.shape[0]
    d = _landing(lengths, base, target, sq(ex - base[0]) + sq(ey - base[1]))
    if d < 0.0:
        return -1
    bearing = math.atan2(target[1] - base[1], target[0] - base[0])
    for i in range(n):
        j = escape_joint(n, k, i)
        bend, turn = _split(lengths, d, j)
        if bend < 0.0:
            continue
        for sign in (1.0, -1.0):
            bent, ok = fit_angle(angles[j] + sign * bend, angles[j], lo[j], hi[j])
            first, ok0 = fit_angle(bearing - sign * turn, angles[0], lo[0], hi[0])
            if ok and ok0:
                angles[j], angles[0] = bent, first
                return j
    return -1


@njit(cache=True)
def _allowed(q0, q1, q2, q3, j, cone, hinge, lo, hi):
    """Whether joint ``j``'s limits allow the local rotation ``q`` (to 1e-9 rad)."""
    c0, c1, c2, c3 = constrain_joint_3d(q0, q1, q2, q3, j, cone, hinge, lo, hi)
    return q_angle(*qmul(c0, c1, c2, c3, q0, -q1, -q2, -q3)) <= 1e-9


@njit(cache=True)
def land_3d(model, target, frames, k):
    """:func:`land_2d` in 3-D: joint ``j`` bent about its link's own z axis (a hinge: about its
    axis), then the chain turned about the base by the minimal rotation that puts the end
    effector on the target, joint 0's rotation followed by it; both within their limits.
    ``model`` is the chain's ``kernel_arrays``; ``frames`` is ``(quats, pos, world)``, the local
    rotations (n, 4), positions (n + 1, 3) and world rotations (n, 4) of the pose on entry
    (forward kinematics) and on return."""
    lengths, base, cone, hinge, lo, hi = model
    quats, pos, world = frames
    n = lengths.shape[0]
    d = _landing(lengths, base, target, dist2(pos[n], base))
    if d < 0.0:
        return -1
    tx, ty, tz = (target[0] - base[0]) / d, (target[1] - base[1]) / d, (target[2] - base[2]) / d
    for i in range(n):
        j = escape_joint(n, k, i)
        bend, _ = _split(lengths, d, j)
        if bend < 0.0:
            continue
        o0, o1, o2, o3 = quats[j, 0], quats[j, 1], quats[j, 2], quats[j, 3]
        z0, z1, z2, z3 = quats[0, 0], quats[0, 1], quats[0, 2], quats[0, 3]
        if is_hinge(hinge, j):
            ax, ay, az = hinge[j, 0], hinge[j, 1], hinge[j, 2]
        else:
            ax, ay, az = 0.0, 0.0, 1.0
        for sign in (1.0, -1.0):
            b0, b1, b2, b3 = qnormalize(
                *qmul(o0, o1, o2, o3, *q_axis_angle(ax, ay, az, sign * bend))
            )
            if not _allowed(b0, b1, b2, b3, j, cone, hinge, lo, hi):
                continue
            quats[j, 0], quats[j, 1], quats[j, 2], quats[j, 3] = b0, b1, b2, b3
            fk_3d(lengths, base, quats, pos, world)
            ex, ey, ez = pos[n, 0] - base[0], pos[n, 1] - base[1], pos[n, 2] - base[2]
            e = math.sqrt(ex * ex + ey * ey + ez * ez)
            r0, r1, r2, r3 = q_between(ex / e, ey / e, ez / e, tx, ty, tz)
            f0, f1, f2, f3 = qnormalize(*qmul(r0, r1, r2, r3, z0, z1, z2, z3))
            if _allowed(f0, f1, f2, f3, np.int64(0), cone, hinge, lo, hi):
                quats[0, 0], quats[0, 1], quats[0, 2], quats[0, 3] = f0, f1, f2, f3
                fk_3d(lengths, base, quats, pos, world)
                return j
            quats[j, 0], quats[j, 1], quats[j, 2], quats[j, 3] = o0, o1, o2, o3
        fk_3d(lengths, base, quats, pos, world)
    return -1


@njit(cache=True)
def _out_of_reach(lengths, base, target, lo, hi, free, straighten):
    """How a target lies for :func:`reach_out_2d` / :func:`reach_out_3d`: 1 beyond the chain's
    length with every joint but the first allowing 0 (if ``straighten``), 2 inside the minimum
    reach of a chain without limits (``free``), else 0; and the longest link."""
    total, longest, k = 0.0, 0.0, 0
    for i in range(lengths.shape[0]):
        total += lengths[i]
        if lengths[i] > longest:
            longest, k = lengths[i], i
    d2 = 0.0
    for c in range(base.shape[0]):
        d2 += sq(target[c] - base[c])
    dist = math.sqrt(d2)
    if dist > total:
        if not straighten:
            return 0, k
        for i in range(1, lengths.shape[0]):
            if not (lo[i] <= 0.0 <= hi[i]):
                return 0, k
        return 1, k
    if free and dist < 2.0 * longest - total:
        return 2, k
    return 0, k


@njit(cache=True)
def _closest(lengths, base, target, case, k, point):
    """The closest reachable point of :func:`_out_of_reach`'s case into ``point``: the target's
    radial projection onto the chain's length (case 1) or minimum reach (case 2; +x from the
    base for a target at the base)."""
    total = 0.0
    for i in range(lengths.shape[0]):
        total += lengths[i]
    radius = total if case == 1 else 2.0 * lengths[k] - total
    d2 = 0.0
    for c in range(base.shape[0]):
        d2 += sq(target[c] - base[c])
    dist = math.sqrt(d2)
    for c in range(base.shape[0]):
        if dist > 0.0:
            point[c] = base[c] + (target[c] - base[c]) * (radius / dist)
        else:
            point[c] = base[c] + (radius if c == 0 else 0.0)


@njit(cache=True)
def reach_out_2d(lengths, base, lo, hi, target, angles, straighten, point):
    """The closest reachable pose of an out-of-reach target in one step (module docstring), in
    ``angles``. Returns 0 when the target is no such case (nothing changed), else 1 (beyond the
    chain's length: straightened) or 2 (inside the minimum reach: folded), with the closest
    reachable point in ``point`` (reached exactly when joint 0's limits allow it). Without
    ``straighten`` only the fold is taken (for solvers that straighten by themselves or aim at
    the closest point)."""
    n = lengths.shape[0]
    free = np.bool_(True)  # typed: a literal True would compile _out_of_reach again
    for i in range(n):
        free = free and lo[i] == -math.inf and hi[i] == math.inf
    case, k = _out_of_reach(lengths, base, target, lo, hi, free, straighten)
    if case == 0:
        return 0
    _closest(lengths, base, target, case, k, point)
    bearing = math.atan2(point[1] - base[1], point[0] - base[0])
    if case == 1:
        angles[0] = fit_angle(bearing, angles[0], lo[0], hi[0])[0]
        for i in range(1, n):
            angles[i] = fit_angle(0.0, angles[i], lo[i], hi[i])[0]
        return 1
    # fold: link k towards the target, every other link away from it
    prev = 0.0
    for i in range(n):
        a = bearing if i == k else bearing + PI
        angles[i] = fit_angle(a - prev, angles[i], lo[i], hi[i])[0]
        prev = a
    return 2


@njit(cache=True)
def reach_out_3d(lengths, base, cone, hinge, lo, hi, target, quats, straighten, point):
    """:func:`reach_out_2d` in 3-D: joint 0 turns its link towards the target (or away, in a
    fold) as near as its limits allow; the others straighten (identity) or fold back (a half
    turn about their own z axis)."""
    n = lengths.shape[0]
    free: Any = np.bool_(True)  # typed: a literal True would compile _out_of_reach again
    for i in range(n):
        free = free and cone[i] >= PI and not is_hinge(hinge, i)
    case, k = _out_of_reach(lengths, base, target, lo, hi, free, straighten)
    if case == 0:
        return 0
    _closest(lengths, base, target, case, k, point)
    ux, uy, uz = point[0] - base[0], point[1] - base[1], point[2] - base[2]
    d = math.sqrt(ux * ux + uy * uy + uz * uz)
    ux, uy, uz = ux / d, uy / d, uz / d
    if case == 2 and k != 0:
        ux, uy, uz = -ux, -uy, -uz
    q0, q1, q2, q3 = q_between(1.0, 0.0, 0.0, ux, uy, uz)
    q0, q1, q2, q3 = constrain_joint_3d(q0, q1, q2, q3, np.int64(0), cone, hinge, lo, hi)
    quats[0, 0], quats[0, 1], quats[0, 2], quats[0, 3] = qnormalize(q0, q1, q2, q3)
    for i in range(1, n):
        if case == 2 and (i == k or i == k + 1):  # the direction flips at both ends of link k
            quats[i, 0], quats[i, 1], quats[i, 2], quats[i, 3] = 0.0, 0.0, 0.0, 1.0
        else:
            quats[i, 0], quats[i, 1], quats[i, 2], quats[i, 3] = 1.0, 0.0, 0.0, 0.0
    return case
