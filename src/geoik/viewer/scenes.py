"""Seed 003's three demonstrations (Srinivasan & John 2013, Section 5, Figs. 5-7), one frame
per ``scene`` message, solved by geoik on the server.

Coordinates are 3-D with z up; the page draws them in three orthographic views (side: x-z,
top: x-y, front: y-z, as seed 003 Fig. 3). Each connection keeps a :class:`SceneState` so every
frame starts from the previous frame's pose (``start=``), as an animation would.

``arm``
    A three-joint robot arm on a pedestal: the side view's target is solved for a planar
    three-link chain in the arm's vertical plane (any registered solver), clamped into the
    chain's minimum and maximum safe zones as in the seed's Fig. 5; the top view's yaw turns
    the base. The shoulder is limited to [0, 180] degrees so the arm stays above the floor.
``cyclist``
    Two legs (thigh and shin, hip to ankle), each a planar two-link chain in its sagittal plane
    solved every frame towards its pedal; the pedals turn at ``cadence`` revolutions per second
    of ``t``, half a turn apart. The knee is limited to bend one way only. The foot is drawn flat
    on the pedal: the seed solves knee and ankle; here the ankle sits on the pedal and the
    foot's angle is not solved.
``hand``
    The five fingers of :meth:`geoik.skeleton.Skeleton.hand` close on a ball: the fingertips'
    targets are points of the ball's surface spread round it as the fingers spread at rest, on
    the side facing the hand. Solved as
    one tree with :func:`geoik.tree.solve_tree` (seed 003's tree solving); without
    :mod:`geoik.tree`, each finger is solved as its own chain from the palm with
    :func:`geoik.solve`, and the reply says which.
"""

from __future__ import annotations

import importlib.util
import math
import time
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from geoik.api import solve
from geoik.chain import Chain
from geoik.solvers import get
from geoik.viewer.protocol import ProtocolError, choice, number, point

__all__ = ["SCENES", "SceneState", "scene_reply"]

SCENES = ("arm", "cyclist", "hand")
_BOUND = 100.0

ARM_LENGTHS = (1.0, 0.8, 0.5)
ARM_LIMITS: list[Any] = [(0.0, 180.0), None, None]
ARM_PEDESTAL = 0.3

HIP = (-0.22, 0.92)
"""Hip (x, z) in the side view; the legs hang from it at y = +-LEG_Y."""
CRANK = (0.0, 0.3)
CRANK_RADIUS = 0.17
LEG_LENGTHS = (0.45, 0.43)
LEG_LIMITS: list[Any] = [(-175.0, -5.0), (-160.0, 0.0)]
LEG_Y = 0.1
PEDAL_Y = 0.14
FOOT = 0.16
BIKE = {
    "wheels": [[-0.55, 0.0, 0.33], [0.55, 0.0, 0.33]],
    "wheel_radius": 0.33,
    "crank": [CRANK[0], 0.0, CRANK[1]],
    "crank_radius": CRANK_RADIUS,
    "frame": [[-0.55, 0.0, 0.33], [CRANK[0], 0.0, CRANK[1]], [0.45, 0.0, 0.85],
              [0.55, 0.0, 0.33], [0.45, 0.0, 0.85], [-0.25, 0.0, 0.85], [-0.55, 0.0, 0.33]],
    "saddle": [HIP[0], 0.0, HIP[1] - 0.04],
    "torso": [[HIP[0], 0.0, HIP[1]], [0.15, 0.0, 1.45]],
    "arms": [[[0.15, s, 1.42], [0.35, s, 1.15], [0.5, s, 1.02]] for s in (-0.17, 0.17)],
    "head": [0.24, 0.0, 1.6],
    "head_radius": 0.1,
    "handlebar": [[0.5, -0.22, 1.0], [0.5, 0.22, 1.0]],
}  # fmt: skip


@dataclass
class SceneState:
    """What one connection remembers between frames: the previous pose of each solved part."""

    previous: dict[str, Any] = field(default_factory=dict)
    chains: dict[str, Chain] = field(default_factory=dict)

    def chain(self, name: str, lengths: Any, limits: Any) -> Chain:
        if name not in self.chains:
            self.chains[name] = Chain.planar(lengths, limits)
        return self.chains[name]


