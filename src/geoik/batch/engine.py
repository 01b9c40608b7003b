"""The batch engine: one solver, many targets, both cores.

:func:`evaluate` runs a registered solver's kernel (``REGISTRY[method].kernel_2d``, the very
kernel :func:`geoik.solve` runs) from the chain's rest pose for every target of an array, in
parallel: the targets are cut into tasks (chunks of targets, each with its own buffers) that the
threads take one at a time as they become free (:func:`geoik.batch.parallel.take`), as OpenMP's
dynamic schedule does, so a thread slowed down by other work on the machine takes fewer of them.
Each target is validated, judged and costed exactly as :func:`geoik.solve` and
:func:`geoik.costs` do:

- the arguments go through :mod:`geoik.checks` and ``Solver.kernel_opts``;
- the final positions are ``geometry.fk_2d`` of the kernel's final angles and the status is
  :func:`geoik.judge.judge` of the end effector, the judge :func:`geoik.solve` ends in;
- the costs are ``motion.costs_2d`` of the kernel's recorded keyframes.

A solver that declares a lane kernel (``Solver.kernel_2d_lanes``: CCD) runs blocks of targets
through it at once instead. ``method="auto"`` runs the attempts of :func:`geoik.solvers.auto.plan`
one after the other, each on every target still short (neither REACHED nor CLOSEST, and after the
first not provably out of reach), and keeps per target what :func:`geoik.solve` keeps
(``BatchResult.solved_by`` says which attempt).

This module is the front of every batch: the checks, ``"auto"``'s attempts and the result. The
compiled engines are elsewhere, all reached through the same :func:`evaluate`: planar chains in
:mod:`geoik.batch.planar` (the one-target and the lane engine, compiled on first use for a
signature in which the kernel is a first-class function, so each is cached on disk and shared
by every solver), 3-D chains in :mod:`geoik.batch.spatial` (``kernel_3d``, ``fk_3d``,
``costs_3d``, and the 3-D lane kernel of CCD), skeletons in :mod:`geoik.batch.trees`
(``solve_tree``'s kernels, row by row) and robot arms in :mod:`geoik.batch.arms`.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np

from geoik.batch import planar, spatial
from geoik.batch.bundles import Outputs, empty_outputs
from geoik.batch.planar import COSTS_2D_ARGS as COSTS_2D_ARGS  # the planar engines' names
from geoik.batch.planar import GRID_COLUMNS as GRID_COLUMNS
from geoik.batch.planar import KERNEL_2D_ARGS as KERNEL_2D_ARGS
from geoik.batch.planar import KERNEL_2D_LANES_ARGS as KERNEL_2D_LANES_ARGS
from geoik.batch.planar import LANES as LANES
from geoik.batch.planar import TASK as TASK
from geoik.batch.trees import TreeBatchResult, evaluate_tree
from geoik.chain import Chain
from geoik.checks import (
    DEFAULT_METHOD,
    check_flag,
    check_memory,
    check_motion,
    check_points,
)
from geoik.errors import InvalidOptionError
from geoik.geometry import CLOSEST, REACHED
from geoik.rigs.skeleton import Skeleton
from geoik.robots.model import Robot
from geoik.solvers import Solver
from geoik.solvers.auto import NEARER, out_of_reach_all
from geoik.solvers.request import Request, check_request

__all__ = ["BatchResult", "TreeBatchResult", "evaluate", "evaluate_grid"]


@dataclass(frozen=True, eq=False)
class BatchResult:
    """Per-target results of :func:`evaluate`, in the order of the targets.

    Attributes
    ----------
    status : (m,) int8 :class:`geoik.Status` values (``result.status == geoik.Status.REACHED``
        compares element-wise; ``geoik.Status(result.status[i])`` is one target's status).
    iterations : (m,) int64 iterations used.
    error : (m,) float64 distance from the end effector to the target: bit for bit
        :attr:`geoik.Solution.error`, except for a solver with a lane kernel (CCD), whose
        lanes carry their end effector rather than placing it anew from the final angles, so
        that its error equals the solution's to the rounding of the end effector's coordinates
        (about 1e-14 times the chain's length).
    rotations_over_5deg : (m,) int64 number of joint rotations above 5 degrees.
    rotation_sum_deg : (m,) float64 sum of the rotation magnitudes, degrees.
    path_length : (m,) float64 length of the end effector's path.
    angles : (m, n) final relative joint angles in radians (free joints wrapped into
        (-pi, pi], as in :attr:`geoik.Solution.angles`), or None unless requested.
    tol : the tolerance used.
    max_iter : the iteration budget used (with ``"auto"``: that of its first solver).
    solvers : the solvers that ran, in order (one, unless the method was ``"auto"``).
    solved_by : with ``"auto"``, (m,) int8: index into ``solvers`` of the solver whose result
        each target holds (``geoik.Solution.method`` of its solve); else None.
    """

    status: np.ndarray
    iterations: np.ndarray
    error: np.ndarray
    rotations_over_5deg: np.ndarray
    rotation_sum_deg: np.ndarray
    path_length: np.ndarray
    angles: np.ndarray | None
    tol: float
    max_iter: int
    solvers: tuple[str, ...] = ()
    solved_by: np.ndarray | None = None

    @property
    def reached(self) -> np.ndarray:
        """(m,) bool: the targets whose status is REACHED."""
        return self.status == REACHED


def evaluate(
    chain: Chain | Skeleton | Robot,
    targets: Any,
    method: str = DEFAULT_METHOD,
    tol: float | None = None,
    max_iter: int | None = None,
    angles: bool = False,
    costs: bool = True,
    positions: bool = False,
    **options: Any,
) -> BatchResult | TreeBatchResult:
    """Solve a chain, or a skeleton, for many targets from its rest pose, in parallel.

    Parameters
    ----------
    chain : a :class:`geoik.Chain` (planar or 3-D), or a :class:`geoik.Skeleton`.
    targets : for a chain, an (m, d) array of target points. For a skeleton, one row of
        targets per solve: a mapping of end-effector names to (m, d) arrays (the end effectors
        named are targeted, the others carried along, as by :func:`geoik.solve_tree`), or an
        (m, k, d) array with a column for each of ``skeleton.effector_names``.
    method, tol, max_iter, **options : as for :func:`geoik.solve` (a skeleton:
        :func:`geoik.solve_tree`). ``"auto"`` runs the same attempts per target as ``solve``,
        each attempt on the targets still short, in parallel.
    angles : also return the final joint angles, (m, n) in 2-D or (m, n, 3) rotation vectors in
        3-D (chains).
    costs : compute the motion costs (rotation count, rotation sum, path); when False those
        arrays are zeros and the solve is faster (chains: tree solves record no motion).
    positions : also return the (m, joints, d) final joint positions (skeletons).

    Returns
    -------
    BatchResult
        For a chain, target by target what ``geoik.solve(chain, target, method, tol, max_iter,
        **options)`` and ``geoik.costs`` of it give. A target for which :func:`geoik.solve`
        raises a :class:`geoik.LimitError` (CAA when its arc would break a joint limit) is not
        an error here but a failure: STALLED after 0 iterations.
    TreeBatchResult
        For a skeleton, row by row what :func:`geoik.solve_tree` gives for that row's mapping
        (see :mod:`geoik.batch.trees`).
    ArmBatchResult
        For a :class:`geoik.Robot` arm and ``method="analytic"`` (targets (m, 3) positions,
        ``orientations=`` (m, 3, 3) or (m, 4) quaternions ``(w, x, y, z)``, ``start=``,
        ``angle_tol=``, ``redundancy=`` for a 7-joint arm; on a Dask cluster with
        ``client=``): pose by pose what :func:`geoik.solve_all` finds, its count of solutions
        and the nearest one, and with ``every=True`` every one of them (a 7-joint arm: its held
        joint searched per pose as :func:`geoik.solve` does, or held at ``redundancy``; see
        :mod:`geoik.batch.arms`).

    Raises
    ------
    geoik.GeoIKError
        A bad chain, method, target array or option, before any target is solved.

    Notes
    -----
    The targets are shared among numba's threads (``NUMBA_NUM_THREADS``, every core by default)
    in tasks that each thread takes as it becomes free; a solver with a lane kernel (CCD) runs
    blocks of :data:`LANES` targets through it at once. A target's result never depends on the
    targets beside it. Results are those of ``solve`` running compiled (its plain-Python twins,
    which it may run for its first small solves, agree to rounding).
    """
    return _evaluate(chain, targets, method, tol, max_iter, angles, costs, positions, options)


def evaluate_grid(
    chain: Chain,
    targets: Any,
    width: int,
    method: str = DEFAULT_METHOD,
    tol: float | None = None,
    max_iter: int | None = None,
    angles: bool = False,
    costs: bool = True,
    **options: Any,
) -> BatchResult | TreeBatchResult:
    """:func:`evaluate` for targets that are the rows of a grid, ``width`` targets a row (the
    pixel centres of a metric map, row by row): the same results, bit for bit. A solver with a
    lane kernel (CCD) runs them in blocks of :data:`GRID_COLUMNS` neighbouring columns by a few
    rows rather than along the rows, so that a block's lanes take similar numbers of sweeps.

    Raises
    ------
    geoik.GeoIKError
        As :func:`evaluate`; also when ``width`` is not a positive whole number of which the
        number of targets is a multiple.
    """
    if isinstance(width, bool) or not isinstance(width, int | np.integer) or width < 1:
        raise InvalidOptionError(
            f"expected a positive whole number, got {width!r}", argument="width"
        )
    return _evaluate(
        chain, targets, method, tol, max_iter, angles, costs, False, options, int(width)
    )


def _check_arm_request(max_iter: Any, angles: Any, positions: Any, width: int) -> None:
    """Refuse what a robot's batch does not take: ``max_iter``, ``angles``, ``positions`` or a
    grid ``width`` (> 0), each named in the :class:`InvalidOptionError` raised."""
    grid = width or None  # a grid is a plane of a chain's targets
    for name, value in (
        ("max_iter", max_iter),
        ("angles", angles),
        ("positions", positions),
        ("width", grid),
    ):
        if value not in (None, False):
            raise InvalidOptionError(
                f"a robot's batch returns every pose's angles and takes no {name}, got {value!r}",
                argument=name,
            )


def _check_motions(req: Request, chain: Chain) -> None:
    """Refuse a request whose attempts would record a motion too large to keep: one target's
    keyframes (rows of n angles in 2-D, n quaternions in 3-D, float64) per attempt's budget
    (:func:`geoik.checks.check_motion`)."""
    for solver, _, iters in req.attempts:
        rows = solver.capacity(chain.n, iters)
        row_bytes = 8 * chain.n * (1 if chain.dim == 2 else 4)
        check_motion(rows, row_bytes, iters, f"{solver.name!r} on {chain.n} links")


def _batch_result(
    req: Request,
    out: Outputs,
    want_angles: bool,
    want_costs: bool,
    solved_by: np.ndarray | None,
) -> BatchResult:
    """Wrap the engines' outputs of N targets as a :class:`BatchResult`.

    Parameters
    ----------
    req : Request
        The checked request (its tolerance and attempts).
    out : tuple of ndarray
        :func:`empty_outputs`' arrays, filled: status, iterations, error, rotations over 5
        degrees, rotation sum (radians), path length, each (N,), and the final angles.
    want_angles, want_costs : bool
        Whether the angles and the costs were asked for.
    solved_by : (N,) ndarray or None
        With ``method="auto"``: the index of the attempt that solved each target.
    """
    status, it, err, count, rotsum, path, final = out
    return BatchResult(
        status=status,
        iterations=it,
        error=err,
        rotations_over_5deg=count,
        rotation_sum_deg=np.degrees(rotsum) if want_costs else rotsum,
        path_length=path,
        angles=final if want_angles else None,
        tol=req.tol,
        max_iter=req.attempts[0].max_iter,
        solvers=tuple(a.solver.name for a in req.attempts),
        solved_by=solved_by,
    )


def _evaluate(
    chain: Chain | Skeleton | Robot,
    targets: Any,
    method: str,
    tol: float | None,
    max_iter: int | None,
    angles: bool,
    costs: bool,
    positions: bool,
    options: dict[str, Any],
    width: int = 0,
) -> BatchResult | TreeBatchResult:
    """:func:`evaluate`, the targets run as a grid ``width`` wide if ``width`` > 0."""
    if isinstance(chain, Robot):
        _check_arm_request(max_iter, angles, positions, width)
        from geoik.batch.arms import evaluate_arm

        return evaluate_arm(chain, targets, method, tol, options)  # type: ignore[return-value]
    if isinstance(chain, Skeleton):
        if check_flag(angles, "angles"):
            raise InvalidOptionError(
                "a skeleton's state is its joints' positions; ask for positions=True",
                argument="angles",
            )
        check_flag(costs, "costs")
        return evaluate_tree(chain, targets, method, tol, max_iter, positions, options)
    req = check_request(chain, method, tol, max_iter, options, "a geoik.Chain or a geoik.Skeleton")
    want_angles = check_flag(angles, "angles")
    want_costs = check_flag(costs, "costs")
    if check_flag(positions, "positions"):
        raise InvalidOptionError(
            "a chain's joints follow from its angles (angles=True and Chain.pose_from_angles); "
            "positions=True is for skeletons",
            argument="positions",
        )
    _check_memory(targets, chain, want_angles, req.auto)
    t = check_points(targets, chain.dim, "targets", own=False)  # the engines only read it
    if width > 0 and t.shape[0] % width != 0:
        raise InvalidOptionError(
            f"{t.shape[0]} targets are not whole rows of {width} targets each", argument="width"
        )
    if want_costs:  # each thread keeps one target's keyframes
        _check_motions(req, chain)
    out = empty_outputs(t.shape[0], chain.n, want_angles, chain.dim)
    if req.auto:
        solved_by = _run_auto(req, t, want_costs, out, width)
    else:
        solver, opts, iters = req.attempts[0]
        _run_any(solver, chain, t, req.tol, iters, opts, want_costs, out, width)
        solved_by = None
    return _batch_result(req, out, want_angles, want_costs, solved_by)


def kernels_for(
    chain: Chain | Skeleton | Robot,
    method: str = DEFAULT_METHOD,
    tol: float | None = None,
    max_iter: int | None = None,
    costs: bool = True,
    **options: Any,
) -> list[tuple[Any, Any]]:
    """What :func:`evaluate` compiles to solve ``chain`` by ``method`` (``"auto"``: every
    attempt) with these arguments: ``(function, argument types)`` pairs, for
    :func:`geoik.jit.compile_ahead`; none for a skeleton or a robot arm (their engines compile
    as they run). Raises what :func:`evaluate` raises for a bad method, option, ``tol`` or
    ``max_iter``."""
    if not isinstance(chain, Chain):
        return []
    req = check_request(chain, method, tol, max_iter, options, "a geoik.Chain or a geoik.Skeleton")
    costs = check_flag(costs, "costs")
    out: list[tuple[Any, Any]] = []
    for solver, opts, _ in req.attempts:
        if chain.dim == 2:
            out += planar.kernels(solver, np.ascontiguousarray(opts), costs)
        else:
            out += spatial.kernels(solver, np.ascontiguousarray(opts), costs)
    return out


RESULT_BYTES = 49
"""Bytes of results per target of a chain: status (1), iterations, error, rotations over 5
degrees, the rotation sum (and its degrees) and the path length (8 each)."""


def _check_memory(targets: Any, chain: Chain, angles: bool, auto: bool) -> None:
    """Refuse a batch whose results would not fit in memory (:func:`geoik.checks.check_memory`),
    before the targets are copied: the results, the angles if asked for, a float64 copy of the
    targets, and with ``"auto"`` the same again for the targets a later attempt takes."""
    m = _count(targets)
    if m is None:
        return
    per = (
        RESULT_BYTES + 8 * chain.dim + (8 * chain.n * (1 if chain.dim == 2 else 3) if angles else 0)
    )
    check_memory(m * per * (2 if auto else 1), f"{m:,} targets", "targets")


def _count(targets: Any) -> int | None:
    """How many targets ``targets`` holds, without converting it (None: not an array or a
    sequence; the checks of the targets will say so)."""
    shape = getattr(targets, "shape", None)
    if isinstance(shape, tuple):
        return int(shape[0]) if len(shape) >= 2 else 1
    try:
        return len(targets)
    except TypeError:
        return None


def _run_auto(req: Request, t: np.ndarray, costs: bool, out: Outputs, width: int = 0) -> np.ndarray:
    """``method="auto"`` target by target as :func:`geoik.solve` runs it: each attempt of
    :func:`geoik.solvers.auto.plan` on the targets no attempt has ended REACHED or CLOSEST (after
    the first, only those not provably out of reach), a target keeping the first such result or
    else its nearest one. Fills ``out``; returns the index of each target's attempt. The first
    attempt takes every target, so it may run them as the grid ``width`` wide (if > 0)."""
    chain, tol = req.chain, req.tol
    m, n = t.shape[0], chain.n
    solved_by = np.zeros(m, np.int8)
    pending = np.arange(m)
    for k, (solver, opts, iters) in enumerate(req.attempts):
        if pending.size == 0:
            break
        sub = np.ascontiguousarray(t[pending])
        part = empty_outputs(pending.size, n, out.angles.shape[0] > 0, chain.dim)
        grid = width if k == 0 else 0
        _run_any(solver, chain, sub, tol, iters, np.ascontiguousarray(opts), costs, part, grid)
        done = (part.status == REACHED) | (part.status == CLOSEST)
        if k == 0:
            keep = np.ones(pending.size, bool)
        else:
            keep = done | (part.error < out.error[pending] - NEARER * chain.total_length)
        idx = pending[keep]
        for whole, piece in zip(out, part, strict=True):
            if whole.shape[0] > 0:
                whole[idx] = piece[keep]
        solved_by[idx] = k
        pending = pending[~done]
        if k == 0:
            pending = pending[~out_of_reach_all(chain, t[pending])]
    return solved_by


def _run_any(
    solver: Solver,
    chain: Chain,
    t: np.ndarray,
    tol: float,
    iters: int,
    opts: np.ndarray,
    costs: bool,
    out: Outputs,
    width: int = 0,
) -> None:
    """Fill ``out`` by the planar engines (:mod:`geoik.batch.planar`) or the 3-D ones
    (:mod:`geoik.batch.spatial`)."""
    if chain.dim == 2:
        planar.run(solver, chain, t, tol, iters, opts, costs, out, width)
    else:
        spatial.run(solver, chain, t, tol, iters, opts, costs, out)
