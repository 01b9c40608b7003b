"""The other solutions of the robot's target: the ghost arms of ``geoik view --robot``.

A 6-joint arm whose family has a closed form (:attr:`geoik.Robot.family`: the UR arms, the Z1,
the Kinova, the Talos arm) reaches a full pose (position and orientation) in up to eight ways:
elbow up or down, shoulder left or right, wrist flipped. :func:`geoik.solve_all` gives them
all; the page draws each but the arm's own as a faint copy of the robot, and a click on one
puts the arm there. Robots without a finite set of solutions say why (:func:`unavailable`).
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np

__all__ = ["SAME_SOLUTION", "others", "unavailable"]

SAME_SOLUTION = 1e-2
"""Largest difference of any joint (radians, or metres for a sliding joint) between the arm's
solved joint values and a solution of :func:`geoik.solve_all` for that solution to be the arm's
own (an iterative solver stops within its tolerances, not on the exact solution)."""


def unavailable(robot: Any) -> str | None:
    """Why the robot's other solutions cannot be shown, in words for the page; None when they
    can (one tip, a closed form, a finite set of solutions)."""
    if robot.k != 1:
        return f"{robot.k} tips: other solutions are those of one tip's pose"
    plan = robot.analytic_plan()
    if plan.code == 0:
        return f"no closed form for this arm ({plan.family})"
    if plan.locked >= 0:
        return (
            f"{robot.n} joints: a continuum of solutions (a set for every value of joint "
            f"{robot.joint_names[plan.locked]!r}), not a few to show"
        )
    return None


def others(
    model: Any, target: np.ndarray, rotation: np.ndarray | None, angles: np.ndarray
) -> dict[str, Any]:
    """The ``others`` entry of a ``robot_solve`` reply: every solution of the pose
    (:func:`geoik.solve_all`, nearest ``angles`` first) but the arm's own.

    Parameters
    ----------
    model : the :class:`~geoik.viewer.models.RobotModel` (one tip).
    target : (3,) the tip's target (metres, base frame).
    rotation : (3, 3) its orientation, or None (a position only: no finite set to show).
    angles : (n,) the arm's solved joint values (radians).

    Returns
    -------
    dict
        ``solutions``: how many solutions within the limits the pose has (k); ``own``: whether
        one of them is the arm's (then ``ghosts`` has k - 1 entries, else k); ``ghosts``: per
        other solution its ``angles`` (n,) and every link's ``poses`` (as
        :meth:`~geoik.viewer.models.RobotModel.link_poses`); ``nearest``: True when the
        orientation is out of a 4- or 5-joint arm's reach at the position, the rows then the
        poses at the nearest orientation it can take; ``reason``: why there are none (None
        when the pose has solutions).
    """
    from geoik.robots.analytic import SetStatus, solve_all

    robot = model.robot
    why = unavailable(robot)
    if why is None and rotation is None:
        why = "a position alone is reached in endless ways: solve with the orientation"
    if why is not None:
        return {"solutions": 0, "own": False, "ghosts": [], "nearest": False, "reason": why}
    found = solve_all(robot, target, rotation, start=angles)
    rows = found.angles
    own = bool(len(rows)) and _gap(rows[0], angles, robot.wraps) <= SAME_SOLUTION
    ghosts = [{"angles": q.tolist(), "poses": model.link_poses(q)} for q in rows[1 if own else 0 :]]
    return {
        "solutions": len(rows),
        "own": own,
        "ghosts": ghosts,
        "nearest": found.status is SetStatus.NEAREST_ORIENTATION,
        "reason": None if len(rows) else found.reason,
    }


def _gap(a: np.ndarray, b: np.ndarray, wraps: np.ndarray) -> float:
    """The largest joint difference, continuous joints compared modulo a turn."""
    d = np.abs(a - b)
    d[wraps] = np.abs(np.remainder(d[wraps] + math.pi, 2 * math.pi) - math.pi)
    return float(d.max()) if d.size else 0.0
