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
  M (c - o_3)`` gives ``q_2`` (2), SP1 ``q_1``, SP1 ``q_3``.

Spherical wrist (``h_3``, ``h_4``, ``h_5`` meet at ``w``): ``w`` moves with ``q_0 .. q_2`` only,
found by one of five position compositions (see :mod:`.decompose`), then SP2 gives ``q_3, q_4``
from ``R_3^T R36 h_5 = R_4 h_5`` (2) and SP1 ``q_5``.

Searched (``h_4`` and ``h_5`` meet at ``c``, nothing more): for each angle of joint 0, SP5
places ``c`` (``q_1 .. q_3``, up to 4), and the wrist's two joints can meet the orientation
only where ``h_4 . R03^T R06 h_5 = h_4 . h_5``; that residual is followed along each branch
over :data:`SEARCH_SAMPLES` angles and its sign changes refined (:func:`search_56`). A root
where two branches merge (a tangency) can be missed; every candidate is checked by the
forward kinematics afterwards.
"""

from __future__ import annotations

import math

import numpy as np
from numba import njit

from geoik.geometry import copy_into, wrap
from geoik.solvers.analytic.subproblems import DEGENERATE, LEAST_SQUARES, sp1, sp2, sp3, sp4, sp5

__all__ = ["MAX_SOLUTIONS", "solve_6r"]

MAX_SOLUTIONS = 16
"""Rows of the candidate buffer: 8 for the closed forms, 16 for the search."""


@njit(cache=True)
def _v(a, i):
    return (a[i, 0], a[i, 1], a[i, 2])


@njit(cache=True)
def _add(a, b):
    return (a[0] + b[0], a[1] + b[1], a[2] + b[2])


@njit(cache=True)
def _sub(a, b):
    return (a[0] - b[0], a[1] - b[1], a[2] - b[2])


@njit(cache=True)
def _neg(a):
    return (-a[0], -a[1], -a[2])


@njit(cache=True)
def _dot(a, b):
    return a[0] * b[0] + a[1] * b[1] + a[2] * b[2]


@njit(cache=True)
def _norm(a):
    return math.sqrt(a[0] * a[0] + a[1] * a[1] + a[2] * a[2])


@njit(cache=True)
def rot(k, t):
    """Rotation by ``t`` about the unit axis ``k``, a 9-tuple (row major)."""
    c, s = math.cos(t), math.sin(t)
    u = 1.0 - c
    x, y, z = k[0], k[1], k[2]
    return (
        c + u * x * x,
        u * x * y - s * z,
        u * x * z + s * y,
        u * x * y + s * z,
        c + u * y * y,
        u * y * z - s * x,
        u * x * z - s * y,
        u * y * z + s * x,
        c + u * z * z,
    )


@njit(cache=True)
def mv(r, v):
    """``r v``."""
    return (
        r[0] * v[0] + r[1] * v[1] + r[2] * v[2],
        r[3] * v[0] + r[4] * v[1] + r[5] * v[2],
        r[6] * v[0] + r[7] * v[1] + r[8] * v[2],
    )


@njit(cache=True)
def mtv(r, v):
    """``r^T v``."""
    return (
        r[0] * v[0] + r[3] * v[1] + r[6] * v[2],
        r[1] * v[0] + r[4] * v[1] + r[7] * v[2],
        r[2] * v[0] + r[5] * v[1] + r[8] * v[2],
    )


@njit(cache=True)
def mm(a, b):
    """``a b``."""
    return (
        a[0] * b[0] + a[1] * b[3] + a[2] * b[6],
        a[0] * b[1] + a[1] * b[4] + a[2] * b[7],
        a[0] * b[2] + a[1] * b[5] + a[2] * b[8],
        a[3] * b[0] + a[4] * b[3] + a[5] * b[6],
        a[3] * b[1] + a[4] * b[4] + a[5] * b[7],
        a[3] * b[2] + a[4] * b[5] + a[5] * b[8],
        a[6] * b[0] + a[7] * b[3] + a[8] * b[6],
        a[6] * b[1] + a[7] * b[4] + a[8] * b[7],
        a[6] * b[2] + a[7] * b[5] + a[8] * b[8],
    )


@njit(cache=True)
def mtm(a, b):
    """``a^T b``."""
    return (
        a[0] * b[0] + a[3] * b[3] + a[6] * b[6],
        a[0] * b[1] + a[3] * b[4] + a[6] * b[7],
        a[0] * b[2] + a[3] * b[5] + a[6] * b[8],
        a[1] * b[0] + a[4] * b[3] + a[7] * b[6],
        a[1] * b[1] + a[4] * b[4] + a[7] * b[7],
        a[1] * b[2] + a[4] * b[5] + a[7] * b[8],
        a[2] * b[0] + a[5] * b[3] + a[8] * b[6],
        a[2] * b[1] + a[5] * b[4] + a[8] * b[7],
        a[2] * b[2] + a[5] * b[5] + a[8] * b[8],
    )


@njit(cache=True)
def mmt(a, b):
    """``a b^T``."""
    return (
        a[0] * b[0] + a[1] * b[1] + a[2] * b[2],
        a[0] * b[3] + a[1] * b[4] + a[2] * b[5],
        a[0] * b[6] + a[1] * b[7] + a[2] * b[8],
        a[3] * b[0] + a[4] * b[1] + a[5] * b[2],
        a[3] * b[3] + a[4] * b[4] + a[5] * b[5],
        a[3] * b[6] + a[4] * b[7] + a[5] * b[8],
        a[6] * b[0] + a[7] * b[1] + a[8] * b[2],
        a[6] * b[3] + a[7] * b[4] + a[8] * b[5],
        a[6] * b[6] + a[7] * b[7] + a[8] * b[8],
    )


@njit(cache=True)
def normal(k):
    """A unit vector perpendicular to the unit vector ``k``."""
    ax, ay, az = abs(k[0]), abs(k[1]), abs(k[2])
    if ax <= ay and ax <= az:
        v = (0.0, k[2], -k[1])
    elif ay <= az:
        v = (-k[2], 0.0, k[0])
    else:
        v = (k[1], -k[0], 0.0)
    n = _norm(v)
    return (v[0] / n, v[1] / n, v[2] / n)


@njit(cache=True)
def _angle_of(r, k):
    """SP1: the angle of the rotation ``r`` (about ``k``, as far as it is one) about ``k``."""
    u = normal(k)
    t, f = sp1(u, mv(r, u), k)
    return t, f & ~DEGENERATE


@njit(cache=True)
def _put(cand, cflags, count, q0, q1, q2, q3, q4, q5, flags):
    if count < cand.shape[0]:
        cand[count, 0] = q0
        cand[count, 1] = q1
        cand[count, 2] = q2
        cand[count, 3] = q3
        cand[count, 4] = q4
        cand[count, 5] = q5
        cflags[count] = flags
        return count + 1
    return count


@njit(cache=True)
def solve_6r(code, H, P, points, R06, p_goal, tip0, cand, cflags, two, four3):
    """Every candidate of the family ``code`` (see :mod:`.decompose`) for the goal ``R06`` (a
    9-tuple) and ``p_goal`` (3-tuple); ``tip0`` the tip's position at the zero configuration;
    ``two`` (3, 2) and ``four3`` (4, 3) scratch. Returns the number of candidates."""
    axes = (_v(H, 0), _v(H, 1), _v(H, 2), _v(H, 3), _v(H, 4), _v(H, 5))
    o0 = _v(P, 0)
    o1 = _add(o0, _v(P, 1))
    o2 = _add(o1, _v(P, 2))
    o3 = _add(o2, _v(P, 3))
    if code == 7:
        return search_56(axes, (o0, o1, o2, o3), _v(points, 0), (R06, p_goal), tip0, cand, cflags)
    if code == 1:
        return _three_parallel(
            axes, (o0, o1, o2, o3), _v(points, 0), (R06, p_goal), tip0, cand, cflags, two
        )
    w = _v(points, 0)
    wg = _sub(p_goal, mv(R06, _sub(tip0, w)))  # where the wrist centre must be
    # the wrist centre from joint 1's origin, and the links from joint 1 to it
    arm = (_sub(wg, o0), _sub(o1, o0), _sub(o2, o1), _sub(w, o2))
    pos = four3
    count = 0
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
    return _wrist(axes, R06, pos, count, cand, cflags)


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
    pair = pos[:2, :2].copy()
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
    pair = pos[:2, :2].copy()
    for i in range(n0):
        x = _sub(mtv(rot(h0, q0s[i]), v), c12)
        n12, f12 = sp2(x, wc, h1, h2, pair)
        for j in range(n12):
            count = _position(pos, cflags, count, q0s[i], -pair[j, 0], pair[j, 1], f0 | f12)
    return count


@njit(cache=True)
def _wrist(axes, R06, pos, npos, cand, cflags):
    """Append the spherical wrist's angles to each position solution ``pos[:npos]`` (rows of
    the first three joints' angles, radians), writing full candidates into ``cand`` (flags in
    ``cflags``); ``axes`` the six unit axes (3-tuples) at the zero configuration, ``R06`` the
    goal rotation (9-tuple). Returns the number of candidates."""
    h0, h1, h2, h3, h4, h5 = axes
    count = 0
    pflags = cflags[:npos].copy()
    pair = cand[:2, :2].copy()
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
    ``c``): SP4 ``q_0``, SP4 ``q_4``, SP1 ``q_5``, SP3 ``q_2``, SP1 ``q_1``, SP1 ``q_3`` (see
    the module's text). ``axes``: the six unit axes, ``origins``: ``o_0 .. o_3``, ``c`` and
    ``tip0`` (3-tuples, metres); ``goal``: ``(R06, p_goal)``. Candidates into ``cand``
    (16, 6) and ``cflags``; ``two`` (3, 2) scratch. Returns their count."""
    h0, h1, h2, h3, h4, h5 = axes
    o0, o1, o2, o3 = origins
    R06, p_goal = goal
    h = h1
    cg = _sub(p_goal, mv(R06, _sub(tip0, c)))  # where c must be
    v = _sub(cg, o0)
    q0s = two[0]
    q4s = two[1]
    q2s = two[2]
    count = 0
    n0, f0 = sp4(h, v, _neg(h0), _dot(h, _sub(c, o0)), q0s)
    pp1 = _sub(o1, o0)
    pp2 = _sub(o2, o1)
    pp3 = _sub(o3, o2)
    pp4 = _sub(c, o3)
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
            d = _sub(_sub(v0, pp1), mv(m, pp4))
            n2, f2 = sp3(pp3, _neg(pp2), h2, _norm(d), q2s)
            for k in range(n2):
                q2 = q2s[k]
                r2 = rot(h2, q2)
                q1, f1 = sp1(_add(pp2, mv(r2, pp3)), d, h1)
                r12 = mm(rot(h1, q1), r2)
                q3, f3 = _angle_of(mtm(r12, m), h3)
                count = _put(
                    cand, cflags, count, q0, q1, q2, q3, q4, q5, f0 | f4 | f5 | f2 | f1 | f3
                )
    return count


