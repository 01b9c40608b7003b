"""Reach (seed 003 Section 4.1, safe zones): exact values, limited chains against dense grids,
the 3-D reductions, closest points and ``solve(..., clamp_to_reach=True)``."""

from __future__ import annotations

import itertools
import math

import numpy as np
import pytest

import geoik as ik
from geoik.reach import clamp_into_reach, closest_reachable_point, reach_is_exact


@pytest.mark.parametrize(
    ("lengths", "bends", "expected"),
    [
        ([3, 1], None, (2.0, 4.0)),
        ([1, 1], None, (0.0, 2.0)),
        ([1, 2, 5], None, (2.0, 8.0)),
        ([1, 1], 90, (math.sqrt(2), 2.0)),
        (
            [1, 1],
            [None, (30, 60)],
            (2 * math.cos(math.radians(30)), 2 * math.cos(math.radians(15))),
        ),
        ([1, 1, 1], [None, (30, 60), (30, 60)], (2.0, 1 + 2 * math.cos(math.radians(30)))),
    ],
)
def test_known_values(lengths, bends, expected):
    chain = ik.Chain.planar(lengths, max_bend_deg=bends)
    rmin, rmax = chain.reach()
    assert rmin == pytest.approx(expected[0], abs=1e-11)
    if expected[1] is not None:
        assert rmax == pytest.approx(expected[1], abs=1e-11)
    assert reach_is_exact(chain)


def test_signed_limits_excluding_zero_lower_the_maximum():
    chain = ik.Chain.planar([1, 1, 1], max_bend_deg=[None, (40, 80), (40, 80)])
    assert chain.reach()[1] < 3.0 - 1e-3


def _grid_distances(lengths, lo, hi, k):
    axes = [np.linspace(lo[j], hi[j], k) for j in range(1, len(lengths))]
    grid = np.array(list(itertools.product(*axes)))
    phi = np.concatenate([np.zeros((grid.shape[0], 1)), np.cumsum(grid, axis=1)], axis=1)
    return np.abs((lengths * np.exp(1j * phi)).sum(axis=1))


@pytest.mark.parametrize("seed", range(6))
def test_limited_chains_against_a_dense_grid(seed):
    rng = np.random.default_rng(seed)
    n = 3 + seed % 2
    lengths = rng.uniform(0.5, 2.0, n)
    bends = [None]
    for _ in range(n - 1):
        a, b = sorted(rng.uniform(-160, 160, 2))
        bends.append((a, max(b, a + 10)))
    chain = ik.Chain.planar(lengths, max_bend_deg=bends)
    rmin, rmax = chain.reach()
    dist = _grid_distances(lengths, chain.lo, chain.hi, 90 if n == 3 else 36)
    slack = 1e-9 * lengths.sum()
    # grid points are reachable, so never beyond the exact extremes, and they come close
    assert dist.min() >= rmin - slack and dist.max() <= rmax + slack
    assert dist.min() - rmin <= 0.05 * lengths.sum()
    assert rmax - dist.max() <= 0.05 * lengths.sum()


def test_free_joints_split_the_chain():
    chain = ik.Chain.planar([1, 1, 5, 1], max_bend_deg=[None, 20, None, 20])
    # [1,1] with 20 deg reaches [2cos10, 2]; [5,1] likewise [sqrt(26+10cos20), 6]
    m1, m2 = 2 * math.cos(math.radians(10)), math.sqrt(26 + 10 * math.cos(math.radians(20)))
    rmin, rmax = chain.reach()
    assert rmin == pytest.approx(m2 - 2.0, abs=1e-11)
    assert rmax == pytest.approx(8.0, abs=1e-11)
    assert m1 < 2.0


