"""Arms of four and five revolute joints: every solution of a pose, or the nearest attainable.

Five joints cannot meet every orientation at a position: the poses an arm of ``n < 6`` joints
reaches form an ``n``-dimensional set. This module solves the family most such arms belong to
(the SO-100, the youBot's arm, the PincherX and OpenManipulator-X kind):

- axis 1 (the base's turn), not parallel to axes 2, 3, 4, which are parallel to each other
  (``h``: the arm's plane turns about axis 1, the shoulder, elbow and wrist pitch bend in it);
- five joints: an axis 5 (the wrist's roll) not parallel to ``h``, the tip on it (so the roll
  turns the tool, not its position); four joints: the tip anywhere on the last link.

Notation (0-based, as in code): ``o_i`` joint ``i``'s origin at the zero configuration,
``R_i`` the rotation by ``q_i`` about ``h_i``; ``G = R_goal R_tip^T = R_0 R_1 R_2 R_3 R_4``.
Rotations about ``h`` keep ``h``-components and the tip lies on axis 4's line, so

- SP4 ``h . R_0^T (p - o_0) = h . (tip_0 - o_0)`` puts the goal in the arm's plane: ``q_0``
  (2 solutions; least squares: the position is out of reach);
- with ``phi = q_1 + q_2 + q_3`` the pitch of the last link, ``R_0^T G = R_h(phi) R_4``, so
  the orientation leaves two unknowns, ``phi`` and ``q_4``: where ``h . G' h_4 = h . h_4``
  (``G' = R_0^T G``) SP1 gives ``phi`` from ``R_h(phi) h_4 = G' h_4`` and SP1 ``q_4`` (the
  pose is attainable); a four-joint arm has ``R_h(phi) = G'`` (SP1);
- for that ``phi``, ``d = R_0^T (p - o_0) + o_0 - o_1 - R_h(phi) (tip_0 - o_3)`` must be
  ``a + R_h(q_2) b`` turned by ``q_1`` (``a = o_2 - o_1``, ``b = o_3 - o_2``): SP3 ``q_2``
  (2), SP1 ``q_1``, and ``q_3 = phi - q_1 - q_2``.

Up to 4 solutions (the base turned half a turn meets the same orientation only where the roll can
undo it; a four-joint arm has no roll: up to 2). Where the orientation is not attainable, the
nearest attainable one at the position: for each ``q_0`` and elbow branch, ``phi`` is searched over
the angles where the position is reached with ``q_1, q_2, q_3`` within their limits (:data:`SAMPLES`
samples, the best refined by bisection to the edge of its feasible interval and golden-section
search inside it), each ``phi`` taking its best roll in closed form: with ``M = R_h(phi)^T G'``,
``tr(R_4(t)^T M) = k.M k + c cos t + s sin t`` (``c = tr M - k.M k``, ``s = k . vee(M - M^T)``),
largest at ``atan2(s, c)`` or, outside the roll's limits, at the nearer limit. The angle between two
rotations is ``acos((tr - 1) / 2)``, so this is least squares on the orientation (the geodesic
angle), the position exact. EAIK (Ostermeier et al.) solves this family by the same subproblems but
takes each one's least-squares answer where it has no exact one, which leaves the position off when
the orientation is unattainable.
"""

from __future__ import annotations

import math

import numpy as np
from numba import njit

from geoik.geometry import copy_into, wrap
from geoik.solvers.analytic.families import _angle_of, mmt, mtm, mtv, mv, normal, rot
from geoik.solvers.analytic.finish import (
    NOT_EXACT,
    OUTSIDE_LIMITS,
    SINGULAR,
    _errors,
    _gauss,
    _into_limits,
    chain_size,
    distance,
    duplicate_of,
    forward,
    goal_error,
    jacobian,
    try_step,
    tuple9,
)
from geoik.solvers.analytic.subproblems import DEGENERATE, LEAST_SQUARES, sp1, sp3, sp4

__all__ = [
    "FAMILIES_SHORT",
    "MAX_ROWS",
    "NEAREST_ORIENTATION",
    "PARALLEL_234",
    "PARALLEL_234_ROLL",
    "FINER",
    "SAMPLES",
    "SHORT_MODEL_SIZE",
    "WORK_SIZE",
    "all_solutions_short",
    "family_short",
    "pack_short",
    "solve_short",
]

