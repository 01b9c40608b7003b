"""SP1-SP4: the subproblems of one circle about an axis, each solved in closed form.

``R(k, t)`` is the rotation by ``t`` radians about the unit axis ``k`` (right hand); the circle
that ``R(k, t) p`` runs through meets a point (SP1, Paden-Kahan), another such circle (SP2,
Paden-Kahan), a sphere (SP3, Paden-Kahan) or a plane (SP4, IK-Geo). SP3 and SP4 are equations
``a cos t + b sin t = c`` (:func:`trig`: one ``atan2`` and one ``acos``). The flags every
subproblem returns are defined here (see :mod:`geoik.solvers.analytic.subproblems`).
"""

from __future__ import annotations

import math

from numba import njit

from geoik.geometry import wrap

__all__ = ["DEGENERATE", "EXACT", "LEAST_SQUARES", "sp1", "sp2", "sp3", "sp4", "trig"]

EXACT = 0
"""Flags of an exact answer."""
LEAST_SQUARES = 1
"""Flag: no exact answer exists; the least-squares one is returned."""
DEGENERATE = 2
"""Flag: an angle is not determined by the inputs; one representative is returned."""

_REL = 1e-12
"""Relative size below which a length, a determinant or a residual counts as zero."""


@njit(cache=True)
def _dot(a, b):
    return a[0] * b[0] + a[1] * b[1] + a[2] * b[2]


@njit(cache=True)
def _parts(k, p):
    """``R(k, t) p = w + cos(t) u + sin(t) v``: the scalar ``k . p`` (so ``w = (k . p) k``) and
    ``u = p - w``, ``v = k x p`` as tuples."""
    kp = _dot(k, p)
    u = (p[0] - kp * k[0], p[1] - kp * k[1], p[2] - kp * k[2])
    v = (k[1] * p[2] - k[2] * p[1], k[2] * p[0] - k[0] * p[2], k[0] * p[1] - k[1] * p[0])
    return kp, u, v


@njit(cache=True)
def trig(a, b, c, out):
    """Solve ``a cos t + b sin t = c`` for ``t`` in (-pi, pi].

    Writes up to two angles into ``out`` (2,) and returns ``(count, flags)``: two solutions
    (one when they coincide); where ``|c| > hypot(a, b)`` the angle minimising the residual,
    flagged :data:`LEAST_SQUARES`; where ``a = b = 0`` the angle 0, flagged :data:`DEGENERATE`
    (and :data:`LEAST_SQUARES` unless ``c = 0`` too).
    """
    r = math.hypot(a, b)
    scale = max(r, abs(c))
    if r <= _REL * scale or scale == 0.0:
        out[0] = 0.0
        return 1, DEGENERATE | (LEAST_SQUARES if abs(c) > _REL * scale else 0)
    phi = math.atan2(b, a)
    ratio = c / r
    if ratio >= 1.0 or ratio <= -1.0:
        flags = LEAST_SQUARES if abs(ratio) > 1.0 + 1e-12 else EXACT
        t = phi if ratio > 0.0 else phi + math.pi
        out[0] = wrap(t)
        return 1, flags
    dt = math.acos(ratio)
    out[0] = wrap(phi + dt)
    out[1] = wrap(phi - dt)
    return 2, EXACT


@njit(cache=True)
def sp1(p1, p2, k):
    """SP1: ``t`` with ``R(k, t) p1 = p2``.

    Returns ``(t, flags)``: the exact angle; :data:`LEAST_SQUARES` (the ``t`` minimising
    ``|R(k, t) p1 - p2|``) when the two points lie on different circles about ``k``;
    :data:`DEGENERATE` (``t = 0``) when either lies on the axis.
    """
    kp1, u1, _ = _parts(k, p1)
    kp2, u2, _ = _parts(k, p2)
    x = u1[0] * u2[0] + u1[1] * u2[1] + u1[2] * u2[2]
    y = (
        k[0] * (u1[1] * u2[2] - u1[2] * u2[1])
        + k[1] * (u1[2] * u2[0] - u1[0] * u2[2])
        + k[2] * (u1[0] * u2[1] - u1[1] * u2[0])
    )
    n1 = math.sqrt(u1[0] * u1[0] + u1[1] * u1[1] + u1[2] * u1[2])
    n2 = math.sqrt(u2[0] * u2[0] + u2[1] * u2[1] + u2[2] * u2[2])
    scale = max(math.sqrt(_dot(p1, p1)), math.sqrt(_dot(p2, p2)))
    tiny = 1e-9 * scale
    if n1 <= tiny or n2 <= tiny or scale == 0.0:
        flags = DEGENERATE
        if abs(n1 - n2) + abs(kp1 - kp2) > tiny:
            flags |= LEAST_SQUARES
        return 0.0 if n1 <= tiny or n2 <= tiny else math.atan2(y, x), flags
    flags = EXACT
    if abs(n1 - n2) + abs(kp1 - kp2) > 1e-9 * scale:
        flags = LEAST_SQUARES
    return math.atan2(y, x), flags


