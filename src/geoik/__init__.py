"""geoik: fast geometric inverse kinematics for joint chains and trees, in 2-D and 3-D.

>>> import geoik as ik
>>> chain = ik.Chain.planar([2] * 10)
>>> sol = ik.solve(chain, (8.33, 2.83), method="ccd")
>>> sol.status
<Status.REACHED: 0>
"""

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

__version__ = "0.1.0"

__all__ = [
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
    "Robot",
    "RobotsMissingError",
    "PosedClip",
    "Skeleton",
    "Solution",
    "Status",
    "TreePose",
    "TreeSolution",
    "URDFError",
    "UnknownMethodError",
    "UnsupportedChainError",
    "UnsupportedJointError",
    "__version__",
    "costs",
    "load_urdf",
    "load_bvh",
    "pose_clip",
    "save_bvh",
    "solve",
    "solve_tree",
    "warm_up",
]
