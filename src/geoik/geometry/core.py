"""The constants and scalar helpers every kernel shares: status codes, squares, copies, sums,
angle wrapping and clamping (see :mod:`geoik.geometry` for the conventions)."""

from __future__ import annotations

import math

from numba import njit

PI = math.pi

# Kernel status codes (see geoik.solution.Status).
REACHED = 0
CLOSEST = 1
MAX_ITERATIONS = 2
STALLED = 3

TINY = 1e-300
"""Distances (and squared distances) below this are taken as zero."""
TREE_MOVED = 1e-12
"""A tree round moving no joint more than this times the skeleton's scale has stalled."""


@njit(cache=True)
def sq(x):
    """``x * x``. Kernels square with it rather than ``x ** 2``: compiled, both are one
    correctly rounded product, but run as plain Python (:mod:`geoik.jit`) ``** 2`` calls the C
    library's ``pow``, which is off by one unit in the last place now and then, so the two forms
    of a kernel would drift apart."""
    return x * x


@njit(cache=True)
def copy_into(dst, src):
    """Copy ``src`` (1-D or 2-D) into ``dst`` of the same shape, element by element.

    Kernels copy arrays with it rather than ``dst[:] = src``: numba compiles a slice assignment
    from an array with a shape-mismatch error whose message formatting costs about 3 s of
    compilation in every process that compiles such a kernel (once per number of dimensions),
    more than many kernels take themselves."""
    if src.ndim == 1:
        for i in range(src.shape[0]):
            dst[i] = src[i]
    else:
        for i in range(src.shape[0]):
            for j in range(src.shape[1]):
                dst[i, j] = src[i, j]


@njit(cache=True)
def add_into(dst, src):
    """Add ``src`` (1-D) into ``dst`` of the same length, element by element: kernels add a
    row with it rather than ``dst[i, :] += src``, which compiles as a slice assignment (see
    :func:`copy_into`)."""
    for i in range(src.shape[0]):
        dst[i] += src[i]


@njit(cache=True)
def total_length(lengths):
    """The links' lengths summed in order (as every kernel sums them: NumPy's own sum pairs
    terms, so it may round differently)."""
    total = 0.0
    for i in range(lengths.shape[0]):
        total += lengths[i]
    return total


@njit(cache=True)
def wrap(a):
    """Wrap an angle into (-pi, pi]."""
    if -PI < a < PI:  # most angles already are: no division
        return a
    w = a - 2.0 * PI * math.floor((a + PI) / (2.0 * PI))  # in [-pi, pi)
    if w <= -PI:
        w += 2.0 * PI
    return w


@njit(cache=True)
def clamp(x, lo, hi):
    """``x`` (a float) held within ``[lo, hi]``."""
    if x < lo:
        return lo
    if x > hi:
        return hi
    return x
