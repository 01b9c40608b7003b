"""Circular Alignment Algorithm (CAA).

Seed 004, Section 3, eqs. (3)-(8) (reconstructed in the seeds README): every joint of the chain is
placed on one circle through the base and the target. With ``n`` equal links of length ``a``, each
link is a chord subtending the segment angle ``theta`` (eq. 3, ``a = 2 r sin(theta/2)``), the
base-to-tip chord is ``d = a sin(n theta/2) / sin(theta/2)`` (eq. 4), and Newton-Raphson (eq. 7)
solves

.. math:: f(\\theta) = d \\sin(\\theta/2) - a \\sin(n\\theta/2) = 0, \\qquad
          f'(\\theta) = \\tfrac{d}{2}\\cos(\\theta/2) - \\tfrac{a n}{2}\\cos(n\\theta/2)

(eqs. 5-6) from ``theta_0 = 2 pi / n`` (eq. 8, the chain curled up, ``d = 0``). All relative
angles then equal ``theta`` (the turn between consecutive chords of a circle is the angle they
subtend), and since the joints follow each other round one circle, covering at most a full turn,
the chain never crosses itself.

Unequal links (the paper's future work)
---------------------------------------
Link ``i`` subtends ``theta_i = 2 asin(L_i / 2r)`` on a circle of radius ``r``, and the chain spans
the central angle ``Phi = sum theta_i``. The base-to-tip chord spans ``Phi`` too, so ``r`` solves
``sum 2 asin(L_i / 2r) = 2 asin(d / 2r)`` while ``Phi <= pi`` (minor arc) and
``= 2 pi - 2 asin(d / 2r)`` beyond (major arc); both read ``d = 2 r sin(Phi / 2)``. The unknown is
parametrised by the angle ``theta`` subtended by the longest link ``L_m``: ``r = L_m / (2 sin
(theta/2))``, ``theta_i = 2 asin(rho_i sin(theta/2))`` with ``rho_i = L_i / L_m``, and

.. math:: f(\\theta) = d \\sin(\\theta/2) - L_m \\sin(\\Phi(\\theta)/2), \\qquad
          \\Phi'(\\theta) = 1 + \\sum_{i \\ne m} \\frac{\\rho_i \\cos(\\theta/2)}
          {\\sqrt{1 - \\rho_i^2 \\sin^2(\\theta/2)}},

which for equal links is the paper's equation exactly. For ``theta`` in ``(0, pi]`` every link
takes its minor arc; past ``pi`` the longest link takes its major arc (``r`` grows again), which
reaches the targets that need a long link folded back against shorter ones. The iteration starts
from the curled chain, ``theta_end`` = the smallest ``theta`` with ``Phi = 2 pi`` (``2 pi / n`` for
equal links), or ``theta_end = 2 pi`` (the longest link folded back on the others, chord
``L_m - sum others``) when ``Phi`` never reaches ``2 pi``. Newton steps are safeguarded: the root
stays bracketed in ``[0, theta_end]`` by the sign of ``chord - d``, and a step leaving the bracket
is replaced by bisection. The turn at joint ``i >= 1`` is ``(theta_{i-1} + theta_i) / 2``.

Choices
-------
* Iterations are Newton (or bisection) steps, one keyframe each (all joints move together). The
  run stops when the chord is within ``tol`` of ``d`` (the end effector within ``tol`` of the
  target, since the chord is aimed at it). A start pose already within ``tol`` costs 0 iterations.
* A target beyond the chain's length: the straight chain towards it, one step, CLOSEST. A target
  closer than the curled chain's chord (at the base, or within the minimum reach): the curled
  chain pointing at it (along +x at the base), one step.
* The arc bulges towards the side of the base-to-target line where the current end effector is
  (counter-clockwise turning when it is on the right or on the line). In 3-D the arc lies in the
  plane through the base, the target and the current end effector (if they are collinear: the
  current first link, then +x, +z, +y); when the chain has hinges, all of which must be parallel,
  the plane is the one through the base normal to their axis, and the target is projected on it.
* Limits: the pose must meet every joint limit at every step. If the preferred side breaks one,
  the other side is tried; if both do, the kernel keeps the start pose and reports the joint
  whose limit it cannot meet (``nrec = -1 - joint``, see :class:`geoik.solvers.Solver`):
  :func:`geoik.solve` raises :class:`LimitError` naming it, the batch engine records a
  failure (STALLED after 0 iterations).
"""