PARALLEL_234_ROLL = 8
PARALLEL_234 = 9
FAMILIES_SHORT = {
    PARALLEL_234_ROLL: (
        "three parallel axes (2, 3, 4), the tip on axis 5: closed form, up to 4 solutions; "
        "orientations off the arm's reach: the nearest attainable at the position"
    ),
    PARALLEL_234: (
        "three parallel axes (2, 3, 4): closed form, up to 2 solutions; orientations off the "
        "arm's reach: the nearest attainable at the position"
    ),
}
"""Family code -> what it is, in words (1-based axes)."""

NEAREST_ORIENTATION = 8
"""Solution flag: the position exact, the orientation the nearest the arm attains there (its
angle error, radians, beyond the solve's ``angle_tol``)."""
MAX_ROWS = 8
"""Rows of the output: up to 4 exact solutions and 4 others."""
SHORT_MODEL_SIZE = 54
"""Length of a packed model (:func:`pack_short`)."""
SAMPLES = 96
"""Samples of the last link's pitch ``phi`` in the search for the nearest orientation."""
FINER = 16
"""Where no sample of the pitch is feasible, it is sampled this many times finer."""
_REFINE = 48
"""Bisection and golden-section steps of that search (each shrinks the interval, by a half
and by 0.618: far below 1e-9 rad from a sample interval of 2 pi / 96)."""
_SAME = 1e-7
_AXES = 1e-4
"""Slack of the orientation bound that skips a base turn (radians): axes parallel only to
the decomposition's tolerance make it approximate."""


def family_short(H: np.ndarray, P: np.ndarray, tol: float, tol_len: float) -> int:
    """The family code of a 4- or 5-joint revolute chain (``H`` (n, 3), ``P`` (n + 1, 3)),
    0 when none fits; ``tol`` radians for parallel axes, ``tol_len`` metres for the tip on
    axis 5."""
    n = H.shape[0]
    if n not in (4, 5):
        return 0

    def parallel(i: int, j: int) -> bool:
        return float(np.linalg.norm(np.cross(H[i], H[j]))) <= tol

    if not (parallel(1, 2) and parallel(2, 3)) or parallel(0, 1):
        return 0
    if n == 4:
        return PARALLEL_234
    if parallel(1, 4):
        return 0
    off = P[5]  # the tip from joint 5's origin: on its axis
    if float(np.linalg.norm(np.cross(off, H[4]))) > tol_len:
        return 0
    return PARALLEL_234_ROLL


def pack_short(
    code: int, H: np.ndarray, P: np.ndarray, R_tip: np.ndarray, lo: np.ndarray, hi: np.ndarray
) -> np.ndarray:
    """The chain and its limits as one read-only float64 array of :data:`SHORT_MODEL_SIZE`,
    the first argument of :func:`all_solutions_short`: ``code``, ``n``, ``H`` (5, 3), ``P``
    (6, 3), ``R_tip`` (3, 3), ``lo``, ``hi`` (5,) (radians); a four-joint chain is padded with
    a fifth joint held at 0 (its tip offset the fifth row of ``P``)."""
    n = H.shape[0]
    h = np.zeros((5, 3))
    p = np.zeros((6, 3))
    lo5 = np.zeros(5)
    hi5 = np.zeros(5)
    copy_into(h[:n], H)
    copy_into(p[: n + 1], P)
    copy_into(lo5[:n], lo)
    copy_into(hi5[:n], hi)
    if n == 4:
        h[4] = normal((float(H[1, 0]), float(H[1, 1]), float(H[1, 2])))
    parts = [[float(code), float(n)], h, p, R_tip, lo5, hi5]
    out = np.concatenate([np.ravel(np.asarray(x, dtype=np.float64)) for x in parts])
    assert out.shape == (SHORT_MODEL_SIZE,)
    out.setflags(write=False)
    return out


