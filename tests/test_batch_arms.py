"""The batch engine of robot arms: pose by pose what ``geoik.solve_all`` finds (the count of
solutions, the first row, its errors and status, and with ``every=True`` every solution),
quaternions as matrices, its checks."""

from __future__ import annotations

import numpy as np
import pytest

import geoik as ik
from geoik import jit
from geoik.batch import evaluate
from geoik.batch.arms import ArmBatchResult
from geoik.maps.tiles import QUIET_HTTP
from geoik.robots.analytic import SetStatus
from geoik.robots.urdf import example_path, load_example
from tests.test_analytic_redundant import BEYOND_REACH_CASES

pytest.importorskip("yourdfpy")


def _quats(rng, m: int) -> np.ndarray:
    q = rng.normal(size=(m, 4))
    return q / np.linalg.norm(q, axis=1)[:, None]


def _matrices(q: np.ndarray) -> np.ndarray:
    w, x, y, z = q.T
    return np.stack(
        [
            np.stack([1 - 2 * (y * y + z * z), 2 * (x * y - w * z), 2 * (x * z + w * y)], -1),
            np.stack([2 * (x * y + w * z), 1 - 2 * (x * x + z * z), 2 * (y * z - w * x)], -1),
            np.stack([2 * (x * z - w * y), 2 * (y * z + w * x), 1 - 2 * (x * x + y * y)], -1),
        ],
        1,
    )


def _poses(robot: ik.Robot, seed: int) -> tuple[np.ndarray, np.ndarray]:
    """Reachable poses, random orientations at reachable positions, and far positions."""
    rng = np.random.default_rng(seed)
    frames = np.array([robot.tip_frame(q) for q in robot.random_angles(rng, 40)])
    pos = np.concatenate([frames[:, :3, 3], frames[:20, :3, 3], rng.uniform(3, 4, (5, 3))])
    rot = np.concatenate([frames[:, :3, :3], _matrices(_quats(rng, 25))])
    return pos, rot


@pytest.mark.parametrize("name", ["so100", "ur5", "allegro finger"])
def test_batch_equals_solve_all(name):
    if name == "allegro finger":
        robot = load_example("allegro").with_tips("link_3.0_tip")
    else:
        robot = load_example(name)
    pos, rot = _poses(robot, 1)
    start = robot.random_angles(np.random.default_rng(2))
    res = evaluate(robot, pos, "analytic", orientations=rot, start=start)
    every = evaluate(robot, pos, "analytic", orientations=rot, start=start, every=True)
    assert res.solutions is None and every.solutions is not None
    for field in ("status", "count", "angles", "error", "angle_error"):
        np.testing.assert_array_equal(getattr(every, field), getattr(res, field))
    assert every.solutions.shape == (len(pos), res.count.max(), robot.n)
    assert isinstance(res, ArmBatchResult) and len(res) == len(pos)
    assert np.all(np.isfinite(res.angles)) and np.all(np.isfinite(res.error))
    assert np.all(res.solved[:40])
    assert set(res.status[-5:].tolist()) == {int(SetStatus.OUT_OF_REACH)}
    if name != "ur5":
        assert np.any(res.status == SetStatus.NEAREST_ORIENTATION)
    for i in range(len(pos)):
        with jit.mode("compiled"):
            one = ik.solve_all(robot, pos[i], orientation=rot[i], start=start)
        assert res.status[i] == one.status
        assert res.count[i] == (len(one) if one.status is SetStatus.SOLVED else 0)
        _same_solutions(every.solutions[i], one.angles if res.count[i] else one.angles[:0])
        first = one.rows[0]
        np.testing.assert_allclose(res.angles[i], first[: robot.n], atol=1e-12, rtol=0)
        assert res.error[i] == pytest.approx(first[robot.n + 1], abs=1e-15)
        assert res.angle_error[i] == pytest.approx(first[robot.n + 2], abs=1e-15)
        frame = robot.tip_frame(res.angles[i])
        assert abs(np.linalg.norm(frame[:3, 3] - pos[i]) - res.error[i]) <= 1e-9
        if res.status[i] in (SetStatus.SOLVED, SetStatus.NEAREST_ORIENTATION):
            assert res.error[i] <= 1e-9
            assert np.all(res.angles[i] >= robot.lo - 1e-12)
            assert np.all(res.angles[i] <= robot.hi + 1e-12)


