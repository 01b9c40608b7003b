"""From a family's candidates to the answer: polished, checked, within limits, sorted.

:func:`all_solutions` is the one compiled call of an analytic solve: the family's composition
(:func:`.families.solve_6r_closed`; :func:`all_solutions_searched` that of the searched family,
:func:`.families.solve_6r`), then per candidate a few Newton steps on the full forward
kinematics where a candidate is off by more than a closed form's rounding (:func:`.polish.polish`,
re-exported here with its helpers: the closed forms are exact in theory, and this takes an arm
whose axes meet only within the decomposition's tolerance onto the pose; a far least-squares
candidate only when the pose is out of reach), the pose error, joint values into the limits
(each wrapped into (-pi, pi], then moved by 2 pi where that puts it inside, and of two such the
one nearer the start), duplicates merged, and the order by distance from the start.
"""

from __future__ import annotations

import math

import numpy as np
from numba import njit

from geoik.geometry import copy_into, wrap
from geoik.jit import slow_to_compile
from geoik.solvers.analytic.algebra import _into_limits as _into_limits  # the kernels' name
from geoik.solvers.analytic.families import NEAR_SIZE, mmt, mv, solve_6r, solve_6r_closed
from geoik.solvers.analytic.polish import _errors as _errors  # the Newton steps' names
from geoik.solvers.analytic.polish import _gauss as _gauss
from geoik.solvers.analytic.polish import chain_forward as chain_forward
from geoik.solvers.analytic.polish import column9 as column9
from geoik.solvers.analytic.polish import forward as forward
from geoik.solvers.analytic.polish import forward_many as forward_many
from geoik.solvers.analytic.polish import jacobian as jacobian
from geoik.solvers.analytic.polish import polish as polish
from geoik.solvers.analytic.polish import try_step as try_step
from geoik.solvers.analytic.subproblems import DEGENERATE, LEAST_SQUARES

__all__ = [
    "MODEL_SIZE",
    "NOT_EXACT",
    "OUTSIDE_LIMITS",
    "OUT_COLUMNS",
    "SINGULAR",
    "all_solutions",
    "all_solutions_searched",
    "pack",
    "polish",
]

SINGULAR = 1
"""Solution flag: a representative of a continuous family (a wrist or shoulder singularity:
some joints may turn together, or one is undetermined, without moving the tip)."""
NOT_EXACT = 2
"""Solution flag: the least-squares candidate, farther from the goal than the tolerance."""
OUTSIDE_LIMITS = 4
"""Solution flag: exact, but no turn by 2 pi puts every joint inside its limits."""

_SAME = 1e-7
"""Two solutions whose joints differ by at most this (radians) are one."""
_FINE = 1e-11
"""A candidate whose pose error is at most this (radians, and times the arm's size in metres:
a closed form's rounding, or an arm whose axes meet only to ~1e-13) is kept as it is; above it,
Newton steps polish it (and at most 1 % of the tolerances asked for)."""
_NEAR = 1e-3
"""A least-squares candidate farther from the pose than this (radians, and times the arm's size
in metres) is polished only when no candidate comes nearer: far beyond the error of an arm
whose axes meet within the decomposition's tolerance (1e-5)."""


@njit(cache=True)
def is_rotation(r):
    """Whether ``r`` (3, 3) is finite, orthonormal to 1e-14 and of determinant +1."""
    for i in range(3):
        for j in range(i, 3):
            d = r[0, i] * r[0, j] + r[1, i] * r[1, j] + r[2, i] * r[2, j] - (1.0 if i == j else 0.0)
            if not abs(d) <= 1e-14:
                return False
    det = (
        r[0, 0] * (r[1, 1] * r[2, 2] - r[1, 2] * r[2, 1])
        - r[0, 1] * (r[1, 0] * r[2, 2] - r[1, 2] * r[2, 0])
        + r[0, 2] * (r[1, 0] * r[2, 1] - r[1, 1] * r[2, 0])
    )
    return det > 0.0


MODEL_SIZE = 68
"""Length of a packed model (:func:`pack`)."""
OUT_COLUMNS = 9
"""Columns of the output rows: 6 joint values, the flags, the position and angle errors."""


