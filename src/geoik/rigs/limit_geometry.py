"""The compiled geometry of a skeleton's joint limits (see :mod:`geoik.rigs.limits` for the
frames, the limits and the arrays): the allowed direction nearest a wanted one, link frames,
placing a link within its limit, and measuring, projecting and carrying a whole pose.

Every kernel takes the limits as :attr:`geoik.rigs.limits.TreeLimits.arrays`, ``(rest, cone,
hinge, lo, hi)``, and a pose's tree as ``(parents, order, lengths)``.
"""

from __future__ import annotations

import math

import numpy as np
from numba import njit

from geoik.geometry import (
    TINY,
    clamp,
    copy_into,
    q_axis_angle,
    q_between,
    qmul,
    qnormalize,
    qrot,
    wrap,
)

ROUNDING = 1e-12
"""Breaches up to this (radians) are rounding, reported as 0."""


@njit(cache=True)
def _rest_dir(rest, j):
    return qrot(rest[j, 0], rest[j, 1], rest[j, 2], rest[j, 3], 1.0, 0.0, 0.0)


@njit(cache=True)
def _is_hinge(hinge, j):
    return hinge[j, 0] != 0.0 or hinge[j, 1] != 0.0 or hinge[j, 2] != 0.0


@njit(cache=True)
def _hinge_angle(j, ux, uy, uz, rest, hinge):
    """Signed angle about the hinge axis from the rest direction to u's projection on the
    hinge plane (0 when u is along the axis)."""
    rx, ry, rz = _rest_dir(rest, j)
    hx, hy, hz = hinge[j, 0], hinge[j, 1], hinge[j, 2]
    s = (ry * uz - rz * uy) * hx + (rz * ux - rx * uz) * hy + (rx * uy - ry * ux) * hz
    c = rx * ux + ry * uy + rz * uz
    if s == 0.0 and c == 0.0:
        return 0.0
    return math.atan2(s, c)


@njit(cache=True)
def _clamp_angle(a, lo, hi):
    """``a`` (in (-pi, pi]) moved into ``[lo, hi]``: itself if inside, else the nearer bound in
    angle (free when the bounds are infinite)."""
    if not (math.isfinite(lo) and math.isfinite(hi)):
        return a
    if lo <= a <= hi:
        return a
    if abs(wrap(a - hi)) <= abs(wrap(a - lo)):
        return hi
    return lo


@njit(cache=True)
def allowed_direction(j, ux, uy, uz, rest, cone, hinge, lo, hi):
    """The direction, in the parent link's frame, that link ``j``'s limit allows nearest to the
    unit direction ``u``, and the breach (the angle between them, radians)."""
    rx, ry, rz = _rest_dir(rest, j)
    if _is_hinge(hinge, j):
        hx, hy, hz = hinge[j, 0], hinge[j, 1], hinge[j, 2]
        a = _clamp_angle(_hinge_angle(j, ux, uy, uz, rest, hinge), lo[j], hi[j])
        # h x r, the in-plane direction a quarter turn from r
        px, py, pz = hy * rz - hz * ry, hz * rx - hx * rz, hx * ry - hy * rx
        c, s = math.cos(a), math.sin(a)
        ax, ay, az = c * rx + s * px, c * ry + s * py, c * rz + s * pz
    else:
        dot = clamp(rx * ux + ry * uy + rz * uz, -1.0, 1.0)
        cx, cy, cz = ry * uz - rz * uy, rz * ux - rx * uz, rx * uy - ry * ux
        bend = math.atan2(math.sqrt(cx * cx + cy * cy + cz * cz), dot)
        if bend <= cone[j]:
            return ux, uy, uz, 0.0
        # turn r towards u by the cone's angle (about r x u; a half turn: the q_between axis)
        wx, wy, wz = ux - dot * rx, uy - dot * ry, uz - dot * rz
        n = math.sqrt(wx * wx + wy * wy + wz * wz)
        if n < 1e-12:
            # u opposite r: turn about the axis k (perpendicular to r) that q_between takes
            _, kx, ky, kz = q_between(rx, ry, rz, -rx, -ry, -rz)
            wx, wy, wz = ky * rz - kz * ry, kz * rx - kx * rz, kx * ry - ky * rx
            n = math.sqrt(wx * wx + wy * wy + wz * wz)
        c, s = math.cos(cone[j]), math.sin(cone[j])
        ax, ay, az = c * rx + s * wx / n, c * ry + s * wy / n, c * rz + s * wz / n
    d = clamp(ax * ux + ay * uy + az * uz, -1.0, 1.0)
    ex, ey, ez = ay * uz - az * uy, az * ux - ax * uz, ax * uy - ay * ux
    breach = math.atan2(math.sqrt(ex * ex + ey * ey + ez * ez), d)
    return ax, ay, az, breach if breach > ROUNDING else 0.0


