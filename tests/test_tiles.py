"""Tiles: a map is the same however it is cut and wherever its tiles run."""

from __future__ import annotations

import os
import signal

import numpy as np
import pytest

import geoik as ik
from geoik.commands.cli import main
from geoik.maps import tiles
from geoik.maps.metric import _stitch, metric_map, metric_maps
from geoik.maps.tiles import ClusterError, Tile, pixel_centres, run_tiles, split_rows
from geoik.maps.volume import volume_map

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


@pytest.mark.parametrize("metric", ["iterations", "path"])
def test_tiling_is_bit_identical(metric):
    a = metric_map(CHAIN, "ccd", metric, size=50, tile_rows=50, **KW)
    b = metric_map(CHAIN, "ccd", metric, size=50, tile_rows=7, **KW)
    assert np.array_equal(a.values, b.values) and np.array_equal(a.status, b.status)


def test_progress_counts_tiles():
    seen = []
    metric_map(CHAIN, "ccd", size=20, tile_rows=5, progress=lambda d, t: seen.append((d, t)), **KW)
    assert seen == [(1, 4), (2, 4), (3, 4), (4, 4)]


def test_grouped_tiles_equal_tiles_one_by_one():
    tls = [
        Tile(CHAIN, m, "path", 24, 2.4, r, 0.01, 15)
        for m in ("ccd", "fabrik")
        for r in split_rows(24, 5)
    ]
    together = run_tiles(tls)  # without progress, the tiles of each map in one call
    alone = run_tiles(tls, progress=lambda d, t: None)  # with progress, tile by tile
    assert len(together) == len(alone) == len(tls)
    for a, b in zip(together, alone, strict=True):
        assert np.array_equal(a.status, b.status) and np.array_equal(a.values, b.values)


def test_stitched_map_equals_tiles_copied_together():
    """Without progress a map's tiles are views of one engine call's arrays, which the map
    takes as they are; with progress each tile is solved alone and the tiles are copied into
    one array. Both give the same map."""
    a = metric_map(CHAIN, "ccd", "path", size=30, tile_rows=7, **KW)
    b = metric_map(CHAIN, "ccd", "path", size=30, tile_rows=7, progress=lambda d, t: None, **KW)
    assert np.array_equal(a.values, b.values) and np.array_equal(a.status, b.status)
    assert a.values.shape == (30, 30) and a.coverage == b.coverage


def test_stitch_copies_unless_the_parts_are_one_array_in_order():
    whole = np.arange(24.0).reshape(8, 3)
    parts = [whole[0:3], whole[3:4], whole[4:8]]
    joined = _stitch(parts)
    assert np.array_equal(joined, whole) and np.shares_memory(joined, whole)
    for bad in (
        [whole[0:3], whole[4:8]],  # a gap
        [whole[3:8], whole[0:3]],  # out of order
        [whole[0:4], whole.copy()[4:8]],  # another array
        [whole[0:4]],  # not all of it
    ):
        got = _stitch(bad)
        assert np.array_equal(got, np.concatenate(bad))
        assert not np.shares_memory(got, whole) or len(bad) == 1


def test_several_maps_in_one_pool():
    maps = metric_maps([(CHAIN, "ccd"), (CHAIN, "fabrik")], "iterations", 30, tile_rows=4, **KW)
    alone = [metric_map(CHAIN, m, "iterations", size=30, **KW) for m in ("ccd", "fabrik")]
    for a, b in zip(maps, alone, strict=True):
        assert a.method == b.method and np.array_equal(a.values, b.values)


def test_bad_scheduler_address_is_a_clear_error():
    pytest.importorskip("dask.distributed")
    with pytest.raises(ClusterError, match="tcp://127.0.0.1:1"):
        tiles.connect("tcp://127.0.0.1:1", timeout=0.5)
    assert main(["map", "--lengths", "1x3", "--size", "10", "--scheduler", "nonsense"]) == 2


def test_missing_dask_is_a_clear_error(monkeypatch):
    import builtins

    real = builtins.__import__

    def fake(name, *a, **k):
        if name.startswith("dask"):
            raise ImportError(name)
        return real(name, *a, **k)

    monkeypatch.setattr(builtins, "__import__", fake)
    with pytest.raises(tiles.DaskMissingError, match="geoik\\[dask\\]"):
        tiles.local_client()
    with pytest.raises(tiles.DaskMissingError):
        metric_map(CHAIN, "ccd", size=10, client="local")


def test_a_local_cluster_beside_another_says_nothing_of_ports():
    """A local cluster while another holds port 8787 (two ``--scheduler local`` maps at once,
    two test files' clusters) starts quietly: its scheduler's HTTP server, which it starts even
    without a dashboard, takes a free port of this host rather than 8787 ("Port 8787 is already
    in use" otherwise)."""
    import contextlib
    import socket
    import warnings

    pytest.importorskip("dask.distributed")
    holder = socket.socket()
    with contextlib.suppress(OSError):  # else held already
        holder.bind(("127.0.0.1", 8787))  # as another cluster's scheduler would
    try:
        with warnings.catch_warnings(record=True) as seen:
            warnings.simplefilter("always")
            local = tiles.local_client(workers=1)
            try:
                assert local.submit(sum, [1, 2]).result() == 3
                http = local.cluster.scheduler.http_server
                assert http.address == "127.0.0.1" and http.port != 8787
            finally:
                local.close()
                local.cluster.close()
    finally:
        holder.close()
    assert not [w for w in seen if "already in use" in str(w.message)]


