"""The seeds' cost functions, read from a solution's recorded motion.

Seed 002 (Mukundan 2009, Section V) compares solvers by (i) the number of joint rotations greater
than 5 degrees, (ii) the sum of the magnitudes of all joint rotations and (iii) the distance the end
effector travels; seed 004 adds the number of iterations. Seed 000's cost C (its eq. 3) is (ii).
All are computed from :class:`geoik.motion.Motion`, never from what a solver says about itself.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from geoik.solution import Solution

__all__ = ["Costs", "costs"]


@dataclass(frozen=True)
class Costs:
    """Costs of one solve.

    Attributes
    ----------
    rotations_over_5deg : number of joint rotations whose magnitude exceeds 5 degrees.
    rotation_sum_deg : sum of the magnitudes of all joint rotations, degrees.
    path_length : length of the path the end effector traces while the motion is played
        (arc length, not the sum of straight-line displacements), in the chain's length unit.
    iterations : iterations the solver used.
    """

    rotations_over_5deg: int
    rotation_sum_deg: float
    path_length: float
    iterations: int


def costs(solution: Solution) -> Costs:
    """The seeds' costs of a solution, read from its recorded motion."""
    count, total, path = solution.motion.measure()
    return Costs(int(count), math.degrees(total), float(path), int(solution.iterations))
