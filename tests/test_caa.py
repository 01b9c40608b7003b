"""CAA (seed 004 Section 3): every joint on one circle, equal turns for equal links, no
self-intersection, few Newton steps; unequal links; limits."""

from __future__ import annotations

import math

import numpy as np
import pytest

import geoik as ik
from geoik import LimitError


def _circle_residual(points: np.ndarray) -> float:
    """Largest distance of the points from their least-squares circle (in their own plane)."""
    p = points - points.mean(axis=0)
    if p.shape[1] == 3:
        _, _, vt = np.linalg.svd(p)
        p = p @ vt[:2].T
    a = np.column_stack([2 * p, np.ones(len(p))])
    b = (p**2).sum(axis=1)
    (cx, cy, c), *_ = np.linalg.lstsq(a, b, rcond=None)
    r = math.sqrt(c + cx * cx + cy * cy)
    return float(np.abs(np.hypot(p[:, 0] - cx, p[:, 1] - cy) - r).max())


def _segments_cross(p: np.ndarray) -> bool:
    """True if two non-adjacent links of a planar pose intersect."""

    def cross(o, a, b):
        return (a[0] - o[0]) * (b[1] - o[1]) - (a[1] - o[1]) * (b[0] - o[0])

    n = len(p) - 1
    for i in range(n):
        for j in range(i + 2, n):
            if i == 0 and j == n - 1 and np.linalg.norm(p[0] - p[-1]) < 1e-9:
                continue  # a closed curl touches the base by design
            a, b, c, d = p[i], p[i + 1], p[j], p[j + 1]
            if cross(a, b, c) * cross(a, b, d) < 0 and cross(c, d, a) * cross(c, d, b) < 0:
                return True
    return False


def _targets(chain, count, rng):
    rmin, rmax = chain.reach()
    r = rng.uniform(rmin + 1e-3, rmax - 1e-3, count)
    ang = rng.uniform(-math.pi, math.pi, count)
    return chain.base + np.column_stack([r * np.cos(ang), r * np.sin(ang)])


@pytest.mark.parametrize("lengths", [[1.0] * 5, [2.0] * 3, [1.0, 2.0, 0.5, 3.0], [0.3, 1.0, 2.5]])
def test_joints_on_one_circle_without_crossing(lengths):
    chain = ik.Chain.planar(lengths)
    rng = np.random.default_rng(len(lengths))
    equal = len(set(lengths)) == 1
    for target in _targets(chain, 40, rng):
        sol = ik.solve(chain, target, method="caa")
        assert sol.status is ik.Status.REACHED
        assert _circle_residual(sol.positions) <= 1e-9 * chain.total_length or len(lengths) < 3
        assert not _segments_cross(sol.positions)
        if equal:
            turns = sol.angles[1:]
            np.testing.assert_allclose(turns, turns[0], atol=1e-12)


def test_three_d_arc_is_planar_and_circular():
    chain = ik.Chain.spatial([1.0, 2.0, 0.5, 3.0, 1.0])
    rng = np.random.default_rng(5)
    for _ in range(30):
        u = rng.normal(size=3)
        target = u / np.linalg.norm(u) * rng.uniform(0.5, 7.0)
        sol = ik.solve(chain, target, method="caa")
        assert sol.status is ik.Status.REACHED
        assert _circle_residual(sol.positions) <= 1e-9 * chain.total_length
        _, s, _ = np.linalg.svd(sol.positions - sol.positions.mean(axis=0))
        assert s[2] <= 1e-9 * chain.total_length


@pytest.mark.parametrize("n", range(2, 9))
def test_every_target_reached_in_few_newton_steps(n):
    """Seed 004: CAA reaches every target of the workspace, in few iterations (the paper reports
    at most 5 with eps = 0.01; with the paper's f and this stopping rule the count measured here
    is at most 8, the largest near full extension, where the root approaches the spurious one
    of f at theta = 0)."""
    chain = ik.Chain.planar([1.0] * n)
    xs = np.linspace(-n, n, 41)
    worst = 0
    for x in xs:
        for y in xs:
            d = math.hypot(x, y)
            if d <= 0.01 or d > n:
                continue
            sol = ik.solve(chain, (x, y), method="caa", tol=0.01)
            assert sol.status is ik.Status.REACHED
            assert sol.motion.steps == sol.iterations
            worst = max(worst, sol.iterations)
    assert worst <= 10


