"""Reading BVH files: :func:`load_bvh` (the rules are in :mod:`geoik.rigs.bvh`'s
"Reading"): the tokens, the hierarchy, the motion table and the forward kinematics of its
channels."""

from __future__ import annotations

import math
import os
from collections.abc import Sequence
from dataclasses import replace

import numpy as np

from geoik.errors import BVHError
from geoik.geometry import axis_rotations
from geoik.rigs.bvh_frames import _AXES, Clip, Frames, _Joint, _Layout
from geoik.rigs.skeleton import Skeleton

_ZERO = 1e-9
"""Offsets shorter than this times the skeleton's size are zero (no link)."""
_RIGID = 1e-6
"""Largest change of a link that position channels may make, relative to the skeleton's size
(a file's rounding) plus ten times that relative to the link."""


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
    """(F, 3, 3) rotations about one axis by the given angles (degrees, as BVH has them)."""
    return axis_rotations(axis, np.radians(degrees))


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
