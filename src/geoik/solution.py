"""The result of a solve."""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum
from typing import TYPE_CHECKING

import numpy as np

from geoik.pose import Pose

if TYPE_CHECKING:
    from geoik.chain import Chain
    from geoik.motion import Motion

__all__ = ["STATUSES", "Solution", "Status"]


class Status(int, Enum):
    """How a solve ended.

    The values are the kernels' status codes, and a Status is an int: arrays of codes, such as
    :attr:`geoik.batch.BatchResult.status`, compare with it element-wise.
    """

    REACHED = 0
    """The end effector is within ``tol`` of the target."""
    CLOSEST = 1
    """The target is out of reach and the end effector is within ``tol`` of the closest point
    the chain can reach."""
    MAX_ITERATIONS = 2
    """The solver used all its iterations without reaching the target."""
    STALLED = 3
    """The solver stopped early (no progress, or a one-pass method ended) short of the target."""


STATUSES = tuple(Status)
"""The statuses indexed by their values, the kernels' status codes (:mod:`geoik.geometry`)."""


@dataclass(frozen=True, eq=False)
class Solution:
    """What :func:`geoik.solve` returns.

    Attributes
    ----------
    chain : the chain solved.
    target : (d,) the target.
    method : the registry name of the solver that produced the solution.
    positions : (n + 1, d) final joint positions, forward kinematics of ``angles``.
    angles : (n,) relative joint angles (2-D) or (n, 3) rotation vectors (3-D), radians.
    status : how the solve ended.
    iterations : iterations used (one-pass solvers: 1; seed-specific meaning per solver).
    error : distance from the end effector to the target.
    motion : what the solver did, step by step.
    tol : the tolerance the solve used.
    requested : the method asked for: ``method`` itself, or ``"auto"`` when
        :func:`geoik.solve` chose ``method`` (default: ``method``).
    """

    chain: Chain
    target: np.ndarray
    method: str
    positions: np.ndarray
    angles: np.ndarray
    status: Status
    iterations: int
    error: float
    motion: Motion
    tol: float
    requested: str = ""

    def __post_init__(self) -> None:
        for a in (self.target, self.positions, self.angles):
            a.setflags(write=False)
        if not self.requested:
            object.__setattr__(self, "requested", self.method)

    @classmethod
    def fast(
        cls,
        chain: Chain,
        target: np.ndarray,
        method: str,
        positions: np.ndarray,
        angles: np.ndarray,
        status: Status,
        iterations: int,
        error: float,
        motion: Motion,
        tol: float,
        requested: str = "",
    ) -> Solution:
        """The same as ``Solution(...)`` with the arguments in field order, without the
        dataclass's per-field frozen assignments: the constructor of :func:`geoik.solve`'s hot
        path, which already holds checked values."""
        sol = object.__new__(cls)
        sol.__dict__.update(
            chain=chain,
            target=target,
            method=method,
            positions=positions,
            angles=angles,
            status=status,
            iterations=iterations,
            error=error,
            motion=motion,
            tol=tol,
            requested=requested,
        )
        sol.__post_init__()
        return sol

    @property
    def reached(self) -> bool:
        return self.status is Status.REACHED

    @property
    def pose(self) -> Pose:
        """The final pose."""
        return Pose(self.positions, self.angles)

    @property
    def end_effector(self) -> np.ndarray:
        return self.positions[-1]
