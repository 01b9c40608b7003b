"""The batch engine's 3-D half: one solver, many targets, a 3-D chain, every core.

:func:`geoik.batch.evaluate` hands 3-D chains to :func:`run`, which fills the per-target arrays
exactly as :func:`geoik.solve` and :func:`geoik.costs` give them: the registered ``kernel_3d``
(the very kernel ``solve`` runs) from the chain's rest pose, ``geometry.fk_3d`` of its final
rotations, :func:`geoik.judge.judge` with ``judge_params``, ``motion.costs_3d`` of its keyframes
and the rotation vectors of :func:`geoik.geometry.rotvecs_from_quats`.

A solver that declares a 3-D lane kernel (``Solver.kernel_3d_lanes``: CCD) runs blocks of targets
through it at once; its end effector is the forward kinematics of its final rotations by the
operations of ``fk_3d``, so its results are bit for bit those of ``solve`` too. As in 2-D, both
engines are compiled on first use for one explicit signature in which the kernel is a
first-class function, and the threads take tasks as they become free (:mod:`geoik.batch.parallel`).
"""

from __future__ import annotations

from typing import Any

import numpy as np
from numba import njit, types

from geoik.batch.bundles import CHAIN_3D, LANE_OUTPUTS, Job, Outputs, job_type, outputs_type
from geoik.batch.costs import cost_function, no_costs
from geoik.batch.parallel import compiled, run_threads, take, threads
from geoik.geometry import copy_into, fk_3d, rotvecs_from_quats
from geoik.judge import judge, judge_params
from geoik.motion import costs_3d
from geoik.state import rest_state

__all__ = ["KERNEL_3D_ARGS", "KERNEL_3D_LANES_ARGS", "LANES", "run"]

_A1 = types.Array(types.float64, 1, "C")
_A2 = types.Array(types.float64, 2, "C")
_A3 = types.Array(types.float64, 3, "C")
_A4 = types.Array(types.float64, 4, "C")
_MODEL = types.Array(types.float64, 1, "C", readonly=True)  # a chain's arrays are read-only
_MODEL2 = types.Array(types.float64, 2, "C", readonly=True)
_I64 = types.Array(types.int64, 1, "C")
KERNEL_3D_ARGS = (CHAIN_3D, _A1, _A2, types.float64, types.int64, _A1, _A3)
"""Argument types every 3-D kernel is compiled for when the batch engine calls it: those
:func:`geoik.solve` calls it with (the chain's ``kernel_arrays``, target (3,), rotations (n, 4),
tol, max_iter, opts, rec (cap, n, 4)), so both share one compiled kernel."""
KERNEL_3D_LANES_ARGS = (
    CHAIN_3D,
    _A2,
    _A3,
    types.float64,
    types.int64,
    _A1,
    _A4,
    LANE_OUTPUTS,
    types.boolean,
)
"""Argument types of a 3-D lane kernel (see ``geoik.solvers.ccd.lanes3d.ccd_3d_lanes``): the
chain's ``kernel_arrays``, targets (K, 3), rotations (K, n, 4), tol, max_iter, opts, rec (K, cap,
n, 4), the outputs (:data:`~geoik.batch.bundles.LANE_OUTPUTS`: keyframes used, status,
iterations (K,) and the final end effector (K, 3)) and whether to write the final rotations."""
COSTS_3D_ARGS = (_MODEL, _MODEL, _A3, types.int64)
"""Argument types ``motion.costs_3d`` is compiled for when the engines call it: the chain's
lengths and base, a target's keyframes (cap, n, 4) and how many of them are used."""
_COSTS_3D = types.FunctionType(
    types.Tuple((types.int64, types.float64, types.float64))(*COSTS_3D_ARGS)
)
# the engines: the kernel, the cost function (``motion.costs_3d``, or ``costs.no_costs``), the
# chain's kernel_arrays, the Job, the chunk (or lanes per block), the counter the threads take
# tasks from, and the Outputs to fill (final rotation vectors (m, n, 3), or (0, n, 3))
_ENGINE_SIG = types.void(
    types.FunctionType(types.UniTuple(types.int64, 3)(*KERNEL_3D_ARGS)),
    _COSTS_3D,
    CHAIN_3D,
    job_type(3),
    types.int64,
    _I64,
    outputs_type(3),
)
_LANE_ENGINE_SIG = types.void(
    types.FunctionType(types.none(*KERNEL_3D_LANES_ARGS)),
    _COSTS_3D,
    CHAIN_3D,
    job_type(3),
    types.int64,
    _I64,
    outputs_type(3),
)
LANES = 256
"""Targets per block of the 3-D lane engine (fewer when keyframes are recorded): as
:data:`geoik.batch.engine.LANES`, long blocks spread the lane loops' fixed cost per call (3-D CCD on
5 links with cones: 4 % more targets/s than with 128)."""
CHUNK = 64
"""Targets per task of the one-target engine."""