def scene_reply(msg: dict[str, Any], state: SceneState) -> dict[str, Any]:
    """One frame of the scene the message names."""
    scene = choice(msg, "scene", SCENES, "arm")
    handler = {"arm": _arm, "cyclist": _cyclist, "hand": _hand}[scene]
    return dict(handler(msg, state), scene=scene)


def _planar(state: SceneState, part: str, chain: Chain, target: Any, method: str) -> Any:
    """Solve ``part`` from its previous pose (restarting from rest if that one no longer fits)."""
    start = state.previous.get(part)
    sol = solve(chain, target, method, start=start)
    state.previous[part] = sol.angles
    return sol


def _method(msg: dict[str, Any], links: int, default: str) -> str:
    method = msg.get("method", default)
    get(method).check_chain(links, 2)
    return str(method)


def _arm(msg: dict[str, Any], state: SceneState) -> dict[str, Any]:
    chain = state.chain("arm", ARM_LENGTHS, ARM_LIMITS)
    method = _method(msg, chain.n, "fabrik")
    r, z = point(msg, "target", 2)
    yaw = math.radians(number(msg, "yaw_deg", 0.0, -720.0, 720.0))
    lo, hi = chain.reach()
    d = math.hypot(r, z)
    if d > hi or d < lo:  # the seed keeps the dragged end effector within the safe zones
        k = min(max(d, lo), hi) / d if d > 0 else 0.0
        r, z = (r * k, z * k) if d > 0 else (lo, 0.0)
    t0 = time.perf_counter()
    sol = _planar(state, "arm", chain, (r, z), method)
    ms = (time.perf_counter() - t0) * 1e3
    c, s = math.cos(yaw), math.sin(yaw)
    pts = [[0.0, 0.0, 0.0]] + [[p[0] * c, p[0] * s, p[1] + ARM_PEDESTAL] for p in sol.positions]
    return {
        "points": pts,
        "planar": sol.positions.tolist(),
        "target": [r, z],
        "target3": [r * c, r * s, z + ARM_PEDESTAL],
        "reach": [lo, hi],
        "pedestal": ARM_PEDESTAL,
        "yaw_deg": math.degrees(yaw),
        "method": method,
        "status": sol.status.name,
        "error": sol.error,
        "iterations": sol.iterations,
        "solve_ms": ms,
    }


def _cyclist(msg: dict[str, Any], state: SceneState) -> dict[str, Any]:
    chain = state.chain("leg", LEG_LENGTHS, LEG_LIMITS)
    method = _method(msg, chain.n, "fabrik")
    t = number(msg, "t", 0.0, -1e9, 1e9)
    cadence = number(msg, "cadence", 1.0, 0.0, 5.0)
    crank = -2.0 * math.pi * cadence * t  # pedalling forward (+x): clockwise in the x-z view
    legs: dict[str, Any] = {}
    total = 0.0
    for side, phase, y in (("left", 0.0, LEG_Y), ("right", math.pi, -LEG_Y)):
        a = crank + phase
        px, pz = CRANK[0] + CRANK_RADIUS * math.cos(a), CRANK[1] + CRANK_RADIUS * math.sin(a)
        rel = (px - HIP[0], pz - HIP[1])
        t0 = time.perf_counter()
        sol = _planar(state, side, chain, rel, method)
        total += time.perf_counter() - t0
        pts = [[HIP[0] + p[0], y, HIP[1] + p[1]] for p in sol.positions]
        ankle = pts[-1]
        legs[side] = {
            "points": pts,
            "toe": [ankle[0] + FOOT, y, ankle[2] - 0.02],
            "pedal": [px, (PEDAL_Y if y > 0 else -PEDAL_Y), pz],
            "status": sol.status.name,
            "error": sol.error,
            "iterations": sol.iterations,
        }
    return {
        "legs": legs,
        "bike": BIKE,
        "crank_deg": math.degrees(crank) % 360.0,
        "method": method,
        "solve_ms": total * 1e3,
    }


