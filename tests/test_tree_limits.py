"""Joint limits on skeletons: the definition, the limit check and the solvers honouring them."""

from __future__ import annotations

import math

import numpy as np
import pytest

import geoik as ik
from geoik.errors import InvalidChainError, UnsupportedChainError
from geoik.rigs.skeleton import Skeleton
from geoik.rigs.tree import solve_tree
from geoik.solvers import chain_methods
from tests.test_tree import check_tree

METHODS = ("circles", "fabrik")


def _random_tree(rng: np.random.Generator, dim: int) -> Skeleton:
    """A random tree of 4-12 joints with random rest directions and random limits that hold
    the rest pose: cones, hinges (3-D) and signed ranges."""
    m = int(rng.integers(4, 13))
    parents = [-1] + [int(rng.integers(0, j)) for j in range(1, m)]
    names = tuple(f"j{k}" for k in range(m))
    lengths = [0.0] + list(rng.uniform(0.2, 2.0, m - 1))
    dirs = rng.normal(size=(m, dim))
    sk = Skeleton(names, parents, lengths, None, dim, None, dirs)
    bends: dict[str, dict[str, object]] = {}
    axes: dict[str, dict[str, object]] = {}
    for j in range(1, m):
        p = names[parents[j]]
        kind = rng.integers(0, 3)
        if kind == 0:
            continue
        if dim == 3 and kind == 2:
            d = sk.directions[j]
            h = np.cross(d, rng.normal(size=3))
            axes.setdefault(p, {})[names[j]] = tuple(h)
        if kind == 2 or dim == 2:
            bends.setdefault(p, {})[names[j]] = (rng.uniform(-170, 0), rng.uniform(0, 170))
        else:
            bends.setdefault(p, {})[names[j]] = float(rng.uniform(5, 170))
    return sk.with_limits(bends, axes or None)


@pytest.mark.parametrize("method", METHODS)
@pytest.mark.parametrize("dim", [2, 3])
def test_no_solution_breaks_a_limit(method, dim):
    """Random limited trees, random targets for random joints, from the rest pose and from a
    random pose outside the limits: every solution keeps its lengths and its root, breaks no
    limit, is judged honestly and holds no NaN."""
    rng = np.random.default_rng(7 + dim)
    for _ in range(25):
        sk = _random_tree(rng, dim)
        assert sk.is_limited
        assert sk.limit_violation(sk.rest_positions()) == 0.0
        names = [nm for nm in sk.names[1:] if rng.random() < 0.5] or [sk.names[-1]]
        reach = sk.total_length
        targets = {nm: sk.root + rng.uniform(-reach, reach, dim) for nm in names}
        wild = sk.positions_from_directions(rng.normal(size=(sk.n, dim)))
        for start in (None, wild):
            sol = solve_tree(sk, targets, method=method, max_iter=60, start=start)
            check_tree(sol)
            assert sk.limit_violation(sol) <= 1e-9


@pytest.mark.parametrize("method", METHODS)
def test_reachable_limited_targets_are_reached(method):
    """A finger (a cone at the knuckle, two hinges) curled within its limits in its flexion
    plane: reached exactly within the limits by circles; FABRIK ends within them."""
    sk = Skeleton.from_chains(
        [("f", [0.45, 0.25, 0.2])],
        dim=3,
        max_bend_deg={"root": 45, "f_1": (-5, 110), "f_2": (-5, 90)},
        hinge_axes={"f_1": (0, 1, 0), "f_2": (0, 1, 0)},
    )
    for curl in (0.3, 0.8, 1.5):
        a = np.cumsum([curl * 0.4, curl * 0.8, curl * 0.6])
        steps = np.stack([np.cos(a), np.zeros(3), -np.sin(a)], axis=1) * [[0.45], [0.25], [0.2]]
        tip = steps.sum(axis=0)
        sol = solve_tree(sk, {"f": tip}, method=method)
        check_tree(sol)
        assert sk.limit_violation(sol) == 0.0
        if method == "circles":
            assert sol.reached


def test_violation_is_the_angle_to_the_nearest_allowed_direction():
    sk = Skeleton.from_chains(
        [("arm", [3.0, 2.5])],
        dim=3,
        max_bend_deg={"root": 60, "arm_1": (0, 150)},
        hinge_axes={"arm_1": (0, 0, 1)},
    )
    pos = sk.rest_positions()
    elbow = pos[1]
    for direction, expected in (
        ((0, 1, 0), 0.0),  # bent 90 degrees about +z: allowed
        ((0, -1, 0), 90.0),  # bent the wrong way: 90 degrees to straight
        ((0, 0, 1), 90.0),  # out of the hinge's plane
        ((-1, 1e-9, 0), 30.0),  # folded 180: 30 past the 150 limit
    ):
        pos[2] = elbow + 2.5 * np.array(direction, float) / np.linalg.norm(direction)
        assert math.degrees(sk.limit_violation(pos)) == pytest.approx(expected, abs=1e-6)
    pos = sk.rest_positions()
    pos[1:] = pos[1:] @ np.array([[0, 1, 0], [-1, 0, 0], [0, 0, 1.0]]).T  # turned -90 about z
    assert math.degrees(sk.limit_violations(pos)[1]) == pytest.approx(30.0)
    # the root's orientation turns the frame the shoulder's cone is measured in
    q = (math.cos(math.pi / 4), 0.0, 0.0, -math.sin(math.pi / 4))
    assert sk.limit_violation(ik.TreePose(pos, q)) == 0.0


