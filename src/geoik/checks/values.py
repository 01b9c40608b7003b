"""The checks of numbers, points, tolerances, budgets, flags and model fields, and the defaults
and caps every entry shares (see :mod:`geoik.checks`)."""

from __future__ import annotations

import math
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

_REAL_KINDS = "iuf"  # NumPy dtype kinds of real numbers: no bools, complex numbers or objects
_SEQUENCES = (tuple, list)
_PLAIN = frozenset((float, int, np.float64))  # NumPy's float64 is a float (a NumPy array's item)


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


def plain_floats(value: Any, n: int) -> list[float] | None:
    """``value`` as a list of ``n`` floats when it is ``n`` plain numbers: a list or tuple of
    Python or NumPy floats and ints (no bools), or a float64 array of shape ``(n,)``; None for
    anything else, for the general check, which says what is wrong. The values are not checked
    (NaN and infinity pass): for the fast paths of callers that check them in scalars."""
    if type(value) is np.ndarray:
        return value.tolist() if value.dtype == np.float64 and value.shape == (n,) else None
    if type(value) not in _SEQUENCES or len(value) != n or not _PLAIN.issuperset(map(type, value)):
        return None
    try:
        return [float(v) for v in value]
    except OverflowError:  # an int beyond a float's range
        return None


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
