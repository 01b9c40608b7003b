"""method="auto": the plan per chain, the fallback, Solution.method / requested, and every
reachable target reached on the benchmark's problems."""

from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

import geoik as ik
from geoik import api
from geoik.batch.engine import evaluate
from geoik.maps.metric import metric_map
from geoik.solvers import REGISTRY, request
from geoik.solvers.auto import plan
from tests.conftest import chains, check_invariants, targets_for

TOL = 1e-3


def reachable_targets(chain: ik.Chain, m: int, seed: int = 0) -> list[np.ndarray]:
    """End effectors of random poses within the limits: every target is reachable. 2-D: each
    angle uniform in its range; 3-D: a hinge's angle in its range, a ball joint's bend within
    its cone about a random axis normal to the link."""
    rng = np.random.default_rng(seed)
    out = []
    for _ in range(m):
        if chain.dim == 2:
            lo = np.where(np.isfinite(chain.lo), chain.lo, -math.pi)
            hi = np.where(np.isfinite(chain.hi), chain.hi, math.pi)
            angles = rng.uniform(lo, hi)
        else:
            angles = np.zeros((chain.n, 3))
            for i in range(chain.n):
                if np.any(chain.hinge[i]):
                    lo_, hi_ = max(chain.lo[i], -math.pi), min(chain.hi[i], math.pi)
                    angles[i] = chain.hinge[i] * rng.uniform(lo_, hi_)
                else:
                    a = rng.uniform(0.0, 2.0 * math.pi)
                    bend = rng.uniform(0.0, min(chain.cone[i], math.pi))
                    angles[i] = (0.0, bend * math.cos(a), bend * math.sin(a))
        out.append(chain.pose_from_angles(angles).positions[-1])
    return out


def _names(chain: ik.Chain) -> list[str]:
    return [s.name for s, _ in plan(chain)]


def test_plan():
    assert _names(ik.Chain.planar([2.0] * 10)) == ["circles", "dls", "ccd", "fabrik"]
    assert _names(ik.Chain.spatial([1.0] * 6)) == ["circles", "dls", "ccd", "fabrik"]
    assert _names(ik.Chain.planar([5.0, 4.0]))[0] == "two-bone"
    assert _names(ik.Chain.planar([5.0, 4.0], max_bend_deg=90))[:2] == ["two-bone", "dls"]
    assert _names(ik.Chain.planar([2.0] * 10, max_bend_deg=45)) == ["dls", "ccd", "fabrik"]
    # the iterative solvers run with the escape on
    for solver, opts in plan(ik.Chain.planar([2.0] * 4, max_bend_deg=45)):
        names = [o.name for o in solver.options]
        assert opts[names.index("escape")] == 1.0


PROBLEMS = {
    "planar 10x2": ik.Chain.planar([2.0] * 10),
    "planar 5x1": ik.Chain.planar([1.0] * 5),
    "3-D 6 links": ik.Chain.spatial([1.0] * 6),
    "planar 10x2, +-45 deg": ik.Chain.planar([2.0] * 10, max_bend_deg=45),
    "planar 2 links, limited": ik.Chain.planar([5.0, 4.0], max_bend_deg=[None, (-150, -10)]),
    "3-D arm": ik.Chain.spatial(
        [3.0, 2.5, 1.0], max_bend_deg=[60, (0, 150), 45], hinge_axes=[None, (0, 0, 1), None]
    ),
}


@pytest.mark.parametrize("name", sorted(PROBLEMS))
def test_every_reachable_target_reached(name):
    chain = PROBLEMS[name]
    for t in reachable_targets(chain, 150, seed=1):
        sol = ik.solve(chain, t, method="auto", tol=TOL, max_iter=100)
        assert sol.status is ik.Status.REACHED, (name, t, sol.method, sol.error)
        assert sol.requested == "auto" and sol.method in REGISTRY


def test_default_method_is_auto():
    chain = ik.Chain.planar([2.0] * 10)
    sol = ik.solve(chain, (8.33, 2.83))
    assert sol.requested == "auto" and sol.method == "circles" and sol.reached
    named = ik.solve(chain, (8.33, 2.83), method="ccd")
    assert named.requested == named.method == "ccd"


