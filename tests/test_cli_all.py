"""``geoik solve --urdf FILE --all``: every solution of a pose as a table or JSON, each landing
on the pose by the robot's forward kinematics, nearest ``--start`` first; an empty set says why
in one line, exits 1 and lists what the arm does reach (the solutions outside the limits, or the
least-squares poses); flags that do not belong are refused naming the flag."""

from __future__ import annotations

import json

import numpy as np
import pytest

import geoik as ik
from geoik.commands._all import EXIT_EMPTY
from geoik.commands.cli import main
from geoik.kinematics import angle_between
from geoik.robots.urdf import example_path, load_example

pytest.importorskip("yourdfpy")

DOWN = "0,1,0,0"  # the tool pointing down: diag(1, -1, -1)


def _solve(name: str, tip: str, target: str, *extra: str) -> list[str]:
    return ["solve", "--urdf", str(example_path(name)), "--tip", tip, "--target", target, *extra]


def _check_set(record: dict, robot: ik.Robot, start: np.ndarray) -> None:
    assert record["joint_names"] == list(robot.joint_names)
    rot = np.diag([1.0, -1.0, -1.0])
    target = np.array(record["target"])
    gaps = []
    for k, sol in enumerate(record["solutions"]):
        assert sol["index"] == k
        q = np.array(sol["joint_values"])
        assert np.all(np.isfinite(q))
        assert np.all(q >= robot.lo - 1e-12) and np.all(q <= robot.hi + 1e-12)
        frame = robot.tip_frame(q)
        assert np.linalg.norm(frame[:3, 3] - target) <= 1e-9 and sol["error"] <= 1e-9
        assert angle_between(rot, frame[:3, :3]) <= 1e-9 and sol["angle_error"] <= 1e-9
        gaps.append(float(np.linalg.norm(q - start)))
    assert gaps == sorted(gaps)  # nearest the start first (no continuous joint on these arms)


def test_every_solution_as_json_nearest_the_start_first(capsys):
    robot = load_example("ur5")
    start = np.array([1.0, -1.0, 1.0, 0.0, 0.5, 0.0])
    argv = _solve("ur5", "tool0", "0.4,0.2,0.5", "--orientation", DOWN, "--all", "--json")
    assert main([*argv, "--start", ",".join(map(str, start))]) == 0
    record = json.loads(capsys.readouterr().out)
    assert record["status"] == "SOLVED" and record["count"] == len(record["solutions"]) == 8
    _check_set(record, robot, start)
    expected = ik.solve_all(robot, (0.4, 0.2, 0.5), orientation=DOWN_R, start=start)
    np.testing.assert_allclose([s["joint_values"] for s in record["solutions"]], expected.angles)


DOWN_R = np.diag([1.0, -1.0, -1.0])


def test_the_table_has_a_row_per_solution(capsys):
    argv = _solve("ur5", "tool0", "0.4,0.2,0.5", "--orientation", DOWN, "--all")
    assert main(argv) == 0
    out = capsys.readouterr().out.splitlines()
    head = next(i for i, line in enumerate(out) if line.lstrip().startswith("#"))
    assert out[head].split()[1:7] == list(load_example("ur5").joint_names)
    rows = out[head + 1 :]
    assert len(rows) == 8 and [int(r.split()[0]) for r in rows] == list(range(8))
    robot = load_example("ur5")
    for r in rows:
        q = np.array([float(v) for v in r.split()[1:7]])
        frame = robot.tip_frame(q)  # printed to 6 decimals: the pose to about 1e-5
        assert np.linalg.norm(frame[:3, 3] - (0.4, 0.2, 0.5)) < 1e-4
        assert r.split()[-1] in ("yes", "no")


def _beyond_names(robot: ik.Robot, q: np.ndarray) -> list[str]:
    outside = (q < robot.lo - 1e-9) | (q > robot.hi + 1e-9)
    return [name for name, out in zip(robot.joint_names, outside, strict=True) if out]


def _table_rows(out: list[str], title: str) -> list[list[str]]:
    """The rows of the table under the line starting ``title`` (after its header)."""
    at = next(i for i, line in enumerate(out) if line.startswith(title))
    return [line.split() for line in out[at + 2 :]]


