"""Metric maps of 3-D chains: over a plane through the base, and over a cube (volume maps)."""

from __future__ import annotations

import numpy as np
import pytest

import geoik as ik
from geoik.batch.engine import evaluate
from geoik.errors import GeoIKError
from geoik.maps.figures import maps_figure, volume_figures
from geoik.maps.metric import PLANES, metric_map, plane_axes
from geoik.maps.tiles import plane_centres, voxel_centres
from geoik.maps.volume import volume_map
from geoik.reach.workspace import reachable_points
from geoik.render import save_figures

KW = {"tol": 0.01, "max_iter": 15}
CONES = ik.Chain.spatial([1.0, 0.8, 0.6], max_bend_deg=60, base=(0.5, -0.25, 1.0))


@pytest.mark.parametrize("plane", ["xy", "xz", "yz", (1.0, 1.0, 1.0), (0.0, 0.0, -2.0)])
def test_plane_pixels_are_the_targets_solved(plane):
    m = metric_map(CONES, "ccd", "error", size=24, plane=plane, **KW)
    name, (u, v) = plane_axes(plane)
    assert m.plane == name and m.axes == (u, v)
    assert abs(np.dot(u, v)) < 1e-12 and abs(np.linalg.norm(u) - 1) < 1e-12
    h = 2 * m.half / 24
    for r, c in [(3, 17), (12, 12), (23, 0)]:
        target = CONES.base + (-m.half + (c + 0.5) * h) * np.array(u)
        target = target + (-m.half + (r + 0.5) * h) * np.array(v)
        sol = ik.solve(CONES, target, "ccd", **KW)
        assert m.values[r, c] == pytest.approx(sol.error, abs=1e-12)
        assert m.status[r, c] == sol.status.value


def test_plane_map_equals_the_batch_engine_and_its_mask():
    m = metric_map(CONES, "fabrik", "path", size=20, plane="xz", **KW)
    centres = plane_centres(CONES.base, m.half, 20, 0, 20, PLANES["xz"])
    res = evaluate(CONES, centres, "fabrik", **KW)
    assert np.array_equal(m.values.ravel(), res.path_length)
    assert np.array_equal(m.status.ravel(), res.status)
    mask, ws = reachable_points(CONES, centres)
    assert np.array_equal(m.reachable.ravel(), mask) and m.workspace is ws
    assert m.coverage == (m.reached & m.reachable).sum() / m.reachable.sum()


def test_named_planes_and_their_extent():
    m = metric_map(CONES, "ccd", size=10, plane="yz", **KW)
    assert m.axis_labels == ("y", "z")
    bx, by = CONES.base[1], CONES.base[2]
    assert m.extent == (bx - m.half, bx + m.half, by - m.half, by + m.half)
    m = metric_map(CONES, "ccd", size=10, plane=(0, 1, 0), **KW)
    assert m.axis_labels == ("u", "v") and m.extent == (-m.half, m.half, -m.half, m.half)


@pytest.mark.parametrize(
    "plane", ["xw", (0, 0, 0), (1, 2), (1, np.nan, 0), "x", (True, False, False)], ids=str
)
def test_bad_planes_named(plane):
    with pytest.raises(GeoIKError, match="^plane"):
        metric_map(CONES, "ccd", size=10, plane=plane, **KW)


def test_planar_chains_map_only_their_plane():
    chain = ik.Chain.planar([1.0, 1.0])
    a = metric_map(chain, "ccd", size=20, **KW)
    b = metric_map(chain, "ccd", size=20, plane="xy", **KW)
    assert np.array_equal(a.values, b.values) and a.axes is None and a.workspace is None
    with pytest.raises(GeoIKError, match="^plane"):
        metric_map(chain, "ccd", size=20, plane="xz", **KW)


def test_volume_voxels_are_the_targets_solved():
    vol = volume_map(CONES, "ccd", "iterations", size=10, **KW)
    assert vol.values.shape == (10, 10, 10)
    centres = voxel_centres(CONES.base, vol.half, 10, 0, 100)
    res = evaluate(CONES, centres, "ccd", costs=False, **KW)
    assert np.array_equal(vol.status.ravel(), res.status)
    assert np.array_equal(vol.values.ravel(), res.iterations.astype(float))
    x = vol.axis()
    i, j, k = 7, 2, 5
    sol = ik.solve(CONES, CONES.base + (x[i], x[j], x[k]), "ccd", **KW)
    assert vol.status[k, j, i] == sol.status.value and vol.values[k, j, i] == sol.iterations
    mask, ws = reachable_points(CONES, centres)
    assert np.array_equal(vol.reachable.ravel(), mask) and vol.workspace is ws
    assert vol.coverage == (vol.reached & vol.reachable).sum() / vol.reachable.sum()


def test_volume_tiles_do_not_matter():
    a = volume_map(CONES, "fabrik", "path", size=9, tile_rows=4, **KW)
    b = volume_map(CONES, "fabrik", "path", size=9, tile_rows=81, **KW)
    c = volume_map(CONES, "fabrik", "path", size=9, tile_rows=5, progress=lambda d, t: None, **KW)
    for other in (b, c):
        assert np.array_equal(a.values, other.values) and np.array_equal(a.status, other.status)


def test_volume_slices():
    vol = volume_map(CONES, "ccd", size=8, **KW)
    s = vol.slice("y", 3)
    assert s.plane == "xz" and np.array_equal(s.values, vol.values[:, 3, :])
    assert s.axis_labels == ("x", "z")
    with pytest.raises(GeoIKError, match="slice"):
        vol.slice("w", 0)


def test_volume_map_checks():
    with pytest.raises(GeoIKError, match="volume"):
        volume_map(ik.Chain.planar([1.0]), "ccd", size=8)
    with pytest.raises(GeoIKError, match="size"):
        volume_map(CONES, "ccd", size=5000)
    with pytest.raises(GeoIKError, match="metric"):
        volume_map(CONES, "ccd", "nope", size=8)


def test_figures_and_files(tmp_path):
    vol = volume_map(CONES, "ccd", size=12, **KW)
    slices, coverage = volume_figures(vol)
    paths = [tmp_path / "v.png", tmp_path / "v-coverage.png"]
    save_figures([(slices, paths[0], 60), (coverage, paths[1], 60)])
    assert all(p.stat().st_size > 1000 for p in paths)
    m = metric_map(CONES, "ccd", size=12, plane="xz", **KW)
    maps_figure([m])
    vol.save_npz(tmp_path / "v.npz")
    with np.load(tmp_path / "v.npz") as data:
        assert (
            data["values"].shape == (12, 12, 12) and str(data["reachable_method"]) == "revolution"
        )
    m.save_npz(tmp_path / "m.npz")
    with np.load(tmp_path / "m.npz") as data:
        assert str(data["plane"]) == "xz"


def test_figures_all_or_nothing(tmp_path):
    vol = volume_map(CONES, "ccd", size=8, **KW)
    slices, coverage = volume_figures(vol)
    good = tmp_path / "v.png"
    with pytest.raises(OSError):
        save_figures([(slices, good, 60), (coverage, tmp_path / "missing" / "c.png", 60)])
    assert list(tmp_path.iterdir()) == []
