"""Triangulation (seed 000): one pass, the paper's claims and every special case of §3.1."""

from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

import geoik as ik
from geoik.solvers._triangle import collapsed_lengths
from tests.conftest import chains, check_invariants, joint_violation

MOVED = 1e-12


def turns_per_joint(sol: ik.Solution) -> np.ndarray:
    return (sol.motion.rotations() > MOVED).sum(axis=0)


def annulus_target(chain: ik.Chain, direction: np.ndarray, frac: float) -> np.ndarray:
    """A target strictly inside a free chain's reachable annulus."""
    rmin = max(0.0, 2.0 * chain.lengths.max() - chain.total_length)
    r = rmin + frac * (chain.total_length - rmin)
    return chain.base + r * direction / np.linalg.norm(direction)


@given(data=st.data())
def test_unconstrained_in_reach_reached_in_one_pass(data):
    """§3.2: a free chain reaches every target within reach after one pass, each joint turning
    at most once."""
    chain = data.draw(chains(limited=False))
    direction = np.array(
        data.draw(st.lists(st.floats(-1, 1), min_size=chain.dim, max_size=chain.dim))
    )
    if np.linalg.norm(direction) < 1e-3:
        direction = np.eye(chain.dim)[1]
    target = annulus_target(chain, direction, data.draw(st.floats(0.001, 0.999)))
    sol = ik.solve(chain, target, method="triangulation")
    check_invariants(sol, chain, target)
    assert sol.status is ik.Status.REACHED
    start_error = np.linalg.norm(chain.rest_pose().positions[-1] - target)
    if start_error <= sol.tol:  # the start pose already reaches: no pass, nothing moves
        assert sol.iterations == 0 and sol.motion.steps == 0
        return
    assert sol.error <= 1e-9 * chain.total_length
    assert sol.iterations == 1
    assert np.all(turns_per_joint(sol) <= 1)


@pytest.mark.parametrize("dim", [2, 3])
@pytest.mark.parametrize("dist", [16.5, 18.0, 19.9])
def test_ideal_case_turns_only_the_first_two_joints(dim, dist):
    """§3.1: when the first triangle forms (|a - b| <= c < a + b), only joints 0 and 1 turn."""
    chain = ik.Chain.planar([2.0] * 10) if dim == 2 else ik.Chain.spatial([2.0] * 10)
    direction = np.array([0.6, 0.8]) if dim == 2 else np.array([0.48, 0.64, 0.6])
    sol = ik.solve(chain, dist * direction, method="triangulation")
    assert sol.status is ik.Status.REACHED
    turned = np.flatnonzero(turns_per_joint(sol))
    assert set(turned) <= {0, 1}
    assert sol.motion.steps == 2
    np.testing.assert_allclose(sol.angles[2:], 0.0, atol=1e-12)


def test_undefined_axis_uses_the_fixed_axis_first():
    """§3.1.1: a on the line of c before any turn: a fixed axis (+z), the chain stays planar."""
    chain = ik.Chain.spatial([2.0] * 10)
    sol = ik.solve(chain, (19.0, 0.0, 0.0), method="triangulation")
    assert sol.status is ik.Status.REACHED
    np.testing.assert_allclose(sol.positions[:, 2], 0.0, atol=1e-12)
    planar = ik.solve(ik.Chain.planar([2.0] * 10), (19.0, 0.0), method="triangulation")
    np.testing.assert_allclose(sol.positions[:, :2], planar.positions, atol=1e-12)


def test_undefined_axis_reuses_the_previous_axis():
    """§3.1.1: joint 1 sees its link opposite the target vector after joint 0 turned about -y;
    it turns about that same axis, so the chain stays in the xz-plane (a fixed +z axis would
    take it out)."""
    chain = ik.Chain.spatial([1.0, 1.0, 1.5])
    target = np.array([0.3, 0.0, 0.2])
    sol = ik.solve(chain, target, method="triangulation")
    assert sol.status is ik.Status.REACHED
    assert np.all(turns_per_joint(sol)[:2] == 1)
    np.testing.assert_allclose(sol.positions[:, 1], 0.0, atol=1e-12)