@njit(cache=True)
def _roll(G1, phi, h, k, roll, lo4, hi4, start4):
    """The roll ``q_4`` (within its limits) whose orientation ``R_h(phi) R_4`` is nearest
    ``G1``, and ``tr((R_h(phi) R_4)^T G1)`` there (3 where they agree); 0 and the trace for a
    four-joint arm."""
    m = mtm(rot(h, phi), G1)
    tr = m[0] + m[4] + m[8]
    if not roll:
        return 0.0, tr
    mk = mv(m, k)
    kmk = k[0] * mk[0] + k[1] * mk[1] + k[2] * mk[2]
    c = tr - kmk
    s = k[0] * (m[7] - m[5]) + k[1] * (m[2] - m[6]) + k[2] * (m[3] - m[1])
    t = math.atan2(s, c)
    v = _into_limits(t, lo4, hi4, start4)
    if v == v:
        return v, kmk + c * math.cos(v) + s * math.sin(v)
    a = kmk + c * math.cos(lo4) + s * math.sin(lo4)
    b = kmk + c * math.cos(hi4) + s * math.sin(hi4)
    return (lo4, a) if a >= b else (hi4, b)


@njit(cache=True)
def _elbows(d0, rphi, h, a, b, t4, q3s):
    """SP3: the elbow's angles (up to 2, into ``q3s``) for the pitch whose rotation is
    ``rphi``; returns their count, flags and ``d``, where the shoulder must take the elbow."""
    r = mv(rphi, t4)
    d = (d0[0] - r[0], d0[1] - r[1], d0[2] - r[2])
    nd = math.sqrt(d[0] * d[0] + d[1] * d[1] + d[2] * d[2])
    n3, f3 = sp3(b, (-a[0], -a[1], -a[2]), h, nd, q3s)
    return n3, f3, d


@njit(cache=True)
def _shoulder(d, q2, phi, h, a, b):
    """SP1: the shoulder's angle taking the elbow at ``q2`` to ``d``, and the wrist's pitch
    joint making up ``phi``; returns ``(q1, q3, flags)``."""
    x = mv(rot(h, q2), b)
    q1, f1 = sp1((a[0] + x[0], a[1] + x[1], a[2] + x[2]), d, h)
    return q1, phi - q1 - q2, f1


@njit(cache=True)
def _place(d0, phi, h, a, b, t4, branch, q3s):
    """Joints 1-3 for the pitch ``phi``: the elbow ``branch`` (0 or 1) of SP3, then SP1.
    Returns ``(ok, q1, q2, q3, flags)``; not ok when that branch does not exist (the wrist
    point out of the elbow's reach: ``flags`` has LEAST_SQUARES, ``q1 .. q3`` the
    least-squares answer)."""
    n3, f3, d = _elbows(d0, rot(h, phi), h, a, b, t4, q3s)
    j = branch if branch < n3 else 0
    q2 = q3s[j]
    q1, q3, f1 = _shoulder(d, q2, phi, h, a, b)
    ok = branch < n3 and not f3 & LEAST_SQUARES
    return ok, q1, q2, q3, f1 | f3


@njit(cache=True)
def _within(v, lo, hi, near):
    """Of ``v - 2 pi``, ``v``, ``v + 2 pi``, the one within [lo, hi] (no slack: the search's
    answers then need no clamping, which would move the tip) nearest ``near``; NaN when none
    is."""
    best = np.nan
    gap = np.inf
    for k in range(-1, 2):
        x = v + k * 2.0 * math.pi
        if lo <= x <= hi and abs(x - near) < gap:
            gap = abs(x - near)
            best = x
    return best


@njit(cache=True)
def _value(pitch, phi, branch, roll, limits, q3s, q):
    """The orientation's trace at pitch ``phi`` on ``branch``, joints 1-4 into ``q`` (5,);
    -inf where the position is not reached with joints 1-3 within their limits. ``pitch``:
    the search's problem ``(d0, h, k, a, b, t4, G1)`` (3-tuples, metres or unit, and ``G1`` a
    9-tuple rotation); ``limits``: ``(lo, hi, start)`` (5,) radians."""
    d0, h, k, a, b, t4, G1 = pitch
    lo, hi, start = limits
    ok, q1, q2, q3, _ = _place(d0, phi, h, a, b, t4, branch, q3s)
    if not ok:
        return -np.inf
    for j, v in ((1, q1), (2, q2), (3, q3)):
        x = _within(wrap(v), lo[j], hi[j], start[j])
        if x != x:
            return -np.inf
        q[j] = x
    q4, tr = _roll(G1, phi, h, k, roll, lo[4], hi[4], start[4])
    q[4] = q4
    return tr


