"""solve_tree: circles and multi-end-effector FABRIK on skeletons."""

from __future__ import annotations

import math

import numpy as np
import pytest

from geoik.errors import (
    InvalidOptionError,
    InvalidPoseError,
    InvalidTargetError,
    UnknownMethodError,
)
from geoik.rigs.skeleton import Skeleton
from geoik.rigs.tree import TreeSolution, solve_tree
from geoik.solution import Status

METHODS = ("circles", "fabrik")


def check_tree(sol: TreeSolution) -> None:
    """Invariants of every tree solution."""
    sk = sol.skeleton
    assert sol.positions.shape == (sk.n, sk.dim)
    assert np.all(np.isfinite(sol.positions))
    np.testing.assert_allclose(sol.positions[sk.root_index], sk.root, atol=1e-12)
    for j in range(sk.n):
        p = sk.parents[j]
        if p >= 0:
            got = np.linalg.norm(sol.positions[j] - sol.positions[p])
            assert math.isclose(got, sk.lengths[j], rel_tol=1e-9)
    assert set(sol.status) == set(sol.targets) == set(sol.error)
    for name, t in sol.targets.items():
        err = float(np.linalg.norm(sol.position(name) - t))
        assert sol.error[name] == pytest.approx(err, rel=1e-15, abs=0.0)
        assert (sol.status[name] is Status.REACHED) == (err <= sol.tol)
        if sol.status[name] is Status.CLOSEST:
            lo, hi = sk.reach(name)
            dist = np.linalg.norm(t - sk.root)
            assert not lo <= dist <= hi
            if dist == 0.0:  # every point at the minimum reach is nearest
                gap = np.linalg.norm(sol.position(name) - sk.root) - lo
                assert abs(gap) <= sol.tol
            else:
                near = sk.root + (t - sk.root) * (min(max(dist, lo), hi) / dist)
                assert np.linalg.norm(sol.position(name) - near) <= sol.tol
    assert sol.iterations >= 0


def _hand_targets(sk: Skeleton, rng: np.random.Generator, spread: float) -> dict:
    """Fingertip positions of a random pose: rest directions perturbed by ``spread``."""
    dirs = sk.directions + spread * rng.normal(size=sk.directions.shape)
    pos = sk.positions_from_directions(dirs)
    return {f: pos[sk.index(f)] for f in sk.effector_names}


FLEX = (1.0, 1.35, 0.9)
"""Flexion of a finger's three joints per unit of curl (knuckle, middle, last): a natural
coupling, the middle joint bending most."""


def _curled(sk: Skeleton, finger: str, t: float) -> np.ndarray:
    """(4, 3) knuckle and joints of a finger of :meth:`Skeleton.hand` curled by ``t`` radians
    (times FLEX per joint) from rest towards the palm side (-z), in the plane of its rest
    direction and -z."""
    path = sk.path(finger)[1:]
    d0 = sk.directions[path[1]]
    k = np.cross((0.0, 0.0, 1.0), d0)
    k /= np.linalg.norm(k)
    pts = [sk.rest_positions()[path[0]]]
    a = 0.0
    for i, j in enumerate(path[1:]):
        a += t * FLEX[i]
        d = d0 * math.cos(a) + np.cross(k, d0) * math.sin(a) + k * (k @ d0) * (1 - math.cos(a))
        pts.append(pts[-1] + sk.lengths[j] * d)
    return np.array(pts)


def _grasp(sk: Skeleton, centre: np.ndarray, radius: float) -> tuple[dict, dict]:
    """Fingertip targets of a grasp: each finger curls from rest until its tip first meets the
    ball (bisection on the first sign change of the tip's distance to the surface). Returns the
    targets and each finger's curl."""
    targets, curls = {}, {}
    for f in sk.effector_names:

        def gap(t: float, f: str = f) -> float:
            return float(np.linalg.norm(_curled(sk, f, t)[-1] - centre)) - radius

        ts = np.linspace(0.0, 1.5, 151)
        i = next(i for i in range(1, ts.size) if gap(ts[i - 1]) > 0.0 >= gap(ts[i]))
        lo, hi = ts[i - 1], ts[i]
        for _ in range(60):
            mid = 0.5 * (lo + hi)
            lo, hi = (mid, hi) if gap(mid) > 0.0 else (lo, mid)
        targets[f], curls[f] = _curled(sk, f, hi)[-1], hi
    return targets, curls


