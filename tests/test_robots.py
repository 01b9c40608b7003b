"""Robots: URDF loading, forward kinematics against yourdfpy's, solving with position and
orientation targets, and the typed errors, on the real robots of example-robot-data."""

from __future__ import annotations

import dataclasses
import math
from pathlib import Path

import numpy as np
import pytest

import geoik as ik
from geoik.kinematics import angle_between
from geoik.robots.urdf import ARMS, EXAMPLES, example_path, load_example
from geoik.solvers import REGISTRY
from tests.conftest import spy_work_hints

yourdfpy = pytest.importorskip("yourdfpy")

GENERAL = sorted(name for name, s in REGISTRY.items() if s.kernel_general is not None)

SYNTHETIC = """<?xml version="1.0"?>
<robot name="synthetic">
  <link name="base"/><link name="a"/><link name="b"/><link name="c"/><link name="d"/>
  <link name="e"/><link name="tool"/><link name="side"/>
  <joint name="j1" type="revolute">
    <parent link="base"/><child link="a"/>
    <origin xyz="0.1 -0.2 0.3" rpy="0.3 -0.2 1.1"/><axis xyz="0 0.6 0.8"/>
    <limit lower="-2.0" upper="1.5" effort="1" velocity="1"/>
  </joint>
  <joint name="fixed1" type="fixed">
    <parent link="a"/><child link="b"/><origin xyz="0.25 0 0.05" rpy="0 1.2 0"/>
  </joint>
  <joint name="slide" type="prismatic">
    <parent link="b"/><child link="c"/>
    <origin xyz="0 0.1 0" rpy="-0.4 0 0.2"/><axis xyz="1 1 0"/>
    <limit lower="-0.1" upper="0.3" effort="1" velocity="1"/>
  </joint>
  <joint name="spin" type="continuous">
    <parent link="c"/><child link="d"/><origin xyz="0 0 0.2" rpy="0 0 0"/>
    <axis xyz="1 0 0"/>
  </joint>
  <joint name="j4" type="revolute">
    <parent link="d"/><child link="e"/><origin xyz="0.3 0 0" rpy="0.1 0.2 0.3"/>
    <axis xyz="0 0 -1"/><limit lower="-1.0" upper="2.5" effort="1" velocity="1"/>
  </joint>
  <joint name="tool_joint" type="fixed">
    <parent link="e"/><child link="tool"/><origin xyz="0.05 0.02 0.1" rpy="0.5 0 0"/>
  </joint>
  <joint name="side_joint" type="revolute">
    <parent link="a"/><child link="side"/><origin xyz="0 0.2 0"/><axis xyz="0 0 1"/>
    <limit lower="-1" upper="1" effort="1" velocity="1"/>
  </joint>
</robot>
"""


@pytest.fixture(scope="module")
def synthetic(tmp_path_factory) -> Path:
    path = tmp_path_factory.mktemp("urdf") / "synthetic.urdf"
    path.write_text(SYNTHETIC)
    return path


def _yourdfpy_tips(path: Path, robot: ik.Robot, configs: np.ndarray) -> np.ndarray:
    """yourdfpy's own forward kinematics: (count, k, 4, 4) tip transforms in the base frame."""
    urdf = yourdfpy.URDF.load(str(path), load_meshes=False)
    out = np.empty((len(configs), robot.k, 4, 4))
    for c, q in enumerate(configs):
        urdf.update_cfg(dict(zip(robot.joint_names, q, strict=True)))
        for i, tip in enumerate(robot.tip_names):
            out[c, i] = urdf.get_transform(tip, robot.base_name)
    return out


@pytest.mark.slow
@pytest.mark.parametrize("name", list(EXAMPLES))
def test_forward_kinematics_equals_yourdfpy(name):
    """1000 random in-limit configurations: every tip's frame equals yourdfpy's to 1e-9."""
    robot = load_example(name)
    configs = robot.random_angles(np.random.default_rng([7, len(name)]), 1000)
    ours = np.array([robot.tip_frames(q) for q in configs])
    theirs = _yourdfpy_tips(example_path(name), robot, configs)
    assert np.abs(ours - theirs).max() <= 1e-9


def test_forward_kinematics_of_every_joint_kind(synthetic):
    """Offsets with rpy, a non-unit axis, fixed joints folded, prismatic and continuous joints,
    two tips on two branches: equal to yourdfpy's forward kinematics."""
    robot = ik.load_urdf(synthetic, tips=["tool", "side"])
    assert robot.joint_names == ("j1", "slide", "spin", "j4", "side_joint")
    assert robot.kinds == ("revolute", "prismatic", "continuous", "revolute", "revolute")
    assert robot.lo[2] == -np.inf and robot.hi[2] == np.inf
    configs = robot.random_angles(np.random.default_rng(3), 200)
    configs[:, 2] *= 3.0  # continuous: any angle
    theirs = _yourdfpy_tips(synthetic, robot, configs)
    # yourdfpy slides a prismatic joint by q times its axis as written; geoik normalises it
    # (URDF asks for unit axes), so compare at the joint value scaled accordingly
    ours = np.array([robot.tip_frames(q * [1, math.sqrt(2), 1, 1, 1]) for q in configs])
    assert np.abs(ours - theirs).max() <= 1e-9


