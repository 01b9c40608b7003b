"""What a solver did, step by step, and how it is replayed.

A :class:`Motion` is the sequence of poses a solver went through, as relative joint rotations,
one keyframe per step (keyframe 0 is the start pose). A rotation-based solver (CCD, the
triangulation family, CAA) changes one joint per step; a position-based solver (FABRIK, circle
intersection) or the Jacobian may change several. Between two keyframes each joint turns at a
constant rate along the shortest way between its two rotations (in 2-D: linear interpolation of
the relative angle; in 3-D: slerp of the local rotation), so a one-joint step is exactly the
rotation the solver made. Every cost function (:mod:`geoik.costs`) reads the Motion, so every
solver is measured the same way.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import TYPE_CHECKING

import numpy as np
from numba import njit

from geoik.geometry import (
    fk_2d,
    fk_3d,
    q_angle,
    q_to_rotvec,
    qmul,
    qnormalize,
    qrot,
    rotvec_to_q,
    rotvecs_from_quats,
    sq,
)
from geoik.jit import call

if TYPE_CHECKING:
    from geoik.chain import Chain

__all__ = ["Motion"]

# Rotation counted by the "rotations over 5 degrees" cost: strictly above 5 degrees.
FIVE_DEG = math.radians(5.0)
# A joint whose rotation in a step is at most this (radians) did not move in that step.
STILL = 1e-12
# How a multi-joint step's path is integrated: polylines through 1 in 1, 1 in 2 and 1 in 4
# samples, extrapolated by :func:`romberg`. The samples start so that no joint (3-D:
# SAMPLE_STEP) or no link (2-D: SAMPLE_STEP_2D) turns more than that between two, and are
# doubled (up to MAX_SAMPLES) until the two Richardson estimates agree to SETTLED, relative;
# a step whose joint turns nearly cancel at the end effector needs many more than a smooth one.
# Measured against Gauss-Legendre integration of the end effector's speed, the relative error
# of a solve's path length is below about 1e-7 (typically 1e-10).
SAMPLE_STEP = math.radians(0.25)
SAMPLE_STEP_2D = math.radians(1.0)
SETTLED = 1e-8
MAX_SAMPLES = 1 << 16

REPLAY_WORK_2D = 20
"""Work (:mod:`geoik.jit`) of replaying one keyframe entry in 2-D: a multi-joint step is
sampled and extrapolated, which as plain Python takes some 40-80 µs per entry."""
REPLAY_WORK = 50
"""The same in 3-D, where slerped samples take some 50-250 µs per entry as plain Python."""


@dataclass(frozen=True, eq=False)
class Motion:
    """The recorded motion of one solve.

    Attributes
    ----------
    chain : the chain that moved.
    keys : (S + 1, n) relative angles in 2-D, or (S + 1, n, 4) local joint quaternions in 3-D,
        after each of the S steps (row 0: the start pose). A robot's motion is a
        :class:`geoik.robot_motion.RobotMotion`.
    """

    chain: Chain
    keys: np.ndarray

    def __post_init__(self) -> None:
        self.keys.setflags(write=False)

    @classmethod
    def fast(cls, chain: Chain, keys: np.ndarray) -> Motion:
        """The same as ``Motion(chain, keys)`` without the dataclass's frozen assignments (the
        constructor of :func:`geoik.solve`'s hot path)."""
        motion = object.__new__(cls)
        motion.__dict__.update(chain=chain, keys=keys)
        motion.__post_init__()
        return motion

    @property
    def steps(self) -> int:
        """Number of recorded steps."""
        return int(self.keys.shape[0] - 1)

    @property
    def angles(self) -> np.ndarray:
        """(S + 1, n) relative angles (2-D) or (S + 1, n, 3) rotation vectors (3-D), radians."""
        if self.chain.dim == 2:
            return self.keys.copy()
        out = np.empty(self.keys.shape[:2] + (3,))
        for k in range(self.keys.shape[0]):
            call(rotvecs_from_quats, self.keys[k], out[k])
        return out

    def rotations(self) -> np.ndarray:
        """(S, n) magnitude in radians of each joint's rotation in each step."""
        return _step_rotations(self.keys, self.chain.dim)

    def poses(self) -> np.ndarray:
        """(S + 1, n + 1, d) joint positions at every keyframe."""
        c = self.chain
        out = np.empty((self.keys.shape[0], c.n + 1, c.dim))
        world = np.empty((c.n, 4))
        for k in range(self.keys.shape[0]):
            if c.dim == 2:
                call(fk_2d, c.lengths, c.base, self.keys[k], out[k])
            else:
                call(fk_3d, c.lengths, c.base, self.keys[k], out[k], world)
        return out

    def trace(self, max_step_deg: float = 1.0) -> np.ndarray:
        """End-effector path as the motion is played: an (m, d) polyline.

        Each step is sampled so that no joint turns more than ``max_step_deg`` between samples.
        """
        c = self.chain
        step = math.radians(max_step_deg)
        if c.dim == 2:
            return call(
                _trace_2d, c.lengths, c.base, self.keys, step, work=self.keys.size * REPLAY_WORK_2D
            )
        return call(
            _trace_3d, c.lengths, c.base, self.keys, step, work=self.keys.size * REPLAY_WORK
        )

    def path_length(self) -> float:
        """True length of the path the end effector traces while the motion is played."""
        return self.measure()[2]

    def measure(self) -> tuple[int, float, float]:
        """(rotations over 5 degrees, sum of rotation magnitudes in radians, path length): what
        :func:`geoik.costs` reads."""
        return motion_costs(self.chain, self.keys)


