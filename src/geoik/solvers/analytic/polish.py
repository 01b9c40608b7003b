"""Newton's method on an arm's full forward kinematics: how a closed form's candidate is polished.

The closed forms of :mod:`geoik.solvers.analytic.families` are exact in theory; their rounding,
and an arm whose axes meet only within the decomposition's tolerance, leave a small pose error,
which a few Newton steps take down to the last bits (:func:`polish`). The chain is in
product-of-exponentials form (``H`` (n, 3) unit axes, ``P`` (n + 1, 3) offsets, ``R_tip``
(3, 3)), revolute joints, rotations as row-major 9-tuples; every step is kept only if it makes
the error smaller (:func:`try_step`). :mod:`geoik.solvers.analytic.finish` re-exports these.
"""

from __future__ import annotations

import math

import numpy as np
from numba import njit

from geoik.geometry import copy_into, sincos_into
from geoik.solvers.analytic.algebra import rot_sc
from geoik.solvers.analytic.families import mm, mmt, mv, rot

__all__ = ["chain_forward", "column9", "forward", "forward_many", "jacobian", "polish", "try_step"]


@njit(cache=True)
def chain_forward(H, P, q):
    """The product of the joint rotations (9-tuple: the tip's rotation without ``R_tip``) and
    the tip's position (3-tuple) of the chain ``H``, ``P`` at ``q`` (product of exponentials,
    revolute joints). The first joint's rotation starts the product (no turn by the identity)."""
    acc = rot((H[0, 0], H[0, 1], H[0, 2]), q[0])
    d = mv(acc, (P[1, 0], P[1, 1], P[1, 2]))
    p = (P[0, 0] + d[0], P[0, 1] + d[1], P[0, 2] + d[2])
    for i in range(1, H.shape[0]):
        acc = mm(acc, rot((H[i, 0], H[i, 1], H[i, 2]), q[i]))
        d = mv(acc, (P[i + 1, 0], P[i + 1, 1], P[i + 1, 2]))
        p = (p[0] + d[0], p[1] + d[1], p[2] + d[2])
    return acc, p


@njit(cache=True, inline="always")
def column9(acc, c):
    """Rows 0-8 of column ``c`` of ``acc`` as a 9-tuple: the rotation :func:`forward_many`
    writes there, row major."""
    return (
        acc[0, c],
        acc[1, c],
        acc[2, c],
        acc[3, c],
        acc[4, c],
        acc[5, c],
        acc[6, c],
        acc[7, c],
        acc[8, c],
    )


@njit(cache=True)
def forward_many(H, P, flat, count, trig, acc):
    """:func:`chain_forward` of ``count`` joint vectors at once, the very same values: ``flat``
    holds them one after the other (``count * n`` values, ``n = H.shape[0]``); column ``c`` of
    ``acc`` (12, >= count) receives vector ``c``'s product of the joint rotations (rows 0-8, row
    major) and tip position (rows 9-11). ``trig`` (2, >= count * n) is scratch. The loops run
    across the vectors, each step the same for all, which the compiler runs on several at once
    (SIMD): the analytic solver checks its 4-16 candidates per pose with it."""
    n = H.shape[0]
    sn = trig[0]
    cs = trig[1]
    sincos_into(flat, sn, cs, count * n)
    for c in range(count):  # the identity and the base: the first turn then gives its own
        for i in range(9):
            acc[i, c] = 1.0 if i % 4 == 0 else 0.0
        acc[9, c], acc[10, c], acc[11, c] = P[0, 0], P[0, 1], P[0, 2]
    for j in range(n):
        h = (H[j, 0], H[j, 1], H[j, 2])
        v = (P[j + 1, 0], P[j + 1, 1], P[j + 1, 2])
        for c in range(count):
            a = column9(acc, c)
            b = mm(a, rot_sc(h, sn[c * n + j], cs[c * n + j]))
            d = mv(b, v)
            for i in range(9):
                acc[i, c] = b[i]
            for i in range(3):
                acc[9 + i, c] += d[i]


@njit(cache=True)
def forward(H, P, R_tip, q):
    """Tip rotation (9-tuple) and position (3-tuple) of the chain ``H``, ``P``, ``R_tip`` at
    ``q`` (:func:`chain_forward`, then ``R_tip``)."""
    acc, p = chain_forward(H, P, q)
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
def jacobian(H, P, q, p, jac):
    """The chain's Jacobian at ``q`` into ``jac[:6, :n]``, one column per joint: rows 0-2 the
    tip's velocity (metres per radian) for the tip at ``p`` (3-tuple, metres), rows 3-5 the
    angular velocity (the joint's axis in the base frame, unitless)."""
    acc = (1.0, 0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 1.0)
    o = (P[0, 0], P[0, 1], P[0, 2])
    for i in range(H.shape[0]):
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


@njit(cache=True)
def try_step(H, P, R_tip, R_goal, p_goal, q, trial, dp, da, position):
    """Take the joint values ``trial`` (n,) into ``q`` (n,) when they bring the tip nearer the
    goal than the errors ``dp`` (metres) and ``da`` (radians) of ``q``: their sum, or with
    ``position`` the position error alone. Returns ``(taken, p, ep, er, dp, da)`` at
    ``trial``: its tip position (3-tuple) and :func:`_errors`."""
    R2, p2 = forward(H, P, R_tip, trial)
    ep2, er2, dp2, da2 = _errors(R_goal, p_goal, R2, p2)
    worse = dp2 >= dp if position else dp2 + da2 >= dp + da
    if not worse:
        copy_into(q, trial)
    return not worse, p2, ep2, er2, dp2, da2


@njit(cache=True)
def polish(H, P, R_tip, R_goal, p_goal, q, steps, jac, enough, at):
    """Up to ``steps`` Newton steps on the pose error, in place on ``q``, each kept only if it
    makes the error smaller, until the position and angle errors are within ``enough``
    (metres, radians); ``jac`` (6, 7) scratch. ``at`` is where ``q`` puts the tip and how far
    that is from the goal, as the caller computed them: ``(p, ep, er, dp, da)``, the tip
    position and :func:`_errors`. Returns the final (position error, angle error)."""
    n = H.shape[0]
    p, ep, er, dp, da = at
    trial = q.copy()
    for _ in range(steps):
        if dp <= enough[0] and da <= enough[1]:
            break
        jacobian(H, P, q, p, jac)
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
        # p stays the first tip position: the later steps' Jacobians are taken there
        taken, _, ep2, er2, dp2, da2 = try_step(
            H, P, R_tip, R_goal, p_goal, q, trial, dp, da, np.bool_(False)
        )
        if not taken:
            break
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
