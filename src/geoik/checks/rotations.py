"""The checks of orientations: rotation matrices, unit quaternions, rotation objects such as
SciPy's ``Rotation``, 4x4 homogeneous poses and angle tolerances (see :mod:`geoik.checks`)."""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from geoik.checks.values import (
    _SEQUENCES,
    DEFAULT_ANGLE_TOL,
    MAX_COORDINATE,
    _real_array,
    check_array,
    check_point,
    is_number,
    plain_floats,
)
from geoik.errors import (
    GeoIKError,
    InvalidChainError,
    InvalidOptionError,
    InvalidTargetError,
    describe,
)

_ROTATION_TOL = 1e-6
"""How far a rotation matrix may be from orthonormal, or a quaternion from unit length."""


def is_rotation_object(value: Any) -> bool:
    """Whether ``value`` is a rotation object such as SciPy's
    :class:`scipy.spatial.transform.Rotation`: recognised by its ``as_matrix`` method and its
    ``single`` flag, so that SciPy is never imported here."""
    return (
        not isinstance(value, np.ndarray | list | tuple)
        and callable(getattr(value, "as_matrix", None))
        and hasattr(value, "single")
    )


def _object_matrices(value: Any, name: str) -> np.ndarray:
    """The (m, 3, 3) rotation matrices a rotation object (:func:`is_rotation_object`) holds:
    one (``single``) or several; :class:`~geoik.InvalidTargetError` naming ``name`` if its
    ``as_matrix()`` gives no rotation matrices."""
    try:
        m = _real_array(value.as_matrix())
    except Exception as exc:  # a foreign object's own failure, said in one line
        raise InvalidTargetError(
            f"expected a rotation object whose as_matrix() gives rotation matrices, got "
            f"{type(exc).__name__} from {describe(value)}",
            argument=name,
        ) from None
    if m is None or m.ndim < 2 or m.shape[-2:] != (3, 3):
        raise InvalidTargetError(
            f"expected a rotation object whose as_matrix() gives 3x3 matrices, got "
            f"{describe(value)}",
            argument=name,
        )
    return m.reshape(-1, 3, 3)


def check_rotation(value: Any, name: str = "orientation") -> np.ndarray:
    """An orientation as a fresh (3, 3) rotation matrix (columns: the frame's axes).

    ``value`` is a 3 x 3 rotation matrix (orthonormal to 1e-6, determinant +1), a unit
    quaternion ``(w, x, y, z)`` (length 1 to 1e-6; ``w`` first, as in :mod:`geoik.geometry`;
    SciPy's ``as_quat()`` is ``(x, y, z, w)``) or a rotation object holding one rotation, such
    as SciPy's ``Rotation`` (read through its ``as_matrix()``). The result is
    re-orthonormalised (or built from the normalised quaternion).
    :class:`~geoik.InvalidTargetError` naming ``name`` otherwise.
    """
    # the common forms read in scalars, no array made first: four numbers, a matrix that needs
    # no repair (about 4 and 2 µs rather than 9 and 5)
    quaternion = _plain_quaternion(value)
    if quaternion is not None:
        return _quaternion_matrix(*quaternion, name)
    if is_rotation_object(value):
        matrices = _object_matrices(value, name)
        if len(matrices) != 1:
            raise InvalidTargetError(
                f"expected one rotation, got a {type(value).__name__} holding "
                f"{len(matrices)}; pick one (r[i])",
                argument=name,
            )
        value = matrices[0]
    matrix = _plain_matrix(value)
    if matrix is not None:
        return matrix
    r = _real_array(value)
    if r is None or r.shape not in ((3, 3), (4,)) or not math.isfinite(float(r.sum())):
        raise InvalidTargetError(
            f"expected a 3x3 rotation matrix, a unit quaternion (w, x, y, z) or a "
            f"scipy Rotation, got {describe(value)}",
            argument=name,
        )
    if r.shape == (4,):
        w, x, y, z = r.tolist()
        return _quaternion_matrix(w, x, y, z, name)
    off, det = _off_and_det(*r.tolist())
    if off > _ROTATION_TOL or det < 0:
        raise InvalidTargetError(
            f"expected a rotation matrix (orthonormal, determinant +1), got "
            f"{describe(np.round(r, 6).tolist())}",
            argument=name,
        )
    if off > 1e-14:  # the nearest rotation matrix
        u, _, vt = np.linalg.svd(r)
        r = u @ vt
    return np.ascontiguousarray(r)


def _plain_quaternion(value: Any) -> tuple[float, float, float, float] | None:
    """``value`` as four finite floats when it is four plain numbers (a list or tuple of Python
    or NumPy floats and ints, or a float64 array of shape (4,)); None otherwise, for the general
    check, which says what is wrong."""
    values = plain_floats(value, 4)
    if values is None:
        return None
    w, x, y, z = values
    if not (math.isfinite(w) and math.isfinite(x) and math.isfinite(y) and math.isfinite(z)):
        return None
    return w, x, y, z


