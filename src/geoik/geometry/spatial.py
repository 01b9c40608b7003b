"""3-D chains of joint quaternions: forward kinematics, the frames of the links, and joints
held within their cones and hinge ranges (see :mod:`geoik.geometry` for the conventions)."""

from __future__ import annotations

import math

import numpy as np
from numba import njit

from geoik.geometry.core import PI, clamp
from geoik.geometry.quaternions import q_axis_angle, q_between, qmul, qnormalize, qrot


@njit(cache=True)
def fk_3d(lengths, base, quats, pos, world):
    """Forward kinematics in 3-D.

    Parameters
    ----------
    lengths : (n,) link lengths.
    base : (3,) base position.
    quats : (n, 4) local joint rotations.
    pos : (n + 1, 3) output joint positions.
    world : (n, 4) output world orientation of each link's frame.
    """
    pos[0, 0] = base[0]
    pos[0, 1] = base[1]
    pos[0, 2] = base[2]
    fk_3d_from(np.int64(0), lengths, quats, pos, world)  # typed: one compile for every j


@njit(cache=True)
def fk_3d_from(j, lengths, quats, pos, world):
    """Recompute frames and positions of links j..n-1, trusting everything before joint j."""
    if j == 0:
        f0, f1, f2, f3 = 1.0, 0.0, 0.0, 0.0
    else:
        f0, f1, f2, f3 = world[j - 1, 0], world[j - 1, 1], world[j - 1, 2], world[j - 1, 3]
    for i in range(j, lengths.shape[0]):
        f0, f1, f2, f3 = qmul(f0, f1, f2, f3, quats[i, 0], quats[i, 1], quats[i, 2], quats[i, 3])
        f0, f1, f2, f3 = qnormalize(f0, f1, f2, f3)
        world[i, 0] = f0
        world[i, 1] = f1
        world[i, 2] = f2
        world[i, 3] = f3
        dx, dy, dz = qrot(f0, f1, f2, f3, 1.0, 0.0, 0.0)
        pos[i + 1, 0] = pos[i, 0] + lengths[i] * dx
        pos[i + 1, 1] = pos[i, 1] + lengths[i] * dy
        pos[i + 1, 2] = pos[i, 2] + lengths[i] * dz


@njit(cache=True)
def parent_frame(j, world):
    """World orientation of joint j's parent link (identity for the first joint)."""
    if j == 0:
        return 1.0, 0.0, 0.0, 0.0
    return world[j - 1, 0], world[j - 1, 1], world[j - 1, 2], world[j - 1, 3]


@njit(cache=True)
def is_hinge(hinge, j):
    """Whether joint j turns about a hinge axis (a nonzero row of ``hinge``)."""
    return hinge[j, 0] != 0.0 or hinge[j, 1] != 0.0 or hinge[j, 2] != 0.0


@njit(cache=True)
def hinge_angle(q0, q1, q2, q3, hx, hy, hz):
    """Signed angle about the hinge h (perpendicular to +x) of the direction q takes +x to."""
    ux, uy, uz = qrot(q0, q1, q2, q3, 1.0, 0.0, 0.0)
    # cross(x, u) . h  and  x . u  after projecting u on the plane normal to h
    cx, cy, cz = 0.0, -uz, uy
    return math.atan2(cx * hx + cy * hy + cz * hz, ux)


@njit(cache=True)
def constrain_joint_3d(q0, q1, q2, q3, j, cone, hinge, lo, hi):
    """Nearest rotation to q that joint j's limits allow.

    A hinge keeps only the rotation about its axis, with the signed angle clamped to
    ``[lo[j], hi[j]]``. A ball joint keeps its twist about the link and has its swing (the bend
    away from the parent link) clamped to ``cone[j]``.
    """
    if is_hinge(hinge, j):
        hx, hy, hz = hinge[j, 0], hinge[j, 1], hinge[j, 2]
        phi = clamp(hinge_angle(q0, q1, q2, q3, hx, hy, hz), lo[j], hi[j])
        return q_axis_angle(hx, hy, hz, phi)
    c = cone[j]
    if c >= PI:
        return qnormalize(q0, q1, q2, q3)
    ux, uy, uz = qrot(q0, q1, q2, q3, 1.0, 0.0, 0.0)
    s = math.sqrt(uy * uy + uz * uz)
    bend = math.atan2(s, ux)
    if bend <= c:
        return qnormalize(q0, q1, q2, q3)
    # swing-twist split: twist about x, swing = q * conj(twist)
    tn = math.sqrt(q0 * q0 + q1 * q1)
    if tn < 1e-12:
        t0, t1 = 1.0, 0.0
    else:
        t0, t1 = q0 / tn, q1 / tn
    if s < 1e-12:
        ax, ay, az = 0.0, 0.0, 1.0
    else:
        ax, ay, az = 0.0, -uz / s, uy / s
    w0, w1, w2, w3 = q_axis_angle(ax, ay, az, c)
    return qmul(w0, w1, w2, w3, t0, t1, 0.0, 0.0)


@njit(cache=True)
def joint_quat_toward(j, dx, dy, dz, world, cone, hinge, lo, hi):
    """Local rotation of joint j that points its link as close to world direction d as allowed."""
    p0, p1, p2, p3 = parent_frame(j, world)
    lx, ly, lz = qrot(p0, -p1, -p2, -p3, dx, dy, dz)
    n = math.sqrt(lx * lx + ly * ly + lz * lz)
    if n < 1e-300:
        return 1.0, 0.0, 0.0, 0.0
    q0, q1, q2, q3 = q_between(1.0, 0.0, 0.0, lx / n, ly / n, lz / n)
    return constrain_joint_3d(q0, q1, q2, q3, j, cone, hinge, lo, hi)


@njit(cache=True)
def quats_from_positions_3d(pos, out):
    """Local joint rotations (swing only, no twist) that put the links along a pose's segments."""
    f0, f1, f2, f3 = 1.0, 0.0, 0.0, 0.0
    for i in range(out.shape[0]):
        dx = pos[i + 1, 0] - pos[i, 0]
        dy = pos[i + 1, 1] - pos[i, 1]
        dz = pos[i + 1, 2] - pos[i, 2]
        lx, ly, lz = qrot(f0, -f1, -f2, -f3, dx, dy, dz)
        n = math.sqrt(lx * lx + ly * ly + lz * lz)
        if n < 1e-300:
            q0, q1, q2, q3 = 1.0, 0.0, 0.0, 0.0
        else:
            q0, q1, q2, q3 = q_between(1.0, 0.0, 0.0, lx / n, ly / n, lz / n)
        out[i, 0] = q0
        out[i, 1] = q1
        out[i, 2] = q2
        out[i, 3] = q3
        f0, f1, f2, f3 = qnormalize(*qmul(f0, f1, f2, f3, q0, q1, q2, q3))


def axis_rotations(axis: int, radians: np.ndarray) -> np.ndarray:
    """(k, 3, 3) rotation matrices about coordinate axis ``axis`` (0 x, 1 y, 2 z) by each of
    the ``radians`` (k,) (plain NumPy, for models built once: BVH channels, DH tables)."""
    a = np.asarray(radians, dtype=np.float64).reshape(-1)
    c, s = np.cos(a), np.sin(a)
    out = np.zeros((a.size, 3, 3))
    i, j = (axis + 1) % 3, (axis + 2) % 3
    out[:, axis, axis] = 1.0
    out[:, i, i] = c
    out[:, j, j] = c
    out[:, i, j] = -s
    out[:, j, i] = s
    return out
