"""The six canonical subproblems against random ground truth and brute force: every exact
solution found and verified, least-squares answers no worse than a fine grid, degenerate
inputs flagged and never NaN; and the compiled kernels equal their plain-Python twins."""

from __future__ import annotations

import math

import numpy as np
import pytest

from geoik import jit
from geoik.solvers.analytic import subproblems as sp
from geoik.solvers.analytic.subproblems import DEGENERATE, EXACT, LEAST_SQUARES


def rot(k: np.ndarray, t: float) -> np.ndarray:
    k = np.asarray(k, dtype=np.float64)
    c, s = math.cos(t), math.sin(t)
    kx = np.array([[0, -k[2], k[1]], [k[2], 0, -k[0]], [-k[1], k[0], 0]])
    return np.eye(3) + s * kx + (1 - c) * kx @ kx


def unit(rng: np.random.Generator) -> np.ndarray:
    v = rng.normal(size=3)
    return v / np.linalg.norm(v)


def angle_gap(a: np.ndarray, b: np.ndarray) -> float:
    return float(np.max(np.abs(np.remainder(np.asarray(a) - b + np.pi, 2 * np.pi) - np.pi)))


GRID = np.linspace(-np.pi, np.pi, 721)


def turned(k: np.ndarray, p: np.ndarray, grid: np.ndarray = GRID) -> np.ndarray:
    """``rot(k, g) @ p`` for every ``g`` of ``grid``, one row each (the same formula, at once)."""
    kp = np.cross(k, p)
    return p + np.sin(grid)[:, None] * kp + (1 - np.cos(grid))[:, None] * np.cross(k, kp)


@pytest.fixture(params=["compiled", "interpreted"])
def how(request):
    with jit.mode(request.param):
        yield request.param


def run(fn, *args):
    return jit.call(fn, *args)


def test_sp1_exact_and_least_squares(how):
    rng = np.random.default_rng(1)
    for _ in range(50):
        k, p1 = unit(rng), rng.normal(size=3)
        t = rng.uniform(-np.pi, np.pi)
        th, flags = run(sp.sp1, p1, rot(k, t) @ p1, k)
        assert flags == EXACT and angle_gap(th, t) < 1e-9
        p2 = rng.normal(size=3)
        th, flags = run(sp.sp1, p1, p2, k)
        assert flags == LEAST_SQUARES
        best = np.min(np.linalg.norm(turned(k, p1) - p2, axis=1))
        assert np.linalg.norm(rot(k, th) @ p1 - p2) <= best + 1e-12


def test_sp2_every_solution_and_least_squares(how):
    rng = np.random.default_rng(2)
    for _ in range(50):
        k1, k2, p1 = unit(rng), unit(rng), rng.normal(size=3)
        t1, t2 = rng.uniform(-np.pi, np.pi, 2)
        p2 = rot(k2, -t2) @ rot(k1, t1) @ p1
        out = np.zeros((2, 2))
        count, flags = run(sp.sp2, p1, p2, k1, k2, out)
        assert flags == EXACT and count == 2
        for a, b in out[:count]:
            assert np.linalg.norm(rot(k1, a) @ p1 - rot(k2, b) @ p2) < 1e-9
        assert min(angle_gap(o, (t1, t2)) for o in out[:count]) < 1e-7
        # random pairs mostly miss each other: the closest points, by brute force
        p2 = rng.normal(size=3) * 0.3
        count, flags = run(sp.sp2, p1, p2, k1, k2, out)
        if flags == LEAST_SQUARES:
            got = np.linalg.norm(rot(k1, out[0, 0]) @ p1 - rot(k2, out[0, 1]) @ p2)
            a = turned(k1, p1, GRID[::4])
            b = turned(k2, p2, GRID[::4])
            best = np.min(np.linalg.norm(a[:, None] - b[None], axis=2))
            assert got <= best + 1e-12


