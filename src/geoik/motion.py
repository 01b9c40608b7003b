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
# How a 3-D multi-joint step's path is integrated: polylines through 1 in 1, 1 in 2 and 1 in 4
# samples, extrapolated by :func:`romberg`. The samples start so that no joint turns more than
# SAMPLE_STEP between two, and are doubled (up to MAX_SAMPLES) until the two Richardson
# estimates agree to SETTLED, relative; a step whose joint turns nearly cancel at the end
# effector needs many more than a smooth one. Measured against Gauss-Legendre integration of the
# end effector's speed, the relative error of a solve's path length is below about 1e-7
# (typically 1e-10).
SAMPLE_STEP = math.radians(0.25)
SAMPLE_STEP_2D = math.radians(1.0)
SETTLED = 1e-8
MAX_SAMPLES = 1 << 16
# How a planar multi-joint step's path is integrated (see _step_path_2d): the end effector's
# velocity is a sum of uniform circular motions, expanded in Taylor series over pieces of the
# step in which no link turns more than PIECE radians, to the order whose remainder bound is at
# most TAYLOR of the links' arcs; the length of that polynomial velocity is integrated by
# adaptive Gauss-Kronrod (7-15 points), each interval until the two rules agree to QUADRATURE of
# the links' arcs. Both errors are bounded by those fractions of the step's upper bound
# sum(l_i |turn of link i|), which the path itself nears unless the links' turns cancel at the
# end effector, so a solve's path length is within about 1e-10 of the true one, relative.
PIECE = 1.0
TAYLOR = 1e-11
QUADRATURE = 1e-10
MAX_ORDER = 24
MAX_SPLITS = 60
RESYNC = 256  # steps between fresh directions in costs_2d
_INVFACT = np.array([1.0 / math.factorial(k) for k in range(MAX_ORDER)])  # 1 / k!
# the Taylor order K of a piece is the least for which (W / 2P)^K / K! <= TAYLOR, that is
# W / 2P <= (TAYLOR K!)^(1/K) = _ORDER_STEP[K]
_ORDER_STEP = np.array(
    [0.0] + [(TAYLOR * math.factorial(k)) ** (1 / k) for k in range(1, MAX_ORDER)]
)
_COS_STEP = np.array([0.0, 0.0] + [1.0 / (k * (k - 1)) for k in range(2, 17)])  # at k: 1/(k(k-1))
_SIN_STEP = np.array([0.0] + [1.0 / (k * (k + 1)) for k in range(1, 17)])  # at k: 1/(k(k+1))
_GK_NODES = np.array(
    [
        0.991455371120812639206854697526329,
        0.949107912342758524526189684047851,
        0.864864423359769072789712788640926,
        0.741531185599394439863864773280788,
        0.586087235467691130294144845693013,
        0.405845151377397166906606412076961,
        0.207784955007898467600689403773245,
        0.000000000000000000000000000000000,
    ]
)
_GK_WEIGHTS = np.array(
    [
        0.022935322010529224963732008058970,
        0.063092092629978553290700663189204,
        0.104790010322250183839876322541518,
        0.140653259715525918745189590510238,
        0.169004726639267902826583426598550,
        0.190350578064785409913256402421014,
        0.204432940075298892414161999234649,
        0.209482141084727828012999174891714,
    ]
)
_G7_WEIGHTS = np.array(  # at the Kronrod nodes 1, 3, 5 and 7 (the last: 0)
    [
        0.129484966168869693270611432679082,
        0.279705391489276667901467771423780,
        0.381830050505118944950369775488975,
        0.417959183673469387755102040816327,
    ]
)

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
        :class:`geoik.robots.motion.RobotMotion`.
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
    keys = _as_recorded(keys)
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


def _as_recorded(keys: np.ndarray) -> np.ndarray:
    """``keys`` typed as the batch engines pass their keyframes to the cost functions (writable,
    C-contiguous), so that one compiled cost function serves both: a writable view of the read-only
    keys where NumPy allows it (their buffer is writable), else a copy. Nothing writes to it."""
    if keys.flags.writeable and keys.flags.c_contiguous:
        return keys
    view = keys.view()
    try:
        view.setflags(write=True)
    except ValueError:
        return np.array(keys, order="C")
    return view if view.flags.c_contiguous else np.array(keys, order="C")


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


@njit(cache=True)
def _directions(angles, turns):
    """Each link's direction (cos, sin of its absolute angle) from the relative ``angles``, as
    :func:`geoik.geometry.fk_2d` sums them."""
    a = 0.0
    for i in range(angles.shape[0]):
        a += angles[i]
        turns[i, 0], turns[i, 1] = math.cos(a), math.sin(a)


