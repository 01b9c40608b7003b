"""method="auto" on robots: the analytic solver where the arm decomposes and the target has an
orientation, dls elsewhere; the verdicts when the analytic solver does not reach (out of reach,
reachable only outside the limits); Solution.method / requested."""

from __future__ import annotations

import dataclasses
import math

import numpy as np
import pytest

import geoik as ik
from geoik.kinematics import angle_between
from geoik.robots.urdf import load_example
from geoik.solvers.auto import ROBOT_SUMMARY, robot_fallback, robot_plan

pytest.importorskip("yourdfpy")

ANALYTIC_ARMS = ("ur5", "z1", "kinova", "talos_arm", "panda", "xarm7")


def _poses(robot: ik.Robot, seed: int, count: int) -> list[tuple[np.ndarray, np.ndarray]]:
    rng = np.random.default_rng([seed, robot.n])
    frames = [robot.tip_frame(q) for q in robot.random_angles(rng, count)]
    return [(f[:3, 3].copy(), f[:3, :3].copy()) for f in frames]


def _check(sol: ik.Solution, robot: ik.Robot, target: np.ndarray, rot: np.ndarray | None) -> None:
    """The invariants of any robot solution: finite joint values inside the limits, frame and
    errors equal to forward kinematics of them, REACHED exactly when within both tolerances."""
    q = np.asarray(sol.angles)
    assert np.all(np.isfinite(q)) and math.isfinite(sol.error)
    assert np.all(q >= robot.lo - 1e-12) and np.all(q <= robot.hi + 1e-12)
    frame = robot.tip_frame(q)
    np.testing.assert_allclose(sol.frame, frame, atol=1e-12)
    assert sol.error == pytest.approx(float(np.linalg.norm(frame[:3, 3] - target)), abs=1e-12)
    if rot is None:
        assert sol.angle_error is None
        reached = sol.error <= sol.tol
    else:
        assert sol.angle_error is not None and math.isfinite(sol.angle_error)
        assert sol.angle_error == pytest.approx(angle_between(rot, frame[:3, :3]), abs=1e-9)
        reached = sol.error <= sol.tol and sol.angle_error <= sol.angle_tol
    assert (sol.status is ik.Status.REACHED) == reached
    assert sol.requested == "auto"


@pytest.mark.parametrize("name", ANALYTIC_ARMS)
def test_auto_answers_oriented_targets_by_the_analytic_solver_to_1e_9(name):
    robot = load_example(name)
    assert robot_plan(robot, True) == ("analytic", "dls")
    for p, r in _poses(robot, 31, 6):
        sol = ik.solve(robot, p, orientation=r)  # method="auto", the default
        _check(sol, robot, p, r)
        assert sol.method == "analytic" and sol.status is ik.Status.REACHED
        assert sol.error <= 1e-9 and sol.angle_error is not None and sol.angle_error <= 1e-9


def test_auto_keeps_the_solution_nearest_the_start():
    robot = load_example("ur5")
    (p, r), *_ = _poses(robot, 32, 1)
    for start in robot.random_angles(np.random.default_rng(5), 3):
        every = ik.solve_all(robot, p, orientation=r, start=start)
        sol = ik.solve(robot, p, orientation=r, start=start)
        np.testing.assert_allclose(sol.angles, every.angles[0], atol=1e-12)


@pytest.mark.parametrize("name", ["ur5", "panda", "so100"])
def test_position_only_targets_go_to_dls(name):
    robot = load_example(name)
    assert robot_plan(robot, False) == ("dls",)
    for p, _ in _poses(robot, 33, 3):
        sol = ik.solve(robot, p)
        _check(sol, robot, p, None)
        assert sol.method == "dls"
    short = ik.solve(robot, (0.3, 0.2, 0.4), max_iter=3)  # dls's budget: auto passes it on
    assert short.method == "dls" and short.iterations <= 3


def test_an_arm_without_a_family_goes_to_dls():
    robot = load_example("allegro").with_tips("link_15.0_tip")  # the thumb: no closed form
    assert robot.analytic_plan().code == 0 and robot_plan(robot, True) == ("dls",)
    for p, r in _poses(robot, 34, 3):
        sol = ik.solve(robot, p, orientation=r)
        _check(sol, robot, p, r)
        assert sol.method == "dls"


def test_several_tips_and_prismatic_joints_go_to_dls():
    hand = load_example("allegro")
    assert robot_plan(hand, True) == ("dls",)
    slider = ik.Robot(
        joint_names=("a", "b", "c"),
        kinds=("revolute", "revolute", "prismatic"),
        parents=np.array([-1, 0, 1]),
        origin_xyz=np.array([[0.0, 0.0, 0.0], [0.0, 0.0, 0.5], [0.0, 0.0, 0.5]]),
        origin_rot=np.tile(np.eye(3), (3, 1, 1)),
        axes=np.array([[0.0, 0.0, 1.0], [0.0, 1.0, 0.0], [0.0, 0.0, 1.0]]),
        lo=np.array([-2.0, -2.0, 0.0]),
        hi=np.array([2.0, 2.0, 0.2]),
        tip_names=("tip",),
        tip_parents=np.array([2]),
        tip_xyz=np.array([[0.0, 0.0, 0.3]]),
        tip_rot=np.eye(3)[None],
    )
    assert robot_plan(slider, True) == ("dls",)
    f = slider.tip_frame([0.3, 0.4, 0.1])
    sol = ik.solve(slider, f[:3, 3], orientation=f[:3, :3])
    _check(sol, slider, f[:3, 3], f[:3, :3])
    assert sol.method == "dls"


