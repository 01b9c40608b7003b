"""Tiles: a metric map (or many, for a sweep) cut into blocks of pixel rows.

A tile is a plain, picklable description of a block of rows of one map; :func:`run_tile` solves
it with :func:`geoik.batch.evaluate_grid`. Every target depends only on its own pixel (the pixel
centre is computed from its row and column alone) and lanes of the batch engine never interact,
so a map is bit-identical however it is cut and wherever its tiles run: in this process (the
default) or on a Dask distributed cluster (``client=``). Dask is optional and imported only when
asked for (``pip install 'geoik[dask]'``).

On a cluster a tile whose worker is lost is recomputed: the scheduler reschedules the tasks a
dead worker was running or holding (up to its ``allowed-failures`` limit, 3 by default), and a
tile that raised is tried again up to ``retries`` times. Whatever still fails is reported as a
:class:`ClusterError`, never as a partial result.
"""

from __future__ import annotations

import contextlib
import dataclasses
import logging
import os
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from geoik.batch.engine import evaluate_grid
from geoik.chain import Chain
from geoik.errors import ClusterError, DaskMissingError, GeoIKError
from geoik.maps import palette

__all__ = [
    "METRICS",
    "ClusterError",
    "DaskMissingError",
    "Tile",
    "TileResult",
    "check_scheduler",
    "cluster",
    "connect",
    "local_client",
    "pixel_axis",
    "pixel_centres",
    "plane_centres",
    "run_tile",
    "run_tiles",
    "split_rows",
    "tile_targets",
    "voxel_centres",
]

METRICS: dict[str, str] = {m.name: m.field for m in palette.METRICS.values()}
"""Metric names (as the CLI spells them) and the BatchResult field each reads; the metrics are
defined, with their words and units, in :data:`geoik.maps.palette.METRICS`."""

NEEDS_COSTS = frozenset({"path", "rotation-sum", "rotations"})
"""Metrics read from the recorded motion (the batch engine then records keyframes)."""
DEFAULT_TILE_ROWS = 50
RETRIES = 3
CONNECT_TIMEOUT = 10.0
"""Seconds to wait for a scheduler to answer, and for a cluster to have a worker."""


Axes = tuple[tuple[float, float, float], tuple[float, float, float]]


@dataclass(frozen=True)
class Tile:
    """Rows ``rows[0] <= r < rows[1]`` of the ``size`` x ``size`` map of one chain and solver.

    ``half`` is the half-side L of the square [-L, L]^2 around the chain's base. A 3-D chain's
    map lies in the plane through the base spanned by ``axes`` (the unit vectors along its
    columns and its rows); a volume map (``volume``) has ``size`` x ``size`` rows, row
    ``r = k * size + j`` holding the voxels ``(i, j, k)`` of the cube [-L, L]^3 along x.
    """

    chain: Chain
    method: str
    metric: str
    size: int
    half: float
    rows: tuple[int, int]
    tol: float | None = None
    max_iter: int | None = None
    options: dict[str, Any] = field(default_factory=dict)
    axes: Axes | None = None
    volume: bool = False


@dataclass(frozen=True, eq=False)
class TileResult:
    """(rows, size) status codes and metric values of one tile, and the tol and budget used."""

    status: np.ndarray
    values: np.ndarray
    tol: float
    max_iter: int


def pixel_axis(half: float, size: int, i0: int, i1: int) -> np.ndarray:
    """Pixel-centre offsets ``-L + (i + 0.5) 2L/N`` from the base, for ``i`` in ``i0..i1-1``."""
    return -half + (np.arange(i0, i1) + 0.5) * (2.0 * half / size)


