"""Metric maps: pixel grid, reached and reachable masks, coverage, rendering (seed 004)."""

from __future__ import annotations

import numpy as np
import pytest
from matplotlib.figure import Figure

import geoik as ik
from geoik.errors import GeoIKError
from geoik.maps import METRICS, metric_map
from geoik.render_maps import FAILURE, UNREACHABLE, _rgb, maps_figure, save_figure

CHAIN = ik.Chain.planar([1.0] * 3)


def test_pixels_are_the_targets_solved():
    m = metric_map(CHAIN, "ccd", "error", size=40, tol=0.01, max_iter=20)
    h = 2 * 3.0 / 40
    r, c = 7, 31
    target = (-3.0 + (c + 0.5) * h, -3.0 + (r + 0.5) * h)
    sol = ik.solve(CHAIN, target, "ccd", tol=0.01, max_iter=20)
    assert m.values[r, c] == pytest.approx(sol.error, abs=1e-12)
    assert m.reached[r, c] == (sol.status is ik.Status.REACHED)


def test_masks_and_coverage():
    m = metric_map(CHAIN, "ccd", "iterations", size=60, tol=0.01, max_iter=20)
    assert m.values.shape == m.reached.shape == m.reachable.shape == (60, 60)
    # the corners of the square are out of reach, the pixels near the base are within
    assert not m.reachable[0, 0] and m.reachable[30, 30]
    assert not m.reached[~m.reachable].any()  # nothing beyond reach is REACHED
    cov = (m.reached & m.reachable).sum() / m.reachable.sum()
    assert m.coverage == pytest.approx(cov)
    assert 0.0 < m.coverage < 1.0  # CCD's void (seed 004, Fig. 6)
    assert np.all(m.values[m.reached] <= 20)


def test_annulus_of_unequal_links():
    chain = ik.Chain.planar([3.0, 1.0])
    m = metric_map(chain, "ccd", "iterations", size=50, tol=0.01, max_iter=30)
    assert not m.reachable[25, 25]  # within the minimum reach 2
    assert m.coverage > 0.5


@pytest.mark.parametrize("metric", list(METRICS))
def test_every_metric(metric):
    m = metric_map(CHAIN, "fabrik", metric, size=30, tol=0.01, max_iter=10)
    assert np.all(np.isfinite(m.values[m.reached]))
    assert m.metric == metric


def test_bad_arguments():
    with pytest.raises(GeoIKError, match="metric"):
        metric_map(CHAIN, "ccd", "speed")
    with pytest.raises(GeoIKError, match="size"):
        metric_map(CHAIN, "ccd", size=0)
    with pytest.raises(GeoIKError, match="tol"):
        metric_map(CHAIN, "ccd", tol=-1.0)
    with pytest.raises(GeoIKError, match="method"):
        metric_map(CHAIN, "nope")


def test_colours_follow_the_seed():
    m = metric_map(CHAIN, "ccd", "iterations", size=50, tol=0.01, max_iter=20)
    rgb = _rgb(m, 1.0, 20.0)
    assert np.allclose(rgb[~m.reached & m.reachable], FAILURE)
    assert np.allclose(rgb[~m.reachable & ~m.reached], UNREACHABLE)
    ones = m.reached & (m.values == 1)
    last = m.reached & (m.values == 20)
    assert ones.any() and last.any()
    assert np.allclose(rgb[ones], (0, 0, 1))  # blue: one iteration
    assert np.allclose(rgb[last], (1, 0, 0))  # red: the last one


def test_figure_written(tmp_path):
    m = metric_map(CHAIN, "ccd", "path", size=30, tol=0.01, max_iter=10)
    fig = maps_figure([m, m], contours=True)
    assert isinstance(fig, Figure)
    out = tmp_path / "m.png"
    save_figure(fig, out)
    assert out.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    assert [p.name for p in tmp_path.iterdir()] == ["m.png"]
    assert "coverage" in fig.axes[0].get_title()
