"""A pose of a chain: joint positions, with the relative joint angles derived from them."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from geoik.geometry import angles_from_positions_2d, quats_from_positions_3d, rotvecs_from_quats
from geoik.jit import call

__all__ = ["Pose"]


@dataclass(frozen=True, eq=False)
class Pose:
    """Joint positions of a chain, base first.

    Attributes
    ----------
    positions : (n + 1, d) joint positions; the last row is the end effector.
    """

    positions: np.ndarray
    _angles: np.ndarray | None = None

    def __post_init__(self) -> None:
        self.positions.setflags(write=False)
        if self._angles is not None:
            self._angles.setflags(write=False)

    @property
    def end_effector(self) -> np.ndarray:
        """(d,) the end effector's position (the last joint)."""
        return self.positions[-1]

    def angles(self) -> np.ndarray:
        """Relative joint angles in radians.

        2-D: shape (n,), each joint's angle from its parent link (joint 0: from +x).
        3-D: shape (n, 3), each joint's rotation vector in its parent link's frame. When the
        pose was not built from angles, the rotations are the twist-free ones that put each link
        along its segment.
        """
        if self._angles is not None:
            return self._angles.copy()
        n = self.positions.shape[0] - 1
        if self.positions.shape[1] == 2:
            out = np.empty(n)
            call(angles_from_positions_2d, self.positions, out)
            return out
        q = np.empty((n, 4))
        call(quats_from_positions_3d, self.positions, q)
        rv = np.empty((n, 3))
        call(rotvecs_from_quats, q, rv)
        return rv
