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

A hinge first joint fixes the plane its link turns in, so the pole does not apply: the solution
is computed in that plane instead (:func:`hinge_first_branch`; two hinges with non-parallel axes
have one solution, the sign of the elbow angle being set by the target's height along the first
axis, and ``elbow`` then only decides ties).

As the seed suggests, ``s`` is forced non-negative when the circles miss each other: a target
beyond reach (``c > r1 + r2``, ``c = |p|``) then gets the straight chain pointing at it, and one
inside the minimum reach (``c < |r1 - r2|``) the folded chain pointing towards it, in both cases
the closest reachable point (status CLOSEST). A target at the base keeps the first link's current
direction and folds the second back on it (no NaN; the direction is arbitrary there).

Limits
------
A ball first joint with a cone keeps its elbow on the circle of solutions but turns it about the
base-target line, as little as needed, into the cone (:func:`within_cone`); the pole then gives
the preferred side only. The ``elbow`` / ``pole`` branch is tried first; if it breaks a limit,
the mirror branch. If both do, each branch is clamped: the elbow angle to its nearer limit,
then the first joint turned to point the end effector at the target as far as its limits allow,
then the second joint re-aimed from where the elbow ended, each joint held to its limits (3-D:
``geometry.constrain_joint_3d``).
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

from geoik.geometry import PI, REACHED, copy_into, dist2, fit_angle, sq
from geoik.solvers.base import Option, Solver, sign
from geoik.solvers.two_bone.core import EXACT, elbow_direction, judge_kernel, unit_or_zero
from geoik.solvers.two_bone.spatial import two_bone_3d

# ----------------------------------------------------------------------------------------- 2-D


@njit(cache=True)
def end_error_2d(r1, r2, a0, a1, px, py):
    """The distance from the end of two links (``r1``, ``r2``) at absolute angle ``a0`` and
    relative angle ``a1`` (radians) to the point ``(px, py)`` (relative to the base)."""
    ex = r1 * math.cos(a0) + r2 * math.cos(a0 + a1)
    ey = r1 * math.sin(a0) + r2 * math.sin(a0 + a1)
    return math.sqrt(sq(ex - px) + sq(ey - py))


@njit(cache=True)
def branch_2d(r1, r2, px, py, side, angles, lo, hi):
    """(a0, a1) of one branch; clamped as the module docstring says if it breaks a limit."""
    ux, uy, _, c = unit_or_zero(np.array((px, py)))
    if c == 0.0:
        a0, a1 = angles[0], side * PI
    else:
        dx, dy, _ = elbow_direction(ux, uy, 0.0, -uy, ux, 0.0, c, r1, r2, side)
        a0 = math.atan2(dy, dx)
        a1 = math.atan2(py - r1 * dy, px - r1 * dx) - a0
    a0, ok0 = fit_angle(a0, angles[0], lo[0], hi[0])
    a1, ok1 = fit_angle(a1, angles[1], lo[1], hi[1])
    if ok0 and ok1:
        return a0, a1
    beta = math.atan2(r2 * math.sin(a1), r1 + r2 * math.cos(a1))
    a0 = fit_angle(math.atan2(py, px) - beta, angles[0], lo[0], hi[0])[0]
    ex, ey = r1 * math.cos(a0), r1 * math.sin(a0)
    a1 = fit_angle(math.atan2(py - ey, px - ex) - a0, angles[1], lo[1], hi[1])[0]
    return a0, a1


@njit(cache=True)
def two_bone_2d(model, target, angles, tol, max_iter, opts, rec):
    """Seed 001's closed form for two planar links: the kernel contract of
    :class:`~geoik.solvers.Solver` (``kernel_2d``; ``opts[0]`` the elbow, +1 or -1); the other elbow
    branch is taken when the asked one, held within the limits, misses the target by more.
    Returns ``(status, 1, nrec)``."""
    lengths, base, lo, hi = model
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
    nrec = min(2, rec.shape[0])  # a one-row record (no motion wanted) stays the start pose
    if nrec == 2:
        copy_into(rec[1, :], angles)
    end[0] = base[0] + r1 * math.cos(b0) + r2 * math.cos(b0 + b1)
    end[1] = base[1] + r1 * math.sin(b0) + r2 * math.sin(b0 + b1)
    return judge_kernel(end, base, target, r1, r2, tol), 1, nrec


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
    general_note=(
        "a geoik.Chain of exactly two links (two joints bending in the plane of the target)"
    ),
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
            "3-D only: a direction picking the bend plane, the elbow on its side (a hinge first "
            "joint fixes the plane instead)",
            size=3,
            check=_pole_check,
        ),
    ),
    default_max_iter=1,
    iterative=False,
    links=(2, 2),
)