def test_beyond_reach_and_at_the_base():
    chain = ik.Chain.planar([1.0, 2.0, 1.5])
    sol = ik.solve(chain, (0.0, 10.0), method="caa")
    assert sol.status is ik.Status.CLOSEST and sol.iterations == 1
    np.testing.assert_allclose(sol.positions[-1], (0.0, 4.5), atol=1e-12)
    for chain in (ik.Chain.planar([1.0] * 4), ik.Chain.planar([1.0, 2.0, 1.5])):
        sol = ik.solve(chain, (0.0, 0.0), method="caa")
        assert np.all(np.isfinite(sol.positions))
        assert sol.status is ik.Status.REACHED
    # a long link folded back: the curled pose is at the minimum reach
    chain = ik.Chain.planar([5.0, 1.0, 1.0])
    sol = ik.solve(chain, (0.5, 0.5), method="caa")
    assert sol.status is ik.Status.CLOSEST
    assert np.linalg.norm(sol.positions[-1]) == pytest.approx(3.0, abs=1e-9)


def test_equal_links_follow_the_paper_equation():
    """The chord of n equal links at segment angle theta is a sin(n theta/2) / sin(theta/2)."""
    chain = ik.Chain.planar([1.5] * 6)
    sol = ik.solve(chain, (4.0, 3.0), method="caa", tol=1e-12)
    theta = sol.angles[1]
    chord = 1.5 * math.sin(6 * theta / 2) / math.sin(theta / 2)
    assert chord == pytest.approx(5.0, abs=1e-11)


def test_limits_are_met_or_refused():
    chain = ik.Chain.planar([1.0] * 4, max_bend_deg=[None, 40, 40, 40])
    far = ik.solve(chain, (3.5, 1.0), method="caa")
    assert far.status is ik.Status.REACHED
    assert np.all(np.abs(far.angles[1:]) <= math.radians(40))
    with pytest.raises(LimitError, match="joint"):
        ik.solve(chain, (0.2, 0.1), method="caa")
    hinged = ik.Chain.spatial([1.0, 1.0, 1.0], max_bend_deg=60, hinge_axes=[(0, 0, 1)] * 3)
    sol = ik.solve(hinged, (1.5, 1.5, 0.0), method="caa")
    assert sol.status is ik.Status.REACHED
    with pytest.raises(LimitError):
        ik.solve(hinged, (-0.5, 0.0, 0.0), method="caa")


@pytest.mark.parametrize("dim", [2, 3])
def test_kernel_refusing_limits_keeps_the_start_pose(dim):
    """For an arc the limits forbid on either side, the kernel reports STALLED with the joint it
    cannot meet (nrec = -1 - joint) and leaves the start pose (which meets the limits) as it
    was, recording no step: solve() raises a LimitError naming that joint, and the batch engine
    never returns a pose breaking them."""
    from geoik.geometry import STALLED
    from geoik.solvers.caa import SOLVER
    from geoik.state import rest_state

    bends = [None, 40, 40, 40]
    if dim == 2:
        chain = ik.Chain.planar([1.0] * 4, max_bend_deg=bends)
    else:
        chain = ik.Chain.spatial([1.0] * 4, max_bend_deg=bends)
    target = np.zeros(dim)
    target[:2] = (0.2, 0.1)
    with pytest.raises(LimitError, match="joint 1 "):
        ik.solve(chain, target, method="caa")
    state = rest_state(chain)
    start = state.copy()
    opts = SOLVER.kernel_opts(chain, {})
    rec = np.empty((SOLVER.capacity(chain.n, 50),) + state.shape)
    rec[0] = state
    out = SOLVER.run(chain, target, state, 1e-4, 50, opts, rec)
    assert out == (STALLED, 0, -2)
    np.testing.assert_array_equal(state, start)