SEARCH_SAMPLES = 64
"""Samples of joint 0's angle in the searched family (then each bracket is refined)."""
SEARCH_FINER = 16
"""Each sample interval where branches are born or merge, or where a residual comes near zero
(:data:`SEARCH_NEAR`), is sampled this many times finer."""
SEARCH_NEAR = 0.2


@njit(cache=True)
def _search_branches(t, arm, buf):
    """Joint 0 at ``t``: SP5 places ``c`` (``q_1 .. q_3``, up to 4 rows of ``buf`` (4, 4)) and
    the residual ``h_4 . R03^T R06 h_5 - h_4 . h_5`` of each (column 3), which vanishes where
    the wrist can meet the orientation. ``arm``: the searched family's problem
    ``(axes, o0, (pp1, pp2, pp3, pp4), cg, R06)`` (:func:`search_56`). Returns the count."""
    axes, o0, links, cg, R06 = arm
    h0, h1, h2, h3, h4, h5 = axes
    pp1, pp2, pp3, pp4 = links
    x = _sub(mtv(rot(h0, t), _sub(cg, o0)), pp1)
    n, flags = sp5(_neg(pp2), x, pp3, pp4, _neg(h1), h2, h3, buf[:, :3])
    if flags & LEAST_SQUARES:  # c out of reach at this angle: no branch
        return 0
    # sp5 writes (t1, t2, t3) = (q1, q2, q3)
    for i in range(n):
        r03 = mm(mm(mm(rot(h0, t), rot(h1, buf[i, 0])), rot(h2, buf[i, 1])), rot(h3, buf[i, 2]))
        buf[i, 3] = _dot(h4, mtv(r03, mv(R06, h5))) - _dot(h4, h5)
    return n


