"""The tree solvers on skeletons with joint limits (see :mod:`geoik.rigs.tree` for the algorithms
and :mod:`geoik.rigs.limits` for the limits, the link frames and the arrays).

Both kernels keep positions as the state, as the free ones do, and place every joint through
:func:`geoik.rigs.limits.place_link`: at its link's length from its placed parent, along the
direction its limit allows nearest to the one the algorithm wants. So every pose they produce is
within the limits, and the link lengths hold to rounding. The start pose is first brought
within the limits (:func:`geoik.rigs.limits.project_pose`). Joints off the paths to the targets
keep their links' directions in their parent links' frames (they move with their parents, as in
forward kinematics), which keeps them within their limits too.

``fabrik_tree_limited``
    Multi-end-effector FABRIK as :func:`geoik.solvers.fabrik.fabrik_tree`; the pass from the root
    outwards places each joint within its limits.
``circles_tree_limited``
    Rounds of seed 003's circles as :func:`geoik.solvers.circles.tree.circles_tree`, each
    segment's placement then brought within the limits from its top down. While no limit has to
    change a placement the result is that of the free solver. Once one does, the circles would
    place the segment the same way again (their placement ignores limits), so the rounds that
    follow are limited FABRIK passes from the pose reached.
"""

from __future__ import annotations

import math

import numpy as np
from numba import njit

from geoik.geometry import (
    MAX_ITERATIONS,
    REACHED,
    STALLED,
    TINY,
    TREE_MOVED,
    all_done,
    max_move,
    q_between,
    qmul,
    qrot,
    toward,
)
from geoik.rigs.limits import (
    allowed_direction,
    local_direction,
    place_link,
    project_pose,
    set_link,
)
from geoik.solvers.circles.tree import _place, _propose

BOUND = 1e-12
"""A placement turned by more than this (radians) by a limit counts as bound by it."""


@njit(cache=True)
def _offset(a, b, i, j):
    dx = a[i, 0] - b[j, 0]
    dy = a[i, 1] - b[j, 1]
    dz = a[i, 2] - b[j, 2] if a.shape[1] == 3 else 0.0
    return dx, dy, dz


@njit(cache=True)
def _unit(dx, dy, dz):
    n = math.sqrt(dx * dx + dy * dy + dz * dz)
    if n < TINY:
        return 0.0, 0.0, 0.0
    return dx / n, dy / n, dz / n


@njit(cache=True)
def _guide(j, c, p, want, pos, frames, rest, cone, hinge, lo, hi):
    """The direction (world, unit) for link ``j`` in the pass from the tips: towards its
    parent's current position, turned so that its child ``c``'s link, as wanted, is within
    ``c``'s limit in ``j``'s frame (the frame estimated as ``j``'s current one turned minimally
    onto the new direction): FABRIK's re-orientation, Aristidou & Lasenby 2011 Section 4.2."""
    d0x, d0y, d0z = _offset(want, pos, j, p)
    d0x, d0y, d0z = _unit(d0x, d0y, d0z)
    if d0x == 0.0 and d0y == 0.0 and d0z == 0.0:
        return d0x, d0y, d0z
    cx, cy, cz = _offset(want, want, c, j)
    cx, cy, cz = _unit(cx, cy, cz)
    ox, oy, oz = _offset(pos, pos, j, p)
    ox, oy, oz = _unit(ox, oy, oz)
    if (cx == 0.0 and cy == 0.0 and cz == 0.0) or (ox == 0.0 and oy == 0.0 and oz == 0.0):
        return d0x, d0y, d0z
    r0, r1, r2, r3 = q_between(ox, oy, oz, d0x, d0y, d0z)
    f0, f1, f2, f3 = qmul(r0, r1, r2, r3, frames[j, 0], frames[j, 1], frames[j, 2], frames[j, 3])
    ux, uy, uz = local_direction(f0, f1, f2, f3, cx, cy, cz)
    ax, ay, az, breach = allowed_direction(c, ux, uy, uz, rest, cone, hinge, lo, hi)
    if breach == 0.0:
        return d0x, d0y, d0z
    wx, wy, wz = qrot(f0, f1, f2, f3, ax, ay, az)
    t0, t1, t2, t3 = q_between(wx, wy, wz, cx, cy, cz)
    return qrot(t0, t1, t2, t3, d0x, d0y, d0z)


@njit(cache=True)
def backward_pass(
    parents,
    order,
    lengths,
    rest,
    cone,
    hinge,
    lo,
    hi,
    active,
    targeted,
    targets,
    frames,
    pos,
    want,
    acc,
    cnt,
    child,
    prop,
):
    """Tips to root: each active joint's wanted position (its target, or the centroid of what
    its children want of it) and its proposal for its parent, at the link's length from it: on
    the line to the parent's current position, turned (:func:`_guide`) where the joint has a
    single active child whose link would otherwise break its limit."""
    m, dim = pos.shape
    acc[:, :] = 0.0
    cnt[:] = 0.0
    for idx in range(m - 1, 0, -1):
        j = order[idx]
        if not active[j]:
            continue
        if targeted[j]:
            want[j, :] = targets[j]
        else:
            want[j, :] = acc[j] / cnt[j]
        p = parents[j]
        if cnt[j] == 1.0:
            dx, dy, dz = _guide(j, child[j], p, want, pos, frames, rest, cone, hinge, lo, hi)
            if dx != 0.0 or dy != 0.0 or dz != 0.0:
                prop[0] = want[j, 0] - lengths[j] * dx
                prop[1] = want[j, 1] - lengths[j] * dy
                if dim == 3:
                    prop[2] = want[j, 2] - lengths[j] * dz
            else:
                toward(want[j], pos[p], pos[j], pos[p], lengths[j], prop)
        else:
            toward(want[j], pos[p], pos[j], pos[p], lengths[j], prop)
        acc[p, :] += prop
        cnt[p] += 1.0
        child[p] = j


