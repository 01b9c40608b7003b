"""Damped least squares on general joint models (:class:`geoik.Robot`): one or several tips,
position or position and orientation.

The kernel :func:`dls_general` is ``dls``'s kernel for robots. Each iteration linearises the
tips' errors in the joint values and takes the Levenberg-Marquardt step

.. math::

    \\Delta q = (J^T J + \\lambda^2 I)^{-1} J^T e

``e`` stacks, per targeted tip, the position error (metres) and, when an orientation is asked,
the rotation vector taking the tip's frame onto the target's (radians) times a length ``w``;
``J`` stacks the matching rows: a revolute joint's column is ``a x (p - o)`` over ``w a``
(``a`` its axis in the base frame, ``o`` its origin, ``p`` the tip), a prismatic joint's is
``a`` over 0. Several tips (:func:`geoik.solve_tree`) simply stack their rows (Buss 2004's
multiple end effectors), so joints shared by several fingers weigh all of them.

Choices
-------
Metres against radians. ``w = 0.3 L`` (:data:`WEIGHT`, ``L`` the model's size,
:attr:`geoik.Robot.total_length`): an error of ``theta`` radians counts as the ``0.3 L theta``
metres it moves a point at about a wrist's distance from the tip, so that both errors share one
scale for the damping and the step limits. With 6 joints and an oriented tip ``J`` is square and
the undamped step, hence the converged pose, does not depend on ``w``; it shapes the path there.
The factor was chosen among 0.1, 0.2, 0.3, 1 and 3 by the share of targets that
``benchmarks/bench_robots.py`` reports solved on its arms.
Damping. ``lambda^2 = boost * (damping * E + (damping * L)^2 * 1e-6)``, ``E`` the squared error
norm (Sugihara 2011: damping that fades with the error converges quadratically near the
solution and keeps steps short far from it); ``boost`` starts at 1, is divided by 4 (down to
1e-3) after an accepted step and multiplied by 4 after a rejected one (Levenberg-Marquardt's
rule). A step is accepted only if it lowers ``E``; within one iteration a step that does not is
first halved up to :data:`HALVINGS` times (a backtracking line search), so the error never
grows.
Steps. A step whose largest revolute turn exceeds 90 degrees, or whose largest prismatic travel
exceeds ``max_step * L``, is scaled down to it. Joint limits: every joint is held inside its
limits after each step, and a joint sitting on a limit that the step pushes further is removed
from ``J`` and the step recomputed. A revolute joint whose limits span a whole turn or more (the
UR arms' +-2 pi, the xArm7's) is not stopped at a limit: a step past one lands on the same angle
a whole turn back inside the range (:func:`into_limits`), the same pose. Stopping it there made
false minima, the arm pressed against a limit that the same angle a turn away does not have
(wrapping those joints halved the UR5's restarts).
Restarts. Damped least squares is a local method: from a far start it can settle in a local
minimum of ``E`` (a wrist flipped the wrong way, an elbow against a limit), or crawl towards a
singular pose (the UR arms' straight elbow) where its steps shrink. A descent that is heading to
a solution gains fast, so the kernel asks every iteration for a gain: ``E`` must fall by
:data:`FAR_GAIN` (by :data:`NEAR_GAIN` once the error is below ``0.01 L``), and when it does not
(or when ``boost`` exceeds 1e4), short of the target, the kernel restarts from the best (the
smallest ``E``, by forward kinematics alone) of :data:`CANDIDATES` sets of joint values drawn
uniformly within the limits (continuous joints in [-pi, pi]) by a fixed pseudo-random sequence,
so a solve is reproducible; the best pose found is returned. Restarts come out of the same
``max_iter`` budget: iterations count every step, accepted or not, across restarts. The
recorded motion then jumps where the kernel restarted.
Budget. On robots ``dls`` runs :data:`BUDGET_GENERAL` = 300 iterations by default (chains keep
100). The gains, the number of candidates and the budget were chosen on seeded reachable poses
(position and orientation, ``tol`` 1e-4 m) of the nine arms of :data:`geoik.robots.urdf.ARMS`,
4,000 each, from the rest configuration; the poses the tests and ``benchmarks/bench_robots.py``
solve are others. With a gain asked every third iteration (``E`` halved far from the target),
16 candidates and the joints that span a turn stopped at their limits, 82 of the 36,000 poses
took more than 100 iterations (0.23 %), 5 more than 200, 2 more than 300; 12.2 on average.
Asking for a gain every iteration, 32 candidates and the wrapped joints: 12 took more than 100
(0.033 %), 2 more than 200, none more than 300 (the most, 283); 9.6 on average. On 36,000
other poses (another seed): 18, 1 and none (the most, 226). The budget of 300 costs nothing to
the poses solved sooner and bounds the time an unreachable target takes.

Counting and stopping. One iteration is one step (accepted or rejected); each accepted step is
one keyframe (capacity ``1 + max_iter``). Convergence is checked before the first step (0
iterations) and after each: REACHED when every targeted tip is within ``tol`` and, if oriented,
within ``angle_tol``. Otherwise MAX_ITERATIONS. There is no CLOSEST for robots: their reachable
sets are not spheres, and no closest point is proven.
"""

