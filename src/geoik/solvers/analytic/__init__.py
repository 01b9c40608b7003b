"""The analytic solver: every solution of a pose of a serial arm, by canonical subproblems.

Three layers, each on plain arrays (this package never imports :mod:`geoik.robots`; the robot
side is :mod:`geoik.robots.analytic`):

- :mod:`.subproblems`: the six canonical subproblems (Paden-Kahan SP1-SP3, IK-Geo's SP4-SP6),
  each a small compiled kernel returning every solution, least squares where the geometry has
  no exact one, flagged;
- :mod:`.decompose`: from the arm's product-of-exponentials form (axes ``H``, offsets ``P``),
  which axes are parallel or meet, the kinematic family, and the plan
  (:class:`.decompose.Plan`);
- :mod:`.families` and :mod:`.finish`: one compiled call per pose that composes the family's
  subproblems, polishes each candidate by Newton's method on the full forward kinematics
  (:mod:`.polish`),
  keeps the joint values inside their limits (turning by 2 pi where that helps), merges
  duplicates and sorts by distance from the start (:func:`.finish.all_solutions`);
- :mod:`.five`: arms of four and five joints (axes 2-4 parallel), every solution of a pose or,
  where the orientation is out of reach, the nearest at the position
  (:func:`.five.all_solutions_short`).

Kernel contract (:class:`~geoik.solvers.base.Solver`'s ``kernel_all``)::

    all_solutions(model, R_goal, p_goal, start, tol, angle_tol, out)
        -> (exact, outside_limits, closest)

``model`` is the plan and the joint limits packed into one array (:func:`pack`, once per
robot), so that a call passes seven arguments; ``out`` (:data:`MAX_SOLUTIONS`, 9) receives
rows of joint values, flags and errors: the exact solutions within the limits, then the exact
ones outside them, then the least-squares candidates (the goal out of reach), each group
sorted (by distance from ``start``; the candidates by their pose error).
"""

from __future__ import annotations

from geoik.solvers.analytic.decompose import DEFAULT_TOL, FAMILIES, Plan, decompose
from geoik.solvers.analytic.families import MAX_SOLUTIONS
from geoik.solvers.analytic.finish import (
    NOT_EXACT,
    OUT_COLUMNS,
    OUTSIDE_LIMITS,
    SINGULAR,
    all_solutions,
    pack,
)
from geoik.solvers.base import Solver

__all__ = [
    "DEFAULT_TOL",
    "FAMILIES",
    "MAX_SOLUTIONS",
    "NOT_EXACT",
    "OUTSIDE_LIMITS",
    "OUT_COLUMNS",
    "SINGULAR",
    "SOLVER",
    "Plan",
    "all_solutions",
    "decompose",
    "pack",
]

SOLVER = Solver(
    name="analytic",
    summary="Every solution of a 6R arm's pose by canonical subproblems (robots with an "
    "orientation; 4R and 5R arms: the nearest orientation where out of reach)",
    source="Paden & Kahan; Elias & Wen, IK-Geo (2022-2024); Ostermeier et al. (2025)",
    module="geoik.solvers.analytic",
    kernel_2d=None,
    kernel_3d=None,
    capacity=lambda n, max_iter: 1,
    default_max_iter=1,
    iterative=False,
    general_note="a geoik.Robot",
    kernel_all=all_solutions,
    decompose=decompose,
    pack=lambda plan, lo, hi: pack(
        plan.code, plan.reverse, plan.H, plan.P, plan.R_tip, plan.points, lo, hi
    ),
    max_solutions=MAX_SOLUTIONS,
)
