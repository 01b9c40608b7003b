"""CCD in 3-D for K targets at once, in lanes: the one 3-D CCD kernel.

:func:`geoik.solvers.ccd.ccd_3d` (what :func:`geoik.solve` runs) calls :func:`ccd_3d_lanes` with
one lane; the batch engine calls it with blocks of targets. Lanes never interact, and every lane
runs the same sequence of floating-point operations whatever K is, so a target's result does not
depend on the lanes beside it.

The algorithm is the one documented in :mod:`geoik.solvers.ccd`: from the end effector back to
the base, a ball joint turns its link by the rotation taking ``a = e - p_j`` onto
``t - p_j`` and is then held inside its cone (its swing clamped, its twist kept); a hinge turns
by the signed angle between the projections of the two vectors on the plane normal to its axis,
clamped into its limits. How it is computed:

- All per-lane state lives in one work array of shape (rows, P), one column per lane (the row
  layout is :func:`_layout`; P >= K pads the rows, :func:`geoik.solvers.ccd.lanes._pitch`); the
  inner loops run over lanes with branch-free arithmetic, so LLVM vectorises them (hinges,
  which need angles, excepted).
- Within a sweep only the end effector moves: turning joint ``j`` rotates everything beyond it
  rigidly about ``p_j``, while the joints not yet visited (``j - 1`` down to 0) and their frames
  keep their places. Each update is therefore O(1): the end effector is turned by the joint's
  change, expressed in the world. At the end of the sweep one forward pass rebuilds every frame
  and joint from the joints' rotations; it takes each frame as the product of unit rotations
  without normalising it anew (a square root and a division per link spared; the frames differ
  from :func:`geoik.geometry.fk_3d`'s by rounding). The end effector a lane reports is placed by
  fk_3d's own operations, so it is bit for bit the forward kinematics of its final rotations.
- Once at most half of a call's lanes (128 or more) are active, they are moved into the first
  half (:func:`_compact`), so that the sweeps left run over half as many lanes; a lane's whole
  column moves, and each lane knows the target it holds.
- A ball joint needs no trigonometry: the rotation between two vectors is
  ``(|a||b| + a.b, a x b)`` normalised (in the parent link's frame); the cone test is
  ``bend > cone`` as ``cos(cone) |u_yz| > sin(cone) u_x`` for the link direction ``u``, and the
  clamped swing is built from ``cos`` and ``sin`` of half the cone, computed once per call. The
  update is skipped (``MOVED``) when its angle is at most ``1e-12``, tested as
  ``|d_v| <= tan(MOVED / 2) |d_0|`` on the quaternion ``d`` of the change.
- A hinge keeps its angle, turned by ``atan2`` of the projections and clamped; its rotation is
  then ``(cos(phi / 2), h sin(phi / 2))``.
- When two vectors are opposite, the half turn is about the axis nearest +z (else +y) that is
  perpendicular to ``a``, in the parent link's frame (a planar chain in the xy-plane stays
  planar).
"""

from __future__ import annotations

import math

import numpy as np
from numba import njit

from geoik.geometry import CLOSEST, MAX_ITERATIONS, REACHED, STALLED, clamp, qmul, qnormalize
from geoik.solvers.ccd.lanes import MOVED, _pitch

TAN_HALF_MOVED = math.tan(0.5 * MOVED)
"""A change whose quaternion ``d`` has ``|d_v| <= TAN_HALF_MOVED |d_0|`` turns at most MOVED."""

# per-lane scalars, rows after the per-joint blocks (offset ``_layout(n)[6]``): the end
# effector, the target, the beyond-reach point, flags, then scratch rows of a joint's update
# (the two vectors in the parent link's frame, the new rotation, whether it turns)
EX, EY, EZ, TX, TY, TZ, OX, OY, OZ, BEYOND, ACTIVE, MOVED_ANY, GO = range(13)
AX, AY, AZ, BX, BY, BZ, N0, N1, N2, N3, TURN = range(13, 24)
_ROWS = 24
COMPACT = 128
"""Lanes at which a call starts compacting: once at most half of its lanes are active, they are
moved into the first half, and so on down to ``COMPACT // 2`` lanes (below that the lane loops
would no longer run vectorised)."""
_REACHED, _CLOSEST, _STALLED = float(REACHED), float(CLOSEST), float(STALLED)


