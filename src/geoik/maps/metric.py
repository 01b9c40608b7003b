"""Performance metric maps (seed 004, Section 4).

The square [-L, L]^2 around a planar chain's base, L its maximum reach, is sampled at the centres
of an N x N grid of pixels (row r, column c: ``x = -L + (c + 0.5) 2L/N``,
``y = -L + (r + 0.5) 2L/N``, row 0 at the bottom); every pixel centre is a target solved from the
rest pose, and the map records a metric of each solve: iterations (seed 004 Fig. 6), the distance
the end effector travelled (Fig. 7, ``path``), the sum of the joint rotations, the number of
rotations over 5 degrees, or the final error. A pixel counts as reached when its solve ended
REACHED (within ``tol``). The workspace coverage (Figs. 9-10) is the share of the reachable
annulus (between the chain's minimum and maximum reach) whose pixels are reached; the seed does
not say how it counted pixels, so here the pixel centres decide.

A 3-D chain is mapped over a plane through its base (:func:`metric_map` with ``plane="xy"``,
``"xz"``, ``"yz"`` or a normal vector): the pixels are the centres of the square [-L, L]^2 of
that plane about the base, along two unit vectors ``u`` (columns) and ``v`` (rows), and
:func:`volume_map` maps the whole cube [-L, L]^3 in N x N x N voxels. A 3-D chain with limits does
not reach a shell: which pixel or voxel centres it can reach is decided by
:func:`geoik.reach.workspace.reachable_points` (exactly where provable, otherwise with a stated
bound), and the coverage is the share of those that are reached.

A map is computed as tiles of pixel rows (:mod:`geoik.maps.tiles`), here or on a Dask cluster, with
bit-identical results either way. What a map holds, :class:`MetricMap`, and the named planes
are in :mod:`geoik.maps.result` (re-exported here).
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable, Iterator
from typing import Any

import numpy as np

from geoik.batch.engine import evaluate, kernels_for
from geoik.chain import Chain
from geoik.checks import check_memory
from geoik.errors import InvalidChainError, InvalidOptionError, describe
from geoik.geometry import REACHED
from geoik.jit import compile_ahead
from geoik.maps.result import PLANES, MetricMap, plane_axes
from geoik.maps.result import _fmt as _fmt  # the parameters as a title states them
from geoik.maps.tiles import (
    DEFAULT_TILE_ROWS,
    METRICS,
    NEEDS_COSTS,
    Axes,
    Tile,
    TileResult,
    cluster,
    pixel_axis,
    plane_centres,
    run_tiles,
    split_rows,
)
from geoik.reach.workspace import reachable_points

__all__ = [
    "METRICS",
    "PLANES",
    "MetricMap",
    "check_jobs",
    "check_map_memory",
    "metric_map",
    "metric_maps",
    "plane_axes",
    "reachable_mask",
]

MAX_SIZE = 20000
"""Most pixels per side of a map."""


def _check(
    chain: Any, metric: Any, size: Any, tile_rows: Any, plane: Any = None, top: int = MAX_SIZE
) -> tuple[str, Axes | None]:
    """Check a map's arguments; the plane's name and axes (None for a planar chain)."""
    if not isinstance(chain, Chain):
        raise InvalidChainError(f"expected a geoik.Chain, got {describe(chain)}", argument="chain")
    if metric not in METRICS:
        known = ", ".join(METRICS)
        raise InvalidOptionError(
            f"expected one of {known}, got {describe(metric)}", argument="metric"
        )
    for name, value, most in (("size", size, top), ("tile_rows", tile_rows, None)):
        ok = isinstance(value, int | np.integer) and not isinstance(value, bool)
        if not ok or value < 1 or (most is not None and value > most):
            span = f"1-{most}" if most is not None else ">= 1"
            raise InvalidOptionError(
                f"expected an integer number of pixels in {span}, got {describe(value)}",
                argument=name,
            )
    if chain.dim == 2:
        if plane not in (None, "xy"):
            raise InvalidOptionError(
                f"a planar chain is mapped in its own plane (xy), got {describe(plane)}",
                argument="plane",
            )
        return "xy", None
    return plane_axes("xy" if plane is None else plane)


def reachable_mask(chain: Chain, size: int) -> np.ndarray:
    """(N, N) bool: pixel centres within the chain's reach annulus (a new array; the chain keeps
    the last one it was asked for)."""
    key = f"reachable_mask {size}"
    cached = chain._cache.get(key)
    if cached is None:
        for old in [k for k in chain._cache if str(k).startswith("reachable_mask ")]:
            del chain._cache[old]
        cached = chain._cache[key] = _annulus_mask(chain, size)
    return cached.copy()


def _annulus_mask(chain: Chain, size: int) -> np.ndarray:
    rmin, rmax = chain.reach()
    c = pixel_axis(rmax, size, 0, size)
    dx = (c + chain.base[0]) - chain.base[0]  # the targets' offsets from the base, as placed
    dy = (c + chain.base[1]) - chain.base[1]
    d = np.hypot(dx[None, :], dy[:, None])
    return (d >= rmin) & (d <= rmax)


def _tiles(
    chain: Chain,
    method: str,
    metric: str,
    size: int,
    tile_rows: int,
    solve: dict[str, Any],
    axes: Axes | None = None,
    volume: bool = False,
) -> list[Tile]:
    half = chain.reach()[1]
    opts = dict(solve)
    tol, max_iter = opts.pop("tol", None), opts.pop("max_iter", None)
    rows = size * size if volume else size
    return [
        Tile(chain, method, metric, size, half, r, tol, max_iter, opts, axes, volume)
        for r in split_rows(rows, tile_rows)
    ]


def _results(part: list[TileResult]) -> tuple[np.ndarray, np.ndarray]:
    """The status and values of the tiles, stitched."""
    return _stitch([r.status for r in part]), _stitch([r.values for r in part])


def _stitch(arrays: list[np.ndarray]) -> np.ndarray:
    """The arrays one after the other: the array they are consecutive views of, when they are
    (the tiles that one call of the batch engine solved), else a new one."""
    whole = arrays[0].base
    if isinstance(whole, np.ndarray) and all(
        a.base is whole and a.flags.c_contiguous for a in arrays
    ):
        at = end = whole.__array_interface__["data"][0]
        for a in arrays:
            if a.__array_interface__["data"][0] != end:
                break
            end += a.nbytes
        else:
            if end - at == whole.nbytes and whole.flags.c_contiguous:
                return whole.reshape((-1, *arrays[0].shape[1:]))
    return np.concatenate(arrays)


def _coverage(reached: np.ndarray, reachable: np.ndarray) -> float:
    n_reachable = int(reachable.sum())
    return float((reached & reachable).sum() / n_reachable) if n_reachable else 0.0


def _assemble(
    chain: Chain, method: str, tiles: list[Tile], part: list[TileResult], plane: str = "xy"
) -> MetricMap:
    status, values = _results(part)
    reached = status == REACHED
    t = tiles[0]
    workspace = None
    if t.axes is None:
        reachable = reachable_mask(chain, t.size)
    else:
        centres = plane_centres(chain.base, t.half, t.size, 0, t.size, t.axes)
        mask, workspace = reachable_points(chain, centres)
        reachable = mask.reshape(t.size, t.size)
    return MetricMap(
        values=values,
        reached=reached,
        reachable=reachable,
        status=status,
        coverage=_coverage(reached, reachable),
        chain=chain,
        method=method,
        metric=t.metric,
        half=t.half,
        tol=part[0].tol,
        max_iter=part[0].max_iter,
        options=dict(t.options),
        plane=plane,
        axes=t.axes,
        workspace=workspace,
    )


@contextlib.contextmanager
def _client(client: Any) -> Iterator[Any]:
    """A scheduler address (or ``"local"``) opened for the call; a Client or None as given."""
    if isinstance(client, str):
        with cluster(client) as opened:
            yield opened
    else:
        yield client


def check_jobs(
    jobs: list[tuple[Chain, str]],
    metric: str,
    size: int,
    tile_rows: int = DEFAULT_TILE_ROWS,
    plane: Any = None,
    **solver_options: Any,
) -> None:
    """Raise the GeoIKError :func:`metric_maps` would raise for these arguments, at once and
    without solving anything (before a cluster is started, for instance)."""
    for chain, _ in jobs:
        _check(chain, metric, size, tile_rows, plane)
    # before anything is compiled: a map that cannot fit is refused at once
    check_map_memory(jobs, int(size) ** 2, f"{size}x{size} pixels")
    costs = metric in NEEDS_COSTS  # compiled only for the metrics that read them
    # every map's request checked (raising here) before anything compiles; then the kernels
    # and engines of all of them compiled on two cores at once
    kernels = [k for c, m in jobs for k in kernels_for(c, m, costs=costs, **solver_options)]
    compile_ahead(kernels)
    for chain, method in jobs:
        # validates the rest, raises here; with no target, loads what the tiles will run
        evaluate(chain, np.empty((0, chain.dim)), method, costs=costs, **solver_options)


MAP_BYTES = 11
"""Bytes per pixel (voxel) a finished map keeps: values (8), status, reached, reachable (1
each)."""
SOLVE_BYTES = 57
"""Bytes per target while a map is solved, beyond its coordinates: the batch engine's results
(:data:`geoik.batch.engine.RESULT_BYTES`) and the metric's values."""


