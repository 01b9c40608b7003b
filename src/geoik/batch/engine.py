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

The two engines are compiled on first use (not at import) for an explicit signature in which
the kernel is a first-class function, so each compiled engine is cached on disk and shared by
every solver.

This module holds the planar engines; 3-D chains go to :mod:`geoik.batch.spatial` (``kernel_3d``,
``fk_3d``, ``costs_3d``, and the 3-D lane kernel of CCD) and skeletons to
:mod:`geoik.batch.trees` (``solve_tree``'s kernels, row by row), through the same
:func:`evaluate`.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass
from typing import Any

import numpy as np
from numba import njit, types

from geoik.batch import spatial
from geoik.batch.bundles import (
    CHAIN_2D,
    LANE_OUTPUTS,
    Job,
    Outputs,
    empty_outputs,
    job_type,
    outputs_type,
)
from geoik.batch.costs import cost_function, no_costs
from geoik.batch.parallel import run_threads, take, threads
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
from geoik.geometry import CLOSEST, REACHED, copy_into, fk_2d, wrap_free_joints
from geoik.judge import judge, judge_params, judge_xyz
from geoik.motion import costs_2d
from geoik.rigs.skeleton import Skeleton
from geoik.robots.model import Robot
from geoik.solvers import Solver
from geoik.solvers.auto import NEARER, out_of_reach_all
from geoik.solvers.request import Request, check_request
from geoik.state import rest_state

__all__ = ["BatchResult", "TreeBatchResult", "evaluate", "evaluate_grid"]

_A1 = types.Array(types.float64, 1, "C")
_A2 = types.Array(types.float64, 2, "C")
_A3 = types.Array(types.float64, 3, "C")
_MODEL = types.Array(types.float64, 1, "C", readonly=True)  # a chain's arrays are read-only
_I64 = types.Array(types.int64, 1, "C")
KERNEL_2D_ARGS = (CHAIN_2D, _A1, _A1, types.float64, types.int64, _A1, _A2)
"""Argument types every 2-D kernel is compiled for when the batch engine calls it: those
:func:`geoik.solve` calls it with (the chain's ``kernel_arrays``, target (2,), angles (n,), tol,
max_iter, opts, rec (cap, n)), so both share one compiled kernel."""
KERNEL_2D_LANES_ARGS = (
    CHAIN_2D,
    _A2,
    _A2,
    types.float64,
    types.int64,
    _A1,
    _A3,
    LANE_OUTPUTS,
    types.boolean,
)
"""Argument types of a lane kernel (``Solver.kernel_2d_lanes``, see
``geoik.solvers.ccd.lanes.ccd_2d_lanes``): the chain's ``kernel_arrays``, targets (K, 2), angles
(K, n), tol, max_iter, opts, rec (K, cap, n), the outputs
(:data:`~geoik.batch.bundles.LANE_OUTPUTS`: keyframes used, status, iterations (K,) and the final
end effector (K, 2)) and whether to write the final angles."""
COSTS_2D_ARGS = (_MODEL, _MODEL, _A2, types.int64)
"""Argument types ``motion.costs_2d`` is compiled for when the engines call it: the chain's
lengths and base, a target's keyframes (cap, n) and how many of them are used."""
_COSTS_2D = types.FunctionType(
    types.Tuple((types.int64, types.float64, types.float64))(*COSTS_2D_ARGS)
)
# the engines: the kernel, the cost function (``motion.costs_2d``, or ``costs.no_costs`` when no
# costs are wanted, so that an engine asked for none compiles none), the chain's kernel_arrays,
# the Job, the chunk (one-target engine) or the lanes, grid width and targets per task (lane
# engine), the counter the threads take tasks from, and the Outputs to fill
_ENGINE_SIG = types.void(
    types.FunctionType(types.UniTuple(types.int64, 3)(*KERNEL_2D_ARGS)),
    _COSTS_2D,
    CHAIN_2D,
    job_type(2),
    types.int64,
    _I64,
    outputs_type(2),
)
_LANE_ENGINE_SIG = types.void(
    types.FunctionType(types.none(*KERNEL_2D_LANES_ARGS)),
    _COSTS_2D,
    CHAIN_2D,
    job_type(2),
    types.int64,
    types.int64,
    types.int64,
    _I64,
    outputs_type(2),
)
TASK = 2048
"""Targets per task of the lane engine when no keyframes are recorded."""
LANES = 256
"""Targets per block of the lane engine (fewer when costs are wanted, see :func:`_lanes`). Each
lane loop of the kernel has a fixed cost per call (its set-up and LLVM's checks that the rows it
reads and writes do not overlap), so longer blocks spend less of a sweep on it; on the reference
CCD map 256 lanes ran 8 % faster than 128, although a block runs as many sweeps as its slowest
lane. The work array (about 90 KiB for 5 links) stays in L2."""
GRID_COLUMNS = 16
"""On a grid of targets (:func:`evaluate_grid`), a block of the lane engine is this many columns
wide and ``LANES // GRID_COLUMNS`` rows high: neighbouring pixels take similar numbers of
sweeps, and a block runs as many sweeps as its slowest lane, so compact blocks waste fewer (on
the reference CCD map 16 x 16 blocks leave 8 % of the lane sweeps idle, blocks of one row 29 %)."""


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


@njit(cache=True, nogil=True)
def _engine(kernel, cost_fn, model, job, chunk, counter, out):
    """One thread's share of the work: tasks of ``chunk`` targets, taken from ``counter`` (see
    :mod:`geoik.batch.parallel`) until none is left.

    ``model`` is the chain's ``kernel_arrays`` (lengths, base, lo, hi), ``job`` a
    :class:`~geoik.batch.bundles.Job` and ``out`` its :class:`~geoik.batch.bundles.Outputs`."""
    m = job.targets.shape[0]
    tasks = (m + chunk - 1) // chunk
    c = take(counter)
    while c < tasks:
        _task(kernel, cost_fn, model, job, c * chunk, min(m, (c + 1) * chunk), out)
        c = take(counter)


@njit(cache=True)
def _task(kernel, cost_fn, model, job, i0, i1, out):
    """Targets ``i0:i1`` one by one through a one-target kernel, with buffers of their own."""
    lengths, base, lo, hi = model
    targets, start, tol, max_iter, opts, cap, params, want_costs = job
    status, iters, error, count, rotsum, path, angles = out
    n = lengths.shape[0]
    rec = np.empty((cap, n))
    ang = np.empty(n)
    t = np.empty(2)
    pos = np.empty((n + 1, 2))
    for i in range(i0, i1):
        copy_into(ang[:], start)
        copy_into(rec[0, :], start)
        t[0], t[1] = targets[i, 0], targets[i, 1]
        code, used, nrec = kernel(model, t, ang, tol, max_iter, opts, rec)
        fk_2d(lengths, base, ang, pos)
        st, err = judge(t, pos[n], code, tol, base, params)
        status[i] = st
        iters[i] = used
        error[i] = err
        if want_costs:
            k, total, p = cost_fn(lengths, base, rec, max(nrec, 1))
            count[i], rotsum[i], path[i] = k, total, p
        if angles.shape[0] > 0:
            wrap_free_joints(ang, lo, hi, angles[i])


@njit(cache=True)
def _lane_task(kernel, cost_fn, model, job, lanes, width, i0, i1, out):
    """Targets ``i0:i1`` through the lane kernel, ``lanes`` at a time: consecutive targets, or
    with ``width`` > 0 (the targets a grid's rows, ``width`` a row, and ``i0:i1`` whole rows)
    blocks of up to :data:`GRID_COLUMNS` columns by ``lanes // GRID_COLUMNS`` rows. A block short
    of ``lanes`` targets is padded with copies of its last one, whose results are dropped."""
    n = model[0].shape[0]
    buffers = (
        np.empty((lanes, 2)),  # the targets of the block
        np.empty((lanes, n)),  # their angles
        np.empty((lanes, job.cap if job.costs else 1, n)),  # their keyframes
        np.empty((3, lanes), np.int64),  # keyframes used, kernel status, iterations
        np.empty((lanes, 2)),  # the end effectors
    )
    idx = np.empty(lanes, np.int64)  # the target in each lane
    if width > 0:
        wide = min(GRID_COLUMNS, lanes)
        r0, rows = i0 // width, (i1 - i0) // width
        for c0 in range(0, width, wide):
            cols = min(wide, width - c0)
            for q in range(lanes):
                k = min(q, rows * cols - 1)
                idx[q] = (r0 + k // cols) * width + c0 + k % cols
            _lane_block(kernel, cost_fn, model, job, idx, rows * cols, buffers, out)
        return
    for b0 in range(i0, i1, lanes):
        for q in range(lanes):
            idx[q] = min(b0 + q, i1 - 1)
        _lane_block(kernel, cost_fn, model, job, idx, min(lanes, i1 - b0), buffers, out)


@njit(cache=True)
def _lane_block(kernel, cost_fn, model, job, idx, used, buffers, out):
    """The targets ``idx`` (the first ``used`` of them wanted) through one call of the lane
    kernel, judged by the end effector it returns, their results written; ``buffers`` are the
    block's targets, angles, keyframes, kernel outputs and end effectors (see
    :func:`_lane_task`)."""
    lengths, base, lo, hi = model
    targets, start, tol, max_iter, opts, _, params, want_costs = job
    status, iters, error, count, rotsum, path, angles = out
    t, ang, rec, info, end = buffers
    lanes, n = idx.shape[0], start.shape[0]
    final = angles.shape[0] > 0
    for b in range(lanes):
        i = idx[b]
        t[b, 0], t[b, 1] = targets[i, 0], targets[i, 1]
        for j in range(n):
            ang[b, j] = start[j]
        if want_costs:  # the first keyframe, which the kernel reads only when recording
            for j in range(n):
                rec[b, 0, j] = start[j]
    kernel(model, t, ang, tol, max_iter, opts, rec, (info[0], info[1], info[2], end), final)
    # params as a tuple: the inlined judge would otherwise count references to the array, which
    # every thread shares, on every target
    radii = (params[0], params[1], params[2], params[3])
    for b in range(used):
        i = idx[b]
        st, err = judge_xyz(
            t[b, 0],
            t[b, 1],
            0.0,
            end[b, 0],
            end[b, 1],
            0.0,
            info[1, b],
            tol,
            base[0],
            base[1],
            0.0,
            radii,
        )
        status[i], iters[i], error[i] = st, info[2, b], err
        if want_costs:
            count[i], rotsum[i], path[i] = cost_fn(lengths, base, rec[b], info[0, b])
        if final:
            wrap_free_joints(ang[b], lo, hi, angles[i])


@njit(cache=True, nogil=True)
def _lane_engine(kernel, cost_fn, model, job, lanes, width, per, counter, out):
    """:func:`_engine` for a solver with a lane kernel: tasks of ``per`` targets (whole rows of
    a grid ``width`` wide, if ``width`` > 0), ``lanes`` of them in flight at once, judged by the
    end effector the kernel returns (the error is that of the kernel's pose). Threads take tasks
    one at a time from ``counter`` (:func:`geoik.batch.parallel.take`)."""
    m = job.targets.shape[0]
    tasks = (m + per - 1) // per
    c = take(counter)
    while c < tasks:
        i0 = c * per
        _lane_task(kernel, cost_fn, model, job, lanes, width, i0, min(m, i0 + per), out)
        c = take(counter)


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
        ``angle_tol=``; on a Dask cluster with ``client=``): pose by pose what
        :func:`geoik.solve_all` finds, its count of solutions and the nearest one (see
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
    """Fill ``out`` by the planar engines here or the 3-D ones of :mod:`geoik.batch.spatial`."""
    if chain.dim == 2:
        _run(solver, chain, t, tol, iters, opts, costs, out, width)
    else:
        spatial.run(solver, chain, t, tol, iters, opts, costs, out)


def _run(
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
    """Fill ``out`` by the solver's lane kernel or its one-target kernel (``width``: see
    :func:`evaluate_grid`)."""
    m, n = t.shape[0], chain.n
    cap = solver.capacity(n, iters) if costs else 1
    start = np.ascontiguousarray(rest_state(chain))
    job = Job(t, start, float(tol), int(iters), opts, int(cap), judge_params(chain), bool(costs))
    model = chain.kernel_arrays
    cost_fn = cost_function(costs_2d if costs else no_costs, COSTS_2D_ARGS)
    counter = np.zeros(1, np.int64)
    if solver.kernel_2d_lanes is not None:
        engine, kernel = _lane_engine_for(solver.kernel_2d_lanes)
        lanes = _lanes(costs, cap, n)
        per = lanes * max(1, TASK // lanes)
        if width > 0:  # a band of rows per task, blocks of GRID_COLUMNS columns
            per = max(1, lanes // min(GRID_COLUMNS, lanes)) * width

        def lane_work() -> None:
            engine(kernel, cost_fn, model, job, lanes, width, per, counter, out)

        run_threads(lane_work, min(threads(), -(-m // per)))
        return
    engine, kernel = _engine_for(solver.kernel_2d)
    size = max(1, min(256, -(-m // 64)))  # chunk of targets per task

    def work() -> None:
        engine(kernel, cost_fn, model, job, size, counter, out)

    run_threads(work, min(threads(), -(-m // size)))


def _lanes(costs: bool, cap: int, n: int) -> int:
    """Targets per call of a lane kernel: :data:`LANES`, fewer when keyframes are recorded so
    that the keyframe buffer stays within about 256 KiB."""
    return LANES if not costs else max(1, min(LANES, (1 << 15) // (cap * n)))


@functools.cache
def _engine_for(kernel: Any) -> tuple[Any, Any]:
    """The one-target engine and ``kernel``, both compiled for the engine's signature (on first
    use; numba caches both on disk)."""
    kernel.compile(KERNEL_2D_ARGS)
    _compile_once(_engine, _ENGINE_SIG)
    return _engine, kernel


@functools.cache
def _lane_engine_for(kernel: Any) -> tuple[Any, Any]:
    """The lane engine and the lane ``kernel``, compiled for their signatures on first use."""
    kernel.compile(KERNEL_2D_LANES_ARGS)
    _compile_once(_lane_engine, _LANE_ENGINE_SIG)
    return _lane_engine, kernel


def _compile_once(engine: Any, signature: Any) -> None:
    """Compile ``engine`` for ``signature`` and for nothing else: every kernel, whatever its
    own type, is then passed as the first-class function type of the signature."""
    if not engine.signatures:
        engine.compile(signature)
        engine.disable_compile()