from __future__ import annotations

import math

import numpy as np
from numba import njit

from geoik.geometry import MAX_ITERATIONS, REACHED, copy_into, sq
from geoik.jit import slow_to_compile
from geoik.kinematics import (
    all_within,
    fk_joints,
    fk_tips,
    rotation_error,
    slides,
    tip_errors,
    wraps,
)

MAX_ANGLE = math.pi / 2.0
"""Largest revolute turn of one step (Buss's ``MaxAngleDLS``)."""
WEIGHT = 0.3
"""``w``, the length (as a share of the model's size) an angle error is weighed by."""
HALVINGS = 2
"""A step that does not lower the error is halved up to this many times in its iteration."""
BOOST_MIN = 1e-3
BOOST_MAX = 1e4
"""A boost beyond this (steps shrunk ten-thousand-fold to no avail) means a local minimum."""
FAR_GAIN = 0.3
NEAR_GAIN = 0.01
NEAR = 0.01
"""Every iteration the squared error must fall by ``FAR_GAIN`` (by ``NEAR_GAIN`` once it is
below ``(NEAR * L)^2``), else the kernel restarts."""
CANDIDATES = 32
"""Random poses drawn at a restart, the one nearest the goal kept."""
BUDGET_GENERAL = 300
"""``dls``'s default ``max_iter`` for robots (chains keep 100): see "Budget" in the module
docstring."""
FLOOR = 1e-6
"""The damping's floor, as a share of ``(damping * L)^2``."""
AT_LIMIT = 1e-12
TURN = 2.0 * math.pi


@njit(cache=True)
def residual(tips_pos, tips_rot, targets, goal_rot, targeted, oriented, w, e):
    """Stack the tips' errors into ``e``; returns the squared norm ``E`` and the rows used."""
    r = 0
    total = 0.0
    for i in range(targeted.shape[0]):
        if not targeted[i]:
            continue
        for c in range(3):
            e[r + c] = targets[i, c] - tips_pos[i, c]
        r += 3
        if oriented[i]:
            x, y, z = rotation_error(goal_rot[i], tips_rot[i])
            e[r], e[r + 1], e[r + 2] = w * x, w * y, w * z
            r += 3
    for s in range(r):
        total += e[s] * e[s]
    return total, r


@njit(cache=True)
def jacobian(kinds, origins, world_axes, tips_pos, on_path, targeted, oriented, w, jac):
    """Stack the tips' Jacobian rows into ``jac`` (rows, m), as :func:`residual` orders them."""
    m = kinds.shape[0]
    r = 0
    for i in range(targeted.shape[0]):
        if not targeted[i]:
            continue
        rows = 6 if oriented[i] else 3
        for j in range(m):
            for s in range(rows):
                jac[r + s, j] = 0.0
            if not on_path[i, j]:
                continue
            ax, ay, az = world_axes[j, 0], world_axes[j, 1], world_axes[j, 2]
            if slides(kinds[j]):
                jac[r, j], jac[r + 1, j], jac[r + 2, j] = ax, ay, az
            else:
                dx = tips_pos[i, 0] - origins[j, 0]
                dy = tips_pos[i, 1] - origins[j, 1]
                dz = tips_pos[i, 2] - origins[j, 2]
                jac[r, j] = ay * dz - az * dy
                jac[r + 1, j] = az * dx - ax * dz
                jac[r + 2, j] = ax * dy - ay * dx
                if rows == 6:
                    jac[r + 3, j], jac[r + 4, j], jac[r + 5, j] = w * ax, w * ay, w * az
        r += rows


