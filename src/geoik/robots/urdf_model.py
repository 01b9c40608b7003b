"""The joint model of a parsed URDF: :func:`robot_from_urdf`, the :class:`geoik.Robot` of the links
and joints :func:`geoik.load_urdf` reads (or of a ``yourdfpy.Robot``, which has the same
fields).

The links and the joints connecting them (:func:`_link_tree`), the base and the tips chosen
(:func:`_choose_base`, :func:`_choose_tips`; by default the leaves a movable joint moves, in
the tree cut at the joints geoik does not model), each tip's path of joints from the base
(:func:`_path`), and the movable joints on those paths with the fixed ones folded in
(:func:`_joint_model`). Reading the file is :mod:`geoik.robots.urdf`'s
(:func:`geoik.load_urdf`, whose docstring states the rules), which re-exports
:func:`robot_from_urdf`.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from geoik.errors import UnsupportedJointError, URDFError, describe
from geoik.robots.model import Robot

__all__ = ["robot_from_urdf"]

_MOVABLE = ("revolute", "continuous", "prismatic")


def _link_tree(urdf_robot: Any) -> tuple[list[str], dict[str, Any], dict[str, list[Any]]]:
    """The links of a parsed URDF and how its joints connect them.

    Parameters
    ----------
    urdf_robot : the parsed file (its ``links`` and ``joints``: load_urdf's reader, or a
        ``yourdfpy.Robot``).

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
    """The :class:`Robot` of a parsed URDF (its ``links`` and ``joints``, as load_urdf's reader or
    a ``yourdfpy.Robot`` has them);
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
