"""The circular arc of :mod:`geoik.solvers.caa` (seed 004 Section 3, eqs. 3-8, and unequal links
by the radius of the circle through all joints): the central angle the chain spans, the chord,
the safeguarded Newton iteration on the segment angle and the relative angles of the arc pose.
The equations and choices are explained in :mod:`geoik.solvers.caa`.
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np
from numba import njit

from geoik.geometry import CLOSEST, MAX_ITERATIONS, REACHED, STALLED, wrap

TWO_PI = 2.0 * math.pi


@njit(cache=True)
def arc_phi(lengths, m, th):
    """Central angle spanned by the chain and its derivative, at angle ``th`` of link m."""
    s, c = math.sin(0.5 * th), math.cos(0.5 * th)
    phi, dphi = th, 1.0
    for i in range(lengths.shape[0]):
        if i == m:
            continue
        rho = lengths[i] / lengths[m]
        x = min(1.0, rho * s)
        phi += 2.0 * math.asin(x)
        den = math.sqrt(max(0.0, 1.0 - x * x))
        dphi += rho * c / den if den > 1e-15 else (rho if c >= 0.0 else -rho)
    return phi, dphi


@njit(cache=True)
def arc_chord(lengths, m, th):
    """The chord from the base to the end of the chain laid on a circular arc with link ``m`` at
    angle ``th`` (radians) to its own chord; the straight chain's length as ``th`` -> 0."""
    s = math.sin(0.5 * th)
    if s > 1e-12:
        return lengths[m] * math.sin(0.5 * arc_phi(lengths, m, th)[0]) / s
    total = 0.0
    for i in range(lengths.shape[0]):
        total += lengths[i]
    if th < 1.0:
        return total
    return 2.0 * lengths[m] - total


@njit(cache=True)
def theta_end(lengths, m):
    """Smallest theta with Phi(theta) = 2 pi (the curled chain), or 2 pi if there is none."""
    steps = 512
    prev = 0.0
    for k in range(1, steps + 1):
        th = TWO_PI * k / steps
        if arc_phi(lengths, m, th)[0] >= TWO_PI:
            a, b = prev, th
            for _ in range(100):
                mid = 0.5 * (a + b)
                if arc_phi(lengths, m, mid)[0] >= TWO_PI:
                    b = mid
                else:
                    a = mid
            return b
        prev = th
    return TWO_PI


@njit(cache=True)
def newton_thetas(lengths, d, tol, max_iter, cap, end, out):
    """Safeguarded Newton on f(theta) over ``[0, min(theta_end, cap)]``; the iterates into
    ``out``. Returns (status, count); count -1 when ``cap`` (the limits) keeps the chain from
    curling enough for the target."""
    n = lengths.shape[0]
    m: Any = np.int64(0)  # typed: a literal 0 would compile theta_end, arc_chord and arc_phi again
    total = 0.0
    for i in range(n):
        total += lengths[i]
        if lengths[i] > lengths[m]:
            m = i
    if d >= total or n == 1:
        out[0] = 0.0
        if abs(d - total) <= tol:
            return REACHED, 1
        return (CLOSEST if d > total else STALLED), 1
    if end < 0.0:
        end = theta_end(lengths, m)
    lo, hi = 0.0, min(end, cap)
    if arc_chord(lengths, m, hi) >= d - tol:
        if cap < end and arc_chord(lengths, m, hi) > d + tol:
            return STALLED, -1
        out[0] = hi
        return (REACHED if arc_chord(lengths, m, hi) <= d + tol else STALLED), 1
    th = hi
    for it in range(max_iter):
        phi, dphi = arc_phi(lengths, m, th)
        f = d * math.sin(0.5 * th) - lengths[m] * math.sin(0.5 * phi)
        fp = 0.5 * d * math.cos(0.5 * th) - 0.5 * lengths[m] * math.cos(0.5 * phi) * dphi
        nxt = th - f / fp if fp != 0.0 else -1.0
        if not (lo < nxt < hi):
            nxt = 0.5 * (lo + hi)
        th = nxt
        out[it] = th
        g = arc_chord(lengths, m, th) - d
        if abs(g) <= tol:
            return REACHED, it + 1
        if g > 0.0:
            lo = th
        else:
            hi = th
    return MAX_ITERATIONS, max_iter


@njit(cache=True)
def arc_angles(lengths, th, side, alpha, out):
    """Relative angles of the arc pose: link m subtends ``th``, chord aimed at ``alpha``."""
    n = lengths.shape[0]
    m: Any = np.int64(0)  # typed: a literal 0 would compile theta_end, arc_chord and arc_phi again
    for i in range(n):
        if lengths[i] > lengths[m]:
            m = i
    s = math.sin(0.5 * th)
    prev = 0.0
    phi = 0.0
    for i in range(n):
        cur = th if i == m else 2.0 * math.asin(min(1.0, lengths[i] / lengths[m] * s))
        phi += cur
        if i == 0:
            out[0] = cur
        else:
            out[i] = wrap(side * 0.5 * (prev + cur))
        prev = cur
    out[0] = wrap(alpha - side * 0.5 * (phi - out[0]))


@njit(cache=True)
def arc_side(base, target, end):
    """+1 or -1: the side of the base-to-end-effector line the target lies on (2-D points
    ``base``, ``target``, ``end``), the way CAA bends its arc."""
    cross = (target[0] - base[0]) * (end[1] - base[1]) - (target[1] - base[1]) * (end[0] - base[0])
    return -1.0 if cross > 0.0 else 1.0
