"""The small algebra the analytic kernels share: 3-vectors and 3x3 rotations as tuples (3 and
9 floats, row major, so that a solve allocates almost nothing), the rotation about an axis, and
the candidate buffer's append (:func:`_put`)."""

from __future__ import annotations

import math

import numpy as np
from numba import njit

from geoik.geometry import sincos, wrap
from geoik.solvers.analytic.subproblems import DEGENERATE, sp1


@njit(cache=True, inline="always")
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
    s, c = sincos(t)
    return rot_sc(k, s, c)


@njit(cache=True, inline="always")
def rot_sc(k, s, c):
    """:func:`rot` from the angle's sine ``s`` and cosine ``c``."""
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


@njit(cache=True, inline="always")
def start_term(x, lo, hi, s):
    """The squared distance (radians squared) from ``s`` of a joint at ``x`` (in (-pi, pi]):
    of its turns within ``[lo, hi]`` the one nearest ``s`` (:func:`_into_limits`), a continuous
    joint's (``lo`` -inf) difference wrapped; NaN when no turn is within the limits. The
    search's distance from its start and its bound on it (:func:`.families._near_rows`) are
    both summed from these terms."""
    d = _into_limits(x, lo, hi, s) - s
    if lo == -np.inf:
        d = wrap(d)
    return d * d
