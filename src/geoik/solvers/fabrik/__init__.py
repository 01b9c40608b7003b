"""Forward And Backward Reaching Inverse Kinematics (FABRIK).

Aristidou & Lasenby 2011, "FABRIK: a fast, iterative solver for the Inverse Kinematics problem",
Algorithm 1 (cited by seed 003 as [AL11]). Joint positions are moved along lines instead of
turning joints: a link of length ``d`` is re-placed between a fixed point ``a`` and a desired
point ``b`` as ``a + d (b - a) / |b - a|``, the paper's ``(1 - lambda) a + lambda b`` with
``lambda = d / |b - a|``.

One iteration is one pass from the tip to the base, the end effector first set on the target and
each joint pulled onto the line to its old position, followed by one pass from the base (put back
in place) to the tip, each joint pulled onto the line to the point the first pass produced. The
paper names these "forward reaching" and "backward reaching"; here they are called by the way they
travel: ``backward_*`` (tip to base) and ``forward_*`` (base to tip). Convergence is checked before
the first iteration (0 iterations when the end effector already lies within ``tol``) and after
each iteration, as in Algorithm 1's ``while dif_A > tol`` loop.

Choices where the paper leaves room
-----------------------------------
Joint limits. The paper enforces joint restrictions inside both passes by re-orienting each
newly placed joint into a cone built on the neighbouring link, with positions as the state, so
lengths and limits hold only as far as the last re-positioning. Here the kernel's state is the
joints' rotations (2-D relative angles, 3-D local quaternions) and positions are always forward
kinematics of it, so link lengths and limits are exact by construction (what the wrapper's
invariants demand). Limits are enforced in the base-to-tip pass, where the parent link's frame is
known: each joint takes the direction towards the point the tip-to-base pass produced and is set
to the nearest rotation its limits allow (2-D: the relative angle clamped into ``[lo, hi]``, to
the angularly nearer limit; 3-D: ``geometry.joint_quat_toward``, which projects onto the hinge
plane or into the cone). The tip-to-base pass keeps the paper's re-orientation as a guide only:
link ``i`` is turned so that joint ``i + 1``'s angle to the link placed before it respects
``i + 1``'s limits. In 3-D this pass carries a frame per link from the tip down (the tip link's
current frame turned by the minimal rotation onto its new direction; ball joints without twist,
as ``joint_quat_toward`` sets them), so hinge axes are taken in the right frame. Without that
guide a limited chain drifts to points its joints cannot follow and stalls far more often.

Twist. Positions carry no twist, but a ball joint's twist decides the plane in which a hinge
after it can bend. In the base-to-tip pass a ball joint followed by a hinge therefore takes the
twist that puts the hinge's axis normal to the plane of its own link and the direction from the
hinge to the next point the tip-to-base pass produced (the sign whose hinge angle fits the
hinge's limits), as ``two_bone`` does for a shoulder and an elbow; without it FABRIK reaches no
shoulder-and-elbow arm (``tests/test_fabrik.py``), and ``benchmarks/limited_3d.py`` prints its
share of reachable targets reached on random 3-D chains mixing cones and hinges. What remains
hard is a chain of hinges only, with non-parallel axes: FABRIK then often ends STALLED or
MAX_ITERATIONS where a rotation-based solver (``ccd``, ``dls``) gets there.

Out of reach. As in Algorithm 1, a target farther from the base than the chain's total length is
met by straightening the chain towards it in one pass (each joint points at the target), counted
as one iteration; an unconstrained chain is then at the closest reachable point and the kernel
returns CLOSEST. A limited chain does that pass as far as its limits allow and, if not at the
closest point, goes on with ordinary iterations; ``geoik.solve`` judges the final status.
With ``escape=1`` (the default) a target inside the minimum reach of a chain without limits
folds the chain onto its line in one step, the closest reachable pose (CLOSEST; see
:mod:`geoik.solvers.escape`).

Degenerate geometry. A zero-length direction (two coincident points) keeps the link's previous
direction: in the tip-to-base pass the link's direction in the pose the iteration started from,
in the base-to-tip pass the joint's current rotation. A chain lying on one line with the target
(a straight chain and a target on its line) stays on that line, where the target generally
cannot be met: the iterations stall. A target behind a straight chain on its line is such a
case after one iteration, which turns the chain straight towards it.

Stalling. An iteration that moves the end effector by less than ``1e-12`` times the chain's
length is a stall (for instance when limits block progress, or on the line above). With
``escape=1`` (the default) a stall short of the target takes one escape step, and the
iterations go on (at most :data:`geoik.solvers.escape.ESCAPES` times;
:mod:`geoik.solvers.escape`); otherwise, or when no joint can bend, the run ends STALLED. A
straight chain with the target strictly inside its length lands on it
(:func:`~geoik.solvers.escape.land_2d` / ``land_3d``): one joint bends by the angle that puts
the end effector at the target's distance from the base (law of cosines over the two straight
parts) and joint 0 turns the chain onto the target, within their limits. Any other stall bends
one joint by a fixed angle within its limits. The fixed bend alone left FABRIK far from such a
target: on ten links of 2 with the target at (-19.99, 0), the end effector went from 0.01 to 1.0
off it, and near full extension FABRIK closes a gap slowly (error 0.012 after 100 iterations,
within ``tol`` after over 400). Targets near full extension off the chain's line stay slow for
the same reason (``(0, 19.99)`` from rest: error 0.086 after 100 iterations), where ``dls`` and
``circles`` reach them.

Motion. One keyframe per iteration (the pose after the base-to-tip pass), so the capacity is
``1 + max_iter`` and the last keyframe is the final state.
"""

