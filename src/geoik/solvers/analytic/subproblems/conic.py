"""SP5 and SP6: two coupled angles, a circle meeting a conic, solved as a quartic.

Both reduce to two equations linear in ``(cos t1, sin t1)`` and ``(cos t2, sin t2)``
(:func:`circles2`): one unit vector in terms of the other, whose unit length is a trigonometric
polynomial of degree 2 in one angle, i.e. a quartic in the tangent of its half angle. Its real
roots are isolated between the real roots of its derivatives (no eigenvalue solver, no complex
arithmetic) and polished by Newton's method on the trigonometric form; where it has none, the
local minima of its magnitude are returned, flagged
:data:`~geoik.solvers.analytic.subproblems.LEAST_SQUARES` (IK-Geo: Elias and Wen, 2022-2024).
"""

from __future__ import annotations

import math

import numpy as np
from numba import njit

from geoik.geometry import wrap
from geoik.solvers.analytic.subproblems.circle import (
    DEGENERATE,
    EXACT,
    LEAST_SQUARES,
    _dot,
    _parts,
    sp1,
)

__all__ = ["circles2", "sp5", "sp6"]


@njit(cache=True)
def sp5(p0, p1, p2, p3, k1, k2, k3, out):
    """SP5: ``(t1, t2, t3)`` with ``p0 + R(k1, t1) p1 = R(k2, t2) (p2 + R(k3, t3) p3)``.

    Both sides must have the same component along ``k2`` and the same length: two equations
    linear in ``(cos t1, sin t1)`` and ``(cos t3, sin t3)`` (:func:`circles2`); ``t2`` then by
    SP1. Writes up to four triples into ``out`` (4, 3); returns ``(count, flags)``.
    """
    kp1, u1, v1 = _parts(k1, p1)
    kp3, u3, v3 = _parts(k3, p3)
    w1 = (p0[0] + kp1 * k1[0], p0[1] + kp1 * k1[1], p0[2] + kp1 * k1[2])
    w3 = (p2[0] + kp3 * k3[0], p2[1] + kp3 * k3[1], p2[2] + kp3 * k3[2])
    uu1 = u1[0] * u1[0] + u1[1] * u1[1] + u1[2] * u1[2]
    uu3 = u3[0] * u3[0] + u3[1] * u3[1] + u3[2] * u3[2]
    ww1 = w1[0] * w1[0] + w1[1] * w1[1] + w1[2] * w1[2]
    ww3 = w3[0] * w3[0] + w3[1] * w3[1] + w3[2] * w3[2]
    m = (
        k2[0] * u1[0] + k2[1] * u1[1] + k2[2] * u1[2],
        k2[0] * v1[0] + k2[1] * v1[1] + k2[2] * v1[2],
        -(k2[0] * u3[0] + k2[1] * u3[1] + k2[2] * u3[2]),
        -(k2[0] * v3[0] + k2[1] * v3[1] + k2[2] * v3[2]),
        2.0 * (w1[0] * u1[0] + w1[1] * u1[1] + w1[2] * u1[2]),
        2.0 * (w1[0] * v1[0] + w1[1] * v1[1] + w1[2] * v1[2]),
        -2.0 * (w3[0] * u3[0] + w3[1] * u3[1] + w3[2] * u3[2]),
        -2.0 * (w3[0] * v3[0] + w3[1] * v3[1] + w3[2] * v3[2]),
    )
    e1 = k2[0] * (w3[0] - w1[0]) + k2[1] * (w3[1] - w1[1]) + k2[2] * (w3[2] - w1[2])
    e2 = ww3 + uu3 - ww1 - uu1
    pairs = out[:, :2].copy()
    count, flags = circles2(m, e1, e2, pairs)
    for i in range(count):
        t1 = pairs[i, 0]
        t3 = pairs[i, 1]
        c1, s1 = math.cos(t1), math.sin(t1)
        c3, s3 = math.cos(t3), math.sin(t3)
        lhs = (
            w1[0] + c1 * u1[0] + s1 * v1[0],
            w1[1] + c1 * u1[1] + s1 * v1[1],
            w1[2] + c1 * u1[2] + s1 * v1[2],
        )
        rhs = (
            w3[0] + c3 * u3[0] + s3 * v3[0],
            w3[1] + c3 * u3[1] + s3 * v3[1],
            w3[2] + c3 * u3[2] + s3 * v3[2],
        )
        t2, f2 = sp1(rhs, lhs, k2)
        out[i, 0] = t1
        out[i, 1] = t2
        out[i, 2] = t3
        flags |= f2
    return count, flags


