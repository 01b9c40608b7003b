"""BVH (Biovision Hierarchy) files in and out: character rigs and their clips.

``load_bvh(path)`` reads a file into a :class:`Clip`: the :class:`~geoik.Skeleton` (the joints
and End Sites, each link's rest direction and length from the file's offsets), the
:class:`Frames` (one :class:`~geoik.TreePose` per frame: the world positions of the joints,
``(joints, 3)`` in the order of ``skeleton.names``, and the root's orientation) and the frame
time. ``save_bvh(path, skeleton, frames, frame_time)`` writes one. ``example_path("walk")`` is
a walking clip that comes with geoik (:data:`EXAMPLES`).

Reading. A joint's local transform is its offset (each position channel present replacing its
component, as Blender and bvhio read them) and the product of its rotation channels in the
order the file lists them (``Zrotation Xrotation Yrotation``: ``Rz Rx Ry``), in degrees. An End
Site becomes a joint named ``<parent>_end``. A joint at zero offset from its parent (and an End
Site at zero offset) has no link of its own: it is not a skeleton joint (its children hang
from its parent in the skeleton), though the file's rotations keep it. geoik's skeletons are
rigid, so a joint whose position channels move it relative to its parent is an error.

Writing. Rotations are derived from the positions. Each file joint's world rotation is the one
that puts its children's offsets along their links: for one child, the rotation nearest to a
hint (the minimal turn from where the hint puts the child to where it is), so that the twist,
which positions do not fix, stays the hint's; for several children, the best fit of all their
links (Kabsch), from the hint. The hints are the loaded clip's own rotations (``Frames`` from
:func:`load_bvh` or :func:`geoik.pose_clip` carry them), else the parent's rotation (no twist).
A joint with several children has one rotation for all of them, so positions whose links
leaving one joint turned apart (a solve that moved one and not the others) are written with the
best fit, which puts those children only near their positions; a pose that any rotations made
(a BVH frame, one solved with the branching joint's links held) is written exactly.
Euler angles are taken in each joint's channel order, nearest to the clip's own values; a joint
whose rotation did not change keeps the file's values, so re-saving an untouched clip gives the
same rotations, to the nine significant digits written. A skeleton not read from a file is
written with its root's position and ``Zrotation Xrotation Yrotation`` channels on every joint,
each leaf as a joint with an End Site at zero offset so that its name stays.
"""

from __future__ import annotations

import math
import os
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any, NamedTuple, overload

import numpy as np

from geoik.errors import BVHError, InvalidPoseError, describe
from geoik.files import write_text
from geoik.rigs.pose import TreePose
from geoik.rigs.skeleton import Skeleton

__all__ = ["EXAMPLES", "Clip", "Frames", "example_path", "load_bvh", "save_bvh"]

_AXES = {"x": 0, "y": 1, "z": 2}
_ZERO = 1e-9
"""Offsets shorter than this times the skeleton's size are zero (no link)."""
_RIGID = 1e-6
"""Largest change of a link that position channels may make, relative to the skeleton's size
(a file's rounding) plus ten times that relative to the link."""
_SAME = 1e-12
"""Rotations this close (largest matrix entry) count as unchanged."""
DEFAULT_ORDER = "ZXY"

EXAMPLES: dict[str, str] = {"walk": "walk.bvh"}
"""The clips that come with geoik (in its ``data`` folder), by name. ``walk``: a capture of a
Mixamo rig that walks forwards, turns round and walks back (69 frames at 30 frames/s,
centimetres, y up; 55 joints, the fingers among them: ``Hips`` the root, ``LeftUpLeg``,
``LeftLeg``, ``LeftFoot``, ``LeftArm``, ``LeftHand`` ...; the left foot rests on frames 12-23
and 42-55, the right on 24-37), from the tests of bvhtoolbox 0.1.3 (MIT licence) with Mixamo's
``mixamorig:`` prefix taken off its joint names. ``data/README.md`` says where it comes from."""


@dataclass(frozen=True)
class _Joint:
    """A joint of a BVH file: ``local`` is its position in its parent's frame (the offset with
    the position channels' values), ``channels`` as the file names them."""

    name: str
    parent: int
    offset: tuple[float, ...]
    local: tuple[float, ...]
    channels: tuple[str, ...]
    end_site: bool
    line: int