@njit(cache=True, inline="always")
def _layout(n):
    """First rows of the blocks of the work array for n joints: the local rotations (4 rows per
    joint, w x y z), the world frames of the links (4 per link), the joint positions x, y, z
    (n + 1 rows each), the hinge angles (n), then the per-lane scalars (``_ROWS``); and the row
    count."""
    q, f = 0, 4 * n
    px, py, pz = 8 * n, 9 * n + 1, 10 * n + 2
    phi = 11 * n + 3
    s = 12 * n + 3
    return q, f, px, py, pz, phi, s, s + _ROWS


@njit(cache=True, error_model="numpy")
def ccd_3d_lanes(model, targets, quats, tol, max_iter, opts, rec, out, final):
    """Solve K targets in 3-D by CCD from K start poses, in lanes.

    Parameters
    ----------
    model : the chain's ``kernel_arrays`` ``(lengths, base, cone, hinge, lo, hi)``, as every 3-D
        kernel takes it.
    targets : (K, 3) targets.
    quats : (K, n, 4) start rotations; overwritten with the final rotations if ``final``.
    tol, max_iter, opts : as for every 3-D kernel (``opts`` is unused).
    rec : (K, cap, n, 4) keyframes; ``rec[b, 0]`` is written by the caller; recorded only if
        cap > 1.
    out : the outputs ``(nrec, status, iters, end)``: (K,) int64 keyframes used, kernel status
        and sweeps used, and (K, 3) the end effector of the final pose (its forward kinematics).
    final : write the final rotations into ``quats``.
    """
    lengths, base, cone, hinge, lo, hi = model
    nrec, status, iters, end = out
    n = lengths.shape[0]
    k = targets.shape[0]
    rows = _layout(n)[7]
    work = np.zeros((rows, _pitch(k)))  # rows an odd number of cache lines apart
    lane = np.arange(k)  # the target each lane holds (lanes are swapped by _compact)
    _start(lengths, base, hinge, targets, quats, work, nrec)
    _forward(lengths, base, work, k, np.bool_(True))
    # sweeps as a typed integer: a literal argument (0, 1) would compile _check once more each
    first = np.int64(0)
    alive = _check(first, tol, n, k, work, status, iters, lane)
    recording = rec.shape[1] > 1
    it = first + 1
    while it <= max_iter and alive > 0:
        for b in range(k):
            work[_layout(n)[6] + MOVED_ANY, b] = 0.0
        for j in range(n - 1, -1, -1):
            if hinge[j, 0] != 0.0 or hinge[j, 1] != 0.0 or hinge[j, 2] != 0.0:
                _turn_hinge(j, n, k, work, hinge[j, 1], hinge[j, 2], lo[j], hi[j])
            else:
                c = cone[j]
                _turn_ball(
                    j,
                    n,
                    k,
                    work,
                    c < math.pi,
                    math.cos(c),
                    math.sin(c),
                    math.cos(0.5 * c),
                    math.sin(0.5 * c),
                )
            if recording:
                _record(n, k, work, rec, nrec, lane)
        _forward(lengths, base, work, k, np.bool_(False))
        alive = _check(it, tol, n, k, work, status, iters, lane)
        if k >= COMPACT and alive <= k // 2:
            k = _compact(n, k, work, lane)
        it += 1
    _, _, px, py, pz, _, s, _ = _layout(n)
    k = targets.shape[0]  # every lane, those compacted away included
    if it > 1:  # the end effectors of the final rotations, as fk_3d places them
        _forward(lengths, base, work, k, np.bool_(True))
        for b in range(k):
            work[s + EX, b], work[s + EY, b], work[s + EZ, b] = (
                work[px + n, b],
                work[py + n, b],
                work[pz + n, b],
            )
    for b in range(k):
        i = lane[b]
        if work[s + ACTIVE, b] != 0.0:
            status[i], iters[i] = MAX_ITERATIONS, max_iter
        end[i, 0], end[i, 1], end[i, 2] = work[s + EX, b], work[s + EY, b], work[s + EZ, b]
        if final:
            for j in range(n):
                for c in range(4):
                    quats[i, j, c] = work[4 * j + c, b]


