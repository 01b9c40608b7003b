"""Damped least squares (DLS) on the Jacobian.

Buss 2004, "Introduction to inverse kinematics with Jacobian transpose, pseudoinverse and damped
least squares methods" (its damped least squares section), and Buss & Kim 2005, "Selectively
damped least squares for inverse kinematics" (clamping of the target distance). Neither is a
seed paper; DLS is the classical reference the seed solvers are compared against. Each update
linearises the end effector's position ``e`` in the joint parameters and takes the step

.. math::

    \\Delta\\theta = J^T (J J^T + \\lambda^2 I)^{-1} \\Delta e

With one end effector ``J J^T`` is 2 x 2 in 2-D and 3 x 3 in 3-D, so the system is solved
directly (Cramer's rule); ``lambda > 0`` keeps it positive definite, so no singular pose makes it
blow up.

Degrees of freedom and Jacobian columns
---------------------------------------
2-D: the relative joint angles; column ``j`` is ``z x (e - p_j)`` (``p_j`` the joint's position).
3-D: a ball joint has three, the angular velocities about the world axes, with columns
``x_k x (e - p_j)``; a hinge has one, its angle, with column ``w_j x (e - p_j)`` where ``w_j`` is
the hinge axis turned into the world by the parent link's frame. An update turns a ball joint by
the rotation vector ``omega_j`` (world axes, expressed in the parent frame taken at the
linearisation, then applied to the local quaternion) and a hinge by its angle about its axis;
then every joint is projected onto its limits by ``geometry.constrain_joint_3d`` (limits by
clamping). 2-D angles are clamped into ``[lo, hi]``.

Choices where the papers leave room
-----------------------------------
Damping. The option ``damping`` sets ``lambda_0 = damping * L`` (``L`` the chain's total length,
since ``J J^T`` scales as a length squared), default 0.1. Buss notes the constant must be tuned:
too small oscillates near singular poses, too large converges slowly. Two adjustments remove the
tuning: ``lambda^2 = lambda_0^2 * b * min(1, |Delta e| / D_max)``, i.e. the damping fades as the
error falls below the clamp distance (error-dependent damping, as in Levenberg-Marquardt variants),
so that the final approach converges like the pseudoinverse; and the factor ``b`` (from 1 up to
1e12) is multiplied by 4 after an update that increased the distance to the aim point and divided
by 4 (not below 1) after one that did not (Levenberg-Marquardt's rule). Without them a chain
reaching for an out-of-reach target oscillates about the straight pose indefinitely.
Clamping. The error is clamped to ``D_max = max_step * L`` per update (Buss & Kim's clamping),
default ``max_step = 0.2``; and, as in Buss's reference code (``MaxAngleDLS``), a step whose
largest joint rotation exceeds 45 degrees is scaled down to it.
Out of reach. For a target beyond ``L`` the error is measured to the point at distance ``L``
towards it (the target clamped onto the reachable ball) rather than to the target itself: the
residual then vanishes at the straight pose and DLS straightens the chain in tens of updates
instead of hundreds. A target inside the minimum reach of a chain without limits is met, with
``escape=1`` (the default), by folding the chain in one step (:mod:`geoik.solvers.escape`);
without it DLS approaches such targets slowly and usually ends at MAX_ITERATIONS.
Joints held at a limit. A 2-D joint or 3-D hinge sitting on a limit whose step would push it
further is removed from ``J`` and the step recomputed (its column would otherwise absorb part of
the step that the clamp then discards). Ball joints at their cone are only clamped.

Counting and stopping. One iteration is one update, recorded as one keyframe (capacity
``1 + max_iter``). Convergence is checked before the first update (0 iterations) and after each.
An update that moves the end effector by less than ``1e-12 * L``, or turns no joint by more than
``1e-12`` rad, is a stall: for instance a straight chain whose target lies on its own line, where
every column of ``J`` is perpendicular to ``Delta e`` (seed 004's CCD void has the same cause).
With ``escape=1`` (the default) a stall short of the target bends one joint by a fixed angle
within its limits, as that iteration's step, and the run goes on (at most
:data:`geoik.solvers.escape.ESCAPES` times); otherwise, or when no joint can bend, it ends
STALLED. A target beyond reach ends as CLOSEST once the end effector is within ``tol`` of the
point at distance ``L`` towards it. Default ``max_iter`` 100, as for CCD (seed 002's budget).

The folder: this module holds the kernels (:func:`dls_2d`, :func:`dls_3d`) and the solver;
``step.py`` the Jacobians and the damped step both kernels take (re-exported here).
"""

from __future__ import annotations

import math

import numpy as np
from numba import njit

