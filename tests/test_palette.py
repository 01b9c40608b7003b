"""The maps' colours and metric names (geoik.maps.palette): one definition, the same colours and
colour bars in the figures (render_maps) and in the viewer's overlay."""

from __future__ import annotations

import base64
import subprocess
import sys

import numpy as np
import pytest
from matplotlib.colors import hsv_to_rgb, to_rgb

import geoik as ik
from geoik.batch.engine import BatchResult
from geoik.maps import palette
from geoik.maps.figures import HUE_MAP, maps_figure
from geoik.maps.metric import metric_map
from geoik.maps.tiles import METRICS as TILE_METRICS

CHAIN = ik.Chain.planar([1.0] * 3)


@pytest.fixture(scope="module")
def iterations_map():
    return metric_map(CHAIN, "ccd", "iterations", size=40, tol=0.01, max_iter=20)


@pytest.fixture(scope="module")
def path_map():
    return metric_map(CHAIN, "ccd", "path", size=40, tol=0.01, max_iter=10)


def test_hue_scale_is_the_full_saturation_hues_from_blue_to_red():
    t = np.linspace(0.0, 1.0, 1001)
    hsv = np.stack([(1.0 - t) * 240.0 / 360.0, np.ones_like(t), np.ones_like(t)], axis=1)
    assert np.allclose(palette.hue_rgb(t), hsv_to_rgb(hsv), atol=1e-12)
    assert np.array_equal(palette.hue_rgb([-1.0, 2.0]), [[0, 0, 1], [1, 0, 0]])  # clipped
    samples = np.linspace(0.0, 1.0, 256)  # the figures' colormap is the same scale, sampled
    assert np.allclose(HUE_MAP(samples)[:, :3], palette.hue_rgb(samples))


def test_metrics_are_defined_once_for_the_tiles_and_the_labels():
    assert list(TILE_METRICS) == list(palette.METRICS)
    fields = set(BatchResult.__dataclass_fields__)
    for name, m in palette.METRICS.items():
        assert m.name == name and TILE_METRICS[name] == m.field and m.field in fields
        assert m.label.startswith(m.words) and (m.unit in m.label)
    assert palette.METRICS["rotation-sum"].label == "sum of joint rotations (degrees)"


@pytest.mark.parametrize(
    ("metric", "lo", "hi"),
    [
        ("iterations", 1, 20),
        ("iterations", 3, 17),
        ("rotations", 0, 150),
        ("path", 0.3712, 16.2987),
        ("rotation-sum", 12.3, 1234.567),
        ("error", 1.2e-5, 0.0099),
        ("path", 2.0, 2.0),
    ],
)
def test_colour_bar_labels_its_least_and_largest_value(metric, lo, hi):
    for most in (5, 8):
        bar = palette.colour_bar(metric, lo, hi, most)
        values = [v for v, _ in bar.ticks]
        assert values[0] == lo and values[-1] == hi
        assert values == sorted(set(values)) and len(values) <= most + 2
        texts = [text for _, text in bar.ticks]
        assert len(set(texts)) == len(texts)  # every label tells its tick apart
        for v, text in bar.ticks:
            assert float(text) == pytest.approx(v, rel=0.01, abs=1e-12)
        positions = [bar.position(v) for v in values]
        assert all(0.0 <= p <= 1.0 for p in positions)


def test_integer_bar_has_a_band_per_value_and_labels_the_top_band():
    bar = palette.colour_bar("iterations", 1, 20)
    assert bar.bands == 20 and bar.limits == (0.5, 20.5)
    assert bar.ticks[-1] == (20.0, "20") and bar.ticks[0] == (1.0, "1")
    assert bar.position(20) == pytest.approx(1 - 0.5 / 20)
    assert np.allclose(bar.colours(), palette.hue_rgb(np.arange(20) / 19), atol=1e-15)


def _figure_bar(m):
    fig = maps_figure([m])
    image_ax, bar_ax = fig.axes[0], fig.axes[1]
    return fig, image_ax, bar_ax


