"""Single-pass triangulation (seed 002 §IV): the published chain and targets, one rotation per link,
the offset and threshold options, and 3-D chains lying in a plane."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

import geoik as ik
from geoik.errors import InvalidOptionError
from geoik.solvers.single_pass import split_link
from tests.conftest import chains, check_invariants

MOVED = 1e-12
# Seed 002, Table I: 10 links of length 2 along +x, base at the origin.
TARGETS = [
    (15.17, 4.58),
    (8.33, 2.83),
    (-10.58, 2.58),
    (-4.08, 16.0),
    (6.41, -10.08),
    (-17.75, 15.75),
    (3.33, -13.0),
    (-1.08, 6.91),
    (-8.33, 0.33),
    (0.667, 11.33),
]
ARM = ik.Chain.planar([2.0] * 10)


def turns_per_joint(sol: ik.Solution) -> np.ndarray:
    return (sol.motion.rotations() > MOVED).sum(axis=0)


@pytest.mark.parametrize("target", TARGETS)
def test_seed_targets(target):
    """Every target within the chain's length is reached in one pass; the one beyond it (6) is
    met by turning the base alone (step 5)."""
    sol = ik.solve(ARM, target, method="single-pass")
    check_invariants(sol, ARM, target)
    assert sol.iterations == 1
    assert np.all(turns_per_joint(sol) <= 1)
    if np.linalg.norm(target) < ARM.total_length:
        assert sol.status is ik.Status.REACHED
        assert sol.error <= 1e-9 * ARM.total_length
    else:
        assert sol.status is ik.Status.CLOSEST
        assert sol.motion.steps == 1 and turns_per_joint(sol)[0] == 1


@pytest.mark.parametrize("target", [t for t in TARGETS if np.hypot(*t) < 20.0])
def test_smaller_largest_rotation_than_triangulation(target):
    """§IV's aim: no large-angle rotations; its largest joint rotation stays below
    triangulation's on the seed's targets."""
    ours = ik.solve(ARM, target, method="single-pass").motion.rotations().max()
    theirs = ik.solve(ARM, target, method="triangulation").motion.rotations().max()
    assert ours < theirs


@given(data=st.data())
def test_each_link_rotates_at_most_once(data):
    chain = data.draw(chains())
    r = 1.2 * chain.total_length
    target = chain.base + np.array(
        data.draw(st.lists(st.floats(-r, r), min_size=chain.dim, max_size=chain.dim))
    )
    sol = ik.solve(chain, target, method="single-pass")
    check_invariants(sol, chain, target)
    assert np.all(turns_per_joint(sol) <= 1)
    assert sol.iterations <= 1


@given(data=st.data())
def test_free_chains_reach_from_the_straight_start(data):
    """Free 2-D chains reach targets whose distance keeps the final triangle closable."""
    chain = data.draw(chains(dims=(2, 3), limited=False, n_min=2))
    ang = data.draw(st.floats(-np.pi, np.pi))
    frac = data.draw(st.floats(0.5, 0.999))
    direction = np.zeros(chain.dim)
    direction[:2] = np.cos(ang), np.sin(ang)
    target = chain.base + frac * chain.total_length * direction
    k = split_link(chain.lengths, 0)
    a, b = chain.lengths[:k].sum(), chain.lengths[k:].sum()
    if np.linalg.norm(target - chain.base) ** 2 < a * a + b * b:
        return  # the go-round loop runs; reaching depends on the links it uses up
    sol = ik.solve(chain, target, method="single-pass")
    assert sol.status is ik.Status.REACHED
    assert sol.motion.steps <= 2


def test_split_link_nearest_half():
    assert split_link(np.full(10, 2.0), 0) == 5
    assert split_link(np.full(9, 2.0), 0) == 4  # the pseudo-code's integer k = n / 2
    assert split_link(np.full(10, 2.0), 3) == 3 + 3
    assert split_link(np.array([1.0, 1.0, 1.0, 5.0]), 0) == 3
    assert split_link(np.array([5.0, 1.0, 1.0, 1.0]), 0) == 1


def test_threshold_changes_the_direction():
    """Target 9 gives θk ≈ 130.7° at the first split: above 130° the link goes away from the
    target, below 135° it goes closer; both reach it."""
    a = ik.solve(ARM, TARGETS[8], method="single-pass", threshold_deg=130)
    b = ik.solve(ARM, TARGETS[8], method="single-pass", threshold_deg=135)
    assert a.status is b.status is ik.Status.REACHED
    first_a, first_b = a.motion.angles[1, 0], b.motion.angles[1, 0]
    assert abs(first_a - first_b) == pytest.approx(np.radians(40.0), abs=1e-9)
    assert np.abs(a.positions - b.positions).max() > 1.0


def test_offset_changes_the_going_round():
    default = ik.solve(ARM, TARGETS[1], method="single-pass")
    smaller = ik.solve(ARM, TARGETS[1], method="single-pass", offset_deg=10)
    assert default.status is smaller.status is ik.Status.REACHED
    first = abs(default.motion.angles[1, 0] - smaller.motion.angles[1, 0])
    assert first == pytest.approx(np.radians(10.0), abs=1e-9)


@pytest.mark.parametrize(
    "options",
    [
        {"offset_deg": -1.0},
        {"offset_deg": 91.0},
        {"threshold_deg": 80.0},
        {"threshold_deg": 181.0},
        {"threshold_deg": float("nan")},
        {"offset": 20.0},
    ],
)
def test_bad_options_are_refused(options):
    with pytest.raises(InvalidOptionError, match=next(iter(options))):
        ik.solve(ARM, TARGETS[0], method="single-pass", **options)


@pytest.mark.parametrize("target", TARGETS)
def test_mirrored_target_gives_mirrored_pose(target):
    """A link ends on its own side of the target vector, so the algorithm is mirror-symmetric."""
    sol = ik.solve(ARM, target, method="single-pass")
    mirror = ik.solve(ARM, (target[0], -target[1]), method="single-pass")
    np.testing.assert_allclose(mirror.positions, sol.positions * [1.0, -1.0], atol=1e-9)


def test_3d_planar_case_equals_2d():
    """A 3-D chain in the xy-plane with a target in it moves exactly as the 2-D chain does."""
    rng = np.random.default_rng(5)
    lengths = [[2.0] * 10] + [list(rng.uniform(0.3, 3.0, rng.integers(1, 12))) for _ in range(8)]
    for ls in lengths:
        flat, space = ik.Chain.planar(ls), ik.Chain.spatial(ls)
        L = flat.total_length
        targets = TARGETS if len(ls) == 10 and ls[0] == 2.0 else []
        targets = targets + [tuple(rng.uniform(-1.1 * L, 1.1 * L, 2)) for _ in range(6)]
        targets += [(0.5 * L, 0.0), (-0.5 * L, 0.0), (0.0, 0.0)]
        for t in targets:
            a = ik.solve(flat, t, method="single-pass")
            b = ik.solve(space, (t[0], t[1], 0.0), method="single-pass")
            np.testing.assert_allclose(b.positions[:, 2], 0.0, atol=1e-9 * L)
            np.testing.assert_allclose(b.positions[:, :2], a.positions, atol=1e-9 * L)
            assert a.status is b.status
            assert a.motion.steps == b.motion.steps


def test_limits_are_clamped():
    """Limited joints are held in their limits (the pass may then miss; the status says so)."""
    chain = ik.Chain.planar([2.0] * 10, max_bend_deg=60)
    for t in TARGETS:
        sol = ik.solve(chain, t, method="single-pass")
        check_invariants(sol, chain, t)
        assert np.all(np.abs(sol.angles) <= np.radians(60) + 1e-12)


@pytest.mark.parametrize(("index", "sign"), [(1, -1.0), (8, 1.0)])
def test_go_round_step_follows_eq_5(index, sign):
    """Step 6: link 1 of the published chain ends at δ ∓ 20° from the target vector, cos δ = l/2c
    (eq. 5): target 2 gives θk = 127.8° (at most 130°: closer, δ - 20°), target 9 130.7° (away,
    δ + 20°)."""
    target = np.array(TARGETS[index])
    c = np.linalg.norm(target)
    theta_k = 180.0 - np.degrees(np.arccos((100.0 + 100.0 - c * c) / 200.0))
    assert (theta_k > 130.0) == (sign > 0)
    sol = ik.solve(ARM, target, method="single-pass")
    first = ARM.pose_from_angles(sol.motion.angles[1]).positions
    link = first[1] - first[0]
    got = np.degrees(np.arccos(link @ target / (2.0 * c)))
    want = np.degrees(np.arccos(2.0 / (2.0 * c))) + sign * 20.0
    assert got == pytest.approx(want, abs=1e-9)
    assert turns_per_joint(sol)[0] == 1
