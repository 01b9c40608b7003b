"""One compiled composition of subproblems per kinematic family of 6R arms.

Each family kernel takes the chain as solved (``H`` (6, 3), ``P`` (7, 3), see
:mod:`geoik.robots.poe`), the family's special points (:class:`.decompose.Plan`), the goal as
``R06 = R_goal R_tip^T`` (the product of the six joint rotations) and the tip's goal position,
and writes every candidate (6 joint values) into ``cand`` (16, 6) with its subproblem flags
(:mod:`.subproblems`) in ``cflags``; it returns the count. Notation: ``o_i`` is joint ``i``'s
origin at the zero configuration, ``R_i`` the rotation by ``q_i`` about ``h_i`` (through
``o_i``), ``R06 = R_0 ... R_5``. Vectors and rotations inside are tuples (3 and 9 floats, row
major), so a solve allocates almost nothing.

Three parallel axes (``h_1 || h_2 || h_3 = h``, ``h_4`` and ``h_5`` meet at ``c``): ``c`` moves
with ``q_0 .. q_3`` only, and rotations about ``h`` keep ``h``-components, so

- SP4 ``h . R_0^T (c(q) - o_0) = h . (c - o_0)`` gives ``q_0`` (2);
- SP4 ``h . R_4 h_5 = h . R_0^T R06 h_5`` gives ``q_4`` (2);
- SP1 ``R_5 (R16^T h) = R_4^T h`` gives ``q_5``, and ``M = R_1 R_2 R_3`` follows;
- SP3 ``|(o_2 - o_1) + R_2 (o_3 - o_2)| = |d|`` with ``d = R_0^T (c(q) - o_0) - (o_1 - o_0) -
  M (c - o_3)`` gives ``q_2`` (2), SP1 ``q_1``; turns about parallel axes add up, so ``q_3``
  is ``M``'s angle about ``h`` (SP1, once per ``q_0, q_4``) less ``q_1`` and ``q_2``.

Spherical wrist (``h_3``, ``h_4``, ``h_5`` meet at ``w``): ``w`` moves with ``q_0 .. q_2`` only,
found by one of five position compositions (see :mod:`.decompose`), then SP2 gives ``q_3, q_4``
from ``R_3^T R36 h_5 = R_4 h_5`` (2) and SP1 ``q_5``.

Searched (``h_4`` and ``h_5`` meet at ``c``, nothing more): for each angle of joint 0, SP5
places ``c`` and the wrist's residual is followed along each branch
(:func:`.search56.search_56`, in its own module).

The tuple algebra (3-vectors, rotations, the candidate buffer) is :mod:`.algebra`.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from geoik.geometry import wrap
from geoik.solvers.analytic.algebra import (
    _add,
    _angle_of,
    _dot,
    _neg,
    _norm,
    _put,
    _sub,
    _v,
    mm,
    mmt,
    mtm,
    mtv,
    mv,
    normal,
    rot,
    start_term,
)
from geoik.solvers.analytic.search56 import search_56
from geoik.solvers.analytic.subproblems import LEAST_SQUARES, sp1, sp2, sp3, sp4, sp5

__all__ = ["MAX_SOLUTIONS", "NEAR_SIZE", "solve_6r", "solve_6r_closed"]

MAX_SOLUTIONS = 16
"""Rows of the candidate buffer: 8 for the closed forms, 16 for the search."""


@njit(cache=True)
def solve_6r(code, arm, goal, tip0, work):
    """Every candidate of the searched family (``code`` 7; any other gives none): the search
    alone, the closed forms in :func:`solve_6r_closed`, as an arm of that family needs no other
    (its kernel compiled in 19 s rather than 24 s).

    ``arm`` is ``(H, P, points)``: the axes (6, 3), the offsets (7, 3) and the family's
    special points (2, 3) (metres); ``goal`` ``(R06, p_goal)``, a 9-tuple rotation and a
    3-tuple position; ``tip0`` the tip's position at the zero configuration (3-tuple);
    ``work`` ``(cand, cflags, two, four3, near)``: the candidates (16, 6) and their subproblem
    flags (16,) written, with (3, 2) and (4, 3) scratch, and ``near`` (:data:`NEAR_SIZE`,)
    the bound of :func:`_near_rows` (its first value NaN: every candidate). Returns the number
    of candidates."""
    if code != 7:
        return 0
    H, P, points = arm
    cand, cflags = work[0], work[1]
    axes, origins = _frame(H, P)
    return search_56(axes, origins, _v(points, 0), goal, tip0, cand, cflags)


@njit(cache=True)
def solve_6r_closed(code, arm, goal, tip0, work):
    """Every candidate of the closed-form family ``code`` (see :mod:`.decompose`; the searched
    one, ``code`` 7, gives none: :func:`solve_6r`), its arguments as :func:`solve_6r` takes
    them. The search is not in it, which saves about 16 s of compiling every kernel that only
    closed forms reach."""
    H, P, points = arm
    R06, p_goal = goal
    cand, cflags, two, four3, near = work
    if code == 7:
        return 0
    axes, (o0, o1, o2, o3) = _frame(H, P)
    if code == 1:
        return _three_parallel(
            axes, (o0, o1, o2, o3), _v(points, 0), (R06, p_goal), tip0, cand, cflags, two
        )
    w = _v(points, 0)
    wg = _sub(p_goal, mv(R06, _sub(tip0, w)))  # where the wrist centre must be
    # the wrist centre from joint 1's origin, and the links from joint 1 to it
    arm = (_sub(wg, o0), _sub(o1, o0), _sub(o2, o1), _sub(w, o2))
    pos = four3
    count = np.int64(0)  # typed: a literal 0 would compile _wrist once more
    if code == 2:  # h1 || h2
        count = _parallel_12(axes, arm, _dot(axes[1], _sub(w, o0)), two, pos, cflags)
    elif code == 3:  # h0 and h1 meet at c01
        count = _meeting_01(
            axes, arm, _sub(wg, _v(points, 1)), _sub(o2, _v(points, 1)), two, pos, cflags
        )
    elif code == 4:  # h0 || h1
        count = _parallel_01(axes, arm, two, pos, cflags)
    elif code == 5:  # h1 and h2 meet at c12
        count = _meeting_12(
            axes, arm, _sub(_v(points, 1), o0), _sub(w, _v(points, 1)), two, pos, cflags
        )
    elif code == 6:
        v, pp1, pp2, pp3 = arm
        n5, f5 = sp5(_neg(pp1), v, pp2, pp3, _neg(axes[0]), axes[1], axes[2], pos)
        for i in range(n5):
            cflags[i] = f5
        count = n5
    return _wrist(axes, R06, pos, _near_rows(pos, cflags, count, near), cand, cflags, two)


NEAR_SIZE = 14
"""Length of the ``near`` array of a kernel's ``work`` (:func:`_near_rows`)."""


