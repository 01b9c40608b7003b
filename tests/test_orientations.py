"""Orientation targets in the forms users hold them: a rotation matrix, a quaternion
``(w, x, y, z)``, a SciPy ``Rotation``, or a 4x4 pose holding position and orientation at once.

The same pose given each way gives the same solutions (:func:`geoik.solve`,
:func:`geoik.solve_all`, :func:`geoik.solve_tree`), each on the pose; inputs that are no pose
are refused with a one-line :class:`geoik.GeoIKError` naming the argument.
"""

from __future__ import annotations

import numpy as np
import pytest

import geoik as ik
from geoik.api import _small_arm, _small_robot
from geoik.checks import split_pose
from geoik.robots.model import Robot

Rotation = pytest.importorskip("scipy.spatial.transform").Rotation


def _forms(frame: np.ndarray) -> list[tuple[str, object, object]]:
    """The pose ``frame`` (4, 4) four ways: (name, target, orientation)."""
    p, r = frame[:3, 3].copy(), frame[:3, :3].copy()
    xyzw = Rotation.from_matrix(r).as_quat()
    return [
        ("matrix", p, r),
        ("quaternion", tuple(p), xyzw[[3, 0, 1, 2]]),  # scipy's (x, y, z, w) reordered
        ("scipy", p.tolist(), Rotation.from_matrix(r)),
        ("4x4", frame.copy(), None),
    ]


def _frames(robot: Robot, count: int, seed: int) -> list[np.ndarray]:
    rng = np.random.default_rng(seed)
    return [robot.tip_frame(robot.random_angles(rng)) for _ in range(count)]


def test_solve_all_same_solutions_four_ways():
    arm = _small_arm()
    for frame in _frames(arm, 5, seed=1):
        sets = {name: ik.solve_all(arm, t, o) for name, t, o in _forms(frame)}
        first = sets["matrix"]
        assert len(first) >= 1
        for name, s in sets.items():
            assert s.status is first.status, name
            assert s.angles.shape == first.angles.shape, name
            np.testing.assert_allclose(s.angles, first.angles, atol=1e-9, err_msg=name)
            np.testing.assert_allclose(s.orientation, frame[:3, :3], atol=1e-12)
            for q in s.angles:  # forward kinematics of each lands on the pose
                np.testing.assert_allclose(arm.tip_frame(q), frame, atol=1e-8)


@pytest.mark.parametrize("method", ["analytic", "dls"])
def test_solve_same_solution_four_ways(method):
    arm = _small_arm()
    for frame in _frames(arm, 3, seed=2):
        sols = {
            name: ik.solve(arm, t, method=method, orientation=o) for name, t, o in _forms(frame)
        }
        first = sols["matrix"]
        for name, sol in sols.items():
            assert sol.status is ik.Status.REACHED, name
            assert np.isfinite(sol.angles).all()
            np.testing.assert_allclose(sol.angles, first.angles, atol=1e-6, err_msg=name)
            np.testing.assert_allclose(sol.target, frame[:3, 3], atol=0)
            np.testing.assert_allclose(sol.orientation, frame[:3, :3], atol=1e-12)
            assert sol.error <= sol.tol and sol.angle_error <= sol.angle_tol


def _two_tips() -> Robot:
    base = _small_robot()
    return Robot(
        joint_names=base.joint_names,
        kinds=base.kinds,
        parents=base.parents,
        origin_xyz=base.origin_xyz,
        origin_rot=base.origin_rot,
        axes=base.axes,
        lo=base.lo,
        hi=base.hi,
        tip_names=("end", "elbow"),
        tip_parents=np.array([2, 1]),
        tip_xyz=np.array([[0.0, 0.0, 0.3], [0.1, 0.0, 0.2]]),
        tip_rot=np.eye(3)[None].repeat(2, axis=0),
    )