def test_the_pose_a_solve_reports_and_its_errors(synthetic):
    """``pose_errors``: the points and tip frame of ``pose_of`` (the first tip), with the tip's
    distance from a target and its angle from an orientation (None without one); every joint
    kind, a prismatic joint's point after its slide."""
    robot = ik.load_urdf(synthetic, tips=["tool", "side"])
    rng = np.random.default_rng(4)
    for q in robot.random_angles(rng, 20):
        target = rng.normal(size=3)
        goal = robot.tip_frame(robot.random_angles(rng), tip="tool")[:3, :3]
        points, frame, error, angle = robot.pose_errors(q, target, goal)
        np.testing.assert_array_equal(frame, robot.tip_frame(q, tip="tool"))
        np.testing.assert_array_equal(points, robot.joint_positions(q))
        assert error == pytest.approx(np.linalg.norm(frame[:3, 3] - target), rel=1e-15)
        assert angle == pytest.approx(float(angle_between(goal, frame[:3, :3])), abs=1e-15)
        assert robot.pose_errors(q, target, None)[3] is None


def test_a_robot_motion_s_work_hints_count_its_samples(synthetic, monkeypatch):
    """The work hints of a robot's replays (:mod:`geoik.jit`: whether a call may run as plain
    Python) follow the samples they take, a prismatic joint's travel counted over the robot's
    size as the kernels count it: a trace's its samples (as many as it returns, growing as
    the step shrinks), the costs' each moving step's first samples (``samples``)."""
    from geoik.motion.replay import STILL, samples
    from geoik.robots import motion

    hints = spy_work_hints(monkeypatch, motion)
    robot = ik.load_urdf(synthetic, tips=["tool"])
    rng = np.random.default_rng(6)
    keys = robot.random_angles(rng, 12)
    keys[5] = keys[4]  # a step that moves nothing: no samples for the costs
    moving = motion.RobotMotion(robot, keys)
    m = robot.n
    for deg in (2.0, 0.2):
        trace = moving.trace(max_step_deg=deg)
        assert hints[-1] == int(len(trace) * m * motion.SAMPLE_WORK)
    assert hints[-1] > 5 * hints[-2]
    moving.measure()
    moves = np.abs(np.diff(keys, axis=0))
    moves[:, list(robot.kinds).index("prismatic")] /= robot.total_length
    first = sum(samples(x) for x in moves.max(axis=1) if x > STILL)
    assert hints[-1] == int(first * m * motion.SAMPLE_WORK)
    with pytest.raises(ik.InvalidOptionError, match="max_step_deg.*degrees above 0"):
        moving.trace(max_step_deg=0.0)


def test_default_tips_base_and_paths(synthetic):
    robot = ik.load_urdf(synthetic)
    assert robot.tip_names == ("tool", "side")
    assert robot.base_name == "base"
    np.testing.assert_array_equal(robot.path("side"), [0, 4])
    arm = ik.load_urdf(synthetic, tip="tool", base="b")
    assert arm.joint_names == ("slide", "spin", "j4") and arm.base_name == "b"
    one = robot.with_tips("tool")
    assert one.joint_names == ("j1", "slide", "spin", "j4")
    q = one.random_angles(np.random.default_rng(0))
    full = np.append(q, 0.3)
    np.testing.assert_allclose(one.tip_frame(q), robot.tip_frames(full)[0], atol=1e-12)


def test_load_errors(synthetic, tmp_path):
    with pytest.raises(ik.URDFError, match="no such file"):
        ik.load_urdf(tmp_path / "missing.urdf")
    bad = tmp_path / "bad.urdf"
    bad.write_text(SYNTHETIC.replace("</robot>", ""))
    with pytest.raises(ik.URDFError, match="not well-formed XML"):
        ik.load_urdf(bad)
    with pytest.raises(ik.URDFError, match=r"tip: expected a link of the URDF .*'nowhere'"):
        ik.load_urdf(synthetic, tip="nowhere")
    with pytest.raises(ik.URDFError, match="base"):
        ik.load_urdf(synthetic, base="nowhere")
    with pytest.raises(ik.URDFError, match="does not hang from the base"):
        ik.load_urdf(synthetic, tip="side", base="b")
    with pytest.raises(ik.URDFError, match="tip, tips"):
        ik.load_urdf(synthetic, tip="tool", tips=["side"])
    with pytest.raises(ik.URDFError, match="cannot move"):
        ik.load_urdf(synthetic, tip="a", base="a")
    floating = tmp_path / "floating.urdf"
    floating.write_text(SYNTHETIC.replace('name="j4" type="revolute"', 'name="j4" type="floating"'))
    with pytest.raises(ik.UnsupportedJointError, match="'j4'.*floating"):
        ik.load_urdf(floating, tip="tool")
    ik.load_urdf(floating, tip="side")  # off the path: ignored


