"""The analytic solver on arms of four and five joints: the SO-100 and a four-joint arm built
here. Every returned solution is checked by the robot's own forward kinematics; where the
orientation is out of reach, the position is exact and no configuration found by a brute-force
search (random joint values within the limits, pulled onto the position by Gauss-Newton steps)
comes nearer the orientation."""

from __future__ import annotations

import numpy as np
import pytest

import geoik as ik
from geoik import jit
from geoik.kinematics import angle_between
from geoik.robots.analytic import SetStatus
from geoik.robots.urdf import load_example

pytest.importorskip("yourdfpy")


def four_joint_arm(limits: bool = True) -> ik.Robot:
    """A four-joint arm in the OpenManipulator-X's layout: a turn about z, then three pitch
    joints about y, the tip ahead of the last one."""
    xyz = np.array([[0.0, 0.0, 0.08], [0.0, 0.0, 0.06], [0.03, 0.0, 0.13], [0.12, 0.0, 0.0]])
    lo = np.radians([-170.0, -100.0, -100.0, -100.0]) if limits else np.full(4, -np.inf)
    hi = np.radians([170.0, 90.0, 80.0, 110.0]) if limits else np.full(4, np.inf)
    kinds = ("revolute",) * 4 if limits else ("continuous",) * 4
    return ik.Robot(
        ("turn", "shoulder", "elbow", "wrist"),
        kinds,
        np.array([-1, 0, 1, 2]),
        xyz,
        np.repeat(np.eye(3)[None], 4, axis=0),
        np.array([[0.0, 0.0, 1.0], [0.0, 1.0, 0.0], [0.0, 1.0, 0.0], [0.0, 1.0, 0.0]]),
        lo,
        hi,
        ("tip",),
        np.array([3]),
        np.array([[0.13, 0.0, 0.0]]),
        np.eye(3)[None],
        name="four",
    )


@pytest.fixture(scope="module", params=["so100", "four", "allegro finger"])
def arm(request) -> ik.Robot:
    if request.param == "allegro finger":
        return load_example("allegro").with_tips("link_3.0_tip")
    return load_example("so100") if request.param == "so100" else four_joint_arm()


def _gap(a: np.ndarray, b: np.ndarray) -> float:
    return float(np.max(np.abs(np.remainder(a - b + np.pi, 2 * np.pi) - np.pi)))


def _check_rows(robot: ik.Robot, angles: np.ndarray, errors: np.ndarray, target, goal) -> None:
    """Each row within the limits, its forward kinematics on the position to 1e-9 and at the
    angle error it reports."""
    assert np.all(np.isfinite(angles)) and np.all(np.isfinite(errors))
    assert np.all(angles >= robot.lo - 1e-12) and np.all(angles <= robot.hi + 1e-12)
    for q, (dp, da) in zip(angles, errors, strict=True):
        frame = robot.tip_frame(q)
        assert np.linalg.norm(frame[:3, 3] - target) <= 1e-9
        assert dp <= 1e-9
        assert abs(angle_between(goal, frame[:3, :3]) - da) <= 1e-9


def test_family_in_words():
    assert load_example("so100").family.startswith(
        "5R: three parallel axes (2, 3, 4), the tip on axis 5"
    )
    assert four_joint_arm().family.startswith("4R: three parallel axes (2, 3, 4)")
    finger = load_example("allegro").with_tips("link_3.0_tip")
    assert finger.family.startswith("4R: three parallel axes (2, 3, 4)")
    thumb = load_example("allegro").with_tips("link_15.0_tip")
    assert thumb.family.startswith("4R: no closed form")


def test_every_solution_of_held_out_poses(arm):
    rng = np.random.default_rng(5)
    for q in arm.random_angles(rng, 40):
        frame = arm.tip_frame(q)
        res = ik.solve_all(arm, frame[:3, 3], orientation=frame[:3, :3])
        assert res.status is SetStatus.SOLVED
        assert 1 <= len(res) <= 4
        _check_rows(arm, res.angles, res.errors, frame[:3, 3], frame[:3, :3])
        assert np.all(res.errors[:, 1] <= 1e-9)
        assert min(_gap(a, q) for a in res.angles) < 1e-7  # the true one among them


