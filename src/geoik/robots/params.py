"""Robots from parameters: a serial arm given by its product-of-exponentials form or its
Denavit-Hartenberg table, without a URDF file (:meth:`geoik.Robot.from_poe`,
:meth:`geoik.Robot.from_dh`, which build a :class:`geoik.Robot` from the fields made here).

- :func:`poe_fields`: joint axes ``H`` (n, 3) and offsets ``P`` (n + 1, 3) at the zero
  configuration in the base frame, the form of Paden and Kahan's subproblems, of IK-Geo and of
  EAIK (see :mod:`geoik.robots.poe`): ``p(q) = P_0 + R_1 P_1 + ... + R_1 ... R_n P_n`` and
  ``R(q) = R_1 ... R_n R_tip``, ``R_i`` the turn by ``q[i]`` about ``H[i]``.
- :func:`dh_fields`: the classic (distal) convention, each link's transform
  ``Rz(theta_i + q_i) Tz(d_i) Tx(a_i) Rx(alpha_i)``, or with ``modified=True`` Craig's (proximal)
  one, ``Rx(alpha_{i-1}) Tx(a_{i-1}) Rz(theta_i + q_i) Tz(d_i)``, row ``i`` of the table then
  holding ``a_{i-1}``, ``alpha_{i-1}``, ``d_i`` and ``theta_i`` as Craig's tables do.

Both give the fields of a :class:`geoik.Robot` of revolute joints (continuous where no limits
are given) with one tip, which every robot function takes (:func:`geoik.solve`,
:func:`geoik.solve_all`, :attr:`geoik.Robot.family`, the batch). Lengths in metres, angles in
radians.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from geoik.checks.values import _real_array
from geoik.errors import InvalidChainError, counted, describe
from geoik.geometry import axis_rotations

__all__ = ["dh_fields", "poe_fields"]


Limits = tuple[Any, Any]
"""``(lo, hi)``: (n,) joint limits each, or None (continuous joints)."""
Names = tuple[Sequence[str] | None, str, str]
"""``(joint_names, tip_name, name)``: the joints' names (None: ``joint1`` ..), the tip's and
the robot's."""


def poe_fields(H: Any, P: Any, R_tip: Any, limits: Limits, names: Names) -> dict[str, Any]:
    """The fields of a serial arm of revolute joints from its product-of-exponentials form:
    :meth:`geoik.Robot.from_poe`, whose checks run as it is made (those of the shapes and
    numbers here)."""
    h = _array(H, "H", 2)
    n = h.shape[0]
    if n < 1 or h.shape[1] != 3:
        raise InvalidChainError(
            f"expected H of shape (n, 3), n >= 1, got {describe(H)}", argument="H"
        )
    p = _array(P, "P", 2)
    if p.shape != (n + 1, 3):
        raise InvalidChainError(
            f"expected P of shape ({n + 1}, 3) (one offset more than H's {n} axes), got "
            f"{describe(P)}",
            argument="P",
        )
    rot = np.eye(3) if R_tip is None else _array(R_tip, "R_tip", 2)
    origin_rot = np.broadcast_to(np.eye(3), (n, 3, 3))
    return _serial(n, p[:n], origin_rot, h, limits, (p[n], rot), names)


