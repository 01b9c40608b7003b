"""The 3-D two-bone kernel: the elbow on the circle of solutions, placed by a pole, a cone or a
hinge first joint. See :mod:`geoik.solvers.two_bone` for the method and its choices.
"""

from __future__ import annotations

import math

import numpy as np
from numba import njit

from geoik.geometry import (
    PI,
    REACHED,
    constrain_joint_3d,
    copy_into,
    dist2,
    fit_angle,
    fk_3d,
    hinge_angle,
    is_hinge,
    joint_quat_toward,
    q_axis_angle,
    q_between,
    qmul,
    qnormalize,
    qrot,
    sq,
    wrap,
)
from geoik.solvers.two_bone.core import EXACT, elbow_direction, judge_kernel, unit_or_zero


@njit(cache=True)
def pole_normal(ux, uy, uz, pole):
    """Unit component of ``pole`` normal to ``u``; +z (else +y) when the pole is along ``u``."""
    px, py, pz = pole[0], pole[1], pole[2]
    pn = math.sqrt(px * px + py * py + pz * pz)
    k = px * ux + py * uy + pz * uz
    vx, vy, vz = px - k * ux, py - k * uy, pz - k * uz
    m = math.sqrt(vx * vx + vy * vy + vz * vz)
    if m <= 1e-9 * pn or m < 1e-300:
        px, py, pz = (0.0, 1.0, 0.0) if abs(uz) > 0.9 else (0.0, 0.0, 1.0)
        k = uz if pz == 1.0 else uy
        vx, vy, vz = px - k * ux, py - k * uy, pz - k * uz
        m = math.sqrt(vx * vx + vy * vy + vz * vz)
    return vx / m, vy / m, vz / m


@njit(cache=True)
def first_joint(d, bend_axis, gamma, cone, hinge, lo, hi):
    """Joint 0's rotation pointing its link along ``d``, limited.

    A ball joint followed by a hinge is twisted about ``d`` so that the hinge's world axis is
    ``+bend_axis`` (bend ``+gamma``) or ``-bend_axis`` (bend ``-gamma``), whichever the hinge's
    limits allow (else the nearer).
    """
    q0, q1, q2, q3 = q_between(1.0, 0.0, 0.0, d[0], d[1], d[2])
    if not is_hinge(hinge, np.int64(0)) and is_hinge(hinge, np.int64(1)):
        g_pos = fit_angle(gamma, 0.0, lo[1], hi[1])
        g_neg = fit_angle(-gamma, 0.0, lo[1], hi[1])
        sgn = 1.0
        if not g_pos[1] and (g_neg[1] or abs(g_neg[0] + gamma) < abs(g_pos[0] - gamma)):
            sgn = -1.0
        kx, ky, kz = sgn * bend_axis[0], sgn * bend_axis[1], sgn * bend_axis[2]
        hx, hy, hz = qrot(q0, q1, q2, q3, hinge[1, 0], hinge[1, 1], hinge[1, 2])
        cx, cy, cz = hy * kz - hz * ky, hz * kx - hx * kz, hx * ky - hy * kx
        tau = math.atan2(cx * d[0] + cy * d[1] + cz * d[2], hx * kx + hy * ky + hz * kz)
        t0, t1, t2, t3 = q_axis_angle(d[0], d[1], d[2], tau)
        q0, q1, q2, q3 = qmul(t0, t1, t2, t3, q0, q1, q2, q3)
    q0, q1, q2, q3 = constrain_joint_3d(q0, q1, q2, q3, np.int64(0), cone, hinge, lo, hi)
    return qnormalize(q0, q1, q2, q3)


@njit(cache=True)
def aim_second(model, target, frames):
    """Point joint 1's link at the target (3,) from the elbow, as far as its limits allow.

    ``model`` is the chain's ``kernel_arrays``, ``frames`` the pose ``(quats, pos, world)``:
    local rotations (2, 4), joint positions (3, 3) and world rotations (2, 4), all written."""
    lengths, base, cone, hinge, lo, hi = model
    quats, pos, world = frames
    fk_3d(lengths, base, quats, pos, world)
    dx, dy, dz = target[0] - pos[1, 0], target[1] - pos[1, 1], target[2] - pos[1, 2]
    if dx * dx + dy * dy + dz * dz > 0.0:
        quats[1, 0], quats[1, 1], quats[1, 2], quats[1, 3] = joint_quat_toward(
            np.int64(1), dx, dy, dz, world, cone, hinge, lo, hi
        )
    fk_3d(lengths, base, quats, pos, world)