@njit(cache=True)
def sp6(h, k, p, d1, d2, out):
    """SP6: ``(t1, t2)`` with ``h[0] . R(k[0], t1) p[0] + h[1] . R(k[1], t2) p[1] = d1`` and
    ``h[2] . R(k[2], t1) p[2] + h[3] . R(k[3], t2) p[3] = d2``; ``h``, ``k``, ``p`` (4, 3).

    Writes up to four pairs into ``out`` (4, 2); returns ``(count, flags)`` (:func:`circles2`).
    """
    kp0, u0, v0 = _parts(k[0], p[0])
    kp1, u1, v1 = _parts(k[1], p[1])
    kp2, u2, v2 = _parts(k[2], p[2])
    kp3, u3, v3 = _parts(k[3], p[3])
    h0, h1, h2, h3 = h[0], h[1], h[2], h[3]
    m = (
        h0[0] * u0[0] + h0[1] * u0[1] + h0[2] * u0[2],
        h0[0] * v0[0] + h0[1] * v0[1] + h0[2] * v0[2],
        h1[0] * u1[0] + h1[1] * u1[1] + h1[2] * u1[2],
        h1[0] * v1[0] + h1[1] * v1[1] + h1[2] * v1[2],
        h2[0] * u2[0] + h2[1] * u2[1] + h2[2] * u2[2],
        h2[0] * v2[0] + h2[1] * v2[1] + h2[2] * v2[2],
        h3[0] * u3[0] + h3[1] * u3[1] + h3[2] * u3[2],
        h3[0] * v3[0] + h3[1] * v3[1] + h3[2] * v3[2],
    )
    e1 = d1 - kp0 * _dot(h0, k[0]) - kp1 * _dot(h1, k[1])
    e2 = d2 - kp2 * _dot(h2, k[2]) - kp3 * _dot(h3, k[3])
    return circles2(m, e1, e2, out)


@njit(cache=True)
def circles2(m, e1, e2, out):
    """Angles ``(t1, t2)`` with ``M1 x1 + M2 x2 = e``, ``x = (cos t, sin t)``.

    ``m`` is the tuple ``(M1[0,0], M1[0,1], M2[0,0], M2[0,1], M1[1,0], M1[1,1], M2[1,0],
    M2[1,1])``. The better conditioned of ``M1``, ``M2`` is inverted, say ``M2``: ``x2 = b - A
    x1``, and ``|x2| = 1`` is a trigonometric polynomial ``f(t1)`` of degree 2 (a circle meeting
    a conic), solved as a quartic in ``tan(tau / 2)`` after a turn that keeps ``tau = pi`` far
    from a root. Where ``f`` has no root, the local minima of ``|f|`` are returned (``x2``
    normalised), flagged :data:`LEAST_SQUARES`: the angles where the two conditions come
    closest to agreeing (not the full two-angle least-squares answer). Both matrices singular:
    no solution, flagged :data:`DEGENERATE`. Writes up to four pairs into ``out`` (4, 2);
    returns ``(count, flags)``.
    """
    ok, swap, x2_of = _second_from_first(m, e1, e2)
    if not ok:
        return 0, DEGENERATE
    f0, f1c, f1s, f2c, f2s = _unit_condition(x2_of)
    scale = abs(f0) + abs(f1c) + abs(f1s) + abs(f2c) + abs(f2s)
    if scale == 0.0:
        return 0, DEGENERATE
    off, r1c, r1s, r2c, r2s = _turned(f0, f1c, f1s, f2c, f2s)
    # tau = 2 atan(z): multiply by (1 + z^2)^2
    c4 = f0 - r1c + r2c
    c3 = 2.0 * r1s - 4.0 * r2s
    c2 = 2.0 * f0 - 6.0 * r2c
    c1 = 2.0 * r1s + 4.0 * r2s
    c0 = f0 + r1c + r2c
    roots = out[:, 0].copy()
    nroot = _quartic_real(c4, c3, c2, c1, c0, roots)
    flags = EXACT
    if nroot == 0:  # no intersection: the local minima of |f|
        nroot = _minima(f0, r1c, r1s, r2c, r2s, roots)
        flags = LEAST_SQUARES
    bb1, bb2, c11, c12, c21, c22 = x2_of
    for i in range(nroot):
        tau = roots[i] if flags == LEAST_SQUARES else 2.0 * math.atan(roots[i])
        if flags == EXACT:
            tau = _polish(f0, r1c, r1s, r2c, r2s, tau)
        t1 = wrap(tau + off)
        x1c, x1s = math.cos(t1), math.sin(t1)
        y1 = bb1 - (c11 * x1c + c12 * x1s)
        y2 = bb2 - (c21 * x1c + c22 * x1s)
        t2 = math.atan2(y2, y1)
        if swap:
            out[i, 0] = t2
            out[i, 1] = t1
        else:
            out[i, 0] = t1
            out[i, 1] = t2
    return nroot, flags


