"""``geoik.load_urdf``: a :class:`geoik.Robot` from a URDF file.

The file is read here, its links and joints only (no meshes, nothing to install beyond geoik:
the ``robots`` extra, ``pip install 'geoik[robots]'``, brings the example robots), and its joints
become the general joint model:

- the model starts at ``base`` (default: the URDF's root link) and ends at the tips, links named
  by ``tip`` or ``tips``; by default every leaf link that at least one movable joint moves and
  that no unsupported joint (below) leads to;
- revolute (with its limits), continuous and prismatic (with its limits) joints on the paths
  from the base to the tips become the model's joints, in the order of the paths (base to tip,
  each joint after its parent); fixed joints are folded into the next joint's transform (or the
  tip's);
- axes are normalised (URDF asks for unit axes; a zero axis is an error);
- mimic, floating and planar joints on those paths raise
  :class:`~geoik.errors.UnsupportedJointError`; off them they are ignored (they move no tip):
  the Panda's mimicking finger joint does not stop a model of the arm to its hand, nor, with no
  tip named, a model of its hand and left finger. A fixed joint that names a joint to mimic
  (as the Talos gripper's do) stays fixed: a mimic element moves only a movable joint.

This module reads the file (and names the bundled example robots, :data:`EXAMPLES`); the joint
model is built from the parsed robot by :func:`geoik.robots.urdf_model.robot_from_urdf`
(re-exported here).
"""

from __future__ import annotations

import math
import os
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any
from xml.etree import ElementTree

import numpy as np

from geoik.errors import (
    RobotsMissingError,
    URDFError,
    describe,
)
from geoik.robots.model import Robot
from geoik.robots.urdf_model import robot_from_urdf

__all__ = ["load_urdf", "robot_from_urdf"]


def load_urdf(
    path: str | os.PathLike[str],
    tip: str | None = None,
    tips: Sequence[str] | None = None,
    base: str | None = None,
) -> Robot:
    """Load a robot from a URDF file.

    Parameters
    ----------
    path : the URDF file.
    tip : the one link to solve for (an arm's flange or tool frame), for :func:`geoik.solve`.
    tips : several links, for :func:`geoik.solve_tree` (the fingertips of a hand). Give ``tip``
        or ``tips``, not both; with neither, every leaf link that a movable joint moves, in the
        tree cut at mimic, floating and planar joints (a link whose every child hangs from one
        is a leaf).
    base : the link the model starts from, whose frame every position and orientation is
        expressed in; default the URDF's root link. Joints above it are left out (a mobile
        base's floating joint, say).

    Returns
    -------
    Robot
        Its ``joint_names`` are the movable joints from the base to the tips, the order
        :attr:`geoik.Solution.angles` uses.

    Raises
    ------
    URDFError
        A missing or unreadable file, malformed XML, a ``tip``, ``tips`` or ``base`` that is not
        a link of the file (or a tip that does not hang from the base, or that no movable joint
        moves), a revolute or prismatic joint with a zero axis or inverted limits, a joint
        ``origin`` that is not finite, every joint and tip at one point (a robot of size 0).
    UnsupportedJointError
        A mimic, floating or planar joint between the base and a tip.
    """
    file = _check_path(path)
    try:
        root = ElementTree.parse(file).getroot()
    except ElementTree.ParseError as e:
        raise URDFError(f"{str(file)!r} is not well-formed XML: {e}", argument="path") from None
    except OSError as e:
        raise URDFError(f"cannot read {str(file)!r}: {e}", argument="path") from None
    if root.tag != "robot":
        raise URDFError(
            f"{str(file)!r} is not a URDF robot: its root element is <{root.tag}>, not <robot>",
            argument="path",
        )
    return robot_from_urdf(_read_robot(root), tip=tip, tips=tips, base=base)


@dataclass(frozen=True)
class _Limit:
    lower: float | None
    upper: float | None


@dataclass(frozen=True)
class _Mimic:
    joint: str | None


@dataclass(frozen=True)
class _Link:
    name: str


