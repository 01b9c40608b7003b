"""Single-pass improved triangulation: split at the middle link, go round close targets.

Seed 002 (Mukundan 2009), §IV and its pseudo-code (steps 1-11); equations (3) and (5) as
reconstructed in the seeds' README. From the current joint i the rest of the chain is seen as two
sides: a, from joint i to the joint of link k, and b, from there to the tip; k is the link nearest
half the remaining length (the middle link for equal links; on a tie the nearer one, as the
pseudo-code's integer ``k = n/2``). With c the distance from joint i to the target:

* step 5: c ≥ a + b, beyond reach: the base turns towards the target (each further link too if
  the start pose is not straight), done;
* step 6, going round: while ``a² + b² − c² > 0`` (eq. 4: the bend ``θk = 180° − γ`` of eq. (3) at
  link k would exceed 90°), link i turns to the angle δ ± offset from the target vector, where
  ``cos δ = l / 2c`` (eq. 5: the angle at which its far joint keeps the distance c); +offset
  (away) when θk > threshold, −offset (closer) otherwise; then i moves on to the next link;
* steps 7-11: the final triangle: joint i turns by ``θi = αi − δb`` (eq. 3) and link k by θk.

Choices where the seed is ambiguous or silent:

* the loop stops when ``a² + b² − c² ≤ 0`` (pseudo-code step 6 and the prose "till a triangulation
  with θk less than 90 degrees becomes possible"); the threshold only picks the direction. It also
  stops when two links are left (the final triangle is then a two-link solution).
* threshold: the pseudo-code's 130° is the default (the prose says 135°); both are options.
* side: ``θi = αi − δ`` with signed αi is read as in seed 000 (turn by |αi| − δ about ``a × c``):
  the link ends at δ from the target vector on the side it was on, so mirrored targets give
  mirrored poses. δ − offset < 0 takes the link past the target vector, to the other side.
  When the link is parallel to the target vector, the side of the previous turn is kept, at first
  the side of the chain's chord (base to tip) relative to the target, else counter-clockwise.
* chords: a and b are the distances between the joints (they equal the summed lengths for the
  published straight start), so a bent start pose is solved with its bent parts kept rigid; link
  k then turns so that its chord to the tip points at the target, which is θk exactly.
* ``cos δ = l / 2c > 1`` (target within half a link) gives δ = 0; a target at the joint itself
  is aimed at along the link.
* 3-D: every turn is the 2-D step in the plane of its own vectors (the link or chord and the
  target vector), i.e. about their cross product; for the published straight start that is the
  one plane through the base, the chain and the target. When those are collinear the plane's
  normal is +z made perpendicular to the chain (+y for a chain near z), so a chain in the
  xy-plane turns as the 2-D chain does. Hinges and cones: each turn is projected into the joint's
  limits (``geometry.constrain_joint_3d``), as limited 2-D joints are clamped, and a ball joint
  followed by a hinge twists its link so that hinge's axis is normal to the plane of the link and
  the target (as in ``triangulation``); the pass may then miss and the status says so.

Each link turns at most once; the pass is one iteration (0 when the start already reaches).
"""

from __future__ import annotations

import math

import numpy as np
from numba import njit

from geoik.geometry import (
    REACHED,
    beyond_reach,
    copy_into,
    dist2,
    fk_2d,
    fk_3d,
    fk_3d_from,
    qrot,
    sq,
)
from geoik.solvers._triangle import (
    TINY,
    axis_perp,
    finish,
    law_of_cosines,
    side_axis,
    side_turn_2d,
    turn_2d,
    turn_world_3d,
    unit,
)
from geoik.solvers.base import Option, Solver


def _offset_ok(value: float) -> str | None:
    return None if 0.0 <= value <= 90.0 else "an angle in [0, 90] degrees"


def _threshold_ok(value: float) -> str | None:
    return None if 90.0 <= value <= 180.0 else "an angle in [90, 180] degrees"