def _same_solutions(row: np.ndarray, angles: np.ndarray) -> None:
    """A pose's ``solutions`` row: ``angles`` (k, n) in their order, then NaN rows only."""
    k = len(angles)
    np.testing.assert_allclose(row[:k], angles, atol=1e-12, rtol=0)
    assert np.all(np.isnan(row[k:]))


def _seven(name: str) -> ik.Robot:
    if name == "panda":
        return load_example("panda")
    path = example_path("ur5").parents[2] / "xarm_description/urdf/xarm7.urdf"
    return ik.load_urdf(path, tip="link_eef")


@pytest.mark.parametrize("name", ["panda", "xarm7"])
def test_seven_joints_searched_as_solve_gives_them_and_held_as_solve_all(name):
    """A 7-joint arm: by default each pose's held joint is searched, and the answer is the one
    ``geoik.solve(..., method="analytic")`` gives, the count that of ``solve_all`` at the held
    value found; with ``redundancy=v``, pose by pose what ``solve_all(..., redundancy=v)``
    gives."""
    robot = _seven(name)
    j = robot.analytic_plan().locked
    assert j in (0, 6)
    rng = np.random.default_rng(11)
    frames = np.array([robot.tip_frame(q) for q in robot.random_angles(rng, 25)])
    pos = np.concatenate([frames[:, :3, 3], rng.uniform(3, 4, (3, 3))])
    rot = np.concatenate([frames[:, :3, :3], frames[:3, :3, :3]])
    start = robot.random_angles(np.random.default_rng(12))
    exact = {"tol": 1e-9, "angle_tol": 1e-9}
    res = evaluate(robot, pos, "analytic", orientations=rot, start=start)
    assert len(res) == len(pos)
    assert np.all(np.isfinite(res.angles)) and not np.any(np.isnan(res.error))
    assert np.all(res.solved[:25]) and np.all(res.count[:25] >= 1)
    assert set(res.status[-3:].tolist()) == {int(SetStatus.OUT_OF_REACH)}
    assert np.all(res.count[-3:] == 0)
    for i in range(25):
        with jit.mode("compiled"):
            one = ik.solve(
                robot, pos[i], orientation=rot[i], start=start, method="analytic", **exact
            )
            at = ik.solve_all(
                robot, pos[i], orientation=rot[i], start=start, redundancy=res.angles[i, j], **exact
            )
        np.testing.assert_allclose(res.angles[i], one.angles, atol=1e-12, rtol=0)
        assert res.count[i] == len(at)
        frame = robot.tip_frame(res.angles[i])
        assert np.linalg.norm(frame[:3, 3] - pos[i]) <= 1e-9 and res.error[i] <= 1e-9
        assert np.linalg.norm(frame[:3, :3] - rot[i]) <= 1e-8 and res.angle_error[i] <= 1e-9
        assert np.all(res.angles[i] >= robot.lo - 1e-12) and np.all(
            res.angles[i] <= robot.hi + 1e-12
        )

    value = float(np.clip(0.5, robot.lo[j], robot.hi[j]))
    held = evaluate(
        robot, pos, "analytic", orientations=rot, start=start, redundancy=value, every=True
    )
    assert np.all(held.angles[held.status != SetStatus.OUT_OF_REACH, j] == value)
    assert len(set(held.status.tolist())) >= 2  # a held value meets some poses, not all
    for i in range(len(pos)):
        with jit.mode("compiled"):
            one = ik.solve_all(robot, pos[i], orientation=rot[i], start=start, redundancy=value)
        assert held.status[i] == one.status
        assert held.count[i] == (len(one) if one.status is SetStatus.SOLVED else 0)
        assert held.solutions is not None
        _same_solutions(held.solutions[i], one.angles if held.count[i] else one.angles[:0])
        np.testing.assert_allclose(held.angles[i], one.rows[0, : robot.n], atol=1e-12, rtol=0)
        assert held.error[i] == pytest.approx(one.rows[0, robot.n + 1], abs=1e-15)


