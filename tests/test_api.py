"""geoik.solve: validation at the boundary, status judging, start poses."""

from __future__ import annotations

import numpy as np
import pytest

import geoik as ik


@pytest.fixture
def chain():
    return ik.Chain.planar([2] * 10)


@pytest.mark.parametrize(
    ("target", "words"),
    [
        ((1.0,), ["target", "2 finite coordinates", "(1.0,)"]),
        ((1, 2, 3), ["target", "2 finite coordinates"]),
        ((float("nan"), 1), ["target", "finite"]),
        ((float("inf"), 1), ["target", "finite"]),
        ("here", ["target"]),
    ],
)
def test_bad_targets(chain, target, words):
    with pytest.raises(ik.InvalidTargetError) as info:
        ik.solve(chain, target, method="ccd")
    for w in words:
        assert w in str(info.value)


def test_unknown_method_lists_known(chain):
    with pytest.raises(ik.UnknownMethodError) as info:
        ik.solve(chain, (1, 1), method="nope")
    assert "'nope'" in str(info.value) and "ccd" in str(info.value)


def test_unknown_option(chain):
    with pytest.raises(ik.InvalidOptionError, match="damping.*'ccd'"):
        ik.solve(chain, (1, 1), method="ccd", damping=0.1)


@pytest.mark.parametrize(
    ("kw", "word"),
    [
        ({"tol": 0}, "tol"),
        ({"tol": float("nan")}, "tol"),
        ({"max_iter": 0}, "max_iter"),
        ({"max_iter": 2.5}, "max_iter"),
    ],
)
def test_bad_tol_and_max_iter(chain, kw, word):
    with pytest.raises(ik.InvalidOptionError, match=word):
        ik.solve(chain, (1, 1), method="ccd", **kw)


def test_not_a_chain():
    with pytest.raises(ik.InvalidChainError, match="chain"):
        ik.solve([1, 2], (1, 1), method="ccd")


def test_start_outside_limits_is_rejected():
    chain = ik.Chain.planar([1, 1], max_bend_deg=45)
    with pytest.raises(ik.InvalidPoseError, match="joint 1"):
        ik.solve(chain, (1, 1), method="ccd", start=[0.0, 1.5])


def test_start_wrong_shape():
    chain = ik.Chain.planar([1, 1])
    with pytest.raises(ik.InvalidPoseError, match="start"):
        ik.solve(chain, (1, 1), method="ccd", start=[0.0])
    other = ik.Chain.planar([1, 1, 1]).rest_pose()
    with pytest.raises(ik.InvalidPoseError, match="start"):
        ik.solve(chain, (1, 1), method="ccd", start=other)


def test_default_tol_scales_with_chain(chain):
    sol = ik.solve(chain, (8.33, 2.83), method="ccd")
    assert sol.tol == pytest.approx(ik.api.DEFAULT_TOL * 20)


def test_target_at_end_effector_needs_no_iteration(chain):
    sol = ik.solve(chain, (20, 0), method="ccd")
    assert sol.status is ik.Status.REACHED and sol.iterations == 0 and sol.motion.steps == 0


def test_ccd_stall_on_collinear_target_is_reported():
    """Seed 004's void: a straight chain and a target on its line between the last joint and the
    tip; every joint sees angle 0, nothing turns, and the first sweep ends STALLED."""
    chain = ik.Chain.planar([1.0] * 2)
    sol = ik.solve(chain, (1.5, 0.0), method="ccd", max_iter=10)
    assert sol.status is ik.Status.STALLED and sol.iterations == 1
    assert sol.motion.steps == 0
    np.testing.assert_array_equal(sol.positions, chain.rest_pose().positions)
    assert sol.error == pytest.approx(0.5)


@pytest.mark.parametrize("method", ["ccd", "fabrik", "two-bone"])
@pytest.mark.parametrize("target", [(1.0, 0.0), (0.0, 1.0), (-0.5, -0.5)])
def test_closest_inside_minimum_reach(method, target):
    """Lengths [3, 1]: the minimum reach is 2, so a target nearer the base is out of reach and
    the chain folds towards it, ending CLOSEST at distance 2 along the target's direction."""
    chain = ik.Chain.planar([3, 1])
    sol = ik.solve(chain, target, method=method, max_iter=500)
    assert sol.status is ik.Status.CLOSEST
    direction = np.array(target) / np.linalg.norm(target)
    np.testing.assert_allclose(sol.positions[-1], 2.0 * direction, atol=sol.tol)
    assert sol.error == pytest.approx(2.0 - np.linalg.norm(target), abs=sol.tol)


def test_dls_inside_minimum_reach_is_not_called_closest_unless_there():
    """DLS does not fold towards targets inside the minimum reach (its docstring): the status
    says what happened, never CLOSEST away from the closest point."""
    chain = ik.Chain.planar([3, 1])
    sol = ik.solve(chain, (0.0, 1.0), method="dls", max_iter=50)
    near = np.linalg.norm(sol.positions[-1] - (0.0, 2.0)) <= sol.tol
    assert (sol.status is ik.Status.CLOSEST) == near


@pytest.mark.parametrize(
    "target", [(3.0, 4.0), [3, 4], np.array([3, 4]), np.array([3.0, 4.0], np.float32)]
)
def test_targets_of_any_numeric_sequence(chain, target):
    sol = ik.solve(chain, target, method="ccd")
    assert sol.target.dtype == np.float64 and sol.target.tolist() == [3.0, 4.0]
    assert sol.status is ik.Status.REACHED


def test_nested_target_is_rejected(chain):
    with pytest.raises(ik.InvalidTargetError, match="2 finite coordinates"):
        ik.solve(chain, [[3.0, 4.0]], method="ccd")


def test_solution_is_frozen(chain):
    sol = ik.solve(chain, (8.33, 2.83), method="ccd")
    with pytest.raises(ValueError):
        sol.positions[0, 0] = 1.0
    with pytest.raises(AttributeError):
        sol.error = 0.0  # type: ignore[misc]
