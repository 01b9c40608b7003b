"""Solving general joint models (:class:`geoik.Robot`): the robot branch of :func:`geoik.solve`
and :func:`geoik.solve_tree`.

The same path as for chains: the inputs checked once (:mod:`geoik.checks`), the solver's general
kernel run (:meth:`geoik.solvers.Solver.run_general`), the result judged
(:func:`geoik.judge.judge_robot`) and wrapped in a :class:`~geoik.Solution` (one tip) or a
:class:`~geoik.TreeSolution` (several). Targets and orientations are in the robot's base frame;
positions in metres (the URDF's unit), angles in radians.
"""

from __future__ import annotations

import math
import types
from collections.abc import Mapping
from operator import le
from typing import Any

import numpy as np

from geoik.checks import (
    DEFAULT_ROBOT_TOL,
    check_angle_tol,
    check_max_iter,
    check_motion,
    check_point,
    check_rotation,
    check_tol,
    plain_floats,
    split_pose,
)
from geoik.errors import (
    InvalidChainError,
    InvalidOptionError,
    InvalidPoseError,
    InvalidTargetError,
    UnsupportedChainError,
    describe,
)
from geoik.geometry import wrap
from geoik.jit import call, interpreted
from geoik.judge import judge_robot
from geoik.kinematics import angle_between
from geoik.robots.model import Robot
from geoik.robots.motion import RobotMotion
from geoik.solution import STATUSES, Solution, TreeSolution
from geoik.solvers import Solver, general_methods, get
from geoik.state import HUGE_ANGLE, reduce_huge

__all__ = ["public_values", "solve_robot", "solve_robot_tree", "start_values"]

_wrap = interpreted(wrap)
"""The angle wrap as plain Python: called from Python, the compiled one would set numba's
compiler up (0.2-0.3 s) in a process that has run no kernel yet."""


def solve_robot(
    robot: Robot,
    target: Any,
    method: str,
    tol: float | None,
    max_iter: int | None,
    start: Any,
    orientation: Any,
    angle_tol: float | None,
    options: Mapping[str, Any],
) -> Solution:
    """:func:`geoik.solve` for a robot with one tip (its parameters)."""
    solver = get(method)
    _check_general(solver, robot)
    if robot.k != 1:
        raise InvalidChainError(
            f"geoik.solve moves one tip, got {robot.describe()}; take one with "
            f"robot.with_tips(NAME), load with tip=NAME, or use geoik.solve_tree",
            argument="chain",
        )
    t = check_point(target, 3, "target", model="robot")
    goal_rot = None if orientation is None else check_rotation(orientation, "orientation")
    tol_ = check_tol(tol, DEFAULT_ROBOT_TOL)
    angle_tol_ = check_angle_tol(angle_tol)
    if goal_rot is None and angle_tol is not None:
        raise InvalidOptionError(
            "expected with an orientation (orientation=...), got a position-only target",
            argument="angle_tol",
        )
    iters = check_max_iter(max_iter, solver.budget_general)
    opts = solver.general_opts(robot, options)
    q = start_values(robot, start)
    goals = _goal_arrays(robot, {0: (t, goal_rot)})
    code, used, q, rec = _run(solver, robot, goals, q, tol_, angle_tol_, iters, opts)
    points, frame, error, angle_error = robot.pose_errors(q, t, goal_rot)
    status = STATUSES[judge_robot(code, error, angle_error, tol_, angle_tol_)]
    return Solution.fast(
        robot,  # type: ignore[arg-type]
        t,
        solver.name,
        points,
        public_values(robot, q),
        status,
        int(used),
        error,
        RobotMotion.fast(robot, rec),  # type: ignore[arg-type]
        tol_,
        goal_rot,
        angle_error,
        angle_tol_ if goal_rot is not None else None,
        frame,
    )


def _tree_goals(
    robot: Robot, targets: Any, orientations: Any
) -> dict[int, tuple[np.ndarray, np.ndarray | None]]:
    """The checked goal of each named tip.

    Parameters
    ----------
    robot : Robot
        The robot.
    targets : mapping
        Tip name -> point (3,) or pose (4, 4), in the base frame (metres).
    orientations : mapping or None
        Tip name -> orientation (a (3, 3) matrix, a quaternion ``w, x, y, z`` or a Rotation)
        of tips that have a target.

    Returns
    -------
    dict
        Tip index -> (point (3,), rotation (3, 3) or None when only the position is asked).
    """
    if not isinstance(targets, Mapping):
        raise InvalidTargetError(
            f"expected a mapping of tip names to points, got {describe(targets)}",
            argument="targets",
        )
    if orientations is not None and not isinstance(orientations, Mapping):
        raise InvalidTargetError(
            f"expected a mapping of tip names to orientations, got {describe(orientations)}",
            argument="orientations",
        )
    wanted: dict[int, tuple[np.ndarray, np.ndarray | None]] = {}
    for name, value in targets.items():
        i = _tip(robot, name, "targets")
        point, rot = split_pose(value, None, f"targets[{name!r}]")  # a point, or a 4x4 pose
        wanted[i] = (check_point(point, 3, f"targets[{name!r}]", model="robot"), rot)
    for name, value in (orientations or {}).items():
        i = _tip(robot, name, "orientations")
        key = f"orientations[{name!r}]"
        if i not in wanted:
            raise InvalidTargetError("expected an orientation for a tip that has a target", key)
        if wanted[i][1] is not None:  # the target was a pose: the same rotation, or refused
            split_pose(targets[name], value, f"targets[{name!r}]", key)
        else:
            wanted[i] = (wanted[i][0], check_rotation(value, key))
    return wanted


