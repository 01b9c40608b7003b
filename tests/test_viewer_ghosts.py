"""The other solutions the viewer shows as ghost arms: the ``others`` entry of a ``robot_solve``
reply (every solution of the pose but the arm's own, each on the pose and within the limits,
placed link by link), a solve from joint values the page picks (``start``), and the reasons a
robot shows none."""

from __future__ import annotations

import math

import numpy as np
import pytest

pytest.importorskip("yourdfpy", reason="robots need the robots extra")

import geoik as ik  # noqa: E402
from geoik.errors import GeoIKError, ProtocolError  # noqa: E402
from geoik.robots.urdf import EXAMPLES, example_path  # noqa: E402
from geoik.viewer import modes  # noqa: E402
from geoik.viewer.ghosts import SAME_SOLUTION, unavailable  # noqa: E402
from geoik.viewer.models import load_robot, quaternion  # noqa: E402


def _model(name):
    return load_robot(example_path(name), list(EXAMPLES[name][1]), f"--robot {name}")


@pytest.fixture(scope="module")
def ur5():
    return _model("ur5")


def _msg(frame, **more):
    return dict({"target": frame[:3, 3].tolist(), "orientation": quaternion(frame[:3, :3])}, **more)


def _angle(a, b):
    """The angle between two rotations (radians; precise near 0: |a - b| = 2 sqrt(2) sin(t/2))."""
    return 2 * math.asin(min(1.0, float(np.linalg.norm(a - b)) / (2 * math.sqrt(2))))


def _turns(a, b):
    """Joint differences modulo a turn, (k, n) or (n,): the same arm pose whatever turn each
    joint is on."""
    d = np.asarray(a) - np.asarray(b)
    return np.abs(np.remainder(d + math.pi, 2 * math.pi) - math.pi)


def test_the_reply_holds_every_other_solution_on_the_pose(ur5):
    robot = ur5.robot
    rng = np.random.default_rng(7)
    for _ in range(4):
        frame = robot.tip_frame(robot.random_angles(rng))
        r = modes.robot_solve_reply(_msg(frame, others=True, reset=True), ur5, {})
        arm = np.array(r["angles"])
        every = ik.solve_all(robot, frame[:3, 3], frame[:3, :3], start=arm)
        others = r["others"]
        assert others["solutions"] == len(every) >= 1 and others["reason"] is None
        assert others["own"] is (r["status"] == "REACHED")
        assert len(others["ghosts"]) == len(every) - others["own"]
        for g in others["ghosts"]:
            q = np.array(g["angles"])
            assert np.isfinite(q).all()
            assert np.all(robot.lo - 1e-9 <= q) and np.all(q <= robot.hi + 1e-9)
            f = robot.tip_frame(q)
            assert math.dist(f[:3, 3].tolist(), frame[:3, 3].tolist()) <= 1e-8
            assert _angle(f[:3, :3], frame[:3, :3]) <= 1e-8
            assert g["poses"] == ur5.link_poses(q)  # drawn link by link where FK puts them
            assert _turns(q, arm).max() > SAME_SOLUTION  # never the arm's own
        # the arm's own solution is one of the set
        assert _turns(every.angles, arm).max(axis=1).min() <= SAME_SOLUTION


def test_a_solve_from_a_picked_solution_stays_on_it(ur5):
    robot = ur5.robot
    frame = robot.tip_frame(np.array([0.4, -1.1, 1.3, -0.6, 0.9, 0.3]))
    previous: dict = {}
    r = modes.robot_solve_reply(_msg(frame, others=True), ur5, previous)
    ghost = r["others"]["ghosts"][-1]["angles"]
    r2 = modes.robot_solve_reply(_msg(frame, others=True, start=ghost), ur5, previous)
    assert r2["status"] == "REACHED"
    np.testing.assert_allclose(r2["angles"], ghost, atol=1e-9)
    assert r2["poses"] == ur5.link_poses(np.array(r2["angles"]))
    # the arm's former solution is a ghost now
    former = [g["angles"] for g in r2["others"]["ghosts"]]
    assert _turns(former, r["angles"]).max(axis=1).min() <= SAME_SOLUTION
    # the next frame starts from the picked solution: a small move stays on its branch
    moved = frame.copy()
    moved[0, 3] += 0.005
    r3 = modes.robot_solve_reply(_msg(moved), ur5, previous)
    every = ik.solve_all(robot, frame[:3, 3], frame[:3, :3]).angles
    nearest = every[np.argmin(_turns(every, r3["angles"]).max(axis=1))]
    assert _turns(nearest, ghost).max() <= 1e-9


