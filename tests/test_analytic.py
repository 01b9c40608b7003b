"""The analytic solver on real arms: the family found from the model, every solution of
held-out poses (each verified by the robot's own forward kinematics, the true one among
them), limits respected, unreachable poses reported as such, ``geoik.solve(method="analytic")``
and the compiled kernel equal to its plain-Python twin."""

from __future__ import annotations

import dataclasses
import math
import pickle

import numpy as np
import pytest

import geoik as ik
from geoik import jit
from geoik.kinematics import angle_between
from geoik.robots.analytic import kernel_of
from geoik.robots.urdf import example_path, load_example
from geoik.solvers.analytic import all_solutions, pack
from geoik.solvers.analytic.decompose import decompose, reversed_chain

pytest.importorskip("yourdfpy")


def _robot(name: str) -> ik.Robot:
    if name in ("ur5", "ur10", "kinova", "z1"):
        return load_example(name)
    if name.startswith("ur5-axis"):  # a parallel axis the other way (its joint turns back)
        ur5 = load_example("ur5")
        axes = ur5.axes.copy()
        axes[int(name[len("ur5-axis")]) - 1] *= -1.0
        return dataclasses.replace(ur5, axes=axes, _cache={})
    base = example_path("ur5").parents[2]
    if name == "ur3":
        return ik.load_urdf(base / "ur_description/urdf/ur3_robot.urdf", tip="tool0")
    if name == "talos":
        path = base / "talos_data/robots/talos_left_arm.urdf"
        return ik.load_urdf(path, tip="arm_left_7_link")
    raise KeyError(name)


FAMILY = {
    "ur3": "three parallel axes (2, 3, 4)",
    "ur5": "three parallel axes (2, 3, 4)",
    "ur10": "three parallel axes (2, 3, 4)",
    "ur5-axis3-reversed": "three parallel axes (2, 3, 4)",
    "ur5-axis4-reversed": "three parallel axes (2, 3, 4)",
    "z1": "three parallel axes (2, 3, 4)",
    "kinova": "spherical wrist (4, 5, 6), axes 2 and 3 parallel",
    "talos": "spherical wrist (4, 5, 6), axes 1 and 2 intersect",
}


@pytest.fixture(scope="module", params=sorted(FAMILY))
def arm(request) -> tuple[str, ik.Robot]:
    return request.param, _robot(request.param)


def _gap(a: np.ndarray, b: np.ndarray) -> float:
    return float(np.max(np.abs(np.remainder(a - b + np.pi, 2 * np.pi) - np.pi)))


def test_family_in_words(arm):
    name, robot = arm
    assert robot.family.startswith("6R: " + FAMILY[name])
    assert "closed form" in robot.family


def test_every_solution_of_held_out_poses(arm):
    name, robot = arm
    rng = np.random.default_rng(11)
    for q in robot.random_angles(rng, 60):
        frame = robot.tip_frame(q)
        res = ik.solve_all(robot, frame[:3, 3], orientation=frame[:3, :3], start=q)
        assert res.status is ik.SetStatus.SOLVED and len(res) >= 1
        assert _gap(res.angles[0], q) < 1e-6  # the true one, nearest the start
        assert np.all(np.isfinite(res.angles))
        free = ~np.isfinite(robot.lo)
        diff = res.angles - q
        diff[:, free] = np.remainder(diff[:, free] + np.pi, 2 * np.pi) - np.pi
        d = list(np.sum(np.square(diff), axis=1))
        assert d == sorted(d)
        for s in res.angles:
            assert np.all(s >= robot.lo) and np.all(s <= robot.hi)
            got = robot.tip_frame(s)
            assert np.linalg.norm(got[:3, 3] - frame[:3, 3]) <= 1e-9
            assert jit.call(angle_between, frame[:3, :3], got[:3, :3]) <= 1e-9
        # distinct solutions
        for i in range(len(res)):
            for j in range(i):
                assert _gap(res.angles[i], res.angles[j]) > 1e-7


def test_count_against_brute_force(arm):
    """Many random configurations of one pose's family: every configuration that lands on the
    pose (found by solving from it with dls) is among the analytic solutions."""
    _, robot = arm
    rng = np.random.default_rng(5)
    q = robot.random_angles(rng)
    frame = robot.tip_frame(q)
    res = ik.solve_all(robot, frame[:3, 3], orientation=frame[:3, :3])
    for s0 in robot.random_angles(rng, 12):
        sol = ik.solve(
            robot, frame[:3, 3], orientation=frame[:3, :3], start=s0, tol=1e-10, angle_tol=1e-10
        )
        if sol.status is ik.Status.REACHED:
            assert min(_gap(sol.angles, s) for s in res.angles) < 1e-5


