"""geoik: fast geometric inverse kinematics for joint chains and trees, in 2-D and 3-D.

>>> import geoik as ik
>>> chain = ik.Chain.planar([2] * 10)
>>> sol = ik.solve(chain, (8.33, 2.83), method="ccd")
>>> sol.status
<Status.REACHED: 0>
"""

from __future__ import annotations

import importlib
import sys
import types
from typing import TYPE_CHECKING, Any

__version__ = "0.1.0"

# The public names and the modules that define them. They are imported on first use (PEP 562),
# so that ``import geoik`` (and the command line, which starts with it) costs no NumPy or numba
# until something is solved, and a Ctrl-C during those imports lands inside ``geoik``'s own
# error handling.
_EXPORTS = {
    "solve": "geoik.api",
    "warm_up": "geoik.api",
    "Clip": "geoik.bvh",
    "Frames": "geoik.bvh",
    "load_bvh": "geoik.bvh",
    "save_bvh": "geoik.bvh",
    "Chain": "geoik.chain",
    "Pin": "geoik.clip",
    "PosedClip": "geoik.clip",
    "pose_clip": "geoik.clip",
    "Costs": "geoik.costs",
    "costs": "geoik.costs",
    "BVHError": "geoik.errors",
    "GeoIKError": "geoik.errors",
    "InvalidChainError": "geoik.errors",
    "InvalidOptionError": "geoik.errors",
    "InvalidPoseError": "geoik.errors",
    "InvalidTargetError": "geoik.errors",
    "LimitError": "geoik.errors",
    "RobotsMissingError": "geoik.errors",
    "URDFError": "geoik.errors",
    "UnknownMethodError": "geoik.errors",
    "UnsupportedChainError": "geoik.errors",
    "UnsupportedJointError": "geoik.errors",
    "Motion": "geoik.motion",
    "Pose": "geoik.pose",
    "Robot": "geoik.robot",
    "Branch": "geoik.skeleton",
    "Skeleton": "geoik.skeleton",
    "Solution": "geoik.solution",
    "Status": "geoik.solution",
    "TreeSolution": "geoik.tree",
    "solve_tree": "geoik.tree",
    "TreePose": "geoik.tree_pose",
    "load_urdf": "geoik.urdf",
}

__all__ = [
    "__version__",
    "BVHError",
    "Branch",
    "Chain",
    "Clip",
    "Costs",
    "Frames",
    "GeoIKError",
    "InvalidChainError",
    "InvalidOptionError",
    "InvalidPoseError",
    "InvalidTargetError",
    "LimitError",
    "Motion",
    "Pin",
    "Pose",
    "PosedClip",
    "Robot",
    "RobotsMissingError",
    "Skeleton",
    "Solution",
    "Status",
    "TreePose",
    "TreeSolution",
    "URDFError",
    "UnknownMethodError",
    "UnsupportedChainError",
    "UnsupportedJointError",
    "costs",
    "load_bvh",
    "load_urdf",
    "pose_clip",
    "save_bvh",
    "solve",
    "solve_tree",
    "warm_up",
]


def __getattr__(name: str) -> Any:
    """A public name, or a submodule (``geoik.api``), imported on first use."""
    module = _EXPORTS.get(name)
    if module is not None:
        value = getattr(importlib.import_module(module), name)
    else:
        try:
            value = importlib.import_module(f"{__name__}.{name}")
        except ModuleNotFoundError as e:
            if e.name != f"{__name__}.{name}":
                raise
            raise AttributeError(f"module {__name__!r} has no attribute {name!r}") from None
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted({*globals(), *_EXPORTS})


class _Package(types.ModuleType):
    """geoik's module type: importing a submodule named like a public function
    (``geoik.costs``, the module of :func:`costs`) leaves the name the function."""

    def __setattr__(self, name: str, value: Any) -> None:
        if name in _EXPORTS and isinstance(value, types.ModuleType):
            return
        super().__setattr__(name, value)


sys.modules[__name__].__class__ = _Package


if TYPE_CHECKING:
    from geoik.api import solve, warm_up
    from geoik.bvh import Clip, Frames, load_bvh, save_bvh
    from geoik.chain import Chain
    from geoik.clip import Pin, PosedClip, pose_clip
    from geoik.costs import Costs, costs
    from geoik.errors import (
        BVHError,
        GeoIKError,
        InvalidChainError,
        InvalidOptionError,
        InvalidPoseError,
        InvalidTargetError,
        LimitError,
        RobotsMissingError,
        UnknownMethodError,
        UnsupportedChainError,
        UnsupportedJointError,
        URDFError,
    )
    from geoik.motion import Motion
    from geoik.pose import Pose
    from geoik.robot import Robot
    from geoik.skeleton import Branch, Skeleton
    from geoik.solution import Solution, Status
    from geoik.tree import TreeSolution, solve_tree
    from geoik.tree_pose import TreePose
    from geoik.urdf import load_urdf