from __future__ import annotations

import math

import numpy as np
from numba import njit

from geoik.geometry import (
    CLOSEST,
    MAX_ITERATIONS,
    PI,
    beyond_reach,
    clamp,
    copy_into,
    dist2,
    fit_angle,
    fk_3d,
    is_hinge,
    joint_quat_toward,
    q_axis_angle,
    q_between,
    qmul,
    qnormalize,
    qrot,
    sq,
    total_length,
    wrap,
)
from geoik.solvers.base import Option, Solver, flag
from geoik.solvers.escape import (
    ESCAPE_HELP,
    ESCAPES,
    bend_2d,
    bend_3d,
    land_2d,
    land_3d,
    reach_out_2d,
    reach_out_3d,
)
from geoik.solvers.fabrik.tree import fabrik_tree
from geoik.solvers.stop import GO, record, verdict

__all__ = ["SOLVER", "fabrik_2d", "fabrik_3d", "fabrik_tree"]

MOVED = 1e-12
"""An iteration moving the end effector less than this times the chain's length has stalled."""

TINY = 1e-300
"""Directions shorter than this are taken as zero-length."""


# ----------------------------------------------------------------------------------------- 2-D


@njit(cache=True)
def backward_2d(lengths, lo, hi, px, py, tx, ty, qx, qy):
    """Tip-to-base pass: end effector on the target, each joint pulled towards its old place.

    Link ``i`` is then turned, if need be, so that joint ``i + 1``'s angle to the link placed
    before it lies in its limits (the paper's reorientation, an approximation here).
    """
    n = lengths.shape[0]
    qx[n], qy[n] = tx, ty
    for i in range(n - 1, -1, -1):
        dx, dy = px[i] - qx[i + 1], py[i] - qy[i + 1]
        r = math.sqrt(dx * dx + dy * dy)
        if r < TINY:
            # coincident: keep the link's direction in the pose the iteration started from
            dx, dy = px[i] - px[i + 1], py[i] - py[i + 1]
            r = lengths[i]
        dx, dy = dx / r, dy / r
        k = i + 1
        if k < n and math.isfinite(lo[k]) and math.isfinite(hi[k]):
            au = math.atan2(-dy, -dx)
            av = math.atan2(qy[k + 1] - qy[k], qx[k + 1] - qx[k])
            rel = wrap(av - au)
            ok = fit_angle(rel, rel, lo[k], hi[k])[0]
            if ok != rel:
                dx, dy = -math.cos(av - ok), -math.sin(av - ok)
        qx[i] = qx[i + 1] + lengths[i] * dx
        qy[i] = qy[i + 1] + lengths[i] * dy


