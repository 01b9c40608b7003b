"""Planar CCD for K targets at once, in lanes: the one 2-D CCD kernel.

:func:`geoik.solvers.ccd.ccd_2d` (what :func:`geoik.solve` runs) calls :func:`ccd_2d_lanes` with
one lane; the batch engine calls it with blocks of targets. Lanes never interact, and every lane
runs the same sequence of floating-point operations whatever K is, so a target's result does not
depend on the lanes beside it.

The algorithm is seed 000 eqs. (1)-(2) / seed 002 Section II, as documented in
:mod:`geoik.solvers.ccd`. How it is computed:

- All per-lane state lives in one work array of shape (rows, P), one column per lane (the row
  layout is :func:`_layout`; P >= K pads the rows, :func:`_pitch`); the inner loops run over the
  K lanes with branch-free arithmetic (masked lanes select the unchanged value), so LLVM
  vectorises them. The helpers take that one array
  rather than a view per row: each array argument of a compiled call costs reference counting,
  which with one lane would cost more than the arithmetic.
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
- ``escape=1`` (``opts[0]``, :mod:`geoik.solvers.escape`): lanes whose target is out of reach
  take their closest pose instead of the first sweep (:func:`_reach_out`); a joint whose vectors
  are exactly opposite turns by ``pi - ESCAPE_BEND`` (:func:`_turn_free_escape`, a branch-free
  select); a lane that a sweep left unmoved short of its target bends one joint
  (:func:`_escape`) and goes on, at most ``ESCAPES`` times. With ``escape=0`` every lane runs
  exactly the operations it ran before the option existed.
"""

from __future__ import annotations

import math

import numpy as np
from numba import njit

from geoik.geometry import CLOSEST, MAX_ITERATIONS, PI, REACHED, STALLED, clamp, fit_angle, sq, wrap
from geoik.solvers.escape import ESCAPE_BEND, ESCAPES, escape_joint

MOVED = 1e-12
"""A joint update of at most this many radians is skipped."""

# per-lane scalars, rows after the per-joint blocks (offset ``_layout(n)[6]``)
EX, EY, TX, TY, OX, OY, BEYOND, ACTIVE, MOVED_ANY, GO, CROSS, DOT, CX, CY, ESC, HOLD = range(16)
_ROWS = 16
_REACHED, _CLOSEST, _STALLED = float(REACHED), float(CLOSEST), float(STALLED)


@njit(cache=True, inline="always")
def _layout(n):
    """First rows of the blocks of the work array for n joints: the relative rotations
    ``(cos, sin)`` (n rows each), the angles (n), the "turned at least once" flags (n), the joint
    positions ``x, y`` (n + 1 each), then the per-lane scalars (``_ROWS``); and the row count."""
    rc, rs, ang, dirty = 0, n, 2 * n, 3 * n
    px, py, w = 4 * n, 5 * n + 1, 6 * n + 2
    return rc, rs, ang, dirty, px, py, w, w + _ROWS