@njit(cache=True)
def aim_first(model, target, frames):
    """Turn joint 0 so the end effector points at the target from the base, limited (the
    arguments as :func:`aim_second` takes them)."""
    lengths, base, cone, hinge, lo, hi = model
    quats, pos, world = frames
    ax, ay, az, na = unit_or_zero(pos[2] - base)
    bx, by, bz, nb = unit_or_zero(target - base)
    if na == 0.0 or nb == 0.0:
        return
    r0, r1, r2, r3 = q_between(ax, ay, az, bx, by, bz)
    q0, q1, q2, q3 = qmul(r0, r1, r2, r3, quats[0, 0], quats[0, 1], quats[0, 2], quats[0, 3])
    q0, q1, q2, q3 = constrain_joint_3d(q0, q1, q2, q3, np.int64(0), cone, hinge, lo, hi)
    quats[0, 0], quats[0, 1], quats[0, 2], quats[0, 3] = qnormalize(q0, q1, q2, q3)
    fk_3d(lengths, base, quats, pos, world)


@njit(cache=True)
def within_cone(ux, uy, uz, vx, vy, vz, c, r1, r2, cone0):
    """The elbow side ``v`` (unit, normal to the target direction ``u``) turned about ``u`` as
    little as needed for the first link to lie within a ball first joint's cone about +x.

    Every elbow position of the solution lies on a circle about ``u``: the first link makes
    the triangle's angle ``beta`` with ``u``, so its direction is
    ``cos(beta) u + sin(beta) (cos(psi) v + sin(psi) w)`` with ``w = u x v``, and its +x
    component ``C + S cos(psi - psi0)`` must reach ``cos(cone0)``. ``v`` is returned unchanged
    when ``psi = 0`` already fits, or when no ``psi`` does (the caller's clamping then applies).
    """
    q = c * c + r1 * r1 - r2 * r2
    s2 = 4.0 * r1 * r1 * c * c - q * q
    if s2 <= 0.0:
        return vx, vy, vz  # out of reach: the link lies along u, whatever psi
    m = math.sqrt(q * q + s2)
    cb, sb = q / m, math.sqrt(s2) / m
    wx, wy, wz = uy * vz - uz * vy, uz * vx - ux * vz, ux * vy - uy * vx
    need = math.cos(cone0) - cb * ux
    sv, sw = sb * vx, sb * wx
    if sv >= need:
        return vx, vy, vz
    big = math.sqrt(sv * sv + sw * sw)
    if big <= need:
        return vx, vy, vz
    psi0 = math.atan2(sw, sv)
    half = math.acos(need / big)
    psi = psi0 - half if abs(wrap(psi0 - half)) <= abs(wrap(psi0 + half)) else psi0 + half
    cp, sp = math.cos(psi), math.sin(psi)
    return cp * vx + sp * wx, cp * vy + sp * wy, cp * vz + sp * wz


