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

This module holds the family, the packed model and the closed forms; the search for the nearest
orientation is :mod:`.five_search`, the polishing, judging and keeping of candidates
:mod:`.five_keep`.
"""

from __future__ import annotations

import math

import numpy as np
from numba import njit

from geoik.geometry import copy_into
from geoik.jit import call, slow_to_compile
from geoik.solvers.analytic.algebra import _angle_of, mmt, mtm, mtv, mv, normal, rot
from geoik.solvers.analytic.finish import (
    SINGULAR,
    chain_size,
    goal_error,
    tuple9,
)
from geoik.solvers.analytic.five_keep import (
    NEAREST_ORIENTATION,
    _count,
    _keep,
    _write,
)
from geoik.solvers.analytic.five_search import FINER, SAMPLES, _elbows, _search, _shoulder
from geoik.solvers.analytic.subproblems import DEGENERATE, LEAST_SQUARES, sp1, sp4

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

MAX_ROWS = 8
"""Rows of the output: up to 4 exact solutions and 4 others."""
SHORT_MODEL_SIZE = 54
"""Length of a packed model (:func:`pack_short`)."""
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
    # NumPy here, not the kernels' copy_into and normal called directly: a direct call would
    # set numba's compiler up (0.2-0.3 s) in a process that has run no kernel yet
    h[:n], p[: n + 1], lo5[:n], hi5[:n] = H, P, lo, hi
    if n == 4:
        h[4] = call(normal, (float(H[1, 0]), float(H[1, 1]), float(H[1, 2])))
    parts = [[float(code), float(n)], h, p, R_tip, lo5, hi5]
    out = np.concatenate([np.ravel(np.asarray(x, dtype=np.float64)) for x in parts])
    assert out.shape == (SHORT_MODEL_SIZE,)
    out.setflags(write=False)
    return out


WORK_SIZE = 2 + 2 + 5 + 5 + 5 + 16 * 5 + 16 * 4 + 16 + 66
"""Length of the scratch array of :func:`solve_short`."""


@slow_to_compile  # tens of seconds: a helper compiles it while calls run as Python
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


@njit(cache=True, inline="always")
def solve_short(model, R_goal, p_goal, start, tol, angle_tol, out, work):
    """:func:`all_solutions_short` with its scratch ``work`` (:data:`WORK_SIZE`) given.
    Inlined there: compiled on its own, numba would link and optimise the whole solve a second
    time into that thin kernel."""
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
    kept = np.int64(0)  # typed: a literal 0 would compile _keep and _write once more
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
