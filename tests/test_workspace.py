"""Which points a 3-D chain reaches (the coverage's denominator of 3-D maps), against dense
brute-force sampling of its forward kinematics."""

from __future__ import annotations

import math

import numpy as np
import pytest
from numba import njit

import geoik as ik
from geoik.reach.workspace import reachable_points, workspace

CONES = ik.Chain.spatial([1.0, 0.8, 0.6], max_bend_deg=[60, 45, 80])
MIXED = ik.Chain.spatial([3.0, 2.5], max_bend_deg=[60, (0, 150)], hinge_axes=[None, (0, 0, 1)])
FIRST_HINGE = ik.Chain.spatial(
    [1.0, 0.7], max_bend_deg=[(-90, 60), (0, 120)], hinge_axes=[(0, 0, 1), (0, 1, 0)]
)


def _rot(axis: str, a: np.ndarray) -> np.ndarray:
    """(m, 4) quaternions of rotations by ``a`` about x or z."""
    q = np.zeros(a.shape + (4,))
    q[:, 0] = np.cos(a / 2)
    q[:, 1 if axis == "x" else 3] = np.sin(a / 2)
    return q


def _qmul(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    w1, x1, y1, z1 = a.T
    w2, x2, y2, z2 = b.T
    return np.stack(
        [
            w1 * w2 - x1 * x2 - y1 * y2 - z1 * z2,
            w1 * x2 + x1 * w2 + y1 * z2 - z1 * y2,
            w1 * y2 - x1 * z2 + y1 * w2 + z1 * x2,
            w1 * z2 + x1 * y2 - y1 * x2 + z1 * w2,
        ],
        axis=-1,
    )


def _rotate(q: np.ndarray, v: np.ndarray) -> np.ndarray:
    w, u = q[:, :1], q[:, 1:]
    t = 2.0 * np.cross(u, v)
    return v + w * t + np.cross(u, t)


def brute_force(chain: ik.Chain, m: int, seed: int = 0) -> np.ndarray:
    """(m, 3) end effectors of random configurations that keep every limit: a ball joint
    ``Rx(a) Rz(b) Rx(t)`` with ``b`` uniform in its cone, a hinge its angle uniform in range."""
    rng = np.random.default_rng(seed)
    frame = np.tile([1.0, 0.0, 0.0, 0.0], (m, 1))
    pos = np.tile(chain.base, (m, 1))
    for j in range(chain.n):
        h = chain.hinge[j]
        if np.any(h):
            lo, hi = max(chain.lo[j], -math.pi), min(chain.hi[j], math.pi)
            phi = rng.uniform(lo, hi, m)
            q = np.zeros((m, 4))
            q[:, 0] = np.cos(phi / 2)
            q[:, 1:] = np.sin(phi / 2)[:, None] * h
        else:
            c = min(chain.cone[j], math.pi)
            bend = np.arccos(rng.uniform(math.cos(c), 1.0, m))  # uniform over the cap
            q = _qmul(_rot("x", rng.uniform(-math.pi, math.pi, m)), _rot("z", bend))
            q = _qmul(q, _rot("x", rng.uniform(-math.pi, math.pi, m)))
        frame = _qmul(frame, q)
        pos = pos + chain.lengths[j] * _rotate(frame, np.tile([1.0, 0.0, 0.0], (m, 1)))
    return pos


@pytest.mark.parametrize(
    "chain, method",
    [(CONES, "revolution"), (MIXED, "sampled"), (FIRST_HINGE, "sampled")],
    ids=["cones", "mixed", "first-hinge"],
)
def test_every_reachable_point_is_counted(chain, method):
    ws = workspace(chain)
    assert ws.method == method and not ws.exact and ws.bound > 0.0
    tips = brute_force(chain, 200_000)
    mask, _ = reachable_points(chain, tips)
    assert mask.all()


@njit(cache=True)
def _nearest(cloud, points, cell, reach):
    """Distance from each point to the nearest cloud point, searched within ``reach`` cells of
    a grid of ``cell`` (inf beyond)."""
    lo0, lo1 = cloud[:, 0].min(), cloud[:, 1].min()
    n0 = int((cloud[:, 0].max() - lo0) / cell) + 1
    n1 = int((cloud[:, 1].max() - lo1) / cell) + 1
    count = np.zeros(n0 * n1 + 1, np.int64)
    key = np.empty(cloud.shape[0], np.int64)
    for i in range(cloud.shape[0]):
        key[i] = int((cloud[i, 0] - lo0) / cell) * n1 + int((cloud[i, 1] - lo1) / cell)
        count[key[i] + 1] += 1
    start = np.cumsum(count)
    order = np.argsort(key, kind="mergesort")
    out = np.full(points.shape[0], np.inf)
    for p in range(points.shape[0]):
        a0 = int(math.floor((points[p, 0] - lo0) / cell))
        a1 = int(math.floor((points[p, 1] - lo1) / cell))
        for b0 in range(max(0, a0 - reach), min(n0, a0 + reach + 1)):
            for b1 in range(max(0, a1 - reach), min(n1, a1 + reach + 1)):
                k = b0 * n1 + b1
                for q in range(start[k], start[k + 1]):
                    i = order[q]
                    d = math.hypot(cloud[i, 0] - points[p, 0], cloud[i, 1] - points[p, 1])
                    out[p] = min(out[p], d)
    return out


def test_counted_points_lie_within_the_bound():
    """Points counted reachable lie within the stated bound of the reachable set: measured
    against a dense sample of it (which can only overstate the distance), in the meridian
    section (the set is a solid of revolution about +x)."""
    chain = CONES
    ws = workspace(chain)
    cloud = brute_force(chain, 400_000, seed=1)
    rng = np.random.default_rng(2)
    probe = chain.base + rng.uniform(-1, 1, (20_000, 3)) * chain.total_length
    mask, _ = reachable_points(chain, probe)
    counted = probe[mask]
    assert 0.05 * len(probe) < len(counted) < len(probe)

    def section(p):
        d = p - chain.base
        return np.ascontiguousarray(np.stack([d[:, 0], np.hypot(d[:, 1], d[:, 2])], axis=1))

    cell = ws.bound / 4
    dist = _nearest(section(cloud), section(counted), cell, 12)
    gaps = _nearest(section(cloud[:20_000]), section(cloud[20_000:40_000]), cell, 12)
    spacing = np.quantile(gaps, 0.999)  # how far apart the cloud's points can be
    assert np.quantile(dist, 0.999) <= ws.bound + spacing
    assert dist.max() >= 0.1 * ws.bound  # the bound is not loose by an order of magnitude


def test_free_first_joint_is_an_exact_shell():
    chain = ik.Chain.spatial([1.0, 0.5, 0.3], max_bend_deg=[None, 30, 30])
    ws = workspace(chain)
    assert (ws.method, ws.exact, ws.bound) == ("shell", True, 0.0)
    rmin, rmax = chain.reach()
    p = np.array([[0.0, 0.0, rmax * 0.999], [rmax * 1.001, 0.0, 0.0], [0.0, -0.5 * rmax, 0.0]])
    mask, _ = reachable_points(chain, p)
    assert mask.tolist() == [True, False, rmin <= 0.5 * rmax]


def test_workspace_is_kept_per_chain():
    assert workspace(CONES) is workspace(CONES)