def test_mimic_joint_on_the_path_is_refused():
    path = example_path("panda")
    with pytest.raises(ik.UnsupportedJointError, match="panda_finger_joint2.*mimics"):
        ik.load_urdf(path, tip="panda_rightfinger")
    arm = ik.load_urdf(path, tip="panda_hand")  # the mimic joint is off this path
    assert arm.n == 7


def test_default_tips_leave_out_branches_below_mimic_joints():
    """The Panda's right finger mimics the left: with no tip named, the model ends at the hand
    and the left finger (before, the default tips ran into the mimic joint and failed)."""
    panda = ik.load_urdf(example_path("panda"))
    assert set(panda.tip_names) == {"panda_hand_tcp", "panda_leftfinger"}
    assert panda.n == 8  # seven arm joints and the left finger's
    with pytest.raises(ik.UnsupportedJointError, match="panda_finger_joint2.*mimics"):
        ik.load_urdf(example_path("panda"), tips=["panda_hand_tcp", "panda_rightfinger"])


def test_a_fixed_joint_naming_a_joint_to_mimic_stays_fixed():
    """Talos's gripper links hang from fixed joints that carry a mimic element (the file's
    way of saying they follow the gripper's motor): they move nothing, so they load, default
    tips included, and forward kinematics through them equals yourdfpy's."""
    path = example_path("talos_arm")
    talos = ik.load_urdf(path)
    assert "gripper_left_fingertip_1_link" in talos.tip_names
    assert "gripper_left_joint" in talos.joint_names
    tip = ik.load_urdf(path, tip="gripper_left_fingertip_3_link")
    assert tip.n == 6  # the arm's joints; the mimicking fixed joints add none
    configs = tip.random_angles(np.random.default_rng(4), 50)
    ours = np.array([tip.tip_frames(q) for q in configs])
    np.testing.assert_allclose(ours, _yourdfpy_tips(path, tip, configs), atol=1e-9)


@pytest.mark.parametrize("name", ARMS)
def test_every_arm_loads_with_its_tip(name):
    joints = {"so100": 5, "panda": 7, "xarm7": 7}.get(name, 6)
    robot = load_example(name)
    assert robot.n == joints and robot.tip_names == EXAMPLES[name][1]
    assert all(kind in ("revolute", "continuous") for kind in robot.kinds)
    configs = robot.random_angles(np.random.default_rng([3, len(name)]), 20)
    ours = np.array([robot.tip_frames(q) for q in configs])
    np.testing.assert_allclose(ours, _yourdfpy_tips(example_path(name), robot, configs), atol=1e-9)


def test_the_viewer_offers_every_example():
    from geoik.commands.view import ROBOTS

    assert tuple(EXAMPLES) == ROBOTS


def _reachable(robot: ik.Robot, seed: int, count: int) -> list[tuple[np.ndarray, np.ndarray]]:
    """Targets made by forward kinematics of random in-limit configurations: (position, R)."""
    frames = [robot.tip_frame(q) for q in robot.random_angles(np.random.default_rng(seed), count)]
    return [(f[:3, 3], f[:3, :3]) for f in frames]


def check_robot_solution(sol: ik.Solution, robot: ik.Robot, target, orientation=None) -> None:
    """The invariants of a robot's solution."""
    q = sol.angles
    assert q.shape == (robot.n,) and np.all(np.isfinite(q))
    assert np.all(q >= robot.lo - 1e-12) and np.all(q <= robot.hi + 1e-12)
    frame = robot.tip_frame(q)
    np.testing.assert_allclose(sol.frame, frame, atol=1e-12)
    np.testing.assert_allclose(sol.positions, robot.joint_positions(q), atol=1e-12)
    assert sol.error == pytest.approx(float(np.linalg.norm(frame[:3, 3] - target)), abs=1e-12)
    if orientation is None:
        assert sol.angle_error is None
        reached = sol.error <= sol.tol
    else:
        assert sol.angle_error == pytest.approx(angle_between(orientation, frame[:3, :3]), abs=1e-9)
        reached = sol.error <= sol.tol and sol.angle_error <= sol.angle_tol
    assert (sol.status is ik.Status.REACHED) == reached
    assert sol.status is not ik.Status.CLOSEST
    keys = sol.motion.keys
    np.testing.assert_array_equal(keys[0], keys[0])
    np.testing.assert_allclose(robot.tip_frame(keys[-1]), frame, atol=1e-9)
    for key in keys:
        assert np.all(key >= robot.lo - 1e-12) and np.all(key <= robot.hi + 1e-12)
    c = ik.costs(sol)
    assert c.rotations_over_5deg >= 0 and math.isfinite(c.rotation_sum_deg)
    moved = float(np.linalg.norm(sol.motion.trace()[-1] - sol.motion.trace()[0]))
    assert math.isfinite(c.path_length) and c.path_length >= moved * (1 - 1e-9) - 1e-12
    assert c.iterations == sol.iterations