@njit(cache=True)
def link_frame(f0, f1, f2, f3, j, ux, uy, uz, rest, hinge):
    """World frame of link ``j`` pointing along the unit direction ``u`` (in the frame ``f`` of
    its parent link): ``f`` turned by the link's swing, then by its rest turn."""
    rx, ry, rz = _rest_dir(rest, j)
    if _is_hinge(hinge, j):
        s0, s1, s2, s3 = q_axis_angle(
            hinge[j, 0], hinge[j, 1], hinge[j, 2], _hinge_angle(j, ux, uy, uz, rest, hinge)
        )
    else:
        s0, s1, s2, s3 = q_between(rx, ry, rz, ux, uy, uz)
    g0, g1, g2, g3 = qmul(f0, f1, f2, f3, s0, s1, s2, s3)
    return qnormalize(*qmul(g0, g1, g2, g3, rest[j, 0], rest[j, 1], rest[j, 2], rest[j, 3]))


@njit(cache=True)
def local_direction(f0, f1, f2, f3, dx, dy, dz):
    """Unit direction of the world vector d in the frame f; (0, 0, 0) when d is zero."""
    lx, ly, lz = qrot(f0, -f1, -f2, -f3, dx, dy, dz)
    n = math.sqrt(lx * lx + ly * ly + lz * lz)
    if n < TINY:
        return 0.0, 0.0, 0.0
    return lx / n, ly / n, lz / n


@njit(cache=True)
def _world_offset(pos, j, p):
    dx = pos[j, 0] - pos[p, 0]
    dy = pos[j, 1] - pos[p, 1]
    dz = pos[j, 2] - pos[p, 2] if pos.shape[1] == 3 else 0.0
    return dx, dy, dz


@njit(cache=True)
def place_link(j, p, d, lengths, lim, frames, pos):
    """Put joint ``j`` at its link's length from its (placed) parent ``p``, along the allowed
    direction nearest the world direction ``d`` (a 3-tuple), and set its link's frame. A zero
    ``d`` keeps the link's current direction; returns the breach of the direction wanted
    (radians). ``lim`` is :attr:`TreeLimits.arrays`; ``frames`` (m, 4) and ``pos`` (m, dim) are
    written at row ``j``."""
    dx, dy, dz = d
    rest, cone, hinge, lo, hi = lim
    f0, f1, f2, f3 = frames[p, 0], frames[p, 1], frames[p, 2], frames[p, 3]
    ux, uy, uz = local_direction(f0, f1, f2, f3, dx, dy, dz)
    if ux == 0.0 and uy == 0.0 and uz == 0.0:
        ux, uy, uz = _rest_dir(rest, j)
    ax, ay, az, breach = allowed_direction(j, ux, uy, uz, rest, cone, hinge, lo, hi)
    set_link(j, p, ax, ay, az, lengths, rest, hinge, frames, pos)
    return breach


@njit(cache=True)
def set_link(j, p, ax, ay, az, lengths, rest, hinge, frames, pos):
    """Put link ``j`` along the unit direction a (in its parent link's frame, assumed allowed)
    and set its frame: forward kinematics of one link."""
    f0, f1, f2, f3 = frames[p, 0], frames[p, 1], frames[p, 2], frames[p, 3]
    g0, g1, g2, g3 = link_frame(f0, f1, f2, f3, j, ax, ay, az, rest, hinge)
    frames[j, 0], frames[j, 1], frames[j, 2], frames[j, 3] = g0, g1, g2, g3
    wx, wy, wz = qrot(f0, f1, f2, f3, ax, ay, az)
    pos[j, 0] = pos[p, 0] + lengths[j] * wx
    pos[j, 1] = pos[p, 1] + lengths[j] * wy
    if pos.shape[1] == 3:
        pos[j, 2] = pos[p, 2] + lengths[j] * wz


@njit(cache=True)
def pose_breaches(tree, lim, root_q, pos, frames, local, out):
    """Measure a pose: every link's frame ``frames (m, 4)``, its direction in its parent link's
    frame ``local (m, 3)`` and its breach ``out (m,)`` (radians; the root's row 0).

    ``tree`` is ``(parents, order, lengths)`` (each (m,)), ``lim`` :attr:`TreeLimits.arrays`,
    ``root_q`` (4,) the root's orientation and ``pos`` (m, dim) the pose."""
    parents, order, _ = tree
    rest, cone, hinge, lo, hi = lim
    m = pos.shape[0]
    r = order[0]
    copy_into(frames[r, :], root_q)
    out[r] = 0.0
    local[r, :] = 0.0
    for idx in range(1, m):
        j = order[idx]
        p = parents[j]
        dx, dy, dz = _world_offset(pos, j, p)
        f0, f1, f2, f3 = frames[p, 0], frames[p, 1], frames[p, 2], frames[p, 3]
        ux, uy, uz = local_direction(f0, f1, f2, f3, dx, dy, dz)
        if ux == 0.0 and uy == 0.0 and uz == 0.0:
            ux, uy, uz = _rest_dir(rest, j)
        local[j, 0], local[j, 1], local[j, 2] = ux, uy, uz
        out[j] = allowed_direction(j, ux, uy, uz, rest, cone, hinge, lo, hi)[3]
        g0, g1, g2, g3 = link_frame(f0, f1, f2, f3, j, ux, uy, uz, rest, hinge)
        frames[j, 0], frames[j, 1], frames[j, 2], frames[j, 3] = g0, g1, g2, g3


