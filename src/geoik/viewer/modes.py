"""The viewer's robot and rig modes: ``robot``, ``robot_solve``, ``clip``, ``pose`` and ``save``.

Each handler takes a parsed message and the model the server was started with
(:mod:`geoik.viewer.models`), and returns the reply's fields; bad input raises a
:class:`~geoik.viewer.protocol.ProtocolError` naming the field. Solving goes through
:func:`geoik.solve` (robots) and :func:`geoik.pose_clip` (rigs), as everywhere else.
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from typing import Any

import numpy as np

from geoik.checks import check_angle_tol, check_rotation
from geoik.errors import describe
from geoik.viewer.ghosts import others, unavailable
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
    """The methods the robot tab offers: ``auto`` (the analytic solver where the arm decomposes
    and the target has an orientation, else dls: :mod:`geoik.solvers.auto`), then the solvers
    that move tips towards targets."""
    from geoik.solvers import general_methods as methods
    from geoik.solvers.auto import AUTO

    return [AUTO, *methods()]


def tree_methods() -> list[str]:
    """The tree solvers a clip is posed with."""
    from geoik.rigs.tree import METHODS

    return list(METHODS)


def robot_reply(_msg: dict[str, Any], model: RobotModel | None) -> dict[str, Any]:
    """The robot the server was started with: joints, limits, links, visuals and meshes, and
    whether its other solutions can be shown (``others``: ``available``, and the ``reason``
    when not; :func:`geoik.viewer.ghosts.unavailable`)."""
    m = check_loaded(model, "robot")
    why = unavailable(m.robot)
    return dict(m.describe(), others={"available": why is None, "reason": why})


def robot_solve_reply(
    msg: dict[str, Any], model: RobotModel | None, previous: dict[str, Any]
) -> dict[str, Any]:
    """Solve the robot's tips onto their targets, from the connection's previous solution (or
    the rest pose with ``"reset": true``); every link's pose for the page.

    ``targets``: tip name -> ``[x, y, z]`` (metres, base frame), for some or all of the tips;
    ``orientations``: tip name -> a quaternion ``[w, x, y, z]`` (or null: position only). A
    robot with one tip also takes ``target`` and ``orientation``. One tip is solved by
    :func:`geoik.solve`, several together by :func:`geoik.solve_tree`. The reply has a
    ``tips`` entry per targeted tip (status, errors, frame), the worst of them as ``status``,
    and the first one's ``target``, ``orientation`` and ``tip_frame``.

    ``start``: joint values (n,) to solve from instead (a ghost the user picked); ``others``:
    true to have the reply's ``others`` hold every other solution of the one tip's pose
    (:func:`geoik.viewer.ghosts.others`; null when not asked)."""
    m = check_loaded(model, "robot")
    robot = m.robot
    targets, rotations = _robot_targets(msg, robot)
    method = choice(msg, "method", tuple(general_methods()), "auto")
    max_iter = integer(msg, "max_iter", None, 1, MAX_ITER)
    angle_tol = None
    if msg.get("angle_tol") is not None:
        with field_scope("angle_tol"):
            angle_tol = check_angle_tol(msg["angle_tol"])
    reset = msg.get("reset", False)
    if not isinstance(reset, bool):
        raise ProtocolError("reset", f"expected true or false, got {describe(reset)}")
    start = None if reset else previous.get("robot")
    if msg.get("start") is not None:
        start = msg["start"]  # checked by the solve, which names the field
    want_others = msg.get("others", False)
    if not isinstance(want_others, bool):
        raise ProtocolError("others", f"expected true or false, got {describe(want_others)}")
    t0 = time.perf_counter()
    out = _solve_tips(robot, targets, rotations, method, tol(msg), max_iter, start, angle_tol)
    solve_ms = (time.perf_counter() - t0) * 1e3
    previous["robot"] = out.angles
    shown = None
    if want_others:
        tip = next(iter(targets))
        shown = others(m, targets[tip], rotations.get(tip), out.angles)
    tips = out.tips
    worst = max(tips, key=lambda t: (STATUS_ORDER.index(t["status"]), t["error"]))
    first = tips[0]
    return {
        "method": out.method,
        "status": worst["status"],
        "reached": all(t["reached"] for t in tips),
        "iterations": out.iterations,
        "error": max(t["error"] for t in tips),
        "tol": out.tol,
        "angle_error": _largest(t["angle_error"] for t in tips),
        "angle_tol": out.angle_tol,
        "target": first["target"],
        "orientation": first["orientation"],
        "tips": tips,
        "angles": out.angles.tolist(),
        "joint_names": list(robot.joint_names),
        "poses": m.link_poses(out.angles),
        "tip_frame": first["frame"],
        "solve_ms": solve_ms,
        "others": shown,
    }


STATUS_ORDER = ("REACHED", "CLOSEST", "MAX_ITERATIONS", "STALLED")
"""Statuses from best to worst: a robot's status is its worst tip's."""


def _largest(values: Any) -> float | None:
    known = [v for v in values if v is not None]
    return max(known) if known else None


def _robot_targets(msg: dict[str, Any], robot: Any) -> tuple[dict[str, Any], dict[str, Any]]:
    """The message's targets and orientations by tip name, checked."""
    names = list(robot.tip_names)
    if "targets" in msg:
        raw_targets, raw_rots = msg["targets"], msg.get("orientations") or {}
        for key, value in (("targets", raw_targets), ("orientations", raw_rots)):
            if not isinstance(value, dict) or len(value) > len(names):
                raise ProtocolError(
                    key,
                    f"expected an object of at most {len(names)} tip names "
                    f"({', '.join(names)}), got {describe(value)}",
                )
            for name in value:
                if name not in names:
                    raise ProtocolError(
                        key, f"expected tip names ({', '.join(names)}), got {describe(name)}"
                    )
        if not raw_targets:
            raise ProtocolError("targets", "expected a target for at least one tip, got none")
    else:
        raw_targets = {names[0]: msg.get("target")}
        raw_rots = {names[0]: msg.get("orientation")}
        if len(names) > 1:
            raise ProtocolError(
                "targets",
                f"expected targets by tip name: this robot has {len(names)} tips "
                f"({', '.join(names)})",
            )
    targets, rotations = {}, {}
    single = "targets" not in msg
    for name, value in raw_targets.items():
        key = "target" if single else f"targets.{name}"
        targets[name] = point({key: value}, key, 3, model="robot")
    for name, value in raw_rots.items():
        if value is None:
            continue
        if name not in targets:
            raise ProtocolError(
                f"orientations.{name}", "expected an orientation for a tip that has a target"
            )
        key = "orientation" if single else f"orientations.{name}"
        with field_scope(key):
            rotations[name] = check_rotation(value, key)
    return targets, rotations


