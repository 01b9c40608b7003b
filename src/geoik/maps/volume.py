"""Volume maps: the metric map of a 3-D chain over the cube [-L, L]^3 about its base.

Every voxel centre of an N x N x N grid is a target solved from the rest pose, as every pixel
centre of a :mod:`metric map <geoik.maps.metric>` is, through the same tiles
(:mod:`geoik.maps.tiles`); the reachable voxels are decided by
:func:`geoik.reach.workspace.reachable_points` (exactly where provable, otherwise with a stated
bound), and the coverage is the share of those that are reached.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from geoik.batch.engine import evaluate, kernels_for
from geoik.chain import Chain
from geoik.errors import InvalidOptionError
from geoik.geometry import REACHED
from geoik.jit import compile_ahead
from geoik.maps.metric import (
    PLANES,
    MetricMap,
    _check,
    _client,
    _coverage,
    _fmt,
    _results,
    _tiles,
    check_map_memory,
)
from geoik.maps.tiles import NEEDS_COSTS, pixel_axis, run_tiles, voxel_centres
from geoik.reach.workspace import Workspace, reachable_points

__all__ = ["MAX_VOLUME", "VOLUME_TILE_TARGETS", "VolumeMap", "check_volume", "volume_map"]

MAX_VOLUME = 1024
"""Most voxels per side of a volume map."""
VOLUME_TILE_TARGETS = 1 << 16
"""Voxels per tile of a volume map unless ``tile_rows`` says otherwise."""


@dataclass(frozen=True, eq=False)
class VolumeMap:
    """A performance metric map of the cube [-L, L]^3 about a 3-D chain's base.

    Attributes
    ----------
    values, reached, reachable, status : (N, N, N) arrays indexed ``[k, j, i]`` (z, y, x): the
        voxel ``(i, j, k)`` is centred at ``base + (x_i, x_j, x_k)``,
        ``x_i = -L + (i + 0.5) 2L/N``; as for :class:`MetricMap`.
    coverage : |reached and reachable| / |reachable|, the reachable voxel centres decided as
        ``workspace`` says.
    chain, method, metric, half, tol, max_iter, options : as for :class:`MetricMap`.
    workspace : how the reachable voxels were decided (:class:`geoik.reach.workspace.Workspace`).
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
    workspace: Workspace
    options: dict[str, Any] = field(default_factory=dict)

    @property
    def size(self) -> int:
        """N, voxels per side."""
        return int(self.values.shape[0])

    def axis(self) -> np.ndarray:
        """(N,) voxel-centre offsets from the base along each axis."""
        return pixel_axis(self.half, self.size, 0, self.size)

    def stats(self) -> tuple[float, float]:
        """(mean, max) of the metric over the reached voxels; NaN when none is reached."""
        v = self.values[self.reached]
        if v.size == 0:
            return float("nan"), float("nan")
        return float(v.mean()), float(v.max())

    def params(self) -> str:
        """The parameters as a title states them, e.g. ``I = 20, eps = 0.01``."""
        extra = "".join(f", {k} = {_fmt(v)}" for k, v in self.options.items())
        return f"I = {self.max_iter}, eps = {self.tol:g}{extra}"

    def slice(self, axis: str, index: int) -> MetricMap:
        """The voxels of one layer as a :class:`MetricMap`: ``axis`` ``"z"`` (the xy layer
        ``k = index``), ``"y"`` (xz) or ``"x"`` (yz), its pixels the voxel centres of that layer;
        its coverage that of the layer."""
        if axis not in ("x", "y", "z") or not 0 <= index < self.size:
            raise InvalidOptionError(
                f"expected an axis x, y or z and an index in 0-{self.size - 1}, got {axis!r}, "
                f"{index!r}",
                argument="slice",
            )

        def take(a: np.ndarray) -> np.ndarray:
            if axis == "z":
                return a[index]
            return a[:, index, :] if axis == "y" else a[:, :, index]

        plane = {"z": "xy", "y": "xz", "x": "yz"}[axis]
        reached, reachable = take(self.reached), take(self.reachable)
        return MetricMap(
            values=take(self.values),
            reached=reached,
            reachable=reachable,
            status=take(self.status),
            coverage=_coverage(reached, reachable),
            chain=self.chain,
            method=self.method,
            metric=self.metric,
            half=self.half,
            tol=self.tol,
            max_iter=self.max_iter,
            options=dict(self.options),
            plane=plane,
            axes=PLANES[plane],
            workspace=self.workspace,
        )

    def save_npz(self, path: str | os.PathLike[str]) -> None:
        """Write the arrays and what was mapped to a NumPy ``.npz`` file, atomically."""
        from geoik.files import save_atomic

        def write(tmp: str) -> None:
            with open(tmp, "wb") as f:
                np.savez_compressed(
                    f,
                    values=self.values,
                    reached=self.reached,
                    reachable=self.reachable,
                    status=self.status,
                    axis=self.axis(),
                    base=self.chain.base,
                    lengths=self.chain.lengths,
                    cone=self.chain.cone,
                    hinge=self.chain.hinge,
                    lo=self.chain.lo,
                    hi=self.chain.hi,
                    method=self.method,
                    metric=self.metric,
                    tol=self.tol,
                    max_iter=self.max_iter,
                    coverage=self.coverage,
                    reachable_method=self.workspace.method,
                    reachable_bound=self.workspace.bound,
                )

        save_atomic(path, write)