def test_out_of_reach_says_why_lists_the_nearest_poses_and_exits_1(capsys):
    """Out of reach: the reason, then the least-squares poses nearest the target, each with
    the position and angle errors its forward kinematics has, the nearest first."""
    robot = load_example("ur5")
    far = _solve("ur5", "tool0", "3,0.2,0.5", "--orientation", DOWN, "--all")
    assert main(far) == EXIT_EMPTY == 1
    out = capsys.readouterr().out.splitlines()
    assert out[3] == "no solution: the pose is out of reach"
    rows = _table_rows(out, "the nearest poses the arm reaches (least squares)")
    assert main([*far, "--json"]) == 1
    record = json.loads(capsys.readouterr().out)
    assert record["status"] == "OUT_OF_REACH" and record["solutions"] == []
    assert record["outside"] == [] and len(record["closest"]) == len(rows) >= 1
    keys = []
    for row, pose in zip(rows, record["closest"], strict=True):
        q = np.array(pose["joint_values"])
        frame = robot.tip_frame(q)
        assert np.linalg.norm(frame[:3, 3] - (3, 0.2, 0.5)) == pytest.approx(pose["error"])
        assert angle_between(DOWN_R, frame[:3, :3]) == pytest.approx(pose["angle_error"], abs=1e-9)
        assert pose["error"] > 1.0  # the UR5 reaches about 0.9 m
        assert pose["beyond_limits"] == _beyond_names(robot, q)
        np.testing.assert_allclose([float(v) for v in row[1:7]], q, atol=5e-7)
        keys.append(pose["error"] + pose["angle_error"])
    assert keys == sorted(keys)
    expected = ik.solve_all(robot, (3, 0.2, 0.5), orientation=DOWN_R)
    np.testing.assert_allclose([p["joint_values"] for p in record["closest"]], expected.closest)


def test_reachable_only_outside_the_limits_says_so(capsys):
    """The Z1's elbow is limited to one side: the pose of an elbow bent the other way (found
    by solve_all as outside the limits) is reported as such."""
    robot = load_example("z1")
    rng = np.random.default_rng(7)
    for _ in range(200):  # a pose whose every solution breaks a limit
        q = rng.uniform(-np.pi, np.pi, robot.n)
        f = robot.tip_frame(np.clip(q, -50, 50))
        found = ik.solve_all(robot, f[:3, 3], orientation=f[:3, :3])
        if found.status is ik.SetStatus.OUTSIDE_LIMITS:
            break
    else:
        pytest.skip("no pose reachable only outside the limits drawn")
    w, x, y, z = _quaternion(f[:3, :3])
    argv = _solve(
        "z1", robot.tip_names[0], ",".join(map(repr, f[:3, 3].tolist())),
        f"--orientation={w!r},{x!r},{y!r},{z!r}", "--all",
    )  # fmt: skip
    assert main(argv) == 1
    out = capsys.readouterr().out.splitlines()
    assert out[3].startswith("no solution: the pose is reachable only with joints outside their")
    rows = _table_rows(out, "outside the joint limits, nearest the start first")
    assert main([*argv, "--json"]) == 1
    record = json.loads(capsys.readouterr().out)
    assert record["status"] == "OUTSIDE_LIMITS" and record["closest"] == []
    assert len(record["outside"]) == len(rows) == len(found.outside) >= 1
    np.testing.assert_allclose(  # the API's set of the same pose (given as a matrix there)
        [[sol["error"], sol["angle_error"]] for sol in record["outside"]],
        found.outside_errors,
        atol=1e-12,
    )
    gaps = []
    for row, sol in zip(rows, record["outside"], strict=True):
        q = np.array(sol["joint_values"])
        frame = robot.tip_frame(q)  # on the pose, with the joints named beyond their limits
        assert np.linalg.norm(frame[:3, 3] - f[:3, 3]) <= 1e-9 and sol["error"] <= 1e-9
        assert angle_between(f[:3, :3], frame[:3, :3]) <= 1e-9 and sol["angle_error"] <= 1e-9
        assert sol["beyond_limits"] == _beyond_names(robot, q) != []
        assert " ".join(row[9:]) == ", ".join(sol["beyond_limits"])
        gaps.append(float(np.linalg.norm(q)))  # the start: the rest pose, all zeros
    assert gaps == sorted(gaps)


def _quaternion(r: np.ndarray) -> tuple[float, float, float, float]:
    from scipy.spatial.transform import Rotation

    x, y, z, w = Rotation.from_matrix(r).as_quat()
    return float(w), float(x), float(y), float(z)


