"""Seed 001's elbow formula and the kernel-side judgement shared by the two-bone kernels.

See :mod:`geoik.solvers.two_bone` for the method; this module holds what its 2-D and 3-D kernels
(:mod:`geoik.solvers.two_bone.spatial`) both use.
"""

from __future__ import annotations

import math

from numba import njit

from geoik.geometry import CLOSEST, REACHED, STALLED, dist2, sq

EXACT = 1e-12
"""A branch within this times ``r1 + r2`` of the target counts as exact."""


@njit(cache=True)
def elbow_direction(ux, uy, uz, vx, vy, vz, c, r1, r2, side):
    """Unit direction of the first link (seed 001, for. 1-3, single-division form).

    ``u`` is the unit direction to the target at distance ``c``, ``v`` a unit vector normal to
    it on the elbow's side when ``side = +1``; ``s`` is forced non-negative out of reach.
    """
    w = c * c + r1 * r1 - r2 * r2
    s = math.sqrt(max(4.0 * r1 * r1 * c * c - w * w, 0.0))
    dx, dy, dz = w * ux + side * s * vx, w * uy + side * s * vy, w * uz + side * s * vz
    m = math.sqrt(dx * dx + dy * dy + dz * dz)
    if m < 1e-300:
        return vx, vy, vz
    return dx / m, dy / m, dz / m


@njit(cache=True)
def unit_or_zero(p):
    """(unit vector, length) of ``p`` (d,), padded to 3-D; zeros and 0 for the zero vector."""
    big = 0.0
    for k in range(p.shape[0]):
        big = max(big, abs(p[k]))
    if big == 0.0:
        return 0.0, 0.0, 0.0, 0.0
    x, y = p[0] / big, p[1] / big
    z = p[2] / big if p.shape[0] == 3 else 0.0
    m = math.sqrt(x * x + y * y + z * z)
    return x / m, y / m, z / m, big * m


@njit(cache=True)
def judge_kernel(end, base, target, r1, r2, tol):
    """Kernel status: REACHED within tol, CLOSEST at the provably closest point, else STALLED."""
    if dist2(end, target) <= tol * tol:
        return REACHED
    c = math.sqrt(dist2(target, base))
    if c > r1 + r2:
        radius = r1 + r2
    elif c < abs(r1 - r2):
        radius = abs(r1 - r2)
    else:
        return STALLED
    if c == 0.0:
        return CLOSEST if math.sqrt(dist2(end, target)) <= radius + tol else STALLED
    s = 0.0
    for k in range(base.shape[0]):
        s += sq(end[k] - base[k] - (target[k] - base[k]) * (radius / c))
    return CLOSEST if s <= tol * tol else STALLED
