"""Triangulation: one pass from the root to the tip, each joint closing a triangle.

Seed 000 (Müller-Cajar & Mukundan 2007), §3 and Algorithm 1. Joint i sees its link (length a),
the rest of the chain as one side of length b and the target at distance c. It turns its link to
the angle ``δb = acos((a² + c² − b²) / 2ac)`` (eq. 5) from the target vector, turning by
``θ = acos(â · ĉ) − δb`` (eq. 6) about ``r = a × c`` (eq. 7), so the link stays on the side of the
target vector it was on. Every joint turns at most once, root first; the pass is one iteration
(0 iterations when the start pose already reaches the target).

Special cases (§3.1):

* undefined axis (a parallel to c, §3.1.1): the axis of the previous joint's turn, else a fixed
  one, +z made perpendicular to the link (+y when the link is near z). The paper names the
  vertical y axis; +z keeps a chain lying in the xy-plane in that plane, as the 2-D kernel's
  counter-clockwise default does (the 2-D axis is ±z: the previous turn's sense, else +z).
* full triangle formed (§3.1.2): once a joint has closed its triangle, every later link points
  at the target (the rest straightens towards it; it is already straight in the ideal case, so
  only the first two joints turn).
* c ≥ a + b: the link points at the target.
* c < |a − b| with b > a: δb = 180°, the link points away from the target ("a = −c", eq. 8), so
  the next joint sees c + a. With a > b the paper has no solution; the link then points at the
  target, the closest this joint can bring the tip (for a free chain and a target inside its
  minimum reach this ends on the nearest point of the minimum-reach circle).
* a target at the joint itself leaves that joint unturned (no direction to aim at).

Constrained variant (§3.1.3, §3.2): when any joint after the first is limited, b is the length of
the rest of the chain fully collapsed under its limits (``_triangle.collapsed_lengths``, computed
once per solve; in 3-D each ball joint bends within ±cone and each hinge within [lo, hi], as if the
chain were planar), so the far cases above become "point at the target" as soon as
``c ≥ a + b_collapsed`` and the triangle is closed with the collapsed length. Each turn is held in
the joint's limits relative to the preceding link. Choices where the paper is silent: in 2-D, and
for 3-D hinges, when the triangle's own side breaks a limit and the mirror side does not, the
mirror side is taken; a 3-D hinge turns its link onto the cone of half-angle δb about c where its
circle of motion meets it (else as near as it can); a ball joint's turn is projected into its cone
with ``geometry.constrain_joint_3d``, and a ball joint followed by a hinge also twists its link so
that hinge's axis is normal to the plane of the link and the target (a shoulder then aims the
elbow's plane at the target; hinges with parallel axes keep the rest in that plane). The paper
has no hinges (its §7 lists them as future work); hinges with skewed axes may miss. With limits
the pass may miss; the status then says so. The seed's chain B (18, 18, 4; elbow 126, wrist 90
degrees) reaches every target within its reach (``tests/test_triangulation.py``); the tighter
the limits of a long chain, the more targets the pass misses. With tight limits a triangle
closed with the collapsed ``b`` asks the rest to curl fully, and once a clamped turn leaves a
triangle open the joints after it keep the side of their own target vectors, which no longer
curls the rest the same way.
"""

from __future__ import annotations

import math

import numpy as np
from numba import njit

from geoik.geometry import (
    PI,
    REACHED,
    beyond_reach,
    copy_into,
    dist2,
    fk_2d,
    fk_3d,
    fk_3d_from,
    is_hinge,
    qrot,
    wrap,
)
from geoik.solvers._triangle import (
    MOVED,
    TINY,
    collapsed_lengths,
    finish,
    law_of_cosines,
    limit_angle,
    planar_bounds,
    side_axis,
    side_turn_2d,
    turn_hinge_onto_cone,
    turn_world_3d,
    unit,
)
from geoik.solvers.base import Solver

FORMED = 1e-9


@njit(cache=True)
def rest_lengths(lengths, lo, hi, out):
    """Fill ``out[i]`` with joint i's b; return True for the constrained variant.

    b is the straight length of links i + 1.. when joints 1.. are all free, else their fully
    collapsed length (seed 000 §3.1.3).
    """
    n = lengths.shape[0]
    constrained = False
    for j in range(1, n):
        if math.isfinite(lo[j]) or math.isfinite(hi[j]):
            constrained = True
    if constrained:
        collapsed_lengths(lengths, lo, hi, out)
        return True
    s = 0.0
    for i in range(n - 1, -1, -1):
        out[i] = s
        s += lengths[i]
    return False


@njit(cache=True)
def target_angle(a, b, c, formed):
    """(δb, triangle closed): the angle the link should make with the target vector."""
    if formed or c >= a + b:
        return 0.0, False
    if c < abs(a - b):
        return (PI if b > a else 0.0), False
    return law_of_cosines(a, b, c), True


