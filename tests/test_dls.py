"""Damped least squares: the Jacobian against finite differences, convergence, limits, and
singular poses."""

from __future__ import annotations

import numpy as np
import pytest

import geoik as ik
from geoik import geometry as g
from geoik.errors import InvalidOptionError
from geoik.solvers.dls import dof_count_3d, jacobian_2d, jacobian_3d
from tests.conftest import check_invariants

EPS = 1e-6


def _end_2d(chain, angles):
    pos = np.empty((chain.n + 1, 2))
    g.fk_2d(chain.lengths, chain.base, angles, pos)
    return pos


def _fk_3d(chain, quats):
    pos = np.empty((chain.n + 1, 3))
    world = np.empty((chain.n, 4))
    g.fk_3d(chain.lengths, chain.base, quats, pos, world)
    return pos, world


def test_jacobian_2d_matches_finite_differences():
    rng = np.random.default_rng(4)
    for n in (1, 2, 5, 9):
        chain = ik.Chain.planar(rng.uniform(0.3, 3.0, n), base=rng.uniform(-1, 1, 2))
        angles = rng.uniform(-np.pi, np.pi, n)
        jac = np.empty((2, n))
        jacobian_2d(_end_2d(chain, angles), jac)
        for j in range(n):
            step = np.zeros(n)
            step[j] = EPS
            fd = (_end_2d(chain, angles + step)[-1] - _end_2d(chain, angles - step)[-1]) / (2 * EPS)
            np.testing.assert_allclose(jac[:, j], fd, atol=1e-7 * chain.total_length)


def _turned(quats, world, j, w):
    """Joint j turned by the world rotation vector w (as the solver applies it)."""
    out = quats.copy()
    p = g.parent_frame(j, world)
    local = g.qrot(p[0], -p[1], -p[2], -p[3], *w)
    a = np.linalg.norm(local)
    r = g.q_axis_angle(*(np.array(local) / a), a)
    out[j] = g.qmul(*r, *quats[j])
    return out


def test_jacobian_3d_matches_finite_differences():
    rng = np.random.default_rng(5)
    for n in (1, 3, 6):
        hinges = [(0.0, *rng.normal(size=2)) if rng.random() < 0.5 else None for _ in range(n)]
        chain = ik.Chain.spatial(rng.uniform(0.3, 3.0, n), hinge_axes=hinges)
        quats = np.array([g.rotvec_to_q(*rng.normal(size=3)) for _ in range(n)])
        for i in range(n):
            if np.any(chain.hinge[i]):
                quats[i] = g.q_axis_angle(*chain.hinge[i], rng.uniform(-2, 2))
        pos, world = _fk_3d(chain, quats)
        jac = np.empty((3, dof_count_3d(chain.hinge)))
        jacobian_3d(pos, world, chain.hinge, jac)
        col = 0
        for j in range(n):
            if np.any(chain.hinge[j]):
                p = g.parent_frame(j, world)
                axes = [np.array(g.qrot(*p, *chain.hinge[j]))]
            else:
                axes = list(np.eye(3))
            for w in axes:
                plus = _fk_3d(chain, _turned(quats, world, j, EPS * w))[0][-1]
                minus = _fk_3d(chain, _turned(quats, world, j, -EPS * w))[0][-1]
                fd = (plus - minus) / (2 * EPS)
                np.testing.assert_allclose(jac[:, col], fd, atol=1e-7 * chain.total_length)
                col += 1
        assert col == jac.shape[1]


@pytest.mark.parametrize("dim", [2, 3])
def test_easy_reachable_targets_converge(dim):
    rng = np.random.default_rng(6)
    for _ in range(20):
        n = int(rng.integers(3, 8))
        lengths = rng.uniform(0.5, 1.5, n)
        chain = ik.Chain.planar(lengths) if dim == 2 else ik.Chain.spatial(lengths)
        d = rng.normal(size=dim)
        target = d / np.linalg.norm(d) * rng.uniform(0.3, 0.9) * chain.total_length
        sol = ik.solve(chain, target, method="dls")
        check_invariants(sol, chain, target)
        assert sol.status is ik.Status.REACHED


@pytest.mark.parametrize("dim", [2, 3])
def test_beyond_reach_straightens(dim):
    rng = np.random.default_rng(7)
    for _ in range(10):
        lengths = rng.uniform(0.5, 1.5, int(rng.integers(2, 8)))
        chain = ik.Chain.planar(lengths) if dim == 2 else ik.Chain.spatial(lengths)
        d = rng.normal(size=dim)
        target = d / np.linalg.norm(d) * 2.0 * chain.total_length
        sol = ik.solve(chain, target, method="dls", max_iter=200)
        assert sol.status is ik.Status.CLOSEST


@pytest.mark.parametrize("dim", [2, 3])
def test_limits_respected(dim):
    rng = np.random.default_rng(8)
    for _ in range(20):
        n = int(rng.integers(2, 8))
        lengths = rng.uniform(0.5, 1.5, n)
        if dim == 2:
            chain = ik.Chain.planar(lengths, max_bend_deg=30.0)
        else:
            hinges = [(0.0, 0.0, 1.0) if i % 2 else None for i in range(n)]
            chain = ik.Chain.spatial(lengths, max_bend_deg=30.0, hinge_axes=hinges)
        target = rng.uniform(-1, 1, dim) * chain.total_length
        sol = ik.solve(chain, target, method="dls")
        check_invariants(sol, chain, target)  # includes every joint within its limits


@pytest.mark.parametrize("dim", [2, 3])
def test_singular_poses_give_no_nan(dim):
    chain = ik.Chain.planar([1.0, 2.0, 1.0]) if dim == 2 else ik.Chain.spatial([1.0, 2.0, 1.0])
    x = np.eye(dim)[0]
    for target in (0.0 * x, 0.5 * x, -2.0 * x, 4.0 * x, 9.0 * x):
        for escape in (0, 1):
            sol = ik.solve(chain, target, method="dls", escape=escape)
            check_invariants(sol, chain, target)
    # the straight chain with its target on its own line: every column is normal to the error;
    # without the escape DLS stalls there, with it (the default) it bends a joint and reaches
    sol = ik.solve(chain, 0.5 * x, method="dls", escape=0)
    assert sol.status is ik.Status.STALLED and sol.iterations == 1
    sol = ik.solve(chain, 0.5 * x, method="dls")
    assert sol.status is ik.Status.REACHED


@pytest.mark.parametrize("options", [{"damping": 0.0}, {"damping": -1.0}, {"max_step": 0.0}])
def test_option_validation(options):
    with pytest.raises(InvalidOptionError, match=next(iter(options))):
        ik.solve(ik.Chain.planar([1.0, 1.0]), [1.0, 1.0], method="dls", **options)
