"""Tiles: a map is the same however it is cut and wherever its tiles run."""

from __future__ import annotations

import os
import signal

import numpy as np
import pytest

import geoik as ik
from geoik.maps import metric_map, metric_maps
from geoik.tiles import Tile, pixel_centres, run_tiles, split_rows

CHAIN = ik.Chain.planar([1.0, 0.8, 0.6])
KW = {"tol": 0.01, "max_iter": 15}


def test_split_rows_covers_once():
    for size, rows in [(10, 3), (7, 7), (5, 50), (1, 1)]:
        blocks = split_rows(size, rows)
        covered = [r for a, b in blocks for r in range(a, b)]
        assert covered == list(range(size))


def test_pixel_centres_do_not_depend_on_the_cut():
    whole = pixel_centres(CHAIN.base, 2.4, 20, 0, 20)
    parts = np.concatenate([pixel_centres(CHAIN.base, 2.4, 20, a, b) for a, b in split_rows(20, 6)])
    assert np.array_equal(whole, parts)


def test_tiling_is_bit_identical():
    a = metric_map(CHAIN, "ccd", "path", size=50, tile_rows=50, **KW)
    b = metric_map(CHAIN, "ccd", "path", size=50, tile_rows=7, **KW)
    assert np.array_equal(a.values, b.values) and np.array_equal(a.reached, b.reached)


def test_progress_counts_tiles():
    seen = []
    metric_map(CHAIN, "ccd", size=20, tile_rows=5, progress=lambda d, t: seen.append((d, t)), **KW)
    assert seen == [(1, 4), (2, 4), (3, 4), (4, 4)]


@pytest.fixture(scope="module")
def client():
    distributed = pytest.importorskip("dask.distributed")
    cluster = distributed.LocalCluster(
        n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None
    )
    with distributed.Client(cluster) as c:
        yield c
    cluster.close()


def test_dask_is_bit_identical(client):
    here = metric_maps([(CHAIN, "ccd"), (CHAIN, "fabrik")], "iterations", 60, tile_rows=10, **KW)
    there = metric_maps(
        [(CHAIN, "ccd"), (CHAIN, "fabrik")], "iterations", 60, client=client, tile_rows=10, **KW
    )
    for a, b in zip(here, there, strict=True):
        assert np.array_equal(a.values, b.values)
        assert np.array_equal(a.reached, b.reached)
        assert a.coverage == b.coverage


def test_lost_worker_tiles_recomputed(client):
    """A worker killed while it holds tiles: the scheduler reruns them elsewhere."""
    tiles = [Tile(CHAIN, "ccd", "iterations", 60, 2.4, r, 0.01, 15) for r in split_rows(60, 2)]
    pids = client.run(os.getpid)
    victim = sorted(pids.values())[0]
    killed = []

    def progress(done, total):
        if done == 3 and not killed:
            os.kill(victim, signal.SIGKILL)
            killed.append(victim)

    got = run_tiles(tiles, client=client, progress=progress)
    assert killed
    want = run_tiles(tiles)
    for a, b in zip(got, want, strict=True):
        assert np.array_equal(a.values, b.values) and np.array_equal(a.status, b.status)
    client.wait_for_workers(2, timeout=30)


def test_missing_dask_is_a_clear_error(monkeypatch):
    import builtins

    from geoik import tiles

    real = builtins.__import__

    def fake(name, *a, **k):
        if name.startswith("dask"):
            raise ImportError(name)
        return real(name, *a, **k)

    monkeypatch.setattr(builtins, "__import__", fake)
    with pytest.raises(tiles.DaskMissingError, match="dask"):
        tiles.local_client()