def test_out_of_reach_is_closest_or_given_up_at_once():
    free = ik.Chain.planar([2.0] * 10)
    sol = ik.solve(free, (-17.75, 15.75), tol=0.01)
    assert sol.status is ik.Status.CLOSEST and sol.method == "circles"
    limited = ik.Chain.planar([2.0] * 10, max_bend_deg=45)
    sol = ik.solve(limited, (-30.0, 5.0), tol=0.01)  # beyond the reach: no fallback
    assert sol.method == "dls" and sol.status is not ik.Status.REACHED


def test_fallback_when_the_first_choice_ends_short(monkeypatch):
    """The next solver runs from the same start; the Solution is the one that reached. Each
    attempt's kernel is given a writable goal (a read-only one, left so by the first answer,
    would compile the later solvers' kernels a second time, for that type)."""
    chain = ik.Chain.planar([2.0] * 10, max_bend_deg=45)
    single = REGISTRY["single-pass"]
    staged = (
        (single, single.kernel_opts(chain, {})),
        *plan(chain),
    )
    monkeypatch.setattr(request, "plan", lambda c: staged)
    goals = []  # every attempt's kernel gets a writable goal: one compiled kernel per solver
    run = api._run
    monkeypatch.setattr(api, "_run", lambda *a: goals.append(a[3].flags.writeable) or run(*a))
    missed = 0
    for t in reachable_targets(chain, 60, seed=4):
        first = ik.solve(chain, t, method="single-pass", tol=TOL)
        sol = ik.solve(chain, t, method="auto", tol=TOL)
        assert sol.reached and sol.requested == "auto"
        if first.reached:
            assert sol.method == "single-pass"
        else:
            missed += 1
            assert sol.method == "dls"
            alone = ik.solve(chain, t, method="dls", tol=TOL)
            np.testing.assert_array_equal(sol.angles, alone.angles)  # from the same start
    assert missed > 0 and all(goals) and len(goals) >= 2 * 60 + missed


def test_no_options_with_auto():
    with pytest.raises(ik.InvalidOptionError, match="auto"):
        ik.solve(ik.Chain.planar([1.0, 1.0, 1.0]), (1.0, 1.0), method="auto", escape=0)


def test_start_and_clamp_pass_through():
    chain = ik.Chain.planar([1.0] * 4, max_bend_deg=90)
    start = np.radians([10.0, 20.0, -30.0, 40.0])
    sol = ik.solve(chain, (1.0, 2.0), method="auto", start=start)
    np.testing.assert_allclose(sol.motion.keys[0], start)
    sol = ik.solve(chain, (9.0, 0.0), method="auto", clamp_to_reach=True, tol=1e-3)
    assert sol.status is ik.Status.CLOSEST


@given(data=st.data())
def test_invariants(data):
    chain = data.draw(chains())
    target = data.draw(targets_for(chain))
    sol = ik.solve(chain, target, method="auto")
    check_invariants(sol, chain, target)
    assert sol.requested == "auto"


# --------------------------------------------------------------------------------- trees


def _tree_targets(sk: ik.Skeleton, rng: np.random.Generator) -> dict[str, np.ndarray]:
    """Every end effector's position in a random pose: a reachable set of targets."""
    d = rng.normal(size=(sk.n, sk.dim))
    d /= np.linalg.norm(d, axis=1)[:, None]
    pos = sk._positions(d)
    return {e: pos[sk.index(e)] for e in sk.effector_names}


def test_tree_auto_reaches_trees_branching_at_the_root():
    """Branches from the root: circles places each exactly, so auto reaches every set."""
    sk = ik.Skeleton.from_chains([("a", [1.0, 0.5, 0.8]), ("b", [0.7, 0.7]), ("c", [2.0, 0.3])])
    rng = np.random.default_rng(2)
    for _ in range(100):
        sol = ik.solve_tree(sk, _tree_targets(sk, rng), tol=1e-6)
        assert sol.reached and sol.method == "circles" and sol.requested == "auto"