def _hand_targets(names: tuple[str, ...], rest: np.ndarray, index: Any, ball: np.ndarray,
                  radius: float) -> dict[str, np.ndarray]:  # fmt: skip
    """Contact points spread round the ball: each finger's rest direction from the knuckles,
    without its part along the knuckles-to-ball axis, tilted a little back towards the hand."""
    knuckles = rest[index("palm")]
    axis = ball - knuckles
    norm = float(np.linalg.norm(axis))
    axis = axis / norm if norm > 1e-12 else np.array([1.0, 0.0, 0.0])
    out = {}
    for f in names:
        d = rest[index(f)] - knuckles
        side = d - float(d @ axis) * axis
        w = side / max(float(np.linalg.norm(side)), 1e-12) - 0.6 * axis
        out[f] = ball + radius * w / float(np.linalg.norm(w))
    return out


def _hand(msg: dict[str, Any], state: SceneState) -> dict[str, Any]:
    from geoik.skeleton import Skeleton

    sk = state.previous.get("hand_skeleton")
    if sk is None:
        sk = state.previous["hand_skeleton"] = Skeleton.hand(dim=3)
    ball = np.array(point(msg, "ball", 3))
    if np.any(np.abs(ball) > _BOUND):
        raise ProtocolError(
            "ball", f"expected coordinates within +-{_BOUND:g}, got {ball.tolist()}"
        )
    radius = number(msg, "radius", 0.3, 0.05, 2.0)
    fingers = tuple(e for e in sk.effector_names if e != "palm")
    goals = _hand_targets(fingers, sk.rest_positions(), sk.index, ball, radius)
    use_tree = importlib.util.find_spec("geoik.tree") is not None and not msg.get("per_finger")
    t0 = time.perf_counter()
    reply = _hand_tree(msg, state, sk, goals) if use_tree else _hand_fingers(msg, state, sk, goals)
    reply["solve_ms"] = (time.perf_counter() - t0) * 1e3
    reply.update(
        names=list(sk.names),
        parents=sk.parents.tolist(),
        ball=ball.tolist(),
        radius=radius,
        targets={f: g.tolist() for f, g in goals.items()},
    )
    return reply


def _hand_tree(msg: dict[str, Any], state: SceneState, sk: Any, goals: Any) -> dict[str, Any]:
    from geoik.tree import METHODS, solve_tree

    method = choice(msg, "method", tuple(METHODS), "circles")
    sol = solve_tree(sk, goals, method=method, start=state.previous.get("hand"))
    state.previous["hand"] = sol.positions
    return {
        "points": sol.positions.tolist(),
        "solver": f"tree: geoik.tree.solve_tree, method {method}",
        "method": method,
        "iterations": sol.iterations,
        "fingers": {f: {"status": sol.status[f].name, "error": sol.error[f]} for f in goals},
    }


def _hand_fingers(msg: dict[str, Any], state: SceneState, sk: Any, goals: Any) -> dict[str, Any]:
    """Fallback without tree solving: each finger a 3-D chain from the (fixed) palm."""
    method = str(msg.get("method", "fabrik"))
    if method not in ("fabrik", "ccd"):
        method = "fabrik"
    pos = sk.rest_positions().copy()
    fingers: dict[str, Any] = {}
    iterations = 0
    for f, goal in goals.items():
        path = sk.path(f)
        knuckle = pos[sk.parents[path[-3]]]
        chain = Chain.spatial(sk.lengths[path[-3:]], base=knuckle)
        sol = solve(chain, goal, method, start=state.previous.get(f"finger_{f}"))
        state.previous[f"finger_{f}"] = sol.angles
        pos[path[-3:]] = sol.positions[1:]
        iterations = max(iterations, sol.iterations)
        fingers[f] = {"status": sol.status.name, "error": sol.error}
    return {
        "points": pos.tolist(),
        "solver": f"per finger: geoik.solve on each finger's chain from the palm, method {method}",
        "method": method,
        "iterations": iterations,
        "fingers": fingers,
    }
