"""Cyclic Coordinate Descent (CCD).

Seed 000 (Müller-Cajar & Mukundan 2007), eqs. (1)-(2), and seed 002 (Mukundan 2009), Section II:
from the end effector back to the base, each joint turns so that the end effector meets the line
from the joint to the target; one such sweep is one iteration. Convergence is checked before the
first sweep (0 iterations) and after every full sweep, as in seed 002's counting.

Joint limits clamp each rotation (the joint stops at its limit). A 3-D hinge turns by the angle
between the projections of the end-effector and target vectors on the plane normal to its axis;
a 3-D ball joint turns about ``(e - p) x (t - p)`` and is then held inside its cone.

The sweep ends early as STALLED when no joint turns by more than 1e-12 rad (for instance a straight
chain with the target on its line, seed 004's void), and as CLOSEST when the target is beyond the
chain's length and the end effector is within ``tol`` of the nearest point of the sphere of that
radius.

Both kernels solve targets in lanes: :mod:`geoik.solvers.ccd.lanes` (2-D) and
:mod:`geoik.solvers.ccd.lanes3d` (3-D); :func:`ccd_2d` and :func:`ccd_3d` run them with one lane,
the batch engine with blocks of targets.

Option ``escape`` (default 0, the seeds' CCD, whose published figures show the void and the slow
approach to out-of-reach targets): with 1 the kernel leaves singular poses as
:mod:`geoik.solvers.escape` describes (a stall bends one joint, opposite vectors curl the chain
rather than fold it, targets out of reach take their closest pose in one step). In 3-D the lanes
run the seeds' CCD; with ``escape`` :func:`ccd_3d` runs :func:`ccd_3d_escape`, one target at a
time, and so does the batch engine (``Solver.lanes_for``).
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np
from numba import njit, types

from geoik.geometry import (
    MAX_ITERATIONS,
    PI,
    REACHED,
    STALLED,
    beyond_reach,
    clamp,
    constrain_joint_3d,
    copy_into,
    dist2,
    fk_3d,
    fk_3d_from,
    hinge_angle,
    parent_frame,
    q_angle,
    q_axis_angle,
    q_between,
    qmul,
    qnormalize,
    qrot,
)
from geoik.jit import parts
from geoik.solvers.base import Option, Solver, flag
from geoik.solvers.ccd.general import capacity as capacity_general
from geoik.solvers.ccd.general import ccd_general
from geoik.solvers.ccd.lanes import MOVED, ccd_2d_lanes, ccd_2d_lanes_plain
from geoik.solvers.ccd.lanes3d import ccd_3d_lanes
from geoik.solvers.escape import ESCAPE_BEND, ESCAPE_HELP, ESCAPES, bend_3d, reach_out_3d
from geoik.solvers.stop import GO, record, verdict


@njit(cache=True)
def ccd_2d(model, target, angles, tol, max_iter, opts, rec):
    """The registered 2-D kernel: :func:`ccd_2d_lanes` with one lane (see its module).

    The start angles and the first keyframe go to the lane kernel in one-lane arrays of its own,
    and the final angles and the keyframes it records come back into ``angles`` and ``rec``.
    """
    return _one_lane_2d(model, target, angles, tol, max_iter, opts, rec, False)


@njit(cache=True)
def ccd_2d_plain(model, target, angles, tol, max_iter, opts, rec):
    """:func:`ccd_2d` for ``escape`` off (``Solver.plain_for``): it runs
    :func:`ccd_2d_lanes_plain`, the lane kernel a map runs, so that a solve compiles no escape
    paths and a process that solves and maps compiles that lane kernel once."""
    return _one_lane_2d(model, target, angles, tol, max_iter, opts, rec, True)


@njit(cache=True, inline="always")
def _one_lane_2d(model, target, angles, tol, max_iter, opts, rec, plain):
    """:func:`ccd_2d`'s body; ``plain`` (a constant): the lane kernel without escape."""
    n, cap = angles.shape[0], rec.shape[0]
    targets = np.empty((1, 2))
    targets[0, 0], targets[0, 1] = target[0], target[1]
    out = np.empty((3, 1), np.int64)  # keyframes used, status, sweeps
    end = np.empty((1, 2))
    # one-lane arrays of the lane kernel's own types (C-contiguous, a typed flag), not [None]
    # views (layout A) and a literal True, nor reshapes (whose error message compiles numba's
    # string functions): the kernel then has the argument types the batch engine compiles it
    # for, and compiles once
    lane = np.empty((1, n))
    copy_into(lane[0], angles)
    keys = np.empty((1, cap, n))
    copy_into(keys[0, 0], rec[0])
    final = cap > 0
    lane_out = (out[0], out[1], out[2], end)
    if plain:
        ccd_2d_lanes_plain(model, targets, lane, tol, max_iter, opts, keys, lane_out, final)
    else:
        ccd_2d_lanes(model, targets, lane, tol, max_iter, opts, keys, lane_out, final)
    nrec = out[0, 0]
    copy_into(angles, lane[0])
    copy_into(rec[1:nrec], keys[0, 1:nrec])
    return out[1, 0], out[2, 0], nrec