@dataclass(frozen=True, eq=False)
class _Layout:
    """How a skeleton is written: the file's joints and which skeleton joint each one is."""

    joints: tuple[_Joint, ...]
    skeleton: np.ndarray
    """(k,) skeleton index of each file joint, -1 for one without a link of its own."""
    at: np.ndarray
    """(k,) skeleton index of the joint whose position a file joint has (its own, or its
    nearest skeleton ancestor's)."""
    names: tuple[str, ...]

    @property
    def width(self) -> int:
        return sum(len(j.channels) for j in self.joints)


class Frames(Sequence[TreePose]):
    """A clip's frames: a sequence of :class:`~geoik.TreePose`, one per frame.

    Attributes
    ----------
    positions : (frames, joints, 3) world positions, joints in the order of ``skeleton.names``.
    root_rotations : (frames, 4) the root's orientation in each frame (``w, x, y, z``).
    """

    def __init__(
        self,
        positions: np.ndarray,
        root_rotations: np.ndarray,
        layout: _Layout | None = None,
        hints: np.ndarray | None = None,
        values: np.ndarray | None = None,
    ) -> None:
        self.positions = np.array(positions, dtype=np.float64)
        self.root_rotations = np.array(root_rotations, dtype=np.float64)
        for a in (self.positions, self.root_rotations):
            a.setflags(write=False)
        self._layout = layout
        self._hints = hints
        self._values = values

    def __len__(self) -> int:
        return int(self.positions.shape[0])

    @overload
    def __getitem__(self, i: int) -> TreePose: ...

    @overload
    def __getitem__(self, i: slice) -> Sequence[TreePose]: ...

    def __getitem__(self, i: Any) -> Any:
        if isinstance(i, slice):
            return [self[k] for k in range(len(self))[i]]
        return TreePose(self.positions[i], self.root_rotations[i])

    def __iter__(self) -> Iterator[TreePose]:
        for k in range(len(self)):
            yield self[k]

    def __repr__(self) -> str:
        return f"Frames({len(self)} frames of {self.positions.shape[1]} joints)"

    def with_positions(self, positions: Any) -> Frames:
        """The same clip with new joint positions ``(frames, joints, 3)``: the file layout and
        the rotations kept as hints for :func:`save_bvh`."""
        pos = np.array(positions, dtype=np.float64)
        if pos.shape != self.positions.shape:
            raise InvalidPoseError(
                f"expected shape {self.positions.shape}, got {describe(positions)}",
                argument="positions",
            )
        return Frames(pos, self.root_rotations, self._layout, self._hints, self._values)


class Clip(NamedTuple):
    """What :func:`load_bvh` returns: ``skeleton, frames, frame_time = geoik.load_bvh(path)``."""

    skeleton: Skeleton
    frames: Frames
    frame_time: float


def example_path(name: str) -> Path:
    """Path of the example clip ``name`` (a key of :data:`EXAMPLES`), installed with geoik:
    ``geoik.load_bvh(example_path("walk"))``."""
    if name not in EXAMPLES:
        raise BVHError(
            f"expected one of {', '.join(EXAMPLES)}, got {describe(name)}", argument="name"
        )
    return Path(__file__).resolve().parent / "data" / EXAMPLES[name]


# ------------------------------------------------------------------------------- reading


def _tokens(text: str) -> list[tuple[str, int]]:
    out = []
    for n, line in enumerate(text.splitlines(), 1):
        for tok in line.split():
            out.append((tok, n))
    return out


