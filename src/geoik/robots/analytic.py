"""Every solution of a robot arm's pose: :func:`geoik.solve_all` and ``method="analytic"``.

The robot side of :mod:`geoik.solvers.analytic`: the arm's product-of-exponentials form
(:meth:`geoik.Robot.poe`) is decomposed once (:meth:`geoik.Robot.analytic_plan`, cached on the
robot; :attr:`geoik.Robot.family` says it in words), and each pose is one compiled call returning
every solution in three groups (exact within the limits, exact outside them, least-squares
candidates when the pose is out of reach). :class:`SolutionSet` holds the answer
(:mod:`geoik.robots.solution_set`, re-exported here with :class:`SetStatus`).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

import numpy as np

from geoik.checks import (
    check_angle_tol,
    check_point,
    check_rotation,
    check_tol,
    is_number,
    plain_floats,
    pose_unchecked,
    split_pose,
)
from geoik.errors import (
    InvalidChainError,
    InvalidOptionError,
    InvalidTargetError,
    LimitError,
    UnsupportedChainError,
    describe,
)
from geoik.jit import runner
from geoik.robots.model import Robot
from geoik.robots.solution_set import SetStatus, SolutionSet, _set_status
from geoik.robots.solve import public_values
from geoik.solution import Solution, Status
from geoik.solvers import get
from geoik.solvers.analytic import Plan, pack
from geoik.solvers.analytic.decompose import SEARCH_56
from geoik.solvers.analytic.finish import all_solutions_searched
from geoik.solvers.analytic.five import (
    FAMILIES_SHORT,
    MAX_ROWS,
    NEAREST_ORIENTATION,
    all_solutions_short,
    pack_short,
)
from geoik.solvers.analytic.redundant import SAMPLES, held_solutions, held_sweep, pack_held

__all__ = ["SetStatus", "SolutionSet", "solve_all", "solve_analytic", "warm_held"]

EXACT_TOL = 1e-9
"""Default tolerances of :func:`solve_all`: metres and radians."""
_SOLVER = get("analytic")
_KERNEL = _SOLVER.kernel_all
_MAX = _SOLVER.max_solutions


def is_short(plan: Plan) -> bool:
    """Whether the plan is of an arm of four or five joints (:mod:`geoik.solvers.analytic.five`)."""
    return plan.code in FAMILIES_SHORT


def _plan(robot: Any) -> Plan:
    """The robot's plan, checked: one tip, and a family with a closed form."""
    if type(robot) is not Robot and not isinstance(robot, Robot):
        raise InvalidChainError(
            f"expected a geoik.Robot, got {type(robot).__name__}", argument="robot"
        )
    plan = robot._cache.get("analytic plan")
    if plan is not None and plan.code:
        return plan
    if robot.k != 1:
        raise InvalidChainError(
            f"every solution of a pose moves one tip, got {robot.describe()}; take one "
            f"with robot.with_tips(NAME) or load with tip=NAME",
            argument="chain",
        )
    plan = robot.analytic_plan()
    if plan.code == 0:
        raise UnsupportedChainError(
            f"method 'analytic' has no closed form for {robot.describe()} ({plan.family});"
            f" use method 'dls'",
            argument="chain",
        )
    return plan


def _orientation(
    robot: Robot, orientation: Any, plan: Plan | None = None, q0: Any = None
) -> np.ndarray:
    """The goal orientation as a fresh (3, 3) array; a float64 (3, 3) array is taken as it is
    (the kernel checks that it is a rotation, see :func:`_run`). None for an arm of fewer than
    six joints: the tip's orientation at ``q0``, the position's solutions then sorted by how
    near they keep it."""
    if orientation is None and plan is not None and is_short(plan):
        return np.ascontiguousarray(robot.tip_frame(q0)[:3, :3])
    if (
        type(orientation) is np.ndarray
        and orientation.dtype == np.float64
        and orientation.shape == (3, 3)
    ):
        return orientation.copy()
    if orientation is None:
        raise InvalidTargetError(
            f"the analytic solver solves a full pose; {robot.n} joints need the "
            f"tip's orientation (orientation=: a 3x3 rotation matrix, a unit quaternion "
            f"(w, x, y, z) or a scipy Rotation; or a 4x4 pose as the target), got None",
            argument="orientation",
        )
    return check_rotation(orientation, "orientation")


