"""Points and distances: overflow-safe lengths, the closest points of a reach (a ball or a
shell), and the helpers of the tree kernels, which work on joint positions."""

from __future__ import annotations

import math

from numba import njit

from geoik.geometry.core import (
    MAX_ITERATIONS,
    REACHED,
    STALLED,
    TINY,
    TREE_MOVED,
    copy_into,
    sq,
    total_length,
)


@njit(cache=True)
def beyond_reach(lengths, base, target, out):
    """If the target lies beyond the chain's total length, write into ``out`` the point at that
    length from the base towards it (the closest reachable point of a chain that can straighten
    and point anywhere) and return True; else return False."""
    total = total_length(lengths)
    d2 = 0.0
    for k in range(base.shape[0]):
        d2 += sq(target[k] - base[k])
    dist = math.sqrt(d2)
    if dist <= total:
        return False
    for k in range(base.shape[0]):
        out[k] = base[k] + (target[k] - base[k]) * (total / dist)
    return True


@njit(cache=True)
def norm3(x, y, z):
    """|(x, y, z)| without overflow or underflow: the plain sum of squares where it is safe
    (every realistic case, rounded as NumPy's norm is), scaled otherwise. A 2-D vector has z = 0,
    which adds nothing."""
    s = x * x + y * y + z * z
    if 1e-280 < s < 1e280:
        return math.sqrt(s)
    big = max(abs(x), abs(y), abs(z))
    if big == 0.0 or not math.isfinite(big):
        return big
    x, y, z = x / big, y / big, z / big
    return big * math.sqrt(x * x + y * y + z * z)


@njit(cache=True)
def distance(p, q):
    """|p - q| of two (2,) or (3,) points, without overflow or underflow (:func:`norm3`)."""
    dz = p[2] - q[2] if p.shape[0] == 3 else 0.0
    return norm3(p[0] - q[0], p[1] - q[1], dz)


@njit(cache=True)
def annulus_closest(t, centre, rmin, rmax, out):
    """When ``t`` lies outside the shell ``rmin <= |p - centre| <= rmax``, write its nearest
    point of the shell into ``out`` and return True; else (within it, or at the centre, where a
    whole sphere is nearest) return False."""
    dist = distance(t, centre)
    if dist > rmax:
        r = rmax
    elif 0.0 < dist < rmin:
        r = rmin
    else:
        return False
    for q in range(t.shape[0]):
        out[q] = centre[q] + (t[q] - centre[q]) * (r / dist)
    return True


@njit(cache=True, inline="always")
def dist2(p, q):
    """The squared distance between the points ``p`` and ``q`` (d,)."""
    s = 0.0
    for k in range(p.shape[0]):
        s += sq(p[k] - q[k])
    return s


# ------------------------------------------------------------------------ trees (positions)
#
# Tree kernels work on joint positions. Arrays describe the tree: ``parent (m,)`` (-1 for the
# root), ``lengths (m,)`` (link from the parent), ``order (m,)`` (each joint after its parent,
# the root first), ``active (m,)`` (on the path from the root to a targeted end effector),
# ``targeted (m,)``, ``targets (m, d)`` (rows of targeted joints used), ``has_closest (m,)`` and
# ``closest (m, d)`` (a targeted joint whose target is out of its reach is done when within
# ``tol`` of that point). ``pos (m, d)`` holds the start pose on entry and the result on return.
# Tree kernels return ``(code, iterations)`` with code REACHED (every targeted joint done),
# STALLED or MAX_ITERATIONS.


@njit(cache=True)
def all_done(pos, targeted, targets, has_closest, closest, tol):
    """True when every targeted joint of ``pos`` (m, d) is within ``tol`` of its target, or of its
    closest reachable point when the target is out of its reach (see the section's arrays)."""
    tol2 = tol * tol
    for j in range(pos.shape[0]):
        if not targeted[j] or dist2(pos[j], targets[j]) <= tol2:
            continue
        if has_closest[j] and dist2(pos[j], closest[j]) <= tol2:
            continue
        return False
    return True


@njit(cache=True)
def toward(src, dst, fallback_from, fallback_to, length, out):
    """``out = src + length * unit(dst - src)``; a zero direction takes the fallback's, then +x."""
    dim = src.shape[0]
    n2 = dist2(dst, src)
    if n2 > TINY:
        k = length / math.sqrt(n2)
        for c in range(dim):
            out[c] = src[c] + k * (dst[c] - src[c])
        return
    n2 = dist2(fallback_to, fallback_from)
    for c in range(dim):
        out[c] = src[c]
    if n2 > TINY:
        k = length / math.sqrt(n2)
        for c in range(dim):
            out[c] += k * (fallback_to[c] - fallback_from[c])
    else:
        out[0] += length


@njit(cache=True)
def max_move(pos, prev, active):
    """The largest distance a joint on a targeted path (``active``) moved from ``prev`` to ``pos``
    (m, d)."""
    worst = 0.0
    for j in range(pos.shape[0]):
        if active[j]:
            worst = max(worst, dist2(pos[j], prev[j]))
    return math.sqrt(worst)


@njit(cache=True, inline="always")
def tree_settled(pos, prev, active, done, it, max_iter):
    """How a tree kernel's iteration ``it`` ended: ``(status, iterations)`` if the kernel stops
    there (REACHED, STALLED, or MAX_ITERATIONS once ``it`` is ``max_iter``), else ``(-1, it)``
    after copying the pose ``pos`` (m, d) into ``prev``. ``active`` (m,) marks the joints on
    the paths to the targets; ``done`` is ``(targeted, targets, has_closest, closest, tol,
    scale)`` (see :func:`all_done`; ``scale``, the tree's size, scales the stall test)."""
    targeted, targets, has_closest, closest, tol, scale = done
    if all_done(pos, targeted, targets, has_closest, closest, tol):
        return REACHED, it
    if max_move(pos, prev, active) <= TREE_MOVED * scale:
        return STALLED, it
    if it >= max_iter:
        return MAX_ITERATIONS, max_iter
    copy_into(prev[:, :], pos)
    return -1, it
