"""Placement of a chain's joints by intersection of circles: the geometry of
:mod:`geoik.solvers.circles` (seed 003), shared by the chain kernels and the tree solver
(:mod:`geoik._tree_kernels`). The choices (the radius ``R`` from an even curl, one side for the
whole chain, the working plane in 3-D) are explained in :mod:`geoik.solvers.circles`.
"""

from __future__ import annotations

import math

import numpy as np
from numba import njit

from geoik.geometry import PI, clamp, copy_into, dist2, sq

IN_REACH = 0
BEYOND = 1
INSIDE = 2
TINY = 1e-300
TIE = 1e-12
KEEP = 0.25
"""A joint keeps the side of the bend it has when it lies off the line from the base to its
child by this share of the offset its placement gives it (see :func:`circle_point`)."""


@njit(cache=True)
def reach_of(lengths, k):
    """(minimum, maximum) reach of the unconstrained sub-chain of links ``0..k-1``."""
    total = 0.0
    longest = 0.0
    for i in range(k):
        total += lengths[i]
        longest = max(longest, lengths[i])
    return max(0.0, 2.0 * longest - total), total


@njit(cache=True)
def circle_point(x1, y1, link, radius, side, off):
    """Intersection of the circle of ``radius`` about the origin and the circle of radius
    ``link`` about ``(x1, y1)``, on one side of the line from the origin to ``(x1, y1)``: that of
    ``off`` (the signed offset, counter-clockwise positive, of the joint's current position from
    the line from the origin to its child's current position) when it is at least ``KEEP`` times
    the intersection's own offset from the line, else ``side`` (+1 counter-clockwise, -1
    clockwise). Radii that miss are met halfway (the nearest points), which the callers'
    clamping of ``radius`` rules out up to rounding."""
    d = math.sqrt(x1 * x1 + y1 * y1)
    if d <= TINY:
        return radius, 0.0
    ex, ey = x1 / d, y1 / d
    a = clamp((radius * radius - link * link + d * d) / (2.0 * d), -radius, radius)
    h = math.sqrt(max(0.0, radius * radius - a * a))
    if off > KEEP * h:
        side = 1.0
    elif off < -KEEP * h:
        side = -1.0
    return a * ex - side * h * ey, a * ey + side * h * ex


@njit(cache=True)
def curl_half_angle(ratio):
    """Half the central angle, ``x`` in ``[0, pi]``, of a circular arc whose chord is ``ratio``
    (in ``[0, 1]``) times its length: ``sin(x) / x = ratio``.

    Newton's method on ``g(x) = sin(x) - ratio x``, which is concave and falling right of the
    root, converges monotonically from any start right of it, never reaching the spurious root
    ``x = 0``. The start: ``sin(x) / x <= 1 - x^2 / 6 + x^4 / 120`` on ``[0, pi]``, so the root
    of that quartic lies right of the root sought (for ``ratio >= 1/6``; below, ``pi``). Four or
    five steps reach rounding.
    """
    if ratio >= 1.0:
        return 0.0
    if ratio <= 0.0:
        return PI
    x = PI
    if ratio >= 1.0 / 6.0:
        x = min(PI, math.sqrt(60.0 * (1.0 / 6.0 - math.sqrt(1.0 / 36.0 - (1.0 - ratio) / 30.0))))
    for _ in range(60):
        slope = math.cos(x) - ratio
        if slope >= 0.0:
            break
        step = (math.sin(x) - ratio * x) / slope
        if step <= 0.0:  # at the root, up to rounding
            break
        x -= step
        if step <= 1e-15 * x:
            break
    return x


@njit(cache=True)
def arc_distance(s, total, half):
    """Distance from the base of the point at arc length ``s`` along the circular arc of length
    ``total`` and central angle ``2 half`` that starts at the base: ``(total / half) sin(half s /
    total)`` (``s`` itself on a straight arc)."""
    if half <= 1e-9:
        return s
    return total / half * math.sin(half * s / total)


@njit(cache=True)
def plane_basis(cur, base, u, v):
    """In-plane unit ``v`` perpendicular to unit ``u``: the best fit of the current joints'
    offsets (3-D), or ``u`` turned by +90 degrees (2-D)."""
    if base.shape[0] == 2:
        v[0], v[1] = -u[1], u[0]
        return
    # fallback normal: +z (else +y) made perpendicular to u
    mx, my, mz = 0.0, 0.0, 1.0
    if abs(u[2]) > 0.9:
        mx, my, mz = 0.0, 1.0, 0.0
    k = mx * u[0] + my * u[1] + mz * u[2]
    mx, my, mz = mx - k * u[0], my - k * u[1], mz - k * u[2]
    mn = math.sqrt(mx * mx + my * my + mz * mz)
    mx, my, mz = mx / mn, my / mn, mz / mn
    # e1 = m x u, so that (u, e1, m) is right-handed
    e1x, e1y, e1z = my * u[2] - mz * u[1], mz * u[0] - mx * u[2], mx * u[1] - my * u[0]
    sxx, sxy, syy = 0.0, 0.0, 0.0
    for i in range(1, cur.shape[0]):
        wx, wy, wz = cur[i, 0] - base[0], cur[i, 1] - base[1], cur[i, 2] - base[2]
        a = wx * e1x + wy * e1y + wz * e1z
        b = wx * mx + wy * my + wz * mz
        sxx += a * a
        sxy += a * b
        syy += b * b
    phi = 0.0
    if sxx + syy > 1e-24 * (1.0 + sxx + syy) and (abs(sxy) > 0.0 or sxx != syy):
        phi = 0.5 * math.atan2(2.0 * sxy, sxx - syy)
    c, s = math.cos(phi), math.sin(phi)
    v[0], v[1], v[2] = c * e1x + s * mx, c * e1y + s * my, c * e1z + s * mz