def test_every_row_reports_its_own_errors(arm):
    """Each row's stated position and angle errors are those of its forward kinematics: the
    solutions, and the least-squares candidates, which are polished only when the pose is out
    of reach (a reached pose keeps them as the closed form gives them)."""
    _, robot = arm
    rng = np.random.default_rng(12)
    far = 2.0 * robot.total_length
    for i, q in enumerate(robot.random_angles(rng, 8)):
        frame = robot.tip_frame(q)
        target = frame[:3, 3] * (far / np.linalg.norm(frame[:3, 3]) if i % 2 else 1.0)
        res = ik.solve_all(robot, target, orientation=frame[:3, :3])
        assert res.status is (ik.SetStatus.OUT_OF_REACH if i % 2 else ik.SetStatus.SOLVED)
        for rows, errors in ((res.angles, res.errors), (res.closest, res.closest_errors)):
            assert np.all(np.isfinite(rows)) and np.all(np.isfinite(errors))
            for s, (dp, da) in zip(rows, errors, strict=True):
                got = robot.tip_frame(s)
                assert np.linalg.norm(got[:3, 3] - target) == pytest.approx(dp, abs=1e-9)
                assert jit.call(angle_between, frame[:3, :3], got[:3, :3]) == pytest.approx(
                    da, abs=1e-9
                )
        if i % 2:  # out of reach: the nearest candidate first
            assert len(res.closest) >= 1
            keys = res.closest_errors.sum(axis=1)
            assert np.all(np.diff(keys) >= 0)


def test_out_of_reach_says_so_and_solve_gives_closest(arm):
    _, robot = arm
    far = np.array([robot.total_length * 2.0, 0.1, 0.2])
    res = ik.solve_all(robot, far, orientation=np.eye(3))
    assert res.status is ik.SetStatus.OUT_OF_REACH and len(res) == 0
    assert res.closest.shape[0] >= 1 and np.all(np.isfinite(res.closest))
    assert "out of reach" in res.reason
    sol = ik.solve(robot, far, orientation=np.eye(3), method="analytic")
    assert sol.status is ik.Status.CLOSEST and np.all(np.isfinite(sol.angles))
    assert np.all(sol.angles >= robot.lo - 1e-12) and np.all(sol.angles <= robot.hi + 1e-12)


def test_solve_analytic_returns_the_nearest(arm):
    _, robot = arm
    rng = np.random.default_rng(8)
    q = robot.random_angles(rng)
    frame = robot.tip_frame(q)
    start = np.clip(q + rng.normal(0, 0.05, robot.n), robot.lo, robot.hi)
    sol = ik.solve(robot, frame[:3, 3], orientation=frame[:3, :3], method="analytic", start=start)
    assert sol.status is ik.Status.REACHED and sol.method == "analytic"
    assert _gap(sol.angles, q) < 1e-6
    assert sol.error <= 1e-9 and sol.angle_error <= 1e-9


def _with_limits(robot: ik.Robot, joint: int, lo: float, hi: float) -> ik.Robot:
    los, his = robot.lo.copy(), robot.hi.copy()
    los[joint], his[joint] = lo, hi
    return dataclasses.replace(robot, lo=los, hi=his, _cache={})


