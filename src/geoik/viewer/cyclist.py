"""Seed 003's cyclist (Srinivasan & John 2013, Section 5, Fig. 6): both legs solved every frame
with their feet on the turning pedals.

Coordinates in metres, z up, the bicycle along +x at y = 0, the rider's left at +y. The bicycle
and the upper body are fixed geometry of a road bicycle and an adult rider. Each leg is a planar
two-link chain (thigh and shin, hip to ankle) in its own plane ``y = +-FOOT_Y``, the plane of its
pedal, solved by the chosen registered solver from the previous frame's pose. The chain is the
hip-to-ankle branch of :meth:`geoik.Skeleton.legs` with its anatomical limits
(:meth:`geoik.Skeleton.chain`): the knee bends only forward and the hip turns within its range,
so no solver can bend a knee backwards.

The seed names the knee and the ankle as solved. Here the foot is a rigid link from the ankle to
the ball of the foot, which sits on the pedal spindle; its pitch follows a typical pedalling
pattern (toe down by 5 degrees at the top of the stroke, about 25 degrees on the way up), which
fixes where the ankle must be, and the leg is solved to put the ankle there. Letting a solver
choose the foot's pitch as a third link instead makes most solvers point the toe down by 60
degrees or more at some crank angles, which no rider does.
"""

from __future__ import annotations

import math
from functools import cache
from typing import Any

import numpy as np

from geoik.api import solve
from geoik.chain import Chain
from geoik.rigs.skeleton import Skeleton

__all__ = ["BIKE", "LEG_LENGTHS", "cyclist_frame", "foot_pitch", "pedal"]

WHEEL_RADIUS = 0.34
REAR_AXLE = (-0.42, 0.34)
FRONT_AXLE = (0.60, 0.34)
BB = (0.0, 0.28)
"""Bottom bracket (x, z): the crank's axis."""
CRANK = 0.17
HIP = (-0.24, 1.02)
"""The hip joints (x, z), above the saddle."""
LEG_LENGTHS = (0.45, 0.43)
"""Thigh and shin, in metres."""
FOOT = 0.15
"""Ankle to the ball of the foot."""
FOOT_Y = 0.12
"""Distance of each leg's plane, pedal and foot from the bicycle's midplane."""
CRANK_Y = 0.06
SHOULDER = (0.17, 1.34)
HAND = (0.56, 0.92)
ARM_LENGTHS = (0.30, 0.29)

_SEAT = (-0.183, 0.799)
"""Where the top tube meets the seat tube, on the line from the bottom bracket to the saddle."""
_HEAD_TOP = (0.48, 0.84)
_HEAD_LOW = (0.52, 0.68)
_SADDLE = (HIP[0], HIP[1] - 0.06)


def _at(p: tuple[float, float], y: float = 0.0) -> list[float]:
    return [p[0], y, p[1]]


BIKE: dict[str, Any] = {
    "wheels": [_at(REAR_AXLE), _at(FRONT_AXLE)],
    "wheel_radius": WHEEL_RADIUS,
    "tubes": [
        [_at(BB), _at(_SEAT)],  # seat tube
        [_at(_SEAT), _at(_HEAD_TOP)],  # top tube
        [_at(BB), _at(_HEAD_LOW)],  # down tube
        [_at(BB), _at(REAR_AXLE)],  # chain stay
        [_at(_SEAT), _at(REAR_AXLE)],  # seat stay
        [_at(_HEAD_TOP), _at(_HEAD_LOW)],  # head tube
        [_at(_HEAD_LOW), _at(FRONT_AXLE)],  # fork
        [_at(_SEAT), _at(_SADDLE)],  # seat post
        [_at(_HEAD_TOP), _at((HAND[0] - 0.02, HAND[1]))],  # stem
    ],
    "saddle": [_at((_SADDLE[0] - 0.13, _SADDLE[1])), _at((_SADDLE[0] + 0.1, _SADDLE[1]))],
    "handlebar": [_at(HAND, -0.22), _at(HAND, 0.22)],
    "chainring": {"center": _at(BB, -0.04), "radius": 0.1},
    "bb": _at(BB),
}