@njit(cache=True)
def sp2(p1, p2, k1, k2, out):
    """SP2: ``(t1, t2)`` with ``R(k1, t1) p1 = R(k2, t2) p2``.

    Writes up to two pairs into ``out`` (2, 2) and returns ``(count, flags)``. Where ``|p1| !=
    |p2|`` or the two circles miss each other the least-squares pair (the closest points of the
    circles, so the smallest ``|R(k1, t1) p1 - R(k2, t2) p2|``; one pair) is flagged
    :data:`LEAST_SQUARES`. Parallel axes or a zero vector: :data:`DEGENERATE`, one pair with
    ``t2 = 0``.
    """
    n1 = math.sqrt(_dot(p1, p1))
    n2 = math.sqrt(_dot(p2, p2))
    cx = k1[1] * k2[2] - k1[2] * k2[1]
    cy = k1[2] * k2[0] - k1[0] * k2[2]
    cz = k1[0] * k2[1] - k1[1] * k2[0]
    s2 = cx * cx + cy * cy + cz * cz
    if n1 == 0.0 or n2 == 0.0 or s2 <= 1e-20:
        t1, f1 = sp1(p1, p2, k1)
        out[0, 0] = t1
        out[0, 1] = 0.0
        return 1, f1 | DEGENERATE
    flags = EXACT if abs(n1 - n2) <= 1e-9 * max(n1, n2) else LEAST_SQUARES
    a1 = _dot(k1, p1) / n1
    a2 = _dot(k2, p2) / n2
    c = _dot(k1, k2)
    alpha = (a1 - c * a2) / s2
    beta = (a2 - c * a1) / s2
    g2 = (1.0 - (alpha * alpha + beta * beta + 2.0 * alpha * beta * c)) / s2
    if g2 >= -1e-12:
        count = 1 if g2 <= 1e-24 else 2
        g = math.sqrt(max(g2, 0.0))
        for i in range(count):
            gi = g if i == 0 else -g
            x = (
                alpha * k1[0] + beta * k2[0] + gi * cx,
                alpha * k1[1] + beta * k2[1] + gi * cy,
                alpha * k1[2] + beta * k2[2] + gi * cz,
            )
            t1, f1 = _sp1_unit(p1, n1, x, k1)
            t2, f2 = _sp1_unit(p2, n2, x, k2)
            out[i, 0] = -t1
            out[i, 1] = -t2
            flags |= f1 | f2
        return count, flags
    b1, b2 = _closest_on_circles(k1, k2, a1, a2, c, math.sqrt(s2))
    t1, _ = _sp1_unit(p1, n1, b1, k1)
    t2, _ = _sp1_unit(p2, n2, b2, k2)
    out[0, 0] = -t1
    out[0, 1] = -t2
    return 1, LEAST_SQUARES


