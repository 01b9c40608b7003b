"""Planar CCD for K targets at once, in lanes: the one 2-D CCD kernel.

:func:`geoik.solvers.ccd.ccd_2d` (what :func:`geoik.solve` runs) calls :func:`ccd_2d_lanes` with
one lane; the batch engine calls it with blocks of targets. Lanes never interact, and every lane
runs the same sequence of floating-point operations whatever K is, so a target's result does not
depend on the lanes beside it.

The algorithm is seed 000 eqs. (1)-(2) / seed 002 Section II, as documented in
:mod:`geoik.solvers.ccd`. How it is computed:

- Per-lane state lives in arrays shaped (n, K) or (K,); the inner loops run over lanes with
  branch-free arithmetic (masked lanes select the unchanged value), so LLVM vectorises them.
- A free joint's rotation is the unit complex number ``(dot, cross) / |(dot, cross)|`` of the
  end-effector vector ``a = e - p_j`` and the target vector ``b = t - p_j``: no atan2/sin/cos.
  Its relative rotation is kept as a unit complex number and composed by complex multiplication;
  at the end of a sweep the link directions and joint positions are rebuilt from them (a forward
  pass). The update is skipped (``MOVED``) when ``|th| <= 1e-12``, tested as
  ``dot > 0 and |cross| <= 1e-12 dot`` (or a zero vector), which is ``tan|th| <= 1e-12``.
- A joint with limits is lane-uniform (limits belong to the chain), so it takes a path with the
  angle: ``th = atan2(cross, dot)``, clamped, then cos/sin.
- Angles are computed only where needed: for limited joints, for keyframes when recording
  (``rec.shape[1] > 1``; a free joint's angle then accumulates ``atan2(cross, dot)`` so that the
  keyframes are continuous, as :func:`geoik.motion.costs_2d` expects), and once per target at the
  end (``atan2`` of the relative rotation of each free joint that moved, in (-pi, pi]).
"""

from __future__ import annotations

import math

import numpy as np
from numba import njit

from geoik.geometry import CLOSEST, MAX_ITERATIONS, REACHED, STALLED, beyond_reach, clamp

MOVED = 1e-12
"""A joint update of at most this many radians is skipped."""

# rows of the per-lane work array
EX, EY, TX, TY, OX, OY, BEYOND, ACTIVE, MOVED_ANY, GO, CROSS, DOT, CX, CY = range(14)
_ROWS = 14