def test_figure_colour_bar_ends_at_max_iter_and_says_so(iterations_map):
    m = iterations_map
    _, _, bar_ax = _figure_bar(m)
    labels = [t.get_text() for t in bar_ax.get_yticklabels()]
    ticks = list(bar_ax.get_yticks())
    lo = int(m.values[m.reached].min())
    assert labels[0] == str(lo) and labels[-1] == "20"
    assert ticks[0] == lo and ticks[-1] == 20
    assert bar_ax.get_ylim() == pytest.approx((lo - 0.5, 20.5))  # the top band is 20's
    assert bar_ax.get_ylabel() == "iterations"


def test_figure_colour_bar_of_a_continuous_metric_labels_min_and_max(path_map):
    m = path_map
    _, _, bar_ax = _figure_bar(m)
    v = m.values[m.reached]
    ticks = list(bar_ax.get_yticks())
    labels = [t.get_text() for t in bar_ax.get_yticklabels()]
    assert ticks[0] == pytest.approx(v.min()) and ticks[-1] == pytest.approx(v.max())
    assert bar_ax.get_ylim() == pytest.approx((v.min(), v.max()))  # the bar ends at the max
    assert float(labels[0]) == pytest.approx(v.min(), abs=0.01)
    assert float(labels[-1]) == pytest.approx(v.max(), abs=0.01)
    assert bar_ax.get_ylabel() == "end-effector path length (unit of the link lengths)"


@pytest.mark.parametrize("which", ["iterations_map", "path_map"])
def test_figure_and_viewer_overlay_colour_a_map_alike(which, request):
    pytest.importorskip("starlette")
    from geoik.viewer.overlay import map_image, rgb_bytes

    m = request.getfixturevalue(which)
    _, image_ax, bar_ax = _figure_bar(m)
    shown = np.asarray(image_ax.images[0].get_array())[..., :3]  # row 0 at y = -L
    reply = map_image(m, m.chain)
    raw = np.frombuffer(base64.b64decode(reply["rgba"]), dtype=np.uint8)
    overlay = raw.reshape(m.size, m.size, 4)[::-1, :, :3]  # the page gets the top row first
    assert np.array_equal(rgb_bytes(shown), overlay)  # pixel for pixel
    failed, outside = ~m.reached & m.reachable, ~m.reachable & ~m.reached
    assert failed.any() and outside.any()
    assert (overlay[failed] == rgb_bytes(np.array(palette.FAILURE))).all()
    assert (overlay[outside] == rgb_bytes(np.array(palette.OUTSIDE))).all()
    # the same range and the same end labels on both colour bars
    bar = palette.colour_bar(m.metric, reply["vmin"], reply["vmax"])
    assert bar_ax.get_ylim() == pytest.approx(bar.limits)
    page_ticks = [text for _, text in reply["bar"]["ticks"]]
    fig_ticks = [t.get_text() for t in bar_ax.get_yticklabels()]
    assert page_ticks[0] == fig_ticks[0] and page_ticks[-1] == fig_ticks[-1]
    # the figure bar's colour at a value is the colour of the pixels of that value
    (mappable,) = [c for c in bar_ax.collections if type(c).__name__ == "QuadMesh"]
    values = np.unique(m.values[m.reached])
    for value in values[:: max(1, values.size // 40)]:
        pixel = overlay[m.reached & (m.values == value)][0]
        bar_rgb = rgb_bytes(np.asarray(mappable.cmap(mappable.norm(value)))[:3])
        # exact for bands; the continuous bar's 256-level colormap is within one level
        assert np.abs(bar_rgb.astype(int) - pixel).max() <= (0 if bar.bands else 5)


def test_page_gradient_draws_the_same_colours():
    bar = palette.colour_bar("path", 0.0, 10.0)
    stops = bar.gradient()
    at = np.array([t for t, _ in stops])
    rgb = np.array([to_rgb(c) for _, c in stops])
    t = np.linspace(0.0, 1.0, 97)
    drawn = np.stack([np.interp(t, at, rgb[:, c]) for c in range(3)], axis=-1)
    assert np.allclose(drawn, palette.hue_rgb(t), atol=1 / 255)
    banded = palette.colour_bar("iterations", 1, 4)
    colours = [c for _, c in banded.gradient()]
    assert colours[::2] == [palette.hex_colour(c) for c in banded.colours()]


def test_the_palette_and_the_viewer_server_do_not_import_matplotlib():
    pytest.importorskip("starlette")
    code = (
        "import sys, geoik.maps.palette, geoik.viewer.server, geoik.viewer.overlay;"
        "print('matplotlib' in sys.modules)"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "False"