@njit(cache=True)
def damped_solve(jac, e, rows, lam2, active, a, g, dq):
    """``dq = (J_a^T J_a + lam2 I)^{-1} J_a^T e`` over the active columns (0 for the others), by
    Cholesky factorisation of the (m, m) positive definite matrix."""
    m = jac.shape[1]
    for p in range(m):
        s = 0.0
        if active[p]:
            for r in range(rows):
                s += jac[r, p] * e[r]
        g[p] = s
        for q in range(p + 1):
            s = 0.0
            if active[p] and active[q]:
                for r in range(rows):
                    s += jac[r, p] * jac[r, q]
            a[p, q] = s
        a[p, p] += lam2 if active[p] else 1.0
    for p in range(m):  # a = L L^T, L in the lower triangle
        for q in range(p + 1):
            s = a[p, q]
            for t in range(q):
                s -= a[p, t] * a[q, t]
            if p == q:
                a[p, p] = math.sqrt(s) if s > 0.0 else 1e-300
            else:
                a[p, q] = s / a[q, q]
    for p in range(m):  # L y = g
        s = g[p]
        for t in range(p):
            s -= a[p, t] * dq[t]
        dq[p] = s / a[p, p]
    for p in range(m - 1, -1, -1):  # L^T dq = y
        s = dq[p]
        for t in range(p + 1, m):
            s -= a[t, p] * dq[t]
        dq[p] = s / a[p, p]


@njit(cache=True)
def limited_step(jac, e, rows, lam2, free, lo, hi, q, work, dq):
    """:func:`damped_solve`, dropping joints that sit on a limit the step would push past
    (``free`` joints, continuous or spanning a turn, have no limit that stops them).

    Parameters
    ----------
    jac, e, rows : the stacked Jacobian (rows, m), the residual (rows,) and the rows used.
    lam2 : the damping ``lambda^2`` (square metres).
    free, lo, hi : (m,) the joints without a stopping limit, and the limits (radians or metres).
    q : (m,) the joint values the step starts from.
    work : ``(active, a, g)``, (m,) bool, (m, m) and (m,) scratch; ``active`` is left telling
        which joints took part.
    dq : (m,) the step, written.
    """
    active, a, g = work
    m = q.shape[0]
    for j in range(m):
        active[j] = True
    for _ in range(m + 1):
        damped_solve(jac, e, rows, lam2, active, a, g, dq)
        again = False
        for j in range(m):
            if not active[j] or free[j]:
                continue
            if (q[j] <= lo[j] + AT_LIMIT and dq[j] < 0.0) or (
                q[j] >= hi[j] - AT_LIMIT and dq[j] > 0.0
            ):
                active[j] = False
                again = True
        if not again:
            return


@njit(cache=True)
def free_joints(kinds, lo, hi, free):
    """``free[j]``: joint ``j`` turns past its limits onto the same angle a turn back inside
    them (a revolute joint whose limits span a whole turn or more), or has none (continuous)."""
    for j in range(kinds.shape[0]):
        free[j] = wraps(kinds[j]) or (not slides(kinds[j]) and hi[j] - lo[j] >= TURN)


@njit(cache=True)
def into_limits(kinds, free, lo, hi, q):
    """Hold every joint with limits inside them: a free revolute joint outside them by whole
    turns (the same angle), any other by clamping; continuous joints are left as they are."""
    for j in range(q.shape[0]):
        if wraps(kinds[j]):
            continue
        if free[j]:
            while q[j] > hi[j]:
                q[j] -= TURN
            while q[j] < lo[j]:
                q[j] += TURN
        if q[j] < lo[j]:
            q[j] = lo[j]
        elif q[j] > hi[j]:
            q[j] = hi[j]


@njit(cache=True)
def next_random(seed):
    """Park-Miller's minimal standard generator: the next seed and a uniform number in (0, 1)."""
    seed = (seed * 16807) % 2147483647
    return seed, seed / 2147483647.0


@njit(cache=True, inline="always")
def step_scale(kinds, dq, max_travel):
    """The factor (at most 1) bringing the step ``dq`` (m,) within :data:`MAX_ANGLE` radians
    per revolute joint and ``max_travel`` metres per prismatic one."""
    scale = 1.0
    for j in range(dq.shape[0]):
        cap = max_travel if slides(kinds[j]) else MAX_ANGLE
        if abs(dq[j]) * scale > cap:
            scale = cap / abs(dq[j])
    return scale