def _plain_matrix(value: Any) -> np.ndarray | None:
    """:func:`check_rotation` of a matrix that passes as it is (finite, orthonormal to 1e-14,
    determinant +1), read in scalars: a float64 (3, 3) array, or three rows of three plain
    numbers (:func:`~geoik.checks.plain_floats`). None for anything else: the general path
    repairs it or refuses it, saying what is wrong."""
    if type(value) is np.ndarray:
        if value.dtype != np.float64 or value.shape != (3, 3):
            return None
        rows = value.tolist()
    elif type(value) in _SEQUENCES and len(value) == 3:
        rows = [plain_floats(row, 3) for row in value]
        if None in rows:
            return None
    else:
        return None
    return np.array(rows) if _as_it_is(rows) else None


def _as_it_is(rows: list[Any]) -> bool:
    """Whether the 3x3 matrix of ``rows`` (lists of floats; a 4x4 pose's first three rows
    will do) is a rotation needing no repair: finite, orthonormal to 1e-14, determinant +1."""
    off, det = _off_and_det(*rows)
    return off <= 1e-14 and det > 0  # NaN and infinity fail


def _quaternion_matrix(w: float, x: float, y: float, z: float, name: str) -> np.ndarray:
    """The rotation matrix of the quaternion ``(w, x, y, z)`` (finite), normalised: a unit
    quaternion to :data:`_ROTATION_TOL`, InvalidTargetError naming ``name`` otherwise."""
    norm = math.sqrt(w * w + x * x + y * y + z * z)
    if abs(norm - 1.0) > _ROTATION_TOL:
        raise InvalidTargetError(
            f"expected a unit quaternion (w, x, y, z), got one of length {norm:.9g}",
            argument=name,
        )
    w, x, y, z = w / norm, x / norm, y / norm, z / norm
    return np.array(
        [
            [1 - 2 * (y * y + z * z), 2 * (x * y - w * z), 2 * (x * z + w * y)],
            [2 * (x * y + w * z), 1 - 2 * (x * x + z * z), 2 * (y * z - w * x)],
            [2 * (x * z - w * y), 2 * (y * z + w * x), 1 - 2 * (x * x + y * y)],
        ]
    )


def _off_and_det(row0: list[float], row1: list[float], row2: list[float]) -> tuple[float, float]:
    """How far the 3x3 matrix of rows ``row0 .. row2`` is from orthonormal (the largest entry
    of ``R^T R - I``, its columns' lengths and angles) and its determinant, in scalars."""
    a, b, c = row0[:3]
    d, e, f = row1[:3]
    g, h, i = row2[:3]
    off = max(
        abs(a * a + d * d + g * g - 1.0),
        abs(b * b + e * e + h * h - 1.0),
        abs(c * c + f * f + i * i - 1.0),
        abs(a * b + d * e + g * h),
        abs(a * c + d * f + g * i),
        abs(b * c + e * f + h * i),
    )
    return off, a * (e * i - f * h) - b * (d * i - f * g) + c * (d * h - e * g)


_POSE_TOL = 1e-9
"""How far a 4x4 pose's last row may be from (0, 0, 0, 1)."""
SAME_ROTATION = 1e-6
"""Largest angle (radians) between a 4x4 pose's rotation and an ``orientation`` given beside
it for the two to count as the same: the rotation tolerance of :func:`check_rotation`."""


def _is_pose_like(value: Any) -> bool:
    """Whether a robot target looks like a 4x4 pose rather than a point: an array of two
    dimensions, or a sequence of four rows."""
    if type(value) in _SEQUENCES:
        return len(value) == 4 and isinstance(value[0], np.ndarray | list | tuple)
    shape = getattr(value, "shape", None)
    return isinstance(shape, tuple) and len(shape) == 2


def split_pose(
    target: Any,
    orientation: Any,
    name: str = "target",
    orientation_name: str = "orientation",
) -> tuple[Any, Any]:
    """A robot target and orientation, a 4x4 homogeneous pose split into both.

    ``target`` is a point (returned unchecked, with ``orientation``) or a (4, 4) pose: its
    rotation block ``[:3, :3]`` a rotation matrix (:func:`check_rotation`), its last column the
    position, its last row ``(0, 0, 0, 1)`` (to 1e-9). With a pose, ``orientation`` must be
    None or the same rotation (within :data:`SAME_ROTATION` radians): two different
    orientations for one tip contradict each other.

    Returns
    -------
    (target, orientation)
        A pose gives a (3,) position (metres) and a (3, 3) rotation matrix.

    Raises
    ------
    InvalidTargetError
        A 4x4 target that is no pose (naming ``name``) or an ``orientation`` that differs from
        its rotation (naming ``orientation_name``).
    """
    if orientation is None and type(target) is np.ndarray and target.shape == (4, 4):
        fast = _plain_pose(target)
        if fast is not None:
            return fast
    if not _is_pose_like(target):
        return target, orientation
    p = _real_array(target)
    if p is None or p.shape != (4, 4) or not np.isfinite(p).all():
        raise InvalidTargetError(
            f"expected a point (x, y, z) or a 4x4 pose of finite numbers, got {describe(target)}",
            argument=name,
        )
    if np.abs(p[3] - (0.0, 0.0, 0.0, 1.0)).max() > _POSE_TOL:
        raise InvalidTargetError(
            f"expected a 4x4 pose whose last row is (0, 0, 0, 1), got {p[3].tolist()}",
            argument=name,
        )
    rot = check_rotation(p[:3, :3], f"{name}[:3, :3]")
    point = check_point(p[:3, 3], 3, f"{name}[:3, 3]", model="robot")
    if orientation is not None:
        other = check_rotation(orientation, orientation_name)
        # |rot - other| (Frobenius) is 2 sqrt(2) sin(angle / 2): precise for small angles
        gap = float(np.linalg.norm(rot - other)) / (2.0 * math.sqrt(2.0))
        angle = 2.0 * math.asin(min(1.0, gap))
        if angle > SAME_ROTATION:
            raise InvalidTargetError(
                f"expected no orientation beside a 4x4 pose target (it holds one) or the same "
                f"rotation, got one {math.degrees(angle):.6g} degrees from the pose's",
                argument=orientation_name,
            )
    return point, rot


