"""The analytic IK libraries :mod:`bench_robots` compares geoik with, set up from a geoik Robot.

Each peer is built from the very model geoik solves (:class:`geoik.Robot`, loaded from the
URDF), in the product-of-exponentials form they all take: the joints' unit axes ``H`` (n, 3) and
the offsets ``P`` (n + 1, 3) between points on consecutive axes, base to tip, at the zero
configuration, in the base frame, and the tip's orientation ``R`` (3, 3) there. A peer answers
in its own joint convention; :meth:`Peer.rows` turns its answers into geoik's joint values, so
the harness judges every contender by the same independent forward kinematics.

- ``EAIK`` (``pip install eaik``): ``EAIK.Robot(H, P, R, fixed_axes)``, which detects the
  kinematic family itself and returns every solution, least-squares ones flagged. A 7-joint arm
  is solved with one joint locked, swept over :data:`SWEEP` values within its limits (the first
  joint, counted from the tip, whose locking leaves a family EAIK knows).
- ``ik-geo`` (``pip install ik-geo``): one constructor per kinematic family, picked by the caller.
  :func:`ikgeo_family` picks it from the geometry (after moving the axes' points onto their
  intersections, :func:`canonical`), down to the general 6R solver (``gen_six_dof``, a 2-D
  search) when no closed family fits; 6 joints only.
- ``ur_analytic_ik`` (``pip install ur-analytic-ik``): closed forms of the Universal Robots arms
  in their Denavit-Hartenberg frames; the fixed transforms between those frames and the URDF's
  are found from the forward kinematics (:func:`ur_frames`).
"""

from __future__ import annotations

import importlib
import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

import geoik as ik

SWEEP = 32
"""Values a locked joint of a 7-joint arm is swept over by EAIK (evenly within its limits)."""
GEOMETRY_TOL = 1e-9
"""Axes closer than this (metres, or the sine of the angle between them) intersect or are
parallel for the ik-geo family test."""


def product_of_exponentials(robot: ik.Robot) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """``(H, P, R)`` of a one-tip robot of revolute joints: axes (n, 3), offsets between the
    joints' frame origins (n + 1, 3: base to joint 1, ..., joint n to the tip) and the tip's
    rotation (3, 3), all at the zero configuration in the base frame."""
    zero = np.zeros(robot.n)
    rot, pos = robot.frames(zero)
    axes = np.einsum("jrc,jc->jr", rot, robot.axes)
    tip = robot.tip_frame(zero)
    offsets = np.vstack([pos[:1], np.diff(pos, axis=0), tip[None, :3, 3] - pos[-1:]])
    return axes, offsets, tip[:3, :3]