@pytest.mark.parametrize("name", ["ur5", "kinova"])
def test_out_of_reach_is_closest_by_the_closed_form(name):
    """A closed form finds every solution, so an empty answer proves the pose out of reach:
    CLOSEST, with the least-squares pose inside the limits."""
    robot = load_example(name)
    rot = np.diag([1.0, -1.0, -1.0])
    for target in ([3.0, 0.0, 0.2], [0.0, -2.5, 1.0]):
        p = np.array(target)
        assert ik.solve_all(robot, p, orientation=rot).status is ik.SetStatus.OUT_OF_REACH
        sol = ik.solve(robot, p, orientation=rot)
        _check(sol, robot, p, rot)
        assert sol.method == "analytic" and sol.status is ik.Status.CLOSEST
        assert sol.error > sol.tol
        dls = ik.solve(robot, p, orientation=rot, method="dls", max_iter=50)
        assert dls.status is not ik.Status.REACHED


def test_a_searched_or_seven_joint_arm_never_claims_closest():
    """The 7-joint search samples the held joint: its empty answer proves nothing, so auto
    hands the pose to dls, whose verdict is never CLOSEST."""
    robot = load_example("panda")
    p, rot = np.array([2.0, 0.0, 0.5]), np.eye(3)
    sol = ik.solve(robot, p, orientation=rot, max_iter=50)
    _check(sol, robot, p, rot)
    assert sol.method == "dls" and sol.status in (ik.Status.MAX_ITERATIONS, ik.Status.STALLED)
    assert robot_fallback(robot, ik.Status.CLOSEST)
    assert not robot_fallback(load_example("ur5"), ik.Status.CLOSEST)


def _narrowed(robot: ik.Robot, joint: int, lo: float, hi: float) -> ik.Robot:
    lows, highs = robot.lo.copy(), robot.hi.copy()
    lows[joint], highs[joint] = lo, hi
    return dataclasses.replace(robot, lo=lows, hi=highs, _cache={})


def test_reachable_only_outside_the_limits_gives_dls_within_the_limits():
    """The pose of a shoulder pan at 1 rad, on a UR5 whose pan is held within +-0.5 rad: every
    exact solution breaks that limit, so auto answers with dls's pose inside the limits, not
    REACHED, where method="analytic" raises a LimitError."""
    free = load_example("ur5")
    robot = _narrowed(free, 0, -0.5, 0.5)
    q = np.array([1.0, -1.2, 1.4, -0.8, 1.1, 0.3])
    f = free.tip_frame(q)
    p, rot = f[:3, 3], f[:3, :3]
    assert ik.solve_all(robot, p, orientation=rot).status is ik.SetStatus.OUTSIDE_LIMITS
    with pytest.raises(ik.LimitError):
        ik.solve(robot, p, orientation=rot, method="analytic")
    sol = ik.solve(robot, p, orientation=rot, max_iter=60)
    _check(sol, robot, p, rot)
    assert sol.method == "dls" and sol.status is not ik.Status.REACHED
    assert robot_fallback(robot, None)


def test_auto_checks_dls_options_and_start_whichever_solver_answers():
    robot = load_example("ur5")
    (p, r), *_ = _poses(robot, 35, 1)
    with pytest.raises(ik.InvalidOptionError) as err:
        ik.solve(robot, p, orientation=r, max_iter=0)
    assert err.value.argument == "max_iter"
    with pytest.raises(ik.InvalidOptionError):
        ik.solve(robot, p, orientation=r, nosuch=1)
    with pytest.raises(ik.InvalidPoseError) as perr:
        ik.solve(robot, p, orientation=r, start=np.full(6, 100.0))
    assert perr.value.argument.startswith("start")


def test_method_analytic_reports_reached_only_within_tol():
    """The default tolerance of method="analytic" is the robots' 1e-4 m: a pose out of reach
    by centimetres is CLOSEST, never REACHED."""
    robot = load_example("ur5")
    rot = np.eye(3)
    for x in (1.0, 1.1):
        sol = ik.solve(robot, (x, 0.0, 0.3), orientation=rot, method="analytic")
        assert sol.tol == 1e-4 and sol.error > 1e-3
        assert sol.status is ik.Status.CLOSEST


def test_the_summary_names_both_solvers():
    assert "analytic" in ROBOT_SUMMARY and "dls" in ROBOT_SUMMARY


def test_a_five_joint_arm_gets_the_nearest_attainable_orientation_from_auto():
    robot = load_example("so100")
    assert robot_plan(robot, True) == ("analytic", "dls")
    for p, r in _poses(robot, 35, 3):
        sol = ik.solve(robot, p, orientation=r)
        _check(sol, robot, p, r)
        assert sol.method == "analytic" and sol.status is ik.Status.REACHED
    # an orientation the arm cannot take at a position it reaches: the position exact, the
    # orientation the nearest within the limits, said as CLOSEST (no dls attempt after it)
    (p, r), *_ = _poses(robot, 36, 1)
    tilted = r @ np.array([[1.0, 0.0, 0.0], [0.0, 0.0, -1.0], [0.0, 1.0, 0.0]])
    sol = ik.solve(robot, p, orientation=tilted)
    _check(sol, robot, p, tilted)
    every = ik.solve_all(robot, p, orientation=tilted)
    assert every.status is ik.SetStatus.NEAREST_ORIENTATION
    assert sol.method == "analytic" and sol.status is ik.Status.CLOSEST
    assert sol.error <= 1e-9 and sol.angle_error == pytest.approx(every.errors[0, 1], abs=1e-9)
