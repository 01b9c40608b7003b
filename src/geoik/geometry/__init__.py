"""Numba-compiled geometry shared by every solver kernel.

Everything here works on plain float64 arrays and scalars, so that kernels stay free of Python
objects (numbagg style). Angles are radians.

Conventions
-----------
2-D
    Relative joint angles ``angles`` of shape ``(n,)``; joint ``i``'s angle is measured from the
    direction of link ``i - 1`` (joint 0: from +x), counter-clockwise positive. Limits are
    ``lo[i] <= angles[i] <= hi[i]``; a free joint has ``lo = -inf`` and ``hi = +inf``.
3-D
    Each joint holds a unit quaternion ``(w, x, y, z)`` turning the parent link's frame into its
    own link's frame; a link points along the +x axis of its own frame. ``hinge[i]`` is a unit
    axis in the parent link's frame (perpendicular to +x) or the zero vector for a ball joint;
    ``cone[i]`` bounds the angle between a ball joint's link and its parent link, and ``lo[i]``,
    ``hi[i]`` bound the signed angle of a hinge.

The folder, every name re-exported here: ``core.py`` (status codes, constants, squares,
copies, sums, wrapping and clamping), ``planar.py`` (2-D chains), ``quaternions.py``,
``spatial.py`` (3-D chains: forward kinematics, link frames, joints within limits; rotations
about the coordinate axes) and
``points.py`` (distances, the closest points of a reach, the tree kernels' point helpers).

May import nothing else of geoik but :mod:`geoik.jit`, first: this is the base every kernel
stands on, and ``geoik.jit`` makes numba's cache of each kernel follow the modules its file
imports (``_stamps_follow_imports``) before the first kernel is defined.
"""

from __future__ import annotations

import geoik.jit  # noqa: F401  (first: see above)
from geoik.geometry.core import (
    CLOSEST,
    MAX_ITERATIONS,
    PI,
    REACHED,
    SINCOS_RANGE,
    STALLED,
    TINY,
    TREE_MOVED,
    add_into,
    clamp,
    copy_into,
    sincos,
    sincos_into,
    sq,
    total_length,
    wrap,
)
from geoik.geometry.planar import (
    angles_from_positions_2d,
    fit_angle,
    fk_2d,
    wrap_free_joints,
)
from geoik.geometry.points import (
    all_done,
    annulus_closest,
    beyond_reach,
    dist2,
    distance,
    max_move,
    norm3,
    toward,
    tree_settled,
)
from geoik.geometry.quaternions import (
    identity_quats,
    q_angle,
    q_axis_angle,
    q_between,
    q_to_rotvec,
    qmul,
    qnormalize,
    qrot,
    rotvec_to_q,
    rotvecs_from_quats,
)
from geoik.geometry.spatial import (
    axis_rotations,
    constrain_joint_3d,
    fk_3d,
    fk_3d_from,
    hinge_angle,
    is_hinge,
    joint_quat_toward,
    parent_frame,
    quats_from_positions_3d,
)

__all__ = [
    "CLOSEST",
    "MAX_ITERATIONS",
    "PI",
    "REACHED",
    "SINCOS_RANGE",
    "STALLED",
    "TINY",
    "TREE_MOVED",
    "add_into",
    "all_done",
    "angles_from_positions_2d",
    "annulus_closest",
    "axis_rotations",
    "beyond_reach",
    "clamp",
    "constrain_joint_3d",
    "copy_into",
    "dist2",
    "distance",
    "fit_angle",
    "fk_2d",
    "fk_3d",
    "fk_3d_from",
    "hinge_angle",
    "identity_quats",
    "is_hinge",
    "joint_quat_toward",
    "max_move",
    "norm3",
    "parent_frame",
    "q_angle",
    "q_axis_angle",
    "q_between",
    "q_to_rotvec",
    "qmul",
    "qnormalize",
    "qrot",
    "quats_from_positions_3d",
    "rotvec_to_q",
    "rotvecs_from_quats",
    "tree_settled",
    "sincos",
    "sincos_into",
    "sq",
    "total_length",
    "toward",
    "wrap",
    "wrap_free_joints",
]
