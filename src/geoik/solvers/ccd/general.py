"""Cyclic Coordinate Descent on general joint models (:class:`geoik.Robot`).

``ccd``'s kernel for robots, with one or several tips and, per tip, a position or a position and
an orientation target. One iteration is one sweep over the joints from the last to the first
(for a tree: each joint after its children); each joint takes, by itself, the value that best
serves every targeted tip it moves, within its limits:

- A revolute or continuous joint turning by ``theta`` about its axis ``a`` (base frame) through
  its origin ``o`` moves a tip's offset ``u = p - o`` to ``R(theta) u`` and its frame's axes
  ``x_c`` to ``R(theta) x_c``. The weighted sum of squared errors
  ``|R u - (t - o)|^2 + (w^2 / 2) sum_c |R x_c - g_c|^2`` (``t`` the target, ``g_c`` the target
  frame's axes) equals a constant minus ``2 (A cos theta + B sin theta)``, with
  ``A = sum v . b - (v . a)(b . a)`` and ``B = sum a . (v x b)`` over the pairs ``(v, b)``, so
  its minimum is at ``theta = atan2(B, A)`` (Wang & Chen 1991's closed form of the CCD step with
  orientation). ``w`` is the length an angle counts as, as in
  :mod:`geoik.solvers.dls_general` (``0.3 L``), and ``sum_c |R x_c - g_c|^2 = 4 (1 - cos phi)``,
  about ``2 phi^2`` for the angle ``phi`` between the frames, hence the ``1 / 2``. With limits,
  ``A cos theta + B sin theta`` is one cosine bump, so the best allowed value is the unconstrained
  one when it lies within the limits (the nearest of its turns by 2 pi), else the better limit.
- A prismatic joint sliding by ``d`` along ``a`` moves positions only: ``d`` is the mean of
  ``a . (t - p)`` over the tips it moves, clamped into its limits.

Convergence is checked before the first sweep (0 iterations) and after each: REACHED when every
targeted tip is within ``tol`` (and ``angle_tol`` when oriented). A sweep moving no joint by more
than 1e-12 (radians or metres times ``L``) ends the run as STALLED; otherwise MAX_ITERATIONS.
Every joint move is one keyframe (capacity ``1 + m * max_iter``).
"""

from __future__ import annotations

import math

import numpy as np
from numba import njit

from geoik.geometry import MAX_ITERATIONS, REACHED, STALLED, copy_into, sq
from geoik.jit import slow_to_compile
from geoik.kinematics import all_within, fk_joints, fk_tips, slides, tip_errors, wraps
from geoik.solvers.dls_general import WEIGHT

MOVED = 1e-12


@njit(cache=True)
def best_turn(a_coef, b_coef, cur, lo, hi, free):
    """The joint value within ``[lo, hi]`` (any value when ``free``) maximising
    ``A cos(x - cur) + B sin(x - cur)``."""
    th = math.atan2(b_coef, a_coef)
    if free:
        return cur + th
    best = cur + th
    # the representative of cur + th (mod 2 pi) nearest cur within [lo, hi], if any
    k = math.floor((lo - best) / (2.0 * math.pi))
    found = False
    x = best + k * 2.0 * math.pi
    chosen = 0.0
    for _ in range(8):
        if lo <= x <= hi and (not found or abs(x - cur) < abs(chosen - cur)):
            chosen = x
            found = True
        x += 2.0 * math.pi
        if x > hi:
            break
    if found:
        return chosen
    f_lo = a_coef * math.cos(lo - cur) + b_coef * math.sin(lo - cur)
    f_hi = a_coef * math.cos(hi - cur) + b_coef * math.sin(hi - cur)
    return lo if f_lo >= f_hi else hi


@njit(cache=True, inline="always")
def pair_terms(ax, ay, az, vx, vy, vz, bx, by, bz):
    """One pair ``(v, b)``'s terms of ``A`` and ``B`` about the unit axis ``a`` (the module
    notes): ``v . b - (v . a)(b . a)`` and ``a . (v x b)``."""
    va, ba = vx * ax + vy * ay + vz * az, bx * ax + by * ay + bz * az
    return vx * bx + vy * by + vz * bz - va * ba, (
        ax * (vy * bz - vz * by) + ay * (vz * bx - vx * bz) + az * (vx * by - vy * bx)
    )


@njit(cache=True, inline="always")  # a call per joint costs ~15 % on the arms
def turn_coefficients(goal, on_path, j, origins, world_axes, trot, tpos, wo):
    """``(A, B)`` of revolute joint ``j`` over the targeted tips it moves (the module notes):
    the positions' pairs in square metres, the frames' axes' pairs weighed by ``wo`` (``w^2 /
    2``, square metres); ``origins``, ``world_axes`` (m, 3) and the tips' frames ``trot`` (k,
    3, 3) and ``tpos`` (k, 3) are those of the current joint values."""
    targets, goal_rot, targeted, oriented = goal
    ax, ay, az = world_axes[j, 0], world_axes[j, 1], world_axes[j, 2]
    ox, oy, oz = origins[j, 0], origins[j, 1], origins[j, 2]
    ca, cb = 0.0, 0.0
    for i in range(targeted.shape[0]):
        if not (targeted[i] and on_path[i, j]):
            continue
        vx, vy, vz = tpos[i, 0] - ox, tpos[i, 1] - oy, tpos[i, 2] - oz
        bx, by, bz = targets[i, 0] - ox, targets[i, 1] - oy, targets[i, 2] - oz
        da, db = pair_terms(ax, ay, az, vx, vy, vz, bx, by, bz)
        ca += da
        cb += db
        if oriented[i]:
            for c in range(3):
                vx, vy, vz = trot[i, 0, c], trot[i, 1, c], trot[i, 2, c]
                bx, by, bz = goal_rot[i, 0, c], goal_rot[i, 1, c], goal_rot[i, 2, c]
                da, db = pair_terms(ax, ay, az, vx, vy, vz, bx, by, bz)
                ca += wo * da
                cb += wo * db
    return ca, cb


