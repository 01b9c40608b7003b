"""Posing a clip: named joints pinned to targets, re-solved on every frame.

``pose_clip(skeleton, frames, pins, method=...)`` solves every frame that has a pin with
:func:`geoik.solve_tree`, starting from the clip's own pose of that frame, so that the joints
the pins do not need keep the clip's motion, and returns the new frames with each pin's error.

Frames move: a clip's root travels, while a skeleton's root is one point. Each frame is
therefore solved shifted so that its root sits at the skeleton's root, and shifted back; the
limits of the links leaving the root are measured in the frame's root orientation. With
``hold_root`` (the default) the links leaving the root keep their directions in the root's
frame (a pelvis stays a pelvis: the hips do not slide about it), unless the skeleton gives
the root limits of its own.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, NamedTuple

import numpy as np

from geoik import jit
from geoik.checks import check_point
from geoik.errors import InvalidOptionError, InvalidPoseError, InvalidTargetError, describe
from geoik.rigs.bvh import Frames
from geoik.rigs.pose import TreePose, check_root_rotation
from geoik.rigs.skeleton import Skeleton
from geoik.rigs.tree import METHODS, solve_tree
from geoik.solution import Status

__all__ = ["Pin", "PosedClip", "parse_frames", "pose_clip"]


@dataclass(frozen=True)
class Pin:
    """A joint held at a target over some frames.

    Attributes
    ----------
    joint : the joint's name (any joint but the root).
    target : (d,) where it goes; None: where the clip has it on the first frame pinned.
    frames : the frame indices (0 is the first frame) it holds on; None: every frame.
    """

    joint: str
    target: Any = None
    frames: Any = None


class PosedClip(NamedTuple):
    """What :func:`pose_clip` returns.

    Attributes
    ----------
    frames : the posed frames (:class:`~geoik.rigs.bvh.Frames`, ready for :func:`geoik.save_bvh`).
    error : (frames, pins) each pin's distance from its target; NaN where it does not hold.
    reached : (frames, pins) whether the pin's joint is within ``tol`` (REACHED).
    tol : the tolerance used.
    """

    frames: Frames
    error: np.ndarray
    reached: np.ndarray
    tol: float


def parse_frames(text: str, count: int, name: str = "frames") -> list[int]:
    """Frame indices from ``"12"``, ``"10-30"`` (both included) or ``"0-9,20,30-"`` (an open
    end runs to the last frame); InvalidOptionError naming ``name`` otherwise."""
    out: list[int] = []
    for part in text.split(","):
        a, sep, b = part.strip().partition("-")
        try:
            lo = int(a)
            hi = (count - 1 if b.strip() == "" else int(b)) if sep else lo
        except ValueError:
            raise InvalidOptionError(
                f"expected frame numbers as N, A-B or A- (from 0), got {text!r}", argument=name
            ) from None
        if not 0 <= lo <= hi < count:
            raise InvalidOptionError(
                f"expected frames within 0-{count - 1} (first <= last), got {part.strip()!r}",
                argument=name,
            )
        out.extend(range(lo, hi + 1))
    return sorted(set(out))


def _as_pins(
    pins: Any, sk: Skeleton, count: int
) -> list[tuple[str, np.ndarray | None, np.ndarray]]:
    """Each pin as (joint, target or None, (frames,) bool mask)."""
    if isinstance(pins, Mapping):
        items: Iterable[Any] = [Pin(k, v) for k, v in pins.items()]
    elif isinstance(pins, Pin):
        items = [pins]
    else:
        items = pins
    out = []
    root = sk.names[sk.root_index]
    for k, p in enumerate(items):
        if not isinstance(p, Pin):
            raise InvalidTargetError(
                f"expected a geoik.Pin, got {describe(p)}", argument=f"pins[{k}]"
            )
        if p.joint not in sk.names or p.joint == root:
            raise InvalidTargetError(
                f"expected a joint other than the root {root!r}, got {p.joint!r}",
                argument=f"pins[{k}].joint",
            )
        target = None if p.target is None else check_point(p.target, sk.dim, f"pins[{k}].target")
        mask = np.zeros(count, dtype=bool)
        if p.frames is None:
            mask[:] = True
        elif isinstance(p.frames, str):
            mask[parse_frames(p.frames, count, f"pins[{k}].frames")] = True
        else:
            idx = np.array(list(p.frames), dtype=np.int64)
            if idx.size and (idx.min() < 0 or idx.max() >= count):
                raise InvalidOptionError(
                    f"expected frames within 0-{count - 1}, got {describe(p.frames)}",
                    argument=f"pins[{k}].frames",
                )
            mask[idx] = True
        out.append((p.joint, target, mask))
    if not out:
        raise InvalidTargetError("expected at least one pin, got none", argument="pins")
    return out


def _refuse_contradictions(
    pinned: list[tuple[str, np.ndarray | None, np.ndarray]], targets: list[np.ndarray]
) -> None:
    """Two pins that hold one joint on one frame must agree on where: InvalidTargetError
    naming the later pin and the frames otherwise (a joint cannot be at two places)."""
    for b, (joint, _, mask) in enumerate(pinned):
        for a in range(b):
            other, _, other_mask = pinned[a]
            both = mask & other_mask
            if other == joint and both.any() and not np.array_equal(targets[a], targets[b]):
                raise InvalidTargetError(
                    f"expected one target for {joint!r} on each frame, got "
                    f"{_point(targets[b])} here and {_point(targets[a])} from pins[{a}] on "
                    f"{'frame' if both.sum() == 1 else 'frames'} {_spans(np.flatnonzero(both))}",
                    argument=f"pins[{b}]",
                )


def _point(p: np.ndarray) -> str:
    return "(" + ", ".join(f"{v:.6g}" for v in p.tolist()) + ")"


def _spans(frames: np.ndarray) -> str:
    """Frame indices as ``10-30,40``, the syntax pins take."""
    parts: list[str] = []
    start = prev = int(frames[0])
    for f in [*frames[1:].tolist(), None]:
        if f is not None and f == prev + 1:
            prev = f
            continue
        parts.append(str(start) if start == prev else f"{start}-{prev}")
        if f is not None:
            start = prev = f
    return ",".join(parts)


def _held(sk: Skeleton) -> Skeleton:
    """The skeleton with the links leaving its root held in the root's frame (cone 0), unless
    its limits name the root already."""
    root = sk.names[sk.root_index]
    bends = sk.max_bend_deg
    if bends is None:
        bends = {}
    if not isinstance(bends, Mapping) or root in bends:
        return sk
    axes = sk.hinge_axes if isinstance(sk.hinge_axes, Mapping) else None
    if axes is not None and root in axes:
        return sk
    return sk.with_limits({**bends, root: 0.0}, sk.hinge_axes)


def _pin_targets(pinned: list[Any], sk: Skeleton, positions: np.ndarray) -> list[np.ndarray]:
    """Each pin's target: its own, or where the clip has its joint on the pin's first frame.

    Parameters
    ----------
    pinned : list of (str, ndarray or None, ndarray)
        Each pin's joint, target ``(dim,)`` or None, and frames ``(F,)`` bool.
    sk : Skeleton
        The skeleton solved.
    positions : (F, joints, dim) ndarray
        The clip's positions.

    Returns
    -------
    list of (dim,) ndarray
        One target per pin, in the file's units and world axes.
    """
    targets_at = []
    for joint, target, mask in pinned:  # a pin without a target holds its first frame's place
        j = sk.index(joint)
        first = int(np.flatnonzero(mask)[0]) if mask.any() else 0
        targets_at.append(positions[first, j].copy() if target is None else target)
    return targets_at


def _solve_frame(
    sk: Skeleton,
    positions: np.ndarray,
    root_rotation: np.ndarray,
    goals: dict[str, np.ndarray],
    method: str,
    tol: float | None,
    max_iter: int | None,
) -> tuple[Any, np.ndarray]:
    """Solve one frame from the clip's own pose, the skeleton moved to where the frame has its
    root (the solve runs about the skeleton's root; the positions come back in place).

    Parameters
    ----------
    sk : Skeleton
        The skeleton solved.
    positions : (joints, dim) ndarray
        The frame's positions, its start pose.
    root_rotation : (4,) ndarray
        The frame's root rotation (``w, x, y, z``).
    goals : dict
        Joint name -> target ``(dim,)`` of the pins that hold on this frame.
    method, tol, max_iter
        As :func:`pose_clip`.

    Returns
    -------
    sol : TreeSolution
        The solve (errors and statuses by joint name, about the moved skeleton).
    positions : (joints, dim) ndarray
        The solved positions, in the clip's place.
    """
    shift = positions[sk.root_index] - sk.root
    start = TreePose(positions - shift, root_rotation)
    sol = solve_tree(
        sk,
        {name: t - shift for name, t in goals.items()},
        method=method,
        tol=tol,
        max_iter=max_iter,
        start=start,
    )
    return sol, sol.positions + shift


def pose_clip(
    skeleton: Skeleton,
    frames: Any,
    pins: Any,
    method: str = "circles",
    tol: float | None = None,
    max_iter: int | None = None,
    hold_root: bool = True,
    progress: Callable[[int, int], None] | None = None,
) -> PosedClip:
    """Re-solve a clip's frames so that the pinned joints reach their targets.

    Parameters
    ----------
    skeleton : the clip's :class:`~geoik.Skeleton` (with limits, if it has them).
    frames : :class:`~geoik.rigs.bvh.Frames` (from :func:`geoik.load_bvh`), or a sequence of
        :class:`~geoik.TreePose` or (joints, dim) positions.
    pins : :class:`Pin` objects, or a mapping ``{joint: target}`` held on every frame.
    method : a tree solver, ``"circles"`` or ``"fabrik"``.
    tol, max_iter : as :func:`geoik.solve_tree` (``tol`` default: 1e-4 times the skeleton's
        longest path from the root).
    hold_root : keep the links leaving the root as the clip has them (see the module notes).
    progress : called as ``progress(done, total)`` after every frame.

    Returns
    -------
    PosedClip
    """
    if not isinstance(skeleton, Skeleton):
        raise InvalidPoseError(
            f"expected a geoik.Skeleton, got {describe(skeleton)}", argument="skeleton"
        )
    if method not in METHODS:
        raise InvalidOptionError(
            f"expected one of {', '.join(METHODS)}, got {method!r}", argument="method"
        )
    clip = frames if isinstance(frames, Frames) else _frames_of(skeleton, frames)
    count = len(clip)
    pinned = _as_pins(pins, skeleton, count)
    sk = _held(skeleton) if hold_root else skeleton
    positions = np.array(clip.positions)
    error = np.full((count, len(pinned)), np.nan)
    reached = np.zeros((count, len(pinned)), dtype=bool)
    targets_at = _pin_targets(pinned, sk, positions)
    _refuse_contradictions(pinned, targets_at)
    used_tol = float("nan")
    # frames to solve: as plain Python unless compiling pays (a short clip is done sooner)
    solving = int(np.any([mask for _, _, mask in pinned], axis=0).sum()) if pinned else 0
    with jit.job(solving) as work:
        for f in range(count):
            goals = {}
            for k, (joint, _, mask) in enumerate(pinned):
                if mask[f]:
                    goals[joint] = targets_at[k]
            if goals:
                sol, positions[f] = _solve_frame(
                    sk, positions[f], clip.root_rotations[f], goals, method, tol, max_iter
                )
                used_tol = sol.tol
                for k, (joint, _, mask) in enumerate(pinned):
                    if mask[f]:
                        error[f, k] = sol.error[joint]
                        reached[f, k] = sol.status[joint] is Status.REACHED
                work.step()
            if progress is not None:
                progress(f + 1, count)
    if math.isnan(used_tol):
        used_tol = 0.0
    return PosedClip(clip.with_positions(positions), error, reached, used_tol)


def _frames_of(sk: Skeleton, frames: Any) -> Frames:
    try:
        seq: Sequence[Any] = list(frames)
    except TypeError:
        raise InvalidPoseError(
            f"expected a sequence of poses, got {describe(frames)}", argument="frames"
        ) from None
    if not seq:
        raise InvalidPoseError("expected at least one frame, got none", argument="frames")
    pos = []
    rots = []
    for k, fr in enumerate(seq):
        p, q = sk._pose_arrays(fr, f"frames[{k}]")
        pos.append(p)
        rots.append(check_root_rotation(q, f"frames[{k}].root_rotation"))
    return Frames(np.stack(pos), np.stack(rots))