def pack(
    code: int,
    reverse: bool,
    H: np.ndarray,
    P: np.ndarray,
    R_tip: np.ndarray,
    points: np.ndarray,
    lo: np.ndarray,
    hi: np.ndarray,
) -> np.ndarray:
    """The plan and the joints' limits as one float64 array of :data:`MODEL_SIZE`, the first
    argument of :func:`all_solutions`: ``code``, ``reverse``, ``H`` (6, 3), ``P`` (7, 3),
    ``R_tip`` (3, 3), ``points`` (2, 3), ``lo``, ``hi`` (6,) (radians; +-inf when
    continuous), each flattened row by row."""
    parts = [[float(code), float(reverse)], H, P, R_tip, points, lo, hi]
    out = np.concatenate([np.ravel(np.asarray(x, dtype=np.float64)) for x in parts])
    assert out.shape == (MODEL_SIZE,)
    out.setflags(write=False)
    return out


@slow_to_compile  # tens of seconds: a helper compiles it while calls run as Python
@njit(cache=True)
def all_solutions(model, R_goal_in, p_goal_in, start, tol, angle_tol, out):
    """Every solution of the 6R arm's pose, for an arm of a closed-form family (one of the
    searched family: :func:`all_solutions_searched`).

    ``model``: the plan and limits packed by :func:`pack` (the family's code of
    :mod:`.decompose`, whether the chain is solved reversed, the chain as solved, its special
    points, and the limits of the joints in the robot's order); ``R_goal_in`` (3, 3),
    ``p_goal_in`` (3,): the tip's goal; ``start`` (6,); ``tol`` metres and ``angle_tol``
    radians. Writes rows of ``out`` (16, :data:`OUT_COLUMNS`): joint values, flags
    (:data:`SINGULAR`, :data:`NOT_EXACT`, :data:`OUTSIDE_LIMITS`), position error (metres) and
    angle error (radians), in three groups, each sorted by distance from ``start``: the exact
    solutions within the limits, those outside them, then the least-squares candidates (the goal
    out of reach, the nearest pose first). Returns the three groups' sizes; ``(-1, 0, 0)`` when
    ``R_goal_in`` is not a rotation matrix to 1e-14 (the caller checks and orthonormalises it,
    then calls again), ``(-2, 0, 0)`` when ``p_goal_in`` has a coordinate that is not finite or
    beyond 1e50 (:data:`geoik.checks.MAX_COORDINATE`), ``(-3, 0, 0)`` when ``start`` has a value
    that is not finite (the caller checks it, naming the value).
    """
    bad = goal_error(R_goal_in, p_goal_in, start)
    if bad:
        return bad, 0, 0
    pg = (p_goal_in[0], p_goal_in[1], p_goal_in[2])
    return solve_goal_closed(model, tuple9(R_goal_in), pg, start, tol, angle_tol, out, 4)


@slow_to_compile  # tens of seconds: a helper compiles it while calls run as Python
@njit(cache=True)
def all_solutions_searched(model, R_goal_in, p_goal_in, start, tol, angle_tol, out):
    """:func:`all_solutions` for the searched family (the kernel of an arm whose plan is that
    family: :func:`all_solutions` has the search compiled out, and this one the closed forms;
    an arm of another family gets no candidate here)."""
    bad = goal_error(R_goal_in, p_goal_in, start)
    if bad:
        return bad, 0, 0
    pg = (p_goal_in[0], p_goal_in[1], p_goal_in[2])
    # the body inlined, not called: compiled on its own, numba would link and optimise the
    # whole solve a second time into this thin kernel
    return _solve_goal(model, tuple9(R_goal_in), pg, start, (tol, angle_tol), out, 4, True)


@njit(cache=True, inline="always")
def goal_error(R_goal, p_goal, start):
    """0 for a goal and start a kernel can take, else the kernels' refusal code: -1 when
    ``R_goal`` (3, 3) is not a rotation matrix to 1e-14, -2 when ``p_goal`` (3,) has a
    coordinate that is not finite or beyond 1e50 (:data:`geoik.checks.MAX_COORDINATE`), -3
    when ``start`` (n,) has a value that is not finite."""
    if not is_rotation(R_goal):
        return -1
    for r in range(3):
        if not abs(p_goal[r]) <= 1e50:  # NaN, infinite or beyond MAX_COORDINATE
            return -2
    for j in range(start.shape[0]):
        if not abs(start[j]) < np.inf:  # NaN or infinite
            return -3
    return 0


@njit(cache=True, inline="always")
def tuple9(r):
    """The (3, 3) array ``r`` as a 9-tuple, row major."""
    return (r[0, 0], r[0, 1], r[0, 2], r[1, 0], r[1, 1], r[1, 2], r[2, 0], r[2, 1], r[2, 2])