@pytest.mark.parametrize("which", ["sp3", "sp4"])
def test_sp3_sp4_every_solution_and_least_squares(which, how):
    rng = np.random.default_rng(3)
    for _ in range(50):
        k, h, p1, p2 = unit(rng), unit(rng), rng.normal(size=3), rng.normal(size=3)
        t = rng.uniform(-np.pi, np.pi)

        def value(a: float, k=k, h=h, p1=p1, p2=p2) -> float:
            x = rot(k, a) @ p1
            return float(np.linalg.norm(x - p2)) if which == "sp3" else float(h @ x)

        out = np.zeros(2)
        args = (p1, p2, k) if which == "sp3" else (h, p1, k)
        count, flags = run(getattr(sp, which), *args, value(t), out)
        assert flags == EXACT and count in (1, 2)
        assert all(abs(value(a) - value(t)) < 1e-9 for a in out[:count])
        assert min(angle_gap(a, t) for a in out[:count]) < 1e-6
        # brute force finds no other root: sign changes of value - d on the grid
        d = value(t)
        x = turned(k, p1)
        on_grid = np.linalg.norm(x - p2, axis=1) if which == "sp3" else x @ h
        f = on_grid - d
        roots = np.count_nonzero(np.sign(f[1:]) != np.sign(f[:-1]))
        assert roots <= count or count == 2
        # beyond the range: least squares
        far = d + 10.0 * (1 + np.linalg.norm(p1) + np.linalg.norm(p2))
        count, flags = run(getattr(sp, which), *args, far, out)
        assert flags == LEAST_SQUARES and count == 1
        assert abs(value(out[0]) - far) <= np.min(np.abs(on_grid - far)) + 1e-12


def test_sp5_every_solution(how):
    rng = np.random.default_rng(5)
    for _ in range(60):
        k1, k2, k3 = unit(rng), unit(rng), unit(rng)
        p1, p2, p3 = rng.normal(size=(3, 3))
        t = rng.uniform(-np.pi, np.pi, 3)
        p0 = rot(k2, t[1]) @ (p2 + rot(k3, t[2]) @ p3) - rot(k1, t[0]) @ p1
        out = np.zeros((4, 3))
        count, flags = run(sp.sp5, p0, p1, p2, p3, k1, k2, k3, out)
        assert flags == EXACT and count >= 1
        for a, b, c in out[:count]:
            lhs = p0 + rot(k1, a) @ p1
            assert np.linalg.norm(lhs - rot(k2, b) @ (p2 + rot(k3, c) @ p3)) < 1e-8
        assert min(angle_gap(o, t) for o in out[:count]) < 1e-6
        assert len({round(float(o[0]), 6) for o in out[:count]}) == count


def test_sp6_every_solution(how):
    rng = np.random.default_rng(6)
    for _ in range(60):
        h = np.array([unit(rng) for _ in range(4)])
        k = np.array([unit(rng) for _ in range(4)])
        p = rng.normal(size=(4, 3))
        t = rng.uniform(-np.pi, np.pi, 2)

        def res(a: float, b: float, d1: float, d2: float, h=h, k=k, p=p) -> tuple[float, float]:
            return (
                h[0] @ rot(k[0], a) @ p[0] + h[1] @ rot(k[1], b) @ p[1] - d1,
                h[2] @ rot(k[2], a) @ p[2] + h[3] @ rot(k[3], b) @ p[3] - d2,
            )

        d1, d2 = res(t[0], t[1], 0.0, 0.0)
        out = np.zeros((4, 2))
        count, flags = run(sp.sp6, h, k, p, d1, d2, out)
        assert flags == EXACT and count >= 1
        for a, b in out[:count]:
            assert max(map(abs, res(a, b, d1, d2))) < 1e-8
        assert min(angle_gap(o, t) for o in out[:count]) < 1e-6
        # brute force on a grid: every solution has one returned near it
        a, b = np.meshgrid(GRID[::6], GRID[::6], indexing="ij")
        r1 = sum(
            np.einsum("i,...ij,j->...", h[i], _rots(k[i], a if i % 2 == 0 else b), p[i])
            for i in (0, 1)
        )
        r2 = sum(
            np.einsum("i,...ij,j->...", h[i], _rots(k[i], a if i % 2 == 0 else b), p[i])
            for i in (2, 3)
        )
        near = np.argwhere((np.abs(r1 - d1) < 0.02) & (np.abs(r2 - d2) < 0.02))
        for i, j in near:
            if max(map(abs, res(a[i, j], b[i, j], d1, d2))) < 2e-3:
                gap = min(angle_gap(o, (a[i, j], b[i, j])) for o in out[:count])
                assert gap < 0.1


