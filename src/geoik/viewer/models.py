"""What ``geoik view`` was started with: a robot (``--urdf FILE --tip LINK`` or ``--robot NAME``)
and a rig's clip (``--bvh FILE``), loaded once, before the server starts.

The page may not name files: it asks for "the robot" and "the clip", and the only files of the
user's disk the server sends are the meshes the loaded URDF's visuals name (:attr:`RobotModel.
meshes`, served by index). Every pose the page draws comes from here: :meth:`RobotModel.
link_poses` places every URDF link (the fingers and tools beyond the tip too) by forward
kinematics of the solved joint values, so that the page has no kinematics of its own.
"""

from __future__ import annotations

import math
import os
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from geoik.errors import BVHError, ProtocolError, RobotsMissingError, describe
from geoik.files import same_file, special_kind

__all__ = ["MESH_TYPES", "Models", "RigModel", "RobotModel", "load_rig", "load_robot"]

MESH_TYPES = {
    ".stl": "model/stl",
    ".dae": "model/vnd.collada+xml",
    ".obj": "model/obj",
}
"""Mesh files the page can draw (three.js loaders), with the content type they are served as."""
MAX_MESH_BYTES = 64 * 1024 * 1024
"""Largest mesh file served; larger ones are drawn as the link's frame only."""


@dataclass(frozen=True)
class _Joint:
    """A URDF joint as the link poses need it."""

    name: str
    kind: str
    parent: str
    child: str
    origin: np.ndarray
    axis: np.ndarray
    lo: float
    hi: float
    mimic: tuple[str, float, float] | None


@dataclass
class RobotModel:
    """A URDF robot: the geoik model to its tip, and what the page draws.

    Attributes
    ----------
    robot : the :class:`geoik.Robot` from the base link to its tips (one, or several solved
        together).
    source : how it was named on the command line (``--robot panda`` or the file).
    links : every URDF link below the base, parents first.
    visuals : per link, its visual elements as the page takes them.
    meshes : the mesh files the visuals name, served by their index.
    notes : visuals left out, and why.
    """

    robot: Any
    source: str
    path: Path
    links: list[str]
    joints: list[_Joint]
    visuals: dict[str, list[dict[str, Any]]]
    meshes: list[Path]
    notes: list[str] = field(default_factory=list)

    def link_poses(self, q: np.ndarray) -> list[list[float]]:
        """Each link's frame in the base frame for the model's joint values ``q``, as
        ``[x, y, z, qw, qx, qy, qz]`` in the order of :attr:`links`. Joints outside the model
        stay at 0 (within their limits), mimic joints follow the joint they mimic."""
        value = dict(zip(self.robot.joint_names, (float(v) for v in q), strict=True))
        frames = {self.links[0]: np.eye(4)}
        for j in self.joints:
            if j.parent not in frames:
                continue
            if j.name in value:
                v = value[j.name]
            elif j.mimic is not None:
                v = j.mimic[1] * value.get(j.mimic[0], 0.0) + j.mimic[2]
                value[j.name] = v
            else:
                v = min(max(0.0, j.lo), j.hi)
                value[j.name] = v
            frames[j.child] = frames[j.parent] @ j.origin @ _motion(j, v)
        out = []
        for name in self.links:
            m = frames.get(name, np.eye(4))
            out.append(m[:3, 3].tolist() + quaternion(m[:3, :3]))
        return out

    def describe(self) -> dict[str, Any]:
        """The ``robot`` reply: the model, its joints and limits, the links and their visuals."""
        from geoik.solvers import general_methods
        from geoik.solvers.auto import AUTO

        r = self.robot
        rest = r.rest_angles()
        frames = r.tip_frames(rest)
        return {
            "name": r.name,
            "source": self.source,
            "file": self.path.name,
            "base": r.base_name,
            "tip": r.tip_names[0],
            "tips": list(r.tip_names),
            "joints": [
                {
                    "name": n,
                    "kind": k,
                    "lo": _finite_or_none(lo),
                    "hi": _finite_or_none(hi),
                    "unit": "m" if k == "prismatic" else "rad",
                }
                for n, k, lo, hi in zip(
                    r.joint_names, r.kinds, r.lo.tolist(), r.hi.tolist(), strict=True
                )
            ],
            "rest": rest.tolist(),
            "size": r.total_length,
            "links": self.links,
            "visuals": self.visuals,
            "meshes": [
                {"url": f"/model/mesh/{i}", "format": p.suffix.lower()[1:], "name": p.name}
                for i, p in enumerate(self.meshes)
            ],
            "poses": self.link_poses(rest),
            "tip_frame": _frame(frames[0]),
            "tip_frames": [_frame(f) for f in frames],
            "methods": [AUTO, *general_methods()],
            "notes": self.notes,
        }


