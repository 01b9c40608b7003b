"""Seed 003's three demonstrations (Srinivasan & John 2013, Section 5, Figs. 5-7), one frame
per ``scene`` message, solved by geoik on the server.

Coordinates are 3-D with z up; the page draws them in three orthographic views (side: x-z,
top: x-y, front: y-z, as seed 003 Fig. 3). Each connection keeps a :class:`SceneState` so the
arm and the legs start every frame from the previous frame's pose (``start=``), as an
animation would.

``arm``
    A three-joint robot arm on a pedestal: the side view's target is solved for a planar
    three-link chain in the arm's vertical plane (any registered solver), kept above the floor
    and clamped into the chain's minimum and maximum safe zones as in the seed's Fig. 5; the
    top view's yaw turns the base. The shoulder is limited to [0, 180] degrees so the first
    link stays above the pedestal.
``cyclist``
    Both legs solved every frame with their feet on the animated pedals
    (:mod:`geoik.viewer.cyclist`).
``hand``
    Five fingers closing on a ball, the hand solved as one tree by
    :func:`geoik.rigs.tree.solve_tree` within its anatomical limits (:mod:`geoik.viewer.hand`).
"""

from __future__ import annotations

import math
import time
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from geoik.api import solve
from geoik.chain import Chain
from geoik.solvers import get
from geoik.viewer.cyclist import cyclist_frame
from geoik.viewer.hand import hand_frame
from geoik.viewer.protocol import choice, number, point

__all__ = ["SCENES", "SceneState", "scene_reply"]

SCENES = ("arm", "cyclist", "hand")

ARM_LENGTHS = (1.0, 0.8, 0.5)
ARM_LIMITS: list[Any] = [(0.0, 180.0), None, None]
ARM_PEDESTAL = 0.3
"""Height of the arm's shoulder above the floor."""
ARM_FLOOR_GAP = 0.05
HAND_BOX = ((-0.5, -1.5, -2.0), (3.0, 1.5, 0.0))
"""Where the hand scene's ball may go (decimetres, the wrist at the origin)."""


@dataclass
class SceneState:
    """What one connection remembers between frames: the previous pose of each solved part."""

    previous: dict[str, Any] = field(default_factory=dict)
    chains: dict[str, Chain] = field(default_factory=dict)

    def chain(self, name: str, lengths: Any, limits: Any) -> Chain:
        """The scene's planar chain called ``name`` (made once from ``lengths`` and ``limits``,
        then kept)."""
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
    r = max(r, 0.0)  # the side view shows the arm's half-plane; the top view turns it round
    z = max(z, ARM_FLOOR_GAP - ARM_PEDESTAL)
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
    method = _method(msg, 2, "fabrik")
    t = number(msg, "t", 0.0, -1e9, 1e9)
    cadence = number(msg, "cadence", 1.0, 0.0, 5.0)
    t0 = time.perf_counter()
    reply = cyclist_frame(state, t, cadence, method)
    reply.update(method=method, solve_ms=(time.perf_counter() - t0) * 1e3)
    return reply


def _hand(msg: dict[str, Any], state: SceneState) -> dict[str, Any]:
    from geoik.rigs.tree import METHODS

    method = choice(msg, "method", tuple(METHODS), "circles")
    radius = number(msg, "radius", 0.35, 0.1, 0.8)
    x, y, z = point(msg, "ball", 3, model="scene")
    # the ball stays in the scene and below the palm (which is at z = 0)
    lo, hi = HAND_BOX
    ball = np.clip([x, y, z], lo, hi)
    ball[2] = min(ball[2], -radius - 0.02)
    t0 = time.perf_counter()
    reply = hand_frame(ball, radius, method)
    reply.update(
        ball=ball.tolist(),
        radius=radius,
        method=method,
        solver=f"geoik.rigs.tree.solve_tree, method {method}, from the open hand",
        solve_ms=(time.perf_counter() - t0) * 1e3,
    )
    return reply
