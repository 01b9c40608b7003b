"""Numba-compiled kinematics of general joint models (:class:`geoik.Robot`).

A robot is a tree of ``m`` actuated joints, numbered so that every joint comes after its parent
(``parents[j] < j``; -1 is the base). Joint ``j`` sits at a fixed transform from its parent
joint's frame (the URDF ``origin``, fixed joints between them folded in): rotation
``origin_rot[j]`` (3, 3) and translation ``origin_xyz[j]`` (3,), metres. It then moves about or
along its unit ``axis[j]`` (3,), given in its own frame: a revolute or continuous joint turns by
``q[j]`` radians about the axis through its frame's origin, a prismatic joint slides ``q[j]``
metres along it. ``kinds[j]`` is :data:`REVOLUTE`, :data:`CONTINUOUS` or :data:`PRISMATIC`.
A tip is a frame fixed to the frame of joint ``tip_parents[i]`` by ``tip_rot[i]``, ``tip_xyz[i]``.
Everything is expressed in the base frame; rotations are 3 x 3 matrices (columns: the frame's
axes), so that composing them rounds as URDF tools that multiply 4 x 4 matrices do.

Errors of a tip against a target (:func:`tip_errors`): the distance in metres, and the angle in
radians of the rotation taking the tip's frame onto the target's.
"""

from __future__ import annotations

import math

import numpy as np
from numba import njit

from geoik.geometry import copy_into, q_angle, q_to_rotvec, sq

REVOLUTE = 0
CONTINUOUS = 1
PRISMATIC = 2
KIND_NAMES = ("revolute", "continuous", "prismatic")
"""The joint kinds by code: ``KIND_NAMES[code]`` is the URDF name. Code reads a kind through
:func:`slides` and :func:`wraps`, never by comparing codes."""


@njit(cache=True)
def slides(kind):
    """True for a joint that slides (prismatic: ``q`` metres along its axis); revolute and
    continuous joints turn ``q`` radians about theirs."""
    return kind == PRISMATIC


@njit(cache=True)
def wraps(kind):
    """True for a joint that turns without limits (continuous): its angle is taken in
    (-pi, pi] and it is never clamped."""
    return kind == CONTINUOUS


@njit(cache=True)
def axis_rotation(ax, ay, az, th, out):
    """``out`` (3, 3) = rotation by ``th`` radians about the unit axis (ax, ay, az) (Rodrigues)."""
    c, s = math.cos(th), math.sin(th)
    t = 1.0 - c
    out[0, 0] = c + t * ax * ax
    out[0, 1] = t * ax * ay - s * az
    out[0, 2] = t * ax * az + s * ay
    out[1, 0] = t * ax * ay + s * az
    out[1, 1] = c + t * ay * ay
    out[1, 2] = t * ay * az - s * ax
    out[2, 0] = t * ax * az - s * ay
    out[2, 1] = t * ay * az + s * ax
    out[2, 2] = c + t * az * az


