"""The batch engine gives, target by target, what geoik.solve and geoik.costs give."""

from __future__ import annotations

import numpy as np
import pytest

import geoik as ik
from geoik.batch import evaluate
from geoik.errors import GeoIKError, InvalidTargetError, UnsupportedChainError
from geoik.solvers import REGISTRY

PLANAR = sorted(name for name, s in REGISTRY.items() if s.kernel_2d is not None)
N_TARGETS = 2000


def _chains(solver) -> list[ik.Chain]:
    lo, hi = solver.links
    n = max(lo, 5 if hi is None else min(5, hi))
    rng = np.random.default_rng(7)
    lengths = rng.uniform(0.5, 2.0, n)
    limits = [(-40.0, 150.0)] + [120.0] * (n - 1)
    return [ik.Chain.planar(lengths), ik.Chain.planar(lengths, limits, base=(0.5, -1.0))]


@pytest.mark.parametrize("method", PLANAR)
def test_batch_equals_solve(method):
    solver = REGISTRY[method]
    rng = np.random.default_rng(11)
    compared = 0
    for chain in _chains(solver):
        r = 1.2 * chain.total_length
        targets = chain.base + rng.uniform(-r, r, (N_TARGETS // 2, 2))
        targets[0] = chain.base  # degenerate: the base itself
        targets[1] = chain.base + (0.5 * chain.total_length, 0.0)  # on the straight chain's line
        kw = {"tol": 1e-3 * chain.total_length, "max_iter": 30}
        res = evaluate(chain, targets, method, angles=True, **kw)
        for i, t in enumerate(targets):
            try:
                sol = ik.solve(chain, t, method, **kw)
            except GeoIKError:
                continue  # a request the solver refuses up front (e.g. CAA's limit check)
            c = ik.costs(sol)
            assert res.status[i] == sol.status.value, (i, t)
            assert res.iterations[i] == sol.iterations
            assert res.error[i] == pytest.approx(sol.error, abs=1e-12)
            assert res.rotations_over_5deg[i] == c.rotations_over_5deg
            assert res.rotation_sum_deg[i] == pytest.approx(c.rotation_sum_deg, rel=1e-12)
            assert res.path_length[i] == pytest.approx(c.path_length, rel=1e-12, abs=1e-12)
            np.testing.assert_allclose(res.angles[i], sol.angles, rtol=0, atol=1e-12)
            compared += 1
    assert compared >= N_TARGETS // 2


def test_status_codes_are_status_values():
    chain = ik.Chain.planar([1.0] * 3)
    far = [[10.0, 0.0], [0.0, 2.0]]
    res = evaluate(chain, far, "ccd", tol=1e-3)
    assert res.status.dtype == np.int8
    assert ik.Status(int(res.status[0])) is ik.Status.CLOSEST
    assert ik.Status(int(res.status[1])) is ik.Status.REACHED
    assert res.angles is None


def test_without_costs_same_status():
    chain = ik.Chain.planar([1.0] * 4)
    t = np.random.default_rng(3).uniform(-4, 4, (300, 2))
    a = evaluate(chain, t, "ccd", tol=0.01, max_iter=20)
    b = evaluate(chain, t, "ccd", tol=0.01, max_iter=20, costs=False)
    assert np.array_equal(a.status, b.status) and np.array_equal(a.error, b.error)
    assert not b.path_length.any()


@pytest.mark.parametrize(
    "targets", [[[0.0, np.nan]], [[1.0, 2.0, 3.0]], "a", [[np.inf, 0.0]]], ids=str
)
def test_bad_targets(targets):
    with pytest.raises(InvalidTargetError, match="targets"):
        evaluate(ik.Chain.planar([1.0] * 3), targets, "ccd")


def test_spatial_chain_refused():
    with pytest.raises(UnsupportedChainError, match="planar"):
        evaluate(ik.Chain.spatial([1.0] * 3), [[1.0, 0.0, 0.0]], "ccd")


def test_bad_options_named():
    chain = ik.Chain.planar([1.0] * 3)
    with pytest.raises(GeoIKError, match="tol"):
        evaluate(chain, [[1.0, 1.0]], "ccd", tol=-1.0)
    with pytest.raises(GeoIKError, match="max_iter"):
        evaluate(chain, [[1.0, 1.0]], "ccd", max_iter=0)
    with pytest.raises(GeoIKError, match="bogus"):
        evaluate(chain, [[1.0, 1.0]], "ccd", bogus=1.0)