@njit(cache=True)
def chain_goal(model, Rg_in, pg_in):
    """The goal of the chain as solved (the inverse pose when it is solved reversed): its
    rotation (9-tuple), position (3-tuple), and ``R06 = R_goal R_tip^T``."""
    if model[1] != 0.0:  # solve T'(q') = T_goal^-1
        Rg = (
            Rg_in[0],
            Rg_in[3],
            Rg_in[6],
            Rg_in[1],
            Rg_in[4],
            Rg_in[7],
            Rg_in[2],
            Rg_in[5],
            Rg_in[8],
        )
        pg = mv(Rg, (-pg_in[0], -pg_in[1], -pg_in[2]))
    else:
        Rg, pg = Rg_in, pg_in
    rt = (
        model[41],
        model[42],
        model[43],
        model[44],
        model[45],
        model[46],
        model[47],
        model[48],
        model[49],
    )
    return Rg, pg, mmt(Rg, rt)


@njit(cache=True)
def solve_goal_closed(model, Rg_in, pg_in, start, tol, angle_tol, out, steps):
    """:func:`all_solutions` for a goal already checked, given as a 9-tuple rotation (row
    major) and a 3-tuple position; at most ``steps`` Newton steps per candidate; the
    closed-form families only, the search compiled out (:func:`.families.solve_6r_closed`)."""
    return _solve_goal(model, Rg_in, pg_in, start, (tol, angle_tol), out, steps, False)


@njit(cache=True, inline="always")
def _solve_goal(model, Rg_in, pg_in, start, tols, out, steps, searched):
    """The body of :func:`solve_goal_closed` and :func:`all_solutions_searched`: ``tols``
    ``(tol, angle_tol)``; with ``searched`` (a constant) the searched family only, else the
    closed forms only."""
    tol, angle_tol = tols
    code = int(model[0])
    reverse = model[1] != 0.0
    H = model[2:20].reshape((6, 3))
    P = model[20:41].reshape((7, 3))
    R_tip = model[41:50].reshape((3, 3))
    points = model[50:56].reshape((2, 3))
    lo = model[56:62]
    hi = model[62:68]
    n = 6
    Rg, pg, R06 = chain_goal(model, Rg_in, pg_in)
    tip0 = tip_at_zero(P)
    cand, rows, rerr, keys, cflags, group, rflags, order, scratch = _buffers(out.shape[0], n)
    two, four3, jac, q, cerr, cgroup, fk, near = scratch
    work = (cand, cflags, two, four3, near)
    if searched:
        count = solve_6r(code, (H, P, points), (R06, pg), tip0, work)
    else:
        count = solve_6r_closed(code, (H, P, points), (R06, pg), tip0, work)
    size = chain_size(P)
    # a candidate is polished when its error is above a closed form's rounding (and well
    # within the tolerances asked for); a least-squares candidate far from the pose only when
    # no candidate comes near it (the pose out of reach): see _errors_first
    fine = (min(_FINE * size, 0.01 * tol), min(_FINE, 0.01 * angle_tol))
    exact_near = _errors_first(
        (H, P), (R06, pg), (cand, cflags, count), _NEAR * size, cerr, cgroup, fk
    )
    kept = 0
    # the loop over the candidates stays whole: with its steps as functions it ran ~6 % slower;
    # its duplicate test and distance are duplicate_of and distance, inlined. The far
    # least-squares candidates (cgroup -1 after _errors_first) come second.
    for phase in range(2):
        for c in range(count):
            if (cgroup[c] < 0) != (phase == 1):
                continue
            copy_into(q, cand[c])
            dp, da = cerr[c, 0], cerr[c, 1]
            if (dp > fine[0] or da > fine[1]) and (phase == 0 or not exact_near):
                e = cerr[c]
                at = ((e[2], e[3], e[4]), (e[5], e[6], e[7]), (e[8], e[9], e[10]), dp, da)
                dp, da = polish(H, P, R_tip, Rg, pg, q, steps, jac, fine, at)
            flags = SINGULAR if cflags[c] & DEGENERATE else 0
            # back to the robot's joints
            outside = clamped = False
            for j in range(n):
                raw = wrap(-q[n - 1 - j] if reverse else q[j])
                v = _into_limits(raw, lo[j], hi[j], start[j])
                if v != v:  # no turn by 2 pi puts it inside: keep the wrapped value
                    v = raw
                    outside = True
                elif v == lo[j] or v == hi[j]:  # perhaps moved onto the limit from 1e-9 out
                    clamped = True
                rows[kept, j] = v
            if clamped:  # the errors of the values as they are returned
                for j in range(n):
                    x = rows[kept, j]
                    if reverse:
                        q[n - 1 - j] = -x
                    else:
                        q[j] = x
                R, p = forward(H, P, R_tip, q)
                _, _, dp, da = _errors(Rg, pg, R, p)
            if dp > tol or da > angle_tol:
                flags |= NOT_EXACT
            elif outside:
                flags |= OUTSIDE_LIMITS
            g_new = 2 if flags & NOT_EXACT else 1 if flags & OUTSIDE_LIMITS else 0
            dup = duplicate_of(rows, group, kept, g_new, n)
            if dup >= 0:
                rflags[dup] |= flags & SINGULAR
                continue
            keys[kept] = dp + da if g_new == 2 else distance(rows, kept, start, lo)
            group[kept] = g_new
            rflags[kept] = flags
            rerr[kept, 0] = dp
            rerr[kept, 1] = da
            kept += 1
    return _write_sorted(rows, rflags, rerr, keys, group, order, kept, out)


