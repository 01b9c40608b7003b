"""The field checks of a :class:`~geoik.Skeleton`: its joints' names, parents, link lengths,
end effectors and rest directions, each checked and converted; each raises
:class:`~geoik.errors.InvalidChainError` naming the field."""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

import numpy as np

from geoik.checks import is_number
from geoik.errors import InvalidChainError, describe


def _check_names(names: Any) -> tuple[str, ...]:
    if isinstance(names, str) or not isinstance(names, Sequence | np.ndarray):
        raise InvalidChainError(
            f"expected a sequence of joint names, got {describe(names)}", argument="names"
        )
    out = tuple(names)
    if not out:
        raise InvalidChainError("expected at least one joint, got none", argument="names")
    seen: set[str] = set()
    for i, nm in enumerate(out):
        if not isinstance(nm, str) or not nm:
            raise InvalidChainError(
                f"expected a non-empty string, got {describe(nm)}", argument=f"names[{i}]"
            )
        if nm in seen:
            raise InvalidChainError(
                f"expected unique names, got {nm!r} twice", argument=f"names[{i}]"
            )
        seen.add(nm)
    return out


def _check_parents(parents: Any, m: int) -> np.ndarray:
    try:
        p = np.array(parents)
    except (TypeError, ValueError):
        p = np.zeros(0)
    if p.shape != (m,) or (m and not np.issubdtype(p.dtype, np.integer)):
        raise InvalidChainError(
            f"expected {m} integer parent indices (-1 for the root), got {describe(parents)}",
            argument="parents",
        )
    p = p.astype(np.int64)
    for i, v in enumerate(p):
        if v < -1 or v >= m or v == i:
            raise InvalidChainError(
                f"expected -1 or the index of another joint (0..{m - 1}), got {v}",
                argument=f"parents[{i}]",
            )
    roots = np.flatnonzero(p < 0)
    if roots.size != 1:
        raise InvalidChainError(
            f"expected exactly one root (parent -1), got {roots.size}: joints {roots.tolist()}",
            argument="parents",
        )
    return p


def _topological_order(parents: np.ndarray) -> np.ndarray:
    m = parents.size
    kids: list[list[int]] = [[] for _ in range(m)]
    for i, p in enumerate(parents):
        if p >= 0:
            kids[p].append(i)
    order = [int(np.flatnonzero(parents < 0)[0])]
    for j in order:
        order.extend(kids[j])
    if len(order) != m:
        lost = sorted(set(range(m)) - set(order))
        raise InvalidChainError(
            f"expected a tree, got a cycle through joints {lost} (not joined to the root)",
            argument="parents",
        )
    return np.array(order, dtype=np.int64)


def _check_lengths(lengths: Any, parents: np.ndarray) -> np.ndarray:
    _refuse_non_numbers(lengths, "lengths")
    try:
        ls = np.array(lengths, dtype=np.float64)
    except (TypeError, ValueError):
        ls = np.zeros(0)
    if ls.shape != parents.shape:
        raise InvalidChainError(
            f"expected {parents.size} link lengths (0 for the root), got {describe(lengths)}",
            argument="lengths",
        )
    for i, v in enumerate(ls):
        if parents[i] < 0:
            if v != 0.0:
                raise InvalidChainError(
                    f"expected 0 for the root, got {v!r}", argument=f"lengths[{i}]"
                )
        elif not (math.isfinite(v) and v > 0.0):
            raise InvalidChainError(
                f"expected a finite length > 0, got {v!r}", argument=f"lengths[{i}]"
            )
    return ls


def _refuse_non_numbers(lengths: Any, name: str) -> None:
    """Booleans, strings and other non-numbers are no lengths, although NumPy would convert
    them (``True`` to 1, ``"2"`` to 2)."""
    if isinstance(lengths, bool | np.bool_ | str | bytes) or (
        isinstance(lengths, np.ndarray) and lengths.dtype.kind not in "iuf"
    ):
        raise InvalidChainError(f"expected link lengths, got {describe(lengths)}", argument=name)
    if isinstance(lengths, list | tuple):
        for i, v in enumerate(lengths):
            if not is_number(v):
                raise InvalidChainError(
                    f"expected a finite length, got {v!r}", argument=f"{name}[{i}]"
                )


def _check_effectors(effectors: Any, children: np.ndarray, names: tuple[str, ...]) -> np.ndarray:
    leaves = children == 0
    if len(names) == 1:
        leaves[:] = False  # a lone root is no end effector
    if effectors is None:
        return leaves
    try:
        e = np.array(effectors, dtype=bool)
    except (TypeError, ValueError):
        e = np.zeros(0, dtype=bool)
    if e.shape != leaves.shape:
        raise InvalidChainError(
            f"expected {leaves.size} booleans, got {describe(effectors)}", argument="effectors"
        )
    bad = np.flatnonzero(e & ~leaves)
    if bad.size:
        raise InvalidChainError(
            f"expected end effectors at leaves (not the root), got {names[int(bad[0])]!r}, a "
            f"joint with children",
            argument="effectors",
        )
    return e


def _check_directions(value: Any, m: int, dim: int, skip: int = -1) -> np.ndarray:
    if value is None:
        out = np.zeros((m, dim))
        out[:, 0] = 1.0
        return out
    try:
        d = np.array(value, dtype=np.float64)
    except (TypeError, ValueError):
        d = np.zeros(0)
    if d.shape != (m, dim) or not np.all(np.isfinite(d)):
        raise InvalidChainError(
            f"expected {m} finite {dim}-vectors, got {describe(value)}", argument="directions"
        )
    norms = np.linalg.norm(d, axis=1)
    for i in range(m):
        if i != skip and norms[i] == 0.0:
            raise InvalidChainError(
                "expected a non-zero vector, got zeros", argument=f"directions[{i}]"
            )
    safe = np.where(norms > 0.0, norms, 1.0)
    return d / safe[:, None]
