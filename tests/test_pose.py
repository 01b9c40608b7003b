"""Poses: positions are the source of truth, relative angles derived from them."""

from __future__ import annotations

import math

import numpy as np
import pytest

import geoik as ik


def test_planar_angles_from_positions():
    pose = ik.Pose(np.array([[0.0, 0.0], [1.0, 0.0], [1.0, 1.0], [0.0, 1.0]]))
    np.testing.assert_allclose(pose.angles(), [0.0, math.pi / 2, math.pi / 2])
    np.testing.assert_array_equal(pose.end_effector, [0.0, 1.0])


def test_angles_round_trip_2d_and_3d():
    rng = np.random.default_rng(1)
    planar = ik.Chain.planar(rng.uniform(0.1, 5, 8))
    a = rng.uniform(-math.pi, math.pi, 8)
    np.testing.assert_allclose(
        ik.Pose(planar.pose_from_angles(a).positions.copy()).angles(), a, atol=1e-12
    )
    spatial = ik.Chain.spatial(rng.uniform(0.1, 5, 6))
    pose = spatial.pose_from_angles(rng.normal(size=(6, 3)))
    derived = ik.Pose(pose.positions.copy()).angles()
    # positions carry no twist: the derived rotations are twist-free but give the same pose
    np.testing.assert_allclose(
        spatial.pose_from_angles(derived).positions, pose.positions, atol=1e-12
    )


def test_pose_from_angles_keeps_the_angles_and_is_read_only():
    chain = ik.Chain.planar([1.0, 1.0])
    pose = chain.pose_from_angles([0.3, 4.0])
    np.testing.assert_array_equal(pose.angles(), [0.3, 4.0])  # as given, not re-derived
    with pytest.raises(ValueError):
        pose.positions[0, 0] = 1.0
    a = pose.angles()
    a[0] = 9.0
    assert pose.angles()[0] == 0.3  # angles() hands out a copy


def test_rest_pose_respects_limits():
    chain = ik.Chain.planar([1, 1], max_bend_deg=[None, (10, 90)])
    np.testing.assert_allclose(chain.rest_pose().angles(), [0, math.radians(10)])
    arm = ik.Chain.spatial([1, 1], max_bend_deg=[None, (20, 90)], hinge_axes=[None, (0, 0, 1)])
    np.testing.assert_allclose(arm.rest_pose().angles()[1], [0, 0, math.radians(20)], atol=1e-15)