def motion_costs(chain: Chain, keys: np.ndarray) -> tuple[int, float, float]:
    """(rotations over 5 degrees, sum of rotation magnitudes in radians, path length)."""
    if chain.dim == 2:
        return call(
            costs_2d,
            chain.lengths,
            chain.base,
            keys,
            keys.shape[0],
            work=keys.size * REPLAY_WORK_2D,
        )
    return call(
        costs_3d, chain.lengths, chain.base, keys, keys.shape[0], work=keys.size * REPLAY_WORK
    )


def _step_rotations(keys: np.ndarray, dim: int) -> np.ndarray:
    s = keys.shape[0] - 1
    out = np.zeros((max(s, 0), keys.shape[1]))
    if dim == 2:
        if s > 0:
            out[:] = np.abs(np.diff(keys, axis=0))
        return out
    call(_rotations_3d, keys, out)
    return out


@njit(cache=True)
def _rotations_3d(keys, out):
    for k in range(out.shape[0]):
        for j in range(out.shape[1]):
            a, b = keys[k, j], keys[k + 1, j]
            d0, d1, d2, d3 = qmul(b[0], b[1], b[2], b[3], a[0], -a[1], -a[2], -a[3])
            out[k, j] = q_angle(d0, d1, d2, d3)


# --------------------------------------------------------------------------- path length


@njit(cache=True)
def samples(biggest):
    """Even number of samples of a multi-joint step whose largest joint rotation is ``biggest``
    (radians), so that no joint turns more than ``SAMPLE_STEP`` between two samples."""
    return 2 * max(1, int(math.ceil(biggest / (2.0 * SAMPLE_STEP))))


@njit(cache=True)
def samples_2d(widest):
    """Samples (a multiple of 4) of a planar multi-joint step in which no link turns more than
    ``widest`` (radians), so that no link turns more than ``SAMPLE_STEP_2D`` between two."""
    return 4 * max(2, int(math.ceil(widest / (4.0 * SAMPLE_STEP_2D))))