@njit(cache=True)
def ccd_3d(model, target, quats, tol, max_iter, opts, rec):
    """The registered 3-D kernel: :func:`ccd_3d_lanes` with one lane (see its module), or
    :func:`ccd_3d_escape` when option ``escape`` is on.

    The start rotations and the first keyframe go to the lane kernel in one-lane arrays of its own
    (as in :func:`ccd_2d`), and the final rotations and the keyframes it records come back into
    ``quats`` and ``rec``.
    """
    if opts[0] != 0.0:
        return ccd_3d_escape(model, target, quats, tol, max_iter, opts, rec)
    return _one_lane_3d(model, target, quats, tol, max_iter, opts, rec)


@njit(cache=True)
def ccd_3d_plain(model, target, quats, tol, max_iter, opts, rec):
    """:func:`ccd_3d` for ``escape`` off (``Solver.plain_for``): the lane kernel only, so that a
    solve does not compile :func:`ccd_3d_escape` (4-5 s)."""
    return _one_lane_3d(model, target, quats, tol, max_iter, opts, rec)


@njit(cache=True, inline="always")
def _one_lane_3d(model, target, quats, tol, max_iter, opts, rec):
    """:func:`ccd_3d` without escape: :func:`ccd_3d_lanes` with one lane."""
    targets = np.empty((1, 3))
    targets[0, 0], targets[0, 1], targets[0, 2] = target[0], target[1], target[2]
    out = np.empty((3, 1), np.int64)  # keyframes used, status, sweeps
    end = np.empty((1, 3))
    n, cap = quats.shape[0], rec.shape[0]
    lane = np.empty((1, n, 4))  # the lane kernel's own types, as in ccd_2d
    copy_into(lane[0], quats)
    keys = np.empty((1, cap, n, 4))
    copy_into(keys[0, 0], rec[0])
    final = cap > 0
    lane_out = (out[0], out[1], out[2], end)
    ccd_3d_lanes(model, targets, lane, tol, max_iter, opts, keys, lane_out, final)
    nrec = out[0, 0]
    copy_into(quats, lane[0])
    for r in range(1, nrec):
        copy_into(rec[r], keys[0, r])
    return out[1, 0], out[2, 0], nrec


