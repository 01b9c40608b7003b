"""Seed 003's circle-intersection solver on chains (the tree form is in test_tree.py)."""

from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

import geoik as ik
from tests.conftest import chains, check_invariants


def _annulus_target(chain: ik.Chain, frac: float, direction: np.ndarray) -> np.ndarray:
    lo, hi = max(0.0, 2 * chain.lengths.max() - chain.total_length), chain.total_length
    u = direction / np.linalg.norm(direction)
    return chain.base + (lo + frac * (hi - lo)) * u


@given(data=st.data())
def test_reaches_every_target_in_the_annulus_in_one_placement(data):
    """Unconstrained chain, target inside the reachable annulus: REACHED after n - 2 steps (the
    paper's count with n joints, base and end effector included), link lengths kept."""
    chain = data.draw(chains(limited=False, n_min=2))
    frac = data.draw(st.floats(0.0, 0.999))  # at exactly 1 rounding may put it beyond reach
    direction = np.array(
        data.draw(st.lists(st.floats(-1, 1), min_size=chain.dim, max_size=chain.dim))
    )
    if np.linalg.norm(direction) < 1e-3:
        direction = np.eye(chain.dim)[1]
    target = _annulus_target(chain, frac, direction)
    sol = ik.solve(chain, target, method="circles")
    check_invariants(sol, chain, target)
    # exact up to rounding; a folded 3-D link turns by ~180 degrees, where the quaternion
    # between two nearly opposite directions keeps only ~sqrt(eps) of precision
    assert sol.error <= 1e-7 * chain.total_length
    assert sol.status is ik.Status.REACHED
    joints = chain.n + 1
    assert sol.iterations in (0, joints - 2)
    assert sol.motion.steps <= 1


def test_one_link_chain_points_at_the_target():
    chain = ik.Chain.planar([2.0])
    sol = ik.solve(chain, (0.0, 2.0), method="circles")
    assert sol.status is ik.Status.REACHED and sol.iterations == 1
    far = ik.solve(chain, (0.0, 5.0), method="circles")
    assert far.status is ik.Status.CLOSEST
    np.testing.assert_allclose(far.positions[-1], (0.0, 2.0), atol=1e-12)


@pytest.mark.parametrize("dim", [2, 3])
def test_beyond_reach_straightens_at_once(dim):
    chain = ik.Chain.planar([1, 2, 3]) if dim == 2 else ik.Chain.spatial([1, 2, 3])
    target = np.zeros(dim)
    target[:2] = (4.0, 7.0)
    sol = ik.solve(chain, target, method="circles")
    check_invariants(sol, chain, target)
    assert sol.status is ik.Status.CLOSEST and sol.iterations == 1
    u = target / np.linalg.norm(target)
    np.testing.assert_allclose(sol.positions, np.outer([0, 1, 3, 6], u), atol=1e-12)


@pytest.mark.parametrize("dim", [2, 3])
def test_inside_the_minimum_safe_zone_goes_to_its_edge(dim):
    """Seed 003 Section 4.1: lengths [3, 1] cannot come nearer the base than 2."""
    chain = ik.Chain.planar([3, 1]) if dim == 2 else ik.Chain.spatial([3, 1])
    target = np.zeros(dim)
    target[1] = 0.5
    sol = ik.solve(chain, target, method="circles")
    check_invariants(sol, chain, target)
    assert sol.status is ik.Status.CLOSEST
    np.testing.assert_allclose(sol.positions[-1], 4 * target, atol=1e-9)


@pytest.mark.parametrize("dim", [2, 3])
def test_continuity_from_a_nearby_pose(dim):
    """Starting from the previous frame's pose, a small target move makes a small pose change:
    R follows the arc, which moves little, and every joint keeps its side."""
    rng = np.random.default_rng(3)
    n = 7
    chain = ik.Chain.planar([1.0] * n) if dim == 2 else ik.Chain.spatial([1.0] * n)
    target = np.zeros(dim)
    target[:2] = (3.0, 2.5)
    prev = ik.solve(chain, target, method="circles")
    for _ in range(20):
        step = rng.normal(size=dim)
        step *= 0.01 / np.linalg.norm(step)
        target = target + step
        sol = ik.solve(chain, target, method="circles", start=prev.pose)
        assert sol.status is ik.Status.REACHED
        moved = np.linalg.norm(sol.positions - prev.positions, axis=1).max()
        assert moved <= 0.2
        prev = sol


