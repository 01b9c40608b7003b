"""The seeds' costs read from recorded motion."""

from __future__ import annotations

import math

import numpy as np
import pytest

import geoik as ik
from geoik.motion import Motion


def test_single_rotation_costs_exact_arc():
    chain = ik.Chain.planar([1.0, 2.0])
    keys = np.array([[0.0, 0.0], [math.pi / 2, 0.0]])
    m = Motion(chain, keys)
    c = ik.costs(_solution(chain, m))
    assert c.rotations_over_5deg == 1
    assert c.rotation_sum_deg == pytest.approx(90.0)
    # the end effector (3, 0) turns a quarter circle of radius 3 about the base
    assert c.path_length == pytest.approx(3 * math.pi / 2, rel=1e-12)


def test_small_rotations_are_not_counted_over_5deg():
    chain = ik.Chain.planar([1.0, 1.0])
    keys = np.array([[0, 0], [math.radians(4.9), 0], [math.radians(4.9), math.radians(-5.1)]])
    c = ik.costs(_solution(chain, Motion(chain, keys)))
    assert c.rotations_over_5deg == 1
    assert c.rotation_sum_deg == pytest.approx(10.0)


def test_multi_joint_step_path_is_integrated():
    """Two joints turning together, equal and opposite: the tip of a [1, 1] chain from (2, 0)
    moves along a known curve; compare with a fine polyline."""
    chain = ik.Chain.planar([1.0, 1.0])
    keys = np.array([[0.0, 0.0], [1.0, -2.0]])
    m = Motion(chain, keys)
    t = np.linspace(0, 1, 200001)
    a1, a2 = t, -2 * t
    x = np.cos(a1) + np.cos(a1 + a2)
    y = np.sin(a1) + np.sin(a1 + a2)
    exact = np.sum(np.hypot(np.diff(x), np.diff(y)))
    assert m.path_length() == pytest.approx(exact, rel=1e-5)


def test_3d_single_rotation_arc_uses_distance_to_axis():
    chain = ik.Chain.spatial([1.0, 1.0])
    # joint 0 turns 90 degrees about the world x axis: the chain lies on that axis, so the tip
    # does not move at all
    q = np.zeros((2, 2, 4))
    q[:, :, 0] = 1.0
    q[1, 0] = [math.cos(math.pi / 4), math.sin(math.pi / 4), 0, 0]
    c = ik.costs(_solution(chain, Motion(chain, q.copy())))
    assert c.rotations_over_5deg == 1
    assert c.rotation_sum_deg == pytest.approx(90.0)
    assert c.path_length == pytest.approx(0.0, abs=1e-12)
    # about z: radius 2
    q[1, 0] = [math.cos(math.pi / 4), 0, 0, math.sin(math.pi / 4)]
    assert Motion(chain, q.copy()).path_length() == pytest.approx(math.pi, rel=1e-12)


def test_costs_match_between_2d_and_3d_ccd():
    """A 3-D chain solving a target in the xy-plane moves like the planar chain."""
    c2 = ik.Chain.planar([2] * 10)
    c3 = ik.Chain.spatial([2] * 10, hinge_axes=[(0, 0, 1)] * 10)
    s2 = ik.solve(c2, (8.33, 2.83), method="ccd")
    s3 = ik.solve(c3, (8.33, 2.83, 0.0), method="ccd")
    k2, k3 = ik.costs(s2), ik.costs(s3)
    assert k2.rotations_over_5deg == k3.rotations_over_5deg
    assert k2.rotation_sum_deg == pytest.approx(k3.rotation_sum_deg, rel=1e-9)
    assert k2.path_length == pytest.approx(k3.path_length, rel=1e-9)
    np.testing.assert_allclose(s3.positions[:, :2], s2.positions, atol=1e-9)


def test_trace_follows_the_motion_and_matches_path_length():
    chain = ik.Chain.planar([2] * 10)
    sol = ik.solve(chain, (-4.08, 16.0), method="ccd")
    trace = sol.motion.trace(max_step_deg=0.05)
    np.testing.assert_allclose(trace[0], [20, 0])
    np.testing.assert_allclose(trace[-1], sol.positions[-1], atol=1e-12)
    polyline = np.sum(np.linalg.norm(np.diff(trace, axis=0), axis=1))
    assert polyline == pytest.approx(ik.costs(sol).path_length, rel=1e-5)


def _solution(chain, motion):
    last = motion.poses()[-1]
    return ik.Solution(
        chain=chain,
        target=last[-1].copy(),
        method="test",
        positions=last.copy(),
        angles=motion.angles[-1].copy(),
        status=ik.Status.REACHED,
        iterations=1,
        error=0.0,
        motion=motion,
        tol=1e-9,
    )
