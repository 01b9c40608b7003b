"""The batch engine of robot arms: every solution of many poses, by the analytic solver.

``geoik.batch.evaluate(robot, positions, "analytic", orientations=...)`` runs the very kernel
:func:`geoik.solve_all` runs (:mod:`geoik.solvers.analytic`, the six-joint families or the
four- and five-joint one) over every pose in one compiled engine per thread
(:mod:`geoik.batch.parallel`), and keeps per pose the number of solutions within the limits
and the one nearest the start (or, as :func:`geoik.solve_all` orders them, the nearest
orientation, the exact solution outside the limits, the least-squares candidate), with its
errors and the status; with ``every=True``, every exact solution within the limits too.

A 7-joint arm (one joint held, :mod:`geoik.solvers.analytic.redundant`) runs its kernel the
same way: per pose, the held joint searched for the solution nearest the start, as
:func:`geoik.solve` does (``redundancy=None``), or held at a given value, as
``geoik.solve_all(..., redundancy=v)`` does; the count is that of the solutions within the
limits at the held value used.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, replace
from typing import Any

import numpy as np
from numba import njit, types

from geoik.batch.parallel import compiled, run_threads, take, threads
from geoik.checks import (
    check_angle_tol,
    check_flag,
    check_int,
    check_memory,
    check_points,
    check_tol,
)
from geoik.errors import (
    ClusterError,
    DaskMissingError,
    GeoIKError,
    InvalidOptionError,
    InvalidTargetError,
    UnsupportedChainError,
    describe,
)
from geoik.geometry import copy_into
from geoik.robots.analytic import (
    EXACT_TOL,
    _held_model,
    _plan,
    _redundancy,
    analytic_model,
    is_short,
    kernel_of,
)
from geoik.robots.model import Robot
from geoik.solvers.analytic.families import MAX_SOLUTIONS
from geoik.solvers.analytic.five import NEAREST_ORIENTATION
from geoik.solvers.analytic.redundant import held_solutions

__all__ = ["ArmBatchResult", "evaluate_arm"]

RESULT_BYTES = 1 + 8 + 8 + 8
"""Bytes of results per pose beside the angles: status, count, the two errors."""


@dataclass(frozen=True, eq=False)
class ArmBatchResult:
    """What :func:`geoik.batch.evaluate` gives for a robot arm, pose by pose.

    Attributes
    ----------
    status : (m,) int8 codes of :class:`geoik.robots.analytic.SetStatus` (SOLVED 0,
        OUTSIDE_LIMITS 1, OUT_OF_REACH 2, NEAREST_ORIENTATION 3), as
        :func:`geoik.solve_all` says of that pose.
    count : (m,) how many exact solutions lie within the joint limits (a 7-joint arm: at the
        held joint's value in ``angles``).
    angles : (m, n) joint values (radians, the order of ``robot.joint_names``): the exact
        solution nearest the start; else the position with the nearest orientation (arms of
        four or five joints); else the exact solution outside the limits; else the
        least-squares candidate nearest the pose.
    error : (m,) the position error of ``angles`` (metres).
    angle_error : (m,) its angle error (radians).
    solutions : with ``every=True``, (m, k, n): pose ``i``'s ``count[i]`` exact solutions
        within the limits, as :func:`geoik.solve_all` orders them (nearest the start first),
        then NaN rows up to ``k``, the largest count of any pose; None without ``every``.
    """

    status: np.ndarray
    count: np.ndarray
    angles: np.ndarray
    error: np.ndarray
    angle_error: np.ndarray
    solutions: np.ndarray | None = None

    def __len__(self) -> int:
        return int(self.status.shape[0])

    @property
    def solved(self) -> np.ndarray:
        """(m,) whether the pose has an exact solution within the limits."""
        return self.status == 0


_MODEL = types.Array(types.float64, 1, "C", readonly=True)
_A1 = types.Array(types.float64, 1, "C")
_A2 = types.Array(types.float64, 2, "C")
_A3 = types.Array(types.float64, 3, "C")
KERNEL_ARGS = (_MODEL, _A2, _A1, _A1, types.float64, types.float64, _A2)
"""Argument types of an arm's kernel (``all_solutions`` of six joints,
``all_solutions_short`` of four or five): those :func:`geoik.solve_all` calls it with, so
that both share one compiled kernel."""
_I1 = types.Array(types.int64, 1, "C")
_ROWS = types.Tuple((types.Array(types.int8, 1, "C"), _I1, _A2, _A1, _A1, _A3))
"""The engines' outputs: status, count, angles, error, angle_error, every solution (see
:func:`_engine`)."""
_ENGINE_SIG = types.void(
    types.FunctionType(types.UniTuple(types.int64, 3)(*KERNEL_ARGS)),
    _MODEL,
    types.Tuple((_A2, _A3, _A1)),
    types.UniTuple(types.float64, 2),
    types.int64,
    _I1,
    _ROWS,
)


@njit(nogil=True, cache=True)
def _engine(kernel, model, job, tols, chunk, counter, rows):
    """One thread's share: tasks of ``chunk`` poses taken from ``counter`` until none is left;
    each pose one call of the arm's ``kernel`` (a first-class function, so that the engine is
    compiled once for every kernel), its first row kept.

    ``job`` is ``(targets, rots, start)``: (m, 3) positions (metres), (m, 3, 3) rotations and
    the (n,) start (radians); ``tols`` ``(tol, angle_tol)`` (metres, radians); ``rows`` the
    outputs ``(status, count, angles, error, angle_error, every)``, (m,), (m,), (m, n), (m,),
    (m,) and (m, k, n), or (0, k, n) when every solution is not wanted."""
    targets, rots, start = job
    tol, angle_tol = tols
    m = targets.shape[0]
    out = np.empty((MAX_SOLUTIONS, rows[2].shape[1] + 3))
    # this thread's own copies: a view of an array the threads share (each pose's goal, the
    # model's parts the kernel takes) counts references on that array, an atomic operation
    # on memory every thread writes, which made two threads wait on each other
    own, goal, point = model.copy(), np.empty((3, 3)), np.empty(3)
    tasks = (m + chunk - 1) // chunk
    c = take(counter)
    while c < tasks:
        for i in range(c * chunk, min(m, (c + 1) * chunk)):
            _own_goal(targets, rots, i, point, goal)
            sizes = kernel(own, goal, point, start, tol, angle_tol, out)
            _keep(i, sizes, out, start, rows)
        c = take(counter)


@njit(cache=True, inline="always")
def _own_goal(targets, rots, i, point, goal):
    """Pose ``i``'s position and rotation copied into this thread's ``point`` (3,) and
    ``goal`` (3, 3), value by value (no view of the shared arrays)."""
    for r in range(3):
        point[r] = targets[i, r]
        for k in range(3):
            goal[r, k] = rots[i, r, k]


@njit(cache=True, inline="always")
def _keep(i, sizes, out, start, rows):
    """Pose ``i``'s result into ``rows`` (see :func:`_engine`) from its kernel's group
    ``sizes`` and first row of ``out``: with no candidate at all (the searched six-joint
    family, or a 7-joint arm's search that met none), OUT_OF_REACH at the start."""
    status, count, angles, error, angle_error, every = rows
    a, b, d = sizes[0], sizes[1], sizes[2]
    n = angles.shape[1]
    nearest = a > 0 and int(out[0, n]) & NEAREST_ORIENTATION != 0
    exact = 0 if nearest else min(a, out.shape[0])
    if every.shape[0] > 0:  # every exact solution within the limits, then NaN rows
        for r in range(every.shape[1]):
            for j in range(n):
                every[i, r, j] = out[r, j] if r < exact else np.nan
    if a + b + d <= 0:
        status[i] = 2
        count[i] = 0
        copy_into(angles[i], start)
        error[i] = np.inf
        angle_error[i] = np.inf
        return
    status[i] = 3 if nearest else 0 if a else 1 if b else 2
    count[i] = 0 if nearest else a
    copy_into(angles[i], out[0, :n])
    error[i] = out[0, n + 1]
    angle_error[i] = out[0, n + 2]


HELD_ARGS = (_MODEL, _MODEL, _A2, _A1, _A1, types.float64, types.float64, types.float64, _A2)
"""Argument types of a 7-joint arm's kernel (:func:`.redundant.held_solutions`): those
:func:`geoik.solve` and :func:`geoik.solve_all` call it with, so that all share one compiled
kernel."""
_HELD_SIG = types.void(
    types.FunctionType(
        types.Tuple((types.int64, types.int64, types.int64, types.float64))(*HELD_ARGS)
    ),
    types.UniTuple(_MODEL, 2),
    types.Tuple((_A2, _A3, _A1)),
    types.UniTuple(types.float64, 3),
    types.int64,
    _I1,
    _ROWS,
)


@njit(nogil=True, cache=True)
def _held_engine(kernel, arm, job, tols, chunk, counter, rows):
    """:func:`_engine` for a 7-joint arm: ``kernel`` is :func:`.redundant.held_solutions`
    (a first-class function, so that a changed kernel is never run through a stale engine),
    ``arm`` its ``(model, held)``, ``tols`` ``(tol, angle_tol, value)``: the held joint's value
    (radians), NaN to search it per pose for the solution nearest the start."""
    model, held = arm
    targets, rots, start = job
    tol, angle_tol, value = tols
    m = targets.shape[0]
    out = np.empty((MAX_SOLUTIONS, rows[2].shape[1] + 3))
    own, own_held, goal, point = model.copy(), held.copy(), np.empty((3, 3)), np.empty(3)
    tasks = (m + chunk - 1) // chunk
    c = take(counter)
    while c < tasks:
        for i in range(c * chunk, min(m, (c + 1) * chunk)):
            _own_goal(targets, rots, i, point, goal)
            sizes = kernel(own, own_held, goal, point, start, tol, angle_tol, value, out)
            _keep(i, sizes, out, start, rows)
        c = take(counter)


def evaluate_arm(
    robot: Robot, targets: Any, method: str, tol: float | None, options: dict[str, Any]
) -> ArmBatchResult:
    """:func:`geoik.batch.evaluate` for a :class:`geoik.Robot`: ``targets`` (m, 3) positions
    (metres); ``options``: ``orientations`` (m, 3, 3) rotation matrices or (m, 4) unit
    quaternions ``(w, x, y, z)`` (required for six joints; an arm of four or five joints
    without them holds the tip's orientation at the start as near as it can), ``start`` (n,)
    joint values the solutions are chosen by (default the rest configuration), ``angle_tol``
    (radians; ``tol`` metres, both default 1e-9); ``redundancy`` (7-joint arms: the held
    joint's value in radians, as ``geoik.solve_all`` takes it; default None, searched per pose
    for the solution nearest the start, as ``geoik.solve`` does); ``client`` a
    ``dask.distributed.Client`` to solve blocks of ``block`` poses (default :data:`BLOCK`) on
    its workers; ``every`` (default False) to keep every exact solution within the limits of
    each pose too (``ArmBatchResult.solutions``)."""
    if method != "analytic":
        raise UnsupportedChainError(
            f"a geoik.Robot's batch takes method 'analytic', got {describe(method)}",
            argument="method",
        )
    known = {"orientations", "start", "angle_tol", "redundancy", "client", "block", "every"}
    extra = sorted(set(options) - known)
    if extra:
        raise InvalidOptionError(
            f"expected orientations, start, angle_tol, redundancy, client, block or every for a "
            f"robot's batch, got {extra[0]!r}",
            argument=extra[0],
        )
    every = check_flag(options.get("every", False), "every")
    plan = _plan(robot)
    m = _rows(targets)
    if m is not None:
        per = RESULT_BYTES + 8 * robot.n + 8 * 3 + 8 * 9 + (EVERY * 8 * robot.n if every else 0)
        check_memory(m * per, f"{m:,} poses", "targets")
    t = np.ascontiguousarray(check_points(targets, 3, "targets", own=False))
    m = t.shape[0]
    start = (
        robot.rest_angles()
        if options.get("start") is None
        else robot.check_angles(options["start"], "start", limits=False)
    )
    redundancy = options.get("redundancy")  # a 7-joint arm's held joint; NaN: searched
    value = math.nan if redundancy is None else _redundancy(robot, plan, redundancy, start)
    tol_ = EXACT_TOL if tol is None else check_tol(tol, 1.0)
    at = options.get("angle_tol")
    angle_tol_ = EXACT_TOL if at is None else check_angle_tol(at)
    given = options.get("orientations")
    if given is None:
        if not is_short(plan):
            raise InvalidTargetError(
                f"the analytic solver solves full poses; {robot.n} joints need orientations "
                f"((m, 3, 3) rotation matrices or (m, 4) unit quaternions), got None",
                argument="orientations",
            )
        rots = np.broadcast_to(robot.tip_frame(start)[:3, :3], (m, 3, 3))
    else:
        rots = rotations(given, m)
    rots = np.ascontiguousarray(rots)
    client = options.get("client")
    if client is not None:
        block = options.get("block")
        size = BLOCK if block is None else check_int(block, "block", 1)
        res = _on_cluster(client, robot, t, rots, start, (tol_, angle_tol_, value, every), size)
    else:
        res = solve_block(robot, t, rots, start, tol_, angle_tol_, value, every)
    if res.solutions is None:
        return res
    k = int(res.count.max(initial=0))  # the widest pose's count: the columns kept
    return replace(res, solutions=np.ascontiguousarray(res.solutions[:, :k]))


def solve_block(
    robot: Robot,
    t: np.ndarray,
    rots: np.ndarray,
    start: np.ndarray,
    tol_: float,
    angle_tol_: float,
    value: float = math.nan,
    every: bool = False,
) -> ArmBatchResult:
    """Poses ``t`` (m, 3) and ``rots`` (m, 3, 3), checked, solved here on every core;
    ``value`` a 7-joint arm's held joint (radians), NaN to search it per pose; ``every``: keep
    every exact solution within the limits (:data:`EVERY` rows a pose, NaN-padded)."""
    plan = robot.analytic_plan()
    m = t.shape[0]
    status = np.empty(m, np.int8)
    count = np.empty(m, np.int64)
    angles = np.empty((m, robot.n))
    error = np.empty(m)
    angle_error = np.empty(m)
    solutions = np.empty((m if every else 0, EVERY, robot.n))
    counter = np.zeros(1, np.int64)
    chunk = max(1, min(1024, -(-m // 64)))

    rows = (status, count, angles, error, angle_error, solutions)
    job = (t, rots, start)

    if plan.locked >= 0:
        arm = _held_model(robot, plan)
        held = compiled(held_solutions, HELD_ARGS, _held_engine, _HELD_SIG)

        def work() -> None:
            _held_engine(held, arm, job, (tol_, angle_tol_, value), chunk, counter, rows)

    else:
        model = analytic_model(robot, plan)
        kernel = compiled(kernel_of(plan), KERNEL_ARGS, _engine, _ENGINE_SIG)

        def work() -> None:
            _engine(kernel, model, job, (tol_, angle_tol_), chunk, counter, rows)

    if m:
        run_threads(work, min(threads(), -(-m // chunk)))
    return ArmBatchResult(status, count, angles, error, angle_error, solutions if every else None)


EVERY = MAX_SOLUTIONS
"""Rows a pose's solutions take in the engines with ``every=True`` (its kernel's output rows),
before the result is cut to the widest count."""
BLOCK = 250_000
"""Poses per task on a Dask cluster (``block=``)."""
RETRIES = 3


def _on_cluster(
    client: Any,
    robot: Robot,
    t: np.ndarray,
    rots: np.ndarray,
    start: np.ndarray,
    tols: tuple[float, float, float, bool],
    block: int,
) -> ArmBatchResult:
    """The poses cut into blocks of ``block`` consecutive poses, each solved on a Dask worker
    by :func:`solve_block` (``tols``: its ``tol_``, ``angle_tol_`` and ``value``; a pose's
    result depends on that pose alone, so the answer is the one this process would give),
    joined in order; a block that raised is tried again up to :data:`RETRIES` times, and one
    that still fails is a :class:`~geoik.ClusterError`."""
    try:
        import dask.distributed  # noqa: F401  (the client's futures need it)
    except ImportError:
        raise DaskMissingError(
            "a batch on a cluster needs dask.distributed; install it with pip install "
            "'geoik[dask]'",
            argument="client",
        ) from None
    m = t.shape[0]
    cuts = [(i, min(m, i + block)) for i in range(0, m, block)]
    futures = [
        client.submit(
            solve_block,
            robot,
            t[a:b],
            rots[a:b],
            start,
            *tols,
            retries=RETRIES,
            pure=False,
        )
        for a, b in cuts
    ]
    parts: list[ArmBatchResult] = []
    try:
        for (a, b), fut in zip(cuts, futures, strict=True):
            try:
                parts.append(fut.result())
            except GeoIKError:
                raise
            except Exception as e:  # KilledWorker, a lost scheduler, ...
                raise ClusterError(
                    f"poses {a}-{b - 1} of the batch failed on the cluster: "
                    f"{type(e).__name__}: {e}",
                    argument="client",
                ) from None
    finally:
        client.cancel([f for f in futures if not f.done()])
    if not parts:
        return solve_block(robot, t, rots, start, *tols)
    joined = [np.concatenate([getattr(p, k) for p in parts]) for k in _FIELDS]
    every = None if parts[0].solutions is None else np.concatenate([p.solutions for p in parts])
    return ArmBatchResult(**dict(zip(_FIELDS, joined, strict=True)), solutions=every)


_FIELDS = ("status", "count", "angles", "error", "angle_error")


def _rows(targets: Any) -> int | None:
    shape = getattr(targets, "shape", None)
    if isinstance(shape, tuple) and len(shape) >= 1:
        return int(shape[0])
    try:
        return len(targets)
    except TypeError:
        return None


_TOL = 1e-6
"""How far from orthonormal (or from length 1) an orientation may be before it is refused."""


def rotations(value: Any, m: int) -> np.ndarray:
    """``m`` orientations as an (m, 3, 3) array of rotation matrices: (m, 3, 3) matrices
    (orthonormal to 1e-6, determinant +1; those off by more than 1e-14 replaced by the
    nearest rotation) or (m, 4) unit quaternions ``(w, x, y, z)`` (length 1 to 1e-6,
    normalised), as :func:`geoik.checks.check_rotation` takes one;
    :class:`~geoik.InvalidTargetError` naming the first bad row otherwise."""
    try:
        r = np.asarray(value, dtype=np.float64)
    except (TypeError, ValueError):
        r = None
    if r is None or r.shape not in ((m, 3, 3), (m, 4)):
        got = f"an array of shape {r.shape}" if r is not None and r.ndim > 1 else describe(value)
        raise InvalidTargetError(
            f"expected ({m}, 3, 3) rotation matrices or ({m}, 4) unit quaternions (w, x, y, z),"
            f" one per target, got {got}",
            argument="orientations",
        )
    if r.shape == (m, 4):
        norm = np.sqrt(np.einsum("ij,ij->i", r, r))
        bad = ~np.isfinite(r).all(axis=1) | (np.abs(norm - 1.0) > _TOL)
        _refuse(bad, "unit quaternions (w, x, y, z)")
        w, x, y, z = (r / norm[:, None]).T
        out = np.empty((m, 3, 3))
        out[:, 0, 0] = 1 - 2 * (y * y + z * z)
        out[:, 0, 1] = 2 * (x * y - w * z)
        out[:, 0, 2] = 2 * (x * z + w * y)
        out[:, 1, 0] = 2 * (x * y + w * z)
        out[:, 1, 1] = 1 - 2 * (x * x + z * z)
        out[:, 1, 2] = 2 * (y * z - w * x)
        out[:, 2, 0] = 2 * (x * z - w * y)
        out[:, 2, 1] = 2 * (y * z + w * x)
        out[:, 2, 2] = 1 - 2 * (x * x + y * y)
        return out
    off = _defects(np.ascontiguousarray(r))  # inf: not finite, or determinant <= 0
    _refuse(~(off <= _TOL), "rotation matrices (orthonormal, determinant +1)")
    out = np.array(r)
    fix = np.flatnonzero(off > 1e-14)
    if fix.size:
        u, _, vt = np.linalg.svd(out[fix])
        out[fix] = u @ vt
    return out


@njit(cache=True)
def _defects(r):
    """Per matrix of ``r`` (m, 3, 3): the largest entry of ``|R^T R - I|``, or inf when an
    entry is not finite or the determinant is not positive. One compiled pass (NumPy's
    ``einsum`` and ``det`` took a sixth of a batch's time on two cores)."""
    m = r.shape[0]
    out = np.empty(m)
    for k in range(m):
        a = r[k]
        worst = 0.0
        for i in range(3):
            for j in range(3):
                if not abs(a[i, j]) < np.inf:  # NaN or infinite
                    worst = np.inf
        for i in range(3):
            for j in range(3):
                d = a[0, i] * a[0, j] + a[1, i] * a[1, j] + a[2, i] * a[2, j]
                worst = max(worst, abs(d - 1.0 if i == j else d))
        det = (
            a[0, 0] * (a[1, 1] * a[2, 2] - a[1, 2] * a[2, 1])
            - a[0, 1] * (a[1, 0] * a[2, 2] - a[1, 2] * a[2, 0])
            + a[0, 2] * (a[1, 0] * a[2, 1] - a[1, 1] * a[2, 0])
        )
        out[k] = worst if det > 0.0 else np.inf
    return out


def _refuse(bad: np.ndarray, what: str) -> None:
    if bad.any():
        i = int(np.flatnonzero(bad)[0])
        raise InvalidTargetError(
            f"expected {what}, got a bad one at row {i}", argument="orientations"
        )
