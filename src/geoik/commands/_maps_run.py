"""Running the maps of ``geoik map``, ``geoik compare`` and ``geoik sweep``: every map checked
before any runs, one pool of tiles here or on a Dask cluster, the progress bar and the timing,
and the tables, CSV files and figures they are written as."""

from __future__ import annotations

import argparse
import csv
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from geoik.chain import Chain
from geoik.commands._args import (
    FLAGS,
    as_typed,
    int_or_text,
    parse_max_iter,
    parse_options,
    parse_tol,
    typed_names,
    writing,
)
from geoik.commands._progress import ProgressBar
from geoik.errors import GeoIKError

if TYPE_CHECKING:  # the handlers import these (matplotlib, the batch engine, Dask's glue)
    from geoik.maps.metric import MetricMap


PROGRESS_MIN_TARGETS = 250_000
"""Maps with at least this many targets show a progress bar on stderr."""
DEFAULT_TILE_ROWS = 50
"""Pixel rows per tile unless --tile-rows says otherwise: :data:`geoik.maps.tiles.DEFAULT_TILE_ROWS`
(a test keeps them equal; importing geoik.maps.tiles here would load the batch engine for every
command)."""


class _Typed:
    """Library errors re-spelled as the user typed the arguments (:func:`as_typed`)."""

    def __init__(self, args: argparse.Namespace, method_flag: str = "--method") -> None:
        self.options = parse_options(args.opt)
        self.names = typed_names(args, {**FLAGS, "method": method_flag})

    def __enter__(self) -> _Typed:
        return self

    def __exit__(self, kind: Any, error: Any, tb: Any) -> None:
        if isinstance(error, GeoIKError):
            raise as_typed(error, self.options, self.names) from None


def _solve_kw(args: argparse.Namespace) -> dict[str, Any]:
    kw = parse_options(args.opt)
    tol, max_iter = parse_tol(args.tol), parse_max_iter(args.max_iter)
    if tol is not None:
        kw["tol"] = tol
    if max_iter is not None:
        kw["max_iter"] = max_iter
    return kw


def _progress(label: str, total_targets: int) -> ProgressBar | None:
    if total_targets < PROGRESS_MIN_TARGETS:
        return None
    return ProgressBar(f"geoik {label}", unit="tiles")


def _check_maps(
    args: argparse.Namespace,
    jobs: list[tuple[Chain, str]],
    typed: _Typed,
    plane: Any,
    volume: int | None,
    kw: dict[str, Any],
) -> Any:
    """Check every map of ``jobs`` before any is run (compiling the kernels a map needs, if
    not cached); ``args.size`` and ``args.tile_rows`` become ints.

    Parameters
    ----------
    args : argparse.Namespace
        The parsed map command's arguments (``size``, ``tile_rows``, ``metric``).
    jobs : list of (Chain, str)
        Each map's chain and method.
    typed : _Typed
        The flags as typed, which errors are said about.
    plane : Any
        The plane of planar maps through a 3-D chain, or None.
    volume : int or None
        N, for maps of N x N x N voxels; None for planar maps.
    kw : dict
        The solve's keyword arguments (:func:`_solve_kw`).

    Returns
    -------
    int or None
        The rows of voxels per tile of a volume map (``--tile-rows`` or the checks' choice);
        ``--tile-rows`` as typed for planar maps.
    """
    from geoik.maps.metric import check_jobs
    from geoik.maps.volume import check_volume

    if volume is not None:  # the library's size of a volume map is --volume's N
        typed.names["size"] = "--volume"
    typed_rows = None if args.tile_rows is None else int_or_text(args.tile_rows)
    args.size = int_or_text(args.size)
    args.tile_rows = DEFAULT_TILE_ROWS if typed_rows is None else typed_rows
    rows: Any = typed_rows
    with typed:
        if volume is None:
            check_jobs(jobs, args.metric, args.size, args.tile_rows, plane, **kw)
        else:
            for chain, method in jobs:
                rows = check_volume(chain, method, args.metric, volume, rows, **kw)
    return rows


def _run_maps(
    args: argparse.Namespace,
    jobs: list[tuple[Chain, str]],
    plane: Any,
    volume: int | None,
    rows: Any,
    client: Any,
    progress: Callable[[int, int], None] | None,
    kw: dict[str, Any],
) -> list[Any]:
    """The checked maps of ``jobs``, on ``client`` (or here when None), as :func:`_compute`
    describes: MetricMaps of ``args.size`` squared pixels, or VolumeMaps of ``volume`` cubed
    voxels (``rows`` of voxels per tile), ``progress`` told of the targets done."""
    from geoik.maps.metric import metric_maps
    from geoik.maps.volume import volume_map

    if volume is None:
        return metric_maps(
            jobs,
            args.metric,
            args.size,
            client=client,
            progress=progress,
            tile_rows=args.tile_rows,
            plane=plane,
            **kw,
        )
    return [
        volume_map(
            chain,
            method,
            args.metric,
            volume,
            client=client,
            progress=_nth(progress, i, len(jobs)),
            tile_rows=rows,
            **kw,
        )
        for i, (chain, method) in enumerate(jobs)
    ]


