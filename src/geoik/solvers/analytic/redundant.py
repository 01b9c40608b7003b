"""7-joint arms: one joint held, the six others in closed form, the held joint searched.

A 7R arm whose first or last joint, held, leaves a 6R chain with a closed form (the Franka
Panda, the xArm7) is solved without decomposing anew at each value of the held joint: the
six-joint chain is the one with the held joint at 0 (:class:`.decompose.Plan`, packed once by
:func:`.finish.pack`), and the held joint's value ``v`` moves the goal instead. With
``X(v)`` the turn by ``-v`` about the held joint's axis,

- the last joint held: ``T_7(q, v) = T_6(q) M^-1 e^{xi_7 v} M``, so the six joints solve the
  goal ``T_goal X_tip(v)``, ``X_tip`` the turn about the axis in the tip's frame at the zero
  configuration (``a = R_tip^T h_7`` through ``c = R_tip^T (o_7 - tip)``);
- the first joint held: the goal is turned back, ``X_base(v) T_goal``, about ``h_1`` through
  ``o_1``.

:func:`held_solutions` is one compiled call: every solution at a given value, or, with the value
NaN, a 1-D search of the held joint for the solution nearest the start. Each value tried is
judged by the family's candidates alone (no polish, no sort): the squared distance from the
start of the nearest candidate within the limits. The start's value is tried first, then values
at growing offsets from it (a solution near the start can sit in a narrow window of the held
joint, where another joint nears its limit), then :data:`SAMPLES` values evenly across the
joint's limits, outward from the start's; a value farther from the start's than the best
distance found is skipped (its own term alone exceeds it). Successive parabolic interpolation
then refines the best value within a grid step, and the full solve (polished, checked by
forward kinematics, sorted) runs at the value found. When the coarse grid finds nothing within
the limits, a grid of :data:`FINE_SAMPLES` follows; when that finds nothing either, the
coarse value whose answer comes nearest (solutions outside the limits, else the nearest
least-squares candidate) is kept. Near a singularity of the six joints, where they swing far
for a small turn of the held one, the nearest solution can be missed (another, farther one
is returned).
"""

from __future__ import annotations

import math

import numpy as np
from numba import njit

from geoik.geometry import wrap
from geoik.solvers.analytic.algebra import mm, mv, rot
from geoik.solvers.analytic.families import MAX_SOLUTIONS, solve_6r
from geoik.solvers.analytic.finish import (
    OUT_COLUMNS,
    _into_limits,
    chain_goal,
    goal_error,
    solve_goal,
    tuple9,
)
from geoik.solvers.analytic.subproblems import LEAST_SQUARES

__all__ = ["FINE_SAMPLES", "HELD_SIZE", "SAMPLES", "held_goal", "held_solutions", "pack_held"]

SAMPLES = 16
"""Values of the held joint the search scans, evenly across its limits (after the start's)."""
FINE_SAMPLES = 8 * SAMPLES
"""Values the search scans when none of the coarse ones has a solution within the limits."""
HELD_SIZE = 9
"""Length of a packed held joint (:func:`pack_held`)."""
_LADDER = 0.02
"""The first offset (radians) from the start's value of the held joint that the search tries
before its grid."""
_REFINE = 6
"""Evaluations of the refinement around the best sample."""


def pack_held(
    joint: int, H: np.ndarray, P: np.ndarray, R_tip: np.ndarray, lo: float, hi: float
) -> np.ndarray:
    """The held joint as one float64 array of :data:`HELD_SIZE`, the second argument of
    :func:`held_solutions`: its index (0 or 6), the axis and a point on it (the last joint: in
    the tip's frame at the zero configuration; the first: in the base frame), its limits
    (radians; +-inf when continuous). ``H`` (7, 3), ``P`` (8, 3), ``R_tip`` (3, 3): the 7R
    chain in product-of-exponentials form (:mod:`geoik.robots.poe`)."""
    if joint == 0:
        axis, point = H[0], P[0]
    else:
        tip = P.sum(axis=0)
        axis = R_tip.T @ H[-1]
        point = R_tip.T @ (P[:-1].sum(axis=0) - tip)
    out = np.array([float(joint), *axis, *point, lo, hi], dtype=np.float64)
    out.setflags(write=False)
    return out


