"""Joint limits on skeletons: the one definition that the limit check and the tree solvers share.

A :class:`~geoik.Skeleton`'s joints may carry the limits a :class:`~geoik.Chain`'s joints have:
a bend cone (a ball joint), or a hinge axis with a signed range. This module parses them (by
joint name, in degrees) into per-link arrays; the compiled geometry that measures and enforces
them is :mod:`geoik.rigs.limit_geometry` (its kernels are importable from here too).

Which link a limit holds. The limit named by joint ``J`` is the bend *at* ``J``, as an animator
picks it: it holds every link leaving ``J`` (the links from ``J`` to its children). A joint with
several children (a palm with five fingers) may give each child link its own limit by naming
it: ``{"palm": {"thumb_1": 70, "index_1": 30}}``. Internally row ``j`` of every array describes
the link from joint ``j``'s parent to ``j`` (the root's row is unused).

Frames. Every link has a frame whose +x runs along the link. The root's frame is the root's
orientation: the identity unless a pose says otherwise (a BVH frame's root rotation). At rest
each link's frame is its parent link's frame turned by the minimal rotation that takes the
parent link's direction onto the link's own (``rest``, the link's *rest turn*; the root's
children start from the root frame's +x). In a pose, a link's frame is its parent's frame
turned by the link's rest turn and then by its *swing*: for a hinge, the turn about the hinge
axis by the link's hinge angle; for a ball joint, the minimal rotation from the link's rest
direction to its direction (no twist: positions carry none). So frames follow from the joint
positions alone, and a knee's hinge axis is carried along by the thigh.

The limits, all measured in the parent link's frame from the link's *rest direction* (the
direction its rest turn gives it; for a chain, straight at rest, this is the parent link's
direction, as :class:`~geoik.Chain` measures):

- a ball joint keeps its link within ``cone`` radians of the rest direction;
- a hinge keeps its link in the plane through the rest direction perpendicular to its axis
  ``hinge`` (a unit vector in the parent link's frame, perpendicular to the rest direction),
  at a signed angle about the axis within ``[lo, hi]``;
- in 2-D every joint is a hinge about +z, free (``lo = -inf``, ``hi = +inf``) or limited.

A link's *breach* is the angle in radians between its direction and the nearest direction its
limit allows (0 within the limit). :func:`pose_breaches` measures a pose; the tree solvers place
every link by :func:`place_link`, which puts it at the allowed direction nearest to the one
wanted, so a solved pose breaks no limit.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import numpy as np

from geoik.errors import InvalidChainError, describe
from geoik.jit import KernelModel, call
from geoik.rigs.limit_geometry import (
    _rest_dir,
    allowed_direction,
    carry,
    link_frame,
    local_direction,
    place_link,
    pose_breaches,
    project_pose,
    rest_turns,
    set_link,
)

if TYPE_CHECKING:
    from geoik.rigs.skeleton import Skeleton

__all__ = [
    "TreeLimits",
    "allowed_direction",
    "breaches",
    "carry",
    "carry_pose",
    "link_frame",
    "local_direction",
    "parse_limits",
    "place_link",
    "pose_breaches",
    "project_pose",
    "rest_turns",
    "set_link",
]

_PERP_TOL = 1e-6
"""A hinge axis may lean this far (cosine) towards its link's rest direction; it is then made
exactly perpendicular."""


@dataclass(frozen=True, eq=False)
class TreeLimits(KernelModel):
    """A skeleton's limits as the compiled code takes them; row ``j`` holds the link from joint
    ``j``'s parent to ``j``.

    Attributes
    ----------
    rest : (m, 4) rest turn of each link (unit quaternion, parent link frame to link frame).
    cone : (m,) half-angle in radians of a ball joint's cone; pi when free.
    hinge : (m, 3) unit hinge axis in the parent link's frame; zero rows for ball joints.
    lo, hi : (m,) signed hinge range in radians from the rest direction; -inf/+inf when free.
    limited : whether any link has a limit (a hinge, a cone or a range).
    """

    rest: np.ndarray
    cone: np.ndarray
    hinge: np.ndarray
    lo: np.ndarray
    hi: np.ndarray
    limited: bool

    @property
    def arrays(self) -> tuple[np.ndarray, ...]:
        """``(rest, cone, hinge, lo, hi)``, in the order the kernels take them."""
        return (self.rest, self.cone, self.hinge, self.lo, self.hi)


# ---------------------------------------------------------------------------- parsing


def _entries(value: Any, names: Sequence[str], parents: np.ndarray, field: str) -> dict[int, Any]:
    """A per-joint mapping (or one value for every joint) as ``{link: (entry, where)}``, the
    link named by its child's index; InvalidChainError naming the entry otherwise."""
    out: dict[int, Any] = {}
    if value is None:
        return out
    links = [j for j, p in enumerate(parents) if p >= 0]
    if field == "max_bend_deg" and not isinstance(value, Mapping):
        for j in links:  # one limit for every joint, as Chain takes it
            out[j] = (value, field)
        return out
    if not isinstance(value, Mapping):
        raise InvalidChainError(
            f"expected a mapping of joint names to entries, got {describe(value)}", argument=field
        )
    index = {nm: i for i, nm in enumerate(names)}
    kids: dict[int, list[int]] = {}
    for j in links:
        kids.setdefault(int(parents[j]), []).append(j)
    special: dict[int, Any] = {}
    for name, entry in value.items():
        where = f"{field}[{name!r}]"
        j = index.get(name, -1) if isinstance(name, str) else -1
        if j < 0:
            raise InvalidChainError(
                f"expected the name of a joint ({', '.join(names)}), got {name!r}", argument=where
            )
        children = kids.get(j, [])
        if not children:
            raise InvalidChainError(
                f"joint {name!r} has no link leaving it (a limit holds the links from a joint to "
                f"its children)",
                argument=where,
            )
        if isinstance(entry, Mapping):
            for child, sub in entry.items():
                c = index.get(child, -1) if isinstance(child, str) else -1
                if c not in children:
                    raise InvalidChainError(
                        f"expected a child of {name!r} "
                        f"({', '.join(names[k] for k in children)}), got {child!r}",
                        argument=f"{where}[{child!r}]",
                    )
                special[c] = (sub, f"{where}[{child!r}]")
        else:
            for c in children:
                out[c] = (entry, where)
    out.update(special)
    return out


