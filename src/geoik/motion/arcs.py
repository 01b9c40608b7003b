"""The length of a planar multi-joint step's path, integrated: the end effector's velocity as
a sum of uniform circular motions, expanded in Taylor series over pieces of the step, its length
integrated by adaptive Gauss-Kronrod quadrature (used by :func:`geoik.motion.replay.costs_2d`)."""

from __future__ import annotations

import math

import numpy as np
from numba import njit

from geoik.geometry import sq

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


# compiled on its own rather than inlined into costs_2d: compiling that takes 1.5 s rather than
# 1.8 s, and a step's quadrature dwarfs the call (400 eight-joint steps: 143 us either way)
@njit(cache=True)
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
    widest, bound = _link_turns(lengths, keys, key, turns, scratch)
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
        _piece_coefficients(lengths, scratch, order, coef)
        length += _gauss_kronrod(coef, order, bound / pieces, stack)
    for j in range(n):
        x, y = scratch[j, 1], scratch[j, 2]
        f = 1.5 - 0.5 * (x * x + y * y)  # |(x, y)| is 1 to rounding: one Newton step for
        turns[j, 0], turns[j, 1] = x * f, y * f  # 1 / |(x, y)| keeps it so over many steps
    return length


@njit(cache=True, inline="always")
def _link_turns(lengths, keys, key, turns, scratch):
    """Fill ``scratch`` (n, 6) with each link's turn over the step from keyframe ``key - 1`` to
    ``key`` of ``keys`` (the sum of the joints' turns up to it, radians) and its direction at
    the step's start (from ``turns`` (n, 2)); returns the largest turn (radians) and ``sum_i l_i
    |w_i|`` (metres per unit of step time)."""
    dphi, widest, bound = 0.0, 0.0, 0.0
    for j in range(lengths.shape[0]):
        dphi += keys[key, j] - keys[key - 1, j]
        scratch[j, 0] = dphi
        widest = max(widest, abs(dphi))
        bound += lengths[j] * abs(dphi)
        scratch[j, 1], scratch[j, 2] = turns[j, 0], turns[j, 1]
    return widest, bound


@njit(cache=True, inline="always")
def _piece_coefficients(lengths, scratch, order, coef):
    """The first ``order`` complex coefficients of the end effector's velocity's Taylor
    polynomial about the middle of one piece of a step, into ``coef`` (MAX_ORDER, 2), from
    ``scratch`` (n, 6) (the links' turns over a piece in column 0, their directions at the
    piece's start in 1-2, which are moved on to the piece's end; 3-5 are work columns)."""
    n = lengths.shape[0]
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
