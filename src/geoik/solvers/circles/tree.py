"""Seed 003's intersection of circles on a tree, segment by segment (see :mod:`geoik.rigs.tree` for
the algorithm and its choices, and :mod:`geoik.geometry` for the arrays that describe a tree)."""

from __future__ import annotations

import math

import numpy as np
from numba import njit

from geoik.geometry import (
    MAX_ITERATIONS,
    REACHED,
    add_into,
    all_done,
    clamp,
    copy_into,
    dist2,
    toward,
    tree_settled,
)
from geoik.jit import slow_to_compile
from geoik.solvers.circles.place import place_chain, reach_of


@njit(cache=True)
def _propose(seg, segments, want, pos, acc, cnt, prop):
    """Backward step of one segment: if its key joint cannot sit at ``want[key]`` from where
    its top is, propose the top's current position moved into the segment's annulus about it
    (added to ``acc`` and counted in ``cnt``; ``prop`` is (d,) scratch)."""
    top, key, ptr, _, seg_len = segments
    k, a = key[seg], top[seg]
    rmin, rmax = reach_of(seg_len[ptr[seg] + 1 : ptr[seg + 1]], ptr[seg + 1] - ptr[seg] - 1)
    d = math.sqrt(dist2(pos[a], want[k]))
    if rmin <= d <= rmax:
        return  # the segment reaches from where its top is: no correction
    toward(want[k], pos[a], pos[k], pos[a], clamp(d, rmin, rmax), prop)
    add_into(acc[a], prop)
    cnt[a] += 1.0


@njit(cache=True)
def _place(seg, segments, want, targeted, targets, pos):
    """Forward step of one segment: its key joint's goal, then the circles placement."""
    top, key, ptr, joints, seg_len = segments
    k, a = key[seg], top[seg]
    lo, hi = ptr[seg], ptr[seg + 1]
    ls = seg_len[lo + 1 : hi]
    dim = pos.shape[1]
    goal = np.empty(dim)
    if targeted[k]:
        copy_into(goal, targets[k])
    else:
        rmin, rmax = reach_of(ls, hi - lo - 1)
        d = math.sqrt(dist2(want[k], pos[a]))
        toward(pos[a], want[k], pos[a], pos[k], clamp(d, rmin, rmax), goal)
    cur = np.empty((hi - lo, dim))
    for i in range(hi - lo):
        copy_into(cur[i], pos[joints[lo + i]])
    out = np.empty((hi - lo, dim))
    place_chain(ls, cur, goal, out)
    for i in range(1, hi - lo):
        copy_into(pos[joints[lo + i]], out[i])


@slow_to_compile  # about 8 s: a helper compiles it while calls run as Python
@njit(cache=True)
def circles_tree(segments, active, goal, pos, tol, max_iter, scale):
    """Circle intersection on a tree, segment by segment (see :mod:`geoik.rigs.tree`).

    Parameters
    ----------
    segments : tuple
        ``(top, key, ptr, joints, seg_len)``, the tree cut into chains between its key joints
        (``rigs.tree._segments``).
    active : (m,) bool array
        The joints on the paths to the targets.
    goal, pos, tol, max_iter, scale
        As :func:`geoik.solvers.fabrik.fabrik_tree` takes them.

    Returns
    -------
    (status, iterations)
    """
    top, key = segments[0], segments[1]
    targeted, targets, has_closest, closest = goal
    done = (targeted, targets, has_closest, closest, tol, scale)
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
                copy_into(want[k], targets[k])
            elif cnt[k] > 0.0:
                for d in range(dim):
                    want[k, d] = acc[k, d] / cnt[k]
            else:
                copy_into(want[k], pos[k])
            _propose(s, segments, want, pos, acc, cnt, prop)
        for s in range(nseg):
            _place(s, segments, want, targeted, targets, pos)
        code, used = tree_settled(pos, prev, active, done, it, max_iter)
        if code >= 0:
            return code, used
    return MAX_ITERATIONS, max_iter
