"""Every solution of a robot arm's pose: :func:`geoik.solve_all` and ``method="analytic"``.

The robot side of :mod:`geoik.solvers.analytic`: the arm's product-of-exponentials form
(:meth:`geoik.Robot.poe`) is decomposed once (:func:`plan_of`, cached on the robot;
:attr:`geoik.Robot.family` says it in words), and each pose is one compiled call returning
every solution in three groups (exact within the limits, exact outside them, least-squares
candidates when the pose is out of reach). :class:`SolutionSet` holds the answer.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from enum import Enum
from typing import Any

import numpy as np

from geoik.checks import check_angle_tol, check_point, check_rotation, check_tol
from geoik.errors import InvalidChainError, InvalidTargetError, LimitError, UnsupportedChainError
from geoik.jit import call, runner
from geoik.kinematics import angle_between
from geoik.robots.model import Robot
from geoik.robots.motion import RobotMotion
from geoik.robots.solve import public_values
from geoik.solution import Solution, Status
from geoik.solvers import get
from geoik.solvers.analytic import SINGULAR, Plan

__all__ = ["SetStatus", "SolutionSet", "plan_of", "solve_all", "solve_analytic"]

EXACT_TOL = 1e-9
"""Default tolerances of :func:`solve_all`: metres and radians."""


class SetStatus(int, Enum):
    """What a :class:`SolutionSet` found."""

    SOLVED = 0
    """At least one exact solution within the joint limits."""
    OUTSIDE_LIMITS = 1
    """The pose is reachable, but only with a joint outside its limits."""
    OUT_OF_REACH = 2
    """No joint values reach the pose; ``closest`` holds the least-squares candidates."""


_REASONS = {
    SetStatus.SOLVED: "every solution within the joint limits",
    SetStatus.OUTSIDE_LIMITS: "the pose is reachable only with joints outside their limits",
    SetStatus.OUT_OF_REACH: "the pose is out of reach",
}


@dataclass(frozen=True, eq=False)
class SolutionSet:
    """What :func:`geoik.solve_all` returns: every solution of one pose.

    Attributes
    ----------
    robot : the robot solved.
    target : (3,) the tip's target position (metres, base frame).
    orientation : (3, 3) the tip's target orientation.
    angles : (k, n) every solution within the joint limits, in the order of
        ``robot.joint_names`` (radians; continuous joints in (-pi, pi], others moved by 2 pi
        into their limits where that helps, and where two turns fit, the one nearer
        ``start``), the nearest to ``start`` first; k is 0 unless
        ``status`` is SOLVED.
    singular : (k,) whether solution ``i`` is one representative of a continuous family (a
        singularity, such as a wrist whose first and last axes line up: the joints around it
        may trade angle without moving the tip).
    errors : (k, 2) each solution's position error (metres) and angle error (radians).
    status : SOLVED, OUTSIDE_LIMITS or OUT_OF_REACH (:class:`SetStatus`).
    outside : (j, n) the exact solutions that break a joint limit (wrapped into (-pi, pi]).
    closest : (c, n) out of reach: the least-squares candidates, the nearest pose first.
    closest_errors : (c, 2) their position and angle errors.
    family : the arm's kinematic family in words (:attr:`geoik.Robot.family`).
    """

    robot: Robot
    target: np.ndarray
    orientation: np.ndarray
    angles: np.ndarray
    singular: np.ndarray
    errors: np.ndarray
    status: SetStatus
    outside: np.ndarray
    closest: np.ndarray
    closest_errors: np.ndarray
    family: str

    def __len__(self) -> int:
        return int(self.angles.shape[0])

    @property
    def reason(self) -> str:
        """The status in words, e.g. ``"8 solutions: every solution within the joint
        limits"``."""
        return f"{len(self)} solutions: {_REASONS[self.status]}"


def plan_of(robot: Robot) -> Plan:
    """The analytic solver's plan of the robot's arm (one tip), cached on the robot."""
    return robot.analytic_plan()


def _checked(
    robot: Robot, target: Any, orientation: Any, start: Any
) -> tuple[Plan, np.ndarray, np.ndarray, np.ndarray]:
    if not isinstance(robot, Robot):
        raise InvalidChainError(f"robot: expected a geoik.Robot, got {type(robot).__name__}")
    if robot.k != 1:
        raise InvalidChainError(
            f"chain: every solution of a pose moves one tip, got {robot.describe()}; take one "
            f"with robot.with_tips(NAME) or load with tip=NAME"
        )
    t = check_point(target, 3, "target", model="robot")
    if orientation is None:
        raise InvalidTargetError(
            f"orientation: the analytic solver solves a full pose; {robot.n} joints need the "
            f"tip's orientation (a 3x3 rotation matrix or a unit quaternion (w, x, y, z)), "
            f"got None"
        )
    goal = check_rotation(orientation, "orientation")
    plan = plan_of(robot)
    if plan.code == 0:
        raise UnsupportedChainError(
            f"chain: method 'analytic' has no closed form for {robot.describe()} ({plan.family});"
            f" use method 'dls'"
        )
    q0 = robot.rest_angles() if start is None else _start(robot, start)
    return plan, t, goal, q0


def _start(robot: Robot, start: Any) -> np.ndarray:
    if isinstance(start, Solution):
        start = start.angles
    return robot.check_angles(start, "start", limits=False)


