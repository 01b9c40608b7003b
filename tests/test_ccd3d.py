"""The 3-D CCD lane kernel: lanes are independent, it is the kernel solve() runs, and it is the
CCD of the plain one-joint-at-a-time kernel (``ccd_3d_escape`` with the escape off: forward
kinematics redone after every update, every rotation built with trigonometry)."""

from __future__ import annotations

import numpy as np
import pytest

import geoik as ik
from geoik.geometry import (
    CLOSEST,
    REACHED,
    constrain_joint_3d,
    fk_3d,
    q_angle,
    qmul,
)
from geoik.solvers.ccd import ccd_3d, ccd_3d_escape
from geoik.solvers.ccd.lanes3d import ccd_3d_lanes
from geoik.state import rest_state

TOL, MAX_ITER = 1e-3, 30


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
        code, used, nrec = ccd_3d(chain.kernel_arrays, t, q, TOL, MAX_ITER, np.zeros(1), rec)
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
            chain.kernel_arrays,
            t,
            q,
            TOL,
            MAX_ITER,
            np.zeros(1),
            rec,
            (nrec, status, iters, end),
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


@pytest.mark.parametrize("recording", [True, False], ids=["recording", "not-recording"])
@pytest.mark.parametrize("which", range(4), ids=IDS)
def test_compacted_lanes_equal_single_kernel(recording, which):
    """300 lanes in one call: once at most half are active they are moved into the first half
    (300 -> 150 -> 75 lanes); every target's result stays that of the single kernel."""
    chain = _chains()[which]
    targets = chain.base + 0.5 * (_targets(chain, m=300, seed=4) - chain.base)  # most reached
    cap = 1 + chain.n * MAX_ITER if recording else 1
    ref = _one_by_one(chain, targets, cap)
    sweeps = np.sort([r[1] for r in ref])
    assert sweeps[len(sweeps) // 2] < sweeps[-1]  # half settle early: the lanes are compacted
    got = _lanes(chain, targets, cap, len(targets))
    for i, (a, b) in enumerate(zip(ref, got, strict=True)):
        assert a[:3] == tuple(b[:3]), i
        assert np.array_equal(a[3], b[3]), i
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
        one = np.zeros((1, n, 4))
        code, used, _ = ccd_3d_escape(chain.kernel_arrays, t, q, TOL, MAX_ITER, np.zeros(1), one)
        got = rest_state(chain)
        rec = np.zeros((1, n, 4))
        status, sweeps, _ = ccd_3d(chain.kernel_arrays, t, got, TOL, MAX_ITER, np.zeros(1), rec)
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
        chain.kernel_arrays,
        t,
        q,
        TOL,
        MAX_ITER,
        np.zeros(1),
        np.zeros((k, 1, n, 4)),
        (*out, end),
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
