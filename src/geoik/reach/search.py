"""Branch and bound for the extreme end-effector distances of a planar chain with joint limits.

The distance of the end effector from the base of a planar chain does not depend on its first
joint, so for links ``l_0 .. l_{m-1}`` and relative angles ``a_1 .. a_{m-1}`` in a box
``[lo_j, hi_j]`` we seek the minimum and the maximum of

.. math:: F(a) = |e(a)|^2, \\qquad e(a) = \\sum_i l_i (\\cos\\varphi_i, \\sin\\varphi_i),
          \\quad \\varphi_i = \\sum_{1 \\le j \\le i} a_j .

Bounds. With ``R_j = sum_{i >= j} l_i``, ``|de/da_j| = |e - p_j| <= R_j`` and
``|d2e/da_j da_k| = |e - p_max(j,k)| <= R_max(j,k)``, so every entry of the Hessian of ``F`` obeys
``|H_jk| <= B_jk = 2 (R_j R_k + R_0 R_max(j,k))``. Taylor's theorem about the centre ``c`` of a box
of half-widths ``h`` then encloses ``F`` on the whole box:

.. math:: |F(a) - F(c)| \\le \\sum_j |g_j| h_j + \\tfrac12 \\sum_{jk} B_{jk} h_j h_k .

The bound is second order, so boxes around an interior extremum close quadratically, and the
first-order part is met exactly at the box corner the gradient points to, which is evaluated as a
feasible candidate. Every evaluated configuration is feasible, so the best value found is attained;
a box is discarded only when its enclosure proves it cannot beat the best by more than ``eps``.
When the stack empties the best value is therefore the exact extremum to within ``eps`` (absolute,
on the distance). The search is depth first, the more promising half first; boxes are split in half
along the coordinate that contributes most to the enclosure's width.

A minimum of 0 (the chain can close on its base) is met on a whole set of configurations; there the
search stops as soon as a configuration with ``|e| <= eps`` is found, helped by a few Gauss-Newton
steps towards ``e = 0`` from the centre of every box whose enclosure reaches 0.

If the work cap is hit the search stops; it then returns the proven outer bound and reports that it
did not finish.
"""

from __future__ import annotations

import math

import numpy as np
from numba import njit

from geoik.geometry import copy_into, sq

__all__ = ["extreme_distance"]


@njit(cache=True)
def _eval(lengths, a, pos, grad):
    """F = |e|^2 at relative angles a (a[0] ignored), joint positions and dF/da_j into grad."""
    m = lengths.shape[0]
    phi = 0.0
    pos[0, 0] = 0.0
    pos[0, 1] = 0.0
    for i in range(m):
        if i > 0:
            phi += a[i]
        pos[i + 1, 0] = pos[i, 0] + lengths[i] * math.cos(phi)
        pos[i + 1, 1] = pos[i, 1] + lengths[i] * math.sin(phi)
    ex, ey = pos[m, 0], pos[m, 1]
    for j in range(1, m):
        dx, dy = ex - pos[j, 0], ey - pos[j, 1]
        grad[j] = 2.0 * (ey * dx - ex * dy)
    return ex * ex + ey * ey


@njit(cache=True)
def _disc_bound(lengths, c, h):
    """Disc enclosing the end effector over the box (circular arithmetic, tip to base).

    ``exp(i a)`` for ``a`` within ``h`` of ``c`` lies in the disc of centre ``cos(h) exp(i c)`` and
    radius ``sin(h)`` (``h <= pi/2``; else the unit disc); a product of discs ``(z1, r1)(z2, r2)``
    lies in ``(z1 z2, |z1| r2 + |z2| r1 + r1 r2)``. Returns (lowest, highest) distance.
    """
    m = lengths.shape[0]
    qx, qy, qr = 0.0, 0.0, 0.0
    for i in range(m - 1, 0, -1):
        px, py = lengths[i] + qx, qy
        if h[i] >= 0.5 * math.pi:
            zx, zy, zr = 0.0, 0.0, 1.0
        else:
            k = math.cos(h[i])
            zx, zy, zr = k * math.cos(c[i]), k * math.sin(c[i]), math.sin(h[i])
        nz = math.sqrt(zx * zx + zy * zy)
        npq = math.sqrt(px * px + py * py)
        qx, qy = zx * px - zy * py, zx * py + zy * px
        qr = nz * qr + npq * zr + zr * qr
    dist = math.sqrt(sq(lengths[0] + qx) + qy * qy)
    return max(0.0, dist - qr), dist + qr


@njit(cache=True)
def _polish_to_zero(lengths, lo, hi, a, pos, grad):
    """Gauss-Newton steps towards e = 0 kept inside the box; returns the smallest F met."""
    m = lengths.shape[0]
    f = _eval(lengths, a, pos, grad)
    trial = a.copy()
    for _ in range(12):
        ex, ey = pos[m, 0], pos[m, 1]
        s00 = 0.0
        s01 = 0.0
        s11 = 0.0
        for j in range(1, m):
            jx, jy = -(ey - pos[j, 1]), ex - pos[j, 0]
            s00 += jx * jx
            s01 += jx * jy
            s11 += jy * jy
        det = s00 * s11 - s01 * s01
        if det <= 1e-300:
            break
        wx = -(s11 * ex - s01 * ey) / det
        wy = -(-s01 * ex + s00 * ey) / det
        for j in range(1, m):
            jx, jy = -(ey - pos[j, 1]), ex - pos[j, 0]
            trial[j] = min(max(a[j] + jx * wx + jy * wy, lo[j]), hi[j])
        ft = _eval(lengths, trial, pos, grad)
        if not ft < f:
            break
        f = ft
        copy_into(a[:], trial)
    return f