@njit(cache=True)
def fk_joints(parents, kinds, origin_xyz, origin_rot, axes, q, rot, pos, origins, world_axes):
    """Forward kinematics of every joint.

    Writes, per joint ``j``: ``rot[j]`` (3, 3) and ``pos[j]`` (3,), its frame after its motion
    (the frame its child joints and tips hang from); ``origins[j]`` (3,), its frame's origin
    before the motion (the point a revolute joint turns about); ``world_axes[j]`` (3,), its
    axis in the base frame.
    """
    m = parents.shape[0]
    turn = np.empty((3, 3))
    fr = np.empty((3, 3))
    for j in range(m):
        p = parents[j]
        for r in range(3):
            for c in range(3):
                if p < 0:
                    fr[r, c] = origin_rot[j, r, c]
                else:
                    fr[r, c] = (
                        rot[p, r, 0] * origin_rot[j, 0, c]
                        + rot[p, r, 1] * origin_rot[j, 1, c]
                        + rot[p, r, 2] * origin_rot[j, 2, c]
                    )
            if p < 0:
                origins[j, r] = origin_xyz[j, r]
            else:
                origins[j, r] = (
                    pos[p, r]
                    + rot[p, r, 0] * origin_xyz[j, 0]
                    + rot[p, r, 1] * origin_xyz[j, 1]
                    + rot[p, r, 2] * origin_xyz[j, 2]
                )
        ax, ay, az = axes[j, 0], axes[j, 1], axes[j, 2]
        for r in range(3):
            world_axes[j, r] = fr[r, 0] * ax + fr[r, 1] * ay + fr[r, 2] * az
        if slides(kinds[j]):
            for r in range(3):
                pos[j, r] = origins[j, r] + q[j] * world_axes[j, r]
                for c in range(3):
                    rot[j, r, c] = fr[r, c]
        else:
            axis_rotation(ax, ay, az, q[j], turn)
            for r in range(3):
                pos[j, r] = origins[j, r]
                for c in range(3):
                    rot[j, r, c] = (
                        fr[r, 0] * turn[0, c] + fr[r, 1] * turn[1, c] + fr[r, 2] * turn[2, c]
                    )


@njit(cache=True)
def fk_tips(tip_parents, tip_xyz, tip_rot, rot, pos, tips_rot, tips_pos):
    """Frames of the tips (``tips_rot`` (k, 3, 3), ``tips_pos`` (k, 3)) from the joints' frames
    (:func:`fk_joints`); a tip whose parent is -1 is fixed to the base."""
    for i in range(tip_parents.shape[0]):
        p = tip_parents[i]
        for r in range(3):
            if p < 0:
                tips_pos[i, r] = tip_xyz[i, r]
            else:
                tips_pos[i, r] = (
                    pos[p, r]
                    + rot[p, r, 0] * tip_xyz[i, 0]
                    + rot[p, r, 1] * tip_xyz[i, 1]
                    + rot[p, r, 2] * tip_xyz[i, 2]
                )
            for c in range(3):
                if p < 0:
                    tips_rot[i, r, c] = tip_rot[i, r, c]
                else:
                    tips_rot[i, r, c] = (
                        rot[p, r, 0] * tip_rot[i, 0, c]
                        + rot[p, r, 1] * tip_rot[i, 1, c]
                        + rot[p, r, 2] * tip_rot[i, 2, c]
                    )


@njit(cache=True)
def fk_robot(model, q, rot, pos, origins, world_axes, tips_rot, tips_pos):
    """:func:`fk_joints` then :func:`fk_tips` for a model given as its kernel arrays
    (:attr:`geoik.Robot.kernel_arrays`)."""
    parents, kinds, origin_xyz, origin_rot, axes, lo, hi, tip_parents, tip_xyz, tip_rot, on_path = (
        model
    )
    fk_joints(parents, kinds, origin_xyz, origin_rot, axes, q, rot, pos, origins, world_axes)
    fk_tips(tip_parents, tip_xyz, tip_rot, rot, pos, tips_rot, tips_pos)


@njit(cache=True)
def robot_pose(model, slides, q, pts, frame):
    """What a robot's solve reports, from one :func:`fk_robot`: ``pts`` (m + 2, 3) the base,
    every joint's origin (before its motion; a prismatic joint's frame after it, where
    ``slides`` (m,) is True) and the first tip; ``frame`` (4, 4) the first tip's homogeneous
    transform. ``model`` as :func:`fk_robot` takes it, ``q`` (m,) checked joint values."""
    m = q.shape[0]
    k = model[7].shape[0]
    rot, pos = np.empty((m, 3, 3)), np.empty((m, 3))
    origins, world_axes = np.empty((m, 3)), np.empty((m, 3))
    trot, tpos = np.empty((k, 3, 3)), np.empty((k, 3))
    fk_robot(model, q, rot, pos, origins, world_axes, trot, tpos)
    for r in range(3):
        pts[0, r] = 0.0
        for j in range(m):
            pts[j + 1, r] = pos[j, r] if slides[j] else origins[j, r]
        pts[m + 1, r] = tpos[0, r]
        for c in range(3):
            frame[r, c] = trot[0, r, c]
        frame[r, 3] = tpos[0, r]
        frame[3, r] = 0.0
    frame[3, 3] = 1.0