def _tree_solution(
    robot: Robot,
    method: str,
    wanted: dict[int, tuple[np.ndarray, np.ndarray | None]],
    code: int,
    used: int,
    q: np.ndarray,
    tol: float,
    angle_tol: float,
) -> TreeSolution:
    """Judge each tip of a robot's tree solve and wrap the result.

    Parameters
    ----------
    robot : Robot
        The robot.
    method : str
        The solver's name.
    wanted : dict
        Tip index -> (point (3,), rotation (3, 3) or None), as :func:`_tree_goals` gives.
    code, used : int
        The kernel's status code and iterations.
    q : (m,) ndarray
        The final joint values (radians; metres for prismatic joints).
    tol, angle_tol : float
        The position (metres) and angle (radians) tolerances.

    Returns
    -------
    TreeSolution
        Read-only positions ``(m + k, 3)`` (joints, then tips), frames ``(k, 4, 4)``, joint
        values ``(m,)``, and each tip's status, error and angle error by name.
    """
    frames = robot.tip_frames(q)
    status, error, angle_error = {}, {}, {}
    for i, (t, rot) in wanted.items():
        name = robot.tip_names[i]
        error[name] = math.dist(frames[i, :3, 3].tolist(), t.tolist())
        ang = None if rot is None else float(call(angle_between, rot, frames[i, :3, :3]))
        angle_error[name] = ang
        status[name] = STATUSES[judge_robot(code, error[name], ang, tol, angle_tol)]
    points = np.vstack([robot.joint_positions(q)[:-1], frames[:, :3, 3]])
    points.setflags(write=False)
    values = public_values(robot, q)
    values.setflags(write=False)
    frames.setflags(write=False)
    return TreeSolution(
        skeleton=robot,
        targets=types.MappingProxyType({robot.tip_names[i]: t for i, (t, _) in wanted.items()}),
        method=method,
        positions=points,
        status=types.MappingProxyType(status),
        error=types.MappingProxyType(error),
        iterations=int(used),
        tol=tol,
        angles=values,
        angle_error=types.MappingProxyType(angle_error),
        frames=frames,
    )


def solve_robot_tree(
    robot: Robot,
    targets: Any,
    method: str,
    tol: float | None,
    max_iter: int | None,
    start: Any,
    orientations: Any,
    angle_tol: float | None,
) -> Any:
    """:func:`geoik.solve_tree` for a robot (its parameters): every named tip moved at once."""
    solver = get(method)
    _check_general(solver, robot)
    wanted = _tree_goals(robot, targets, orientations)
    tol_ = check_tol(tol, DEFAULT_ROBOT_TOL)
    angle_tol_ = check_angle_tol(angle_tol)
    if angle_tol is not None and all(rot is None for _, rot in wanted.values()):
        raise InvalidOptionError(
            "expected with orientations (orientations=...), got position-only targets",
            argument="angle_tol",
        )
    iters = check_max_iter(max_iter, solver.budget_general)
    opts = solver.general_opts(robot, {})
    q = start_values(robot, start)
    code, used = 0, 0
    if wanted:
        goals = _goal_arrays(robot, wanted)
        code, used, q, _ = _run(solver, robot, goals, q, tol_, angle_tol_, iters, opts)
    return _tree_solution(robot, solver.name, wanted, code, used, q, tol_, angle_tol_)


def _check_general(solver: Solver, robot: Robot) -> None:
    """UnsupportedChainError unless the solver has a general kernel (moving tips towards
    targets), naming those that have one."""
    solver.check_model(robot, general_methods())
    if solver.kernel_general is None:
        raise UnsupportedChainError(
            f"method {solver.name!r} gives every solution of one tip's full pose "
            f"(geoik.solve with an orientation, geoik.solve_all), got {robot.describe()}; for "
            f"this use one of {', '.join(general_methods())}",
            argument="chain",
        )