@njit(cache=True)
def forward_2d(lengths, lo, hi, qx, qy, angles, px, py):
    """Base-to-tip pass: each joint turns towards ``q[i + 1]`` as far as its limits allow.

    ``px[0], py[0]`` is the base; positions ``p[1:]`` are recomputed from the new angles. A free
    joint's link is laid along the unit vector towards ``q[i + 1]`` (no cos/sin), a limited
    one's at its fitted angle.
    """
    a = 0.0  # the absolute angle of the link placed last
    for i in range(lengths.shape[0]):
        dx, dy = qx[i + 1] - px[i], qy[i + 1] - py[i]
        r2 = dx * dx + dy * dy
        free = lo[i] == -np.inf and hi[i] == np.inf
        if r2 > 0.0 and free:
            direction = math.atan2(dy, dx)
            angles[i] = fit_angle(direction - a, angles[i], lo[i], hi[i])[0]
            a = direction
            r = math.sqrt(r2)
            px[i + 1] = px[i] + lengths[i] * (dx / r)
            py[i + 1] = py[i] + lengths[i] * (dy / r)
            continue
        if r2 > 0.0:
            rel = wrap(math.atan2(dy, dx) - a)
            angles[i] = fit_angle(rel, angles[i], lo[i], hi[i])[0]
        a += angles[i]
        px[i + 1] = px[i] + lengths[i] * math.cos(a)
        py[i + 1] = py[i] + lengths[i] * math.sin(a)


@njit(cache=True)
def _place_2d(lengths, angles, px, py):
    """Joint positions ``p[1:]`` from the angles, ``p[0]`` being the base."""
    a = 0.0
    for i in range(lengths.shape[0]):
        a += angles[i]
        px[i + 1] = px[i] + lengths[i] * math.cos(a)
        py[i + 1] = py[i] + lengths[i] * math.sin(a)


@njit(cache=True)
def fabrik_2d(model, target, angles, tol, max_iter, opts, rec):
    """FABRIK on a planar chain (``kernel_2d`` of :class:`~geoik.solvers.Solver`; ``opts``:
    escape), joints held within their limits on each pass. ``angles`` (n,) radians in and out;
    returns ``(status, iterations, nrec)``."""
    lengths, base, lo, hi = model
    n = lengths.shape[0]
    scratch = np.empty((6, n + 1))  # one allocation: px, py, qx, qy, the points outer and end
    px, py, qx, qy, outer = scratch[0], scratch[1], scratch[2], scratch[3], scratch[4, :2]
    end = scratch[5, :2]
    tx, ty = target[0], target[1]
    is_beyond = beyond_reach(lengths, base, target, outer)
    tol2 = tol * tol
    still2 = sq(MOVED * total_length(lengths))
    escapes = ESCAPES if opts[0] != 0.0 else 0
    nrec = 1

    px[0], py[0] = base[0], base[1]
    _place_2d(lengths, angles, px, py)
    end[0], end[1] = px[n], py[n]
    code = verdict(end, target, outer, tol2, is_beyond, False)
    if code != GO:
        return code, 0, nrec
    out_of_reach, first = is_beyond, 1
    case = 0
    if escapes > 0 and max_iter > 0:  # a fold inside the minimum reach (FABRIK straightens)
        case = reach_out_2d(lengths, base, lo, hi, target, angles, np.bool_(False), outer)
    if case != 0:
        _place_2d(lengths, angles, px, py)
        nrec = record(rec, nrec, angles)
        if sq(px[n] - outer[0]) + sq(py[n] - outer[1]) <= tol2:
            return CLOSEST, 1, nrec
        out_of_reach, first = True, 2
    for it in range(first, max_iter + 1):
        ex, ey = px[n], py[n]
        if is_beyond and it == 1:
            qx.fill(tx)  # straighten: every joint points at the target
            qy.fill(ty)
        else:
            backward_2d(lengths, lo, hi, px, py, tx, ty, qx, qy)
        forward_2d(lengths, lo, hi, qx, qy, angles, px, py)
        still = sq(px[n] - ex) + sq(py[n] - ey) <= still2
        if still and escapes > 0:
            k = ESCAPES - escapes
            if land_2d(lengths, base, lo, hi, target, angles, px[n], py[n], k) >= 0 or (
                bend_2d(angles, lo, hi, k) >= 0
            ):
                escapes -= 1  # the bend is this iteration's step
                _place_2d(lengths, angles, px, py)
                still = False
        nrec = record(rec, nrec, angles)
        end[0], end[1] = px[n], py[n]
        code = verdict(end, target, outer, tol2, out_of_reach, still)
        if code != GO:
            return code, it, nrec
    return MAX_ITERATIONS, max_iter, nrec


