"""What a solver did, step by step, and how it is replayed.

A :class:`Motion` is the sequence of poses a solver went through, as relative joint rotations,
one keyframe per step (keyframe 0 is the start pose). A rotation-based solver (CCD, the
triangulation family, CAA) changes one joint per step; a position-based solver (FABRIK, circle
intersection) or the Jacobian may change several. Between two keyframes each joint turns at a
constant rate along the shortest way between its two rotations (in 2-D: linear interpolation of
the relative angle; in 3-D: slerp of the local rotation), so a one-joint step is exactly the
rotation the solver made. Every cost function (:mod:`geoik.costs`) reads the Motion, so every
solver is measured the same way.

The folder: this module holds :class:`Motion` and :func:`motion_costs`; ``replay.py`` the
compiled replay (costs, traces and step rotations in 2-D and 3-D, the 3-D path by Romberg
extrapolation of sampled polylines) and ``arcs.py`` the planar step's path length (Taylor
series of the end effector's velocity, integrated by Gauss-Kronrod quadrature).

May import: the base layer (:mod:`geoik.geometry`, :mod:`geoik.jit`, :mod:`geoik.checks`) and,
for annotations only, :mod:`geoik.chain`.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import TYPE_CHECKING

import numpy as np

from geoik.checks import check_memory, is_number
from geoik.errors import InvalidOptionError, describe
from geoik.geometry import fk_2d, fk_3d, rotvecs_from_quats
from geoik.jit import call
from geoik.motion.replay import (
    _rotations_3d,
    _trace_2d,
    _trace_3d,
    costs_2d,
    costs_3d,
)
from geoik.motion.replay import richardson as richardson  # the path integration's rules
from geoik.motion.replay import samples as samples

if TYPE_CHECKING:
    from geoik.chain import Chain

__all__ = ["Motion", "costs_2d", "costs_3d", "motion_costs"]

REPLAY_WORK_2D = 20
"""Work (:mod:`geoik.jit`) of replaying one keyframe entry in 2-D: a multi-joint step is
sampled and extrapolated, which as plain Python takes some 40-80 µs per entry."""
REPLAY_WORK = 50
"""The same in 3-D, where slerped samples take some 50-250 µs per entry as plain Python."""
TRACE_WORK_2D = 0.5
"""Work of one sample of a 2-D trace per joint (about 1 µs as plain Python): a trace's work is
its number of samples, which its step sets, times the joints times this."""
TRACE_WORK = 2.0
"""The same in 3-D (about 8 µs as plain Python: a slerp and a joint's forward kinematics)."""


@dataclass(frozen=True, eq=False)
class Motion:
    """The recorded motion of one solve.

    Attributes
    ----------
    chain : the chain that moved.
    keys : (S + 1, n) relative angles in 2-D, or (S + 1, n, 4) local joint quaternions in 3-D,
        after each of the S steps (row 0: the start pose). A robot's motion is a
        :class:`geoik.robots.motion.RobotMotion`.
    """

    chain: Chain
    keys: np.ndarray

    def __post_init__(self) -> None:
        self.keys.setflags(write=False)

    @classmethod
    def fast(cls, chain: Chain, keys: np.ndarray) -> Motion:
        """The same as ``Motion(chain, keys)`` without the dataclass's frozen assignments (the
        constructor of :func:`geoik.solve`'s hot path)."""
        motion = object.__new__(cls)
        motion.__dict__.update(chain=chain, keys=keys)
        motion.__post_init__()
        return motion

    @property
    def steps(self) -> int:
        """Number of recorded steps."""
        return int(self.keys.shape[0] - 1)

    @property
    def angles(self) -> np.ndarray:
        """(S + 1, n) relative angles (2-D) or (S + 1, n, 3) rotation vectors (3-D), radians."""
        if self.chain.dim == 2:
            return self.keys.copy()
        out = np.empty(self.keys.shape[:2] + (3,))
        for k in range(self.keys.shape[0]):
            call(rotvecs_from_quats, self.keys[k], out[k])
        return out

    def rotations(self) -> np.ndarray:
        """(S, n) magnitude in radians of each joint's rotation in each step."""
        return _step_rotations(self.keys, self.chain.dim)

    def poses(self) -> np.ndarray:
        """(S + 1, n + 1, d) joint positions at every keyframe."""
        c = self.chain
        out = np.empty((self.keys.shape[0], c.n + 1, c.dim))
        world = np.empty((c.n, 4))
        for k in range(self.keys.shape[0]):
            if c.dim == 2:
                call(fk_2d, c.lengths, c.base, self.keys[k], out[k])
            else:
                call(fk_3d, c.lengths, c.base, self.keys[k], out[k], world)
        return out

    def trace(self, max_step_deg: float = 1.0) -> np.ndarray:
        """End-effector path as the motion is played: an (m, d) polyline.

        Each step is sampled so that no joint turns more than ``max_step_deg`` (degrees, above
        0) between samples.
        """
        c = self.chain
        step = trace_step(max_step_deg)
        count = trace_samples(step_turns(self.keys, c.dim), step)
        check_memory(count * c.dim * 8.0, f"a trace of {count:.4g} samples", "max_step_deg")
        if c.dim == 2:
            work = int(count * c.n * TRACE_WORK_2D)
            return call(_trace_2d, c.lengths, c.base, self.keys, step, work=work)
        work = int(count * c.n * TRACE_WORK)
        return call(_trace_3d, c.lengths, c.base, self.keys, step, work=work)

    def path_length(self) -> float:
        """True length of the path the end effector traces while the motion is played."""
        return self.measure()[2]

    def measure(self) -> tuple[int, float, float]:
        """(rotations over 5 degrees, sum of rotation magnitudes in radians, path length): what
        :func:`geoik.costs` reads."""
        return motion_costs(self.chain, self.keys)


def motion_costs(chain: Chain, keys: np.ndarray) -> tuple[int, float, float]:
    """(rotations over 5 degrees, sum of rotation magnitudes in radians, path length)."""
    keys = _as_recorded(keys)
    if chain.dim == 2:
        return call(
            costs_2d,
            chain.lengths,
            chain.base,
            keys,
            keys.shape[0],
            work=keys.size * REPLAY_WORK_2D,
        )
    return call(
        costs_3d, chain.lengths, chain.base, keys, keys.shape[0], work=keys.size * REPLAY_WORK
    )


def trace_step(max_step_deg: float) -> float:
    """A trace's ``max_step_deg`` checked (a finite number of degrees above 0), in radians."""
    if not is_number(max_step_deg) or not 0.0 < max_step_deg < math.inf:
        raise InvalidOptionError(
            f"expected a finite number of degrees above 0, got {describe(max_step_deg)}",
            argument="max_step_deg",
        )
    return math.radians(max_step_deg)


def step_turns(keys: np.ndarray, dim: int) -> np.ndarray:
    """(S,) the largest turn (radians) of any joint in each of the motion's steps, by NumPy: in
    2-D the relative angles' change, in 3-D the angle between two keyframes' quaternions. An
    estimate for a work hint: :func:`_step_rotations` gives each joint's turn exactly, but in
    3-D through a kernel that would itself be compiled or run as Python first."""
    if keys.shape[0] < 2:
        return np.zeros(0)
    if dim == 2:
        turns = np.abs(np.diff(keys, axis=0))
    else:
        dots = np.abs(np.einsum("sjk,sjk->sj", keys[1:], keys[:-1]))
        turns = 2.0 * np.arccos(np.minimum(dots, 1.0))
    return turns.max(axis=1, initial=0.0)


def trace_samples(turns: np.ndarray, step: float) -> float:
    """How many samples a trace takes: the first keyframe, then in each step its largest turn
    ``turns`` (radians) over ``step``, rounded up, at least one (as the trace kernels count
    them; a float, since a tiny step can make it huge)."""
    return 1.0 + float(np.maximum(1.0, np.ceil(turns / step)).sum())


def _as_recorded(keys: np.ndarray) -> np.ndarray:
    """``keys`` typed as the batch engines pass their keyframes to the cost functions (writable,
    C-contiguous), so that one compiled cost function serves both: a writable view of the read-only
    keys where NumPy allows it (their buffer is writable), else a copy. Nothing writes to it."""
    if keys.flags.writeable and keys.flags.c_contiguous:
        return keys
    view = keys.view()
    try:
        view.setflags(write=True)
    except ValueError:
        return np.array(keys, order="C")
    return view if view.flags.c_contiguous else np.array(keys, order="C")


def _step_rotations(keys: np.ndarray, dim: int) -> np.ndarray:
    s = keys.shape[0] - 1
    out = np.zeros((max(s, 0), keys.shape[1]))
    if dim == 2:
        if s > 0:
            out[:] = np.abs(np.diff(keys, axis=0))
        return out
    call(_rotations_3d, keys, out)
    return out