@njit(cache=True, inline="always")
def _near_rows(pos, cflags, count, near):
    """Of the wrist centre's ``count`` rows of ``pos`` (the first three joints' values, flags in
    ``cflags``), those that can give a candidate nearer a start than a bound, moved to the
    front; returns their count. ``near`` (:data:`NEAR_SIZE`,): the bound (squared radians;
    NaN: every row kept, as for every solution of a pose), the squared distance the caller
    adds (a held joint's), then per position joint its sign (-1 for a chain solved from its
    tip), limits and start value. A row goes when it is least squares, when a joint has no turn
    within its limits, or when these joints alone are farther from the start than the bound:
    the joints of its candidates would be too (:func:`.algebra.start_term`, the caller's terms)."""
    bound = near[0]
    if bound != bound:
        return count
    kept = 0
    for r in range(count):
        if cflags[r] & LEAST_SQUARES:
            continue
        dist = near[1]
        for k in range(3):  # NaN when no turn is within the limits
            b = 2 + 4 * k
            dist += start_term(wrap(near[b] * pos[r, k]), near[b + 1], near[b + 2], near[b + 3])
        # (kept, within rounding, when it ties the bound: the caller's sum runs in another order)
        if dist <= bound * (1.0 + 1e-12):
            for k in range(3):
                pos[kept, k] = pos[r, k]
            cflags[kept] = cflags[r]
            kept += 1
    return kept


@njit(cache=True, inline="always")
def _frame(H, P):
    """The six axes (3-tuples) of ``H`` (6, 3) and the origins ``o_0 .. o_3`` of the first
    four joints (3-tuples, metres) from the offsets ``P`` (7, 3)."""
    axes = (_v(H, 0), _v(H, 1), _v(H, 2), _v(H, 3), _v(H, 4), _v(H, 5))
    o0 = _v(P, 0)
    o1 = _add(o0, _v(P, 1))
    o2 = _add(o1, _v(P, 2))
    o3 = _add(o2, _v(P, 3))
    return axes, (o0, o1, o2, o3)


@njit(cache=True, inline="always")
def _position(pos, cflags, count, q0, q1, q2, flags):
    """Append the wrist centre's joints ``(q0, q1, q2)`` (radians) with their subproblem
    ``flags`` as row ``count`` of ``pos`` (4, 3) and ``cflags``, while there is room (4
    rows). Returns the new count."""
    if count < 4:
        pos[count, 0] = q0
        pos[count, 1] = q1
        pos[count, 2] = q2
        cflags[count] = flags
        count += 1
    return count


