"""The planar CCD lane kernel: lanes are independent, and it is the kernel solve() runs."""

from __future__ import annotations

import math

import numpy as np
import pytest

import geoik as ik
from geoik.geometry import fk_2d
from geoik.solvers.ccd import ccd_2d
from geoik.solvers.ccd.lanes import ccd_2d_lanes, ccd_2d_lanes_plain
from geoik.state import rest_state

N_TARGETS = 48
TOL, MAX_ITER = 1e-3, 30


def _arrays(chain):
    return chain.kernel_arrays


def _chains():
    rng = np.random.default_rng(5)
    lengths = rng.uniform(0.5, 2.0, 5)
    return [
        ik.Chain.planar(lengths),
        ik.Chain.planar(lengths, [(-40.0, 150.0)] + [120.0] * 4, base=(0.5, -1.0)),
    ]


def _targets(chain):
    rng = np.random.default_rng(9)
    r = 1.2 * chain.total_length
    t = chain.base + rng.uniform(-r, r, (N_TARGETS, 2))
    t[0] = chain.base
    t[1] = chain.base + (0.5 * chain.total_length, 0.0)  # on the straight chain's line
    return t


def _one_by_one(chain, targets, starts, cap):
    arrays, n = _arrays(chain), chain.n
    out = []
    for t, start in zip(targets, starts, strict=True):
        ang = start.copy()
        rec = np.zeros((cap, n))
        rec[0] = start
        code, used, nrec = ccd_2d(arrays, t, ang, TOL, MAX_ITER, np.zeros(0), rec)
        out.append((code, used, nrec, ang, rec[:nrec].copy()))
    return out


def _lanes(chain, targets, starts, cap, k, kernel=ccd_2d_lanes):
    arrays, n, m = _arrays(chain), chain.n, len(targets)
    out = []
    for i0 in range(0, m, k):
        t = np.ascontiguousarray(targets[i0 : i0 + k])
        kk = len(t)
        ang = starts[i0 : i0 + k].copy()
        rec = np.zeros((kk, cap, n))
        rec[:, 0] = ang
        nrec, status, iters = (np.zeros(kk, np.int64) for _ in range(3))
        end = np.zeros((kk, 2))
        lane_out = (nrec, status, iters, end)
        kernel(arrays, t, ang, TOL, MAX_ITER, np.zeros(0), rec, lane_out, True)
        for b in range(kk):
            out.append((status[b], iters[b], nrec[b], ang[b], rec[b, : nrec[b]].copy()))
    return out


def _starts(chain, targets, shared):
    """The rest pose for every target, or (``shared`` False) a mix: the rest pose, random poses,
    and the rest pose with a joint at -0.0 instead of 0.0 (whose sine differs in sign)."""
    start = np.ascontiguousarray(rest_state(chain), dtype=np.float64)
    starts = np.tile(start, (len(targets), 1))
    if not shared:
        rng = np.random.default_rng(3)
        for i in range(1, len(targets), 3):
            starts[i] = [
                rng.uniform(lo, hi) if np.isfinite(lo) else rng.uniform(-3, 3)
                for lo, hi in zip(chain.lo, chain.hi, strict=True)
            ]
        for i in range(2, len(targets), 3):
            starts[i] = np.where(start == 0.0, -0.0, start)
    return starts


@pytest.mark.parametrize("k", [1, 7, 16, 48])
@pytest.mark.parametrize("recording", [True, False], ids=["recording", "not-recording"])
@pytest.mark.parametrize("which", [0, 1], ids=["free", "limits"])
@pytest.mark.parametrize("shared", [True, False], ids=["one-start", "own-starts"])
def test_lanes_equal_single_kernel(k, recording, which, shared):
    """Lanes never interact: K lanes (K = 16 and 48 pad the work array's rows) give each target
    what one lane gives it, bit for bit, whether the lanes share a start pose or not."""
    chain = _chains()[which]
    targets = _targets(chain)
    starts = _starts(chain, targets, shared)
    cap = 1 + chain.n * MAX_ITER if recording else 1
    ref = _one_by_one(chain, targets, starts, cap)
    got = _lanes(chain, targets, starts, cap, k)
    for i, (a, b) in enumerate(zip(ref, got, strict=True)):
        assert a[:3] == tuple(b[:3]), i
        assert np.array_equal(a[3], b[3]), i  # bit for bit: lanes do not interact
        assert np.array_equal(a[4], b[4]), i