@njit(cache=True, error_model="numpy")
def _compact(n, k, work, lane):
    """Move the active lanes of ``k`` (at most half of them) into the first ``k // 2``, swapping
    each with a settled one there (its whole column, and the targets they hold), so that the
    sweeps that remain run over half the lanes. Returns ``k // 2``."""
    s = _layout(n)[6]
    half = k // 2
    dst = 0
    for src in range(half, k):
        if work[s + ACTIVE, src] == 0.0:
            continue
        while work[s + ACTIVE, dst] != 0.0:
            dst += 1
        for r in range(work.shape[0]):
            work[r, dst], work[r, src] = work[r, src], work[r, dst]
        lane[dst], lane[src] = lane[src], lane[dst]
        dst += 1
    return half


@njit(cache=True, error_model="numpy")
def _start(lengths, base, hinge, targets, quats, work, nrec):
    """Start rotations, hinge angles, targets and beyond-reach points of every lane."""
    n = lengths.shape[0]
    _, _, _, _, _, phi, s, _ = _layout(n)
    total = 0.0
    for i in range(n):
        total += lengths[i]
    for b in range(targets.shape[0]):
        for j in range(n):
            q0, q1, q2, q3 = quats[b, j, 0], quats[b, j, 1], quats[b, j, 2], quats[b, j, 3]
            work[4 * j, b], work[4 * j + 1, b] = q0, q1
            work[4 * j + 2, b], work[4 * j + 3, b] = q2, q3
            hy, hz = hinge[j, 1], hinge[j, 2]
            if hinge[j, 0] != 0.0 or hy != 0.0 or hz != 0.0:
                # the signed angle about h of the link direction (geometry.hinge_angle)
                ux = 1.0 - 2.0 * (q2 * q2 + q3 * q3)
                uy = 2.0 * (q1 * q2 + q0 * q3)
                uz = 2.0 * (q1 * q3 - q0 * q2)
                work[phi + j, b] = math.atan2(-uz * hy + uy * hz, ux)
        tx, ty, tz = targets[b, 0], targets[b, 1], targets[b, 2]
        work[s + TX, b], work[s + TY, b], work[s + TZ, b] = tx, ty, tz
        dx, dy, dz = tx - base[0], ty - base[1], tz - base[2]
        dist = math.sqrt(dx * dx + dy * dy + dz * dz)
        if dist > total:  # geometry.beyond_reach: the point at full reach towards t
            work[s + BEYOND, b] = 1.0
            work[s + OX, b] = base[0] + dx * (total / dist)
            work[s + OY, b] = base[1] + dy * (total / dist)
            work[s + OZ, b] = base[2] + dz * (total / dist)
        work[s + ACTIVE, b] = 1.0
        nrec[b] = 1


@njit(cache=True, error_model="numpy")
def _forward(lengths, base, work, k, exact):
    """World frames and joint positions of every lane from the local rotations, link by link
    over the lanes (a loop for the frames and one for the positions, each writing few rows, so
    that LLVM vectorises both). ``exact``: the operations of :func:`geoik.geometry.fk_3d`, each
    frame normalised; else the frames are the products of the unit local rotations as they
    come, which differ from those by rounding and spare a square root and a division per link
    (what the sweeps use; the reported end effector is placed exactly)."""
    n = lengths.shape[0]
    _, f, px, py, pz, _, _, _ = _layout(n)
    for b in range(k):
        work[px, b], work[py, b], work[pz, b] = base[0], base[1], base[2]
    for i in range(n):
        r = f + 4 * i
        for b in range(k):
            f0, f1, f2, f3 = _parent(i, f, work, b)
            q0, q1, q2, q3 = (
                work[4 * i, b],
                work[4 * i + 1, b],
                work[4 * i + 2, b],
                work[4 * i + 3, b],
            )
            f0, f1, f2, f3 = qmul(f0, f1, f2, f3, q0, q1, q2, q3)
            work[r, b], work[r + 1, b], work[r + 2, b], work[r + 3, b] = f0, f1, f2, f3
        if exact:
            for b in range(k):
                f0, f1, f2, f3 = qnormalize(
                    work[r, b], work[r + 1, b], work[r + 2, b], work[r + 3, b]
                )
                work[r, b], work[r + 1, b], work[r + 2, b], work[r + 3, b] = f0, f1, f2, f3
        length = lengths[i]
        for b in range(k):
            f0, f1, f2, f3 = work[r, b], work[r + 1, b], work[r + 2, b], work[r + 3, b]
            # geometry.qrot(f, 1, 0, 0), term by term
            tx = 2.0 * (f2 * 0.0 - f3 * 0.0)
            ty = 2.0 * (f3 * 1.0 - f1 * 0.0)
            tz = 2.0 * (f1 * 0.0 - f2 * 1.0)
            dx = 1.0 + f0 * tx + (f2 * tz - f3 * ty)
            dy = 0.0 + f0 * ty + (f3 * tx - f1 * tz)
            dz = 0.0 + f0 * tz + (f1 * ty - f2 * tx)
            work[px + i + 1, b] = work[px + i, b] + length * dx
            work[py + i + 1, b] = work[py + i, b] + length * dy
            work[pz + i + 1, b] = work[pz + i, b] + length * dz


