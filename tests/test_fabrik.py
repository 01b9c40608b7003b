"""FABRIK (Aristidou & Lasenby 2011): reaching, speed on easy targets, limits, out-of-reach
targets, continuity from a previous pose, and the recorded motion."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

import geoik as ik
from geoik.solvers import REGISTRY
from tests.conftest import chains, check_invariants, joint_violation

UNIT = st.floats(-1.0, 1.0, allow_nan=False)


def _direction(data, dim: int) -> np.ndarray:
    d = np.array(data.draw(st.lists(UNIT, min_size=dim, max_size=dim)))
    if np.linalg.norm(d) < 1e-3:
        d = np.eye(dim)[1]
    return d / np.linalg.norm(d)


def _interior_pose(rng: np.random.Generator, chain: ik.Chain, margin: float) -> ik.Pose | None:
    """A random pose whose end effector lies at least ``margin`` (fraction of the reachable
    annulus' width) inside both its boundaries; None when the draw misses."""
    n = chain.n
    a = rng.uniform(-1.0, 1.0, n) if chain.dim == 2 else rng.uniform(-0.5, 0.5, (n, 3))
    pose = chain.pose_from_angles(a)
    lo, hi = chain.reach()
    r = float(np.linalg.norm(pose.positions[-1] - chain.base))
    width = hi - lo
    return pose if lo + margin * width <= r <= hi - margin * width else None


def test_registered():
    s = REGISTRY["fabrik"]
    assert s.dims == (2, 3)
    assert s.default_max_iter == 100
    assert s.capacity(5, 30) == 31


@given(data=st.data())
def test_unconstrained_reachable_targets_are_reached(data):
    """Targets well inside the reachable annulus of a free chain are reached (2-D and 3-D).

    Targets on the line of the straight rest chain are left out: there every point FABRIK
    computes stays on that line (see the collinear test below).
    """
    chain = data.draw(chains(limited=False))
    lo, hi = chain.reach()
    r = lo + (hi - lo) * data.draw(st.floats(0.1, 0.9))
    u = _direction(data, chain.dim)
    if np.linalg.norm(u[1:]) < 1e-3:
        u = np.full(chain.dim, 1.0 / np.sqrt(chain.dim))
    target = chain.base + r * u
    sol = ik.solve(chain, target, method="fabrik", max_iter=1000)
    check_invariants(sol, chain, target)
    assert sol.status is ik.Status.REACHED


@pytest.mark.parametrize("dim", [2, 3])
def test_few_iterations_for_easy_targets(dim):
    """A target a little away from the end effector of a pose inside the workspace takes few
    iterations (the paper's claim of a low iteration count)."""
    rng = np.random.default_rng(20110)
    counts = []
    while len(counts) < 40:
        n = int(rng.integers(2, 12))
        lengths = rng.uniform(0.2, 5.0, n)
        chain = ik.Chain.planar(lengths) if dim == 2 else ik.Chain.spatial(lengths)
        pose = _interior_pose(rng, chain, 0.2)
        if pose is None:
            continue
        d = rng.normal(size=dim)
        target = pose.positions[-1] + 0.02 * chain.total_length * d / np.linalg.norm(d)
        sol = ik.solve(chain, target, method="fabrik", start=pose)
        assert sol.status is ik.Status.REACHED
        counts.append(sol.iterations)
    assert max(counts) <= 10
    assert np.median(counts) <= 4


def test_already_reached_takes_no_iteration():
    chain = ik.Chain.spatial([1.0, 2.0, 0.5])
    end = chain.rest_pose().positions[-1]
    sol = ik.solve(chain, end, method="fabrik")
    assert sol.status is ik.Status.REACHED
    assert sol.iterations == 0
    assert sol.motion.steps == 0


@given(data=st.data())
def test_z_hinges_keep_the_chain_in_the_plane(data):
    """A 3-D chain whose hinges all turn about z stays in the xy-plane, within its limits,
    whatever the target (even off the plane)."""
    n = data.draw(st.integers(1, 8))
    lengths = data.draw(st.lists(st.floats(0.2, 5.0), min_size=n, max_size=n))
    bends = data.draw(st.lists(st.floats(10.0, 170.0), min_size=n, max_size=n))
    chain = ik.Chain.spatial(lengths, max_bend_deg=bends, hinge_axes=[(0, 0, 1)] * n)
    target = chain.total_length * 1.2 * np.array([data.draw(UNIT) for _ in range(3)])
    sol = ik.solve(chain, target, method="fabrik")
    check_invariants(sol, chain, target)
    np.testing.assert_allclose(sol.positions[:, 2], 0.0, atol=1e-12 * chain.total_length)
    for pose in sol.motion.poses():
        np.testing.assert_allclose(pose[:, 2], 0.0, atol=1e-12 * chain.total_length)
    assert joint_violation(chain, sol.angles) <= 1e-12


@given(data=st.data())
def test_limited_2d_keyframes_within_limits(data):
    chain = data.draw(chains(dims=(2,), limited=True))
    target = chain.base + chain.total_length * data.draw(st.floats(0.0, 1.5)) * _direction(data, 2)
    sol = ik.solve(chain, target, method="fabrik")
    assert np.all(chain.lo <= sol.motion.keys) and np.all(sol.motion.keys <= chain.hi)


@given(data=st.data())
def test_beyond_reach_is_closest_at_once(data):
    """Free chain (one link included), target beyond reach: CLOSEST after at most one
    iteration, every link pointing at the target."""
    chain = data.draw(chains(limited=False))
    u = _direction(data, chain.dim)
    target = chain.base + chain.total_length * data.draw(st.floats(1.001, 5.0)) * u
    sol = ik.solve(chain, target, method="fabrik")
    assert sol.status is ik.Status.CLOSEST
    assert sol.iterations <= 1  # 0 when the start pose already points at the target
    closest = chain.base + chain.total_length * u
    assert np.linalg.norm(sol.positions[-1] - closest) <= sol.tol
    if sol.iterations == 1:
        links = np.diff(sol.positions, axis=0) / chain.lengths[:, None]
        np.testing.assert_allclose(links, np.broadcast_to(u, links.shape), atol=1e-9)


@pytest.mark.parametrize("dim", [2, 3])
def test_small_target_move_gives_small_motion(dim):
    """Starting from the previous solution, a small target move moves no joint by much more
    than the target moved."""
    rng = np.random.default_rng(3)
    done = 0
    while done < 20:
        n = int(rng.integers(2, 10))
        lengths = rng.uniform(0.5, 3.0, n)
        chain = ik.Chain.planar(lengths) if dim == 2 else ik.Chain.spatial(lengths)
        pose = _interior_pose(rng, chain, 0.2)
        if pose is None:
            continue
        first = ik.solve(chain, pose.positions[-1] + 0.1, method="fabrik", tol=1e-9)
        if first.status is not ik.Status.REACHED:
            continue
        step = 1e-3 * chain.total_length
        d = rng.normal(size=dim)
        second = ik.solve(
            chain,
            first.target + step * d / np.linalg.norm(d),
            method="fabrik",
            start=first.pose,
            tol=1e-9,
        )
        assert second.status is ik.Status.REACHED
        moved = np.linalg.norm(second.positions - first.positions, axis=1).max()
        assert moved <= 2.0 * step
        done += 1


@pytest.mark.parametrize("dim", [2, 3])
def test_motion_has_one_keyframe_per_iteration(dim):
    rng = np.random.default_rng(8)
    lengths = rng.uniform(0.5, 2.0, 6)
    chain = ik.Chain.planar(lengths) if dim == 2 else ik.Chain.spatial(lengths)
    target = np.zeros(dim)
    target[:2] = (1.0, 2.5)
    for max_iter in (1, 3, 100):
        sol = ik.solve(chain, target, method="fabrik", max_iter=max_iter)
        assert sol.iterations >= 1
        assert sol.motion.steps == sol.iterations
        poses = sol.motion.poses()
        np.testing.assert_allclose(poses[0], chain.rest_pose().positions, atol=1e-12)
        np.testing.assert_allclose(poses[-1], sol.positions, atol=1e-9)
        # each iteration brings the end effector closer on this easy target
        errors = np.linalg.norm(poses[:, -1] - target, axis=1)
        assert np.all(np.diff(errors) < 0)


@pytest.mark.parametrize("dim", [2, 3])
def test_collinear_target_is_finite_and_off_line_target_reached(dim):
    """On the line of the straight chain FABRIK's points stay on that line (finite, not NaN);
    a target just off the line is reached."""
    chain = ik.Chain.planar([1.0, 1.0, 1.0]) if dim == 2 else ik.Chain.spatial([1.0] * 3)
    on_line = np.eye(dim)[0] * 1.0
    sol = ik.solve(chain, on_line, method="fabrik")
    check_invariants(sol, chain, on_line)
    off_line = on_line + 1e-3 * np.eye(dim)[1]
    sol = ik.solve(chain, off_line, method="fabrik", max_iter=1000)
    assert sol.status is ik.Status.REACHED


def test_shoulder_and_elbow_arms_are_reached():
    """A ball joint in a cone followed by a hinge (a shoulder and an elbow): the shoulder's twist
    sets the elbow's plane, so FABRIK must choose it. Seeded arms and targets from poses within
    the limits; without the twist FABRIK reaches none of these, with it most."""
    rng = np.random.default_rng(2011)
    reached = 0
    for _ in range(40):
        lengths = rng.uniform(0.5, 2.0, 2)
        cone, lo, hi = rng.uniform(40, 120), rng.uniform(-150, 0), rng.uniform(0, 150)
        a = rng.uniform(0, 2 * np.pi)
        arm = ik.Chain.spatial(
            lengths, max_bend_deg=[cone, (lo, hi)], hinge_axes=[None, (0, np.cos(a), np.sin(a))]
        )
        b = rng.uniform(0, 2 * np.pi)
        shoulder = np.array([0, np.cos(b), np.sin(b)]) * rng.uniform(0, arm.cone[0])
        elbow = arm.hinge[1] * rng.uniform(arm.lo[1], arm.hi[1])
        target = arm.pose_from_angles([shoulder, elbow]).positions[-1]
        sol = ik.solve(arm, target, method="fabrik", max_iter=200)
        check_invariants(sol, arm, target)
        reached += sol.status is ik.Status.REACHED
    assert reached >= 30


@pytest.mark.parametrize("dim", [2, 3])
def test_a_target_on_the_straight_chains_line_is_reached(dim):
    """Ten links of 2 from rest, the target on the chain's line inside its length, behind it or
    ahead of it: the straight chain stalls on the line, and the escape bends the joint that puts
    the end effector at the target's distance and turns the chain onto it. (A fixed bend left the
    end effector 1.0 off (-19.99, 0), and FABRIK's passes, slow near full extension, ended at
    MAX_ITERATIONS 0.012 away after 100 iterations.)"""
    unit = np.eye(dim)[0]
    chain = ik.Chain.planar([2.0] * 10) if dim == 2 else ik.Chain.spatial([2.0] * 10)
    for along in (-19.99, 19.99, -19.9999, -12.0, 7.5):
        target = along * unit
        sol = ik.solve(chain, target, method="fabrik")
        check_invariants(sol, chain, target)
        assert sol.status is ik.Status.REACHED, (along, sol.error)
        if abs(along) == 19.99:  # landed: on the target to rounding, after one or two passes
            assert sol.error <= 1e-9 * chain.total_length and sol.iterations <= 2
    for n in (2, 3, 4):  # short chains: the escape's first joint is the last or the middle
        short = ik.Chain.planar([1.0] * n) if dim == 2 else ik.Chain.spatial([1.0] * n)
        sol = ik.solve(short, -(n - 0.001) * unit, method="fabrik")
        check_invariants(sol, short, -(n - 0.001) * unit)
        assert sol.status is ik.Status.REACHED
    off = ik.solve(chain, -19.99 * unit, method="fabrik", escape=0)  # no escape: the stall
    assert off.status is ik.Status.STALLED and off.error == pytest.approx(0.01, abs=1e-9)


@pytest.mark.parametrize("dim", [2, 3])
def test_the_landing_keeps_to_the_limits_or_is_not_taken(dim):
    """Joints that cannot take the bend that lands (3 degrees where the middle joint needs 3.6)
    fall back to the fixed bend, within their limits: never a pose beyond them."""
    unit = np.eye(dim)[0]
    make = ik.Chain.planar if dim == 2 else ik.Chain.spatial
    tight = make([2.0] * 10, max_bend_deg=3)
    sol = ik.solve(tight, 19.99 * unit, method="fabrik")
    check_invariants(sol, tight, 19.99 * unit)
    loose = make([2.0] * 10, max_bend_deg=10)  # the middle joint can take it
    sol = ik.solve(loose, 19.99 * unit, method="fabrik")
    check_invariants(sol, loose, 19.99 * unit)
    assert sol.status is ik.Status.REACHED and sol.iterations <= 3
    if dim == 3:
        hinged = ik.Chain.spatial([2.0] * 10, hinge_axes=[(0.0, 0.0, 1.0)] * 10)
        for along in (19.99, -19.99):
            sol = ik.solve(hinged, along * unit, method="fabrik")
            check_invariants(sol, hinged, along * unit)
            assert sol.status is ik.Status.REACHED
            assert np.abs(sol.positions[:, 2]).max() <= 1e-12  # turned about z only
