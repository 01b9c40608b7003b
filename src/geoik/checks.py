"""Input checks: the one validation layer of every public entry.

:func:`geoik.solve`, :func:`geoik.solve_tree`, :func:`geoik.batch.evaluate`, the model
constructors, the viewer's protocol and the command line's parsers all check points,
tolerances, iteration budgets and flags here. Each check takes the argument's ``name`` as the
caller's user spells it (``target``, ``targets['index']``, ``--tol``, ``chain.base``) and raises a
:class:`geoik.GeoIKError` subclass whose message names it, says what was expected and what came.
Everything after these checks trusts its data.
"""

from __future__ import annotations

import math
import os
from collections.abc import Sequence
from typing import Any

import numpy as np

from geoik.errors import (
    GeoIKError,
    InvalidChainError,
    InvalidOptionError,
    InvalidTargetError,
    describe,
)

__all__ = [
    "DEFAULT_ANGLE_TOL",
    "DEFAULT_METHOD",
    "DEFAULT_ROBOT_TOL",
    "DEFAULT_TOL",
    "check_angle_tol",
    "check_array",
    "check_flag",
    "check_int",
    "check_ints",
    "check_max_iter",
    "check_memory",
    "check_motion",
    "check_names",
    "check_number",
    "check_point",
    "check_point_within",
    "check_points",
    "check_rotation",
    "check_rotations",
    "check_tol",
    "is_rotation_object",
    "split_pose",
    "is_integer",
    "is_number",
    "memory_limit",
    "relative_tol",
]

DEFAULT_METHOD = "auto"
"""The method every entry runs unless told otherwise: :func:`geoik.solve`,
:func:`geoik.solve_tree`, :func:`geoik.batch.evaluate`, ``geoik solve`` and the viewer."""
DEFAULT_TOL = 1e-4
"""Default tolerance of chains and skeletons, relative to the model's size (a chain's total
length, a skeleton's longest path from the root to an end effector): :func:`relative_tol`."""
DEFAULT_ROBOT_TOL = 1e-4
"""Default tolerance of robots, metres (URDF lengths are metres), whatever the robot's size."""

MAX_COORDINATE = 1e50
"""Largest magnitude of a coordinate or a length: beyond it the squares and products of
distances that kernels form would overflow."""
MAX_LINKS = 10_000
"""Most links (joints) a model may have."""
MAX_ITER = 10**9
"""Largest iteration budget."""
MAX_MOTION_BYTES = 2**30
"""Largest motion record (the keyframes :class:`geoik.Motion` keeps) one solve may ask for."""

DEFAULT_ANGLE_TOL = 1e-3
"""Default angle tolerance of orientation targets, radians."""
_ROTATION_TOL = 1e-6
"""How far a rotation matrix may be from orthonormal, or a quaternion from unit length."""

_REAL_KINDS = "iuf"  # NumPy dtype kinds of real numbers: no bools, complex numbers or objects
_SEQUENCES = (tuple, list)
_PLAIN = frozenset((float, int))


def is_number(value: Any) -> bool:
    """True for a real number (int, float or a NumPy one), not a bool."""
    return isinstance(value, int | float | np.integer | np.floating) and not isinstance(
        value, bool | np.bool_
    )


def _real_array(value: Any, own: bool = True) -> np.ndarray | None:
    """``value`` as a float64 array if it holds real numbers only (no bools, complex numbers,
    strings or objects), else None: an array of its own (never ``value`` itself) unless ``own``
    is False, when a C-contiguous float64 array comes back as it is."""
    try:
        raw = np.asarray(value)
    except (TypeError, ValueError):
        return None
    if raw.dtype.kind not in _REAL_KINDS or (raw is not value and _holds_bool(value)):
        return None
    if not own and raw.dtype == np.float64 and raw.flags.c_contiguous:
        return raw
    if raw.dtype != np.float64 or raw is value or raw.base is not None:
        return np.array(raw, dtype=np.float64)
    return raw


