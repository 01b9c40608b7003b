"""Motion replay: keyframe poses, step rotations, the end-effector trace and the true path length
(single-joint steps exact arcs, multi-joint steps integrated), in 2-D and 3-D."""

from __future__ import annotations

import math

import numpy as np
import pytest

import geoik as ik
from geoik import geometry as g
from geoik.motion import Motion, richardson, samples
from tests.conftest import spy_work_hints

NODES, WEIGHTS = np.polynomial.legendre.leggauss(64)


def gauss_length(speed, a: float, b: float, panels: int = 16) -> float:
    """Integral of ``speed`` over [a, b] by composite 64-point Gauss-Legendre (smooth speeds:
    exact to rounding)."""
    edges = np.linspace(a, b, panels + 1)
    total = 0.0
    for lo, hi in zip(edges[:-1], edges[1:], strict=True):
        t = 0.5 * (hi - lo) * NODES + 0.5 * (hi + lo)
        total += 0.5 * (hi - lo) * float(np.sum(WEIGHTS * speed(t)))
    return total


def quats(*rotvecs) -> np.ndarray:
    return np.array([g.rotvec_to_q(*rv) for rv in rotvecs])


def test_two_joints_turning_together_2d():
    """Links [1, 1], both relative angles going 0 -> T: the tip is (cos s + cos 2s, sin s +
    sin 2s) at s in [0, T], its speed sqrt(5 + 4 cos s)."""
    T = 2.5
    chain = ik.Chain.planar([1.0, 1.0])
    m = Motion(chain, np.array([[0.0, 0.0], [T, T]]))
    exact = gauss_length(lambda s: np.sqrt(5.0 + 4.0 * np.cos(s)), 0.0, T)
    assert m.path_length() == pytest.approx(exact, rel=1e-9)


def test_joint_turns_that_nearly_cancel_at_the_tip_2d():
    """Links [1, 1.02] nearly straight; joint 0 turns +0.03 while joint 1 turns -0.06, so the
    links' turns almost cancel at the tip, which traces a short, tightly curved path (as in
    damped least squares' last steps). Its length still comes out to 1e-9."""
    lengths = np.array([1.0, 1.02])
    before, after = np.array([0.2, 0.001]), np.array([0.23, 0.001 - 0.06])
    phi0, dphi = np.cumsum(before), np.cumsum(after - before)

    def speed(t):
        phi = phi0[None, :] + t[:, None] * dphi[None, :]
        vx = (lengths * dphi * np.sin(phi)).sum(axis=1)
        vy = (lengths * dphi * np.cos(phi)).sum(axis=1)
        return np.hypot(vx, vy)

    m = Motion(ik.Chain.planar(lengths), np.stack([before, after]))
    assert m.path_length() == pytest.approx(gauss_length(speed, 0.0, 1.0, 64), rel=1e-9)


def _planar_speed(lengths, phi0, dphi):
    """The end effector's speed while link i's angle goes linearly from phi0_i by dphi_i."""

    def speed(t):
        phi = phi0[None, :] + t[:, None] * dphi[None, :]
        vx = (lengths * dphi * np.sin(phi)).sum(axis=1)
        vy = (lengths * dphi * np.cos(phi)).sum(axis=1)
        return np.hypot(vx, vy)

    return speed


@pytest.mark.parametrize("scale", [0.01, 0.3, 1.0, 3.0], ids=lambda s: f"turns x{s}")
def test_multi_joint_steps_2d_are_bound_controlled(scale):
    """Random planar steps in which every joint turns, from small ones (damped least squares)
    to ones over several radians (FABRIK, CAA, circles: several Taylor pieces), against
    composite Gauss-Legendre on the exact speed: within 1e-9 of the links' arcs."""
    rng = np.random.default_rng(int(scale * 100))
    for _ in range(40):
        n = int(rng.integers(2, 8))
        lengths = rng.uniform(0.3, 2.0, n)
        before = rng.uniform(-np.pi, np.pi, n)
        after = before + scale * rng.normal(size=n)
        phi0, dphi = np.cumsum(before), np.cumsum(after - before)
        m = Motion(ik.Chain.planar(lengths), np.stack([before, after]))
        bound = float(np.sum(lengths * np.abs(dphi)))
        exact = gauss_length(_planar_speed(lengths, phi0, dphi), 0.0, 1.0, 256)
        assert abs(m.path_length() - exact) <= 1e-9 * bound


