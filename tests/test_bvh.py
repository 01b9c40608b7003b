"""BVH in and out, and posing clips: files from outside geoik, an independent reader, round
trips, malformed files, foot pinning on a walk."""

from __future__ import annotations

import hashlib
import itertools
import math
from pathlib import Path

import numpy as np
import pytest

import geoik as ik
from geoik.rigs.bvh import EXAMPLES, _euler, _forward, _read, example_path

DATA = Path(__file__).parent / "data" / "bvh"
OUTSIDE = sorted(DATA.glob("*.bvh"))
SHA = {
    "freebvh_walk.bvh": "57a847cfbe9a83ff704b078b02c93fb2f47dda770a46e2972dee324a50f0f23b",
    "mocapbank.bvh": "c12f37b39d931ee0bc8b081984255587eb8983e1d1a61fa0681ca6d5ea58e348",
}
LEFT, RIGHT = "mixamorig:LeftFoot", "mixamorig:RightFoot"


def test_outside_files_are_the_originals():
    assert len(OUTSIDE) == 3
    for name, sha in SHA.items():
        assert hashlib.sha256((DATA / name).read_bytes()).hexdigest() == sha


def test_the_example_clip_is_the_walk_with_plain_joint_names():
    """geoik's own walk (package data) is the outside walk with the prefix taken off its joint
    names and nothing else changed, and loads with the names the README uses."""
    path = example_path("walk")
    original = (DATA / "freebvh_walk.bvh").read_bytes()
    assert path.read_bytes() == original.replace(b"mixamorig:", b"")
    sk, frames, dt = ik.load_bvh(path)
    theirs, their_frames, _ = ik.load_bvh(DATA / "freebvh_walk.bvh")
    assert sk.names == tuple(n.removeprefix("mixamorig:") for n in theirs.names)
    np.testing.assert_array_equal(frames.positions, their_frames.positions)
    assert {"Hips", "LeftFoot", "RightFoot", "LeftHand", "LeftLeg"} <= set(sk.names)
    assert set(EXAMPLES) == {"walk"} and len(frames) == 69 and dt == pytest.approx(1 / 30, 1e-5)
    with pytest.raises(ik.BVHError, match="name: expected one of walk"):
        example_path("run")


@pytest.mark.parametrize("path", OUTSIDE, ids=lambda p: p.name)
def test_loading_matches_an_independent_reader(path):
    """bvhio (its own parser, Euler conversion and transforms, in float32) puts every joint,
    End Sites included, where load_bvh does, on every tenth frame."""
    bvhio = pytest.importorskip("bvhio")
    sk, frames, dt = ik.load_bvh(path)
    assert dt > 0 and len(frames) > 10
    root = bvhio.readAsHierarchy(str(path))
    joints = {j.Name: j for j, _, _ in root.layout()}
    scale = float(np.abs(frames.positions).max())
    named = [nm for nm in sk.names if nm in joints]
    assert len(named) >= sk.n - sum(nm.endswith("_end") for nm in sk.names)
    worst = 0.0
    for f in range(0, len(frames), 10):
        root.loadPose(f)
        for nm in named:
            theirs = np.array(joints[nm].PositionWorld, dtype=np.float64)
            worst = max(worst, float(np.abs(theirs - frames.positions[f, sk.index(nm)]).max()))
    assert worst <= 2e-6 * scale  # float32 rounding of bvhio's transforms


@pytest.mark.parametrize("path", OUTSIDE, ids=lambda p: p.name)
def test_round_trip_keeps_positions_and_rotations(path, tmp_path):
    """load -> save -> load: the same joints, the same positions on every frame, and (nothing
    having moved) the same channel values to the digits written."""
    sk, frames, dt = ik.load_bvh(path)
    out = ik.save_bvh(tmp_path / "out.bvh", sk, frames, dt)
    sk2, frames2, dt2 = ik.load_bvh(out)
    assert sk2.names == sk.names and dt2 == pytest.approx(dt)
    np.testing.assert_array_equal(sk2.parents, sk.parents)
    scale = float(np.abs(frames.positions).max())
    assert float(np.abs(frames2.positions - frames.positions).max()) <= 1e-6 * scale
    _, a, _ = _read(str(path))
    _, b, _ = _read(str(out))
    np.testing.assert_allclose(b, a, rtol=1e-8, atol=1e-9 * float(np.abs(a).max()))