@njit(cache=True, inline="always")
def _turn(x):
    """(cos x, sin x) for |x| <= PIECE / 2 by their Taylor series, to rounding: up to the power
    ``2m`` for which ``|x|^(2m + 2) / (2m + 2)!`` is below 1e-17 (powers 10 to 16)."""
    x2 = x * x
    top = 10 if x2 < 0.01 else (12 if x2 < 0.04 else (14 if x2 < 0.09 else 16))
    c, s = 1.0, 1.0
    for k in range(top, 0, -2):  # Horner in x^2: c_k = 1 - x^2 c_{k+2} / (k (k - 1)), likewise s
        c = 1.0 - (x2 * _COS_STEP[k]) * c
        s = 1.0 - (x2 * _SIN_STEP[k]) * s
    return c, x * s


@njit(cache=True, inline="always")  # inlined: a call would count references to seven arrays
def _step_path_2d(lengths, keys, key, turns, scratch, coef, stack):
    """Length of the end effector's path in a planar step in which several joints turn, each
    relative angle linearly from keyframe ``key - 1`` to keyframe ``key``; ``turns`` holds the
    links' directions at the first and is turned to their directions at the second.

    Link i's angle turns by ``w_i`` (the sum of the joints' turns up to i), so the end
    effector's velocity is ``v(t) = sum_i l_i w_i i u_i exp(i w_i t)`` (complex numbers, t in
    [0, 1], ``u_i`` the link's direction). The step is cut into P pieces in which no link turns
    more than PIECE; over a piece ``exp(i w s)`` is replaced by its Taylor polynomial of order K
    about the piece's middle, whose remainder is at most ``|w (s - 1/2)|^K / K!``, so the
    polynomial velocity differs from the true one by at most ``sum_i l_i |w_i| (W / 2P)^K / K!``
    (``W`` the largest ``|w_i|``), kept below
    TAYLOR times ``sum_i l_i |w_i|``, which bounds the path. Its length is integrated by adaptive
    Gauss-Kronrod (7-15) on the piece, each interval accepted when the two rules agree within
    QUADRATURE times the same bound (scaled to the interval). The directions are turned from
    piece to piece by :func:`_turn`: no trigonometry."""
    n = lengths.shape[0]
    dphi, widest, bound = 0.0, 0.0, 0.0
    for j in range(n):  # scratch: each link's turn and its direction at the step's start
        dphi += keys[key, j] - keys[key - 1, j]
        scratch[j, 0] = dphi
        widest = max(widest, abs(dphi))
        bound += lengths[j] * abs(dphi)
        scratch[j, 1], scratch[j, 2] = turns[j, 0], turns[j, 1]
    if bound == 0.0:
        return 0.0
    pieces = max(1, int(math.ceil(widest / PIECE)))
    step = 0.5 * widest  # the largest turn from a piece's middle to either end
    if pieces > 1:  # (nearly every step is one piece: no divisions then)
        step /= pieces
        for j in range(n):  # from here on each link's turn in one piece
            scratch[j, 0] /= pieces
    order = 1
    while order < MAX_ORDER and step > _ORDER_STEP[order]:  # until (W / 2P)^K / K! <= TAYLOR
        order += 1
    length = 0.0
    for _ in range(pieces):
        # coefficients of the velocity's Taylor polynomial about the piece's middle (s - 1/2
        # in [-1/2, 1/2]): link j contributes l om i u exp(i om s) = sum_k l om^(k+1) i^(k+1)
        # u s^k / k!, so c_k = i^(k+1) S_k / k! with S_k = sum_j l_j om_j^(k+1) u_j, a real
        # weighting of the links' directions (summed in two halves, two chains of additions)
        for j in range(n):
            om = scratch[j, 0]
            c, sn = _turn(0.5 * om)  # the link's direction at the middle, then at the end
            ux = scratch[j, 1] * c - scratch[j, 2] * sn
            uy = scratch[j, 1] * sn + scratch[j, 2] * c
            scratch[j, 1], scratch[j, 2] = ux * c - uy * sn, ux * sn + uy * c
            scratch[j, 3], scratch[j, 4], scratch[j, 5] = ux, uy, lengths[j] * om
        for k in range(order):
            ax, ay, bx, by = 0.0, 0.0, 0.0, 0.0
            for j in range(0, n - 1, 2):
                p, q = scratch[j, 5], scratch[j + 1, 5]
                ax += p * scratch[j, 3]
                ay += p * scratch[j, 4]
                bx += q * scratch[j + 1, 3]
                by += q * scratch[j + 1, 4]
                scratch[j, 5], scratch[j + 1, 5] = p * scratch[j, 0], q * scratch[j + 1, 0]
            if n % 2 == 1:
                p = scratch[n - 1, 5]
                ax += p * scratch[n - 1, 3]
                ay += p * scratch[n - 1, 4]
                scratch[n - 1, 5] = p * scratch[n - 1, 0]
            sx, sy = (ax + bx) * _INVFACT[k], (ay + by) * _INVFACT[k]
            r = k % 4  # i^(k+1): i, -1, -i, 1
            if r == 0:
                coef[k, 0], coef[k, 1] = -sy, sx
            elif r == 1:
                coef[k, 0], coef[k, 1] = -sx, -sy
            elif r == 2:
                coef[k, 0], coef[k, 1] = sy, -sx
            else:
                coef[k, 0], coef[k, 1] = sx, sy
        length += _gauss_kronrod(coef, order, bound / pieces, stack)
    for j in range(n):
        x, y = scratch[j, 1], scratch[j, 2]
        f = 1.5 - 0.5 * (x * x + y * y)  # |(x, y)| is 1 to rounding: one Newton step for
        turns[j, 0], turns[j, 1] = x * f, y * f  # 1 / |(x, y)| keeps it so over many steps
    return length