def test_spatial_step_with_two_axes():
    """Joint 0 turns about z and joint 1 about its own y, both by s in [0, T]: the tip is
    Rz(s) (1 + cos s, 0, -sin s), whose speed is integrated analytically."""
    T = 2.0
    chain = ik.Chain.spatial([1.0, 1.0])
    keys = np.stack([quats((0, 0, 0), (0, 0, 0)), quats((0, 0, T), (0, T, 0))])
    m = Motion(chain, keys)

    def speed(s):
        dx = -np.sin(s) * np.cos(s) - (1 + np.cos(s)) * np.sin(s)
        dy = -(np.sin(s) ** 2) + (1 + np.cos(s)) * np.cos(s)
        dz = -np.cos(s)
        return np.sqrt(dx * dx + dy * dy + dz * dz)

    assert m.path_length() == pytest.approx(gauss_length(speed, 0.0, T), rel=1e-9)
    # the replayed poses follow the same curve
    end = m.poses()[-1, -1]
    r = 1 + math.cos(T)
    np.testing.assert_allclose(end, [r * math.cos(T), r * math.sin(T), -math.sin(T)], atol=1e-12)


def test_single_joint_steps_are_exact_arcs():
    """One joint per step: the arc about that joint, radius the distance from its axis."""
    chain = ik.Chain.planar([1.0, 2.0, 0.5])
    keys = np.array([[0.0, 0.0, 0.0], [0.0, 1.0, 0.0], [0.0, 1.0, -2.0], [0.4, 1.0, -2.0]])
    m = Motion(chain, keys)
    poses = m.poses()
    arcs = [
        1.0 * np.linalg.norm(poses[0, -1] - poses[0, 1]),
        2.0 * np.linalg.norm(poses[1, -1] - poses[1, 2]),
        0.4 * np.linalg.norm(poses[2, -1] - poses[2, 0]),
    ]
    assert m.path_length() == pytest.approx(sum(arcs), rel=1e-14)


def test_richardson_beats_the_polyline():
    """On the 2-D case above, the extrapolated length is far closer than the fine polyline."""
    T = 2.5
    chain = ik.Chain.planar([1.0, 1.0])
    exact = gauss_length(lambda s: np.sqrt(5.0 + 4.0 * np.cos(s)), 0.0, T)
    m = samples(T)
    assert m % 2 == 0 and T / m <= math.radians(0.25)
    s = np.linspace(0.0, T, m + 1)
    pts = Motion(chain, np.column_stack([s, s])).poses()[:, -1]
    fine = np.sum(np.linalg.norm(np.diff(pts, axis=0), axis=1))
    coarse = np.sum(np.linalg.norm(np.diff(pts[::2], axis=0), axis=1))
    assert abs(richardson(fine, coarse) - exact) < 1e-4 * abs(fine - exact)


@pytest.mark.parametrize("method", ["fabrik", "dls", "two-bone", "ccd"])
@pytest.mark.parametrize("dim", [2, 3])
def test_path_length_of_solves_matches_a_fine_trace(method, dim):
    rng = np.random.default_rng(12)
    for _ in range(3):
        n = 2 if method == "two-bone" else 5
        lengths = rng.uniform(0.5, 2.0, n)
        chain = ik.Chain.planar(lengths) if dim == 2 else ik.Chain.spatial(lengths)
        d = rng.normal(size=dim)
        sol = ik.solve(chain, 0.6 * chain.total_length * d / np.linalg.norm(d), method=method)
        # a polyline through samples 0.002 degrees apart falls short by about 1e-9 relative
        trace = sol.motion.trace(max_step_deg=0.002)
        ref = float(np.sum(np.linalg.norm(np.diff(trace, axis=0), axis=1)))
        assert sol.motion.path_length() == pytest.approx(ref, rel=1e-8, abs=1e-12)