def _start(robot: Robot, start: Any) -> np.ndarray:
    """The start as an (n,) array the solve only reads: the robot's shared rest configuration
    by default, else a fresh one; n plain numbers (a float64 array, a list or tuple, a previous
    solution's joint values) are taken as they are (the kernel checks that they are finite, see
    :func:`_run`)."""
    if start is None:
        return robot._rest_shared()
    if type(start) is np.ndarray and start.dtype == np.float64 and start.shape == (robot.n,):
        return start.copy()
    if isinstance(start, Solution):
        start = start.angles
    values = plain_floats(start, robot.n)
    if values is not None:
        return np.array(values)
    return robot.check_angles(start, "start", limits=False)


def _run(
    plan: Plan,
    robot: Robot,
    t: np.ndarray,
    goal: np.ndarray,
    q0: np.ndarray,
    tol: float,
    angle_tol: float,
    rotation_name: str = "orientation",
) -> tuple[np.ndarray, tuple[int, int, int], np.ndarray]:
    """One compiled call, which also checks the goal and the start: a target or a start that
    is not finite (or beyond :data:`~geoik.checks.MAX_COORDINATE`) raises here, through
    :func:`check_point` or :meth:`geoik.Robot.check_angles`; an
    orientation that is not a rotation matrix to 1e-14 is checked (raising InvalidTargetError,
    or orthonormalised) and solved again. Returns the rows (joint values, flags, errors), the
    group sizes and the goal used."""
    model = analytic_model(robot, plan)
    short = is_short(plan)
    kernel = runner(kernel_of(plan), 2000)
    out = np.empty((MAX_ROWS if short else _MAX, robot.n + 3))
    sizes = kernel(model, goal, t, q0, tol, angle_tol, out)
    if sizes[0] < 0:
        goal = _refused(robot, sizes[0], t, q0, goal, rotation_name)
        sizes = kernel(model, goal, t, q0, tol, angle_tol, out)
    return out, sizes, goal


def _refused(
    robot: Robot,
    code: int,
    t: np.ndarray,
    q0: np.ndarray,
    goal: Any,
    rotation_name: str = "orientation",
) -> np.ndarray:
    """After a kernel refused its input (``code`` -2: the target, -3: the start, -1: the
    orientation, see :func:`.finish.all_solutions`): raise for the target or the start, saying
    what is wrong, else the orientation checked (raising, or orthonormalised) to solve again,
    named ``rotation_name`` (``target[:3, :3]`` for a 4x4 pose's)."""
    if code == -2:
        check_point(t, 3, "target", model="robot")  # raises, saying what is wrong
    if code == -3:
        robot.check_angles(q0, "start", limits=False)  # raises, saying what is wrong
    return check_rotation(goal, rotation_name)


def analytic_model(robot: Robot, plan: Plan) -> np.ndarray:
    """The plan and the limits packed for the kernel (cached on the robot)."""
    model = robot._cache.get("analytic model")
    if model is None:
        if is_short(plan):
            model = pack_short(plan.code, plan.H, plan.P, plan.R_tip, robot.lo, robot.hi)
        else:
            assert _SOLVER.pack is not None
            model = _SOLVER.pack(plan, robot.lo, robot.hi)
        robot._cache["analytic model"] = model
    return model