# --------------------------------------------------------------------------- on a LocalCluster


@pytest.fixture(scope="module")
def client():
    """Two single-threaded worker processes (processes, so that one can be killed)."""
    distributed = pytest.importorskip("dask.distributed")
    cluster = distributed.LocalCluster(
        n_workers=2,
        threads_per_worker=1,
        processes=True,
        dashboard_address=None,
        scheduler_kwargs=tiles.QUIET_HTTP,
        env={"NUMBA_NUM_THREADS": "1"},
    )
    with distributed.Client(cluster) as c:
        yield c
    cluster.close()


def test_dask_is_bit_identical(client):
    jobs = [(CHAIN, "ccd"), (CHAIN, "fabrik"), (ik.Chain.planar([2.0, 1.0]), "caa")]
    for metric in ("iterations", "path"):
        here = metric_maps(jobs, metric, 60, tile_rows=10, **KW)
        there = metric_maps(jobs, metric, 60, client=client, tile_rows=10, **KW)
        for a, b in zip(here, there, strict=True):
            assert np.array_equal(a.values, b.values)
            assert np.array_equal(a.status, b.status)
            assert a.coverage == b.coverage


def test_dask_is_bit_identical_in_3d(client):
    arm = ik.Chain.spatial(
        [1.0, 0.8, 0.6], max_bend_deg=[60, (-30, 120), 45], hinge_axes=[None, (0, 0, 1), None]
    )
    for plane in ("xz", (1.0, 2.0, 0.5)):
        here = metric_map(arm, "ccd", "path", size=30, tile_rows=7, plane=plane, **KW)
        there = metric_map(
            arm, "ccd", "path", size=30, tile_rows=7, plane=plane, client=client, **KW
        )
        assert np.array_equal(here.values, there.values)
        assert np.array_equal(here.status, there.status) and here.coverage == there.coverage
    here = volume_map(arm, "fabrik", size=12, tile_rows=17, **KW)
    there = volume_map(arm, "fabrik", size=12, tile_rows=17, client=client, **KW)
    assert np.array_equal(here.values, there.values) and np.array_equal(here.status, there.status)


def test_scheduler_address_from_python_and_cli(client, tmp_path, capsys):
    address = client.scheduler.address
    here = metric_map(CHAIN, "ccd", size=40, **KW)
    there = metric_map(CHAIN, "ccd", size=40, client=address, **KW)
    assert np.array_equal(here.values, there.values)
    out = tmp_path / "m.png"
    argv = [
        "map",
        "--lengths",
        "1,0.8,0.6",
        "--size",
        "40",
        "--tol",
        "0.01",
        "--max-iter",
        "15",
        "--scheduler",
        address,
        "-o",
        str(out),
    ]
    assert main(argv) == 0
    assert f"coverage: {100 * here.coverage:.2f}%" in capsys.readouterr().out
    assert out.exists()


def test_failed_tile_is_a_cluster_error(client):
    broken = Tile(CHAIN, "ccd", "no-such-metric", 10, 2.4, (0, 10), 0.01, 15)
    with pytest.raises(ClusterError, match="failed on the cluster: KeyError"):
        run_tiles([broken], client=client, retries=0)


def test_lost_worker_tiles_recomputed(client):
    """A worker killed while it holds tiles: the scheduler reruns them, the map is unchanged.
    The worker is stopped (SIGSTOP) before the scheduler is asked what it holds, so that none
    of it can finish before the kill, however fast the tiles are."""
    heavy = ik.Chain.planar([1.0] * 12)
    tls = [Tile(heavy, "ccd", "iterations", 64, 12.0, r, 1e-9, 300) for r in split_rows(64, 4)]
    pids = client.run(os.getpid)
    address, victim = sorted(pids.items())[0]
    busy: list[str] = []

    def progress(done, total):
        if busy:
            return
        os.kill(victim, signal.SIGSTOP)
        running = client.processing().get(address, ())
        if running:
            os.kill(victim, signal.SIGKILL)
            busy.extend(running)
        else:
            os.kill(victim, signal.SIGCONT)

    got = run_tiles(tls, client=client, progress=progress)
    assert busy, "the victim never held a tile"
    want = run_tiles(tls)
    for a, b in zip(got, want, strict=True):
        assert np.array_equal(a.values, b.values) and np.array_equal(a.status, b.status)

    def runs(dask_scheduler, keys=tuple(busy)):
        return [sum(1 for e in dask_scheduler.story(k) if e[2:3] == ("processing",)) for k in keys]

    assert max(client.run_on_scheduler(runs)) >= 2  # a tile of the dead worker ran again
    client.wait_for_workers(2, timeout=30)