def _bend(entry: Any, where: str, signed_ok: bool) -> tuple[float, float] | None:
    from geoik.chain import _bend_entry

    try:
        return _bend_entry(entry, 0, signed_ok)
    except InvalidChainError as e:
        raise e.about(where) from None


def _hinge_axis(
    axis: Any,
    where: str,
    j: int,
    name: str,
    frame: np.ndarray,
    rest: np.ndarray,
    dirs: np.ndarray,
) -> np.ndarray:
    """The hinge axis of the link to joint ``j``, in its parent link's frame.

    Parameters
    ----------
    axis : array_like
        The axis as given, a non-zero 3-vector in world (rest pose) coordinates.
    where : str
        The argument's name for messages (``hinge_axes['knee']``).
    j : int
        The joint the link runs to; ``name`` is its name.
    frame : (4,) ndarray
        The parent link's rest frame in world coordinates, a unit quaternion ``w, x, y, z``.
    rest : (m, 4) ndarray
        Each link's rest turn (unit quaternions).
    dirs : (m, 3) ndarray
        Each link's rest direction (for messages).

    Returns
    -------
    (3,) ndarray
        The unit axis, perpendicular to the link's rest direction (its small component along
        it, within ``_PERP_TOL``, removed).
    """
    try:
        h = np.array(axis, dtype=np.float64)
    except (TypeError, ValueError):
        h = np.zeros(0)
    norm = float(np.linalg.norm(h)) if h.shape == (3,) else 0.0
    if h.shape != (3,) or not np.all(np.isfinite(h)) or norm == 0.0:
        raise InvalidChainError(
            f"expected None or a non-zero 3-vector, got {describe(axis)}", argument=where
        )
    local = np.array(call(local_direction, *frame, *(h / norm)))
    r = np.array(call(_rest_dir, rest, j))
    if abs(float(local @ r)) > _PERP_TOL:
        raise InvalidChainError(
            f"expected an axis perpendicular to the rest direction of the link to "
            f"{name!r} ({np.round(dirs[j], 6).tolist()}), got {describe(axis)}",
            argument=where,
        )
    local -= float(local @ r) * r
    return local / np.linalg.norm(local)