@njit(cache=True)
def split_link(lengths, i):
    """Link k in [i + 1, n - 1] whose joint is nearest half of links i.. (ties: the lower k)."""
    n = lengths.shape[0]
    total = 0.0
    for j in range(i, n):
        total += lengths[j]
    best_k, best, acc = i + 1, math.inf, 0.0
    for k in range(i + 1, n):
        acc += lengths[k - 1]
        d = abs(acc - 0.5 * total)
        if d < best - 1e-12 * total:
            best, best_k = d, k
    return best_k


@njit(cache=True)
def go_round_angle(a, b, c, link, offset, threshold):
    """Angle δ ± offset between link i and the target vector in step 6 (eqs. 3 and 5)."""
    gamma = math.acos(min(1.0, max(-1.0, (a * a + b * b - c * c) / max(2.0 * a * b, TINY))))
    theta_k = math.pi - gamma
    delta = math.acos(link / (2.0 * c)) if 2.0 * c > link else 0.0
    return delta + offset if theta_k > threshold else delta - offset


@njit(cache=True)
def _record_2d(angles, rec, nrec):
    if nrec < rec.shape[0]:
        copy_into(rec[nrec], angles)
        return nrec + 1
    return nrec


@njit(cache=True)
def _aim_2d(j, vx, vy, tx, ty, delta, side, angles, lo, hi):
    """Turn joint j so the vector v (from the joint) makes angle delta with t, on its side."""
    if tx * tx + ty * ty <= TINY:
        tx, ty = vx, vy
    alpha = math.atan2(vx * ty - vy * tx, vx * tx + vy * ty)
    theta, s = side_turn_2d(alpha, delta, side)
    old = angles[j]
    moved = turn_2d(j, theta, angles, lo, hi)
    if abs(moved) <= 1e-12:
        angles[j] = old
        return side, False
    return s, True


@njit(cache=True)
def single_pass_2d(model, target, angles, tol, max_iter, opts, rec):
    """Seed 002's single-pass improved triangulation on a planar chain (``kernel_2d`` of
    :class:`~geoik.solvers.Solver`; ``opts``: ``offset_deg`` and ``threshold_deg``). ``angles``
    (n,) radians in and out; returns ``(status, iterations, nrec)``."""
    lengths, base, lo, hi = model
    n = lengths.shape[0]
    offset, threshold = math.radians(opts[0]), math.radians(opts[1])
    p = np.empty((n + 1, 2))
    outer = np.empty(2)
    is_beyond = beyond_reach(lengths, base, target, outer)
    tx, ty = target[0], target[1]
    fk_2d(lengths, base, angles, p)
    if dist2(p[n], target) <= tol * tol:
        return REACHED, 0, 1
    nrec, side = np.int64(1), 1.0  # typed: a literal 1 would compile _record_2d once more
    cross = (p[n, 0] - p[0, 0]) * (ty - p[0, 1]) - (p[n, 1] - p[0, 1]) * (tx - p[0, 0])
    if abs(cross) > TINY:
        side = 1.0 if cross > 0.0 else -1.0
    i = np.int64(0)  # typed: a literal 0 would compile _aim_2d once more
    total = 0.0
    for j in range(n):
        total += lengths[j]
    straighten = sq(tx - p[0, 0]) + sq(ty - p[0, 1]) >= total * total
    while not straighten and n - i >= 3:
        k = split_link(lengths, i)
        a = math.sqrt(sq(p[k, 0] - p[i, 0]) + sq(p[k, 1] - p[i, 1]))
        b = math.sqrt(sq(p[n, 0] - p[k, 0]) + sq(p[n, 1] - p[k, 1]))
        c = math.sqrt(sq(tx - p[i, 0]) + sq(ty - p[i, 1]))
        if a * a + b * b - c * c <= 0.0:
            break
        delta = go_round_angle(a, b, c, lengths[i], offset, threshold)
        vx, vy = p[i + 1, 0] - p[i, 0], p[i + 1, 1] - p[i, 1]
        side, moved = _aim_2d(i, vx, vy, tx - p[i, 0], ty - p[i, 1], delta, side, angles, lo, hi)
        if moved:
            nrec = _record_2d(angles, rec, nrec)
            fk_2d(lengths, base, angles, p)
        i += 1
    if straighten or i == n - 1:
        for j in range(i, n):
            vx, vy = p[j + 1, 0] - p[j, 0], p[j + 1, 1] - p[j, 1]
            side, moved = _aim_2d(j, vx, vy, tx - p[j, 0], ty - p[j, 1], 0.0, side, angles, lo, hi)
            if moved:
                nrec = _record_2d(angles, rec, nrec)
                fk_2d(lengths, base, angles, p)
        return finish(p, target, outer, is_beyond, tol), 1, nrec
    k = split_link(lengths, i)
    vx, vy = p[k, 0] - p[i, 0], p[k, 1] - p[i, 1]
    a = math.sqrt(vx * vx + vy * vy)
    b = math.sqrt(sq(p[n, 0] - p[k, 0]) + sq(p[n, 1] - p[k, 1]))
    c = math.sqrt(sq(tx - p[i, 0]) + sq(ty - p[i, 1]))
    delta_b = law_of_cosines(a, b, c)
    side, moved = _aim_2d(i, vx, vy, tx - p[i, 0], ty - p[i, 1], delta_b, side, angles, lo, hi)
    if moved:
        nrec = _record_2d(angles, rec, nrec)
        fk_2d(lengths, base, angles, p)
    vx, vy = p[n, 0] - p[k, 0], p[n, 1] - p[k, 1]
    side, moved = _aim_2d(k, vx, vy, tx - p[k, 0], ty - p[k, 1], 0.0, side, angles, lo, hi)
    if moved:
        nrec = _record_2d(angles, rec, nrec)
        fk_2d(lengths, base, angles, p)
    return finish(p, target, outer, is_beyond, tol), 1, nrec


