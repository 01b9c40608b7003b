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
    h0, h1, h2, h3, h4, h5 = _v(H, 0), _v(H, 1), _v(H, 2), _v(H, 3), _v(H, 4), _v(H, 5)
    o0 = _v(P, 0)
    o1 = _add(o0, _v(P, 1))
    o2 = _add(o1, _v(P, 2))
    o3 = _add(o2, _v(P, 3))
    if code == 7:
        c = _v(points, 0)
        return search_56(h0, h1, h2, h3, h4, h5, o0, o1, o2, o3, c, R06, p_goal, tip0, cand, cflags)
    if code == 1:
        c = _v(points, 0)
        return _three_parallel(
            h0, h1, h2, h3, h4, h5, o0, o1, o2, o3, c, R06, p_goal, tip0, cand, cflags, two
        )
    w = _v(points, 0)
    wg = _sub(p_goal, mv(R06, _sub(tip0, w)))  # where the wrist centre must be
    v = _sub(wg, o0)
    pp1 = _sub(o1, o0)
    pp2 = _sub(o2, o1)
    pp3 = _sub(w, o2)
    count = 0
    q0s = two[0]
    q1s = two[1]
    q2s = two[2]
    pos = four3
    if code == 2:  # h1 || h2
        n0, f0 = sp4(h1, v, _neg(h0), _dot(h1, _sub(w, o0)), q0s)
        for i in range(n0):
            r0 = rot(h0, q0s[i])
            d = _sub(mtv(r0, v), pp1)
            n2, f2 = sp3(pp3, _neg(pp2), h2, _norm(d), q2s)
            for j in range(n2):
                x = _add(pp2, mv(rot(h2, q2s[j]), pp3))
                q1, f1 = sp1(x, d, h1)
                if count < 4:
                    pos[count, 0] = q0s[i]
                    pos[count, 1] = q1
                    pos[count, 2] = q2s[j]
                    cflags[count] = f0 | f1 | f2
                    count += 1
    elif code == 3:  # h0 and h1 meet at c01
        c01 = _v(points, 1)
        r = _sub(wg, c01)
        z = _sub(o2, c01)
        n2, f2 = sp3(pp3, _neg(z), h2, _norm(r), q2s)
        pair = four3[:2, :2].copy()
        for j in range(n2):
            vv = _add(z, mv(rot(h2, q2s[j]), pp3))
            n01, f01 = sp2(r, vv, h0, h1, pair)
            for i in range(n01):
                if count < 4:
                    pos[count, 0] = -pair[i, 0]
                    pos[count, 1] = pair[i, 1]
                    pos[count, 2] = q2s[j]
                    cflags[count] = f2 | f01
                    count += 1
    elif code == 4:  # h0 || h1
        n2, f2 = sp4(h0, pp3, h2, _dot(h0, v) - _dot(h0, _add(pp1, pp2)), q2s)
        nv = _norm(v)
        for j in range(n2):
            vv = _add(pp2, mv(rot(h2, q2s[j]), pp3))
            n1, f1 = sp3(vv, _neg(pp1), h1, nv, q1s)
            for i in range(n1):
                x = _add(pp1, mv(rot(h1, q1s[i]), vv))
                q0, f0 = sp1(x, v, h0)
                if count < 4:
                    pos[count, 0] = q0
                    pos[count, 1] = q1s[i]
                    pos[count, 2] = q2s[j]
                    cflags[count] = f0 | f1 | f2
                    count += 1
    elif code == 5:  # h1 and h2 meet at c12
        c12 = _v(points, 1)
        n0, f0 = sp3(v, _sub(c12, o0), _neg(h0), _norm(_sub(w, c12)), q0s)
        pair = four3[:2, :2].copy()
        for i in range(n0):
            x = _sub(mtv(rot(h0, q0s[i]), v), _sub(c12, o0))
            n12, f12 = sp2(x, _sub(w, c12), h1, h2, pair)
            for j in range(n12):
                if count < 4:
                    pos[count, 0] = q0s[i]
                    pos[count, 1] = -pair[j, 0]
                    pos[count, 2] = pair[j, 1]
                    cflags[count] = f0 | f12
                    count += 1
    elif code == 6:
        n5, f5 = sp5(_neg(pp1), v, pp2, pp3, _neg(h0), h1, h2, pos)
        for i in range(n5):
            cflags[i] = f5
        count = n5
    return _wrist(h0, h1, h2, h3, h4, h5, R06, pos, count, cand, cflags)


@njit(cache=True)
def _wrist(h0, h1, h2, h3, h4, h5, R06, pos, npos, cand, cflags):
    """Append the spherical wrist's angles to each position solution ``pos[:npos]``."""
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
def _three_parallel(
    h0, h1, h2, h3, h4, h5, o0, o1, o2, o3, c, R06, p_goal, tip0, cand, cflags, two
):
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
def _search_branches(t, h0, h1, h2, h3, h4, h5, o0, pp1, pp2, pp3, pp4, cg, R06, buf):
    """Joint 0 at ``t``: SP5 places ``c`` (``q_1 .. q_3``, up to 4 rows of ``buf`` (4, 4)) and
    the residual ``h_4 . R03^T R06 h_5 - h_4 . h_5`` of each (column 3), which vanishes where
    the wrist can meet the orientation. Returns the count."""
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
    best = -1
    gap = 1e300
    for i in range(n):
        d = abs(wrap(buf[i, 0] - q1)) + abs(wrap(buf[i, 1] - q2)) + abs(wrap(buf[i, 2] - q3))
        if d < gap:
            gap = d
            best = i
    return best


