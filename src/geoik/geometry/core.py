"""The constants and scalar helpers every kernel shares: status codes, squares, copies, sums,
angle wrapping and clamping, the sine and cosine of an angle at once (see :mod:`geoik.geometry`
for the conventions)."""

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


# fdlibm's kernels of sin and cos on [-pi/4, pi/4] (Sun Microsystems, 1993) and its
# two-part pi/2 for the reduction of moderate arguments
_PIO2_HI = 1.57079632673412561417e00
_PIO2_LO = 6.07710050650619224932e-11
_TWO_OVER_PI = 6.36619772367581382433e-01
_S1, _S2, _S3 = -1.66666666666666324348e-01, 8.33333333332248946124e-03, -1.98412698298579493134e-04
_S4, _S5, _S6 = 2.75573137070700676789e-06, -2.50507602534068634195e-08, 1.58969099521155010221e-10
_C1, _C2, _C3 = 4.16666666666666019037e-02, -1.38888888888741095749e-03, 2.48015872894767294178e-05
_C4, _C5, _C6 = -2.75573143513906633035e-07, 2.08757232129817482790e-09, -1.13596475577881948265e-11
SINCOS_RANGE = 1e5
"""Beyond this (radians) :func:`sincos` calls the C library's sin and cos."""


@njit(cache=True)
def sincos(x):
    """``(sin(x), cos(x))``, each within 2.3e-16 (absolute; one unit in the last place of 1)
    of the C library's, for ``|x|`` up to :data:`SINCOS_RANGE` (beyond it, NaN and infinities
    included, the C library's own). About twice as fast compiled as ``math.sin`` and
    ``math.cos`` together: one reduction by pi/2 serves both and the quadrant is chosen without
    a branch. The analytic solver's kernels, which turn joints many times per solve (forward
    kinematics of every candidate), spent much of their time in the two calls."""
    if not abs(x) <= SINCOS_RANGE:
        return math.sin(x), math.cos(x)
    return _reduced_sincos(x)


@njit(cache=True)
def sincos_into(x, s, c, m):
    """``s[i], c[i] = sincos(x[i])`` for ``i < m`` (1-D arrays), the same values: one loop
    without a call, which the compiler runs on several values at once (SIMD; 48 values about six
    times as fast as 48 calls of :func:`sincos`)."""
    for i in range(m):
        xi = x[i]
        s[i], c[i] = _reduced_sincos(xi if abs(xi) <= SINCOS_RANGE else 0.0)
    for i in range(m):  # the rare argument beyond the range (or NaN): the C library's
        if not abs(x[i]) <= SINCOS_RANGE:
            s[i], c[i] = math.sin(x[i]), math.cos(x[i])


@njit(cache=True, inline="always")
def _reduced_sincos(x):
    """:func:`sincos` for ``|x|`` within :data:`SINCOS_RANGE`: the reduction by pi/2, both
    polynomials (Estrin's scheme: a short chain of dependent operations), the quadrant."""
    k = math.floor(x * _TWO_OVER_PI + 0.5)
    r = (x - k * _PIO2_HI) - k * _PIO2_LO
    z = r * r
    z2 = z * z
    z4 = z2 * z2
    ps = (_S1 + z * _S2) + z2 * (_S3 + z * _S4) + z4 * (_S5 + z * _S6)
    pc = (_C1 + z * _C2) + z2 * (_C3 + z * _C4) + z4 * (_C5 + z * _C6)
    s = r + r * z * ps
    hz = 0.5 * z
    w = 1.0 - hz
    c = w + (((1.0 - w) - hz) + z2 * pc)
    q = int(k)
    odd = (q & 1) != 0
    sn = c if odd else s
    cs = s if odd else c
    return -sn if q & 2 else sn, -cs if (q + 1) & 2 else cs