@njit(cache=True)
def forward_pass(
    parents, order, lengths, rest, cone, hinge, lo, hi, active, want, prev, local, frames, pos
):
    """Root to tips: each active joint towards its wanted position within its limits (a zero
    direction keeps the link's direction of ``prev``), every other joint carried along."""
    m = pos.shape[0]
    for idx in range(1, m):
        j = order[idx]
        p = parents[j]
        if active[j]:
            dx, dy, dz = _offset(want, pos, j, p)
            if dx == 0.0 and dy == 0.0 and dz == 0.0:
                dx, dy, dz = _offset(prev, prev, j, p)
            place_link(j, p, dx, dy, dz, lengths, rest, cone, hinge, lo, hi, frames, pos)
        else:
            set_link(j, p, local[j, 0], local[j, 1], local[j, 2], lengths, rest, hinge, frames, pos)


@njit(cache=True)
def fabrik_tree_limited(
    parents,
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
    rest,
    cone,
    hinge,
    lo,
    hi,
    root_q,
):
    """Multi-end-effector FABRIK within joint limits (see the module notes)."""
    m, dim = pos.shape
    frames = np.empty((m, 4))
    local = np.empty((m, 3))
    project_pose(parents, order, lengths, rest, cone, hinge, lo, hi, root_q, pos, frames, local)
    want = pos.copy()
    acc = np.zeros((m, dim))
    cnt = np.zeros(m)
    child = np.zeros(m, dtype=np.int64)
    prop = np.empty(dim)
    prev = pos.copy()
    if all_done(pos, targeted, targets, has_closest, closest, tol):
        return REACHED, 0
    for it in range(1, max_iter + 1):
        backward_pass(
            parents,
            order,
            lengths,
            rest,
            cone,
            hinge,
            lo,
            hi,
            active,
            targeted,
            targets,
            frames,
            pos,
            want,
            acc,
            cnt,
            child,
            prop,
        )
        forward_pass(
            parents,
            order,
            lengths,
            rest,
            cone,
            hinge,
            lo,
            hi,
            active,
            want,
            prev,
            local,
            frames,
            pos,
        )
        if all_done(pos, targeted, targets, has_closest, closest, tol):
            return REACHED, it
        if max_move(pos, prev, active) <= TREE_MOVED * scale:
            return STALLED, it
        prev[:, :] = pos
    return MAX_ITERATIONS, max_iter


@njit(cache=True)
def _bring_within(lo_, hi_, joints, parents, lengths, rest, cone, hinge, lo, hi, frames, pos):
    """Walk one placed segment from its top down, each joint towards its placed position within
    its limits; returns the largest turn a limit made."""
    worst = 0.0
    for i in range(lo_ + 1, hi_):
        j = joints[i]
        p = parents[j]
        dx, dy, dz = _offset(pos, pos, j, p)  # j still where the circles put it, p placed
        b = place_link(j, p, dx, dy, dz, lengths, rest, cone, hinge, lo, hi, frames, pos)
        worst = max(worst, b)
    return worst


@njit(cache=True)
def circles_tree_limited(
    top,
    key,
    ptr,
    joints,
    seg_len,
    parents,
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
    rest,
    cone,
    hinge,
    lo,
    hi,
    root_q,
):
    """Circle intersection on a tree within joint limits (see the module notes)."""
    m, dim = pos.shape
    nseg = top.shape[0]
    frames = np.empty((m, 4))
    local = np.empty((m, 3))
    project_pose(parents, order, lengths, rest, cone, hinge, lo, hi, root_q, pos, frames, local)
    want = pos.copy()
    acc = np.zeros((m, dim))
    cnt = np.zeros(m)
    child = np.zeros(m, dtype=np.int64)
    prop = np.empty(dim)
    prev = pos.copy()
    circles = True
    if all_done(pos, targeted, targets, has_closest, closest, tol):
        return REACHED, 0
    for it in range(1, max_iter + 1):
        if circles:
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
            bound = 0.0
            for s in range(nseg):
                _place(s, top, key, ptr, joints, seg_len, want, targeted, targets, pos)
                b = _bring_within(
                    ptr[s],
                    ptr[s + 1],
                    joints,
                    parents,
                    lengths,
                    rest,
                    cone,
                    hinge,
                    lo,
                    hi,
                    frames,
                    pos,
                )
                bound = max(bound, b)
            for idx in range(1, m):  # joints off the targeted paths move with their parents
                j = order[idx]
                if not active[j]:
                    p = parents[j]
                    set_link(
                        j,
                        p,
                        local[j, 0],
                        local[j, 1],
                        local[j, 2],
                        lengths,
                        rest,
                        hinge,
                        frames,
                        pos,
                    )
            circles = bound <= BOUND
        else:
            backward_pass(
                parents,
                order,
                lengths,
                rest,
                cone,
                hinge,
                lo,
                hi,
                active,
                targeted,
                targets,
                frames,
                pos,
                want,
                acc,
                cnt,
                child,
                prop,
            )
            forward_pass(
                parents,
                order,
                lengths,
                rest,
                cone,
                hinge,
                lo,
                hi,
                active,
                want,
                prev,
                local,
                frames,
                pos,
            )
        if all_done(pos, targeted, targets, has_closest, closest, tol):
            return REACHED, it
        if max_move(pos, prev, active) <= TREE_MOVED * scale:
            return STALLED, it
        prev[:, :] = pos
    return MAX_ITERATIONS, max_iter