# ----------------------------------------------------------------------------------------- 3-D


@njit(cache=True)
def parent_in_child(k, bx, by, bz, cone, hinge, lo, hi):
    """Inverse of joint ``k``'s local rotation putting its parent link as near the direction
    ``b`` (a unit vector in link ``k``'s frame) as the joint's limits allow.

    A hinge turns about its axis only, so ``b`` is projected on the plane normal to it and the
    hinge angle clamped; a ball joint turns without twist (as ``joint_quat_toward`` sets it),
    with ``b`` held inside the cone about +x.
    """
    hx, hy, hz = hinge[k, 0], hinge[k, 1], hinge[k, 2]
    if hx != 0.0 or hy != 0.0 or hz != 0.0:
        # signed angle about h from +x to b; the joint's angle is minus that
        phi = clamp(-math.atan2(hz * by - hy * bz, bx), lo[k], hi[k])
        return q_axis_angle(hx, hy, hz, -phi)
    c = cone[k]
    s = math.sqrt(by * by + bz * bz)
    if c < PI and math.atan2(s, bx) > c:
        if s < 1e-12:
            by, bz, s = 0.0, 1.0, 1.0  # opposite: bend about +z, as q_between does
        bx, by, bz = math.cos(c), math.sin(c) * by / s, math.sin(c) * bz / s
    return q_between(1.0, 0.0, 0.0, bx, by, bz)


@njit(cache=True)
def backward_3d(lengths, cone, hinge, lo, hi, pos, world, target, q):
    """Tip-to-base pass in 3-D; ``q`` (n + 1, 3) receives the joints' desired points.

    ``pos`` and ``world`` describe the pose the iteration started from. The pass carries a frame
    for each link, from the tip link (its current frame turned by the minimal rotation onto its
    new direction) down to the base, each parent frame obtained through ``parent_in_child``, so
    that every joint but the first meets its limits.
    """
    n = lengths.shape[0]
    copy_into(q[n, :], target)
    f0, f1, f2, f3 = world[n - 1, 0], world[n - 1, 1], world[n - 1, 2], world[n - 1, 3]
    for i in range(n - 1, -1, -1):
        dx, dy, dz = q[i + 1, 0] - pos[i, 0], q[i + 1, 1] - pos[i, 1], q[i + 1, 2] - pos[i, 2]
        r = math.sqrt(dx * dx + dy * dy + dz * dz)
        if r < TINY:
            # coincident: keep the link's direction in the pose the iteration started from
            dx, dy, dz = qrot(world[i, 0], world[i, 1], world[i, 2], world[i, 3], 1.0, 0.0, 0.0)
            r = 1.0
        ux, uy, uz = dx / r, dy / r, dz / r
        if i == n - 1:
            cx, cy, cz = qrot(f0, f1, f2, f3, 1.0, 0.0, 0.0)
            r0, r1, r2, r3 = q_between(cx, cy, cz, ux, uy, uz)
            f0, f1, f2, f3 = qnormalize(*qmul(r0, r1, r2, r3, f0, f1, f2, f3))
        else:
            bx, by, bz = qrot(f0, -f1, -f2, -f3, ux, uy, uz)
            r0, r1, r2, r3 = parent_in_child(i + 1, bx, by, bz, cone, hinge, lo, hi)
            f0, f1, f2, f3 = qnormalize(*qmul(f0, f1, f2, f3, r0, r1, r2, r3))
        ux, uy, uz = qrot(f0, f1, f2, f3, 1.0, 0.0, 0.0)
        q[i, 0] = q[i + 1, 0] - lengths[i] * ux
        q[i, 1] = q[i + 1, 1] - lengths[i] * uy
        q[i, 2] = q[i + 1, 2] - lengths[i] * uz


