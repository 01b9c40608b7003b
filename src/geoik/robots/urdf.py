"""``geoik.load_urdf``: a :class:`geoik.Robot` from a URDF file.

The file is read by yourdfpy (the ``robots`` extra: ``pip install 'geoik[robots]'``), without
meshes; geoik only turns its joints into the general joint model:

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
"""

from __future__ import annotations

import math
import os
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np

from geoik.errors import (
    RobotsMissingError,
    UnsupportedJointError,
    URDFError,
    describe,
)
from geoik.robots.model import Robot

__all__ = ["load_urdf"]

_MOVABLE = ("revolute", "continuous", "prismatic")


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
    RobotsMissingError
        yourdfpy is not installed.
    """
    file = _check_path(path)
    try:
        import yourdfpy
        from lxml import etree
    except ImportError:
        raise RobotsMissingError(
            "reading URDF files needs yourdfpy: pip install 'geoik[robots]'", argument="load_urdf"
        ) from None
    try:
        tree = etree.parse(str(file), etree.XMLParser(remove_blank_text=True))
    except etree.XMLSyntaxError as e:
        raise URDFError(f"{str(file)!r} is not well-formed XML: {e}", argument="path") from None
    except OSError as e:
        raise URDFError(f"cannot read {str(file)!r}: {e}", argument="path") from None
    _check_origins(tree.getroot())
    try:
        urdf = yourdfpy.URDF.load(
            str(file),
            build_scene_graph=False,
            build_collision_scene_graph=False,
            load_meshes=False,
            load_collision_meshes=False,
        )
    except Exception as e:  # yourdfpy raises what its parser meets
        raise URDFError(
            f"{str(file)!r} is not a URDF robot yourdfpy can read: {e}", argument="path"
        ) from None
    return robot_from_urdf(urdf.robot, tip=tip, tips=tips, base=base)


def _check_origins(root: Any) -> None:
    """Every joint's ``origin`` as the file has it: ``xyz`` and ``rpy`` three finite numbers
    each (yourdfpy would take NaN and spread it through the joint's transform); URDFError
    naming the joint and the attribute otherwise."""
    for joint in root.iter("joint"):
        for origin in joint.iterfind("origin"):
            for attribute in ("xyz", "rpy"):
                text = origin.get(attribute)
                if text is None:
                    continue
                try:
                    values = [float(v) for v in text.split()]
                except ValueError:
                    values = []
                if len(values) != 3 or not all(map(math.isfinite, values)):
                    raise URDFError(
                        f"origin {attribute}: expected 3 finite numbers, got {text!r}",
                        argument=f"joint {joint.get('name')!r}",
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


def _link_tree(urdf_robot: Any) -> tuple[list[str], dict[str, Any], dict[str, list[Any]]]:
    """The links of a parsed URDF and how its joints connect them.

    Parameters
    ----------
    urdf_robot : yourdfpy.Robot
        The parsed file (its ``links`` and ``joints``).

    Returns
    -------
    links : list of str
        Every link's name, in the file's order.
    by_child : dict
        The joint above each link that has one, by the link's name.
    children : dict
        The joints hanging from each link that has some, by the link's name.

    Raises
    ------
    URDFError
        When a joint names a link the file does not define.
    """
    links = [link.name for link in urdf_robot.links]
    by_child = {j.child: j for j in urdf_robot.joints}
    children: dict[str, list[Any]] = {}
    for j in urdf_robot.joints:
        children.setdefault(j.parent, []).append(j)
        for end in (j.parent, j.child):
            if end not in links:
                raise URDFError(
                    f"names the link {end!r}, which is not defined", argument=f"joint {j.name!r}"
                )
    return links, by_child, children


def _choose_base(base: str | None, links: list[str], by_child: dict[str, Any]) -> str:
    """The link the model starts from: ``base``, checked, or the file's one root link."""
    if base is None:
        roots = [name for name in links if name not in by_child]
        if len(roots) != 1:
            raise URDFError(
                f"the file has {len(roots)} root links ({', '.join(roots)}); name one",
                argument="base",
            )
        base = roots[0]
    return _check_link(base, links, "base")


def _choose_tips(
    tip: str | None,
    tips: Sequence[str] | None,
    base: str,
    links: list[str],
    children: dict[str, list[Any]],
) -> list[str]:
    """The links to move: ``tip``, or ``tips``, or by default the leaves below ``base``.

    Parameters
    ----------
    tip, tips : str, sequence of str or None
        :func:`load_urdf`'s arguments (at most one of them).
    base : str
        The base link.
    links : list of str
        Every link of the file.
    children : dict
        The joints hanging from each link, by its name.

    Returns
    -------
    list of str
        The k tip links, distinct, each checked to be a link of the file.
    """
    if tip is not None and tips is not None:
        raise URDFError(
            "expected one of them (tip for one link, tips for several)", argument="tip, tips"
        )
    if tip is not None:
        return [_check_link(tip, links, "tip")]
    if tips is not None:
        if isinstance(tips, str) or not isinstance(tips, Sequence) or not tips:
            raise URDFError(
                f"expected a sequence of link names, got {describe(tips)}", argument="tips"
            )
        wanted = [_check_link(t, links, f"tips[{i}]") for i, t in enumerate(tips)]
        if len(set(wanted)) != len(wanted):
            raise URDFError(f"expected distinct links, got {list(wanted)}", argument="tips")
        return wanted
    wanted = _default_tips(base, children)
    if not wanted:
        raise URDFError(f"no movable joint hangs below the base {base!r}", argument="tip")
    return wanted


def _joint_model(wanted: list[str], paths: list[list[Any]], base: str) -> dict[str, Any]:
    """The actuated joints on the paths from the base to the tips, and where each tip sits.

    Fixed joints are folded into the next movable joint's origin (or the tip's); a joint shared
    by several paths is counted once.

    Parameters
    ----------
    wanted : list of str
        The k tip links.
    paths : list of list of yourdfpy.Joint
        Each tip's joints, base first.
    base : str
        The base link, for messages.

    Returns
    -------
    dict
        :class:`Robot`'s arguments ``joint_names, kinds`` (m,), ``parents`` (m,) int,
        ``origin_xyz`` (m, 3) metres, ``origin_rot`` (m, 3, 3), ``axes`` (m, 3), ``lo, hi``
        (m,) radians or metres, ``tip_parents`` (k,) int, ``tip_xyz`` (k, 3), ``tip_rot``
        (k, 3, 3).

    Raises
    ------
    URDFError
        About a tip with no movable joint between it and the base.
    """
    index: dict[str, int] = {}  # movable joint name -> model index
    names: list[str] = []
    kinds: list[str] = []
    parents: list[int] = []
    xyz: list[np.ndarray] = []
    rot: list[np.ndarray] = []
    axes: list[np.ndarray] = []
    lo: list[float] = []
    hi: list[float] = []
    tip_parents: list[int] = []
    tip_xyz: list[np.ndarray] = []
    tip_rot: list[np.ndarray] = []
    for t, path in zip(wanted, paths, strict=True):
        above, offset = -1, np.eye(4)
        for j in path:
            offset = offset @ _origin(j)
            if j.type == "fixed":
                continue
            if j.name not in index:
                index[j.name] = len(names)
                names.append(j.name)
                kinds.append(j.type)
                parents.append(above)
                xyz.append(offset[:3, 3].copy())
                rot.append(offset[:3, :3].copy())
                axes.append(_axis(j))
                low, high = _limits(j)
                lo.append(low)
                hi.append(high)
            above, offset = index[j.name], np.eye(4)
        if above < 0:
            raise URDFError(
                f"no movable joint lies between the base {base!r} and it, so it cannot move",
                argument=f"tip {t!r}",
            )
        tip_parents.append(above)
        tip_xyz.append(offset[:3, 3].copy())
        tip_rot.append(offset[:3, :3].copy())
    return {
        "joint_names": tuple(names),
        "kinds": tuple(kinds),
        "parents": np.array(parents, dtype=np.int64),
        "origin_xyz": np.array(xyz),
        "origin_rot": np.array(rot),
        "axes": np.array(axes),
        "lo": np.array(lo),
        "hi": np.array(hi),
        "tip_parents": np.array(tip_parents, dtype=np.int64),
        "tip_xyz": np.array(tip_xyz),
        "tip_rot": np.array(tip_rot),
    }


def robot_from_urdf(
    urdf_robot: Any,
    tip: str | None = None,
    tips: Sequence[str] | None = None,
    base: str | None = None,
) -> Robot:
    """The :class:`Robot` of a parsed URDF (a ``yourdfpy.Robot``: its ``links`` and ``joints``);
    the arguments and errors are :func:`load_urdf`'s."""
    links, by_child, children = _link_tree(urdf_robot)
    base = _choose_base(base, links, by_child)
    wanted = _choose_tips(tip, tips, base, links, children)
    paths = [_path(base, t, by_child, "tip" if tip is not None else "tips") for t in wanted]
    model = _joint_model(wanted, paths, base)
    if (
        not np.any(model["origin_xyz"])
        and not np.any(model["tip_xyz"])
        and "prismatic" not in model["kinds"]
    ):
        raise URDFError(
            f"expected a robot of some size, got every joint between the base {base!r} and "
            f"{', '.join(map(repr, wanted))} at the origin of the one before: the tips cannot "
            "move",
            argument="path",
        )
    return Robot(
        tip_names=tuple(wanted),
        base_name=base,
        name=str(urdf_robot.name or "robot"),
        **model,
    )


def _check_link(name: Any, links: list[str], what: str) -> str:
    if not isinstance(name, str) or name not in links:
        shown = ", ".join(links[:12]) + (", ..." if len(links) > 12 else "")
        raise URDFError(
            f"expected a link of the URDF ({shown}), got {describe(name)}", argument=what
        )
    return name


def _default_tips(base: str, children: dict[str, list[Any]]) -> list[str]:
    """Leaf links below ``base`` that a movable joint moves, depth first in file order, in the
    tree cut at the joints geoik does not model (:func:`_unsupported`): a hand's mimicking
    finger is left out, and the link it hangs from counts as a leaf when nothing else hangs
    there."""
    out: list[str] = []

    def walk(link: str, moved: bool) -> None:
        below = [j for j in children.get(link, []) if _unsupported(j) is None]
        if not below and moved:
            out.append(link)
        for j in below:
            if _unsupported(j) is None:
                walk(j.child, moved or j.type in _MOVABLE)

    walk(base, False)
    return out


def _path(base: str, tip: str, by_child: dict[str, Any], what: str) -> list[Any]:
    """The joints from ``base`` down to ``tip``, each checked (no mimic, floating or planar)."""
    path: list[Any] = []
    link = tip
    while link != base:
        j = by_child.get(link)
        if j is None:
            raise URDFError(f"the link {tip!r} does not hang from the base {base!r}", argument=what)
        path.append(j)
        link = j.parent
    path.reverse()
    for j in path:
        why = _unsupported(j)
        if why is not None:
            raise UnsupportedJointError(
                f"the joint {j.name!r} on the way to {tip!r} {why}", argument=what
            )
    return path


def _unsupported(joint: Any) -> str | None:
    """Why geoik cannot solve through ``joint`` (the end of a message), or None."""
    if joint.mimic is not None and joint.type in _MOVABLE:
        return (
            f"mimics {joint.mimic.joint!r}; geoik does not solve mimic joints (choose a tip "
            "above it)"
        )
    if joint.type not in _MOVABLE and joint.type != "fixed":
        return (
            f"is {joint.type}; geoik solves revolute, continuous, prismatic and fixed joints "
            "(a floating base: load with base= the link below it)"
        )
    return None


def _origin(joint: Any) -> np.ndarray:
    if joint.origin is None:
        return np.eye(4)
    origin = np.asarray(joint.origin, dtype=np.float64)
    if origin.shape != (4, 4) or not np.all(np.isfinite(origin)):
        part = "xyz" if origin.shape == (4, 4) and not np.all(np.isfinite(origin[:3, 3])) else ""
        got = f"xyz {describe(origin[:3, 3].tolist())}" if part else "a non-finite rotation (rpy)"
        raise URDFError(f"expected a finite origin, got {got}", argument=f"joint {joint.name!r}")
    return origin


def _axis(joint: Any) -> np.ndarray:
    axis = np.array([1.0, 0.0, 0.0] if joint.axis is None else joint.axis, dtype=np.float64)
    norm = float(np.linalg.norm(axis))
    if axis.shape != (3,) or not np.all(np.isfinite(axis)) or norm == 0.0:
        raise URDFError(
            f"expected a non-zero axis, got {describe(joint.axis)}",
            argument=f"joint {joint.name!r}",
        )
    return axis / norm


def _limits(joint: Any) -> tuple[float, float]:
    if joint.type == "continuous":
        return -np.inf, np.inf
    limit = joint.limit
    low = 0.0 if limit is None or limit.lower is None else float(limit.lower)
    high = 0.0 if limit is None or limit.upper is None else float(limit.upper)
    if not (np.isfinite(low) and np.isfinite(high) and low <= high):
        raise URDFError(
            f"expected limits lower <= upper, got {low!r}, {high!r}",
            argument=f"joint {joint.name!r}",
        )
    return low, high


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
