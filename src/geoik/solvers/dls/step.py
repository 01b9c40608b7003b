"""The damped least-squares step of :mod:`geoik.solvers.dls`: the Jacobians and the damping.

``J`` is the end effector's Jacobian (``d`` = 2 or 3 rows: its velocity) in the chain's degrees
of freedom (:func:`jacobian_2d`: the relative angles of a planar chain; :func:`jacobian_3d`:
one per hinge, three per ball joint, :func:`dof_count_3d`). A step is
``J^T (J J^T + lambda^2 I)^{-1} de`` (:func:`solve_damped`, Cramer's rule on the d x d
system), toward the aim clamped to ``D_max`` (:func:`clamped_error`), with the columns of joints
that would leave the limit they sit on dropped (:func:`damped_step`); ``lambda^2`` fades with
the error (:func:`damping_now`) and follows Levenberg-Marquardt's rule (:func:`next_boost`).
The helpers called once per iteration are inlined into the kernels (``inline="always"``).
"""

from __future__ import annotations

import math

from numba import njit

from geoik.geometry import is_hinge, parent_frame, qrot

__all__ = [
    "LAM_RANGE",
    "clamped_error",
    "damped_step",
    "damping_now",
    "dof_count_3d",
    "jacobian_2d",
    "jacobian_3d",
    "next_boost",
    "solve_damped",
]

LAM_RANGE = 1e12
"""The damping boost (a factor on lambda^2) grows to at most this."""


@njit(cache=True, inline="always")
def jacobian_2d(pos, out):
    """Jacobian (2, n) of the end effector in the relative joint angles, from positions (n+1, 2)."""
    n = out.shape[1]
    for j in range(n):
        out[0, j] = -(pos[n, 1] - pos[j, 1])
        out[1, j] = pos[n, 0] - pos[j, 0]


@njit(cache=True)
def dof_count_3d(hinge):
    """Number of 3-D degrees of freedom: 1 per hinge, 3 per ball joint."""
    m = 0
    for j in range(hinge.shape[0]):
        m += 1 if is_hinge(hinge, j) else 3
    return m


@njit(cache=True)
def jacobian_3d(pos, world, hinge, out):
    """Jacobian (3, m) of the end effector in the 3-D degrees of freedom, joint by joint.

    A hinge contributes the column ``w x r`` (``w`` its world axis, ``r = e - p_j``), a ball
    joint the three columns ``x_k x r`` for the world axes ``x, y, z``. ``world`` holds the
    links' world frames from ``fk_3d``.
    """
    n = hinge.shape[0]
    col = 0
    for j in range(n):
        rx, ry, rz = pos[n, 0] - pos[j, 0], pos[n, 1] - pos[j, 1], pos[n, 2] - pos[j, 2]
        hx, hy, hz = hinge[j, 0], hinge[j, 1], hinge[j, 2]
        if hx != 0.0 or hy != 0.0 or hz != 0.0:
            p0, p1, p2, p3 = parent_frame(j, world)
            wx, wy, wz = qrot(p0, p1, p2, p3, hx, hy, hz)
            out[0, col] = wy * rz - wz * ry
            out[1, col] = wz * rx - wx * rz
            out[2, col] = wx * ry - wy * rx
            col += 1
        else:
            # x cross r, y cross r, z cross r
            out[0, col], out[1, col], out[2, col] = 0.0, -rz, ry
            out[0, col + 1], out[1, col + 1], out[2, col + 1] = rz, 0.0, -rx
            out[0, col + 2], out[1, col + 2], out[2, col + 2] = -ry, rx, 0.0
            col += 3


@njit(cache=True, inline="always")
def solve_damped(jac, active, lam2, de, y):
    """``y = (J_a J_a^T + lam2 I)^{-1} de`` for the active columns of ``jac`` (d = 2 or 3)."""
    d = jac.shape[0]
    # the 3x3 matrix in scalars (no allocation per call), summed column by column as ever
    a00 = a01 = a02 = a10 = a11 = a12 = a20 = a21 = a22 = 0.0
    for c in range(jac.shape[1]):
        if active[c]:
            j0, j1 = jac[0, c], jac[1, c]
            a00 += j0 * j0
            a01 += j0 * j1
            a10 += j1 * j0
            a11 += j1 * j1
            if d == 3:
                j2 = jac[2, c]
                a02 += j0 * j2
                a12 += j1 * j2
                a20 += j2 * j0
                a21 += j2 * j1
                a22 += j2 * j2
    a00 += lam2
    a11 += lam2
    a22 += lam2 if d == 3 else 1.0
    b0, b1 = de[0], de[1]
    b2 = de[2] if d == 3 else 0.0
    det = (
        a00 * (a11 * a22 - a12 * a21)
        - a01 * (a10 * a22 - a12 * a20)
        + a02 * (a10 * a21 - a11 * a20)
    )
    if not det > 0.0:  # positive definite in exact arithmetic; guard underflow
        y[:] = 0.0
        return
    y[0] = (
        b0 * (a11 * a22 - a12 * a21) - a01 * (b1 * a22 - a12 * b2) + a02 * (b1 * a21 - a11 * b2)
    ) / det
    y[1] = (
        a00 * (b1 * a22 - a12 * b2) - b0 * (a10 * a22 - a12 * a20) + a02 * (a10 * b2 - b1 * a20)
    ) / det
    if d == 3:
        y[2] = (
            a00 * (a11 * b2 - b1 * a21) - a01 * (a10 * b2 - b1 * a20) + b0 * (a10 * a21 - a11 * a20)
        ) / det


@njit(cache=True, inline="always")
def clamped_error(end, aim, dmax, de):
    """``de = aim - end``, its length clamped to ``dmax``; returns the unclamped length."""
    s = 0.0
    for k in range(de.shape[0]):
        de[k] = aim[k] - end[k]
        s += de[k] * de[k]
    s = math.sqrt(s)
    if s > dmax:
        for k in range(de.shape[0]):
            de[k] *= dmax / s
    return s


@njit(cache=True)
def damped_step(jac, blocked_lo, blocked_hi, lam2, de, y, active, dof):
    """DLS step ``dof`` (m,); columns that would push a joint past the limit it sits on drop out.

    ``blocked_lo[c]`` / ``blocked_hi[c]`` say that degree of freedom ``c`` sits on its lower /
    upper limit. Each pass removes the offending columns and solves again.
    """
    m = jac.shape[1]
    d = jac.shape[0]
    active[:] = True
    for _ in range(m + 1):
        solve_damped(jac, active, lam2, de, y)
        again = False
        for c in range(m):
            v = 0.0
            if active[c]:
                for r in range(d):
                    v += jac[r, c] * y[r]
            dof[c] = v
            if active[c] and ((blocked_hi[c] and v > 0.0) or (blocked_lo[c] and v < 0.0)):
                active[c] = False
                again = True
        if not again:
            return


@njit(cache=True, inline="always")
def damping_now(lam0_2, boost, gap, dmax):
    """``lambda^2`` of one update: ``lam0^2 * boost * min(1, gap / dmax)`` (floored)."""
    return lam0_2 * boost * max(min(1.0, gap / dmax), 1e-12)


@njit(cache=True, inline="always")
def next_boost(boost, before2, after2):
    """Levenberg-Marquardt's rule on ``lambda^2``: x4 after an update that grew the distance to
    the aim, /4 (down to 1) after one that did not."""
    if after2 > before2:
        return min(4.0 * boost, LAM_RANGE)
    return max(0.25 * boost, 1.0)