@pytest.mark.parametrize("method", GENERAL)
@pytest.mark.parametrize("name", ARMS)
def test_solutions_keep_their_invariants(method, name):
    robot = load_example(name)
    for k, (p, r) in enumerate(_reachable(robot, 11, 4)):
        orientation = r if k % 2 else None
        angle_tol = None if orientation is None else 1e-3
        sol = ik.solve(
            robot, p, method=method, orientation=orientation, tol=1e-4, angle_tol=angle_tol
        )
        check_robot_solution(sol, robot, p, orientation)
    far = ik.solve(robot, [5.0, 0.0, 0.0], method=method, max_iter=20)
    check_robot_solution(far, robot, np.array([5.0, 0.0, 0.0]))
    assert far.status in (ik.Status.MAX_ITERATIONS, ik.Status.STALLED)


@pytest.mark.parametrize("name", ARMS)
def test_dls_reaches_every_reachable_pose(name):
    """Held-out reachable poses (the tip frames of seeded random in-limit configurations, with
    their orientation) of every arm, solved from the rest configuration by dls at its defaults
    (its iteration budget included): every one REACHED, the tip within 1e-4 m and 1e-3 rad by
    forward kinematics, every joint inside its limits (the benchmark measures more poses)."""
    robot = load_example(name)
    for p, r in _reachable(robot, 24, 100):
        sol = ik.solve(robot, p, method="dls", orientation=r, tol=1e-4)
        assert sol.status is ik.Status.REACHED
        frame = robot.tip_frame(sol.angles)
        assert float(np.linalg.norm(frame[:3, 3] - p)) <= 1e-4
        assert angle_between(r, frame[:3, :3]) <= 1e-3
        assert np.all(sol.angles >= robot.lo) and np.all(sol.angles <= robot.hi)


def test_a_joint_spanning_a_turn_passes_its_limit_onto_the_same_angle():
    """The UR5's shoulder pan spans -2 pi .. 2 pi: a target that asks it to turn past -2 pi is
    reached a whole turn back inside its limits, from the start, without a restart."""
    robot = load_example("ur5")
    start = np.array([robot.lo[0] + 0.01, -1.2, 1.4, -0.8, 1.1, 0.3])
    goal = start.copy()
    goal[0] -= 0.2
    frame = robot.tip_frame(goal)
    sol = ik.solve(
        robot, frame[:3, 3], orientation=frame[:3, :3], start=start, tol=1e-6, method="dls"
    )
    assert sol.status is ik.Status.REACHED and sol.iterations <= 10
    assert sol.angles[0] == pytest.approx(goal[0] + 2 * math.pi, abs=1e-4)
    np.testing.assert_allclose(sol.angles[1:], goal[1:], atol=1e-4)
    keys = sol.motion.keys
    assert np.all(keys >= robot.lo) and np.all(keys <= robot.hi)


def test_ccd_reaches_positions_and_improves_orientation():
    robot = load_example("ur5")
    reached = 0
    for p, r in _reachable(robot, 2, 20):
        pos = ik.solve(robot, p, method="ccd", tol=1e-3)
        reached += pos.status is ik.Status.REACHED
        full = ik.solve(robot, p, method="ccd", orientation=r, tol=1e-3, angle_tol=1e-2)
        start = angle_between(r, robot.tip_frame(robot.rest_angles())[:3, :3])
        assert full.angle_error < start
    assert reached >= 18


def test_orientation_forms_agree():
    robot = load_example("kinova")
    ((p, r),) = _reachable(robot, 4, 1)
    w = math.sqrt(max(0.0, 1.0 + np.trace(r))) / 2.0
    quat = [
        w,
        (r[2, 1] - r[1, 2]) / (4 * w),
        (r[0, 2] - r[2, 0]) / (4 * w),
        (r[1, 0] - r[0, 1]) / (4 * w),
    ]
    a = ik.solve(robot, p, orientation=r)
    b = ik.solve(robot, p, orientation=quat)
    np.testing.assert_allclose(a.orientation, b.orientation, atol=1e-9)
    np.testing.assert_allclose(a.angles, b.angles, atol=1e-6)
    assert a.status is ik.Status.REACHED


@pytest.mark.parametrize(
    "orientation",
    [np.eye(3) * 2.0, [1.0, 0.0, 0.0], [0.5, 0.5, 0.5, 0.6], "x", np.diag([1.0, 1.0, -1.0])],
)
def test_bad_orientations_raise_typed_errors(orientation):
    robot = load_example("z1")
    with pytest.raises(ik.InvalidTargetError, match="orientation"):
        ik.solve(robot, [0.3, 0.0, 0.3], orientation=orientation)


