"""Rigs: skeletons of animated characters, their limits and poses, tree solving, BVH and clips.

- :mod:`~geoik.rigs.skeleton`: :class:`~geoik.Skeleton`, a frozen tree of named joints, built
  by :mod:`~geoik.rigs.skeleton_builders` (branches, the hand, the legs), its fields checked by
  :mod:`~geoik.rigs.skeleton_fields`;
- :mod:`~geoik.rigs.limits`: anatomical limits of a skeleton's joints, the link frames they are
  measured in, and the compiled kernels that place a link within them;
- :mod:`~geoik.rigs.pose`: :class:`~geoik.TreePose`, world positions and the root's rotation;
- :mod:`~geoik.rigs.tree`: :func:`~geoik.solve_tree`, several end effectors at once (skeletons,
  and robots with several tips), and :mod:`~geoik.rigs.limited_tree`, its solvers within limits;
- :mod:`~geoik.rigs.bvh`: BVH motion capture in and out, the bundled example clip; read by
  :mod:`~geoik.rigs.bvh_read`, written by :mod:`~geoik.rigs.bvh_write`, the clip's types in
  :mod:`~geoik.rigs.bvh_frames`;
- :mod:`~geoik.rigs.clip`: posing a clip frame by frame with pinned joints.

May import the base and the model layers, :mod:`geoik.solvers` and :mod:`geoik.robots` (a robot
with several tips is solved as a tree); never :mod:`geoik.api` or anything above it.
"""
