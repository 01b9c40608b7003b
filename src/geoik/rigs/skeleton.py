"""Skeletons: trees of named joints joined by rigid links, some joints marked as end effectors.

Seed 003 Section 3.2 (its Table 1 and Fig. 2): the root joint has no parent, every other joint is
joined to exactly one parent by a link of constant length, a joint may have many children, and
end effectors are the joints that targets move. A :class:`geoik.Chain` is the one-branch case.
The end effectors are the leaves; :func:`geoik.solve_tree` may move any other joint too.

Joints may carry limits, given by joint name in degrees: a bend cone or a hinge axis with a
signed range, as a Chain's joints do, measured from each link's rest direction in its parent
link's frame (:mod:`geoik.rigs.limits` defines the frames and the limits).

This module holds :class:`Skeleton`, the model: its fields, the paths and reach of its joints,
its limits and the planar branch as a :class:`geoik.Chain`. How one is built from branches, and
the anatomical hand and legs, are in :mod:`geoik.rigs.skeleton_builders` (:class:`Branch`,
:data:`HAND_LIMITS` and :data:`LEG_LIMITS` are re-exported here); its fields' checks in
:mod:`geoik.rigs.skeleton_fields`.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from geoik.checks import check_point
from geoik.errors import InvalidChainError, UnsupportedChainError, describe
from geoik.jit import KernelModel
from geoik.rigs import skeleton_builders
from geoik.rigs.limits import TreeLimits, breaches, parse_limits
from geoik.rigs.pose import check_root_rotation
from geoik.rigs.skeleton_builders import HAND_LIMITS as HAND_LIMITS  # the builders' names
from geoik.rigs.skeleton_builders import LEG_LIMITS as LEG_LIMITS
from geoik.rigs.skeleton_builders import Branch as Branch
from geoik.rigs.skeleton_fields import (
    _check_directions,
    _check_effectors,
    _check_lengths,
    _check_names,
    _check_parents,
    _topological_order,
)

__all__ = ["HAND_LIMITS", "LEG_LIMITS", "Branch", "Skeleton"]


@dataclass(frozen=True, eq=False)
class Skeleton(KernelModel):
    """A tree of named joints; frozen and validated on construction.

    Parameters
    ----------
    names : (m,) unique joint names.
    parents : (m,) parent index of each joint; exactly one root with -1.
    lengths : (m,) length of the link from each joint's parent; 0 for the root.
    effectors : (m,) booleans marking end effectors (leaves only); default every leaf.
    dim : 2 or 3.
    root : (dim,) root position; default the origin.
    directions : (m, dim) rest direction of each joint's link (normalised); default +x.
    max_bend_deg : limits in degrees, by joint name: ``{name: entry}``, where the entry holds
        every link leaving that joint (the bend *at* it) and is None (free), a maximum bend
        ``b`` (a ball joint's cone of half-angle ``b`` about the link's rest direction; a
        hinge's or a planar joint's range ``[-b, b]``) or a signed ``(min, max)`` pair (hinges
        and planar joints). A joint with several children may give each its own:
        ``{"palm": {"thumb_1": 60, "index_1": 30}}``. One number or pair alone holds every
        joint. Default: free joints.
    hinge_axes : 3-D only: ``{name: axis}`` (or ``{name: {child: axis}}``) makes the joint a
        hinge turning its links about ``axis``, given in world coordinates of the rest pose and
        perpendicular to each link's rest direction; its signed angle is positive counter-
        clockwise about the axis, 0 at rest.

    Raises
    ------
    InvalidChainError
        On duplicate or empty names, bad parent indices, cycles, no root or several,
        non-positive lengths, effectors that are not leaves, bad directions, unknown joints or
        bad entries in the limits.
    """

    names: tuple[str, ...]
    parents: np.ndarray
    lengths: np.ndarray
    effectors: Any = None
    dim: int = 2
    root: Any = None
    directions: Any = None
    max_bend_deg: Any = None
    hinge_axes: Any = None
    order: np.ndarray = field(init=False, repr=False, compare=False)
    """(m,) joint indices, each after its parent (root first)."""
    limits: TreeLimits = field(init=False, repr=False, compare=False)
    """The limits as arrays, row ``j`` for the link from joint ``j``'s parent to ``j``
    (:class:`geoik.rigs.limits.TreeLimits`)."""
    _index: dict[str, int] = field(default_factory=dict, repr=False, compare=False)

    def __post_init__(self) -> None:
        if self.dim not in (2, 3) or isinstance(self.dim, bool):
            raise InvalidChainError(f"expected 2 or 3, got {describe(self.dim)}", argument="dim")
        names = _check_names(self.names)
        m = len(names)
        parents = _check_parents(self.parents, m)
        order = _topological_order(parents)
        lengths = _check_lengths(self.lengths, parents)
        children = np.bincount(parents[parents >= 0], minlength=m)
        effectors = _check_effectors(self.effectors, children, names)
        root = (
            np.zeros(self.dim)
            if self.root is None
            else check_point(self.root, self.dim, "root", InvalidChainError, "skeleton")
        )
        directions = _check_directions(self.directions, m, self.dim)
        limits = parse_limits(
            names, parents, order, directions, self.dim, self.max_bend_deg, self.hinge_axes
        )
        object.__setattr__(self, "limits", limits)
        for name, value in (
            ("names", names),
            ("parents", parents),
            ("lengths", lengths),
            ("effectors", effectors),
            ("root", root),
            ("directions", directions),
            ("order", order),
        ):
            if isinstance(value, np.ndarray):
                value.setflags(write=False)
            object.__setattr__(self, name, value)
        self._index.update({nm: i for i, nm in enumerate(names)})

    # ------------------------------------------------------------------ queries
    @property
    def n(self) -> int:
        """Number of joints, the root included."""
        return len(self.names)

    @property
    def root_index(self) -> int:
        """Index of the root joint."""
        return int(self.order[0])

    @property
    def effector_names(self) -> tuple[str, ...]:
        """Names of the end effectors, in joint order."""
        return tuple(nm for nm, e in zip(self.names, self.effectors, strict=True) if e)

    def index(self, name: str) -> int:
        """Index of the joint called ``name``; InvalidChainError if there is none."""
        try:
            return self._index[name]
        except (KeyError, TypeError):
            raise InvalidChainError(
                f"expected one of the skeleton's joints ({', '.join(self.names)}), got "
                f"{describe(name)}",
                argument="joint",
            ) from None

    def path(self, name: str) -> np.ndarray:
        """Joint indices from the root to the joint called ``name``, both included."""
        j = self.index(name)
        out = [j]
        while self.parents[j] >= 0:
            j = int(self.parents[j])
            out.append(j)
        return np.array(out[::-1], dtype=np.int64)

    def reach(self, name: str) -> tuple[float, float]:
        """(minimum, maximum) distance from the root that joint ``name`` can reach (seed 003
        Section 4.1's safe zones of the chain from the root to it)."""
        ls = self.lengths[self.path(name)[1:]]
        if ls.size == 0:
            return 0.0, 0.0
        total = float(ls.sum())
        return max(0.0, 2.0 * float(ls.max()) - total), total

    @property
    def total_length(self) -> float:
        """Sum of every link's length."""
        return float(self.lengths.sum())

    def rest_positions(self) -> np.ndarray:
        """(m, dim) joint positions of the rest pose: each link along its rest direction."""
        return self._positions(self.directions)

    def _positions(self, directions: np.ndarray) -> np.ndarray:
        pos = np.empty((self.n, self.dim))
        for j in self.order:
            p = self.parents[j]
            pos[j] = self.root if p < 0 else pos[p] + self.lengths[j] * directions[j]
        return pos

    def positions_from_directions(self, directions: Any) -> np.ndarray:
        """Forward kinematics: (m, dim) positions with each link along the given (m, dim)
        directions (normalised here; the root's row is ignored)."""
        d = np.array(directions, dtype=np.float64)
        if d.shape != (self.n, self.dim):
            raise InvalidChainError(
                f"expected shape {(self.n, self.dim)}, got {describe(directions)}",
                argument="directions",
            )
        return self._positions(_check_directions(d, self.n, self.dim, skip=self.root_index))

    # ------------------------------------------------------------------ limits
    @property
    def is_limited(self) -> bool:
        """True if any joint has a limit or (in 3-D) a hinge."""
        return self.limits.limited

    def with_limits(self, max_bend_deg: Any = None, hinge_axes: Any = None) -> Skeleton:
        """The same skeleton with these limits (replacing any it had; see the class's
        ``max_bend_deg`` and ``hinge_axes``)."""
        return type(self)(
            self.names,
            self.parents,
            self.lengths,
            self.effectors,
            self.dim,
            self.root,
            self.directions,
            max_bend_deg,
            hinge_axes,
        )

    def limit_violations(self, pose: Any) -> np.ndarray:
        """(m,) how far each link breaks its limit in a pose, in radians: the angle between its
        direction and the nearest direction its limit allows (0.0 within it; the root's entry
        is 0). ``pose``: (m, dim) joint positions, a :class:`~geoik.TreePose` or a
        :class:`~geoik.TreeSolution`."""
        positions, root_q = self._pose_arrays(pose, "pose")
        return breaches(self, positions, root_q)

    def limit_violation(self, pose: Any) -> float:
        """The largest breach of any limit in a pose, in radians (0.0 within the limits); see
        :meth:`limit_violations`. For poses that came from elsewhere (a BVH clip, another
        tool)."""
        return float(self.limit_violations(pose).max(initial=0.0))

    def _pose_arrays(self, pose: Any, name: str) -> tuple[np.ndarray, np.ndarray]:
        from geoik.errors import InvalidPoseError

        root_q = getattr(pose, "root_rotation", None)
        positions = getattr(pose, "positions", pose)
        try:
            pos = np.array(positions, dtype=np.float64)
        except (TypeError, ValueError):
            pos = np.zeros(0)
        if pos.shape != (self.n, self.dim) or not np.all(np.isfinite(pos)):
            raise InvalidPoseError(
                f"expected {(self.n, self.dim)} finite joint positions, got {describe(positions)}",
                argument=name,
            )
        return pos, check_root_rotation(root_q, f"{name}.root_rotation")

    def chain(self, joint: str, pose: Any = None) -> Any:
        """The branch from the root to ``joint`` of a planar skeleton as a
        :class:`~geoik.Chain` with the skeleton's limits, so that any chain solver can solve it.

        The chain's base is the root and its rest pose straight along +x, as every Chain's is,
        so its limits are the skeleton's moved by the rest bends into angles from each parent
        link (the first joint's: from +x, for the root orientation of ``pose``, a TreePose, or
        the identity). :meth:`chain_positions` puts a chain solution back into a skeleton pose.

        Raises
        ------
        UnsupportedChainError
            For a 3-D skeleton (chain solvers twist ball joints about their links, which joint
            positions do not record, so a hinge after one would not be the skeleton's), for the
            root, or when a range moved by a rest bend crosses the half turn.
        """
        from geoik.chain import Chain

        if self.dim != 2:
            raise UnsupportedChainError(
                "expected a planar skeleton (a 3-D skeleton's limited branches are solved by "
                "solve_tree: chain solvers twist ball joints, which joint positions do not record)",
                argument="skeleton.chain",
            )
        path = self.path(joint)
        if len(path) < 2:
            raise UnsupportedChainError(
                f"expected a joint other than the root, got {joint!r}", argument="joint"
            )
        _, root_q = self._pose_arrays(self.rest_positions() if pose is None else pose, "pose")
        heading = math.degrees(2.0 * math.atan2(root_q[3], root_q[0]))  # root frame about z
        rest = np.degrees(np.arctan2(self.directions[:, 1], self.directions[:, 0]))
        bends: list[Any] = []
        prev = -heading  # so that the first joint's offset is its rest angle plus the heading
        for j in path[1:]:
            offset = _wrap_deg(float(rest[j]) - prev)
            prev = float(rest[j])
            lo, hi = self.limits.lo[j], self.limits.hi[j]
            if not (math.isfinite(lo) and math.isfinite(hi)):
                bends.append(None)
                continue
            a, b = offset + math.degrees(lo), offset + math.degrees(hi)
            if a < -180.0 and b + 360.0 <= 180.0:
                a, b = a + 360.0, b + 360.0
            elif b > 180.0 and a - 360.0 >= -180.0:
                a, b = a - 360.0, b - 360.0
            if a < -180.0 or b > 180.0:
                raise UnsupportedChainError(
                    f"its range from the parent link, "
                    f"[{a:.6g}, {b:.6g}] degrees, crosses the half turn, which a Chain's limits "
                    "cannot hold",
                    argument=f"joint {self.names[self.parents[j]]!r}",
                )
            bends.append((a, b))
        return Chain.planar(self.lengths[path[1:]], bends, base=self.root)

    def chain_positions(self, joint: str, positions: Any, start: Any = None) -> np.ndarray:
        """(m, dim) skeleton positions with the branch from the root to ``joint`` at a chain
        solution's ``positions`` (see :meth:`chain`) and every other joint carried along as
        :func:`geoik.solve_tree` carries untargeted joints: each keeps its link's direction in
        its parent link's frame from ``start`` (a pose; default the rest pose)."""
        from geoik.rigs.limits import carry_pose

        path = self.path(joint)
        pts = np.array(positions, dtype=np.float64)
        if pts.shape != (len(path), self.dim):
            raise UnsupportedChainError(
                f"expected {(len(path), self.dim)} chain positions, got {describe(positions)}",
                argument="positions",
            )
        src, root_q = self._pose_arrays(self.rest_positions() if start is None else start, "start")
        fixed = np.zeros(self.n, dtype=np.bool_)
        fixed[path] = True
        moved = src.copy()
        moved[path] = pts
        return carry_pose(self, src, moved, fixed, root_q)

    # ------------------------------------------------------------------ builders
    @classmethod
    def from_chains(
        cls,
        chains: Sequence[Branch | tuple[Any, ...]],
        dim: int = 2,
        root: Any = None,
        root_name: str = "root",
        max_bend_deg: Any = None,
        hinge_axes: Any = None,
    ) -> Skeleton:
        """A skeleton from a root and branches, each a :class:`Branch` or a tuple of its fields
        ``(name, lengths[, parent[, direction[, joints]]])``. A branch may hang from the root
        or from any joint of a branch listed before it. Every leaf is an end effector.
        ``max_bend_deg`` and ``hinge_axes`` give limits by joint name (see :class:`Skeleton`).

        >>> arm = Skeleton.from_chains(
        ...     [("arm", [3.0, 2.5])], dim=3,
        ...     max_bend_deg={"root": 60, "arm_1": (0, 150)}, hinge_axes={"arm_1": (0, 0, 1)})
        >>> arm.limit_violation(arm.rest_positions())
        0.0

        >>> sk = Skeleton.from_chains([("arm", [2.0, 1.0]), ("leg", [1.5], "arm_1")])
        >>> sk.names
        ('root', 'arm_1', 'arm', 'leg')
        """
        return skeleton_builders.from_chains(
            cls, chains, dim, root, root_name, max_bend_deg, hinge_axes
        )

    @classmethod
    def hand(
        cls, dim: int = 3, scale: float = 1.0, root: Any = None, limits: bool = True
    ) -> Skeleton:
        """A hand: the wrist (root), the palm (one link to the knuckles) and five fingers of
        three links each, ``thumb``, ``index``, ``middle``, ``ring``, ``little`` (the tips, the
        end effectors). Proportions of an adult hand in units of ``scale`` decimetres; the palm
        along +x, the fingers straight and spread in the xy-plane. In 3-D the palm faces -z: the
        thumb leaves the knuckles below the palm's plane, on the side the fingers flex towards
        to close on an object (seed 003 Fig. 7's ball).

        With ``limits`` (the default) the joints carry anatomical limits (:data:`HAND_LIMITS`):
        the wrist a cone, each knuckle a cone about its finger's rest direction, the two outer
        joints of every finger hinges that flex towards the palm only; the thumb has a wider
        cone at its base and its own hinges, flexing across the palm. In 2-D the hinges are the
        planar joints, flexing counter-clockwise (towards the thumb's side).
        """
        return skeleton_builders.hand(cls, dim, scale, root, limits)

    @classmethod
    def legs(
        cls,
        dim: int = 2,
        thigh: float = 0.45,
        shin: float = 0.43,
        foot: float = 0.2,
        root: Any = None,
        limits: bool = True,
    ) -> Skeleton:
        """A pelvis (root) with two legs, ``left`` and ``right``, of thigh, shin and foot (seed
        003's cyclist, Fig. 6): joints ``{side}_knee``, ``{side}_ankle`` and ``{side}_foot``
        (the end effectors, on the pedals). The legs hang along -y (+x is forwards) with the
        knees bent forward by about 32 degrees and the feet forward.

        With ``limits`` (the default) the knees bend forwards only (:data:`LEG_LIMITS`: the
        knee from straight to 150 degrees, the shin turning back under the knee), the hips
        flex forwards to 120 degrees and back to 20 from hanging straight down, and the feet
        turn from their rest 35 degrees down and 50 up. In 3-D the knees and ankles are hinges about
        +z and the hips ball joints in a cone.
        """
        return skeleton_builders.legs(cls, dim, thigh, shin, foot, root, limits)


def _wrap_deg(a: float) -> float:
    """An angle in degrees wrapped into (-180, 180]."""
    w = math.fmod(a + 180.0, 360.0)
    w = w + 360.0 if w <= 0.0 else w
    return w - 180.0