def _holds_bool(value: Any) -> bool:
    """Whether a (nested) list or tuple holds a bool, which NumPy would take for 0 or 1."""
    if isinstance(value, bool | np.bool_):
        return True
    if isinstance(value, list | tuple):
        return any(map(_holds_bool, value))
    return False


def check_point(
    value: Any,
    dim: int,
    name: str,
    error: type[GeoIKError] = InvalidTargetError,
    model: str = "chain",
) -> np.ndarray:
    """A point as a fresh ``(dim,)`` float64 array of finite coordinates.

    Raises ``error`` (default :class:`~geoik.InvalidTargetError`) naming ``name`` otherwise; the
    message says the point belongs to a ``dim``-D ``model``.
    """
    if (
        type(value) in _SEQUENCES  # the common case, checked without making an array first
        and len(value) == dim
        and _PLAIN.issuperset(map(type, value))
        and all(map(_moderate, value))
    ):
        return np.array(value, dtype=np.float64)
    if (  # a float64 array of the right shape: one pass over its coordinates
        type(value) is np.ndarray
        and value.dtype == np.float64
        and value.shape == (dim,)
        and all(map(_moderate, value.tolist()))
    ):
        return value.copy()
    p = _real_array(value)
    if p is None or p.shape != (dim,) or not all(map(math.isfinite, p.tolist())):
        raise error(
            f"expected {dim} finite coordinates for a {dim}-D {model}, got {describe(value)}",
            argument=name,
        )
    if not all(map(_moderate, p.tolist())):
        raise error(
            f"expected coordinates within +-{MAX_COORDINATE:g}, got {describe(value)}",
            argument=name,
        )
    return p


def _moderate(x: float) -> bool:
    """Finite and at most :data:`MAX_COORDINATE` in magnitude."""
    return -MAX_COORDINATE <= x <= MAX_COORDINATE


def check_points(
    values: Any,
    dim: int,
    name: str = "targets",
    error: type[GeoIKError] = InvalidTargetError,
    own: bool = True,
) -> np.ndarray:
    """Points as a C-contiguous ``(m, dim)`` float64 array of finite coordinates (one point may
    come as a flat ``(dim,)`` sequence); ``error`` naming ``name`` otherwise. With ``own`` False
    a C-contiguous float64 array is not copied (for callers that only read it)."""
    p = _real_array(values, own)
    if p is None:
        raise error(
            f"expected an (m, {dim}) array of finite coordinates, got {describe(values)}",
            argument=name,
        )
    if p.ndim < 2:
        p = p.reshape(1, -1)
    if p.ndim != 2 or p.shape[1] != dim:
        raise error(
            f"expected an (m, {dim}) array of coordinates, got shape {p.shape}", argument=name
        )
    if p.size == 0 or (p.min() >= -MAX_COORDINATE and p.max() <= MAX_COORDINATE):
        return np.ascontiguousarray(p)  # the common case: two passes, no temporary array
    bad = ~np.all(np.abs(p) <= MAX_COORDINATE, axis=1)  # NaN compares False
    if bad.any():
        row = int(np.flatnonzero(bad)[0])
        raise error(
            f"{name}[{row}]: expected finite coordinates within +-{MAX_COORDINATE:g}, "
            f"got {p[row].tolist()}"
        )
    return np.ascontiguousarray(p)


def relative_tol(size: float) -> float:
    """The default tolerance of a chain or skeleton of ``size``: :data:`DEFAULT_TOL` times it."""
    return DEFAULT_TOL * size


def check_tol(tol: Any, default: float, name: str = "tol") -> float:
    """The tolerance as a float: ``tol`` checked (a finite distance > 0), or ``default`` when it
    is None (:func:`relative_tol` of a chain or skeleton, :data:`DEFAULT_ROBOT_TOL` for a
    robot)."""
    if tol is None:
        return default
    if type(tol) is float and 0.0 < tol < math.inf:
        return tol
    if not is_number(tol) or not math.isfinite(tol) or tol <= 0:
        raise InvalidOptionError(
            f"expected a finite distance > 0, got {describe(tol)}", argument=name
        )
    return float(tol)