def test_limits_exclude_solutions():
    """A UR5 whose shoulder may move in a narrow band only: the solutions whose shoulder lies
    outside it are left out; a band that none reaches leaves the pose reachable only outside
    the limits, and says so."""
    ur5 = _robot("ur5")
    q = np.array([0.3, -1.2, 1.0, -0.5, 0.8, 0.1])
    frame = ur5.tip_frame(q)
    full = ik.solve_all(ur5, frame[:3, 3], orientation=frame[:3, :3])
    assert len(full) == 8
    band = _with_limits(ur5, 1, q[1] - 0.01, q[1] + 0.01)
    res = ik.solve_all(band, frame[:3, 3], orientation=frame[:3, :3])
    inside = [s for s in full.angles if abs(s[1] - q[1]) <= 0.01]
    assert res.status is ik.SetStatus.SOLVED and len(res) == len(inside) >= 1
    assert len(res) + len(res.outside) == len(full)
    free = np.linspace(-np.pi, np.pi, 721)
    gaps = [min(abs(np.remainder(f - full.angles[:, 1] + np.pi, 2 * np.pi) - np.pi)) for f in free]
    x = free[int(np.argmax(gaps))]
    none = _with_limits(ur5, 1, x - 0.01, x + 0.01)
    res = ik.solve_all(none, frame[:3, 3], orientation=frame[:3, :3])
    assert res.status is ik.SetStatus.OUTSIDE_LIMITS and len(res) == 0
    assert len(res.outside) == len(full) and "outside their limits" in res.reason
    with pytest.raises(ik.LimitError):
        ik.solve(none, frame[:3, 3], orientation=frame[:3, :3], method="analytic")


@pytest.mark.parametrize("name", ["ur5", "so100"])
def test_a_solution_held_onto_a_limit_reports_the_errors_of_its_values(name):
    """A solution a few 1e-10 rad beyond a joint's limit is held onto the limit (within 1e-9
    it counts as inside): its errors are those of the values returned, as ``solve``'s are,
    not the ones from before the move."""
    robot = _robot(name) if name == "ur5" else load_example(name)
    q = robot.random_angles(np.random.default_rng(4), 1)[0]
    frame = robot.tip_frame(q)
    moved = _with_limits(robot, 1, robot.lo[1], q[1] - 6e-10)
    res = ik.solve_all(moved, frame[:3, 3], orientation=frame[:3, :3])
    held = [k for k, s in enumerate(res.angles) if s[1] == moved.hi[1]]
    assert held and _gap(res.angles[held[0]], q) < 1e-6
    for s, (dp, da) in zip(res.angles, res.errors, strict=True):
        got = moved.tip_frame(s)
        assert dp == pytest.approx(np.linalg.norm(got[:3, 3] - frame[:3, 3]), abs=1e-13)
        assert da == pytest.approx(angle_between(frame[:3, :3], got[:3, :3]), abs=1e-13)
    assert res.errors[held[0], 0] > 1e-11  # the move shows: 6e-10 rad at the shoulder
    sol = ik.solve(moved, frame[:3, 3], orientation=frame[:3, :3], method="analytic", start=q)
    got = moved.tip_frame(sol.angles)
    assert sol.angles[1] == moved.hi[1]
    assert sol.error == pytest.approx(np.linalg.norm(got[:3, 3] - frame[:3, 3]), abs=1e-13)


def test_wrist_singularity_is_flagged():
    """Kinova with its wrist straight (joint 5 at pi, axes 4 and 6 in line): a continuous
    family, returned as representatives flagged singular, each on the pose."""
    robot = _robot("kinova")
    q = np.array([0.4, 3.0, 1.3, 0.2, math.pi, 0.5])
    frame = robot.tip_frame(q)
    res = ik.solve_all(robot, frame[:3, 3], orientation=frame[:3, :3])
    assert len(res) >= 1 and res.singular.any()
    for s in res.angles:
        got = robot.tip_frame(s)
        assert np.linalg.norm(got[:3, 3] - frame[:3, 3]) <= 1e-9


def test_reversed_chain_is_the_inverse():
    robot = _robot("talos")
    poe = robot.poe()
    h, p, r = reversed_chain(poe.H, poe.P, poe.R_tip)
    back = ik.robots.poe.SerialPOE(h, p, r, poe.kinds, poe.joints, poe.lo, poe.hi, "x")
    rng = np.random.default_rng(2)
    for q in robot.random_angles(rng, 20):
        np.testing.assert_allclose(
            back.forward(-q[::-1]), np.linalg.inv(poe.forward(q)), rtol=0, atol=1e-12
        )
    # a spherical wrist at the base is found from the tip
    plan = decompose(h, p, r, True)
    assert plan.reverse and "solved from the tip" in plan.family
    inf = np.full(6, np.inf)
    for q in robot.random_angles(rng, 20):
        qr = -q[::-1]
        goal = back.forward(qr)
        model = pack(plan.code, plan.reverse, plan.H, plan.P, plan.R_tip, plan.points, -inf, inf)
        out = np.empty((16, 9))
        rot, pos = np.ascontiguousarray(goal[:3, :3]), np.ascontiguousarray(goal[:3, 3])
        a, b, c = all_solutions(model, rot, pos, qr, 1e-9, 1e-9, out)  # as solve_all passes them
        out_q = out[:, :6]
        assert a >= 1 and _gap(out_q[0], qr) < 1e-6
        for s in out_q[:a]:
            np.testing.assert_allclose(back.forward(s), goal, rtol=0, atol=1e-9)


