"""The invariants of item 4, for every registered solver, over random chains and targets."""

from __future__ import annotations

import math
import os
import pickle
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, reject
from hypothesis import strategies as st

import geoik as ik
from geoik.solvers import REGISTRY, chain_methods
from tests.conftest import chains, check_invariants, targets_for

METHODS = sorted(chain_methods())
# Solvers that straighten towards an out-of-reach target in one step. CCD and the Jacobian
# approach the straight pose only gradually (CCD keeps the end effector on the target line and
# unrolls sublinearly), so for them CLOSEST comes when, and only when, they get within tol.
AT_ONCE = {"fabrik", "two-bone", "triangulation", "single-pass", "circles", "caa"}


def _solve(method: str, chain, target, **kw):
    """Solve, or None when the solver refuses the chain's limits up front with its typed error
    (CAA: limits it cannot meet raise at the boundary instead of returning a pose)."""
    try:
        return ik.solve(chain, target, method=method, **kw)
    except ik.LimitError:
        if not REGISTRY[method].limit_note:
            raise
        return None


def _shape(method: str) -> dict:
    """Chain constraints of a solver: link count range and dimensions."""
    s = REGISTRY[method]
    lo, hi = s.links
    return {"n_min": lo, "n_max": hi if hi is not None else 15, "dims": s.dims}


@pytest.mark.parametrize("method", METHODS)
@given(data=st.data())
def test_random_chains_and_targets(method, data):
    chain = data.draw(chains(**_shape(method)))
    target = data.draw(targets_for(chain))
    sol = _solve(method, chain, target)
    if sol is None:
        reject()
    check_invariants(sol, chain, target)


@pytest.mark.parametrize("method", METHODS)
@given(data=st.data())
def test_unreachable_targets_give_closest(method, data):
    """Unconstrained chain, target beyond reach: CLOSEST, straight and pointing at the target."""
    chain = data.draw(chains(limited=False, **_shape(method)))
    direction = np.array(
        data.draw(st.lists(st.floats(-1, 1), min_size=chain.dim, max_size=chain.dim))
    )
    if np.linalg.norm(direction) < 1e-3:
        direction = np.eye(chain.dim)[1]
    direction /= np.linalg.norm(direction)
    dist = chain.total_length * data.draw(st.floats(1.01, 3.0))
    target = chain.base + dist * direction
    sol = ik.solve(chain, target, method=method, max_iter=500)
    check_invariants(sol, chain, target)
    closest = chain.base + chain.total_length * direction
    near = np.linalg.norm(sol.positions[-1] - closest) <= sol.tol
    # CLOSEST exactly when the end effector is within tol of the closest reachable point
    assert (sol.status is ik.Status.CLOSEST) == near
    assert sol.status is not ik.Status.REACHED
    if method in AT_ONCE:
        assert near and sol.iterations <= 1


@pytest.mark.parametrize("method", METHODS)
@pytest.mark.parametrize("dim", [2, 3])
@pytest.mark.parametrize("limited", [False, True])
def test_degenerate_targets(method, dim, limited):
    """Target at the base, on the line of the straight chain (inside and beyond), at the end
    effector, and a one-link chain: never NaN, invariants hold."""
    s = REGISTRY[method]
    if dim not in s.dims:
        pytest.skip(f"{method} has no {dim}-D kernel")
    n = 4 if s.links[1] is None or s.links[1] >= 4 else s.links[1]
    sizes = [n] + ([1] if s.links[0] <= 1 else [])
    for k in sizes:
        lengths = [1.0 + 0.5 * i for i in range(k)]
        if dim == 2:
            chain = ik.Chain.planar(lengths, max_bend_deg=90 if limited else None)
        else:
            hinges = [None if i % 2 else (0, 0, 1) for i in range(k)] if limited else None
            chain = ik.Chain.spatial(
                lengths, max_bend_deg=90 if limited else None, hinge_axes=hinges
            )
        L = chain.total_length
        e = np.eye(dim)[0]
        for target in (0 * e, 0.5 * L * e, L * e, 2 * L * e, -0.5 * L * e, 1e-9 * e):
            sol = _solve(method, chain, target)
            if sol is not None:
                check_invariants(sol, chain, target)
        rest_end = chain.rest_pose().positions[-1]
        sol = ik.solve(chain, rest_end, method=method)
        assert sol.status is ik.Status.REACHED


@pytest.mark.parametrize("method", METHODS)
def test_continue_from_previous_frame(method):
    """``start`` continues from a given pose; the motion starts there."""
    s = REGISTRY[method]
    n = 2 if s.links == (2, 2) else 5
    dim = s.dims[0]
    chain = ik.Chain.planar([1.0] * n) if dim == 2 else ik.Chain.spatial([1.0] * n)
    t1 = np.zeros(dim)
    t1[:2] = (0.5 * n, 0.4 * n)
    first = ik.solve(chain, t1, method=method)
    t2 = t1.copy()
    t2[1] += 0.05
    second = ik.solve(chain, t2, method=method, start=first.pose)
    check_invariants(second, chain, t2)
    np.testing.assert_allclose(second.motion.poses()[0], first.positions, atol=1e-9)
    again = ik.solve(chain, t2, method=method, start=first.angles)
    np.testing.assert_allclose(again.positions, second.positions, atol=1e-12)


