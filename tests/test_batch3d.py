"""The batch engine on 3-D chains and on skeletons gives, target by target (row by row), what
geoik.solve and geoik.costs (geoik.solve_tree) give."""

from __future__ import annotations

import numpy as np
import pytest

import geoik as ik
from geoik import jit
from geoik.batch.engine import TreeBatchResult, evaluate
from geoik.errors import GeoIKError, InvalidOptionError, InvalidTargetError, UnknownMethodError
from geoik.solvers import REGISTRY

SPATIAL = sorted(name for name, s in REGISTRY.items() if s.kernel_3d is not None)
STALLED = ik.Status.STALLED.value


def _chains(solver) -> list[ik.Chain]:
    lo, hi = solver.links
    n = max(lo, 4 if hi is None else min(4, hi))
    rng = np.random.default_rng(7)
    lengths = rng.uniform(0.5, 2.0, n)
    bends = [60.0] * n
    hinges = [None] * n
    if n >= 2:
        bends[1], hinges[1] = (-30.0, 120.0), (0.0, 0.0, 1.0)
    return [
        ik.Chain.spatial(lengths),
        ik.Chain.spatial(lengths, bends, hinges, base=(0.5, -1.0, 0.25)),
    ]


def _targets(chain, m, rng) -> np.ndarray:
    r = 1.1 * chain.total_length
    targets = chain.base + rng.uniform(-r, r, (m, 3))
    targets[0] = chain.base  # degenerate: the base itself
    targets[1] = chain.base + (0.5 * chain.total_length, 0.0, 0.0)  # on the straight line
    targets[2] = chain.base + (chain.total_length, 0.0, 0.0)  # the rest pose's end effector
    return targets


def _compare(chain, targets, method, **kw) -> tuple[int, int]:
    """Assert batch == solve target by target, bit for bit; (compared, refused by solve)."""
    with jit.mode("compiled"):  # the engine runs compiled
        res = evaluate(chain, targets, method, angles=True, **kw)
        compared = refused = 0
        for i, t in enumerate(targets):
            try:
                sol = ik.solve(chain, t, method, **kw)
            except GeoIKError:
                assert res.status[i] == STALLED and res.iterations[i] == 0, (i, t)
                refused += 1
                continue
            c = ik.costs(sol)
            assert res.status[i] == sol.status.value, (i, t)
            assert res.iterations[i] == sol.iterations
            assert res.error[i] == sol.error
            assert res.rotations_over_5deg[i] == c.rotations_over_5deg
            assert res.rotation_sum_deg[i] == c.rotation_sum_deg
            assert res.path_length[i] == c.path_length
            assert np.array_equal(res.angles[i], sol.angles)
            if res.solved_by is not None:  # auto: the solver each target's solve kept
                assert res.solvers[res.solved_by[i]] == sol.method, (i, t)
            compared += 1
    return compared, refused


@pytest.mark.parametrize("method", SPATIAL)
def test_batch_equals_solve_3d(method):
    solver = REGISTRY[method]
    rng = np.random.default_rng(11)
    compared = refused = 0
    for chain in _chains(solver):
        kw = {"tol": 1e-3 * chain.total_length, "max_iter": 25}
        a, b = _compare(chain, _targets(chain, 150, rng), method, **kw)
        compared, refused = compared + a, refused + b
    assert compared + refused == 300
    assert compared >= 150


@pytest.mark.parametrize(("method", "options"), [("ccd", {"escape": 1}), ("auto", {})])
def test_batch_equals_solve_3d_with_escape_and_auto(method, options):
    """CCD with escape runs one target at a time (the lanes run the seeds' CCD); auto runs its
    attempts on the targets still short: both as solve does, target by target."""
    rng = np.random.default_rng(5)
    compared = 0
    for chain in _chains(REGISTRY["ccd"]):
        kw = {"tol": 1e-3 * chain.total_length, "max_iter": 25, **options}
        a, b = _compare(chain, _targets(chain, 120, rng), method, **kw)
        assert b == 0  # neither refuses a target
        compared += a
    assert compared == 240


def test_ccd_3d_blocks_and_padding():
    """More targets than one block of lanes, and a last block padded: each target alone."""
    chain = _chains(REGISTRY["ccd"])[1]
    targets = _targets(chain, 300, np.random.default_rng(2))
    kw = {"tol": 0.01, "max_iter": 20, "costs": False}
    res = evaluate(chain, targets, "ccd", **kw)
    for i in (0, 1, 127, 128, 255, 299):
        one = evaluate(chain, targets[i : i + 1], "ccd", **kw)
        assert (one.status[0], one.iterations[0], one.error[0]) == (
            res.status[i],
            res.iterations[i],
            res.error[i],
        )