def test_bad_inputs_raise():
    robot = _robot("ur5")
    with pytest.raises(ik.InvalidTargetError):
        ik.solve_all(robot, (0.3, 0.1, 0.2))  # no orientation
    with pytest.raises(ik.InvalidTargetError):
        ik.solve_all(robot, (0.3, 0.1, float("nan")), orientation=np.eye(3))
    with pytest.raises(ik.UnsupportedChainError):
        ik.solve_all(load_example("allegro").with_tips("link_15.0_tip"), (0.1, 0, 0), np.eye(3))
    with pytest.raises(ik.UnsupportedChainError):
        ik.solve(ik.Chain.planar([1.0, 1.0]), (1.0, 0.5), method="analytic")


def test_compiled_equals_interpreted():
    robot = _robot("talos")
    q = robot.random_angles(np.random.default_rng(4))
    frame = robot.tip_frame(q)
    out = []
    for how in ("compiled", "interpreted"):
        with jit.mode(how):
            res = ik.solve_all(robot, frame[:3, 3], orientation=frame[:3, :3])
        out.append(res.angles)
    np.testing.assert_allclose(out[0], out[1], rtol=0, atol=1e-12)


@pytest.mark.parametrize("n", [6, 7])
def test_every_candidates_forward_kinematics_at_once_is_each_ones(n):
    """The candidates' check runs their forward kinematics together (``forward_many``, loops
    across them): the very values of one vector's at a time (``chain_forward``), for any count
    of vectors, continuous joints' huge angles and NaN included."""
    from geoik.solvers.analytic.polish import chain_forward, forward_many

    rng = np.random.default_rng(n)
    H = rng.normal(size=(n, 3))
    H /= np.linalg.norm(H, axis=1)[:, None]
    P = rng.normal(size=(n + 1, 3))
    q = rng.uniform(-np.pi, np.pi, (16, n))
    q[3, 2], q[5, 0], q[7, n - 1] = 1e6, -4e5, np.nan
    acc = np.full((12, 16), -7.0)
    trig = np.empty((2, 16 * n))
    for count in (1, 5, 16):
        forward_many(H, P, q.reshape(-1), count, trig, acc)
        for c in range(count):
            R, p = chain_forward(H, P, q[c])
            np.testing.assert_array_equal(acc[:, c], [*R, *p])


def test_searched_family_where_only_the_last_two_axes_meet():
    """A UR5 with its parallel axes tilted apart: only axes 5 and 6 meet, so joint 1 is
    searched. Every solution returned lands on the pose; the true one is among them for most
    poses (the search can miss a root where two branches merge)."""
    ur5 = load_example("ur5")
    poe = ur5.poe()
    H = poe.H.copy()
    c, s = math.cos(0.2), math.sin(0.2)
    H[2], H[3] = (s, c, 0.0), (0.0, c, s)
    arm = ik.robots.poe.SerialPOE(H, poe.P, poe.R_tip, poe.kinds, poe.joints, poe.lo, poe.hi, "t")
    plan = decompose(H, poe.P, poe.R_tip, True)
    assert "1-D search over joint 1" in plan.family
    rng = np.random.default_rng(0)
    inf = np.full(6, np.inf)
    found = 0
    for _ in range(40):
        q = rng.uniform(-np.pi, np.pi, 6)
        goal = arm.forward(q)
        model = pack(plan.code, plan.reverse, plan.H, plan.P, plan.R_tip, plan.points, -inf, inf)
        out = np.empty((16, 9))
        kernel = kernel_of(plan)  # the searched family's own kernel (the closed forms' has none)
        a, b, c_ = kernel(model, goal[:3, :3], goal[:3, 3], q, 1e-9, 1e-9, out)
        out_q = out[:, :6]
        for x in out_q[:a]:
            np.testing.assert_allclose(arm.forward(x), goal, rtol=0, atol=1e-9)
        found += bool(a) and min(_gap(x, q) for x in out_q[:a]) < 1e-6
    assert found >= 34


