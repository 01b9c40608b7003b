"""The viewer's robot and rig modes: ``robot``, ``robot_solve``, ``clip``, ``pose`` and ``save``.

Each handler takes a parsed message and the model the server was started with
(:mod:`geoik.viewer.models`), and returns the reply's fields; bad input raises a
:class:`~geoik.viewer.protocol.ProtocolError` naming the field. Solving goes through
:func:`geoik.solve` (robots) and :func:`geoik.pose_clip` (rigs), as everywhere else.
"""

from __future__ import annotations

import time
from typing import Any

import numpy as np

from geoik.checks import check_angle_tol, check_rotation
from geoik.errors import describe
from geoik.viewer.models import RigModel, RobotModel, check_loaded, quaternion
from geoik.viewer.protocol import (
    MAX_ITER,
    ProtocolError,
    choice,
    field_scope,
    integer,
    point,
    tol,
)

__all__ = [
    "MAX_PINS",
    "clip_reply",
    "general_methods",
    "pose_reply",
    "robot_reply",
    "robot_solve_reply",
    "save_reply",
    "tree_methods",
]

MAX_PINS = 16
"""Most pins one message may hold."""
_DIGITS = 7
"""Decimals of the positions sent for drawing (a rig in centimetres: a thousandth of a micron)."""


def general_methods() -> list[str]:
    """The solvers that take robots."""
    from geoik.solvers import general_methods as methods

    return methods()


def tree_methods() -> list[str]:
    """The tree solvers a clip is posed with."""
    from geoik.rigs.tree import METHODS

    return list(METHODS)


def robot_reply(_msg: dict[str, Any], model: RobotModel | None) -> dict[str, Any]:
    """The robot the server was started with: joints, limits, links, visuals and meshes."""
    return dict(check_loaded(model, "robot").describe())


def robot_solve_reply(
    msg: dict[str, Any], model: RobotModel | None, previous: dict[str, Any]
) -> dict[str, Any]:
    """Solve the tip onto ``target`` (metres, base frame), with ``orientation`` (a quaternion
    ``[w, x, y, z]``, or null for position only), from the connection's previous solution (or
    the rest pose with ``"reset": true``); every link's pose for the page."""
    from geoik.api import solve

    m = check_loaded(model, "robot")
    robot = m.robot
    target = point(msg, "target", 3, model="robot")
    rot = None
    if msg.get("orientation") is not None:
        with field_scope("orientation"):
            rot = check_rotation(msg["orientation"], "orientation")
    method = choice(msg, "method", tuple(general_methods()), "dls")
    max_iter = integer(msg, "max_iter", None, 1, MAX_ITER)
    angle_tol = None
    if msg.get("angle_tol") is not None:
        with field_scope("angle_tol"):
            angle_tol = check_angle_tol(msg["angle_tol"])
    reset = msg.get("reset", False)
    if not isinstance(reset, bool):
        raise ProtocolError("reset", f"expected true or false, got {describe(reset)}")
    start = None if reset else previous.get("robot")
    t0 = time.perf_counter()
    sol = solve(
        robot, target, method, tol(msg), max_iter, start, orientation=rot, angle_tol=angle_tol
    )
    solve_ms = (time.perf_counter() - t0) * 1e3
    previous["robot"] = sol.angles
    frame = np.asarray(sol.frame)
    return {
        "method": sol.method,
        "status": sol.status.name,
        "reached": sol.reached,
        "iterations": sol.iterations,
        "error": sol.error,
        "tol": sol.tol,
        "angle_error": sol.angle_error,
        "angle_tol": sol.angle_tol,
        "target": list(target),
        "orientation": None if rot is None else quaternion(rot),
        "angles": sol.angles.tolist(),
        "joint_names": list(robot.joint_names),
        "poses": m.link_poses(sol.angles),
        "tip_frame": {"position": frame[:3, 3].tolist(), "quaternion": quaternion(frame[:3, :3])},
        "solve_ms": solve_ms,
    }


def clip_reply(_msg: dict[str, Any], model: RigModel | None) -> dict[str, Any]:
    """The clip the server was started with: its skeleton, frames and handles."""
    return dict(check_loaded(model, "clip").describe())


