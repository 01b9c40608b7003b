"""From a family's candidates to the answer: polished, checked, within limits, sorted.

:func:`all_solutions` is the one compiled call of an analytic solve: the family's composition
(:func:`.families.solve_6r`), then per candidate a few Newton steps on the full forward
kinematics (:func:`polish`: the closed forms are exact in theory, and this takes their rounding,
and an arm whose axes meet only within the decomposition's tolerance, down to the last bits),
the pose error, joint values into the limits (each wrapped into (-pi, pi], then moved by 2 pi
where that puts it inside, and of two such the one nearer the start), duplicates merged, and
the order by distance from the start.
"""

from __future__ import annotations

import math

import numpy as np
from numba import njit

from geoik.geometry import wrap
from geoik.solvers.analytic.families import mm, mmt, mv, rot, solve_6r
from geoik.solvers.analytic.subproblems import DEGENERATE

__all__ = ["OUTSIDE_LIMITS", "SINGULAR", "all_solutions", "polish"]

SINGULAR = 1
"""Solution flag: a representative of a continuous family (a wrist or shoulder singularity:
some joints may turn together, or one is undetermined, without moving the tip)."""
NOT_EXACT = 2
"""Solution flag: the least-squares candidate, farther from the goal than the tolerance."""
OUTSIDE_LIMITS = 4
"""Solution flag: exact, but no turn by 2 pi puts every joint inside its limits."""

_SAME = 1e-7
"""Two solutions whose joints differ by at most this (radians) are one."""


@njit(cache=True)
def forward(H, P, R_tip, q):
    """Tip rotation (9-tuple) and position (3-tuple) of the chain ``H``, ``P``, ``R_tip`` at
    ``q`` (product of exponentials, revolute joints)."""
    acc = (1.0, 0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 1.0)
    p = (P[0, 0], P[0, 1], P[0, 2])
    for i in range(H.shape[0]):
        acc = mm(acc, rot((H[i, 0], H[i, 1], H[i, 2]), q[i]))
        d = mv(acc, (P[i + 1, 0], P[i + 1, 1], P[i + 1, 2]))
        p = (p[0] + d[0], p[1] + d[1], p[2] + d[2])
    r = (
        R_tip[0, 0],
        R_tip[0, 1],
        R_tip[0, 2],
        R_tip[1, 0],
        R_tip[1, 1],
        R_tip[1, 2],
        R_tip[2, 0],
        R_tip[2, 1],
        R_tip[2, 2],
    )
    return mm(acc, r), p


@njit(cache=True)
def _errors(R_goal, p_goal, R, p):
    """Position error (3-tuple, goal minus current), rotation error (rotation vector of
    ``R_goal R^T``, 3-tuple), and their sizes."""
    ep = (p_goal[0] - p[0], p_goal[1] - p[1], p_goal[2] - p[2])
    d = mmt(R_goal, R)
    # rotation vector of d: angle from the trace, axis from the skew part
    vx, vy, vz = d[7] - d[5], d[2] - d[6], d[3] - d[1]
    s = 0.5 * math.sqrt(vx * vx + vy * vy + vz * vz)
    c = 0.5 * (d[0] + d[4] + d[8] - 1.0)
    ang = math.atan2(s, c)
    if s > 1e-300:
        f = ang / (2.0 * s)
        er = (vx * f, vy * f, vz * f)
    else:
        er = (0.5 * vx, 0.5 * vy, 0.5 * vz)
    return ep, er, math.sqrt(ep[0] * ep[0] + ep[1] * ep[1] + ep[2] * ep[2]), ang