def test_bad_inputs_raise_typed_errors():
    robot = load_example("z1")
    with pytest.raises(ik.InvalidOptionError, match="angle_tol"):
        ik.solve(robot, [0.3, 0.0, 0.3], orientation=np.eye(3), angle_tol=0.0)
    with pytest.raises(ik.InvalidPoseError, match="start"):
        ik.solve(robot, [0.3, 0.0, 0.3], start=[0.0] * 5)
    with pytest.raises(ik.InvalidPoseError, match="outside its limits"):
        ik.solve(robot, [0.3, 0.0, 0.3], start=[0.0, -1.0, 0.0, 0.0, 0.0, 0.0])
    with pytest.raises(ik.InvalidTargetError, match="target"):
        ik.solve(robot, [0.3, 0.0])
    with pytest.raises(ik.UnsupportedChainError, match="orientation"):
        ik.solve(ik.Chain.spatial([1.0, 1.0]), [1.0, 0.5, 0.0], orientation=np.eye(3))
    hand = load_example("allegro")
    with pytest.raises(ik.InvalidChainError, match="solve_tree"):
        ik.solve(hand, [0.1, 0.0, 0.1])


@pytest.mark.parametrize("method", sorted(n for n, s in REGISTRY.items() if not s.takes_robots))
def test_other_solvers_say_what_they_need(method):
    robot = load_example("ur5")
    with pytest.raises(ik.UnsupportedChainError, match=rf"'{method}' needs a geoik\.Chain"):
        ik.solve(robot, [0.3, 0.2, 0.4], method=method)
    with pytest.raises(ik.UnsupportedChainError, match="ccd, dls"):
        ik.solve_tree(load_example("allegro"), {"link_3.0_tip": [0.05, 0.0, 0.1]}, method=method)


def test_start_continues_from_a_previous_solution():
    robot = load_example("panda")
    (p, r), (p2, _) = _reachable(robot, 8, 2)
    first = ik.solve(robot, p, orientation=r)
    near = p + [0.01, 0.0, -0.01]
    second = ik.solve(robot, near, orientation=r, start=first)
    np.testing.assert_allclose(second.motion.keys[0], first.angles)
    assert second.status is ik.Status.REACHED and second.iterations <= 10


@pytest.mark.parametrize("method", ["auto", "dls"])
def test_a_start_in_any_form_is_the_same_start(method):
    """A start given as an array, a list, a tuple (of Python or NumPy floats) or a previous
    solution gives the same answer with the same motion; one outside the limits or not finite
    is refused with the same message in every form; one within 1e-9 of a limit is held onto
    it. solve_all sorts alike from every form."""
    robot = load_example("ur5")
    ((p, r),) = _reachable(robot, 3, 1)
    first = ik.solve(robot, p + 0.01, orientation=r, method=method)
    q = first.angles.copy()
    answers = [
        ik.solve(robot, p, orientation=r, start=start, method=method)
        for start in (q, q.tolist(), tuple(q.tolist()), tuple(q), first)
    ]
    for sol in answers[1:]:
        np.testing.assert_array_equal(sol.angles, answers[0].angles)
        np.testing.assert_array_equal(sol.motion.keys, answers[0].motion.keys)
    sets = [ik.solve_all(robot, p, orientation=r, start=s) for s in (q, q.tolist(), first)]
    for other in sets[1:]:
        np.testing.assert_array_equal(other.angles, sets[0].angles)
    outside = q.copy()
    outside[2] = robot.hi[2] + 0.1
    holed = q.copy()
    holed[1] = np.nan
    for bad in (outside, holed):
        messages = set()
        for form in (bad, bad.tolist(), tuple(bad)):
            with pytest.raises(ik.InvalidPoseError) as err:
                ik.solve(robot, p, orientation=r, start=form, method=method)
            messages.add(str(err.value).split(", got")[0])
        assert len(messages) == 1
    edge = q.copy()
    edge[2] = robot.hi[2] + 1e-10
    sol = ik.solve(robot, p, orientation=r, start=edge.tolist(), method=method)
    assert sol.motion.keys[0, 2] == robot.hi[2]


def test_allegro_hand_reaches_four_fingertips():
    """Four fingertip targets from random finger configurations, reached by solve_tree."""
    hand = load_example("allegro")
    assert hand.k == 4 and hand.n == 16
    reached = 0
    for q in hand.random_angles(np.random.default_rng(9), 40):
        frames = hand.tip_frames(q)
        targets = {t: frames[i, :3, 3] for i, t in enumerate(hand.tip_names)}
        sol = ik.solve_tree(hand, targets, tol=1e-4)
        reached += sol.reached
        assert np.all(sol.angles >= hand.lo) and np.all(sol.angles <= hand.hi)
        np.testing.assert_allclose(sol.frames, hand.tip_frames(sol.angles), atol=1e-12)
        for i, t in enumerate(hand.tip_names):
            np.testing.assert_allclose(sol.position(t), sol.frames[i, :3, 3])
            assert (sol.status[t] is ik.Status.REACHED) == (sol.error[t] <= 1e-4)
    assert reached >= 38


