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


def test_exactly_5_degrees_is_not_over_5():
    chain = ik.Chain.planar([1.0])
    keys = np.array([[0.0], [math.radians(5.0)], [math.radians(10.0) + 1e-9]])
    c = ik.costs(_solution(chain, Motion(chain, keys)))
    assert c.rotations_over_5deg == 1
    assert c.rotation_sum_deg == pytest.approx(10.0)


@pytest.mark.parametrize("method", ["fabrik", "dls", "ccd", "two-bone"])
def test_costs_read_every_recorded_rotation(method):
    """Rotation count and sum agree with the keyframes, joint by joint and step by step."""
    n = 2 if method == "two-bone" else 6
    chain = ik.Chain.planar(np.linspace(0.5, 1.5, n))
    sol = ik.solve(chain, (0.4 * chain.total_length, 0.5 * chain.total_length), method=method)
    steps = np.abs(np.diff(sol.motion.keys, axis=0))
    c = ik.costs(sol)
    assert c.rotations_over_5deg == int(np.count_nonzero(steps > math.radians(5.0)))
    assert c.rotation_sum_deg == pytest.approx(math.degrees(steps[steps > 1e-12].sum()), rel=1e-12)
    assert c.iterations == sol.iterations
    assert c.path_length == sol.motion.path_length()


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


def test_a_path_of_rounding_noise_settles():
    """A step that hardly moves the end effector (joints turning about axes through it) has a
    path of rounding noise, which two estimates never agree on relatively: the sampling stops
    once they agree to 1e-10 of the chain's size, not after 65,536 samples."""
    from geoik.motion.replay import SETTLED_SIZE, path_settled

    size = 2.0
    noise = 1e-12
    assert path_settled(noise, 2.0 * noise, size)  # both estimates are rounding noise
    assert not path_settled(1.0, 1.0 + 1e-6, size)  # a real path still needs 1e-8 relative
    assert path_settled(1.0, 1.0 + 0.5e-8, size)
    assert not path_settled(0.0, 2.0 * SETTLED_SIZE * size, size)


def test_a_twist_of_the_last_link_adds_no_path():
    """A step whose last joint turns about its own link while the base bends a little: the
    twist does not move the end effector, so the path is the base's arc alone."""
    c = ik.Chain.spatial([1.0, 1.0])
    keys = np.zeros((2, 2, 4))
    keys[:, :, 0] = 1.0
    half = math.radians(80.0) / 2.0
    keys[1, 1] = (math.cos(half), math.sin(half), 0.0, 0.0)  # about the link's own +x
    keys[1, 0] = (math.cos(0.01), 0.0, 0.0, math.sin(0.01))  # and a tiny bend at the base
    count, total, path = Motion(c, keys).measure()
    assert count == 1
    assert total == pytest.approx(math.radians(80.0) + 0.02, rel=1e-12)
    assert path == pytest.approx(0.02 * 2.0, rel=1e-6)  # the base's bend alone moves the tip