def _compute(
    args: argparse.Namespace,
    jobs: list[tuple[Chain, str]],
    typed: _Typed,
    plane: Any = None,
    volume: int | None = None,
) -> tuple[list[Any], Timing]:
    """The maps of ``jobs`` (one pool of tiles, here or on the cluster; volume maps with
    ``volume``) and their timing; ``args.size`` and ``args.tile_rows`` become ints (checked by
    :func:`geoik.maps.metric.check_jobs`, as everything else, before a cluster starts)."""
    from geoik import jit
    from geoik.maps.tiles import check_scheduler, cluster

    if args.scheduler is not None:  # a malformed address, or no dask, said before any compiling
        with typed:
            check_scheduler(args.scheduler)
    before = jit.compile_stats()
    t_check = time.perf_counter()  # the checks compile the kernels a map needs, if not cached
    kw = _solve_kw(args)
    rows = _check_maps(args, jobs, typed, plane, volume, kw)
    checked = time.perf_counter() - t_check
    targets = len(jobs) * (args.size**2 if volume is None else volume**3)
    bar = _progress(args.command, targets)
    progress: Callable[[int, int], None] | None = bar
    try:
        with typed, cluster(args.scheduler) as client:
            t0 = time.perf_counter()
            maps = _run_maps(args, jobs, plane, volume, rows, client, progress, kw)
            wall = checked + time.perf_counter() - t0
            return maps, Timing(wall, jit.compile_stats().seconds - before.seconds, targets)
    finally:
        if bar is not None:
            bar.close()


@dataclass(frozen=True)
class Timing:
    """A map command's wall time (seconds; the cluster's start-up left out), the part of it
    spent compiling kernels (a first run's), and the targets solved."""

    wall: float
    compiling: float
    targets: int

    def line(self) -> str:
        """``time: 0.512 s, 1,953,125 targets/s``; on a first run also the compiling, with the
        rate of the solving alone."""
        if self.compiling < 0.0005:
            return f"time: {self.wall:.3f} s, {self.targets / max(self.wall, 1e-9):,.0f} targets/s"
        solving = max(self.wall - self.compiling, 1e-9)
        return (
            f"time: {self.wall:.3f} s, of which {self.compiling:.3f} s compiling kernels (first "
            f"run only) and {solving:.3f} s solving, {self.targets / solving:,.0f} targets/s"
        )


def _nth(
    progress: Callable[[int, int], None] | None, i: int, count: int
) -> Callable[[int, int], None] | None:
    """Progress of the i-th of ``count`` maps of equal size, as a share of them all."""
    if progress is None:
        return None
    report = progress

    def step(done: int, total: int) -> None:
        report(i * total + done, count * total)

    return step


def _row(m: Any) -> list[str]:
    mean, top = m.stats()
    return [m.method, f"{100 * m.coverage:.2f}", f"{mean:.4g}", f"{top:.4g}"]


def _table(header: Sequence[str], rows: Sequence[Sequence[str]]) -> str:
    widths = [max(len(h), *(len(r[i]) for r in rows)) for i, h in enumerate(header)]
    lines = ["  ".join(c.ljust(w) for c, w in zip(r, widths, strict=True)) for r in [header, *rows]]
    return "\n".join(line.rstrip() for line in lines)


def _write_csv(path: str, header: Sequence[str], rows: Sequence[Sequence[Any]]) -> None:
    from geoik.files import save_atomic

    def write(tmp: str) -> None:
        with open(tmp, "w", newline="") as f:
            w = csv.writer(f)
            w.writerow(header)
            w.writerows(rows)

    writing("--csv", path, lambda: save_atomic(path, write))
    print(f"wrote {path}")


def _save_maps(maps: Sequence[MetricMap], path: str | None, flag: str, contours: bool) -> None:
    from geoik.maps.figures import figure_dpi, maps_figure
    from geoik.render import save_figure

    if path is not None:
        fig = maps_figure(maps, contours=contours)
        writing(flag, path, lambda: save_figure(fig, path, dpi=figure_dpi(maps[0].size)))
        print(f"wrote {path}")
