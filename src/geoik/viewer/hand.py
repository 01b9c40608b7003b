"""Seed 003's hand grasping a ball (Srinivasan & John 2013, Section 5, Fig. 7), solved as a tree.

The hand is a right hand, palm down (towards -z), fingers along +x, thumb towards +y, in
decimetres, built as a :class:`geoik.Skeleton`: the wrist is the root; the palm is a chain of
joints from the wrist through the thumb's base and the four knuckles to the palm's outer edge;
the thumb hangs from its base and each finger from its knuckle, three links each. Every frame
:func:`geoik.rigs.tree.solve_tree` moves the five fingertips to their targets on the ball.

Limits. The joints carry :meth:`geoik.Skeleton.hand`'s anatomical limits
(:data:`geoik.rigs.skeleton.HAND_LIMITS`): a cone at each knuckle (45 degrees, the thumb's base 60),
and the two outer joints of every finger hinges that flex towards the palm's side only (-5 to
110 and -5 to 90 degrees; the thumb's -10 to 60 and -15 to 80, flexing across the palm). The palm is
rigid: its links are held in the wrist's frame (cones of 0 degrees). So no solver can bend a
finger backwards, and every pose the scene shows is within the limits.

Targets. Each finger first turns sideways at its knuckle towards the ball (at most 5 to 12
degrees, the thumb 25), as fingers close round an object, then closes along an even curl (its
curl ``s`` is the total turn of the smooth arc along which it bends, from 0, straight, to the
most its limits allow). Its fingertip's target is where the tip is on that curl when the finger
first touches the ball; a finger that cannot touch the ball closes as near to it as the curl
comes. The reply says for each finger whether its tip is on the ball, another part of it
touches the ball (the thumb's pad often does), or it does not reach.

Why this curl. A limited skeleton measures a finger's hinges in frames that follow the joint
positions without twist (:mod:`geoik.rigs.limits`): the knuckle's link turns by the minimal
rotation from its rest direction, which carries the hinges' axis along. A finger turned sideways
and then flexed at the knuckle therefore bends its outer joints in a plane tilted from the plane
it was turned into (up to 4 degrees for the fingers here, 7 for the thumb). A curl drawn in the
turned plane is no pose the limits allow; the circles place the finger in that plane, the
hinges then turn it out, and the limited passes that follow stop short (STALLED: every finger,
on every ball). Here each curl lies in the plane the limits give it: the plane through the
knuckle that contains the open finger's direction and in which the knuckle's minimal rotation
leaves the hinges (found in closed form for every knuckle bend, :meth:`Finger.planes`). Within
it the joints are where seed 003's circles place them from the open finger
(:func:`geoik.solvers.circles.place.place_chain`, the solver's own kernel), so the target is
one the limits allow and the circles reach in one round, no limit turning them. The curl stops
where a limit would: the knuckle's cone (for the finger turned as far as it may) or a hinge's
range (:attr:`Finger.s_range`).

Why this way. Every frame starts from the open hand (straight fingers, each turned towards the
ball): the pose depends only on where the ball is, not on the way it got there (scrubbing back
and forth gives the same frames), and seed 003's circles bend each finger in the plane through
its open direction and its target, to the side the finger curls to. The palm keeps its shape by
its limits; its outer edge is an end effector held where it rests, which makes the little
finger's knuckle a branching joint like the others (else the circles would place the palm's
last link as part of the little finger). FABRIK on trees (``method="fabrik"``) stays within the
limits too, but on these hinged fingers its passes nearly always stop short of the targets
(STALLED, the fingers hardly closed); the page shows what it does.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, replace
from functools import cache
from typing import Any

import numpy as np

from geoik.jit import runner
from geoik.rigs.skeleton import HAND_LIMITS, Skeleton
from geoik.solvers.circles.place import place_chain

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
# and how far the finger may turn sideways towards the ball (degrees)
_FINGER_DATA = (
    ("thumb", "thumb_base", (0.42, 0.32, 0.27), (0.75, 0.3, -0.45), (0.0, -1.0, -0.3), 25.0),
    ("index", "index_base", (0.40, 0.23, 0.18), (1.0, 0.06, 0.0), (0.0, 0.0, -1.0), 10.0),
    ("middle", "middle_base", (0.44, 0.27, 0.19), (1.0, 0.0, 0.0), (0.0, 0.0, -1.0), 5.0),
    ("ring", "ring_base", (0.41, 0.26, 0.18), (1.0, -0.06, 0.0), (0.0, 0.0, -1.0), 8.0),
    ("little", "little_base", (0.33, 0.19, 0.17), (1.0, -0.14, 0.0), (0.0, 0.0, -1.0), 12.0),
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
_RANGE_STEPS = 2880
"""Curls from 0 to pi tried for the largest one the limits allow."""


def _unit(v: Any) -> np.ndarray:
    a = np.asarray(v, dtype=np.float64)
    return a / float(np.linalg.norm(a))


def _curl_points(lengths: np.ndarray, s: np.ndarray) -> np.ndarray:
    """(k, 4, 2) the finger's joints in its flexion plane for curls ``s`` (k,): the base at the
    origin, the open finger along +x, the palm's side +y. The tip goes where the smooth arc of
    the finger's length turning by ``s`` ends (tangent to +x at the base), and the joints where
    seed 003's circles place them from the open finger (the solver's own kernel, so that the
    pose is the one it finds)."""
    total = float(lengths.sum())
    cur = np.zeros((4, 2))
    cur[1:, 0] = np.cumsum(lengths)
    goal = np.empty(2)
    out = np.empty((len(s), 4, 2))
    place = runner(place_chain, work=8)
    for k, curl in enumerate(np.asarray(s, dtype=np.float64)):
        half = 0.5 * float(curl)
        chord = total * (math.sin(half) / half if abs(half) > 1e-12 else 1.0)
        goal[0], goal[1] = chord * math.cos(half), chord * math.sin(half)
        place(lengths, cur, goal, out[k])
    return out


def _cross(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """a x b over the last axis (np.cross without its overhead, for the hot path)."""
    return np.stack(
        [
            a[..., 1] * b[..., 2] - a[..., 2] * b[..., 1],
            a[..., 2] * b[..., 0] - a[..., 0] * b[..., 2],
            a[..., 0] * b[..., 1] - a[..., 1] * b[..., 0],
        ],
        axis=-1,
    )


def _widest_knuckle_bend(cone: float, psi: float) -> float:
    """The largest flexion at the knuckle (radians, in the finger's plane, from its open
    direction) that keeps a finger turned sideways by ``psi`` within the knuckle's cone: the
    flexed direction's cosine with the rest direction is ``(c C + c^2 - S^2) / (1 + c C)``
    (``c = cos(bend)``, ``C = cos(psi)``, ``S = sin(psi)``; see :meth:`Finger.planes`), which
    equals ``cos(cone)`` where this returns."""
    k, big_c, s2 = math.cos(cone), math.cos(psi), math.sin(psi) ** 2
    c = 0.5 * (-big_c * (1.0 - k) + math.sqrt((big_c * (1.0 - k)) ** 2 + 4.0 * (s2 + k)))
    return math.acos(min(1.0, max(-1.0, c)))


@dataclass(frozen=True)
class Finger:
    """One finger: its joints in the skeleton and the curl it closes along.

    ``joints`` are the skeleton indices of the base (knuckle) and the three joints after it.
    ``rest_d`` and ``rest_n`` are its rest direction and the palm's side it flexes to (their
    cross product is its hinges' axis); ``d`` is its open direction (turned sideways by
    :meth:`toward`) and ``n`` the palm's side of its flexion plane (perpendicular to d): the
    rest plane's for an open finger, the plane of its curl for one from
    :func:`contact_targets`. ``s_range`` is the curl from straight to the most that the
    limits allow (at most a half turn) however the finger is turned (within ``spread``
    radians).
    """

    name: str
    joints: np.ndarray
    base: np.ndarray
    lengths: np.ndarray
    d: np.ndarray
    n: np.ndarray
    rest_d: np.ndarray
    rest_n: np.ndarray
    s_range: tuple[float, float]
    spread: float

    def toward(self, ball: np.ndarray) -> Finger:
        """The open finger turned sideways about ``rest_n`` (by at most ``spread`` radians) so
        that its flexion plane passes as near to the ball's centre as that allows."""
        side = np.cross(self.rest_n, self.rest_d)
        v = ball - self.base
        psi = math.atan2(float(v @ side), float(v @ self.rest_d))
        psi = min(max(psi, -self.spread), self.spread)
        d = math.cos(psi) * self.rest_d + math.sin(psi) * side
        return replace(self, d=d, n=self.rest_n)

    def planes(self, s: Any) -> tuple[np.ndarray, np.ndarray]:
        """(k, 4, 3) positions of base and three joints for curl values ``s`` (k,), and (k, 3)
        the palm's side of each one's flexion plane.

        In the rest frame (``rest_d``, ``rest_n``, hinge axis ``h``) the open direction is
        ``(C, 0, -S)`` (turned by psi). The knuckle's link, flexed by b in the finger's plane,
        is the direction u at angle b from it whose minimal rotation from ``rest_d`` carries
        ``h`` to a normal of that plane (perpendicular to the open direction):
        ``u_h = -S (C + cos b) / (1 + C cos b)``, ``u_d = (cos b + u_h S) / C``, ``u_n`` the
        rest of the unit vector. The plane's palm side is then (carried ``h``) x (open
        direction)."""
        curls = np.atleast_1d(np.asarray(s, dtype=np.float64))
        flat = _curl_points(self.lengths, curls)
        h = _cross(self.rest_d, self.rest_n)
        big_c = float(self.d @ self.rest_d)
        big_s = -float(self.d @ h)
        b = np.arctan2(flat[:, 1, 1], flat[:, 1, 0])
        cb = np.cos(b)
        uh = -big_s * (big_c + cb) / (1.0 + big_c * cb)
        ud = (cb + uh * big_s) / big_c
        un = np.sqrt(np.maximum(0.0, 1.0 - ud * ud - uh * uh))
        # the hinge axis turned by the minimal rotation from rest_d to u, in the rest frame
        m = np.stack([-uh, -un * uh / (1.0 + ud), 1.0 - uh * uh / (1.0 + ud)], axis=1)
        m_world = m[:, :1] * self.rest_d + m[:, 1:2] * self.rest_n + m[:, 2:] * h
        e = _cross(m_world, self.d)
        e /= np.linalg.norm(e, axis=1)[:, None]
        pts = self.base + flat[..., :1] * self.d + flat[..., 1:] * e[:, None, :]
        return pts, e

    def pose(self, s: Any) -> np.ndarray:
        """(k, 4, 3) positions of base and three joints for curl values ``s`` (k,)."""
        return self.planes(s)[0]

    def bends(self, s: Any) -> np.ndarray:
        """(k, 3) the bends of the knuckle and the two hinges in degrees for curls ``s`` (k,),
        in the finger's plane (flexion positive; the first from the open direction)."""
        flat = _curl_points(self.lengths, np.atleast_1d(np.asarray(s, dtype=np.float64)))
        steps = np.diff(flat, axis=1)
        heading = np.arctan2(steps[..., 1], steps[..., 0])
        return np.degrees(np.diff(heading, axis=1, prepend=0.0))