@njit(cache=True, inline="always")
def _best_sample(pitch, branch, roll, limits, q3s, tmp):
    """The best of :data:`SAMPLES` pitches evenly over a turn (:data:`FINER` times as many
    where none is feasible: a narrow feasible interval), by :func:`_value`. Returns its trace
    (-inf when none is feasible), the pitch (radians) and the sample spacing (radians)."""
    best = -np.inf
    at = 0.0
    step = 2.0 * math.pi / SAMPLES
    for count in (SAMPLES, SAMPLES * FINER):
        step = 2.0 * math.pi / count
        for s in range(count):
            phi = -math.pi + s * step
            v = _value(pitch, phi, branch, roll, limits, q3s, tmp)
            if v > best:
                best, at = v, phi
        if best > -np.inf:
            break
    return best, at, step


@njit(cache=True)
def _edge(pitch, branch, roll, limits, q3s, tmp, inside, outside):
    """Bisection (:data:`_REFINE` steps) between a feasible pitch ``inside`` and an infeasible
    one ``outside`` (radians): the last feasible pitch found, towards the feasible interval's
    edge."""
    x, y = inside, outside
    for _ in range(_REFINE):
        m = 0.5 * (x + y)
        if _value(pitch, m, branch, roll, limits, q3s, tmp) == -np.inf:
            y = m
        else:
            x = m
    return x


@njit(cache=True, inline="always")
def _golden(pitch, branch, roll, limits, q3s, tmp, x, y):
    """Golden-section search (:data:`_REFINE` steps) for the largest trace of
    :func:`_value` on the pitches ``[x, y]`` (radians). Returns the last bracket's inner
    points ``(c, e)``."""
    g = 0.5 * (math.sqrt(5.0) - 1.0)
    c = y - g * (y - x)
    e = x + g * (y - x)
    fc = _value(pitch, c, branch, roll, limits, q3s, tmp)
    fe = _value(pitch, e, branch, roll, limits, q3s, tmp)
    for _ in range(_REFINE):
        if fc >= fe:
            y, e, fe = e, c, fc
            c = y - g * (y - x)
            fc = _value(pitch, c, branch, roll, limits, q3s, tmp)
        else:
            x, c, fc = c, e, fe
            e = x + g * (y - x)
            fe = _value(pitch, e, branch, roll, limits, q3s, tmp)
    return c, e


@njit(cache=True)
def _search(pitch, branch, roll, limits, q3s, q, tmp):
    """The pitch on ``branch`` whose orientation is nearest ``G1`` with the position reached
    within the limits (``pitch`` and ``limits`` as :func:`_value`): the best sample
    (:func:`_best_sample`), its feasible interval within one sample each side
    (:func:`_edge`), the best inside it (:func:`_golden`). Joints 1-4 into ``q`` (5,),
    ``tmp`` (5,) scratch; returns the trace there (-inf when no pitch is feasible)."""
    best, at, step = _best_sample(pitch, branch, roll, limits, q3s, tmp)
    if best == -np.inf:
        return best
    lo_phi, hi_phi = at - step, at + step
    if _value(pitch, lo_phi, branch, roll, limits, q3s, tmp) == -np.inf:
        lo_phi = _edge(pitch, branch, roll, limits, q3s, tmp, at, lo_phi)
    if _value(pitch, hi_phi, branch, roll, limits, q3s, tmp) == -np.inf:
        hi_phi = _edge(pitch, branch, roll, limits, q3s, tmp, at, hi_phi)
    c, e = _golden(pitch, branch, roll, limits, q3s, tmp, lo_phi, hi_phi)
    best = -np.inf
    for phi in (at, lo_phi, hi_phi, 0.5 * (c + e)):
        v = _value(pitch, phi, branch, roll, limits, q3s, tmp)
        if v > best:
            best = v
            copy_into(q, tmp)
    return best


WORK_SIZE = 2 + 2 + 5 + 5 + 5 + 16 * 5 + 16 * 4 + 16 + 66
"""Length of the scratch array of :func:`solve_short`."""