class _Reader:
    def __init__(self, path: str, text: str) -> None:
        self.path = path
        self.lines = text.splitlines()
        self.toks = _tokens(text)
        self.i = 0

    def fail(self, message: str, line: int | None = None) -> BVHError:
        if line is None:
            line = self.toks[self.i][1] if self.i < len(self.toks) else len(self.lines)
        return BVHError(f"{self.path}:{line}: {message}")

    def take(self, what: str) -> tuple[str, int]:
        if self.i >= len(self.toks):
            raise self.fail(f"expected {what}, got the end of the file")
        tok = self.toks[self.i]
        self.i += 1
        return tok

    def expect(self, word: str) -> int:
        tok, line = self.take(repr(word))
        if tok.lower() != word.lower():
            raise self.fail(f"expected {word!r}, got {tok!r}", line)
        return line

    def number(self, what: str) -> float:
        tok, line = self.take(what)
        try:
            v = float(tok)
        except ValueError:
            raise self.fail(f"expected {what}, got {tok!r}", line) from None
        if not math.isfinite(v):
            raise self.fail(f"expected {what} (a finite number), got {tok!r}", line)
        return v

    def joint(self, name: str, parent: int, line: int, out: list[_Joint]) -> None:
        self.expect("{")
        offset: tuple[float, float, float] | None = None
        channels: tuple[str, ...] = ()
        me = len(out)
        out.append(_Joint(name, parent, (0.0, 0.0, 0.0), (0.0, 0.0, 0.0), (), False, line))
        while True:
            tok, at = self.take("OFFSET, CHANNELS, JOINT, End Site or '}'")
            word = tok.lower()
            if word == "offset":
                offset = (
                    self.number("an x offset"),
                    self.number("a y offset"),
                    self.number("a z offset"),
                )
            elif word == "channels":
                count_tok, cline = self.take("a channel count")
                if not count_tok.isdigit():
                    raise self.fail(f"expected a channel count, got {count_tok!r}", cline)
                names = []
                for _ in range(int(count_tok)):
                    ch, chl = self.take("a channel name")
                    low = ch.lower()
                    if (
                        len(low) != 9
                        or low[0] not in _AXES
                        or low[1:] not in ("position", "rotation")
                    ):
                        raise self.fail(
                            f"joint {name!r}: expected {count_tok} channel names (Xposition ... "
                            f"Zrotation), got {ch!r}",
                            chl,
                        )
                    names.append(low[0].upper() + low[1:])
                channels = tuple(names)
            elif word == "joint":
                child, cl = self.take("a joint name")
                self.joint(child, me, cl, out)
            elif word == "end":
                self.expect("Site")
                self.expect("{")
                self.expect("OFFSET")
                end = (
                    self.number("an x offset"),
                    self.number("a y offset"),
                    self.number("a z offset"),
                )
                self.expect("}")
                out.append(_Joint(f"{name}_end", me, end, end, (), True, at))
            elif word == "}":
                break
            else:
                raise self.fail(
                    f"joint {name!r}: expected OFFSET, CHANNELS, JOINT, End Site or '}}', "
                    f"got {tok!r}",
                    at,
                )
        if offset is None:
            raise self.fail(f"joint {name!r}: expected an OFFSET", line)
        out[me] = _Joint(name, parent, offset, offset, channels, False, line)


def _read(path: str) -> tuple[list[_Joint], np.ndarray, float]:
    try:
        with open(path, encoding="utf-8-sig") as f:
            text = f.read()
    except UnicodeDecodeError as e:
        raise BVHError(f"not a text file ({e})", argument=path) from None
    r = _Reader(path, text)
    if not r.toks:
        raise BVHError("empty file, expected HIERARCHY", argument=path)
    r.expect("HIERARCHY")
    r.expect("ROOT")
    name, line = r.take("the root's name")
    joints: list[_Joint] = []
    r.joint(name, -1, line, joints)
    if r.i >= len(r.toks):
        raise r.fail("expected MOTION after the hierarchy, got the end of the file")
    tok, line = r.take("MOTION")
    if tok.lower() == "root":
        raise r.fail("expected MOTION (one ROOT per file), got a second ROOT", line)
    if tok.lower() != "motion":
        raise r.fail(f"expected MOTION after the hierarchy, got {tok!r}", line)
    r.expect("Frames:")
    count_tok, cline = r.take("the frame count")
    if not count_tok.isdigit():
        raise r.fail(f"expected the frame count, got {count_tok!r}", cline)
    frames = int(count_tok)
    r.expect("Frame")
    r.expect("Time:")
    dt = r.number("the frame time")
    if dt <= 0.0:
        raise r.fail(f"expected a frame time > 0, got {dt!r}")
    width = sum(len(j.channels) for j in joints)
    start = r.toks[r.i][1] if r.i < len(r.toks) else len(r.lines) + 1
    rows = [ln for ln in range(start - 1, len(r.lines)) if r.lines[ln].strip()]
    if len(rows) < frames:
        raise BVHError(
            f"truncated: expected {frames} frames of motion, got {len(rows)}", argument=path
        )
    if len(rows) > frames:
        raise BVHError(f"expected {frames} frames, got more", argument=f"{path}:{rows[frames] + 1}")
    data = np.empty((frames, width))
    for k, ln in enumerate(rows):
        parts = r.lines[ln].split()
        if len(parts) != width:
            raise BVHError(
                f"frame {k}: expected {width} channel values (the hierarchy's "
                f"channel count), got {len(parts)}",
                argument=f"{path}:{ln + 1}",
            )
        try:
            data[k] = [float(v) for v in parts]
        except ValueError:
            bad = next(v for v in parts if not _is_float(v))
            raise BVHError(
                f"frame {k}: expected numbers, got {bad!r}", argument=f"{path}:{ln + 1}"
            ) from None
    if not np.all(np.isfinite(data)):
        raise BVHError("expected finite channel values, got NaN or infinity", argument=path)
    return joints, data, dt