def _bends(sk: Skeleton, pos: np.ndarray, finger: str) -> tuple[np.ndarray, float]:
    """A finger's bends (degrees) at the knuckle and its two joints, and the least cosine
    between the axes of the bends over 5 degrees (1: they all turn the same way)."""
    d = np.diff(pos[sk.path(finger)], axis=0)
    d /= np.linalg.norm(d, axis=1)[:, None]
    bends = np.degrees(np.arccos(np.clip(np.sum(d[:-1] * d[1:], axis=1), -1.0, 1.0)))
    axes = [np.cross(a, b) for a, b, t in zip(d[:-1], d[1:], bends, strict=True) if t > 5.0]
    axes = [x / np.linalg.norm(x) for x in axes]
    agree = min((float(a @ b) for i, a in enumerate(axes) for b in axes[:i]), default=1.0)
    return bends, agree


@pytest.mark.parametrize("method", METHODS)
@pytest.mark.parametrize(
    ("centre", "radius"),
    [((1.05, 0.0, -0.75), 0.25), ((1.2, 0.1, -0.75), 0.3), ((0.95, -0.1, -0.65), 0.3)],
)
def test_hand_grasps_a_ball(method, centre, radius):
    """Seed 003 Fig. 7: the hand closes on a ball under its palm. The targets are a genuine
    grasp: each fingertip where that finger, curling naturally from rest (20-40 degrees at the
    knuckle), first meets the ball. From the straight rest pose both tree solvers put every
    fingertip on its target, and the fingers curl the natural way: every bend (the knuckle's
    from the palm included) below 90 degrees, both finger joints bent (R kept at the straight
    start's distances would leave the middle one straight and fold the last by up to 77
    degrees), and all of a finger's bends about agreeing axes. Circles solves the hand with its
    anatomical limits; FABRIK the hand without them (with them it does not reach these grasps
    from the straight hand: it puts the bend at the last joint, which its hinge stops)."""
    sk = Skeleton.hand(dim=3, limits=method == "circles")
    c = np.array(centre)
    targets, curls = _grasp(sk, c, radius)
    assert all(math.radians(20.0) <= t <= math.radians(40.0) for t in curls.values())
    for t in targets.values():
        assert abs(np.linalg.norm(t - c) - radius) <= 1e-12 and t[2] < 0.0
    sol = solve_tree(sk, targets, method=method)
    check_tree(sol)
    assert sol.reached, (sol.status, sol.error)
    assert max(sol.error.values()) <= sol.tol
    for f in sk.effector_names:
        bends, agree = _bends(sk, sol.positions, f)
        assert bends.max() < 90.0, (f, bends)
        assert bends[1:].min() >= 15.0, (f, bends)  # no joint left straight, the next folded
        assert agree > 0.0, (f, bends, agree)


@pytest.mark.parametrize("method", METHODS)
@pytest.mark.parametrize("dim", [2, 3])
def test_hand_reaches_random_reachable_poses(method, dim):
    """Five targets from forward kinematics of random hand poses (a solution exists, though no
    natural one: the hand without its limits): every fingertip REACHED."""
    sk = Skeleton.hand(dim=dim, limits=False)
    rng = np.random.default_rng(2013 + dim)
    for _ in range(8):
        targets = _hand_targets(sk, rng, spread=0.7)
        sol = solve_tree(sk, targets, method=method)
        check_tree(sol)
        assert sol.reached, (sol.status, sol.error)