@njit(cache=True, inline="always")
def _second_from_first(m, e1, e2):
    """Of :func:`circles2`'s ``M1``, ``M2`` (the 8-tuple ``m``), invert the better
    conditioned (``swap``: ``M1``, the angles then solved in the other order), so that the
    other unit vector is ``x2 = bb - C x1``. Returns ``(ok, swap, (bb1, bb2, c11, c12, c21,
    c22))``; not ok when both matrices are singular (to 1e-12 relative)."""
    a11, a12, b11, b12, a21, a22, b21, b22 = m
    det_a = a11 * a22 - a12 * a21
    det_b = b11 * b22 - b12 * b21
    na = abs(a11) + abs(a12) + abs(a21) + abs(a22)
    nb = abs(b11) + abs(b12) + abs(b21) + abs(b22)
    qa = abs(det_a) / (na * na) if na > 0.0 else 0.0
    qb = abs(det_b) / (nb * nb) if nb > 0.0 else 0.0
    swap = qa > qb
    if swap:  # invert M1 instead: solve for t2 first
        a11, a12, b11, b12 = b11, b12, a11, a12
        a21, a22, b21, b22 = b21, b22, a21, a22
        det_b = det_a
        qb = qa
    if qb <= 1e-12:
        return False, swap, (0.0, 0.0, 0.0, 0.0, 0.0, 0.0)
    # x2 = B^-1 (e - A x1) = bb - AA x1
    i11, i12, i21, i22 = b22 / det_b, -b12 / det_b, -b21 / det_b, b11 / det_b
    bb1 = i11 * e1 + i12 * e2
    bb2 = i21 * e1 + i22 * e2
    c11 = i11 * a11 + i12 * a21
    c12 = i11 * a12 + i12 * a22
    c21 = i21 * a11 + i22 * a21
    c22 = i21 * a12 + i22 * a22
    return True, swap, (bb1, bb2, c11, c12, c21, c22)


@njit(cache=True, inline="always")
def _unit_condition(x2_of):
    """``f(t) = |bb - C x(t)|^2 - 1`` for ``x2_of = (bb1, bb2, c11, c12, c21, c22)``, as a
    Fourier series: ``(f0, f1c, f1s, f2c, f2s)``, ``f = f0 + f1c cos t + f1s sin t + f2c cos
    2t + f2s sin 2t``."""
    bb1, bb2, c11, c12, c21, c22 = x2_of
    # f(t) = q11 c^2 + 2 q12 c s + q22 s^2 - 2 (g1 c + g2 s) + g0
    q11 = c11 * c11 + c21 * c21
    q12 = c11 * c12 + c21 * c22
    q22 = c12 * c12 + c22 * c22
    g1 = c11 * bb1 + c21 * bb2
    g2 = c12 * bb1 + c22 * bb2
    g0 = bb1 * bb1 + bb2 * bb2 - 1.0
    return 0.5 * (q11 + q22) + g0, -2.0 * g1, -2.0 * g2, 0.5 * (q11 - q22), q12


