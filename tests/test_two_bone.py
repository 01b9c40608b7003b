"""Two-bone IK (seed 001): exact branches, mirror symmetry, pole plane, reach, limits, options."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

import geoik as ik
from geoik.errors import InvalidOptionError, UnsupportedChainError
from tests.conftest import chains, check_invariants


def _reachable(rng, chain):
    """A random target strictly inside the annulus |r1 - r2| < c < r1 + r2."""
    r1, r2 = chain.lengths
    c = rng.uniform(abs(r1 - r2) + 0.05 * min(r1, r2), 0.95 * (r1 + r2))
    d = rng.normal(size=chain.dim)
    return chain.base + c * d / np.linalg.norm(d)


def _cross2(a, b):
    return a[0] * b[1] - a[1] * b[0]


@pytest.mark.parametrize("elbow", [1, -1])
def test_both_branches_land_on_target_2d(elbow):
    rng = np.random.default_rng(1)
    for _ in range(50):
        chain = ik.Chain.planar(rng.uniform(0.2, 5.0, 2), base=rng.uniform(-3, 3, 2))
        target = _reachable(rng, chain)
        sol = ik.solve(chain, target, method="two-bone", elbow=elbow)
        check_invariants(sol, chain, target)
        assert sol.status is ik.Status.REACHED
        assert sol.error <= 1e-12 * chain.total_length
        assert sol.iterations == 1 and sol.motion.steps == 1
        # +1: elbow on the counter-clockwise side of base -> target, second joint bends clockwise
        side = _cross2(target - chain.base, sol.positions[1] - chain.base)
        assert np.sign(side) == elbow
        assert np.sign(sol.angles[1]) == -elbow


def test_branches_are_mirror_images():
    rng = np.random.default_rng(2)
    for _ in range(30):
        chain = ik.Chain.planar(rng.uniform(0.2, 5.0, 2))
        target = _reachable(rng, chain)
        up = ik.solve(chain, target, method="two-bone", elbow=1).positions[1]
        down = ik.solve(chain, target, method="two-bone", elbow=-1).positions[1]
        u = target / np.linalg.norm(target)
        mirrored = 2.0 * np.dot(up, u) * u - up  # reflection about the base-target line
        np.testing.assert_allclose(down, mirrored, atol=1e-12 * chain.total_length)


def test_pole_picks_the_bend_plane_3d():
    rng = np.random.default_rng(3)
    for _ in range(50):
        chain = ik.Chain.spatial(rng.uniform(0.2, 5.0, 2))
        target = _reachable(rng, chain)
        pole = rng.normal(size=3)
        sol = ik.solve(chain, target, method="two-bone", pole=tuple(pole))
        check_invariants(sol, chain, target)
        assert sol.error <= 1e-12 * chain.total_length
        elbow = sol.positions[1]
        normal = np.cross(target, pole)
        normal /= np.linalg.norm(normal)
        assert abs(np.dot(elbow, normal)) <= 1e-9 * chain.total_length
        u = target / np.linalg.norm(target)
        assert np.dot(elbow - np.dot(elbow, u) * u, pole) > 0.0
        flipped = ik.solve(chain, target, method="two-bone", pole=tuple(pole), elbow=-1)
        assert np.dot(flipped.positions[1] - np.dot(flipped.positions[1], u) * u, pole) < 0.0


def test_pole_along_the_target_falls_back_without_nan():
    chain = ik.Chain.spatial([1.0, 1.5])
    for target in ([1.2, 0.0, 0.0], [0.0, 0.0, 1.2], [0.0, 0.0, -2.0], [0.0, 0.0, 0.0]):
        sol = ik.solve(chain, target, method="two-bone", pole=target if any(target) else (1, 0, 0))
        check_invariants(sol, chain, target)
    sol = ik.solve(chain, [1.2, 0.0, 0.0], method="two-bone", pole=(2.0, 0.0, 0.0))
    assert sol.status is ik.Status.REACHED


def test_three_links_are_refused():
    with pytest.raises(UnsupportedChainError, match="exactly 2 links, got a chain of 3"):
        ik.solve(ik.Chain.planar([1.0, 1.0, 1.0]), [1.0, 1.0], method="two-bone")


@pytest.mark.parametrize("dim", [2, 3])
def test_out_of_reach_is_closest_at_once(dim):
    chain = ik.Chain.planar([1.0, 2.0]) if dim == 2 else ik.Chain.spatial([1.0, 2.0])
    target = np.full(dim, 5.0)
    sol = ik.solve(chain, target, method="two-bone")
    assert sol.status is ik.Status.CLOSEST and sol.iterations == 1
    closest = 3.0 * target / np.linalg.norm(target)
    np.testing.assert_allclose(sol.positions[-1], closest, atol=1e-12)


@pytest.mark.parametrize("dim", [2, 3])
def test_inside_minimum_reach_folds_towards_target(dim):
    chain = ik.Chain.planar([3.0, 1.0]) if dim == 2 else ik.Chain.spatial([3.0, 1.0])
    target = np.zeros(dim)
    target[1] = 0.5
    sol = ik.solve(chain, target, method="two-bone")
    assert sol.status is ik.Status.CLOSEST
    np.testing.assert_allclose(sol.positions[-1], 4.0 * target, atol=1e-12)


def test_limited_branch_falls_back_to_the_other():
    # the second joint may only bend counter-clockwise: elbow=+1 would need a clockwise bend
    chain = ik.Chain.planar([1.0, 1.0], max_bend_deg=[None, (0.0, 170.0)])
    sol = ik.solve(chain, [1.0, 1.0], method="two-bone", elbow=1)
    check_invariants(sol, chain, [1.0, 1.0])
    assert sol.status is ik.Status.REACHED and sol.angles[1] > 0.0


def test_both_branches_limited_clamps_and_is_not_reached():
    chain = ik.Chain.planar([1.0, 1.0], max_bend_deg=[None, 20.0])
    target = [0.5, 0.5]
    sol = ik.solve(chain, target, method="two-bone")
    check_invariants(sol, chain, target)
    assert sol.status is not ik.Status.REACHED
    assert abs(sol.angles[1]) == pytest.approx(np.radians(20.0))


def test_ball_joint_twists_for_a_hinge_elbow():
    chain = ik.Chain.spatial([1.0, 1.2], hinge_axes=[None, (0.0, 0.0, 1.0)])
    target = [0.5, 0.7, 0.9]
    sol = ik.solve(chain, target, method="two-bone")
    check_invariants(sol, chain, target)
    assert sol.status is ik.Status.REACHED


@pytest.mark.parametrize(
    ("options", "match"),
    [({"elbow": 0}, "elbow: expected \\+1 or -1"), ({"pole": (0, 0, 0)}, "pole: expected")],
)
def test_option_validation(options, match):
    chain = ik.Chain.spatial([1.0, 1.0])
    with pytest.raises(InvalidOptionError, match=match):
        ik.solve(chain, [1.0, 1.0, 0.0], method="two-bone", **options)


def _valid_pose(data, chain):
    """Random relative angles within the chain's limits (2-D: (n,); 3-D: rotation vectors)."""
    if chain.dim == 2:
        lo = np.maximum(chain.lo, -np.pi)
        hi = np.minimum(chain.hi, np.pi)
        return np.array([data.draw(st.floats(a, b)) for a, b in zip(lo, hi, strict=True)])
    out = np.zeros((chain.n, 3))
    for i in range(chain.n):
        if np.any(chain.hinge[i]):
            lo, hi = max(chain.lo[i], -np.pi), min(chain.hi[i], np.pi)
            out[i] = chain.hinge[i] * data.draw(st.floats(lo, hi))
        else:
            a = data.draw(st.floats(0.0, 2 * np.pi))
            out[i] = (0.0, np.cos(a), np.sin(a))
            out[i] *= data.draw(st.floats(0.0, min(chain.cone[i], np.pi)))
    return out


@given(data=st.data())
def test_every_reachable_target_is_reached(data):
    """Any two-link chain, any limits (2-D ranges; 3-D cones, hinges or both), and a target that
    some pose within the limits reaches: two-bone reaches it exactly, in one step."""
    chain = data.draw(chains(n_min=2, n_max=2))
    target = chain.pose_from_angles(_valid_pose(data, chain)).positions[-1]
    sol = ik.solve(chain, target, method="two-bone", tol=1e-9 * chain.total_length)
    check_invariants(sol, chain, target)
    assert sol.status is ik.Status.REACHED