@njit(cache=True)
def search_56(h0, h1, h2, h3, h4, h5, o0, o1, o2, o3, c, R06, p_goal, tip0, cand, cflags):
    """The searched family: axes 4 and 5 meet at ``c``; joint 0's angle is sampled, each
    sample solved by SP5 for ``q_1 .. q_3`` and its orientation residual followed along the
    branch to the next sample (the nearest branch there); each sign change is refined by
    regula falsi, then SP1 gives ``q_4`` and ``q_5``. Returns the number of candidates."""
    cg = _sub(p_goal, mv(R06, _sub(tip0, c)))
    pp1, pp2, pp3, pp4 = _sub(o1, o0), _sub(o2, o1), _sub(o3, o2), _sub(c, o3)
    N = SEARCH_SAMPLES
    step = 2.0 * math.pi / N
    coarse = np.empty((N + 1, 4, 4))
    ccount = np.empty(N + 1, dtype=np.int64)
    for s in range(N + 1):
        ccount[s] = _search_branches(
            -math.pi + s * step,
            h0,
            h1,
            h2,
            h3,
            h4,
            h5,
            o0,
            pp1,
            pp2,
            pp3,
            pp4,
            cg,
            R06,
            coarse[s],
        )
    # where branches are born or merge, or a residual comes near zero, sample finer
    fine = np.zeros(N, dtype=np.bool_)
    for s in range(N):
        if ccount[s] != ccount[s + 1]:
            fine[s] = True
        for b in range(ccount[s]):
            if abs(coarse[s, b, 3]) < SEARCH_NEAR:
                fine[s] = True
                if s > 0:
                    fine[s - 1] = True
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
                counts[k] = _search_branches(
                    ts[k], h0, h1, h2, h3, h4, h5, o0, pp1, pp2, pp3, pp4, cg, R06, samples[k]
                )
                k += 1
    buf = np.empty((4, 4))
    count = 0
    u5 = normal(h5)
    for s in range(total - 1):
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
                    t_far, e_far, ok = _branch_end(
                        ts[here],
                        ts[there],
                        row,
                        h0,
                        h1,
                        h2,
                        h3,
                        h4,
                        h5,
                        o0,
                        pp1,
                        pp2,
                        pp3,
                        pp4,
                        cg,
                        R06,
                        counts[here],
                        buf,
                    )
                    if not ok:
                        continue
                e_here = row[3]
                if e_here == 0.0 or e_far == 0.0 or (e_here > 0.0) == (e_far > 0.0):
                    continue
                if side == 0:
                    a_row, lo, hi, ea, eb = row, ts[here], t_far, e_here, e_far
                else:
                    a_row, lo, hi, ea, eb = row, t_far, ts[here], e_far, e_here
                count = _refine(
                    lo,
                    hi,
                    ea,
                    eb,
                    a_row,
                    h0,
                    h1,
                    h2,
                    h3,
                    h4,
                    h5,
                    o0,
                    pp1,
                    pp2,
                    pp3,
                    pp4,
                    cg,
                    R06,
                    buf,
                    u5,
                    cand,
                    cflags,
                    count,
                )
    return count


@njit(cache=True)
def _branch_end(t0, t1, row, h0, h1, h2, h3, h4, h5, o0, pp1, pp2, pp3, pp4, cg, R06, full, buf):
    """The last angle from ``t0`` towards ``t1`` where the branch through ``row`` still exists
    (``full`` branches), by bisection; returns it, the branch's residual there, and whether
    one was found."""
    a, b = t0, t1
    e = row[3]
    q1, q2, q3 = row[0], row[1], row[2]
    found = False
    for _ in range(40):
        m = 0.5 * (a + b)
        n = _search_branches(m, h0, h1, h2, h3, h4, h5, o0, pp1, pp2, pp3, pp4, cg, R06, buf)
        if n >= full:
            k = _nearest(buf, n, q1, q2, q3)
            q1, q2, q3, e = buf[k, 0], buf[k, 1], buf[k, 2], buf[k, 3]
            a = m
            found = True
        else:
            b = m
    return a, e, found


@njit(cache=True)
def _refine(
    lo,
    hi,
    ea,
    eb,
    row,
    h0,
    h1,
    h2,
    h3,
    h4,
    h5,
    o0,
    pp1,
    pp2,
    pp3,
    pp4,
    cg,
    R06,
    buf,
    u5,
    cand,
    cflags,
    count,
):
    """Regula falsi (Illinois) on the residual along the branch through ``row`` between ``lo``
    and ``hi``, then the wrist's two angles by SP1; the candidate is appended."""
    q1, q2, q3 = row[0], row[1], row[2]
    side = 0
    t = lo
    for _ in range(60):
        t = (lo * eb - hi * ea) / (eb - ea)
        if not lo <= t <= hi:
            t = 0.5 * (lo + hi)
        n = _search_branches(t, h0, h1, h2, h3, h4, h5, o0, pp1, pp2, pp3, pp4, cg, R06, buf)
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
    r03 = mm(mm(mm(rot(h0, t), rot(h1, q1)), rot(h2, q2)), rot(h3, q3))
    v = mtv(r03, mv(R06, h5))
    q4, f4 = sp1(h5, v, h4)
    r36 = mtm(r03, R06)
    q5, f5 = sp1(u5, mtv(rot(h4, q4), mv(r36, u5)), h5)
    return _put(cand, cflags, count, t, q1, q2, q3, q4, q5, f4 | f5)
