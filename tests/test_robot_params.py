"""Robots from parameters (``Robot.from_dh``, ``Robot.from_poe``): their frames against an
independent product of the published tables, against the URDF of the same arm, and their
checks."""

from __future__ import annotations

import numpy as np
import pytest

import geoik as ik
from geoik.robots.urdf import example_path, load_example

pytest.importorskip("yourdfpy")

PI = np.pi
UR5_DH = {  # Universal Robots' published table (classic convention)
    "a": [0.0, -0.425, -0.39225, 0.0, 0.0, 0.0],
    "alpha": [PI / 2, 0.0, 0.0, PI / 2, -PI / 2, 0.0],
    "d": [0.089159, 0.0, 0.0, 0.10915, 0.09465, 0.0823],
}
PANDA_DH = {  # Franka's published table (Craig's convention), flange 0.107 m along z
    "a": [0.0, 0.0, 0.0, 0.0825, -0.0825, 0.0, 0.088],
    "alpha": [0.0, -PI / 2, PI / 2, PI / 2, -PI / 2, PI / 2, PI / 2],
    "d": [0.333, 0.0, 0.316, 0.0, 0.384, 0.0, 0.0],
}


def _rz(t):
    c, s = np.cos(t), np.sin(t)
    return np.array([[c, -s, 0, 0], [s, c, 0, 0], [0, 0, 1, 0], [0, 0, 0, 1.0]])


def _rx(t):
    c, s = np.cos(t), np.sin(t)
    return np.array([[1, 0, 0, 0], [0, c, -s, 0], [0, s, c, 0], [0, 0, 0, 1.0]])


def _move(x, z):
    m = np.eye(4)
    m[0, 3], m[2, 3] = x, z
    return m


def _table(a, alpha, d, theta, q, modified):
    """The table's product, link by link, as the conventions write it."""
    t = np.eye(4)
    for i in range(len(a)):
        if modified:
            t = t @ _rx(alpha[i]) @ _move(a[i], 0.0) @ _rz(theta[i] + q[i]) @ _move(0.0, d[i])
        else:
            t = t @ _rz(theta[i] + q[i]) @ _move(0.0, d[i]) @ _move(a[i], 0.0) @ _rx(alpha[i])
    return t


@pytest.mark.parametrize("modified", [False, True])
def test_dh_frames_are_the_tables_product(modified):
    rng = np.random.default_rng(1)
    theta = rng.uniform(-1, 1, 6)
    tool = _rx(0.3) @ _move(0.01, 0.05)
    robot = ik.Robot.from_dh(**UR5_DH, theta=theta, modified=modified, tool=tool)
    assert robot.n == 6 and robot.k == 1 and set(robot.kinds) == {"continuous"}
    for q in rng.uniform(-4, 4, (20, 6)):
        want = _table(UR5_DH["a"], UR5_DH["alpha"], UR5_DH["d"], theta, q, modified) @ tool
        np.testing.assert_allclose(robot.tip_frame(q), want, atol=1e-12, rtol=0)


def test_the_ur5_from_its_table_decomposes_and_every_solution_lands():
    robot = ik.Robot.from_dh(**UR5_DH)
    assert robot.family.startswith("6R: three parallel axes (2, 3, 4)")
    rng = np.random.default_rng(2)
    for q in rng.uniform(-PI, PI, (10, 6)):
        frame = robot.tip_frame(q)
        every = ik.solve_all(robot, frame[:3, 3], orientation=frame[:3, :3])
        assert every.status is ik.SetStatus.SOLVED and len(every) >= 1
        for sol in every.angles:
            got = robot.tip_frame(sol)
            assert np.linalg.norm(got[:3, 3] - frame[:3, 3]) <= 1e-9
            assert np.abs(got[:3, :3] - frame[:3, :3]).max() <= 1e-9