def kernel_of(plan: Plan) -> Any:
    """The compiled kernel that solves the plan's arm (see :func:`analytic_model`): the closed
    forms' (``kernel_all``), the searched family's, or the four- and five-joint one's."""
    if is_short(plan):
        return all_solutions_short
    return all_solutions_searched if plan.code == SEARCH_56 else _KERNEL


def _run_locked(
    plan: Plan,
    robot: Robot,
    t: np.ndarray,
    goal: np.ndarray,
    q0: np.ndarray,
    tol: float,
    angle_tol: float,
    value: float,
    rotation_name: str = "orientation",
) -> tuple[np.ndarray, tuple[int, int, int], np.ndarray]:
    """:func:`_run` for a 7-joint arm with joint ``plan.locked`` held at ``value`` (NaN: the
    value searched for the solution nearest ``q0``, :func:`.redundant.held_solutions`): the
    six others solved, the held joint's value in every row."""
    model, held = _held_model(robot, plan)
    kernel = runner(held_solutions, 2000 if value == value else 2000 * SAMPLES)
    out = np.empty((_MAX, robot.n + 3))
    a, b, c, _ = kernel(model, held, goal, t, q0, tol, angle_tol, value, out)
    if a < 0:
        goal = _refused(robot, a, t, q0, goal, rotation_name)
        a, b, c, _ = kernel(model, held, goal, t, q0, tol, angle_tol, value, out)
    return out, (a, b, c), goal


def _run_sweep(
    plan: Plan,
    robot: Robot,
    t: np.ndarray,
    goal: np.ndarray,
    q0: np.ndarray,
    tols: tuple[float, float],
    values: np.ndarray,
    rotation_name: str = "orientation",
) -> tuple[np.ndarray, tuple[int, int, int], np.ndarray]:
    """:func:`_run_locked` at each of ``values`` (the held joint's, checked), in one compiled
    call (:func:`.redundant.held_sweep`): the rows of every value merged into the three groups,
    each sorted as one value's are."""
    model, held = _held_model(robot, plan)
    kernel = runner(held_sweep, 2000 * len(values))
    out = np.empty((_MAX * len(values), robot.n + 3))
    a, b, c = kernel(model, held, goal, t, q0, *tols, values, out)
    if a < 0:
        goal = _refused(robot, a, t, q0, goal, rotation_name)
        a, b, c = kernel(model, held, goal, t, q0, *tols, values, out)
    return out[: a + b + c], (int(a), int(b), int(c)), goal


def _redundancy_values(robot: Robot, plan: Plan, values: Any) -> np.ndarray:
    """Values of the held joint (a 1-D sequence) checked as :func:`_redundancy` checks one,
    each clamped into the joint's limits, without repeats, in increasing order."""
    j = plan.locked
    lo, hi = float(robot.lo[j]), float(robot.hi[j])
    try:
        v = np.array(values, dtype=np.float64)
    except (TypeError, ValueError):
        v = np.array([[]])
    shown = None
    listed: list[float] = v.tolist() if v.ndim == 1 else []
    if not listed:
        shown = describe(values)
    # checked and clamped value by value, in Python: NumPy's comparisons, clip and unique cost
    # more on a few values, and their wide vector instructions slowed the kernel run next (by
    # about a fifth on the Panda's 32 values)
    for k, x in enumerate(listed):
        if not lo - 1e-9 <= x <= hi + 1e-9:  # NaN included
            shown = describe(values[k])
            break
    if shown is not None:
        raise InvalidOptionError(
            f"expected values of joint {robot.joint_names[j]!r} (radians) within its limits "
            f"[{lo:.9g}, {hi:.9g}], one or more, got {shown}",
            argument="redundancy",
        )
    return np.array(sorted({min(max(x, lo), hi) for x in listed}))