@njit(cache=True, inline="always")
def _errors_first(chain, goal, cands, near, err, group, fk):
    """Each candidate's pose error before any polish: ``err[c]`` (position, metres; angle,
    radians; then the tip position and the two error vectors of ``polish.polish``'s ``at``,
    3 values each), and ``group[c]`` -1 for a far least-squares candidate (flagged so by its
    subproblems, and farther than ``near`` metres or :data:`_NEAR` radians from the pose),
    else 0. Returns whether any candidate lies within those bounds: then the pose is reached
    (or nearly), and the far ones are kept as they are, unpolished. ``chain`` is ``(H, P)``,
    ``goal`` ``(R06, p_goal)`` (9- and 3-tuples: the goal's rotation times ``R_tip^T``, the
    product of the joint rotations it asks for, so that the tip's own turn is not applied to
    every candidate; the error is the same), ``cands`` ``(cand, cflags, count)``; ``fk``
    ``(flat, trig, acc)``: ``cand``'s values one row after the other, and the scratch of
    :func:`.polish.forward_many`, which runs every candidate's forward kinematics at once."""
    H, P = chain
    R06, pg = goal
    cand, cflags, count = cands
    flat, trig, acc = fk
    forward_many(H, P, flat, count, trig, acc)
    any_near = False
    for c in range(count):
        R = column9(acc, c)
        p = (acc[9, c], acc[10, c], acc[11, c])
        ep, er, dp, da = _errors(R06, pg, R, p)
        err[c, 0] = dp
        err[c, 1] = da
        for i in range(3):
            err[c, 2 + i] = p[i]
            err[c, 5 + i] = ep[i]
            err[c, 8 + i] = er[i]
        is_near = dp <= near and da <= _NEAR
        any_near = any_near or is_near
        group[c] = -1 if cflags[c] & LEAST_SQUARES and not is_near else 0
    return any_near


