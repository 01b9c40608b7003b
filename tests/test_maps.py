"""Metric maps: pixel grid, reached and reachable masks, coverage, rendering (seed 004)."""

from __future__ import annotations

import os
import stat

import numpy as np
import pytest
from matplotlib.figure import Figure

import geoik as ik
from geoik.errors import GeoIKError
from geoik.files import save_atomic
from geoik.maps.figures import (
    FAILURE,
    UNREACHABLE,
    _rgb,
    chain_label,
    figure_dpi,
    maps_figure,
    sweep_figure,
)
from geoik.maps.metric import METRICS, metric_map
from geoik.render import save_figure

CHAIN = ik.Chain.planar([1.0] * 3)


def test_pixels_are_the_targets_solved():
    m = metric_map(CHAIN, "ccd", "error", size=40, tol=0.01, max_iter=20)
    h = 2 * 3.0 / 40
    for r, c in [(7, 31), (0, 0), (39, 20), (20, 39)]:
        target = (-3.0 + (c + 0.5) * h, -3.0 + (r + 0.5) * h)
        sol = ik.solve(CHAIN, target, "ccd", tol=0.01, max_iter=20)
        assert m.values[r, c] == pytest.approx(sol.error, abs=1e-12)
        assert m.reached[r, c] == (sol.status is ik.Status.REACHED)
        assert m.status[r, c] == sol.status.value


@pytest.mark.parametrize("metric", ["iterations", "path", "rotation-sum", "rotations"])
def test_metric_values_are_the_costs(metric):
    chain = ik.Chain.planar([1.0, 0.7, 0.5], base=(1.0, -2.0))
    m = metric_map(chain, "fabrik", metric, size=12, tol=0.01, max_iter=15)
    h = 2 * chain.total_length / 12
    for r, c in [(3, 8), (6, 6), (9, 2)]:
        target = chain.base + (-chain.total_length + (c + 0.5) * h, -2.2 + (r + 0.5) * h)
        sol = ik.solve(chain, target, "fabrik", tol=0.01, max_iter=15)
        costs = ik.costs(sol)
        want = {
            "iterations": sol.iterations,
            "path": costs.path_length,
            "rotation-sum": costs.rotation_sum_deg,
            "rotations": costs.rotations_over_5deg,
        }[metric]
        assert m.values[r, c] == pytest.approx(want, rel=1e-12, abs=1e-12)


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
    assert m.stats() == (m.values[m.reached].mean(), m.values[m.reached].max())


def test_annulus_of_unequal_links():
    chain = ik.Chain.planar([3.0, 1.0])
    m = metric_map(chain, "ccd", "iterations", size=50, tol=0.01, max_iter=30)
    assert not m.reachable[25, 25]  # within the minimum reach 2
    centres = -4.0 + (np.arange(50) + 0.5) * 8.0 / 50
    d = np.hypot(*np.meshgrid(centres, centres))
    assert np.array_equal(m.reachable, (d >= 2.0) & (d <= 4.0))
    assert m.coverage > 0.5


def test_caa_covers_the_annulus():
    """Seed 004, Section 5: CAA reaches the whole workspace within a few iterations."""
    m = metric_map(ik.Chain.planar([1.0] * 5), "caa", size=80, tol=0.01, max_iter=20)
    assert m.coverage > 0.99
    assert m.stats()[1] <= 10


@pytest.mark.parametrize("metric", list(METRICS))
def test_every_metric(metric):
    m = metric_map(CHAIN, "fabrik", metric, size=30, tol=0.01, max_iter=10)
    assert np.all(np.isfinite(m.values))
    assert m.metric == metric
    if metric == "error":
        assert np.all(m.values[m.reached] <= 0.01)


def test_limited_chain_reaches_nothing_beyond_tol_of_its_annulus():
    chain = ik.Chain.planar([1.0] * 4, max_bend_deg=60)  # minimum reach sqrt(3)
    m = metric_map(chain, "ccd", "iterations", size=40, tol=0.01, max_iter=20)
    centres = -4.0 + (np.arange(40) + 0.5) * 8.0 / 40
    d = np.hypot(*np.meshgrid(centres, centres))
    rmin, rmax = chain.reach()
    assert rmin == pytest.approx(3**0.5)
    assert not m.reached[(d < rmin - 0.01) | (d > rmax + 0.01)].any()
    assert 0.0 < m.coverage < 1.0