def pixel_centres(base: np.ndarray, half: float, size: int, r0: int, r1: int) -> np.ndarray:
    """(rows * size, 2) targets at the pixel centres of rows r0..r1-1, row-major.

    Pixel (row r, column c) is ``x = -L + (c + 0.5) 2L/N``, ``y = -L + (r + 0.5) 2L/N`` about
    the base.
    """
    xs, ys = pixel_axis(half, size, 0, size), pixel_axis(half, size, r0, r1)
    out = np.empty((ys.shape[0], size, 2))
    out[:, :, 0] = xs + base[0]
    out[:, :, 1] = (ys + base[1])[:, None]
    return out.reshape(-1, 2)


def plane_centres(
    base: np.ndarray, half: float, size: int, r0: int, r1: int, axes: Axes
) -> np.ndarray:
    """(rows * size, 3) targets at the pixel centres of rows r0..r1-1 of the plane through
    ``base`` spanned by ``axes = (u, v)``: pixel (row r, column c) is ``base + a u + b v`` with
    ``a = -L + (c + 0.5) 2L/N`` and ``b = -L + (r + 0.5) 2L/N``."""
    a, b = pixel_axis(half, size, 0, size), pixel_axis(half, size, r0, r1)
    u, v = axes
    out = np.empty((b.shape[0], size, 3))
    for k in range(3):
        out[:, :, k] = base[k] + a[None, :] * u[k] + b[:, None] * v[k]
    return out.reshape(-1, 3)