@njit(cache=True, error_model="numpy")
def ccd_2d_lanes(lengths, base, lo, hi, targets, angles, tol, max_iter, opts, rec, nrec, status,
                 iters, end, final):  # fmt: skip  # pragma: no cover - compiled
    """Solve K planar targets by CCD from K start poses, in lanes.

    Parameters
    ----------
    lengths, base, lo, hi : (n,), (2,), (n,), (n,) the chain (limits in radians, +-inf if free).
    targets : (K, 2) targets.
    angles : (K, n) start angles in radians; overwritten with the final angles.
    tol, max_iter, opts : as for every 2-D kernel (``opts`` is unused).
    rec : (K, cap, n) keyframes; ``rec[b, 0]`` is written by the caller; recorded only if cap > 1.
    nrec, status, iters : (K,) int64 outputs: keyframes used, kernel status, sweeps used.
    end : (K, 2) output: the end effector of the final pose.
    final : write the final angles into ``angles``; if False (and not recording) ``angles`` keeps
        the start poses, for callers that need only status, iterations and ``end``.
    """
    n = lengths.shape[0]
    k = targets.shape[0]
    work = np.zeros((6 * n + 2 + _ROWS, k))
    rc, rs, ang, dirty = work[:n], work[n : 2 * n], work[2 * n : 3 * n], work[3 * n : 4 * n]
    px, py, w = work[4 * n : 5 * n + 1], work[5 * n + 1 : 6 * n + 2], work[6 * n + 2 :]
    _start(lengths, base, targets, angles, rc, rs, ang, w, nrec)
    _place(lengths, base, rc, rs, px, py, w)
    alive = _check(0, tol, px, py, w, status, iters)
    recording = rec.shape[1] > 1
    ex, ey, tx, ty, active, moved = w[EX], w[EY], w[TX], w[TY], w[ACTIVE], w[MOVED_ANY]
    go, cross, dot = w[GO], w[CROSS], w[DOT]
    it = 1
    while it <= max_iter and alive > 0:
        moved[:] = 0.0
        for j in range(n - 1, -1, -1):
            free = lo[j] == -np.inf and hi[j] == np.inf
            if free:
                _turn_free(j, px, py, rc, rs, dirty, ex, ey, tx, ty, active, moved, go, cross,
                           dot)  # fmt: skip
            else:
                _turn_limited(j, lo[j], hi[j], px, py, rc, rs, ang, w)
            if recording:
                _record(j, free, ang, w, rec, nrec)
        _place(lengths, base, rc, rs, px, py, w)
        alive = _check(it, tol, px, py, w, status, iters)
        it += 1
    for b in range(k):
        if w[ACTIVE, b] != 0.0:
            status[b], iters[b] = MAX_ITERATIONS, max_iter
        end[b, 0], end[b, 1] = w[EX, b], w[EY, b]
        if not (final or recording):
            continue
        for j in range(n):
            a = ang[j, b]
            if not recording and dirty[j, b] != 0.0:
                a = math.atan2(rs[j, b], rc[j, b])
            angles[b, j] = a


@njit(cache=True, error_model="numpy")
def _start(lengths, base, targets, angles, rc, rs, ang, w, nrec):  # pragma: no cover - compiled
    """Relative rotations of the start poses, targets and beyond-reach points per lane."""
    outer = np.empty(2)
    for b in range(targets.shape[0]):
        for j in range(lengths.shape[0]):
            a = angles[b, j]
            ang[j, b] = a
            prev = ang[j, b - 1] if b > 0 else np.nan
            if a == prev and math.copysign(1.0, a) == math.copysign(1.0, prev):  # same start
                rc[j, b], rs[j, b] = rc[j, b - 1], rs[j, b - 1]
            else:
                rc[j, b], rs[j, b] = math.cos(a), math.sin(a)
        w[TX, b], w[TY, b] = targets[b, 0], targets[b, 1]
        if beyond_reach(lengths, base, targets[b], outer):
            w[BEYOND, b] = 1.0
            w[OX, b], w[OY, b] = outer[0], outer[1]
        w[ACTIVE, b] = 1.0
        nrec[b] = 1


@njit(cache=True, error_model="numpy")
def _place(lengths, base, rc, rs, px, py, w):  # pragma: no cover - compiled
    """Joint positions of every lane from the relative rotations (complex products)."""
    k = px.shape[1]
    for b in range(k):
        w[CX, b], w[CY, b] = 1.0, 0.0
        px[0, b], py[0, b] = base[0], base[1]
    for i in range(lengths.shape[0]):
        length = lengths[i]
        for b in range(k):
            c = w[CX, b] * rc[i, b] - w[CY, b] * rs[i, b]
            s = w[CX, b] * rs[i, b] + w[CY, b] * rc[i, b]
            w[CX, b], w[CY, b] = c, s
            px[i + 1, b] = px[i, b] + length * c
            py[i + 1, b] = py[i, b] + length * s


