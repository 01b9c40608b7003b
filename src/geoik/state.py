"""A chain's kernel state: what every solver kernel starts from and returns.

The state is the joint rotations: ``(n,)`` relative angles in 2-D, ``(n, 4)`` local unit
quaternions in 3-D (see :mod:`geoik.geometry`). :func:`rest_state` is the rest pose,
:func:`start_state` a user's start pose checked against the limits, and :func:`public_angles`
turns a final state into the angles a :class:`~geoik.Solution` reports.
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING, Any

import numpy as np

from geoik import geometry as g
from geoik.errors import InvalidPoseError
from geoik.jit import call
from geoik.pose import Pose

if TYPE_CHECKING:
    from geoik.chain import Chain

__all__ = ["public_angles", "quats_from_rotvecs", "reduce_huge", "rest_state", "start_state"]

_LIMIT_SLACK = 1e-9
HUGE_ANGLE = 2.0**20
"""Joint angles beyond this many radians are reduced into (-pi, pi] as they enter a solve
(:func:`reduce_huge`): the kernels' wrap (a floor of the angle over 2 pi) loses a part in
1e16 of the angle, which beyond it is no longer negligible."""


def quats_from_rotvecs(rv: np.ndarray) -> np.ndarray:
    """(n, 4) unit quaternions from (n, 3) rotation vectors."""
    q = g.identity_quats(rv.shape[0])
    for i in range(rv.shape[0]):
        q[i] = call(g.rotvec_to_q, rv[i, 0], rv[i, 1], rv[i, 2])
    return q


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
        q[i] = call(g.q_axis_angle, *chain.hinge[i], phi)
    return q


def start_state(chain: Chain, start: Any) -> np.ndarray:
    """Kernel start state: (n,) angles in 2-D, (n, 4) quaternions in 3-D, checked on limits."""
    if start is None:
        return rest_state(chain)
    if isinstance(start, Pose):
        if start.positions.shape != (chain.n + 1, chain.dim):
            raise InvalidPoseError(
                f"expected a pose of shape {(chain.n + 1, chain.dim)}, got {start.positions.shape}",
                argument="start",
            )
        angles = start.angles()
    else:
        angles = chain.check_angles(start, "start")
    if chain.dim == 2:
        return _start_2d(chain, angles)
    return _start_3d(chain, angles)


def reduce_huge(angles: np.ndarray, which: np.ndarray | None = None) -> np.ndarray:
    """``angles`` with each beyond :data:`HUGE_ANGLE` in magnitude (among ``which``, a bool
    mask; default all) replaced by the angle in (-pi, pi] with the same sine and cosine, which
    the C library computes with an exact reduction: forward kinematics sees the same pose.
    A new array."""
    out = np.array(angles, dtype=np.float64)
    huge = np.abs(out) > HUGE_ANGLE
    if which is not None:
        huge &= which
    if huge.any():
        r = np.arctan2(np.sin(out[huge]), np.cos(out[huge]))
        out[huge] = np.where(r == -math.pi, math.pi, r)
    return out


def _start_2d(chain: Chain, angles: np.ndarray) -> np.ndarray:
    state = reduce_huge(angles)
    limited = np.isfinite(chain.lo) | np.isfinite(chain.hi)
    # a limited joint's angle is taken at the turn (a multiple of 2 pi away) nearest the middle
    # of its range: 180 degrees and -180 degrees are one angle, inside [90, 180] either way
    middle = np.where(np.isfinite(chain.lo), chain.lo, -math.pi) + np.where(
        np.isfinite(chain.hi), chain.hi, math.pi
    )
    turns = np.round((0.5 * middle[limited] - state[limited]) / (2 * math.pi))
    state[limited] += 2 * math.pi * turns
    bad = np.flatnonzero((state < chain.lo - _LIMIT_SLACK) | (state > chain.hi + _LIMIT_SLACK))
    if bad.size:
        i = int(bad[0])
        raise InvalidPoseError(
            f"joint {i} at {math.degrees(angles[i]):.6g} degrees is outside its limits "
            f"[{math.degrees(chain.lo[i]):.6g}, {math.degrees(chain.hi[i]):.6g}]",
            argument=f"start[{i}]",
        )
    return state


def _start_3d(chain: Chain, angles: np.ndarray) -> np.ndarray:
    q = quats_from_rotvecs(np.asarray(angles))
    for i in range(chain.n):
        c = call(g.constrain_joint_3d, *q[i], i, chain.cone, chain.hinge, chain.lo, chain.hi)
        d = call(g.qmul, *c, q[i, 0], -q[i, 1], -q[i, 2], -q[i, 3])
        if call(g.q_angle, *d) > 1e-7:
            raise InvalidPoseError(
                f"joint {i} {_breach_3d(chain, i, q[i])}", argument=f"start[{i}]"
            )
    return q


def _breach_3d(chain: Chain, i: int, q: np.ndarray) -> str:
    """How the local rotation ``q`` breaks joint ``i``'s limits, in words (degrees)."""
    hinge = chain.hinge[i]
    if not np.any(hinge):
        x = call(g.qrot, *q, 1.0, 0.0, 0.0)
        bend = math.degrees(math.atan2(math.hypot(x[1], x[2]), x[0]))
        cone = math.degrees(chain.cone[i])
        return f"bends {bend:.6g} degrees from its parent link, beyond its {cone:.6g} degree cone"
    rv = call(g.q_to_rotvec, *q)
    along = float(np.dot(rv, hinge))
    if math.dist(rv, along * hinge) > 1e-7:
        return f"turns about an axis other than its hinge axis {hinge.tolist()}"
    return (
        f"at {math.degrees(along):.6g} degrees about its hinge axis is outside its limits "
        f"[{math.degrees(chain.lo[i]):.6g}, {math.degrees(chain.hi[i]):.6g}]"
    )


def public_angles(chain: Chain, state: np.ndarray) -> np.ndarray:
    """Public angles from a kernel's final state: (n,) in 2-D (free joints wrapped into
    (-pi, pi]), (n, 3) rotation vectors in 3-D."""
    if chain.dim == 2:
        out = np.empty(chain.n)
        call(g.wrap_free_joints, state, chain.lo, chain.hi, out)
        return out
    rv = np.empty((chain.n, 3))
    call(g.rotvecs_from_quats, state, rv)
    return rv