@njit(cache=True)
def quat_from_matrix(r):
    """Unit quaternion (w, x, y, z) of a rotation matrix (Shepperd's method: the largest of the
    four diagonal combinations is taken first, so no branch divides by a small number)."""
    tr = r[0, 0] + r[1, 1] + r[2, 2]
    if tr >= r[0, 0] and tr >= r[1, 1] and tr >= r[2, 2]:
        s = 2.0 * math.sqrt(max(1.0 + tr, 0.0))
        w = 0.25 * s
        x = (r[2, 1] - r[1, 2]) / s
        y = (r[0, 2] - r[2, 0]) / s
        z = (r[1, 0] - r[0, 1]) / s
    elif r[0, 0] >= r[1, 1] and r[0, 0] >= r[2, 2]:
        s = 2.0 * math.sqrt(max(1.0 + r[0, 0] - r[1, 1] - r[2, 2], 0.0))
        w = (r[2, 1] - r[1, 2]) / s
        x = 0.25 * s
        y = (r[0, 1] + r[1, 0]) / s
        z = (r[0, 2] + r[2, 0]) / s
    elif r[1, 1] >= r[2, 2]:
        s = 2.0 * math.sqrt(max(1.0 - r[0, 0] + r[1, 1] - r[2, 2], 0.0))
        w = (r[0, 2] - r[2, 0]) / s
        x = (r[0, 1] + r[1, 0]) / s
        y = 0.25 * s
        z = (r[1, 2] + r[2, 1]) / s
    else:
        s = 2.0 * math.sqrt(max(1.0 - r[0, 0] - r[1, 1] + r[2, 2], 0.0))
        w = (r[1, 0] - r[0, 1]) / s
        x = (r[0, 2] + r[2, 0]) / s
        y = (r[1, 2] + r[2, 1]) / s
        z = 0.25 * s
    n = math.sqrt(w * w + x * x + y * y + z * z)
    return w / n, x / n, y / n, z / n


@njit(cache=True)
def rotation_error(goal, cur):
    """Rotation vector (base frame, radians) of ``goal @ cur.T``, the rotation taking the frame
    ``cur`` (3, 3) onto ``goal`` (3, 3); its length is the angle between them, in [0, pi]."""
    d = np.empty((3, 3))
    for r in range(3):
        for c in range(3):
            d[r, c] = goal[r, 0] * cur[c, 0] + goal[r, 1] * cur[c, 1] + goal[r, 2] * cur[c, 2]
    w, x, y, z = quat_from_matrix(d)
    return q_to_rotvec(w, x, y, z)


@njit(cache=True)
def angle_between(goal, cur):
    """Angle in [0, pi] (radians) of the rotation taking the frame ``cur`` onto ``goal``."""
    d = np.empty((3, 3))
    for r in range(3):
        for c in range(3):
            d[r, c] = goal[r, 0] * cur[c, 0] + goal[r, 1] * cur[c, 1] + goal[r, 2] * cur[c, 2]
    w, x, y, z = quat_from_matrix(d)
    return q_angle(w, x, y, z)


@njit(cache=True)
def pose_errors(model, slides, q, target, goal, pts, frame):
    """:func:`robot_pose` into ``pts`` and ``frame``, then the first tip's distance (metres)
    from ``target`` (3,) and its angle (radians) from the orientation ``goal`` (3, 3)."""
    robot_pose(model, slides, q, pts, frame)
    dx = frame[0, 3] - target[0]
    dy = frame[1, 3] - target[1]
    dz = frame[2, 3] - target[2]
    return math.sqrt(dx * dx + dy * dy + dz * dz), angle_between(goal, frame[:3, :3])