@njit(cache=True)
def triangulation_2d(model, target, angles, tol, max_iter, opts, rec):
    """Seed 000's triangulation on a planar chain (``kernel_2d`` of
    :class:`~geoik.solvers.Solver`): each joint from the root by the law of cosines, one pass.
    ``angles`` (n,) radians in and out; returns ``(status, iterations, nrec)``."""
    lengths, base, lo, hi = model
    n = lengths.shape[0]
    pos = np.empty((n + 1, 2))
    outer = np.empty(2)
    is_beyond = beyond_reach(lengths, base, target, outer)
    fk_2d(lengths, base, angles, pos)
    if dist2(pos[n], target) <= tol * tol:
        return REACHED, 0, 1
    bs = np.empty(n)
    constrained = rest_lengths(lengths, lo, hi, bs)
    # formed typed: a literal False would compile target_angle once more
    nrec, side, formed, heading = 1, 1.0, np.bool_(False), 0.0
    for i in range(n):
        cx, cy = target[0] - pos[i, 0], target[1] - pos[i, 1]
        c = math.sqrt(cx * cx + cy * cy)
        delta, closes = target_angle(lengths[i], bs[i], c, formed)
        if c > TINY:
            psi = math.atan2(cy, cx)
            alpha = wrap(psi - (heading + angles[i]))
            theta, s = side_turn_2d(alpha, delta, side)
            old = angles[i]
            want = old + wrap(theta)
            new = limit_angle(want, lo[i], hi[i])
            if new != want and 0.0 < delta < PI:
                mirror = old + wrap(alpha + s * delta)
                if limit_angle(mirror, lo[i], hi[i]) == mirror:
                    new, s = mirror, -s
            if abs(new - old) > MOVED:
                angles[i] = new
                side = s
                if nrec < rec.shape[0]:
                    copy_into(rec[nrec, :], angles)
                    nrec += 1
            if closes and not constrained:
                formed = abs(abs(wrap(psi - heading - angles[i])) - delta) <= FORMED
        heading += angles[i]
        pos[i + 1, 0] = pos[i, 0] + lengths[i] * math.cos(heading)
        pos[i + 1, 1] = pos[i, 1] + lengths[i] * math.sin(heading)
    return finish(pos, target, outer, is_beyond, tol), 1, nrec


@njit(cache=True)
def triangulation_3d(model, target, quats, tol, max_iter, opts, rec):
    """Seed 000's triangulation on a 3-D chain (``kernel_3d`` of
    :class:`~geoik.solvers.Solver`): each joint from the root turned to the angle the law of
    cosines gives toward the target, within its cone or hinge. ``quats`` (n, 4) local rotations
    in and out; returns ``(status, iterations, nrec)``."""
    lengths, base, cone, hinge, lo, hi = model
    n = lengths.shape[0]
    pos = np.empty((n + 1, 3))
    world = np.empty((n, 4))
    outer = np.empty(3)
    is_beyond = beyond_reach(lengths, base, target, outer)
    fk_3d(lengths, base, quats, pos, world)
    if dist2(pos[n], target) <= tol * tol:
        return REACHED, 0, 1
    lo2 = np.empty(n)
    hi2 = np.empty(n)
    planar_bounds(cone, hinge, lo, hi, lo2, hi2)
    bs = np.empty(n)
    constrained = rest_lengths(lengths, lo2, hi2, bs)
    nrec, formed = 1, np.bool_(False)  # typed, as in triangulation_2d
    kx, ky, kz = 0.0, 0.0, 0.0  # the previous turn's axis; none yet
    for i in range(n):
        cx, cy, cz, c = unit(target[0] - pos[i, 0], target[1] - pos[i, 1], target[2] - pos[i, 2])
        delta, closes = target_angle(lengths[i], bs[i], c, formed)
        if c <= TINY:
            continue
        ux, uy, uz = qrot(world[i, 0], world[i, 1], world[i, 2], world[i, 3], 1.0, 0.0, 0.0)
        if is_hinge(hinge, i):
            moved = turn_hinge_onto_cone(i, (ux, uy, uz), (cx, cy, cz), delta, quats, world, model)
        else:
            ax, ay, az, ang = side_axis(ux, uy, uz, cx, cy, cz, kx, ky, kz)
            moved = turn_world_3d(
                i, (ax, ay, az), ang - delta, target - pos[i], quats, world, model
            )
            if moved > 0.0:
                kx, ky, kz = ax, ay, az
        if moved > 0.0:
            fk_3d_from(i, lengths, quats, pos, world)
            if nrec < rec.shape[0]:
                copy_into(rec[nrec, :, :], quats)
                nrec += 1
        if closes and not constrained:
            vx, vy, vz = qrot(world[i, 0], world[i, 1], world[i, 2], world[i, 3], 1.0, 0.0, 0.0)
            rx, ry, rz = vy * cz - vz * cy, vz * cx - vx * cz, vx * cy - vy * cx
            got = math.atan2(math.sqrt(rx * rx + ry * ry + rz * rz), vx * cx + vy * cy + vz * cz)
            formed = abs(got - delta) <= FORMED
    return finish(pos, target, outer, is_beyond, tol), 1, nrec


SOLVER = Solver(
    name="triangulation",
    summary="Triangulation: root to tip in one pass, each joint closing a law-of-cosines triangle",
    source="Müller-Cajar & Mukundan 2007 (seed 000), §3, eqs. 5-8, Algorithm 1 "
    "(constrained: §3.1.3)",
    module=__name__,
    kernel_2d=triangulation_2d,
    kernel_3d=triangulation_3d,
    capacity=lambda n, max_iter: 1 + n,
    general_note="a geoik.Chain: it closes triangles of links that point along their joints' +x",
    default_max_iter=1,
    iterative=False,
)