@njit(cache=True, inline="always")
def _speed(coef, order, t):
    """|sum_{k < order} coef_k t^k| (complex coefficients, real t), by Horner's rule."""
    x, y = 0.0, 0.0
    for k in range(order - 1, -1, -1):
        x, y = x * t + coef[k, 0], y * t + coef[k, 1]
    return math.sqrt(x * x + y * y)


@njit(cache=True, inline="always")
def _speeds(coef, order, t):
    """:func:`_speed` at ``-t`` plus at ``t``: the even and odd parts of the polynomial, each by
    Horner's rule in ``t^2`` (one pass for both points)."""
    t2 = t * t
    ex, ey, ox, oy = 0.0, 0.0, 0.0, 0.0
    top = order - 1
    if top % 2 == 1:  # the highest power odd: start the odd part with it
        ox, oy = coef[top, 0], coef[top, 1]
        top -= 1
    for k in range(top, -1, -2):  # k even: c_k into the even part, c_{k-1} into the odd
        ex, ey = ex * t2 + coef[k, 0], ey * t2 + coef[k, 1]
        if k > 0:
            ox, oy = ox * t2 + coef[k - 1, 0], oy * t2 + coef[k - 1, 1]
    ox, oy = ox * t, oy * t
    return math.sqrt(sq(ex - ox) + sq(ey - oy)) + math.sqrt(sq(ex + ox) + sq(ey + oy))


@njit(cache=True, inline="always")
def _gauss_kronrod(coef, order, scale, stack):
    """Integral over [0, 1] of the polynomial speed, the polynomial in ``s - 1/2``, by adaptive
    Gauss-Kronrod: an interval is accepted when its 15-point and 7-point rules agree within
    QUADRATURE times ``scale`` times its width, otherwise halved (up to MAX_SPLITS halvings in
    all, after which the 15-point values stand). On the whole of [0, 1] the nodes pair up about
    the middle, where :func:`_speeds` takes each pair in one pass."""
    total = 0.0
    top = 0
    stack[0, 0], stack[0, 1] = -0.5, 0.5
    splits = 0
    while top >= 0:
        a, b = stack[top, 0], stack[top, 1]
        top -= 1
        half, mid = 0.5 * (b - a), 0.5 * (a + b)
        centre = _speed(coef, order, mid)
        kronrod = _GK_WEIGHTS[7] * centre
        gauss = _G7_WEIGHTS[3] * centre
        for i in range(7):
            x = half * _GK_NODES[i]
            if mid == 0.0:
                f = _speeds(coef, order, x)
            else:
                f = _speed(coef, order, mid - x) + _speed(coef, order, mid + x)
            kronrod += _GK_WEIGHTS[i] * f
            if i % 2 == 1:
                gauss += _G7_WEIGHTS[i // 2] * f
        kronrod *= half
        gauss *= half
        if abs(kronrod - gauss) <= QUADRATURE * scale * (b - a) or splits >= MAX_SPLITS:
            total += kronrod
        else:
            splits += 1
            top += 1
            stack[top, 0], stack[top, 1] = a, mid
            top += 1
            stack[top, 0], stack[top, 1] = mid, b
    return total


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
