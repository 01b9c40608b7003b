"""geoik: fast geometric inverse kinematics for joint chains and trees, in 2-D and 3-D.

>>> import geoik as ik
>>> chain = ik.Chain.planar([2] * 10)
>>> sol = ik.solve(chain, (8.33, 2.83), method="ccd")
>>> sol.status
<Status.REACHED: 0>

The package is cut in layers; a module imports only from its own layer and the layers below
(``tests/test_layout.py`` enforces it, and ``docs/architecture.md`` draws the map):

1. the base, at the top level: :mod:`~geoik.errors`, :mod:`~geoik.checks`, :mod:`~geoik.jit`,
   :mod:`~geoik.files`, :mod:`~geoik.geometry`, :mod:`~geoik.kinematics`;
2. the model of a chain and of a solve, at the top level: :mod:`~geoik.chain`,
   :mod:`~geoik.pose`, :mod:`~geoik.state`, :mod:`~geoik.motion`, :mod:`~geoik.solution`,
   :mod:`~geoik.costs`, :mod:`~geoik.judge`, :mod:`~geoik.render`, and :mod:`geoik.reach`;
3. :mod:`geoik.solvers`: one module per algorithm, the registry and ``auto``;
4. :mod:`geoik.robots` (URDF arms and hands), then :mod:`geoik.rigs` (skeletons, BVH, clips);
5. :mod:`geoik.api` (:func:`solve`), then :mod:`geoik.batch` (many targets at once), then
   :mod:`geoik.maps` (metric and volume maps, their figures and tiles);
6. :mod:`geoik.experiments`, then the interfaces: :mod:`geoik.commands` and :mod:`geoik.viewer`.
"""

from __future__ import annotations

import importlib
import importlib.util
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
    "Clip": "geoik.rigs.bvh",
    "Frames": "geoik.rigs.bvh",
    "load_bvh": "geoik.rigs.bvh",
    "save_bvh": "geoik.rigs.bvh",
    "Chain": "geoik.chain",
    "Pin": "geoik.rigs.clip",
    "PosedClip": "geoik.rigs.clip",
    "pose_clip": "geoik.rigs.clip",
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
    "Robot": "geoik.robots.model",
    "SetStatus": "geoik.robots.analytic",
    "SolutionSet": "geoik.robots.analytic",
    "solve_all": "geoik.robots.analytic",
    "Branch": "geoik.rigs.skeleton",
    "Skeleton": "geoik.rigs.skeleton",
    "Solution": "geoik.solution",
    "Status": "geoik.solution",
    "TreeSolution": "geoik.rigs.tree",
    "solve_tree": "geoik.rigs.tree",
    "TreePose": "geoik.rigs.pose",
    "load_urdf": "geoik.robots.urdf",
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
    "SetStatus",
    "Skeleton",
    "Solution",
    "SolutionSet",
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
    "solve_all",
    "solve_tree",
    "warm_up",
]


def lazy_exports(package: str, exports: dict[str, str]) -> tuple[Any, Any]:
    """``(__getattr__, __dir__)`` for a package whose public names (``exports``: name -> the
    module defining it) and submodules are imported on first use (PEP 562)."""
    namespace = sys.modules[package].__dict__

    def getattr_(name: str) -> Any:
        module = exports.get(name)
        if module is not None:
            value = getattr(importlib.import_module(module), name)
        else:
            try:
                value = importlib.import_module(f"{package}.{name}")
            except ModuleNotFoundError as e:
                if e.name != f"{package}.{name}":
                    raise
                raise AttributeError(f"module {package!r} has no attribute {name!r}") from None
        namespace[name] = value
        return value

    def dir_() -> list[str]:
        return sorted({*namespace, *exports})

    return getattr_, dir_


__getattr__, __dir__ = lazy_exports(__name__, _EXPORTS)

# Modules that moved into the package's folders, under the names they had before: ``import
# geoik.urdf`` and ``from geoik.bvh import example_path`` still work and give the very module
# object of the new name, imported on first use.
MOVED = {
    "geoik.auto": "geoik.solvers.auto",
    "geoik.batch3d": "geoik.batch.spatial",
    "geoik.batch_trees": "geoik.batch.trees",
    "geoik.bvh": "geoik.rigs.bvh",
    "geoik.cli": "geoik.commands.cli",
    "geoik.clip": "geoik.rigs.clip",
    "geoik.palette": "geoik.maps.palette",
    "geoik.parallel": "geoik.batch.parallel",
    "geoik.render_maps": "geoik.maps.figures",
    "geoik.robot": "geoik.robots.model",
    "geoik.robot_motion": "geoik.robots.motion",
    "geoik.robot_solve": "geoik.robots.solve",
    "geoik.skeleton": "geoik.rigs.skeleton",
    "geoik.solvers.limited_tree": "geoik.rigs.limited_tree",
    "geoik.tiles": "geoik.maps.tiles",
    "geoik.tree": "geoik.rigs.tree",
    "geoik.tree_limits": "geoik.rigs.limits",
    "geoik.tree_pose": "geoik.rigs.pose",
    "geoik.urdf": "geoik.robots.urdf",
}


class _MovedLoader:
    """Loads an old module name as the module that now holds its code, leaving that module's
    own ``__spec__`` (which the import system would otherwise overwrite) as it was."""

    def __init__(self, target: str) -> None:
        self.target = target
        self.spec: Any = None

    def create_module(self, spec: Any) -> types.ModuleType:
        module = importlib.import_module(self.target)
        self.spec = module.__spec__
        return module

    def exec_module(self, module: types.ModuleType) -> None:
        module.__spec__ = self.spec


class _MovedFinder:
    """The import system's finder of the old names (a ``sys.meta_path`` entry)."""

    def find_spec(self, fullname: str, path: Any, target: Any = None) -> Any:
        new = MOVED.get(fullname)
        if new is None:
            return None
        loader: Any = _MovedLoader(new)
        return importlib.util.spec_from_loader(fullname, loader)


if not any(isinstance(f, _MovedFinder) for f in sys.meta_path):
    sys.meta_path.append(_MovedFinder())


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
    from geoik.chain import Chain
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
    from geoik.rigs.bvh import Clip, Frames, load_bvh, save_bvh
    from geoik.rigs.clip import Pin, PosedClip, pose_clip
    from geoik.rigs.pose import TreePose
    from geoik.rigs.skeleton import Branch, Skeleton
    from geoik.rigs.tree import TreeSolution, solve_tree
    from geoik.robots.analytic import SetStatus, SolutionSet, solve_all
    from geoik.robots.model import Robot
    from geoik.robots.urdf import load_urdf
    from geoik.solution import Solution, Status
