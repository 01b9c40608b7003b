"""The compiled replay of a :class:`geoik.Motion`: its costs (rotations over 5 degrees, the sum
of the rotation magnitudes, the end effector's path length), its traces and its step rotations,
in 2-D and 3-D (see :mod:`geoik.motion` for how a motion is played between keyframes)."""

from __future__ import annotations

import math

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
    sq,
    total_length,
)
from geoik.jit import slow_to_compile
from geoik.motion.arcs import MAX_ORDER, MAX_SPLITS, RESYNC, _directions, _step_path_2d

# Rotation counted by the "rotations over 5 degrees" cost: strictly above 5 degrees.
FIVE_DEG = math.radians(5.0)
# A joint whose rotation in a step is at most this (radians) did not move in that step.
STILL = 1e-12
# How a 3-D multi-joint step's path is integrated: polylines through 1 in 1, 1 in 2 and 1 in 4
# samples, extrapolated by :func:`romberg`. The samples start so that no joint turns more than
# SAMPLE_STEP between two, and are doubled (up to MAX_SAMPLES) until the two Richardson
# estimates agree to SETTLED, relative, or to SETTLED_SIZE times the chain's size: a step that
# hardly moves the end effector (joints turning about axes through it) has a path of rounding
# noise, which no relative bound settles. A step whose joint turns nearly cancel at the end
# effector needs many more samples than a smooth one. Measured against Gauss-Legendre
# integration of the end effector's speed, the relative error of a solve's path length is below
# about 1e-7 (typically 1e-10).
SAMPLE_STEP = math.radians(0.25)
SETTLED = 1e-8
SETTLED_SIZE = 1e-10
MAX_SAMPLES = 1 << 16


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


@njit(cache=True, inline="always")
def path_settled(r_fine, r_mid, size):
    """Whether a step's two Richardson estimates of its path length (``r_fine`` and ``r_mid``)
    agree: to :data:`SETTLED` relative, or to :data:`SETTLED_SIZE` times ``size`` (the chain's
    or robot's size, metres)."""
    return abs(r_fine - r_mid) <= SETTLED * r_fine + SETTLED_SIZE * size


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


@slow_to_compile  # seconds; a call as Python takes milliseconds
@njit(cache=True)
def costs_2d(lengths, base, keys, nkeys):
    """Costs of a 2-D motion given by its first ``nkeys`` keyframes.

    Returns (number of joint rotations above 5 degrees, sum of rotation magnitudes in radians,
    end-effector path length). The links' directions are taken from the angles of a keyframe
    (cos and sin of each link's absolute angle) and then carried from step to step: a one-joint
    step is the exact arc about its joint (its radius the length of the links beyond the joint,
    summed along their directions), after which the directions beyond the joint are turned by
    the step's angle (one cos and sin); a step in which several joints turn is integrated by
    :func:`_step_path_2d`, which turns every direction to the keyframe after it. The directions
    are taken afresh from the angles every ``RESYNC`` steps, so rounding cannot build up.
    """
    n = lengths.shape[0]
    turns = np.empty((n, 2))  # per link: its direction (cos, sin)
    scratch = np.empty((n, 6))  # a multi-joint step's link turns, directions and powers
    coef = np.empty((MAX_ORDER, 2))
    stack = np.empty((MAX_SPLITS + 2, 2))
    carried = 0  # steps the directions in turns were carried through (0: taken afresh)
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
        if carried == 0:
            _directions(keys[k - 1], turns)
        carried = carried + 1 if carried + 1 < RESYNC else 0
        if moved == 1:
            ex, ey = 0.0, 0.0
            for i in range(j_moved, n):
                ex += lengths[i] * turns[i, 0]
                ey += lengths[i] * turns[i, 1]
            path += biggest * math.sqrt(ex * ex + ey * ey)
            step = keys[k, j_moved] - keys[k - 1, j_moved]
            c, s = math.cos(step), math.sin(step)
            for i in range(j_moved, n):
                x, y = turns[i, 0], turns[i, 1]
                turns[i, 0] = x * c - y * s
                turns[i, 1] = x * s + y * c
            continue
        path += _step_path_2d(lengths, keys, k, turns, scratch, coef, stack)
    return count, total, path


@slow_to_compile(seconds=1.0)  # compiled at once where the Python would take longer
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


@slow_to_compile  # seconds; a call as Python takes milliseconds
@njit(cache=True)
def costs_3d(lengths, base, keys, nkeys):
    """Costs of a 3-D motion; see :func:`costs_2d` (the chain's size, which the path's
    accuracy is measured against, is the sum of ``lengths``)."""
    n = lengths.shape[0]
    size = total_length(lengths)
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
            if path_settled(r_fine, r_mid, size) or m >= MAX_SAMPLES:
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


@slow_to_compile(seconds=2.0)  # compiled at once where the Python would take longer
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