@njit(cache=True)
def twist_for_hinge(f, r, length, p, nxt, h, lo, hi):
    """A ball joint's rotation ``r`` (parent frame ``f``; both (w, x, y, z) 4-tuples) twisted
    about its own link (of ``length``, from ``p`` (3,)) so that the child hinge's axis ``h``
    (3,), in this link's frame, is normal to the plane of the link and the direction from the
    link's end to ``nxt`` (3,): the one plane in which the child can turn towards ``nxt``. Of
    the two axis signs, the one whose hinge angle fits ``[lo, hi]`` (radians; else the nearer).
    The twist leaves the link's direction, hence the cone, unchanged. Returns the rotation as a
    4-tuple."""
    r0, r1, r2, r3 = r
    g0, g1, g2, g3 = qmul(*f, r0, r1, r2, r3)
    ux, uy, uz = qrot(g0, g1, g2, g3, 1.0, 0.0, 0.0)
    vx = nxt[0] - (p[0] + length * ux)
    vy = nxt[1] - (p[1] + length * uy)
    vz = nxt[2] - (p[2] + length * uz)
    # the next direction in this link's frame; its y-z part is the normal the hinge must take
    lx, ly, lz = qrot(g0, -g1, -g2, -g3, vx, vy, vz)
    m = math.sqrt(ly * ly + lz * lz)
    if m <= 1e-12 * math.sqrt(lx * lx + ly * ly + lz * lz) or m < TINY:
        return r0, r1, r2, r3
    # hinge angle from +x to the next direction with the axis x cross l (positive) or its negative
    phi = math.atan2(m, lx)
    ky, kz = -lz / m, ly / m
    if not (lo <= phi <= hi) and (
        lo <= -phi <= hi or abs(-phi - clamp(-phi, lo, hi)) < abs(phi - clamp(phi, lo, hi))
    ):
        ky, kz = -ky, -kz
    tau = math.atan2(h[1] * kz - h[2] * ky, h[1] * ky + h[2] * kz)
    t0, t1 = math.cos(0.5 * tau), math.sin(0.5 * tau)
    return qnormalize(*qmul(r0, r1, r2, r3, t0, t1, 0.0, 0.0))


@njit(cache=True)
def forward_3d(lengths, cone, hinge, lo, hi, q, quats, pos, world):
    """Base-to-tip pass in 3-D: each joint's rotation points its link at ``q[i + 1]`` as nearly
    as its hinge or cone allows; ``world`` and ``pos[1:]`` follow by forward kinematics. A ball
    joint followed by a hinge also takes the twist that lets the hinge turn towards ``q[i + 2]``
    (:func:`twist_for_hinge`)."""
    n = lengths.shape[0]
    f0, f1, f2, f3 = 1.0, 0.0, 0.0, 0.0
    for i in range(n):
        dx, dy, dz = q[i + 1, 0] - pos[i, 0], q[i + 1, 1] - pos[i, 1], q[i + 1, 2] - pos[i, 2]
        if math.sqrt(dx * dx + dy * dy + dz * dz) >= TINY:
            r0, r1, r2, r3 = joint_quat_toward(i, dx, dy, dz, world, cone, hinge, lo, hi)
            r0, r1, r2, r3 = qnormalize(r0, r1, r2, r3)
            if i + 1 < n and not is_hinge(hinge, i) and is_hinge(hinge, i + 1):
                r0, r1, r2, r3 = twist_for_hinge(
                    (f0, f1, f2, f3),
                    (r0, r1, r2, r3),
                    lengths[i],
                    pos[i],
                    q[i + 2],
                    hinge[i + 1],
                    lo[i + 1],
                    hi[i + 1],
                )
            quats[i, 0], quats[i, 1], quats[i, 2], quats[i, 3] = r0, r1, r2, r3
        f0, f1, f2, f3 = qmul(f0, f1, f2, f3, quats[i, 0], quats[i, 1], quats[i, 2], quats[i, 3])
        f0, f1, f2, f3 = qnormalize(f0, f1, f2, f3)
        world[i, 0], world[i, 1], world[i, 2], world[i, 3] = f0, f1, f2, f3
        ux, uy, uz = qrot(f0, f1, f2, f3, 1.0, 0.0, 0.0)
        pos[i + 1, 0] = pos[i, 0] + lengths[i] * ux
        pos[i + 1, 1] = pos[i, 1] + lengths[i] * uy
        pos[i + 1, 2] = pos[i, 2] + lengths[i] * uz


