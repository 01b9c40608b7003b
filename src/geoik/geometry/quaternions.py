"""Unit quaternions ``(w, x, y, z)`` as scalars: products, rotation of vectors, axis-angle and
rotation vectors, the rotation between two directions."""

from __future__ import annotations

import math

import numpy as np
from numba import njit


@njit(cache=True)
def qmul(a0, a1, a2, a3, b0, b1, b2, b3):
    """Hamilton product of two quaternions given by their components."""
    return (
        a0 * b0 - a1 * b1 - a2 * b2 - a3 * b3,
        a0 * b1 + a1 * b0 + a2 * b3 - a3 * b2,
        a0 * b2 - a1 * b3 + a2 * b0 + a3 * b1,
        a0 * b3 + a1 * b2 - a2 * b1 + a3 * b0,
    )


@njit(cache=True)
def qrot(q0, q1, q2, q3, x, y, z):
    """Rotate the vector (x, y, z) by the unit quaternion q."""
    # t = 2 q_v x v ; v' = v + w t + q_v x t
    tx = 2.0 * (q2 * z - q3 * y)
    ty = 2.0 * (q3 * x - q1 * z)
    tz = 2.0 * (q1 * y - q2 * x)
    return (
        x + q0 * tx + (q2 * tz - q3 * ty),
        y + q0 * ty + (q3 * tx - q1 * tz),
        z + q0 * tz + (q1 * ty - q2 * tx),
    )


@njit(cache=True)
def qnormalize(q0, q1, q2, q3):
    """The unit quaternion ``(w, x, y, z)`` along ``(q0, q1, q2, q3)``; the identity for a zero
    quaternion."""
    s = math.sqrt(q0 * q0 + q1 * q1 + q2 * q2 + q3 * q3)
    if s == 0.0:
        return 1.0, 0.0, 0.0, 0.0
    return q0 / s, q1 / s, q2 / s, q3 / s


@njit(cache=True)
def q_axis_angle(ax, ay, az, angle):
    """Quaternion of a rotation by ``angle`` about the unit axis (ax, ay, az)."""
    s = math.sin(0.5 * angle)
    return math.cos(0.5 * angle), ax * s, ay * s, az * s


@njit(cache=True)
def q_angle(q0, q1, q2, q3):
    """Rotation angle in [0, pi] of a unit quaternion."""
    v = math.sqrt(q1 * q1 + q2 * q2 + q3 * q3)
    return 2.0 * math.atan2(v, abs(q0))


@njit(cache=True)
def q_to_rotvec(q0, q1, q2, q3):
    """Rotation vector (axis times angle, angle in [0, pi]) of a unit quaternion."""
    if q0 < 0.0:
        q0, q1, q2, q3 = -q0, -q1, -q2, -q3
    v = math.sqrt(q1 * q1 + q2 * q2 + q3 * q3)
    if v < 1e-300:
        return 2.0 * q1, 2.0 * q2, 2.0 * q3
    k = 2.0 * math.atan2(v, q0) / v
    return q1 * k, q2 * k, q3 * k


@njit(cache=True)
def rotvec_to_q(x, y, z):
    """The unit quaternion ``(w, x, y, z)`` of the rotation vector ``(x, y, z)`` (radians about its
    direction)."""
    a = math.sqrt(x * x + y * y + z * z)
    if a < 1e-300:
        return 1.0, 0.5 * x, 0.5 * y, 0.5 * z
    s = math.sin(0.5 * a) / a
    return math.cos(0.5 * a), x * s, y * s, z * s


@njit(cache=True)
def q_between(ux, uy, uz, vx, vy, vz):
    """Minimal rotation taking unit vector u to unit vector v.

    When u and v are opposite the axis is ambiguous; the one chosen is perpendicular to u and, for
    u = +x, is +z (so a planar chain in the xy-plane stays planar).
    """
    d = ux * vx + uy * vy + uz * vz
    cx = uy * vz - uz * vy
    cy = uz * vx - ux * vz
    cz = ux * vy - uy * vx
    if d < -1.0 + 1e-12 and cx * cx + cy * cy + cz * cz < 1e-20:
        # a half turn about the axis nearest +z (else +y) that is perpendicular to u
        ex, ey, ez = 0.0, 0.0, 1.0
        if abs(uz) > 0.9:
            ex, ey, ez = 0.0, 1.0, 0.0
        k = ex * ux + ey * uy + ez * uz
        px, py, pz = ex - k * ux, ey - k * uy, ez - k * uz
        n = math.sqrt(px * px + py * py + pz * pz)
        return 0.0, px / n, py / n, pz / n
    return qnormalize(1.0 + d, cx, cy, cz)


def identity_quats(n: int) -> np.ndarray:
    """(n, 4) identity rotations: the rest pose, straight along +x."""
    q = np.zeros((n, 4))
    q[:, 0] = 1.0
    return q


@njit(cache=True)
def rotvecs_from_quats(q, out):
    """Write into ``out`` (n, 3) the rotation vectors (radians) of the unit quaternions ``q``
    (n, 4), ``(w, x, y, z)`` each."""
    for i in range(q.shape[0]):
        x, y, z = q_to_rotvec(q[i, 0], q[i, 1], q[i, 2], q[i, 3])
        out[i, 0] = x
        out[i, 1] = y
        out[i, 2] = z