@njit(cache=True, inline="always")
def _buffers(m, n):
    """The work arrays of :func:`_solve_goal` for ``m`` output rows and ``n`` joints, cut from
    one float and one integer array (no further allocation): for ``M = 4 m`` candidates,
    ``cand``, ``rows`` (M, n), ``rerr`` (M, 2), ``keys`` (M,), ``two`` (3, 2), ``four3``
    (4, 3), ``jac`` (6, 7), ``q`` (n,), ``cerr`` (M, 11), ``fk`` (``cand`` flat, and the
    scratch of :func:`.polish.forward_many`: (2, M n), (12, M)), ``near``
    (:data:`.families.NEAR_SIZE`,: no bound, every candidate); ``cflags``, ``group``,
    ``rflags``, ``order``, ``cgroup`` (M,) int64 (zeros)."""
    M = 4 * m
    fw = np.empty(M * (2 * n + 14) + 6 + 12 + 42 + n + M * (2 * n + 12) + NEAR_SIZE)
    iw = np.zeros(5 * M, dtype=np.int64)
    cand = fw[: M * n].reshape((M, n))
    rows = fw[M * n : 2 * M * n].reshape((M, n))
    rerr = fw[2 * M * n : 2 * M * n + 2 * M].reshape((M, 2))
    keys = fw[2 * M * n + 2 * M : 2 * M * n + 3 * M]
    cerr = fw[2 * M * n + 3 * M : 2 * M * n + 14 * M].reshape((M, 11))
    rest = 2 * M * n + 14 * M
    two = fw[rest : rest + 6].reshape((3, 2))
    four3 = fw[rest + 6 : rest + 18].reshape((4, 3))
    jac = fw[rest + 18 : rest + 60].reshape((6, 7))
    q = fw[rest + 60 : rest + 60 + n]
    group = iw[M : 2 * M]
    rflags = iw[2 * M : 3 * M]
    order = iw[3 * M : 4 * M]
    end = rest + 60 + n
    trig = fw[end : end + 2 * M * n].reshape((2, M * n))
    acc = fw[end + 2 * M * n : end + 2 * M * n + 12 * M].reshape((12, M))
    fk = (fw[: M * n], trig, acc)
    near = fw[end + 2 * M * n + 12 * M :]
    near[0] = np.nan
    scratch = (two, four3, jac, q, cerr, iw[4 * M :], fk, near)
    return cand, rows, rerr, keys, iw[:M], group, rflags, order, scratch


@njit(cache=True, inline="always")
def tip_at_zero(P):
    """The tip's position (3-tuple, metres) at the zero configuration: the sum of the rows of
    ``P`` (n + 1, 3)."""
    tip0 = (0.0, 0.0, 0.0)
    for i in range(P.shape[0]):
        tip0 = (tip0[0] + P[i, 0], tip0[1] + P[i, 1], tip0[2] + P[i, 2])
    return tip0


@njit(cache=True, inline="always")
def chain_size(P):
    """The sum of the link offsets' lengths (metres) of ``P`` (n + 1, 3): the scale of a
    closed form's rounding."""
    size = 0.0
    for i in range(P.shape[0]):
        size += math.sqrt(P[i, 0] * P[i, 0] + P[i, 1] * P[i, 1] + P[i, 2] * P[i, 2])
    return size


@njit(cache=True, inline="always")
def duplicate_of(rows, group, kept, g, n):
    """The row of ``rows[:kept]`` in group ``g`` whose ``n`` joint values all lie within
    :data:`_SAME` radians of those of ``rows[kept]`` (modulo 2 pi); -1 when none does."""
    for k in range(kept):
        if group[k] == g:
            same = True
            for j in range(n):
                if abs(wrap(rows[k, j] - rows[kept, j])) > _SAME:
                    same = False
                    break
            if same:
                return k
    return -1


@njit(cache=True, inline="always")
def distance(rows, r, start, lo):
    """The squared distance (radians squared) of ``rows[r]`` from ``start`` (n,), wrapped for a
    continuous joint (``lo`` -inf)."""
    dist = 0.0
    for j in range(start.shape[0]):
        dj = rows[r, j] - start[j]
        if lo[j] == -np.inf:
            dj = wrap(dj)
        dist += dj * dj
    return dist


@njit(cache=True, inline="always")
def _write_sorted(rows, rflags, rerr, keys, group, order, kept, out):
    """The ``kept`` rows into ``out`` (m, 9) in three groups (0 exact within the limits, 1
    outside them, 2 least squares), each sorted by ``keys`` (insertion sort through ``order``);
    each row its 6 joint values, flags, position and angle errors. Returns the groups' sizes
    (of every kept row, also those beyond ``out``'s m rows)."""
    n = rows.shape[1]
    sizes = (0, 0, 0)
    out_n = 0
    for g in range(3):
        first = out_n
        for k in range(kept):
            if group[k] == g:
                pos = out_n
                while pos > first and keys[order[pos - 1]] > keys[k]:
                    order[pos] = order[pos - 1]
                    pos -= 1
                order[pos] = k
                out_n += 1
        if g == 0:
            sizes = (out_n - first, 0, 0)
        elif g == 1:
            sizes = (sizes[0], out_n - first, 0)
        else:
            sizes = (sizes[0], sizes[1], out_n - first)
    for r in range(min(out_n, out.shape[0])):
        k = order[r]
        for j in range(n):
            out[r, j] = rows[k, j]
        out[r, n] = rflags[k]
        out[r, n + 1] = rerr[k, 0]
        out[r, n + 2] = rerr[k, 1]
    return sizes