@dataclass(frozen=True)
class _Solved:
    """A robot solved onto its targets: each targeted tip's outcome for the page, and what
    the reply and the next frame need."""

    tips: list[dict[str, Any]]
    angles: np.ndarray
    iterations: int
    method: str
    tol: float
    angle_tol: float | None


def _tip_record(
    name: str,
    target: Any,
    rot: Any,
    status: Any,
    error: float,
    angle_error: float | None,
    frame: np.ndarray,
) -> dict[str, Any]:
    """One tip of a robot's reply, JSON-ready.

    Parameters
    ----------
    name : str
        The tip's name.
    target : sequence of float
        Its target (3,), metres in the base frame.
    rot : Any
        Its target orientation (a (3, 3) matrix), or None.
    status : geoik.Status
        How the solve ended for it.
    error, angle_error : float
        Its distance to the target (metres) and its angle to the orientation (radians; None
        without one).
    frame : (4, 4) ndarray
        Its pose after the solve.

    Returns
    -------
    dict
        ``name, target, orientation`` (quaternion ``w, x, y, z`` or None), ``status``,
        ``reached``, ``error``, ``angle_error`` and ``frame`` (``position``, ``quaternion``).
    """
    return {
        "name": name,
        "target": list(target),
        "orientation": None if rot is None else quaternion(rot),
        "status": status.name,
        "reached": status.name == "REACHED",
        "error": float(error),
        "angle_error": angle_error,
        "frame": {
            "position": frame[:3, 3].tolist(),
            "quaternion": quaternion(frame[:3, :3]),
        },
    }


def _solve_tips(
    robot: Any,
    targets: dict[str, Any],
    rotations: dict[str, Any],
    method: str,
    tol_: float | None,
    max_iter: int | None,
    start: Any,
    angle_tol: float | None,
) -> _Solved:
    """One tip by :func:`geoik.solve`, several together by :func:`geoik.solve_tree`."""
    from geoik.api import solve
    from geoik.rigs.tree import solve_tree

    if robot.k == 1:
        name = robot.tip_names[0]
        one = solve(
            robot,
            targets[name],
            method,
            tol_,
            max_iter,
            start,
            orientation=rotations.get(name),
            angle_tol=angle_tol,
        )
        frames = {name: np.asarray(one.frame)}
        status, error, angle_error = {name: one.status}, {name: one.error}, {name: one.angle_error}
        sol: Any = one
    else:
        sol = solve_tree(
            robot, targets, method, tol_, max_iter, start, rotations or None, angle_tol
        )
        frames = {n: sol.frames[robot.tip_names.index(n)] for n in targets}
        status, error, angle_error = sol.status, sol.error, sol.angle_error
    tips = [
        _tip_record(
            name,
            target,
            rotations.get(name),
            status[name],
            error[name],
            angle_error[name],
            frames[name],
        )
        for name, target in targets.items()
    ]
    return _Solved(
        tips,
        np.asarray(sol.angles),
        int(sol.iterations),
        str(sol.method),
        float(sol.tol),
        check_angle_tol(angle_tol) if rotations else None,
    )


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