@njit(cache=True, error_model="numpy")
def _check(it, tol, px, py, w, status, iters):  # pragma: no cover - compiled
    """After sweep ``it`` (0: the start pose), settle the lanes that are done; count the rest."""
    n = px.shape[0] - 1
    tol2 = tol * tol
    alive = 0
    for b in range(px.shape[1]):
        if w[ACTIVE, b] == 0.0:
            continue
        ex, ey = px[n, b], py[n, b]
        w[EX, b], w[EY, b] = ex, ey
        code = -1
        if (ex - w[TX, b]) ** 2 + (ey - w[TY, b]) ** 2 <= tol2:
            code = REACHED
        elif w[BEYOND, b] != 0.0 and (ex - w[OX, b]) ** 2 + (ey - w[OY, b]) ** 2 <= tol2:
            code = CLOSEST if it > 0 else -1
        elif it > 0 and w[MOVED_ANY, b] == 0.0:
            code = STALLED
        if code < 0:
            alive += 1
        else:
            w[ACTIVE, b] = 0.0
            status[b], iters[b] = code, it
    return alive


@njit(cache=True, error_model="numpy")
def _turn_free(j, px, py, rc, rs, dirty, ex, ey, tx, ty, active, moved, go, cross, dot):  # noqa: E501  # pragma: no cover - compiled
    """Turn a free joint in every active lane: rotation (dot, cross)/norm, no trigonometry."""
    for b in range(ex.shape[0]):
        pjx, pjy = px[j, b], py[j, b]
        ax, ay = ex[b] - pjx, ey[b] - pjy
        bx, by = tx[b] - pjx, ty[b] - pjy
        cr = ax * by - ay * bx
        dt = ax * bx + ay * by
        r2 = cr * cr + dt * dt
        still = (r2 == 0.0) | ((dt > 0.0) & (abs(cr) <= MOVED * dt))
        turn = (active[b] != 0.0) & (not still)
        inv = 1.0 / math.sqrt(r2) if turn else 0.0
        c = dt * inv
        s = cr * inv
        nx = pjx + (c * ax - s * ay)
        ny = pjy + (s * ax + c * ay)
        oc, os = rc[j, b], rs[j, b]
        qc = oc * c - os * s
        qs = oc * s + os * c
        ex[b] = nx if turn else ex[b]
        ey[b] = ny if turn else ey[b]
        rc[j, b] = qc if turn else oc
        rs[j, b] = qs if turn else os
        flag = 1.0 if turn else 0.0
        go[b] = flag
        moved[b] = max(moved[b], flag)
        dirty[j, b] = max(dirty[j, b], flag)
        cross[b] = cr
        dot[b] = dt


@njit(cache=True, error_model="numpy")
def _turn_limited(j, lo, hi, px, py, rc, rs, ang, w):  # pragma: no cover - compiled
    """Turn a joint with limits in every active lane: the angle is clamped into [lo, hi]."""
    for b in range(w.shape[1]):
        w[GO, b] = 0.0
        if w[ACTIVE, b] == 0.0:
            continue
        ax, ay = w[EX, b] - px[j, b], w[EY, b] - py[j, b]
        bx, by = w[TX, b] - px[j, b], w[TY, b] - py[j, b]
        th = math.atan2(ax * by - ay * bx, ax * bx + ay * by)
        new = clamp(ang[j, b] + th, lo, hi)
        th = new - ang[j, b]
        if abs(th) <= MOVED:
            continue
        ang[j, b] = new
        c, s = math.cos(th), math.sin(th)
        w[EX, b] = px[j, b] + (c * ax - s * ay)
        w[EY, b] = py[j, b] + (s * ax + c * ay)
        rc[j, b], rs[j, b] = math.cos(new), math.sin(new)
        w[GO, b] = 1.0
        w[MOVED_ANY, b] = 1.0


@njit(cache=True, error_model="numpy")
def _record(j, free, ang, w, rec, nrec):  # pragma: no cover - compiled
    """One keyframe (all relative angles) for every lane whose joint ``j`` just turned."""
    for b in range(w.shape[1]):
        if w[GO, b] == 0.0:
            continue
        if free:
            ang[j, b] += math.atan2(w[CROSS, b], w[DOT, b])
        if nrec[b] < rec.shape[1]:
            rec[b, nrec[b], :] = ang[:, b]
            nrec[b] += 1