@njit(cache=True)
def tip_errors(tips_pos, tips_rot, targets, goal_rot, targeted, oriented, pos_err, ang_err):
    """Per tip: ``pos_err[i]`` the distance (metres) to its target, ``ang_err[i]`` the angle
    (radians) to its target orientation; 0 for tips without a target (or an orientation)."""
    for i in range(tips_pos.shape[0]):
        pos_err[i] = 0.0
        ang_err[i] = 0.0
        if not targeted[i]:
            continue
        s = 0.0
        for r in range(3):
            s += sq(tips_pos[i, r] - targets[i, r])
        pos_err[i] = math.sqrt(s)
        if oriented[i]:
            ang_err[i] = angle_between(goal_rot[i], tips_rot[i])


@njit(cache=True)
def all_within(pos_err, ang_err, targeted, oriented, tol, angle_tol):
    """Whether every targeted tip is within ``tol`` (and oriented ones within ``angle_tol``)."""
    for i in range(pos_err.shape[0]):
        if targeted[i] and (pos_err[i] > tol or (oriented[i] and ang_err[i] > angle_tol)):
            return False
    return True


@njit(cache=True)
def clamp_joints(kinds, lo, hi, q):
    """Hold every joint with limits inside them (continuous joints have none)."""
    for j in range(q.shape[0]):
        if not wraps(kinds[j]):
            if q[j] < lo[j]:
                q[j] = lo[j]
            elif q[j] > hi[j]:
                q[j] = hi[j]


@njit(cache=True)
def fk_poe(H, P, R_tip, kinds, q, R_out, p_out):
    """Forward kinematics of a serial chain in product-of-exponentials form.

    ``H`` (n, 3) unit joint axes and ``P`` (n + 1, 3) offsets (metres) at the zero
    configuration, in the base frame: ``P[0]`` from the base to joint 0's origin, ``P[i]`` from
    joint ``i - 1``'s origin to joint ``i``'s, ``P[n]`` from the last joint's origin to the tip.
    ``R_tip`` (3, 3) is the tip's rotation at the zero configuration. Writes the tip's rotation
    ``R_out`` (3, 3) and position ``p_out`` (3,) for joint values ``q`` (n,)::

        R = R_1 R_2 ... R_n R_tip,   p = P_0 + R_1 P_1 + R_1 R_2 P_2 + ... + R_1 ... R_n P_n

    with ``R_i`` the rotation by ``q[i]`` about ``H[i]``; a prismatic joint (``kinds[i]``)
    adds ``q[i] H[i]`` turned by the rotations before it instead.
    """
    n = H.shape[0]
    acc = np.eye(3)
    turn = np.empty((3, 3))
    tmp = np.empty((3, 3))
    for r in range(3):
        p_out[r] = P[0, r]
    for i in range(n):
        if slides(kinds[i]):
            for r in range(3):
                p_out[r] += q[i] * (acc[r, 0] * H[i, 0] + acc[r, 1] * H[i, 1] + acc[r, 2] * H[i, 2])
        else:
            axis_rotation(H[i, 0], H[i, 1], H[i, 2], q[i], turn)
            for r in range(3):
                for c in range(3):
                    tmp[r, c] = (
                        acc[r, 0] * turn[0, c] + acc[r, 1] * turn[1, c] + acc[r, 2] * turn[2, c]
                    )
            copy_into(acc[:, :], tmp)
        for r in range(3):
            p_out[r] += acc[r, 0] * P[i + 1, 0] + acc[r, 1] * P[i + 1, 1] + acc[r, 2] * P[i + 1, 2]
    for r in range(3):
        for c in range(3):
            R_out[r, c] = (
                acc[r, 0] * R_tip[0, c] + acc[r, 1] * R_tip[1, c] + acc[r, 2] * R_tip[2, c]
            )