def test_solve_tree_pose_targets_and_rotations():
    robot = _two_tips()
    q = robot.random_angles(np.random.default_rng(3))
    frames = robot.tip_frames(q)
    elbow = frames[1, :3, 3]
    forms = [
        ({"end": frames[0, :3, 3], "elbow": elbow}, {"end": frames[0, :3, :3]}),
        ({"end": frames[0], "elbow": elbow}, None),
        ({"end": frames[0], "elbow": elbow}, {"end": Rotation.from_matrix(frames[0, :3, :3])}),
        ({"end": frames[0, :3, 3].tolist(), "elbow": elbow}, {"end": _wxyz(frames[0, :3, :3])}),
    ]
    sols = [ik.solve_tree(robot, t, orientations=o) for t, o in forms]
    for sol in sols:
        assert sol.angle_error["end"] is not None and sol.angle_error["elbow"] is None
        assert np.isfinite(sol.angles).all()
        np.testing.assert_allclose(sol.angles, sols[0].angles, atol=1e-6)
        np.testing.assert_allclose(sol.targets["end"], frames[0, :3, 3], atol=0)


def _wxyz(r: np.ndarray) -> np.ndarray:
    return Rotation.from_matrix(r).as_quat()[[3, 0, 1, 2]]


class _Broken:
    """A rotation object whose ``as_matrix`` fails."""

    single = True

    def as_matrix(self):
        raise RuntimeError("no")


def _refused(error, argument, call):
    with pytest.raises(error) as info:
        call()
    assert info.value.argument == argument
    assert "\n" not in str(info.value)
    return str(info.value)


def test_bad_orientations_refused():
    arm = _small_arm()
    frame = arm.tip_frame(np.full(6, 0.3))
    p, r = frame[:3, 3], frame[:3, :3]
    several = Rotation.from_matrix(np.stack([r, r.T]))
    for call in (
        lambda: ik.solve(arm, p, orientation=several),
        lambda: ik.solve(arm, p, method="dls", orientation=several),
        lambda: ik.solve_all(arm, p, several),
    ):
        text = _refused(ik.InvalidTargetError, "orientation", call)
        assert "holding 2" in text
    _refused(ik.InvalidTargetError, "orientation", lambda: ik.solve_all(arm, p, _Broken()))
    # one rotation held in an array of one is one rotation
    one = Rotation.from_matrix(r[None])
    np.testing.assert_allclose(ik.solve_all(arm, p, one).angles, ik.solve_all(arm, p, r).angles)
    # scipy's own quaternion order, passed unchanged, is another rotation: not refused, and
    # not the same solutions
    xyzw = Rotation.from_matrix(r).as_quat()
    assert not np.allclose(ik.solve_all(arm, p, xyzw).orientation, r, atol=1e-3)
    tree = _two_tips()
    tips = {"end": tree.tip_frames(tree.rest_angles())[0, :3, 3]}
    _refused(
        ik.InvalidTargetError,
        "orientations['end']",
        lambda: ik.solve_tree(tree, tips, orientations={"end": several}),
    )


