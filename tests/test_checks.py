"""geoik.checks' helpers for numbers, integers and capped points: what they accept, and messages
that name the argument, say what was expected and what came."""

from __future__ import annotations

import math

import numpy as np
import pytest

from geoik.checks import check_int, check_number, check_point, check_point_within, is_integer
from geoik.errors import InvalidOptionError, InvalidPoseError, InvalidTargetError


def test_is_integer():
    assert all(is_integer(v) for v in (0, -3, np.int64(7), np.uint8(1)))
    assert not any(is_integer(v) for v in (True, np.bool_(False), 1.0, "1", None, [1]))


@pytest.mark.parametrize(
    ("value", "lo", "hi", "message"),
    [
        ("soon", -math.inf, math.inf, "t: expected a finite number, got 'soon'"),
        (True, -math.inf, math.inf, "t: expected a finite number, got True"),
        (math.nan, -math.inf, math.inf, "t: expected a finite number, got nan"),
        (math.inf, 0.0, math.inf, "t: expected a finite number >= 0, got inf"),
        (-1, 0.0, math.inf, "t: expected a finite number >= 0, got -1"),
        (7.5, -math.inf, 5.0, "t: expected a finite number <= 5, got 7.5"),
        (1e6, 0.0, 5.0, "t: expected a finite number in [0, 5], got 1000000.0"),
    ],
)
def test_check_number_rejects(value, lo, hi, message):
    with pytest.raises(InvalidOptionError) as info:
        check_number(value, "t", lo, hi)
    assert str(info.value) == message


def test_check_number_accepts_and_converts():
    assert check_number(3, "t") == 3.0 and isinstance(check_number(3, "t"), float)
    assert check_number(np.float32(0.5), "t", 0, 1) == 0.5
    assert check_number(5, "t", 0, 5) == 5.0
    with pytest.raises(InvalidPoseError, match=r"^start\[2\]: "):
        check_number("x", "start[2]", error=InvalidPoseError)


@pytest.mark.parametrize(
    ("value", "lo", "hi", "message"),
    [
        (1.5, 1, 1000, "max_iter: expected an integer in [1, 1000], got 1.5"),
        (10**9, 1, 1000, "max_iter: expected an integer in [1, 1000], got 1000000000"),
        (True, 1, 1000, "max_iter: expected an integer in [1, 1000], got True"),
        ("3", 1, 1000, "max_iter: expected an integer in [1, 1000], got '3'"),
        (-1, 0, math.inf, "max_iter: expected an integer >= 0, got -1"),
        (None, -math.inf, math.inf, "max_iter: expected an integer, got None"),
    ],
)
def test_check_int_rejects(value, lo, hi, message):
    with pytest.raises(InvalidOptionError) as info:
        check_int(value, "max_iter", lo, hi)
    assert str(info.value) == message


def test_check_int_accepts():
    assert check_int(np.int64(8), "size", 8, 512) == 8 and type(check_int(8, "size")) is int


def test_a_point_of_numpy_floats_is_read_as_one_of_python_floats():
    """A tuple of NumPy float64 values (an array's items) takes the scalar path, which Python's
    floats take: the same fresh array, and NaN, infinity and coordinates beyond MAX_COORDINATE
    refused with the same message."""
    xyz = np.array([0.25, -1.5, 3.0])
    p = check_point(tuple(xyz), 3, "target")
    np.testing.assert_array_equal(p, check_point(xyz.tolist(), 3, "target"))
    assert p.dtype == np.float64 and not np.shares_memory(p, xyz)
    for bad in ([0.25, math.nan, 3.0], [0.25, math.inf, 3.0], [0.25, 1e51, 3.0]):
        with pytest.raises(InvalidTargetError) as numpy_floats:
            check_point(tuple(np.array(bad)), 3, "target")
        with pytest.raises(InvalidTargetError) as python_floats:
            check_point(tuple(bad), 3, "target")
        reason = str(python_floats.value).split(", got")[0]
        assert str(numpy_floats.value).split(", got")[0] == reason


def test_check_point_within_is_check_point_with_a_cap():
    p = check_point_within([1.0, -2.0], 2, "target", 10.0)
    np.testing.assert_array_equal(p, [1.0, -2.0])
    for bad in ([1.0, math.nan], [1.0], "here"):
        with pytest.raises(InvalidTargetError) as within:
            check_point_within(bad, 2, "target", 10.0)
        with pytest.raises(InvalidTargetError) as plain:
            check_point(bad, 2, "target")
        assert str(within.value) == str(plain.value)
    with pytest.raises(InvalidTargetError) as info:
        check_point_within([1e7, 0], 2, "chain.base", 1e6)
    assert str(info.value) == "chain.base: expected coordinates within +-1e+06, got [10000000.0, 0]"