from geoik.geometry import (
    MAX_ITERATIONS,
    REACHED,
    beyond_reach,
    clamp,
    constrain_joint_3d,
    copy_into,
    dist2,
    fk_2d,
    fk_3d,
    hinge_angle,
    is_hinge,
    parent_frame,
    q_angle,
    q_axis_angle,
    qmul,
    qnormalize,
    qrot,
    sq,
)
from geoik.solvers.base import Option, Solver, flag, positive
from geoik.solvers.dls.step import LAM_RANGE as LAM_RANGE  # the damped step's names
from geoik.solvers.dls.step import (
    clamped_error,
    damped_step,
    damping_now,
    dof_count_3d,
    jacobian_2d,
    jacobian_3d,
    next_boost,
    solve_damped,
)
from geoik.solvers.dls_general import BUDGET_GENERAL, dls_general
from geoik.solvers.dls_general import capacity as capacity_general
from geoik.solvers.escape import ESCAPE_HELP, ESCAPES, bend_2d, bend_3d, reach_out_2d, reach_out_3d
from geoik.solvers.stop import GO, record, verdict

MOVED = 1e-12
"""An update moving the end effector less than this times L, or no joint more (rad), stalls."""

MAX_ANGLE = math.pi / 4.0
"""Largest joint rotation of one update (Buss's ``MaxAngleDLS``)."""


AT_LIMIT = 1e-9
"""A hinge this close (rad) to a limit counts as sitting on it."""


@njit(cache=True, inline="always")
def _angle_step_2d(jac, angles, lo, hi, lam2, de, y, flags, free, dth):
    """One damped least-squares step ``dth`` (n,) of a planar chain's angles (radians) toward
    the aim ``de`` (2,), from its Jacobian ``jac`` (2, n) and ``lambda^2`` ``lam2``; ``y`` (3,)
    and ``flags`` (3, n) (active, blocked low, blocked high) are scratch. On a chain without
    limits (``free``) the first pass is the last, no joint sitting on a limit."""
    n = angles.shape[0]
    active, blocked_lo, blocked_hi = flags[0], flags[1], flags[2]
    if free:
        solve_damped(jac, active, lam2, de, y)
        for j in range(n):
            dth[j] = 0.0 + jac[0, j] * y[0] + jac[1, j] * y[1]
        return
    for j in range(n):
        blocked_lo[j] = angles[j] <= lo[j]
        blocked_hi[j] = angles[j] >= hi[j]
    damped_step(jac, blocked_lo, blocked_hi, lam2, de, y, active, dth)


@njit(cache=True, inline="always")
def _turn_by(angles, dth, lo, hi):
    """Add the step ``dth`` (n,) to ``angles`` (n,), scaled so that no joint turns by more than
    :data:`MAX_ANGLE` and each held within ``[lo, hi]``; returns the largest turn, radians."""
    n = angles.shape[0]
    biggest = 0.0
    for j in range(n):
        biggest = max(biggest, abs(dth[j]))
    scale = MAX_ANGLE / biggest if biggest > MAX_ANGLE else 1.0
    turned = 0.0
    for j in range(n):
        new = clamp(angles[j] + scale * dth[j], lo[j], hi[j])
        turned = max(turned, abs(new - angles[j]))
        angles[j] = new
    return turned