def check_max_iter(max_iter: Any, default: int, name: str = "max_iter") -> int:
    """The iteration budget as an int: ``max_iter`` checked (1 to :data:`MAX_ITER`), or
    ``default``."""
    if max_iter is None:
        return default
    if type(max_iter) is int and 1 <= max_iter <= MAX_ITER:
        return max_iter
    if isinstance(max_iter, bool) or not isinstance(max_iter, int | np.integer) or max_iter < 1:
        raise InvalidOptionError(
            f"expected an integer >= 1, got {describe(max_iter)}", argument=name
        )
    if max_iter > MAX_ITER:
        raise InvalidOptionError(f"expected at most {MAX_ITER:,}, got {max_iter:,}", argument=name)
    return int(max_iter)


def check_motion(
    rows: int, row_bytes: int, max_iter: int, what: str, name: str = "max_iter"
) -> None:
    """Refuse a motion record of ``rows`` keyframes of ``row_bytes`` each beyond
    :data:`MAX_MOTION_BYTES`, naming the iteration budget that asks for it (``what`` says whose
    keyframes, e.g. ``"'ccd' on 60 links"``)."""
    if rows * row_bytes <= MAX_MOTION_BYTES:
        return
    per_iter = max(1, (rows - 1) // max(max_iter, 1)) * row_bytes
    most = max(1, (MAX_MOTION_BYTES - row_bytes) // per_iter)
    raise InvalidOptionError(
        f"{max_iter:,} iterations of {what} may record {rows * row_bytes / 1000000000.0:.3g} GB "
        f"of motion (kept for the costs and the replay); expected at most {most:,}",
        argument=name,
    )


def check_flag(value: Any, name: str) -> bool:
    """``value`` as a bool if it is one (Python's or NumPy's); InvalidOptionError otherwise."""
    if value is False or value is True:
        return value
    if not isinstance(value, bool | np.bool_):
        raise InvalidOptionError(f"expected True or False, got {describe(value)}", argument=name)
    return bool(value)


def is_integer(value: Any) -> bool:
    """True for an integer (Python's or NumPy's), not a bool."""
    return isinstance(value, int | np.integer) and not isinstance(value, bool | np.bool_)


def _span(lo: float, hi: float) -> str:
    """`` in [lo, hi]``, `` >= lo``, `` <= hi`` or nothing, for a message."""
    if math.isinf(lo) and math.isinf(hi):
        return ""
    if math.isinf(hi):
        return f" >= {lo:g}"
    if math.isinf(lo):
        return f" <= {hi:g}"
    return f" in [{lo:g}, {hi:g}]"


def check_number(
    value: Any,
    name: str,
    lo: float = -math.inf,
    hi: float = math.inf,
    error: type[GeoIKError] = InvalidOptionError,
) -> float:
    """``value`` as a float if it is a finite real number (not a bool) in ``[lo, hi]``;
    ``error`` naming ``name`` otherwise."""
    if not is_number(value) or not math.isfinite(value) or not lo <= value <= hi:
        raise error(
            f"expected a finite number{_span(lo, hi)}, got {describe(value)}", argument=name
        )
    return float(value)


def check_int(
    value: Any,
    name: str,
    lo: float = -math.inf,
    hi: float = math.inf,
    error: type[GeoIKError] = InvalidOptionError,
) -> int:
    """``value`` as an int if it is an integer (not a bool or a float) in ``[lo, hi]``;
    ``error`` naming ``name`` otherwise."""
    if not is_integer(value) or not lo <= value <= hi:
        raise error(f"expected an integer{_span(lo, hi)}, got {describe(value)}", argument=name)
    return int(value)


def check_point_within(
    value: Any,
    dim: int,
    name: str,
    limit: float,
    error: type[GeoIKError] = InvalidTargetError,
    model: str = "chain",
) -> np.ndarray:
    """:func:`check_point`, and every coordinate within ``[-limit, limit]`` (a cap for input
    from outside, such as the viewer's messages, that keeps squares and sums far from
    overflow); ``error`` naming ``name`` otherwise."""
    p = check_point(value, dim, name, error, model)
    if np.any(np.abs(p) > limit):
        raise error(
            f"expected coordinates within +-{limit:g}, got {describe(value)}", argument=name
        )
    return p


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
    if is_rotation_object(value):
        matrices = _object_matrices(value, name)
        if len(matrices) != 1:
            raise InvalidTargetError(
                f"expected one rotation, got a {type(value).__name__} holding "
                f"{len(matrices)}; pick one (r[i])",
                argument=name,
            )
        value = matrices[0]
    r = _real_array(value)
    if r is None or r.shape not in ((3, 3), (4,)) or not math.isfinite(float(r.sum())):
        raise InvalidTargetError(
            f"expected a 3x3 rotation matrix, a unit quaternion (w, x, y, z) or a "
            f"scipy Rotation, got {describe(value)}",
            argument=name,
        )
    if r.shape == (4,):
        norm = math.sqrt(float(r @ r))
        if abs(norm - 1.0) > _ROTATION_TOL:
            raise InvalidTargetError(
                f"expected a unit quaternion (w, x, y, z), got one of length {norm:.9g}",
                argument=name,
            )
        w, x, y, z = (r / norm).tolist()
        return np.array(
            [
                [1 - 2 * (y * y + z * z), 2 * (x * y - w * z), 2 * (x * z + w * y)],
                [2 * (x * y + w * z), 1 - 2 * (x * x + z * z), 2 * (y * z - w * x)],
                [2 * (x * z - w * y), 2 * (y * z + w * x), 1 - 2 * (x * x + y * y)],
            ]
        )
    (a, b, c), (d, e, f), (g, h, i) = r.tolist()
    # how far the columns are from orthonormal (R^T R - I), and the determinant, in scalars
    off = max(
        abs(a * a + d * d + g * g - 1.0),
        abs(b * b + e * e + h * h - 1.0),
        abs(c * c + f * f + i * i - 1.0),
        abs(a * b + d * e + g * h),
        abs(a * c + d * f + g * i),
        abs(b * c + e * f + h * i),
    )
    if off > _ROTATION_TOL or a * (e * i - f * h) - b * (d * i - f * g) + c * (d * h - e * g) < 0:
        raise InvalidTargetError(
            f"expected a rotation matrix (orthonormal, determinant +1), got "
            f"{describe(np.round(r, 6).tolist())}",
            argument=name,
        )
    if off > 1e-14:  # the nearest rotation matrix
        u, _, vt = np.linalg.svd(r)
        r = u @ vt
    return np.ascontiguousarray(r)


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


# --------------------------------------------------------------------------- model fields


def check_names(
    value: Any, name: str, allow_empty: bool = False, error: type[GeoIKError] = InvalidChainError
) -> tuple[str, ...]:
    """A sequence of unique non-empty strings (joint, link or tip names) as a tuple."""
    if isinstance(value, str) or not isinstance(value, Sequence | np.ndarray):
        raise error(f"expected a sequence of names, got {describe(value)}", argument=name)
    out = tuple(value)
    if not out and not allow_empty:
        raise error("expected at least one name, got none", argument=name)
    seen: set[str] = set()
    for i, nm in enumerate(out):
        if not isinstance(nm, str) or not nm:
            raise error(f"expected a non-empty string, got {describe(nm)}", argument=f"{name}[{i}]")
        if nm in seen:
            raise error(f"expected unique names, got {nm!r} twice", argument=f"{name}[{i}]")
        seen.add(nm)
    return out


def check_ints(
    value: Any, size: int, name: str, error: type[GeoIKError] = InvalidChainError
) -> np.ndarray:
    """``size`` integers (no bools) as an int64 array."""
    try:
        a = np.array(value)
    except (TypeError, ValueError):
        a = np.zeros(0)
    if a.shape != (size,) or (size and not np.issubdtype(a.dtype, np.integer)):
        raise error(f"expected {size} integers, got {describe(value)}", argument=name)
    return a.astype(np.int64)


def check_array(
    value: Any,
    shape: tuple[int, ...],
    name: str,
    finite: bool = True,
    error: type[GeoIKError] = InvalidChainError,
) -> np.ndarray:
    """A fresh float64 array of ``shape`` of real numbers (no bools, strings or NaN; with
    ``finite`` no infinities either)."""
    a = _real_array(value)
    if a is None or a.shape != shape:
        raise error(
            f"expected an array of shape {shape} of finite numbers, got {describe(value)}",
            argument=name,
        )
    bad = np.argwhere(~np.isfinite(a) if finite else np.isnan(a))
    if bad.size:  # name the first row (a joint, a tip) that holds one
        i = int(bad[0][0])
        raise error(f"expected finite numbers, got {a[i].tolist()}", argument=f"{name}[{i}]")
    return a


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


def memory_limit() -> int:
    """Bytes of memory a result may take: what the machine has available now (Linux:
    ``MemAvailable`` of ``/proc/meminfo``, and no more than a control group's limit leaves),
    else its physical memory. Read at each call: the memory a result needs is checked against
    what is there when it is asked for."""
    room = _meminfo_available()
    if room is None:
        try:
            room = os.sysconf("SC_PHYS_PAGES") * os.sysconf("SC_PAGE_SIZE")
        except (ValueError, OSError, AttributeError):
            return 2**63 - 1
    for limit, usage in (
        ("/sys/fs/cgroup/memory.max", "/sys/fs/cgroup/memory.current"),
        (
            "/sys/fs/cgroup/memory/memory.limit_in_bytes",
            "/sys/fs/cgroup/memory/memory.usage_in_bytes",
        ),
    ):
        most, used = _read_int(limit), _read_int(usage)
        if most is not None and used is not None and most < room + used:
            room = max(0, most - used)
    return room


def _meminfo_available() -> int | None:
    try:
        with open("/proc/meminfo", encoding="ascii") as f:
            for line in f:
                if line.startswith("MemAvailable:"):
                    return int(line.split()[1]) * 1024
    except (OSError, ValueError, IndexError):
        pass
    return None


def _read_int(path: str) -> int | None:
    """The integer a control-group file holds, or None (missing, or ``max``)."""
    try:
        with open(path, encoding="ascii") as f:
            return int(f.read().strip())
    except (OSError, ValueError):
        return None


_SMALL_RESULT = 1 << 26
"""Results of at most this many bytes (64 MiB) are not checked against the memory available."""


def check_memory(nbytes: float, what: str, name: str) -> None:
    """Refuse, before any work, a result of ``nbytes`` that would not fit in the memory
    available (:func:`memory_limit`): :class:`~geoik.InvalidOptionError` naming the argument
    ``name`` that asks for it, ``what`` is asked for (e.g. ``"100,000,000 targets"``), the
    size and the limit."""
    if nbytes <= _SMALL_RESULT:  # not worth reading the system's figures
        return
    limit = memory_limit()
    if nbytes <= limit:
        return
    raise InvalidOptionError(
        f"expected results that fit in the memory available ({_bytes(limit)}), got {what}, "
        f"about {_bytes(nbytes)}",
        argument=name,
    )


def _bytes(n: float) -> str:
    for unit, size in (("TB", 1e12), ("GB", 1e9), ("MB", 1e6)):
        if n >= size:
            return f"{n / size:.3g} {unit}"
    return f"{n / 1e3:.3g} kB"