@njit(cache=True)
def all_solutions_short(model, R_goal, p_goal, start, tol, angle_tol, out):
    """Every solution of a 4- or 5-joint arm's pose, or the nearest attainable orientation.

    ``model``: the chain and limits packed by :func:`pack_short`; ``R_goal`` (3, 3),
    ``p_goal`` (3,): the tip's goal; ``start`` (n,); ``tol`` metres and ``angle_tol``
    radians. Writes rows of ``out`` (:data:`MAX_ROWS`, n + 3): joint values, flags
    (:data:`NEAREST_ORIENTATION`, :data:`~.finish.NOT_EXACT`,
    :data:`~.finish.OUTSIDE_LIMITS`), position error (metres) and angle error (radians), in
    three groups: the exact solutions within the limits (nearest ``start`` first), or where
    there is none, the solutions at the position with the nearest orientation the limits
    allow (flagged NEAREST_ORIENTATION, the nearest orientation first); the exact solutions
    outside the limits; the least-squares candidates when the position is out of reach.
    Returns the three groups' sizes; ``(-1, 0, 0)`` when ``R_goal`` is not a rotation to
    1e-14, ``(-2, 0, 0)`` when ``p_goal`` is not finite or beyond 1e50, ``(-3, 0, 0)`` when
    ``start`` is not.
    """
    return solve_short(model, R_goal, p_goal, start, tol, angle_tol, out, np.empty(WORK_SIZE))


@njit(cache=True)
def solve_short(model, R_goal, p_goal, start, tol, angle_tol, out, work):
    """:func:`all_solutions_short` with its scratch ``work`` (:data:`WORK_SIZE`) given, so
    that a batch allocates nothing per pose."""
    n = int(model[1])
    H = model[2:17].reshape((5, 3))
    P = model[17:35].reshape((6, 3))
    R_tip = model[35:44].reshape((3, 3))
    lo = model[44:49]
    hi = model[49:54]
    bad = goal_error(R_goal, p_goal, start)
    if bad:
        return bad, 0, 0
    roll = n == 5
    goal = (tuple9(R_goal), (p_goal[0], p_goal[1], p_goal[2]))
    G = mmt(goal[0], tuple9(R_tip))
    h0, h, k, o0, o1, a, b, tip0, t4 = _arm_points(H, P)
    q0s = work[0:2]
    q3s = work[2:4]
    q = work[4:9]
    tmp = work[9:14]
    st = work[14:19]  # the start, padded for a four-joint arm
    st[:] = 0.0
    copy_into(st[:n], start[:n])
    table = (
        work[19:99].reshape((16, 5)),  # rows
        work[99:163].reshape((16, 4)),  # flags, position error, angle error, sort key
        work[163:179],  # group: 0, 1, 2; -1 once written out
    )
    jac = work[179:245].reshape((11, 6))
    arm = (H[:n], P[: n + 1], R_tip)
    tols = (tol, angle_tol, 1e-13 * chain_size(P[: n + 1]))  # a closed form's rounding
    rel = (goal[1][0] - o0[0], goal[1][1] - o0[1], goal[1][2] - o0[2])
    n0, reach, singular = _base_turns(h0, h, rel, tip0, o0, q0s)
    kept = 0
    # pass 0: the exact solutions; 1: the nearest orientation (none exact within the
    # limits); 2: least squares (the position out of reach)
    for stage in range(3):
        if stage == 1 and (not reach or _count(table[2], kept, 0) > 0):
            continue
        if stage == 2 and _count(table[2], kept, 0) + _count(table[2], kept, 1) > 0:
            break  # least squares only where nothing reaches the position
        for i in range(n0):
            d0, G1, phi, rphi, q4, gap = _base_pose(roll, h0, h, k, q0s[i], rel, o0, o1, G)
            if stage == 0 and gap > angle_tol + _AXES:
                continue
            n3, f3 = 0, 0
            d = d0
            if stage != 1:
                n3, f3, d = _elbows(d0, rphi, h, a, b, t4, q3s)
            pitch = (d0, h, k, a, b, t4, G1)
            for branch in range(2):
                q[0] = q0s[i]
                tmp[0] = q0s[i]
                if stage == 1:
                    if _search(pitch, branch, roll, (lo, hi, st), q3s, q, tmp) == -np.inf:
                        continue
                elif not _closed_form(stage, branch, (n3, f3, q3s), (d, phi, q4), (h, a, b), q):
                    continue
                kept = _keep(arm, goal, q, stage, (lo, hi, start), tols, table, kept, singular, jac)
    return _write(table[0], table[1], table[2], kept, n, out)