def test_bad_poses_refused():
    arm = _small_arm()
    frame = arm.tip_frame(np.full(6, 0.3))
    skew = frame.copy()
    skew[3] = (0.0, 0.0, 0.1, 1.0)
    scaled = frame.copy()
    scaled[:3, :3] *= 2.0
    holed = frame.copy()
    holed[1, 3] = np.nan
    for solve in (ik.solve, ik.solve_all):
        _refused(ik.InvalidTargetError, "target", lambda s=solve: s(arm, skew))
        _refused(ik.InvalidTargetError, "target[:3, :3]", lambda s=solve: s(arm, scaled))
        _refused(ik.InvalidTargetError, "target", lambda s=solve: s(arm, holed))
        _refused(ik.InvalidTargetError, "target", lambda s=solve: s(arm, frame[:3]))
        _refused(ik.InvalidTargetError, "target", lambda s=solve: s(arm, [[1, 0, 0, 0]] * 4))
    # a pose and a different orientation contradict each other; the same one is accepted
    turned = Rotation.from_rotvec([0.0, 0.0, 1e-3]).as_matrix() @ frame[:3, :3]
    text = _refused(
        ik.InvalidTargetError, "orientation", lambda: ik.solve(arm, frame, orientation=turned)
    )
    assert "0.0572958 degrees" in text
    _refused(ik.InvalidTargetError, "orientation", lambda: ik.solve_all(arm, frame, turned))
    same = Rotation.from_matrix(frame[:3, :3])
    np.testing.assert_allclose(
        ik.solve_all(arm, frame, same).angles, ik.solve_all(arm, frame).angles, atol=1e-12
    )
    tree = _two_tips()
    pose = tree.tip_frames(tree.rest_angles())[0]
    _refused(
        ik.InvalidTargetError,
        "orientations['end']",
        lambda: ik.solve_tree(tree, {"end": pose}, orientations={"end": turned}),
    )
    # chains take positions only, as before
    chain = ik.Chain.spatial([1.0, 1.0])
    _refused(ik.InvalidTargetError, "target", lambda: ik.solve(chain, np.eye(4)))
    _refused(
        ik.UnsupportedChainError,
        "orientation",
        lambda: ik.solve(chain, (1.0, 0.0, 0.0), orientation=same),
    )


def test_split_pose_passes_points_through():
    point = (0.1, 0.2, 0.3)
    assert split_pose(point, None) == (point, None)
    p, r = split_pose(np.eye(4).tolist(), None)
    np.testing.assert_array_equal(p, np.zeros(3))
    np.testing.assert_array_equal(r, np.eye(3))


def test_split_pose_of_a_float_array_as_of_any_other_form():
    """A float64 (4, 4) array, checked in scalars, splits exactly as the same pose in another
    form: fresh arrays, a rotation a little off orthonormal made a rotation, a mirror, a last
    row off (0, 0, 0, 1), a coordinate beyond reach or NaN refused alike."""
    frame = _small_arm().tip_frame(np.full(6, 0.3))
    nudged = frame.copy()
    nudged[0, 0] += 1e-9  # within check_rotation's 1e-6: made orthonormal
    for pose in (frame, nudged):
        p, r = split_pose(pose, None)
        p2, r2 = split_pose(pose.tolist(), None)
        np.testing.assert_array_equal(p, p2)
        np.testing.assert_array_equal(r, r2)
        assert r.flags.c_contiguous and not np.shares_memory(r, pose)
        assert not np.shares_memory(p, pose)
    assert (
        np.abs(split_pose(nudged, None)[1].T @ split_pose(nudged, None)[1] - np.eye(3)).max()
        < 1e-15
    )
    mirrored = frame.copy()
    mirrored[:3, 0] *= -1.0
    lifted = frame.copy()
    lifted[3, 2] = 1e-6
    far = frame.copy()
    far[2, 3] = 1e51
    holed = frame.copy()
    holed[2, 2] = np.nan
    for pose, name in (
        (mirrored, "target[:3, :3]"),
        (lifted, "target"),
        (far, "target[:3, 3]"),
        (holed, "target"),
    ):
        for form in (pose, pose.tolist()):
            _refused(ik.InvalidTargetError, name, lambda f=form: split_pose(f, None))


class _List(list):
    """A list only check_rotation's general path takes (its scalar path takes lists and tuples)."""


class _Tuple(tuple):
    """A tuple only check_rotation's general path takes."""


class _Array(np.ndarray):
    """An array only check_rotation's general path takes."""


def _general(value):
    """``value`` in a form that only check_rotation's general path reads: the same numbers,
    shown alike in a message."""
    if isinstance(value, np.ndarray):
        return value.view(_Array)
    if isinstance(value, list | tuple):
        return (_Tuple if isinstance(value, tuple) else _List)(_general(v) for v in value)
    return value


