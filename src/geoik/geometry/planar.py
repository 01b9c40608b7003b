"""Planar chains: forward kinematics of relative joint angles, angles within limits, and the
angles of a pose given by its joint positions (see :mod:`geoik.geometry` for the conventions)."""

from __future__ import annotations

import math

import numpy as np
from numba import njit

from geoik.geometry.core import PI, wrap


@njit(cache=True, inline="always")  # inlined: a call counts references to its four arrays
def fk_2d(lengths, base, angles, out):
    """Forward kinematics: joint positions ``out`` (n + 1, 2) from relative ``angles`` (n,)."""
    out[0, 0] = base[0]
    out[0, 1] = base[1]
    a = 0.0
    for i in range(lengths.shape[0]):
        a += angles[i]
        out[i + 1, 0] = out[i, 0] + lengths[i] * math.cos(a)
        out[i + 1, 1] = out[i, 1] + lengths[i] * math.sin(a)


@njit(cache=True)
def fit_angle(a, cur, lo, hi):
    """(angle, allowed): the relative angle ``a`` as a joint with limits ``[lo, hi]`` may hold it.

    A free joint (infinite limits) takes the representative of ``a`` nearest its current angle
    ``cur``, so that its angle moves continuously. A limited joint (``-pi <= lo <= hi <= pi``)
    takes ``a`` (wrapped into (-pi, pi], or the representative 2 pi away that lies in
    ``[lo, hi]``) when it can, else the limit nearer to ``a`` in angle, with ``allowed`` False.
    """
    if not (math.isfinite(lo) and math.isfinite(hi)):
        return cur + wrap(a - cur), True
    a = wrap(a)
    for k in (0.0, -2.0 * PI, 2.0 * PI):
        if lo <= a + k <= hi:
            return a + k, True
    if abs(wrap(a - hi)) <= abs(wrap(a - lo)):
        return hi, False
    return lo, False


@njit(cache=True)
def wrap_free_joints(angles, lo, hi, out):
    """Copy ``angles`` into ``out``, wrapping free joints (no limits) into (-pi, pi]."""
    for i in range(angles.shape[0]):
        free = lo[i] == -np.inf and hi[i] == np.inf
        out[i] = wrap(angles[i]) if free else angles[i]


@njit(cache=True)
def angles_from_positions_2d(pos, out):
    """Relative joint angles (wrapped into (-pi, pi]) of a pose given by its joint positions."""
    prev = 0.0
    for i in range(out.shape[0]):
        a = math.atan2(pos[i + 1, 1] - pos[i, 1], pos[i + 1, 0] - pos[i, 0])
        out[i] = wrap(a - prev)
        prev = a
