"""Bad input raises one family of typed errors whose messages name the argument, what was
expected and what came, in one table."""

from __future__ import annotations

import math

import pytest

import geoik as ik
from geoik.errors import describe

PLANAR = ik.Chain.planar([1.0, 1.0, 1.0])

CASES = [
    # (call, error type, words the message must contain: argument, expected, what came)
    (
        lambda: ik.solve(PLANAR, (1.0, math.nan), "ccd"),
        ik.InvalidTargetError,
        ["target", "finite", "nan"],
    ),
    (
        lambda: ik.solve(PLANAR, (1.0, math.inf), "ccd"),
        ik.InvalidTargetError,
        ["target", "finite", "inf"],
    ),
    (
        lambda: ik.solve(PLANAR, (1.0, 2.0, 3.0), "ccd"),
        ik.InvalidTargetError,
        ["target", "2 finite coordinates", "2-D chain", "(1.0, 2.0, 3.0)"],
    ),
    (
        lambda: ik.solve(PLANAR, "somewhere", "ccd"),
        ik.InvalidTargetError,
        ["target", "2 finite coordinates", "'somewhere'"],
    ),
    (lambda: ik.Chain.planar([1.0, 0.0]), ik.InvalidChainError, ["lengths[1]", "> 0", "0.0"]),
    (lambda: ik.Chain.planar([1.0, -2.0]), ik.InvalidChainError, ["lengths[1]", "> 0", "-2.0"]),
    (
        lambda: ik.Chain.spatial([1.0, math.nan]),
        ik.InvalidChainError,
        ["lengths[1]", "finite", "nan"],
    ),
    (lambda: ik.Chain.planar([]), ik.InvalidChainError, ["lengths", "at least one link", "empty"]),
    (
        lambda: ik.Chain.planar([1, 1], max_bend_deg=181),
        ik.InvalidChainError,
        ["max_bend_deg[0]", "[0, 180]", "181"],
    ),
    (
        lambda: ik.Chain.planar([1, 1], max_bend_deg=-1),
        ik.InvalidChainError,
        ["max_bend_deg[0]", "[0, 180]", "-1"],
    ),
    (
        lambda: ik.Chain.planar([1, 1], max_bend_deg=[None, (40, 10)]),
        ik.InvalidChainError,
        ["max_bend_deg[1]", "min <= max", "40", "10"],
    ),
    (
        lambda: ik.Chain.spatial([1, 1], max_bend_deg=[200, None]),
        ik.InvalidChainError,
        ["max_bend_deg[0]", "[0, 180]", "200"],
    ),
    (
        lambda: ik.solve(PLANAR, (1, 1), "nosuch"),
        ik.UnknownMethodError,
        ["method", "ccd", "fabrik", "dls", "two-bone", "'nosuch'"],
    ),
    (
        lambda: ik.solve(PLANAR, (1, 1), "circles", damping=0.1),
        ik.InvalidOptionError,
        ["damping", "'circles'", "its options: none"],
    ),
    (
        lambda: ik.solve(PLANAR, (1, 1), "dls", dampnig=0.1),
        ik.InvalidOptionError,
        ["dampnig", "damping, max_step"],
    ),
    (
        lambda: ik.solve(PLANAR, (1, 1), "two-bone"),
        ik.UnsupportedChainError,
        ["chain", "two-bone", "exactly 2 links", "3"],
    ),
    (lambda: ik.solve(PLANAR, (1, 1), "ccd", tol=-1), ik.InvalidOptionError, ["tol", "> 0", "-1"]),
    (
        lambda: ik.solve(PLANAR, (1, 1), "ccd", max_iter=0),
        ik.InvalidOptionError,
        ["max_iter", ">= 1", "0"],
    ),
    (
        lambda: ik.solve(PLANAR, (1, 1), "ccd", start=[0.0]),
        ik.InvalidPoseError,
        ["start", "(3,)", "(1,)"],
    ),
]


@pytest.mark.parametrize(("call", "kind", "words"), CASES)
def test_bad_input_messages(call, kind, words):
    with pytest.raises(kind) as info:
        call()
    assert isinstance(info.value, ik.GeoIKError) and isinstance(info.value, ValueError)
    message = str(info.value)
    for word in words:
        assert word in message, (word, message)


