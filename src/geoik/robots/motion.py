"""A robot's recorded motion replayed: the costs of :mod:`geoik.costs` for general models.

Between two keyframes every joint value moves linearly (a robot's joints are driven that way),
so the tip's path is sampled by forward kinematics and its length extrapolated as for chains
(:func:`geoik.motion.romberg`). Rotations are the revolute and continuous joints' turns;
prismatic joints slide and count towards no rotation, only towards the tip's path.
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np
from numba import njit

from geoik.checks import check_memory
from geoik.geometry import copy_into, sq
from geoik.jit import call, slow_to_compile
from geoik.kinematics import fk_robot, slides
from geoik.motion import Motion, trace_samples, trace_step
from geoik.motion.replay import (
    FIVE_DEG,
    MAX_SAMPLES,
    SAMPLE_STEP,
    STILL,
    path_settled,
    richardson,
    romberg,
    samples,
)

__all__ = ["RobotMotion", "costs_robot", "trace_robot"]

SAMPLE_WORK = 5.0
"""Work (:mod:`geoik.jit`) of one sample of a robot's motion per joint: its forward kinematics
take about 20 µs a joint as plain Python. A trace's work is its samples (:func:`trace_robot`,
as many as its step sets) times the joints times this; the costs' (:func:`costs_robot`) their
first samples (``samples`` of each step's largest move) times the joints times this, which
measured 4-5 units a sample and joint on the UR3, the Panda and the Z1, refinements included."""


@njit(cache=True)
def _step_size(kinds, a, b, size):
    """The largest joint move of a step, prismatic travel counted as an angle (over ``size``)."""
    biggest = 0.0
    for j in range(a.shape[0]):
        d = abs(b[j] - a[j])
        biggest = max(biggest, d / size if slides(kinds[j]) else d)
    return biggest


@njit(cache=True)
def _tip_at(model, a, b, t, q, frames):
    """Forward kinematics of the joint values ``q`` (m,) set a fraction ``t`` of the way from
    keyframe ``a`` to keyframe ``b`` (each (m,)); ``frames`` is ``(rot, pos, origins, axes,
    trot, tpos)`` as :func:`geoik.kinematics.fk_robot` writes them."""
    for j in range(q.shape[0]):
        q[j] = a[j] + t * (b[j] - a[j])
    rot, pos, origins, axes, trot, tpos = frames
    fk_robot(model, q, rot, pos, origins, axes, trot, tpos)


@slow_to_compile(seconds=2.0)  # compiled at once where the Python would take longer
@njit(cache=True)
def costs_robot(model, size, keys, nkeys):
    """(rotations over 5 degrees, sum of rotations in radians, path length of the first tip) of
    a robot's motion given by its first ``nkeys`` keyframes (``size``: the robot's size)."""
    kinds = model[1]
    m = keys.shape[1]
    k = model[7].shape[0]
    q = np.empty(m)
    rot, pos = np.empty((m, 3, 3)), np.empty((m, 3))
    origins, axes = np.empty((m, 3)), np.empty((m, 3))
    trot, tpos = np.empty((k, 3, 3)), np.empty((k, 3))
    frames = (rot, pos, origins, axes, trot, tpos)
    count, total, path = 0, 0.0, 0.0
    for s in range(1, nkeys):
        a, b = keys[s - 1], keys[s]
        for j in range(m):
            d = abs(b[j] - a[j])
            if not slides(kinds[j]) and d > STILL:
                total += d
                if d > FIVE_DEG:
                    count += 1
        biggest = _step_size(kinds, a, b, size)
        if biggest <= STILL:
            continue
        n = samples(biggest)
        n += n % 4
        while True:
            fine, mid, coarse = 0.0, 0.0, 0.0
            _tip_at(model, a, b, 0.0, q, frames)
            px, py, pz = tpos[0, 0], tpos[0, 1], tpos[0, 2]
            qx, qy, qz, rx, ry, rz = px, py, pz, px, py, pz
            for i in range(1, n + 1):
                _tip_at(model, a, b, i / n, q, frames)
                x, y, z = tpos[0, 0], tpos[0, 1], tpos[0, 2]
                fine += math.sqrt(sq(x - px) + sq(y - py) + sq(z - pz))
                px, py, pz = x, y, z
                if i % 2 == 0:
                    mid += math.sqrt(sq(x - qx) + sq(y - qy) + sq(z - qz))
                    qx, qy, qz = x, y, z
                if i % 4 == 0:
                    coarse += math.sqrt(sq(x - rx) + sq(y - ry) + sq(z - rz))
                    rx, ry, rz = x, y, z
            r_fine, r_mid = richardson(fine, mid), richardson(mid, coarse)
            if path_settled(r_fine, r_mid, size) or n >= MAX_SAMPLES:
                break
            n *= 2
        path += romberg(fine, mid, coarse)
    return count, total, path


@slow_to_compile(seconds=2.0)  # compiled at once where the Python would take longer
@njit(cache=True)
def trace_robot(model, size, keys, step):
    """(S, 3) path of the first tip while the keyframes are played, each step sampled so that
    no joint moves more than ``step`` radians (prismatic: ``step * size``) between samples."""
    kinds = model[1]
    m = keys.shape[1]
    k = model[7].shape[0]
    q = np.empty(m)
    rot, pos = np.empty((m, 3, 3)), np.empty((m, 3))
    origins, axes = np.empty((m, 3)), np.empty((m, 3))
    trot, tpos = np.empty((k, 3, 3)), np.empty((k, 3))
    frames = (rot, pos, origins, axes, trot, tpos)
    counts = np.empty(keys.shape[0], np.int64)
    total = 1
    for s in range(1, keys.shape[0]):
        counts[s] = max(1, int(math.ceil(_step_size(kinds, keys[s - 1], keys[s], size) / step)))
        total += counts[s]
    out = np.empty((total, 3))
    _tip_at(model, keys[0], keys[0], 0.0, q, frames)
    copy_into(out[0], tpos[0])  # not out[0] = tpos[0]: see copy_into
    r = 1
    for s in range(1, keys.shape[0]):
        for i in range(1, counts[s] + 1):
            _tip_at(model, keys[s - 1], keys[s], i / counts[s], q, frames)
            copy_into(out[r], tpos[0])
            r += 1
    return out


class RobotMotion(Motion):
    """A robot's recorded motion: ``keys`` (S + 1, m) joint values (radians; metres for
    prismatic joints) in the order of ``robot.joint_names``, each moving linearly between
    keyframes."""

    @property
    def angles(self) -> np.ndarray:
        """(S + 1, m) joint values."""
        return self.keys.copy()

    def rotations(self) -> np.ndarray:
        """(S, m) magnitude in radians of each joint's rotation in each step (prismatic: 0)."""
        robot: Any = self.chain
        turns = np.abs(np.diff(self.keys, axis=0))
        turns[:, robot.slides] = 0.0
        return turns

    def poses(self) -> np.ndarray:
        """(S + 1, m + 2, 3) joint positions at every keyframe, as
        :meth:`geoik.Robot.joint_positions`."""
        robot: Any = self.chain
        return np.array([robot.joint_positions(key) for key in self.keys])

    def trace(self, max_step_deg: float = 1.0) -> np.ndarray:
        """The tip's path as the motion is played: an (m, 3) polyline, no joint moving more than
        ``max_step_deg`` (degrees, above 0; prismatic: that angle times the robot's size)
        between samples."""
        robot: Any = self.chain
        step = trace_step(max_step_deg)
        model, size = robot.kernel_arrays, robot.total_length
        count = trace_samples(self._moves(), step)
        check_memory(count * 3 * 8.0, f"a trace of {count:.4g} samples", "max_step_deg")
        work = int(count * self.keys.shape[1] * SAMPLE_WORK)
        return call(trace_robot, model, size, self.keys, step, work=work)

    def measure(self) -> tuple[int, float, float]:
        """``(rotations, rotation_sum, path_length)`` of the recorded motion: turns of revolute
        joints over 5 degrees, the sum of their turns (radians) and the tip's path (metres)."""
        robot: Any = self.chain
        model, size = robot.kernel_arrays, robot.total_length
        moves = self._moves()
        moves = moves[moves > STILL]
        first = 2.0 * np.maximum(1.0, np.ceil(moves / (2.0 * SAMPLE_STEP)))  # as samples()
        work = int(float(first.sum()) * self.keys.shape[1] * SAMPLE_WORK)
        return call(costs_robot, model, size, self.keys, self.keys.shape[0], work=work)

    def _moves(self) -> np.ndarray:
        """(S,) each step's largest joint move, prismatic travel counted as an angle (over the
        robot's size), as the replay kernels take it (by NumPy)."""
        robot: Any = self.chain
        if self.keys.shape[0] < 2:
            return np.zeros(0)
        moves = np.abs(np.diff(self.keys, axis=0))
        moves[:, robot.slides] /= robot.total_length
        return moves.max(axis=1, initial=0.0)