def check_map_memory(jobs: list[tuple[Chain, str]], points: int, grid: str) -> None:
    """Refuse maps whose results would not fit in memory (:func:`geoik.checks.check_memory`):
    every finished map of ``points`` pixels or voxels, and the one being solved, its targets'
    and reachable points' coordinates and the engine's results."""
    dim = max(chain.dim for chain, _ in jobs)
    need = points * (len(jobs) * MAP_BYTES + SOLVE_BYTES + 16 * dim)
    maps = "map" if len(jobs) == 1 else "maps"
    check_memory(need, f"{len(jobs)} {maps} of {grid}", "size")


def metric_maps(
    jobs: list[tuple[Chain, str]],
    metric: str,
    size: int = 300,
    client: Any = None,
    progress: Callable[[int, int], None] | None = None,
    tile_rows: int = DEFAULT_TILE_ROWS,
    plane: Any = None,
    **solver_options: Any,
) -> list[MetricMap]:
    """Several maps (one per (chain, method) job) computed as one pool of tiles.

    Parameters are those of :func:`metric_map`; ``progress(done, total)`` counts the tiles of
    all the maps. Every job is validated before any tile runs.
    """
    check_jobs(jobs, metric, size, tile_rows, plane, **solver_options)
    planes = [_check(chain, metric, size, tile_rows, plane) for chain, _ in jobs]
    per_job = [
        _tiles(chain, method, metric, int(size), int(tile_rows), solver_options, axes)
        for (chain, method), (_, axes) in zip(jobs, planes, strict=True)
    ]
    with _client(client) as c:
        results = run_tiles([t for ts in per_job for t in ts], client=c, progress=progress)
    maps, k = [], 0
    for (chain, method), ts, (name, _) in zip(jobs, per_job, planes, strict=True):
        maps.append(_assemble(chain, method, ts, results[k : k + len(ts)], name))
        k += len(ts)
    return maps