@cache
def hand_skeleton() -> tuple[Skeleton, tuple[Finger, ...]]:
    """The hand's skeleton with its limits (built once) and its fingers."""
    names, parents = ["wrist"], [-1]
    points: list[np.ndarray] = [np.zeros(3)]
    for k, (name, xyz) in enumerate(PALM):
        names.append(name)
        parents.append(k)
        points.append(np.array(xyz, dtype=np.float64))
    for f, base, lengths, d, *_ in _FINGER_DATA:
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
    # the limits: the palm held rigid, a cone at each knuckle, the outer joints hinges
    bends: dict[str, Any] = {}
    axes: dict[str, Any] = {}
    for k, (name, _) in enumerate(PALM):
        bends.setdefault(names[k], {})[name] = 0.0
    fingers = []
    for f, base, lengths, d, n, spread in _FINGER_DATA:
        kind = "thumb" if f == "thumb" else "finger"
        du = _unit(d)
        nu = _unit(np.asarray(n) - float(np.dot(n, du)) * du)
        bends[base][f"{f}_1"] = HAND_LIMITS[f"{kind}_base"]
        for k in (1, 2):
            bends[f"{f}_{k}"] = HAND_LIMITS[f"{kind}_{k}"]
            axes[f"{f}_{k}"] = tuple(np.cross(du, nu))  # flexion towards nu is positive
        at = names.index(base)
        joints = np.array([at] + [names.index(f"{f}_{k}") for k in (1, 2)] + [names.index(f)])
        psi = math.radians(spread)
        finger = Finger(f, joints, pts[at], np.array(lengths), du, nu, du, nu, (0.0, 0.0), psi)
        fingers.append(replace(finger, s_range=(0.0, _largest_curl(finger, kind))))
    sk = Skeleton(tuple(names), par, lengths_all, None, 3, None, dirs, bends, axes)
    return sk, tuple(fingers)


