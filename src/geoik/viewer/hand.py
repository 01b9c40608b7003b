"""Seed 003's hand grasping a ball (Srinivasan & John 2013, Section 5, Fig. 7), solved as a tree.

The hand is a right hand, palm down (towards -z), fingers along +x, thumb towards +y, in
decimetres, built as a :class:`geoik.Skeleton`: the wrist is the root; the palm is a chain of
joints from the wrist through the thumb's base and the four knuckles to the palm's outer edge;
the thumb hangs from its base and each finger from its knuckle, three links each. Every frame
:func:`geoik.tree.solve_tree` moves the five fingertips to their targets on the ball.

Targets. Each finger first turns sideways towards the ball (at most 5 to 12 degrees, the thumb
25), as fingers close round an object, then closes in that plane along an even curl (its joints
on a circular arc leaving the knuckle along the finger). Its fingertip's target is where the
tip is on that curl when the finger first touches the ball; a finger that cannot touch the ball
closes as near to it as the curl comes. The reply says for each finger whether its tip is on the
ball, another part of it touches the ball (the thumb's pad often does), or it does not reach.

Why this way. Skeleton joints have no limits, so nothing in the tree solver stops a finger from
bending backwards; a natural hand comes from where the targets are and the pose the solver
starts from. Every frame starts from the open hand (straight fingers, each turned towards the
ball): the pose depends only on where the ball is, not on the way it got there (scrubbing back
and forth gives the same frames), and seed 003's circles bend each finger to the side its
joints lie on, so a target ahead of the straight finger and towards the palm is reached with the
finger bending the natural way. The palm keeps its shape because every target lies within its
finger's reach from the knuckle, so the circles solver moves no knuckle; the palm's outer edge
is an end effector held where it rests, which makes the little finger's knuckle a branching
joint like the others (a joint on a single branch is free to swing). FABRIK on trees
(``method="fabrik"``) pulls knuckles too and may bend a finger slightly backwards; the page
shows what it does.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, replace
from functools import cache
from typing import Any

import numpy as np

from geoik.skeleton import Skeleton

__all__ = [
    "FINGERS",
    "PALM",
    "Finger",
    "contact_targets",
    "finger_bends",
    "hand_frame",
    "hand_skeleton",
    "open_hand",
    "touch_of",
]

PALM = (
    ("thumb_base", (0.28, 0.26, -0.10)),
    ("index_base", (0.92, 0.30, 0.0)),
    ("middle_base", (0.96, 0.10, 0.0)),
    ("ring_base", (0.92, -0.10, 0.0)),
    ("little_base", (0.84, -0.28, 0.0)),
    ("palm_edge", (0.30, -0.30, -0.02)),
)
"""The palm's joints in chain order from the wrist (at the origin), in decimetres."""
PIN = "palm_edge"
WRIST_CORNERS = ((0.02, 0.24, -0.05), (0.02, -0.24, -0.03))
"""Radial and ulnar side of the wrist: drawn as the palm's outline with the palm's joints (the
wrist is the root, which never moves)."""

# name, base joint, link lengths (dm), rest direction, flexion normal (towards the palm side),
# range of the curl (total turn along the finger, radians; negative: bent back), and how far
# the finger may turn sideways towards the ball (degrees)
_FINGER_DATA = (
    (
        "thumb",
        "thumb_base",
        (0.42, 0.32, 0.27),
        (0.75, 0.3, -0.45),
        (0.0, -1.0, -0.3),
        (-0.4, 3.2),
        25.0,
    ),
    (
        "index",
        "index_base",
        (0.40, 0.23, 0.18),
        (1.0, 0.06, 0.0),
        (0.0, 0.0, -1.0),
        (-0.4, 4.2),
        10.0,
    ),
    (
        "middle",
        "middle_base",
        (0.44, 0.27, 0.19),
        (1.0, 0.0, 0.0),
        (0.0, 0.0, -1.0),
        (-0.4, 4.2),
        5.0,
    ),
    (
        "ring",
        "ring_base",
        (0.41, 0.26, 0.18),
        (1.0, -0.06, 0.0),
        (0.0, 0.0, -1.0),
        (-0.4, 4.2),
        8.0,
    ),
    (
        "little",
        "little_base",
        (0.33, 0.19, 0.17),
        (1.0, -0.14, 0.0),
        (0.0, 0.0, -1.0),
        (-0.4, 4.2),
        12.0,
    ),
)
OPEN_CURL = 0.0
"""Curl of the open hand every frame starts from (straight fingers; see the module notes)."""
FINGERS = tuple(row[0] for row in _FINGER_DATA)
_SCAN = 48
"""Curl values tried when looking for the first touch (then refined by bisection)."""
_REFINE = 3
"""Scans after the first: the curl is found to (range / _SCAN**4), 1e-5 radians."""
_SAMPLES = np.linspace(0.0, 1.0, 5)
"""Points along each link tested against the ball."""
TOUCH_TOL = 1e-3
"""A fingertip within this distance (dm, a tenth of a millimetre) of the surface is on it."""