def test_command_line_solves_a_urdf(capsys):
    from geoik.commands.cli import main

    path = str(example_path("ur5"))
    args = ["solve", "--urdf", path, "--tip", "tool0", "--target", "0.4,0.2,0.5"]
    assert main([*args, "--orientation", "0,1,0,0", "--json"]) == 0
    import json

    record = json.loads(capsys.readouterr().out)
    assert record["status"] == "REACHED" and record["joint_names"][0] == "shoulder_pan_joint"
    robot = ik.load_urdf(path, tip="tool0")
    frame = robot.tip_frame(record["joint_values"])
    np.testing.assert_allclose(frame[:3, 3], [0.4, 0.2, 0.5], atol=2e-4)
    assert angle_between(np.diag([1.0, -1.0, -1.0]), frame[:3, :3]) <= 1e-3
    assert main(["solve", "--urdf", path, "--tip", "nowhere", "--target", "0.4,0.2,0.5"]) == 2
    assert "--tip: expected a link" in capsys.readouterr().err
    assert main([*args, "--orientation", "0,1,0"]) == 2
    assert "--orientation" in capsys.readouterr().err
    assert main(["methods"]) == 0
    assert "geoik solve --urdf): ccd, dls" in capsys.readouterr().out


def test_default_tips_stop_at_joints_geoik_does_not_solve():
    """The Panda's hand hangs a mimicking finger from the arm: loading without a tip gives the
    arm and what it reaches without it, never an UnsupportedJointError; naming a tip beyond it
    says which joint stops the way. (Talos's gripper joints are fixed joints with a mimic
    element, which load: see test_a_fixed_joint_naming_a_joint_to_mimic_stays_fixed.)"""
    panda = ik.load_urdf(example_path("panda"))
    assert panda.tip_names == ("panda_hand_tcp", "panda_leftfinger")
    assert panda.joint_names[:7] == tuple(f"panda_joint{i}" for i in range(1, 8))
    assert "panda_finger_joint2" not in panda.joint_names
    with pytest.raises(ik.UnsupportedJointError, match="panda_finger_joint2"):
        ik.load_urdf(example_path("panda"), tip="panda_rightfinger")


def test_continuous_joints_come_back_within_minus_pi_and_pi():
    """Every answer's continuous joints lie in (-pi, pi], whatever the start (far past a turn,
    at -pi, beyond the precision of a floor-based wrap), and are the pose the answer reports."""
    robot = load_example("kinova")
    cont = np.flatnonzero(np.array(robot.kinds) == "continuous")
    assert cont.tolist() == [0, 3, 5]
    rng = np.random.default_rng(11)
    starts = [None, [7.0, 2, 2, -9.5, 2, 3 * math.pi], [-math.pi, 2, 2, math.pi, 2, -math.pi]]
    starts += [[1e300, 2, 2, -1e20, 2, 1e15 + 0.3]]
    for start in starts:
        for method in GENERAL:
            q = robot.random_angles(rng)
            frame = robot.tip_frames(q)[0]
            for orientation in (None, frame[:3, :3]):
                sol = ik.solve(robot, frame[:3, 3], method, start=start, orientation=orientation)
                tree = ik.solve_tree(robot, {robot.tip_names[0]: frame[:3, 3]}, method, start=start)
                for values, reported in ((sol.angles, sol.frame), (tree.angles, tree.frames[0])):
                    assert np.all(values[cont] > -math.pi) and np.all(values[cont] <= math.pi)
                    assert np.all(values >= robot.lo) and np.all(values <= robot.hi)
                    np.testing.assert_allclose(robot.tip_frames(values)[0], reported, atol=1e-12)
        if start is not None:  # a start already at the target: returned as it is, wrapped
            at = robot.tip_frames(start)[0]
            sol = ik.solve(robot, at[:3, 3], start=start)
            assert sol.iterations == 0 and np.all(np.abs(sol.angles[cont]) <= math.pi)
            np.testing.assert_allclose(robot.tip_frames(sol.angles)[0], at, atol=1e-12)


def test_the_command_line_answers_wrapped_continuous_joints(capsys):
    import json

    from geoik.commands.cli import main

    robot = load_example("kinova")
    for q in robot.random_angles(np.random.default_rng(5), 4):
        target = ",".join(f"{v:.9g}" for v in robot.tip_frames(q)[0, :3, 3])
        argv = ["solve", "--urdf", str(example_path("kinova")), "--tip", robot.tip_names[0]]
        assert main([*argv, "--target", target, "--json"]) == 0
        values = np.array(json.loads(capsys.readouterr().out)["joint_values"])
        assert np.all(np.abs(values[[0, 3, 5]]) <= math.pi)