@pytest.mark.parametrize("dim", [2, 3])
def test_full_triangle_straightens_the_rest_towards_the_target(dim):
    """§3.1.2: after the joint that closes a triangle, every later link points at the target,
    whatever the (bent) start pose."""
    rng = np.random.default_rng(3)
    chain = (
        ik.Chain.planar([1.0, 2.0, 1.5, 1.0, 0.5, 1.0])
        if dim == 2
        else ik.Chain.spatial([1.0, 2.0, 1.5, 1.0, 0.5, 1.0])
    )
    L = chain.total_length
    for _ in range(10):
        shape = (chain.n,) if dim == 2 else (chain.n, 3)
        start = rng.uniform(-1.5, 1.5, shape)
        target = annulus_target(chain, rng.normal(size=dim), rng.uniform(0.05, 0.95))
        sol = ik.solve(chain, target, method="triangulation", start=start)
        assert sol.error <= 1e-9 * L
        p = sol.positions
        rest = np.cumsum(chain.lengths[::-1])[::-1]
        b = np.append(rest[1:], 0.0)
        c = np.linalg.norm(target - p[:-1], axis=1)
        closes = np.flatnonzero((c < chain.lengths + b) & (c >= np.abs(chain.lengths - b)))
        m = int(closes[0])
        for j in range(m + 1, chain.n):
            link = (p[j + 1] - p[j]) / chain.lengths[j]
            aim = (target - p[j]) / np.linalg.norm(target - p[j])
            np.testing.assert_allclose(link, aim, atol=1e-7)


@pytest.mark.parametrize("dim", [2, 3])
def test_beyond_reach_every_link_points_at_the_target(dim):
    """c >= a + b: the link points at the target; from the straight start only joint 0 turns."""
    chain = ik.Chain.planar([2.0] * 10) if dim == 2 else ik.Chain.spatial([2.0] * 10)
    target = np.zeros(dim)
    target[:2] = (-17.75, 15.75)
    sol = ik.solve(chain, target, method="triangulation")
    assert sol.status is ik.Status.CLOSEST
    assert sol.iterations == 1
    assert sol.motion.steps == 1
    u = target / np.linalg.norm(target)
    np.testing.assert_allclose(sol.positions, np.outer(np.arange(11) * 2.0, u), atol=1e-9)


@pytest.mark.parametrize("dim", [2, 3])
def test_too_close_points_the_link_away(dim):
    """c < b - a: δb = 180°, the link points away from the target and the next joint sees
    c + a (eq. 8)."""
    chain = ik.Chain.planar([2.0] * 10) if dim == 2 else ik.Chain.spatial([2.0] * 10)
    target = np.zeros(dim)
    target[:2] = (1.0, 1.5)
    sol = ik.solve(chain, target, method="triangulation")
    assert sol.status is ik.Status.REACHED
    away = -target / np.linalg.norm(target)
    np.testing.assert_allclose(sol.positions[1] / 2.0, away, atol=1e-12)
    np.testing.assert_allclose(
        np.linalg.norm(target - sol.positions[1]), np.linalg.norm(target) + 2.0
    )


@pytest.mark.parametrize("dim", [2, 3])
def test_inside_minimum_reach_ends_on_the_nearest_point(dim):
    """c < a - b has no solution; the link points at the target and the chain ends on the
    nearest point of its minimum-reach circle."""
    chain = ik.Chain.planar([1.0, 5.0, 1.0]) if dim == 2 else ik.Chain.spatial([1.0, 5.0, 1.0])
    target = np.zeros(dim)
    target[:2] = (1.2, -1.6)
    sol = ik.solve(chain, target, method="triangulation")
    assert sol.status is ik.Status.CLOSEST
    np.testing.assert_allclose(sol.positions[-1], 3.0 * target / 2.0, atol=1e-9)


def arm_b(kind: str) -> ik.Chain:
    """Seed 000's constrained chain: 18, 18, 4, elbow <= 126°, wrist <= 90°."""
    limits = [None, 126.0, 90.0]
    if kind == "planar":
        return ik.Chain.planar([18.0, 18.0, 4.0], max_bend_deg=limits)
    hinges = [None, (0, 0, 1), (0, 0, 1)] if kind == "hinges" else None
    return ik.Chain.spatial([18.0, 18.0, 4.0], max_bend_deg=limits, hinge_axes=hinges)


def arm_b_min_reach() -> float:
    """Minimum distance of chain B's tip from its base, by brute force over the two limits."""
    e = np.radians(np.linspace(-126.0, 126.0, 1009))[:, None]
    w = np.radians(np.linspace(-90.0, 90.0, 721))[None, :]
    x = 18.0 + 18.0 * np.cos(e) + 4.0 * np.cos(e + w)
    y = 18.0 * np.sin(e) + 4.0 * np.sin(e + w)
    return float(np.hypot(x, y).min())


@pytest.mark.parametrize("kind", ["planar", "cones", "hinges"])
def test_constrained_chain_b_reaches_targets_in_its_reach(kind):
    """§3.1.3 and §4: chain B respects its limits and reaches every target within its reach."""
    chain = arm_b(kind)
    rmin = arm_b_min_reach()
    rng = np.random.default_rng(11)
    for _ in range(60):
        d = rng.normal(size=chain.dim)
        target = d / np.linalg.norm(d) * rng.uniform(1.01 * rmin, 0.999 * 40.0)
        sol = ik.solve(chain, target, method="triangulation")
        check_invariants(sol, chain, target)
        assert joint_violation(chain, sol.angles) <= 1e-9
        assert sol.status is ik.Status.REACHED, (target, sol.error)
        assert np.all(turns_per_joint(sol) <= 1)


