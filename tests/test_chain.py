"""Chain construction, validation messages, forward kinematics and the rest pose."""

from __future__ import annotations

import math

import numpy as np
import pytest

import geoik as ik


def test_planar_rest_pose_is_straight_along_x():
    chain = ik.Chain.planar([2, 3, 1])
    pos = chain.rest_pose().positions
    np.testing.assert_allclose(pos, [[0, 0], [2, 0], [5, 0], [6, 0]])


def test_spatial_rest_pose_and_base():
    chain = ik.Chain.spatial([1, 1], base=(1, 2, 3))
    np.testing.assert_allclose(chain.rest_pose().positions, [[1, 2, 3], [2, 2, 3], [3, 2, 3]])


def test_planar_forward_kinematics():
    chain = ik.Chain.planar([1, 1])
    pos = chain.pose_from_angles([math.pi / 2, -math.pi / 2]).positions
    np.testing.assert_allclose(pos, [[0, 0], [0, 1], [1, 1]], atol=1e-15)


def test_spatial_forward_kinematics_hinge_frames_follow_parent():
    # joint 0 turns 90 degrees about z: link 0 along +y; joint 1 turns 90 degrees about its own
    # parent frame's y axis, which is the world's -x... link 1 then points along world -z or +z
    chain = ik.Chain.spatial([1, 1])
    rv = np.array([[0, 0, math.pi / 2], [0, math.pi / 2, 0]])
    pos = chain.pose_from_angles(rv).positions
    np.testing.assert_allclose(pos[1], [0, 1, 0], atol=1e-12)
    np.testing.assert_allclose(pos[2], [0, 1, -1], atol=1e-12)


def test_limits_parsing_2d():
    chain = ik.Chain.planar([1, 1, 1], max_bend_deg=[None, 90, (-30, 120)])
    assert chain.lo[0] == -np.inf and chain.hi[0] == np.inf
    assert chain.lo[1] == pytest.approx(-math.pi / 2) and chain.hi[1] == pytest.approx(math.pi / 2)
    assert chain.lo[2] == pytest.approx(math.radians(-30))
    assert chain.max_bend_deg() == [None, pytest.approx(90.0), (pytest.approx(-30), 120)]
    assert chain.is_limited


def test_limits_parsing_3d_cone_and_hinge():
    chain = ik.Chain.spatial([1, 1], max_bend_deg=[45, (-10, 100)], hinge_axes=[None, (0, 0, 2)])
    assert chain.cone[0] == pytest.approx(math.radians(45))
    np.testing.assert_allclose(chain.hinge[1], [0, 0, 1])
    assert chain.hi[1] == pytest.approx(math.radians(100))


@pytest.mark.parametrize(
    ("kwargs", "words"),
    [
        ({"lengths": []}, ["lengths", "at least one link"]),
        ({"lengths": [1, 0]}, ["lengths[1]", "> 0", "0.0"]),
        ({"lengths": [1, -2]}, ["lengths[1]", "-2.0"]),
        ({"lengths": [1, float("nan")]}, ["lengths[1]", "nan"]),
        ({"lengths": [1, float("inf")]}, ["lengths[1]", "inf"]),
        ({"lengths": "abc"}, ["lengths"]),
        ({"lengths": [[1, 2]]}, ["lengths", "flat"]),
        ({"lengths": [1, 1], "max_bend_deg": 200}, ["max_bend_deg[0]", "[0, 180]", "200"]),
        ({"lengths": [1, 1], "max_bend_deg": -5}, ["max_bend_deg[0]", "-5"]),
        ({"lengths": [1, 1], "max_bend_deg": [None, (50, 10)]}, ["max_bend_deg[1]", "min"]),
        ({"lengths": [1, 1], "max_bend_deg": [None, (-200, 10)]}, ["max_bend_deg[1]", "180"]),
        ({"lengths": [1, 1], "max_bend_deg": [1, 2, 3]}, ["max_bend_deg", "3 entries"]),
        ({"lengths": [1, 1], "base": (0, 0, 0)}, ["base", "2 finite"]),
        ({"lengths": [1, 1, 1], "max_bend_deg": (-30, 120)}, ["[(-30.0, 120.0)] * 3"]),
        ({"lengths": [1, 1], "max_bend_deg": (-30, 120)}, ["max_bend_deg[0]", "(min, max) pair"]),
    ],
)
def test_planar_bad_input_messages(kwargs, words):
    with pytest.raises(ik.InvalidChainError) as info:
        ik.Chain.planar(**kwargs)
    assert isinstance(info.value, ik.GeoIKError) and isinstance(info.value, ValueError)
    for w in words:
        assert w in str(info.value)