@pytest.mark.parametrize("dim", [2, 3])
def test_circles_solves_branches_from_the_root_in_one_round(dim):
    """No sub-base: each branch is a chain placed once by intersection of circles."""
    sk = Skeleton.from_chains(
        [("a", [1.0, 2.0, 1.5]), ("b", [1.0, 1.0]), ("c", [0.5, 0.5, 0.5, 0.5])], dim=dim
    )
    rng = np.random.default_rng(1)
    targets = {}
    for name in sk.effector_names:
        lo, hi = sk.reach(name)
        u = rng.normal(size=dim)
        targets[name] = sk.root + (lo + 0.8 * (hi - lo)) * u / np.linalg.norm(u)
    sol = solve_tree(sk, targets, method="circles")
    check_tree(sol)
    assert sol.reached and sol.iterations == 1
    assert max(sol.error.values()) <= 1e-9


@pytest.mark.parametrize("method", METHODS)
def test_unreachable_target_is_closest(method):
    """One fingertip pulled far away, others untargeted: that finger's path straightens."""
    sk = Skeleton.hand(dim=3)
    far = np.array([5.0, 3.0, 1.0])
    sol = solve_tree(sk, {"index": far}, method=method)
    check_tree(sol)
    assert sol.status["index"] is Status.CLOSEST
    hi = sk.reach("index")[1]
    np.testing.assert_allclose(sol.position("index"), far * hi / np.linalg.norm(far), atol=sol.tol)


@pytest.mark.parametrize("method", METHODS)
def test_conflicting_targets_are_not_reached(method):
    """Two fingers pulled apart beyond what the shared palm allows: honest statuses."""
    sk = Skeleton.hand(dim=2)
    lo, hi = sk.reach("index")
    targets = {"index": (0.0, 1.2 * hi), "little": (0.0, -1.2 * hi), "middle": (0.5, 0.2)}
    sol = solve_tree(sk, targets, method=method, max_iter=200)
    check_tree(sol)
    assert sol.status["index"] is not Status.REACHED
    assert sol.status["little"] is not Status.REACHED


@pytest.mark.parametrize("method", METHODS)
def test_untargeted_branches_are_carried(method):
    """Without limits, untargeted fingers keep their offsets from their parents."""
    sk = Skeleton.hand(dim=3, limits=False)
    rest = sk.rest_positions()
    target = rest[sk.index("index")] + np.array([-0.3, 0.2, 0.4])
    sol = solve_tree(sk, {"index": target}, method=method)
    check_tree(sol)
    assert sol.status["index"] is Status.REACHED
    for f in ("thumb", "middle", "ring", "little"):
        for j in sk.path(f)[2:]:
            p = sk.parents[j]
            np.testing.assert_allclose(
                sol.positions[j] - sol.positions[p], rest[j] - rest[p], atol=1e-12
            )


@pytest.mark.parametrize("method", METHODS)
def test_cyclist_pedals(method):
    """Seed 003 Fig. 6: both feet on pedals going round; each frame starts from the last. The
    circles solver keeps each joint on the side of the bend it starts with, so the knees stay
    forward of the line from the hip to the ankle all the way round, here within the legs'
    anatomical limits. FABRIK runs on the legs without limits (it lets the knees swing behind
    the line; with the limits it stalls on the pedals' near half, its passes straightening the
    knee against its limit)."""
    sk = Skeleton.legs(dim=2, limits=method == "circles")
    crank, centre = 0.17, np.array([0.25, -0.75])
    prev = None
    for k in range(48):
        a = 2 * math.pi * k / 48
        off = crank * np.array([math.cos(a), math.sin(a)])
        targets = {"left_foot": centre + off, "right_foot": centre - off}
        sol = solve_tree(sk, targets, method=method, start=prev)
        check_tree(sol)
        assert sol.reached
        assert sk.limit_violation(sol) == 0.0
        if method == "circles":
            for side in ("left", "right"):
                hip, knee, ankle = (
                    sol.position(j) for j in ("pelvis", f"{side}_knee", f"{side}_ankle")
                )
                leg, thigh = ankle - hip, knee - hip
                assert leg[0] * thigh[1] - leg[1] * thigh[0] > 0.0  # knee forward of the line
        prev = sol