def test_collapsed_length_of_chain_b():
    """b of the constrained variant: the rest of chain B fully collapsed under its limits."""
    chain = arm_b("planar")
    out = np.empty(3)
    collapsed_lengths(chain.lengths, chain.lo, chain.hi, out)
    np.testing.assert_allclose(out, [math.hypot(18.0, 4.0), 4.0, 0.0], rtol=1e-12)
    whole = np.empty(4)
    lengths = np.r_[1.0, chain.lengths]
    collapsed_lengths(lengths, np.r_[-np.inf, chain.lo], np.r_[np.inf, chain.hi], whole)
    assert abs(whole[0] - arm_b_min_reach()) <= 1e-3


def test_collapsed_length_free_and_mixed():
    """Free sub-chains: max(0, 2 max - sum); limited: no more than a brute-force minimum."""
    out = np.empty(4)
    free = np.full(4, np.inf)
    collapsed_lengths(np.array([1.0, 1.0, 5.0, 1.0]), -free, free, out)
    np.testing.assert_allclose(out, [3.0, 4.0, 1.0, 0.0])
    lengths = np.array([1.0, 3.0, 2.0, 1.5])
    lo = np.array([-np.inf, -np.inf, -0.5, -2.0])
    hi = np.array([np.inf, np.inf, 1.0, 0.3])
    collapsed_lengths(lengths, lo, hi, out)
    a = np.linspace(-0.5, 1.0, 601)[:, None]
    b = np.linspace(-2.0, 0.3, 921)[None, :]
    x = 3.0 + 2.0 * np.cos(a) + 1.5 * np.cos(a + b)
    y = 2.0 * np.sin(a) + 1.5 * np.sin(a + b)
    assert out[0] <= np.hypot(x, y).min() + 1e-9
    assert out[0] >= np.hypot(x, y).min() - 0.01


@pytest.mark.parametrize("dim", [2, 3])
def test_one_iteration_or_none(dim):
    """One pass is one iteration; a start pose already at the target needs none."""
    chain = ik.Chain.planar([1.0] * 4) if dim == 2 else ik.Chain.spatial([1.0] * 4)
    target = np.zeros(dim)
    target[:2] = (2.0, 2.0)
    first = ik.solve(chain, target, method="triangulation")
    assert first.iterations == 1
    again = ik.solve(chain, target, method="triangulation", start=first.pose)
    assert again.iterations == 0 and again.motion.steps == 0


@given(data=st.data())
def test_each_joint_turns_at_most_once(data):
    chain = data.draw(chains())
    r = chain.total_length
    target = chain.base + np.array(
        data.draw(st.lists(st.floats(-r, r), min_size=chain.dim, max_size=chain.dim))
    )
    sol = ik.solve(chain, target, method="triangulation")
    assert np.all(turns_per_joint(sol) <= 1)
    assert sol.motion.steps <= chain.n


@pytest.mark.parametrize("kind", ["planar", "cones", "hinges"])
def test_constrained_target_too_close_is_not_reached(kind):
    """§3.1.3: a target closer than chain B can come even fully collapsed has no solution; the
    pass holds every limit, turns each joint at most once and reports that it missed."""
    chain = arm_b(kind)
    rmin = arm_b_min_reach()
    rng = np.random.default_rng(5)
    for _ in range(20):
        d = rng.normal(size=chain.dim)
        target = d / np.linalg.norm(d) * rng.uniform(0.0, 0.95 * rmin)
        sol = ik.solve(chain, target, method="triangulation")
        check_invariants(sol, chain, target)
        assert sol.status is not ik.Status.REACHED
        assert sol.error >= 0.05 * rmin - 1e-9
        assert np.all(turns_per_joint(sol) <= 1)


@pytest.mark.parametrize("method", ["triangulation", "single-pass"])
def test_limited_first_joint_keeps_its_own_side_when_allowed(method):
    # The triangle's own side (-37.5, -60.2 degrees) is inside every limit: it must be taken, not
    # its mirror, whose clamped knee cannot bend the tip onto the target.
    chain = ik.Chain.planar((0.45, 0.43), max_bend_deg=[(-175, -5), (-160, 0)])
    sol = ik.solve(chain, (0.3, -0.7), method=method)
    assert sol.status is ik.Status.REACHED
    assert np.allclose(np.degrees(sol.angles), [-37.4786, -60.1537], atol=1e-3)
    check_invariants(sol, chain, (0.3, -0.7))