@njit(cache=True, nogil=True)
def _engine(kernel, cost_fn, model, job, chunk, counter, out):
    """One thread's share of the work: tasks of ``chunk`` targets, taken from ``counter`` (see
    :mod:`geoik.batch.parallel`) until none is left.

    ``model`` is the chain's ``kernel_arrays`` (lengths, base, cone, hinge, lo, hi), ``job`` a
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
    lengths, base, cone, hinge, lo, hi = model
    targets, start, tol, max_iter, opts, cap, params, want_costs = job
    status, iters, error, count, rotsum, path, angles = out
    n = lengths.shape[0]
    rec = np.empty((cap, n, 4))
    quats = np.empty((n, 4))
    t = np.empty(3)
    pos = np.empty((n + 1, 3))
    world = np.empty((n, 4))
    for i in range(i0, i1):
        copy_into(quats[:, :], start)
        copy_into(rec[0, :, :], start)
        t[0], t[1], t[2] = targets[i, 0], targets[i, 1], targets[i, 2]
        code, used, nrec = kernel(model, t, quats, tol, max_iter, opts, rec)
        fk_3d(lengths, base, quats, pos, world)
        st, err = judge(t, pos[n], code, tol, base, params)
        status[i], iters[i], error[i] = st, used, err
        if want_costs:
            count[i], rotsum[i], path[i] = cost_fn(lengths, base, rec, max(nrec, 1))
        if angles.shape[0] > 0:
            rotvecs_from_quats(quats, angles[i])


@njit(cache=True, nogil=True)
def _lane_engine(kernel, cost_fn, model, job, lanes, counter, out):
    """:func:`_engine` for a solver with a 3-D lane kernel: blocks of ``lanes`` targets per
    call, judged by the end effector the kernel returns (the forward kinematics of its final
    rotations, computed as ``fk_3d`` computes it). One thread's share: blocks taken from
    ``counter`` until none is left."""
    lengths, base, cone, hinge, lo, hi = model
    targets, start, tol, max_iter, opts, cap, params, want_costs = job
    status, iters, error, count, rotsum, path, angles = out
    m = targets.shape[0]
    tasks = (m + lanes - 1) // lanes
    if tasks > 0:  # one thread's buffers, then its blocks
        n = lengths.shape[0]
        t = np.empty((lanes, 3))
        quats = np.empty((lanes, n, 4))
        rec = np.empty((lanes, cap if want_costs else 1, n, 4))
        info = np.empty((3, lanes), np.int64)  # keyframes used, kernel status, iterations
        end = np.empty((lanes, 3))
        final = angles.shape[0] > 0
        c = take(counter)
        while c < tasks:
            i0 = c * lanes
            i1 = min(m, i0 + lanes)
            for b in range(lanes):
                i = min(i0 + b, i1 - 1)  # the last block padded with its last target
                t[b, 0], t[b, 1], t[b, 2] = targets[i, 0], targets[i, 1], targets[i, 2]
                copy_into(quats[b, :, :], start)
                copy_into(rec[b, 0, :, :], start)
            kernel(
                model, t, quats, tol, max_iter, opts, rec, (info[0], info[1], info[2], end), final
            )
            for b in range(i1 - i0):
                i = i0 + b
                st, err = judge(t[b], end[b], info[1, b], tol, base, params)
                status[i], iters[i], error[i] = st, info[2, b], err
                if want_costs:
                    count[i], rotsum[i], path[i] = cost_fn(lengths, base, rec[b], info[0, b])
                if final:
                    rotvecs_from_quats(quats[b], angles[i])
            c = take(counter)


def run(
    solver: Any,
    chain: Any,
    targets: np.ndarray,
    tol: float,
    iters: int,
    opts: np.ndarray,
    costs: bool,
    out: Outputs,
) -> None:
    """Fill ``out`` (status, iterations, error, rotation count, rotation sum in radians, path,
    final rotation vectors (m, n, 3) or (0, n, 3)) for a 3-D chain, as
    :func:`geoik.batch.evaluate` describes; arguments checked by it."""
    n = chain.n
    cap = solver.capacity(n, iters) if costs else 1
    start = np.ascontiguousarray(rest_state(chain))
    job = Job(
        targets, start, float(tol), int(iters), opts, int(cap), judge_params(chain), bool(costs)
    )
    model = chain.kernel_arrays
    (kernel, kernel_types), cost, (engine, signature) = kernels(solver, opts, costs)
    kernel = compiled(kernel, kernel_types, engine, signature)
    cost_fn = cost_function(*cost)
    counter = np.zeros(1, np.int64)
    if engine is _lane_engine:
        size = LANES if not costs else max(1, min(LANES, (1 << 15) // (cap * n * 4)))

        def lane_work() -> None:
            engine(kernel, cost_fn, model, job, size, counter, out)

        run_threads(lane_work, min(threads(), -(-targets.shape[0] // size)))
        return

    def work() -> None:
        engine(kernel, cost_fn, model, job, CHUNK, counter, out)

    run_threads(work, min(threads(), -(-targets.shape[0] // CHUNK)))


def kernels(solver: Any, opts: np.ndarray, costs: bool) -> list[tuple[Any, Any]]:
    """What :func:`run` runs for ``solver`` with ``opts`` (and ``costs`` or not), and
    :func:`geoik.jit.compile_ahead` compiles: ``(function, argument types)`` pairs, the
    solver's kernel (its lane kernel where it has one for ``opts``), the cost function, then
    the engine."""
    cost = (costs_3d if costs else no_costs, COSTS_3D_ARGS)
    if solver.kernel_3d_lanes is not None and solver.lanes_for(opts):
        lanes = (solver.kernel_3d_lanes, KERNEL_3D_LANES_ARGS)
        return [lanes, cost, (_lane_engine, _LANE_ENGINE_SIG)]
    return [(solver.kernel_3d, KERNEL_3D_ARGS), cost, (_engine, _ENGINE_SIG)]