def parse_limits(
    names: Sequence[str],
    parents: np.ndarray,
    order: np.ndarray,
    directions: np.ndarray,
    dim: int,
    max_bend_deg: Any,
    hinge_axes: Any,
) -> TreeLimits:
    """The limits of a skeleton, given per joint by name in degrees (see :class:`Skeleton`)."""
    m = len(names)
    dirs = np.zeros((m, 3))
    dirs[:, :dim] = directions
    rest = np.zeros((m, 4))
    frames = call(rest_turns, parents, order, dirs, rest, work=m)
    cone = np.full(m, math.pi)
    hinge = np.zeros((m, 3))
    lo = np.full(m, -np.inf)
    hi = np.full(m, np.inf)
    if dim == 2:
        hinge[:, 2] = 1.0
        if hinge_axes is not None:
            raise InvalidChainError(
                f"a planar skeleton's joints all turn about z, got {describe(hinge_axes)}",
                argument="hinge_axes",
            )
    for j, (axis, where) in _entries(hinge_axes, names, parents, "hinge_axes").items():
        if axis is not None:
            hinge[j] = _hinge_axis(axis, where, j, names[j], frames[int(parents[j])], rest, dirs)
    for j, (entry, where) in _entries(max_bend_deg, names, parents, "max_bend_deg").items():
        is_h = bool(np.any(hinge[j]))
        pair = _bend(entry, where, signed_ok=is_h)
        if pair is None:
            continue
        if is_h:
            lo[j], hi[j] = math.radians(pair[0]), math.radians(pair[1])
        else:
            cone[j] = math.radians(pair[1])
    limited = bool(
        np.any(np.isfinite(lo)) or np.any(cone < math.pi) or (dim == 3 and np.any(hinge))
    )
    for a in (rest, cone, hinge, lo, hi):
        a.setflags(write=False)
    return TreeLimits(rest, cone, hinge, lo, hi, limited)


def breaches(sk: Skeleton, positions: np.ndarray, root_q: np.ndarray) -> np.ndarray:
    """(m,) breach of every link of a pose (radians)."""
    m = sk.n
    pos = np.ascontiguousarray(positions, dtype=np.float64)
    out = np.empty(m)
    frames = np.empty((m, 4))
    local = np.empty((m, 3))
    tree = (sk.parents, sk.order, sk.lengths)
    call(pose_breaches, tree, sk.limits.arrays, root_q, pos, frames, local, out, work=m)
    return out


def carry_pose(
    sk: Skeleton, start: np.ndarray, moved: np.ndarray, fixed: np.ndarray, root_q: np.ndarray
) -> np.ndarray:
    """(m, dim) positions: the ``fixed`` joints where ``moved`` has them, every other joint
    carried along, its link keeping the direction in its parent link's frame that it has in
    ``start``."""
    m = sk.n
    src = np.ascontiguousarray(start, dtype=np.float64)
    frames = np.empty((m, 4))
    local = np.empty((m, 3))
    out = np.empty(m)
    tree, lim = (sk.parents, sk.order, sk.lengths), sk.limits.arrays
    call(pose_breaches, tree, lim, root_q, src, frames, local, out, work=m)
    pos = np.array(moved, dtype=np.float64)
    call(carry, tree, lim, root_q, fixed, local, pos, work=m)
    return pos