@njit(cache=True)
def fabrik_3d(model, target, quats, tol, max_iter, opts, rec):
    """FABRIK on a 3-D chain (``kernel_3d`` of :class:`~geoik.solvers.Solver`; ``opts``:
    escape), within cones and hinges. ``quats`` (n, 4) local rotations in and out; returns
    ``(status, iterations, nrec)``."""
    lengths, base, cone, hinge, lo, hi = model
    n = lengths.shape[0]
    pos = np.empty((n + 1, 3))
    world = np.empty((n, 4))
    q = np.empty((n + 1, 3))
    end = np.empty(3)
    outer = np.empty(3)
    is_beyond = beyond_reach(lengths, base, target, outer)
    tol2 = tol * tol
    still2 = sq(MOVED * total_length(lengths))
    escapes = ESCAPES if opts[0] != 0.0 else 0
    nrec = 1
    fk_3d(lengths, base, quats, pos, world)
    code = verdict(pos[n], target, outer, tol2, is_beyond, False)
    if code != GO:
        return code, 0, nrec
    out_of_reach, first = is_beyond, 1
    case = 0
    if escapes > 0 and max_iter > 0:  # a fold inside the minimum reach (FABRIK straightens)
        straighten = np.bool_(False)  # typed, not literal: one compiled reach_out_3d
        case = reach_out_3d(lengths, base, cone, hinge, lo, hi, target, quats, straighten, outer)
    if case != 0:
        fk_3d(lengths, base, quats, pos, world)
        nrec = record(rec, nrec, quats)
        if dist2(pos[n], outer) <= tol2:
            return CLOSEST, 1, nrec
        out_of_reach, first = True, 2
    for it in range(first, max_iter + 1):
        copy_into(end, pos[n])
        if is_beyond and it == 1:
            for i in range(n + 1):
                copy_into(q[i], target)  # straighten: every joint points at the target
        else:
            backward_3d(lengths, cone, hinge, lo, hi, pos, world, target, q)
        forward_3d(lengths, cone, hinge, lo, hi, q, quats, pos, world)
        still = dist2(pos[n], end) <= still2
        if still and escapes > 0:
            k = ESCAPES - escapes
            if land_3d(model, target, (quats, pos, world), k) >= 0 or (
                bend_3d(quats, cone, hinge, lo, hi, k) >= 0
            ):
                escapes -= 1  # the bend is this iteration's step
                fk_3d(lengths, base, quats, pos, world)
                still = False
        nrec = record(rec, nrec, quats)
        code = verdict(pos[n], target, outer, tol2, out_of_reach, still)
        if code != GO:
            return code, it, nrec
    return MAX_ITERATIONS, max_iter, nrec


SOLVER = Solver(
    name="fabrik",
    summary="FABRIK: joints pulled along lines, tip to base then base to tip, each iteration",
    source="Aristidou & Lasenby 2011, Algorithm 1 (limits by projection, see module notes)",
    module=__name__,
    kernel_2d=fabrik_2d,
    kernel_3d=fabrik_3d,
    capacity=lambda n, max_iter: 1 + max_iter,
    general_note=(
        "a geoik.Chain: it pulls joints along lines, which joints with fixed origins "
        "turning about their own axes cannot follow"
    ),
    options=(Option("escape", 1.0, f"{ESCAPE_HELP}; 0: off", check=flag),),
    default_max_iter=100,
)
