"""The 3-D CCD lane kernel: lanes are independent, it is the kernel solve() runs, and it is the
CCD of a plain one-joint-at-a-time implementation (kept here as the reference)."""

from __future__ import annotations

import math

import numpy as np
import pytest
from numba import njit

import geoik as ik
from geoik.geometry import (
    CLOSEST,
    MAX_ITERATIONS,
    REACHED,
    STALLED,
    beyond_reach,
    clamp,
    constrain_joint_3d,
    dist2,
    fk_3d,
    fk_3d_from,
    hinge_angle,
    parent_frame,
    q_angle,
    q_axis_angle,
    q_between,
    qmul,
    qnormalize,
    qrot,
)
from geoik.solvers.ccd import ccd_3d
from geoik.solvers.ccd.lanes import MOVED
from geoik.solvers.ccd.lanes3d import ccd_3d_lanes
from geoik.state import rest_state

TOL, MAX_ITER = 1e-3, 30


@njit(cache=True)
def reference_ccd_3d(lengths, base, cone, hinge, lo, hi, target, quats, tol, max_iter):
    """CCD in 3-D one joint at a time, the forward kinematics redone after every update and
    every rotation built with trigonometry: the kernel's algorithm, computed the plain way."""
    n = lengths.shape[0]
    pos = np.empty((n + 1, 3))
    world = np.empty((n, 4))
    outer = np.empty(3)
    is_beyond = beyond_reach(lengths, base, target, outer)
    tol2 = tol * tol
    fk_3d(lengths, base, quats, pos, world)
    if dist2(pos[n], target) <= tol2:
        return REACHED, 0
    for it in range(1, max_iter + 1):
        biggest = 0.0
        for j in range(n - 1, -1, -1):
            ax, ay, az = pos[n, 0] - pos[j, 0], pos[n, 1] - pos[j, 1], pos[n, 2] - pos[j, 2]
            bx, by, bz = target[0] - pos[j, 0], target[1] - pos[j, 1], target[2] - pos[j, 2]
            p0, p1, p2, p3 = parent_frame(j, world)
            o0, o1, o2, o3 = quats[j, 0], quats[j, 1], quats[j, 2], quats[j, 3]
            hx, hy, hz = hinge[j, 0], hinge[j, 1], hinge[j, 2]
            if hx != 0.0 or hy != 0.0 or hz != 0.0:
                wx, wy, wz = qrot(p0, p1, p2, p3, hx, hy, hz)
                cx, cy, cz = ay * bz - az * by, az * bx - ax * bz, ax * by - ay * bx
                dot = ax * bx + ay * by + az * bz
                along_a = ax * wx + ay * wy + az * wz
                along_b = bx * wx + by * wy + bz * wz
                th = math.atan2(cx * wx + cy * wy + cz * wz, dot - along_a * along_b)
                phi = clamp(hinge_angle(o0, o1, o2, o3, hx, hy, hz) + th, lo[j], hi[j])
                q0, q1, q2, q3 = q_axis_angle(hx, hy, hz, phi)
            else:
                na = math.sqrt(ax * ax + ay * ay + az * az)
                nb = math.sqrt(bx * bx + by * by + bz * bz)
                if na < 1e-300 or nb < 1e-300:
                    continue
                r0, r1, r2, r3 = q_between(ax / na, ay / na, az / na, bx / nb, by / nb, bz / nb)
                l0, l1, l2, l3 = qmul(p0, -p1, -p2, -p3, r0, r1, r2, r3)
                l0, l1, l2, l3 = qmul(l0, l1, l2, l3, p0, p1, p2, p3)
                q0, q1, q2, q3 = qmul(l0, l1, l2, l3, o0, o1, o2, o3)
                q0, q1, q2, q3 = constrain_joint_3d(q0, q1, q2, q3, j, cone, hinge, lo, hi)
            q0, q1, q2, q3 = qnormalize(q0, q1, q2, q3)
            d0, d1, d2, d3 = qmul(q0, q1, q2, q3, o0, -o1, -o2, -o3)
            th = q_angle(d0, d1, d2, d3)
            if th <= MOVED:
                continue
            quats[j, 0], quats[j, 1], quats[j, 2], quats[j, 3] = q0, q1, q2, q3
            fk_3d_from(j, lengths, quats, pos, world)
            biggest = max(biggest, th)
        if dist2(pos[n], target) <= tol2:
            return REACHED, it
        if is_beyond and dist2(pos[n], outer) <= tol2:
            return CLOSEST, it
        if biggest <= MOVED:
            return STALLED, it
    return MAX_ITERATIONS, max_iter


def _chains():
    return [
        ik.Chain.spatial([1.0] * 5, max_bend_deg=60),
        ik.Chain.spatial([0.7, 1.3, 0.9, 1.1]),
        ik.Chain.spatial([3.0, 2.5], max_bend_deg=[60, (0, 150)], hinge_axes=[None, (0, 0, 1)]),
        ik.Chain.spatial(
            [1.0, 0.8, 1.2, 0.7],
            max_bend_deg=[90, (-45, 120), 45, None],
            hinge_axes=[None, (0, 1, 1), None, (0, 0, 1)],
            base=(0.3, -0.2, 0.5),
        ),
    ]


IDS = ["cones", "free", "arm", "mixed"]


def _targets(chain, m=60, seed=3):
    rng = np.random.default_rng(seed)
    t = chain.base + rng.uniform(-1.1, 1.1, (m, 3)) * chain.total_length
    t[0] = chain.base
    t[1] = chain.base + (0.5 * chain.total_length, 0.0, 0.0)  # on the straight chain's line
    t[2] = chain.base - (0.5 * chain.total_length, 0.0, 0.0)  # straight behind: opposite vectors
    return t