@njit(cache=True)
def project_pose(tree, lim, root_q, pos, frames, local):
    """Bring a pose within the limits, from the root outwards: every link keeps its direction in
    its parent link's frame where the limit allows it, else takes the nearest allowed one, and
    the joints after it follow. ``local (m, 3)`` receives each link's (allowed) direction in its
    parent link's frame; returns the largest breach found. The arguments as
    :func:`pose_breaches` takes them; ``pos`` is written."""
    parents, order, lengths = tree
    rest, cone, hinge, lo, hi = lim
    m = pos.shape[0]
    breach = np.empty(m)
    pose_breaches(tree, lim, root_q, pos, frames, local, breach)
    worst = 0.0
    for idx in range(1, m):
        j = order[idx]
        worst = max(worst, breach[j])
    if worst == 0.0:
        return 0.0
    for idx in range(1, m):
        j = order[idx]
        p = parents[j]
        ax, ay, az, _ = allowed_direction(
            j, local[j, 0], local[j, 1], local[j, 2], rest, cone, hinge, lo, hi
        )
        local[j, 0], local[j, 1], local[j, 2] = ax, ay, az
        set_link(j, p, ax, ay, az, lengths, rest, hinge, frames, pos)
    return worst


@njit(cache=True)
def rest_turns(parents, order, directions, out):
    """Each link's rest turn ``out (m, 4)`` from the rest directions ``(m, 3)`` (world, unit;
    the rest frames chained from the root's identity)."""
    m = parents.shape[0]
    frames = np.empty((m, 4))
    r = order[0]
    frames[r, 0], frames[r, 1], frames[r, 2], frames[r, 3] = 1.0, 0.0, 0.0, 0.0
    out[r, 0], out[r, 1], out[r, 2], out[r, 3] = 1.0, 0.0, 0.0, 0.0
    for idx in range(1, m):
        j = order[idx]
        p = parents[j]
        f0, f1, f2, f3 = frames[p, 0], frames[p, 1], frames[p, 2], frames[p, 3]
        lx, ly, lz = local_direction(
            f0, f1, f2, f3, directions[j, 0], directions[j, 1], directions[j, 2]
        )
        q0, q1, q2, q3 = q_between(1.0, 0.0, 0.0, lx, ly, lz)
        out[j, 0], out[j, 1], out[j, 2], out[j, 3] = q0, q1, q2, q3
        frames[j, 0], frames[j, 1], frames[j, 2], frames[j, 3] = qnormalize(
            *qmul(f0, f1, f2, f3, q0, q1, q2, q3)
        )
    return frames


@njit(cache=True)
def carry(tree, lim, root_q, fixed, local, pos):
    """Forward kinematics from the root: joints with ``fixed`` set keep their positions (their
    frames follow from them), the others take their link along ``local (m, 3)`` (a direction
    in the parent link's frame) from the placed parent. ``tree``, ``lim`` and ``root_q`` as
    :func:`pose_breaches` takes them; ``pos`` (m, dim) is written."""
    parents, order, lengths = tree
    rest, _, hinge, _, _ = lim
    m = pos.shape[0]
    frames = np.empty((m, 4))
    copy_into(frames[order[0]], root_q)
    for idx in range(1, m):
        j = order[idx]
        p = parents[j]
        if fixed[j]:
            dx, dy, dz = _world_offset(pos, j, p)
            f0, f1, f2, f3 = frames[p, 0], frames[p, 1], frames[p, 2], frames[p, 3]
            ux, uy, uz = local_direction(f0, f1, f2, f3, dx, dy, dz)
            if ux == 0.0 and uy == 0.0 and uz == 0.0:
                ux, uy, uz = _rest_dir(rest, j)
            g0, g1, g2, g3 = link_frame(f0, f1, f2, f3, j, ux, uy, uz, rest, hinge)
            frames[j, 0], frames[j, 1], frames[j, 2], frames[j, 3] = g0, g1, g2, g3
        else:
            set_link(j, p, local[j, 0], local[j, 1], local[j, 2], lengths, rest, hinge, frames, pos)