@njit(cache=True)
def _hessian_bound(lengths):
    """The chain's length ``R_0`` and ``B[j, k] = R_j R_k + R_0 R_max(j,k)``, half the bound on
    the Hessian of ``F``: ``sum B h h`` is the second-order term of the Taylor enclosure."""
    m = lengths.shape[0]
    R = np.zeros(m + 1)
    for i in range(m - 1, -1, -1):
        R[i] = R[i + 1] + lengths[i]
    B = np.zeros((m, m))
    for j in range(1, m):
        for k in range(1, m):
            B[j, k] = R[j] * R[k] + R[0] * R[max(j, k)]
    return R[0], B


@njit(cache=True)
def _enclose(lengths, c, h, B, sgn, a, pos, grad):
    """``F`` at the box centre ``c``, ``F`` at the corner the gradient points to (``sgn`` +1
    uphill, -1 downhill; written into ``a``) and the half-width of the Taylor enclosure of
    ``F`` over the box of half-widths ``h``."""
    m = lengths.shape[0]
    f = _eval(lengths, c, pos, grad)
    width = 0.0
    for j in range(1, m):
        width += abs(grad[j]) * h[j]
        for k in range(1, m):
            width += B[j, k] * h[j] * h[k]
    for j in range(1, m):
        a[j] = c[j] + (h[j] if sgn * grad[j] >= 0.0 else -h[j])
    return f, _eval(lengths, a, pos, grad), width


@njit(cache=True)
def _split(lengths, c, h, B, sgn, cs, hs, top, pos, grad):
    """Push the two halves of the box (c, h) on the stack, split along the coordinate that
    widens its enclosure most, the less promising half first (searched last); returns the new
    stack height."""
    m = lengths.shape[0]
    _eval(lengths, c, pos, grad)
    js = 1
    wmax = -1.0
    for j in range(1, m):
        row = 0.0
        for k in range(1, m):
            row += B[j, k] * h[k]
        w = h[j] * (abs(grad[j]) + row)
        if w > wmax:
            wmax = w
            js = j
    half = 0.5 * h[js]
    first = 1.0 if sgn * grad[js] < 0.0 else -1.0
    for side in (first, -first):
        copy_into(cs[top, 1:], c[1:])
        copy_into(hs[top, 1:], h[1:])
        cs[top, js] = c[js] + side * half
        hs[top, js] = half
        top += 1
    return top


@njit(cache=True)
def extreme_distance(lengths, lo, hi, maximize, eps, cap):
    """Maximum (``maximize``) or minimum of the end-effector distance over the joint box.

    Parameters
    ----------
    lengths : (m,) link lengths.
    lo, hi : (m,) finite limits of the relative angles (entry 0, the first joint, is ignored).
    maximize : True for the maximum, False for the minimum.
    eps : absolute accuracy on the distance.
    cap : maximum number of boxes to examine.

    Returns
    -------
    (best, bound, finished)
        ``best`` is attained by a configuration; ``bound`` is proven (an upper bound of the
        maximum, a lower bound of the minimum); when ``finished`` they differ by at most ``eps``.
    """
    m = lengths.shape[0]
    if m == 1:
        return lengths[0], lengths[0], True
    reach, B = _hessian_bound(lengths)
    pos = np.empty((m + 1, 2))
    grad = np.zeros(m)
    a = np.zeros(m)
    sgn = 1.0 if maximize else -1.0
    # incumbent: the straightest configuration (box centres and corners join in below)
    for j in range(1, m):
        a[j] = min(max(0.0, lo[j]), hi[j])
    best = math.sqrt(_eval(lengths, a, pos, grad))
    depth = 64 * m + 64
    cs = np.empty((depth, m))
    hs = np.empty((depth, m))
    for j in range(1, m):
        cs[0, j] = 0.5 * (lo[j] + hi[j])
        hs[0, j] = 0.5 * (hi[j] - lo[j])
    # top typed: a literal 1 would compile _split once more
    top, count, bound, finished = np.int64(1), 0, best, True
    c = np.zeros(m)
    h = np.zeros(m)
    while top > 0:
        top -= 1
        copy_into(c[1:], cs[top, 1:])
        copy_into(h[1:], hs[top, 1:])
        count += 1
        f, fc, width = _enclose(lengths, c, h, B, sgn, a, pos, grad)
        low, high = _disc_bound(lengths, c, h)
        if maximize:
            best = max(best, math.sqrt(f), math.sqrt(fc))
            edge = min(f + width, high * high, reach * reach)
            if edge <= sq(best + eps):
                bound = max(bound, math.sqrt(edge))
                continue
        else:
            best = min(best, math.sqrt(f), math.sqrt(fc))
            edge = max(f - width, low * low)
            if edge <= 0.0 and best > eps:
                copy_into(a[1:], c[1:])
                best = min(best, math.sqrt(_polish_to_zero(lengths, lo, hi, a, pos, grad)))
            if best <= eps:
                bound = 0.0
                break
            if edge >= sq(best - eps):
                bound = min(bound, math.sqrt(edge))
                continue
        if count >= cap or top + 2 > depth:
            finished = False
            bound = (
                max(bound, math.sqrt(edge)) if maximize else min(bound, math.sqrt(max(edge, 0.0)))
            )
            continue
        top = _split(lengths, c, h, B, sgn, cs, hs, top, pos, grad)
    bound = max(bound, best) if maximize else min(bound, best)
    return best, bound, finished