def test_seven_joint_arms_take_the_held_joints_value(capsys):
    robot = load_example("panda")
    tip = robot.tip_names[0]
    argv = _solve("panda", tip, "0.5,0.1,0.4", "--orientation", DOWN, "--all")
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert err.startswith("geoik: error: --redundancy: expected with --all on a 7-joint arm")
    assert "panda_joint7" in err and "add --redundancy VALUE" in err
    assert main([*argv, "--redundancy", "0.8", "--json"]) == 0
    record = json.loads(capsys.readouterr().out)
    assert record["count"] >= 1 and record["redundancy"] == 0.8
    _check_set(record, robot, robot.rest_angles())
    assert all(s["joint_values"][6] == pytest.approx(0.8) for s in record["solutions"])
    one = record["count"]
    assert main([*argv, "--redundancy", "0.4,0.8", "--json"]) == 0  # swept: both values' sets
    record = json.loads(capsys.readouterr().out)
    assert record["redundancy"] == [0.4, 0.8] and "at 2 values (0.4, 0.8)" in record["reason"]
    _check_set(record, robot, robot.rest_angles())
    held = [s["joint_values"][6] for s in record["solutions"]]
    assert sum(v == pytest.approx(0.8) for v in held) == one
    assert all(v == pytest.approx(0.4) or v == pytest.approx(0.8) for v in held)
    assert record["count"] > one
    far = _solve("panda", tip, "1.5,0.1,0.4", "--orientation", DOWN, "--all", "--redundancy", "0.8")
    assert main(far) == 1
    out = capsys.readouterr().out.splitlines()
    assert out[3] == "no solution with joint 'panda_joint7' at 0.8: the pose is out of reach"
    held = [float(row[7]) for row in _table_rows(out, "the nearest poses the arm reaches")]
    assert held and all(v == 0.8 for v in held)  # the least-squares poses at the held value


@pytest.mark.parametrize(
    ("extra", "line"),
    [
        (("--all",), "--all: expected with --orientation W,X,Y,Z"),
        (("--orientation", DOWN, "--all", "--method", "dls"), "--method: --all lists every"),
        (("--orientation", DOWN, "--all", "--max-iter", "5"), "--max-iter: the analytic"),
        (("--orientation", DOWN, "--all", "--opt", "x=1"), "--opt: the analytic"),
        (("--orientation", DOWN, "--redundancy", "1"), "--redundancy: expected with --all"),
        (("--orientation", DOWN, "--all", "--redundancy", "1"), "--redundancy: only a 7-joint"),
        (("--orientation", DOWN, "--all", "--redundancy", "x"), "--redundancy: expected a num"),
        (("--orientation", DOWN, "--all", "--redundancy", "1,"), "--redundancy: expected a num"),
        (("--orientation", DOWN, "--all", "--start", "1,2"), "--start: expected 6 finite"),
        (("--orientation", DOWN, "--start", "0,0,0,0,0,9"), "--start[5]: joint 'wrist_3_joint'"),
        (("--orientation", DOWN, "--start", "a"), "--start: expected comma-separated"),
    ],
)
def test_flags_that_do_not_belong_are_refused_naming_the_flag(capsys, extra, line):
    assert main(_solve("ur5", "tool0", "0.4,0.2,0.5", *extra)) == 2
    captured = capsys.readouterr()
    assert captured.out == "" and captured.err.startswith(f"geoik: error: {line}"), captured.err
    assert len(captured.err.splitlines()) == 1


@pytest.mark.parametrize("flag", [("--all",), ("--redundancy", "1"), ("--start", "0,0")])
def test_robot_flags_need_a_urdf(capsys, flag):
    assert main(["solve", "--lengths", "1x3", "--target", "1,1,0", *flag]) == 2
    assert capsys.readouterr().err.startswith(f"geoik: error: {flag[0]}: needs a robot")


def test_auto_says_which_solver_answered(capsys):
    argv = _solve("ur5", "tool0", "0.4,0.2,0.5", "--json")
    assert main([*argv, "--orientation", DOWN]) == 0
    record = json.loads(capsys.readouterr().out)
    assert record["method"] == "analytic" and record["requested"] == "auto"
    assert record["status"] == "REACHED" and record["error"] <= 1e-9
    assert main(argv) == 0  # a position only: dls
    record = json.loads(capsys.readouterr().out)
    assert record["method"] == "dls" and record["requested"] == "auto"
    assert main([*argv[:-1], "--orientation", DOWN]) == 0
    assert "method:      analytic (chosen by auto)" in capsys.readouterr().out
    start = "0.2,-0.3,-1.5,0.2,-1.6,-1.4"
    assert main([*argv, "--orientation", DOWN, "--start", start]) == 0
    near = json.loads(capsys.readouterr().out)["joint_values"]
    assert np.allclose(near, [0.21709, -0.255909, -1.499802, 0.184915, -1.570796, -1.353706],
                       atol=1e-5)  # fmt: skip


def test_help_says_what_auto_and_all_do(capsys):
    assert main(["solve", "--help"]) == 0
    text = " ".join(capsys.readouterr().out.split())
    assert "--all" in text and "exit status 1" in text
    assert "analytic" in text and "dls" in text


