"""The batch engine gives, target by target, what geoik.solve and geoik.costs give."""

from __future__ import annotations

import numpy as np
import pytest

import geoik as ik
from geoik import jit
from geoik.batch.engine import evaluate, evaluate_grid
from geoik.errors import GeoIKError, InvalidTargetError, UnsupportedChainError
from geoik.solvers import REGISTRY

PLANAR = sorted(name for name, s in REGISTRY.items() if s.kernel_2d is not None)
N_TARGETS = 2000
STALLED = ik.Status.STALLED.value

# non-default options of the solvers that have any, each changing some results
OPTIONS = {
    "dls": {"damping": 0.3, "max_step": 0.1},
    "single-pass": {"offset_deg": 10.0, "threshold_deg": 135.0},
    "two-bone": {"elbow": -1.0},
}


def _chains(solver) -> list[ik.Chain]:
    lo, hi = solver.links
    n = max(lo, 5 if hi is None else min(5, hi))
    rng = np.random.default_rng(7)
    lengths = rng.uniform(0.5, 2.0, n)
    limits = [(-40.0, 150.0)] + [120.0] * (n - 1)
    return [ik.Chain.planar(lengths), ik.Chain.planar(lengths, limits, base=(0.5, -1.0))]


def _targets(chain, m, rng) -> np.ndarray:
    r = 1.2 * chain.total_length
    targets = chain.base + rng.uniform(-r, r, (m, 2))
    targets[0] = chain.base  # degenerate: the base itself
    targets[1] = chain.base + (0.5 * chain.total_length, 0.0)  # on the straight chain's line
    targets[2] = chain.base + (chain.total_length, 0.0)  # the rest pose's end effector
    return targets


def _compare(chain, targets, method, **kw) -> tuple[int, int]:
    """Assert batch == solve target by target; (compared, refused by solve). The batch engine
    runs compiled, so solve is run compiled too (its plain-Python twins agree to rounding)."""
    with jit.mode("compiled"):
        return _compare_compiled(chain, targets, method, **kw)


def _compare_compiled(chain, targets, method, **kw) -> tuple[int, int]:
    res = evaluate(chain, targets, method, angles=True, **kw)
    compared = refused = 0
    for i, t in enumerate(targets):
        try:
            sol = ik.solve(chain, t, method, **kw)
        except GeoIKError:
            # a request solve() refuses up front (CAA's arc breaking a limit): a failure here
            assert res.status[i] == STALLED and res.iterations[i] == 0, (i, t)
            refused += 1
            continue
        c = ik.costs(sol)
        assert res.status[i] == sol.status.value, (i, t)
        assert res.iterations[i] == sol.iterations
        if REGISTRY[method].kernel_2d_lanes is None:  # the same forward kinematics and judge
            assert res.error[i] == sol.error
        else:  # the lane kernel's own end effector: its coordinates equal to rounding
            assert res.error[i] == pytest.approx(sol.error, rel=0, abs=1e-13 * chain.total_length)
        assert res.rotations_over_5deg[i] == c.rotations_over_5deg
        assert res.rotation_sum_deg[i] == pytest.approx(c.rotation_sum_deg, rel=1e-12)
        assert res.path_length[i] == pytest.approx(c.path_length, rel=1e-12, abs=1e-12)
        np.testing.assert_allclose(res.angles[i], sol.angles, rtol=0, atol=1e-12)
        compared += 1
    return compared, refused


