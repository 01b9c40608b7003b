"""The compiled geometry every kernel shares: angle wrapping and fitting, quaternions, joint
constraints in 3-D, forward kinematics and the final pose of a solve."""

from __future__ import annotations

import math

import numpy as np
import pytest

import geoik as ik
from geoik import geometry as g
from geoik.judge import finish_2d, finish_3d, judge_params

PI = math.pi


@pytest.mark.parametrize("a", [0.0, 0.1, -0.1, PI, -PI, 3 * PI, -3 * PI, 7.5, -7.5, 1e6])
def test_wrap_into_half_open_interval(a):
    w = g.wrap(a)
    assert -PI < w <= PI
    assert math.isclose(math.cos(w), math.cos(a), abs_tol=1e-9)
    assert math.isclose(math.sin(w), math.sin(a), abs_tol=1e-9)
    if -PI < a <= PI:
        assert w == a  # in range: unchanged, not rounded


def _sincos_arguments():
    rng = np.random.default_rng(7)
    quadrants = np.arange(-64, 65) * (PI / 2)  # where the quadrant changes, and beside it
    return np.concatenate(
        [
            rng.uniform(-PI, PI, 4000),
            rng.uniform(-100.0, 100.0, 2000),
            rng.uniform(-g.SINCOS_RANGE, g.SINCOS_RANGE, 2000),
            quadrants,
            np.nextafter(quadrants, np.inf),
            np.nextafter(quadrants, -np.inf),
            quadrants + 1e-9,
            [0.0, -0.0, 5e-324, 1e-300, -1e-8, PI / 4, -PI / 4, 3 * PI / 4],
        ]
    )


def test_sincos_matches_the_c_library():
    for x in _sincos_arguments():
        s, c = g.sincos(x)
        assert abs(s - math.sin(x)) <= 2.3e-16 and abs(c - math.cos(x)) <= 2.3e-16, x
        assert -1.0 <= s <= 1.0 and -1.0 <= c <= 1.0
    for x in (2.0e5, -1e300, math.inf, -math.inf, math.nan):  # beyond: the C library's own
        got = g.sincos(x)
        want = (math.sin(x), math.cos(x)) if math.isfinite(x) else (math.nan, math.nan)
        assert np.array_equal(got, want, equal_nan=True)


def test_sincos_of_many_values_at_once_is_each_ones():
    x = np.concatenate([_sincos_arguments(), [2.0e5, -1e300, math.inf, -math.inf, math.nan]])
    s, c = np.full(x.size + 3, 9.0), np.full(x.size + 3, 9.0)
    g.sincos_into(x, s, c, x.size)
    want = np.array([g.sincos(v) for v in x])
    np.testing.assert_array_equal(s[: x.size], want[:, 0])
    np.testing.assert_array_equal(c[: x.size], want[:, 1])
    assert np.all(s[x.size :] == 9.0) and np.all(c[x.size :] == 9.0)  # only the first m


def test_sincos_as_python_is_the_compiled_function():
    # kernels also run as plain Python (geoik.jit): both forms must give the same bits
    for x in _sincos_arguments()[::7]:
        assert g.sincos.py_func(x) == g.sincos(x), x


def test_fit_angle():
    inf = math.inf
    # free: the representative nearest the current angle (continuity)
    assert g.fit_angle(0.1, 4 * PI, -inf, inf) == (pytest.approx(4 * PI + 0.1), True)
    # limited: inside, inside after a turn, outside (nearer limit by angle)
    assert g.fit_angle(0.5, 0.0, -1.0, 1.0) == (0.5, True)
    assert g.fit_angle(0.5 + 2 * PI, 0.0, -1.0, 1.0) == (pytest.approx(0.5), True)
    assert g.fit_angle(1.2, 0.0, -1.0, 1.0) == (1.0, False)
    assert g.fit_angle(-3.0, 0.0, -1.0, 1.0) == (-1.0, False)
    assert g.fit_angle(3.0, 0.0, 2.0, PI) == (3.0, True)
    assert g.fit_angle(-3.0, 0.0, 2.0, PI) == (PI, False)  # nearer by angle across +-pi
    assert g.fit_angle(PI, 0.0, -PI, -2.0) == (-PI, True)  # the representative 2 pi away