def test_the_guides_table_of_example_arms_is_the_codes():
    """docs/robots.md lists each example arm with ``load_example(name).family`` and auto's
    solver, exactly as ``geoik methods analytic`` does."""
    from pathlib import Path

    from geoik.commands.methods import arm_families, families_markdown
    from geoik.robots.urdf import ARMS
    from geoik.solvers.auto import robot_plan

    arms = arm_families()
    assert arms is not None and [a for a, *_ in arms] == list(ARMS)
    for name, n, family, method in arms:
        robot = load_example(name)
        assert (n, family, method) == (robot.n, robot.family, robot_plan(robot, True)[0])
    text = (Path(__file__).resolve().parents[1] / "docs" / "robots.md").read_text()
    start = text.index("\n", text.index("<!-- example-arms:start")) + 1
    table = text[start : text.index("<!-- example-arms:end")]
    assert table == families_markdown(arms) + "\n", "regenerate it: " + families_markdown(arms)
    rows = [line.split(" | ") for line in table.splitlines()[2:]]
    assert {r[0].strip("| `") for r in rows} == set(ARMS)


def test_methods_analytic_lists_the_example_arms(capsys):
    assert main(["methods", "analytic"]) == 0
    out = capsys.readouterr().out
    for name, _, family, method in arm_rows():
        (line,) = [x for x in out.splitlines() if x.split()[:1] == [name]]
        assert line.split()[1] == method and line.endswith(family)
    assert main(["methods", "analytic", "--json"]) == 0
    record = json.loads(capsys.readouterr().out)["analytic"]["example_arms"]
    assert [(r["arm"], r["joints"], r["family"], r["auto"]) for r in record] == arm_rows()
    assert main(["methods", "auto"]) == 0
    out = capsys.readouterr().out
    assert "robots: analytic" in out and "dls" in out


def arm_rows() -> list[tuple[str, int, str, str]]:
    from geoik.commands.methods import arm_families

    arms = arm_families()
    assert arms is not None
    return arms


def test_a_five_joint_arm_lists_the_nearest_orientation_and_exits_1(capsys):
    """An orientation the SO-100 cannot take at a position it reaches: no solution (exit 1),
    its poses at the nearest orientation listed, each exactly on the position."""
    robot = load_example("so100")
    argv = _solve("so100", "gripper", "0.2,0.05,0.15", "--orientation", DOWN, "--all")
    assert main(argv) == EXIT_EMPTY
    out = capsys.readouterr().out
    assert "no solution: the orientation is out of the arm's reach at this position" in out
    assert main([*argv, "--json"]) == EXIT_EMPTY
    record = json.loads(capsys.readouterr().out)
    assert record["status"] == "NEAREST_ORIENTATION" and record["count"] >= 1
    for sol in record["solutions"]:
        q = np.array(sol["joint_values"])
        assert np.linalg.norm(robot.tip_frame(q)[:3, 3] - (0.2, 0.05, 0.15)) <= 1e-9
        assert sol["angle_error"] == pytest.approx(
            angle_between(DOWN_R, robot.tip_frame(q)[:3, :3]), abs=1e-9
        )


def test_a_five_joint_arm_takes_a_position_alone(capsys):
    """``--all`` without ``--orientation`` on the SO-100 (5 joints), as ``geoik.solve_all``
    takes it: every solution at the position, each exactly on it, in the API's order; a
    6-joint arm still needs the orientation, and says how many joints it has."""
    robot = load_example("so100")
    argv = _solve("so100", "gripper", "0.2,0.05,0.15", "--all", "--json")
    assert main(argv) == 0
    record = json.loads(capsys.readouterr().out)
    expected = ik.solve_all(robot, (0.2, 0.05, 0.15))
    assert record["status"] == "SOLVED" and record["count"] == len(expected) >= 1
    for sol, q_api in zip(record["solutions"], expected.angles, strict=True):
        q = np.array(sol["joint_values"])
        np.testing.assert_allclose(q, q_api, rtol=0, atol=1e-12)
        assert np.linalg.norm(robot.tip_frame(q)[:3, 3] - (0.2, 0.05, 0.15)) <= 1e-9
    assert main(argv[:-1]) == 0
    out = capsys.readouterr().out
    assert f"{len(expected)} solution" in out and "within the joint limits" in out
    assert main(_solve("ur5", "tool0", "0.4,0.2,0.5", "--all")) == 2
    assert "--all: expected with --orientation W,X,Y,Z on an arm of 6 joints" in (
        capsys.readouterr().err
    )


def test_counts_read_as_words():
    """One solution, one kernel function: singular; any other count plural."""
    from geoik.commands._progress import CompileNotice
    from geoik.errors import counted

    assert counted(1, "solution") == "1 solution" and counted(0, "solution") == "0 solutions"
    notice = CompileNotice("geoik solve")
    notice.done, notice.seconds = 1, 0.04
    assert "compiled 1 kernel function in 0.0 s" in notice._summary()