@njit(cache=True)
def _aim_3d(j, v, t, delta, axis, model, frames):
    """Turn joint j so the vector v (3,) (from the joint) makes angle delta (radians) with t (3,),
    in their plane.

    ``axis`` (3,) holds the previous turn's axis on entry and this turn's on return; ``model`` is
    the chain's ``kernel_arrays`` and ``frames`` the pose ``(quats, world, pos)``: local and world
    rotations (n, 4) and joint positions (n + 1, 3). Returns True if the joint turned (frames and
    positions are then refreshed).
    """
    lengths = model[0]
    quats, world, pos = frames
    vx, vy, vz, _ = unit(v[0], v[1], v[2])
    cx, cy, cz, c = unit(t[0], t[1], t[2])
    if c <= TINY:
        cx, cy, cz = vx, vy, vz
    ax, ay, az, ang = side_axis(vx, vy, vz, cx, cy, cz, axis[0], axis[1], axis[2])
    moved = turn_world_3d(j, (ax, ay, az), ang - delta, t, quats, world, model)
    if moved <= 0.0:
        return False
    axis[0], axis[1], axis[2] = ax, ay, az
    fk_3d_from(j, lengths, quats, pos, world)
    return True


@njit(cache=True, inline="always")
def _aim_and_record(j, v, t, delta, axis, model, frames, rec, nrec):
    """:func:`_aim_3d`, then a keyframe of the rotations if the joint turned; returns the number
    of keyframes written."""
    if _aim_3d(j, v, t, delta, axis, model, frames):
        return _record_3d(frames[0], rec, nrec)
    return nrec


@njit(cache=True, inline="always")
def _sides_3d(pos, target, i, k):
    """The triangle of joint ``i``, joint ``k`` and the end effector against the target: the
    lengths joint i to joint k, joint k to the end effector and joint i to the target."""
    n = pos.shape[0] - 1
    a = math.sqrt(dist2(pos[k], pos[i]))
    b = math.sqrt(dist2(pos[n], pos[k]))
    c = math.sqrt(dist2(target, pos[i]))
    return a, b, c


@njit(cache=True)
def _record_3d(quats, rec, nrec):
    """Write ``quats`` (n, 4) as keyframe ``nrec`` of ``rec`` (cap, n, 4) if there is room;
    returns the number of keyframes written."""
    if nrec < rec.shape[0]:
        copy_into(rec[nrec, :, :], quats)
        return nrec + 1
    return nrec


