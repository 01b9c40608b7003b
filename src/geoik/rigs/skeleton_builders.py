"""How skeletons are built: from branches (:class:`Branch`), and the two anatomical ones.

:meth:`Skeleton.from_chains <geoik.Skeleton.from_chains>` hangs chains of links from a root and
from each other; :meth:`~geoik.Skeleton.hand` and :meth:`~geoik.Skeleton.legs` are a hand (seed
003's Fig. 7) and a cyclist's legs (Fig. 6), with anatomical limits (:data:`HAND_LIMITS`,
:data:`LEG_LIMITS`). The methods of :class:`~geoik.Skeleton` call the functions here with the
class they build; :mod:`geoik.rigs.skeleton` re-exports :class:`Branch` and the limits.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import numpy as np

from geoik.errors import InvalidChainError, describe
from geoik.rigs.skeleton_fields import _refuse_non_numbers

if TYPE_CHECKING:
    from geoik.rigs.skeleton import Skeleton

__all__ = ["HAND_LIMITS", "LEG_LIMITS", "Branch", "from_chains", "hand", "legs"]


_LEG = ("knee", "ankle", "foot")


@dataclass(frozen=True)
class Branch:
    """A chain of links hanging from a named joint, for :meth:`Skeleton.from_chains`.

    Attributes
    ----------
    name : the branch's name; its tip joint (a leaf, hence an end effector) takes this name and
        the joints before it ``name_1``, ``name_2``, ... unless ``joints`` names them.
    lengths : link lengths, from the parent joint outwards.
    parent : name of the joint it hangs from; None for the root.
    direction : rest direction of its links (normalised); default +x.
    joints : optional names of its joints, one per link, the last being the tip.
    """

    name: str
    lengths: Sequence[float]
    parent: str | None = None
    direction: Sequence[float] | None = None
    joints: Sequence[str] | None = None


def from_chains(
    cls: type[Skeleton],
    chains: Sequence[Branch | tuple[Any, ...]],
    dim: int = 2,
    root: Any = None,
    root_name: str = "root",
    max_bend_deg: Any = None,
    hinge_axes: Any = None,
) -> Skeleton:
    """A ``cls`` built from branches: :meth:`Skeleton.from_chains`, which documents it."""
    names: list[str] = [root_name]
    parents: list[int] = [-1]
    lengths: list[float] = [0.0]
    directions: list[Any] = [np.eye(dim)[0]]
    where: dict[str, int] = {root_name: 0}
    for b, item in enumerate(chains):
        br = _as_branch(item, b)
        _refuse_non_numbers(br.lengths, f"chains[{b}].lengths")
        ls = np.array(br.lengths, dtype=np.float64, ndmin=1)
        joints = _branch_joints(br, ls.size, b)
        parent = root_name if br.parent is None else br.parent
        if parent not in where:
            raise InvalidChainError(
                f"expected the name of the root or of a joint of an "
                f"earlier branch ({', '.join(names)}), got {describe(parent)}",
                argument=f"chains[{b}].parent",
            )
        up = where[parent]
        direction = np.eye(dim)[0] if br.direction is None else br.direction
        for k, jn in enumerate(joints):
            where.setdefault(jn, len(names))
            names.append(jn)
            parents.append(up)
            lengths.append(float(ls[k]))
            directions.append(direction)
            up = len(names) - 1
    try:
        dirs = np.array(directions, dtype=np.float64)
    except (TypeError, ValueError):
        raise InvalidChainError(
            f"expected {dim} numbers per branch, got {describe(directions)}",
            argument="direction",
        ) from None
    return cls(
        tuple(names),
        np.array(parents),
        np.array(lengths),
        None,
        dim,
        root,
        dirs,
        max_bend_deg,
        hinge_axes,
    )


def hand(
    cls: type[Skeleton], dim: int = 3, scale: float = 1.0, root: Any = None, limits: bool = True
) -> Skeleton:
    """A hand of class ``cls``: :meth:`Skeleton.hand`, which documents it."""
    palm = 0.9 * scale
    branches: list[Branch] = [Branch("palm", [palm], direction=np.eye(dim)[0])]
    directions = {}
    for name, ls, spread in _FINGERS:
        a = math.radians(spread)
        d = [math.cos(a), math.sin(a)] + ([-0.4 if name == "thumb" else 0.0] * (dim - 2))
        directions[name] = np.array(d) / np.linalg.norm(d)
        branches.append(Branch(name, [v * scale for v in ls], "palm", d))
    if not limits:
        return cls.from_chains(branches, dim=dim, root=root, root_name="wrist")
    bends: dict[str, Any] = {"wrist": HAND_LIMITS["wrist"], "palm": {}}
    axes: dict[str, Any] = {}
    for name, _, _ in _FINGERS:
        kind = "thumb" if name == "thumb" else "finger"
        bends["palm"][f"{name}_1"] = HAND_LIMITS[f"{kind}_base"]
        for k, joint in ((1, f"{name}_1"), (2, f"{name}_2")):
            bends[joint] = HAND_LIMITS[f"{kind}_{k}"]
            if dim == 3:
                # flexion turns the finger from its rest direction towards the palm's side
                d = directions[name]
                flex = np.array(_THUMB_FLEX if name == "thumb" else (0.0, 0.0, -1.0))
                flex = flex - (flex @ d) * d
                axes[joint] = tuple(np.cross(d, flex / np.linalg.norm(flex)))
    return cls.from_chains(
        branches,
        dim=dim,
        root=root,
        root_name="wrist",
        max_bend_deg=bends,
        hinge_axes=axes if dim == 3 else None,
    )


def legs(
    cls: type[Skeleton],
    dim: int = 2,
    thigh: float = 0.45,
    shin: float = 0.43,
    foot: float = 0.2,
    root: Any = None,
    limits: bool = True,
) -> Skeleton:
    """A pelvis and two legs of class ``cls``: :meth:`Skeleton.legs`, which documents it."""
    x, y = np.eye(dim)[0], np.eye(dim)[1]
    shape = {"knee": 0.35 * x - 0.94 * y, "ankle": -0.2 * x - 0.98 * y, "foot": x}
    branches = [
        Branch(side, [thigh, shin, foot], None, -y, [f"{side}_{j}" for j in _LEG])
        for side in ("left", "right")
    ]
    sk = cls.from_chains(branches, dim=dim, root=root, root_name="pelvis")
    dirs = np.array(sk.directions)
    for side in ("left", "right"):
        for joint, d in shape.items():
            dirs[sk.index(f"{side}_{joint}")] = d / np.linalg.norm(d)
    if not limits:
        return cls(sk.names, sk.parents, sk.lengths, None, dim, sk.root, dirs)
    # ranges from the rest bends (limits are measured from the rest directions)
    ang = {k: math.degrees(math.atan2(v[1], v[0])) for k, v in shape.items()}
    hip = (LEG_LIMITS["hip"][0] - 90.0 - ang["knee"], LEG_LIMITS["hip"][1] - 90.0 - ang["knee"])
    rest_knee = ang["ankle"] - ang["knee"]
    knee = (-LEG_LIMITS["knee"][1] - rest_knee, -LEG_LIMITS["knee"][0] - rest_knee)
    bends: dict[str, Any] = {"pelvis": hip if dim == 2 else LEG_LIMITS["hip_cone"]}
    axes: dict[str, Any] = {}
    for side in ("left", "right"):
        bends[f"{side}_knee"] = knee
        bends[f"{side}_ankle"] = LEG_LIMITS["ankle"]
        if dim == 3:
            axes[f"{side}_knee"] = axes[f"{side}_ankle"] = (0.0, 0.0, 1.0)
    return cls(
        sk.names,
        sk.parents,
        sk.lengths,
        None,
        dim,
        sk.root,
        dirs,
        bends,
        axes if dim == 3 else None,
    )


_FINGERS = (  # name, lengths (proximal, middle, distal), spread in degrees
    ("thumb", (0.45, 0.35, 0.3), 55.0),
    ("index", (0.45, 0.25, 0.2), 18.0),
    ("middle", (0.5, 0.3, 0.22), 4.0),
    ("ring", (0.47, 0.28, 0.2), -10.0),
    ("little", (0.38, 0.2, 0.18), -24.0),
)
_THUMB_FLEX = (0.0, 0.0, -1.0)
"""Where the thumb flexes to: towards the palm's side (-z), as the fingers do."""