def _xarm7() -> ik.Robot:
    path = example_path("ur5").parents[2] / "xarm_description/urdf/xarm7.urdf"
    return ik.load_urdf(path, tip="link_eef")


@pytest.mark.parametrize("name", ["panda", "xarm7"])
def test_seven_joints_with_a_redundancy_value(name):
    """Joint 7 held at a value (the URDF's axes a few millionths of a radian off, as the
    xArm7's are, still decompose): every solution at that value lands on the pose and keeps
    the value; the true one is among them; solve searches the value for the nearest."""
    robot = load_example("panda") if name == "panda" else _xarm7()
    assert robot.family.startswith("7R: joint 7 held at the redundancy value")
    rng = np.random.default_rng(21)
    for q in robot.random_angles(rng, 8):
        frame = robot.tip_frame(q)
        res = ik.solve_all(robot, frame[:3, 3], orientation=frame[:3, :3], redundancy=q[6])
        assert len(res) >= 1 and min(_gap(s, q) for s in res.angles) < 1e-6
        for s in res.angles:
            assert s[6] == pytest.approx(q[6], abs=1e-12)
            assert np.all(s >= robot.lo) and np.all(s <= robot.hi)
            got = robot.tip_frame(s)
            assert np.linalg.norm(got[:3, 3] - frame[:3, 3]) <= 1e-9
            assert jit.call(angle_between, frame[:3, :3], got[:3, :3]) <= 1e-9
        sol = ik.solve(robot, frame[:3, 3], orientation=frame[:3, :3], method="analytic", start=q)
        assert sol.status is ik.Status.REACHED and _gap(sol.angles, q) < 1e-6
    with pytest.raises(ik.InvalidOptionError, match="redundancy"):
        ik.solve_all(robot, frame[:3, 3], orientation=frame[:3, :3], redundancy=100.0)
    with pytest.raises(ik.InvalidOptionError, match="redundancy"):
        ik.solve_all(_robot("ur5"), (0.3, 0.1, 0.2), orientation=np.eye(3), redundancy=0.1)


def _tip_moved(robot: ik.Robot, offset: tuple[float, float, float]) -> ik.Robot:
    """The robot with its tip moved by ``offset`` (metres, in its parent link's frame)."""
    return dataclasses.replace(robot, tip_xyz=robot.tip_xyz + np.array(offset), _cache={})


@pytest.mark.parametrize("name", ["panda", "xarm7", "panda, tip off joint 7's axis"])
def test_a_seven_joint_arm_reports_its_tip_s_own_errors(name):
    """Every row of a 7-joint arm's set (exact within the limits or outside them, or least
    squares; at a given held value, at several, or searched) carries the errors of the seven
    joints' forward kinematics, as does ``solve``'s answer. With the tip off joint 7's axis
    the six other joints' errors are not the tip's (their rotation error times the offset);
    a joint held onto its limit from within 1e-9 beyond it moves the tip by up to 5e-10."""
    robot = _xarm7() if name == "xarm7" else load_example("panda")
    if "off" in name:
        robot = _tip_moved(robot, (0.03, -0.02, 0.01))
        assert robot.family.startswith("7R: joint 7 held")
    rng = np.random.default_rng(5)
    for k, q in enumerate(robot.random_angles(rng, 12)):
        frame = robot.tip_frame(q)
        p, r = frame[:3, 3], frame[:3, :3]
        if k % 4 == 0:  # out of reach: a metre farther out
            p = p + p / np.linalg.norm(p)
        other = float(q[6]) + 0.3 * (robot.hi[6] - q[6])
        for value in (float(q[6]), other, [float(q[6]), other]):
            res = ik.solve_all(robot, p, orientation=r, tol=1e-4, angle_tol=1e-4, redundancy=value)
            count = sum(res.sizes)
            assert res.sizes[0] >= 1 or value is other or k % 4 == 0
            assert count >= 1
            for row in res.rows[:count]:
                got = robot.tip_frame(row[:7])
                assert row[8] == pytest.approx(np.linalg.norm(got[:3, 3] - p), abs=1e-13)
                assert row[9] == pytest.approx(angle_between(r, got[:3, :3]), abs=1e-13)
        sol = ik.solve(robot, p, orientation=r, method="analytic")
        assert sol.status is (ik.Status.CLOSEST if k % 4 == 0 else ik.Status.REACHED)
        got = robot.tip_frame(sol.angles)
        assert sol.error == pytest.approx(np.linalg.norm(got[:3, 3] - p), abs=1e-13)
        assert sol.angle_error == pytest.approx(angle_between(r, got[:3, :3]), abs=1e-13)