@pytest.mark.parametrize("method", PLANAR)
def test_batch_equals_solve(method):
    """2,000 random targets per solver (half on a free chain, half on a limited one)."""
    solver = REGISTRY[method]
    rng = np.random.default_rng(11)
    compared = refused = 0
    for chain in _chains(solver):
        kw = {"tol": 1e-3 * chain.total_length, "max_iter": 30}
        a, b = _compare(chain, _targets(chain, N_TARGETS // 2, rng), method, **kw)
        compared, refused = compared + a, refused + b
    assert compared + refused == N_TARGETS
    assert compared >= N_TARGETS // 2


@pytest.mark.parametrize("method", sorted(OPTIONS))
def test_batch_equals_solve_with_options(method):
    chain = _chains(REGISTRY[method])[0]
    targets = _targets(chain, 300, np.random.default_rng(5))
    kw = {"tol": 1e-3 * chain.total_length, "max_iter": 25}
    compared, _ = _compare(chain, targets, method, **kw, **OPTIONS[method])
    assert compared == len(targets)
    plain = evaluate(chain, targets, method, angles=True, **kw)
    changed = evaluate(chain, targets, method, angles=True, **kw, **OPTIONS[method])
    assert not np.array_equal(plain.angles, changed.angles)  # the options reached the kernel


@pytest.mark.parametrize("method", PLANAR)
def test_invariants(method):
    """FK of the final angles lands at the reported error; REACHED iff within tol; no NaN."""
    chain = _chains(REGISTRY[method])[1]
    targets = _targets(chain, 400, np.random.default_rng(3))
    tol = 1e-3 * chain.total_length
    res = evaluate(chain, targets, method, tol=tol, max_iter=30, angles=True)
    for arr in (res.error, res.rotation_sum_deg, res.path_length, res.angles):
        assert np.all(np.isfinite(arr))
    for i in range(0, len(targets), 7):
        end = chain.pose_from_angles(res.angles[i]).positions[-1]
        assert np.linalg.norm(end - targets[i]) == pytest.approx(res.error[i], abs=1e-9)
        if np.isfinite(chain.lo).all():
            slack = 1e-9
            assert np.all(res.angles[i] >= chain.lo - slack)
            assert np.all(res.angles[i] <= chain.hi + slack)
    assert np.array_equal(res.reached, res.error <= tol)
    rmin, rmax = chain.reach()
    dist = np.linalg.norm(targets - chain.base, axis=1)
    assert not res.reached[(dist > rmax + tol) | (dist < rmin - tol)].any()
    assert np.all(res.iterations >= 0) and np.all(res.iterations <= 30)


@pytest.mark.parametrize("method", PLANAR)
def test_order_and_neighbours_do_not_matter(method):
    """A target's result depends on it alone, not on its place among the others (lanes)."""
    chain = _chains(REGISTRY[method])[0]
    targets = _targets(chain, 700, np.random.default_rng(9))
    perm = np.random.default_rng(1).permutation(len(targets))
    a = evaluate(chain, targets, method, tol=0.01, max_iter=20, angles=True, costs=False)
    b = evaluate(chain, targets[perm], method, tol=0.01, max_iter=20, angles=True, costs=False)
    for name in ("status", "iterations", "error", "angles"):
        assert np.array_equal(getattr(a, name)[perm], getattr(b, name)), name
    one = evaluate(chain, targets[perm[:1]], method, tol=0.01, max_iter=20, costs=False)
    assert one.error[0] == b.error[0] and one.status[0] == b.status[0]


@pytest.mark.parametrize(
    "method, options",
    [("ccd", {}), ("ccd", {"escape": 1}), ("fabrik", {}), ("auto", {})],
    ids=["ccd", "ccd-escape", "fabrik", "auto"],
)
@pytest.mark.parametrize("costs", [False, True], ids=["no-costs", "costs"])
def test_grid_equals_evaluate(method, options, costs):
    """The pixel centres of a grid 37 wide and 23 high (its blocks of 16 columns by a few rows
    cut short at the right and at the bottom), on a free and a limited chain: evaluate_grid's
    results are evaluate's, bit for bit."""
    for chain in _chains(REGISTRY["ccd"]):
        r = 1.1 * chain.total_length
        xs, ys = np.linspace(-r, r, 37), np.linspace(-r, r, 23)
        grid = chain.base + np.stack(np.meshgrid(xs, ys), axis=-1).reshape(-1, 2)
        kw = dict(tol=0.01, max_iter=25, angles=True, costs=costs, **options)
        a = evaluate(chain, grid, method, **kw)
        b = evaluate_grid(chain, grid, 37, method, **kw)
        for name in ("status", "iterations", "error", "angles", "path_length", "solved_by"):
            x, y = getattr(a, name), getattr(b, name)
            assert (x is None and y is None) or np.array_equal(x, y), name


@pytest.mark.parametrize("width", [0, -3, 2.5, True, 7], ids=str)
def test_grid_width_refused(width):
    grid = np.zeros((12, 2))
    with pytest.raises(GeoIKError, match="width"):
        evaluate_grid(ik.Chain.planar([1.0] * 3), grid, width, "ccd")


@pytest.mark.parametrize(
    "targets", [[[0.0, np.nan]], [[1.0, 2.0], [3.0]], "a", [[np.inf, 0.0]]], ids=str
)
def test_grid_bad_targets(targets):
    with pytest.raises(InvalidTargetError, match="targets"):
        evaluate_grid(ik.Chain.planar([1.0] * 3), targets, 1, "ccd")


def test_status_codes_are_status_values():
    chain = ik.Chain.planar([1.0] * 3)
    far = [[10.0, 0.0], [0.0, 2.0]]
    res = evaluate(chain, far, "ccd", tol=1e-3)
    assert res.status.dtype == np.int8
    assert ik.Status(int(res.status[0])) is ik.Status.CLOSEST
    assert ik.Status(int(res.status[1])) is ik.Status.REACHED
    assert res.angles is None
    assert (res.tol, res.max_iter) == (1e-3, REGISTRY["ccd"].default_max_iter)


def test_empty_targets():
    res = evaluate(ik.Chain.planar([1.0] * 3), np.empty((0, 2)), "fabrik", angles=True)
    assert res.status.shape == (0,) and res.angles.shape == (0, 3)


@pytest.mark.parametrize("method", ["ccd", "fabrik"])
def test_without_costs_same_status(method):
    chain = ik.Chain.planar([1.0] * 4)
    t = np.random.default_rng(3).uniform(-4, 4, (300, 2))
    a = evaluate(chain, t, method, tol=0.01, max_iter=20, angles=True)
    b = evaluate(chain, t, method, tol=0.01, max_iter=20, costs=False, angles=True)
    assert np.array_equal(a.status, b.status) and np.array_equal(a.error, b.error)
    assert np.array_equal(a.iterations, b.iterations)
    # recording sums each turn's angle, the fast path reads the final rotation: same to rounding
    gap = np.angle(np.exp(1j * (a.angles - b.angles)))
    assert np.abs(gap).max() < 1e-9
    assert a.path_length.any() and not b.path_length.any()


@pytest.mark.parametrize(
    "targets", [[[0.0, np.nan]], [[1.0, 2.0, 3.0]], "a", [[np.inf, 0.0]]], ids=str
)
def test_bad_targets(targets):
    with pytest.raises(InvalidTargetError, match="targets"):
        evaluate(ik.Chain.planar([1.0] * 3), targets, "ccd")


def test_targets_of_the_other_dimension_refused():
    with pytest.raises(InvalidTargetError, match="targets"):
        evaluate(ik.Chain.spatial([1.0] * 3), [[1.0, 0.0]], "ccd")
    with pytest.raises(UnsupportedChainError, match="two-bone"):
        evaluate(ik.Chain.spatial([1.0] * 3), [[1.0, 0.0, 0.0]], "two-bone")


def test_bad_options_named():
    chain = ik.Chain.planar([1.0] * 3)
    with pytest.raises(GeoIKError, match="tol"):
        evaluate(chain, [[1.0, 1.0]], "ccd", tol=-1.0)
    with pytest.raises(GeoIKError, match="max_iter"):
        evaluate(chain, [[1.0, 1.0]], "ccd", max_iter=0)
    with pytest.raises(GeoIKError, match="bogus"):
        evaluate(chain, [[1.0, 1.0]], "ccd", bogus=1.0)
    with pytest.raises(GeoIKError, match="damping"):
        evaluate(chain, [[1.0, 1.0]], "dls", damping=-1.0)
    with pytest.raises(GeoIKError, match="method"):
        evaluate(chain, [[1.0, 1.0]], "nope")
    with pytest.raises(GeoIKError, match="chain"):
        evaluate([1.0, 1.0], [[1.0, 1.0]], "ccd")