@njit(cache=True, inline="always")
def _closest_on_circles(k1, k2, a1, a2, c, s):
    """The closest points of two circles on the unit sphere that miss each other: the points
    ``x`` with ``k1 . x = a1`` and ``k2 . x = a2`` (``k1``, ``k2`` unit 3-tuples, ``c = k1 .
    k2``, ``s = |k1 x k2|``), which lie in the plane of ``k1`` and ``k2``. Returns the two
    points (unit 3-tuples)."""
    r1 = math.sqrt(max(1.0 - a1 * a1, 0.0))
    r2 = math.sqrt(max(1.0 - a2 * a2, 0.0))
    best = -2.0
    b1 = (0.0, 0.0, 0.0)
    b2 = (0.0, 0.0, 0.0)
    for i in range(2):
        x1 = _in_plane(k1, k2, a1, (1.0 if i == 0 else -1.0) * r1, c, s)
        for j in range(2):
            x2 = _in_plane(k2, k1, a2, (1.0 if j == 0 else -1.0) * r2, c, s)
            cos12 = x1[0] * x2[0] + x1[1] * x2[1] + x1[2] * x2[2]
            if cos12 > best:
                best = cos12
                b1 = x1
                b2 = x2
    return b1, b2


@njit(cache=True, inline="always")
def _in_plane(k, other, a, r, c, s):
    """The point ``a k + r (other - c k) / s`` (3-tuple): on the circle ``k . x = a`` of
    radius ``r`` (signed), in the plane of the unit axes ``k`` and ``other`` (``c`` their dot
    product, ``s`` their cross product's length)."""
    return (
        a * k[0] + r * (other[0] - c * k[0]) / s,
        a * k[1] + r * (other[1] - c * k[1]) / s,
        a * k[2] + r * (other[2] - c * k[2]) / s,
    )


@njit(cache=True)
def _sp1_unit(p, n, x, k):
    """``-t`` of SP1 turning the unit vector ``x`` onto ``p / n`` about ``k`` (so ``t`` turns
    ``p`` onto ``x``'s direction); x is a tuple."""
    px = p[0] / n
    py = p[1] / n
    pz = p[2] / n
    kx = k[0] * x[0] + k[1] * x[1] + k[2] * x[2]
    kp = k[0] * px + k[1] * py + k[2] * pz
    ux = (x[0] - kx * k[0], x[1] - kx * k[1], x[2] - kx * k[2])
    up = (px - kp * k[0], py - kp * k[1], pz - kp * k[2])
    dotu = ux[0] * up[0] + ux[1] * up[1] + ux[2] * up[2]
    crs = (
        k[0] * (ux[1] * up[2] - ux[2] * up[1])
        + k[1] * (ux[2] * up[0] - ux[0] * up[2])
        + k[2] * (ux[0] * up[1] - ux[1] * up[0])
    )
    uu = ux[0] * ux[0] + ux[1] * ux[1] + ux[2] * ux[2]
    up2 = up[0] * up[0] + up[1] * up[1] + up[2] * up[2]
    if uu <= 1e-18 or up2 <= 1e-18:  # a point on the axis: every angle turns it alike
        return math.atan2(crs, dotu) if uu > 0.0 and up2 > 0.0 else 0.0, DEGENERATE
    return math.atan2(crs, dotu), EXACT


@njit(cache=True)
def sp3(p1, p2, k, d, out):
    """SP3: ``t`` with ``|R(k, t) p1 - p2| = d`` (``d >= 0``).

    Writes up to two angles into ``out`` (2,) and returns ``(count, flags)`` (see :func:`trig`:
    the angle minimising ``| |R(k, t) p1 - p2| - d |`` where no exact one exists).
    """
    kp1, u1, v1 = _parts(k, p1)
    a = u1[0] * p2[0] + u1[1] * p2[1] + u1[2] * p2[2]
    b = v1[0] * p2[0] + v1[1] * p2[1] + v1[2] * p2[2]
    c = 0.5 * (_dot(p1, p1) + _dot(p2, p2) - d * d) - kp1 * _dot(k, p2)
    return trig(a, b, c, out)


@njit(cache=True)
def sp4(h, p, k, d, out):
    """SP4: ``t`` with ``h . R(k, t) p = d``.

    Writes up to two angles into ``out`` (2,) and returns ``(count, flags)`` (see :func:`trig`:
    the angle minimising ``|h . R(k, t) p - d|`` where no exact one exists).
    """
    kp, u, v = _parts(k, p)
    a = h[0] * u[0] + h[1] * u[1] + h[2] * u[2]
    b = h[0] * v[0] + h[1] * v[1] + h[2] * v[2]
    c = d - kp * _dot(h, k)
    return trig(a, b, c, out)