@dataclass(frozen=True)
class _Joint:
    """What :func:`robot_from_urdf` reads of a joint, as yourdfpy's ``Joint`` has it: ``origin``
    a (4, 4) transform (None without an ``<origin>``), ``axis`` (3,) (``1 0 0`` by default),
    ``limit`` and ``mimic`` None when the element is absent."""

    name: str
    type: str | None
    parent: str
    child: str
    origin: np.ndarray | None
    axis: np.ndarray
    limit: _Limit | None
    mimic: _Mimic | None


@dataclass(frozen=True)
class _Robot:
    name: str | None
    links: list[_Link]
    joints: list[_Joint]


def _read_robot(root: Any) -> _Robot:
    """The links and joints of a URDF's ``<robot>`` element, read as yourdfpy reads them (its
    ``URDF.load`` without meshes, which also parses every visual, collision and inertial and
    imports trimesh and SciPy, 0.7 s a process): only what the joint model needs. URDFError
    naming the link or joint that lacks a name, a parent or a child, or holds a number that is
    none."""
    links = []
    for link in root.findall("link"):
        name = link.get("name")
        if name is None:
            raise URDFError("expected a name", argument="a <link>")
        links.append(_Link(name))
    joints = []
    for joint in root.findall("joint"):
        name = joint.get("name")
        if name is None:
            raise URDFError("expected a name", argument="a <joint>")
        ends = []
        for end in ("parent", "child"):
            element = joint.find(end)
            link = None if element is None else element.get("link")
            if link is None:
                raise URDFError(f'expected <{end} link="..."/>', argument=f"joint {name!r}")
            ends.append(link)
        element = joint.find("axis")
        axis = _numbers(
            name, "axis xyz", "1 0 0" if element is None else element.get("xyz", "1 0 0")
        )
        element = joint.find("limit")
        limit = None
        if element is not None:
            lower, upper = (
                None if element.get(k) is None else _number(name, f"limit {k}", element.get(k))
                for k in ("lower", "upper")
            )
            limit = _Limit(lower, upper)
        element = joint.find("mimic")
        joints.append(
            _Joint(
                name=name,
                type=joint.get("type"),
                parent=ends[0],
                child=ends[1],
                origin=_transform(joint.find("origin"), name),
                axis=np.array(axis),
                limit=limit,
                mimic=None if element is None else _Mimic(element.get("joint")),
            )
        )
    return _Robot(root.get("name"), links, joints)


def _number(joint: str, what: str, text: str) -> float:
    try:
        return float(text)
    except ValueError:
        raise URDFError(
            f"{what}: expected a number, got {text!r}", argument=f"joint {joint!r}"
        ) from None


def _numbers(joint: str, what: str, text: str) -> list[float]:
    return [_number(joint, what, v) for v in text.split()]


def _transform(origin: Any, joint: str) -> np.ndarray | None:
    """The (4, 4) transform of a joint's ``<origin>``, None without one: its ``xyz`` and ``rpy``
    three finite numbers each (zeros by default; NaN would spread through the transform),
    URDFError naming the joint and the attribute otherwise; ``rpy`` the rotations about the
    fixed x, y and z axes in turn, as yourdfpy composes them."""
    if origin is None:
        return None
    parts = []
    for attribute in ("xyz", "rpy"):
        text = origin.get(attribute, "0 0 0")
        try:
            values = [float(v) for v in text.split()]
        except ValueError:
            values = []
        if len(values) != 3 or not all(map(math.isfinite, values)):
            raise URDFError(
                f"origin {attribute}: expected 3 finite numbers, got {text!r}",
                argument=f"joint {joint!r}",
            )
        parts.append(values)
    (x, y, z), (roll, pitch, yaw) = parts
    si, sj, sk = math.sin(roll), math.sin(pitch), math.sin(yaw)
    ci, cj, ck = math.cos(roll), math.cos(pitch), math.cos(yaw)
    cc, cs, sc, ss = ci * ck, ci * sk, si * ck, si * sk
    return np.array(
        [
            [cj * ck, sj * sc - cs, sj * cc + ss, x],
            [cj * sk, sj * ss + cc, sj * cs - sc, y],
            [-sj, cj * si, cj * ci, z],
            [0.0, 0.0, 0.0, 1.0],
        ]
    )