@njit(cache=True, inline="always")
def _turned(f0, f1c, f1s, f2c, f2s):
    """The turn ``off`` (radians): ``tau = pi`` at the sample of eight where ``|f|`` is
    largest, and ``f(off + tau)``'s coefficients ``(off, r1c, r1s, r2c, r2s)`` (``f0`` does
    not change)."""
    off = 0.0
    big = -1.0
    for i in range(8):
        t = -math.pi + i * (math.pi / 4.0)
        v = abs(_fourier(f0, f1c, f1s, f2c, f2s, t))
        if v > big:
            big = v
            off = t + math.pi
    co, so = math.cos(off), math.sin(off)
    co2, so2 = math.cos(2.0 * off), math.sin(2.0 * off)
    r1c = f1c * co + f1s * so
    r1s = f1s * co - f1c * so
    r2c = f2c * co2 + f2s * so2
    r2s = f2s * co2 - f2c * so2
    return off, r1c, r1s, r2c, r2s


@njit(cache=True)
def _fourier(f0, f1c, f1s, f2c, f2s, t):
    return (
        f0
        + f1c * math.cos(t)
        + f1s * math.sin(t)
        + f2c * math.cos(2.0 * t)
        + f2s * math.sin(2.0 * t)
    )


@njit(cache=True)
def _polish(f0, f1c, f1s, f2c, f2s, t):
    """Newton's method on the trigonometric form (a few steps; stops when it stops helping)."""
    for _ in range(4):
        v = _fourier(f0, f1c, f1s, f2c, f2s, t)
        dv = (
            -f1c * math.sin(t)
            + f1s * math.cos(t)
            - 2.0 * f2c * math.sin(2.0 * t)
            + 2.0 * f2s * math.cos(2.0 * t)
        )
        if dv == 0.0:
            break
        step = v / dv
        tn = t - step
        if abs(_fourier(f0, f1c, f1s, f2c, f2s, tn)) >= abs(v):
            break
        t = tn
        if abs(step) < 1e-16:
            break
    return t


@njit(cache=True)
def _minima(f0, f1c, f1s, f2c, f2s, out):
    """Angles of the local minima of ``|f|`` (f of one sign), refined by golden sections on a
    grid of 32; at most 4 written to ``out``; returns their count."""
    n = 32
    h = 2.0 * math.pi / n
    vals = np.empty(n)
    for i in range(n):
        vals[i] = abs(_fourier(f0, f1c, f1s, f2c, f2s, -math.pi + i * h))
    count = 0
    for i in range(n):
        if vals[i] <= vals[(i - 1) % n] and vals[i] < vals[(i + 1) % n] and count < 4:
            lo = -math.pi + (i - 1) * h
            hi = -math.pi + (i + 1) * h
            g = 0.6180339887498949
            a = hi - g * (hi - lo)
            b = lo + g * (hi - lo)
            fa = abs(_fourier(f0, f1c, f1s, f2c, f2s, a))
            fb = abs(_fourier(f0, f1c, f1s, f2c, f2s, b))
            for _ in range(60):
                if fa < fb:
                    hi = b
                    b = a
                    fb = fa
                    a = hi - g * (hi - lo)
                    fa = abs(_fourier(f0, f1c, f1s, f2c, f2s, a))
                else:
                    lo = a
                    a = b
                    fa = fb
                    b = lo + g * (hi - lo)
                    fb = abs(_fourier(f0, f1c, f1s, f2c, f2s, b))
            out[count] = 0.5 * (lo + hi)
            count += 1
    return count


