"""The batch engine: one solver, many targets, both cores.

:func:`evaluate` runs a registered solver's 2-D kernel (``REGISTRY[method].kernel_2d``, the very
kernel :func:`geoik.solve` runs) from the chain's rest pose for every target of an array, in
parallel (numba ``prange`` over chunks of targets, each chunk with its own buffers). Each target
is validated, judged and costed exactly as :func:`geoik.solve` and :func:`geoik.costs` do:

- the options go through ``api.check_tol``, ``api.check_max_iter`` and ``Solver.pack_options``;
- the final positions are ``geometry.fk_2d`` of the kernel's final angles and the status is
  judged by :func:`judge_2d` (REACHED iff the error is within ``tol``; CLOSEST only when the end
  effector is provably at the closest reachable point), the compiled form of ``api.judge``;
- the costs are ``motion.costs_2d`` of the kernel's recorded keyframes.

The engine is compiled once for an explicit signature in which the kernel is a first-class
function, so the compiled engine is cached on disk and shared by every solver.
"""

from __future__ import annotations

import functools
import importlib
import math
from dataclasses import dataclass
from typing import Any

import numpy as np
from numba import njit, prange, types

from geoik import api
from geoik.chain import Chain
from geoik.errors import (
    InvalidChainError,
    InvalidOptionError,
    InvalidTargetError,
    UnsupportedChainError,
    describe,
)
from geoik.geometry import CLOSEST, REACHED, STALLED, fk_2d, wrap_free_joints
from geoik.motion import costs_2d
from geoik.reach import closest_reachable_point
from geoik.solvers import get

__all__ = ["BatchResult", "evaluate", "judge_2d", "judge_params"]

_A1 = types.Array(types.float64, 1, "C")
_A2 = types.Array(types.float64, 2, "C")
KERNEL_2D_ARGS = (_A1, _A1, _A1, _A1, _A1, _A1, types.float64, types.int64, _A1, _A2)
"""Argument types every 2-D kernel is compiled for when the batch engine calls it."""
_KERNEL_SIG = types.UniTuple(types.int64, 3)(*KERNEL_2D_ARGS)
_I8 = types.Array(types.int8, 1, "C")
_I64 = types.Array(types.int64, 1, "C")
_ENGINE_SIG = types.void(
    types.FunctionType(_KERNEL_SIG),  # kernel
    _A1,
    _A1,
    _A1,
    _A1,  # lengths, base, lo, hi
    _A2,
    _A1,  # targets (m, 2), start (n,)
    types.float64,
    types.int64,
    _A1,
    types.int64,  # tol, max_iter, opts, capacity
    _A1,
    types.boolean,
    types.int64,  # judge params, want costs, chunk size
    _I8,
    _I64,
    _A1,  # status, iterations, error
    _I64,
    _A1,
    _A1,  # rotations over 5 deg, rotation sum (rad), path length
    _A2,  # final angles (m, n), or (0, n) when not wanted
)

_A3 = types.Array(types.float64, 3, "C")
KERNEL_2D_LANES_ARGS = (
    *KERNEL_2D_ARGS[:4],
    _A2,
    _A2,
    types.float64,
    types.int64,
    _A1,
    _A3,
    _I64,
    _I64,
    _I64,
    _A2,
    types.boolean,
)
"""Argument types of a lane kernel (``kernel_2d_lanes`` of a solver module, see
``geoik.solvers._ccd_lanes.ccd_2d_lanes``): targets (K, 2), angles (K, n), rec (K, cap, n),
nrec, status, iterations (K,), the final end effector (K, 2) and whether to write the final
angles."""
_LANE_ENGINE_SIG = types.void(
    types.FunctionType(types.none(*KERNEL_2D_LANES_ARGS)),  # lane kernel
    *_ENGINE_SIG.args[1:13],  # lengths .. want costs
    types.int64,  # lanes per block
    *_ENGINE_SIG.args[14:],  # outputs
)
LANES = 128
"""Targets per block of the lane engine (fewer when costs are wanted, see :func:`_lanes`): long
enough that the lane loops run vectorised, short enough for the work array to stay in cache."""

# judge_params layout
_ROUT, _RIN, _OUTER, _INNER = 0, 1, 2, 3