def _is_float(v: str) -> bool:
    try:
        float(v)
    except ValueError:
        return False
    return True


def _axis_rotations(axis: int, degrees: np.ndarray) -> np.ndarray:
    """(F, 3, 3) rotations about one axis by the given angles."""
    a = np.radians(degrees)
    c, s = np.cos(a), np.sin(a)
    out = np.zeros((a.size, 3, 3))
    i, j = (axis + 1) % 3, (axis + 2) % 3
    out[:, axis, axis] = 1.0
    out[:, i, i] = c
    out[:, j, j] = c
    out[:, i, j] = -s
    out[:, j, i] = s
    return out


def _forward(
    joints: Sequence[_Joint], data: np.ndarray
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """World rotations (F, k, 3, 3), positions (F, k, 3) and local positions (F, k, 3)."""
    f, k = data.shape[0], len(joints)
    world = np.empty((f, k, 3, 3))
    pos = np.empty((f, k, 3))
    local = np.empty((f, k, 3))
    col = 0
    for b, jt in enumerate(joints):
        rot = np.broadcast_to(np.eye(3), (f, 3, 3)).copy()
        loc = np.broadcast_to(np.array(jt.offset), (f, 3)).copy()
        for ch in jt.channels:
            axis = _AXES[ch[0].lower()]
            if ch.endswith("rotation"):
                rot = rot @ _axis_rotations(axis, data[:, col])
            else:
                loc[:, axis] = data[:, col]
            col += 1
        local[:, b] = loc
        if jt.parent < 0:
            world[:, b] = rot
            pos[:, b] = loc
        else:
            wp = world[:, jt.parent]
            world[:, b] = wp @ rot
            pos[:, b] = pos[:, jt.parent] + np.einsum("fij,fj->fi", wp, loc)
    return world, pos, local


def _quats(m: np.ndarray) -> np.ndarray:
    """(F, 4) unit quaternions (w, x, y, z) of (F, 3, 3) rotation matrices."""
    f = m.shape[0]
    q = np.empty((f, 4))
    tr = m[:, 0, 0] + m[:, 1, 1] + m[:, 2, 2]
    w = np.sqrt(np.maximum(0.0, 1.0 + tr)) / 2.0
    x = np.sqrt(np.maximum(0.0, 1.0 + m[:, 0, 0] - m[:, 1, 1] - m[:, 2, 2])) / 2.0
    y = np.sqrt(np.maximum(0.0, 1.0 - m[:, 0, 0] + m[:, 1, 1] - m[:, 2, 2])) / 2.0
    z = np.sqrt(np.maximum(0.0, 1.0 - m[:, 0, 0] - m[:, 1, 1] + m[:, 2, 2])) / 2.0
    q[:, 0] = w
    q[:, 1] = np.copysign(x, m[:, 2, 1] - m[:, 1, 2])
    q[:, 2] = np.copysign(y, m[:, 0, 2] - m[:, 2, 0])
    q[:, 3] = np.copysign(z, m[:, 1, 0] - m[:, 0, 1])
    return q / np.linalg.norm(q, axis=1)[:, None]


def load_bvh(path: str | os.PathLike[str]) -> Clip:
    """Read a BVH file.

    Parameters
    ----------
    path : the file.

    Returns
    -------
    Clip
        ``(skeleton, frames, frame_time)``: a 3-D :class:`~geoik.Skeleton` whose rest pose is
        the file's (all rotations zero), named as the file's joints (End Sites ``<parent>_end``),
        its root at the root's offset; :class:`Frames` with the world positions of its joints
        in every frame; the frame time in seconds.

    Raises
    ------
    BVHError
        A malformed file (naming the file and the line): a bad hierarchy, no MOTION section,
        a frame with the wrong number of channel values, fewer frames than announced, a joint
        moved by position channels relative to its parent.
    OSError
        The file cannot be read.
    """
    name = os.fspath(path)
    joints, data, dt = _read(name)
    if data.shape[0] == 0:
        raise BVHError("expected at least one frame of motion, got none", argument=name)
    world, pos, local = _forward(joints, data)
    # rigid links: position channels may not move a joint relative to its parent
    size = max(float(np.abs(pos[0]).max()), 1.0)
    for b, jt in enumerate(joints):
        if jt.parent >= 0 and any(c.endswith("position") for c in jt.channels):
            spread = float(np.abs(local[:, b] - local[0, b]).max())
            if spread > _RIGID * (size + 10.0 * float(np.linalg.norm(local[0, b]))):
                raise BVHError(
                    f"joint {jt.name!r}: its position channels move it "
                    f"relative to its parent (by up to {spread:.6g}); geoik's skeletons are rigid",
                    argument=f"{name}:{jt.line}",
                )
    fixed_local = [tuple(float(v) for v in local[0, b]) for b in range(len(joints))]
    joints = [
        _Joint(j.name, j.parent, j.offset, fixed_local[b], j.channels, j.end_site, j.line)
        for b, j in enumerate(joints)
    ]
    layout = _make_layout(name, joints)
    sk = _skeleton_of(joints, layout)
    keep = layout.skeleton >= 0
    positions = pos[:, keep]
    return Clip(sk, Frames(positions, _quats(world[:, 0]), layout, world, data), dt)


def _make_layout(path: str, joints: Sequence[_Joint]) -> _Layout:
    rest = np.zeros((len(joints), 3))
    for b, jt in enumerate(joints):
        if jt.parent >= 0:
            rest[b] = rest[jt.parent] + np.array(jt.local)
    size = max(float(np.ptp(rest, axis=0).max()), 1e-300)
    index = np.full(len(joints), -1, dtype=np.int64)
    at = np.zeros(len(joints), dtype=np.int64)
    names: list[str] = []
    seen: set[str] = set()
    for b, jt in enumerate(joints):
        if jt.parent < 0 or float(np.linalg.norm(jt.local)) > _ZERO * size:
            nm = jt.name
            k = 2
            while nm in seen:
                nm = f"{jt.name}_{k}"
                k += 1
            if nm != jt.name and not jt.end_site:
                raise BVHError(
                    f"expected unique joint names, got {jt.name!r} twice",
                    argument=f"{path}:{jt.line}",
                )
            seen.add(nm)
            index[b] = len(names)
            names.append(nm)
            at[b] = index[b]
        else:
            at[b] = at[jt.parent]
    fixed = [
        replace(jt, name=names[index[b]]) if index[b] >= 0 else jt for b, jt in enumerate(joints)
    ]
    return _Layout(tuple(fixed), index, at, tuple(names))


def _skeleton_of(joints: Sequence[_Joint], layout: _Layout) -> Skeleton:
    rest = np.zeros((len(joints), 3))
    for b, jt in enumerate(joints):
        rest[b] = np.array(jt.local) if jt.parent < 0 else rest[jt.parent] + np.array(jt.local)
    m = len(layout.names)
    parents = np.full(m, -1, dtype=np.int64)
    lengths = np.zeros(m)
    dirs = np.zeros((m, 3))
    dirs[:, 0] = 1.0
    rest_sk = np.zeros((m, 3))
    for b in range(len(joints)):
        if layout.skeleton[b] >= 0:
            rest_sk[layout.skeleton[b]] = rest[b]
    for b, jt in enumerate(joints):
        s = layout.skeleton[b]
        if s < 0 or jt.parent < 0:
            continue
        p = layout.at[jt.parent]
        parents[s] = p
        off = rest[b] - rest_sk[p]
        lengths[s] = float(np.linalg.norm(off))
        dirs[s] = off / lengths[s]
    return Skeleton(layout.names, parents, lengths, None, 3, rest[0], dirs)


# ------------------------------------------------------------------------------- writing


def _default_layout(sk: Skeleton) -> _Layout:
    kids: dict[int, list[int]] = {}
    for j in range(sk.n):
        if sk.parents[j] >= 0:
            kids.setdefault(int(sk.parents[j]), []).append(j)
    joints: list[_Joint] = []
    index: list[int] = []
    rot = tuple(f"{a}rotation" for a in DEFAULT_ORDER)
    root = np.zeros(3)
    root[: sk.dim] = sk.root

    def visit(j: int, parent: int) -> None:
        me = len(joints)
        if parent < 0:
            off = tuple(float(v) for v in root)
            chans = ("Xposition", "Yposition", "Zposition", *rot)
        else:
            d = np.zeros(3)
            d[: sk.dim] = sk.directions[j] * sk.lengths[j]
            off = tuple(float(v) for v in d)
            chans = rot
        joints.append(_Joint(sk.names[j], parent, off, off, chans, False, 0))
        index.append(j)
        for c in kids.get(j, []):
            visit(c, me)
        if not kids.get(j):
            joints.append(_Joint(f"{sk.names[j]}_end", me, (0.0,) * 3, (0.0,) * 3, (), True, 0))
            index.append(-1)

    visit(sk.root_index, -1)
    idx = np.array(index, dtype=np.int64)
    at = np.array([i if i >= 0 else index[joints[b].parent] for b, i in enumerate(index)])
    return _Layout(tuple(joints), idx, at, sk.names)


def _min_turn(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """(F, 3, 3) minimal rotations taking the directions a to b (F, 3); the identity where
    either is zero; a half turn about an axis perpendicular to a where they are opposite."""
    an = a / np.maximum(np.linalg.norm(a, axis=1), 1e-300)[:, None]
    bn = b / np.maximum(np.linalg.norm(b, axis=1), 1e-300)[:, None]
    v = np.cross(an, bn)
    c = np.sum(an * bn, axis=1)
    out = np.broadcast_to(np.eye(3), (a.shape[0], 3, 3)).copy()
    vx = np.zeros((a.shape[0], 3, 3))
    vx[:, 0, 1], vx[:, 0, 2] = -v[:, 2], v[:, 1]
    vx[:, 1, 0], vx[:, 1, 2] = v[:, 2], -v[:, 0]
    vx[:, 2, 0], vx[:, 2, 1] = -v[:, 1], v[:, 0]
    ok = c > -1.0 + 1e-12
    k = np.where(ok, 1.0 / np.where(ok, 1.0 + c, 1.0), 0.0)
    out += vx + (vx @ vx) * k[:, None, None]
    flip = ~ok & (np.linalg.norm(a, axis=1) > 0) & (np.linalg.norm(b, axis=1) > 0)
    for f in np.flatnonzero(flip):
        e = np.eye(3)[int(np.argmin(np.abs(an[f])))]
        ax = np.cross(an[f], e)
        ax /= np.linalg.norm(ax)
        out[f] = 2.0 * np.outer(ax, ax) - np.eye(3)
    zero = (np.linalg.norm(a, axis=1) == 0) | (np.linalg.norm(b, axis=1) == 0)
    out[zero] = np.eye(3)
    return out


def _fit(hint: np.ndarray, offsets: list[np.ndarray], links: list[np.ndarray]) -> np.ndarray:
    """World rotations (F, 3, 3) putting the offsets (3,) along the links (F, 3), from the hint."""
    if not offsets:
        return hint
    moved = [hint @ o for o in offsets]
    if len(offsets) > 1:
        m = sum(np.einsum("fi,fj->fij", d, a) for d, a in zip(links, moved, strict=True))
        u, s, vt = np.linalg.svd(m)
        good = s[:, 1] > 1e-9 * np.maximum(s[:, 0], 1e-300)
        det = np.sign(np.linalg.det(u @ vt))
        fix = np.broadcast_to(np.eye(3), m.shape).copy()
        fix[:, 2, 2] = det
        r = u @ fix @ vt
        one = _min_turn(moved[0], links[0])
        r = np.where(good[:, None, None], r, one)
        return r @ hint
    return _min_turn(moved[0], links[0]) @ hint


_EVEN = {(0, 1, 2), (1, 2, 0), (2, 0, 1)}


def _euler(m: np.ndarray, axes: tuple[int, int, int], hint: np.ndarray) -> np.ndarray:
    """(F, 3) angles in radians with ``m = R_a0 R_a1 R_a2``, the solution nearest the hint."""
    i, j, k = axes
    s = 1.0 if axes in _EVEN else -1.0
    b = np.arctan2(s * m[:, i, k], np.hypot(m[:, i, i], m[:, i, j]))
    a = np.arctan2(-s * m[:, j, k], m[:, k, k])
    c = np.arctan2(-s * m[:, i, j], m[:, i, i])
    one = np.stack([a, b, c], axis=1)
    two = np.stack([a + np.pi, np.pi - b, c + np.pi], axis=1)
    best = None
    cost = None
    for cand in (one, two):
        near = cand + 2.0 * np.pi * np.round((hint - cand) / (2.0 * np.pi))
        d = np.abs(near - hint).sum(axis=1)
        if best is None or cost is None:
            best, cost = near, d
        else:
            pick = d < cost
            best = np.where(pick[:, None], near, best)
            cost = np.where(pick, d, cost)
    assert best is not None
    return best


def _channel_values(
    layout: _Layout, positions: np.ndarray, hints: np.ndarray | None, values: np.ndarray | None
) -> np.ndarray:
    joints = layout.joints
    f = positions.shape[0]
    k = len(joints)
    world = np.empty((f, k, 3, 3))
    out = np.empty((f, layout.width))
    kids: dict[int, list[int]] = {}
    for b, jt in enumerate(joints):
        if jt.parent >= 0:
            kids.setdefault(jt.parent, []).append(b)
    col = 0
    eye = np.broadcast_to(np.eye(3), (f, 3, 3))
    for b, jt in enumerate(joints):
        parent_w = eye if jt.parent < 0 else world[:, jt.parent]
        rot_ch = [c for c in jt.channels if c.endswith("rotation")]
        hint = hints[:, b] if hints is not None else parent_w
        offsets, links = [], []
        for c in kids.get(b, []):
            if layout.skeleton[c] >= 0:
                offsets.append(np.array(joints[c].local))
                links.append(positions[:, layout.skeleton[c]] - positions[:, layout.at[b]])
        w = _fit(hint, offsets, links) if rot_ch else parent_w
        world[:, b] = w
        local = np.einsum("fji,fjk->fik", parent_w, w)
        hint_values = values[:, col : col + len(jt.channels)] if values is not None else None
        rot_cols = [n for n, c in enumerate(jt.channels) if c.endswith("rotation")]
        if rot_cols:
            if len(rot_cols) != 3:
                raise BVHError(
                    f"{len(rot_cols)} rotation channels; geoik writes joints with 0 or 3",
                    argument=f"joint {jt.name!r}",
                )
            axes = tuple(_AXES[jt.channels[n][0].lower()] for n in rot_cols)
            h = (
                np.radians(hint_values[:, rot_cols])
                if hint_values is not None
                else np.zeros((f, 3))
            )
            ang = np.degrees(_euler(local, axes, h))  # type: ignore[arg-type]
            if hint_values is not None and hints is not None:
                hint_local = np.einsum(
                    "fji,fjk->fik", eye if jt.parent < 0 else hints[:, jt.parent], hints[:, b]
                )
                same = np.abs(local - hint_local).max(axis=(1, 2)) <= _SAME
                ang = np.where(same[:, None], hint_values[:, rot_cols], ang)
            for n, v in zip(rot_cols, ang.T, strict=True):
                out[:, col + n] = v
        for n, ch in enumerate(jt.channels):
            if ch.endswith("position"):
                axis = _AXES[ch[0].lower()]
                if jt.parent < 0:
                    out[:, col + n] = positions[:, layout.at[b], axis]
                else:
                    out[:, col + n] = jt.local[axis]
        col += len(jt.channels)
    return out


def _positions_of(sk: Skeleton, frames: Any) -> np.ndarray:
    if isinstance(frames, Frames):
        pos = frames.positions
    else:
        try:
            seq = list(frames)
        except TypeError:
            raise InvalidPoseError(
                f"expected a sequence of poses, got {describe(frames)}", argument="frames"
            ) from None
        rows = [np.asarray(getattr(fr, "positions", fr), dtype=np.float64) for fr in seq]
        if not rows:
            raise InvalidPoseError("expected at least one frame, got none", argument="frames")
        shapes = {r.shape for r in rows}
        if len(shapes) != 1:
            raise InvalidPoseError(
                f"expected frames of one shape, got {sorted(shapes)}", argument="frames"
            )
        pos = np.stack(rows)
    if pos.ndim != 3 or pos.shape[1:] != (sk.n, sk.dim) or not np.all(np.isfinite(pos)):
        raise InvalidPoseError(
            f"expected frames of {(sk.n, sk.dim)} finite joint positions, got shape "
            f"{(pos.shape[1:] if pos.ndim == 3 else pos.shape)}",
            argument="frames",
        )
    if sk.dim == 2:
        pos = np.concatenate([pos, np.zeros(pos.shape[:2] + (1,))], axis=2)
    return np.asarray(pos, dtype=np.float64)


def _fmt(v: float) -> str:
    text = f"{v:.9g}"
    return "0" if text == "-0" else text


def save_bvh(
    path: str | os.PathLike[str], skeleton: Skeleton, frames: Any, frame_time: float
) -> Path:
    """Write a clip as a BVH file (all at once: an interrupted write leaves no file).

    Parameters
    ----------
    path : the file to write.
    skeleton : the :class:`~geoik.Skeleton` (a planar one is written in its plane, z = 0).
    frames : the poses, one per frame: :class:`Frames` (from :func:`load_bvh` or
        :func:`geoik.pose_clip`: the file's layout and rotations are kept), or a sequence of
        :class:`~geoik.TreePose`, TreeSolutions or (joints, dim) position arrays, or a
        (frames, joints, dim) array.
    frame_time : seconds per frame (> 0).

    Returns
    -------
    pathlib.Path of the file written.
    """
    if not isinstance(skeleton, Skeleton):
        raise InvalidPoseError(
            f"expected a geoik.Skeleton, got {describe(skeleton)}", argument="skeleton"
        )
    if not (isinstance(frame_time, int | float) and math.isfinite(frame_time) and frame_time > 0):
        raise InvalidPoseError(
            f"expected seconds > 0, got {describe(frame_time)}", argument="frame_time"
        )
    positions = _positions_of(skeleton, frames)
    layout: _Layout | None = getattr(frames, "_layout", None)
    hints = values = None
    if layout is not None and layout.names == skeleton.names:
        hints, values = frames._hints, frames._values
    else:
        layout = _default_layout(skeleton)
    data = _channel_values(layout, positions, hints, values)
    lines = ["HIERARCHY"]
    depth = 0
    stack: list[int] = []
    for b, jt in enumerate(layout.joints):
        while stack and stack[-1] != jt.parent:
            stack.pop()
            depth -= 1
            lines.append("  " * depth + "}")
        pad = "  " * depth
        off = " ".join(_fmt(v) for v in jt.offset)
        if jt.end_site:
            lines += [f"{pad}End Site", f"{pad}{{", f"{pad}  OFFSET {off}", f"{pad}}}"]
            continue
        lines.append(f"{pad}{'ROOT' if jt.parent < 0 else 'JOINT'} {jt.name}")
        lines += [f"{pad}{{", f"{pad}  OFFSET {off}"]
        if jt.channels:
            lines.append(f"{pad}  CHANNELS {len(jt.channels)} {' '.join(jt.channels)}")
        stack.append(b)
        depth += 1
    while stack:
        stack.pop()
        depth -= 1
        lines.append("  " * depth + "}")
    lines += ["MOTION", f"Frames: {data.shape[0]}", f"Frame Time: {_fmt(float(frame_time))}"]
    lines += [" ".join(map(_fmt, row)) for row in data.tolist()]
    return write_text(path, "\n".join(lines) + "\n")
