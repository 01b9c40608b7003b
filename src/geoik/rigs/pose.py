"""A pose of a skeleton: its joints' world positions, and the orientation of its root."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np

from geoik.errors import InvalidPoseError, describe

__all__ = ["TreePose", "check_root_rotation"]

IDENTITY = (1.0, 0.0, 0.0, 0.0)


@dataclass(frozen=True, eq=False)
class TreePose:
    """Joint positions of a :class:`~geoik.Skeleton`, in the order of its ``names``.

    Attributes
    ----------
    positions : (m, d) world positions of the joints.
    root_rotation : (4,) unit quaternion ``(w, x, y, z)``, the root's orientation in the world
        (a BVH frame's root rotation); the frame that the limits of the links leaving the root
        are measured in (:mod:`geoik.rigs.limits`). Default: the identity.
    """

    positions: np.ndarray
    root_rotation: Any = None

    def __post_init__(self) -> None:
        pos = np.array(self.positions, dtype=np.float64)
        if pos.ndim != 2 or pos.shape[1] not in (2, 3) or not np.all(np.isfinite(pos)):
            raise InvalidPoseError(
                f"expected an (m, 2) or (m, 3) array of finite coordinates, got "
                f"{describe(self.positions)}",
                argument="positions",
            )
        pos.setflags(write=False)
        object.__setattr__(self, "positions", pos)
        q = check_root_rotation(self.root_rotation, "root_rotation")
        q.setflags(write=False)
        object.__setattr__(self, "root_rotation", q)


def check_root_rotation(value: Any, name: str) -> np.ndarray:
    """A unit quaternion ``(w, x, y, z)`` as a fresh (4,) array (normalised); the identity for
    None; InvalidPoseError naming ``name`` otherwise."""
    if value is None:
        return np.array(IDENTITY)
    try:
        q = np.array(value, dtype=np.float64)
    except (TypeError, ValueError):
        q = np.zeros(0)
    norm = float(np.linalg.norm(q)) if q.shape == (4,) and np.all(np.isfinite(q)) else 0.0
    if norm < 1e-12:
        raise InvalidPoseError(
            f"expected a non-zero quaternion (w, x, y, z), got {describe(value)}", argument=name
        )
    return q / norm
