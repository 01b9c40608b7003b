"""The candidates of an arm of four or five joints polished, judged, kept and written (see
:mod:`geoik.solvers.analytic.five`): a few Gauss-Newton steps on the pose error bring each
closed-form candidate to rounding (:func:`_polish`), :func:`_keep` sorts it into the exact
solutions, those outside the limits and the least-squares ones, and :func:`_write` puts the
groups in the output rows.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from geoik.geometry import wrap
from geoik.solvers.analytic.finish import (
    NOT_EXACT,
    OUTSIDE_LIMITS,
    _into_limits,
    distance,
    duplicate_of,
)
from geoik.solvers.analytic.polish import _errors, _gauss, forward, jacobian, try_step

NEAREST_ORIENTATION = 8
"""Solution flag: the position exact, the orientation the nearest the arm attains there (its
angle error, radians, beyond the solve's ``angle_tol``)."""


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
    if not _gauss(sys3, np.int64(3)):
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


@njit(cache=True, inline="always")
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
    clamped = False
    for j in range(n):
        v = wrap(q[j])
        if stage < 2:
            x = _into_limits(v, lo[j], hi[j], start[j])
            if x != x:
                flags |= OUTSIDE_LIMITS
            else:
                v = x
                clamped = clamped or x == lo[j] or x == hi[j]  # perhaps moved from 1e-9 out
        rows[kept, j] = v
    if clamped:  # the errors of the values as they are returned
        R, p = forward(H, P, R_tip, rows[kept, :n])
        _, _, dp, da = _errors(Rg, pg, R, p)
        exact = dp <= tols[0] and da <= tols[1]
        if (stage == 0 and not exact) or (stage == 1 and dp > tols[0]):
            return kept
        if stage == 1 and not exact:
            flags |= NOT_EXACT | NEAREST_ORIENTATION
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
        dp, da = _polish(H, P, R_tip, Rg, pg, q, 4, jac, np.bool_(False))
    elif stage == 1 and dp > fine:
        dp, da = _polish(H, P, R_tip, Rg, pg, q, 4, jac, np.bool_(True))
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