@njit(cache=True)
def goal_direction(cur, goal, u):
    """Unit direction from the base ``cur[0]`` to ``goal`` into ``u``; returns the distance.

    A goal at the base takes the current end effector's direction, else the first link's."""
    dim = cur.shape[1]
    last = cur.shape[0] - 1
    dist = math.sqrt(dist2(goal, cur[0]))
    for src in (0, 1, 2):
        n2 = 0.0
        for c in range(dim):
            if src == 0:
                u[c] = goal[c] - cur[0, c]
            elif src == 1:
                u[c] = cur[last, c] - cur[0, c]
            else:
                u[c] = cur[1, c] - cur[0, c]
            n2 += u[c] * u[c]
        norm = math.sqrt(n2)
        if norm > TINY:
            for c in range(dim):
                u[c] /= norm
            return dist
    for c in range(dim):
        u[c] = 0.0
    u[0] = 1.0
    return dist


@njit(cache=True)
def project(cur, u, v, cx, cy):
    """Coordinates ``(cx, cy)`` of the joints ``cur`` relative to the base ``cur[0]`` along the
    working plane's axes ``u`` and ``v`` (an orthographic projection in 3-D)."""
    for i in range(cur.shape[0]):
        cx[i], cy[i] = 0.0, 0.0
        for c in range(cur.shape[1]):
            cx[i] += (cur[i, c] - cur[0, c]) * u[c]
            cy[i] += (cur[i, c] - cur[0, c]) * v[c]


@njit(cache=True)
def bulge_side(cy, tie):
    """Side of the base-to-goal line on which the current joints ``1..n`` lie, from their offsets
    ``cy`` across it summed: +1 (also on a tie, within ``tie``) or -1."""
    total = 0.0
    for k in range(1, cy.shape[0]):
        total += cy[k]
    return -1.0 if total < -tie else 1.0


@njit(cache=True)
def place_chain(lengths, cur, goal, out):
    """Place a chain's joints by intersection of circles (seed 003 Section 4).

    Parameters
    ----------
    lengths : (n,) link lengths.
    cur : (n + 1, d) current joint positions, ``cur[0]`` the base (kept).
    goal : (d,) where the end effector should go.
    out : (n + 1, d) placed positions (output).

    Returns
    -------
    IN_REACH, BEYOND (straightened towards the goal) or INSIDE (goal inside the minimum reach,
    end effector put at the nearest point of it).
    """
    n = lengths.shape[0]
    dim = cur.shape[1]
    base = cur[0]
    u = np.empty(dim)
    v = np.empty(dim)
    dist = goal_direction(cur, goal, u)
    rmin, rmax = reach_of(lengths, n)
    copy_into(out[0, :], base)
    if dist > rmax:
        s = 0.0
        for i in range(n):
            s += lengths[i]
            for c in range(dim):
                out[i + 1, c] = base[c] + s * u[c]
        return BEYOND
    code = IN_REACH
    g = dist
    if dist < rmin:
        code = INSIDE
        g = rmin
    plane_basis(cur, base, u, v)
    cx = np.empty(n + 1)
    cy = np.empty(n + 1)
    project(cur, u, v, cx, cy)
    ox = np.zeros(n + 1)
    oy = np.zeros(n + 1)
    ox[n] = g
    half = curl_half_angle(g / rmax)
    side = bulge_side(cy, TIE * rmax)
    for k in range(n - 1, 0, -1):
        lo, hi = reach_of(lengths, k)
        d = math.sqrt(sq(ox[k + 1]) + sq(oy[k + 1]))
        lk = lengths[k]
        # the arc's shortening of this sub-chain, as a share of its own safe-zone range
        guide = hi - (hi - arc_distance(hi, rmax, half)) / hi * (hi - lo)
        radius = clamp(guide, max(lo, abs(d - lk)), min(hi, d + lk))
        child = math.sqrt(sq(cx[k + 1]) + sq(cy[k + 1]))
        off = (cx[k + 1] * cy[k] - cy[k + 1] * cx[k]) / child if child > TINY else 0.0
        ox[k], oy[k] = circle_point(ox[k + 1], oy[k + 1], lk, radius, side, off)
    for i in range(1, n + 1):
        for c in range(dim):
            out[i, c] = base[c] + ox[i] * u[c] + oy[i] * v[c]
    if code == IN_REACH:
        copy_into(out[n, :], goal)
    return code