@pytest.mark.parametrize("k", [7, 48])
@pytest.mark.parametrize("recording", [True, False], ids=["recording", "not-recording"])
@pytest.mark.parametrize("which", [0, 1], ids=["free", "limits"])
def test_the_plain_lane_kernel_equals_the_kernel_without_escape(k, recording, which):
    """The lane kernel compiled without its escape paths (the batch engine's with ``escape``
    off) gives every target what the kernel with them gives it with the option off, bit for
    bit: the same operations, the option's branches left out; and the batch picks each."""
    chain = _chains()[which]
    targets = _targets(chain)
    starts = _starts(chain, targets, False)
    cap = 1 + chain.n * MAX_ITER if recording else 1
    ref = _lanes(chain, targets, starts, cap, k)
    got = _lanes(chain, targets, starts, cap, k, ccd_2d_lanes_plain)
    for i, (a, b) in enumerate(zip(ref, got, strict=True)):
        assert tuple(a[:3]) == tuple(b[:3]), i
        assert np.array_equal(a[3], b[3]) and np.array_equal(a[4], b[4]), i
    solver = ik.solvers.REGISTRY["ccd"]
    assert solver.lane_kernel_2d(np.zeros(1)) is ccd_2d_lanes_plain
    assert solver.lane_kernel_2d(np.ones(1)) is ccd_2d_lanes


def test_solve_runs_the_lane_kernel_with_limits():
    chain = _chains()[1]
    lo, hi = chain.lo, chain.hi
    reached = 0
    for t in _targets(chain):
        sol = ik.solve(chain, t, "ccd", tol=TOL, max_iter=MAX_ITER)
        assert np.all(sol.angles >= lo - 1e-12) and np.all(sol.angles <= hi + 1e-12)
        keys = sol.motion.keys
        assert np.all(keys >= lo - 1e-12) and np.all(keys <= hi + 1e-12)
        reached += sol.status is ik.Status.REACHED
    assert reached > 0


def test_limited_joint_stops_at_its_limit():
    # one joint limited to [-30, 30] degrees, target straight up: CCD turns it to +30 and stops
    chain = ik.Chain.planar([1.0], [30.0])
    sol = ik.solve(chain, (0.0, 1.0), "ccd", tol=1e-6, max_iter=10)
    assert sol.angles[0] == pytest.approx(math.radians(30.0), abs=1e-15)
    assert sol.status is not ik.Status.REACHED


def test_free_chain_final_angles_give_the_kernel_end_effector():
    chain = _chains()[0]
    arrays, n = _arrays(chain), chain.n
    t = np.ascontiguousarray(_targets(chain)[2:18])
    k = len(t)
    ang = np.zeros((k, n))
    out = [np.zeros(k, np.int64) for _ in range(3)]
    end = np.zeros((k, 2))
    rec = np.zeros((k, 1, n))
    ccd_2d_lanes(arrays, t, ang, TOL, MAX_ITER, np.zeros(0), rec, (*out, end), True)
    pos = np.empty((n + 1, 2))
    for b in range(k):
        fk_2d(chain.lengths, chain.base, ang[b], pos)
        np.testing.assert_allclose(pos[n], end[b], atol=1e-12)


def _spatial_chains():
    return [
        ik.Chain.spatial([1.0] * 5, max_bend_deg=60),
        ik.Chain.spatial(
            [1.0, 0.8, 1.2, 0.7],
            max_bend_deg=[90, (-45, 120), 45, None],
            hinge_axes=[None, (0, 1, 1), None, (0, 0, 1)],
            base=(0.3, -0.2, 0.5),
        ),
    ]


@pytest.mark.parametrize("dim", [2, 3])
def test_the_plain_one_target_kernels_equal_the_registered_ones_without_escape(dim):
    """A solve with ``escape`` off runs the one-target kernel compiled without the escape paths
    (``ccd_2d_plain``: the maps' lane kernel; ``ccd_3d_plain``: the lane kernel, not
    ``ccd_3d_escape``): every target gets what the registered kernel gives it with the option
    off, bit for bit, recording or not; with the option on, the registered kernel runs."""
    from geoik.solvers.ccd import ccd_2d_plain, ccd_3d, ccd_3d_plain

    solver = ik.solvers.REGISTRY["ccd"]
    off, on = solver.pack_options({}), solver.pack_options({"escape": 1})
    full, plain = (ccd_2d, ccd_2d_plain) if dim == 2 else (ccd_3d, ccd_3d_plain)
    assert solver.chain_kernel(dim, off) is plain and solver.chain_kernel(dim, on) is full
    for chain in _chains() if dim == 2 else _spatial_chains():
        rng = np.random.default_rng(11)
        r = 1.2 * chain.total_length
        targets = chain.base + rng.uniform(-r, r, (24, dim))
        targets[0] = chain.base
        for cap in (1, 1 + chain.n * MAX_ITER):
            for t in targets:
                got = []
                for kernel in (full, plain):
                    state = rest_state(chain)
                    rec = np.zeros((cap, *state.shape))
                    rec[0] = state
                    head = kernel(chain.kernel_arrays, t, state, TOL, MAX_ITER, off, rec)
                    got.append((tuple(head), state, rec[: head[2]].copy()))
                (a, qa, ra), (b, qb, rb) = got
                assert a == b and np.array_equal(qa, qb) and np.array_equal(ra, rb), t
