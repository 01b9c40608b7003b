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
``0..k-1`` (seed 003 §4.1: ``[m_k, s_k]`` with ``m_k = max(0, 2 max l_i - s_k)`` and ``s_k =
sum l_i``, its minimum and maximum reach) and in ``[|D - l_k|, D + l_k]`` for the two circles to
meet. The two intervals always overlap: ``D`` lies in the reach of links ``0..k``, by induction
from the end effector, which is first clamped into the chain's annulus; so every target in the
annulus is reached exactly by an unconstrained chain, whatever ``R`` is taken in the overlap.

The seed's Fig. 4B takes ``R = s_k``, the sub-chain fully extended: from its straight start the
chain stays straight up to the joint next to the end effector and bends there alone. For a target
near the base that folds the outer links back over the inner ones (ten unit links reaching 2 from
the base fold by 180 degrees at one joint), against the seed's own claim (Section 6) that
overlapping joints or links are never produced; a finger started straight would bend at its last
joint only. Here ``R`` instead follows an even curl: the smooth circular arc of the
chain's length ``L`` from the base to the goal (central angle ``2x`` with ``sin(x) / x = g / L``,
:func:`curl_half_angle`) puts the point at arc length ``s_k`` at distance
``a_k = (L / x) sin(x s_k / L)`` (:func:`arc_distance`); ``R`` takes the same share of the
sub-chain's own safe-zone range, ``R = s_k - (s_k - a_k) (s_k - m_k) / s_k`` (equal to ``a_k``
when ``m_k = 0``; a sub-chain with one dominant link is not driven to its fully folded minimum),
clamped into the overlap above. Equal links then turn by nearly equal angles (ten unit links
reaching 2: every turn between 28.6 and 34.2 degrees), and a finger reaching a ball curls at all
three joints. The arc is computed once per placement (the root of ``sin(x) / x`` in four or five
Newton steps); the placement itself stays ``n - 2`` circle steps. Against ``R`` kept at the
joints' current distances, the even curl turns the joints far less; a pose may still cross
itself when its target lies near the base or at the edge of the minimum reach, where the smooth
arc and the chain of chords part most.

Which intersection. The two intersections are mirror images across the line from the base to
the child. A joint that lies off the line from the base to its child, in the current pose, by at
least a quarter of the offset its placement gives it (``KEEP`` in ``_circle_place``) keeps that
side: the bends the chain has keep their sense, so a leg whose knee bends forward still does
(frame to frame, a joint is near where it was placed, on its side). A joint nearly on that line
(a straight or slightly bent start) takes the chain's side: the side of the base-to-goal line on
which the current joints lie, their offsets summed, counter-clockwise on a tie (within
``1e-12 L``), seen in the working plane; a straight chain so curls one way, as the joints of an
arc do, rather than zigzag with the rounding of a nearly straight start.

3-D. As the paper's orthographic projections do (§3.3, Fig. 3), the placement is 2-D, in the
plane through the base and the (clamped) target that best contains the current chain: the plane
spanned by the base-to-target direction ``u`` and the principal direction, perpendicular to
``u``, of the current joints' offsets from the base (least squares). A chain lying on the line of
``u`` gives no direction; the plane then contains the component of +z perpendicular to ``u``
(+y when ``u`` is along z), so a chain and target in the xy-plane stay there. Current positions
are projected orthographically into the plane to choose the sides.

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
    constrain_joint_3d,
    copy_into,
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
from geoik.solvers.circles.place import BEYOND, IN_REACH, TINY, place_chain


@njit(cache=True)
def angles_toward_2d(lengths, base, lo, hi, placed, angles):
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
def quats_toward_3d(lengths, base, cone, hinge, lo, hi, placed, quats, pos, world):
    """Set local rotations, base to tip, pointing each link at its placed child within limits;
    ``pos`` and ``world`` receive the resulting forward kinematics."""
    copy_into(pos[0, :], base)
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
def _verdict(code, end, target, goal, tol, n):
    """(status, iterations) of a placement, judged on the end effector's final position."""
    steps = 1 if code == BEYOND else max(1, n - 1)
    tol2 = tol * tol
    if dist2(end, target) <= tol2:
        return REACHED, steps
    if code != IN_REACH and dist2(end, goal) <= tol2:
        return CLOSEST, steps
    return STALLED, steps


@njit(cache=True)
def circles_2d(model, target, angles, tol, max_iter, opts, rec):
    """Seed 003's intersection of circles on a planar chain (``kernel_2d`` of
    :class:`~geoik.solvers.Solver`): one pass placing the joints from the end effector back to
    the base (:func:`~geoik.solvers.circles.place.place_chain`). ``angles`` (n,) radians in and
    out; returns ``(status, iterations, nrec)``."""
    lengths, base, lo, hi = model
    n = lengths.shape[0]
    cur = np.empty((n + 1, 2))
    fk_2d(lengths, base, angles, cur)
    if dist2(cur[n], target) <= tol * tol:
        return REACHED, 0, 1
    placed = np.empty((n + 1, 2))
    code = place_chain(lengths, cur, target, placed)
    angles_toward_2d(lengths, base, lo, hi, placed, angles)
    nrec = min(2, rec.shape[0])  # a one-row record (no motion wanted) stays the start pose
    if nrec == 2:
        copy_into(rec[1, :], angles)
    fk_2d(lengths, base, angles, cur)
    status, steps = _verdict(code, cur[n], target, placed[n], tol, n)
    return status, steps, nrec


@njit(cache=True)
def circles_3d(model, target, quats, tol, max_iter, opts, rec):
    """Seed 003's intersection of circles on a 3-D chain (``kernel_3d`` of
    :class:`~geoik.solvers.Solver`): the joints placed as in 2-D, then each joint turned toward
    its placed link within its cone or hinge. ``quats`` (n, 4) local rotations in and out;
    returns ``(status, iterations, nrec)``."""
    lengths, base, cone, hinge, lo, hi = model
    n = lengths.shape[0]
    cur = np.empty((n + 1, 3))
    world = np.empty((n, 4))
    fk_3d(lengths, base, quats, cur, world)
    if dist2(cur[n], target) <= tol * tol:
        return REACHED, 0, 1
    placed = np.empty((n + 1, 3))
    code = place_chain(lengths, cur, target, placed)
    quats_toward_3d(lengths, base, cone, hinge, lo, hi, placed, quats, cur, world)
    nrec = min(2, rec.shape[0])
    if nrec == 2:
        copy_into(rec[1, :, :], quats)
    status, steps = _verdict(code, cur[n], target, placed[n], tol, n)
    return status, steps, nrec


SOLVER = Solver(
    name="circles",
    summary="Intersection of circles: interior joints placed from the end effector back in n - 2 "
    "steps, curling evenly",
    source="Srinivasan & John 2013 (seed 003), Section 4, Appendix 1 (circles reconstructed, R "
    "from an even curl; see notes)",
    module=__name__,
    kernel_2d=circles_2d,
    kernel_3d=circles_3d,
    capacity=lambda n, max_iter: 2,
    general_note=(
        "a geoik.Chain (or a geoik.Skeleton): it places joints on circles of fixed link "
        "lengths about free joints"
    ),
    default_max_iter=1,
    iterative=False,
)