def _leaves(value):
    """The arrays and values of a model field (tuples of arrays flattened)."""
    if isinstance(value, tuple | list):
        return [leaf for v in value for leaf in _leaves(v)]
    return [value]


@pytest.mark.parametrize("name", list(EXAMPLES))
def test_a_urdf_is_read_into_the_model_yourdfpy_s_parse_gives(name):
    """load_urdf reads the file itself (no yourdfpy, trimesh or SciPy imported): the same
    model, bit for bit, as yourdfpy's parse of the file turned into one by robot_from_urdf,
    on every example robot (fixed joints folded in, mimic joints cut, rpy composed alike)."""
    path = example_path(name)
    tips = EXAMPLES[name][1]
    ours = ik.load_urdf(path, tips=tips)
    parsed = yourdfpy.URDF.load(str(path), load_meshes=False, build_scene_graph=False)
    theirs = ik.robots.urdf.robot_from_urdf(parsed.robot, tips=tips)
    for field in dataclasses.fields(ours):
        if field.name.startswith("_"):
            continue
        mine, other = _leaves(getattr(ours, field.name)), _leaves(getattr(theirs, field.name))
        assert len(mine) == len(other), field.name
        for a, b in zip(mine, other, strict=True):
            if isinstance(a, np.ndarray):
                np.testing.assert_array_equal(a, b, err_msg=field.name)
            else:
                assert a == b, field.name


def test_a_urdf_loads_without_yourdfpy_and_the_viewer_says_what_its_meshes_need(monkeypatch):
    """yourdfpy unimportable: load_urdf reads the file as before; the viewer, which reads a
    robot's meshes with yourdfpy, says to install the robots extra."""
    import sys

    from geoik.viewer.models import load_robot

    path = example_path("ur5")
    before = ik.load_urdf(path, tip="tool0")
    monkeypatch.setitem(sys.modules, "yourdfpy", None)  # import yourdfpy raises ImportError
    robot = ik.load_urdf(path, tip="tool0")
    assert robot.joint_names == before.joint_names
    np.testing.assert_array_equal(
        robot.tip_frame(np.full(6, 0.3)), before.tip_frame(np.full(6, 0.3))
    )
    with pytest.raises(ik.RobotsMissingError, match=r"yourdfpy: pip install 'geoik\[robots\]'"):
        load_robot(path, "tool0")


def test_a_urdf_the_reader_cannot_take_is_refused_by_name(tmp_path):
    """What yourdfpy would fail on with a Python error, the reader refuses saying where: a root
    that is no <robot>, a link or joint without a name, a joint without its parent or child, an
    axis or a limit that is no number."""
    path = tmp_path / "robot.urdf"
    links = '<link name="base"/><link name="a"/>'
    good = (
        '<joint name="j" type="revolute"><parent link="base"/><child link="a"/>'
        '<origin xyz="0 0 1"/><axis xyz="0 0 1"/><limit lower="-1" upper="1"/></joint>'
    )

    def robot(joint: str, extra: str = "") -> str:
        return '<robot name="r">' + extra + links + joint + "</robot>"

    path.write_text(robot(good))
    assert ik.load_urdf(path).joint_names == ("j",)
    for text, words in (
        ("<model>" + links + good + "</model>", "root element is <model>, not <robot>"),
        (robot(good, "<link/>"), "a <link>: expected a name"),
        (robot(good.replace(' name="j"', "")), "a <joint>: expected a name"),
        (
            robot(good.replace('<parent link="base"/>', "")),
            """joint 'j': expected <parent link="..."/>""",
        ),
        (
            robot(good.replace('<child link="a"/>', "<child/>")),
            """joint 'j': expected <child link="..."/>""",
        ),
        (
            robot(good.replace('axis xyz="0 0 1"', 'axis xyz="0 0 z"')),
            "joint 'j': axis xyz: expected a number, got 'z'",
        ),
        (
            robot(good.replace('upper="1"', 'upper="one"')),
            "joint 'j': limit upper: expected a number, got 'one'",
        ),
    ):
        path.write_text(text)
        with pytest.raises(ik.URDFError) as err:
            ik.load_urdf(path)
        assert words in str(err.value)