@pytest.mark.parametrize("name", ["ur5", "so100", "panda"])
def test_an_analytic_solution_poses_its_joints_when_first_read(name):
    """``solve(..., method="analytic")`` leaves ``positions`` and ``frame`` to the first read
    (a loop that reads the joint values only does not pay for them): then they are the
    forward kinematics of ``angles``, read-only, the same arrays on every read, through a
    pickle and ``dataclasses.replace``; the errors are the tip's, the status follows them."""
    robot = load_example(name)
    rng = np.random.default_rng(3)
    for k, q in enumerate(robot.random_angles(rng, 6)):
        frame = robot.tip_frame(q)
        p, r = frame[:3, 3], frame[:3, :3]
        oriented = robot.n >= 6 or k % 2 == 1
        sol = ik.solve(robot, p, orientation=r if oriented else None, method="analytic")
        assert sol.status is ik.Status.REACHED
        assert "frame" not in vars(sol) and "positions" not in vars(sol)
        first = sol.frame
        np.testing.assert_array_equal(first, robot.tip_frame(sol.angles))
        np.testing.assert_array_equal(sol.positions, robot.joint_positions(sol.angles))
        assert sol.frame is first
        assert not sol.frame.flags.writeable and not sol.positions.flags.writeable
        assert sol.error == pytest.approx(np.linalg.norm(first[:3, 3] - p), abs=1e-13)
        assert sol.error <= sol.tol
        if oriented:
            assert sol.angle_error == pytest.approx(angle_between(r, first[:3, :3]), abs=1e-13)
        else:
            assert sol.angle_error is None and sol.orientation is None
        fresh = ik.solve(robot, p, orientation=r if oriented else None, method="analytic")
        for copy in (pickle.loads(pickle.dumps(fresh)), dataclasses.replace(fresh)):
            np.testing.assert_array_equal(copy.frame, first)
            np.testing.assert_array_equal(copy.positions, sol.positions)
    assert ik.Solution.frame is None  # the dataclass's default, as before


@pytest.mark.parametrize("name", ["ur5", "panda"])
def test_an_analytic_solution_records_its_motion_when_first_read(name):
    """The motion of a solve by the analytic solver (by name and by ``auto``) is made when first
    read: two keyframes, the start (the rest configuration by default) and the answer, read-only,
    the same object on every read, through a pickle and ``dataclasses.replace``; writing to the
    start given afterwards changes nothing; its costs are those of that one step."""
    robot = load_example(name)
    rng = np.random.default_rng(4)
    for k, q in enumerate(robot.random_angles(rng, 4)):
        frame = robot.tip_frame(q)
        start = np.clip(q + rng.uniform(-0.3, 0.3, robot.n), robot.lo, robot.hi) if k else None
        given = None if start is None else start.copy()
        method = "analytic" if k % 2 else "auto"
        sol = ik.solve(robot, frame, start=given, method=method)
        assert sol.status is ik.Status.REACHED and sol.method == "analytic"
        assert "motion" not in vars(sol)
        if given is not None:
            given[:] = 9.0  # the caller's array, written after the solve
        motion = sol.motion
        expected = np.stack([robot.rest_angles() if start is None else start, sol.angles])
        np.testing.assert_array_equal(motion.keys, expected)
        assert not motion.keys.flags.writeable and motion.chain is robot
        assert sol.motion is motion and vars(sol)["motion"] is motion
        turns = np.abs(sol.angles - expected[0])
        c = ik.costs(sol)
        assert c.rotation_sum_deg == pytest.approx(np.degrees(turns.sum()), abs=1e-9)
        assert c.rotations_over_5deg == int(np.sum(turns > np.radians(5.0)))
        assert c.iterations == 1 and c.path_length > 0.0
        fresh = ik.solve(robot, frame, start=start, method=method)
        for copy in (pickle.loads(pickle.dumps(fresh)), dataclasses.replace(fresh)):
            np.testing.assert_array_equal(copy.motion.keys, expected)