def metric_map(
    chain: Chain,
    method: str,
    metric: str = "iterations",
    size: int = 300,
    client: Any = None,
    progress: Callable[[int, int], None] | None = None,
    tile_rows: int = DEFAULT_TILE_ROWS,
    plane: Any = None,
    **solver_options: Any,
) -> MetricMap:
    """The performance metric map of a chain and solver (seed 004, Section 4).

    Parameters
    ----------
    chain : a :class:`geoik.Chain`: planar (mapped in its plane) or 3-D (mapped over
        ``plane``).
    method : a registered solver name.
    metric : ``iterations``, ``path`` (end-effector path length), ``rotation-sum`` (degrees),
        ``rotations`` (rotations over 5 degrees) or ``error``.
    size : N, pixels per side.
    client : where the tiles run: None (here, on every core), a ``dask.distributed.Client``,
        a scheduler address ``"tcp://HOST:PORT"`` or ``"local"`` (a LocalCluster started and
        shut down for the call). The map is bit-identical whichever.
    progress : called as ``progress(done, total)`` after each tile.
    tile_rows : pixel rows per tile.
    plane : the plane through the base a 3-D chain is mapped over: ``"xy"`` (the default),
        ``"xz"``, ``"yz"`` or a normal vector (see :func:`plane_axes`).
    **solver_options : ``tol``, ``max_iter`` and the solver's own options, as for
        :func:`geoik.solve`.

    Returns
    -------
    MetricMap

    Raises
    ------
    geoik.GeoIKError
        A bad chain, method, metric, size, plane or option (before any target is solved), or
        :class:`geoik.maps.tiles.ClusterError` when the cluster fails.

    Examples
    --------
    >>> import geoik as ik
    >>> from geoik.maps import metric_map
    >>> m = metric_map(ik.Chain.planar([1.0] * 5), "ccd", "iterations", size=100,
    ...                tol=0.01, max_iter=20)
    >>> round(m.coverage, 2)
    0.71
    """
    return metric_maps(
        [(chain, method)], metric, size, client, progress, tile_rows, plane, **solver_options
    )[0]