def test_the_pandas_published_table_is_its_urdf():
    """Franka's modified DH table with the flange is the URDF's ``panda_link8``, limits
    given: the same frames, the same family, revolute joints."""
    urdf = ik.load_urdf(example_path("panda"), tip="panda_link8")
    flange = _move(0.0, 0.107)
    robot = ik.Robot.from_dh(**PANDA_DH, modified=True, tool=flange, lo=urdf.lo, hi=urdf.hi)
    assert set(robot.kinds) == {"revolute"}
    np.testing.assert_array_equal(robot.lo, urdf.lo)
    assert robot.family == urdf.family
    rng = np.random.default_rng(3)
    for q in rng.uniform(urdf.lo, urdf.hi, (20, 7)):
        np.testing.assert_allclose(robot.tip_frame(q), urdf.tip_frame(q), atol=1e-12, rtol=0)
    frame = urdf.tip_frame(rng.uniform(urdf.lo, urdf.hi))
    sol = ik.solve(robot, frame[:3, 3], orientation=frame[:3, :3], method="analytic")
    assert sol.status is ik.Status.REACHED
    assert np.all(sol.angles >= robot.lo) and np.all(sol.angles <= robot.hi)
    assert np.linalg.norm(robot.tip_frame(sol.angles)[:3, 3] - frame[:3, 3]) <= 1e-4


@pytest.mark.parametrize("name", ["ur5", "kinova", "so100", "panda"])
def test_poe_form_gives_the_same_arm_back(name):
    arm = load_example(name)
    poe = arm.poe()
    robot = ik.Robot.from_poe(poe.H, poe.P, poe.R_tip, lo=poe.lo, hi=poe.hi, name=name)
    assert robot.family == arm.family and robot.name == name
    back = robot.poe()
    np.testing.assert_allclose(back.H, poe.H, atol=1e-15)
    np.testing.assert_allclose(back.P, poe.P, atol=1e-15)
    rng = np.random.default_rng(4)
    for q in rng.uniform(np.maximum(arm.lo, -PI), np.minimum(arm.hi, PI), (10, arm.n)):
        np.testing.assert_allclose(robot.tip_frame(q), arm.tip_frame(q), atol=1e-12, rtol=0)


def test_limits_make_a_joint_revolute_and_none_continuous():
    inf = np.inf
    robot = ik.Robot.from_dh(
        **UR5_DH, lo=[-inf, -1, -inf, -2, -inf, -3], hi=[inf, 1, inf, 2, inf, 3]
    )
    assert robot.kinds == ("continuous", "revolute") * 3
    np.testing.assert_array_equal(robot.hi, [inf, 1, inf, 2, inf, 3])
    q = robot.rest_angles()
    assert np.all(q == 0.0)
    with pytest.raises(ik.InvalidChainError) as err:
        ik.Robot.from_dh(**UR5_DH, lo=[-inf] * 6, hi=[inf, 1, inf, 2, inf, 3])
    assert err.value.argument == "lo[1], hi[1]"


def test_bad_parameters_are_refused_by_name():
    h = np.tile([0.0, 0.0, 1.0], (3, 1))
    p = np.zeros((4, 3))
    cases = [
        (lambda: ik.Robot.from_dh([0, 1], [0, 0, 0], [0, 0, 0]), "alpha"),
        (lambda: ik.Robot.from_dh([0, 1, 0], [0, 0, 0], [0, np.nan, 0]), "d[1]"),
        (lambda: ik.Robot.from_dh([0, 1, 0], [0, 0, 0], [0, 0, 0], theta=[0, 0]), "theta"),
        (lambda: ik.Robot.from_dh([], [], []), "a"),
        (lambda: ik.Robot.from_dh([0, True, 0], [0, 0, 0], [0, 0, 0]), "a"),
        (lambda: ik.Robot.from_dh([0, 1, 0], [0, 0, 0], [0, 0, 0], tool=np.ones((4, 4))), "tool"),
        (lambda: ik.Robot.from_poe(h, p[:3]), "P"),
        (lambda: ik.Robot.from_poe(h[:, :2], p), "H"),
        (lambda: ik.Robot.from_poe(2 * h, p), "axes"),
        (lambda: ik.Robot.from_poe(h, p, lo=[0, 0, 1], hi=[1, 1, 0]), "lo[2], hi[2]"),
        (lambda: ik.Robot.from_poe(h, p, lo=[0, 0], hi=[1, 1, 1]), "lo"),
        (lambda: ik.Robot.from_poe(h, p, R_tip=2 * np.eye(3)), "tip_rot"),
    ]
    for make, argument in cases:
        with pytest.raises(ik.InvalidChainError) as err:
            make()
        assert err.value.argument.startswith(argument), (argument, err.value.argument, err.value)