def axis_points(axes: np.ndarray, offsets: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The points on the axes that ``offsets`` chain (n, 3), and the tip's position (3,)."""
    points = np.cumsum(offsets, axis=0)
    return points[:-1], points[-1]


def intersection(h1: Any, o1: Any, h2: Any, o2: Any, tol: float) -> np.ndarray | None:
    """The point where two lines (unit directions ``h``, points ``o``) meet, or None when they
    are parallel or pass further than ``tol`` apart."""
    normal = np.cross(h1, h2)
    sine = float(np.linalg.norm(normal))
    if sine < tol:
        return None
    if abs(float(np.dot(o2 - o1, normal))) / sine > tol:
        return None
    t = np.linalg.lstsq(np.column_stack([h1, -h2]), o2 - o1, rcond=None)[0]
    return 0.5 * (o1 + t[0] * h1 + o2 + t[1] * h2)


def canonical(
    axes: np.ndarray, offsets: np.ndarray, tol: float = GEOMETRY_TOL
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The same arm with each pair of consecutive intersecting axes referred to their common
    point (so that the offset between them is exactly 0, as ik-geo's families ask), parallel
    axes given exactly one direction: ``(H, P, signs)``, ``signs[j] = -1`` where joint ``j``'s
    axis was reversed to match its neighbour's (its angle is then negated).

    Moving the point of reference along an axis does not change the kinematics; snapping
    directions and offsets below ``tol`` to exact values changes them by at most ``tol``.
    """
    h = axes.copy()
    points, tip = axis_points(axes, offsets)
    signs = np.ones(len(h))
    fixed = np.zeros(len(h), dtype=bool)
    for j in range(len(h) - 2, -1, -1):  # from the wrist down: its common point wins
        x = intersection(h[j], points[j], h[j + 1], points[j + 1], tol)
        if x is None or (fixed[j + 1] and np.linalg.norm(points[j + 1] - x) > tol):
            continue
        points[j] = points[j + 1] = x
        fixed[j] = fixed[j + 1] = True
    for j in range(1, len(h)):
        if np.linalg.norm(np.cross(h[j - 1], h[j])) < tol:
            # ik-geo wants parallel axes as one vector: a reversed one turns the other way
            signs[j] = math.copysign(1.0, float(np.dot(h[j - 1], h[j])))
            h[j] = h[j - 1]
    p = np.vstack([points[:1], np.diff(points, axis=0), tip[None] - points[-1:]])
    p[np.linalg.norm(p, axis=1) < tol] = 0.0
    return h, p, signs


def ikgeo_family(h: np.ndarray, p: np.ndarray) -> str:
    """The most specific ik-geo constructor whose conditions the canonical arm meets
    (``h`` (6, 3), ``p`` (7, 3), zero-based joints): a spherical wrist is ``p[4] = p[5] = 0``,
    ``h[1] = h[2] (= h[3])`` are two (three) parallel axes, ``p[1] = 0`` the first two axes
    intersecting, ``p[5] = 0`` the last two."""
    zero = [not np.any(p[i]) for i in range(7)]
    two = bool(np.all(h[1] == h[2]))
    three = two and bool(np.all(h[2] == h[3]))
    spherical = zero[4] and zero[5]
    if spherical and two:
        return "spherical_two_parallel"
    if spherical and zero[1]:
        return "spherical_two_intersecting"
    if spherical:
        return "spherical"
    if three and zero[5]:
        return "three_parallel_two_intersecting"
    if three:
        return "three_parallel"
    if two:
        return "two_parallel"
    if zero[5]:
        return "two_intersecting"
    return "gen_six_dof"


def into_limits(q: np.ndarray, lo: np.ndarray, hi: np.ndarray) -> np.ndarray | None:
    """``q`` with each angle moved by whole turns into ``[lo, hi]`` where it fits (the pose
    is the same); None if some joint fits nowhere in its limits."""
    out = np.array(q, dtype=np.float64)
    finite = np.isfinite(lo)
    turns = np.where(finite, np.ceil((lo - out) / (2 * math.pi) - 1e-12), 0.0)
    out = out + 2 * math.pi * turns
    if np.any(out > hi + 1e-9):
        return None
    return out


@dataclass
class Peer:
    """One contender outside geoik, set up for one arm.

    ``prepare(goal)`` turns a (4, 4) target into the call's input (not timed), ``call(input)``
    is what is timed, ``rows(answer)`` gives the answer's solutions as (k, n) joint values in
    geoik's convention (least-squares answers left out), not timed. ``batch`` solves a list of
    prepared inputs at once, if the peer has a batch call. ``note`` says how it was set up.
    """

    name: str
    note: str
    prepare: Callable[[np.ndarray], Any]
    call: Callable[[Any], Any]
    rows: Callable[[Any], np.ndarray]
    batch: Callable[[Sequence[Any]], Any] | None = None


class UnavailableError(Exception):
    """A peer that cannot run on this arm or on this machine; the message says why."""


def _module(name: str, pip: str) -> Any:
    try:
        return importlib.import_module(name)
    except ImportError:
        raise UnavailableError(f"not installed (pip install {pip})") from None


def eaik_peer(robot: ik.Robot, threads: int) -> Peer:
    """EAIK on ``robot`` (5 or 6 joints; 7 with one joint locked and swept)."""
    eaik = _module("eaik.pybindings.EAIK", "eaik")
    h, p, r = product_of_exponentials(robot)
    if robot.n <= 6:
        bot = eaik.Robot(h.T, p.T, r, [], True)
        if not bot.has_known_decomposition():
            raise UnavailableError("not covered (no known decomposition)")

        def rows(answer: Any) -> np.ndarray:
            q = np.asarray(answer.Q, dtype=np.float64).reshape(-1, robot.n)
            return q[~np.asarray(answer.is_LS, dtype=bool)]

        def batch(goals: Sequence[Any]) -> Any:
            return bot.calculate_IK_batched(list(goals), threads)

        return Peer(
            "EAIK",
            bot.get_kinematic_family(),
            lambda goal: np.ascontiguousarray(goal),
            bot.calculate_IK,
            rows,
            batch,
        )
    for j in range(robot.n - 1, -1, -1):
        if eaik.Robot(h.T, p.T, r, [(j, 0.0)], True).has_known_decomposition():
            break
    else:
        raise UnavailableError("not covered (no joint's locking leaves a known decomposition)")
    values = (
        np.linspace(robot.lo[j], robot.hi[j], SWEEP)
        if np.isfinite(robot.lo[j])
        else (np.linspace(-math.pi, math.pi, SWEEP, endpoint=False))
    )
    bots = [eaik.Robot(h.T, p.T, r, [(j, float(v))], True) for v in values]

    def call_all(goal: Any) -> list[Any]:
        return [bot.calculate_IK(goal) for bot in bots]

    def rows_all(answers: list[Any]) -> np.ndarray:
        found = [
            np.asarray(a.Q, dtype=np.float64).reshape(-1, robot.n)[~np.asarray(a.is_LS, dtype=bool)]
            for a in answers
        ]
        return np.vstack(found) if found else np.zeros((0, robot.n))

    family = bots[0].get_kinematic_family()
    return Peer(
        "EAIK",
        f"joint {j + 1} locked, {SWEEP} values; {family}",
        lambda goal: np.ascontiguousarray(goal),
        call_all,
        rows_all,
    )


def ikgeo_peer(robot: ik.Robot) -> Peer:
    """ik-geo on a 6-joint ``robot``, with the family :func:`ikgeo_family` picks."""
    if robot.n != 6:
        raise UnavailableError(f"not applicable (6 joints only; this arm has {robot.n})")
    ikgeo = _module("ik_geo", "ik-geo")
    axes, offsets, r6t = product_of_exponentials(robot)
    h, p, signs = canonical(axes, offsets)
    family = ikgeo_family(h, p)
    bot = getattr(ikgeo.Robot, family)(h.tolist(), p.tolist())

    def prepare(goal: np.ndarray) -> tuple[list[list[float]], list[float]]:
        # ik-geo's tip frame is the base's at the zero configuration: turn the target back;
        # its Python binding reads the rotation's nested lists as columns
        return (goal[:3, :3] @ r6t.T).T.tolist(), goal[:3, 3].tolist()

    def rows(answer: Any) -> np.ndarray:
        q = [values for values, ls in answer if not ls]
        return np.asarray(q, dtype=np.float64).reshape(-1, 6) * signs

    return Peer("ik-geo", family, prepare, lambda goal: bot.get_ik(*goal), rows)


UR_MODULES = {"ur3": "ur3", "ur5": "ur5", "ur10": "ur10"}
"""geoik's example arms that ``ur_analytic_ik`` has a module for."""


def ur_frames(robot: ik.Robot, module: Any) -> tuple[np.ndarray, np.ndarray]:
    """``(A, B)`` with ``robot.tip_frame(q) = A @ module.forward_kinematics(*q) @ B`` for every
    ``q`` (A a turn of the base about z by a multiple of 90 degrees); UnavailableError if none fits
    to 1e-9 on random configurations."""
    rng = np.random.default_rng(0)
    samples = robot.random_angles(rng, 8)
    zero = np.zeros(6)
    for k in range(4):
        c, s = round(math.cos(k * math.pi / 2)), round(math.sin(k * math.pi / 2))
        a = np.eye(4)
        a[:2, :2] = [[c, -s], [s, c]]
        b = np.linalg.inv(a @ module.forward_kinematics(*zero)) @ robot.tip_frame(zero)
        worst = max(
            float(np.abs(a @ module.forward_kinematics(*q) @ b - robot.tip_frame(q)).max())
            for q in samples
        )
        if worst < 1e-9:
            return a, b
    raise UnavailableError("its frames match no turn of this URDF's base")


def ur_peer(robot: ik.Robot, arm: str) -> Peer:
    """ur_analytic_ik on a UR arm of the examples."""
    if arm not in UR_MODULES:
        raise UnavailableError("not applicable (Universal Robots arms only)")
    ua = _module("ur_analytic_ik", "ur-analytic-ik")
    module = getattr(ua, UR_MODULES[arm])
    a, b = ur_frames(robot, module)
    a_inv, b_inv = np.linalg.inv(a), np.linalg.inv(b)

    def rows(answer: Any) -> np.ndarray:
        return np.asarray(answer, dtype=np.float64).reshape(-1, 6)

    return Peer(
        "ur_analytic_ik",
        f"{UR_MODULES[arm]} module",
        lambda goal: np.ascontiguousarray(a_inv @ goal @ b_inv),
        module.inverse_kinematics,
        rows,
    )