@njit(cache=True)
def romberg(fine, mid, coarse):
    """Length of a smooth curve from three inscribed polylines through every sample, every
    other one and every fourth one: their shortfalls are ``c2 h^2 + c4 h^4 + O(h^6)`` in the
    parameter step h, so two rounds of Richardson extrapolation cancel both terms."""
    r_fine, r_mid = richardson(fine, mid), richardson(mid, coarse)
    return r_fine + (r_fine - r_mid) / 15.0


@njit(cache=True)
def richardson(fine, coarse):
    """Length of a smooth curve from two inscribed polylines, one through every sample
    (``fine``) and one through every other sample (``coarse``).

    A polyline with parameter step h falls short of the arc length by ``c h^2 + O(h^4)``
    (each chord is shorter than its arc by a term in the cube of its length), so
    ``fine + (fine - coarse) / 3`` cancels the ``h^2`` term (Richardson extrapolation).
    """
    return fine + (fine - coarse) / 3.0


# --------------------------------------------------------------------------- 2-D replay


@njit(cache=True)
def costs_2d(lengths, base, keys, nkeys):
    """Costs of a 2-D motion given by its first ``nkeys`` keyframes.

    Returns (number of joint rotations above 5 degrees, sum of rotation magnitudes in radians,
    end-effector path length).
    """
    n = lengths.shape[0]
    pos = np.empty((n + 1, 2))
    links = np.empty((n, 4))  # per link: direction (x, y) and its turn per sample (cos, sin)
    count = 0
    total = 0.0
    path = 0.0
    for k in range(1, nkeys):
        moved = 0
        j_moved = 0
        biggest = 0.0
        for j in range(n):
            d = abs(keys[k, j] - keys[k - 1, j])
            if d > STILL:
                moved += 1
                j_moved = j
                total += d
                if d > FIVE_DEG:
                    count += 1
                if d > biggest:
                    biggest = d
        if moved == 0:
            continue
        fk_2d(lengths, base, keys[k - 1], pos)
        if moved == 1:
            ex = pos[n, 0] - pos[j_moved, 0]
            ey = pos[n, 1] - pos[j_moved, 1]
            path += biggest * math.sqrt(ex * ex + ey * ey)
            continue
        # samples: see SAMPLE_STEP_2D and SETTLED
        dphi, widest = 0.0, 0.0
        for j in range(n):
            dphi += keys[k, j] - keys[k - 1, j]
            widest = max(widest, abs(dphi))
        m = samples_2d(widest)
        while True:
            fine, mid, coarse = _polylines_2d(lengths, base, keys[k - 1], keys[k], pos, m, links)
            r_fine, r_mid = richardson(fine, mid), richardson(mid, coarse)
            if abs(r_fine - r_mid) <= SETTLED * r_fine or m >= MAX_SAMPLES:
                break
            m *= 2
        path += romberg(fine, mid, coarse)
    return count, total, path


@njit(cache=True)
def _polylines_2d(lengths, base, before, after, pos, m, links):
    """Lengths of the polylines through m + 1, m / 2 + 1 and m / 4 + 1 evenly spaced points of
    the end effector's path while the relative angles go linearly from ``before`` (whose joint
    positions are ``pos``) to ``after``.

    Link i's absolute angle moves linearly by the sum of the steps of joints 0..i, so between
    samples its direction turns by a fixed rotation: no trigonometry per sample.
    """
    n = lengths.shape[0]
    dphi = 0.0
    for j in range(n):
        dphi += after[j] - before[j]
        links[j, 0] = (pos[j + 1, 0] - pos[j, 0]) / lengths[j]
        links[j, 1] = (pos[j + 1, 1] - pos[j, 1]) / lengths[j]
        links[j, 2], links[j, 3] = math.cos(dphi / m), math.sin(dphi / m)
    px, py = pos[n, 0], pos[n, 1]
    qx, qy, rx, ry = px, py, px, py
    fine, mid, coarse = 0.0, 0.0, 0.0
    for s in range(1, m + 1):
        ex, ey = base[0], base[1]
        for j in range(n):
            c, d = links[j, 0], links[j, 1]
            c, d = c * links[j, 2] - d * links[j, 3], c * links[j, 3] + d * links[j, 2]
            links[j, 0], links[j, 1] = c, d
            ex += lengths[j] * c
            ey += lengths[j] * d
        fine += math.sqrt(sq(ex - px) + sq(ey - py))
        px, py = ex, ey
        if s % 2 == 0:
            mid += math.sqrt(sq(px - qx) + sq(py - qy))
            qx, qy = px, py
        if s % 4 == 0:
            coarse += math.sqrt(sq(px - rx) + sq(py - ry))
            rx, ry = px, py
    return fine, mid, coarse