@njit(cache=True, error_model="numpy")
def _check(it, tol, n, k, work, status, iters, lane):
    """After sweep ``it`` (0: the start pose), settle the lanes that are done; count the rest."""
    _, _, px, py, pz, _, s, _ = _layout(n)
    tol2 = tol * tol
    later = it > 0
    for b in range(k):
        ex, ey, ez = work[px + n, b], work[py + n, b], work[pz + n, b]
        work[s + EX, b], work[s + EY, b], work[s + EZ, b] = ex, ey, ez
        dx, dy, dz = ex - work[s + TX, b], ey - work[s + TY, b], ez - work[s + TZ, b]
        reached = dx * dx + dy * dy + dz * dz <= tol2
        ox, oy, oz = ex - work[s + OX, b], ey - work[s + OY, b], ez - work[s + OZ, b]
        closest = later & (work[s + BEYOND, b] != 0.0) & (ox * ox + oy * oy + oz * oz <= tol2)
        stalled = later & (work[s + MOVED_ANY, b] == 0.0)
        active = work[s + ACTIVE, b] != 0.0
        done = active & (reached | closest | stalled)
        code = _REACHED if reached else (_CLOSEST if closest else _STALLED)
        work[s + GO, b] = code if done else -1.0
        work[s + ACTIVE, b] = 0.0 if done else work[s + ACTIVE, b]
    alive = 0
    for b in range(k):
        code = work[s + GO, b]
        if code >= 0.0:
            status[lane[b]], iters[lane[b]] = int(code), it
        alive += 1 if work[s + ACTIVE, b] != 0.0 else 0
    return alive


@njit(cache=True, error_model="numpy", inline="always")
def _parent(j, f, work, b):
    """World frame of joint ``j``'s parent link in lane ``b`` (the identity for joint 0)."""
    if j == 0:
        return 1.0, 0.0, 0.0, 0.0
    r = f + 4 * (j - 1)
    return work[r, b], work[r + 1, b], work[r + 2, b], work[r + 3, b]


@njit(cache=True, error_model="numpy", inline="always")
def _rot(q0, q1, q2, q3, x, y, z):
    """geometry.qrot."""
    tx = 2.0 * (q2 * z - q3 * y)
    ty = 2.0 * (q3 * x - q1 * z)
    tz = 2.0 * (q1 * y - q2 * x)
    return (
        x + q0 * tx + (q2 * tz - q3 * ty),
        y + q0 * ty + (q3 * tx - q1 * tz),
        z + q0 * tz + (q1 * ty - q2 * tx),
    )


@njit(cache=True, error_model="numpy")
def _vectors(j, n, k, work):
    """The end-effector and target vectors from joint ``j`` in the parent link's frame, into the
    scratch rows (two loops of three rows each)."""
    _, f, px, py, pz, _, s, _ = _layout(n)
    for b in range(k):
        p0, p1, p2, p3 = _parent(j, f, work, b)
        ax, ay, az = _rot(
            p0,
            -p1,
            -p2,
            -p3,
            work[s + EX, b] - work[px + j, b],
            work[s + EY, b] - work[py + j, b],
            work[s + EZ, b] - work[pz + j, b],
        )
        work[s + AX, b], work[s + AY, b], work[s + AZ, b] = ax, ay, az
    for b in range(k):
        p0, p1, p2, p3 = _parent(j, f, work, b)
        bx, by, bz = _rot(
            p0,
            -p1,
            -p2,
            -p3,
            work[s + TX, b] - work[px + j, b],
            work[s + TY, b] - work[py + j, b],
            work[s + TZ, b] - work[pz + j, b],
        )
        work[s + BX, b], work[s + BY, b], work[s + BZ, b] = bx, by, bz


