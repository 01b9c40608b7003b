"""The joint chain: link lengths, base, and per-joint limits (and hinge axes in 3-D)."""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from geoik.checks import MAX_COORDINATE, MAX_LINKS, check_point, is_number
from geoik.errors import InvalidChainError, InvalidPoseError, Spell, describe
from geoik.geometry import fk_2d, fk_3d
from geoik.jit import KernelModel, call
from geoik.pose import Pose
from geoik.reach import chain_reach
from geoik.state import public_angles, quats_from_rotvecs, rest_state

__all__ = ["Chain"]

_PERP_TOL = 1e-9


def _as_lengths(lengths: Any) -> np.ndarray:
    _refuse_non_numbers(lengths)
    try:
        arr = np.array(lengths, dtype=np.float64, ndmin=1)
    except (TypeError, ValueError):
        raise InvalidChainError(
            f"expected a sequence of positive numbers, got {describe(lengths)}", argument="lengths"
        ) from None
    if arr.ndim != 1:
        raise InvalidChainError(
            f"expected a flat sequence of positive numbers, got shape {arr.shape}",
            argument="lengths",
        )
    if arr.size == 0:
        raise InvalidChainError(
            "expected at least one link, got an empty sequence", argument="lengths"
        )
    if arr.size > MAX_LINKS:
        raise InvalidChainError(
            f"expected at most {MAX_LINKS:,} links, got {arr.size:,}", argument="lengths"
        )
    bad = np.flatnonzero(~(arr > 0) | ~(arr <= MAX_COORDINATE))
    if bad.size:
        i = int(bad[0])
        raise InvalidChainError(
            f"expected a finite length > 0, at most {MAX_COORDINATE:g}, got "
            f"{describe(arr[i].item())}",
            argument=f"lengths[{i}]",
        )
    return arr


def _refuse_non_numbers(lengths: Any) -> None:
    """Booleans, strings and other non-numbers are no lengths, although NumPy would convert
    them (``True`` to 1, ``"2"`` to 2)."""
    expected = f"expected a finite length > 0, at most {MAX_COORDINATE:g}"
    if isinstance(lengths, bool | np.bool_ | str | bytes):
        raise InvalidChainError(f"{expected} per link, got {describe(lengths)}", argument="lengths")
    if isinstance(lengths, np.ndarray) and lengths.dtype.kind not in "iuf":
        raise InvalidChainError(
            f"{expected} per link, got an array of {lengths.dtype} values", argument="lengths"
        )
    if isinstance(lengths, list | tuple):
        for i, v in enumerate(lengths):
            if not is_number(v) and not isinstance(v, list | tuple | np.ndarray):
                raise InvalidChainError(f"{expected}, got {describe(v)}", argument=f"lengths[{i}]")


def _numbers_only(value: Any) -> bool:
    """Whether a list, tuple or array holds real numbers only (no bools or strings); other
    values are left to NumPy's conversion."""
    if isinstance(value, np.ndarray):
        return value.dtype.kind in "iuf"
    return not isinstance(value, list | tuple) or all(map(is_number, value))


def _bend_entry(entry: Any, i: int, signed_ok: bool) -> tuple[float, float] | None:
    """Parse one joint's limit (degrees) into a signed (min, max) pair in degrees, None if free."""
    where = f"max_bend_deg[{i}]"
    if entry is None:
        return None
    if is_number(entry):
        b = float(entry)
        if not math.isfinite(b) or b < 0.0 or b > 180.0:
            hint = (Spell("signed_range"),) if b < 0.0 and signed_ok else ()
            raise InvalidChainError(
                ("expected a maximum bend in [0, 180] degrees, got ", Spell("value", entry), *hint),
                argument=where,
            )
        return None if b >= 180.0 else (-b, b)
    if isinstance(entry, Sequence | np.ndarray) and len(entry) == 2:
        if not signed_ok:
            raise InvalidChainError(
                (
                    Spell("pair_needs"),
                    " a planar chain or a hinge joint; a 3-D ball joint takes one maximum bend "
                    "(a cone), got ",
                    Spell("value", entry),
                ),
                argument=where,
            )
        lo, hi = entry
        if not (is_number(lo) and is_number(hi)):
            raise InvalidChainError(
                ("expected ", Spell("two_numbers"), ", got ", Spell("value", entry)),
                argument=where,
            )
        lo, hi = float(lo), float(hi)
        for v in (lo, hi):
            if not math.isfinite(v) or abs(v) > 180.0:
                raise InvalidChainError(
                    ("expected signed angles in [-180, 180] degrees, got ", Spell("value", entry)),
                    argument=where,
                )
        if lo > hi:
            raise InvalidChainError(f"expected min <= max, got min {lo} > max {hi}", argument=where)
        return None if (lo <= -180.0 and hi >= 180.0) else (lo, hi)
    raise InvalidChainError(
        (
            "expected None, a maximum bend in degrees ",
            Spell("or_pair"),
            ", got ",
            Spell("value", entry),
        ),
        argument=where,
    )