@njit(cache=True, inline="always")
def _turned_3d(j, model, frames, target, escape):
    """The local rotation one CCD step gives joint ``j``: the end effector turned toward
    ``target`` (3,) about the joint's hinge or, for a ball joint, by the shortest rotation, held
    within the joint's limits (with ``escape``, opposite vectors curl rather than fold).

    ``model`` is the chain's ``kernel_arrays`` and ``frames`` the pose ``(quats, world, pos)``:
    local and world rotations (n, 4) and joint positions (n + 1, 3). Returns ``(ok, q0, q1, q2,
    q3)``, the new local rotation (not normalised); ``ok`` False when the end effector or the
    target sits on the joint (no turn).
    """
    _, _, cone, hinge, lo, hi = model
    quats, world, pos = frames
    n = pos.shape[0] - 1
    ax, ay, az = pos[n, 0] - pos[j, 0], pos[n, 1] - pos[j, 1], pos[n, 2] - pos[j, 2]
    bx = target[0] - pos[j, 0]
    by = target[1] - pos[j, 1]
    bz = target[2] - pos[j, 2]
    p0, p1, p2, p3 = parent_frame(j, world)
    o0, o1, o2, o3 = quats[j, 0], quats[j, 1], quats[j, 2], quats[j, 3]
    hx, hy, hz = hinge[j, 0], hinge[j, 1], hinge[j, 2]
    if hx != 0.0 or hy != 0.0 or hz != 0.0:
        wx, wy, wz = qrot(p0, p1, p2, p3, hx, hy, hz)
        # signed angle about the hinge between the projections of a and b
        cx, cy, cz = ay * bz - az * by, az * bx - ax * bz, ax * by - ay * bx
        dot = ax * bx + ay * by + az * bz
        along_a = ax * wx + ay * wy + az * wz
        along_b = bx * wx + by * wy + bz * wz
        th = math.atan2(cx * wx + cy * wy + cz * wz, dot - along_a * along_b)
        if escape and abs(th) >= PI - MOVED:  # opposite: curl rather than fold
            th = PI - ESCAPE_BEND
        phi = clamp(hinge_angle(o0, o1, o2, o3, hx, hy, hz) + th, lo[j], hi[j])
        q0, q1, q2, q3 = q_axis_angle(hx, hy, hz, phi)
    else:
        na = math.sqrt(ax * ax + ay * ay + az * az)
        nb = math.sqrt(bx * bx + by * by + bz * bz)
        if na < 1e-300 or nb < 1e-300:
            return False, 1.0, 0.0, 0.0, 0.0
        r0, r1, r2, r3 = q_between(ax / na, ay / na, az / na, bx / nb, by / nb, bz / nb)
        if escape and r0 == 0.0:  # a half turn, the vectors opposite: curl, not fold
            r0, r1, r2, r3 = q_axis_angle(r1, r2, r3, PI - ESCAPE_BEND)
        # world rotation r, expressed in the parent frame: p^-1 r p
        l0, l1, l2, l3 = qmul(p0, -p1, -p2, -p3, r0, r1, r2, r3)
        l0, l1, l2, l3 = qmul(l0, l1, l2, l3, p0, p1, p2, p3)
        q0, q1, q2, q3 = qmul(l0, l1, l2, l3, o0, o1, o2, o3)
        q0, q1, q2, q3 = constrain_joint_3d(q0, q1, q2, q3, j, cone, hinge, lo, hi)
    return True, q0, q1, q2, q3