def _plain_pose(target: np.ndarray) -> tuple[np.ndarray, np.ndarray] | None:
    """:func:`split_pose` of a float64 (4, 4) array that passes every check as it is (a
    rotation orthonormal to 1e-14, finite, last row (0, 0, 0, 1) to 1e-9), in scalars: the
    common case, about four times as fast as the general path. None for anything else (another
    dtype, a rotation to re-orthonormalise, a value to refuse): the general path takes it."""
    rows = _pose_rows(target)
    if rows is None or not _as_it_is(rows[:3]):
        return None
    return _pose_parts(target, rows)


def pose_unchecked(target: Any) -> tuple[np.ndarray, np.ndarray] | None:
    """A float64 (4, 4) array whose last row is (0, 0, 0, 1) (to 1e-9) and whose position is
    finite (within :data:`~geoik.checks.MAX_COORDINATE`), split into a fresh (3,) position and
    a fresh (3, 3) copy of its rotation block, the block not checked: for a caller whose
    compiled kernel checks it (to 1e-14) and which, on refusal, passes it to
    :func:`check_rotation` named ``target[:3, :3]``, as :func:`split_pose` would. None for
    anything else (:func:`split_pose` takes it)."""
    if type(target) is not np.ndarray or target.shape != (4, 4):
        return None
    rows = _pose_rows(target)
    return None if rows is None else _pose_parts(target, rows)


def _pose_parts(target: np.ndarray, rows: list[list[float]]) -> tuple[np.ndarray, np.ndarray]:
    """A fresh (3,) position (from ``rows``, ``target.tolist()``) and a fresh C-contiguous copy
    of the (3, 3) rotation block of the (4, 4) array ``target``."""
    return np.array((rows[0][3], rows[1][3], rows[2][3])), np.ascontiguousarray(target[:3, :3])


def _pose_rows(target: np.ndarray) -> list[list[float]] | None:
    """The rows of a float64 (4, 4) array whose last row is (0, 0, 0, 1) to 1e-9 and whose
    position is finite within MAX_COORDINATE, as lists of floats; None otherwise."""
    if target.dtype != np.float64:
        return None
    rows = target.tolist()
    (_, _, _, x), (_, _, _, y), (_, _, _, z), (k, m, n, w) = rows
    if not (
        abs(k) <= _POSE_TOL
        and abs(m) <= _POSE_TOL
        and abs(n) <= _POSE_TOL
        and abs(w - 1.0) <= _POSE_TOL
        and abs(x) <= MAX_COORDINATE
        and abs(y) <= MAX_COORDINATE
        and abs(z) <= MAX_COORDINATE
    ):
        return None  # NaN included
    return rows


def check_angle_tol(angle_tol: Any, name: str = "angle_tol") -> float:
    """The angle tolerance in radians: ``angle_tol`` checked (in (0, pi]), or
    :data:`DEFAULT_ANGLE_TOL`."""
    if angle_tol is None:
        return DEFAULT_ANGLE_TOL
    if not is_number(angle_tol) or not 0.0 < angle_tol <= math.pi:
        raise InvalidOptionError(
            f"expected an angle in (0, pi] radians, got {describe(angle_tol)}", argument=name
        )
    return float(angle_tol)


def check_rotations(
    value: Any, count: int, name: str, error: type[GeoIKError] = InvalidChainError
) -> np.ndarray:
    """``count`` rotation matrices (orthonormal to 1e-9, determinant +1) as a (count, 3, 3)
    array."""
    r = check_array(value, (count, 3, 3), name, error=error)
    for i in range(count):
        if not np.allclose(r[i] @ r[i].T, np.eye(3), atol=1e-9) or np.linalg.det(r[i]) <= 0:
            raise error(
                f"expected a rotation matrix, got {np.round(r[i], 9).tolist()}",
                argument=f"{name}[{i}]",
            )
    return r