def test_3d_angles_shape_and_empty():
    chain = ik.Chain.spatial([1.0] * 3)
    res = evaluate(chain, np.empty((0, 3)), "fabrik", angles=True)
    assert res.status.shape == (0,) and res.angles.shape == (0, 3, 3)
    res = evaluate(chain, [[1.0, 1.0, 0.5]], "ccd", angles=True)
    assert res.angles.shape == (1, 3, 3)


# ------------------------------------------------------------------------------ skeletons


def _rows(sk, names, m, rng):
    out = {}
    for name in names:
        rmin, rmax = sk.reach(name)
        out[name] = sk.root + rng.uniform(-1.1, 1.1, (m, sk.dim)) * rmax
    out[names[0]][0] = sk.root  # a target at the root
    return out


@pytest.mark.parametrize("method", ["circles", "fabrik", "auto"])
@pytest.mark.parametrize("which", ["hand", "hand-free", "legs", "legs-free"])
def test_batch_equals_solve_tree(method, which):
    """Skeletons with limits (solved row by row) and without (on every core)."""
    limits = not which.endswith("-free")
    if which.startswith("hand"):
        sk = ik.Skeleton.hand(limits=limits)
    else:
        sk = ik.Skeleton.legs(limits=limits)
    assert sk.is_limited == limits
    names = sk.effector_names[:3] if which.startswith("hand") else sk.effector_names
    rows = _rows(sk, names, 60, np.random.default_rng(4))
    kw = {"tol": 1e-3, "max_iter": 40}
    with jit.mode("compiled"):
        res = evaluate(sk, rows, method, positions=True, **kw)
        assert isinstance(res, TreeBatchResult) and res.effectors == tuple(names)
        for i in range(60):
            sol = ik.solve_tree(sk, {n: rows[n][i] for n in names}, method, **kw)
            assert res.iterations[i] == sol.iterations, i
            for e, name in enumerate(names):
                assert res.status[i, e] == sol.status[name].value, (i, name)
                assert res.error[i, e] == sol.error[name], (i, name)
            assert np.array_equal(res.positions[i], sol.positions), i
            if method == "auto":
                assert res.solvers[res.solved_by[i]] == sol.method, i
            else:
                assert res.solved_by is None and res.solvers == (method,)
    assert res.tol == sol.tol
    assert np.array_equal(res.all_reached, res.reached.all(axis=1))


def test_tree_rows_as_one_array():
    sk = ik.Skeleton.legs()
    rng = np.random.default_rng(1)
    rows = _rows(sk, sk.effector_names, 20, rng)
    stacked = np.stack([rows[n] for n in sk.effector_names], axis=1)
    a = evaluate(sk, rows, "circles", tol=1e-3)
    b = evaluate(sk, stacked, "circles", tol=1e-3)
    assert np.array_equal(a.status, b.status) and np.array_equal(a.error, b.error)
    assert a.positions is None


def test_tree_input_checks():
    sk = ik.Skeleton.legs()
    good = np.zeros((3, 2))
    with pytest.raises(InvalidTargetError, match="targets"):
        evaluate(sk, {"nose": good}, "fabrik")
    with pytest.raises(InvalidTargetError, match="rows"):
        evaluate(sk, {"left_foot": good, "right_foot": np.zeros((4, 2))}, "fabrik")
    with pytest.raises(InvalidTargetError, match="left_foot"):
        evaluate(sk, {"left_foot": [[0.0, np.nan]]}, "fabrik")
    with pytest.raises(InvalidTargetError, match="targets"):
        evaluate(sk, {}, "fabrik")
    with pytest.raises(InvalidTargetError, match="targets"):
        evaluate(sk, np.zeros((3, 5, 2)), "fabrik")
    with pytest.raises(UnknownMethodError, match="method"):
        evaluate(sk, {"left_foot": good}, "ccd")
    with pytest.raises(InvalidOptionError, match="angles"):
        evaluate(sk, {"left_foot": good}, "fabrik", angles=True)
    with pytest.raises(InvalidOptionError, match="damping"):
        evaluate(sk, {"left_foot": good}, "fabrik", damping=0.1)
    with pytest.raises(InvalidOptionError, match="positions"):
        evaluate(ik.Chain.planar([1.0]), [[1.0, 0.0]], "ccd", positions=True)