@njit(cache=True, inline="always")
def branch_3d(model, target, pole, side, frames):
    """Set ``quats`` to one branch (clamped if it breaks a limit); returns its error (the
    distance of the end from the target).

    ``pole`` (3,) picks the plane the elbow bends in and ``side`` (+1 or -1) its side of the
    target line; ``model`` and ``frames`` as :func:`aim_second` takes them."""
    lengths, base, cone, hinge, lo, hi = model
    quats, pos, world = frames
    r1, r2 = lengths[0], lengths[1]
    d = np.empty(3)
    axis = np.zeros(3)
    ux, uy, uz, c = unit_or_zero(target - base)
    if c == 0.0:
        fk_3d(lengths, base, quats, pos, world)
        copy_into(d[:], (pos[1] - base) / r1)
        gamma = PI
    else:
        vx, vy, vz = pole_normal(ux, uy, uz, pole)
        vx, vy, vz = side * vx, side * vy, side * vz  # the elbow's side of the target line
        if cone[0] < PI:
            vx, vy, vz = within_cone(ux, uy, uz, vx, vy, vz, c, r1, r2, cone[0])
        d[0], d[1], d[2] = elbow_direction(ux, uy, uz, vx, vy, vz, c, r1, r2, 1.0)
        # the bend turns link 0 towards link 1 about -(u x v)
        axis[0], axis[1], axis[2] = uz * vy - uy * vz, ux * vz - uz * vx, uy * vx - ux * vy
        ex, ey, ez = c * ux - r1 * d[0], c * uy - r1 * d[1], c * uz - r1 * d[2]
        cx, cy, cz = d[1] * ez - d[2] * ey, d[2] * ex - d[0] * ez, d[0] * ey - d[1] * ex
        gamma = math.atan2(
            math.sqrt(cx * cx + cy * cy + cz * cz), d[0] * ex + d[1] * ey + d[2] * ez
        )
    quats[0, 0], quats[0, 1], quats[0, 2], quats[0, 3] = first_joint(
        d, axis, gamma, cone, hinge, lo, hi
    )
    aim_second(model, target, frames)
    if dist2(pos[2], target) > sq(EXACT * (r1 + r2)):
        aim_first(model, target, frames)
        aim_second(model, target, frames)
    return math.sqrt(dist2(pos[2], target))


@njit(cache=True, inline="always")
def hinge_first_branch(model, target, side, frames):
    """Set ``quats`` to one branch of a chain whose first joint is a hinge; returns its error
    (``model`` and ``frames`` as :func:`aim_second` takes them).

    The hinge's axis ``h`` (in the base frame, which is the world's) fixes the plane the first
    link turns in, so no pole applies. With ``p`` the target from the base and ``c = |p|``:

    - a ball second joint: the elbow ``r1 (cos a x + sin a (h x x))`` must lie at ``r2`` from
      the target, ``A cos a + B sin a = k`` with ``A = p . x``, ``B = p . (h x x)`` and
      ``k = (r1^2 + c^2 - r2^2) / (2 r1)``: ``a = atan2(B, A) + side acos(k / |(A, B)|)``
      (``side = +1``: the elbow counter-clockwise about ``h`` of the target's direction); the
      second link then points at the target;
    - a hinge second joint (axis ``g`` in the first link's frame): the elbow angle ``b`` has
      ``cos b = (c^2 - r1^2 - r2^2) / (2 r1 r2)`` from the distance and, since turning about
      ``h`` keeps the end's component along ``h``, ``r2 sin b ((g x x) . h) = p . h``; ``b`` is
      the angle of that (sin, cos) pair (for parallel axes ``sin b`` is free: ``side = +1``
      bends clockwise about ``h`` as in 2-D); then the first joint turns the end onto the
      target about ``h``.

    Angles outside a joint's limits go to the nearer limit (the caller then tries the other
    branch and keeps the nearer end).
    """
    lengths, base, _, hinge, lo, hi = model
    quats, pos, world = frames
    r1, r2 = lengths[0], lengths[1]
    h = hinge[0]
    px, py, pz = target[0] - base[0], target[1] - base[1], target[2] - base[2]
    c2 = px * px + py * py + pz * pz
    # h x (+x) = (0, h_z, -h_y): with +x, an orthonormal basis of the first link's plane
    cur0 = hinge_angle(quats[0, 0], quats[0, 1], quats[0, 2], quats[0, 3], h[0], h[1], h[2])
    if is_hinge(hinge, np.int64(1)):
        g = hinge[1]
        cos_b = max(-1.0, min(1.0, (c2 - r1 * r1 - r2 * r2) / (2.0 * r1 * r2)))
        # (g x x) . h = (0, g_z, -g_y) . h
        w = g[2] * h[1] - g[1] * h[2]
        along = px * h[0] + py * h[1] + pz * h[2]
        if abs(w) > 1e-9:
            # sin b from the height along h, cos b from the distance: each is well conditioned
            # where the other is not (near b = 0 or pi, near b = +-pi/2)
            b = math.atan2(max(-1.0, min(1.0, along / (r2 * w))), cos_b)
        else:
            b = -side * math.acos(cos_b)
        cur1 = hinge_angle(quats[1, 0], quats[1, 1], quats[1, 2], quats[1, 3], g[0], g[1], g[2])
        b = fit_angle(b, cur1, lo[1], hi[1])[0]
        quats[1, 0], quats[1, 1], quats[1, 2], quats[1, 3] = q_axis_angle(g[0], g[1], g[2], b)
        # the end with the first joint at 0: r1 x + r2 (cos b x + sin b (g x x))
        vx = r1 + r2 * math.cos(b)
        vy, vz = r2 * math.sin(b) * g[2], -r2 * math.sin(b) * g[1]
        # signed angle about h from v to p, both projected on the plane normal to h
        cx, cy, cz = vy * pz - vz * py, vz * px - vx * pz, vx * py - vy * px
        dot = vx * px + vy * py + vz * pz
        va = vx * h[0] + vy * h[1] + vz * h[2]
        a = math.atan2(cx * h[0] + cy * h[1] + cz * h[2], dot - va * along)
    else:
        big_a = px
        big_b = py * h[2] - pz * h[1]
        norm = math.sqrt(big_a * big_a + big_b * big_b)
        a = cur0
        if norm > 0.0:
            k = (r1 * r1 + c2 - r2 * r2) / (2.0 * r1)
            a = math.atan2(big_b, big_a) + side * math.acos(max(-1.0, min(1.0, k / norm)))
    a = fit_angle(a, cur0, lo[0], hi[0])[0]
    quats[0, 0], quats[0, 1], quats[0, 2], quats[0, 3] = q_axis_angle(h[0], h[1], h[2], a)
    if not is_hinge(hinge, np.int64(1)):
        aim_second(model, target, frames)
    fk_3d(lengths, base, quats, pos, world)
    if dist2(pos[2], target) > sq(EXACT * (r1 + r2)):
        aim_first(model, target, frames)
        aim_second(model, target, frames)
    return math.sqrt(dist2(pos[2], target))