def _turns(positions: np.ndarray) -> np.ndarray:
    """Signed turn (radians) at each interior joint of a planar pose."""
    d = np.diff(positions, axis=0)
    heading = np.arctan2(d[:, 1], d[:, 0])
    return np.angle(np.exp(1j * np.diff(heading)))


def _crosses(p: np.ndarray) -> bool:
    """True if two non-adjacent links of a planar pose intersect."""

    def side(o, a, b):
        return (a[0] - o[0]) * (b[1] - o[1]) - (a[1] - o[1]) * (b[0] - o[0])

    n = len(p) - 1
    for i in range(n):
        for j in range(i + 2, n):
            a, b, c, d = p[i], p[i + 1], p[j], p[j + 1]
            if side(a, b, c) * side(a, b, d) < 0 and side(c, d, a) * side(c, d, b) < 0:
                return True
    return False


def test_even_curl_where_the_seed_figure_folds():
    """Ten unit links reaching 2 from the base: R = s_k (seed 003 Fig. 4B) from the straight
    start would keep the chain straight to joint 6 and fold it there by 180 degrees; the arc
    rule turns every joint the same way by nearly the same angle."""
    chain = ik.Chain.planar([1.0] * 10)
    sol = ik.solve(chain, (2.0, 0.0), method="circles")
    assert sol.status is ik.Status.REACHED and sol.iterations == 9
    turns = np.degrees(_turns(sol.positions))
    assert np.all(np.sign(turns) == np.sign(turns[0]))
    assert np.abs(turns).min() >= 25.0 and np.abs(turns).max() <= 35.0
    assert not _crosses(sol.positions)


def test_dominant_link_is_not_folded_flat():
    """A sub-chain with one dominant link shares the curl over its own safe-zone range instead of
    being driven to its fully folded minimum: links 5, 1, 1 reaching 3.5 turn by less than 130
    degrees at every joint (the plain arc distance would fold joint 1 by 180 degrees)."""
    chain = ik.Chain.planar([5.0, 1.0, 1.0])
    sol = ik.solve(chain, (3.5, 0.0), method="circles")
    assert sol.status is ik.Status.REACHED
    assert np.abs(np.degrees(_turns(sol.positions))).max() < 130.0


@pytest.mark.parametrize("n", range(3, 11))
def test_equal_links_curl_without_crossing(n):
    """Seed 003 Section 6: no overlapping links. Equal links, targets from a tenth of the length
    to full reach in every direction: one-signed turns, no two links crossing."""
    chain = ik.Chain.planar([1.0] * n)
    rng = np.random.default_rng(n)
    for _ in range(60):
        r, a = rng.uniform(0.1 * n, 0.999 * n), rng.uniform(-math.pi, math.pi)
        sol = ik.solve(chain, (r * math.cos(a), r * math.sin(a)), method="circles")
        assert sol.status is ik.Status.REACHED
        turns = _turns(sol.positions)
        assert np.all(turns >= -1e-9) or np.all(turns <= 1e-9)
        assert not _crosses(sol.positions)


def test_curl_half_angle_and_arc_distance():
    """sin(x) / x = ratio on [0, pi]; the arc's end lies at the chord length from its start."""
    from geoik.solvers.circles.place import arc_distance, curl_half_angle

    assert curl_half_angle(1.0) == 0.0 and curl_half_angle(0.0) == math.pi
    for ratio in (1e-9, 0.01, 0.3, 0.5, 0.9, 0.999999, 1.0 - 1e-15):
        x = curl_half_angle(ratio)
        assert 0.0 < x <= math.pi
        assert math.sin(x) / x == pytest.approx(ratio, abs=1e-12)
        assert arc_distance(7.0, 7.0, x) == pytest.approx(7.0 * ratio, abs=1e-11)
    assert arc_distance(3.0, 7.0, 0.0) == 3.0