@pytest.mark.parametrize("case", BEYOND_REACH_CASES)
def test_the_search_keeps_a_branch_the_closed_form_loses_near_a_fold(case):
    """The batch runs ``geoik.solve``'s 7-joint search: where the closed form of the six
    other joints loses the branch of a followed target near a fold of joint 7, the answer is
    the local solve's solution, as ``solve`` gives it (``test_analytic_redundant``)."""
    robot = _seven("xarm7")
    q = np.array(case[0] + case[1])
    near = np.array(case[2] + case[3])
    frame = robot.tip_frame(q)
    got = evaluate(
        robot, frame[None, :3, 3], "analytic", orientations=frame[None, :3, :3], start=near
    )
    with jit.mode("compiled"):
        sol = ik.solve(
            robot, frame[:3, 3], orientation=frame[:3, :3], method="analytic", start=near
        )
    np.testing.assert_allclose(got.angles[0], sol.angles, atol=1e-12, rtol=0)
    assert np.sum((got.angles[0] - near) ** 2) <= np.sum((q - near) ** 2) + 0.01
    assert got.count[0] >= 1 and got.error[0] <= 1e-9 and got.angle_error[0] <= 1e-9


def test_quaternions_equal_matrices():
    robot = load_example("so100")
    rng = np.random.default_rng(3)
    q = _quats(rng, 30)
    pos = np.array([robot.tip_frame(a)[:3, 3] for a in robot.random_angles(rng, 30)])
    a = evaluate(robot, pos, "analytic", orientations=q)
    b = evaluate(robot, pos, "analytic", orientations=_matrices(q))
    np.testing.assert_array_equal(a.status, b.status)
    np.testing.assert_allclose(a.angle_error, b.angle_error, atol=1e-12, rtol=0)
    # the nearest orientation's angle is flat at its minimum: its joints agree to less
    np.testing.assert_allclose(a.angles, b.angles, atol=1e-6, rtol=0)


def test_position_only_on_five_joints():
    robot = load_example("so100")
    rng = np.random.default_rng(4)
    pos = np.array([robot.tip_frame(a)[:3, 3] for a in robot.random_angles(rng, 20)])
    res = evaluate(robot, pos, "analytic")
    assert np.all(res.error <= 1e-9)
    assert np.all(np.isin(res.status, [SetStatus.SOLVED, SetStatus.NEAREST_ORIENTATION]))


def test_checks():
    so100 = load_example("so100")
    pos = np.zeros((3, 3))
    with pytest.raises(ik.InvalidTargetError):
        evaluate(so100, pos, "analytic", orientations=np.ones((3, 4)))
    with pytest.raises(ik.InvalidTargetError, match=r"one per target, got an array of shape"):
        evaluate(so100, pos, "analytic", orientations=np.zeros((2, 3, 3)))  # 2 for 3 targets
    with pytest.raises(ik.InvalidTargetError):
        evaluate(load_example("ur5"), pos, "analytic")  # six joints need orientations
    with pytest.raises(ik.UnsupportedChainError):
        evaluate(so100, pos, "dls")
    with pytest.raises(ik.InvalidOptionError):
        evaluate(so100, pos, "analytic", colour="red")
    with pytest.raises(ik.InvalidOptionError):
        evaluate(so100, pos, "analytic", max_iter=3)
    huge = np.broadcast_to(np.zeros(3), (10**12, 3))
    with pytest.raises(ik.InvalidOptionError, match="memory"):
        evaluate(so100, huge, "analytic")
    empty = evaluate(so100, np.zeros((0, 3)), "analytic", orientations=np.zeros((0, 4)))
    assert len(empty) == 0
    empty = evaluate(so100, np.zeros((0, 3)), "analytic", every=True)
    assert empty.solutions is not None and empty.solutions.shape == (0, 0, so100.n)
    with pytest.raises(ik.InvalidOptionError, match="every"):
        evaluate(so100, pos, "analytic", every="yes")
    with pytest.raises(ik.InvalidOptionError, match="redundancy|7-joint"):
        evaluate(
            load_example("ur5"),
            pos,
            "analytic",
            orientations=np.eye(3)[None].repeat(3, 0),
            redundancy=0.1,
        )
    panda = load_example("panda")
    j = panda.analytic_plan().locked
    for bad in (panda.hi[j] + 0.1, float("nan"), "0.2"):
        with pytest.raises(ik.InvalidOptionError, match="limits"):
            evaluate(
                panda, pos, "analytic", orientations=np.eye(3)[None].repeat(3, 0), redundancy=bad
            )