def _per_joint(value: Any, n: int, name: str) -> list[Any]:
    if value is None:
        return [None] * n
    if is_number(value):
        return [value] * n
    if isinstance(value, Sequence | np.ndarray) and not isinstance(value, str):
        items = list(value)
        if len(items) != n:
            hint: tuple[Spell, ...] = ()
            if len(items) == 2 and all(is_number(x) for x in items):
                hint = (Spell("range_for_all", float(items[0]), float(items[1]), n),)
            raise InvalidChainError(
                (
                    f"expected None, one value, or one entry per joint ({n}), got "
                    f"{_entries(len(items))}",
                    *hint,
                ),
                argument=name,
            )
        return items
    raise InvalidChainError(
        f"expected None, one value, or one entry per joint, got {describe(value)}", argument=name
    )


def _entries(count: int) -> str:
    return "1 entry" if count == 1 else f"{count} entries"


def _hinge_entries(value: Any, n: int) -> list[Any]:
    """``hinge_axes`` as one entry per joint (None or an axis), or InvalidChainError."""
    if value is None:
        return [None] * n
    expected = f"expected None or one entry per joint ({n}), each None or a 3-vector"
    if not isinstance(value, Sequence | np.ndarray) or isinstance(value, str):
        raise InvalidChainError(f"{expected}, got {describe(value)}", argument="hinge_axes")
    items = list(value)
    if len(items) == 3 and all(is_number(x) for x in items):
        axis = tuple(float(x) for x in items)
        raise InvalidChainError(
            (f"{expected}, got ", Spell("axis_for_all", axis, n)), argument="hinge_axes"
        )
    if len(items) != n:
        raise InvalidChainError(f"{expected}, got {_entries(len(items))}", argument="hinge_axes")
    return items