def _pins(msg: dict[str, Any], rig: RigModel, need: bool) -> list[Any]:
    """The message's pins as :class:`geoik.Pin` objects: ``[{"joint": NAME, "target": [x, y,
    z], "frames": "10-30"}]`` (frames optional: every frame)."""
    from geoik.rigs.clip import Pin, parse_frames

    raw = msg.get("pins", [])
    if not isinstance(raw, list) or len(raw) > MAX_PINS:
        raise ProtocolError(
            "pins", f"expected a list of at most {MAX_PINS} pins, got {describe(raw)}"
        )
    if need and not raw:
        raise ProtocolError("pins", "expected at least one pin to pose the clip with, got none")
    sk = rig.skeleton
    root = sk.names[sk.root_index]
    count = len(rig.frames)
    pins = []
    seen = set()
    for k, p in enumerate(raw):
        where = f"pins[{k}]"
        if not isinstance(p, dict):
            raise ProtocolError(
                where, f"expected an object with joint and target, got {describe(p)}"
            )
        joint = p.get("joint")
        if not isinstance(joint, str) or joint not in sk.names or joint == root:
            raise ProtocolError(
                f"{where}.joint",
                f"expected a joint of the clip other than the root {root!r}, got {describe(joint)}",
            )
        if joint in seen:
            raise ProtocolError(
                f"{where}.joint", f"expected each joint pinned once, got {joint!r} twice"
            )
        seen.add(joint)
        target = point(p, "target", 3, f"{where}.", model="rig")
        frames = p.get("frames")
        which = None
        if frames is not None:
            if not isinstance(frames, str) or len(frames) > 200:
                raise ProtocolError(
                    f"{where}.frames", f"expected frames as text (10-30), got {describe(frames)}"
                )
            if frames.strip() not in ("", "all"):
                with field_scope(f"{where}.frames"):
                    which = parse_frames(frames, count, f"{where}.frames")
        pins.append(Pin(joint, np.array(target), which))
    return pins


def pose_reply(msg: dict[str, Any], model: RigModel | None) -> dict[str, Any]:
    """Frame ``frame`` of the clip with the pins that hold on it re-solved from the clip's
    own pose of that frame, as :func:`geoik.pose_clip` solves every frame."""
    from geoik.rigs.bvh import Frames
    from geoik.rigs.clip import Pin, pose_clip

    rig = check_loaded(model, "clip")
    count = len(rig.frames)
    frame = integer(msg, "frame", 0, 0, count - 1)
    assert frame is not None
    method = choice(msg, "method", tuple(tree_methods()), "circles")
    pins = _pins(msg, rig, need=False)
    active = [p for p in pins if p.frames is None or frame in p.frames]
    positions = rig.frames.positions[frame]
    out_pins = [{"joint": p.joint, "active": p in active} for p in pins]
    t0 = time.perf_counter()
    if active:
        one = Frames(
            rig.frames.positions[frame : frame + 1], rig.frames.root_rotations[frame : frame + 1]
        )
        posed = pose_clip(
            rig.skeleton, one, [Pin(p.joint, p.target) for p in active], method=method
        )
        positions = posed.frames.positions[0]
        k = 0
        for item in out_pins:
            if item["active"]:
                item["error"] = float(posed.error[0, k])
                item["reached"] = bool(posed.reached[0, k])
                k += 1
    solve_ms = (time.perf_counter() - t0) * 1e3
    return {
        "frame": frame,
        "method": method,
        "positions": np.round(positions, _DIGITS).tolist(),
        "pins": out_pins,
        "solved": bool(active),
        "solve_ms": solve_ms,
    }


def save_reply(msg: dict[str, Any], model: RigModel | None) -> dict[str, Any]:
    """Pose every frame of the clip with the pins (:func:`geoik.pose_clip`) and write it to the
    output the server was started with (all or nothing; never the input)."""
    from geoik.rigs.bvh import save_bvh
    from geoik.rigs.clip import pose_clip

    rig = check_loaded(model, "clip")
    method = choice(msg, "method", tuple(tree_methods()), "circles")
    pins = _pins(msg, rig, need=True)
    t0 = time.perf_counter()
    posed = pose_clip(rig.skeleton, rig.frames, pins, method=method)
    try:
        path = save_bvh(rig.output, rig.skeleton, posed.frames, rig.frame_time)
    except OSError as e:
        raise ProtocolError(
            "save", f"cannot write {str(rig.output)!r}: {e.strerror or e}"
        ) from None
    summary = []
    for k, p in enumerate(pins):
        held = ~np.isnan(posed.error[:, k])
        summary.append(
            {
                "joint": p.joint,
                "frames": int(held.sum()),
                "reached": int(posed.reached[:, k].sum()),
                "max_error": float(np.nanmax(posed.error[:, k])) if held.any() else None,
            }
        )
    return {
        "path": str(path),
        "frames": len(posed.frames),
        "method": method,
        "pins": summary,
        "tol": posed.tol,
        "ms": (time.perf_counter() - t0) * 1e3,
    }