@pytest.mark.parametrize("method", METHODS)
def test_degenerate_targets_give_no_nan(method):
    sk = Skeleton.from_chains([("a", [1.0, 1.0, 1.0]), ("b", [2.0, 0.5], "a_1")], dim=3)
    for t in ([0, 0, 0], [3, 0, 0], [1e-12, 0, 0], [10, 0, 0], [-1.5, 0, 0]):
        sol = solve_tree(sk, {"a": t, "b": t}, method=method, max_iter=50)
        check_tree(sol)


def test_bad_input():
    sk = Skeleton.hand(dim=2)
    with pytest.raises(InvalidTargetError, match="nose"):
        solve_tree(sk, {"nose": (0, 0)})
    with pytest.raises(InvalidTargetError, match="wrist"):
        solve_tree(sk, {"wrist": (0, 0)})  # the root stays
    with pytest.raises(InvalidTargetError, match="2 finite"):
        solve_tree(sk, {"index": (0, 0, 0)})
    with pytest.raises(InvalidTargetError, match="2 finite"):
        solve_tree(sk, {"index": (0, float("nan"))})
    with pytest.raises(InvalidTargetError, match="mapping"):
        solve_tree(sk, [(0, 0)])
    with pytest.raises(UnknownMethodError, match="circles"):
        solve_tree(sk, {"index": (1, 0)}, method="ccd")
    with pytest.raises(InvalidOptionError, match="tol"):
        solve_tree(sk, {"index": (1, 0)}, tol=-1)
    with pytest.raises(InvalidOptionError, match="max_iter"):
        solve_tree(sk, {"index": (1, 0)}, max_iter=0)
    bad = sk.rest_positions()
    bad[3] += 0.1
    with pytest.raises(InvalidPoseError, match="thumb_2"):
        solve_tree(sk, {"index": (1, 0)}, start=bad)
    with pytest.raises(InvalidPoseError, match="start"):
        solve_tree(sk, {"index": (1, 0)}, start=np.zeros((3, 2)))


def test_solution_is_frozen():
    sk = Skeleton.hand(dim=2)
    sol = solve_tree(sk, {"index": (1.5, 0.3)})
    with pytest.raises(TypeError):
        sol.status["index"] = Status.STALLED  # type: ignore[index]
    with pytest.raises(ValueError):
        sol.positions[0, 0] = 1.0
    assert sol.method == "circles"


@pytest.mark.parametrize("dim", [2, 3])
def test_kernels_match_py_func(dim):
    """Each jitted tree kernel equals its pure-Python ``.py_func``."""
    from geoik.rigs.tree import _segments, _target_arrays
    from geoik.solvers.circles.tree import circles_tree
    from geoik.solvers.fabrik import fabrik_tree

    sk = Skeleton.hand(dim=dim)
    targets = _hand_targets(sk, np.random.default_rng(9), spread=0.7)
    active, targeted, tgt, has_closest, closest = _target_arrays(sk, targets)
    segs = _segments(sk, active, targeted)
    goal = (targeted, tgt, has_closest, closest)
    for kernel, head in (
        (fabrik_tree, ((sk.parents, sk.lengths, sk.order, active),)),
        (circles_tree, (segs, active)),
    ):
        results = []
        for fn in (kernel, kernel.py_func):
            pos = sk.rest_positions()
            out = fn(*head, goal, pos, 1e-4, 40, 2.0)
            results.append((tuple(out), pos))
        assert results[0][0] == results[1][0]
        np.testing.assert_allclose(results[0][1], results[1][1], rtol=1e-9, atol=1e-12)