def test_q_between_and_rotvecs():
    rng = np.random.default_rng(3)
    for _ in range(50):
        u, v = rng.normal(size=(2, 3))
        u, v = u / np.linalg.norm(u), v / np.linalg.norm(v)
        q = g.q_between(*u, *v)
        np.testing.assert_allclose(g.qrot(*q, *u), v, atol=1e-12)
        # minimal: the angle between them
        assert g.q_angle(*q) == pytest.approx(math.acos(np.clip(u @ v, -1, 1)), abs=1e-7)
        rv = g.q_to_rotvec(*q)
        np.testing.assert_allclose(np.abs(g.rotvec_to_q(*rv)), np.abs(q), atol=1e-12)
    # opposite vectors: a half turn about an axis normal to u, +z for u = +x (planar stays planar)
    q = g.q_between(1.0, 0.0, 0.0, -1.0, 0.0, 0.0)
    np.testing.assert_allclose(q, [0, 0, 0, 1], atol=1e-15)
    q = g.q_between(0.0, 0.0, 1.0, 0.0, 0.0, -1.0)
    assert np.all(np.isfinite(q)) and g.q_angle(*q) == pytest.approx(PI)


def test_constrain_ball_joint_keeps_twist_and_clamps_bend():
    cone = np.array([math.radians(30.0)])
    hinge = np.zeros((1, 3))
    lo, hi = np.array([-np.inf]), np.array([np.inf])
    bend = g.q_axis_angle(0.0, 0.0, 1.0, math.radians(70.0))
    twist = g.q_axis_angle(1.0, 0.0, 0.0, 0.4)
    q = g.qmul(*bend, *twist)
    c = g.constrain_joint_3d(*q, 0, cone, hinge, lo, hi)
    x = g.qrot(*c, 1.0, 0.0, 0.0)
    assert math.degrees(math.acos(x[0])) == pytest.approx(30.0)
    assert x[2] == pytest.approx(0.0, abs=1e-15) and x[1] > 0  # bent the same way, less
    # the twist about the link survives
    rest = g.qmul(*c, twist[0], -twist[1], -twist[2], -twist[3])
    np.testing.assert_allclose(rest, g.q_axis_angle(0.0, 0.0, 1.0, math.radians(30.0)), atol=1e-12)


def test_constrain_hinge_projects_and_clamps():
    cone = np.array([PI])
    hinge = np.array([[0.0, 0.0, 1.0]])
    lo, hi = np.array([-0.5]), np.array([0.5])
    q = g.rotvec_to_q(0.3, 0.2, 0.4)
    c = g.constrain_joint_3d(*q, 0, cone, hinge, lo, hi)
    rv = np.array(g.q_to_rotvec(*c))
    assert rv[0] == 0.0 and rv[1] == 0.0 and abs(rv[2]) <= 0.5
    q = g.q_axis_angle(0.0, 0.0, 1.0, 2.0)
    np.testing.assert_allclose(
        g.q_to_rotvec(*g.constrain_joint_3d(*q, 0, cone, hinge, lo, hi)), [0, 0, 0.5], atol=1e-15
    )


def test_finish_gives_forward_kinematics_wrapped_angles_and_error():
    chain = ik.Chain.planar([1.0, 2.0, 0.5], max_bend_deg=[None, 90, None])
    state = np.array([7.0, 1.0, -4.0])
    pos, out = np.empty((4, 2)), np.empty(3)
    params = judge_params(chain)
    code, err = finish_2d(
        chain.kernel_arrays, state, np.array([1.0, 1.0]), 2, 1e-9, params, pos, out
    )
    assert code == 2  # the kernel's MAX_ITERATIONS stands: the target is not reached
    np.testing.assert_allclose(out, [7.0 - 2 * PI, 1.0, -4.0 + 2 * PI])
    np.testing.assert_allclose(pos, chain.pose_from_angles(out).positions, atol=1e-12)
    assert err == pytest.approx(math.dist(pos[-1], (1.0, 1.0)))
    spatial = ik.Chain.spatial([1.0, 2.0])
    rv = np.array([[0.1, 0.2, 0.3], [0.0, -0.5, 0.2]])
    q = np.array([g.rotvec_to_q(*r) for r in rv])
    pos, out = np.empty((3, 3)), np.empty((2, 3))
    code, err = finish_3d(
        spatial.kernel_arrays, q, np.zeros(3), 0, 1e-9, judge_params(spatial), pos, out
    )
    assert code == 3  # a kernel's REACHED that the end effector belies becomes STALLED
    np.testing.assert_allclose(out, rv, atol=1e-15)
    np.testing.assert_allclose(pos, spatial.pose_from_angles(rv).positions, atol=1e-15)
    assert err == pytest.approx(np.linalg.norm(pos[-1]))


def test_beyond_reach():
    out = np.empty(2)
    lengths, base = np.array([1.0, 2.0]), np.array([1.0, 1.0])
    assert not g.beyond_reach(lengths, base, np.array([4.0, 1.0]), out)
    assert g.beyond_reach(lengths, base, np.array([1.0, 5.0]), out)
    np.testing.assert_allclose(out, [1.0, 4.0])