@njit(cache=True)
def polish(H, P, R_tip, R_goal, p_goal, q, steps, jac):
    """Up to ``steps`` Newton steps on the pose error, in place on ``q``, each kept only if it
    makes the error smaller; ``jac`` (6, 7) scratch. Returns the final (position error, angle
    error)."""
    n = H.shape[0]
    R, p = forward(H, P, R_tip, q)
    ep, er, dp, da = _errors(R_goal, p_goal, R, p)
    trial = q.copy()
    for _ in range(steps):
        if dp + da == 0.0:
            break
        acc = (1.0, 0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 1.0)
        o = (P[0, 0], P[0, 1], P[0, 2])
        for i in range(n):
            w = mv(acc, (H[i, 0], H[i, 1], H[i, 2]))
            r = (p[0] - o[0], p[1] - o[1], p[2] - o[2])
            jac[0, i] = w[1] * r[2] - w[2] * r[1]
            jac[1, i] = w[2] * r[0] - w[0] * r[2]
            jac[2, i] = w[0] * r[1] - w[1] * r[0]
            jac[3, i] = w[0]
            jac[4, i] = w[1]
            jac[5, i] = w[2]
            acc = mm(acc, rot((H[i, 0], H[i, 1], H[i, 2]), q[i]))
            d = mv(acc, (P[i + 1, 0], P[i + 1, 1], P[i + 1, 2]))
            o = (o[0] + d[0], o[1] + d[1], o[2] + d[2])
        jac[0, n] = ep[0]
        jac[1, n] = ep[1]
        jac[2, n] = ep[2]
        jac[3, n] = er[0]
        jac[4, n] = er[1]
        jac[5, n] = er[2]
        if not _gauss(jac, n):
            break
        for i in range(n):
            trial[i] = q[i] + jac[i, n]
        R2, p2 = forward(H, P, R_tip, trial)
        ep2, er2, dp2, da2 = _errors(R_goal, p_goal, R2, p2)
        if dp2 + da2 >= dp + da:
            break
        q[:] = trial
        ep, er, dp, da = ep2, er2, dp2, da2
    return dp, da


@njit(cache=True)
def _gauss(a, n):
    """Solve the square system ``a[:, :n] x = a[:, n]`` in place (partial pivoting), ``x`` into
    ``a[:n, n]``; False when singular."""
    for col in range(n):
        piv = col
        for r in range(col + 1, n):
            if abs(a[r, col]) > abs(a[piv, col]):
                piv = r
        if abs(a[piv, col]) < 1e-14:
            return False
        if piv != col:
            for c in range(n + 1):
                a[col, c], a[piv, c] = a[piv, c], a[col, c]
        for r in range(col + 1, n):
            f = a[r, col] / a[col, col]
            for c in range(col, n + 1):
                a[r, c] -= f * a[col, c]
    for col in range(n - 1, -1, -1):
        s = a[col, n]
        for c in range(col + 1, n):
            s -= a[col, c] * a[c, n]
        a[col, n] = s / a[col, col]
    return True


@njit(cache=True)
def _into_limits(v, lo, hi, near):
    """Of ``v - 2 pi``, ``v``, ``v + 2 pi`` (``v`` in (-pi, pi]), the one within [lo, hi] (to
    1e-9, then clamped) nearest ``near``; NaN when none is."""
    best = np.nan
    gap = np.inf
    for k in range(-1, 2):
        x = v + k * 2.0 * math.pi
        if lo - 1e-9 <= x <= hi + 1e-9:
            x = min(max(x, lo), hi)
            if abs(x - near) < gap:
                gap = abs(x - near)
                best = x
    return best


