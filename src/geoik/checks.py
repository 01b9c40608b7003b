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
from typing import Any

import numpy as np

from geoik.errors import GeoIKError, InvalidOptionError, InvalidTargetError, describe

__all__ = [
    "DEFAULT_TOL",
    "check_flag",
    "check_int",
    "check_max_iter",
    "check_number",
    "check_point",
    "check_point_within",
    "check_points",
    "check_tol",
    "is_integer",
    "is_number",
]

DEFAULT_TOL = 1e-4
"""Default tolerance, relative to the model's size (a chain's total length, a skeleton's longest
path from the root to an end effector)."""

_REAL_KINDS = "iuf"  # NumPy dtype kinds of real numbers: no bools, complex numbers or objects


def is_number(value: Any) -> bool:
    """True for a real number (int, float or a NumPy one), not a bool."""
    return isinstance(value, int | float | np.integer | np.floating) and not isinstance(
        value, bool | np.bool_
    )


def _real_array(value: Any) -> np.ndarray | None:
    """``value`` as a float64 array if it holds real numbers only (no bools, complex numbers,
    strings or objects), else None."""
    try:
        raw = np.asarray(value)
    except (TypeError, ValueError):
        return None
    if raw.dtype.kind not in _REAL_KINDS:
        return None
    return np.array(raw, dtype=np.float64)


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
    p = _real_array(value)
    if p is None or p.shape != (dim,) or not all(map(math.isfinite, p.tolist())):
        raise error(
            f"{name}: expected {dim} finite coordinates for a {dim}-D {model}, "
            f"got {describe(value)}"
        )
    return p


def check_points(
    values: Any, dim: int, name: str = "targets", error: type[GeoIKError] = InvalidTargetError
) -> np.ndarray:
    """Points as a C-contiguous ``(m, dim)`` float64 array of finite coordinates (one point may
    come as a flat ``(dim,)`` sequence); ``error`` naming ``name`` otherwise."""
    p = _real_array(values)
    if p is None:
        raise error(
            f"{name}: expected an (m, {dim}) array of finite coordinates, got {describe(values)}"
        )
    if p.ndim < 2:
        p = p.reshape(1, -1)
    if p.ndim != 2 or p.shape[1] != dim:
        raise error(f"{name}: expected an (m, {dim}) array of coordinates, got shape {p.shape}")
    if not np.all(np.isfinite(p)):
        row = int(np.flatnonzero(~np.all(np.isfinite(p), axis=1))[0])
        raise error(f"{name}[{row}]: expected finite coordinates, got {p[row].tolist()}")
    return np.ascontiguousarray(p)


def check_tol(tol: Any, scale: float, name: str = "tol") -> float:
    """The tolerance as a float: ``tol`` checked, or :data:`DEFAULT_TOL` times ``scale``."""
    if tol is None:
        return DEFAULT_TOL * scale
    if not is_number(tol) or not math.isfinite(tol) or tol <= 0:
        raise InvalidOptionError(f"{name}: expected a finite distance > 0, got {describe(tol)}")
    return float(tol)


def check_max_iter(max_iter: Any, default: int, name: str = "max_iter") -> int:
    """The iteration budget as an int: ``max_iter`` checked, or ``default``."""
    if max_iter is None:
        return default
    if isinstance(max_iter, bool) or not isinstance(max_iter, int | np.integer) or max_iter < 1:
        raise InvalidOptionError(f"{name}: expected an integer >= 1, got {describe(max_iter)}")
    return int(max_iter)


def check_flag(value: Any, name: str) -> bool:
    """``value`` as a bool if it is one (Python's or NumPy's); InvalidOptionError otherwise."""
    if not isinstance(value, bool | np.bool_):
        raise InvalidOptionError(f"{name}: expected True or False, got {describe(value)}")
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
        raise error(f"{name}: expected a finite number{_span(lo, hi)}, got {describe(value)}")
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
        raise error(f"{name}: expected an integer{_span(lo, hi)}, got {describe(value)}")
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
        raise error(f"{name}: expected coordinates within +-{limit:g}, got {describe(value)}")
    return p
