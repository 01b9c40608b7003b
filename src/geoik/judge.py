"""The one judge of how a solve ended, shared by :func:`geoik.solve`, the batch engine and the
tree solvers.

A kernel reports a code (REACHED, CLOSEST, MAX_ITERATIONS or STALLED), but its word is not
taken: the end effector is measured. REACHED iff its distance from the target is within ``tol``;
CLOSEST only when the target is out of reach and the end effector is within ``tol`` of the
provably closest reachable point (:func:`geoik.reach.closest_reachable_point`); otherwise the
kernel's MAX_ITERATIONS or STALLED (a kernel's REACHED or CLOSEST that does not pass becomes
STALLED).

The closest reachable point, where provable, is the target's radial projection onto a sphere
about the base, so a model is described to the judge by four numbers (:func:`judge_params`).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np
from numba import njit

from geoik.geometry import (
    CLOSEST,
    MAX_ITERATIONS,
    REACHED,
    STALLED,
    fk_2d,
    fk_3d,
    norm3,
    rotvecs_from_quats,
    wrap_free_joints,
)
from geoik.reach import closest_radii

if TYPE_CHECKING:
    from geoik.chain import Chain

__all__ = [
    "annulus_params",
    "finish_2d",
    "finish_3d",
    "judge",
    "judge_params",
    "judge_robot",
    "judge_xyz",
]

# judge params layout: [outer radius, inner radius, outer known, inner known]
_ROUT, _RIN, _OUTER, _INNER = 0, 1, 2, 3


def annulus_params(rmin: float, rmax: float) -> np.ndarray:
    """Judge params of an end effector that reaches exactly the distances ``[rmin, rmax]`` from
    its base in every direction (a free first joint)."""
    return np.array([rmax, rmin, 1.0, 1.0 if rmin > 0.0 else 0.0])


def judge_params(chain: Chain) -> np.ndarray:
    """What :func:`judge` needs to know of a chain's closest reachable points (cached).

    ``[outer radius, inner radius, outer known, inner known]``: a target farther from the base
    than the outer radius has its closest reachable point on that sphere when ``outer known`` is
    1, and likewise for a target nearer than the inner radius.
    """
    cached = chain._cache.get("judge_params")
    if cached is None:
        outer, inner = closest_radii(chain)
        cached = np.array(
            [
                0.0 if outer is None else outer,
                0.0 if inner is None else inner,
                0.0 if outer is None else 1.0,
                0.0 if inner is None else 1.0,
            ]
        )
        chain._cache["judge_params"] = cached
    return cached


@njit(cache=True)
def judge(target, end, code, tol, base, params):
    """(status code, error) of a solve whose end effector is at ``end``.

    Parameters
    ----------
    target, end, base : (d,) the target, the end effector, the base (the root of a tree path).
    code : the kernel's status code.
    tol : the tolerance.
    params : (4,) :func:`judge_params` of the model.
    """
    if target.shape[0] == 3:
        return judge_xyz(
            (target[0], target[1], target[2]),
            (end[0], end[1], end[2]),
            code,
            tol,
            (base[0], base[1], base[2]),
            params,
        )
    return judge_xyz(
        (target[0], target[1], 0.0),
        (end[0], end[1], 0.0),
        code,
        tol,
        (base[0], base[1], 0.0),
        params,
    )


@njit(cache=True, inline="always")  # inlined: a call would count references to params
def judge_xyz(target, end, code, tol, base, params):
    """:func:`judge` on coordinates: ``target``, ``end`` and ``base`` as 3-tuples (z = 0 in
    2-D), for loops over many targets that should not make an array view per target.
    ``params`` may be the array or a tuple of its four values (a tuple costs no reference
    counting, even inlined)."""
    tx, ty, tz = target
    ex, ey, ez = end
    bx, by, bz = base
    error = norm3(ex - tx, ey - ty, ez - tz)
    if error <= tol:
        return REACHED, error
    dist = norm3(tx - bx, ty - by, tz - bz)
    scale = -1.0
    if params[_OUTER] != 0.0 and dist > params[_ROUT]:
        scale = params[_ROUT] / dist
    elif params[_INNER] != 0.0 and dist < params[_RIN]:
        if dist == 0.0:  # every point of the inner sphere is nearest
            if error <= params[_RIN] + tol:
                return CLOSEST, error
        else:
            scale = params[_RIN] / dist
    if scale >= 0.0:
        cx = bx + (tx - bx) * scale
        cy = by + (ty - by) * scale
        cz = bz + (tz - bz) * scale
        if norm3(ex - cx, ey - cy, ez - cz) <= tol:
            return CLOSEST, error
    if code in (REACHED, CLOSEST):
        return STALLED, error
    return code, error


@njit(cache=True)
def finish_2d(model, angles, target, code, tol, params, pos, out):
    """A 2-D kernel's result as :func:`geoik.solve` returns it, in one compiled call.

    ``model`` is the chain's ``kernel_arrays`` ``(lengths, base, lo, hi)``. Writes the joint
    positions ``pos`` (n + 1, 2) (forward kinematics of ``angles`` (n,), radians) and the
    public angles ``out`` (n,) (free joints wrapped into (-pi, pi]); returns :func:`judge` of
    the end effector against ``target`` (2,) with the kernel's status ``code``, ``tol`` and the
    judge's ``params`` (4,): ``(status code, error)``.
    """
    lengths, base, lo, hi = model
    fk_2d(lengths, base, angles, pos)
    wrap_free_joints(angles, lo, hi, out)
    return judge(target, pos[lengths.shape[0]], code, tol, base, params)


@njit(cache=True)
def finish_3d(model, quats, target, code, tol, params, pos, out):
    """A 3-D kernel's result as :func:`geoik.solve` returns it, in one compiled call.

    ``model`` is the chain's ``kernel_arrays`` ``(lengths, base, cone, hinge, lo, hi)``.
    Writes the joint positions ``pos`` (n + 1, 3) (forward kinematics of ``quats`` (n, 4)) and
    the rotation vectors ``out`` (n, 3); returns :func:`judge` of the end effector, as
    :func:`finish_2d`.
    """
    lengths, base = model[0], model[1]
    n = lengths.shape[0]
    fk_3d(lengths, base, quats, pos, np.empty((n, 4)))
    rotvecs_from_quats(quats, out)
    return judge(target, pos[n], code, tol, base, params)


def judge_robot(
    code: int, error: float, angle_error: float | None, tol: float, angle_tol: float
) -> int:
    """The status code of a robot's tip: REACHED iff its position error is within ``tol`` and,
    when an orientation was asked (``angle_error`` not None), its angle error within
    ``angle_tol``; otherwise the kernel's MAX_ITERATIONS or STALLED (a kernel's REACHED that
    does not pass becomes STALLED). Never CLOSEST: a robot's reachable set is no sphere, and
    no closest point is proven."""
    if error <= tol and (angle_error is None or angle_error <= angle_tol):
        return REACHED
    return code if code in (MAX_ITERATIONS, STALLED) else STALLED