@pytest.mark.parametrize(
    ("kwargs", "words"),
    [
        ({"hinge_axes": [None, (1, 0, 0)]}, ["hinge_axes[1]", "perpendicular"]),
        ({"hinge_axes": [None, (0, 0, 0)]}, ["hinge_axes[1]", "non-zero"]),
        ({"hinge_axes": [None]}, ["hinge_axes", "one entry per joint", "got 1 entry"]),
        ({"hinge_axes": (0, 0, 1)}, ["hinge_axes", "single axis", "[(0.0, 0.0, 1.0)] * 2"]),
        ({"max_bend_deg": [(0, 10), None]}, ["max_bend_deg[0]", "ball joint"]),
        ({"base": (0, 0)}, ["base", "3 finite"]),
    ],
)
def test_spatial_bad_input_messages(kwargs, words):
    with pytest.raises(ik.InvalidChainError) as info:
        ik.Chain.spatial([1, 1], **kwargs)
    for w in words:
        assert w in str(info.value)


def test_chain_arrays_are_read_only():
    chain = ik.Chain.planar([1, 2])
    with pytest.raises(ValueError):
        chain.lengths[0] = 5


def test_pose_from_angles_checks_shape():
    with pytest.raises(ik.InvalidPoseError, match=r"angles.*\(2,\)"):
        ik.Chain.planar([1, 1]).pose_from_angles([0, 0, 0])
    with pytest.raises(ik.InvalidPoseError, match=r"\(2, 3\)"):
        ik.Chain.spatial([1, 1]).pose_from_angles([0, 0])


def test_describe():
    assert ik.Chain.planar([2] * 10).describe() == "planar chain 2x10, free joints"
    assert "9,9,4" in ik.Chain.spatial([9, 9, 4], max_bend_deg=90).describe()


@pytest.mark.parametrize(
    "lengths, words",
    [
        ([True, 2], "lengths[0]: expected a finite length > 0, at most 1e+50, got True"),
        (["1", "2"], "lengths[0]: expected a finite length > 0, at most 1e+50, got '1'"),
        ((1.0, np.True_), "lengths[1]: expected a finite length > 0, at most 1e+50, got np.True_"),
        ([1, None], "lengths[1]: expected a finite length > 0, at most 1e+50, got None"),
        (True, "lengths: expected a finite length > 0, at most 1e+50 per link, got True"),
        ("12", "lengths: expected a finite length > 0, at most 1e+50 per link, got '12'"),
        (np.array([1, 0], dtype=bool), "lengths: expected a finite length > 0, at most 1e+50 "
         "per link, got an array of bool values"),
    ],
)  # fmt: skip
def test_booleans_and_strings_are_no_lengths(lengths, words):
    for make in (ik.Chain.planar, ik.Chain.spatial):
        with pytest.raises(ik.InvalidChainError) as err:
            make(lengths)
        assert str(err.value) == words
    with pytest.raises(ik.InvalidChainError, match=r"chains\[0\]\.lengths"):
        ik.Skeleton.from_chains([("arm", lengths)])
    # NumPy's own numbers are numbers
    np.testing.assert_array_equal(ik.Chain.planar([np.float32(1), np.int64(2)]).lengths, [1, 2])


@pytest.mark.parametrize("axis", [[False, 0, 1], [0, "0", 1], [0, 0, True]])
def test_booleans_and_strings_are_no_hinge_axes(axis):
    with pytest.raises(ik.InvalidChainError, match=r"^hinge_axes\[0\]: expected None or a non"):
        ik.Chain.spatial([1.0, 1.0], hinge_axes=[axis, None])


def test_a_chain_file_with_booleans_or_strings_for_lengths_is_refused(tmp_path, capsys):
    from geoik.commands.cli import main

    for text, got in (('{"lengths": [true, 2]}', "True"), ('{"lengths": ["1", "2"]}', "'1'")):
        path = tmp_path / "arm.json"
        path.write_text(text)
        assert main(["solve", "--chain", str(path), "--target", "1,1"]) == 2
        assert capsys.readouterr().err == (
            f"geoik: error: --chain {path}: lengths[0]: expected a finite length > 0, at most "
            f"1e+50, got {got}\n"
        )
    toml = tmp_path / "arm.toml"
    toml.write_text("lengths = [true, 2]\n")
    assert main(["solve", "--chain", str(toml), "--target", "1,1"]) == 2
    assert "lengths[0]: expected a finite length > 0" in capsys.readouterr().err
