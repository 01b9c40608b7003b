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
"""

from __future__ import annotations

import numpy as np
from numba import njit

from geoik.solvers.base import Solver
from geoik.solvers.ccd.lanes import ccd_2d_lanes
from geoik.solvers.ccd.lanes3d import ccd_3d_lanes


@njit(cache=True)
def ccd_2d(lengths, base, lo, hi, target, angles, tol, max_iter, opts, rec):
    """The registered 2-D kernel: :func:`ccd_2d_lanes` with one lane (see its module).

    ``angles`` and ``rec`` go to the lane kernel as one-lane views, so the final angles and the
    keyframes are written in place.
    """
    targets = np.empty((1, 2))
    targets[0, 0], targets[0, 1] = target[0], target[1]
    out = np.empty((3, 1), np.int64)  # keyframes used, status, sweeps
    end = np.empty((1, 2))
    ccd_2d_lanes(
        lengths,
        base,
        lo,
        hi,
        targets,
        angles[None, :],
        tol,
        max_iter,
        opts,
        rec[None, :, :],
        out[0],
        out[1],
        out[2],
        end,
        True,
    )
    nrec = out[0, 0]
    return out[1, 0], out[2, 0], nrec


@njit(cache=True)
def ccd_3d(lengths, base, cone, hinge, lo, hi, target, quats, tol, max_iter, opts, rec):
    """The registered 3-D kernel: :func:`ccd_3d_lanes` with one lane (see its module).

    ``quats`` and ``rec`` go to the lane kernel as one-lane views, so the final rotations and the
    keyframes are written in place.
    """
    targets = np.empty((1, 3))
    targets[0, 0], targets[0, 1], targets[0, 2] = target[0], target[1], target[2]
    out = np.empty((3, 1), np.int64)  # keyframes used, status, sweeps
    end = np.empty((1, 3))
    ccd_3d_lanes(
        lengths,
        base,
        cone,
        hinge,
        lo,
        hi,
        targets,
        quats[None, :, :],
        tol,
        max_iter,
        opts,
        rec[None, :, :, :],
        out[0],
        out[1],
        out[2],
        end,
        True,
    )
    return out[1, 0], out[2, 0], out[0, 0]


SOLVER = Solver(
    name="ccd",
    summary="Cyclic Coordinate Descent: joints turn one at a time from the end effector back",
    source="Müller-Cajar & Mukundan 2007, eqs. 1-2; Mukundan 2009, Section II",
    module=__name__,
    kernel_2d=ccd_2d,
    kernel_3d=ccd_3d,
    kernel_2d_lanes=ccd_2d_lanes,
    kernel_3d_lanes=ccd_3d_lanes,
    capacity=lambda n, max_iter: 1 + n * max_iter,
    default_max_iter=100,
)
