"""``geoik.solve``: validate once, run one solver kernel, wrap its result.

Everything here runs once per call, so it is kept to a few cheap steps: per-chain values (the
rest state, the total length, the packed default options, the reach) are cached on the chain or
the solver, and the final pose, angles and error come from one compiled call
(:func:`geoik.geometry.finish_2d` / :func:`~geoik.geometry.finish_3d`).
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from geoik import geometry as g
from geoik.chain import Chain, quats_from_rotvecs
from geoik.errors import (
    InvalidChainError,
    InvalidOptionError,
    InvalidPoseError,
    InvalidTargetError,
    describe,
)
from geoik.motion import Motion
from geoik.pose import Pose
from geoik.reach import clamp_into_reach, closest_reachable_point
from geoik.solution import Solution, Status
from geoik.solvers import get

__all__ = ["DEFAULT_TOL", "solve"]

DEFAULT_TOL = 1e-4
"""Default tolerance, relative to the chain's total length."""

_STATUS = (Status.REACHED, Status.CLOSEST, Status.MAX_ITERATIONS, Status.STALLED)
_LIMIT_SLACK = 1e-9


def check_target(chain: Chain, target: Any, name: str = "target") -> np.ndarray:
    """A target as a fresh (d,) float64 array, or InvalidTargetError naming what came."""
    dim = chain.dim
    try:
        t = np.array(target, dtype=np.float64)
    except (TypeError, ValueError):
        raise InvalidTargetError(
            f"{name}: expected {dim} finite coordinates, got {describe(target)}"
        ) from None
    if t.shape != (dim,):
        raise InvalidTargetError(
            f"{name}: expected {dim} coordinates for a {dim}-D chain, got {describe(target)}"
        )
    if not all(map(math.isfinite, t.tolist())):
        raise InvalidTargetError(f"{name}: expected finite coordinates, got {describe(target)}")
    return t


def check_tol(chain: Chain, tol: Any) -> float:
    """The tolerance as a float: ``tol`` checked, or the default relative to the chain's length."""
    if tol is None:
        return DEFAULT_TOL * chain.total_length
    ok = isinstance(tol, int | float | np.number) and not isinstance(tol, bool)
    if not ok or not math.isfinite(tol) or tol <= 0:
        raise InvalidOptionError(f"tol: expected a finite distance > 0, got {describe(tol)}")
    return float(tol)


def check_max_iter(max_iter: Any, default: int) -> int:
    """The iteration budget as an int: ``max_iter`` checked, or the solver's default."""
    if max_iter is None:
        return default
    if isinstance(max_iter, bool) or not isinstance(max_iter, int | np.integer) or max_iter < 1:
        raise InvalidOptionError(f"max_iter: expected an integer >= 1, got {describe(max_iter)}")
    return int(max_iter)


def start_state(chain: Chain, start: Any) -> np.ndarray:
    """Kernel start state: (n,) angles in 2-D, (n, 4) quaternions in 3-D, checked on limits."""
    if start is None:
        return rest_state(chain)
    if isinstance(start, Pose):
        if start.positions.shape != (chain.n + 1, chain.dim):
            raise InvalidPoseError(
                f"start: expected a pose of shape {(chain.n + 1, chain.dim)}, "
                f"got {start.positions.shape}"
            )
        angles = start.angles()
    else:
        angles = chain.check_angles(start, "start")
    if chain.dim == 2:
        return _start_2d(chain, angles)
    return _start_3d(chain, angles)


def _start_2d(chain: Chain, angles: np.ndarray) -> np.ndarray:
    state = np.array(angles, dtype=np.float64)
    limited = np.isfinite(chain.lo) | np.isfinite(chain.hi)
    state[limited] = (state[limited] + math.pi) % (2 * math.pi) - math.pi
    bad = np.flatnonzero((state < chain.lo - _LIMIT_SLACK) | (state > chain.hi + _LIMIT_SLACK))
    if bad.size:
        i = int(bad[0])
        raise InvalidPoseError(
            f"start: joint {i} at {math.degrees(state[i]):.6g} degrees is outside its limits "
            f"[{math.degrees(chain.lo[i]):.6g}, {math.degrees(chain.hi[i]):.6g}]"
        )
    return state