@njit(cache=True, inline="always")
def _arm_points(H, P):
    """The arm's axes and points at the zero configuration, from ``H`` (5, 3) and ``P``
    (6, 3): axis 1 ``h0``, the parallel axes' ``h``, the roll's ``k`` (unit 3-tuples); joint
    1's and 2's origins ``o0``, ``o1``, the links ``a = o_2 - o_1`` and ``b = o_3 - o_2``, the
    tip ``tip0`` and ``t4 = tip0 - o_3`` (3-tuples, metres)."""
    h0 = (H[0, 0], H[0, 1], H[0, 2])
    h = (H[1, 0], H[1, 1], H[1, 2])
    k = (H[4, 0], H[4, 1], H[4, 2])
    o0 = (P[0, 0], P[0, 1], P[0, 2])
    o1 = (o0[0] + P[1, 0], o0[1] + P[1, 1], o0[2] + P[1, 2])
    a = (P[2, 0], P[2, 1], P[2, 2])
    b = (P[3, 0], P[3, 1], P[3, 2])
    o3 = (o1[0] + a[0] + b[0], o1[1] + a[1] + b[1], o1[2] + a[2] + b[2])
    tip0 = (o3[0] + P[4, 0] + P[5, 0], o3[1] + P[4, 1] + P[5, 1], o3[2] + P[4, 2] + P[5, 2])
    t4 = (tip0[0] - o3[0], tip0[1] - o3[1], tip0[2] - o3[2])
    return h0, h, k, o0, o1, a, b, tip0, t4


@njit(cache=True, inline="always")
def _base_turns(h0, h, rel, tip0, o0, q0s):
    """SP4: the base's turns (up to 2, radians, into ``q0s``) that put the goal ``rel`` (from
    ``o0``, metres) in the arm's plane. Returns their count, whether they do so exactly (not
    least squares), and :data:`~.finish.SINGULAR` where the turn is not fixed by the position
    (the goal on axis 1, to rounding), else 0."""
    d_h = h[0] * (tip0[0] - o0[0]) + h[1] * (tip0[1] - o0[1]) + h[2] * (tip0[2] - o0[2])
    n0, f0 = sp4(h, rel, (-h0[0], -h0[1], -h0[2]), d_h, q0s)
    along = rel[0] * h0[0] + rel[1] * h0[1] + rel[2] * h0[2]
    off = (rel[0] - along * h0[0], rel[1] - along * h0[1], rel[2] - along * h0[2])
    scale = abs(along) + abs(d_h) + 1e-300
    on_axis = math.sqrt(off[0] * off[0] + off[1] * off[1] + off[2] * off[2]) <= 1e-12 * scale
    singular = SINGULAR if on_axis or f0 & DEGENERATE else 0
    return n0, not f0 & LEAST_SQUARES, singular


@njit(cache=True, inline="always")
def _base_pose(roll, h0, h, k, q0, rel, o0, o1, G):
    """The goal seen from the arm's plane after the base's turn ``q0`` (radians): ``d0`` (the
    goal from joint 2's origin, 3-tuple, metres), ``G1 = R_0^T G`` (9-tuple), the pitch
    ``phi`` and its rotation, the roll ``q4`` (0 without one) that meet ``G1`` as nearly as
    this turn allows, and ``gap``: a lower bound of the angle (radians) left."""
    r0 = rot(h0, q0)
    p1 = mtv(r0, rel)
    d0 = (p1[0] + o0[0] - o1[0], p1[1] + o0[1] - o1[1], p1[2] + o0[2] - o1[2])
    G1 = mtm(r0, G)
    if roll:
        gk = mv(G1, k)
        phi, _ = sp1(k, gk, h)
        rphi = rot(h, phi)
        u = normal(k)
        q4, _ = sp1(u, mtv(rphi, mv(G1, u)), k)
        # no joint values with this base turn come nearer the orientation than the
        # angle |h.(G1 k) - h.k| (turns about h and k keep those components)
        gap = abs(h[0] * (gk[0] - k[0]) + h[1] * (gk[1] - k[1]) + h[2] * (gk[2] - k[2]))
    else:
        phi, _ = _angle_of(G1, h)
        rphi = rot(h, phi)
        q4 = 0.0
        gh = mv(G1, h)  # likewise |G1 h - h|
        gap = math.sqrt((gh[0] - h[0]) ** 2 + (gh[1] - h[1]) ** 2 + (gh[2] - h[2]) ** 2)
    return d0, G1, phi, rphi, q4, gap


