"""Input checks: the one validation layer of every public entry.

:func:`geoik.solve`, :func:`geoik.solve_tree`, :func:`geoik.batch.evaluate`, the model
constructors, the viewer's protocol and the command line's parsers all check points,
tolerances, iteration budgets and flags here. Each check takes the argument's ``name`` as the
caller's user spells it (``target``, ``targets['index']``, ``--tol``, ``chain.base``) and raises a
:class:`geoik.GeoIKError` subclass whose message names it, says what was expected and what came.
Everything after these checks trusts its data.

The checks live in three modules, re-exported here: :mod:`~geoik.checks.values` (numbers,
points, tolerances, budgets, flags, model fields, and the defaults and caps every entry shares),
:mod:`~geoik.checks.rotations` (orientations and 4x4 poses) and :mod:`~geoik.checks.memory`
(results refused before any work when they would not fit in memory).

May import: :mod:`geoik.errors` only.
"""

from __future__ import annotations

from geoik.checks.memory import (
    check_memory,
    memory_limit,
)
from geoik.checks.rotations import (
    SAME_ROTATION,
    check_angle_tol,
    check_rotation,
    check_rotations,
    is_rotation_object,
    pose_unchecked,
    split_pose,
)
from geoik.checks.values import (
    DEFAULT_ANGLE_TOL,
    DEFAULT_METHOD,
    DEFAULT_ROBOT_TOL,
    DEFAULT_TOL,
    MAX_COORDINATE,
    MAX_ITER,
    MAX_LINKS,
    MAX_MOTION_BYTES,
    check_array,
    check_flag,
    check_int,
    check_ints,
    check_max_iter,
    check_motion,
    check_names,
    check_number,
    check_point,
    check_point_within,
    check_points,
    check_tol,
    is_integer,
    is_number,
    plain_floats,
    relative_tol,
)

__all__ = [
    "DEFAULT_ANGLE_TOL",
    "DEFAULT_METHOD",
    "DEFAULT_ROBOT_TOL",
    "DEFAULT_TOL",
    "MAX_COORDINATE",
    "MAX_ITER",
    "MAX_LINKS",
    "MAX_MOTION_BYTES",
    "SAME_ROTATION",
    "check_angle_tol",
    "check_array",
    "check_flag",
    "check_int",
    "check_ints",
    "check_max_iter",
    "check_memory",
    "check_motion",
    "check_names",
    "check_number",
    "check_point",
    "check_point_within",
    "check_points",
    "check_rotation",
    "check_rotations",
    "check_tol",
    "is_rotation_object",
    "pose_unchecked",
    "split_pose",
    "is_integer",
    "is_number",
    "memory_limit",
    "plain_floats",
    "relative_tol",
]