def public_values(robot: Robot, q: np.ndarray, fresh: bool = False) -> np.ndarray:
    """Joint values as a Solution reports them: continuous joints wrapped into (-pi, pi]; a
    copy of ``q``, unless ``fresh`` says that ``q`` is the caller's own, to be handed over (it
    is then wrapped in place only where a joint is continuous, else returned as it is)."""
    wrapped = _continuous(robot)
    if fresh and not wrapped:
        return q
    out = q.copy()
    for j in wrapped:
        w = _wrap(out[j])
        if not -math.pi < w <= math.pi:  # beyond HUGE_ANGLE: an exact reduction
            w = float(reduce_huge(out[j : j + 1])[0])
        out[j] = w
    return out


def _continuous(robot: Robot) -> list[int]:
    """The indices of the robot's continuous joints (cached on the robot)."""
    wrapped = robot._cache.get("continuous")
    if wrapped is None:
        wrapped = robot._cache["continuous"] = np.flatnonzero(robot.wraps).tolist()
    return wrapped


def _tip(robot: Robot, name: Any, what: str) -> int:
    if name not in robot.tip_names:
        raise InvalidTargetError(
            f"expected tip names ({', '.join(robot.tip_names)}), got {describe(name)}",
            argument=what,
        )
    return robot.tip_names.index(name)


def start_values(robot: Robot, start: Any) -> np.ndarray:
    """The start as (n,) joint values: ``start`` checked (joint values within the limits, or a
    solution of this robot), default the rest configuration; a continuous joint's huge angle
    reduced exactly."""
    if start is None:
        return robot.rest_angles()
    if type(start) is not np.ndarray and isinstance(start, Solution | TreeSolution):
        owner = start.chain if isinstance(start, Solution) else start.skeleton
        if owner is not robot:
            raise InvalidPoseError(
                "expected a solution of this robot, or joint values", argument="start"
            )
        start = start.angles
    plain = _plain_start(robot, start)
    if plain is not None:
        return plain
    q = robot.check_angles(start, "start")
    # a continuous joint's huge angle, reduced exactly as it enters (revolute and prismatic
    # joints are held within their limits)
    return reduce_huge(q, robot.wraps)


def _plain_start(robot: Robot, start: Any) -> np.ndarray | None:
    """``start`` as a fresh array when it is n plain numbers (:func:`~geoik.checks.plain_floats`:
    a float64 array, a list or tuple; a previous solution's joint values) that lie within their
    joints' limits, none huge: the common case, checked in Python on the values as a list (NumPy's
    calls cost more than that on a few values, and slowed the kernel run next); None otherwise,
    for the full check, which says what is wrong, or clips and reduces."""
    bounds = robot._cache.get("start bounds")
    if bounds is None:  # the limits, and HUGE_ANGLE, in one pair of bounds
        lo = [max(v, -HUGE_ANGLE) for v in robot.lo.tolist()]
        hi = [min(v, HUGE_ANGLE) for v in robot.hi.tolist()]
        bounds = robot._cache["start bounds"] = (lo, hi)
    values = plain_floats(start, robot.n)
    if values is None:
        return None
    if all(map(le, bounds[0], values)) and all(map(le, values, bounds[1])):  # NaN fails
        return start.copy() if type(start) is np.ndarray else np.array(values)
    return None


def _goal_arrays(
    robot: Robot, wanted: Mapping[int, tuple[np.ndarray, np.ndarray | None]]
) -> tuple[np.ndarray, ...]:
    k = robot.k
    targets = np.zeros((k, 3))
    goal_rot = np.zeros((k, 3, 3))
    goal_rot[:, 0, 0] = goal_rot[:, 1, 1] = goal_rot[:, 2, 2] = 1.0
    targeted = np.zeros(k, dtype=np.bool_)
    oriented = np.zeros(k, dtype=np.bool_)
    for i, (t, rot) in wanted.items():
        targets[i] = t
        targeted[i] = True
        if rot is not None:
            goal_rot[i] = rot
            oriented[i] = True
    return targets, goal_rot, targeted, oriented


def _run(
    solver: Solver,
    robot: Robot,
    goals: tuple[np.ndarray, ...],
    q: np.ndarray,
    tol: float,
    angle_tol: float,
    max_iter: int,
    opts: np.ndarray,
) -> tuple[int, int, np.ndarray, np.ndarray]:
    assert solver.capacity_general is not None
    rows = solver.capacity_general(robot.n, max_iter)
    if rows > 4096:  # cheap enough to skip for every common solve
        check_motion(rows, 8 * robot.n, max_iter, f"{solver.name!r} on {robot.describe()}")
    rec = np.empty((rows, robot.n))
    rec[0] = q
    code, used, nrec = solver.run_general(robot, goals, q, tol, angle_tol, max_iter, opts, rec)
    return int(code), int(used), q, rec[:nrec]