def test_robots_without_a_finite_set_say_why(ur5):
    panda = _model("panda")
    assert "continuum" in unavailable(panda.robot)
    reply = modes.robot_reply({}, panda)
    assert reply["others"]["available"] is False and "continuum" in reply["others"]["reason"]
    assert modes.robot_reply({}, ur5)["others"] == {"available": True, "reason": None}
    frame = panda.robot.tip_frame(panda.robot.rest_angles())
    r = modes.robot_solve_reply(_msg(frame, others=True), panda, {})
    assert r["others"]["ghosts"] == [] and "continuum" in r["others"]["reason"]
    # a position alone has endless solutions; none asked: none computed
    r = modes.robot_solve_reply({"target": [0.3, 0.2, 0.4], "others": True}, ur5, {})
    assert r["others"]["ghosts"] == [] and "orientation" in r["others"]["reason"]
    assert modes.robot_solve_reply({"target": [0.3, 0.2, 0.4]}, ur5, {})["others"] is None
    # several tips, and a family without a closed form (the Allegro hand's thumb alone)
    allegro = _model("allegro").robot
    assert "tips" in unavailable(allegro)
    assert "no closed form" in unavailable(allegro.with_tips("link_15.0_tip"))


def test_a_five_joint_arm_shows_the_poses_at_the_nearest_orientation():
    so100 = _model("so100")
    robot = so100.robot
    assert unavailable(robot) is None
    q = robot.random_angles(np.random.default_rng(3), 1)[0]  # within the limits
    frame = robot.tip_frame(q)
    r = modes.robot_solve_reply(_msg(frame, others=True), so100, {})
    assert r["others"]["nearest"] is False and r["others"]["reason"] is None
    tilted = frame.copy()
    tilted[:3, :3] = frame[:3, :3] @ np.array([[1.0, 0, 0], [0, 0, -1.0], [0, 1.0, 0]])
    r = modes.robot_solve_reply(_msg(tilted, others=True), so100, {})
    assert r["others"]["nearest"] is True and r["others"]["solutions"] >= 1
    for ghost in r["others"]["ghosts"]:  # each at the position exactly, inside the limits
        g = np.asarray(ghost["angles"])
        assert np.all(g >= robot.lo - 1e-12) and np.all(g <= robot.hi + 1e-12)
        assert np.linalg.norm(robot.tip_frame(g)[:3, 3] - tilted[:3, 3]) <= 1e-9


def test_out_of_reach_has_no_ghosts_and_says_so(ur5):
    frame = np.eye(4)
    frame[:3, 3] = (3.0, 0.0, 0.5)
    r = modes.robot_solve_reply(_msg(frame, others=True), ur5, {})
    assert r["others"]["solutions"] == 0 and r["others"]["ghosts"] == []
    assert "out of reach" in r["others"]["reason"]


def test_bad_fields_are_named(ur5):
    frame = ur5.robot.tip_frame(ur5.robot.rest_angles())
    with pytest.raises(ProtocolError) as info:
        modes.robot_solve_reply(_msg(frame, others="yes"), ur5, {})
    assert info.value.field == "others"
    for start in ([math.nan] * 6, [0.0] * 5, "up", [10.0] * 6):
        with pytest.raises(GeoIKError) as info:
            modes.robot_solve_reply(_msg(frame, start=start), ur5, {})
        assert info.value.argument.startswith("start"), start
