"""The batch engine's planar half: one solver, many targets, a planar chain, every core.

:func:`run` fills the outputs of :func:`geoik.batch.evaluate` for a 2-D chain. Its two engines
are compiled on first use (not at import) for an explicit signature in which the kernel is a
first-class function, so each compiled engine is cached on disk and shared by every solver:

- :func:`_engine` runs ``Solver.kernel_2d`` (the very kernel :func:`geoik.solve` runs) target by
  target, places the final positions by ``geometry.fk_2d``, judges the end effector by
  :func:`geoik.judge.judge` and costs the recorded keyframes by ``motion.costs_2d``;
- :func:`_lane_engine` runs a solver's lane kernel (``Solver.kernel_2d_lanes``: CCD) on blocks of
  targets at once, judged by the end effector each lane returns; on a grid
  (:func:`geoik.batch.evaluate_grid`) its blocks are compact rectangles of neighbouring pixels.

The targets are cut into tasks that the threads take one at a time as they become free
(:func:`geoik.batch.parallel.take`). The front of every batch (checks, ``method="auto"``, the
result) is :mod:`geoik.batch.engine`; 3-D chains run in :mod:`geoik.batch.spatial`.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from numba import njit, types

from geoik.batch.bundles import CHAIN_2D, LANE_OUTPUTS, Job, Outputs, job_type, outputs_type
from geoik.batch.costs import cost_function, no_costs
from geoik.batch.parallel import compiled, run_threads, take, threads
from geoik.chain import Chain
from geoik.geometry import copy_into, fk_2d, wrap_free_joints
from geoik.judge import judge, judge_params, judge_xyz
from geoik.motion import costs_2d
from geoik.solvers import Solver
from geoik.state import rest_state

__all__ = [
    "COSTS_2D_ARGS",
    "GRID_COLUMNS",
    "KERNEL_2D_ARGS",
    "KERNEL_2D_LANES_ARGS",
    "LANES",
    "TASK",
    "run",
]

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
"""On a grid of targets (:func:`~geoik.batch.evaluate_grid`), a block of the lane engine is
this many columns wide and ``LANES // GRID_COLUMNS`` rows high: neighbouring pixels take similar
numbers of sweeps, and a block runs as many sweeps as its slowest lane, so compact blocks waste
fewer (on the reference CCD map 16 x 16 blocks leave 8 % of the lane sweeps idle, blocks of one
row 29 %)."""


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


@njit(cache=True, inline="always")
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


@njit(cache=True, inline="always")
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
    wide = min(GRID_COLUMNS, lanes)
    r0, rows = (i0 // width, (i1 - i0) // width) if width > 0 else (0, 0)
    blocks = (width + wide - 1) // wide if width > 0 else (i1 - i0 + lanes - 1) // lanes
    for blk in range(blocks):
        if width > 0:
            c0 = blk * wide
            cols = min(wide, width - c0)
            used = rows * cols
            for q in range(lanes):
                k = min(q, used - 1)
                idx[q] = (r0 + k // cols) * width + c0 + k % cols
        else:
            b0 = i0 + blk * lanes
            used = min(lanes, i1 - b0)
            for q in range(lanes):
                idx[q] = min(b0 + q, i1 - 1)
        _lane_block(kernel, cost_fn, model, job, idx, used, buffers, out)


@njit(cache=True, inline="always")
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
            (t[b, 0], t[b, 1], 0.0),
            (end[b, 0], end[b, 1], 0.0),
            info[1, b],
            tol,
            (base[0], base[1], 0.0),
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


def run(
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
    :func:`~geoik.batch.evaluate_grid`)."""
    m, n = t.shape[0], chain.n
    cap = solver.capacity(n, iters) if costs else 1
    start = np.ascontiguousarray(rest_state(chain))
    job = Job(t, start, float(tol), int(iters), opts, int(cap), judge_params(chain), bool(costs))
    model = chain.kernel_arrays
    (kernel, kernel_types), cost, (engine, signature) = kernels(solver, opts, costs)
    kernel = compiled(kernel, kernel_types, engine, signature)
    cost_fn = cost_function(*cost)
    counter = np.zeros(1, np.int64)
    if engine is _lane_engine:
        lanes = _lanes(costs, cap, n)
        per = lanes * max(1, TASK // lanes)
        if width > 0:  # a band of rows per task, blocks of GRID_COLUMNS columns
            per = max(1, lanes // min(GRID_COLUMNS, lanes)) * width

        def lane_work() -> None:
            engine(kernel, cost_fn, model, job, lanes, width, per, counter, out)

        run_threads(lane_work, min(threads(), -(-m // per)))
        return
    size = max(1, min(256, -(-m // 64)))  # chunk of targets per task

    def work() -> None:
        engine(kernel, cost_fn, model, job, size, counter, out)

    run_threads(work, min(threads(), -(-m // size)))


def kernels(solver: Solver, opts: np.ndarray, costs: bool) -> list[tuple[Any, Any]]:
    """What :func:`run` runs for ``solver`` with ``opts`` (and ``costs`` or not), and
    :func:`geoik.jit.compile_ahead` compiles: ``(function, argument types)`` pairs, the
    solver's kernel (its lane kernel where it has one for ``opts``), the cost function, then
    the engine."""
    cost = (costs_2d if costs else no_costs, COSTS_2D_ARGS)
    lanes_kernel = solver.lane_kernel_2d(opts)
    if lanes_kernel is not None:
        lanes = (lanes_kernel, KERNEL_2D_LANES_ARGS)
        return [lanes, cost, (_lane_engine, _LANE_ENGINE_SIG)]
    return [(solver.kernel_2d, KERNEL_2D_ARGS), cost, (_engine, _ENGINE_SIG)]


def _lanes(costs: bool, cap: int, n: int) -> int:
    """Targets per call of a lane kernel: :data:`LANES`, fewer when keyframes are recorded so
    that the keyframe buffer stays within about 256 KiB."""
    return LANES if not costs else max(1, min(LANES, (1 << 15) // (cap * n)))