def _run(
    plan: Plan,
    robot: Robot,
    t: np.ndarray,
    goal: np.ndarray,
    q0: np.ndarray,
    tol: float,
    angle_tol: float,
) -> tuple[np.ndarray, np.ndarray, np.ndarray, tuple[int, int, int]]:
    solver = get("analytic")
    m = solver.max_solutions
    out_q = np.empty((m, robot.n))
    out_flags = np.empty(m, dtype=np.int64)
    out_err = np.empty((m, 2))
    kernel = runner(solver.kernel_all, 2000)
    sizes = kernel(
        plan.code,
        plan.reverse,
        plan.H,
        plan.P,
        plan.R_tip,
        plan.points,
        robot.lo,
        robot.hi,
        goal,
        t,
        q0,
        tol,
        angle_tol,
        out_q,
        out_flags,
        out_err,
    )
    return out_q, out_flags, out_err, (int(sizes[0]), int(sizes[1]), int(sizes[2]))


def solve_all(
    robot: Robot,
    target: Any,
    orientation: Any = None,
    start: Any = None,
    tol: float | None = None,
    angle_tol: float | None = None,
) -> SolutionSet:
    """Every solution of one pose of a robot arm (six revolute joints in a family with a
    closed form: :attr:`geoik.Robot.family` says which).

    Parameters
    ----------
    robot : a :class:`geoik.Robot` with one tip.
    target : (3,) the tip's position (metres, base frame).
    orientation : the tip's orientation: a 3x3 rotation matrix (columns: the tip frame's axes)
        or a unit quaternion ``(w, x, y, z)``; required.
    start : joint values (n,) (or a :class:`geoik.Solution`) the solutions are sorted by
        distance from; default the rest configuration.
    tol, angle_tol : a solution's forward kinematics lies within ``tol`` metres and
        ``angle_tol`` radians of the pose (default 1e-9 each).

    Returns
    -------
    SolutionSet
        ``angles`` (k, n), nearest to ``start`` first; ``status`` says why it is empty.

    Raises
    ------
    GeoIKError
        :class:`~geoik.InvalidTargetError` (a bad target or orientation, or none),
        :class:`~geoik.InvalidOptionError` (a bad tolerance),
        :class:`~geoik.InvalidPoseError` (a bad start),
        :class:`~geoik.UnsupportedChainError` (an arm without a closed form here).
    """
    tol_ = EXACT_TOL if tol is None else check_tol(tol, 1.0)
    angle_tol_ = EXACT_TOL if angle_tol is None else check_angle_tol(angle_tol)
    plan, t, goal, q0 = _checked(robot, target, orientation, start)
    out_q, out_flags, out_err, (a, b, c) = _run(plan, robot, t, goal, q0, tol_, angle_tol_)
    status = SetStatus.SOLVED if a else SetStatus.OUTSIDE_LIMITS if b else SetStatus.OUT_OF_REACH
    arrays = [
        out_q[:a],
        (out_flags[:a] & SINGULAR) != 0,
        out_err[:a],
        out_q[a : a + b],
        out_q[a + b : a + b + c],
        out_err[a + b : a + b + c],
    ]
    for x in arrays:
        x.setflags(write=False)
    t.setflags(write=False)
    goal.setflags(write=False)
    return SolutionSet(
        robot,
        t,
        goal,
        arrays[0],
        arrays[1],
        arrays[2],
        status,
        arrays[3],
        arrays[4],
        arrays[5],
        plan.family,
    )


def solve_analytic(
    robot: Robot,
    target: Any,
    tol: float | None,
    start: Any,
    orientation: Any,
    angle_tol: float | None,
) -> Solution:
    """``geoik.solve(robot, ..., method="analytic")``: the solution nearest ``start`` (REACHED);
    out of reach the least-squares candidate nearest the pose (CLOSEST); reachable only
    outside the limits: :class:`~geoik.LimitError`."""
    tol_ = check_tol(tol, robot.total_length)
    angle_tol_ = check_angle_tol(angle_tol)
    plan, t, goal, q0 = _checked(robot, target, orientation, start)
    out_q, out_flags, _, (a, b, c) = _run(plan, robot, t, goal, q0, tol_, angle_tol_)
    if a:
        q, status = out_q[0].copy(), Status.REACHED
    elif b:
        bad = [
            j for j in range(robot.n) if not robot.lo[j] - 1e-9 <= out_q[a, j] <= robot.hi[j] + 1e-9
        ]
        j = bad[0] if bad else 0
        raise LimitError(
            f"target: the pose is reachable only with joint {robot.joint_names[j]!r} outside its "
            f"limits [{robot.lo[j]:.9g}, {robot.hi[j]:.9g}] ({b} solutions, none within the "
            f"limits)"
        )
    else:
        q, status = np.clip(out_q[a + b], robot.lo, robot.hi), Status.CLOSEST
    points, frame = robot.pose_of(q)
    error = math.dist(frame[:3, 3].tolist(), t.tolist())
    angle_error = float(call(angle_between, goal, frame[:3, :3]))
    if status is Status.CLOSEST and error <= tol_ and angle_error <= angle_tol_:
        status = Status.REACHED
    rec = np.stack([q0, q])
    return Solution(
        robot,  # type: ignore[arg-type]
        t,
        "analytic",
        points,
        public_values(robot, q),
        status,
        1,
        error,
        RobotMotion.fast(robot, rec),  # type: ignore[arg-type]
        tol_,
        goal,
        angle_error,
        angle_tol_,
        frame,
    )