@njit(cache=True)
def held_goal(held, Rg, pg, v):
    """The six joints' goal (9-tuple rotation, 3-tuple position) with the held joint at ``v``
    radians, from the 7R arm's goal ``Rg``, ``pg``."""
    axis = (held[1], held[2], held[3])
    c = (held[4], held[5], held[6])
    turn = rot(axis, -v)
    if held[0] == 0.0:  # X_base(v) T_goal
        r = mm(turn, Rg)
        d = mv(turn, (pg[0] - c[0], pg[1] - c[1], pg[2] - c[2]))
        return r, (c[0] + d[0], c[1] + d[1], c[2] + d[2])
    tc = mv(turn, c)  # T_goal X_tip(v)
    d = mv(Rg, (c[0] - tc[0], c[1] - tc[1], c[2] - tc[2]))
    return mm(Rg, turn), (pg[0] + d[0], pg[1] + d[1], pg[2] + d[2])


@njit(cache=True)
def _nearest(problem, v, work, bound):
    """The squared distance from ``start`` (7,) of the nearest candidate within the limits at
    held value ``v``, from the family's composition alone (candidates flagged least squares
    left out); inf when none. A candidate is dropped as soon as its distance reaches ``bound``
    (then the answer is at least ``bound``: none nearer; inf for the exact distance).

    ``problem`` is ``(model, held, goal, start)``: the packed arm (:func:`.finish.pack`), the
    held joint (:func:`pack_held`), the tip's goal (rotation 9-tuple, position 3-tuple) and the
    start (7,) radians; ``work`` is ``(cand, cflags, two, four3)``, :func:`.families.solve_6r`'s
    outputs and scratch."""
    model, held, goal, start = problem
    Rg, pg = goal
    cand, cflags = work[0], work[1]
    j = int(held[0])
    H = model[2:20].reshape((6, 3))
    P = model[20:41].reshape((7, 3))
    points = model[50:56].reshape((2, 3))
    lo = model[56:62]
    hi = model[62:68]
    reverse = model[1] != 0.0
    r6, p6 = held_goal(held, Rg, pg, v)
    g_rot, g_pos, R06 = chain_goal(model, r6, p6)
    tip0 = (0.0, 0.0, 0.0)
    for i in range(7):
        tip0 = (tip0[0] + P[i, 0], tip0[1] + P[i, 1], tip0[2] + P[i, 2])
    count = solve_6r(int(model[0]), (H, P, points), (R06, g_pos), tip0, work)
    dv = v - start[j]
    if held[7] == -np.inf:
        dv = wrap(dv)
    best = np.inf
    for c in range(count):
        if cflags[c] & LEAST_SQUARES:
            continue
        dist = dv * dv
        for i in range(6):
            x = wrap(-cand[c, 5 - i] if reverse else cand[c, i])
            s = start[i + 1 if i >= j else i]
            x = _into_limits(x, lo[i], hi[i], s)
            if x != x:
                dist = np.inf
                break
            d = x - s
            if lo[i] == -np.inf:
                d = wrap(d)
            dist += d * d
            if dist >= bound:
                break
        best = min(best, dist)
    return best