@njit(cache=True, inline="always")
def _parallel_12(axes, arm, d_h, two, pos, cflags):
    """The wrist centre placed by ``q_0 .. q_2`` where ``h_1 || h_2``: SP4 ``q_0`` (the
    component ``d_h`` along ``h_1``, metres), SP3 ``q_2``, SP1 ``q_1``. ``axes``: the six
    unit axes (3-tuples); ``arm``: the wrist centre's goal from joint 1's origin and the
    links ``o_1 - o_0``, ``o_2 - o_1``, ``w - o_2`` (3-tuples, metres). Rows into ``pos``
    (4, 3), flags into ``cflags``; ``two`` (3, 2) scratch. Returns the count."""
    h0, h1, h2 = axes[0], axes[1], axes[2]
    v, pp1, pp2, pp3 = arm
    q0s = two[0]
    q2s = two[2]
    count = 0
    n0, f0 = sp4(h1, v, _neg(h0), d_h, q0s)
    for i in range(n0):
        r0 = rot(h0, q0s[i])
        d = _sub(mtv(r0, v), pp1)
        n2, f2 = sp3(pp3, _neg(pp2), h2, _norm(d), q2s)
        for j in range(n2):
            x = _add(pp2, mv(rot(h2, q2s[j]), pp3))
            q1, f1 = sp1(x, d, h1)
            count = _position(pos, cflags, count, q0s[i], q1, q2s[j], f0 | f1 | f2)
    return count


@njit(cache=True, inline="always")
def _meeting_01(axes, arm, r, z, two, pos, cflags):
    """The wrist centre placed where ``h_0`` and ``h_1`` meet at ``c01``: SP3 ``q_2`` (``r``
    the wrist centre's goal and ``z = o_2`` from ``c01``, metres), SP2 ``q_0, q_1``.
    Arguments and return as :func:`_parallel_12`."""
    h0, h1, h2 = axes[0], axes[1], axes[2]
    pp3 = arm[3]
    q2s = two[2]
    count = 0
    n2, f2 = sp3(pp3, _neg(z), h2, _norm(r), q2s)
    pair = two[:2]  # rows 0 and 1 (q2s is row 2)
    for j in range(n2):
        vv = _add(z, mv(rot(h2, q2s[j]), pp3))
        n01, f01 = sp2(r, vv, h0, h1, pair)
        for i in range(n01):
            count = _position(pos, cflags, count, -pair[i, 0], pair[i, 1], q2s[j], f2 | f01)
    return count


@njit(cache=True, inline="always")
def _parallel_01(axes, arm, two, pos, cflags):
    """The wrist centre placed by ``q_0 .. q_2`` where ``h_0 || h_1``: SP4 ``q_2``, SP3
    ``q_1``, SP1 ``q_0``. Arguments and return as :func:`_parallel_12`."""
    h0, h1, h2 = axes[0], axes[1], axes[2]
    v, pp1, pp2, pp3 = arm
    q1s = two[1]
    q2s = two[2]
    count = 0
    n2, f2 = sp4(h0, pp3, h2, _dot(h0, v) - _dot(h0, _add(pp1, pp2)), q2s)
    nv = _norm(v)
    for j in range(n2):
        vv = _add(pp2, mv(rot(h2, q2s[j]), pp3))
        n1, f1 = sp3(vv, _neg(pp1), h1, nv, q1s)
        for i in range(n1):
            x = _add(pp1, mv(rot(h1, q1s[i]), vv))
            q0, f0 = sp1(x, v, h0)
            count = _position(pos, cflags, count, q0, q1s[i], q2s[j], f0 | f1 | f2)
    return count


@njit(cache=True, inline="always")
def _meeting_12(axes, arm, c12, wc, two, pos, cflags):
    """The wrist centre placed where ``h_1`` and ``h_2`` meet at a point: SP3 ``q_0``
    (``c12`` that point from ``o_0``, ``wc`` the wrist centre from it, metres), SP2 ``q_1,
    q_2``. Arguments and return as :func:`_parallel_12`."""
    h0, h1, h2 = axes[0], axes[1], axes[2]
    v = arm[0]
    q0s = two[0]
    count = 0
    n0, f0 = sp3(v, c12, _neg(h0), _norm(wc), q0s)
    pair = two[1:]  # rows 1 and 2 (q0s is row 0)
    for i in range(n0):
        x = _sub(mtv(rot(h0, q0s[i]), v), c12)
        n12, f12 = sp2(x, wc, h1, h2, pair)
        for j in range(n12):
            count = _position(pos, cflags, count, q0s[i], -pair[j, 0], pair[j, 1], f0 | f12)
    return count


