"""The batch engine for skeletons: one tree solver, many rows of targets, every core.

:func:`geoik.batch.evaluate` hands a :class:`geoik.Skeleton` to :func:`evaluate_tree`: each row
holds one target per targeted end effector, and each row is solved from the rest pose exactly as
:func:`geoik.solve_tree` solves that mapping: the same kernel (``fabrik_tree`` or
``circles_tree``), the same closest points of out-of-reach targets, the joints off the targeted
paths carried along, and :func:`geoik.judge.judge` of every end effector with the annulus its
path from the root reaches. Tree solves record no motion, so there are no costs.
``method="auto"`` runs circles on every row, then fabrik on the rows with an end effector
neither REACHED nor CLOSEST, keeping per row the result ``solve_tree`` keeps. A skeleton with
limits is solved row by row by ``solve_tree`` itself, in this thread (its limited kernels are
not in the parallel engine).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

import numpy as np
from numba import njit

from geoik.batch.parallel import run_threads, take, threads
from geoik.checks import (
    check_flag,
    check_max_iter,
    check_memory,
    check_points,
    check_tol,
    relative_tol,
)
from geoik.errors import InvalidOptionError, InvalidTargetError, UnknownMethodError, describe
from geoik.geometry import CLOSEST, REACHED, annulus_closest, copy_into
from geoik.judge import annulus_params, judge
from geoik.rigs.skeleton import Skeleton
from geoik.rigs.tree import (
    DEFAULT_MAX_ITER,
    METHODS,
    _segments,
    _target_arrays,
    solve_tree,
    tree_scale,
)
from geoik.solvers.auto import AUTO
from geoik.solvers.circles.tree import circles_tree
from geoik.solvers.fabrik.tree import fabrik_tree

__all__ = ["TreeBatchResult", "evaluate_tree"]

CHUNK = 16
"""Rows per task."""


@dataclass(frozen=True, eq=False)
class TreeBatchResult:
    """Per-row results of :func:`geoik.batch.evaluate` on a skeleton, in the order of the rows.

    Attributes
    ----------
    effectors : the targeted end effectors, in the order of the columns.
    status : (m, k) int8 :class:`geoik.Status` values, one per row and end effector: bit for bit
        :attr:`geoik.TreeSolution.status`.
    error : (m, k) distance from each end effector to its target.
    iterations : (m,) passes (fabrik) or rounds (circles) used.
    positions : (m, joints, d) final joint positions, or None unless requested.
    tol : the tolerance used.
    max_iter : the budget used.
    solvers : the tree solvers that ran, in order (``circles`` then ``fabrik`` for ``"auto"``).
    solved_by : with ``"auto"``, (m,) int8: index into ``solvers`` of the solver whose result
        each row holds (:attr:`geoik.TreeSolution.method` of its solve); else None.
    """

    effectors: tuple[str, ...]
    status: np.ndarray
    error: np.ndarray
    iterations: np.ndarray
    positions: np.ndarray | None
    tol: float
    max_iter: int
    solvers: tuple[str, ...] = ()
    solved_by: np.ndarray | None = None

    @property
    def reached(self) -> np.ndarray:
        """(m, k) bool: the end effectors that ended REACHED."""
        return self.status == REACHED

    @property
    def all_reached(self) -> np.ndarray:
        """(m,) bool: the rows whose every targeted end effector ended REACHED."""
        return np.all(self.reached, axis=1)


def evaluate_tree(
    skeleton: Skeleton,
    targets: Any,
    method: str,
    tol: float | None,
    max_iter: int | None,
    positions: bool,
    options: Mapping[str, Any],
) -> TreeBatchResult:
    """See :func:`geoik.batch.evaluate` (a skeleton and its rows of targets)."""
    if method != AUTO and method not in METHODS:
        raise UnknownMethodError(
            f"expected {AUTO} or one of {', '.join(METHODS)} for trees, got {method!r}",
            argument="method",
        )
    if options:
        key = next(iter(options))
        raise InvalidOptionError(f"the tree solvers take no options, got {key!r}", argument=key)
    want_positions = check_flag(positions, "positions")
    _check_memory(skeleton, targets, want_positions)
    names, t = _check_rows(skeleton, targets)
    scale = tree_scale(skeleton)
    tol_ = check_tol(tol, relative_tol(scale))
    iters = check_max_iter(max_iter, DEFAULT_MAX_ITER)
    attempts = METHODS if method == AUTO else (method,)
    if skeleton.is_limited:
        out = _rows_one_by_one(skeleton, names, t, method, tol_, iters, want_positions)
    else:
        out = _rows_in_parallel(skeleton, names, t, attempts, tol_, iters, want_positions)
    status, error, used, final, solved_by = out
    return TreeBatchResult(
        effectors=names,
        status=status,
        error=error,
        iterations=used,
        positions=final if want_positions else None,
        tol=tol_,
        max_iter=iters,
        solvers=attempts,
        solved_by=solved_by if method == AUTO else None,
    )


_Rows = tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray]
"""Per row: status and error (m, k), iterations, final positions ((m, joints, d), or none
unless asked for), and the index of the attempt kept."""


def _empty_rows(sk: Skeleton, m: int, k: int, want_positions: bool) -> _Rows:
    return (
        np.empty((m, k), np.int8),
        np.empty((m, k)),
        np.empty(m, np.int64),
        np.empty((m if want_positions else 0, sk.n, sk.dim)),
        np.zeros(m, np.int8),
    )


def _rows_in_parallel(
    skeleton: Skeleton,
    names: tuple[str, ...],
    t: np.ndarray,
    attempts: tuple[str, ...],
    tol: float,
    iters: int,
    want_positions: bool,
) -> _Rows:
    """Every row by the first attempt on every core, then (auto) the rows still short by the
    next, keeping per row what :func:`geoik.solve_tree` keeps."""
    out = _solve_rows(skeleton, names, t, attempts[0], tol, iters, want_positions)
    status, error, used, final, solved_by = out
    for a, name in enumerate(attempts[1:], start=1):
        short = _short(status)
        rows = np.flatnonzero(short > 0)
        if rows.size == 0:
            break
        st, err, it, pos, _ = _solve_rows(
            skeleton, names, np.ascontiguousarray(t[rows]), name, tol, iters, want_positions
        )
        new_short = _short(st)
        better = (new_short < short[rows]) | (
            (new_short == short[rows]) & (err.sum(axis=1) < error[rows].sum(axis=1))
        )
        idx = rows[better]
        status[idx], error[idx], used[idx] = st[better], err[better], it[better]
        if want_positions:
            final[idx] = pos[better]
        solved_by[idx] = a
    return out


def _short(status: np.ndarray) -> np.ndarray:
    """Per row, the end effectors that ended neither REACHED nor CLOSEST."""
    return np.sum((status != REACHED) & (status != CLOSEST), axis=1)


def _solve_rows(
    skeleton: Skeleton,
    names: tuple[str, ...],
    t: np.ndarray,
    method: str,
    tol: float,
    iters: int,
    want_positions: bool,
) -> _Rows:
    """Every row of ``t`` by ``method``, on every core."""
    m, k = t.shape[:2]
    goals = {name: skeleton.root for name in names}  # which joints are targeted and active
    active, targeted = _target_arrays(skeleton, goals)[:2]
    segments = _segments(skeleton, active, targeted)
    eff = np.array([skeleton.index(name) for name in names], dtype=np.int64)
    reach = np.array([skeleton.reach(name) for name in names], dtype=np.float64).reshape(k, 2)
    params = np.array([annulus_params(*skeleton.reach(name)) for name in names]).reshape(k, 4)
    out = _empty_rows(skeleton, m, k, want_positions)
    status, error, used, final, _ = out
    first, scale = skeleton.rest_positions(), tree_scale(skeleton)
    counter = np.zeros(1, np.int64)

    tree = (skeleton.parents, skeleton.lengths, skeleton.order, active, targeted, eff)
    job = (t, first, reach, skeleton.root, params, tol, iters, scale)
    rows = (status, error, used, final)

    def work() -> None:
        _engine(method == "fabrik", tree, segments, job, counter, rows)

    run_threads(work, min(threads(), -(-m // CHUNK)))
    return out


def _rows_one_by_one(
    skeleton: Skeleton,
    names: tuple[str, ...],
    t: np.ndarray,
    method: str,
    tol: float,
    iters: int,
    want_positions: bool,
) -> _Rows:
    """A skeleton with limits: each row by :func:`geoik.solve_tree` itself (its limited kernels
    place each joint within its limits), one after another in this thread."""
    m = t.shape[0]
    out = _empty_rows(skeleton, m, len(names), want_positions)
    status, error, used, final, solved_by = out
    attempts = METHODS if method == AUTO else (method,)
    for i in range(m):
        goals = dict(zip(names, t[i], strict=True))
        sol = solve_tree(skeleton, goals, method, tol=tol, max_iter=iters)
        for e, name in enumerate(names):
            status[i, e], error[i, e] = int(sol.status[name]), sol.error[name]
        used[i] = sol.iterations
        if want_positions:
            final[i] = sol.positions
        solved_by[i] = attempts.index(sol.method)
    return out


def _check_memory(sk: Skeleton, targets: Any, positions: bool) -> None:
    """Refuse rows whose results would not fit in memory (:func:`geoik.checks.check_memory`),
    before the targets are copied: per row and end effector a status (1) and an error (8) and
    two float64 copies of the target, per row the iterations and the solver (9), and the final
    positions if asked for."""
    if isinstance(targets, Mapping):
        k = len(targets)
        first = next(iter(targets.values()), None)
        shape = getattr(first, "shape", None)
        m = shape[0] if isinstance(shape, tuple) and len(shape) >= 2 else _length(first)
    else:
        k = len(sk.effector_names)
        shape = getattr(targets, "shape", None)
        m = shape[0] if isinstance(shape, tuple) and shape else _length(targets)
    if m is None:
        return
    per = k * (9 + 16 * sk.dim) + 9 + (8 * sk.n * sk.dim if positions else 0)
    check_memory(m * per, f"{m:,} rows of targets", "targets")


def _length(value: Any) -> int | None:
    try:
        return len(value)
    except TypeError:
        return None


def _check_rows(sk: Skeleton, targets: Any) -> tuple[tuple[str, ...], np.ndarray]:
    """The targeted end effectors and an (m, k, d) array of their targets: from a mapping of
    end-effector names to (m, d) arrays, or an (m, k, d) array for every end effector."""
    effectors = sk.effector_names
    if isinstance(targets, Mapping):
        if not targets:
            raise InvalidTargetError(
                "expected at least one end effector's targets, got an empty mapping",
                argument="targets",
            )
        names, columns = [], []
        for name, value in targets.items():
            if name not in effectors:
                raise InvalidTargetError(
                    f"expected end-effector names ({', '.join(effectors)}), got {name!r}",
                    argument="targets",
                )
            names.append(name)
            columns.append(check_points(value, sk.dim, f"targets[{name!r}]"))
        rows = {c.shape[0] for c in columns}
        if len(rows) > 1:
            counts = ", ".join(f"{n!r}: {c.shape[0]}" for n, c in zip(names, columns, strict=True))
            raise InvalidTargetError(
                f"expected as many rows for every end effector, got {counts}", argument="targets"
            )
        return tuple(names), np.ascontiguousarray(np.stack(columns, axis=1))
    try:
        arr = np.asarray(targets, dtype=np.float64)
    except (TypeError, ValueError):
        arr = np.zeros(0)
    shape = ("m", len(effectors), sk.dim)
    if arr.ndim != 3 or arr.shape[1:] != shape[1:]:
        raise InvalidTargetError(
            f"expected a mapping of end-effector names to (m, {sk.dim}) arrays, or an (m, "
            f"{len(effectors)}, {sk.dim}) array for the end effectors {', '.join(effectors)}, got "
            f"{describe(targets)}",
            argument="targets",
        )
    flat = check_points(arr.reshape(-1, sk.dim), sk.dim, "targets")
    return effectors, np.ascontiguousarray(flat.reshape(arr.shape))


@njit(cache=True, nogil=True)
def _engine(fabrik, tree, segments, job, counter, rows):
    """One thread's share of the rows: chunks of :data:`CHUNK` rows taken from ``counter`` (see
    :mod:`geoik.batch.parallel`) until none is left.

    ``tree`` is the skeleton (parents, lengths, order, and the active, targeted and end-effector
    joints), ``segments`` the circles solver's (``rigs.tree._segments``), ``job`` the rows'
    targets (m, k, d), the rest positions, the end effectors' reaches and judge parameters, the
    root, tol, max_iter and the tree's scale; ``rows`` the status and error (m, k), iterations
    (m,) and final positions (m, joints, d) (no rows: not wanted) it fills."""
    targets, first = job[0], job[1]
    m, _, d = targets.shape
    nj = first.shape[0]
    tasks = (m + CHUNK - 1) // CHUNK
    if tasks > 0:  # one thread's buffers, then its chunks
        flags = np.zeros(nj, dtype=np.bool_)
        bufs = (np.empty((nj, d)), np.zeros((nj, d)), flags, np.zeros((nj, d)))
        c = take(counter)
        while c < tasks:
            _chunk(fabrik, tree, segments, job, c * CHUNK, min(m, (c + 1) * CHUNK), bufs, rows)
            c = take(counter)


@njit(cache=True, nogil=True, inline="always")
def _chunk(fabrik, tree, segments, job, start, stop, bufs, rows):
    """Rows ``start`` to ``stop`` (excluded) of :func:`_engine`'s job, each solved from the
    rest positions, its joints off the targeted paths carried with their parents, and judged;
    ``bufs`` is the thread's ``(pos, tgt, has_closest, closest)``: (joints, d), (joints, d),
    (joints,) and (joints, d) scratch, the other arguments as :func:`_engine` takes them."""
    parents, lengths, order, active, targeted, eff = tree
    targets, first, reach, root, params, tol, max_iter, scale = job
    status, error, used, final = rows
    pos, tgt, has_closest, closest = bufs
    links, goal = tree[:4], (targeted, tgt, has_closest, closest)
    limits = (tol, max_iter, scale)
    k, d = targets.shape[1], targets.shape[2]
    for i in range(start, stop):
        copy_into(pos[:, :], first)
        for e in range(k):
            j = eff[e]
            t = targets[i, e]
            copy_into(tgt[j, :], t)
            # as tree._closest_point: the nearest point of the effector's annulus
            has_closest[j] = annulus_closest(t, root, reach[e, 0], reach[e, 1], closest[j])
        if fabrik:
            code, n_used = fabrik_tree(links, goal, pos, *limits)
        else:
            code, n_used = circles_tree(segments, active, goal, pos, *limits)
        for idx in range(1, first.shape[0]):  # joints off the targeted paths keep their offsets
            j = order[idx]
            if not active[j]:
                p = parents[j]
                for q in range(d):
                    pos[j, q] = pos[p, q] + (first[j, q] - first[p, q])
        for e in range(k):
            st, err = judge(targets[i, e], pos[eff[e]], code, tol, root, params[e])
            status[i, e], error[i, e] = st, err
        used[i] = n_used
        if final.shape[0] > 0:
            copy_into(final[i, :, :], pos)