@njit(cache=True)
def _refine(problem, b, fb, h, span, work):
    """The held value near ``b`` (distance ``fb``, from a scan of spacing ``h``) whose nearest
    candidate is nearer ``start``: successive parabolic interpolation in the bracket
    ``[b - h, b + h]`` (within ``span``, ``(lo, hi)`` radians), an end without a candidate
    within the limits drawn halfway in instead; :data:`_REFINE` evaluations at most.
    ``problem`` and ``work`` as :func:`_nearest` takes them."""
    lo, hi = span
    a = max(lo, b - h)
    c = min(hi, b + h)
    fa = _nearest(problem, a, work, np.inf) if a < b else np.inf
    fc = _nearest(problem, c, work, np.inf) if c > b else np.inf
    for _ in range(_REFINE):
        if c - a < 1e-6:
            break
        if fa < np.inf and fc < np.inf and fa > fb and fc > fb:
            num = (b - a) * (b - a) * (fb - fc) - (b - c) * (b - c) * (fb - fa)
            den = (b - a) * (fb - fc) - (b - c) * (fb - fa)
            x = b - 0.5 * num / den if den != 0.0 else 0.5 * (a + b)
            if not a < x < c or abs(x - b) < 1e-9:
                x = 0.5 * (a + b) if b - a > c - b else 0.5 * (b + c)
        elif fa < fb or (fa == np.inf and b - a >= c - b and b > a):
            x = 0.5 * (a + b)
        else:
            if c <= b:
                break
            x = 0.5 * (b + c)
        fx = _nearest(problem, x, work, np.inf)
        if fx < fb:
            if x < b:
                c, fc = b, fb
            else:
                a, fa = b, fb
            b, fb = x, fx
        elif x < b:
            a, fa = x, fx
        else:
            c, fc = x, fx
    return b


@njit(cache=True)
def _solve_at(problem, start6, v, tols, rows6, out):
    """The full solve at held value ``v``, written into ``out`` (16, 10) with ``v`` put back
    in column ``held[0]``; returns the three groups' sizes. ``problem`` as :func:`_nearest`
    takes it, ``start6`` (6,) the start without the held joint, ``tols`` ``(tol, angle_tol)``
    (metres, radians), ``rows6`` (16, 9) scratch."""
    model, held, goal, _ = problem
    Rg, pg = goal
    tol, angle_tol = tols
    j = int(held[0])
    r6, p6 = held_goal(held, Rg, pg, v)
    sizes = solve_goal(model, r6, p6, start6, tol, angle_tol, rows6, 4)
    for r in range(sizes[0] + sizes[1] + sizes[2]):
        for i in range(7):
            if i < j:
                out[r, i] = rows6[r, i]
            elif i == j:
                out[r, i] = v
            else:
                out[r, i] = rows6[r, i - 1]
        for k in range(3):
            out[r, 7 + k] = rows6[r, 6 + k]
    return sizes


@njit(cache=True)
def held_solutions(model, held, R_goal_in, p_goal_in, start, tol, angle_tol, value, out):
    """Every solution of a 7R arm's pose with one joint held (at ``value``), or the solutions
    at the held value whose nearest solution is nearest ``start`` (``value`` NaN: the search).

    ``model``: the six other joints' plan and limits packed by :func:`.finish.pack` (the
    chain with the held joint at 0); ``held``: :func:`pack_held`; ``R_goal_in`` (3, 3),
    ``p_goal_in`` (3,): the tip's goal; ``start`` (7,) radians; ``tol`` metres and
    ``angle_tol`` radians. Writes rows of ``out`` (16, :data:`.finish.OUT_COLUMNS` + 1) as
    :func:`.finish.all_solutions` does, with the seven joints. Returns the three groups'
    sizes and the held value used; sizes ``(-1, 0, 0)``, ``(-2, 0, 0)`` or ``(-3, 0, 0)``
    for a goal that is not a rotation, a goal or a start that is not finite, as
    :func:`.finish.all_solutions`.
    """
    bad = goal_error(R_goal_in, p_goal_in, start)
    if bad:
        return bad, 0, 0, value
    Rg = tuple9(R_goal_in)
    pg = (p_goal_in[0], p_goal_in[1], p_goal_in[2])
    j = int(held[0])
    start6 = np.empty(6)
    for i in range(6):
        start6[i] = start[i + 1 if i >= j else i]
    rows6 = np.empty((MAX_SOLUTIONS, OUT_COLUMNS))
    problem = (model, held, (Rg, pg), start)
    tols = (tol, angle_tol)
    if value == value:
        sizes = _solve_at(problem, start6, value, tols, rows6, out)
        return sizes[0], sizes[1], sizes[2], value
    lo = held[7] if held[7] > -np.inf else -math.pi
    hi = held[8] if held[8] < np.inf else math.pi
    cand = np.empty((MAX_SOLUTIONS, 6))
    cflags = np.zeros(MAX_SOLUTIONS, dtype=np.int64)
    work = (cand, cflags, np.empty((3, 2)), np.empty((4, 3)))
    for count in (SAMPLES, FINE_SAMPLES):  # the fine scan only when the coarse finds nothing
        step = (hi - lo) / (count - 1)
        v, key = _scan(problem, (lo, hi), count, work)
        if key < np.inf:
            v = _refine(problem, v, key, step, (lo, hi), work)
            sizes = _solve_at(problem, start6, v, tols, rows6, out)
            if sizes[0] > 0:
                return sizes[0], sizes[1], sizes[2], v
    return _fallback(problem, start6, (lo, hi), tols, rows6, out)