@njit(cache=True, inline="always")  # inlined: compiles in about half the time
def random_start(model, goal, w, seed, frames, e, trial, q):
    """A restart: the best of :data:`CANDIDATES` joint values drawn within the limits
    (continuous joints in [-pi, pi]) by :func:`next_random`, by their squared error (forward
    kinematics only, no step, so no iteration), written into ``q`` (m,); ``frames`` (``(rot,
    pos, origins, world_axes, trot, tpos)``), ``e`` (6 k,) and ``trial`` (m,) are scratch.
    Returns the next seed."""
    parents, kinds, origin_xyz, origin_rot, axes, lo, hi, tip_parents, tip_xyz, tip_rot, _ = model
    rot, pos, origins, world_axes, trot, tpos = frames
    targets, goal_rot, targeted, oriented = goal
    fewest = np.inf
    for _ in range(CANDIDATES):
        for j in range(q.shape[0]):
            seed, u = next_random(seed)
            if wraps(kinds[j]):
                trial[j] = -math.pi + 2.0 * math.pi * u
            else:
                trial[j] = lo[j] + (hi[j] - lo[j]) * u
        fk_joints(
            parents, kinds, origin_xyz, origin_rot, axes, trial, rot, pos, origins, world_axes
        )
        fk_tips(tip_parents, tip_xyz, tip_rot, rot, pos, trot, tpos)
        cand_err = residual(tpos, trot, targets, goal_rot, targeted, oriented, w, e)[0]
        if cand_err < fewest:
            fewest = cand_err
            copy_into(q[:], trial)
    return seed


@njit(cache=True)
def iterate(model, goal, free, q, err, rows, settings, frames, work, rec):
    """The Levenberg-Marquardt iterations of :func:`dls_general` from ``q`` (m,), restarts
    included, until the tips are reached or the budget is spent.

    ``err`` and ``rows`` are ``q``'s squared error (square metres) and residual rows;
    ``frames`` is ``(rot, pos, origins, world_axes, trot, tpos)``, the joints' and the tips'
    frames ((m, 3, 3), (m, 3), (m, 3), (m, 3), (k, 3, 3), (k, 3)), ``q``'s on entry; ``work``
    is ``(pos_err, ang_err, jac, e, active, a, g, dq, best, trial)``, the tips' errors (k,),
    the Jacobian (6 k, m) and residual (6 k,) (``q``'s on entry), the step's scratch (see
    :func:`limited_step`), the step, the best pose and a trial pose (m,); ``settings`` is
    ``(damping, floor, near, max_travel, w, tol, angle_tol, max_iter)``: the damping's factor
    and floor (square metres), the squared error below which the near gain is asked, the
    largest prismatic travel (metres), ``w``, the tolerances (metres, radians) and the budget.
    Returns ``(status, iterations, keyframes recorded, E, best E)``.
    """
    parents, kinds, origin_xyz, origin_rot, axes, lo, hi, tip_parents, tip_xyz, tip_rot, on_path = (
        model
    )
    rot, pos, origins, world_axes, trot, tpos = frames
    pos_err, ang_err, jac, e, active, a, g, dq, best, trial = work
    targets, goal_rot, targeted, oriented = goal
    damping, floor, near, max_travel, w, tol, angle_tol, max_iter = settings
    # the seed typed: a literal would compile next_random once more
    best_err, boost, seed, nrec = err, 1.0, np.int64(20240601), 1
    for it in range(1, max_iter + 1):
        before = err
        jacobian(kinds, origins, world_axes, tpos, on_path, targeted, oriented, w, jac)
        lam2 = boost * (damping * err + floor)
        limited_step(jac, e, rows, lam2, free, lo, hi, q, (active, a, g), dq)
        scale = step_scale(kinds, dq, max_travel)
        for _ in range(HALVINGS + 1):
            for j in range(q.shape[0]):
                trial[j] = q[j] + scale * dq[j]
            into_limits(kinds, free, lo, hi, trial)
            fk_joints(
                parents, kinds, origin_xyz, origin_rot, axes, trial, rot, pos, origins, world_axes
            )
            fk_tips(tip_parents, tip_xyz, tip_rot, rot, pos, trot, tpos)
            new_err, rows = residual(tpos, trot, targets, goal_rot, targeted, oriented, w, e)
            if new_err < err:
                break
            scale *= 0.5
        restart = False
        accepted = new_err < err
        if accepted:
            copy_into(q[:], trial)
            if nrec < rec.shape[0]:
                copy_into(rec[nrec, :], q)
                nrec += 1
            tip_errors(tpos, trot, targets, goal_rot, targeted, oriented, pos_err, ang_err)
            if all_within(pos_err, ang_err, targeted, oriented, tol, angle_tol):
                return REACHED, it, nrec, new_err, best_err
            err = new_err
            if err < best_err:
                best_err = err
                copy_into(best[:], q)
            boost = max(boost * 0.25, BOOST_MIN)
        else:
            boost *= 4.0
            restart = boost > BOOST_MAX
        if not restart:
            gain = FAR_GAIN if err > near else NEAR_GAIN
            restart = err > (1.0 - gain) * before
        if restart:  # from the best of random poses: the next descent starts nearer the target
            seed = random_start(model, goal, w, seed, frames, e, trial, q)
            if nrec < rec.shape[0]:
                copy_into(rec[nrec, :], q)
                nrec += 1
            boost = 1.0
        if restart or not accepted:  # the frames and the residual of the pose kept
            fk_joints(
                parents, kinds, origin_xyz, origin_rot, axes, q, rot, pos, origins, world_axes
            )
            fk_tips(tip_parents, tip_xyz, tip_rot, rot, pos, trot, tpos)
            err, rows = residual(tpos, trot, targets, goal_rot, targeted, oriented, w, e)
    return MAX_ITERATIONS, max_iter, nrec, err, best_err