def test_limits_by_name_and_their_errors():
    chains = [("a", [1.0, 1.0]), ("b", [1.0], "a_1")]
    sk = Skeleton.from_chains(chains, max_bend_deg={"a_1": {"a": 30, "b": (-10, 90)}})
    assert math.degrees(sk.limits.hi[sk.index("a")]) == pytest.approx(30.0)
    assert math.degrees(sk.limits.lo[sk.index("b")]) == pytest.approx(-10.0)
    assert not np.isfinite(sk.limits.lo[sk.index("a_1")])
    for bad, words in (
        ({"nose": 30}, "nose"),
        ({"a": 30}, "no link leaving"),
        ({"a_1": {"a_1": 30}}, "child"),
        ({"a_1": "x"}, r"max_bend_deg\['a_1'\]"),
    ):
        with pytest.raises(InvalidChainError, match=words):
            Skeleton.from_chains(chains, max_bend_deg=bad)
    with pytest.raises(InvalidChainError, match="perpendicular"):
        Skeleton.from_chains(chains, dim=3, hinge_axes={"a_1": (1, 0, 0)})
    with pytest.raises(InvalidChainError, match="z"):
        Skeleton.from_chains(chains, hinge_axes={"a_1": (0, 0, 1)})
    with pytest.raises(InvalidChainError, match="pair"):
        Skeleton.from_chains(chains, dim=3, max_bend_deg={"root": (0, 30)})


@pytest.mark.parametrize("dim", [2, 3])
def test_hand_and_legs_are_anatomical(dim):
    """The hand's fingers and the legs' knees bend one way only."""
    hand = Skeleton.hand(dim=dim)
    pos = hand.rest_positions()
    tip, mid = hand.index("index"), hand.index("index_2")
    base = pos[hand.index("index_1")]
    for sign, ok in ((1.0, True), (-1.0, False)):
        bent = pos.copy()
        d = pos[mid] - base
        if dim == 3:
            flexed = np.array([d[0], d[1], -sign * 0.6 * np.linalg.norm(d)])
        else:
            flexed = np.array([-sign * d[1], sign * d[0]]) * 0.6 + d
        bent[mid] = base + np.linalg.norm(d) * flexed / np.linalg.norm(flexed)
        bent[tip] = bent[mid] + (pos[tip] - pos[mid])
        assert (hand.limit_violations(bent)[mid] == 0.0) == ok
    legs = Skeleton.legs(dim=dim)
    knee = legs.index("left_ankle")  # the shin's link turns at the knee
    assert math.degrees(legs.limits.hi[knee]) == pytest.approx(31.95695, abs=1e-4)
    assert legs.limit_violation(legs.rest_positions()) == 0.0


@pytest.mark.parametrize("method", sorted(chain_methods()))
def test_chain_solvers_on_a_branch_honour_its_limits(method):
    """A planar skeleton's branch as a Chain (its limits moved by the rest bends): every chain
    solver's answer, put back into the skeleton, breaks none of the skeleton's limits, and the
    chain's end is where the skeleton's joint lands."""
    legs = Skeleton.legs(dim=2)
    n = 2 if method == "two-bone" else 3
    joint = "left_ankle" if n == 2 else "left_foot"
    chain = legs.chain(joint)
    rng = np.random.default_rng(3)
    for _ in range(6):
        target = rng.uniform([-0.3, -0.95], [0.5, -0.4])
        try:
            sol = ik.solve(chain, target, method=method)
        except ik.UnsupportedChainError:  # caa: an arc its limits cannot hold
            continue
        pos = legs.chain_positions(joint, sol.positions)
        assert legs.limit_violation(pos) <= 1e-9
        np.testing.assert_allclose(pos[legs.index(joint)], sol.positions[-1], atol=1e-12)
    with pytest.raises(UnsupportedChainError, match="planar"):
        Skeleton.legs(dim=3).chain("left_foot")


@pytest.mark.parametrize("method", METHODS)
def test_untargeted_joints_turn_with_their_parents(method):
    """On a limited skeleton a joint off the targeted paths keeps its link's direction in its
    parent link's frame, so it stays within its limits."""
    sk = Skeleton.hand(dim=3)
    rest = sk.rest_positions()
    target = rest[sk.index("index")] + np.array([-0.1, 0.1, -0.2])
    sol = solve_tree(sk, {"index": target}, method=method)
    check_tree(sol)
    assert sk.limit_violation(sol) == 0.0
    before = sk.limit_violations(rest)
    after = sk.limit_violations(sol)
    np.testing.assert_array_equal(before, after)


def test_interior_joints_may_be_targets():
    """A joint with children (an ankle above its toes) may be pinned; its children follow."""
    legs = Skeleton.legs(dim=2)
    ankle = legs.rest_positions()[legs.index("left_ankle")] + np.array([0.05, 0.04])
    sol = solve_tree(legs, {"left_ankle": ankle})
    check_tree(sol)
    assert sol.reached and legs.limit_violation(sol) == 0.0