def _finite_or_none(v: float) -> float | None:
    return v if math.isfinite(v) else None


def _frame(m: np.ndarray) -> dict[str, list[float]]:
    return {"position": m[:3, 3].tolist(), "quaternion": quaternion(m[:3, :3])}


def quaternion(r: np.ndarray) -> list[float]:
    """The unit quaternion ``[w, x, y, z]`` of a rotation matrix (w >= 0)."""
    m = np.asarray(r, dtype=np.float64)
    tr = m[0, 0] + m[1, 1] + m[2, 2]
    if tr > 0.0:
        s = 2.0 * math.sqrt(tr + 1.0)
        q = [0.25 * s, (m[2, 1] - m[1, 2]) / s, (m[0, 2] - m[2, 0]) / s, (m[1, 0] - m[0, 1]) / s]
    elif m[0, 0] > m[1, 1] and m[0, 0] > m[2, 2]:
        s = 2.0 * math.sqrt(1.0 + m[0, 0] - m[1, 1] - m[2, 2])
        q = [(m[2, 1] - m[1, 2]) / s, 0.25 * s, (m[0, 1] + m[1, 0]) / s, (m[0, 2] + m[2, 0]) / s]
    elif m[1, 1] > m[2, 2]:
        s = 2.0 * math.sqrt(1.0 + m[1, 1] - m[0, 0] - m[2, 2])
        q = [(m[0, 2] - m[2, 0]) / s, (m[0, 1] + m[1, 0]) / s, 0.25 * s, (m[1, 2] + m[2, 1]) / s]
    else:
        s = 2.0 * math.sqrt(1.0 + m[2, 2] - m[0, 0] - m[1, 1])
        q = [(m[1, 0] - m[0, 1]) / s, (m[0, 2] + m[2, 0]) / s, (m[1, 2] + m[2, 1]) / s, 0.25 * s]
    n = math.sqrt(sum(v * v for v in q))
    sign = -1.0 if q[0] < 0 else 1.0
    return [sign * v / n for v in q]


def _motion(j: _Joint, v: float) -> np.ndarray:
    out = np.eye(4)
    if j.kind in ("revolute", "continuous"):
        x, y, z = j.axis
        c, s = math.cos(v), math.sin(v)
        k = np.array([[0.0, -z, y], [z, 0.0, -x], [-y, x, 0.0]])
        out[:3, :3] = np.eye(3) + s * k + (1.0 - c) * (k @ k)
    elif j.kind == "prismatic":
        out[:3, 3] = v * j.axis
    return out


def load_robot(
    path: str | os.PathLike[str],
    tip: str | Sequence[str] | None = None,
    source: str | None = None,
    base: str | None = None,
) -> RobotModel:
    """The robot of a URDF file, from the link ``base`` (default: the root link) to the link
    ``tip``, or to each of several links (a hand's fingertips, solved together as
    :func:`geoik.solve_tree` does); default every leaf link a movable joint moves
    (:func:`geoik.load_urdf`'s default). Errors as :func:`geoik.load_urdf` raises them, and
    RobotsMissingError without yourdfpy, which reads the meshes."""
    from geoik.robots.urdf import load_urdf, robot_from_urdf

    if tip is None:
        robot = load_urdf(path, base=base)
    elif isinstance(tip, str) or len(tip) == 1:
        robot = load_urdf(path, tip=tip if isinstance(tip, str) else tip[0], base=base)
    else:
        robot = load_urdf(path, tips=list(tip), base=base)
    try:  # the meshes and materials are read by yourdfpy
        import yourdfpy
    except ImportError:
        raise RobotsMissingError(
            "the viewer draws a robot's meshes with yourdfpy: pip install 'geoik[robots]'",
            argument="robot",
        ) from None

    file = Path(path)
    urdf = yourdfpy.URDF.load(
        str(file),
        build_scene_graph=False,
        build_collision_scene_graph=False,
        load_meshes=False,
        load_collision_meshes=False,
    )
    # the same file, read the same way
    robot_from_urdf(urdf.robot, tips=list(robot.tip_names), base=robot.base_name)
    joints = _joints(urdf.robot, robot.base_name)
    links = [robot.base_name] + [j.child for j in joints]
    colours = {
        m.name: list(m.color.rgba)
        for m in urdf.robot.materials
        if m.name and m.color is not None and m.color.rgba is not None
    }
    meshes: list[Path] = []
    notes: list[str] = []
    visuals: dict[str, list[dict[str, Any]]] = {}
    by_name = {link.name: link for link in urdf.robot.links}
    for name in links:
        out = []
        for k, vis in enumerate(by_name[name].visuals or []):
            item = _visual(vis, urdf, file, meshes, colours, notes, f"{name} visual {k}")
            if item is not None:
                out.append(item)
        visuals[name] = out
    return RobotModel(robot, source or str(file), file, links, joints, visuals, meshes, notes)


