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

from pathlib import Path

from geoik.errors import BVHError, describe
from geoik.rigs.bvh_frames import Clip, Frames
from geoik.rigs.bvh_read import _axis_rotations as _axis_rotations
from geoik.rigs.bvh_read import _forward as _forward
from geoik.rigs.bvh_read import _read as _read
from geoik.rigs.bvh_read import load_bvh
from geoik.rigs.bvh_write import DEFAULT_ORDER as DEFAULT_ORDER
from geoik.rigs.bvh_write import _euler as _euler
from geoik.rigs.bvh_write import save_bvh

__all__ = ["EXAMPLES", "Clip", "Frames", "example_path", "load_bvh", "save_bvh"]

EXAMPLES: dict[str, str] = {"walk": "walk.bvh"}
"""The clips that come with geoik (in its ``data`` folder), by name. ``walk``: a capture of a
Mixamo rig that walks forwards, turns round and walks back (69 frames at 30 frames/s,
centimetres, y up; 55 joints, the fingers among them: ``Hips`` the root, ``LeftUpLeg``,
``LeftLeg``, ``LeftFoot``, ``LeftArm``, ``LeftHand`` ...; the left foot rests on frames 12-23
and 42-55, the right on 24-37), from the tests of bvhtoolbox 0.1.3 (MIT licence) with Mixamo's
``mixamorig:`` prefix taken off its joint names. ``data/README.md`` says where it comes from."""


def example_path(name: str) -> Path:
    """Path of the example clip ``name`` (a key of :data:`EXAMPLES`), installed with geoik:
    ``geoik.load_bvh(example_path("walk"))``."""
    if name not in EXAMPLES:
        raise BVHError(
            f"expected one of {', '.join(EXAMPLES)}, got {describe(name)}", argument="name"
        )
    return Path(__file__).resolve().parent / "data" / EXAMPLES[name]