@njit(cache=True)
def _nearest(buf, n, q1, q2, q3):
    """The row of ``buf[:n]`` whose joints 1-3 are nearest ``(q1, q2, q3)`` (radians, the sum
    of wrapped differences); -1 when ``n`` is 0."""
    best = -1
    gap = 1e300
    for i in range(n):
        d = abs(wrap(buf[i, 0] - q1)) + abs(wrap(buf[i, 1] - q2)) + abs(wrap(buf[i, 2] - q3))
        if d < gap:
            gap = d
            best = i
    return best


@njit(cache=True)
def search_56(axes, origins, c, goal, tip0, cand, cflags):
    """The searched family: axes 4 and 5 meet at ``c``; joint 0's angle is sampled, each
    sample solved by SP5 for ``q_1 .. q_3`` and its orientation residual followed along the
    branch to the next sample (the nearest branch there); each sign change is refined by
    regula falsi, then SP1 gives ``q_4`` and ``q_5``. ``axes``: the six unit axes,
    ``origins``: ``o_0 .. o_3``, ``c`` and ``tip0`` (3-tuples, metres); ``goal``: ``(R06,
    p_goal)``. Candidates into ``cand`` (16, 6) and ``cflags``; returns their count."""
    o0, o1, o2, o3 = origins
    R06, p_goal = goal
    cg = _sub(p_goal, mv(R06, _sub(tip0, c)))
    links = (_sub(o1, o0), _sub(o2, o1), _sub(o3, o2), _sub(c, o3))
    arm = (axes, o0, links, cg, R06)
    N = SEARCH_SAMPLES
    step = 2.0 * math.pi / N
    coarse = np.empty((N + 1, 4, 4))
    ccount = np.empty(N + 1, dtype=np.int64)
    for s in range(N + 1):
        ccount[s] = _search_branches(-math.pi + s * step, arm, coarse[s])
    fine = _finer_where(coarse, ccount)
    ts, samples, counts = _resample(arm, coarse, ccount, fine, step)
    return _follow(arm, ts, samples, counts, cand, cflags)