def _held_model(robot: Robot, plan: Plan) -> tuple[np.ndarray, np.ndarray]:
    """A 7-joint arm's packed six-joint model (the held joint at 0) and held joint (cached)."""
    out = robot._cache.get("analytic held")
    if out is None:
        j = plan.locked
        poe = robot.poe()
        model = pack(
            plan.code,
            plan.reverse,
            plan.H,
            plan.P,
            plan.R_tip,
            plan.points,
            *_held_limits(robot, j),
        )
        held = pack_held(j, poe.H, poe.P, poe.R_tip, float(robot.lo[j]), float(robot.hi[j]))
        out = robot._cache["analytic held"] = (model, held)
    return out


def warm_held(robot: Robot) -> None:
    """Compile :func:`.redundant.held_solutions` for the argument types a 7-joint solve passes
    (both its forms: a held value given, and searched), and :func:`.redundant.held_sweep` for
    a sweep of values (``solve_all(..., redundancy=values)``), from any 6-joint arm with a
    closed form: its chain stands in for the six joints, and a seventh joint on its last
    joint's axis, at its last joint, for the held one."""
    plan = _plan(robot)
    poe = robot.poe()
    assert _SOLVER.pack is not None
    model = _SOLVER.pack(plan, robot.lo, robot.hi)
    H = np.vstack([poe.H, poe.H[-1:]])
    P = np.vstack([poe.P[:-1], np.zeros((1, 3)), poe.P[-1:]])
    held = pack_held(6, H, P, poe.R_tip, -math.pi, math.pi)
    frame = robot.tip_frame(robot.rest_angles())
    goal, t = np.ascontiguousarray(frame[:3, :3]), np.ascontiguousarray(frame[:3, 3])
    out = np.empty((_MAX, robot.n + 4))
    q0 = np.zeros(robot.n + 1)
    for value in (0.0, math.nan):
        held_solutions(model, held, goal, t, q0, EXACT_TOL, EXACT_TOL, value, out)
    values = np.zeros(1)
    held_sweep(model, held, goal, t, q0, EXACT_TOL, EXACT_TOL, values, out)


def _held_limits(robot: Robot, j: int) -> tuple[np.ndarray, np.ndarray]:
    """The limits of the six joints other than ``j`` (cached)."""
    key = f"limits without {j}"
    out = robot._cache.get(key)
    if out is None:
        out = robot._cache[key] = (np.delete(robot.lo, j), np.delete(robot.hi, j))
    return out


def _redundancy(robot: Robot, plan: Plan, value: Any, q0: np.ndarray) -> float:
    """The held joint's value: ``value`` checked (a number within that joint's limits), or the
    start's."""
    if plan.locked < 0:
        if value is not None:
            raise InvalidOptionError(
                f"only a 7-joint arm has one to set, got {describe(value)} for {robot.describe()}",
                argument="redundancy",
            )
        return 0.0
    j = plan.locked
    if value is None:
        return float(q0[j])
    lo, hi = robot.lo[j], robot.hi[j]
    if not is_number(value) or not lo - 1e-9 <= value <= hi + 1e-9:
        raise InvalidOptionError(
            f"expected the value of joint {robot.joint_names[j]!r} (radians) within "
            f"its limits [{lo:.9g}, {hi:.9g}], got {describe(value)}",
            argument="redundancy",
        )
    return float(min(max(value, lo), hi))


def _point(target: Any) -> np.ndarray:
    """The target as a fresh (3,) array; a float64 (3,) array is taken as it is (the kernel
    checks its coordinates, see :func:`_run`)."""
    if type(target) is np.ndarray and target.dtype == np.float64 and target.shape == (3,):
        return target.copy()
    return check_point(target, 3, "target", model="robot")