@njit(cache=True)
def dls_2d(model, target, angles, tol, max_iter, opts, rec):
    """Damped least squares on a planar chain (``kernel_2d`` of :class:`~geoik.solvers.Solver`;
    ``opts``: damping, max_step, escape). ``angles`` (n,) radians in and out; returns
    ``(status, iterations, nrec)``."""
    lengths, base, lo, hi = model
    n = lengths.shape[0]
    total = lengths.sum()
    lam0_2 = sq(opts[0] * total)
    boost = 1.0
    dmax = opts[1] * total
    escapes = ESCAPES if opts[2] != 0.0 else 0
    buf = np.empty(5 * n + 9)  # the kernel's scratch in two allocations, not nine
    pos = buf[: 2 * n + 2].reshape((n + 1, 2))
    jac = buf[2 * n + 2 : 4 * n + 2].reshape((2, n))
    dth = buf[4 * n + 2 : 5 * n + 2]
    de, y, outer = buf[5 * n + 2 : 5 * n + 4], buf[5 * n + 4 : 5 * n + 7], buf[5 * n + 7 :]
    flags = np.empty((3, n), dtype=np.bool_)  # active, blocked low, blocked high
    flags[0, :] = True
    free = True
    for j in range(n):
        free = free and lo[j] == -np.inf and hi[j] == np.inf
    is_beyond = beyond_reach(lengths, base, target, outer)
    aim = outer if is_beyond else target
    out_of_reach = is_beyond
    tol2 = tol * tol
    nrec = 1
    fk_2d(lengths, base, angles, pos)
    if dist2(pos[n], target) <= tol2:
        return REACHED, 0, nrec
    first = 1
    if escapes > 0 and max_iter > 0:
        case = reach_out_2d(lengths, base, lo, hi, target, angles, np.bool_(False), outer)
        if case != 0:
            fk_2d(lengths, base, angles, pos)
            nrec = record(rec, nrec, angles)
            code = verdict(pos[n], target, outer, tol2, True, False)
            if code != GO:
                return code, 1, nrec
            aim, first, out_of_reach = outer, 2, True
    for it in range(first, max_iter + 1):
        ex, ey = pos[n, 0], pos[n, 1]
        gap = clamped_error(pos[n], aim, dmax, de)
        lam2 = damping_now(lam0_2, boost, gap, dmax)
        jacobian_2d(pos, jac)
        _angle_step_2d(jac, angles, lo, hi, lam2, de, y, flags, free, dth)
        turned = _turn_by(angles, dth, lo, hi)
        fk_2d(lengths, base, angles, pos)
        moved2 = sq(pos[n, 0] - ex) + sq(pos[n, 1] - ey)
        still = turned <= MOVED or moved2 <= sq(MOVED * total)
        if still and escapes > 0 and bend_2d(angles, lo, hi, ESCAPES - escapes) >= 0:
            escapes -= 1  # the bend is this iteration's step
            fk_2d(lengths, base, angles, pos)
            still = False
        nrec = record(rec, nrec, angles)
        boost = next_boost(boost, gap * gap, dist2(pos[n], aim))
        code = verdict(pos[n], target, outer, tol2, out_of_reach, still)
        if code != GO:
            return code, it, nrec
    return MAX_ITERATIONS, max_iter, nrec


@njit(cache=True)
def hinge_blocks(quats, hinge, lo, hi, blocked_lo, blocked_hi):
    """Per degree of freedom: does it sit on its lower / upper limit (hinges only)."""
    col = 0
    for j in range(hinge.shape[0]):
        hx, hy, hz = hinge[j, 0], hinge[j, 1], hinge[j, 2]
        if hx != 0.0 or hy != 0.0 or hz != 0.0:
            phi = hinge_angle(quats[j, 0], quats[j, 1], quats[j, 2], quats[j, 3], hx, hy, hz)
            blocked_lo[col] = phi <= lo[j] + AT_LIMIT
            blocked_hi[col] = phi >= hi[j] - AT_LIMIT
            col += 1
        else:
            for k in range(3):
                blocked_lo[col + k] = False
                blocked_hi[col + k] = False
            col += 3


@njit(cache=True)
def apply_step_3d(dof, world, cone, hinge, lo, hi, quats):
    """Turn each joint by its step (scaled to at most MAX_ANGLE), then clamp it to its limits.

    ``world`` holds the frames the Jacobian was taken at. Returns the largest joint rotation.
    """
    n = hinge.shape[0]
    biggest = 0.0
    col = 0
    for j in range(n):
        if is_hinge(hinge, j):
            biggest = max(biggest, abs(dof[col]))
            col += 1
        else:
            biggest = max(biggest, math.sqrt(sq(dof[col]) + sq(dof[col + 1]) + sq(dof[col + 2])))
            col += 3
    scale = MAX_ANGLE / biggest if biggest > MAX_ANGLE else 1.0
    turned = 0.0
    col = 0
    for j in range(n):
        o0, o1, o2, o3 = quats[j, 0], quats[j, 1], quats[j, 2], quats[j, 3]
        hx, hy, hz = hinge[j, 0], hinge[j, 1], hinge[j, 2]
        if hx != 0.0 or hy != 0.0 or hz != 0.0:
            r0, r1, r2, r3 = q_axis_angle(hx, hy, hz, scale * dof[col])
            col += 1
        else:
            p0, p1, p2, p3 = parent_frame(j, world)
            wx, wy, wz = scale * dof[col], scale * dof[col + 1], scale * dof[col + 2]
            col += 3
            lx, ly, lz = qrot(p0, -p1, -p2, -p3, wx, wy, wz)
            a = math.sqrt(lx * lx + ly * ly + lz * lz)
            if a < 1e-300:
                continue
            r0, r1, r2, r3 = q_axis_angle(lx / a, ly / a, lz / a, a)
        q0, q1, q2, q3 = qmul(r0, r1, r2, r3, o0, o1, o2, o3)
        q0, q1, q2, q3 = constrain_joint_3d(q0, q1, q2, q3, j, cone, hinge, lo, hi)
        q0, q1, q2, q3 = qnormalize(q0, q1, q2, q3)
        d0, d1, d2, d3 = qmul(q0, q1, q2, q3, o0, -o1, -o2, -o3)
        turned = max(turned, q_angle(d0, d1, d2, d3))
        quats[j, 0], quats[j, 1], quats[j, 2], quats[j, 3] = q0, q1, q2, q3
    return turned