from __future__ import annotations

import math

import numpy as np
from numba import njit

from geoik.geometry import (
    REACHED,
    STALLED,
    constrain_joint_3d,
    copy_into,
    fk_2d,
    fk_3d,
    is_hinge,
    q_angle,
    qmul,
    quats_from_positions_3d,
    sq,
)
from geoik.jit import call
from geoik.solvers.base import Solver
from geoik.solvers.caa.arc import (
    TWO_PI,
    arc_angles,
    arc_side,
    newton_thetas,
    theta_end,
)

__all__ = ["SOLVER"]


@njit(cache=True)
def _fits_2d(angles, lo, hi, first):
    for i in range(first, angles.shape[0]):
        if angles[i] < lo[i] or angles[i] > hi[i]:
            return i
    return -1


@njit(cache=True)
def _cap_2d(lengths, lo, hi, side, buf):
    """Largest theta whose turns (joints 1..) fit the limits, assuming they fit near 0."""
    a, b = 0.0, TWO_PI
    arc_angles(lengths, b, side, 0.0, buf)
    if _fits_2d(buf, lo, hi, np.int64(1)) < 0:
        return b
    for _ in range(60):
        mid = 0.5 * (a + b)
        arc_angles(lengths, mid, side, 0.0, buf)
        if _fits_2d(buf, lo, hi, np.int64(1)) < 0:
            a = mid
        else:
            b = mid
    return a


@njit(cache=True)
def caa_2d(model, target, angles, tol, max_iter, pre, rec):
    """The 2-D kernel; ``nrec = -1 - j`` when joint ``j``'s limits forbid the arc on either side.

    ``pre`` (the kernel's ``opts``) holds the chain's constants from :func:`prepare` (theta at
    which the chain curls shut, and the limits' caps on theta for arcs on either side)."""
    lengths, base, lo, hi = model
    n = lengths.shape[0]
    pos = np.empty((n + 1, 2))
    fk_2d(lengths, base, angles, pos)
    if sq(pos[n, 0] - target[0]) + sq(pos[n, 1] - target[1]) <= tol * tol:
        return REACHED, 0, 1
    dx, dy = target[0] - base[0], target[1] - base[1]
    d = math.sqrt(dx * dx + dy * dy)
    alpha = math.atan2(dy, dx) if d > 0.0 else 0.0
    ths = np.empty(max(max_iter, 1))
    side = arc_side(base, target, pos[n])
    status, count = REACHED, 0
    trial = np.empty(n)
    broken = -1
    end = pre[0] if pre.shape[0] >= 3 else -1.0
    for _attempt in range(2):
        if pre.shape[0] >= 3:
            cap = pre[1] if side > 0.0 else pre[2]
        else:
            cap = _cap_2d(lengths, lo, hi, side, trial)
        status, count = newton_thetas(lengths, d, tol, max_iter, cap, end, ths)
        broken = 1 if count < 0 else -1
        for k in range(max(count, 0)):
            arc_angles(lengths, ths[k], side, alpha, trial)
            j = _fits_2d(trial, lo, hi, np.int64(0))
            if j >= 0:
                broken = j
                break
        if broken < 0:
            break
        side = -side
    if broken >= 0:
        return STALLED, 0, -1 - broken
    for k in range(count):
        arc_angles(lengths, ths[k], side, alpha, angles)
        if k + 1 < rec.shape[0]:
            copy_into(rec[k + 1, :], angles)
    return status, count, min(count + 1, rec.shape[0])


