"""The result of a solve."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from enum import Enum
from typing import TYPE_CHECKING, Any

import numpy as np

from geoik.pose import Pose

if TYPE_CHECKING:
    from geoik.chain import Chain
    from geoik.motion import Motion
    from geoik.rigs.skeleton import Skeleton
    from geoik.robots.model import Robot

__all__ = ["STATUSES", "Solution", "Status", "TreeSolution"]


class Status(int, Enum):
    """How a solve ended.

    The values are the kernels' status codes, and a Status is an int: arrays of codes, such as
    :attr:`geoik.batch.BatchResult.status`, compare with it element-wise.
    """

    REACHED = 0
    """The end effector is within ``tol`` of the target."""
    CLOSEST = 1
    """The target is out of reach and the end effector is within ``tol`` of the closest point
    the chain can reach."""
    MAX_ITERATIONS = 2
    """The solver used all its iterations without reaching the target."""
    STALLED = 3
    """The solver stopped early (no progress, or a one-pass method ended) short of the target."""


STATUSES = tuple(Status)
"""The statuses indexed by their values, the kernels' status codes (:mod:`geoik.geometry`)."""


@dataclass(frozen=True, eq=False)
class Solution:
    """What :func:`geoik.solve` returns.

    Attributes
    ----------
    chain : the chain (or :class:`geoik.Robot`) solved.
    target : (d,) the target.
    method : the registry name of the solver that produced the solution.
    positions : (n + 1, d) final joint positions, forward kinematics of ``angles``. A robot's:
        (m + 2, 3), the base, each joint's origin and the tip (:meth:`Robot.joint_positions`).
    angles : (n,) relative joint angles (2-D) or (n, 3) rotation vectors (3-D), radians. A
        robot's: (m,) joint values in the order of ``robot.joint_names`` (radians; metres for
        prismatic joints; continuous joints wrapped into (-pi, pi]), ready for the robot or any
        URDF tool.
    status : how the solve ended.
    iterations : iterations used (one-pass solvers: 1; seed-specific meaning per solver).
    error : distance from the end effector to the target (the position error).
    motion : what the solver did, step by step.
    tol : the tolerance the solve used.
    orientation : robots: (3, 3) the target orientation, None when only a position was asked.
    angle_error : robots: the angle (radians, in [0, pi]) between the tip's final frame and
        ``orientation``; None without one.
    angle_tol : robots: the angle tolerance used with ``orientation`` (radians).
    frame : robots: (4, 4) the tip's final frame in the base frame.
    requested : the method asked for: ``method`` itself, or ``"auto"`` when
        :func:`geoik.solve` chose ``method`` (default: ``method``).
    """

    chain: Chain
    target: np.ndarray
    method: str
    positions: np.ndarray
    angles: np.ndarray
    status: Status
    iterations: int
    error: float
    motion: Motion
    tol: float
    orientation: np.ndarray | None = None
    angle_error: float | None = None
    angle_tol: float | None = None
    frame: np.ndarray | None = None
    requested: str = ""

    def __post_init__(self) -> None:
        for a in (self.target, self.positions, self.angles, self.orientation, self.frame):
            if a is not None:
                a.setflags(write=False)
        if not self.requested:
            object.__setattr__(self, "requested", self.method)

    @classmethod
    def fast(
        cls,
        chain: Chain,
        target: np.ndarray,
        method: str,
        positions: np.ndarray,
        angles: np.ndarray,
        status: Status,
        iterations: int,
        error: float,
        motion: Motion,
        tol: float,
        orientation: np.ndarray | None = None,
        angle_error: float | None = None,
        angle_tol: float | None = None,
        frame: np.ndarray | None = None,
        requested: str = "",
    ) -> Solution:
        """The same as ``Solution(...)`` with the arguments in field order, without the
        dataclass's per-field frozen assignments: the constructor of :func:`geoik.solve`'s hot
        path, which already holds checked values."""
        sol = object.__new__(cls)
        sol.__dict__.update(
            chain=chain,
            target=target,
            method=method,
            positions=positions,
            angles=angles,
            status=status,
            iterations=iterations,
            error=error,
            motion=motion,
            tol=tol,
            orientation=orientation,
            angle_error=angle_error,
            angle_tol=angle_tol,
            frame=frame,
            requested=requested,
        )
        sol.__post_init__()
        return sol

    @classmethod
    def fast_posed_on_read(
        cls,
        robot: Robot,
        target: np.ndarray,
        method: str,
        angles: np.ndarray,
        status: Status,
        error: float,
        start: np.ndarray,
        tol: float,
        orientation: np.ndarray | None,
        angle_error: float | None,
        angle_tol: float | None,
        requested: str,
        pose: tuple[np.ndarray, np.ndarray | None] | None = None,
    ) -> Solution:
        """:meth:`fast` for a robot's solution of one step, from ``start`` (n,) to ``angles``,
        whose ``motion`` (those two keyframes) and, with ``pose`` None, ``positions`` and
        ``frame`` (one forward kinematics of ``angles``, :meth:`geoik.Robot.pose_of`) are made
        when first read, then stay: a loop of solves that reads only the joint values does not
        pay for them (a third of a 6-joint arm's analytic solve, and a tenth more for the
        motion). ``start`` is kept as it is: the solve's own array, or one nothing writes.
        ``error`` and ``angle_error`` are given: the solver measured them on the same forward
        kinematics. ``pose``: ``(positions, frame)`` when they are at hand."""
        target.setflags(write=False)
        angles.setflags(write=False)
        if orientation is not None:
            orientation.setflags(write=False)
        sol = object.__new__(cls)
        values = sol.__dict__
        values.update(
            chain=robot,
            target=target,
            method=method,
            angles=angles,
            status=status,
            iterations=1,
            error=error,
            tol=tol,
            orientation=orientation,
            angle_error=angle_error,
            angle_tol=angle_tol,
            requested=requested or method,
            _start=start,
        )
        if pose is not None:
            positions, frame = pose
            positions.setflags(write=False)
            if frame is not None:
                frame.setflags(write=False)
            values["positions"] = positions
            values["frame"] = frame
        return sol

    @property
    def position_error(self) -> float:
        """The distance from the end effector to the target (``error``)."""
        return self.error

    @property
    def reached(self) -> bool:
        """True when the status is REACHED."""
        return self.status is Status.REACHED

    @property
    def pose(self) -> Pose:
        """The final pose."""
        return Pose(self.positions, self.angles)

    @property
    def end_effector(self) -> np.ndarray:
        """(d,) the end effector's final position."""
        return self.positions[-1]