def test_a_sweep_of_redundancy_values_is_every_value_s_solutions_in_one_set():
    """``redundancy`` given a sequence: the set holds exactly the rows of ``solve_all`` at each
    value (the same solutions, exact ones outside the limits and least-squares candidates), each
    group sorted as one value's is (the solutions by distance from the start, the candidates by
    their error); every solution lands on the pose within the limits, its held joint at one of
    the values; repeats count once; bad values and a 6-joint arm are refused by name."""
    robot = load_example("panda")
    rng = np.random.default_rng(8)
    start = robot.random_angles(rng, 1)[0]
    values = np.linspace(robot.lo[6], robot.hi[6], 12)
    for q in robot.random_angles(rng, 4):
        frame = robot.tip_frame(q)
        swept = ik.solve_all(robot, frame, start=start, redundancy=[*values, values[3]])
        ones = [ik.solve_all(robot, frame, start=start, redundancy=float(v)) for v in values]
        assert swept.sizes == tuple(sum(one.sizes[g] for one in ones) for g in range(3))
        assert swept.status is ik.SetStatus.SOLVED and swept.sizes[0] >= 1
        for mine, theirs in (
            (swept.angles, [one.angles for one in ones]),
            (swept.outside, [one.outside for one in ones]),
            (swept.closest, [one.closest for one in ones]),
        ):
            want = np.concatenate(theirs)
            np.testing.assert_array_equal(np.sort(mine, axis=0), np.sort(want, axis=0))
        far = [float(np.sum((s - start) ** 2)) for s in swept.angles]
        assert far == sorted(far)
        err = swept.closest_errors.sum(axis=1)
        assert np.all(np.diff(err) >= 0)
        for s in swept.angles:
            assert np.min(np.abs(values - s[6])) <= 1e-12
            assert np.all(s >= robot.lo) and np.all(s <= robot.hi)
            got = robot.tip_frame(s)
            assert np.linalg.norm(got[:3, 3] - frame[:3, 3]) <= 1e-9
            assert jit.call(angle_between, frame[:3, :3], got[:3, :3]) <= 1e-9
    with jit.mode("compiled"):  # the compiled sweep as its Python source, row for row
        compiled = ik.solve_all(robot, frame, start=start, redundancy=values)
    with jit.mode("interpreted"):
        interpreted = ik.solve_all(robot, frame, start=start, redundancy=values)
    assert compiled.sizes == interpreted.sizes
    np.testing.assert_allclose(compiled.rows, interpreted.rows, rtol=0, atol=1e-12)
    for bad in ([], [0.1, 100.0], [math.nan], [[0.1, 0.2]], ["a"]):
        with pytest.raises(ik.InvalidOptionError, match="redundancy"):
            ik.solve_all(robot, frame, redundancy=bad)
    with pytest.raises(ik.InvalidOptionError, match="redundancy"):
        ik.solve_all(_robot("ur5"), (0.3, 0.1, 0.2), orientation=np.eye(3), redundancy=[0.1])


def _shown(text: str, name: str) -> np.ndarray:
    """The array a repr shows after ``name=array(``, read back."""
    import ast

    body = text.split(f"{name}=array(", 1)[1].rsplit("))", 1)[0]
    return np.array(ast.literal_eval(body.replace("\n", " ")))


def test_a_set_reads_as_what_it_found_and_its_joint_values():
    """In a REPL a set shows what it found, its robot in one line and every solution to six
    decimals (out of reach: the least-squares poses), not the robot's arrays."""
    robot = load_example("ur5")
    assert repr(robot) == ("Robot(name='ur5', joints=6, tip_names=('tool0',), base_name='world')")
    frame = robot.tip_frame(np.array([0.3, -1.0, 1.2, 0.4, 0.5, 0.6]))
    found = ik.solve_all(robot, frame[:3, 3], orientation=frame[:3, :3])
    text = repr(found)
    assert text.startswith(f"SolutionSet({found.reason}, robot={robot!r}, family=")
    assert "origin_xyz" not in text and len(text.splitlines()) == 1 + len(found) == 9
    np.testing.assert_allclose(_shown(text, "angles"), found.angles, atol=5e-7)
    far = ik.solve_all(robot, (3.0, 0.0, 0.0), orientation=frame[:3, :3])
    text = repr(far)
    assert text.startswith("SolutionSet(0 solutions: the pose is out of reach,")
    assert "angles=" not in text and len(far.closest) >= 1
    np.testing.assert_allclose(_shown(text, "closest"), far.closest, atol=5e-7)
