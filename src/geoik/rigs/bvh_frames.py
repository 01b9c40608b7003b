"""The types of a BVH clip shared by reading and writing (:mod:`geoik.rigs.bvh` says how
files are read and written): :class:`Clip`, :class:`Frames`, and the file's joints and channel
layout."""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from typing import Any, NamedTuple, overload

import numpy as np

from geoik.errors import InvalidPoseError, describe
from geoik.rigs.pose import TreePose
from geoik.rigs.skeleton import Skeleton

_AXES = {"x": 0, "y": 1, "z": 2}


@dataclass(frozen=True)
class _Joint:
    """A joint of a BVH file: ``local`` is its position in its parent's frame (the offset with
    the position channels' values), ``channels`` as the file names them."""

    name: str
    parent: int
    offset: tuple[float, ...]
    local: tuple[float, ...]
    channels: tuple[str, ...]
    end_site: bool
    line: int


@dataclass(frozen=True, eq=False)
class _Layout:
    """How a skeleton is written: the file's joints and which skeleton joint each one is."""

    joints: tuple[_Joint, ...]
    skeleton: np.ndarray
    """(k,) skeleton index of each file joint, -1 for one without a link of its own."""
    at: np.ndarray
    """(k,) skeleton index of the joint whose position a file joint has (its own, or its
    nearest skeleton ancestor's)."""
    names: tuple[str, ...]

    @property
    def width(self) -> int:
        return sum(len(j.channels) for j in self.joints)


class Frames(Sequence[TreePose]):
    """A clip's frames: a sequence of :class:`~geoik.TreePose`, one per frame.

    Attributes
    ----------
    positions : (frames, joints, 3) world positions, joints in the order of ``skeleton.names``.
    root_rotations : (frames, 4) the root's orientation in each frame (``w, x, y, z``).
    """

    def __init__(
        self,
        positions: np.ndarray,
        root_rotations: np.ndarray,
        layout: _Layout | None = None,
        hints: np.ndarray | None = None,
        values: np.ndarray | None = None,
    ) -> None:
        self.positions = np.array(positions, dtype=np.float64)
        self.root_rotations = np.array(root_rotations, dtype=np.float64)
        for a in (self.positions, self.root_rotations):
            a.setflags(write=False)
        self._layout = layout
        self._hints = hints
        self._values = values

    def __len__(self) -> int:
        return int(self.positions.shape[0])

    @overload
    def __getitem__(self, i: int) -> TreePose: ...

    @overload
    def __getitem__(self, i: slice) -> Sequence[TreePose]: ...

    def __getitem__(self, i: Any) -> Any:
        if isinstance(i, slice):
            return [self[k] for k in range(len(self))[i]]
        return TreePose(self.positions[i], self.root_rotations[i])

    def __iter__(self) -> Iterator[TreePose]:
        for k in range(len(self)):
            yield self[k]

    def __repr__(self) -> str:
        return f"Frames({len(self)} frames of {self.positions.shape[1]} joints)"

    def with_positions(self, positions: Any) -> Frames:
        """The same clip with new joint positions ``(frames, joints, 3)``: the file layout and
        the rotations kept as hints for :func:`save_bvh`."""
        pos = np.array(positions, dtype=np.float64)
        if pos.shape != self.positions.shape:
            raise InvalidPoseError(
                f"expected shape {self.positions.shape}, got {describe(positions)}",
                argument="positions",
            )
        return Frames(pos, self.root_rotations, self._layout, self._hints, self._values)


class Clip(NamedTuple):
    """What :func:`load_bvh` returns: ``skeleton, frames, frame_time = geoik.load_bvh(path)``."""

    skeleton: Skeleton
    frames: Frames
    frame_time: float