def voxel_centres(base: np.ndarray, half: float, size: int, r0: int, r1: int) -> np.ndarray:
    """(rows * size, 3) targets at the voxel centres of rows r0..r1-1 of the cube [-L, L]^3
    about ``base``: row ``r = k * N + j`` holds the voxels ``(i, j, k)`` at
    ``base + (x_i, x_j, x_k)``, ``x_i = -L + (i + 0.5) 2L/N``."""
    axis = pixel_axis(half, size, 0, size)
    rows = np.arange(r0, r1)
    out = np.empty((rows.shape[0], size, 3))
    out[:, :, 0] = base[0] + axis[None, :]
    out[:, :, 1] = (base[1] + axis[rows % size])[:, None]
    out[:, :, 2] = (base[2] + axis[rows // size])[:, None]
    return out.reshape(-1, 3)


def tile_targets(tile: Tile) -> np.ndarray:
    """The targets of a tile, row by row: :func:`pixel_centres`, :func:`plane_centres` or
    :func:`voxel_centres`."""
    r0, r1 = tile.rows
    base = tile.chain.base
    if tile.volume:
        return voxel_centres(base, tile.half, tile.size, r0, r1)
    if tile.axes is not None:
        return plane_centres(base, tile.half, tile.size, r0, r1, tile.axes)
    return pixel_centres(base, tile.half, tile.size, r0, r1)


def split_rows(size: int, tile_rows: int = DEFAULT_TILE_ROWS) -> list[tuple[int, int]]:
    """Row blocks ``(r0, r1)`` of at most ``tile_rows`` rows covering ``range(size)``."""
    step = max(1, int(tile_rows))
    return [(r0, min(size, r0 + step)) for r0 in range(0, size, step)]


def run_tile(tile: Tile) -> TileResult:
    """Solve one tile in this process (all cores numba is allowed)."""
    r0, r1 = tile.rows
    targets = tile_targets(tile)
    res = evaluate_grid(
        tile.chain,
        targets,
        tile.size,
        tile.method,
        tol=tile.tol,
        max_iter=tile.max_iter,
        costs=tile.metric in NEEDS_COSTS,
        **tile.options,
    )
    values = np.asarray(getattr(res, METRICS[tile.metric]), dtype=np.float64)
    shape = (r1 - r0, tile.size)
    return TileResult(res.status.reshape(shape), values.reshape(shape), res.tol, res.max_iter)


def _same_map(a: Tile, b: Tile) -> bool:
    """Whether tile ``b`` continues tile ``a``: the same map, the rows right after ``a``'s."""
    return (
        b.chain is a.chain
        and (b.method, b.metric, b.size, b.half, b.tol, b.max_iter, b.axes, b.volume)
        == (a.method, a.metric, a.size, a.half, a.tol, a.max_iter, a.axes, a.volume)
        and b.options == a.options
        and b.rows[0] == a.rows[1]
    )


def _groups(tiles: Sequence[Tile], most: int | None) -> list[list[Tile]]:
    """Consecutive tiles of one map in groups of at most ``most`` targets (but one tile at
    least; None: no limit), to be solved by one call of the batch engine each: every call makes
    the threads meet at its end, which a busy machine makes slow."""
    groups: list[list[Tile]] = []
    count = 0
    for tile in tiles:
        n = (tile.rows[1] - tile.rows[0]) * tile.size
        if groups and _same_map(groups[-1][-1], tile) and (most is None or count + n <= most):
            groups[-1].append(tile)
            count += n
        else:
            groups.append([tile])
            count = n
    return groups


def _run_group(group: list[Tile]) -> list[TileResult]:
    """The tiles of one map solved by one call of the batch engine (whose every result depends
    on its own target alone), cut back into tiles: what :func:`run_tile` gives for each."""
    if len(group) == 1:
        return [run_tile(group[0])]
    first, last = group[0], group[-1]
    joined = dataclasses.replace(first, rows=(first.rows[0], last.rows[1]))
    whole = run_tile(joined)
    out, r = [], 0
    for tile in group:
        k = tile.rows[1] - tile.rows[0]
        part = TileResult(
            whole.status[r : r + k], whole.values[r : r + k], whole.tol, whole.max_iter
        )
        out.append(part)
        r += k
    return out


def run_tiles(
    tiles: Sequence[Tile],
    client: Any = None,
    progress: Callable[[int, int], None] | None = None,
    retries: int = RETRIES,
) -> list[TileResult]:
    """Solve tiles, in this process or on a Dask cluster, results in the order of ``tiles``.

    Parameters
    ----------
    tiles : the tiles.
    client : None (run here) or a ``dask.distributed.Client``.
    progress : called as ``progress(done, total)`` after each finished tile.
    retries : on a cluster, how many times a tile that raised is tried again.

    Raises
    ------
    ClusterError
        A tile failed on the cluster after its retries (or its worker died too often), or the
        cluster has no worker.
    """
    total = len(tiles)
    if client is None:
        out: list[TileResult] = []
        for group in _groups(tiles, 0 if progress is not None else None):
            out.extend(_run_group(group))
            if progress is not None:
                progress(len(out), total)
        return out
    distributed = _distributed()
    _await_worker(client)
    futures = [client.submit(run_tile, t, retries=retries, pure=False) for t in tiles]
    index = {f.key: i for i, f in enumerate(futures)}
    results: list[TileResult | None] = [None] * total
    try:
        for done, fut in enumerate(distributed.as_completed(futures), start=1):
            i = index[fut.key]
            results[i] = _result(fut, tiles[i])
            if progress is not None:
                progress(done, total)
    finally:
        client.cancel([f for f in futures if not f.done()])
    return [r for r in results if r is not None]


def _result(fut: Any, tile: Tile) -> TileResult:
    """A finished future's TileResult; a failure becomes a one-line ClusterError."""
    try:
        result: TileResult = fut.result()
    except GeoIKError:
        raise
    except Exception as e:  # whatever the cluster raised: KilledWorker, lost scheduler, ...
        what = f"{type(e).__name__}: {e}".strip().rstrip(":")
        hint = " (is geoik installed on the workers?)" if isinstance(e, ImportError) else ""
        raise ClusterError(
            f"tile rows {tile.rows[0]}-{tile.rows[1] - 1} of the {tile.method} map failed on the "
            f"cluster: {what}{hint}",
            argument="scheduler",
        ) from None
    return result


def _await_worker(client: Any, timeout: float = CONNECT_TIMEOUT) -> None:
    """Wait until the cluster has a worker; tiles submitted to none would wait for ever."""
    try:
        client.wait_for_workers(1, timeout=timeout)
    except (TimeoutError, OSError):
        raise ClusterError(
            f"the cluster at {client.scheduler.address} has no worker after {timeout:g} s",
            argument="scheduler",
        ) from None


def _distributed() -> Any:
    try:
        import dask.distributed as distributed
    except ImportError:
        raise DaskMissingError(
            "running tiles on a cluster needs dask.distributed; install it with pip install "
            "'geoik[dask]'",
            argument="scheduler",
        ) from None
    return distributed


QUIET_HTTP = {"dashboard_address": "127.0.0.1:0"}
"""A LocalCluster's ``scheduler_kwargs``: its scheduler's HTTP server (which it starts even
without a dashboard) on a free port of this host rather than 8787, where a second cluster at
once would print "Port 8787 is already in use"."""


def local_client(workers: int | None = None, threads: int = 1) -> Any:
    """A ``dask.distributed.Client`` on a new LocalCluster of worker processes.

    Parameters
    ----------
    workers : worker processes; default one per core.
    threads : threads per worker; numba's parallel loops in each worker use as many, so the
        workers together use ``workers * threads`` cores instead of oversubscribing them.

    Close it with ``client.close(); client.cluster.close()``, or use :func:`cluster`.
    """
    distributed = _distributed()
    n = workers if workers is not None else max(1, os.cpu_count() or 1)
    # silence_logs: a worker's heartbeat racing the shutdown logs a traceback; failures that
    # matter reach the caller as a ClusterError. No dashboard; the scheduler's own HTTP server
    # on a free port of this host (its default, 8787, makes a second cluster at once warn)
    local = distributed.LocalCluster(
        n_workers=n,
        threads_per_worker=threads,
        processes=True,
        dashboard_address=None,
        scheduler_kwargs=QUIET_HTTP,
        env={"NUMBA_NUM_THREADS": str(threads)},
        silence_logs=logging.CRITICAL,
    )
    return distributed.Client(local)


def connect(address: str, timeout: float = CONNECT_TIMEOUT) -> Any:
    """A ``dask.distributed.Client`` for the scheduler at ``address`` (``tcp://HOST:PORT``).

    Raises
    ------
    ClusterError
        The scheduler does not answer within ``timeout`` seconds or the address is malformed.
    """
    # a Client that fails on a malformed address leaves dask's shared event loop unusable for
    # the next Client of the process: such an address is refused before one is made
    distributed = check_scheduler(address)
    try:
        return distributed.Client(address, timeout=timeout)
    except (OSError, TimeoutError, ValueError, TypeError) as e:
        raise _unreachable(address, e) from None


def check_scheduler(address: str) -> Any:
    """Refuse, before any work, a ``scheduler`` that cannot be one: dask.distributed missing
    (:class:`~geoik.DaskMissingError`), an address other than ``"local"`` that is no
    ``tcp://HOST:PORT`` (:class:`~geoik.ClusterError`). Connecting is left to
    :func:`cluster`. Returns the ``dask.distributed`` module."""
    distributed = _distributed()
    if address != "local":
        try:
            distributed.comm.get_address_host_port(address)
        except (ValueError, TypeError) as e:
            raise _unreachable(address, e) from None
    return distributed


def _unreachable(address: str, cause: Exception) -> ClusterError:
    return ClusterError(
        f"cannot connect to {address!r} (expected a running Dask scheduler at "
        f"tcp://HOST:PORT, or 'local'): {cause}",
        argument="scheduler",
    )


@contextlib.contextmanager
def cluster(address: str | None) -> Iterator[Any]:
    """A client for the duration of a ``with`` block: None for ``None`` (tiles run here), a new
    LocalCluster for ``"local"`` (shut down on exit), otherwise the scheduler at ``address``."""
    if address is None:
        yield None
        return
    client = local_client() if address == "local" else connect(address)
    try:
        yield client
    finally:
        local = client.cluster if address == "local" else None
        client.close()
        if local is not None:
            local.close()