def test_written_file_is_read_by_an_independent_reader(tmp_path):
    """A posed clip written by geoik reads back in bvhio at the same positions."""
    bvhio = pytest.importorskip("bvhio")
    sk, frames, dt = ik.load_bvh(DATA / "freebvh_walk.bvh")
    posed = ik.pose_clip(sk, frames, [ik.Pin(LEFT, None, "11-24")], tol=1e-4)
    out = ik.save_bvh(tmp_path / "posed.bvh", sk, posed.frames, dt)
    root = bvhio.readAsHierarchy(str(out))
    joints = {j.Name: j for j, _, _ in root.layout()}
    scale = float(np.abs(frames.positions).max())
    for f in (0, 15, 20):
        root.loadPose(f)
        for nm in sk.names:
            if nm in joints:
                theirs = np.array(joints[nm].PositionWorld, dtype=np.float64)
                mine = posed.frames.positions[f, sk.index(nm)]
                assert np.abs(theirs - mine).max() <= 2e-6 * scale


def _turned(sk: ik.Skeleton, rng: np.random.Generator) -> np.ndarray:
    """A pose a BVH file can hold: each joint turned by a random rotation that all the links
    leaving it share (about z only in 2-D)."""
    pos = np.zeros((sk.n, 3))
    pos[sk.root_index, : sk.dim] = sk.root
    rots = {}
    for j in sk.order:
        if sk.dim == 2:
            a = rng.uniform(-np.pi, np.pi)
            rots[int(j)] = np.array(
                [[np.cos(a), -np.sin(a), 0], [np.sin(a), np.cos(a), 0], [0, 0, 1]]
            )
        else:
            q, r = np.linalg.qr(rng.normal(size=(3, 3)))
            rots[int(j)] = q * np.sign(np.diag(r)) * np.sign(np.linalg.det(q * np.sign(np.diag(r))))
    world = {sk.root_index: rots[sk.root_index]}
    for j in sk.order[1:]:
        p = int(sk.parents[j])
        off = np.zeros(3)
        off[: sk.dim] = sk.directions[j] * sk.lengths[j]
        pos[j] = pos[p] + world[p] @ off
        world[int(j)] = world[p] @ rots[int(j)]
    return pos[:, : sk.dim]


@pytest.mark.parametrize("dim", [2, 3])
def test_synthetic_skeletons_round_trip(dim, tmp_path):
    """Random trees and random poses written from positions alone (no file behind them): the
    positions come back, the names stay, leaves included (in the file's depth-first order)."""
    rng = np.random.default_rng(11 + dim)
    for _ in range(5):
        chains = [("a", rng.uniform(0.5, 2, 3).tolist()), ("b", rng.uniform(0.5, 2, 2).tolist())]
        chains.append(("c", rng.uniform(0.5, 2, 2).tolist(), "a_1"))
        sk = ik.Skeleton.from_chains(chains, dim=dim, root=rng.normal(size=dim))
        poses = [_turned(sk, rng) for _ in range(7)]
        out = ik.save_bvh(tmp_path / "synthetic.bvh", sk, poses, 1 / 30)
        sk2, frames, _ = ik.load_bvh(out)
        assert sorted(sk2.names) == sorted(sk.names)
        got = frames.positions[:, [sk2.index(nm) for nm in sk.names], :dim]
        np.testing.assert_allclose(got, np.array(poses), atol=1e-7 * sk.total_length)
        if dim == 2:
            assert np.abs(frames.positions[:, :, 2]).max() <= 1e-7 * sk.total_length


@pytest.mark.parametrize("order", list(itertools.permutations(range(3))))
def test_euler_angles_in_every_order(order):
    """Angles from a rotation in any channel order rebuild it, nearest the hint given."""
    from geoik.rigs.bvh import _axis_rotations

    rng = np.random.default_rng(sum(order))
    angles = rng.uniform(-170, 170, (50, 3))
    m = np.broadcast_to(np.eye(3), (50, 3, 3)).copy()
    for k, axis in enumerate(order):
        m = m @ _axis_rotations(axis, angles[:, k])
    got = np.degrees(_euler(m, order, np.radians(angles)))  # type: ignore[arg-type]
    np.testing.assert_allclose(got, angles, atol=1e-7)
    back = np.broadcast_to(np.eye(3), (50, 3, 3)).copy()
    free = np.degrees(_euler(m, order, np.zeros((50, 3))))  # type: ignore[arg-type]
    for k, axis in enumerate(order):
        back = back @ _axis_rotations(axis, free[:, k])
    np.testing.assert_allclose(back, m, atol=1e-12)


GOOD = """HIERARCHY
ROOT Hips
{
  OFFSET 0 0 0
  CHANNELS 6 Xposition Yposition Zposition Zrotation Xrotation Yrotation
  JOINT Leg
  {
    OFFSET 0 -10 0
    CHANNELS 3 Zrotation Xrotation Yrotation
    End Site
    {
      OFFSET 0 -10 0
    }
  }
}
MOTION
Frames: 2
Frame Time: 0.04
0 0 0 0 0 0 10 0 0
1 2 3 0 90 0 0 0 0
"""