class _PosedOnRead:
    """``Solution.positions`` or ``Solution.frame`` of a solution made by
    :meth:`Solution.fast_posed_on_read`: both from one forward kinematics of its ``angles`` when
    either is first read, kept in the instance's ``__dict__`` from then on. Every other
    solution holds both in its ``__dict__``, which Python reads before this (it defines no
    ``__set__``), so they cost nothing more to read."""

    def __init__(self, name: str) -> None:
        self.name = name

    def __get__(self, obj: Solution | None, owner: type | None = None) -> Any:
        if obj is None:  # the class's own attribute: the dataclass's default
            return None if self.name == "frame" else self
        values = obj.__dict__
        if "angles" not in values:  # not a solution yet (being built)
            raise AttributeError(self.name)
        robot: Any = obj.chain
        points, frame = robot.pose_of(obj.angles)
        points.setflags(write=False)
        frame.setflags(write=False)
        values.setdefault("positions", points)
        values.setdefault("frame", frame)
        return values[self.name]


for _name in ("positions", "frame"):
    setattr(Solution, _name, _PosedOnRead(_name))


class _MotionOnRead:
    """``Solution.motion`` of a solution made by :meth:`Solution.fast_posed_on_read`: its two
    keyframes (the start, then ``angles``) as the robot's motion
    (:meth:`geoik.Robot._motion_between`) when first read, kept in the instance's ``__dict__``
    from then on (every other solution holds its motion there)."""

    def __get__(self, obj: Solution | None, owner: type | None = None) -> Any:
        if obj is None:
            return self
        values = obj.__dict__
        if "_start" not in values:  # not a solution yet (being built)
            raise AttributeError("motion")
        robot: Any = obj.chain
        return values.setdefault("motion", robot._motion_between(values["_start"], obj.angles))


Solution.motion = _MotionOnRead()  # type: ignore[assignment]


@dataclass(frozen=True, eq=False)
class TreeSolution:
    """What :func:`solve_tree` returns.

    Attributes
    ----------
    skeleton : the skeleton solved.
    targets : end-effector name -> (d,) target.
    method : ``"circles"`` or ``"fabrik"``.
    positions : (m, d) every joint's final position, in the skeleton's joint order.
    status : end-effector name -> :class:`~geoik.Status`, for each targeted end effector.
    error : end-effector name -> distance to its target.
    iterations : passes (fabrik) or rounds (circles) used.
    tol : the tolerance used.
    angles : robots: (m,) the joint values, in the order of ``robot.joint_names``.
    angle_error : robots: tip name -> angle (radians) to its target orientation, None for a
        tip without one.
    frames : robots: (k, 4, 4) every tip's final frame in the base frame.
    root_rotation : skeletons: (4,) the root's orientation the limits were measured in (the
        start pose's; the identity by default), so that the solution can start the next frame.
    requested : the method asked for: ``method`` itself, or ``"auto"`` (default: ``method``).

    A robot's (:class:`geoik.Robot`) ``skeleton`` is the robot and its ``positions`` are
    (m + 1 + k, 3): the base, each joint's origin, then every tip.
    """

    skeleton: Skeleton | Robot
    targets: Mapping[str, np.ndarray]
    method: str
    positions: np.ndarray
    status: Mapping[str, Status]
    error: Mapping[str, float]
    iterations: int
    tol: float
    angles: np.ndarray | None = None
    angle_error: Mapping[str, float | None] | None = None
    frames: np.ndarray | None = None
    root_rotation: Any = None
    requested: str = ""

    def __post_init__(self) -> None:
        if not self.requested:
            object.__setattr__(self, "requested", self.method)

    @property
    def reached(self) -> bool:
        """True when every targeted end effector is REACHED."""
        return all(s is Status.REACHED for s in self.status.values())

    def position(self, name: str) -> np.ndarray:
        """(d,) final position of the joint (a robot: the tip) called ``name``."""
        model: Any = self.skeleton
        if hasattr(model, "tip_index"):  # a robot: its positions end with the tips
            return self.positions[model.n + 1 + model.tip_index(name)]
        return self.positions[model.index(name)]