def test_every_error_type_is_a_geoik_error():
    kinds = [getattr(ik, name) for name in ik.__all__ if name.endswith("Error")]
    assert len(kinds) >= 7
    for kind in kinds:
        assert issubclass(kind, ik.GeoIKError) and issubclass(kind, ValueError)


def test_describe_shortens_long_values():
    assert describe(1.5) == "1.5"
    text = describe(list(range(100)))
    assert len(text) == 80 and text.endswith("...")


# --------------------------------------------------------------------------- the argument


@pytest.mark.parametrize(
    ("call", "argument"),
    [
        (lambda: ik.solve(PLANAR, (1.0, math.nan), "ccd"), "target"),
        (lambda: ik.solve(PLANAR, (1.0, 1.0), "ccd", tol=-1.0), "tol"),
        (lambda: ik.solve(PLANAR, (1.0, 1.0), "ccd", max_iter=0), "max_iter"),
        (lambda: ik.solve(PLANAR, (1.0, 1.0), "nope"), "method"),
        (lambda: ik.Chain.planar([1.0, 2.0, 3.0, -1.0]), "lengths[3]"),
        (lambda: ik.Chain.planar([1.0, 1.0], max_bend_deg=[90, 200]), "max_bend_deg[1]"),
        (
            lambda: ik.solve(
                ik.Chain.planar([1.0, 1.0, 1.0], max_bend_deg=90),
                (1.0, 1.0),
                "ccd",
                start=[0.0, 0.0, 2.5],
            ),
            "start[2]",
        ),
        (lambda: ik.solve(PLANAR, (1.0, 1.0), "two-bone"), "chain"),
    ],
)
def test_an_error_carries_the_argument_it_is_about(call, argument):
    with pytest.raises(ik.GeoIKError) as info:
        call()
    e = info.value
    assert e.argument == argument
    assert str(e) == f"{argument}: {e.detail}"
    assert e.detail and not e.detail.startswith(argument)


def test_an_error_keeps_its_argument_and_parts_through_pickling():
    import pickle

    with pytest.raises(ik.GeoIKError) as info:
        ik.Chain.planar([1.0, 1.0, 1.0], max_bend_deg=[-30, 120])
    e = info.value
    back = pickle.loads(pickle.dumps(e))
    assert type(back) is type(e) and str(back) == str(e)
    assert back.argument == e.argument == "max_bend_deg"
    assert [str(p) for p in back.parts] == [str(p) for p in e.parts]


def test_the_command_line_spells_the_argument_from_the_error_not_its_message():
    """The flag comes from ``err.argument`` and the values from ``err.parts``: an error whose
    message merely starts like an argument is left as it is."""
    from geoik.commands._args import as_typed
    from geoik.errors import InvalidOptionError, Spell

    typed = as_typed(InvalidOptionError("expected a finite distance > 0, got -1", "tol"))
    assert str(typed) == "--tol: expected a finite distance > 0, got -1"
    assert typed.argument == "--tol"
    assert str(as_typed(InvalidOptionError("tol: looks like an argument"))) == (
        "tol: looks like an argument"
    )
    pair = InvalidOptionError(("got ", Spell("value", (-200.0, 10.0))), "max_bend_deg[1]")
    assert str(pair) == "max_bend_deg[1]: got (-200.0, 10.0)"
    assert str(as_typed(pair)) == "--max-bend-deg[1]: got -200:10"


def test_describe_keeps_an_array_on_one_line():
    import numpy as np

    text = describe(np.full((3, 3), np.nan))
    assert "\n" not in text and text.startswith("array([[nan, nan, nan], [nan, nan, nan]")
    robot_orientation = ik.Robot(
        ("a",), ("revolute",), [-1], [[0, 0, 0.5]], np.eye(3)[None], [[0, 0, 1]], [-1], [1],
        ("t",), [0], [[0, 0, 0.5]], np.eye(3)[None],
    )  # fmt: skip
    for bad in (np.full((3, 3), np.nan), np.full((3, 3), 0.5), np.ones((2, 2))):
        with pytest.raises(ik.InvalidTargetError) as err:
            ik.solve(robot_orientation, (0.0, 0.0, 1.0), orientation=bad)
        assert "\n" not in str(err.value) and str(err.value).startswith("orientation: expected")