@njit(cache=True)
def _trace_2d(lengths, base, keys, step):
    n = lengths.shape[0]
    pos = np.empty((n + 1, 2))
    cur = np.empty(n)
    counts = np.empty(keys.shape[0], np.int64)
    total = 1
    for k in range(1, keys.shape[0]):
        biggest = 0.0
        for j in range(n):
            biggest = max(biggest, abs(keys[k, j] - keys[k - 1, j]))
        counts[k] = max(1, int(math.ceil(biggest / step)))
        total += counts[k]
    out = np.empty((total, 2))
    fk_2d(lengths, base, keys[0], pos)
    out[0, 0], out[0, 1] = pos[n, 0], pos[n, 1]
    r = 1
    for k in range(1, keys.shape[0]):
        m = counts[k]
        for s in range(1, m + 1):
            t = s / m
            for j in range(n):
                cur[j] = keys[k - 1, j] + t * (keys[k, j] - keys[k - 1, j])
            fk_2d(lengths, base, cur, pos)
            out[r, 0], out[r, 1] = pos[n, 0], pos[n, 1]
            r += 1
    return out


# --------------------------------------------------------------------------- 3-D replay


@njit(cache=True)
def _slerp_keys(a, b, t, cur):
    """cur[j] = slerp from a[j] to b[j] at t, as (b a^-1)^t a."""
    for j in range(a.shape[0]):
        aj, bj = a[j], b[j]
        d0, d1, d2, d3 = qmul(bj[0], bj[1], bj[2], bj[3], aj[0], -aj[1], -aj[2], -aj[3])
        rx, ry, rz = q_to_rotvec(d0, d1, d2, d3)
        s0, s1, s2, s3 = rotvec_to_q(rx * t, ry * t, rz * t)
        q0, q1, q2, q3 = qmul(s0, s1, s2, s3, a[j, 0], a[j, 1], a[j, 2], a[j, 3])
        q0, q1, q2, q3 = qnormalize(q0, q1, q2, q3)
        cur[j, 0], cur[j, 1], cur[j, 2], cur[j, 3] = q0, q1, q2, q3


