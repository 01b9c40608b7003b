"""The nearest attainable orientation of an arm of four or five joints (see
:mod:`geoik.solvers.analytic.five` for the family and its notation).

Where no joint values meet the orientation at the position, each base turn ``q_0`` and elbow
branch searches the last link's pitch ``phi`` over the angles where the position is reached
with ``q_1, q_2, q_3`` within their limits: :data:`SAMPLES` samples, the best refined by
bisection to the edge of its feasible interval (:func:`_edge`) and golden-section search inside
it (:func:`_golden`). Each ``phi`` takes its best roll in closed form (:func:`_roll`). The
closed forms the exact solutions share (SP3's elbows, SP1's shoulder) live here too.
"""

from __future__ import annotations

import math

import numpy as np
from numba import njit

from geoik.geometry import copy_into, wrap
from geoik.solvers.analytic.algebra import mtm, mv, rot
from geoik.solvers.analytic.finish import (
    _into_limits,
)
from geoik.solvers.analytic.subproblems import LEAST_SQUARES, sp1, sp3

SAMPLES = 96
"""Samples of the last link's pitch ``phi`` in the search for the nearest orientation."""
FINER = 16
"""Where no sample of the pitch is feasible, it is sampled this many times finer."""
_REFINE = 48
"""Bisection and golden-section steps of that search (each shrinks the interval, by a half
and by 0.618: far below 1e-9 rad from a sample interval of 2 pi / 96)."""


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