def solve_all(
    robot: Robot,
    target: Any,
    orientation: Any = None,
    start: Any = None,
    tol: float | None = None,
    angle_tol: float | None = None,
    redundancy: float | Sequence[float] | np.ndarray | None = None,
) -> SolutionSet:
    """Every solution of one pose of a robot arm (six revolute joints in a family with a
    closed form, or four or five in the family of :mod:`geoik.solvers.analytic.five`:
    :attr:`geoik.Robot.family` says which).

    An arm of four or five joints does not meet every orientation at a position: where no
    joint values within the limits meet the pose (to ``tol`` and ``angle_tol``), ``angles``
    holds those that reach the position with the nearest orientation they can within the
    limits (least squares on the angle between the frames), each branch's nearest, the least
    angle first, ``errors[:, 1]`` their angle errors and ``status`` NEAREST_ORIENTATION.

    Parameters
    ----------
    robot : a :class:`geoik.Robot` with one tip.
    target : (3,) the tip's position (metres, base frame), or its (4, 4) homogeneous pose
        (position and orientation at once, last row ``(0, 0, 0, 1)``).
    orientation : the tip's orientation: a 3x3 rotation matrix (columns: the tip frame's axes),
        a unit quaternion ``(w, x, y, z)`` (SciPy's ``as_quat()`` is ``(x, y, z, w)``) or a
        SciPy ``Rotation`` holding one rotation; required for six or seven joints unless
        ``target`` is a 4x4 pose (then None, or the same rotation within 1e-6 rad). An arm of
        four or five joints takes None (a position only): the solutions at the position, the
        orientation held as near the tip's at ``start`` as the arm can (status SOLVED).
    start : joint values (n,) (or a :class:`geoik.Solution`) the solutions are sorted by
        distance from; default the rest configuration.
    tol, angle_tol : a solution's forward kinematics lies within ``tol`` metres and
        ``angle_tol`` radians of the pose (default 1e-9 each).
    redundancy : 7-joint arms (Franka Panda, xArm7): the value (radians) of the joint held
        while the six others are solved, the first or the last (``robot.family`` says which);
        default its value in ``start``. Every solution at that value is returned; given a
        sequence of values (e.g. ``np.linspace(lo, hi, 32)``), every solution at each of them,
        in one set (each row holds its value of the held joint), in one call.

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
    plan = _plan(robot)
    pose = pose_unchecked(target) if orientation is None else None
    if pose is not None:  # a 4x4 pose: its rotation block checked by the kernel, named so
        t, goal = pose
        orientation, name = goal, "target[:3, :3]"
        q0 = _start(robot, start)
    else:
        target, orientation = split_pose(target, orientation)
        t, name = _point(target), "orientation"
        q0 = _start(robot, start)
        goal = _orientation(robot, orientation, plan, q0)
    tol_ = EXACT_TOL if tol is None else check_tol(tol, 1.0)
    angle_tol_ = EXACT_TOL if angle_tol is None else check_angle_tol(angle_tol)
    if plan.locked < 0 and redundancy is None:
        rows, sizes, goal = _run(plan, robot, t, goal, q0, tol_, angle_tol_, name)
    elif (
        plan.locked >= 0
        and isinstance(redundancy, list | tuple | np.ndarray)
        and np.ndim(redundancy) != 0
    ):
        values = _redundancy_values(robot, plan, redundancy)
        rows, sizes, goal = _run_sweep(plan, robot, t, goal, q0, (tol_, angle_tol_), values, name)
    else:
        value = _redundancy(robot, plan, redundancy, q0)
        rows, sizes, goal = _run_locked(plan, robot, t, goal, q0, tol_, angle_tol_, value, name)
    status = _set_status(rows, sizes, robot.n)
    if orientation is None and status is SetStatus.NEAREST_ORIENTATION:
        status = SetStatus.SOLVED  # a position asked for, and reached
    rows.setflags(write=False)
    t.setflags(write=False)
    goal.setflags(write=False)
    out = object.__new__(SolutionSet)  # the frozen dataclass without its per-field assignments
    out.__dict__.update(
        robot=robot,
        target=t,
        orientation=goal,
        status=status,
        family=plan.family,
        rows=rows,
        sizes=sizes,
    )
    return out


REDUNDANCY_SAMPLES = SAMPLES
"""Values of the held joint a 7-joint solve scans (evenly within its limits), after the
start's own, before refining the best (:mod:`geoik.solvers.analytic.redundant`)."""