@njit(cache=True)
def _dot(a, b):
    return a[0] * b[0] + a[1] * b[1] + a[2] * b[2]


@njit(cache=True)
def _cross(a, b):
    return np.array(
        [a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]]
    )


@njit(cache=True)
def _plane(base, target, pos, hinge):
    """Orthonormal (u, v, normal) of the arc's plane; u along the (projected) target."""
    w = target - base
    n = hinge.shape[0]
    normal = np.zeros(3)
    for j in range(n):
        if is_hinge(hinge, j):
            copy_into(normal, hinge[j])
            break
    cands = np.empty((5, 3))
    copy_into(cands[0], w)
    copy_into(cands[1], pos[n] - base)
    copy_into(cands[2], pos[1] - base)
    for k in range(3):  # +x and +z, element by element (see tests/test_jit.py)
        cands[3, k] = 1.0 if k == 0 else 0.0
        cands[4, k] = 1.0 if k == 2 else 0.0
    u = np.zeros(3)
    if normal[0] != 0.0 or normal[1] != 0.0 or normal[2] != 0.0:
        for k in (0, 3, 4):  # u: the target (or +x, +z) projected on the hinges' plane
            c = cands[k] - (_dot(cands[k], normal)) * normal
            nc = math.sqrt(_dot(c, c))
            if nc > 1e-12 * max(1.0, math.sqrt(_dot(cands[k], cands[k]))):
                u = c / nc
                break
        return u, _cross(normal, u), normal
    nw = math.sqrt(_dot(w, w))
    u = w / nw if nw > 0.0 else cands[3].copy()
    for k in range(1, 6):
        c = cands[k] if k < 5 else np.array([0.0, 1.0, 0.0])
        nrm = _cross(u, c)
        nn = math.sqrt(_dot(nrm, nrm))
        if nn > 1e-9 * max(1e-300, math.sqrt(_dot(c, c))):
            normal = nrm / nn
            break
    return u, _cross(normal, u), normal


@njit(cache=True)
def _fits_3d(quats, cone, hinge, lo, hi, first):
    for i in range(first, quats.shape[0]):
        q0, q1, q2, q3 = quats[i, 0], quats[i, 1], quats[i, 2], quats[i, 3]
        c = constrain_joint_3d(q0, q1, q2, q3, i, cone, hinge, lo, hi)
        if q_angle(*qmul(c[0], c[1], c[2], c[3], q0, -q1, -q2, -q3)) > 1e-10:
            return i
    return -1


@njit(cache=True)
def _arc_quats(lengths, base, th, side, arc, quats):
    """Local rotations ``quats`` (n, 4) of the arc pose (theta ``th``, on ``side``) in the plane
    through the base spanned by the unit vectors ``u`` and ``v`` (3,). ``arc`` is
    ``(u, v, flat, pos2, pos3)``, the plane and scratch for the planar angles (n,) and the
    planar (n + 1, 2) and spatial (n + 1, 3) positions."""
    u, v, flat, pos2, pos3 = arc
    arc_angles(lengths, th, side, 0.0, flat)
    fk_2d(lengths, np.zeros(2), flat, pos2)
    for k in range(lengths.shape[0] + 1):
        copy_into(pos3[k], base + pos2[k, 0] * u + pos2[k, 1] * v)
    quats_from_positions_3d(pos3, quats)


@njit(cache=True)
def _cap_3d(model, side, arc, quats):
    """Largest theta whose joints 1.. fit the limits, assuming they fit near 0 (``model`` the
    chain's ``kernel_arrays``, ``arc`` and ``quats`` as :func:`_arc_quats` takes them)."""
    lengths, base, cone, hinge, lo, hi = model
    a, b = 0.0, TWO_PI
    _arc_quats(lengths, base, b, side, arc, quats)
    if _fits_3d(quats, cone, hinge, lo, hi, np.int64(1)) < 0:
        return b
    for _ in range(60):
        mid = 0.5 * (a + b)
        _arc_quats(lengths, base, mid, side, arc, quats)
        if _fits_3d(quats, cone, hinge, lo, hi, np.int64(1)) < 0:
            a = mid
        else:
            b = mid
    return a