@njit(cache=True, error_model="numpy")
def _apply(j, n, k, work):
    """Put joint ``j``'s new rotation (scratch rows ``N0..N3``) into every lane where ``TURN``
    allows and it turns by more than MOVED, the end effector turned with it: one loop for the
    end effector and the verdict, one for the rotation and the flags. Branch-free."""
    _, f, px, py, pz, _, s, _ = _layout(n)
    r = 4 * j
    for b in range(k):
        q0, q1, q2, q3 = work[s + N0, b], work[s + N1, b], work[s + N2, b], work[s + N3, b]
        o0, o1, o2, o3 = work[r, b], work[r + 1, b], work[r + 2, b], work[r + 3, b]
        d0, d1, d2, d3 = qmul(q0, q1, q2, q3, o0, -o1, -o2, -o3)
        big = d1 * d1 + d2 * d2 + d3 * d3 > (TAN_HALF_MOVED * d0) * (TAN_HALF_MOVED * d0)
        turn = (work[s + TURN, b] != 0.0) & big
        p0, p1, p2, p3 = _parent(j, f, work, b)
        pjx, pjy, pjz = work[px + j, b], work[py + j, b], work[pz + j, b]
        ax, ay, az = _rot(
            p0, -p1, -p2, -p3, work[s + EX, b] - pjx, work[s + EY, b] - pjy, work[s + EZ, b] - pjz
        )
        mx, my, mz = _rot(d0, d1, d2, d3, ax, ay, az)
        wx, wy, wz = _rot(p0, p1, p2, p3, mx, my, mz)
        ex, ey, ez = pjx + wx, pjy + wy, pjz + wz
        work[s + EX, b] = ex if turn else work[s + EX, b]
        work[s + EY, b] = ey if turn else work[s + EY, b]
        work[s + EZ, b] = ez if turn else work[s + EZ, b]
        work[s + TURN, b] = 1.0 if turn else 0.0
    for b in range(k):
        turn = work[s + TURN, b] != 0.0
        work[r, b] = work[s + N0, b] if turn else work[r, b]
        work[r + 1, b] = work[s + N1, b] if turn else work[r + 1, b]
        work[r + 2, b] = work[s + N2, b] if turn else work[r + 2, b]
        work[r + 3, b] = work[s + N3, b] if turn else work[r + 3, b]
        flag = 1.0 if turn else 0.0
        work[s + MOVED_ANY, b] = max(work[s + MOVED_ANY, b], flag)
        work[s + GO, b] = flag


