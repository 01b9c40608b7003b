"""What the batch engines take and fill, as named tuples: a :class:`Job` (the targets and
everything every target shares) and its :class:`Outputs` (one array per result, a row per
target), with their numba types for the engines' explicit signatures.

The chain travels to the engines as :attr:`geoik.Chain.kernel_arrays` (numba types
:data:`CHAIN_2D`, :data:`CHAIN_3D`), which the engines unpack into the arrays every kernel
takes. A tuple reaches compiled code as its fields, passed one by one, so a bundle costs nothing
per call over the arrays it holds; the engines unpack a bundle once, before their loops.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np
from numba import types

__all__ = [
    "CHAIN_2D",
    "CHAIN_3D",
    "LANE_OUTPUTS",
    "Job",
    "Outputs",
    "empty_outputs",
    "job_type",
    "outputs_type",
]

_A1 = types.Array(types.float64, 1, "C")
_A2 = types.Array(types.float64, 2, "C")
_A3 = types.Array(types.float64, 3, "C")
_MODEL = types.Array(types.float64, 1, "C", readonly=True)  # a chain's arrays are read-only
_MODEL2 = types.Array(types.float64, 2, "C", readonly=True)
_I8 = types.Array(types.int8, 1, "C")
_I64 = types.Array(types.int64, 1, "C")

CHAIN_2D = types.UniTuple(_MODEL, 4)
"""The numba type of a planar chain's ``kernel_arrays``: ``(lengths, base, lo, hi)``."""
CHAIN_3D = types.Tuple((_MODEL, _MODEL, _MODEL, _MODEL2, _MODEL, _MODEL))
"""The numba type of a 3-D chain's ``kernel_arrays``: ``(lengths, base, cone, hinge, lo, hi)``."""
LANE_OUTPUTS = types.Tuple((_I64, _I64, _I64, _A2))
"""The numba type of a lane kernel's outputs ``(nrec, status, iters, end)``: (K,) int64 keyframes
used, kernel status and iterations, and (K, d) the final end effectors."""


class Job(NamedTuple):
    """One engine call's targets and what every target shares.

    Attributes
    ----------
    targets : (m, d) the targets.
    start : the start pose of every target: (n,) relative angles in radians (2-D) or (n, 4)
        local rotations (3-D).
    tol : the tolerance, in the chain's length unit.
    max_iter : the iteration budget.
    opts : (k,) the kernel's packed options (``Solver.kernel_opts``).
    cap : keyframe rows per target (``Solver.capacity``; 1 records no motion).
    params : (4,) :func:`geoik.judge.judge_params` of the chain.
    costs : whether to cost each target's motion (``cap`` > 1 then).
    """

    targets: np.ndarray
    start: np.ndarray
    tol: float
    max_iter: int
    opts: np.ndarray
    cap: int
    params: np.ndarray
    costs: bool


class Outputs(NamedTuple):
    """The engines' per-target results, a row per target (see :class:`geoik.batch.BatchResult`).

    Attributes
    ----------
    status : (m,) int8 status codes.
    iterations : (m,) int64 iterations used.
    error : (m,) distance from the end effector to the target.
    rotations : (m,) int64 joint rotations over 5 degrees.
    rotation_sum : (m,) sum of the rotation magnitudes, radians.
    path : (m,) length of the end effector's path.
    angles : (m, n) final relative angles (2-D) or (m, n, 3) rotation vectors (3-D), radians;
        no rows when not wanted.
    """

    status: np.ndarray
    iterations: np.ndarray
    error: np.ndarray
    rotations: np.ndarray
    rotation_sum: np.ndarray
    path: np.ndarray
    angles: np.ndarray


def job_type(dim: int) -> types.NamedTuple:
    """The numba type of a :class:`Job` for a ``dim``-D chain."""
    start = _A1 if dim == 2 else _A2
    fields = (_A2, start, types.float64, types.int64, _A1, types.int64, _A1, types.boolean)
    return types.NamedTuple(fields, Job)


def outputs_type(dim: int) -> types.NamedTuple:
    """The numba type of the :class:`Outputs` of a ``dim``-D chain."""
    angles = _A2 if dim == 2 else _A3
    return types.NamedTuple((_I8, _I64, _A1, _I64, _A1, _A1, angles), Outputs)


def empty_outputs(m: int, n: int, angles: bool, dim: int = 2) -> Outputs:
    """:class:`Outputs` for ``m`` targets of an ``n``-link chain, the costs zeroed (they stay
    so unless costed); ``angles``: whether the final angles are wanted."""
    shape = (m if angles else 0, n) if dim == 2 else (m if angles else 0, n, 3)
    return Outputs(
        np.empty(m, np.int8),
        np.empty(m, np.int64),
        np.empty(m),
        np.zeros(m, np.int64),
        np.zeros(m),
        np.zeros(m),
        np.empty(shape),
    )