@njit(cache=True)
def ccd_3d_escape(model, target, quats, tol, max_iter, opts, rec):
    """3-D CCD one target at a time, forward kinematics redone after every update. With option
    ``escape`` it leaves singular poses (see :mod:`geoik.solvers.escape`): from each stall it
    bends one joint, opposite vectors curl the chain, a target beyond reach takes its closest
    pose in one step. Without, it is the seeds' CCD, which the tests hold the lanes to."""
    lengths, base, cone, hinge, lo, hi = model
    n = lengths.shape[0]
    pos = np.empty((n + 1, 3))
    world = np.empty((n, 4))
    outer = np.empty(3)
    is_beyond = beyond_reach(lengths, base, target, outer)
    tol2 = tol * tol
    escape = opts[0] != 0.0
    escapes = ESCAPES if escape else 0
    nrec = 1
    fk_3d(lengths, base, quats, pos, world)
    if dist2(pos[n], target) <= tol2:
        return REACHED, 0, nrec
    out_of_reach, first = is_beyond, 1
    frames = (quats, world, pos)
    case = 0
    if escapes > 0 and max_iter > 0:
        straighten = np.bool_(True)  # typed, not literal: one compiled reach_out_3d
        case = reach_out_3d(lengths, base, cone, hinge, lo, hi, target, quats, straighten, outer)
    if case != 0:
        fk_3d(lengths, base, quats, pos, world)
        nrec = record(rec, nrec, quats)
        code = verdict(pos[n], target, outer, tol2, True, False)
        if code != GO:
            return code, 1, nrec
        out_of_reach, first = True, 2
    for it in range(first, max_iter + 1):
        biggest = 0.0
        for j in range(n - 1, -1, -1):
            ok, q0, q1, q2, q3 = _turned_3d(j, model, frames, target, escape)
            if not ok:
                continue
            o0, o1, o2, o3 = quats[j, 0], quats[j, 1], quats[j, 2], quats[j, 3]
            q0, q1, q2, q3 = qnormalize(q0, q1, q2, q3)
            d0, d1, d2, d3 = qmul(q0, q1, q2, q3, o0, -o1, -o2, -o3)
            th = q_angle(d0, d1, d2, d3)
            if th <= MOVED:
                continue
            quats[j, 0], quats[j, 1], quats[j, 2], quats[j, 3] = q0, q1, q2, q3
            fk_3d_from(j, lengths, quats, pos, world)
            biggest = max(biggest, th)
            nrec = record(rec, nrec, quats)
        code = verdict(pos[n], target, outer, tol2, out_of_reach, biggest <= MOVED)
        if (
            code == STALLED
            and escapes > 0
            and (bend_3d(quats, cone, hinge, lo, hi, ESCAPES - escapes) >= 0)
        ):
            escapes -= 1  # bent: the next sweep goes on from there
            fk_3d(lengths, base, quats, pos, world)
            nrec = record(rec, nrec, quats)
        elif code != GO:
            return code, it, nrec
    return MAX_ITERATIONS, max_iter, nrec


def _parts_3d(sig: tuple[Any, ...]) -> list[tuple[Any, Any]]:
    """What compiling :func:`ccd_3d` for the argument types ``sig`` compiles: its escape kernel
    for the same types, and the lane kernel for those ``ccd_3d`` passes it (one lane)."""
    model, _, _, tol, max_iter, opts, _ = sig
    i64, f8 = types.Array(types.int64, 1, "C"), types.Array(types.float64, 2, "C")
    outputs = types.Tuple((i64, i64, i64, f8))
    a3, a4 = types.Array(types.float64, 3, "C"), types.Array(types.float64, 4, "C")
    lanes = (model, f8, a3, tol, max_iter, opts, a4, outputs, types.boolean)
    return [(ccd_3d_escape, sig), (ccd_3d_lanes, lanes)]


parts(ccd_3d, _parts_3d)


def _parts_3d_plain(sig: tuple[Any, ...]) -> list[tuple[Any, Any]]:
    """:func:`_parts_3d` for :func:`ccd_3d_plain`: the lane kernel only."""
    return _parts_3d(sig)[1:]


parts(ccd_3d_plain, _parts_3d_plain)

SOLVER = Solver(
    name="ccd",
    summary="Cyclic Coordinate Descent: joints turn one at a time from the end effector back",
    source="Müller-Cajar & Mukundan 2007, eqs. 1-2; Mukundan 2009, Section II",
    module=__name__,
    kernel_2d=ccd_2d,
    kernel_3d=ccd_3d,
    kernel_2d_plain=ccd_2d_plain,
    kernel_3d_plain=ccd_3d_plain,
    kernel_2d_lanes=ccd_2d_lanes,
    kernel_2d_lanes_plain=ccd_2d_lanes_plain,
    plain_for=lambda opts: opts[0] == 0.0,  # escape off: its paths compiled out
    kernel_3d_lanes=ccd_3d_lanes,
    lanes_for=lambda opts: opts[0] == 0.0,  # escape runs one target at a time in 3-D
    capacity=lambda n, max_iter: 1 + n * max_iter,
    kernel_general=ccd_general,
    capacity_general=capacity_general,
    options=(
        Option(
            "escape",
            0.0,
            f"{ESCAPE_HELP}; also straightens towards a target beyond reach in one step and "
            "turns opposite vectors by 180 - 5.7 degrees; 0: the seeds' CCD",
            check=flag,
        ),
    ),
    default_max_iter=100,
)