@njit(cache=True, inline="always")
def _finer_where(coarse, ccount):
    """Which of the ``N`` intervals between the ``N + 1`` samples ``coarse`` (N + 1, 4, 4),
    ``ccount`` branches each, are sampled finer: where branches are born or merge, or a
    residual comes near zero (:data:`SEARCH_NEAR`; then the interval before it too). Returns
    a boolean (N,)."""
    N = ccount.shape[0] - 1
    fine = np.zeros(N, dtype=np.bool_)
    for s in range(N):
        if ccount[s] != ccount[s + 1]:
            fine[s] = True
        for b in range(ccount[s]):
            if abs(coarse[s, b, 3]) < SEARCH_NEAR:
                fine[s] = True
                if s > 0:
                    fine[s - 1] = True
    return fine


@njit(cache=True, inline="always")
def _resample(arm, coarse, ccount, fine, step):
    """The coarse samples (``step`` radians apart from -pi) with :data:`SEARCH_FINER` - 1
    more inside each interval marked ``fine``: the angles ``ts`` (total,), the branches
    (total, 4, 4) and their counts (total,), in order of angle."""
    N = ccount.shape[0] - 1
    total = N + 1
    for s in range(N):
        if fine[s]:
            total += SEARCH_FINER - 1
    ts = np.empty(total)
    samples = np.empty((total, 4, 4))
    counts = np.empty(total, dtype=np.int64)
    k = 0
    for s in range(N + 1):
        ts[k] = -math.pi + s * step
        copy_into(samples[k], coarse[s])
        counts[k] = ccount[s]
        k += 1
        if s < N and fine[s]:
            for f in range(1, SEARCH_FINER):
                ts[k] = -math.pi + (s + f / SEARCH_FINER) * step
                counts[k] = _search_branches(ts[k], arm, samples[k])
                k += 1
    return ts, samples, counts