def _unit(v: Any) -> np.ndarray:
    a = np.asarray(v, dtype=np.float64)
    return a / float(np.linalg.norm(a))


@dataclass(frozen=True)
class Finger:
    """One finger: its joints in the skeleton and the curl it closes along.

    ``joints`` are the skeleton indices of the base (knuckle) and the three joints after it;
    ``d`` and ``n`` span its flexion plane (``n`` towards the palm side, perpendicular to d).
    """

    name: str
    joints: np.ndarray
    base: np.ndarray
    lengths: np.ndarray
    d: np.ndarray
    n: np.ndarray
    s_range: tuple[float, float]
    spread: float

    def toward(self, ball: np.ndarray) -> Finger:
        """The finger turned sideways about ``n`` (by at most ``spread`` radians) so that its
        flexion plane passes as near to the ball's centre as that allows."""
        side = np.cross(self.n, self.d)
        v = ball - self.base
        psi = math.atan2(float(v @ side), float(v @ self.d))
        psi = min(max(psi, -self.spread), self.spread)
        d = math.cos(psi) * self.d + math.sin(psi) * side
        return replace(self, d=d)

    def angles(self, s: np.ndarray) -> np.ndarray:
        """(k, 3) relative bends of the three joints for curl values ``s`` (k,): the joints on
        a circular arc tangent to ``d`` at the base, along which the finger turns by ``s``
        radians in all."""
        s = np.asarray(s, dtype=np.float64)
        ls = self.lengths
        share = np.array([ls[0], ls[0] + ls[1], ls[1] + ls[2]]) / (2.0 * ls.sum())
        return s[..., None] * share

    def pose(self, s: Any) -> np.ndarray:
        """(k, 4, 3) positions of base and three joints for curl values ``s`` (k,)."""
        heading = np.cumsum(self.angles(np.atleast_1d(s)), axis=-1)
        steps = (np.cos(heading)[..., None] * self.d + np.sin(heading)[..., None] * self.n) * (
            self.lengths[:, None]
        )
        out = np.empty(heading.shape[:1] + (4, 3))
        out[:, 0] = self.base
        out[:, 1:] = self.base + np.cumsum(steps, axis=1)
        return out


@cache
def hand_skeleton() -> tuple[Skeleton, tuple[Finger, ...]]:
    """The hand's skeleton (built once) and its fingers."""
    names, parents = ["wrist"], [-1]
    points: list[np.ndarray] = [np.zeros(3)]
    for k, (name, xyz) in enumerate(PALM):
        names.append(name)
        parents.append(k)
        points.append(np.array(xyz, dtype=np.float64))
    for f, base, lengths, d, _n, *_ in _FINGER_DATA:
        up = names.index(base)
        p = points[up]
        for k, length in enumerate(lengths):
            names.append(f if k == 2 else f"{f}_{k + 1}")
            parents.append(up)
            p = p + length * _unit(d)
            points.append(p)
            up = len(names) - 1
    pts = np.array(points)
    par = np.array(parents)
    lengths_all = np.zeros(len(names))
    dirs = np.zeros_like(pts)
    dirs[0] = (1.0, 0.0, 0.0)
    for j in range(1, len(names)):
        off = pts[j] - pts[par[j]]
        lengths_all[j] = float(np.linalg.norm(off))
        dirs[j] = off / lengths_all[j]
    sk = Skeleton(tuple(names), par, lengths_all, None, 3, None, dirs)
    fingers = []
    for f, base, lengths, d, n, s_range, spread in _FINGER_DATA:
        du = _unit(d)
        nu = _unit(np.asarray(n) - float(np.dot(n, du)) * du)
        joints = np.array([sk.index(base)] + [sk.index(f"{f}_{k}") for k in (1, 2)] + [sk.index(f)])
        base_at = pts[sk.index(base)]
        fingers.append(
            Finger(f, joints, base_at, np.array(lengths), du, nu, s_range, math.radians(spread))
        )
    return sk, tuple(fingers)


def open_hand(fingers: Any = None) -> np.ndarray:
    """(m, 3) joint positions of the open hand (every finger at curl OPEN_CURL), with
    the given (turned) fingers, by default each in its rest plane."""
    sk, rest = hand_skeleton()
    pos = sk.rest_positions()
    for f in rest if fingers is None else fingers:
        pos[f.joints] = f.pose(OPEN_CURL)[0]
    return pos


def _clearance_of(pts: np.ndarray, ball: np.ndarray, radius: float) -> np.ndarray:
    """(k,) least distance from the ball's surface to points along each of k polylines
    ``pts (k, 4, 3)`` (negative: inside the ball)."""
    a, b = pts[:, :-1, None, :], pts[:, 1:, None, :]
    samples = a + (b - a) * _SAMPLES[None, None, :, None]
    dist = np.linalg.norm(samples.reshape(len(pts), -1, 3) - ball, axis=-1)
    return dist.min(axis=1) - radius