@njit(cache=True, inline="always")
def slide_travel(targets, targeted, on_path, j, world_axes, tpos):
    """Prismatic joint ``j``'s travel (metres): the mean of ``a . (t - p)`` over the targeted
    tips it moves (``a`` its axis, ``t`` and ``p`` a tip's target and position), and how many
    there are (none: the travel is 0)."""
    ax, ay, az = world_axes[j, 0], world_axes[j, 1], world_axes[j, 2]
    d, count = 0.0, 0
    for i in range(targeted.shape[0]):
        if targeted[i] and on_path[i, j]:
            d += (
                ax * (targets[i, 0] - tpos[i, 0])
                + ay * (targets[i, 1] - tpos[i, 1])
                + az * (targets[i, 2] - tpos[i, 2])
            )
            count += 1
    return (d / count if count > 0 else 0.0), count


@njit(cache=True)
def sweeps(model, goal, q, frames, errors, wo, size, stop, rec):
    """CCD's iterations from ``q`` (m,) until the tips are reached, a sweep stalls or the
    budget is spent.

    ``frames`` holds ``q``'s frames (``(rot, pos, origins, world_axes, trot, tpos)``: (m, 3,
    3), (m, 3), (m, 3), (m, 3), (k, 3, 3), (k, 3)), ``errors`` the tips' position and angle
    errors' scratch ((k,), (k,)); ``wo`` weighs the orientation pairs (square metres),
    ``size`` is the model's (metres), ``stop`` is ``(tol, angle_tol, max_iter)`` (metres,
    radians, iterations). Returns ``(status, iterations, keyframes recorded)``."""
    parents, kinds, origin_xyz, origin_rot, axes, lo, hi, tip_parents, tip_xyz, tip_rot, on_path = (
        model
    )
    rot, pos, origins, world_axes, trot, tpos = frames
    targets, goal_rot, targeted, oriented = goal
    pos_err, ang_err = errors
    tol, angle_tol, max_iter = stop
    nrec = 1
    for it in range(1, max_iter + 1):
        biggest = 0.0
        for j in range(q.shape[0] - 1, -1, -1):
            if slides(kinds[j]):
                d, count = slide_travel(targets, targeted, on_path, j, world_axes, tpos)
                if count == 0:
                    continue
                new = min(max(q[j] + d, lo[j]), hi[j])
                moved = abs(new - q[j]) / size
            else:
                ca, cb = turn_coefficients(goal, on_path, j, origins, world_axes, trot, tpos, wo)
                if ca == 0.0 and cb == 0.0:
                    continue
                new = best_turn(ca, cb, q[j], lo[j], hi[j], wraps(kinds[j]))
                moved = abs(new - q[j])
            if moved <= MOVED:
                continue
            q[j] = new
            biggest = max(biggest, moved)
            fk_joints(
                parents, kinds, origin_xyz, origin_rot, axes, q, rot, pos, origins, world_axes
            )
            fk_tips(tip_parents, tip_xyz, tip_rot, rot, pos, trot, tpos)
            if nrec < rec.shape[0]:
                copy_into(rec[nrec, :], q)
                nrec += 1
        tip_errors(tpos, trot, targets, goal_rot, targeted, oriented, pos_err, ang_err)
        if all_within(pos_err, ang_err, targeted, oriented, tol, angle_tol):
            return REACHED, it, nrec
        if biggest <= MOVED:
            return STALLED, it, nrec
    return MAX_ITERATIONS, max_iter, nrec


@slow_to_compile  # seconds; a call as Python takes milliseconds
@njit(cache=True)
def ccd_general(model, goal, q, tol, angle_tol, max_iter, opts, rec):
    """CCD on a general model; arguments and result as
    :func:`geoik.solvers.dls_general.dls_general` (``opts``: ``[L]``)."""
    targets, goal_rot, targeted, oriented = goal
    size = opts[opts.shape[0] - 1]  # after ccd's options (escape)
    m, k = q.shape[0], targeted.shape[0]
    rot, pos, origins, world_axes = (
        np.empty((m, 3, 3)),
        np.empty((m, 3)),
        np.empty((m, 3)),
        np.empty((m, 3)),
    )
    trot, tpos, pos_err, ang_err = np.empty((k, 3, 3)), np.empty((k, 3)), np.empty(k), np.empty(k)
    parents, kinds, origin_xyz, origin_rot, axes, _, _, tip_parents, tip_xyz, tip_rot, _ = model
    fk_joints(parents, kinds, origin_xyz, origin_rot, axes, q, rot, pos, origins, world_axes)
    fk_tips(tip_parents, tip_xyz, tip_rot, rot, pos, trot, tpos)
    tip_errors(tpos, trot, targets, goal_rot, targeted, oriented, pos_err, ang_err)
    if all_within(pos_err, ang_err, targeted, oriented, tol, angle_tol):
        return REACHED, 0, 1
    wo = 0.5 * sq(WEIGHT * size)
    frames = (rot, pos, origins, world_axes, trot, tpos)
    stop = (tol, angle_tol, max_iter)
    return sweeps(model, goal, q, frames, (pos_err, ang_err), wo, size, stop, rec)


def capacity(m: int, max_iter: int) -> int:
    """Keyframes of :func:`ccd_general`: the start and one per joint move."""
    return 1 + m * max_iter