@slow_to_compile  # seconds; a call as Python takes milliseconds
@njit(cache=True)
def dls_general(model, goal, q, tol, angle_tol, max_iter, opts, rec):
    """Damped least squares on a general model (see the module docstring).

    Parameters
    ----------
    model : :attr:`geoik.Robot.kernel_arrays`.
    goal : ``(targets, goal_rot, targeted, oriented)``: (k, 3) target positions of the tips
        (rows of untargeted tips unused), (k, 3, 3) target orientations (rows of tips without
        one unused), and (k,) which tips have a position target, and an orientation one too.
    q : (m,) start joint values on entry, the result on return.
    tol, angle_tol : metres and radians.
    max_iter : iteration budget.
    opts : ``[damping, max_step, escape, L]`` (dls's options, then the model's size).
    rec : (capacity, m) keyframes; ``rec[0]`` is the start, written by the caller.

    Returns
    -------
    (status, iterations, nrec)
    """
    parents, kinds, origin_xyz, origin_rot, axes, lo, hi, tip_parents, tip_xyz, tip_rot, _ = model
    targets, goal_rot, targeted, oriented = goal
    m, k = q.shape[0], targeted.shape[0]
    size = opts[opts.shape[0] - 1]  # after dls's options (damping, max_step, escape)
    w = WEIGHT * size
    damping, max_travel = opts[0], opts[1] * size
    floor, near = sq(damping * size) * FLOOR, sq(NEAR * size)
    settings = (damping, floor, near, max_travel, w, tol, angle_tol, max_iter)
    rot, pos = np.empty((m, 3, 3)), np.empty((m, 3))
    origins, world_axes = np.empty((m, 3)), np.empty((m, 3))
    trot, tpos, pos_err, ang_err = np.empty((k, 3, 3)), np.empty((k, 3)), np.empty(k), np.empty(k)
    jac, e, a = np.empty((6 * k, m)), np.empty(6 * k), np.empty((m, m))
    active, free = np.empty(m, dtype=np.bool_), np.empty(m, dtype=np.bool_)
    g, dq, best, trial = np.empty(m), np.empty(m), q.copy(), np.empty(m)
    frames = (rot, pos, origins, world_axes, trot, tpos)
    work = (pos_err, ang_err, jac, e, active, a, g, dq, best, trial)
    free_joints(kinds, lo, hi, free)
    fk_joints(parents, kinds, origin_xyz, origin_rot, axes, q, rot, pos, origins, world_axes)
    fk_tips(tip_parents, tip_xyz, tip_rot, rot, pos, trot, tpos)
    tip_errors(tpos, trot, targets, goal_rot, targeted, oriented, pos_err, ang_err)
    if all_within(pos_err, ang_err, targeted, oriented, tol, angle_tol):
        return REACHED, 0, 1
    err, rows = residual(tpos, trot, targets, goal_rot, targeted, oriented, w, e)
    code, it, nrec, err, best_err = iterate(
        model, goal, free, q, err, rows, settings, frames, work, rec
    )
    if code == REACHED:
        return REACHED, it, nrec
    if best_err < err:
        copy_into(q[:], best)
        copy_into(rec[min(nrec, rec.shape[0] - 1), :], q)
        nrec = min(nrec + 1, rec.shape[0])
    return MAX_ITERATIONS, max_iter, nrec


def capacity(m: int, max_iter: int) -> int:
    """Keyframes of :func:`dls_general`: the start, one per accepted step or restart (both in
    one iteration at most), and the best pose at the end."""
    return 2 + 2 * max_iter