def _clearance(f: Finger, s: np.ndarray, ball: np.ndarray, radius: float) -> np.ndarray:
    return _clearance_of(f.pose(s), ball, radius)


def _first_touch(f: Finger, ball: np.ndarray, radius: float) -> float:
    """Curl at which the finger first touches the ball, or at which it comes nearest to it;
    if the ball is in the way of even the most open finger, the curl at which the least of the
    finger is inside it."""
    lo, hi = f.s_range
    grid = np.linspace(lo, hi, _SCAN)
    gap = _clearance(f, grid, ball, radius)
    inside = np.flatnonzero(gap <= 0.0)
    if inside.size == 0:
        return float(grid[int(np.argmin(gap))])
    if inside[0] == 0:
        return float(grid[int(np.argmax(gap))])
    for _ in range(_REFINE):  # the same scan between the last curl outside and the first inside
        k = int(inside[0])
        grid = np.linspace(grid[k - 1], grid[k], _SCAN)
        inside = np.flatnonzero(_clearance(f, grid, ball, radius) <= 0.0)
    return float(grid[int(inside[0])])


def contact_targets(ball: np.ndarray, radius: float) -> dict[str, tuple[np.ndarray, Finger]]:
    """Each finger's fingertip target, and the finger turned towards the ball whose curl the
    target is on."""
    _, fingers = hand_skeleton()
    out = {}
    for f in fingers:
        turned = f.toward(ball)
        out[f.name] = (turned.pose(_first_touch(turned, ball, radius))[0, -1], turned)
    return out


def touch_of(pts: np.ndarray, ball: np.ndarray, radius: float, tol: float) -> str:
    """How a finger with joints ``pts (4, 3)`` meets the ball: ``"tip"`` when its tip is on the
    surface, ``"finger"`` when another part of it touches the ball, else ``"none"``."""
    if abs(float(np.linalg.norm(pts[-1] - ball)) - radius) <= tol:
        return "tip"
    if _clearance_of(pts[None], ball, radius)[0] <= tol:
        return "finger"
    return "none"


def finger_bends(positions: np.ndarray, f: Finger) -> tuple[np.ndarray, float]:
    """The finger's three bends in degrees within its flexion plane (positive towards the palm
    side; the first from its rest direction) and the largest angle, in degrees, by which a link
    leaves that plane. For tests and the page's readout."""
    pts = positions[f.joints]
    m = np.cross(f.d, f.n)
    prev = f.d
    bends = []
    out_of_plane = 0.0
    for i in range(3):
        v = _unit(pts[i + 1] - pts[i])
        out_of_plane = max(out_of_plane, math.degrees(math.asin(min(1.0, abs(float(v @ m))))))
        bends.append(math.degrees(math.atan2(float(np.cross(prev, v) @ m), float(prev @ v))))
        prev = v
    return np.array(bends), out_of_plane


def _spread_deg(f: Finger) -> float:
    """How far (degrees, towards the thumb positive) the finger turned from its rest plane."""
    _, rest = hand_skeleton()
    r = next(g for g in rest if g.name == f.name)
    return math.degrees(math.atan2(float(np.cross(r.d, f.d) @ r.n), float(r.d @ f.d)))


def hand_frame(ball: np.ndarray, radius: float, method: str) -> dict[str, Any]:
    """One frame: the targets on the ball, the tree solved from the open hand, and for each
    finger its status, error, whether it touches the ball and its bends."""
    from geoik.tree import solve_tree

    sk, _ = hand_skeleton()
    contacts = contact_targets(ball, radius)
    goals = {name: tip for name, (tip, _) in contacts.items()}
    goals[PIN] = sk.rest_positions()[sk.index(PIN)]
    fingers = [f for _, f in contacts.values()]
    # every frame from the open hand (its fingers turned towards the ball): the pose depends
    # on where the ball is, not on the way it got there (scrubbing gives the same frames)
    sol = solve_tree(sk, goals, method=method, start=open_hand(fingers))
    pos = sol.positions
    out: dict[str, Any] = {}
    for f in fingers:
        touch = touch_of(pos[f.joints], ball, radius, TOUCH_TOL)
        bends, off = finger_bends(pos, f)
        out[f.name] = {
            "status": sol.status[f.name].name,
            "error": sol.error[f.name],
            "touch": touch,
            "target": goals[f.name].tolist(),
            "bends_deg": bends.tolist(),
            "out_of_plane_deg": off,
            "spread_deg": _spread_deg(f),
        }
    return {
        "points": pos.tolist(),
        "names": list(sk.names),
        "parents": sk.parents.tolist(),
        "palm": [list(WRIST_CORNERS[0])]
        + [pos[sk.index(name)].tolist() for name, _ in PALM]
        + [list(WRIST_CORNERS[1])],
        "fingers": out,
        "pin": {"joint": PIN, "status": sol.status[PIN].name, "error": sol.error[PIN]},
        "on_ball": sum(v["touch"] == "tip" for v in out.values()),
        "iterations": sol.iterations,
        "tol": sol.tol,
    }