def test_tree_auto_falls_back_on_fabrik():
    """A sub-base shared by three branches: auto keeps the better of circles and fabrik, and
    reaches every set that either reaches."""
    sk = ik.Skeleton.from_chains(
        [("trunk", [1.0, 1.0]), ("a", [1.0, 0.5], "trunk_1"), ("b", [0.8, 0.8], "trunk_1")]
    )
    rng = np.random.default_rng(5)
    tol = 1e-3 * sk.total_length
    methods = set()
    for _ in range(120):
        targets = _tree_targets(sk, rng)
        sol = ik.solve_tree(sk, targets, method="auto", tol=tol)
        c = ik.solve_tree(sk, targets, method="circles", tol=tol)
        f = ik.solve_tree(sk, targets, method="fabrik", tol=tol)
        assert sol.reached == (c.reached or f.reached)
        assert sol.method == ("circles" if c.reached else sol.method)
        methods.add(sol.method)
    assert methods == {"circles", "fabrik"}


def test_tree_default_is_auto_and_named_methods_stay():
    sk = ik.Skeleton.hand(dim=2)
    assert ik.solve_tree(sk, {"index": (1.5, 0.3)}).requested == "auto"
    named = ik.solve_tree(sk, {"index": (1.5, 0.3)}, method="fabrik")
    assert named.method == named.requested == "fabrik"
    with pytest.raises(ik.UnknownMethodError, match="auto"):
        ik.solve_tree(sk, {"index": (1.5, 0.3)}, method="ccd")


# --------------------------------------------------------------------------- batch engine


@pytest.mark.parametrize(
    "chain",
    [
        ik.Chain.planar([1.0, 2.0, 1.5, 1.0, 0.5]),
        ik.Chain.planar([2.0] * 6, max_bend_deg=45),
        ik.Chain.planar([3.0, 2.0], max_bend_deg=[None, (-120, -20)]),
    ],
    ids=["free", "+-45", "two links, limited"],
)
def test_batch_auto_equals_solve_auto(chain):
    rng = np.random.default_rng(8)
    r = 1.2 * chain.total_length
    targets = np.concatenate(
        [
            rng.uniform(-r, r, (120, 2)),
            np.array(reachable_targets(chain, 60, seed=9)),
            [[x, 0.0] for x in np.linspace(-r, r, 13)],
        ]
    )
    kw = {"tol": TOL, "max_iter": 40}
    res = evaluate(chain, targets, "auto", angles=True, **kw)
    assert res.solved_by is not None and res.solvers[0] == _names(chain)[0]
    for i, t in enumerate(targets):
        sol = ik.solve(chain, t, method="auto", **kw)
        assert res.solvers[res.solved_by[i]] == sol.method, (i, t)
        assert res.status[i] == sol.status.value
        assert res.iterations[i] == sol.iterations
        assert res.error[i] == pytest.approx(sol.error, rel=0, abs=1e-12 * chain.total_length)
        np.testing.assert_allclose(res.angles[i], sol.angles, rtol=0, atol=1e-12)
        c = ik.costs(sol)
        assert res.rotations_over_5deg[i] == c.rotations_over_5deg
        assert res.path_length[i] == pytest.approx(c.path_length, rel=1e-12, abs=1e-12)
    reachable = res.status[120:180]
    assert np.all(reachable == ik.Status.REACHED.value)


def test_batch_auto_maps():
    chain = ik.Chain.planar([1.0] * 5, max_bend_deg=60)
    m = metric_map(chain, "auto", "iterations", size=40, tol=0.01, max_iter=20)
    assert m.method == "auto" and 0.0 < m.coverage <= 1.0
    named = evaluate(chain, [[2.0, 1.0]], "dls", tol=0.01)
    assert named.solvers == ("dls",) and named.solved_by is None
    with pytest.raises(ik.InvalidOptionError, match="auto"):
        evaluate(chain, [[2.0, 1.0]], "auto", escape=0)