def test_each_orientation_is_checked_and_a_nearly_orthonormal_one_mended():
    """A row that is not a rotation (not finite, a reflection, off orthonormal by more than
    1e-6) is refused by its index; one off by less is replaced by the nearest rotation."""
    from geoik.batch.arms import rotations

    rng = np.random.default_rng(8)
    good = _matrices(_quats(rng, 6))
    for row, spoil in [
        (2, lambda a: a.__setitem__((0, 1), np.nan)),
        (4, lambda a: a.__setitem__((2, 2), np.inf)),
        (1, lambda a: a.__setitem__(slice(None), -a)),  # determinant -1
        (5, lambda a: a.__setitem__((1, 0), a[1, 0] + 1e-3)),
    ]:
        r = good.copy()
        spoil(r[row])
        with pytest.raises(ik.InvalidTargetError, match=f"row {row}"):
            rotations(r, 6)
    near = good.copy()
    near[3, 0, 0] += 1e-9
    mended = rotations(near, 6)
    np.testing.assert_array_equal(mended[[0, 1, 2, 4, 5]], good[[0, 1, 2, 4, 5]])
    assert np.abs(mended[3].T @ mended[3] - np.eye(3)).max() <= 1e-15
    assert np.abs(mended[3] - good[3]).max() <= 2e-9
    strided = np.concatenate([good, good], axis=2)[:, :, :3]  # not contiguous
    np.testing.assert_array_equal(rotations(strided, 6), good)


@pytest.mark.parametrize("name", ["so100", "panda"])
def test_on_a_dask_cluster_as_here(name):
    """Blocks of poses solved on a (threaded, in-process) Dask cluster give what this process
    gives, also for a 7-joint arm's search."""
    distributed = pytest.importorskip("dask.distributed")
    robot = load_example(name)
    pos, rot = _poses(robot, 5)
    here = evaluate(robot, pos, "analytic", orientations=rot, every=True)
    with distributed.Client(
        processes=False,
        n_workers=1,
        threads_per_worker=1,
        dashboard_address=None,
        scheduler_kwargs=QUIET_HTTP,
    ) as client:
        there = evaluate(
            robot, pos, "analytic", orientations=rot, client=client, block=7, every=True
        )
    for field in ("status", "count", "angles", "error", "angle_error", "solutions"):
        np.testing.assert_array_equal(getattr(here, field), getattr(there, field))


def test_missing_dask_is_a_clear_error(monkeypatch):
    import builtins

    real = builtins.__import__

    def fake(name, *a, **k):
        if name.startswith("dask"):
            raise ImportError(name)
        return real(name, *a, **k)

    monkeypatch.setattr(builtins, "__import__", fake)
    robot = load_example("so100")
    with pytest.raises(ik.GeoIKError, match="geoik\\[dask\\]"):
        evaluate(robot, np.zeros((2, 3)), "analytic", client=object())