def _one_by_one(chain, targets, cap):
    n = chain.n
    out = []
    for t in targets:
        q = rest_state(chain)
        rec = np.zeros((cap, n, 4))
        rec[0] = q
        code, used, nrec = ccd_3d(*chain.kernel_arrays, t, q, TOL, MAX_ITER, np.zeros(1), rec)
        out.append((code, used, nrec, q, rec[:nrec].copy()))
    return out


def _lanes(chain, targets, cap, k):
    n, m = chain.n, len(targets)
    out = []
    for i0 in range(0, m, k):
        t = np.ascontiguousarray(targets[i0 : i0 + k])
        kk = len(t)
        q = np.tile(rest_state(chain), (kk, 1, 1))
        rec = np.zeros((kk, cap, n, 4))
        rec[:, 0] = q
        nrec, status, iters = (np.zeros(kk, np.int64) for _ in range(3))
        end = np.zeros((kk, 3))
        ccd_3d_lanes(
            *chain.kernel_arrays,
            t,
            q,
            TOL,
            MAX_ITER,
            np.zeros(1),
            rec,
            nrec,
            status,
            iters,
            end,
            True,
        )
        for b in range(kk):
            out.append((status[b], iters[b], nrec[b], q[b], rec[b, : nrec[b]].copy()))
    return out


@pytest.mark.parametrize("k", [1, 7, 16])
@pytest.mark.parametrize("recording", [True, False], ids=["recording", "not-recording"])
@pytest.mark.parametrize("which", range(4), ids=IDS)
def test_lanes_equal_single_kernel(k, recording, which):
    chain = _chains()[which]
    targets = _targets(chain)
    cap = 1 + chain.n * MAX_ITER if recording else 1
    ref = _one_by_one(chain, targets, cap)
    got = _lanes(chain, targets, cap, k)
    for i, (a, b) in enumerate(zip(ref, got, strict=True)):
        assert a[:3] == tuple(b[:3]), i
        assert np.array_equal(a[3], b[3]), i  # bit for bit: lanes do not interact
        assert np.array_equal(a[4], b[4]), i


@pytest.mark.parametrize("which", range(4), ids=IDS)
def test_the_kernel_is_the_plain_ccd(which):
    """Status and sweeps as the plain implementation's on nearly every target (the two round
    differently, which may tip a target at the edge of a decision), and then the same end
    effector to rounding."""
    chain = _chains()[which]
    targets = _targets(chain, m=400, seed=8)
    n, same = chain.n, 0
    pos, world = np.empty((n + 1, 3)), np.empty((n, 4))
    for t in targets:
        q = rest_state(chain)
        code, used = reference_ccd_3d(*chain.kernel_arrays, t, q, TOL, MAX_ITER)
        got = rest_state(chain)
        rec = np.zeros((1, n, 4))
        status, sweeps, _ = ccd_3d(*chain.kernel_arrays, t, got, TOL, MAX_ITER, np.zeros(1), rec)
        if (status, sweeps) != (code, used):
            continue
        same += 1
        fk_3d(chain.lengths, chain.base, q, pos, world)
        want = pos[n].copy()
        fk_3d(chain.lengths, chain.base, got, pos, world)
        if code in (REACHED, CLOSEST) or used < 10:  # no drift over long runs to compare
            np.testing.assert_allclose(pos[n], want, rtol=0, atol=1e-9 * chain.total_length)
    assert same >= 0.99 * len(targets)


def test_final_rotations_give_the_kernel_end_effector_bit_for_bit():
    chain = _chains()[3]
    n = chain.n
    t = np.ascontiguousarray(_targets(chain)[3:19])
    k = len(t)
    q = np.tile(rest_state(chain), (k, 1, 1))
    out = [np.zeros(k, np.int64) for _ in range(3)]
    end = np.zeros((k, 3))
    ccd_3d_lanes(
        *chain.kernel_arrays,
        t,
        q,
        TOL,
        MAX_ITER,
        np.zeros(1),
        np.zeros((k, 1, n, 4)),
        *out,
        end,
        True,
    )
    pos, world = np.empty((n + 1, 3)), np.empty((n, 4))
    for b in range(k):
        fk_3d(chain.lengths, chain.base, q[b], pos, world)
        assert np.array_equal(pos[n], end[b])


@pytest.mark.parametrize("which", range(4), ids=IDS)
def test_limits_hold(which):
    chain = _chains()[which]
    for t in _targets(chain, m=40, seed=4):
        sol = ik.solve(chain, t, "ccd", tol=TOL, max_iter=MAX_ITER)
        for keys in sol.motion.keys:
            q = keys.copy()
            for j in range(chain.n):
                c = constrain_joint_3d(*q[j], j, chain.cone, chain.hinge, chain.lo, chain.hi)
                d = qmul(*c, q[j, 0], -q[j, 1], -q[j, 2], -q[j, 3])
                assert q_angle(*d) < 1e-7, (t, j)


def test_a_planar_chain_in_the_xy_plane_stays_in_it():
    chain = ik.Chain.spatial([1.0, 0.8, 0.6])
    for t in [(-1.5, 0.3, 0.0), (-2.4, 0.0, 0.0), (0.2, -1.1, 0.0)]:
        sol = ik.solve(chain, t, "ccd", tol=1e-6, max_iter=50)
        assert np.allclose(sol.positions[:, 2], 0.0, atol=1e-12), t