@njit(cache=True, error_model="numpy")
def _turn_ball(j, n, k, work, limited, cc, sc, ch, sh):
    """Turn ball joint ``j`` in every active lane; ``limited``: its cone (cos ``cc``, sin
    ``sc``, and of half the cone ``ch``, ``sh``) holds it."""
    _, f, px, py, pz, _, s, _ = _layout(n)
    r = 4 * j
    for b in range(k):
        p0, p1, p2, p3 = _parent(j, f, work, b)
        pjx, pjy, pjz = work[px + j, b], work[py + j, b], work[pz + j, b]
        ax, ay, az = _rot(
            p0, -p1, -p2, -p3, work[s + EX, b] - pjx, work[s + EY, b] - pjy, work[s + EZ, b] - pjz
        )
        bx, by, bz = _rot(
            p0, -p1, -p2, -p3, work[s + TX, b] - pjx, work[s + TY, b] - pjy, work[s + TZ, b] - pjz
        )
        na2, nb2 = ax * ax + ay * ay + az * az, bx * bx + by * by + bz * bz
        go = (work[s + ACTIVE, b] != 0.0) & (na2 > 0.0) & (nb2 > 0.0)
        nn = math.sqrt(na2 * nb2)
        dot = ax * bx + ay * by + az * bz
        cx, cy, cz = ay * bz - az * by, az * bx - ax * bz, ax * by - ay * bx
        # opposite vectors: a half turn about the axis nearest +z (else +y) normal to a
        opposite = (dot < (-1.0 + 1e-12) * nn) & (cx * cx + cy * cy + cz * cz < 1e-20 * nn * nn)
        big_z = az * az > 0.81 * na2
        hy, hz = (1.0 if big_z else 0.0), (0.0 if big_z else 1.0)
        kk = hy * ay + hz * az  # h minus its part along a, times |a|^2 (normalised below)
        r0 = 0.0 if opposite else nn + dot
        r1 = -kk * ax if opposite else cx
        r2 = na2 * hy - kk * ay if opposite else cy
        r3 = na2 * hz - kk * az if opposite else cz
        rr = r0 * r0 + r1 * r1 + r2 * r2 + r3 * r3
        inv = 1.0 / math.sqrt(rr) if rr > 0.0 else 0.0  # 0: a lane that does not turn
        r0, r1, r2, r3 = r0 * inv, r1 * inv, r2 * inv, r3 * inv
        o0, o1, o2, o3 = work[r, b], work[r + 1, b], work[r + 2, b], work[r + 3, b]
        q0, q1, q2, q3 = qmul(r0, r1, r2, r3, o0, o1, o2, o3)
        if limited:
            # the link's direction u = q x; past the cone: swing clamped to it, twist kept
            ux = 1.0 - 2.0 * (q2 * q2 + q3 * q3)
            uy = 2.0 * (q1 * q2 + q0 * q3)
            uz = 2.0 * (q1 * q3 - q0 * q2)
            side = math.sqrt(uy * uy + uz * uz)
            over = cc * side > sc * ux
            # swing about (0, -uz, uy) / side by the cone, times the twist (q0, q1, 0, 0) / tn:
            # both taken unnormalised (side times the swing, tn times the twist), as the product
            # is normalised below
            tiny_t = q0 * q0 + q1 * q1 < 1e-24
            t0, t1 = (1.0 if tiny_t else q0), (0.0 if tiny_t else q1)
            tiny_s = side < 1e-12
            w0 = ch if tiny_s else ch * side
            w2 = 0.0 if tiny_s else -sh * uz
            w3 = sh if tiny_s else sh * uy
            w0, w1, w2, w3 = qmul(w0, 0.0, w2, w3, t0, t1, 0.0, 0.0)
            q0 = w0 if over else q0
            q1 = w1 if over else q1
            q2 = w2 if over else q2
            q3 = w3 if over else q3
        qq = q0 * q0 + q1 * q1 + q2 * q2 + q3 * q3
        inv = 1.0 / math.sqrt(qq) if qq > 0.0 else 0.0
        work[s + N0, b], work[s + N1, b] = q0 * inv, q1 * inv
        work[s + N2, b], work[s + N3, b] = q2 * inv, q3 * inv
        work[s + TURN, b] = 1.0 if go else 0.0
    _apply(j, n, k, work)


@njit(cache=True, error_model="numpy")
def _turn_hinge(j, n, k, work, hy, hz, lo, hi):
    """Turn hinge ``j`` (axis ``(0, hy, hz)`` in the parent link's frame) in every active lane:
    by the signed angle between the projections of the two vectors, clamped into [lo, hi]."""
    _, _, _, _, _, phi, s, _ = _layout(n)
    _vectors(j, n, k, work)
    for b in range(k):
        ax, ay, az = work[s + AX, b], work[s + AY, b], work[s + AZ, b]
        bx, by, bz = work[s + BX, b], work[s + BY, b], work[s + BZ, b]
        cy, cz = az * bx - ax * bz, ax * by - ay * bx
        along_a, along_b = ay * hy + az * hz, by * hy + bz * hz
        th = math.atan2(cy * hy + cz * hz, ax * bx + ay * by + az * bz - along_a * along_b)
        new = clamp(work[phi + j, b] + th, lo, hi)
        sn = math.sin(0.5 * new)
        work[s + N0, b], work[s + N1, b] = math.cos(0.5 * new), 0.0
        work[s + N2, b], work[s + N3, b] = hy * sn, hz * sn
        work[s + TURN, b] = work[s + ACTIVE, b]
        work[s + BX, b] = new  # kept for the angle below
    _apply(j, n, k, work)
    for b in range(k):
        if work[s + GO, b] != 0.0:
            work[phi + j, b] = work[s + BX, b]


@njit(cache=True, error_model="numpy")
def _record(n, k, work, rec, nrec, lane):
    """One keyframe (all local rotations) for every lane whose joint just turned."""
    s = _layout(n)[6]
    cap = rec.shape[1]
    for b in range(k):
        if work[s + GO, b] == 0.0:
            continue
        i = lane[b]
        r = nrec[i]
        if r < cap:
            for j in range(n):
                for c in range(4):
                    rec[i, r, j, c] = work[4 * j + c, b]
            nrec[i] = r + 1
