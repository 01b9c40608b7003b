"""Which kinematic family a 6-joint revolute arm belongs to, and the plan that solves it.

From the product-of-exponentials form (axes ``H`` (n, 3), offsets ``P`` (n + 1, 3) at the zero
configuration, see :mod:`geoik.robots.poe`), :func:`decompose` tests which axes are parallel
(``|h_i x h_j| <= tol``, radians) and which intersect (not parallel, and the lines' distance at
most ``tol`` times the arm's size, the sum of the offsets' lengths), and picks the first family
below whose conditions hold, for the chain as given or reversed (base and tip swapped: the
inverse pose of the reversed chain, so that a spherical wrist at the base or a parallel triple
nearer the tip is solved alike). Axes are numbered from 1 in words, from 0 in code.

=========================  ==================================================  ============
family                     condition (1-based axes)                            subproblems
=========================  ==================================================  ============
three parallel             2 || 3 || 4, 5 and 6 intersect (UR, Unitree Z1)     SP4 SP4 SP1
                                                                               SP3 SP1 SP1
spherical wrist, 2 || 3    4, 5, 6 meet in a point (Kinova j2s6s200)           SP4 SP3 SP1
                                                                               SP2 SP1
spherical wrist, 1 x 2     4, 5, 6 meet; 1 and 2 intersect (Talos arm)         SP3 SP2 SP2
                                                                               SP1
spherical wrist, 1 || 2    4, 5, 6 meet; 1 || 2                                SP4 SP3 SP1
                                                                               SP2 SP1
spherical wrist, 2 x 3     4, 5, 6 meet; 2 and 3 intersect                     SP3 SP2 SP2
                                                                               SP1
spherical wrist            4, 5, 6 meet                                        SP5 SP2 SP1
search                     5 and 6 intersect                                   1-D search
                                                                               of joint 1:
                                                                               SP5, SP1
=========================  ==================================================  ============

The tolerance (:data:`DEFAULT_TOL`) covers what a URDF's rounding leaves; the composed
solutions are then polished by Newton's method on the full forward kinematics and kept only
where they land within the solve's tolerance, so an arm whose axes are off by less than ``tol``
still gets exact answers.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from geoik.solvers.analytic.five import FAMILIES_SHORT, family_short

__all__ = ["DEFAULT_TOL", "FAMILIES", "Plan", "decompose"]

DEFAULT_TOL = 1e-5
"""Parallel: ``|h_i x h_j|`` at most this (radians); intersecting: lines at most this times the
arm's size apart. URDFs write quarter turns as ``rpy="-1.5708 ..."``, which leaves axes a few
millionths of a radian off (the xArm7's 3.7e-6): the family is found all the same, and the
candidates are polished onto the arm as it is (see :mod:`.finish`)."""

THREE_PARALLEL = 1
WRIST_PARALLEL_23 = 2
WRIST_MEET_12 = 3
WRIST_PARALLEL_12 = 4
WRIST_MEET_23 = 5
WRIST_GENERAL = 6
SEARCH_56 = 7

FAMILIES = {
    THREE_PARALLEL: (
        "three parallel axes (2, 3, 4), axes 5 and 6 intersect: closed form, up to 8 solutions"
    ),
    WRIST_PARALLEL_23: (
        "spherical wrist (4, 5, 6), axes 2 and 3 parallel: closed form, up to 8 solutions"
    ),
    WRIST_MEET_12: (
        "spherical wrist (4, 5, 6), axes 1 and 2 intersect: closed form, up to 8 solutions"
    ),
    WRIST_PARALLEL_12: (
        "spherical wrist (4, 5, 6), axes 1 and 2 parallel: closed form, up to 8 solutions"
    ),
    WRIST_MEET_23: (
        "spherical wrist (4, 5, 6), axes 2 and 3 intersect: closed form, up to 8 solutions"
    ),
    WRIST_GENERAL: "spherical wrist (4, 5, 6): closed form (SP5), up to 8 solutions",
    SEARCH_56: (
        "axes 5 and 6 intersect: 1-D search over joint 1 (SP5 at each step), up to 16 solutions"
    ),
}
"""Family code -> what it is, in words (1-based axes, of the chain as solved)."""


@dataclass(frozen=True, eq=False)
class Plan:
    """How an arm is solved: its family and the arrays the family's kernel takes.

    Attributes
    ----------
    code : the family (a key of :data:`FAMILIES`), 0 when none fits.
    reverse : whether the chain is solved reversed (base and tip swapped).
    H, P, R_tip : the chain as solved (reversed when ``reverse``), as in
        :mod:`geoik.robots.poe`.
    points : (2, 3) the family's special points at the zero configuration (base frame of the
        chain as solved): the point where the wrist's axes meet, or where axes 5 and 6 meet;
        where axes 1 and 2 (or 2 and 3) meet.
    family : the family in words, e.g. ``"6R: three parallel axes (2, 3, 4), ..."``.
    """

    code: int
    reverse: bool
    H: np.ndarray
    P: np.ndarray
    R_tip: np.ndarray
    points: np.ndarray
    family: str
    locked: int = -1
    """7 joints: the joint held at the redundancy value (0 or 6), the chain above being the
    other six with it folded in at 0; -1 otherwise."""


def decompose(
    H: np.ndarray, P: np.ndarray, R_tip: np.ndarray, revolute: bool, tol: float = DEFAULT_TOL
) -> Plan:
    """The plan of a serial chain (``H`` (n, 3), ``P`` (n + 1, 3), ``R_tip`` (3, 3)); ``revolute``
    says whether every joint turns (prismatic joints have no family here)."""
    n = H.shape[0]
    if not revolute:
        return _none(H, P, R_tip, f"{n} joints, not all revolute: no closed form here")
    if n == 7:
        for locked in (6, 0):
            h, p, r = lock_joint(H, P, R_tip, locked, 0.0)
            plan = decompose(h, p, r, True, tol)
            if plan.code and plan.code != SEARCH_56:  # closed forms (the held joint is searched)
                words = f"7R: joint {locked + 1} held at the redundancy value, then {plan.family}"
                return Plan(
                    plan.code, plan.reverse, plan.H, plan.P, plan.R_tip, plan.points, words, locked
                )
        return _none(H, P, R_tip, "7R: no closed form with joint 1 or 7 held")
    if n in (4, 5):
        size = max(float(np.linalg.norm(P, axis=1).sum()), 1e-300)
        code = family_short(H, P, tol, tol * size)
        if code:
            return Plan(code, False, H, P, R_tip, np.zeros((2, 3)), f"{n}R: {FAMILIES_SHORT[code]}")
        return _none(
            H,
            P,
            R_tip,
            f"{n}R: no closed form here (axes 2, 3, 4 parallel and 1 not, and with five "
            "joints the tip on axis 5, have one)",
        )
    if n != 6:
        return _none(H, P, R_tip, f"{n}R: no closed form here (6 revolute joints have one)")
    size = max(float(np.linalg.norm(P, axis=1).sum()), 1e-300)
    for reverse, search in ((False, False), (True, False), (False, True), (True, True)):
        h, p, r = reversed_chain(H, P, R_tip) if reverse else (H, P, R_tip)
        found = _family(h, p, tol, tol * size, search)
        if found is not None:
            code, points = found
            words = FAMILIES[code]
            if reverse:
                words += ", solved from the tip (axes numbered from the tip)"
            return Plan(code, reverse, h, p, r, points, f"6R: {words}")
    return _none(H, P, R_tip, "6R: no two axes meet or are parallel where a closed form needs")


def lock_joint(
    H: np.ndarray, P: np.ndarray, R_tip: np.ndarray, joint: int, value: float
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The chain with its first (``joint`` 0) or last joint held at ``value`` radians and
    folded in: the last one turns the tip's frame; the first one is left out here, the goal
    being turned back by it instead (:func:`unlock_goal`)."""
    n = H.shape[0]
    if joint == 0:
        p = np.vstack([P[:1] + P[1:2], P[2:]])
        return np.ascontiguousarray(H[1:]), p, R_tip
    o_last = P[:n].sum(axis=0)
    tip = P.sum(axis=0)
    turn = _rotation(H[n - 1], value)
    new_tip = o_last + turn @ (tip - o_last)
    p = np.vstack([P[: n - 1], (new_tip - (o_last - P[n - 1]))[None]])
    return np.ascontiguousarray(H[: n - 1]), p, turn @ R_tip


