"""The Solution value: frozen, read-only arrays, its Status enum, and the fast constructor that
geoik.solve uses."""

from __future__ import annotations

import dataclasses

import numpy as np
import pytest

import geoik as ik
from geoik.solution import Solution, Status


@pytest.fixture
def sol():
    return ik.solve(ik.Chain.planar([1.0, 1.0, 1.0]), (1.0, 1.5), method="ccd")


def test_status_enum():
    assert [s.name for s in Status] == ["REACHED", "CLOSEST", "MAX_ITERATIONS", "STALLED"]
    assert ik.Status is Status


def test_frozen_with_read_only_arrays(sol):
    for name in ("target", "positions", "angles"):
        with pytest.raises(ValueError, match="read-only"):
            getattr(sol, name)[0] = 1.0
    with pytest.raises(ValueError, match="read-only"):
        sol.motion.keys[0, 0] = 1.0
    with pytest.raises(dataclasses.FrozenInstanceError):
        sol.status = Status.STALLED  # type: ignore[misc]


def test_properties(sol):
    assert sol.reached is (sol.status is Status.REACHED)
    np.testing.assert_array_equal(sol.end_effector, sol.positions[-1])
    np.testing.assert_array_equal(sol.pose.positions, sol.positions)
    np.testing.assert_array_equal(sol.pose.angles(), sol.angles)


def test_fast_constructor_is_the_constructor(sol):
    """Solution.fast sets every field, as the dataclass constructor does."""
    values = {f.name: getattr(sol, f.name) for f in dataclasses.fields(Solution)}
    copies = {k: v.copy() if isinstance(v, np.ndarray) else v for k, v in values.items()}
    slow = Solution(**copies)
    fast = Solution.fast(*(copies[f.name] for f in dataclasses.fields(Solution)))
    assert vars(fast).keys() == vars(slow).keys()
    for name in values:
        a, b = getattr(fast, name), getattr(slow, name)
        if isinstance(a, np.ndarray):
            assert np.array_equal(a, b) and not a.flags.writeable
        else:
            assert a is b or a == b


def test_solve_copies_the_target():
    target = np.array([1.0, 1.5])
    sol = ik.solve(ik.Chain.planar([1.0, 1.0, 1.0]), target, method="ccd")
    target[0] = 99.0
    assert sol.target[0] == 1.0
    assert target.flags.writeable