def dh_fields(
    table: tuple[Any, Any, Any, Any], modified: bool, tool: Any, limits: Limits, names: Names
) -> dict[str, Any]:
    """The fields of a serial arm of revolute joints from its Denavit-Hartenberg table:
    :meth:`geoik.Robot.from_dh` (the table's product, times ``tool``, in the base frame of the
    table's frame 0); ``table`` is ``(a, alpha, d, theta)``, theta None for zeros."""
    a, alpha, d, theta = table
    cols = [_array(value, what, 1) for value, what in ((a, "a"), (alpha, "alpha"), (d, "d"))]
    n = cols[0].shape[0]
    th = np.zeros(n) if theta is None else _array(theta, "theta", 1)
    for col, what in ((cols[0], "a"), (cols[1], "alpha"), (cols[2], "d"), (th, "theta")):
        if col.shape != (n,) or n < 1:
            raise InvalidChainError(
                f"expected the columns a, alpha, d and theta of one length n >= 1, got {what} "
                f"of shape {col.shape} against a's {cols[0].shape}",
                argument=what,
            )
    a_, al, d_ = cols
    t = np.eye(4) if tool is None else _array(tool, "tool", 2)
    if t.shape != (4, 4) or np.abs(t[3] - (0.0, 0.0, 0.0, 1.0)).max() > 1e-9:
        raise InvalidChainError(
            f"expected tool as a (4, 4) rigid transform, last row (0, 0, 0, 1), got "
            f"{describe(tool)}",
            argument="tool",
        )
    # joint i turns about z of the frame its origin leads to; what lies between two joints
    # (and after the last, before the tool) is a fixed transform
    xyz, rot = np.zeros((n + 1, 3)), np.empty((n + 1, 3, 3))
    twists, offsets = axis_rotations(0, al), axis_rotations(2, th)
    for i in range(n + 1):
        if modified:  # Tz(d_{i-1}) Rx(alpha_i) Tx(a_i), then the joint's Rz
            prev_d = d_[i - 1] if i > 0 else 0.0
            if i < n:
                xyz[i] = (a_[i], 0.0, prev_d)
                rot[i] = twists[i]
            else:
                xyz[i] = (0.0, 0.0, prev_d)
                rot[i] = np.eye(3)
        elif i > 0:  # Tz(d_{i-1}) Tx(a_{i-1}) Rx(alpha_{i-1}), then the joint's Rz
            xyz[i] = (a_[i - 1], 0.0, d_[i - 1])
            rot[i] = twists[i - 1]
        else:
            rot[i] = np.eye(3)
        if i < n:
            rot[i] = rot[i] @ offsets[i]  # the offset: about the joint's own axis
    tip_xyz = xyz[n] + rot[n] @ t[:3, 3]
    tip_rot = rot[n] @ t[:3, :3]
    axes = np.tile((0.0, 0.0, 1.0), (n, 1))
    return _serial(n, xyz[:n], rot[:n], axes, limits, (tip_xyz, tip_rot), names)


def _serial(
    n: int,
    origin_xyz: np.ndarray,
    origin_rot: np.ndarray,
    axes: np.ndarray,
    limits: Limits,
    tip: tuple[np.ndarray, np.ndarray],
    names: Names,
) -> dict[str, Any]:
    """The fields of a serial :class:`geoik.Robot` of ``n`` revolute joints, each hanging
    from the one before."""
    lo, hi = limits
    low = np.full(n, -np.inf) if lo is None else _array(lo, "lo", 1, infinite=True)
    high = np.full(n, np.inf) if hi is None else _array(hi, "hi", 1, infinite=True)
    for value, what in ((low, "lo"), (high, "hi")):
        if value.shape != (n,):
            raise InvalidChainError(
                f"expected {what} of shape ({n},), one limit per joint, got {value.shape}",
                argument=what,
            )
    continuous = (low == -np.inf) & (high == np.inf)
    joint_names, tip_name, name = names
    jn = tuple(f"joint{i + 1}" for i in range(n)) if joint_names is None else tuple(joint_names)
    return dict(
        joint_names=jn,
        kinds=tuple("continuous" if c else "revolute" for c in continuous.tolist()),
        parents=np.arange(-1, n - 1),
        origin_xyz=np.array(origin_xyz, dtype=np.float64),
        origin_rot=np.array(origin_rot, dtype=np.float64),
        axes=np.array(axes, dtype=np.float64),
        lo=low,
        hi=high,
        tip_names=(tip_name,),
        tip_parents=np.array([n - 1]),
        tip_xyz=np.array(tip[0], dtype=np.float64).reshape(1, 3),
        tip_rot=np.array(tip[1], dtype=np.float64).reshape(1, 3, 3),
        base_name="base",
        name=name,
    )


def _array(value: Any, name: str, ndim: int, infinite: bool = False) -> np.ndarray:
    """``value`` as a fresh float64 array of ``ndim`` dimensions of real numbers, finite (or,
    with ``infinite``, not NaN)."""
    arr = _real_array(value)
    if arr is None or arr.ndim != ndim:
        raise InvalidChainError(
            f"expected an array of {counted(ndim, 'dimension')} of real numbers, "
            f"got {describe(value)}",
            argument=name,
        )
    bad = np.isnan(arr) if infinite else ~np.isfinite(arr)
    if bad.any():
        i = int(np.argwhere(bad)[0][0])
        raise InvalidChainError(
            f"expected {'numbers' if infinite else 'finite numbers'}, got {arr[i].tolist()}",
            argument=f"{name}[{i}]",
        )
    return arr