def solve_analytic(
    robot: Robot,
    target: Any,
    tol: float | None,
    start: Any,
    orientation: Any,
    angle_tol: float | None,
    requested: str = "analytic",
    *,
    start_checked: bool = False,
) -> Solution:
    """``geoik.solve(robot, ..., method="analytic")``: the solution nearest ``start`` (REACHED);
    out of reach the least-squares candidate nearest the pose (CLOSEST); reachable only
    outside the limits: :class:`~geoik.LimitError`; a searched family that finds no candidate
    (:mod:`geoik.solvers.analytic.families`): the start, STALLED. An arm of four or five
    joints whose orientation is out of reach at the position: the position with the nearest
    orientation (CLOSEST, its ``angle_error`` said); a position only (no ``orientation``):
    the solution that keeps the tip's orientation at ``start`` best, judged on the position.
    ``requested``: the method the caller asked for (``Solution.requested``);
    ``start_checked``: ``start`` is joint values already checked, in a fresh (n,) array (as
    :func:`geoik.robots.solve.start_values` gives them), taken as they are."""
    plan = _plan(robot)
    t = _point(target)
    q0 = start if start_checked else _start(robot, start)
    goal = _orientation(robot, orientation, plan, q0)
    tol_ = check_tol(tol, robot.total_length)
    angle_tol_ = check_angle_tol(angle_tol)
    if plan.locked < 0:
        rows, (a, b, c), goal = _run(plan, robot, t, goal, q0, tol_, angle_tol_)
    else:
        rows, (a, b, c), goal = _run_locked(plan, robot, t, goal, q0, tol_, angle_tol_, math.nan)
    n = robot.n
    points = frame = None
    if a:
        q, status = rows[0, :n].copy(), Status.REACHED
        if int(rows[0, n]) & NEAREST_ORIENTATION:
            status = Status.CLOSEST  # the position reached, the nearest orientation
    elif b:
        out_q = rows[:, :n]
        bad = [j for j in range(n) if not robot.lo[j] - 1e-9 <= out_q[a, j] <= robot.hi[j] + 1e-9]
        j = bad[0] if bad else 0
        raise LimitError(
            f"the pose is reachable only with joint {robot.joint_names[j]!r} outside its "
            f"limits [{robot.lo[j]:.9g}, {robot.hi[j]:.9g}] ({b} solutions, none within the "
            f"limits)",
            argument="target",
        )
    elif c:
        q, status = np.clip(rows[a + b, :n], robot.lo, robot.hi), Status.CLOSEST
    else:  # the searched family found no candidate at all: the start, unmoved
        q, status = np.clip(q0, robot.lo, robot.hi), Status.STALLED
    if a and (plan.locked >= 0 or not plan.reverse):
        # the kernel measured the tip's errors by the arm's own forward kinematics (a 6-joint
        # chain solved from its tip is measured again here, as before): the points and frame
        # on first read
        error, angle_error = float(rows[0, n + 1]), float(rows[0, n + 2])
    else:
        points, frame, error, angle = robot.pose_errors(q, t, goal)
        angle_error = float(angle)  # type: ignore[arg-type]
    position_only = orientation is None  # an arm of fewer than six joints (_orientation)
    if status is Status.CLOSEST and error <= tol_ and (position_only or angle_error <= angle_tol_):
        status = Status.REACHED
    return Solution.fast_posed_on_read(
        robot,
        t,
        "analytic",
        public_values(robot, q, fresh=True),
        status,
        error,
        q0,  # the motion: the start, then the answer (made when first read)
        tol_,
        None if position_only else goal,
        None if position_only else angle_error,
        None if position_only else angle_tol_,
        requested,
        pose=None if points is None else (points, frame),
    )