@njit(cache=True)
def _poly(c, deg, x):
    v = c[0]
    for i in range(1, deg + 1):
        v = v * x + c[i]
    return v


@njit(cache=True)
def _root_in(c, deg, lo, hi):
    """A root of the polynomial ``c`` (highest power first) in [lo, hi], where it changes
    sign: bisection safeguarded Newton-free regula falsi (Illinois)."""
    flo = _poly(c, deg, lo)
    fhi = _poly(c, deg, hi)
    side = 0
    x = lo
    for _ in range(200):
        x = (lo * fhi - hi * flo) / (fhi - flo)
        if not (lo < x < hi):
            x = 0.5 * (lo + hi)
        fx = _poly(c, deg, x)
        if fx == 0.0 or hi - lo <= 4e-16 * max(abs(lo), abs(hi), 1e-300):
            return x
        if (fx > 0.0) == (fhi > 0.0):
            hi, fhi = x, fx
            if side == 1:
                flo *= 0.5
            side = 1
        else:
            lo, flo = x, fx
            if side == -1:
                fhi *= 0.5
            side = -1
    return x


@njit(cache=True)
def _roots_between(c, deg, pts, npts, out):
    """Real roots of the polynomial ``c[:deg + 1]`` (highest power first) ascending into
    ``out``, given its monotone pieces: ``pts[:npts]``, the interval's ends and its derivative's
    real roots, ascending. A touching extremum within rounding counts as a (double) root."""
    size = 0.0
    count = 0
    for i in range(npts - 1):
        a, b = pts[i], pts[i + 1]
        fa, fb = _poly(c, deg, a), _poly(c, deg, b)
        if fa == 0.0:
            if count == 0 or out[count - 1] != a:
                out[count] = a
                count += 1
            continue
        if fb != 0.0 and (fa > 0.0) != (fb > 0.0):
            out[count] = _root_in(c, deg, a, b)
            count += 1
        elif i > 0:
            size = 0.0
            for j in range(deg + 1):
                size = size * abs(a) + abs(c[j])
            near = count > 0 and abs(out[count - 1] - a) <= 1e-9 * (1.0 + abs(a))
            if abs(fa) <= 1e-11 * size and not near:
                out[count] = a
                count += 1
    if _poly(c, deg, pts[npts - 1]) == 0.0:
        out[count] = pts[npts - 1]
        count += 1
    return count


@njit(cache=True)
def _quartic_real(c4, c3, c2, c1, c0, out):
    """Real roots of ``c4 z^4 + ... + c0`` into ``out`` (4,), ascending; ``c4`` may be small
    but not 0 (see :func:`circles2`). Each derivative's real roots split the next polynomial
    into monotone pieces (from the line up to the quartic). Returns their count."""
    if c4 == 0.0:
        return 0
    c = np.array([1.0, c3 / c4, c2 / c4, c1 / c4, c0 / c4])
    bound = 1.0 + max(max(abs(c[1]), abs(c[2])), max(abs(c[3]), abs(c[4])))
    # derivatives, scaled to a leading 1: d[k] is the (3 - k)-th derivative's coefficients
    d = np.zeros((4, 5))
    for k in range(4):
        deg = k + 1
        for i in range(deg + 1):
            d[k, i] = c[i] * _falling(4 - i, 3 - k) / _falling(4, 3 - k)
    pts = np.empty(6)
    roots = np.empty(4)
    nroot = 1
    roots[0] = -d[0, 1]  # the third derivative's root
    for k in range(1, 4):
        pts[0] = -bound
        for i in range(nroot):
            pts[i + 1] = min(max(roots[i], -bound), bound)
        pts[nroot + 1] = bound
        nroot = _roots_between(d[k], k + 1, pts, nroot + 2, roots)
    for i in range(nroot):
        out[i] = roots[i]
    return nroot


@njit(cache=True, inline="always")
def _falling(n, k):
    """n (n - 1) ... (n - k + 1)."""
    v = 1.0
    for i in range(k):
        v *= n - i
    return v
