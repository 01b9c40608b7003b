"""The searched family of 6R arms: axes 5 and 6 meet at ``c``, and nothing more (see
:mod:`.families` for the notation). For each angle of joint 0, SP5 places ``c``
(``q_1 .. q_3``, up to 4), and the wrist's two joints can meet the orientation only where
``h_4 . R03^T R06 h_5 = h_4 . h_5``; that residual is followed along each branch over
:data:`SEARCH_SAMPLES` angles and its sign changes refined (:func:`search_56`). A root where two
branches merge (a tangency) can be missed; every candidate is checked by the forward
kinematics afterwards."""

from __future__ import annotations

import math

import numpy as np
from numba import njit

from geoik.geometry import copy_into, wrap
from geoik.solvers.analytic.algebra import (
    _dot,
    _neg,
    _put,
    _sub,
    mm,
    mtm,
    mtv,
    mv,
    normal,
    rot,
)
from geoik.solvers.analytic.subproblems import LEAST_SQUARES, sp1, sp5

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
    count = np.int64(0)  # typed: a literal 0 would compile _refine once more
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
