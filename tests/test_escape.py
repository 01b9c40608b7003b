"""The ``escape`` option of ccd, dls and fabrik: singular poses left, out-of-reach targets
ended CLOSEST, limits honoured, deterministic, and the seeds' CCD unchanged by default."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

import geoik as ik
from geoik.batch.engine import evaluate
from geoik.solvers import REGISTRY
from tests.conftest import chains, check_invariants, targets_for

ESCAPING = ("ccd", "dls", "fabrik")
TOL = 1e-3


def _line_targets(chain: ik.Chain) -> list[np.ndarray]:
    """Targets on the line of the straight rest pose, in front of the base and behind it,
    within reach and away from its rim (where the iterative methods are slow anyway)."""
    rmin, rmax = chain.reach()
    out = []
    for x in np.linspace(-0.9 * rmax, 0.9 * rmax, 19):
        if abs(x) > rmin + 1e-9:
            t = np.zeros(chain.dim)
            t[0] = x
            out.append(chain.base + t)
    return out


def test_escape_is_an_option_defaulting_off_only_for_the_seeds_ccd():
    defaults = {m: {o.name: o.default for o in REGISTRY[m].options} for m in ESCAPING}
    assert defaults["ccd"]["escape"] == 0.0
    assert defaults["dls"]["escape"] == 1.0
    assert defaults["fabrik"]["escape"] == 1.0
    with pytest.raises(ik.InvalidOptionError, match="escape: expected 0 or 1"):
        ik.solve(ik.Chain.planar([1.0, 1.0]), (1.0, 1.0), method="dls", escape=2)


def test_the_seeds_ccd_keeps_its_void_and_its_slow_approach():
    """As published: the straight chain stalls on a target on its line (seed 004's void) and
    an out-of-reach target (seed 002, Table I row 6) ends after the budget."""
    chain = ik.Chain.planar([2.0] * 10)
    sol = ik.solve(chain, (10.0, 0.0), method="ccd", tol=TOL)
    assert sol.status is ik.Status.STALLED and sol.error == pytest.approx(2.0)
    sol = ik.solve(chain, (-17.75, 15.75), method="ccd", tol=0.01)
    assert sol.status is ik.Status.MAX_ITERATIONS and sol.error == pytest.approx(3.8393, abs=1e-4)


@pytest.mark.parametrize("method", ESCAPING)
@pytest.mark.parametrize(
    "chain",
    [
        ik.Chain.planar([2.0] * 10),
        ik.Chain.planar([1.0, 2.0, 3.0, 1.5]),
        ik.Chain.spatial([1.0] * 6),
        ik.Chain.spatial([1.0, 2.0, 1.0]),
    ],
    ids=["planar 2x10", "planar unequal", "3-D 1x6", "3-D 1,2,1"],
)
def test_targets_on_the_straight_line_are_left_and_reached(method, chain):
    """No target on the rest pose's line ends STALLED. DLS and FABRIK reach every one that they
    reach when the line is tilted by 0.02 rad (no singularity), from the same rest pose, but
    one; CCD, whose sweeps may still curl the chain into a folded pose where the joint at the
    base sees the target straight ahead (a coordinate-wise minimum), most of them."""
    line, tilted = 0, 0
    for t in _line_targets(chain):
        sol = ik.solve(chain, t, method=method, tol=TOL, escape=1)
        check_invariants(sol, chain, t)
        assert sol.status is not ik.Status.STALLED, t
        line += sol.status is ik.Status.REACHED
        off = t.copy()
        off[0], off[1] = t[0] * np.cos(0.02), t[0] * np.sin(0.02)
        tilted += ik.solve(chain, off, method=method, tol=TOL).status is ik.Status.REACHED
    if method == "ccd":
        assert line >= 0.6 * len(_line_targets(chain))
    else:
        assert line >= tilted - 1


@pytest.mark.parametrize(
    "method, target, without",
    [
        ("ccd", (10.0, 0.0), 2.0),
        ("dls", (10.0, 0.0), 10.0),
        ("fabrik", (-19.0, 0.0), 1.0),
    ],
)
def test_singular_examples(method, target, without):
    """The straight 10 x 2 chain from rest: stalled without the escape, reached with it."""
    chain = ik.Chain.planar([2.0] * 10)
    sol = ik.solve(chain, target, method=method, tol=TOL, escape=0)
    assert sol.status is ik.Status.STALLED and sol.error == pytest.approx(without, abs=1e-9)
    sol = ik.solve(chain, target, method=method, tol=TOL, escape=1, max_iter=200)
    assert sol.status is ik.Status.REACHED


@pytest.mark.parametrize("method", ESCAPING)
@pytest.mark.parametrize("dim", [2, 3])
def test_out_of_reach_ends_closest(method, dim):
    """Beyond the chain's length and inside a free chain's minimum reach: CLOSEST."""
    long = [2.0] * 10
    chain = ik.Chain.planar(long) if dim == 2 else ik.Chain.spatial(long)
    folded = ik.Chain.planar([5.0, 1.0, 1.0]) if dim == 2 else ik.Chain.spatial([5.0, 1.0, 1.0])
    cases = [
        (chain, (-17.75, 15.75)),
        (chain, (-25.0, 0.0)),  # behind the base, on the rest pose's line
        (chain, (25.0, 0.0)),
        (folded, (1.0, 1.0)),
        (folded, (0.5, 0.0)),
        (folded, (0.0, 0.0)),  # the base: every point of the inner circle is closest
    ]
    for ch, t2 in cases:
        t = np.array(t2 + (0.0,) * (dim - 2))
        sol = ik.solve(ch, t, method=method, tol=TOL, escape=1)
        check_invariants(sol, ch, t)
        assert sol.status is ik.Status.CLOSEST, (ch, t, sol.status, sol.error)


def test_ccd_escape_takes_the_closest_pose_in_one_iteration():
    chain = ik.Chain.planar([2.0] * 10)
    sol = ik.solve(chain, (-17.75, 15.75), method="ccd", tol=0.01, escape=1)
    assert sol.status is ik.Status.CLOSEST and sol.iterations == 1
    assert sol.error == pytest.approx(np.hypot(-17.75, 15.75) - 20.0, abs=1e-9)
    assert ik.costs(sol).rotations_over_5deg == 1  # joint 0 only: the chain was straight


@pytest.mark.parametrize("method", ESCAPING)
def test_deterministic(method):
    chain = ik.Chain.planar([2.0] * 10)
    a = ik.solve(chain, (10.0, 0.0), method=method, tol=TOL, escape=1)
    b = ik.solve(chain, (10.0, 0.0), method=method, tol=TOL, escape=1)
    np.testing.assert_array_equal(a.motion.keys, b.motion.keys)
    assert a.status is b.status and a.iterations == b.iterations


@pytest.mark.parametrize("method", ESCAPING)
def test_limits_honoured_on_singular_targets(method):
    """The bend stays within the limits; a joint that cannot bend is passed over."""
    for chain in (
        ik.Chain.planar([2.0] * 6, max_bend_deg=[None, 45, (0, 0), 45, (-10, 0), 45]),
        ik.Chain.spatial(
            [1.0] * 4,
            max_bend_deg=[None, 30, (-20, 40), 30],
            hinge_axes=[None, None, (0, 0, 1), None],
        ),
    ):
        for t in _line_targets(chain):
            sol = ik.solve(chain, t, method=method, tol=TOL, escape=1)
            check_invariants(sol, chain, t)  # every keyframe within the limits


@pytest.mark.parametrize("method", ESCAPING)
@given(data=st.data())
def test_invariants_with_escape(method, data):
    chain = data.draw(chains())
    target = data.draw(targets_for(chain))
    if data.draw(st.booleans()):  # on the rest pose's line
        target = chain.base.copy()
        target[0] += data.draw(st.floats(-1.2, 1.2)) * chain.total_length
    sol = ik.solve(chain, target, method=method, escape=1)
    check_invariants(sol, chain, target)


def test_ccd_lanes_with_escape_equal_solve():
    """The batch engine runs the same lane kernel: target by target what solve gives."""
    chain = ik.Chain.planar([1.0, 2.0, 1.5, 1.0, 0.5])
    folded = ik.Chain.planar([4.0, 1.0, 1.0], max_bend_deg=[None, None, None])
    rng = np.random.default_rng(3)
    for ch in (chain, folded):
        r = 1.3 * ch.total_length
        targets = np.concatenate(
            [rng.uniform(-r, r, (150, 2)), [[x, 0.0] for x in np.linspace(-r, r, 27)]]
        )
        for costs in (True, False):
            res = evaluate(
                ch, targets, "ccd", tol=TOL, max_iter=40, angles=True, costs=costs, escape=1
            )
            for i, t in enumerate(targets):
                sol = ik.solve(ch, t, method="ccd", tol=TOL, max_iter=40, escape=1)
                assert res.status[i] == sol.status.value, (i, t)
                assert res.iterations[i] == sol.iterations
                np.testing.assert_allclose(res.angles[i], sol.angles, rtol=0, atol=1e-12)
                if costs:
                    c = ik.costs(sol)
                    assert res.rotations_over_5deg[i] == c.rotations_over_5deg
                    assert res.path_length[i] == pytest.approx(c.path_length, rel=1e-12)


@pytest.mark.parametrize("method", ESCAPING)
@pytest.mark.parametrize("dim", [2, 3])
def test_interpreted_escape_equals_compiled(method, dim):
    """The plain-Python twins take the same escapes as the compiled kernels."""
    from geoik import jit

    long = [2.0] * 6
    chain = ik.Chain.planar(long) if dim == 2 else ik.Chain.spatial(long)
    folded = ik.Chain.planar([5.0, 1.0]) if dim == 2 else ik.Chain.spatial([5.0, 1.0])
    cases = [(chain, t) for t in _line_targets(chain)[::3]]
    cases += [
        (chain, np.r_[-15.0, 1.0, [0.0] * (dim - 2)]),
        (folded, np.r_[1.0, [0.0] * (dim - 1)]),
    ]
    for ch, t in cases:
        out = []
        for how in ("compiled", "interpreted"):
            with jit.mode(how):
                sol = ik.solve(ch, t, method=method, tol=TOL, max_iter=30, escape=1)
                out.append((sol, ik.costs(sol)))
        (a, ca), (b, cb) = out
        assert (a.status, a.iterations) == (b.status, b.iterations), t
        np.testing.assert_allclose(a.angles, b.angles, rtol=0, atol=1e-12)
        assert ca.rotations_over_5deg == cb.rotations_over_5deg
