"""What :func:`geoik.solve_all` returns: :class:`SolutionSet`, every solution of one pose, and
:class:`SetStatus`, what it found.

The set keeps the analytic kernel's rows as they come (joint values, flags, position and angle
errors) in three groups (exact within the limits, exact outside them, least-squares
candidates) and reads them through read-only properties. :mod:`geoik.robots.analytic` makes it
(and re-exports both names).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import Enum

import numpy as np

from geoik.errors import counted
from geoik.robots.model import Robot
from geoik.solvers.analytic import SINGULAR
from geoik.solvers.analytic.five import NEAREST_ORIENTATION

__all__ = ["SetStatus", "SolutionSet"]


class SetStatus(int, Enum):
    """What a :class:`SolutionSet` found."""

    SOLVED = 0
    """At least one exact solution within the joint limits."""
    OUTSIDE_LIMITS = 1
    """The pose is reachable, but only with a joint outside its limits."""
    OUT_OF_REACH = 2
    """No joint values reach the pose; ``closest`` holds the least-squares candidates."""
    NEAREST_ORIENTATION = 3
    """An arm of fewer than six joints: no joint values within the limits meet the
    orientation at the target position; ``angles`` holds those that reach the position with
    the nearest orientation they can (``errors[:, 1]``, radians: the least angle first)."""


_STATUS = (SetStatus.SOLVED, SetStatus.OUTSIDE_LIMITS, SetStatus.OUT_OF_REACH)
_REASONS = {
    SetStatus.SOLVED: "every solution within the joint limits",
    SetStatus.OUTSIDE_LIMITS: "the pose is reachable only with joints outside their limits",
    SetStatus.OUT_OF_REACH: "the pose is out of reach",
    SetStatus.NEAREST_ORIENTATION: (
        "the orientation is out of the arm's reach at the position: the nearest attainable"
    ),
}


def _set_status(rows: np.ndarray, sizes: tuple[int, int, int], n: int) -> SetStatus:
    """The status of the kernel's answer: a first row flagged NEAREST_ORIENTATION (an arm of
    fewer than six joints) says that the exact group holds the nearest orientations."""
    a, b, _ = sizes
    if a and int(rows[0, n]) & NEAREST_ORIENTATION:
        return SetStatus.NEAREST_ORIENTATION
    return _STATUS[0 if a else 1 if b else 2]


@dataclass(frozen=True, eq=False)
class SolutionSet:
    """What :func:`geoik.solve_all` returns: every solution of one pose.

    Attributes
    ----------
    robot : the robot solved.
    target : (3,) the tip's target position (metres, base frame).
    orientation : (3, 3) the tip's target orientation.
    status : SOLVED, OUTSIDE_LIMITS or OUT_OF_REACH (:class:`SetStatus`).
    family : the arm's kinematic family in words (:attr:`geoik.Robot.family`).
    rows : (r, n + 3) the kernel's rows (joint values, flags, position and angle errors): up to
        16, or 16 per value of a 7-joint arm's sweep of its held joint; read them through the
        properties below.
    sizes : (3,) how many rows hold exact solutions within the limits, exact solutions
        outside them, and least-squares candidates.

    The properties (read-only views of ``rows``): ``angles`` (k, n), every solution within
    the joint limits, nearest to the start first; ``singular`` (k,); ``errors`` (k, 2);
    ``outside`` (j, n) and ``outside_errors`` (j, 2); ``closest`` (c, n) and
    ``closest_errors`` (c, 2).
    """

    robot: Robot
    target: np.ndarray
    orientation: np.ndarray
    status: SetStatus
    family: str
    rows: np.ndarray = field(repr=False)
    sizes: tuple[int, int, int] = (0, 0, 0)

    def __len__(self) -> int:
        return self.sizes[0]

    def __repr__(self) -> str:
        """What it found in words and the joint values: ``angles`` (or, out of reach, the
        least-squares ``closest``), e.g. ``SolutionSet(2 solutions: every solution within the
        joint limits, robot=Robot(name='ur5', ...), family='6R: ...', angles=array([[...]]))``."""
        out_of_reach = self.status is SetStatus.OUT_OF_REACH
        name, rows = ("closest", self.closest) if out_of_reach else ("angles", self.angles)
        shown = np.array2string(
            rows,
            max_line_width=120,  # a row of seven joints on one line
            precision=6,
            suppress_small=True,
            separator=", ",
            prefix=f"    {name}=array(",
        )
        return (
            f"SolutionSet({self.reason}, robot={self.robot!r}, family={self.family!r},\n"
            f"    {name}=array({shown}))"
        )

    @property
    def angles(self) -> np.ndarray:
        """(k, n) every solution within the joint limits, in the order of
        ``robot.joint_names`` (radians; continuous joints in (-pi, pi], others moved by 2 pi
        into their limits where that helps, and where two turns fit, the one nearer the
        start), the nearest to the start first; k is 0 unless ``status`` is SOLVED or
        NEAREST_ORIENTATION (then the position reached, the nearest orientation first)."""
        return self.rows[: self.sizes[0], : self.robot.n]

    @property
    def singular(self) -> np.ndarray:
        """(k,) whether solution ``i`` is one representative of a continuous family (a
        singularity, such as a wrist whose first and last axes line up: the joints around it
        may trade angle without moving the tip)."""
        flags = self.rows[: self.sizes[0], self.robot.n].astype(np.int64)
        return (flags & SINGULAR) != 0

    @property
    def errors(self) -> np.ndarray:
        """(k, 2) each solution's position error (metres) and angle error (radians)."""
        return self.rows[: self.sizes[0], self.robot.n + 1 :]

    @property
    def outside(self) -> np.ndarray:
        """(j, n) the exact solutions that break a joint limit (wrapped into (-pi, pi])."""
        a, b, _ = self.sizes
        return self.rows[a : a + b, : self.robot.n]

    @property
    def outside_errors(self) -> np.ndarray:
        """(j, 2) the exact solutions beyond the limits' position and angle errors."""
        a, b, _ = self.sizes
        return self.rows[a : a + b, self.robot.n + 1 :]

    @property
    def closest(self) -> np.ndarray:
        """(c, n) out of reach: the least-squares candidates, the nearest pose first."""
        a, b, c = self.sizes
        return self.rows[a + b : a + b + c, : self.robot.n]

    @property
    def closest_errors(self) -> np.ndarray:
        """(c, 2) the least-squares candidates' position and angle errors."""
        a, b, c = self.sizes
        return self.rows[a + b : a + b + c, self.robot.n + 1 :]

    @property
    def reason(self) -> str:
        """The status in words, e.g. ``"8 solutions: every solution within the joint
        limits"``."""
        return f"{counted(len(self), 'solution')}: {_REASONS[self.status]}"