@njit(cache=True)
def _plane_normal(pos, world, target, axis):
    """Normal of the plane through the base, the chain (its chord, else its first link) and the
    target; when they are collinear, +z (else +y) made perpendicular to the chain."""
    n = pos.shape[0] - 1
    dx, dy, dz, m = unit(pos[n, 0] - pos[0, 0], pos[n, 1] - pos[0, 1], pos[n, 2] - pos[0, 2])
    if m <= TINY:
        dx, dy, dz = qrot(world[0, 0], world[0, 1], world[0, 2], world[0, 3], 1.0, 0.0, 0.0)
    cx, cy, cz = target[0] - pos[0, 0], target[1] - pos[0, 1], target[2] - pos[0, 2]
    rx, ry, rz = dy * cz - dz * cy, dz * cx - dx * cz, dx * cy - dy * cx
    axis[0], axis[1], axis[2] = axis_perp(dx, dy, dz, rx, ry, rz)


@njit(cache=True)
def single_pass_3d(model, target, quats, tol, max_iter, opts, rec):
    """Seed 002's single pass on a 3-D chain (``kernel_3d`` of
    :class:`~geoik.solvers.Solver`). ``quats`` (n, 4) local rotations in and out; returns
    ``(status, iterations, nrec)``."""
    lengths, base = model[0], model[1]
    n = lengths.shape[0]
    offset, threshold = math.radians(opts[0]), math.radians(opts[1])
    pos = np.empty((n + 1, 3))
    world = np.empty((n, 4))
    outer = np.empty(3)
    is_beyond = beyond_reach(lengths, base, target, outer)
    fk_3d(lengths, base, quats, pos, world)
    if dist2(pos[n], target) <= tol * tol:
        return REACHED, 0, 1
    axis = np.empty(3)
    _plane_normal(pos, world, target, axis)
    frames = (quats, world, pos)
    # typed: literals would compile _aim_3d and _record_3d once more
    nrec, i, total = np.int64(1), np.int64(0), 0.0
    for j in range(n):
        total += lengths[j]
    straighten = dist2(pos[0], target) >= total * total
    while not straighten and n - i >= 3:
        k = split_link(lengths, i)
        a, b, c = _sides_3d(pos, target, i, k)
        if a * a + b * b - c * c <= 0.0:
            break
        delta = go_round_angle(a, b, c, lengths[i], offset, threshold)
        v, t = pos[i + 1] - pos[i], target - pos[i]
        nrec = _aim_and_record(i, v, t, delta, axis, model, frames, rec, nrec)
        i += 1
    if straighten or i == n - 1:
        for j in range(i, n):
            v, t = pos[j + 1] - pos[j], target - pos[j]
            nrec = _aim_and_record(j, v, t, 0.0, axis, model, frames, rec, nrec)
        return finish(pos, target, outer, is_beyond, tol), 1, nrec
    k = split_link(lengths, i)
    delta_b = law_of_cosines(*_sides_3d(pos, target, i, k))
    v, t = pos[k] - pos[i], target - pos[i]
    nrec = _aim_and_record(i, v, t, delta_b, axis, model, frames, rec, nrec)
    v, t = pos[n] - pos[k], target - pos[k]
    nrec = _aim_and_record(k, v, t, 0.0, axis, model, frames, rec, nrec)
    return finish(pos, target, outer, is_beyond, tol), 1, nrec


SOLVER = Solver(
    name="single-pass",
    summary="Single-pass triangulation: split at the middle link, go round close targets, each "
    "link turning at most once",
    source="Mukundan 2009 (seed 002), §IV, eqs. 3-5 and steps 1-11",
    module=__name__,
    kernel_2d=single_pass_2d,
    kernel_3d=single_pass_3d,
    capacity=lambda n, max_iter: 1 + n,
    general_note="a geoik.Chain: it closes triangles of links that point along their joints' +x",
    options=(
        Option(
            "offset_deg",
            20.0,
            "degrees added to (going away) or taken from (going closer) the angle δ of eq. 5",
            check=_offset_ok,
        ),
        Option(
            "threshold_deg",
            130.0,
            "bend θk (degrees) at the split link above which a going-round link moves away",
            check=_threshold_ok,
        ),
    ),
    default_max_iter=1,
    iterative=False,
)