@dataclass(frozen=True, eq=False)
class BatchResult:
    """Per-target results of :func:`evaluate`, in the order of the targets.

    Attributes
    ----------
    status : (m,) int8 codes, the values of :class:`geoik.Status`.
    iterations : (m,) int64 iterations used.
    error : (m,) float64 distance from the end effector to the target.
    rotations_over_5deg : (m,) int64 number of joint rotations above 5 degrees.
    rotation_sum_deg : (m,) float64 sum of the rotation magnitudes, degrees.
    path_length : (m,) float64 length of the end effector's path.
    angles : (m, n) final relative joint angles in radians (free joints wrapped into
        (-pi, pi], as in :attr:`geoik.Solution.angles`), or None unless requested.
    tol : the tolerance used.
    max_iter : the iteration budget used.
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

    @property
    def reached(self) -> np.ndarray:
        """(m,) bool: the targets whose status is REACHED."""
        return self.status == REACHED


def judge_params(chain: Chain) -> np.ndarray:
    """What :func:`judge_2d` needs to know of a chain's closest reachable points.

    Returns ``[outer radius, inner radius, outer, inner]``: ``outer`` is 1 when the closest
    reachable point to a target farther than the outer radius from the base is its radial
    projection on that circle, ``inner`` likewise for targets nearer than the inner radius, as
    ``reach.closest_reachable_point`` decides (it is asked about a far target and about the base).
    """
    out = np.zeros(4)
    total = chain.total_length
    far = chain.base.copy()
    far[0] += 2.0 * total + 1.0
    for k, probe in ((0, far), (1, chain.base.copy())):
        point = closest_reachable_point(chain, probe)
        if point is None:
            continue
        radius = float(np.linalg.norm(point - chain.base))
        known = (*chain.reach(), total)
        out[k] = min(known, key=lambda r: abs(r - radius))
        out[k + 2] = 1.0
    return out


@njit(cache=True)
def judge_2d(tx, ty, ex, ey, code, tol, base, params):
    """(status, error) of a 2-D solve, as ``api.judge``: REACHED iff error <= tol; CLOSEST only
    when the end effector (ex, ey) is within tol of the provably closest reachable point to the
    target (tx, ty); otherwise the kernel's code, a kernel's REACHED/CLOSEST becoming STALLED."""
    error = math.sqrt((ex - tx) ** 2 + (ey - ty) ** 2)  # as geometry.finish_2d measures it
    if error <= tol:
        return REACHED, error
    dx, dy = tx - base[0], ty - base[1]
    dist = math.hypot(dx, dy)
    scale = -1.0
    if params[_OUTER] != 0.0 and dist > params[_ROUT]:
        scale = params[_ROUT] / dist
    elif params[_INNER] != 0.0 and dist < params[_RIN]:
        if dist == 0.0:
            if error <= params[_RIN] + tol:
                return CLOSEST, error
        else:
            scale = params[_RIN] / dist
    if scale >= 0.0:
        cx, cy = base[0] + dx * scale, base[1] + dy * scale
        if math.hypot(ex - cx, ey - cy) <= tol:
            return CLOSEST, error
    if code in (REACHED, CLOSEST):
        return STALLED, error
    return code, error


@njit(_ENGINE_SIG, parallel=True, cache=True)
def _engine(
    kernel,
    lengths,
    base,
    lo,
    hi,
    targets,
    start,
    tol,
    max_iter,
    opts,
    cap,
    params,
    want_costs,
    chunk,
    status,
    iters,
    error,
    count,
    rotsum,
    path,
    angles,
):
    n = lengths.shape[0]
    m = targets.shape[0]
    nchunks = (m + chunk - 1) // chunk
    for c in prange(nchunks):
        rec = np.empty((cap, n))
        ang = np.empty(n)
        t = np.empty(2)
        pos = np.empty((n + 1, 2))
        for i in range(c * chunk, min(m, (c + 1) * chunk)):
            ang[:] = start
            rec[0, :] = start
            t[0], t[1] = targets[i, 0], targets[i, 1]
            code, used, nrec = kernel(lengths, base, lo, hi, t, ang, tol, max_iter, opts, rec)
            fk_2d(lengths, base, ang, pos)
            st, err = judge_2d(t[0], t[1], pos[n, 0], pos[n, 1], code, tol, base, params)
            status[i] = st
            iters[i] = used
            error[i] = err
            if want_costs:
                k, total, p = costs_2d(lengths, base, rec, nrec)
                count[i], rotsum[i], path[i] = k, total, p
            if angles.shape[0] > 0:
                wrap_free_joints(ang, lo, hi, angles[i])


@njit(cache=True)
def _lane_task(
    kernel,
    lengths,
    base,
    lo,
    hi,
    targets,
    start,
    tol,
    max_iter,
    opts,
    cap,
    params,
    want_costs,
    lanes,
    i0,
    i1,
    status,
    iters,
    error,
    count,
    rotsum,
    path,
    angles,
):
    """Targets ``i0:i1`` through the lane kernel, ``lanes`` at a time (the last block is padded
    with copies of its last target, whose results are dropped)."""
    n = lengths.shape[0]
    t = np.empty((lanes, 2))
    ang = np.empty((lanes, n))
    rec = np.empty((lanes, cap if want_costs else 1, n))
    out = np.empty((3, lanes), np.int64)  # keyframes used, kernel status, iterations
    end = np.empty((lanes, 2))
    final = angles.shape[0] > 0
    for b0 in range(i0, i1, lanes):
        for b in range(lanes):
            i = min(b0 + b, i1 - 1)
            t[b, 0], t[b, 1] = targets[i, 0], targets[i, 1]
            ang[b, :] = start
            rec[b, 0, :] = start
        kernel(
            lengths,
            base,
            lo,
            hi,
            t,
            ang,
            tol,
            max_iter,
            opts,
            rec,
            out[0],
            out[1],
            out[2],
            end,
            final,
        )
        for b in range(min(lanes, i1 - b0)):
            i = b0 + b
            st, err = judge_2d(t[b, 0], t[b, 1], end[b, 0], end[b, 1], out[1, b], tol, base, params)
            status[i], iters[i], error[i] = st, out[2, b], err
            if want_costs:
                count[i], rotsum[i], path[i] = costs_2d(lengths, base, rec[b], out[0, b])
            if final:
                wrap_free_joints(ang[b], lo, hi, angles[i])


@njit(_LANE_ENGINE_SIG, parallel=True, cache=True)
def _lane_engine(
    kernel,
    lengths,
    base,
    lo,
    hi,
    targets,
    start,
    tol,
    max_iter,
    opts,
    cap,
    params,
    want_costs,
    lanes,
    status,
    iters,
    error,
    count,
    rotsum,
    path,
    angles,
):
    """:func:`_engine` for a solver with a lane kernel: blocks of ``lanes`` targets per call,
    judged by the end effector the kernel returns (the error is that of the kernel's pose)."""
    m = targets.shape[0]
    per = lanes * max(1, 256 // lanes)
    for c in prange((m + per - 1) // per):
        i0 = c * per
        _lane_task(
            kernel,
            lengths,
            base,
            lo,
            hi,
            targets,
            start,
            tol,
            max_iter,
            opts,
            cap,
            params,
            want_costs,
            lanes,
            i0,
            min(m, i0 + per),
            status,
            iters,
            error,
            count,
            rotsum,
            path,
            angles,
        )


def check_targets(chain: Chain, targets: Any, name: str = "targets") -> np.ndarray:
    """Targets as a C-contiguous (m, 2) float64 array, or InvalidTargetError naming what came."""
    try:
        t = np.asarray(targets, dtype=np.float64)  # no copy of a float64 array
        t = np.ascontiguousarray(t.reshape(1, -1) if t.ndim < 2 else t)
    except (TypeError, ValueError):
        raise InvalidTargetError(
            f"{name}: expected an (m, {chain.dim}) array of finite coordinates, "
            f"got {describe(targets)}"
        ) from None
    if t.ndim != 2 or t.shape[1] != chain.dim:
        raise InvalidTargetError(
            f"{name}: expected an (m, {chain.dim}) array of coordinates, got shape {t.shape}"
        )
    if not np.all(np.isfinite(t)):
        raise InvalidTargetError(f"{name}: expected finite coordinates, got NaN or infinity")
    return t


def evaluate(
    chain: Chain,
    targets: Any,
    method: str,
    tol: float | None = None,
    max_iter: int | None = None,
    angles: bool = False,
    costs: bool = True,
    **options: Any,
) -> BatchResult:
    """Solve a planar chain for many targets from its rest pose, in parallel.

    Parameters
    ----------
    chain : a planar :class:`geoik.Chain`.
    targets : (m, 2) target points.
    method, tol, max_iter, **options : as for :func:`geoik.solve`.
    angles : also return the (m, n) final joint angles.
    costs : compute the motion costs (rotation count, rotation sum, path); when False those
        arrays are zeros and the solve is faster.

    Returns
    -------
    BatchResult
        Target by target what ``geoik.solve(chain, target, method, tol, max_iter, **options)``
        and ``geoik.costs`` of it give. A target that :func:`geoik.solve` refuses up front
        (``Solver.check``: CAA when its arc would break a joint limit) is not an error here but
        whatever the kernel reports for it, a failure (CAA: STALLED after 0 iterations).

    Raises
    ------
    geoik.GeoIKError
        A bad chain, method, target array or option, before any target is solved.

    Notes
    -----
    The targets are shared among numba's threads (``NUMBA_NUM_THREADS``, every core by default)
    in chunks; a solver with a lane kernel (CCD) runs blocks of :data:`LANES` targets through it
    at once. A target's result never depends on the targets beside it.
    """
    solver = _check(chain, method, angles, costs)
    t = check_targets(chain, targets)
    tol_ = api.check_tol(chain, tol)
    iters = api.check_max_iter(max_iter, solver.default_max_iter)
    opts = np.ascontiguousarray(solver.kernel_opts(chain, options))
    out = _empty(t.shape[0], chain.n, angles)
    _run(solver, chain, t, tol_, iters, opts, costs, out)
    status, it, err, count, rotsum, path, final = out
    return BatchResult(
        status=status,
        iterations=it,
        error=err,
        rotations_over_5deg=count,
        rotation_sum_deg=np.degrees(rotsum),
        path_length=path,
        angles=final if angles else None,
        tol=tol_,
        max_iter=iters,
    )


def _check(chain: Any, method: Any, angles: Any, costs: Any) -> Any:
    """The solver, once the chain, the method and the flags are known to be acceptable."""
    solver = get(method)
    if not isinstance(chain, Chain):
        raise InvalidChainError(f"chain: expected a geoik.Chain, got {describe(chain)}")
    if chain.dim != 2:
        raise UnsupportedChainError(
            f"chain: the batch engine solves planar chains, got a {chain.dim}-D chain"
        )
    solver.check_chain(chain.n, chain.dim)
    for name, flag in (("angles", angles), ("costs", costs)):
        if not isinstance(flag, bool | np.bool_):
            raise InvalidOptionError(f"{name}: expected True or False, got {describe(flag)}")
    return solver


def _run(
    solver: Any,
    chain: Chain,
    t: np.ndarray,
    tol: float,
    iters: int,
    opts: np.ndarray,
    costs: bool,
    out: list[np.ndarray],
) -> None:
    """Fill ``out`` (see :func:`_empty`) by the solver's lane kernel or its one-target kernel."""
    m, n = t.shape[0], chain.n
    start = np.ascontiguousarray(api.rest_state(chain), dtype=np.float64)
    arrays = [
        np.array(a, dtype=np.float64, order="C")
        for a in (chain.lengths, chain.base, chain.lo, chain.hi)
    ]
    cap, params = solver.capacity(n, iters), judge_params(chain)
    lanes = _lane_kernel(solver.module)
    if lanes is not None:
        _lane_engine(
            lanes,
            *arrays,
            t,
            start,
            tol,
            iters,
            opts,
            cap,
            params,
            bool(costs),
            _lanes(costs, cap, n),
            *out,
        )
    else:
        chunk = max(1, min(256, -(-m // 64)))
        _engine(
            _compiled(solver.kernel_2d),
            *arrays,
            t,
            start,
            tol,
            iters,
            opts,
            cap,
            params,
            bool(costs),
            chunk,
            *out,
        )


def _lanes(costs: bool, cap: int, n: int) -> int:
    """Targets per call of a lane kernel: :data:`LANES`, fewer when keyframes are recorded so
    that the keyframe buffer stays within about 256 KiB."""
    return LANES if not costs else max(1, min(LANES, (1 << 15) // (cap * n)))


def _empty(m: int, n: int, angles: bool) -> list[np.ndarray]:
    return [
        np.empty(m, np.int8),
        np.empty(m, np.int64),
        np.empty(m),
        np.zeros(m, np.int64),
        np.zeros(m),
        np.zeros(m),
        np.empty((m if angles else 0, n)),
    ]


@functools.cache
def _lane_kernel(module: str) -> Any:
    """The solver module's ``kernel_2d_lanes`` compiled for the lane engine, or None."""
    kernel = getattr(importlib.import_module(module), "kernel_2d_lanes", None)
    if kernel is not None:
        kernel.compile(KERNEL_2D_LANES_ARGS)
    return kernel


def _compiled(kernel: Any) -> Any:
    """The kernel compiled for the engine's argument types (numba caches it on disk)."""
    kernel.compile(KERNEL_2D_ARGS)
    return kernel
