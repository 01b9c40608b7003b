"""Validation of :class:`geoik.skeleton.Skeleton` fields and :class:`Branch` specs, raising
:class:`geoik.errors.InvalidChainError` with messages naming the field."""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

import numpy as np

from geoik.errors import InvalidChainError, describe

if TYPE_CHECKING:
    from geoik.skeleton import Branch


def check_names(names: Any) -> tuple[str, ...]:
    if isinstance(names, str) or not isinstance(names, Sequence | np.ndarray):
        raise InvalidChainError(f"names: expected a sequence of joint names, got {describe(names)}")
    out = tuple(names)
    if not out:
        raise InvalidChainError("names: expected at least one joint, got none")
    seen: set[str] = set()
    for i, nm in enumerate(out):
        if not isinstance(nm, str) or not nm:
            raise InvalidChainError(f"names[{i}]: expected a non-empty string, got {describe(nm)}")
        if nm in seen:
            raise InvalidChainError(f"names[{i}]: expected unique names, got {nm!r} twice")
        seen.add(nm)
    return out


def check_parents(parents: Any, m: int) -> np.ndarray:
    try:
        p = np.array(parents)
    except (TypeError, ValueError):
        p = np.zeros(0)
    if p.shape != (m,) or (m and not np.issubdtype(p.dtype, np.integer)):
        raise InvalidChainError(
            f"parents: expected {m} integer parent indices (-1 for the root), got "
            f"{describe(parents)}"
        )
    p = p.astype(np.int64)
    for i, v in enumerate(p):
        if v < -1 or v >= m or v == i:
            raise InvalidChainError(
                f"parents[{i}]: expected -1 or the index of another joint (0..{m - 1}), got {v}"
            )
    roots = np.flatnonzero(p < 0)
    if roots.size != 1:
        raise InvalidChainError(
            f"parents: expected exactly one root (parent -1), got {roots.size}: "
            f"joints {roots.tolist()}"
        )
    return p


def topological_order(parents: np.ndarray) -> np.ndarray:
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
            f"parents: expected a tree, got a cycle through joints {lost} (not joined to the root)"
        )
    return np.array(order, dtype=np.int64)


def check_lengths(lengths: Any, parents: np.ndarray) -> np.ndarray:
    try:
        ls = np.array(lengths, dtype=np.float64)
    except (TypeError, ValueError):
        ls = np.zeros(0)
    if ls.shape != parents.shape:
        raise InvalidChainError(
            f"lengths: expected {parents.size} link lengths (0 for the root), got "
            f"{describe(lengths)}"
        )
    for i, v in enumerate(ls):
        if parents[i] < 0:
            if v != 0.0:
                raise InvalidChainError(f"lengths[{i}]: expected 0 for the root, got {v!r}")
        elif not (math.isfinite(v) and v > 0.0):
            raise InvalidChainError(f"lengths[{i}]: expected a finite length > 0, got {v!r}")
    return ls


def check_effectors(effectors: Any, children: np.ndarray, names: tuple[str, ...]) -> np.ndarray:
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
            f"effectors: expected {leaves.size} booleans, got {describe(effectors)}"
        )
    bad = np.flatnonzero(e & ~leaves)
    if bad.size:
        raise InvalidChainError(
            f"effectors: expected end effectors at leaves (not the root), got "
            f"{names[int(bad[0])]!r}, a joint with children"
        )
    return e


def check_point(value: Any, dim: int) -> np.ndarray:
    if value is None:
        return np.zeros(dim)
    try:
        p = np.array(value, dtype=np.float64)
    except (TypeError, ValueError):
        p = np.zeros(0)
    if p.shape != (dim,) or not np.all(np.isfinite(p)):
        raise InvalidChainError(f"root: expected {dim} finite coordinates, got {describe(value)}")
    return p


def check_directions(value: Any, m: int, dim: int, skip: int = -1) -> np.ndarray:
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
            f"directions: expected {m} finite {dim}-vectors, got {describe(value)}"
        )
    norms = np.linalg.norm(d, axis=1)
    for i in range(m):
        if i != skip and norms[i] == 0.0:
            raise InvalidChainError(f"directions[{i}]: expected a non-zero vector, got zeros")
    safe = np.where(norms > 0.0, norms, 1.0)
    return d / safe[:, None]


def as_branch(item: Any, b: int) -> Branch:
    from geoik.skeleton import Branch

    if isinstance(item, Branch):
        return item
    if isinstance(item, tuple) and 2 <= len(item) <= 5:
        return Branch(*item)
    raise InvalidChainError(
        f"chains[{b}]: expected a Branch or a tuple (name, lengths[, parent[, direction"
        f"[, joints]]]), got {describe(item)}"
    )


def branch_joints(br: Branch, k: int, b: int) -> list[str]:
    if not isinstance(br.name, str) or not br.name:
        raise InvalidChainError(f"chains[{b}].name: expected a non-empty string, got {br.name!r}")
    if k == 0:
        raise InvalidChainError(f"chains[{b}].lengths: expected at least one link, got none")
    if br.joints is None:
        return [f"{br.name}_{i}" for i in range(1, k)] + [br.name]
    joints = list(br.joints)
    if len(joints) != k:
        raise InvalidChainError(
            f"chains[{b}].joints: expected {k} names (one per link), got {describe(br.joints)}"
        )
    return joints