def kernel_cases() -> list[tuple[str, int, ik.Chain, np.ndarray]]:
    """(method, dim, chain, target) for every registered kernel: free and limited chains (3-D:
    hinges and cones), reachable targets, a target beyond reach and one at the base."""
    rng = np.random.default_rng(7)
    out = []
    for method in METHODS:
        s = REGISTRY[method]
        lo, hi = s.links
        n = max(lo, 6 if hi is None else min(6, hi))
        for dim in s.dims:
            for trial in range(4):
                lengths = rng.uniform(0.5, 2.0, n)
                limits = 60.0 if trial % 2 else None
                if dim == 2:
                    chain = ik.Chain.planar(lengths, max_bend_deg=limits)
                else:
                    hinges = [(0, 0, 1) if (i + trial) % 3 == 0 else None for i in range(n)]
                    chain = ik.Chain.spatial(lengths, max_bend_deg=limits, hinge_axes=hinges)
                scale = (0.8, 0.8, 1.5, 0.0)[trial]
                target = chain.base + rng.uniform(-1, 1, dim) * chain.total_length * scale
                out.append((method, dim, chain, target))
    return out


def run_kernels(cases) -> list[tuple]:
    """Each case's kernel output, final state, keyframes and motion costs (what ``solve`` and
    ``costs`` read), plus the CCD lane kernel on blocks of targets."""
    from geoik.motion import motion_costs
    from geoik.solvers.ccd.lanes import ccd_2d_lanes
    from geoik.state import rest_state

    results = []
    for method, _dim, chain, target in cases:
        s = REGISTRY[method]
        try:
            opts = s.kernel_opts(chain, {})
            state = rest_state(chain)
        except ik.GeoIKError:
            continue
        rec = np.zeros((s.capacity(chain.n, 30),) + state.shape)
        rec[0] = state
        out = tuple(int(v) for v in s.run(chain, target, state, 1e-6, 30, opts, rec))
        used = max(out[2], 1)  # a limit the kernel cannot meet: nrec = -1 - joint, start kept
        results.append((method, out, state, rec[:used], motion_costs(chain, rec[:used])))
    for limits in (None, 60.0):
        chain = ik.Chain.planar([1.0, 0.7, 1.3, 0.5, 1.1], max_bend_deg=limits)
        targets = np.array([[1.5, 2.0], [-3.0, 0.5], [0.0, 0.0], [6.0, 2.0], [2.0, 0.0]])
        for cap in (1, 1 + chain.n * 30):
            k = len(targets)
            angles = np.tile(rest_state(chain), (k, 1))
            rec = np.zeros((k, cap, chain.n))
            rec[:, 0] = angles
            ints = np.zeros((3, k), np.int64)
            end = np.zeros((k, 2))
            ccd_2d_lanes(
                chain.kernel_arrays,
                targets,
                angles,
                1e-6,
                30,
                np.zeros(0),
                rec,
                (ints[0], ints[1], ints[2], end),
                True,
            )
            results.append(("ccd lanes", tuple(ints.ravel()), angles, rec, end))
    return results


PURE_PYTHON = """
import pickle, sys
from tests.test_invariants import kernel_cases, run_kernels
sys.stdout.buffer.write(pickle.dumps(run_kernels(kernel_cases())))
"""


def test_kernels_equal_their_python_source():
    """Every registered kernel, the CCD lane kernel and the motion costs, compiled, give what
    their Python source gives: a subprocess runs them with NUMBA_DISABLE_JIT=1, so that every
    compiled helper they call runs as Python too (``.py_func`` alone would still call them
    compiled)."""
    root = Path(__file__).resolve().parents[1]
    env = {**os.environ, "NUMBA_DISABLE_JIT": "1", "PYTHONPATH": str(root)}
    done = subprocess.run(
        [sys.executable, "-c", PURE_PYTHON],
        capture_output=True,
        env=env,
        cwd=root,
        timeout=600,
        check=False,
    )
    assert done.returncode == 0, done.stderr.decode()
    pure = pickle.loads(done.stdout)
    compiled = run_kernels(kernel_cases())
    assert len(pure) == len(compiled) >= 2 * len(METHODS)
    for a, b in zip(compiled, pure, strict=True):
        assert a[:2] == b[:2]  # method, (status, iterations, keyframes)
        for x, y in zip(a[2:], b[2:], strict=True):
            np.testing.assert_allclose(x, y, rtol=1e-9, atol=1e-12, err_msg=a[0])


def test_registry_names_are_cli_names():
    for name, solver in REGISTRY.items():
        assert solver.name == name
        assert name == name.lower() and " " not in name
        assert solver.summary and solver.source
        assert math.isfinite(solver.default_max_iter)