@njit(cache=True)
def one_branch(model, target, pole, side, frames):
    """One branch: :func:`hinge_first_branch` for a hinge first joint, else :func:`branch_3d`
    (the arguments as :func:`branch_3d` takes them)."""
    if is_hinge(model[3], np.int64(0)):
        return hinge_first_branch(model, target, side, frames)
    return branch_3d(model, target, pole, side, frames)


@njit(cache=True)
def two_bone_3d(model, target, quats, tol, max_iter, opts, rec):
    """The closed-form two-link solve in 3-D (``kernel_3d`` of :class:`~geoik.solvers.Solver`):
    the elbow bends in the plane of the pole option (``opts``), within the cone and hinge limits.
    Returns ``(status, 1, nrec)``."""
    lengths, base, cone, hinge, lo, hi = model
    r1, r2 = lengths[0], lengths[1]
    pos = np.empty((3, 3))
    world = np.empty((2, 4))
    fk_3d(lengths, base, quats, pos, world)
    if dist2(pos[2], target) <= tol * tol:
        return REACHED, 0, 1
    start = quats.copy()
    side = 1.0 if opts[0] >= 0.0 else -1.0
    pole = opts[1:4]
    frames = (quats, pos, world)
    best = one_branch(model, target, pole, side, frames)
    if best > EXACT * (r1 + r2):
        chosen = quats.copy()
        copy_into(quats[:, :], start)
        other = one_branch(model, target, pole, -side, frames)
        if not other < best:
            copy_into(quats[:, :], chosen)
    fk_3d(lengths, base, quats, pos, world)
    nrec = min(2, rec.shape[0])  # a one-row record (no motion wanted) stays the start pose
    if nrec == 2:
        copy_into(rec[1, :, :], quats)
    return judge_kernel(pos[2], base, target, r1, r2, tol), 1, nrec