def test_plain_orientations_read_in_scalars_as_the_general_check_reads_them():
    """The quaternions and matrices check_rotation reads in scalars (four plain numbers, a
    float64 array, three rows of three; NumPy floats among Python's) give the very matrices of
    its general path, given the same numbers in a form only it takes: a quaternion a little off
    unit length normalised, a matrix a little off orthonormal repaired; and what it refuses is
    refused alike, with the same message (not unit, not finite, a bool, an int beyond a float,
    a mirror, a wrong shape; an array's shown under another class name)."""
    from geoik.checks import check_rotation

    rng = np.random.default_rng(7)
    q = rng.normal(size=4)
    q /= np.linalg.norm(q)
    rot = check_rotation(q)
    nudged = rot.copy()
    nudged[0, 0] += 1e-9
    for value in (
        tuple(q.tolist()),
        q.tolist(),
        q,
        tuple(q),  # NumPy floats
        (1, 0, 0, 0),
        (q * (1.0 + 1e-8)).tolist(),
        rot,
        rot.tolist(),
        tuple(map(tuple, rot.tolist())),
        list(rot),  # rows as arrays: the general path
        [[1, 0, 0], [0, 1, 0], [0, 0, 1]],
        nudged,
        nudged.tolist(),
    ):
        fast = check_rotation(value)
        np.testing.assert_array_equal(fast, check_rotation(_general(value)))
        assert fast.dtype == np.float64 and fast.flags.c_contiguous
        assert np.abs(fast.T @ fast - np.eye(3)).max() < 1e-15
        if isinstance(value, np.ndarray):
            assert not np.shares_memory(fast, value)
    mirrored = rot.copy()
    mirrored[:, 0] *= -1.0
    holed = rot.copy()
    holed[1, 1] = np.nan
    for value in (
        (1.0, 0.0, 0.0, 0.1),
        (np.nan, 0.0, 0.0, 1.0),
        (np.inf, 0.0, 0.0, 0.0),
        (True, 0, 0, 0),
        (10**400, 0, 0, 0),
        [[True, 0, 0], [0, 1, 0], [0, 0, 1]],
        mirrored,
        mirrored.tolist(),
        holed,
        holed.tolist(),
        [[1.0, 0.0, 0.0], [0.0, 1.0, 0.0]],
    ):
        with pytest.raises(ik.InvalidTargetError) as fast:
            check_rotation(value)
        with pytest.raises(ik.InvalidTargetError) as general:
            check_rotation(_general(value))
        if isinstance(value, np.ndarray):  # its repr names the class: the reason alike
            assert str(fast.value).split(", got")[0] == str(general.value).split(", got")[0]
        else:
            assert str(fast.value) == str(general.value)


def test_solve_all_of_a_float_pose_checks_its_rotation_as_split_pose_does():
    """``solve_all`` takes a float64 (4, 4) pose's rotation block to its kernel unchecked (the
    kernel checks it): one a little off orthonormal is solved as :func:`split_pose` makes it,
    the answer holds fresh arrays, and a mirror is refused naming ``target[:3, :3]``."""
    arm = _small_arm()
    frame = arm.tip_frame(np.full(6, 0.3))
    nudged = frame.copy()
    nudged[0, 0] += 1e-9  # within check_rotation's 1e-6: made orthonormal
    p, r = split_pose(nudged, None)
    got, want = ik.solve_all(arm, nudged), ik.solve_all(arm, p, r)
    assert len(got) >= 1
    np.testing.assert_array_equal(got.angles, want.angles)
    np.testing.assert_array_equal(got.orientation, r)
    np.testing.assert_array_equal(got.target, p)
    assert not np.shares_memory(got.orientation, nudged)
    assert not np.shares_memory(got.target, nudged)
    mirrored = frame.copy()
    mirrored[:3, 0] *= -1.0
    _refused(ik.InvalidTargetError, "target[:3, :3]", lambda: ik.solve_all(arm, mirrored))