def test_malformed_robots_are_refused_naming_the_joint(tmp_path):
    def urdf(joints: str) -> Path:
        path = tmp_path / "robot.urdf"
        links = "".join(f'<link name="{n}"/>' for n in ("base", "a", "b"))
        path.write_text(f'<robot name="r">{links}{joints}</robot>')
        return path

    def joint(name: str, parent: str, child: str, origin: str) -> str:
        return (
            f'<joint name="{name}" type="revolute"><parent link="{parent}"/>'
            f'<child link="{child}"/>{origin}<axis xyz="0 0 1"/>'
            '<limit lower="-1" upper="1" effort="1" velocity="1"/></joint>'
        )

    flat = joint("j1", "base", "a", "") + joint("j2", "a", "b", '<origin xyz="0 0 0"/>')
    with pytest.raises(ik.URDFError, match=r"^path: expected a robot of some size, .*'b'"):
        ik.load_urdf(urdf(flat))
    for attribute, text in (("xyz", "0 0 nan"), ("rpy", "0 inf 0"), ("xyz", "0 0")):
        origin = f'<origin {attribute}="{text}"/>'
        path = urdf(joint("j1", "base", "a", "") + joint("j2", "a", "b", origin))
        with pytest.raises(ik.URDFError) as err:
            ik.load_urdf(path)
        words = f"joint 'j2': origin {attribute}: expected 3 finite numbers, got {text!r}"
        assert str(err.value) == words
    with pytest.raises(ik.InvalidChainError, match=r"^origin_xyz\[1\]: expected finite numbers, "):
        ik.Robot(
            ("a", "b"), ("revolute", "revolute"), [-1, 0], [[0, 0, 0], [0, 0, np.nan]],
            np.tile(np.eye(3), (2, 1, 1)), [[0, 0, 1]] * 2, [-1, -1], [1, 1], ("t",), [1],
            [[0, 0, 1]], np.eye(3)[None],
        )  # fmt: skip
    with pytest.raises(ik.InvalidChainError, match=r"tips cannot move"):
        ik.Robot(
            ("a",), ("revolute",), [-1], [[0, 0, 0]], np.eye(3)[None], [[0, 0, 1]], [-1], [1],
            ("t",), [0], [[0, 0, 0]], np.eye(3)[None],
        )  # fmt: skip


def test_angle_tol_needs_an_orientation():
    robot = load_example("z1")
    ((p, r),) = _reachable(robot, 4, 1)
    with pytest.raises(ik.InvalidOptionError, match=r"^angle_tol: expected with an orientation"):
        ik.solve(robot, p, angle_tol=0.01)
    with pytest.raises(ik.InvalidOptionError, match=r"^angle_tol: expected with orientations"):
        ik.solve_tree(robot, {robot.tip_names[0]: p}, angle_tol=0.01)
    assert ik.solve(robot, p, orientation=r, angle_tol=0.01).angle_tol == 0.01


def test_command_line_robot_flags_are_checked_as_typed(tmp_path, capsys):
    from geoik.commands.cli import main

    two_roots = tmp_path / "two.urdf"
    two_roots.write_text(
        SYNTHETIC.replace('<link name="side"/>', '<link name="side"/><link name="loose"/>')
    )
    ur5 = str(example_path("ur5"))
    solve = ["solve", "--urdf", ur5, "--tip", "tool0", "--target", "0.4,0.2,0.5"]
    for argv, line in (
        ([*solve, "--max-iter", "100", "--tol", "1e-3", "--json"], None),
        ([*solve, "--max-iter", "0"], "--max-iter: expected an integer >= 1, got 0"),
        ([*solve, "--tol", "-1"], "--tol: expected a finite distance > 0, got -1.0"),
        ([*solve, "--method", "fabrik"], "--method: expected auto or one of ccd, dls, "
         "analytic for a robot (--urdf), got 'fabrik', which solves chains (--lengths, "
         "--chain) only"),
        ([*solve, "--orientation", "nan,0,0,1"], "--orientation: expected a unit quaternion "
         "W,X,Y,Z (4 finite numbers), got 'nan,0,0,1'"),
        ([*solve, "--angle-tol", "0.1"], "--angle-tol: expected with --orientation W,X,Y,Z"),
        ([*solve, "--orientation", "0,1,0,0", "--angle-tol", "x"], "--angle-tol: expected an "
         "angle in (0, pi] radians, got 'x'"),
        (["solve", "--urdf", str(two_roots), "--target", "0,0,1"], "--base: the file has 2 "
         "root links (base, loose); name one"),
        (["solve", "--urdf", str(two_roots), "--base", "base", "--tip", "tool", "--target",
          "0.2,0.1,0.4", "--json"], None),
        (["solve", "--urdf", str(two_roots), "--base", "nope", "--target", "0,0,1"], "--base: "
         "expected a link of the URDF"),
        (["solve", "--urdf", str(example_path("panda")), "--target", "0.4,0,0.5"], "--tip: "
         "expected the link to move, one of panda_hand_tcp, panda_leftfinger"),
        (["solve", "--lengths", "1x2", "--target", "1,1", "--base", "b"], "--base: needs a "
         "robot (--urdf FILE)"),
    ):  # fmt: skip
        code = main(argv)
        captured = capsys.readouterr()
        if line is None:
            assert code == 0, captured.err
            continue
        assert code == 2 and captured.out == ""
        assert captured.err.startswith(f"geoik: error: {line}"), captured.err
        assert len(captured.err.splitlines()) == 1