def _joints(urdf_robot: Any, base: str) -> list[_Joint]:
    """The URDF's joints below ``base``, parents first."""
    children: dict[str, list[Any]] = {}
    for j in urdf_robot.joints:
        children.setdefault(j.parent, []).append(j)
    out: list[_Joint] = []
    todo = [base]
    while todo:
        link = todo.pop(0)
        for j in children.get(link, []):
            origin = np.eye(4) if j.origin is None else np.asarray(j.origin, dtype=np.float64)
            axis = np.array([1.0, 0.0, 0.0] if j.axis is None else j.axis, dtype=np.float64)
            norm = float(np.linalg.norm(axis))
            axis = axis / norm if norm > 0 else np.array([1.0, 0.0, 0.0])
            lo, hi = -math.inf, math.inf
            if j.type in ("revolute", "prismatic") and j.limit is not None:
                lo = float(j.limit.lower) if j.limit.lower is not None else 0.0
                hi = float(j.limit.upper) if j.limit.upper is not None else 0.0
            mimic = None
            if j.mimic is not None:
                mimic = (
                    j.mimic.joint,
                    float(j.mimic.multiplier or 1.0),
                    float(j.mimic.offset or 0),
                )
            out.append(_Joint(j.name, j.type, j.parent, j.child, origin, axis, lo, hi, mimic))
            todo.append(j.child)
    return out


def _visual(
    vis: Any,
    urdf: Any,
    file: Path,
    meshes: list[Path],
    colours: dict[str, list[float]],
    notes: list[str],
    where: str,
) -> dict[str, Any] | None:
    origin = np.eye(4) if vis.origin is None else np.asarray(vis.origin, dtype=np.float64)
    item: dict[str, Any] = {
        "position": origin[:3, 3].tolist(),
        "quaternion": quaternion(origin[:3, :3]),
    }
    mat = vis.material
    if mat is not None and mat.color is not None and mat.color.rgba is not None:
        item["rgba"] = list(mat.color.rgba)
    elif mat is not None and mat.name in colours:
        item["rgba"] = colours[mat.name]
    g = vis.geometry
    if g is None:
        return None
    if g.box is not None:
        item.update(shape="box", size=list(g.box.size))
    elif g.cylinder is not None:
        item.update(
            shape="cylinder", radius=float(g.cylinder.radius), length=float(g.cylinder.length)
        )
    elif g.sphere is not None:
        item.update(shape="sphere", radius=float(g.sphere.radius))
    elif g.mesh is not None:
        path = _mesh_file(urdf, g.mesh.filename, file)
        why = None
        if path is None:
            why = f"{g.mesh.filename!r} not found"
        elif path.suffix.lower() not in MESH_TYPES:
            why = f"{path.name}: the page draws {', '.join(MESH_TYPES)} meshes"
        elif path.stat().st_size > MAX_MESH_BYTES:
            why = f"{path.name}: larger than {MAX_MESH_BYTES // 2**20} MB"
        if why is not None or path is None:
            notes.append(f"{where}: {why}")
            return None
        if path not in meshes:
            meshes.append(path)
        scale = [1.0, 1.0, 1.0] if g.mesh.scale is None else np.broadcast_to(g.mesh.scale, 3)
        item.update(shape="mesh", mesh=meshes.index(path), scale=[float(s) for s in scale])
    else:
        return None
    return item


def _mesh_file(urdf: Any, name: str, file: Path) -> Path | None:
    """The mesh file a visual names (``package://`` and relative names resolved as yourdfpy
    does), if it is a regular file."""
    try:
        resolved = Path(urdf._filename_handler(name))
    except Exception:  # a handler that cannot make sense of the name
        resolved = file.parent / name
    try:
        resolved = resolved.resolve(strict=True)
    except (OSError, RuntimeError):
        return None
    return resolved if resolved.is_file() else None


