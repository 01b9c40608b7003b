"""Multi-end-effector FABRIK on a tree of positions (Aristidou & Lasenby 2011, Section 5), the
kernel of :func:`geoik.rigs.tree.solve_tree`'s ``fabrik`` on a skeleton without limits (see
:mod:`geoik.rigs.tree` for the algorithm and :mod:`geoik.rigs.limited_tree` for the limited
one)."""

from __future__ import annotations

import numpy as np
from numba import njit

from geoik.geometry import (
    MAX_ITERATIONS,
    REACHED,
    add_into,
    all_done,
    copy_into,
    toward,
    tree_settled,
)


@njit(cache=True)
def fabrik_tree(tree, goal, pos, tol, max_iter, scale):
    """Multi-end-effector FABRIK on a tree of positions (Aristidou & Lasenby 2011, Section 5;
    see :mod:`geoik.rigs.tree`, and :mod:`geoik.geometry` for the arrays).

    Parameters
    ----------
    tree : tuple
        ``(parents, lengths, order, active)``, each (m,): the parents, link lengths (metres),
        joints from the root outwards, and the joints on the paths to the targets.
    goal : tuple
        ``(targeted, targets, has_closest, closest)``: (m,) the targeted joints, (m, d) their
        targets (rows of untargeted joints unused), and (m,), (m, d) the nearest reachable
        point of an unreachable target (see :func:`geoik.geometry.all_done`).
    pos : (m, d) array
        The start pose on entry, the result on return.
    tol, max_iter, scale : float, int, float
        The tolerance, the iteration budget and the tree's size that scales the stall test.

    Returns
    -------
    (status, iterations)
    """
    parent, lengths, order, active = tree
    targeted, targets, has_closest, closest = goal
    done = (targeted, targets, has_closest, closest, tol, scale)
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
                copy_into(want[j], targets[j])
            else:
                copy_into(want[j, :], acc[j] / cnt[j])  # the centroid of the sub-base's proposals
            p = parent[j]
            toward(want[j], pos[p], pos[j], pos[p], lengths[j], prop)
            add_into(acc[p], prop)
            cnt[p] += 1.0
        for idx in range(1, m):  # root to tips
            j = order[idx]
            if active[j]:
                p = parent[j]
                toward(pos[p], want[j], prev[p], prev[j], lengths[j], pos[j])
        code, used = tree_settled(pos, prev, active, done, it, max_iter)
        if code >= 0:
            return code, used
    return MAX_ITERATIONS, max_iter