@njit(cache=True, inline="always")
def _closed_form(stage, branch, elbows, pose, links, q):
    """Joints 1-4 into ``q`` (5,) on the elbow ``branch`` of ``elbows`` ``(n3, f3, q3s)``, the
    ``n3`` elbow angles ``q3s`` and SP3's flags ``f3``; the shoulder by SP1 to ``d`` and the
    pitch ``phi``, the roll ``q4`` (radians), ``pose`` being ``(d, phi, q4)``; ``links`` is
    ``(h, a, b)`` as :func:`_arm_points` gives them. False where the pass ``stage`` takes no
    candidate there: on the exact pass a branch that does not exist, on the least-squares pass
    a second one."""
    n3, f3, q3s = elbows
    d, phi, q4 = pose
    h, a, b = links
    ok = branch < n3 and not f3 & LEAST_SQUARES
    if not ok and stage == 0:
        return False
    if stage == 2 and branch == 1 and not ok:
        return False  # one least-squares elbow is enough
    q2 = q3s[branch if branch < n3 else 0]
    q1, q3, _ = _shoulder(d, q2, phi, h, a, b)
    q[1], q[2], q[3], q[4] = q1, q2, q3, q4
    return True


@njit(cache=True)
def _polish(H, P, R_tip, Rg, pg, q, steps, jac, position=False):
    """Up to ``steps`` Gauss-Newton steps on the pose error (six equations, ``n`` < 6 joints:
    least squares by the normal equations), in place on ``q``, each kept only if it makes
    the error smaller; with ``position``, on the position alone (three equations: the
    least-norm step). ``jac`` (11, 6) scratch (the Jacobian in its first 6 rows, the
    equations below). Returns the final (position error, angle error)."""
    n = H.shape[0]
    R, p = forward(H, P, R_tip, q)
    ep, er, dp, da = _errors(Rg, pg, R, p)
    trial = np.empty(n)
    for _ in range(steps):
        if dp + da == 0.0:
            break
        jacobian(H, P, q, p, jac)
        e = (ep[0], ep[1], ep[2], er[0], er[1], er[2])
        found = _position_step(jac, e, n, q, trial) if position else _pose_step(jac, e, n, q, trial)
        if not found:
            break
        taken, p2, ep2, er2, dp2, da2 = try_step(H, P, R_tip, Rg, pg, q, trial, dp, da, position)
        if not taken:
            break
        p, ep, er, dp, da = p2, ep2, er2, dp2, da2
    return dp, da


@njit(cache=True, inline="always")
def _position_step(jac, e, n, q, trial):
    """The least-norm step on the position: ``J J^T y = e`` (3 x 3, in rows 6-8 of ``jac``),
    ``trial = q + J^T y`` (n,), for the Jacobian's position rows ``jac[:3, :n]`` and the
    error ``e`` (6-tuple, its first three metres). False when the system is singular."""
    sys3 = jac[6:9, :]
    for i in range(3):
        for j in range(3):
            sys3[i, j] = 0.0
            for c in range(n):
                sys3[i, j] += jac[i, c] * jac[j, c]
        sys3[i, 3] = e[i]
    if not _gauss(sys3, 3):
        return False
    for c in range(n):
        trial[c] = q[c] + (jac[0, c] * sys3[0, 3] + jac[1, c] * sys3[1, 3] + jac[2, c] * sys3[2, 3])
    return True


@njit(cache=True, inline="always")
def _pose_step(jac, e, n, q, trial):
    """The least-squares step on the pose: the normal equations ``J^T J x = J^T e`` (n x n,
    in rows 6-10 of ``jac``), ``trial = q + x`` (n,), for the Jacobian ``jac[:6, :n]`` and
    the error ``e`` (6-tuple: metres, then radians). False when the system is singular."""
    normal_eq = jac[6:11, :]  # (n, n + 1): J^T J | J^T e
    for i in range(n):
        for j in range(n):
            normal_eq[i, j] = 0.0
            for r6 in range(6):
                normal_eq[i, j] += jac[r6, i] * jac[r6, j]
        normal_eq[i, n] = 0.0
        for r6 in range(6):
            normal_eq[i, n] += jac[r6, i] * e[r6]
    if not _gauss(normal_eq, n):
        return False
    for i in range(n):
        trial[i] = q[i] + normal_eq[i, n]
    return True