@dataclass
class RigModel:
    """A BVH clip: its skeleton, frames and frame time, and where Save writes."""

    skeleton: Any
    frames: Any
    frame_time: float
    path: Path
    output: Path
    effectors: list[str]

    def describe(self) -> dict[str, Any]:
        """The ``clip`` reply: the skeleton, the clip's size and timing, and the joints offered
        as handles (hands, feet and the other leaves)."""
        sk = self.skeleton
        pos = self.frames.positions
        lo, hi = pos.min(axis=(0, 1)), pos.max(axis=(0, 1))
        return {
            "file": self.path.name,
            "output": str(self.output),
            "names": list(sk.names),
            "parents": sk.parents.tolist(),
            "root": sk.names[sk.root_index],
            "frames": len(self.frames),
            "frame_time": self.frame_time,
            "effectors": self.effectors,
            "box": [lo.tolist(), hi.tolist()],
            "size": float(np.max(hi - lo)),
            "up": _up_axis(pos),
            "methods": _tree_methods(),
        }


def _tree_methods() -> list[str]:
    from geoik.rigs.tree import METHODS

    return list(METHODS)


def _up_axis(pos: np.ndarray) -> int:
    """The axis the clip stands along: the one on which the skeleton of its first frame is
    tallest (BVH files are usually y-up, some z-up)."""
    first = pos[0]
    extent = first.max(axis=0) - first.min(axis=0)
    return int(np.argmax(extent))


_EFFECTOR_WORDS = ("hand", "wrist", "foot", "ankle", "toe", "head")


def _effectors(sk: Any) -> list[str]:
    """Joints worth a handle: those named like hands and feet that end a limb (the last such
    joint on each path), else every leaf."""
    names = list(sk.names)
    parents = sk.parents.tolist()
    has_child = {p for p in parents if p >= 0}
    out = []
    for j, name in enumerate(names):
        low = name.lower()
        if not any(w in low for w in _EFFECTOR_WORDS) or "end" in low:
            continue
        # the first such joint down its path (a hand, not its fingers)
        p = parents[j]
        ancestor = False
        while p >= 0:
            if any(w in names[p].lower() for w in _EFFECTOR_WORDS):
                ancestor = True
                break
            p = parents[p]
        if not ancestor:
            out.append(name)
    if not out:
        out = [n for j, n in enumerate(names) if j not in has_child]
    return out


def load_rig(
    path: str | os.PathLike[str], output: str | os.PathLike[str] | None = None
) -> RigModel:
    """The clip of a BVH file, and where Save writes it: ``output``, else ``NAME.posed.bvh``
    beside the input; never the input itself (BVHError)."""
    from geoik.rigs.bvh import load_bvh

    file = Path(path)
    if not file.is_file():
        raise BVHError(f"no such file {str(file)!r}", argument="--bvh")
    skeleton, frames, frame_time = load_bvh(file)
    out = Path(output) if output is not None else file.with_name(f"{file.stem}.posed.bvh")
    if same_file(out, file):  # a symbolic or hard link to the input counts
        raise BVHError(
            f"expected another file than the input, got {describe(str(out))}", argument="--output"
        )
    kind = special_kind(out)
    if kind is not None and kind not in ("a character device", "a named pipe"):
        raise BVHError(f"expected a file, got {kind} {str(out)!r}", argument="--output")
    return RigModel(skeleton, frames, float(frame_time), file, out, _effectors(skeleton))


@dataclass
class Models:
    """What the server was started with (each may be None)."""

    robot: RobotModel | None = None
    rig: RigModel | None = None

    def summary(self) -> dict[str, Any]:
        """What the page shows of the loaded models: the robot's name and source, the clip's
        file."""
        return {
            "robot": None
            if self.robot is None
            else {"name": self.robot.robot.name, "source": self.robot.source},
            "clip": None if self.rig is None else {"file": self.rig.path.name},
        }


def check_loaded(model: Any, what: str) -> Any:
    """``model`` if it is loaded; a ProtocolError saying how to start the viewer with one
    (``what``: ``"robot"`` or ``"rig"``) otherwise."""
    if model is None:
        how = (
            "geoik view --robot NAME or --urdf FILE --tip LINK"
            if what == "robot"
            else "geoik view --bvh FILE"
        )
        raise ProtocolError("type", f"no {what} loaded: start the viewer with {how}")
    return model
