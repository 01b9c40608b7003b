"""Numba kernels of the tree solvers (see :mod:`geoik.tree` for the algorithms and choices).

Arrays describe the tree: ``parent (m,)`` (-1 for the root), ``lengths (m,)`` (link from the
parent), ``order (m,)`` (each joint after its parent, the root first), ``active (m,)`` (on the
path from the root to a targeted end effector), ``targeted (m,)``, ``targets (m, d)`` (rows of
targeted joints used), ``has_closest (m,)`` and ``closest (m, d)`` (a targeted joint whose target
is out of its reach is done when within ``tol`` of that point). ``pos (m, d)`` holds the start
pose on entry and the result on return. Kernels return ``(code, iterations)`` with code
``REACHED`` (every targeted joint done), ``STALLED`` or ``MAX_ITERATIONS``.
"""

from __future__ import annotations

import math

import numpy as np
from numba import njit

from geoik.geometry import MAX_ITERATIONS, REACHED, STALLED, clamp, dist2
from geoik.solvers._circle_place import place_chain, reach_of

TINY = 1e-300
MOVED = 1e-12
"""A round moving no joint more than this times the scale has stalled."""


@njit(cache=True)
def all_done(pos, targeted, targets, has_closest, closest, tol):
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
    worst = 0.0
    for j in range(pos.shape[0]):
        if active[j]:
            worst = max(worst, dist2(pos[j], prev[j]))
    return math.sqrt(worst)


@njit(cache=True)
def fabrik_tree(
    parent,
    lengths,
    order,
    active,
    targeted,
    targets,
    has_closest,
    closest,
    pos,
    tol,
    max_iter,
    scale,
):
    """Multi-end-effector FABRIK (Aristidou & Lasenby 2011, Section 5)."""
    m, dim = pos.shape
    want = pos.copy()
    acc = np.zeros((m, dim))
    cnt = np.zeros(m)
    prop = np.empty(dim)
    prev = pos.copy()
    if all_done(pos, targeted, targets, has_closest, closest, tol):
        return REACHED, 0
    for it in range(1, max_iter + 1):
        acc[:, :] = 0.0
        cnt[:] = 0.0
        for idx in range(m - 1, 0, -1):  # tip to root: children before parents
            j = order[idx]
            if not active[j]:
                continue
            if targeted[j]:
                want[j, :] = targets[j]
            else:
                want[j, :] = acc[j] / cnt[j]  # the centroid of the sub-base's proposals
            p = parent[j]
            toward(want[j], pos[p], pos[j], pos[p], lengths[j], prop)
            acc[p, :] += prop
            cnt[p] += 1.0
        for idx in range(1, m):  # root to tips
            j = order[idx]
            if active[j]:
                p = parent[j]
                toward(pos[p], want[j], prev[p], prev[j], lengths[j], pos[j])
        if all_done(pos, targeted, targets, has_closest, closest, tol):
            return REACHED, it
        if max_move(pos, prev, active) <= MOVED * scale:
            return STALLED, it
        prev[:, :] = pos
    return MAX_ITERATIONS, max_iter


@njit(cache=True)
def _propose(seg, top, key, ptr, joints, seg_len, want, pos, acc, cnt, prop):
    """Backward step of one segment: if its key joint cannot sit at ``want[key]`` from where
    its top is, propose the top's current position moved into the segment's annulus about it."""
    k, a = key[seg], top[seg]
    rmin, rmax = reach_of(seg_len[ptr[seg] + 1 : ptr[seg + 1]], ptr[seg + 1] - ptr[seg] - 1)
    d = math.sqrt(dist2(pos[a], want[k]))
    if rmin <= d <= rmax:
        return  # the segment reaches from where its top is: no correction
    toward(want[k], pos[a], pos[k], pos[a], clamp(d, rmin, rmax), prop)
    acc[a, :] += prop
    cnt[a] += 1.0


@njit(cache=True)
def _place(seg, top, key, ptr, joints, seg_len, want, targeted, targets, pos):
    """Forward step of one segment: its key joint's goal, then the circles placement."""
    k, a = key[seg], top[seg]
    lo, hi = ptr[seg], ptr[seg + 1]
    ls = seg_len[lo + 1 : hi]
    dim = pos.shape[1]
    goal = np.empty(dim)
    if targeted[k]:
        goal[:] = targets[k]
    else:
        rmin, rmax = reach_of(ls, hi - lo - 1)
        d = math.sqrt(dist2(want[k], pos[a]))
        toward(pos[a], want[k], pos[a], pos[k], clamp(d, rmin, rmax), goal)
    cur = np.empty((hi - lo, dim))
    for i in range(hi - lo):
        cur[i, :] = pos[joints[lo + i]]
    out = np.empty((hi - lo, dim))
    place_chain(ls, cur, goal, out)
    for i in range(1, hi - lo):
        pos[joints[lo + i], :] = out[i]


@njit(cache=True)
def circles_tree(
    top,
    key,
    ptr,
    joints,
    seg_len,
    active,
    targeted,
    targets,
    has_closest,
    closest,
    pos,
    tol,
    max_iter,
    scale,
):
    """Circle intersection on a tree, segment by segment (see geoik.tree)."""
    m, dim = pos.shape
    nseg = top.shape[0]
    want = pos.copy()
    acc = np.zeros((m, dim))
    cnt = np.zeros(m)
    prop = np.empty(dim)
    prev = pos.copy()
    if all_done(pos, targeted, targets, has_closest, closest, tol):
        return REACHED, 0
    for it in range(1, max_iter + 1):
        acc[:, :] = 0.0
        cnt[:] = 0.0
        for s in range(nseg - 1, -1, -1):
            k = key[s]
            if targeted[k]:
                want[k, :] = targets[k]
            elif cnt[k] > 0.0:
                want[k, :] = acc[k] / cnt[k]
            else:
                want[k, :] = pos[k]
            _propose(s, top, key, ptr, joints, seg_len, want, pos, acc, cnt, prop)
        for s in range(nseg):
            _place(s, top, key, ptr, joints, seg_len, want, targeted, targets, pos)
        if all_done(pos, targeted, targets, has_closest, closest, tol):
            return REACHED, it
        if max_move(pos, prev, active) <= MOVED * scale:
            return STALLED, it
        prev[:, :] = pos
    return MAX_ITERATIONS, max_iter