def test_3d_plane_keeps_a_planar_chain_in_its_plane():
    """Chain and target in the xy-plane: the working plane is the xy-plane."""
    chain = ik.Chain.spatial([1.0, 2.0, 1.5, 1.0])
    sol = ik.solve(chain, (2.0, 3.0, 0.0), method="circles")
    assert sol.status is ik.Status.REACHED
    np.testing.assert_allclose(sol.positions[:, 2], 0.0, atol=1e-12)


def test_3d_plane_contains_base_target_and_joints():
    chain = ik.Chain.spatial([1.0, 1.0, 1.0, 1.0, 1.0])
    start = np.array([[0, 0.3, 0.2], [0, -0.2, 0.4], [0.1, 0, 0.5], [0, 0.4, 0], [0, 0, 0.3]])
    target = np.array([1.0, 2.0, 1.5])
    sol = ik.solve(chain, target, method="circles", start=start)
    assert sol.status is ik.Status.REACHED
    p = sol.positions - chain.base
    normal = np.cross(p[-1], p[2])
    normal /= np.linalg.norm(normal)
    np.testing.assert_allclose(p @ normal, 0.0, atol=1e-9)


def test_limited_chain_is_judged_honestly():
    chain = ik.Chain.planar([1.0] * 5, max_bend_deg=10)
    target = (1.0, 2.0)
    sol = ik.solve(chain, target, method="circles")
    check_invariants(sol, chain, target)
    assert sol.status is not ik.Status.REACHED
    assert np.all(np.abs(sol.angles) <= math.radians(10) + 1e-12)


def test_circle_point_side():
    """The chain's side, unless the joint's current offset from the line to its child is at
    least a quarter of the placed joint's (here 1): then the side of that offset."""
    from geoik.solvers.circles.place import circle_point

    r2 = math.sqrt(2.0)
    np.testing.assert_allclose(circle_point(2.0, 0.0, r2, r2, 1.0, 0.0), (1.0, 1.0), atol=1e-12)
    np.testing.assert_allclose(circle_point(2.0, 0.0, r2, r2, -1.0, 0.0), (1.0, -1.0), atol=1e-12)
    np.testing.assert_allclose(circle_point(2.0, 0.0, r2, r2, 1.0, -0.2), (1.0, 1.0), atol=1e-12)
    np.testing.assert_allclose(circle_point(2.0, 0.0, r2, r2, 1.0, -0.3), (1.0, -1.0), atol=1e-12)
    np.testing.assert_allclose(circle_point(2.0, 0.0, r2, r2, -1.0, 0.3), (1.0, 1.0), atol=1e-12)


def test_side_follows_the_current_pose():
    """The chain curls to the side of the base-to-target line its joints are on (continuity);
    from the straight start (a tie) counter-clockwise."""
    chain = ik.Chain.planar([1.0] * 5)
    up = ik.solve(chain, (3.0, 0.0), method="circles")
    assert np.all(up.positions[1:-1, 1] > 0.0)
    down_start = chain.pose_from_angles([-0.3, 0.1, 0.1, 0.1, 0.0])
    down = ik.solve(chain, (3.0, 0.0), method="circles", start=down_start)
    np.testing.assert_allclose(down.positions, up.positions * [1.0, -1.0], atol=1e-12)


def test_equal_links_curl_evenly():
    """The even curl of the module docstring: ten unit links reaching a target 2 away turn
    every joint after the first by between 28.6 and 34.2 degrees, whatever the direction."""
    chain = ik.Chain.planar([1.0] * 10)
    for target in ((2.0, 0.0), (0.0, 2.0), (1.2, 1.6)):
        sol = ik.solve(chain, target, method="circles")
        assert sol.status is ik.Status.REACHED
        turns = np.degrees(np.abs(sol.angles[1:]))
        assert turns.min() >= 28.6 and turns.max() <= 34.25