def test_a_small_file_by_hand(tmp_path):
    path = tmp_path / "small.bvh"
    path.write_text(GOOD)
    sk, frames, dt = ik.load_bvh(path)
    assert sk.names == ("Hips", "Leg", "Leg_end") and dt == 0.04
    p = frames.positions
    np.testing.assert_allclose(p[0, 1], (0, -10, 0), atol=1e-12)
    c, s = math.cos(math.radians(10)), math.sin(math.radians(10))
    np.testing.assert_allclose(p[0, 2], (10 * s, -10 - 10 * c, 0), atol=1e-12)
    np.testing.assert_allclose(p[1, 0], (1, 2, 3), atol=1e-12)
    np.testing.assert_allclose(p[1, 1], (1, 2, -7), atol=1e-12)  # turned 90 about x


@pytest.mark.parametrize(
    ("text", "words"),
    [
        (GOOD.replace("MOTION\n", ""), "MOTION"),
        (GOOD.replace("10 0 0\n", "10 0\n"), r":19: frame 0: expected 9 channel values.*got 8"),
        (GOOD.replace("1 2 3 0 90 0 0 0 0\n", ""), "truncated: expected 2 frames.*got 1"),
        (
            GOOD.replace(
                "Zrotation Xrotation Yrotation\n    End", "Zrotation Xrot Yrotation\n    End"
            ),
            "Xrot",
        ),
        (GOOD.replace("OFFSET 0 -10 0\n    CHANNELS", "OFFSET 0 -10\n    CHANNELS"), "z offset"),
        (GOOD.replace("HIERARCHY", "HIERARCHIES"), "HIERARCHY"),
        ("", "empty"),
        (GOOD.replace("10 0 0\n", "10 0 nan\n"), "finite|numbers"),
        (GOOD.replace("Frames: 2", "Frames: two"), "frame count"),
    ],
)
def test_malformed_files_raise_a_typed_error(text, words, tmp_path):
    path = tmp_path / "bad.bvh"
    path.write_text(text)
    with pytest.raises(ik.BVHError, match=words):
        ik.load_bvh(path)
    assert issubclass(ik.BVHError, ik.GeoIKError)


def test_moving_joints_are_not_a_skeleton(tmp_path):
    """Position channels that stretch a link: an error naming the joint."""
    text = GOOD.replace(
        "CHANNELS 3 Zrotation Xrotation Yrotation",
        "CHANNELS 6 Xposition Yposition Zposition Zrotation Xrotation Yrotation",
    )
    text = text.replace("0 0 0 0 0 0 10 0 0", "0 0 0 0 0 0 0 -10 0 10 0 0")
    text = text.replace("1 2 3 0 90 0 0 0 0", "1 2 3 0 90 0 0 -12 0 0 0 0")
    path = tmp_path / "stretch.bvh"
    path.write_text(text)
    with pytest.raises(ik.BVHError, match="'Leg'.*rigid"):
        ik.load_bvh(path)


def _walk_limits(sk: ik.Skeleton) -> ik.Skeleton:
    """Cones at the hips, knees and ankles of the walk's rig, which its own frames keep."""
    joints = ("UpLeg", 100), ("Leg", 140), ("Foot", 60)
    return sk.with_limits({f"mixamorig:{s}{j}": b for s in ("Left", "Right") for j, b in joints})


@pytest.mark.parametrize("method", ["circles", "fabrik"])
def test_foot_pinning_on_a_walk(method):
    """Each foot held where it lands for its stance (the left on frames 11-24, the right on
    24-37): within 1e-4 of its target on every pinned frame, every joint within the limits,
    the pelvis as the clip has it, the frames without pins untouched, the feet off their pins
    free."""
    sk, frames, _ = ik.load_bvh(DATA / "freebvh_walk.bvh")
    rig = _walk_limits(sk)
    own = [rig.limit_violation(pose) for pose in frames]
    assert max(own) == 0.0
    pins = [ik.Pin(LEFT, None, "11-24"), ik.Pin(RIGHT, None, range(24, 38))]
    posed = ik.pose_clip(rig, frames, pins, method=method, tol=1e-4)
    held = posed.error[~np.isnan(posed.error)]
    assert (
        held.size == 14 + 14 and held.max() <= 1e-4 and posed.reached[~np.isnan(posed.error)].all()
    )
    left = frames.positions[11, sk.index(LEFT)]
    for f in range(11, 25):
        assert np.linalg.norm(posed.frames.positions[f, sk.index(LEFT)] - left) <= 1e-4
    for pose in posed.frames:
        assert rig.limit_violation(pose) == 0.0
    hips = [sk.index(n) for n in ("mixamorig:LeftUpLeg", "mixamorig:RightUpLeg", "mixamorig:Spine")]
    np.testing.assert_allclose(
        posed.frames.positions[:, hips], frames.positions[:, hips], atol=1e-9
    )
    untouched = [f for f in range(len(frames)) if not 11 <= f <= 37]
    np.testing.assert_array_equal(posed.frames.positions[untouched], frames.positions[untouched])
    lengths = np.linalg.norm(
        posed.frames.positions[:, 1:] - posed.frames.positions[:, sk.parents[1:]], axis=2
    )
    np.testing.assert_allclose(lengths, np.broadcast_to(sk.lengths[1:], lengths.shape), rtol=1e-9)