def test_count_without_limits():
    """Without limits a generic pose of the four-joint arm has two solutions (the elbow up and
    down; the base turned half a turn would need a roll), each distinct."""
    robot = four_joint_arm(limits=False)
    rng = np.random.default_rng(6)
    counts = []
    for q in rng.uniform(-np.pi, np.pi, (30, 4)):
        frame = robot.tip_frame(q)
        res = ik.solve_all(robot, frame[:3, 3], orientation=frame[:3, :3])
        _check_rows(robot, res.angles, res.errors, frame[:3, 3], frame[:3, :3])
        counts.append(len(res))
    assert min(counts) == 2 and max(counts) == 2


def _poe_frames(robot: ik.Robot, q: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """(m, 3, 3) rotations and (m, 3) positions of the tip at joint values ``q`` (m, n), by
    the product of exponentials in NumPy (independent of the kernels)."""
    poe = robot.poe()
    m = q.shape[0]
    acc = np.repeat(np.eye(3)[None], m, axis=0)
    p = np.repeat(poe.P[0][None], m, axis=0)
    for i in range(robot.n):
        k = poe.H[i]
        x = np.array([[0.0, -k[2], k[1]], [k[2], 0.0, -k[0]], [-k[1], k[0], 0.0]])
        s, c = np.sin(q[:, i])[:, None, None], np.cos(q[:, i])[:, None, None]
        turn = np.eye(3) + s * x + (1.0 - c) * (x @ x)
        acc = acc @ turn
        p = p + acc @ poe.P[i + 1]
    return acc @ poe.R_tip, p


def _brute_force_nearest(robot: ik.Robot, target, goal, rng, samples: int = 1000) -> float:
    """The least angle error to ``goal`` among random joint values within the limits pulled
    onto ``target`` by projected Gauss-Newton steps (those that land within 1e-10)."""
    lo = np.where(np.isfinite(robot.lo), robot.lo, -np.pi)
    hi = np.where(np.isfinite(robot.hi), robot.hi, np.pi)
    q = rng.uniform(lo, hi, (samples, robot.n))
    for _ in range(25):
        _, p = _poe_frames(robot, q)
        e = target - p
        jac = np.empty((samples, 3, robot.n))
        for j in range(robot.n):
            dq = q.copy()
            dq[:, j] += 1e-7
            jac[:, :, j] = (_poe_frames(robot, dq)[1] - p) / 1e-7
        jjt = jac @ jac.transpose(0, 2, 1) + 1e-12 * np.eye(3)
        step = (jac.transpose(0, 2, 1) @ np.linalg.solve(jjt, e[:, :, None]))[:, :, 0]
        q = np.clip(q + step, lo, hi)
    rot, p = _poe_frames(robot, q)
    on = np.linalg.norm(p - target, axis=1) <= 1e-10
    assert on.sum() > 10
    tr = np.einsum("mij,ij->m", rot[on], goal)
    return float(np.min(np.arccos(np.clip((tr - 1.0) / 2.0, -1.0, 1.0))))


def _random_rotation(rng) -> np.ndarray:
    w = rng.normal(size=4)
    w /= np.linalg.norm(w)
    return _quat(w)


def _quat(w: np.ndarray) -> np.ndarray:
    a, b, c, d = w
    return np.array(
        [
            [a * a + b * b - c * c - d * d, 2 * (b * c - a * d), 2 * (b * d + a * c)],
            [2 * (b * c + a * d), a * a - b * b + c * c - d * d, 2 * (c * d - a * b)],
            [2 * (b * d - a * c), 2 * (c * d + a * b), a * a - b * b - c * c + d * d],
        ]
    )


def test_nearest_orientation_beats_brute_force(arm):
    """A reachable position with a random orientation: the solutions reach the position, and
    no configuration found by brute force comes nearer the orientation."""
    rng = np.random.default_rng(7)
    for q in arm.random_angles(rng, 3):
        target = arm.tip_frame(q)[:3, 3]
        goal = _random_rotation(rng)
        res = ik.solve_all(arm, target, orientation=goal)
        assert res.status is SetStatus.NEAREST_ORIENTATION, res.reason
        assert len(res) >= 1
        _check_rows(arm, res.angles, res.errors, target, goal)
        assert np.all(np.diff(res.errors[:, 1]) >= -1e-12)  # the nearest first
        best = _brute_force_nearest(arm, target, goal, rng)
        assert res.errors[0, 1] <= best + 1e-6
        sol = ik.solve(arm, target, orientation=goal, method="analytic")
        assert sol.status is ik.Status.CLOSEST
        assert sol.error <= 1e-9
        assert abs(sol.angle_error - res.errors[0, 1]) <= 1e-9


def test_position_only():
    """No orientation: the position reached, the tip's orientation held near the start's."""
    robot = load_example("so100")
    rng = np.random.default_rng(8)
    for q in robot.random_angles(rng, 5):
        target = robot.tip_frame(q)[:3, 3]
        res = ik.solve_all(robot, target)
        assert res.status is SetStatus.SOLVED and len(res) >= 1
        _check_rows(robot, res.angles, res.errors, target, res.orientation)
        sol = ik.solve(robot, target, method="analytic")
        assert sol.status is ik.Status.REACHED and sol.error <= 1e-9
        assert sol.orientation is None and sol.angle_error is None


def test_out_of_reach_says_so(arm):
    far = np.array([5.0, 0.0, 0.0])
    res = ik.solve_all(arm, far, orientation=np.eye(3))
    assert res.status is SetStatus.OUT_OF_REACH and len(res) == 0
    assert len(res.closest) >= 1 and np.all(np.isfinite(res.closest))
    assert np.all(res.closest_errors[:, 0] > 1.0)
    sol = ik.solve(arm, far, orientation=np.eye(3), method="analytic")
    assert sol.status is ik.Status.CLOSEST and np.all(np.isfinite(sol.angles))


def test_compiled_equals_interpreted():
    robot = load_example("so100")
    rng = np.random.default_rng(9)
    target = robot.tip_frame(robot.random_angles(rng))[:3, 3]
    goal = _random_rotation(rng)
    out = []
    for how in ("compiled", "interpreted"):
        with jit.mode(how):
            res = ik.solve_all(robot, target, orientation=goal)
        out.append(res.rows[: len(res)])
    np.testing.assert_allclose(out[0], out[1], rtol=0, atol=1e-9)


def test_degenerate_targets_are_finite_and_flagged():
    """The zero configuration (the arm in line), and goals on axis 1 (the base's turn not fixed
    by the position: flagged singular), never give NaN."""
    robot = load_example("so100")
    base, axis = robot.poe().P[0], robot.poe().H[0]
    zero = robot.tip_frame(np.zeros(5))
    for target, goal, singular in (
        (zero[:3, 3], zero[:3, :3], False),
        (base + 0.2 * axis, np.eye(3), True),
        (base + 0.1 * axis, np.diag([1.0, -1.0, -1.0]), True),
    ):
        res = ik.solve_all(robot, target, orientation=goal)
        rows = res.rows[: sum(res.sizes)]
        assert len(rows) and np.all(np.isfinite(rows))
        if res.status is not SetStatus.OUT_OF_REACH:
            for q in np.concatenate([res.angles, res.outside]):
                assert np.linalg.norm(robot.tip_frame(q)[:3, 3] - target) <= 1e-9
        if singular:
            assert np.all(rows[:, robot.n].astype(int) & 1)  # SINGULAR


def test_axes_parallel_only_to_rounding():
    """An SO-100 whose elbow axis is 3e-6 rad off its neighbours (as a URDF's rounded
    ``rpy`` leaves them): the family is found all the same and the closed form's candidates
    are polished onto the arm as it is, exact to 1e-9."""
    so100 = load_example("so100")
    axes = so100.axes.copy()
    axes[2] = axes[2] + 3e-6 * np.cross(axes[2], [0.3, 0.4, 0.5])
    axes[2] /= np.linalg.norm(axes[2])
    robot = ik.Robot(
        so100.joint_names,
        so100.kinds,
        so100.parents,
        so100.origin_xyz,
        so100.origin_rot,
        axes,
        so100.lo,
        so100.hi,
        so100.tip_names,
        so100.tip_parents,
        so100.tip_xyz,
        so100.tip_rot,
    )
    assert robot.family.startswith("5R: three parallel axes")
    rng = np.random.default_rng(10)
    for q in robot.random_angles(rng, 20):
        frame = robot.tip_frame(q)
        res = ik.solve_all(robot, frame[:3, 3], orientation=frame[:3, :3])
        assert res.status is SetStatus.SOLVED
        _check_rows(robot, res.angles, res.errors, frame[:3, 3], frame[:3, :3])
        assert np.all(res.errors[:, 1] <= 1e-9)
        assert min(_gap(a, q) for a in res.angles) < 1e-6
    # an orientation out of reach: the position still exact on the arm as it is
    for q in robot.random_angles(rng, 3):
        target = robot.tip_frame(q)[:3, 3]
        goal = _random_rotation(rng)
        res = ik.solve_all(robot, target, orientation=goal)
        assert res.status is SetStatus.NEAREST_ORIENTATION, res.reason
        _check_rows(robot, res.angles, res.errors, target, goal)