@njit(cache=True, inline="always")
def _fallback(problem, start6, span, tols, rows6, out):
    """Where no value of the held joint solves the pose within the limits: of
    :data:`SAMPLES` values evenly across ``span`` ``(lo, hi)`` (radians), the one with
    solutions outside the limits, else the one whose least-squares candidate comes nearest the
    pose; its rows into ``out`` as :func:`held_solutions`. ``problem``, ``start6``, ``tols``
    and ``rows6`` as :func:`_solve_at` takes them. Returns the three groups' sizes and the
    value."""
    lo, hi = span
    spare = np.empty_like(out)
    key_best = np.inf
    got = (0, 0, 0)
    v_got = lo
    for k in range(SAMPLES):
        v = lo + k * (hi - lo) / (SAMPLES - 1)
        sizes = _solve_at(problem, start6, v, tols, rows6, spare)
        a_, b_, c_ = sizes
        key = np.inf
        if a_ or b_:
            key = 0.0 if a_ else 1.0
        elif c_:
            key = 2.0 + spare[0, 8] + spare[0, 9]
        if key < key_best or k == 0:
            key_best = key
            got = sizes
            v_got = v
            for r in range(a_ + b_ + c_):
                for i in range(OUT_COLUMNS + 1):
                    out[r, i] = spare[r, i]
    return got[0], got[1], got[2], v_got


@njit(cache=True)
def _scan(problem, span, count, work):
    """The start's value of the held joint (clamped into ``span``, ``(lo, hi)`` radians) and
    ``count`` values evenly across ``span``, outward from it: the value whose nearest candidate
    is nearest ``start``, and its squared distance (inf when none has a candidate within the
    limits). A value farther from the start's than the best distance found is skipped: its own
    term alone exceeds it. ``problem`` and ``work`` as :func:`_nearest` takes them."""
    _, held, _, start = problem
    lo, hi = span
    j = int(held[0])
    v0 = min(max(start[j], lo), hi)
    best_v = v0
    best = _nearest(problem, v0, work, np.inf)
    # a solution near the start can lie in a narrow window of the held joint (a joint near its
    # limit): offsets from the start's value growing threefold, each tried while it can still
    # be nearer than the best found
    step = (hi - lo) / (count - 1)
    off = _LADDER
    while off < step:  # farther out, the grid's own spacing
        if off * off >= best:
            break
        for v in (v0 - off, v0 + off):
            if lo <= v <= hi:
                key = _nearest(problem, v, work, best)
                if key < best:
                    best, best_v = key, v
        off *= 3.0
    k0 = min(max(int(round((v0 - lo) / step)), 0), count - 1)
    for t in range(2 * count):
        k = k0 + (t + 1) // 2 if t % 2 else k0 - t // 2
        if k < 0 or k >= count:
            continue
        v = lo + k * step
        d = wrap(v - v0) if held[7] == -np.inf else v - v0
        if d * d >= best:
            continue
        key = _nearest(problem, v, work, best)
        if key < best:
            best, best_v = key, v
    return best_v, best