def test_bad_arguments():
    with pytest.raises(GeoIKError, match="metric"):
        metric_map(CHAIN, "ccd", "speed")
    with pytest.raises(GeoIKError, match="size"):
        metric_map(CHAIN, "ccd", size=0)
    with pytest.raises(GeoIKError, match="size"):
        metric_map(CHAIN, "ccd", size=2.5)
    with pytest.raises(GeoIKError, match="tile_rows"):
        metric_map(CHAIN, "ccd", size=10, tile_rows=0)
    with pytest.raises(GeoIKError, match="tol"):
        metric_map(CHAIN, "ccd", tol=-1.0)
    with pytest.raises(GeoIKError, match="method"):
        metric_map(CHAIN, "nope")
    with pytest.raises(GeoIKError, match="plane"):
        metric_map(CHAIN, "ccd", plane="xz")
    with pytest.raises(GeoIKError, match="two-bone"):
        metric_map(CHAIN, "two-bone")


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
    hues = [
        tuple(rgb[m.reached & (m.values == k)][0])
        for k in (2, 3, 4)
        if (m.reached & (m.values == k)).any()
    ]
    assert len(set(hues)) == len(hues)  # one colour per iteration count


def test_figure_written(tmp_path):
    m = metric_map(CHAIN, "ccd", "path", size=30, tol=0.01, max_iter=10)
    fig = maps_figure([m, m], contours=True)
    assert isinstance(fig, Figure)
    out = tmp_path / "m.png"
    save_figure(fig, out, dpi=figure_dpi(m.size))
    assert out.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    assert [p.name for p in tmp_path.iterdir()] == ["m.png"]
    title = fig.axes[0].get_title()
    assert "coverage" in title and "ccd" in title and "I = 10, eps = 0.01" in title
    assert "3 links of length 1" in title
    labels = [t.get_text() for t in fig.axes[0].get_legend().get_texts()]
    assert labels == ["not reached", "out of reach"]


def test_integer_colour_bar_has_a_band_per_value():
    m = metric_map(CHAIN, "ccd", "iterations", size=30, tol=0.01, max_iter=6)
    fig = maps_figure([m])
    bar = fig.axes[1]  # the colour bar's axes
    ticks = [t for t in bar.get_yticks() if 0 <= t <= 6]
    assert all(float(t).is_integer() for t in ticks)
    assert bar.get_ylim() == pytest.approx((m.values[m.reached].min() - 0.5, 6.5))


def test_chain_label():
    assert chain_label(ik.Chain.planar([1.0] * 5)) == "5 links of length 1, free joints"
    label = chain_label(ik.Chain.planar([16, 8, 4, 2, 1, 1], max_bend_deg=90, base=(1, 2)))
    assert label == "links 16,8,4,2,1,1, max bend 90 deg, base (1, 2)"
    mixed = ik.Chain.planar([1.0] * 3, max_bend_deg=[None, (-30, 120), 45])
    assert chain_label(mixed) == "3 links of length 1, max bend free,-30:120,45 deg"


def test_figure_dpi_keeps_big_maps_sharp():
    assert figure_dpi(100) == 100
    assert 250 <= figure_dpi(1000) <= 300
    assert figure_dpi(20000) == 300


def test_sweep_figure_series():
    fig = sweep_figure([2, 3, 4], {"ccd": [0.4, 0.5, 0.45], "caa": [1.0, 0.99, 0.98]}, "t")
    assert [line.get_label() for line in fig.axes[0].get_lines()] == ["ccd", "caa"]
    fig = sweep_figure([2, 3], [0.4, 0.5], "one")
    assert fig.axes[0].get_legend() is None


def test_npz_round_trip(tmp_path):
    m = metric_map(CHAIN, "ccd", "iterations", size=20, tol=0.01, max_iter=20)
    out = tmp_path / "m.npz"
    m.save_npz(out)
    with np.load(out) as data:
        assert np.array_equal(data["values"], m.values)
        assert np.array_equal(data["reached"], m.reached)
        assert np.array_equal(data["reachable"], m.reachable)
        assert str(data["method"]) == "ccd" and float(data["coverage"]) == m.coverage
    assert [p.name for p in tmp_path.iterdir()] == ["m.npz"]


def test_save_atomic_is_all_or_nothing(tmp_path):
    out = tmp_path / "t.csv"
    out.write_text("old")

    def interrupted(tmp: str) -> None:
        with open(tmp, "w") as f:
            f.write("half")
        raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        save_atomic(out, interrupted)
    assert out.read_text() == "old"
    assert [p.name for p in tmp_path.iterdir()] == ["t.csv"]
    save_atomic(out, lambda tmp: open(tmp, "w").write("new"))  # noqa: SIM115
    assert out.read_text() == "new"
    umask = os.umask(0)
    os.umask(umask)
    assert stat.S_IMODE(out.stat().st_mode) == 0o666 & ~umask
    with pytest.raises(OSError) as err:
        save_atomic(tmp_path / "missing" / "x.csv", lambda tmp: None)
    assert err.value.filename.endswith("x.csv")


def test_many_maps_wrap_into_rows():
    m = metric_map(CHAIN, "ccd", "iterations", size=10, tol=0.01, max_iter=5)
    fig = maps_figure([m] * 5)
    titled = [ax for ax in fig.axes if ax.get_title()]
    assert len(titled) == 5
    assert fig.get_size_inches()[1] > 2 * 5.0  # two rows of at most four