def _start_3d(chain: Chain, angles: np.ndarray) -> np.ndarray:
    q = quats_from_rotvecs(np.asarray(angles))
    for i in range(chain.n):
        c = g.constrain_joint_3d(*q[i], i, chain.cone, chain.hinge, chain.lo, chain.hi)
        d = g.qmul(*c, q[i, 0], -q[i, 1], -q[i, 2], -q[i, 3])
        if g.q_angle(*d) > 1e-7:
            raise InvalidPoseError(f"start: joint {i} {_breach_3d(chain, i, q[i])}")
    return q


def _breach_3d(chain: Chain, i: int, q: np.ndarray) -> str:
    """How the local rotation ``q`` breaks joint ``i``'s limits, in words (degrees)."""
    hinge = chain.hinge[i]
    if not np.any(hinge):
        x = g.qrot(*q, 1.0, 0.0, 0.0)
        bend = math.degrees(math.atan2(math.hypot(x[1], x[2]), x[0]))
        cone = math.degrees(chain.cone[i])
        return f"bends {bend:.6g} degrees from its parent link, beyond its {cone:.6g} degree cone"
    rv = g.q_to_rotvec(*q)
    along = float(np.dot(rv, hinge))
    if math.dist(rv, along * hinge) > 1e-7:
        return f"turns about an axis other than its hinge axis {hinge.tolist()}"
    return (
        f"at {math.degrees(along):.6g} degrees about its hinge axis is outside its limits "
        f"[{math.degrees(chain.lo[i]):.6g}, {math.degrees(chain.hi[i]):.6g}]"
    )


def rest_state(chain: Chain) -> np.ndarray:
    """The rest pose as a kernel state: straight along +x, each joint clamped into its limits."""
    cached = chain._cache.get("rest_state")
    if cached is None:
        cached = chain._cache["rest_state"] = _rest_state(chain)
    return cached.copy()


def _rest_state(chain: Chain) -> np.ndarray:
    if chain.dim == 2:
        return np.clip(np.zeros(chain.n), chain.lo, chain.hi)
    q = g.identity_quats(chain.n)
    for i in np.flatnonzero(np.any(chain.hinge != 0.0, axis=1)):
        phi = min(max(0.0, chain.lo[i]), chain.hi[i])
        q[i] = g.q_axis_angle(*chain.hinge[i], phi)
    return q


def final_angles(chain: Chain, state: np.ndarray) -> np.ndarray:
    """Public angles from a kernel's final state: (n,) in 2-D, (n, 3) rotation vectors in 3-D."""
    if chain.dim == 2:
        out = np.empty(chain.n)
        g.wrap_free_joints(state, chain.lo, chain.hi, out)
        return out
    rv = np.empty((chain.n, 3))
    g.rotvecs_from_quats(state, rv)
    return rv


def judge(
    chain: Chain,
    target: np.ndarray,
    end: np.ndarray,
    kernel_status: int,
    tol: float,
    error: float | None = None,
) -> tuple[Status, float]:
    """(Status, error): REACHED iff the error is within tol; CLOSEST only when provable.

    ``error`` is the distance from ``end`` to ``target`` when the caller has it already.
    """
    if error is None:
        error = math.dist(end.tolist(), target.tolist())
    if error <= tol:
        return Status.REACHED, error
    if not _within_reach_bounds(chain, target):
        closest = closest_reachable_point(chain, target)
        if closest is not None:
            if np.array_equal(target, chain.base):
                gap = float(np.linalg.norm(closest - chain.base))
                if error <= gap + tol:
                    return Status.CLOSEST, error
            elif float(np.linalg.norm(end - closest)) <= tol:
                return Status.CLOSEST, error
    status = _STATUS[kernel_status]
    if status is Status.REACHED or status is Status.CLOSEST:
        status = Status.STALLED
    return status, error


def _within_reach_bounds(chain: Chain, target: np.ndarray) -> bool:
    """True when the target's distance from the base lies within the chain's reach bounds, so
    that no closer reachable point exists (the common case, decided without building one)."""
    rmin, rmax = chain.reach()
    d = math.dist(target.tolist(), chain.base.tolist())
    return rmin <= d <= rmax