@njit(cache=True, inline="always")
def _follow(arm, ts, samples, counts, cand, cflags):
    """Each branch of each sample followed to the next sample (forward, and back for those the
    forward pass did not match), to its end where it merges in between; each sign change of
    its residual refined (:func:`_refine`) into a candidate of ``cand`` and ``cflags``.
    Returns the count."""
    buf = np.empty((4, 4))
    count = 0
    u5 = normal(arm[0][5])
    for s in range(ts.shape[0] - 1):
        for side in range(2):  # 0: branches of sample s forward; 1: of sample s + 1 back
            here, there = (s, s + 1) if side == 0 else (s + 1, s)
            for b in range(counts[here]):
                row = samples[here, b]
                j = _nearest(samples[there], counts[there], row[0], row[1], row[2])
                if side == 1 and j >= 0 and counts[there] >= counts[here]:
                    continue  # matched both ways: the forward pass saw it
                t_far = ts[there]
                e_far = 0.0
                if j >= 0 and counts[there] >= counts[here]:
                    e_far = samples[there, j, 3]
                else:  # the branch ends (merges) between: follow it to its end
                    t_far, e_far, ok = _branch_end(ts[here], ts[there], row, arm, counts[here], buf)
                    if not ok:
                        continue
                e_here = row[3]
                if e_here == 0.0 or e_far == 0.0 or (e_here > 0.0) == (e_far > 0.0):
                    continue
                if side == 0:
                    bracket = (ts[here], t_far, e_here, e_far)
                else:
                    bracket = (t_far, ts[here], e_far, e_here)
                count = _refine(bracket, row, arm, buf, u5, cand, cflags, count)
    return count


@njit(cache=True)
def _branch_end(t0, t1, row, arm, full, buf):
    """The last angle from ``t0`` towards ``t1`` where the branch through ``row`` still exists
    (``full`` branches), by bisection; returns it, the branch's residual there, and whether
    one was found. ``arm`` as :func:`_search_branches`, ``buf`` (4, 4) scratch."""
    a, b = t0, t1
    e = row[3]
    q1, q2, q3 = row[0], row[1], row[2]
    found = False
    for _ in range(40):
        m = 0.5 * (a + b)
        n = _search_branches(m, arm, buf)
        if n >= full:
            k = _nearest(buf, n, q1, q2, q3)
            q1, q2, q3, e = buf[k, 0], buf[k, 1], buf[k, 2], buf[k, 3]
            a = m
            found = True
        else:
            b = m
    return a, e, found


@njit(cache=True)
def _refine(bracket, row, arm, buf, u5, cand, cflags, count):
    """Regula falsi (Illinois) on the residual along the branch through ``row`` within
    ``bracket`` ``(lo, hi, e_lo, e_hi)`` (radians, and the residuals there), then the wrist's
    two angles by SP1 (``u5`` a unit vector normal to ``h_5``); the candidate is appended to
    ``cand`` and ``cflags`` at ``count``. ``arm`` as :func:`_search_branches`, ``buf`` (4, 4)
    scratch. Returns the new count."""
    lo, hi, ea, eb = bracket
    q1, q2, q3 = row[0], row[1], row[2]
    side = 0
    t = lo
    for _ in range(60):
        t = (lo * eb - hi * ea) / (eb - ea)
        if not lo <= t <= hi:
            t = 0.5 * (lo + hi)
        n = _search_branches(t, arm, buf)
        k = _nearest(buf, n, q1, q2, q3)
        if k < 0:
            return count
        q1, q2, q3 = buf[k, 0], buf[k, 1], buf[k, 2]
        e = buf[k, 3]
        if e == 0.0 or hi - lo < 1e-14 or abs(e) < 1e-15:
            break
        if (e > 0.0) == (ea > 0.0):
            lo, ea = t, e
            if side == -1:
                eb *= 0.5
            side = -1
        else:
            hi, eb = t, e
            if side == 1:
                ea *= 0.5
            side = 1
    h0, h1, h2, h3, h4, h5 = arm[0]
    R06 = arm[4]
    r03 = mm(mm(mm(rot(h0, t), rot(h1, q1)), rot(h2, q2)), rot(h3, q3))
    v = mtv(r03, mv(R06, h5))
    q4, f4 = sp1(h5, v, h4)
    r36 = mtm(r03, R06)
    q5, f5 = sp1(u5, mtv(rot(h4, q4), mv(r36, u5)), h5)
    return _put(cand, cflags, count, t, q1, q2, q3, q4, q5, f4 | f5)