def _rots(k: np.ndarray, t: np.ndarray) -> np.ndarray:
    c, s = np.cos(t)[..., None, None], np.sin(t)[..., None, None]
    kx = np.array([[0, -k[2], k[1]], [k[2], 0, -k[0]], [-k[1], k[0], 0]])
    return np.eye(3) + s * kx + (1 - c) * kx @ kx


def test_circles2_least_squares_when_the_conic_misses():
    # |x2| = 1 with x2 = (2, 0) + 0.1 x1 has no solution: the closest, flagged
    m = (0.1, 0.0, -1.0, 0.0, 0.0, 0.1, 0.0, -1.0)
    out = np.zeros((4, 2))
    count, flags = sp.circles2(m, -2.0, 0.0, out)
    assert flags == LEAST_SQUARES and count >= 1 and np.all(np.isfinite(out))
    assert min(angle_gap(o[0], np.pi) for o in out[:count]) < 1e-6


def test_degenerate_inputs_are_flagged_never_nan(how):
    z, x, y = np.zeros(3), np.array([1.0, 0, 0]), np.array([0, 1.0, 0])
    out2, out4, out43 = np.zeros(2), np.zeros((2, 2)), np.zeros((4, 3))
    th, flags = run(sp.sp1, z, z, x)
    assert flags & DEGENERATE and math.isfinite(th)
    th, flags = run(sp.sp1, x, x, x)  # on the axis
    assert flags & DEGENERATE and math.isfinite(th)
    count, flags = run(sp.sp2, y, y, x, x, out4)  # parallel axes: a circle of solutions
    assert flags & DEGENERATE and count == 1 and np.all(np.isfinite(out4))
    count, flags = run(sp.sp2, z, y, x, y, out4)
    assert flags & DEGENERATE and np.all(np.isfinite(out4))
    count, flags = run(sp.sp3, x, x, x, 0.0, out2)  # p1 on the axis: any angle
    assert flags & DEGENERATE and count == 1 and np.all(np.isfinite(out2))
    count, flags = run(sp.sp4, z, y, x, 0.0, out2)
    assert flags & DEGENERATE and np.all(np.isfinite(out2))
    count, flags = run(sp.sp4, x, y, x, 1.0, out2)  # h along k: h . R p constant, != d
    assert flags == DEGENERATE | LEAST_SQUARES and np.all(np.isfinite(out2))
    count, flags = run(sp.sp5, z, z, z, z, x, x, x, out43)
    assert np.all(np.isfinite(out43))
    out42 = np.zeros((4, 2))
    count, flags = run(sp.sp6, np.zeros((4, 3)), np.tile(x, (4, 1)), np.zeros((4, 3)), 1, 0, out42)
    assert flags & DEGENERATE and count == 0 and np.all(np.isfinite(out42))


def test_compiled_equal_interpreted():
    rng = np.random.default_rng(9)
    k1, k2, k3 = unit(rng), unit(rng), unit(rng)
    p0, p1, p2, p3 = rng.normal(size=(4, 3))
    cases = [
        (sp.sp1, (p1, p2, k1), None),
        (sp.sp2, (p1, p2, k1, k2), (2, 2)),
        (sp.sp3, (p1, p2, k1, 1.3), (2,)),
        (sp.sp4, (k2, p1, k1, 0.2), (2,)),
        (sp.sp5, (p0, p1, p2, p3, k1, k2, k3), (4, 3)),
        (
            sp.sp6,
            (
                rng.normal(size=(4, 3)),
                np.array([k1, k2, k3, k1]),
                rng.normal(size=(4, 3)),
                0.3,
                -0.2,
            ),
            (4, 2),
        ),
    ]
    for fn, args, shape in cases:
        got = []
        for how in ("compiled", "interpreted"):
            extra = () if shape is None else (np.zeros(shape),)
            with jit.mode(how):
                res = jit.call(fn, *args, *extra)
            got.append((res, extra[0].copy() if extra else None))
        assert got[0][0] == got[1][0], fn
        if shape is not None:
            np.testing.assert_allclose(got[0][1], got[1][1], rtol=0, atol=1e-12)