def _check_path(path: Any) -> Path:
    if not isinstance(path, str | os.PathLike):
        raise URDFError(f"expected a file name, got {describe(path)}", argument="path")
    file = Path(path)
    if not file.exists():
        raise URDFError(f"no such file {str(file)!r}", argument="path")
    if not file.is_file():
        raise URDFError(f"expected a file, got the directory {str(file)!r}", argument="path")
    return file


EXAMPLES: dict[str, tuple[str, tuple[str, ...]]] = {
    "panda": ("panda_description/urdf/panda.urdf", ("panda_hand_tcp",)),
    "ur3": ("ur_description/urdf/ur3_robot.urdf", ("tool0",)),
    "ur5": ("ur_description/urdf/ur5_robot.urdf", ("tool0",)),
    "ur10": ("ur_description/urdf/ur10_robot.urdf", ("tool0",)),
    "kinova": ("kinova_description/robots/kinova.urdf", ("j2s6s200_end_effector",)),
    "z1": ("z1_description/urdf/z1.urdf", ("link06",)),
    "talos_arm": ("talos_data/robots/talos_left_arm.urdf", ("wrist_left_ft_tool_link",)),
    "so100": ("so_arm_description/urdf/so100.urdf", ("gripper",)),
    "xarm7": ("xarm_description/urdf/xarm7.urdf", ("link_eef",)),
    "allegro": (
        "allegro_hand_description/urdf/allegro_right_hand.urdf",
        ("link_3.0_tip", "link_7.0_tip", "link_11.0_tip", "link_15.0_tip"),
    ),
}
"""Real robots of the ``example-robot-data`` package (PyPI): name -> (URDF path in its
``robots`` folder, the tips geoik's tests and benchmarks solve for). The arms, each from its
file's root link: the Franka Panda (7 joints) to its tool centre point; the UR3, UR5 and UR10
(6) to their tool flange; the Kinova Jaco j2s6s200 (6) to its end effector; the Unitree Z1 (6)
to its last link; Talos's left arm (the file's 6 joints from the shoulder's second joint to the
wrist) to the tool side of its wrist's force sensor; the SO-100 (5) to its gripper's fixed jaw,
the link its wrist roll turns; the UFactory xArm7 (7) to its end-effector frame. And the Allegro
right hand to its four fingertips."""

ARMS = ("ur3", "ur5", "ur10", "z1", "kinova", "talos_arm", "so100", "panda", "xarm7")
"""The arms of :data:`EXAMPLES` (one tip each), in the order benchmarks print them."""


def example_path(name: str) -> Path:
    """Path of the URDF of the example robot ``name`` (a key of :data:`EXAMPLES`), from the
    installed ``example-robot-data`` package (in geoik's ``robots`` extra: ``pip install
    'geoik[robots]'``)."""
    from importlib import metadata

    if name not in EXAMPLES:
        raise URDFError(
            f"expected one of {', '.join(EXAMPLES)}, got {describe(name)}", argument="name"
        )
    try:
        dist = metadata.distribution("example-robot-data")
    except metadata.PackageNotFoundError:
        raise RobotsMissingError(
            "example robots need the example-robot-data package: pip install 'geoik[robots]' "
            "(or pip install example-robot-data)"
        ) from None
    root = Path(str(dist.locate_file("cmeel.prefix/share/example-robot-data/robots")))
    return root / EXAMPLES[name][0]


def load_example(name: str) -> Robot:
    """:func:`load_urdf` of the example robot ``name`` with its tips (see :data:`EXAMPLES`)."""
    path = example_path(name)
    tips = EXAMPLES[name][1]
    return load_urdf(path, tip=tips[0]) if len(tips) == 1 else load_urdf(path, tips=tips)