def check_volume(
    chain: Any, method: str, metric: str, size: Any, tile_rows: Any = None, **solver_options: Any
) -> int:
    """Raise the GeoIKError :func:`volume_map` would raise, without solving anything; the tile
    rows it would use."""
    rows = _volume_tile_rows(size, tile_rows)
    _check(chain, metric, size, rows, "xy", MAX_VOLUME)
    if chain.dim != 3:
        raise InvalidOptionError(
            f"a volume map is of a 3-D chain, got a {chain.dim}-D chain", argument="volume"
        )
    check_map_memory([(chain, method)], int(size) ** 3, f"{size}x{size}x{size} voxels")
    # validates; with no target, compiles what the tiles run (the costs if the metric reads
    # them), the kernel and the engine on two cores at once
    costs = metric in NEEDS_COSTS
    compile_ahead(kernels_for(chain, method, costs=costs, **solver_options))
    evaluate(chain, np.empty((0, 3)), method, costs=costs, **solver_options)
    return rows


def _volume_tile_rows(size: Any, tile_rows: Any) -> Any:
    if tile_rows is not None:
        return tile_rows
    if isinstance(size, int | np.integer) and not isinstance(size, bool) and size >= 1:
        return max(1, VOLUME_TILE_TARGETS // int(size))
    return 1


def volume_map(
    chain: Chain,
    method: str,
    metric: str = "iterations",
    size: int = 64,
    client: Any = None,
    progress: Callable[[int, int], None] | None = None,
    tile_rows: int | None = None,
    **solver_options: Any,
) -> VolumeMap:
    """The performance metric map of a 3-D chain over the cube [-L, L]^3 about its base.

    Every voxel centre of an N x N x N grid is a target solved from the rest pose (as for
    :func:`metric_map`); the coverage is the share of the reachable voxel centres that are
    reached, reachable as :func:`geoik.reach.workspace.reachable_points` decides (exactly, or
    with the bound it states).

    Parameters
    ----------
    chain : a 3-D :class:`geoik.Chain`.
    method, metric, client, progress, **solver_options : as for :func:`metric_map`.
    size : N, voxels per side (at most :data:`MAX_VOLUME`).
    tile_rows : rows of N voxels per tile; default about :data:`VOLUME_TILE_TARGETS` voxels a
        tile.

    Returns
    -------
    VolumeMap

    Examples
    --------
    >>> import geoik as ik
    >>> from geoik.maps import volume_map
    >>> v = volume_map(ik.Chain.spatial([1.0] * 3), "ccd", size=16, tol=0.01, max_iter=20)
    >>> v.values.shape, v.workspace.method
    ((16, 16, 16), 'shell')
    """
    rows = check_volume(chain, method, metric, size, tile_rows, **solver_options)
    size = int(size)
    tiles = _tiles(chain, method, metric, size, int(rows), solver_options, volume=True)
    with _client(client) as c:
        part = run_tiles(tiles, client=c, progress=progress)
    status, values = _results(part)
    shape = (size, size, size)
    t = tiles[0]
    centres = voxel_centres(chain.base, t.half, size, 0, size * size)
    mask, workspace = reachable_points(chain, centres)
    reached = (status == REACHED).reshape(shape)
    reachable = mask.reshape(shape)
    return VolumeMap(
        values=values.reshape(shape),
        reached=reached,
        reachable=reachable,
        status=status.reshape(shape),
        coverage=_coverage(reached, reachable),
        chain=chain,
        method=method,
        metric=metric,
        half=t.half,
        tol=part[0].tol,
        max_iter=part[0].max_iter,
        workspace=workspace,
        options=dict(t.options),
    )