def test_unreachable_pins_are_reported():
    """A foot held far beyond the leg's reach: not REACHED, its error the honest distance."""
    sk, frames, _ = ik.load_bvh(DATA / "mocapbank.bvh")
    far = frames.positions[0, 0] + np.array([0.0, 0.0, 500.0])
    posed = ik.pose_clip(sk, frames, {"LeftAnkle": far}, method="circles")
    assert not posed.reached.any()
    got = posed.frames.positions[:, sk.index("LeftAnkle")]
    np.testing.assert_allclose(posed.error[:, 0], np.linalg.norm(got - far, axis=1), rtol=1e-12)
    assert np.all(np.isfinite(posed.frames.positions))


def test_pins_are_checked():
    sk, frames, _ = ik.load_bvh(DATA / "mocapbank.bvh")
    with pytest.raises(ik.InvalidTargetError, match="Hips"):
        ik.pose_clip(sk, frames, {"Hips": (0, 0, 0)})
    with pytest.raises(ik.InvalidTargetError, match="nose"):
        ik.pose_clip(sk, frames, {"nose": (0, 0, 0)})
    with pytest.raises(ik.InvalidOptionError, match="frames"):
        ik.pose_clip(sk, frames, [ik.Pin("LeftAnkle", None, "400-500")])
    with pytest.raises(ik.InvalidTargetError, match="3 finite"):
        ik.pose_clip(sk, frames, {"LeftAnkle": (0, 0)})


def test_forward_kinematics_of_the_reader_keeps_offsets():
    """Every file joint stays at its offset's length from its parent in every frame."""
    joints, data, _ = _read(str(DATA / "mocapbank.bvh"))
    _, pos, _ = _forward(joints, data)
    for b, jt in enumerate(joints):
        if jt.parent >= 0:
            d = np.linalg.norm(pos[:, b] - pos[:, jt.parent], axis=1)
            np.testing.assert_allclose(d, np.linalg.norm(jt.offset), rtol=1e-9, atol=1e-9)


def test_contradictory_pins_are_refused():
    """Two pins holding one joint on one frame at two places: no solve could meet both."""
    sk, frames, _ = ik.load_bvh(DATA / "mocapbank.bvh")
    here = frames.positions[0, sk.index("LeftAnkle")]
    there = here + np.array([0.0, 10.0, 0.0])
    message = (
        r"^pins\[1\]: expected one target for 'LeftAnkle' on each frame, got \(.*\) here and "
        r"\(.*\) from pins\[0\] on frames 3-5$"
    )
    with pytest.raises(ik.InvalidTargetError, match=message):
        ik.pose_clip(
            sk, frames, [ik.Pin("LeftAnkle", here, "0-5"), ik.Pin("LeftAnkle", there, "3-9")]
        )
    with pytest.raises(ik.InvalidTargetError, match=r"from pins\[0\] on frame 4$"):  # its own place
        ik.pose_clip(
            sk, frames, [ik.Pin("LeftAnkle", None, "0-4"), ik.Pin("LeftAnkle", None, "4-5")]
        )
    # the same target twice, or one joint on frames apart, is no contradiction
    same = ik.pose_clip(
        sk, frames, [ik.Pin("LeftAnkle", here, "0-2"), ik.Pin("LeftAnkle", here, "1-3")]
    )
    assert same.reached[1:3].all()
    apart = ik.pose_clip(
        sk, frames, [ik.Pin("LeftAnkle", here, "0-1"), ik.Pin("LeftAnkle", there, "2-3")]
    )
    assert np.isnan(apart.error[2:4, 0]).all() and np.isnan(apart.error[0:2, 1]).all()