def _largest_curl(f: Finger, kind: str) -> float:
    """The largest curl (to a step of pi / _RANGE_STEPS) up to which every curl keeps the
    finger within its limits, turned sideways by up to its spread."""
    grid = np.linspace(0.0, math.pi, _RANGE_STEPS + 1)
    b = f.bends(grid)
    knuckle = math.degrees(
        _widest_knuckle_bend(math.radians(HAND_LIMITS[f"{kind}_base"]), f.spread)
    )
    ok = b[:, 0] <= knuckle
    for k in (1, 2):
        lo, hi = HAND_LIMITS[f"{kind}_{k}"]
        ok &= (b[:, k] >= lo) & (b[:, k] <= hi)
    bad = np.flatnonzero(~ok)
    last = (bad[0] - 1) if bad.size else len(grid) - 1
    return float(grid[max(last, 0)])


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
    target is on (its ``n`` the palm's side of that curl's plane)."""
    _, fingers = hand_skeleton()
    out = {}
    for f in fingers:
        turned = f.toward(ball)
        pts, side = turned.planes(_first_touch(turned, ball, radius))
        out[f.name] = (pts[0, -1], replace(turned, n=side[0]))
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
    """The finger's three bends in degrees within its flexion plane ``f.d``, ``f.n`` (positive
    towards the palm side; the first from its open direction) and the largest angle, in
    degrees, by which a link leaves that plane. For tests and the page's readout."""
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
    from geoik.rigs.tree import solve_tree

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
