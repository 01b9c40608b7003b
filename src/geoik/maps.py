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

A map is computed as tiles of pixel rows (:mod:`geoik.tiles`), here or on a Dask cluster, with
bit-identical results either way.
"""

from __future__ import annotations

import contextlib
import os
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from geoik.batch import evaluate
from geoik.chain import Chain
from geoik.errors import InvalidChainError, InvalidOptionError, UnsupportedChainError, describe
from geoik.geometry import REACHED
from geoik.tiles import (
    DEFAULT_TILE_ROWS,
    METRICS,
    Tile,
    TileResult,
    cluster,
    pixel_axis,
    run_tiles,
    split_rows,
)

__all__ = ["METRICS", "MetricMap", "check_jobs", "metric_map", "metric_maps", "reachable_mask"]

MAX_SIZE = 20000


@dataclass(frozen=True, eq=False)
class MetricMap:
    """A performance metric map.

    Attributes
    ----------
    values : (N, N) float64, the metric per pixel (row 0 at y = -L); computed for every pixel,
        meaningful where ``reached`` (the error metric is meaningful everywhere).
    reached : (N, N) bool, the solve ended REACHED.
    reachable : (N, N) bool, the pixel centre lies in the annulus ``rmin <= |p - base| <= rmax``
        of :meth:`geoik.Chain.reach`. With a limited first joint part of the annulus cannot be
        reached at all, and counts as failure.
    status : (N, N) int8, the :class:`geoik.Status` value of every solve.
    coverage : |reached and reachable| / |reachable|.
    chain, method, metric : what was mapped.
    half : L, half the side of the square, the chain's maximum reach.
    tol, max_iter : the tolerance and iteration budget used.
    options : the solver options given.
    """

    values: np.ndarray
    reached: np.ndarray
    reachable: np.ndarray
    status: np.ndarray
    coverage: float
    chain: Chain
    method: str
    metric: str
    half: float
    tol: float
    max_iter: int
    options: dict[str, Any] = field(default_factory=dict)

    @property
    def size(self) -> int:
        """N, pixels per side."""
        return int(self.values.shape[0])

    @property
    def extent(self) -> tuple[float, float, float, float]:
        """(xmin, xmax, ymin, ymax) of the square, for plotting."""
        bx, by = self.chain.base
        return (bx - self.half, bx + self.half, by - self.half, by + self.half)

    def stats(self) -> tuple[float, float]:
        """(mean, max) of the metric over the reached pixels; NaN when none is reached."""
        v = self.values[self.reached]
        if v.size == 0:
            return float("nan"), float("nan")
        return float(v.mean()), float(v.max())

    def params(self) -> str:
        """The parameters as a title states them, e.g. ``I = 20, eps = 0.01``."""
        extra = "".join(f", {k} = {_fmt(v)}" for k, v in self.options.items())
        return f"I = {self.max_iter}, eps = {self.tol:g}{extra}"

    def save_npz(self, path: str | os.PathLike[str]) -> None:
        """Write the arrays and what was mapped to a NumPy ``.npz`` file, atomically (an
        interrupted write leaves nothing under ``path``)."""
        from geoik.files import save_atomic

        def write(tmp: str) -> None:
            with open(tmp, "wb") as f:
                np.savez_compressed(
                    f,
                    values=self.values,
                    reached=self.reached,
                    reachable=self.reachable,
                    status=self.status,
                    extent=np.array(self.extent),
                    lengths=self.chain.lengths,
                    lo=self.chain.lo,
                    hi=self.chain.hi,
                    method=self.method,
                    metric=self.metric,
                    tol=self.tol,
                    max_iter=self.max_iter,
                    coverage=self.coverage,
                )

        save_atomic(path, write)


def _fmt(value: Any) -> str:
    if isinstance(value, tuple | list | np.ndarray):
        return "(" + ", ".join(f"{float(v):g}" for v in value) + ")"
    return f"{value:g}" if isinstance(value, int | float | np.number) else str(value)


def _check(chain: Any, metric: Any, size: Any, tile_rows: Any) -> None:
    if not isinstance(chain, Chain):
        raise InvalidChainError(f"chain: expected a geoik.Chain, got {describe(chain)}")
    if chain.dim != 2:
        raise UnsupportedChainError(
            f"chain: metric maps are drawn for planar chains, got a {chain.dim}-D chain"
        )
    if metric not in METRICS:
        known = ", ".join(METRICS)
        raise InvalidOptionError(f"metric: expected one of {known}, got {describe(metric)}")
    for name, value, top in (("size", size, MAX_SIZE), ("tile_rows", tile_rows, None)):
        ok = isinstance(value, int | np.integer) and not isinstance(value, bool)
        if not ok or value < 1 or (top is not None and value > top):
            span = f"1-{top}" if top is not None else ">= 1"
            raise InvalidOptionError(
                f"{name}: expected an integer number of pixels in {span}, got {describe(value)}"
            )


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
    chain: Chain, method: str, metric: str, size: int, tile_rows: int, solve: dict[str, Any]
) -> list[Tile]:
    half = chain.reach()[1]
    opts = dict(solve)
    tol, max_iter = opts.pop("tol", None), opts.pop("max_iter", None)
    return [
        Tile(chain, method, metric, size, half, r, tol, max_iter, opts)
        for r in split_rows(size, tile_rows)
    ]


def _assemble(chain: Chain, method: str, tiles: list[Tile], part: list[TileResult]) -> MetricMap:
    status = np.concatenate([r.status for r in part])
    reached = status == REACHED
    reachable = reachable_mask(chain, tiles[0].size)
    n_reachable = int(reachable.sum())
    coverage = float((reached & reachable).sum() / n_reachable) if n_reachable else 0.0
    t = tiles[0]
    return MetricMap(
        values=np.concatenate([r.values for r in part]),
        reached=reached,
        reachable=reachable,
        status=status,
        coverage=coverage,
        chain=chain,
        method=method,
        metric=t.metric,
        half=t.half,
        tol=part[0].tol,
        max_iter=part[0].max_iter,
        options=dict(t.options),
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
    **solver_options: Any,
) -> None:
    """Raise the GeoIKError :func:`metric_maps` would raise for these arguments, at once and
    without solving anything (before a cluster is started, for instance)."""
    for chain, method in jobs:
        _check(chain, metric, size, tile_rows)
        evaluate(chain, np.empty((0, 2)), method, **solver_options)  # validates, raises here


def metric_maps(
    jobs: list[tuple[Chain, str]],
    metric: str,
    size: int = 300,
    client: Any = None,
    progress: Callable[[int, int], None] | None = None,
    tile_rows: int = DEFAULT_TILE_ROWS,
    **solver_options: Any,
) -> list[MetricMap]:
    """Several maps (one per (chain, method) job) computed as one pool of tiles.

    Parameters are those of :func:`metric_map`; ``progress(done, total)`` counts the tiles of
    all the maps. Every job is validated before any tile runs.
    """
    check_jobs(jobs, metric, size, tile_rows, **solver_options)
    per_job = [
        _tiles(chain, method, metric, int(size), int(tile_rows), solver_options)
        for chain, method in jobs
    ]
    with _client(client) as c:
        results = run_tiles([t for ts in per_job for t in ts], client=c, progress=progress)
    maps, k = [], 0
    for (chain, method), ts in zip(jobs, per_job, strict=True):
        maps.append(_assemble(chain, method, ts, results[k : k + len(ts)]))
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
    **solver_options: Any,
) -> MetricMap:
    """The performance metric map of a planar chain and solver (seed 004, Section 4).

    Parameters
    ----------
    chain : a planar :class:`geoik.Chain`.
    method : a registered solver name.
    metric : ``iterations``, ``path`` (end-effector path length), ``rotation-sum`` (degrees),
        ``rotations`` (rotations over 5 degrees) or ``error``.
    size : N, pixels per side.
    client : where the tiles run: None (here, on every core), a ``dask.distributed.Client``,
        a scheduler address ``"tcp://HOST:PORT"`` or ``"local"`` (a LocalCluster started and
        shut down for the call). The map is bit-identical whichever.
    progress : called as ``progress(done, total)`` after each tile.
    tile_rows : pixel rows per tile.
    **solver_options : ``tol``, ``max_iter`` and the solver's own options, as for
        :func:`geoik.solve`.

    Returns
    -------
    MetricMap

    Raises
    ------
    geoik.GeoIKError
        A bad chain, method, metric, size or option (before any target is solved), or
        :class:`geoik.tiles.ClusterError` when the cluster fails.

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
        [(chain, method)], metric, size, client, progress, tile_rows, **solver_options
    )[0]
