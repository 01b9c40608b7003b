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
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from geoik.batch import evaluate
from geoik.chain import Chain
from geoik.errors import InvalidChainError, InvalidOptionError, UnsupportedChainError, describe
from geoik.geometry import REACHED
from geoik.tiles import DEFAULT_TILE_ROWS, METRICS, Tile, pixel_centres, run_tiles, split_rows

__all__ = ["METRICS", "MetricMap", "metric_map", "metric_maps"]

MAX_SIZE = 20000


@dataclass(frozen=True, eq=False)
class MetricMap:
    """A performance metric map.

    Attributes
    ----------
    values : (N, N) the metric per pixel (row 0 at y = -L); meaningful where ``reached``.
    reached : (N, N) bool, the solve ended REACHED.
    reachable : (N, N) bool, the pixel centre lies in the annulus ``rmin <= |p - base| <= rmax``.
    coverage : |reached and reachable| / |reachable|.
    chain, method, metric : what was mapped.
    half : L, half the side of the square, the chain's maximum reach.
    tol, max_iter : the tolerance and iteration budget used.
    options : the solver options given.
    """

    values: np.ndarray
    reached: np.ndarray
    reachable: np.ndarray
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
        extra = "".join(f", {k} = {v:g}" for k, v in self.options.items())
        return f"I = {self.max_iter}, eps = {self.tol:g}{extra}"


def _check(chain: Any, metric: Any, size: Any) -> None:
    if not isinstance(chain, Chain):
        raise InvalidChainError(f"chain: expected a geoik.Chain, got {describe(chain)}")
    if chain.dim != 2:
        raise UnsupportedChainError(
            f"chain: metric maps are drawn for planar chains, got a {chain.dim}-D chain"
        )
    if metric not in METRICS:
        known = ", ".join(METRICS)
        raise InvalidOptionError(f"metric: expected one of {known}, got {describe(metric)}")
    ok = isinstance(size, int | np.integer) and not isinstance(size, bool)
    if not ok or not 1 <= size <= MAX_SIZE:
        raise InvalidOptionError(
            f"size: expected an integer number of pixels in 1-{MAX_SIZE}, got {describe(size)}"
        )


def reachable_mask(chain: Chain, size: int) -> np.ndarray:
    """(N, N) bool: pixel centres within the chain's reach annulus."""
    rmin, rmax = chain.reach()
    pts = pixel_centres(chain.base, rmax, size, 0, size) - chain.base
    d = np.hypot(pts[:, 0], pts[:, 1]).reshape(size, size)
    return (d >= rmin) & (d <= rmax)


def _tiles(chain: Chain, method: str, metric: str, size: int, solve: dict[str, Any]) -> list[Tile]:
    half = chain.reach()[1]
    tol, max_iter = solve.pop("tol", None), solve.pop("max_iter", None)
    rows = solve.pop("tile_rows", DEFAULT_TILE_ROWS)
    return [
        Tile(chain, method, metric, size, half, r, tol, max_iter, dict(solve))
        for r in split_rows(size, rows)
    ]


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

    Parameters are those of :func:`metric_map`; ``progress(done, total)`` counts tiles.
    """
    tiles_per_job = []
    for chain, method in jobs:
        _check(chain, metric, size)
        evaluate(chain, np.empty((0, 2)), method, **solver_options)  # validates, raises here
    for chain, method in jobs:
        opts = dict(solver_options, tile_rows=tile_rows)
        tiles_per_job.append(_tiles(chain, method, metric, int(size), opts))
    flat = [t for ts in tiles_per_job for t in ts]
    results = run_tiles(flat, client=client, progress=progress)
    maps, k = [], 0
    for (chain, method), ts in zip(jobs, tiles_per_job, strict=True):
        part = results[k : k + len(ts)]
        k += len(ts)
        reached = np.concatenate([r.status for r in part]) == REACHED
        values = np.concatenate([r.values for r in part])
        reachable = reachable_mask(chain, int(size))
        n_reachable = int(reachable.sum())
        coverage = float((reached & reachable).sum() / n_reachable) if n_reachable else 0.0
        maps.append(
            MetricMap(
                values,
                reached,
                reachable,
                coverage,
                chain,
                method,
                metric,
                ts[0].half,
                part[0].tol,
                part[0].max_iter,
                dict(ts[0].options),
            )  # fmt: skip
        )
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
    client : None to compute here, or a ``dask.distributed.Client`` to run the tiles on.
    progress : called as ``progress(done, total)`` after each tile.
    tile_rows : pixel rows per tile.
    **solver_options : ``tol``, ``max_iter`` and the solver's own options, as for
        :func:`geoik.solve`.

    Returns
    -------
    MetricMap
    """
    return metric_maps(
        [(chain, method)], metric, size, client, progress, tile_rows, **solver_options
    )[0]