@njit(cache=True)
def caa_3d(model, target, quats, tol, max_iter, pre, rec):
    """The 3-D kernel; ``nrec = -1 - j`` when joint ``j``'s limits forbid the arc on either side.
    ``pre`` (the kernel's ``opts``) holds the theta at which the chain curls shut."""
    lengths, base, cone, hinge, lo, hi = model
    n = lengths.shape[0]
    pos = np.empty((n + 1, 3))
    fk_3d(lengths, base, quats, pos, np.empty((n, 4)))
    err = pos[n] - target
    if _dot(err, err) <= tol * tol:
        return REACHED, 0, 1
    u, v, normal = _plane(base, target, pos, hinge)
    w = target - base
    d = _dot(w, u)
    if d < 0.0:  # target straight "behind" on the hinges' plane: aim the other way
        u, v, d = -u, -v, -d
    ths = np.empty(max(max_iter, 1))
    status, count = REACHED, 0
    here = np.array([_dot((pos[n] - base), u), _dot((pos[n] - base), v)])
    side = arc_side(np.zeros(2), np.array([d, 0.0]), here)
    flat = np.empty(n)
    pos2 = np.empty((n + 1, 2))
    pos3 = np.empty((n + 1, 3))
    trial = np.empty((n, 4))
    arc = (u, v, flat, pos2, pos3)
    broken = -1
    for _attempt in range(2):
        cap = _cap_3d(model, side, arc, trial)
        status, count = newton_thetas(
            lengths, d, tol, max_iter, cap, pre[0] if pre.shape[0] else -1.0, ths
        )
        broken = 1 if count < 0 else -1
        for k in range(max(count, 0)):
            _arc_quats(lengths, base, ths[k], side, arc, trial)
            j = _fits_3d(trial, cone, hinge, lo, hi, np.int64(0))
            if j >= 0:
                broken = j
                break
        if broken < 0:
            break
        side = -side
    if broken >= 0:
        return STALLED, 0, -1 - broken
    for k in range(count):
        _arc_quats(lengths, base, ths[k], side, arc, quats)
        if k + 1 < rec.shape[0]:
            copy_into(rec[k + 1, :, :], quats)
    return status, count, min(count + 1, rec.shape[0])


def prepare(chain, opts: np.ndarray) -> np.ndarray:
    """Per-chain constants the kernels would otherwise recompute for every target: the theta at
    which the chain curls shut and, in 2-D, the limits' caps on theta for either arc side."""
    m = int(np.argmax(chain.lengths))
    end = call(theta_end, chain.lengths, m)
    if chain.dim == 3:
        return np.array([end])
    buf = np.empty(chain.n)
    caps = [call(_cap_2d, chain.lengths, chain.lo, chain.hi, s, buf) for s in (1.0, -1.0)]
    return np.array([end, *caps])


SOLVER = Solver(
    name="caa",
    summary="Circular Alignment: every joint on one circle through base and target, Newton "
    "on the segment angle (any link lengths)",
    source="Seed 004 (performance metric maps, Mukundan et al.), Section 3, eqs. 3-8; "
    "unequal links: radius of the circle through all joints",
    module=__name__,
    kernel_2d=caa_2d,
    kernel_3d=caa_3d,
    capacity=lambda n, max_iter: 2 + max_iter,
    general_note=(
        "a geoik.Chain: it lays every joint on one circular arc through the base and the target"
    ),
    default_max_iter=50,
    limit_note="it puts every joint on one circular arc, on either side of the line to the target",
    prepare=prepare,
)
