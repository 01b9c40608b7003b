"""``geoik.solve``: validate once, run one solver kernel, wrap its result.

Everything here runs once per call, so it is kept to a few cheap steps: per-chain values (the
rest state, the total length, the packed default options, the reach) are cached on the chain or
the solver, and the final pose, angles, error and status come from one compiled call
(:func:`geoik.judge.finish_2d` / :func:`~geoik.judge.finish_3d`, which end in the judge shared
with the batch engine and the tree solvers).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

import numpy as np

from geoik import jit
from geoik.chain import Chain
from geoik.checks import (
    DEFAULT_METHOD,
    DEFAULT_ROBOT_TOL,
    DEFAULT_TOL,
    check_flag,
    check_max_iter,
    check_motion,
    check_point,
    split_pose,
)
from geoik.costs import costs
from geoik.errors import LimitError, UnsupportedChainError
from geoik.jit import runner
from geoik.judge import finish_2d, finish_3d, judge_params
from geoik.motion import Motion
from geoik.pose import Pose
from geoik.reach import clamp_into_reach
from geoik.robots.analytic import solve_analytic, warm_held
from geoik.robots.model import Robot
from geoik.robots.solve import solve_robot, start_values
from geoik.solution import STATUSES, Solution, Status
from geoik.solvers import Solver, get
from geoik.solvers.auto import (
    AUTO,
    FALLBACKS,
    NEARER,
    ROBOT_ANALYTIC,
    ROBOT_AUTO,
    out_of_reach,
    robot_fallback,
    robot_plan,
)
from geoik.solvers.request import Request, check_request
from geoik.state import start_state

__all__ = ["DEFAULT_TOL", "solve", "warm_up"]


def solve(
    chain: Chain | Robot,
    target: Any,
    method: str | None = DEFAULT_METHOD,
    tol: float | None = None,
    max_iter: int | None = None,
    start: Pose | Any = None,
    clamp_to_reach: bool = False,
    orientation: Any = None,
    angle_tol: float | None = None,
    **options: Any,
) -> Solution:
    """Solve inverse kinematics for one target.

    Parameters
    ----------
    chain : the chain (:meth:`Chain.planar` or :meth:`Chain.spatial`), or a robot with one tip
        (:class:`geoik.Robot`, e.g. from :func:`geoik.load_urdf`).
    target : (d,) point the end effector should reach (a robot: its tip, metres, in the base
        link's frame; or a robot tip's (4, 4) homogeneous pose, position and orientation at
        once, its last row ``(0, 0, 0, 1)``).
    method : ``"auto"`` (the default for a chain: an exact method where one provably reaches,
        else the iterative solver that reaches the most, with fallbacks; see
        :mod:`geoik.solvers.auto`) or a name in :data:`geoik.solvers.REGISTRY` (``geoik methods``
        lists them). For a robot ``"auto"`` (the default) runs ``"analytic"`` (every solution
        of the pose, the nearest to ``start`` kept) for one tip with an orientation on an arm
        with a kinematic family (:attr:`geoik.Robot.family`), else ``"dls"``, and ``"dls"``
        where the analytic solver finds no pose within the limits; CLOSEST only where a closed
        form proves the pose out of reach (:func:`geoik.solvers.auto.robot_plan`,
        :func:`~geoik.solvers.auto.robot_fallback`). Or ``"dls"``, ``"ccd"``, ``"analytic"``.
    tol : distance within which the target counts as reached; default ``1e-4`` times the
        chain's total length (a robot: 1e-4 m).
    max_iter : iteration budget of iterative solvers (with ``"auto"``: of each one it runs);
        default per solver (``geoik methods`` lists them; a robot's may differ: ``dls`` has
        300 for robots, 100 for chains).
    start : the pose to start from (a :class:`Pose` or angles as for
        :meth:`Chain.pose_from_angles`); default the rest pose. Pass the previous frame's
        solution pose to animate.
    clamp_to_reach : if True, a target nearer than the chain's minimum reach or farther than its
        maximum (:meth:`Chain.reach`) is first moved radially onto that annulus; the solution
        keeps the given target and its error, and is CLOSEST when the end effector is within
        ``tol`` of the moved point (REACHED only within ``tol`` of the given target).
    orientation : robots only: the tip's target orientation in the base frame, a 3x3 rotation
        matrix (columns: the tip frame's axes), a unit quaternion ``(w, x, y, z)`` (the scalar
        first: SciPy's ``as_quat()`` is ``(x, y, z, w)``) or a SciPy ``Rotation`` holding one
        rotation; default None, a position-only target (or the rotation of a 4x4 ``target``;
        beside one, ``orientation`` must be the same rotation, within 1e-6 rad).
    angle_tol : robots only: angle in radians within which the orientation counts as reached
        (default ``1e-3``); REACHED needs both ``tol`` and ``angle_tol``.
    **options : the solver's own options (``geoik methods`` lists them); none with ``"auto"``
        on a chain (on a robot: ``dls``'s, used when it runs).

    Returns
    -------
    Solution
        Final pose (forward kinematics of the returned angles), status, iterations, error and
        the recorded motion; ``method`` names the solver that produced it, ``requested`` the
        method asked for.

    Raises
    ------
    GeoIKError
        A subclass naming the bad argument: :class:`~geoik.UnknownMethodError`,
        :class:`~geoik.InvalidChainError`, :class:`~geoik.UnsupportedChainError`,
        :class:`~geoik.InvalidTargetError`, :class:`~geoik.InvalidOptionError` or
        :class:`~geoik.InvalidPoseError`.
    """
    if isinstance(chain, Robot):
        check_flag(clamp_to_reach, "clamp_to_reach")
        if clamp_to_reach:
            raise UnsupportedChainError(
                "a robot's reachable set is no annulus about its base; clamp_to_reach takes a "
                "geoik.Chain",
                argument="clamp_to_reach",
            )
        target, orientation = split_pose(target, orientation)
        if method is None or method == AUTO:
            return _robot_auto(chain, target, tol, max_iter, start, orientation, angle_tol, options)
        if get(method).kernel_all is not None:
            if options:  # it takes none: any is an error
                get(method).pack_options(options)
            check_max_iter(max_iter, 1)
            tol_ = DEFAULT_ROBOT_TOL if tol is None else tol  # metres, as every robot solver's
            return solve_analytic(chain, target, tol_, start, orientation, angle_tol)
        return solve_robot(
            chain, target, method, tol, max_iter, start, orientation, angle_tol, options
        )
    if orientation is not None or angle_tol is not None:
        what = "orientation" if orientation is not None else "angle_tol"
        raise UnsupportedChainError(
            "orientation targets need a tip frame, which a geoik.Robot has (geoik.load_urdf); a "
            "geoik.Chain takes a position only",
            argument=what,
        )
    req = check_request(chain, method, tol, max_iter, options, "a geoik.Chain or a geoik.Robot")
    t = check_point(target, chain.dim, "target")
    state = start_state(chain, start)
    goal = clamp_into_reach(chain, t) if check_flag(clamp_to_reach, "clamp_to_reach") else t
    return _attempt(req, t, goal, state)


def _robot_auto(
    robot: Robot,
    target: Any,
    tol: float | None,
    max_iter: int | None,
    start: Any,
    orientation: Any,
    angle_tol: float | None,
    options: dict[str, Any],
) -> Solution:
    """``method="auto"`` on a robot: the solvers of :func:`geoik.solvers.auto.robot_plan`,
    ``dls`` after ``analytic`` where :func:`~geoik.solvers.auto.robot_fallback` says so. Options
    and ``max_iter`` are ``dls``'s (checked first, whichever solver answers)."""
    names = robot_plan(robot, orientation is not None)
    if len(names) == 1:
        sol = solve_robot(
            robot, target, names[0], tol, max_iter, start, orientation, angle_tol, options
        )
    else:
        fallback = get(names[1])
        if options:
            fallback.general_opts(robot, options)
        check_max_iter(max_iter, fallback.budget_general)
        # the rest configuration shared, not copied: the analytic solve only reads it, and the
        # fallback takes its own copy (start_values)
        q0 = robot._rest_shared() if start is None else start_values(robot, start)
        tol_ = DEFAULT_ROBOT_TOL if tol is None else tol
        first: Solution | None
        try:  # (a try costs less than contextlib.suppress on this hot path)
            first = solve_analytic(
                robot, target, tol_, q0, orientation, angle_tol, AUTO, start_checked=True
            )
        except LimitError:  # raised when reachable only outside the limits
            first = None
        if first is not None and not robot_fallback(robot, first.status):
            return first
        sol = solve_robot(
            robot, target, names[1], tol_, max_iter, q0, orientation, angle_tol, options
        )
    sol.__dict__["requested"] = AUTO  # the frozen solution, new here, as chosen by auto
    return sol


def _run(
    chain: Chain,
    solver: Solver,
    t: np.ndarray,
    goal: np.ndarray,
    tol_: float,
    iters: int,
    opts: np.ndarray,
    state: np.ndarray,
    requested: str,
) -> Solution:
    """One solver's kernel from ``state`` (overwritten) towards ``goal``, judged against ``t``:
    the checked inputs of :func:`solve`."""
    n, dim = chain.n, chain.dim
    rows = solver.capacity(n, iters)
    if rows > 4096:  # cheap enough to skip for every common solve
        check_motion(rows, state.nbytes, iters, f"{solver.name!r} on {n} links")
    rec = np.empty((rows,) + state.shape)
    rec[0] = state
    code, used, nrec = solver.run(chain, goal, state, tol_, iters, opts, rec)
    if nrec < 0:
        raise solver.limit_error(chain, goal, -1 - nrec)
    positions = np.empty((n + 1, dim))
    params = judge_params(chain)
    if dim == 2:
        angles = np.empty(n)
        finish = runner(finish_2d)
    else:
        angles = np.empty((n, 3))
        finish = runner(finish_3d)
    code, error = finish(chain.kernel_arrays, state, t, code, tol_, params, positions, angles)
    status = STATUSES[code]
    moved = goal is not t and status is not Status.REACHED
    if moved and math.dist(positions[n].tolist(), goal.tolist()) <= tol_:
        status = Status.CLOSEST
    return Solution.fast(
        chain,
        t,
        solver.name,
        positions,
        angles,
        status,
        int(used),
        error,
        Motion.fast(chain, rec[:nrec]),
        tol_,
        requested=requested,
    )


def _attempt(req: Request, t: np.ndarray, goal: np.ndarray, first: np.ndarray) -> Solution:
    """The request's attempts in order, each from the start state ``first``, until one ends
    REACHED or CLOSEST (else the nearest): a named method's one attempt, or ``"auto"``'s plan,
    whose later attempts run only on targets that may be reachable."""
    chain, attempts = req.chain, req.attempts
    if len(attempts) == 1:
        solver, opts, iters = attempts[0]
        return _run(chain, solver, t, goal, req.tol, iters, opts, first, req.requested)
    best: Solution | None = None
    for k, (solver, opts, iters) in enumerate(attempts):
        # a fresh goal each time: the first answer holds the target read-only, and a read-only
        # goal would compile every later solver's kernel a second time, for that type
        aim = goal.copy()
        sol = _run(chain, solver, t, aim, req.tol, iters, opts, first.copy(), req.requested)
        if sol.status in _DONE:
            return sol
        if best is None or sol.error < best.error - NEARER * chain.total_length:
            best = sol
        if k == 0 and out_of_reach(chain, goal):
            break
    assert best is not None
    return best


_DONE = (Status.REACHED, Status.CLOSEST)


def warm_up(
    methods: Sequence[str] | None = None, dims: Sequence[int] = (2, 3), robots: bool = False
) -> None:
    """Compile (or load from numba's disk cache) what :func:`solve` and :func:`geoik.costs` run
    for ``methods`` (default: every registered solver; ``"auto"``: the solvers it may run) in
    ``dims``, so that the next solves run compiled from the first (see :mod:`geoik.jit`: until
    then they may run as plain Python). ``robots``: also what solving a :class:`geoik.Robot`
    runs (its forward kinematics, the orientation error, the general kernels of those methods
    that have one), with and without an orientation.

    For servers and benchmarks; a solver that takes fewer dimensions is skipped for the others.
    """
    from geoik.solvers import REGISTRY

    names = list(REGISTRY) if methods is None else list(methods)
    if AUTO in names:  # the solvers auto may run
        names = [m for m in names if m != AUTO] + ["two-bone", "circles", *FALLBACKS]
        names += [ROBOT_ANALYTIC, ROBOT_AUTO] if robots else []
    with jit.mode("compiled"):
        for name in dict.fromkeys(names):
            solver = get(name)
            n = solver.links[0] if solver.links[1] is not None else 3
            for dim in dims:
                if dim not in solver.dims:
                    continue
                chain = Chain.planar([1.0] * n) if dim == 2 else Chain.spatial([1.0] * n)
                costs(solve(chain, np.full(dim, 0.5), method=name))
                chain.pose_from_angles(chain.rest_pose().angles())
            if robots and solver.kernel_all is not None:
                arm = _small_arm()
                frame = arm.tip_frame(np.full(6, 0.3))
                for goal in (frame[:3, :3], frame[:3, :3] * (1 + 1e-12)):  # both paths
                    solve(arm, frame[:3, 3], method=name, orientation=goal)
                warm_held(arm)  # 7-joint arms: one joint held, the six others solved
            if robots and solver.kernel_general is not None:
                arm = _small_robot()
                for orientation in (None, np.eye(3)):
                    sol = solve(arm, (0.2, 0.1, 0.6), method=name, orientation=orientation)
                    costs(sol)


def _small_arm() -> Robot:
    """Six revolute joints as a UR arm's (three parallel axes): the argument types of the
    analytic solver's kernel."""
    z, y = (0.0, 0.0, 1.0), (0.0, 1.0, 0.0)
    xyz = [(0, 0, 0.1), (0, 0.1, 0), (0.4, 0, 0), (0.4, 0, 0), (0, 0.1, 0), (0, 0, 0.1)]
    return Robot(
        joint_names=tuple(f"j{i}" for i in range(6)),
        kinds=("revolute",) * 6,
        parents=np.arange(-1, 5),
        origin_xyz=np.array(xyz, dtype=np.float64),
        origin_rot=np.tile(np.eye(3), (6, 1, 1)),
        axes=np.array([z, y, y, y, z, y]),
        lo=np.full(6, -np.pi),
        hi=np.full(6, np.pi),
        tip_names=("tip",),
        tip_parents=np.array([5]),
        tip_xyz=np.array([[0.0, 0.1, 0.0]]),
        tip_rot=np.eye(3)[None],
    )


def _small_robot() -> Robot:
    """Three joints, one of each kind: the argument types of every robot's kernels."""
    inf = np.inf
    return Robot(
        joint_names=("a", "b", "c"),
        kinds=("revolute", "continuous", "prismatic"),
        parents=np.array([-1, 0, 1]),
        origin_xyz=np.array([[0.0, 0.0, 0.0], [0.0, 0.0, 0.5], [0.0, 0.0, 0.5]]),
        origin_rot=np.tile(np.eye(3), (3, 1, 1)),
        axes=np.array([[0.0, 0.0, 1.0], [0.0, 1.0, 0.0], [0.0, 0.0, 1.0]]),
        lo=np.array([-2.0, -inf, 0.0]),
        hi=np.array([2.0, inf, 0.2]),
        tip_names=("tip",),
        tip_parents=np.array([2]),
        tip_xyz=np.array([[0.0, 0.0, 0.3]]),
        tip_rot=np.eye(3)[None],
    )