@njit(cache=True)
def dls_3d(model, target, quats, tol, max_iter, opts, rec):
    """Damped least squares on a 3-D chain (``kernel_3d`` of :class:`~geoik.solvers.Solver`;
    ``opts`` as for :func:`dls_2d`). ``quats`` (n, 4) local rotations in and out; returns
    ``(status, iterations, nrec)``."""
    lengths, base, cone, hinge, lo, hi = model
    n = lengths.shape[0]
    total = lengths.sum()
    lam0_2 = sq(opts[0] * total)
    boost = 1.0
    dmax = opts[1] * total
    escapes = ESCAPES if opts[2] != 0.0 else 0
    m = dof_count_3d(hinge)
    pos = np.empty((n + 1, 3))
    world = np.empty((n, 4))
    jac = np.empty((3, m))
    de, y = np.empty(3), np.empty(3)
    active = np.empty(m, dtype=np.bool_)
    blocked_lo = np.empty(m, dtype=np.bool_)
    blocked_hi = np.empty(m, dtype=np.bool_)
    dof = np.empty(m)
    end = np.empty(3)
    outer = np.empty(3)
    is_beyond = beyond_reach(lengths, base, target, outer)
    aim = outer if is_beyond else target
    out_of_reach = is_beyond
    tol2 = tol * tol
    nrec = 1
    fk_3d(lengths, base, quats, pos, world)
    if dist2(pos[n], target) <= tol2:
        return REACHED, 0, nrec
    first = 1
    if escapes > 0 and max_iter > 0:
        straighten = np.bool_(False)  # typed, not literal: one compiled reach_out_3d
        case = reach_out_3d(lengths, base, cone, hinge, lo, hi, target, quats, straighten, outer)
        if case != 0:
            fk_3d(lengths, base, quats, pos, world)
            nrec = record(rec, nrec, quats)
            code = verdict(pos[n], target, outer, tol2, True, False)
            if code != GO:
                return code, 1, nrec
            aim, first, out_of_reach = outer, 2, True
    for it in range(first, max_iter + 1):
        copy_into(end, pos[n])
        gap = clamped_error(end, aim, dmax, de)
        lam2 = damping_now(lam0_2, boost, gap, dmax)
        jacobian_3d(pos, world, hinge, jac)
        hinge_blocks(quats, hinge, lo, hi, blocked_lo, blocked_hi)
        damped_step(jac, blocked_lo, blocked_hi, lam2, de, y, active, dof)
        turned = apply_step_3d(dof, world, cone, hinge, lo, hi, quats)
        fk_3d(lengths, base, quats, pos, world)
        still = turned <= MOVED or dist2(pos[n], end) <= sq(MOVED * total)
        if still and escapes > 0 and bend_3d(quats, cone, hinge, lo, hi, ESCAPES - escapes) >= 0:
            escapes -= 1  # the bend is this iteration's step
            fk_3d(lengths, base, quats, pos, world)
            still = False
        nrec = record(rec, nrec, quats)
        boost = next_boost(boost, gap * gap, dist2(pos[n], aim))
        code = verdict(pos[n], target, outer, tol2, out_of_reach, still)
        if code != GO:
            return code, it, nrec
    return MAX_ITERATIONS, max_iter, nrec


SOLVER = Solver(
    name="dls",
    summary="Damped least squares on the Jacobian, target error clamped per iteration",
    source="Buss 2004 (damped least squares); Buss & Kim 2005 (clamping)",
    module=__name__,
    kernel_2d=dls_2d,
    kernel_3d=dls_3d,
    capacity=lambda n, max_iter: 1 + max_iter,
    kernel_general=dls_general,
    capacity_general=capacity_general,
    options=(
        Option(
            "damping", 0.1, "damping lambda as a fraction of the chain's length", check=positive
        ),
        Option(
            "max_step",
            0.2,
            "largest end-effector step per iteration, a fraction of the chain's length",
            check=positive,
        ),
        Option("escape", 1.0, f"{ESCAPE_HELP}; 0: off", check=flag),
    ),
    default_max_iter=100,
    # robots: the rare poses that need many restarts (see dls_general's module docstring)
    default_max_iter_general=BUDGET_GENERAL,
)