@njit(cache=True)
def _count(group, kept, g):
    """How many of the first ``kept`` entries of ``group`` are ``g``."""
    c = 0
    for i in range(kept):
        c += group[i] == g
    return c


@njit(cache=True)
def _keep(arm, goal, q, stage, limits, tols, table, kept, singular, jac):
    """Check the candidate ``q`` (5,) by forward kinematics (on the exact pass polished where
    it is off by more than ``tols[2]`` metres or 1e-12 rad; ``jac`` (11, 6) scratch), place it
    in its group (unless a duplicate, or an exact pose on the wrong pass) and return the new
    count. ``arm``: ``(H, P, R_tip)`` of the ``n`` joints; ``goal``: (rotation 9-tuple,
    position 3-tuple); ``limits``: ``(lo, hi, start)`` radians; ``tols``: (tol metres,
    angle_tol radians, the rounding); ``table``: the kept ``(rows, info, group)``;
    ``singular``: SINGULAR when the base's turn is not fixed by the position (the goal on
    axis 1)."""
    H, P, R_tip = arm
    Rg, pg = goal
    n = H.shape[0]
    dp, da = _pose_errors(H, P, R_tip, Rg, pg, q[:n], stage, tols[2], jac)
    exact = dp <= tols[0] and da <= tols[1]
    flags = singular
    if stage == 0 and not exact:
        return kept
    if stage == 1:
        if dp > tols[0]:
            return kept
        if not exact:
            flags |= NOT_EXACT | NEAREST_ORIENTATION
    if stage == 2:
        flags |= NOT_EXACT
    rows, info, group = table
    lo, hi, start = limits
    for j in range(n):
        v = wrap(q[j])
        if stage < 2:
            x = _into_limits(v, lo[j], hi[j], start[j])
            if x != x:
                flags |= OUTSIDE_LIMITS
            else:
                v = x
        rows[kept, j] = v
    g = 2 if stage == 2 else 1 if flags & OUTSIDE_LIMITS else 0
    if duplicate_of(rows, group, kept, g, n) >= 0:
        return kept
    group[kept] = g
    info[kept, 0] = flags
    info[kept, 1] = dp
    info[kept, 2] = da
    # exact: by distance from the start; the others by their pose error first
    dist = distance(rows, kept, start, lo)
    info[kept, 3] = dist if stage == 0 else (dp + da) * 1e6 + dist
    return kept + 1


@njit(cache=True, inline="always")
def _pose_errors(H, P, R_tip, Rg, pg, q, stage, fine, jac):
    """The position (metres) and angle (radians) errors of ``q`` (n,) from the goal ``Rg``,
    ``pg``, after polishing in place: on the exact pass (``stage`` 0) the pose where it is off
    by more than ``fine`` metres or 1e-12 rad, on the nearest-orientation pass the position
    alone (the orientation is the search's)."""
    R, p = forward(H, P, R_tip, q)
    _, _, dp, da = _errors(Rg, pg, R, p)
    if stage == 0 and (dp > fine or da > 1e-12):  # rounding, or axes parallel to tolerance
        dp, da = _polish(H, P, R_tip, Rg, pg, q, 4, jac)
    elif stage == 1 and dp > fine:
        dp, da = _polish(H, P, R_tip, Rg, pg, q, 4, jac, True)
    return dp, da


@njit(cache=True)
def _write(rows, info, group, kept, n, out):
    """The kept rows into ``out`` by group, each group sorted by its key; the sizes."""
    m = out.shape[0]
    s0 = s1 = s2 = 0
    r = 0
    for g in range(3):
        while True:
            best = -1
            for i in range(kept):
                if group[i] == g and (best < 0 or info[i, 3] < info[best, 3]):
                    best = i
            if best < 0:
                break
            group[best] = -1.0
            if r < m:
                for j in range(n):
                    out[r, j] = rows[best, j]
                out[r, n] = info[best, 0]
                out[r, n + 1] = info[best, 1]
                out[r, n + 2] = info[best, 2]
                r += 1
                if g == 0:
                    s0 += 1
                elif g == 1:
                    s1 += 1
                else:
                    s2 += 1
    return s0, s1, s2