def test_trace_starts_and_ends_at_the_keyframes():
    chain = ik.Chain.planar([2] * 10)
    sol = ik.solve(chain, (-4.08, 16.0), method="ccd")
    trace = sol.motion.trace(max_step_deg=0.5)
    np.testing.assert_allclose(trace[0], [20, 0])
    np.testing.assert_allclose(trace[-1], sol.positions[-1], atol=1e-12)
    # no joint turns more than the step between samples, so no sample jumps further than
    # (step in radians) x (reach)
    jumps = np.linalg.norm(np.diff(trace, axis=0), axis=1)
    assert jumps.max() <= math.radians(0.5) * chain.total_length * (1 + 1e-9)


@pytest.mark.parametrize("dim", [2, 3])
def test_a_trace_s_work_hint_counts_the_samples_its_step_asks_for(dim, monkeypatch):
    """The work hint of a trace (:mod:`geoik.jit`: whether it may run as plain Python) is its
    number of samples, as the kernel counts them, times the joints: it grows as the step
    shrinks, so that a fine trace is compiled rather than run for seconds as Python."""
    from geoik import motion

    hints = spy_work_hints(monkeypatch, motion)
    rng = np.random.default_rng(5)
    chain = ik.Chain.planar([1.0] * 4) if dim == 2 else ik.Chain.spatial([1.0] * 4)
    sol = ik.solve(chain, 2.5 * rng.normal(size=dim) / math.sqrt(dim), method="fabrik")
    per_sample = chain.n * (motion.TRACE_WORK_2D if dim == 2 else motion.TRACE_WORK)
    for deg in (5.0, 0.5, 0.05):
        step = math.radians(deg)
        count = motion.trace_samples(motion.step_turns(sol.motion.keys, dim), step)
        assert count == len(sol.motion.trace(max_step_deg=deg))
        assert hints[-1] == int(count * per_sample)
    assert hints[-1] > 50 * hints[0]


@pytest.mark.parametrize("bad", [0, -1.0, math.nan, math.inf, True, "1"])
def test_a_trace_refuses_a_step_that_is_not_a_positive_number(bad):
    sol = ik.solve(ik.Chain.spatial([1.0] * 3), (1.0, 1.0, 0.5), method="fabrik")
    with pytest.raises(ik.InvalidOptionError, match="max_step_deg.*degrees above 0"):
        sol.motion.trace(max_step_deg=bad)


def test_a_trace_too_fine_for_the_memory_is_refused_before_any_work():
    sol = ik.solve(ik.Chain.planar([1.0] * 3), (1.0, 1.5), method="ccd")
    with pytest.raises(ik.InvalidOptionError, match="max_step_deg.*memory available.*samples"):
        sol.motion.trace(max_step_deg=1e-13)


def test_rotations_and_angles_3d():
    chain = ik.Chain.spatial([1.0, 1.0])
    keys = np.stack(
        [
            quats((0, 0, 0), (0, 0, 0)),
            quats((0, 0, 0.3), (0, 0, 0)),
            quats((0, 0, 0.3), (0.2, 0, 0)),
        ]
    )
    m = Motion(chain, keys)
    np.testing.assert_allclose(m.rotations(), [[0.3, 0.0], [0.0, 0.2]], atol=1e-15)
    np.testing.assert_allclose(m.angles[-1], [[0, 0, 0.3], [0.2, 0, 0]], atol=1e-15)
    assert m.steps == 2


def test_fast_constructor_is_the_constructor():
    chain = ik.Chain.planar([1.0, 1.0])
    keys = np.array([[0.0, 0.0], [0.5, -0.5]])
    a, b = Motion(chain, keys.copy()), Motion.fast(chain, keys.copy())
    assert vars(a).keys() == vars(b).keys()
    assert a.chain is b.chain and np.array_equal(a.keys, b.keys)
    assert not a.keys.flags.writeable and not b.keys.flags.writeable