HAND_LIMITS: dict[str, Any] = {
    "wrist": 70.0,
    "finger_base": 45.0,
    "finger_1": (-5.0, 110.0),
    "finger_2": (-5.0, 90.0),
    "thumb_base": 60.0,
    "thumb_1": (-10.0, 60.0),
    "thumb_2": (-15.0, 80.0),
}
""":meth:`Skeleton.hand`'s limits in degrees: cones (wrist, knuckles: ``*_base``) about the rest
direction and hinge ranges (the middle joint ``*_1``, the last ``*_2``), flexion positive; the
fingers' own joints flex up to 110 and 90 degrees and straighten 5 degrees past straight."""


LEG_LIMITS: dict[str, Any] = {
    "hip": (-20.0, 120.0),
    "hip_cone": 70.0,
    "knee": (0.0, 150.0),
    "ankle": (-35.0, 50.0),
}
""":meth:`Skeleton.legs`' limits in degrees: the hip from 20 behind to 120 in front of hanging
straight down (2-D; in 3-D a cone about the thigh's rest direction), the knee's flexion from
straight, the foot's turn from its rest (counter-clockwise, toe up, positive)."""


def _as_branch(item: Any, b: int) -> Branch:
    if isinstance(item, Branch):
        return item
    if isinstance(item, tuple) and 2 <= len(item) <= 5:
        return Branch(*item)
    raise InvalidChainError(
        f"expected a Branch or a tuple (name, lengths[, parent[, direction[, joints]]]), got "
        f"{describe(item)}",
        argument=f"chains[{b}]",
    )


def _branch_joints(br: Branch, k: int, b: int) -> list[str]:
    if not isinstance(br.name, str) or not br.name:
        raise InvalidChainError(
            f"expected a non-empty string, got {br.name!r}", argument=f"chains[{b}].name"
        )
    if k == 0:
        raise InvalidChainError(
            "expected at least one link, got none", argument=f"chains[{b}].lengths"
        )
    if br.joints is None:
        return [f"{br.name}_{i}" for i in range(1, k)] + [br.name]
    joints = list(br.joints)
    if len(joints) != k:
        raise InvalidChainError(
            f"expected {k} names (one per link), got {describe(br.joints)}",
            argument=f"chains[{b}].joints",
        )
    return joints