def unlock_goal(
    H: np.ndarray, P: np.ndarray, value: float, R_goal: np.ndarray, p_goal: np.ndarray
) -> tuple[np.ndarray, np.ndarray]:
    """The goal of the chain without its first joint, that joint held at ``value``: the goal
    turned back about the first axis (through its origin ``P[0]``)."""
    turn = _rotation(H[0], -value)
    o = P[0]
    return turn @ R_goal, o + turn @ (p_goal - o)


def _rotation(k: np.ndarray, t: float) -> np.ndarray:
    x = np.array([[0.0, -k[2], k[1]], [k[2], 0.0, -k[0]], [-k[1], k[0], 0.0]])
    return np.eye(3) + math.sin(t) * x + (1.0 - math.cos(t)) * (x @ x)


def _none(H: np.ndarray, P: np.ndarray, R_tip: np.ndarray, words: str) -> Plan:
    return Plan(0, False, H, P, R_tip, np.zeros((2, 3)), words)


def reversed_chain(
    H: np.ndarray, P: np.ndarray, R_tip: np.ndarray
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The chain from the tip to the base: ``T(q)^-1 = T'(q')`` with ``q'`` the joint values
    reversed and negated; axes and points in the tip's frame at the zero configuration."""
    points = np.cumsum(P, axis=0)  # joint origins, then the tip
    tip = points[-1]
    origins = (points[:-1] - tip) @ R_tip  # R_tip^T (o - tip), each row
    h = H[::-1] @ R_tip
    o = origins[::-1]
    tip_new = -(tip @ R_tip)  # the reversed chain's tip at zero: T0^-1's position
    p = np.vstack([o[:1], np.diff(o, axis=0), tip_new[None] - o[-1:]])
    return np.ascontiguousarray(h), np.ascontiguousarray(p), np.ascontiguousarray(R_tip.T)