def solve(
    chain: Chain,
    target: Any,
    method: str = "fabrik",
    tol: float | None = None,
    max_iter: int | None = None,
    start: Pose | Any = None,
    clamp_to_reach: bool = False,
    **options: Any,
) -> Solution:
    """Solve inverse kinematics for one target.

    Parameters
    ----------
    chain : the chain (:meth:`Chain.planar` or :meth:`Chain.spatial`).
    target : (d,) point the end effector should reach.
    method : a name in :data:`geoik.solvers.REGISTRY` (``geoik methods`` lists them).
    tol : distance within which the target counts as reached; default ``1e-4`` times the
        chain's total length.
    max_iter : iteration budget of iterative solvers; default per solver.
    start : the pose to start from (a :class:`Pose` or angles as for
        :meth:`Chain.pose_from_angles`); default the rest pose. Pass the previous frame's
        solution pose to animate.
    clamp_to_reach : if True, a target nearer than the chain's minimum reach or farther than its
        maximum (:meth:`Chain.reach`) is first moved radially onto that annulus; the solution
        keeps the given target and its error, and is CLOSEST when the end effector is within
        ``tol`` of the moved point (REACHED only within ``tol`` of the given target).
    **options : the solver's own options (``geoik methods`` lists them).

    Returns
    -------
    Solution
        Final pose (forward kinematics of the returned angles), status, iterations, error and
        the recorded motion.

    Raises
    ------
    GeoIKError
        A subclass naming the bad argument: :class:`~geoik.UnknownMethodError`,
        :class:`~geoik.InvalidChainError`, :class:`~geoik.UnsupportedChainError`,
        :class:`~geoik.InvalidTargetError`, :class:`~geoik.InvalidOptionError` or
        :class:`~geoik.InvalidPoseError`.
    """
    solver = get(method)
    if not isinstance(chain, Chain):
        raise InvalidChainError(f"chain: expected a geoik.Chain, got {describe(chain)}")
    n, dim = chain.n, chain.dim
    solver.check_chain(n, dim)
    t = check_target(chain, target)
    tol_ = check_tol(chain, tol)
    iters = check_max_iter(max_iter, solver.default_max_iter)
    opts = solver.kernel_opts(chain, options)
    state = start_state(chain, start)
    if clamp_to_reach is not False and clamp_to_reach is not True:
        raise InvalidOptionError(
            f"clamp_to_reach: expected True or False, got {describe(clamp_to_reach)}"
        )
    goal = clamp_into_reach(chain, t) if clamp_to_reach else t
    if solver.check is not None:
        solver.check(chain, goal, state, tol_, iters, opts)

    rec = np.empty((solver.capacity(n, iters),) + state.shape)
    rec[0] = state
    positions = np.empty((n + 1, dim))
    if dim == 2:
        code, used, nrec = solver.kernel_2d(
            chain.lengths, chain.base, chain.lo, chain.hi, goal, state, tol_, iters, opts, rec
        )
        angles = np.empty(n)
        error = g.finish_2d(
            chain.lengths, chain.base, chain.lo, chain.hi, state, t, positions, angles
        )
    else:
        code, used, nrec = solver.kernel_3d(
            chain.lengths,
            chain.base,
            chain.cone,
            chain.hinge,
            chain.lo,
            chain.hi,
            goal,
            state,
            tol_,
            iters,
            opts,
            rec,
        )
        angles = np.empty((n, 3))
        error = g.finish_3d(chain.lengths, chain.base, state, t, positions, angles)
    status, error = judge(chain, t, positions[n], code, tol_, error)
    moved = goal is not t and status is not Status.REACHED
    if moved and math.dist(positions[n].tolist(), goal.tolist()) <= tol_:
        status = Status.CLOSEST
    return Solution.fast(
        chain,
        t,
        solver.name,
        positions,
        angles,
        status,
        int(used),
        error,
        Motion.fast(chain, rec[:nrec]),
        tol_,
    )