@dataclass(frozen=True, eq=False)
class Chain(KernelModel):
    """A serial chain of rigid links, fixed at its base; frozen.

    Build one with :meth:`planar` or :meth:`spatial`. The rest pose is straight along +x.

    Attributes
    ----------
    lengths : (n,) link lengths.
    dim : 2 or 3.
    base : (dim,) base position.
    lo, hi : (n,) signed angle limits in radians (2-D joints and 3-D hinges); -inf/+inf if free.
    cone : (n,) maximum bend in radians of 3-D ball joints; pi if free.
    hinge : (n, 3) unit hinge axes in the parent link's frame; zero rows for ball joints.
    """

    lengths: np.ndarray
    dim: int
    base: np.ndarray
    lo: np.ndarray
    hi: np.ndarray
    cone: np.ndarray
    hinge: np.ndarray
    _cache: dict[str, Any] = field(default_factory=dict, repr=False, compare=False)
    n: int = field(init=False, repr=False, compare=False)
    """Number of links (and joints)."""
    total_length: float = field(init=False, repr=False, compare=False)
    """Sum of the link lengths (the reach of a chain that can straighten)."""
    kernel_arrays: tuple[np.ndarray, ...] = field(init=False, repr=False, compare=False)
    """The chain as every solver kernel takes it (see :class:`geoik.solvers.Solver`):
    ``(lengths, base, lo, hi)`` in 2-D, ``(lengths, base, cone, hinge, lo, hi)`` in 3-D."""

    def __post_init__(self) -> None:
        object.__setattr__(self, "n", int(self.lengths.size))
        object.__setattr__(self, "total_length", float(self.lengths.sum()))
        arrays: tuple[np.ndarray, ...]
        if self.dim == 2:
            arrays = (self.lengths, self.base, self.lo, self.hi)
        else:
            arrays = (self.lengths, self.base, self.cone, self.hinge, self.lo, self.hi)
        object.__setattr__(self, "kernel_arrays", arrays)

    # ------------------------------------------------------------------ construction
    @classmethod
    def planar(cls, lengths: Any, max_bend_deg: Any = None, base: Any = (0.0, 0.0)) -> Chain:
        """A chain in the plane.

        Parameters
        ----------
        lengths : sequence of n positive link lengths.
        max_bend_deg : None (free joints), one number for every joint, or one entry per joint:
            None (free), a maximum bend b in [0, 180] degrees (the joint stays within [-b, b]
            of its parent link; the first joint: of +x), or a signed ``(min, max)`` pair.
        base : (2,) base position.
        """
        ls = _as_lengths(lengths)
        n = ls.size
        b = check_point(base, 2, "base", InvalidChainError)
        lo = np.full(n, -np.inf)
        hi = np.full(n, np.inf)
        for i, entry in enumerate(_per_joint(max_bend_deg, n, "max_bend_deg")):
            pair = _bend_entry(entry, i, signed_ok=True)
            if pair is not None:
                lo[i], hi[i] = math.radians(pair[0]), math.radians(pair[1])
        return cls._make(ls, 2, b, lo, hi, np.full(n, math.pi), np.zeros((n, 3)))

    @classmethod
    def spatial(
        cls,
        lengths: Any,
        max_bend_deg: Any = None,
        hinge_axes: Any = None,
        base: Any = (0.0, 0.0, 0.0),
    ) -> Chain:
        """A chain in 3-D space.

        Parameters
        ----------
        lengths : sequence of n positive link lengths.
        max_bend_deg : None, one number, or one entry per joint. For a ball joint the entry is
            the half-angle in degrees of the cone about the parent link's direction (the first
            joint: about +x) that the link must stay in. For a hinge joint it bounds the signed
            hinge angle to [-b, b], or to a ``(min, max)`` pair.
        hinge_axes : None, or one entry per joint: None (a ball joint) or a 3-vector in the
            parent link's frame, perpendicular to the link (+x), about which alone the joint
            turns, as a knee or an elbow does. Each link's frame is its parent's turned by the
            joint's rotation.
        base : (3,) base position.
        """
        ls = _as_lengths(lengths)
        n = ls.size
        b = check_point(base, 3, "base", InvalidChainError)
        hinge = np.zeros((n, 3))
        axes = _hinge_entries(hinge_axes, n)
        for i, axis in enumerate(axes):
            if axis is None:
                continue
            try:
                h = np.array(axis, dtype=np.float64)
            except (TypeError, ValueError):
                h = np.zeros(0)
            if not _numbers_only(axis):  # NumPy would take True for 1, "0" for 0
                h = np.zeros(0)
            norm = float(np.linalg.norm(h)) if h.shape == (3,) else 0.0
            if h.shape != (3,) or not np.all(np.isfinite(h)) or norm == 0.0:
                raise InvalidChainError(
                    f"expected None or a non-zero 3-vector, got {describe(axis)}",
                    argument=f"hinge_axes[{i}]",
                )
            if abs(h[0]) > _PERP_TOL * norm:
                raise InvalidChainError(
                    f"expected an axis perpendicular to the link (+x in the parent link's frame, "
                    f"so its x component must be 0), got {describe(axis)}",
                    argument=f"hinge_axes[{i}]",
                )
            hinge[i] = h / norm
            hinge[i, 0] = 0.0
        lo = np.full(n, -np.inf)
        hi = np.full(n, np.inf)
        cone = np.full(n, math.pi)
        for i, entry in enumerate(_per_joint(max_bend_deg, n, "max_bend_deg")):
            is_hinge = bool(np.any(hinge[i]))
            pair = _bend_entry(entry, i, signed_ok=is_hinge)
            if pair is None:
                continue
            if is_hinge:
                lo[i], hi[i] = math.radians(pair[0]), math.radians(pair[1])
            else:
                cone[i] = math.radians(pair[1])
        return cls._make(ls, 3, b, lo, hi, cone, hinge)

    @classmethod
    def _make(cls, *arrays_and_dim: Any) -> Chain:
        ls, dim, b, lo, hi, cone, hinge = arrays_and_dim
        for a in (ls, b, lo, hi, cone, hinge):
            a.setflags(write=False)
        return cls(ls, dim, b, lo, hi, cone, hinge)

    # ------------------------------------------------------------------ properties
    @property
    def is_limited(self) -> bool:
        """True if any joint has a limit or a hinge."""
        cached = self._cache.get("is_limited")
        if cached is None:
            cached = self._cache["is_limited"] = self._any_limit()
        return bool(cached)

    def _any_limit(self) -> bool:
        return bool(
            np.any(np.isfinite(self.lo))
            or np.any(np.isfinite(self.hi))
            or np.any(self.cone < math.pi)
            or np.any(self.hinge)
        )

    def max_bend_deg(self) -> list[Any]:
        """The limits as a person types them: per joint None, a number or a (min, max) pair."""
        out: list[Any] = []
        for i in range(self.n):
            if self.dim == 3 and not np.any(self.hinge[i]):
                cone = round(math.degrees(self.cone[i]), 9)
                out.append(None if self.cone[i] >= math.pi else cone)
            elif np.isfinite(self.lo[i]) or np.isfinite(self.hi[i]):
                lo, hi = round(math.degrees(self.lo[i]), 9), round(math.degrees(self.hi[i]), 9)
                out.append(hi if lo == -hi else (lo, hi))
            else:
                out.append(None)
        return out

    def describe(self) -> str:
        """One line for titles and reports, e.g. ``planar chain 2x10, free joints`` (ten links
        of length 2: the ``LENGTHxCOUNT`` form ``geoik solve --lengths`` takes)."""
        ls = self.lengths
        same = bool(np.all(ls == ls[0]))
        lens = f"{ls[0]:g}x{self.n}" if same else ",".join(f"{v:g}" for v in ls)
        kind = "planar" if self.dim == 2 else "3-D"
        lim = "limited joints" if self.is_limited else "free joints"
        return f"{kind} chain {lens}, {lim}"

    # ------------------------------------------------------------------ poses
    def rest_pose(self) -> Pose:
        """The rest pose: straight along +x, with each joint clamped into its limits (a joint
        whose limits exclude 0 rests at the nearer bound)."""
        return self.pose_from_angles(public_angles(self, rest_state(self)))

    def pose_from_angles(self, angles: Any) -> Pose:
        """Forward kinematics.

        Parameters
        ----------
        angles : (n,) relative joint angles in radians (2-D), or (n, 3) rotation vectors
            (axis times angle, radians, in the parent link's frame) in 3-D.
        """
        a = self.check_angles(angles, "angles")
        return Pose(self._fk(a), a)

    def check_angles(self, angles: Any, name: str) -> np.ndarray:
        """Joint angles checked for this chain: a fresh (n,) array in 2-D or (n, 3) rotation
        vectors in 3-D, radians, finite; :class:`~geoik.InvalidPoseError` naming ``name``
        otherwise. Limits are checked by :func:`geoik.state.start_state`, not here."""
        shape = (self.n,) if self.dim == 2 else (self.n, 3)
        try:
            a = np.array(angles, dtype=np.float64)
        except (TypeError, ValueError):
            raise InvalidPoseError(
                f"expected an array of shape {shape} (radians), got {describe(angles)}",
                argument=name,
            ) from None
        if a.shape != shape:
            raise InvalidPoseError(
                f"expected an array of shape {shape} (radians), got shape {a.shape}", argument=name
            )
        if not np.all(np.isfinite(a)):
            raise InvalidPoseError(
                f"expected finite angles, got {describe(a.tolist())}", argument=name
            )
        return a

    def _fk(self, angles: np.ndarray) -> np.ndarray:
        pos = np.empty((self.n + 1, self.dim))
        if self.dim == 2:
            call(fk_2d, self.lengths, self.base, angles, pos)
        else:
            call(
                fk_3d,
                self.lengths,
                self.base,
                quats_from_rotvecs(angles),
                pos,
                np.empty((self.n, 4)),
            )
        return pos

    # ------------------------------------------------------------------ reach
    def reach(self) -> tuple[float, float]:
        """(minimum, maximum) distance from the base that the end effector can reach."""
        cached = self._cache.get("reach")
        if cached is None:
            cached = chain_reach(self)
            self._cache["reach"] = cached
        return cached