def foot_pitch(crank: float) -> float:
    """Toe-down angle of the foot in radians at crank angle ``crank`` (radians from the top of
    the stroke, forwards)."""
    return math.radians(15.0 - 10.0 * math.cos(crank) - 5.0 * math.sin(crank))


def pedal(crank: float) -> tuple[float, float]:
    """(x, z) of a pedal spindle at crank angle ``crank`` (radians from the top, forwards)."""
    return BB[0] + CRANK * math.sin(crank), BB[1] + CRANK * math.cos(crank)


@cache
def _leg_chain() -> Chain:
    legs = Skeleton.legs(dim=2, thigh=LEG_LENGTHS[0], shin=LEG_LENGTHS[1])
    return legs.chain("left_ankle")


@cache
def rider() -> dict[str, Any]:
    """The upper body: pelvis, torso, head and both arms (elbows by two-bone IK, once)."""
    arms = []
    for side in (1.0, -1.0):
        shoulder = np.array(_at(SHOULDER, 0.18 * side))
        hand = np.array(_at(HAND, 0.2 * side))
        chain = Chain.spatial(ARM_LENGTHS, base=shoulder)
        sol = solve(chain, hand, "two-bone", pole=(0.0, 0.5 * side, -1.0))
        arms.append(sol.positions.tolist())
    shoulders = [_at(SHOULDER, 0.18), _at(SHOULDER, -0.18)]
    return {
        "pelvis": [_at(HIP, FOOT_Y), _at(HIP, -FOOT_Y)],
        "torso": [_at(HIP), _at(SHOULDER)],
        "shoulders": shoulders,
        "arms": arms,
        "head": _at((SHOULDER[0] + 0.13, SHOULDER[1] + 0.15)),
        "head_radius": 0.1,
    }


def _leg(state: Any, side: str, crank: float, method: str, y: float) -> dict[str, Any]:
    px, pz = pedal(crank)
    pitch = foot_pitch(crank)
    ankle = (px - FOOT * math.cos(pitch), pz + FOOT * math.sin(pitch))
    chain = _leg_chain()
    opts: dict[str, Any] = {"elbow": -1} if method == "two-bone" else {}  # knee forwards
    sol = solve(
        chain,
        (ankle[0] - HIP[0], ankle[1] - HIP[1]),
        method,
        start=state.previous.get(side),
        **opts,
    )
    state.previous[side] = sol.angles
    pts = [[HIP[0] + p[0], y, HIP[1] + p[1]] for p in sol.positions]
    a = np.array(pts[-1])
    foot_dir = np.array([math.cos(pitch), 0.0, -math.sin(pitch)])
    up = np.array([math.sin(pitch), 0.0, math.cos(pitch)])
    ball = a + FOOT * foot_dir
    heel = a - 0.07 * foot_dir - 0.06 * up
    return {
        "points": pts,
        "foot": [heel.tolist(), a.tolist(), ball.tolist(), (ball + 0.06 * foot_dir).tolist()],
        "pedal": [px, y, pz],
        "crank": [[BB[0], math.copysign(CRANK_Y, y), BB[1]], [px, math.copysign(CRANK_Y, y), pz]],
        "status": sol.status.name,
        "error": sol.error,
        "iterations": sol.iterations,
        "knee_deg": -math.degrees(float(sol.angles[1])),
    }


def cyclist_frame(state: Any, t: float, cadence: float, method: str) -> dict[str, Any]:
    """One frame at time ``t`` seconds, pedalling at ``cadence`` revolutions per second."""
    crank = 2.0 * math.pi * cadence * t
    legs = {}
    total = 0
    for side, phase, y in (("left", 0.0, FOOT_Y), ("right", math.pi, -FOOT_Y)):
        legs[side] = _leg(state, side, crank + phase, method, y)
        total += legs[side]["iterations"]
    return {
        "legs": legs,
        "bike": BIKE,
        "rider": rider(),
        "crank_deg": math.degrees(crank) % 360.0,
        "iterations": total,
    }