def _family(
    H: np.ndarray, P: np.ndarray, tol: float, tol_len: float, search: bool
) -> tuple[int, np.ndarray] | None:
    """The closed-form family of the chain (or with ``search``, the searched one), with its
    special points; None when none fits."""
    o = np.cumsum(P, axis=0)[:-1]  # joint origins at the zero configuration

    def parallel(i: int, j: int) -> bool:
        return float(np.linalg.norm(np.cross(H[i], H[j]))) <= tol

    def meet(i: int, j: int) -> np.ndarray | None:
        if parallel(i, j):
            return None
        return _intersection(o[i], H[i], o[j], H[j], tol_len)

    points = np.zeros((2, 3))
    c45 = meet(4, 5)
    if search:
        if c45 is None:
            return None
        points[0] = c45
        return SEARCH_56, points
    three = c45 is not None and parallel(1, 2) and parallel(2, 3)
    if three and not parallel(0, 1) and not parallel(1, 4):
        points[0] = c45
        return THREE_PARALLEL, points
    w = meet(3, 4)
    if w is not None and _on_axis(w, o[5], H[5], tol_len):
        points[0] = w
        if parallel(1, 2) and not parallel(0, 1):
            return WRIST_PARALLEL_23, points
        c01 = meet(0, 1)
        if c01 is not None:
            points[1] = c01
            return WRIST_MEET_12, points
        if parallel(0, 1) and not parallel(1, 2):
            return WRIST_PARALLEL_12, points
        c12 = meet(1, 2)
        if c12 is not None:
            points[1] = c12
            return WRIST_MEET_23, points
        return WRIST_GENERAL, points
    return None


def _intersection(
    a: np.ndarray, u: np.ndarray, b: np.ndarray, v: np.ndarray, tol: float
) -> np.ndarray | None:
    """The point where the lines ``a + s u`` and ``b + t v`` meet (the middle of their closest
    points), or None when they pass farther than ``tol`` apart."""
    w = a - b
    uv = float(u @ v)
    den = 1.0 - uv * uv
    s = (uv * float(v @ w) - float(u @ w)) / den
    t = (float(v @ w) - uv * float(u @ w)) / den
    pa, pb = a + s * u, b + t * v
    if math.dist(pa.tolist(), pb.tolist()) > tol:
        return None
    return 0.5 * (pa + pb)


def _on_axis(x: np.ndarray, a: np.ndarray, u: np.ndarray, tol: float) -> bool:
    d = x - a
    return float(np.linalg.norm(d - (d @ u) * u)) <= tol
