"""A serial arm in product-of-exponentials form: the model the analytic solver decomposes.

The path from the base to one tip of a :class:`geoik.Robot` is written as its joint axes and
the offsets between them at the zero configuration, all in the base frame (the form of Paden
and Kahan's subproblems, of IK-Geo and of EAIK)::

    R(q) = R_1 R_2 ... R_n R_tip
    p(q) = P_0 + R_1 P_1 + R_1 R_2 P_2 + ... + R_1 ... R_n P_n

with ``R_i`` the rotation by ``q[i]`` about the unit axis ``H[i]``. Fixed joints are folded in
(they only move the origins and the tip), so ``H`` and ``P`` hold the actuated joints alone.
:func:`geoik.kinematics.fk_poe` is the forward kinematics of this form; it equals the robot's
own (:meth:`geoik.Robot.tip_frame`) to rounding.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

import numpy as np

from geoik.jit import call
from geoik.kinematics import fk_poe, fk_robot

if TYPE_CHECKING:
    from geoik.robots.model import Robot

__all__ = ["SerialPOE", "serial_poe"]


@dataclass(frozen=True, eq=False)
class SerialPOE:
    """One tip's serial chain in product-of-exponentials form (see the module docstring).

    Attributes
    ----------
    H : (n, 3) unit joint axes at the zero configuration, base frame.
    P : (n + 1, 3) offsets at the zero configuration, base frame, metres: base to joint 0's
        origin, joint to joint, last joint to the tip.
    R_tip : (3, 3) the tip's rotation at the zero configuration.
    kinds : (n,) joint kinds as :mod:`geoik.kinematics` codes (revolute, continuous, prismatic).
    joints : (n,) indices of these joints in the robot's ``joint_names``, base first.
    lo, hi : (n,) the joints' limits (radians; metres for prismatic; -inf, inf when
        continuous).
    tip : the tip's name.
    """

    H: np.ndarray
    P: np.ndarray
    R_tip: np.ndarray
    kinds: np.ndarray
    joints: np.ndarray
    lo: np.ndarray
    hi: np.ndarray
    tip: str

    @property
    def n(self) -> int:
        """Number of joints on the chain."""
        return int(self.H.shape[0])

    def forward(self, q: np.ndarray) -> np.ndarray:
        """(4, 4) frame of the tip for joint values ``q`` (n,), from this form."""
        R, p = np.empty((3, 3)), np.empty(3)
        call(fk_poe, self.H, self.P, self.R_tip, self.kinds, np.asarray(q, np.float64), R, p)
        out = np.eye(4)
        out[:3, :3], out[:3, 3] = R, p
        return out


def serial_poe(robot: Robot, tip: int) -> SerialPOE:
    """The product-of-exponentials form of the chain from the base to tip number ``tip``."""
    m, k = robot.n, robot.k
    rot, pos = np.empty((m, 3, 3)), np.empty((m, 3))
    origins, axes = np.empty((m, 3)), np.empty((m, 3))
    trot, tpos = np.empty((k, 3, 3)), np.empty((k, 3))
    call(fk_robot, robot.kernel_arrays, np.zeros(m), rot, pos, origins, axes, trot, tpos)
    joints = np.flatnonzero(robot.on_path[tip])
    n = joints.size
    H = axes[joints] / np.linalg.norm(axes[joints], axis=1)[:, None]
    points = np.vstack([np.zeros((1, 3)), origins[joints], tpos[tip][None]])
    P = np.diff(points, axis=0)
    out = SerialPOE(
        H,
        P,
        trot[tip].copy(),
        robot.kind_codes[joints].copy(),
        joints,
        robot.lo[joints].copy(),
        robot.hi[joints].copy(),
        robot.tip_names[tip],
    )
    for a in (out.H, out.P, out.R_tip, out.kinds, out.joints, out.lo, out.hi):
        a.setflags(write=False)
    assert out.P.shape == (n + 1, 3)
    return out