@njit(cache=True)
def _wrist(axes, R06, pos, npos, cand, cflags, two):
    """Append the spherical wrist's angles to each position solution ``pos[:npos]`` (rows of
    the first three joints' angles, radians), writing full candidates into ``cand`` (flags in
    ``cflags``); ``axes`` the six unit axes (3-tuples) at the zero configuration, ``R06`` the
    goal rotation (9-tuple). Returns the number of candidates."""
    h0, h1, h2, h3, h4, h5 = axes
    count = np.int64(0)  # typed: a literal 0 would compile _put once more
    # the position rows' flags, read before the candidates overwrite them
    pflags = (cflags[0], cflags[1], cflags[2], cflags[3])
    pair = two[:2]  # the position's scratch, free now
    u5 = normal(h5)
    for i in range(npos):
        q0, q1, q2 = pos[i, 0], pos[i, 1], pos[i, 2]
        r03 = mm(mm(rot(h0, q0), rot(h1, q1)), rot(h2, q2))
        r36 = mtm(r03, R06)
        n34, f34 = sp2(mv(r36, h5), h5, h3, h4, pair)
        for j in range(n34):
            q3 = -pair[j, 0]
            q4 = pair[j, 1]
            r35 = mm(rot(h3, q3), rot(h4, q4))
            q5, f5 = sp1(u5, mtv(r35, mv(r36, u5)), h5)
            count = _put(cand, cflags, count, q0, q1, q2, q3, q4, q5, pflags[i] | f34 | f5)
    return count


@njit(cache=True)
def _three_parallel(axes, origins, c, goal, tip0, cand, cflags, two):
    """The three-parallel-axes family (``h_1 || h_2 || h_3``, ``h_4`` and ``h_5`` meeting at
    ``c``): SP4 ``q_0``, SP4 ``q_4``, SP1 ``q_5``, SP3 ``q_2``, SP1 ``q_1``, ``q_3`` from the
    angle of ``R_1 R_2 R_3`` (see the module's text). ``axes``: the six unit axes,
    ``origins``: ``o_0 .. o_3``, ``c`` and ``tip0`` (3-tuples, metres); ``goal``: ``(R06,
    p_goal)``. Candidates into ``cand`` (16, 6) and ``cflags``; ``two`` (3, 2) scratch.
    Returns their count."""
    h0, h1, h2, h3, h4, h5 = axes
    o0, o1, o2, o3 = origins
    R06, p_goal = goal
    h = h1
    cg = _sub(p_goal, mv(R06, _sub(tip0, c)))  # where c must be
    v = _sub(cg, o0)
    q0s = two[0]
    q4s = two[1]
    q2s = two[2]
    count = np.int64(0)  # typed: a literal 0 would compile _put once more
    n0, f0 = sp4(h, v, _neg(h0), _dot(h, _sub(c, o0)), q0s)
    pp1 = _sub(o1, o0)
    pp2 = _sub(o2, o1)
    pp3 = _sub(o3, o2)
    pp4 = _sub(c, o3)
    # turns about parallel axes add up: R_1 R_2 R_3 is the turn by q_1 + s_2 q_2 + s_3 q_3
    # about h (s_i = +-1, the sign of h_i . h), so q_3 follows from M's angle, q_1 and q_2
    s2 = 1.0 if _dot(h2, h) > 0.0 else -1.0
    s3 = 1.0 if _dot(h3, h) > 0.0 else -1.0
    for i in range(n0):
        q0 = q0s[i]
        r0 = rot(h0, q0)
        r16 = mtm(r0, R06)
        n4, f4 = sp4(h, h5, h4, _dot(h, mv(r16, h5)), q4s)
        v0 = mtv(r0, v)
        for j in range(n4):
            q4 = q4s[j]
            r4 = rot(h4, q4)
            q5, f5 = sp1(mtv(r16, h), mtv(r4, h), h5)
            m = mmt(mmt(r16, rot(h5, q5)), r4)  # R_1 R_2 R_3
            t123, f3 = _angle_of(m, h)
            d = _sub(_sub(v0, pp1), mv(m, pp4))
            n2, f2 = sp3(pp3, _neg(pp2), h2, _norm(d), q2s)
            for k in range(n2):
                q2 = q2s[k]
                r2 = rot(h2, q2)
                q1, f1 = sp1(_add(pp2, mv(r2, pp3)), d, h1)
                q3 = wrap(s3 * (t123 - q1 - s2 * q2))
                count = _put(
                    cand, cflags, count, q0, q1, q2, q3, q4, q5, f0 | f4 | f5 | f2 | f1 | f3
                )
    return count