@njit(cache=True, inline="always")
def _pitch(k):
    """Columns of the work array for k lanes: k, or for k >= 8 k rounded up to an odd number of
    64-byte cache lines. Rows a power-of-two number of lines apart (k = 128: 1 KiB) fall into the
    same few sets of a 4 KiB-periodic L1 cache and evict each other; an odd pitch spreads them."""
    if k < 8:
        return k
    return 8 * (((k + 7) // 8) | 1)


@njit(cache=True, error_model="numpy")
def ccd_2d_lanes(model, targets, angles, tol, max_iter, opts, rec, out, final):
    """Solve K planar targets by CCD from K start poses, in lanes (:func:`_lanes` with the
    option ``escape`` as ``opts`` says)."""
    escape = opts.shape[0] > 0 and opts[0] != 0.0
    _lanes(model, targets, angles, tol, max_iter, opts, rec, out, final, escape)


@njit(cache=True, error_model="numpy")
def ccd_2d_lanes_plain(model, targets, angles, tol, max_iter, opts, rec, out, final):
    """:func:`ccd_2d_lanes` for ``escape`` off, whatever ``opts`` says, with the escape paths
    compiled out: numba prunes the branches on the constant, so this compiles in about two
    thirds of the time (6-7 s against 10-11 s) and runs the same operations. The batch engine
    runs it where the option is off (``Solver.plain_for``), as in every map by default."""
    _lanes(model, targets, angles, tol, max_iter, opts, rec, out, final, False)


@njit(cache=True, error_model="numpy", inline="always")
def _lanes(model, targets, angles, tol, max_iter, opts, rec, out, final, escape):
    """Solve K planar targets by CCD from K start poses, in lanes.

    Parameters
    ----------
    model : the chain's ``kernel_arrays`` ``(lengths, base, lo, hi)``: (n,), (2,), (n,), (n,)
        (limits in radians, +-inf if free).
    targets : (K, 2) targets.
    angles : (K, n) start angles in radians; overwritten with the final angles.
    tol, max_iter, opts : as for every 2-D kernel (``opts`` is unused).
    rec : (K, cap, n) keyframes; ``rec[b, 0]`` is written by the caller; recorded only if cap > 1.
    out : the outputs ``(nrec, status, iters, end)``: (K,) int64 keyframes used, kernel status
        and sweeps used, and (K, 2) the end effector of the final pose.
    final : write the final angles into ``angles``; if False (and not recording) ``angles`` keeps
        the start poses, for callers that need only status, iterations and ``end``.
    escape : the option ``escape`` (see the module); inlined into each caller, so that a
        constant False leaves its paths out of the compiled code.
    """
    lengths, base, lo, hi = model
    nrec, status, iters, end = out
    n = lengths.shape[0]
    k = targets.shape[0]
    rc, rs, ang, dirty, px, py, w, rows = _layout(n)
    work = np.zeros((rows, _pitch(k)))
    # escape: a free joint whose end-effector and target vectors are opposite turns by
    # pi - ESCAPE_BEND (flip_c, flip_s), not pi, so the chain curls rather than folds onto a line
    flip = ESCAPE_BEND if escape else 0.0
    flip_c, flip_s = (-math.cos(flip), math.sin(flip)) if escape else (0.0, 0.0)
    _start(lengths, base, targets, angles, work, nrec)
    _place(lengths, base, k, work)
    # sweeps as a typed integer: a literal argument (0, 1) would compile _check once more each
    first = np.int64(0)
    alive = _check(first, tol, n, work, status, iters)
    recording = rec.shape[1] > 1
    held = 0
    if escape and alive > 0 and max_iter > 0:
        work[w + ESC, :] = ESCAPES
        held = _reach_out(lengths, base, lo, hi, work, rec, nrec)
    it = first + 1
    while it <= max_iter and alive > 0:
        for b in range(k):  # a loop: a slice assignment costs more than the sweep's joints
            work[w + MOVED_ANY, b] = 0.0
        for j in range(n - 1, -1, -1):
            free = lo[j] == -np.inf and hi[j] == np.inf
            if free and escape:
                _turn_free_escape(j, n, k, work, final and not recording, recording, flip_c, flip_s)
            elif free:
                _turn_free(j, n, k, work, final and not recording, recording)
            else:
                _turn_limited(j, n, k, lo[j], hi[j], work, flip)
            if recording:
                _record(j, n, free, work, rec, nrec)
        if held > 0:  # the lanes that took their closest pose instead of the first sweep
            for b in range(k):
                if work[w + HOLD, b] != 0.0:
                    work[w + HOLD, b] = 0.0
                    work[w + ACTIVE, b] = 1.0
                    work[w + MOVED_ANY, b] = 1.0
            held = 0
        _place(lengths, base, k, work)
        alive = _check(it, tol, n, work, status, iters)
        if escape and alive > 0 and _escape(it, lo, hi, work, rec, nrec, status, iters) > 0:
            _place(lengths, base, k, work)
            for b in range(k):
                work[w + EX, b], work[w + EY, b] = work[px + n, b], work[py + n, b]
        it += 1
    for b in range(k):
        if work[w + ACTIVE, b] != 0.0:
            status[b], iters[b] = MAX_ITERATIONS, max_iter
        end[b, 0], end[b, 1] = work[w + EX, b], work[w + EY, b]
        if not (final or recording):
            continue
        for j in range(n):
            a = work[ang + j, b]
            if not recording and work[dirty + j, b] != 0.0:
                a = math.atan2(work[rs + j, b], work[rc + j, b])
            angles[b, j] = a


@njit(cache=True, error_model="numpy")
def _start(lengths, base, targets, angles, work, nrec):
    """Relative rotations of the start poses, targets and beyond-reach points per lane. The lanes
    usually share one start pose (the batch engine's), so each joint's rotation is computed once
    from lane 0's angle and again only for lanes whose angle differs; the rest runs branch-free
    over the lanes (vectorised)."""
    n = lengths.shape[0]
    k = targets.shape[0]
    if k == 0:
        return
    rc, rs, ang, _, _, _, w, _ = _layout(n)
    total = 0.0
    for i in range(n):
        total += lengths[i]
    for j in range(n):
        a0 = angles[0, j]
        c0, s0, sign0 = math.cos(a0), math.sin(a0), math.copysign(1.0, a0)
        differ = 0
        for b in range(k):
            a = angles[b, j]
            work[ang + j, b] = a
            work[rc + j, b], work[rs + j, b] = c0, s0
            same = (a == a0) & (math.copysign(1.0, a) == sign0)  # -0.0: sin differs
            differ += 0 if same else 1
        if differ == 0:
            continue
        for b in range(k):
            a = angles[b, j]
            if not (a == a0 and math.copysign(1.0, a) == sign0):
                work[rc + j, b], work[rs + j, b] = math.cos(a), math.sin(a)
    bx, by = base[0], base[1]
    for b in range(k):
        tx, ty = targets[b, 0], targets[b, 1]
        work[w + TX, b], work[w + TY, b] = tx, ty
        dist = math.sqrt(sq(tx - bx) + sq(ty - by))
        # geometry.beyond_reach, inlined: the point at full reach towards t
        beyond = dist > total
        scale = total / dist if beyond else 0.0  # (no division by a target at the base)
        work[w + BEYOND, b] = 1.0 if beyond else 0.0
        work[w + OX, b] = bx + (tx - bx) * scale if beyond else 0.0
        work[w + OY, b] = by + (ty - by) * scale if beyond else 0.0
        work[w + ACTIVE, b] = 1.0
        nrec[b] = 1


@njit(cache=True, error_model="numpy")
def _reach_out(lengths, base, lo, hi, work, rec, nrec):
    """``escape=1``: every active lane whose target is out of reach takes its closest reachable
    pose (:func:`geoik.solvers.escape.reach_out_2d`: straightened or folded) as its first
    iteration, recorded as one keyframe, with the closest point in ``OX, OY``. The lanes are
    marked ``HOLD`` and inactive, so that the first sweep passes them by; returns how many."""
    n = lengths.shape[0]
    rc, rs, ang, dirty, _, _, w, _ = _layout(n)
    total, longest, kmax = 0.0, 0.0, 0
    straight, free = True, True
    for i in range(n):
        total += lengths[i]
        if lengths[i] > longest:
            longest, kmax = lengths[i], i
        free = free and lo[i] == -np.inf and hi[i] == np.inf
        straight = straight and (i == 0 or lo[i] <= 0.0 <= hi[i])
    inner = 2.0 * longest - total if free else 0.0
    cap = rec.shape[1]
    held = 0
    for b in range(nrec.shape[0]):
        if work[w + ACTIVE, b] == 0.0:
            continue
        dx, dy = work[w + TX, b] - base[0], work[w + TY, b] - base[1]
        dist = math.sqrt(dx * dx + dy * dy)
        if dist > total and straight:
            radius = total
        elif dist < inner:
            radius = inner
        else:
            continue
        ux, uy = (dx / dist, dy / dist) if dist > 0.0 else (1.0, 0.0)
        work[w + OX, b], work[w + OY, b] = base[0] + radius * ux, base[1] + radius * uy
        work[w + BEYOND, b] = 1.0
        bearing = math.atan2(uy, ux)
        prev = 0.0
        for j in range(n):
            if radius == total:  # straighten
                rel = bearing if j == 0 else 0.0
            else:  # fold: the longest link towards the target, the others back
                a = bearing if j == kmax else bearing + PI
                rel, prev = wrap(a - prev), a
            new = fit_angle(rel, work[ang + j, b], lo[j], hi[j])[0]
            work[ang + j, b] = new
            work[rc + j, b], work[rs + j, b] = math.cos(new), math.sin(new)
            work[dirty + j, b] = 1.0
        r = nrec[b]
        if r < cap:
            for i in range(n):
                rec[b, r, i] = work[ang + i, b]
            nrec[b] = r + 1
        work[w + HOLD, b] = 1.0
        work[w + ACTIVE, b] = 0.0
        held += 1
    return held


@njit(cache=True, error_model="numpy")
def _escape(it, lo, hi, work, rec, nrec, status, iters):
    """``escape=1``: every active lane that sweep ``it`` left unmoved (short of its target, with
    escapes left) turns one joint by ``ESCAPE_BEND`` within its limits
    (:func:`geoik.solvers.escape.bend_2d`), recorded as one keyframe; a lane none of whose
    joints can turn settles as STALLED. Returns how many lanes turned."""
    n = lo.shape[0]
    rc, rs, ang, dirty, _, _, w, _ = _layout(n)
    cap = rec.shape[1]
    bent = 0
    for b in range(status.shape[0]):
        if work[w + ACTIVE, b] == 0.0 or work[w + MOVED_ANY, b] != 0.0:
            continue
        k = ESCAPES - int(work[w + ESC, b])
        turned = -1
        for i in range(n):
            j = escape_joint(n, k, i)
            old = work[ang + j, b]
            for step in (ESCAPE_BEND, -ESCAPE_BEND):
                new = clamp(old + step, lo[j], hi[j])
                if abs(new - old) >= 0.5 * ESCAPE_BEND:
                    turned = j
                    break
            if turned >= 0:
                break
        if turned < 0:
            work[w + ESC, b] = 0.0
            work[w + ACTIVE, b] = 0.0
            status[b], iters[b] = STALLED, it
            continue
        j = turned
        th = new - old
        work[ang + j, b] = new
        c, s = math.cos(th), math.sin(th)
        oc, os = work[rc + j, b], work[rs + j, b]
        work[rc + j, b], work[rs + j, b] = oc * c - os * s, oc * s + os * c
        if lo[j] == -np.inf and hi[j] == np.inf:
            work[dirty + j, b] = 1.0
        work[w + ESC, b] -= 1.0
        r = nrec[b]
        if r < cap:
            for i in range(n):
                rec[b, r, i] = work[ang + i, b]
            nrec[b] = r + 1
        bent += 1
    return bent


@njit(cache=True, error_model="numpy")
def _place(lengths, base, k, work):
    """Joint positions of every lane from the relative rotations (complex products)."""
    n = lengths.shape[0]
    rc, rs, _, _, px, py, w, _ = _layout(n)
    length = lengths[0]
    for b in range(k):  # the first link's direction is its relative rotation
        c, s = work[rc, b], work[rs, b]
        work[w + CX, b], work[w + CY, b] = c, s
        work[px, b], work[py, b] = base[0], base[1]
        work[px + 1, b] = base[0] + length * c
        work[py + 1, b] = base[1] + length * s
    for i in range(1, n):
        length = lengths[i]
        for b in range(k):
            cx, cy = work[w + CX, b], work[w + CY, b]
            c = cx * work[rc + i, b] - cy * work[rs + i, b]
            s = cx * work[rs + i, b] + cy * work[rc + i, b]
            work[w + CX, b], work[w + CY, b] = c, s
            work[px + i + 1, b] = work[px + i, b] + length * c
            work[py + i + 1, b] = work[py + i, b] + length * s


@njit(cache=True, error_model="numpy")
def _check(it, tol, n, work, status, iters):
    """After sweep ``it`` (0: the start pose), settle the lanes that are done; count the rest.

    A branch-free pass over the lanes finds the settled ones (their code in row ``GO``, -1 for
    the others); a second pass writes the outputs of the few that settled."""
    _, _, _, _, px, py, w, _ = _layout(n)
    tol2 = tol * tol
    k = status.shape[0]
    later = it > 0
    for b in range(k):
        ex, ey = work[px + n, b], work[py + n, b]
        work[w + EX, b], work[w + EY, b] = ex, ey  # a settled lane's pose no longer changes
        reached = sq(ex - work[w + TX, b]) + sq(ey - work[w + TY, b]) <= tol2
        closest = (
            later
            & (work[w + BEYOND, b] != 0.0)
            & (sq(ex - work[w + OX, b]) + sq(ey - work[w + OY, b]) <= tol2)
        )
        stalled = later & (work[w + MOVED_ANY, b] == 0.0) & (work[w + ESC, b] == 0.0)
        active = work[w + ACTIVE, b] != 0.0
        done = active & (reached | closest | stalled)
        code = _REACHED if reached else (_CLOSEST if closest else _STALLED)
        work[w + GO, b] = code if done else -1.0
        work[w + ACTIVE, b] = 0.0 if done else work[w + ACTIVE, b]
    alive = 0
    for b in range(k):
        code = work[w + GO, b]
        if code >= 0.0:
            status[b], iters[b] = int(code), it
        alive += 1 if work[w + ACTIVE, b] != 0.0 else 0
    return alive


@njit(cache=True, error_model="numpy")
def _turn_free(j, n, k, work, track, recording):
    """Turn free joint ``j`` in every active lane: rotation (dot, cross)/norm, no trigonometry.
    ``track``: mark the joint as turned (for the final angles); ``recording``: leave what
    :func:`_record` needs (turned or not, cross and dot)."""
    rc, rs, _, dirty, px, py, w, _ = _layout(n)
    for b in range(k):
        pjx, pjy = work[px + j, b], work[py + j, b]
        ex, ey = work[w + EX, b], work[w + EY, b]
        ax, ay = ex - pjx, ey - pjy
        bx, by = work[w + TX, b] - pjx, work[w + TY, b] - pjy
        cr = ax * by - ay * bx
        dt = ax * bx + ay * by
        r2 = cr * cr + dt * dt
        still = (r2 == 0.0) | ((dt > 0.0) & (abs(cr) <= MOVED * dt))
        turn = (work[w + ACTIVE, b] != 0.0) & (not still)
        inv = 1.0 / math.sqrt(r2) if turn else 0.0
        c = dt * inv
        s = cr * inv
        nx = pjx + (c * ax - s * ay)
        ny = pjy + (s * ax + c * ay)
        oc, os = work[rc + j, b], work[rs + j, b]
        qc = oc * c - os * s
        qs = oc * s + os * c
        work[w + EX, b] = nx if turn else ex
        work[w + EY, b] = ny if turn else ey
        work[rc + j, b] = qc if turn else oc
        work[rs + j, b] = qs if turn else os
        flag = 1.0 if turn else 0.0
        work[w + MOVED_ANY, b] = max(work[w + MOVED_ANY, b], flag)
        if track:
            work[dirty + j, b] = max(work[dirty + j, b], flag)
        if recording:
            work[w + GO, b] = flag
            work[w + CROSS, b] = cr
            work[w + DOT, b] = dt


@njit(cache=True, error_model="numpy")
def _turn_free_escape(j, n, k, work, track, recording, flip_c, flip_s):
    """:func:`_turn_free` with ``escape=1``: a lane whose end-effector and target vectors are
    exactly opposite turns by ``(flip_c, flip_s)`` (``pi - ESCAPE_BEND``) rather than by pi. A
    function of its own so that :func:`_turn_free`, the batch engine's hot loop, stays as it
    was."""
    rc, rs, _, dirty, px, py, w, _ = _layout(n)
    for b in range(k):
        pjx, pjy = work[px + j, b], work[py + j, b]
        ex, ey = work[w + EX, b], work[w + EY, b]
        ax, ay = ex - pjx, ey - pjy
        bx, by = work[w + TX, b] - pjx, work[w + TY, b] - pjy
        cr = ax * by - ay * bx
        dt = ax * bx + ay * by
        r2 = cr * cr + dt * dt
        still = (r2 == 0.0) | ((dt > 0.0) & (abs(cr) <= MOVED * dt))
        turn = (work[w + ACTIVE, b] != 0.0) & (not still)
        inv = 1.0 / math.sqrt(r2) if turn else 0.0
        back = (dt < 0.0) & (abs(cr) <= MOVED * -dt)
        c = flip_c if back else dt * inv
        s = flip_s if back else cr * inv
        nx = pjx + (c * ax - s * ay)
        ny = pjy + (s * ax + c * ay)
        oc, os = work[rc + j, b], work[rs + j, b]
        qc = oc * c - os * s
        qs = oc * s + os * c
        work[w + EX, b] = nx if turn else ex
        work[w + EY, b] = ny if turn else ey
        work[rc + j, b] = qc if turn else oc
        work[rs + j, b] = qs if turn else os
        flag = 1.0 if turn else 0.0
        work[w + MOVED_ANY, b] = max(work[w + MOVED_ANY, b], flag)
        if track:
            work[dirty + j, b] = max(work[dirty + j, b], flag)
        if recording:
            work[w + GO, b] = flag
            work[w + CROSS, b] = s if back else cr
            work[w + DOT, b] = c if back else dt


@njit(cache=True, error_model="numpy")
def _turn_limited(j, n, k, lo, hi, work, flip):
    """Turn joint ``j`` (with limits) in every active lane: the angle is clamped into [lo, hi].
    ``flip`` nonzero (``escape=1``): opposite vectors turn the joint by ``pi - flip``."""
    rc, rs, ang, _, px, py, w, _ = _layout(n)
    for b in range(k):
        work[w + GO, b] = 0.0
        if work[w + ACTIVE, b] == 0.0:
            continue
        pjx, pjy = work[px + j, b], work[py + j, b]
        ax, ay = work[w + EX, b] - pjx, work[w + EY, b] - pjy
        bx, by = work[w + TX, b] - pjx, work[w + TY, b] - pjy
        old = work[ang + j, b]
        th = math.atan2(ax * by - ay * bx, ax * bx + ay * by)
        if flip != 0.0 and abs(th) >= PI - MOVED:
            th = PI - flip
        new = clamp(old + th, lo, hi)
        th = new - old
        if abs(th) <= MOVED:
            continue
        work[ang + j, b] = new
        c, s = math.cos(th), math.sin(th)
        work[w + EX, b] = pjx + (c * ax - s * ay)
        work[w + EY, b] = pjy + (s * ax + c * ay)
        work[rc + j, b], work[rs + j, b] = math.cos(new), math.sin(new)
        work[w + GO, b] = 1.0
        work[w + MOVED_ANY, b] = 1.0


@njit(cache=True, error_model="numpy", inline="always")
def _record(j, n, free, work, rec, nrec):
    """One keyframe (all relative angles) for every lane whose joint ``j`` just turned."""
    _, _, ang, _, _, _, w, _ = _layout(n)
    cap = rec.shape[1]
    for b in range(nrec.shape[0]):
        if work[w + GO, b] == 0.0:
            continue
        if free:
            work[ang + j, b] += math.atan2(work[w + CROSS, b], work[w + DOT, b])
        r = nrec[b]
        if r < cap:
            for i in range(n):
                rec[b, r, i] = work[ang + i, b]
            nrec[b] = r + 1