def test_cones_reduce_to_symmetric_planar_limits():
    lengths = [1.0, 2.0, 0.7, 1.5]
    cones = [None, 50, 120, 35]
    spatial = ik.Chain.spatial(lengths, max_bend_deg=cones)
    planar = ik.Chain.planar(lengths, max_bend_deg=cones)
    assert spatial.reach() == pytest.approx(planar.reach(), abs=1e-11)
    assert reach_is_exact(spatial)
    # random 3-D configurations inside the cones stay inside the interval
    rng = np.random.default_rng(3)
    rmin, rmax = spatial.reach()
    for _ in range(200):
        rv = np.zeros((4, 3))
        for j in range(4):
            axis = rng.normal(size=3)
            axis[0] = 0.0
            limit = math.radians(cones[j]) if cones[j] else math.pi
            rv[j] = axis / np.linalg.norm(axis) * rng.uniform(0, limit)
            rv[j, 0] = rng.uniform(-1, 1)  # twist
        pose = spatial.pose_from_angles(rv)
        r = np.linalg.norm(pose.positions[-1])
        bends = [
            math.acos(np.clip(np.dot(a, b) / np.linalg.norm(a) / np.linalg.norm(b), -1, 1))
            for a, b in zip(
                np.diff(pose.positions, axis=0)[:-1],
                np.diff(pose.positions, axis=0)[1:],
                strict=True,
            )
        ]
        if all(bd <= math.radians(c) for bd, c in zip(bends, cones[1:], strict=True) if c):
            assert rmin - 1e-9 <= r <= rmax + 1e-9


def test_parallel_hinges_are_planar_and_mixed_hinges_are_bounded():
    lengths = [1.0, 1.0, 1.0]
    par = ik.Chain.spatial(
        lengths, max_bend_deg=[None, (10, 50), (-40, -20)], hinge_axes=[None, (0, 0, 1), (0, 0, -1)]
    )
    planar = ik.Chain.planar(lengths, max_bend_deg=[None, (10, 50), (20, 40)])
    assert par.reach() == pytest.approx(planar.reach(), abs=1e-11)
    assert reach_is_exact(par)
    mixed = ik.Chain.spatial(
        lengths, max_bend_deg=[None, 30, 30], hinge_axes=[None, (0, 0, 1), (0, 1, 0)]
    )
    assert not reach_is_exact(mixed)
    rmin, rmax = mixed.reach()
    rng = np.random.default_rng(0)
    for _ in range(100):
        rv = np.zeros((3, 3))
        rv[1] = (0, 0, rng.uniform(-1, 1) * math.radians(30))
        rv[2] = (0, rng.uniform(-1, 1) * math.radians(30), 0)
        r = np.linalg.norm(mixed.pose_from_angles(rv).positions[-1])
        assert rmin - 1e-9 <= r <= rmax + 1e-9
    assert closest_reachable_point(mixed, np.array([0.1, 0.0, 0.0])) is None


def test_closest_point_inside_minimum_reach_of_a_limited_chain():
    chain = ik.Chain.planar([1, 1], max_bend_deg=[None, 90])
    p = closest_reachable_point(chain, np.array([0.0, 0.5]))
    np.testing.assert_allclose(p, [0.0, math.sqrt(2)], atol=1e-11)
    assert closest_reachable_point(chain, np.array([0.0, 1.7])) is None
    sol = ik.solve(chain, (0.0, 0.5), method="fabrik", clamp_to_reach=True)
    assert sol.status is ik.Status.CLOSEST


def test_clamp_to_reach():
    chain = ik.Chain.planar([3, 1])
    for target, radius in (((0.5, 0.0), 2.0), ((0.0, 10.0), 4.0), ((0.0, 0.0), 2.0)):
        clamped = clamp_into_reach(chain, np.array(target))
        assert np.linalg.norm(clamped) == pytest.approx(radius)
        # (FABRIK nears a point at exactly full extension only slowly, so it is left out)
        for method in ("caa", "triangulation", "circles"):
            sol = ik.solve(chain, target, method=method, clamp_to_reach=True)
            np.testing.assert_array_equal(sol.target, target)
            assert sol.error == pytest.approx(np.linalg.norm(sol.positions[-1] - target))
            assert sol.status is ik.Status.CLOSEST
            assert np.linalg.norm(sol.positions[-1] - clamped) <= sol.tol
    inside = np.array([2.5, 1.0])
    assert clamp_into_reach(chain, inside) is inside
    sol = ik.solve(chain, inside, method="caa", clamp_to_reach=True)
    assert sol.status is ik.Status.REACHED
    with pytest.raises(ik.InvalidOptionError, match="clamp_to_reach"):
        ik.solve(chain, inside, clamp_to_reach="yes")
