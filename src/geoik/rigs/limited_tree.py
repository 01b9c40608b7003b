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
    TINY,
    add_into,
    all_done,
    copy_into,
    q_between,
    qmul,
    qrot,
    toward,
    tree_settled,
)
from geoik.jit import slow_to_compile
from geoik.rigs.limit_geometry import (
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
def _guide(j, c, p, want, pos, frames, lim):
    """The direction (world, unit) for link ``j`` in the pass from the tips: towards its
    parent's current position, turned so that its child ``c``'s link, as wanted, is within
    ``c``'s limit in ``j``'s frame (the frame estimated as ``j``'s current one turned minimally
    onto the new direction): FABRIK's re-orientation, Aristidou & Lasenby 2011 Section 4.2.

    ``want`` and ``pos`` are (m, d) positions (wanted, current), ``frames`` (m, 4) the links'
    frames (quaternions), ``lim`` the limits' arrays ``(rest, cone, hinge, lo, hi)`` of
    :attr:`geoik.rigs.limits.TreeLimits.arrays`."""
    rest, cone, hinge, lo, hi = lim
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


@njit(cache=True, inline="always")
def prepare(tree, lim, root_q, pos):
    """Bring the start pose ``pos`` (m, d) within the limits (in place) and make the passes'
    work arrays.

    ``tree`` is ``(parents, order, lengths)``, ``lim`` ``(rest, cone, hinge, lo, hi)``, ``root_q``
    the root's orientation (4,). Returns ``(frames, local, want, acc, cnt, child, prop, prev)``:
    the links' frames (m, 4) and directions in their parents' frames (m, 3), the wanted
    positions (m, d), the children's proposals' sums (m, d) and counts (m,), each joint's last
    active child (m,), one proposal (d,), and the pose before the iteration (m, d)."""
    m, dim = pos.shape
    frames = np.empty((m, 4))
    local = np.empty((m, 3))
    project_pose(tree, lim, root_q, pos, frames, local)
    child = np.zeros(m, dtype=np.int64)
    return (
        frames,
        local,
        pos.copy(),
        np.zeros((m, dim)),
        np.zeros(m),
        child,
        np.empty(dim),
        pos.copy(),
    )


@njit(cache=True)
def backward_pass(tree, lim, active, targeted, targets, pos, work):
    """Tips to root: each active joint's wanted position (its target, or the centroid of what
    its children want of it) and its proposal for its parent, at the link's length from it: on
    the line to the parent's current position, turned (:func:`_guide`) where the joint has a
    single active child whose link would otherwise break its limit.

    ``tree``, ``lim`` and ``work`` as :func:`prepare` takes and makes them; ``active``,
    ``targeted`` (m,) which joints move and which have a target, ``targets`` (m, d), ``pos``
    (m, d) the current pose. Writes ``work``'s wanted positions."""
    parents, order, lengths = tree
    frames, _, want, acc, cnt, child, prop, _ = work
    m, dim = pos.shape
    acc[:, :] = 0.0
    cnt[:] = 0.0
    for idx in range(m - 1, 0, -1):
        j = order[idx]
        if not active[j]:
            continue
        if targeted[j]:
            copy_into(want[j], targets[j])
        else:
            for r in range(dim):
                want[j, r] = acc[j, r] / cnt[j]
        p = parents[j]
        if cnt[j] == 1.0:
            dx, dy, dz = _guide(j, child[j], p, want, pos, frames, lim)
            if dx != 0.0 or dy != 0.0 or dz != 0.0:
                prop[0] = want[j, 0] - lengths[j] * dx
                prop[1] = want[j, 1] - lengths[j] * dy
                if dim == 3:
                    prop[2] = want[j, 2] - lengths[j] * dz
            else:
                toward(want[j], pos[p], pos[j], pos[p], lengths[j], prop)
        else:
            toward(want[j], pos[p], pos[j], pos[p], lengths[j], prop)
        add_into(acc[p], prop)
        cnt[p] += 1.0
        child[p] = j


@njit(cache=True)
def forward_pass(tree, lim, active, pos, work):
    """Root to tips: each active joint towards its wanted position within its limits (a zero
    direction keeps the link's direction of the pose before the iteration), every other joint
    carried along (as :func:`carry` does); arguments as :func:`backward_pass`'s, ``pos`` written."""
    parents, order, lengths = tree
    rest, _, hinge, _, _ = lim
    frames, local, want, _, _, _, _, prev = work
    m = pos.shape[0]
    for idx in range(1, m):
        j = order[idx]
        p = parents[j]
        if active[j]:
            dx, dy, dz = _offset(want, pos, j, p)
            if dx == 0.0 and dy == 0.0 and dz == 0.0:
                dx, dy, dz = _offset(prev, prev, j, p)
            place_link(j, p, (dx, dy, dz), lengths, lim, frames, pos)
        else:
            set_link(j, p, local[j, 0], local[j, 1], local[j, 2], lengths, rest, hinge, frames, pos)


@slow_to_compile  # about 9 s: a helper compiles it while calls run as Python
@njit(cache=True)
def fabrik_tree_limited(tree, goal, pos, tol, max_iter, scale, lim, root_q):
    """Multi-end-effector FABRIK within joint limits (see the module notes).

    Parameters
    ----------
    tree : tuple
        ``(parents, lengths, order, active)``, each (m,): the skeleton's parents, link lengths
        (metres), joints from the root outwards, and the joints on the paths to the targets.
    goal : tuple
        ``(targeted, targets, has_closest, closest)``: (m,) the targeted joints, (m, d) their
        targets (metres; rows of untargeted joints unused), and (m,), (m, d) the nearest
        reachable point of an unreachable target (see :func:`geoik.geometry.all_done`).
    pos : (m, d) array
        The start pose on entry, the result on return (metres).
    tol, max_iter, scale : float, int, float
        The tolerance (metres), the iteration budget and the tree's size (metres) that scales
        the stall test.
    lim : tuple
        :attr:`geoik.rigs.limits.TreeLimits.arrays`, ``(rest, cone, hinge, lo, hi)``.
    root_q : (4,) array
        The root's orientation (w, x, y, z).

    Returns
    -------
    (status, iterations)
    """
    parents, lengths, order, active = tree
    targeted, targets, has_closest, closest = goal
    links = (parents, order, lengths)
    done = (targeted, targets, has_closest, closest, tol, scale)
    work = prepare(links, lim, root_q, pos)
    if all_done(pos, targeted, targets, has_closest, closest, tol):
        return REACHED, 0
    for it in range(1, max_iter + 1):
        backward_pass(links, lim, active, targeted, targets, pos, work)
        forward_pass(links, lim, active, pos, work)
        code, used = tree_settled(pos, work[7], active, done, it, max_iter)
        if code >= 0:
            return code, used
    return MAX_ITERATIONS, max_iter


@njit(cache=True)
def _bring_within(lo_, hi_, joints, tree, lim, frames, pos):
    """Walk one placed segment (``joints[lo_:hi_]``) from its top down, each joint towards its
    placed position within its limits; returns the largest turn a limit made (radians)."""
    parents, _, lengths = tree
    worst = 0.0
    for i in range(lo_ + 1, hi_):
        j = joints[i]
        p = parents[j]
        dx, dy, dz = _offset(pos, pos, j, p)  # j still where the circles put it, p placed
        b = place_link(j, p, (dx, dy, dz), lengths, lim, frames, pos)
        worst = max(worst, b)
    return worst


@njit(cache=True, inline="always")
def carry(tree, lim, active, frames, local, pos):
    """Joints off the targeted paths move with their parents: each keeps its link's direction
    ``local`` (m, 3) in its parent link's frame (``frames`` (m, 4)); ``pos`` (m, d) written."""
    parents, order, lengths = tree
    rest, _, hinge, _, _ = lim
    for idx in range(1, pos.shape[0]):
        j = order[idx]
        if not active[j]:
            p = parents[j]
            set_link(j, p, local[j, 0], local[j, 1], local[j, 2], lengths, rest, hinge, frames, pos)


@njit(cache=True, inline="always")
def circles_round(segments, tree, lim, active, targeted, targets, pos, work):
    """One round of the circles on the segments (:func:`geoik.solvers.circles.tree._propose`
    from the tips, :func:`geoik.solvers.circles.tree._place` from the root), each placement
    brought within the limits from its top down.

    ``segments`` is ``(top, key, ptr, joints, seg_len)`` (``rigs.tree._segments``), the other
    arguments as :func:`backward_pass` takes them. Returns the largest turn a limit made
    (radians)."""
    top, key, ptr, joints, seg_len = segments
    frames, local, want, acc, cnt, _, prop, _ = work
    acc[:, :] = 0.0
    cnt[:] = 0.0
    nseg = top.shape[0]
    for s in range(nseg - 1, -1, -1):
        k = key[s]
        if targeted[k]:
            copy_into(want[k], targets[k])
        elif cnt[k] > 0.0:
            for r in range(want.shape[1]):
                want[k, r] = acc[k, r] / cnt[k]
        else:
            copy_into(want[k], pos[k])
        _propose(s, segments, want, pos, acc, cnt, prop)
    bound = 0.0
    for s in range(nseg):
        _place(s, segments, want, targeted, targets, pos)
        b = _bring_within(ptr[s], ptr[s + 1], joints, tree, lim, frames, pos)
        bound = max(bound, b)
    carry(tree, lim, active, frames, local, pos)
    return bound


@slow_to_compile  # about 13 s: a helper compiles it while calls run as Python
@njit(cache=True)
def circles_tree_limited(segments, tree, goal, pos, tol, max_iter, scale, lim, root_q):
    """Circle intersection on a tree within joint limits (see the module notes).

    ``segments`` is the tree's ``(top, key, ptr, joints, seg_len)`` (``rigs.tree._segments``);
    the other arguments and the result as :func:`fabrik_tree_limited`'s."""
    parents, lengths, order, active = tree
    targeted, targets, has_closest, closest = goal
    links = (parents, order, lengths)
    done = (targeted, targets, has_closest, closest, tol, scale)
    work = prepare(links, lim, root_q, pos)
    circles = True
    if all_done(pos, targeted, targets, has_closest, closest, tol):
        return REACHED, 0
    for it in range(1, max_iter + 1):
        if circles:
            bound = circles_round(segments, links, lim, active, targeted, targets, pos, work)
            circles = bound <= BOUND
        else:
            backward_pass(links, lim, active, targeted, targets, pos, work)
            forward_pass(links, lim, active, pos, work)
        code, used = tree_settled(pos, work[7], active, done, it, max_iter)
        if code >= 0:
            return code, used
    return MAX_ITERATIONS, max_iter