@njit(cache=True)
def all_solutions(
    code,
    reverse,
    H,
    P,
    R_tip,
    points,
    lo,
    hi,
    R_goal_in,
    p_goal_in,
    start,
    tol,
    angle_tol,
    out_q,
    out_flags,
    out_err,
):
    """Every solution of the 6R arm's pose (the family ``code`` of :mod:`.decompose`).

    ``H``, ``P``, ``R_tip``, ``points``: the chain as solved (reversed when ``reverse``);
    ``lo``, ``hi`` (6,): the limits of the joints in the robot's order (+-inf when continuous);
    ``R_goal_in`` (3, 3), ``p_goal_in`` (3,): the tip's goal; ``start`` (6,); ``tol`` metres and
    ``angle_tol`` radians. Writes rows of ``out_q`` (16, 6) in three groups, each sorted by
    distance from ``start``: the exact solutions within the limits, those outside them, then the
    least-squares candidates (the goal out of reach), with ``out_flags`` (:data:`SINGULAR`,
    :data:`NOT_EXACT`, :data:`OUTSIDE_LIMITS`) and ``out_err`` (16, 2) (metres, radians).
    Returns the three groups' sizes.
    """
    n = 6
    if reverse:  # solve T'(q') = T_goal^-1
        Rg = (
            R_goal_in[0, 0],
            R_goal_in[1, 0],
            R_goal_in[2, 0],
            R_goal_in[0, 1],
            R_goal_in[1, 1],
            R_goal_in[2, 1],
            R_goal_in[0, 2],
            R_goal_in[1, 2],
            R_goal_in[2, 2],
        )
        pg = mv(Rg, (-p_goal_in[0], -p_goal_in[1], -p_goal_in[2]))
    else:
        Rg = (
            R_goal_in[0, 0],
            R_goal_in[0, 1],
            R_goal_in[0, 2],
            R_goal_in[1, 0],
            R_goal_in[1, 1],
            R_goal_in[1, 2],
            R_goal_in[2, 0],
            R_goal_in[2, 1],
            R_goal_in[2, 2],
        )
        pg = (p_goal_in[0], p_goal_in[1], p_goal_in[2])
    rt = (
        R_tip[0, 0],
        R_tip[0, 1],
        R_tip[0, 2],
        R_tip[1, 0],
        R_tip[1, 1],
        R_tip[1, 2],
        R_tip[2, 0],
        R_tip[2, 1],
        R_tip[2, 2],
    )
    R06 = mmt(Rg, rt)
    tip0 = (0.0, 0.0, 0.0)
    for i in range(n + 1):
        tip0 = (tip0[0] + P[i, 0], tip0[1] + P[i, 1], tip0[2] + P[i, 2])
    m = out_q.shape[0]
    cand = np.empty((4 * m, n))
    cflags = np.zeros(4 * m, dtype=np.int64)
    count = solve_6r(
        code, H, P, points, R06, pg, tip0, cand, cflags, np.empty((3, 2)), np.empty((4, 3))
    )
    jac = np.empty((6, 7))
    q = np.empty(n)
    keys = np.empty(4 * m)
    group = np.empty(4 * m, dtype=np.int64)
    rows = np.empty((4 * m, n))
    rflags = np.empty(4 * m, dtype=np.int64)
    rerr = np.empty((4 * m, 2))
    kept = 0
    for c in range(count):
        q[:] = cand[c]
        dp, da = polish(H, P, R_tip, Rg, pg, q, 4, jac)
        flags = SINGULAR if cflags[c] & DEGENERATE else 0
        if dp > tol or da > angle_tol:
            flags |= NOT_EXACT
        # back to the robot's joints
        for j in range(n):
            v = _into_limits(wrap(-q[n - 1 - j] if reverse else q[j]), lo[j], hi[j], start[j])
            if v != v:  # no turn by 2 pi puts it inside: keep the wrapped value
                v = wrap(-q[n - 1 - j] if reverse else q[j])
                if not flags & NOT_EXACT:
                    flags |= OUTSIDE_LIMITS
            rows[kept, j] = v
        g_new = 2 if flags & NOT_EXACT else 1 if flags & OUTSIDE_LIMITS else 0
        dup = -1
        for k in range(kept):
            if group[k] == g_new:
                same = True
                for j in range(n):
                    if abs(wrap(rows[k, j] - rows[kept, j])) > _SAME:
                        same = False
                        break
                if same:
                    dup = k
                    break
        if dup >= 0:
            rflags[dup] |= flags & SINGULAR
            continue
        dist = 0.0
        for j in range(n):
            dj = rows[kept, j] - start[j]
            if lo[j] == -np.inf:
                dj = wrap(dj)
            dist += dj * dj
        keys[kept] = dist
        group[kept] = g_new
        if g_new == 2:
            keys[kept] = dp + da  # the least-squares candidates: the nearest pose first
        rflags[kept] = flags
        rerr[kept, 0] = dp
        rerr[kept, 1] = da
        kept += 1
    sizes = np.zeros(3, dtype=np.int64)
    order = np.empty(kept, dtype=np.int64)
    out = 0
    for g in range(3):
        first = out
        for k in range(kept):
            if group[k] == g:
                pos = out
                while pos > first and keys[order[pos - 1]] > keys[k]:
                    order[pos] = order[pos - 1]
                    pos -= 1
                order[pos] = k
                out += 1
        sizes[g] = out - first
    for r in range(min(out, out_q.shape[0])):
        out_q[r] = rows[order[r]]
        out_flags[r] = rflags[order[r]]
        out_err[r] = rerr[order[r]]
    return sizes[0], sizes[1], sizes[2]