@njit(cache=True)
def costs_3d(lengths, base, keys, nkeys):
    """Costs of a 3-D motion; see :func:`costs_2d`."""
    n = lengths.shape[0]
    pos = np.empty((n + 1, 3))
    world = np.empty((n, 4))
    cur = np.empty((n, 4))
    count = 0
    total = 0.0
    path = 0.0
    for k in range(1, nkeys):
        moved = 0
        j_moved = 0
        biggest = 0.0
        ax, ay, az = 0.0, 0.0, 0.0
        for j in range(n):
            a, b = keys[k - 1, j], keys[k, j]
            d0, d1, d2, d3 = qmul(b[0], b[1], b[2], b[3], a[0], -a[1], -a[2], -a[3])
            d = q_angle(d0, d1, d2, d3)
            if d > STILL:
                moved += 1
                j_moved = j
                total += d
                if d > FIVE_DEG:
                    count += 1
                if d > biggest:
                    biggest = d
                    ax, ay, az = q_to_rotvec(d0, d1, d2, d3)
        if moved == 0:
            continue
        fk_3d(lengths, base, keys[k - 1], pos, world)
        if moved == 1:
            j = j_moved
            # the step's axis, from the parent link's frame to the world
            if j > 0:
                w = world[j - 1]
                ax, ay, az = qrot(w[0], w[1], w[2], w[3], ax, ay, az)
            norm = math.sqrt(ax * ax + ay * ay + az * az)
            ax, ay, az = ax / norm, ay / norm, az / norm
            ex = pos[n, 0] - pos[j, 0]
            ey = pos[n, 1] - pos[j, 1]
            ez = pos[n, 2] - pos[j, 2]
            along = ex * ax + ey * ay + ez * az
            rx, ry, rz = ex - along * ax, ey - along * ay, ez - along * az
            path += biggest * math.sqrt(rx * rx + ry * ry + rz * rz)
            continue
        m = samples(biggest)
        m += m % 4  # a multiple of 4; more samples while the extrapolation has not settled
        start = np.copy(pos[n])
        while True:
            fine, mid, coarse = _polylines_3d(
                lengths, base, keys[k - 1], keys[k], start, m, cur, pos, world
            )
            r_fine, r_mid = richardson(fine, mid), richardson(mid, coarse)
            if abs(r_fine - r_mid) <= SETTLED * r_fine or m >= MAX_SAMPLES:
                break
            m *= 2
        path += romberg(fine, mid, coarse)
    return count, total, path


@njit(cache=True)
def _polylines_3d(lengths, base, before, after, start, m, cur, pos, world):
    """:func:`_polylines_2d` for a 3-D step (slerp of each joint's local rotation); the end
    effector starts at ``start``."""
    n = lengths.shape[0]
    px, py, pz = start[0], start[1], start[2]
    qx, qy, qz, rx, ry, rz = px, py, pz, px, py, pz
    fine, mid, coarse = 0.0, 0.0, 0.0
    for s in range(1, m + 1):
        _slerp_keys(before, after, s / m, cur)
        fk_3d(lengths, base, cur, pos, world)
        fine += math.sqrt(sq(pos[n, 0] - px) + sq(pos[n, 1] - py) + sq(pos[n, 2] - pz))
        px, py, pz = pos[n, 0], pos[n, 1], pos[n, 2]
        if s % 2 == 0:
            mid += math.sqrt(sq(px - qx) + sq(py - qy) + sq(pz - qz))
            qx, qy, qz = px, py, pz
        if s % 4 == 0:
            coarse += math.sqrt(sq(px - rx) + sq(py - ry) + sq(pz - rz))
            rx, ry, rz = px, py, pz
    return fine, mid, coarse


@njit(cache=True)
def _trace_3d(lengths, base, keys, step):
    n = lengths.shape[0]
    pos = np.empty((n + 1, 3))
    world = np.empty((n, 4))
    cur = np.empty((n, 4))
    counts = np.empty(keys.shape[0], np.int64)
    total = 1
    for k in range(1, keys.shape[0]):
        biggest = 0.0
        for j in range(n):
            a, b = keys[k - 1, j], keys[k, j]
            d0, d1, d2, d3 = qmul(b[0], b[1], b[2], b[3], a[0], -a[1], -a[2], -a[3])
            biggest = max(biggest, q_angle(d0, d1, d2, d3))
        counts[k] = max(1, int(math.ceil(biggest / step)))
        total += counts[k]
    out = np.empty((total, 3))
    fk_3d(lengths, base, keys[0], pos, world)
    out[0, 0], out[0, 1], out[0, 2] = pos[n, 0], pos[n, 1], pos[n, 2]
    r = 1
    for k in range(1, keys.shape[0]):
        m = counts[k]
        for s in range(1, m + 1):
            _slerp_keys(keys[k - 1], keys[k], s / m, cur)
            fk_3d(lengths, base, cur, pos, world)
            out[r, 0], out[r, 1], out[r, 2] = pos[n, 0], pos[n, 1], pos[n, 2]
            r += 1
    return out
