"""Writing BVH files: :func:`save_bvh` (the rules are in :mod:`geoik.rigs.bvh`'s
"Writing"): each joint's rotation fitted to the positions and its channels' Euler angles."""

from __future__ import annotations

import math
import os
from pathlib import Path
from typing import Any

import numpy as np

from geoik.errors import BVHError, InvalidPoseError, describe
from geoik.files import write_text
from geoik.rigs.bvh_frames import _AXES, Frames, _Joint, _Layout
from geoik.rigs.skeleton import Skeleton

_SAME = 1e-12
"""Rotations this close (largest matrix entry) count as unchanged."""
DEFAULT_ORDER = "ZXY"


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
