"""``geoik map``, ``geoik compare`` and ``geoik sweep``: seed 004's performance metric maps."""

from __future__ import annotations

import argparse
import contextlib
import csv
import time
from collections.abc import Callable, Iterator, Sequence
from typing import Any

from geoik.chain import Chain
from geoik.commands._args import (
    add_chain_arguments,
    chain_from_args,
    parse_options,
)
from geoik.commands._progress import ProgressBar
from geoik.errors import GeoIKError, InvalidChainError, InvalidOptionError
from geoik.maps import METRICS, MetricMap, metric_maps
from geoik.render_maps import maps_figure, save_atomic, save_figure, sweep_figure

PROGRESS_MIN_TARGETS = 250_000
"""Maps with at least this many targets show a progress bar on stderr."""

MAP_EXAMPLES = """\
examples:
  geoik map --lengths 1x5 --method ccd --metric iterations --max-iter 20 --tol 0.01 \\
      --size 1000 -o ccd.png
  geoik map --lengths 1x2 --max-iter 10 --tol 0.01 --metric path --contours -o path.png
  geoik map --lengths 1x5 --max-iter 20 --tol 0.01 --scheduler local -o ccd.png"""
COMPARE_EXAMPLES = """\
examples:
  geoik compare --lengths 1x5 --methods ccd,fabrik,caa --max-iter 20 --tol 0.01 -o cmp.png
  geoik compare --lengths 1x5 --methods ccd,fabrik --csv cmp.csv -o cmp.png"""
SWEEP_EXAMPLES = """\
examples:
  geoik sweep --lengths-rule equal --joints 2-10 --method ccd --max-iter 5 --tol 0.01 \\
      --size 200 -o sweep.png --csv sweep.csv
  geoik sweep --lengths-rule doubling --joints 2-10 --max-iter 5 --tol 0.01 -o doubling.png"""


def _common(p: argparse.ArgumentParser, size: int = 300) -> None:
    p.add_argument(
        "--metric", default="iterations", choices=list(METRICS), help="what each pixel shows"
    )
    p.add_argument("--size", type=int, default=size, help=f"pixels per side (default {size})")
    p.add_argument("--tol", type=float, help="distance that counts as reached (default 1e-4 x L)")
    p.add_argument(
        "--max-iter", type=int, metavar="N", help="iteration budget (default per solver)"
    )
    p.add_argument("--opt", action="append", metavar="KEY=VALUE", help="solver option, repeatable")
    p.add_argument(
        "--scheduler",
        metavar="ADDR",
        help="run the tiles on a Dask cluster: tcp://HOST:PORT, or 'local' for a LocalCluster "
        "of 2 workers (needs geoik[dask]); default: in this process",
    )
    p.add_argument("--tile-rows", type=int, default=50, help="pixel rows per tile (default 50)")


def register(subparsers: Any) -> None:
    fmt = argparse.RawDescriptionHelpFormatter
    p = subparsers.add_parser(
        "map", help="draw a performance metric map (seed 004)", epilog=MAP_EXAMPLES,
        description="Solve every pixel centre of the square [-L, L]^2 around the base as a "
        "target and colour it by the metric: black = failure, blue (least) to red (most), grey "
        "= out of reach. Prints coverage, mean and max over reached pixels, time, targets/s.",
        formatter_class=fmt,
    )  # fmt: skip
    add_chain_arguments(p)
    p.add_argument("--method", default="ccd", help="solver name (default ccd)")
    _common(p)
    p.add_argument("--contours", action="store_true", help="draw contour lines")
    p.add_argument("-o", "--output", metavar="FILE", help="write the figure (PNG, SVG, PDF)")
    p.set_defaults(handler=run_map)

    p = subparsers.add_parser(
        "compare", help="metric maps of several solvers side by side", epilog=COMPARE_EXAMPLES,
        description="One metric map per solver, side by side in one figure, and a table of "
        "coverage, mean and max of the metric.", formatter_class=fmt,
    )  # fmt: skip
    add_chain_arguments(p)
    p.add_argument("--methods", required=True, help="comma-separated solver names")
    _common(p)
    p.add_argument("--contours", action="store_true", help="draw contour lines")
    p.add_argument("-o", "--output", metavar="FILE", help="write the figure")
    p.add_argument("--csv", metavar="FILE", help="write the table as CSV")
    p.set_defaults(handler=run_compare)

    p = subparsers.add_parser(
        "sweep", help="workspace coverage against the number of joints (seed 004 Figs. 9-10)",
        epilog=SWEEP_EXAMPLES, formatter_class=fmt,
        description="Coverage of the reachable annulus for chains of 2..N joints: equal unit "
        "links, or lengths doubling from the tip (n = 6: 16, 8, 4, 2, 1, 1).",
    )  # fmt: skip
    p.add_argument("--lengths-rule", choices=("equal", "doubling"), default="equal")
    p.add_argument("--joints", default="2-10", help="range of joint counts, e.g. 2-10")
    p.add_argument("--method", default="ccd", help="solver name (default ccd)")
    _common(p, size=200)
    p.add_argument("-o", "--output", metavar="FILE", help="write the plot")
    p.add_argument("--csv", metavar="FILE", help="write joints,coverage as CSV")
    p.set_defaults(handler=run_sweep)


# --------------------------------------------------------------------------- helpers


def sweep_lengths(rule: str, n: int) -> list[float]:
    """Link lengths of an n-joint chain: equal unit links, or doubling from the tip."""
    if rule == "equal" or n == 1:
        return [1.0] * n
    return [float(2 ** (n - 2 - i)) for i in range(n - 1)] + [1.0]


def parse_joints(text: str) -> list[int]:
    lo, sep, hi = text.partition("-")
    try:
        a, b = int(lo), int(hi if sep else lo)
    except ValueError:
        a = b = 0
    if a < 1 or b < a or b > 64:
        raise InvalidOptionError(f"--joints: expected a range like 2-10 within 1-64, got {text!r}")
    return list(range(a, b + 1))


def _solve_kw(args: argparse.Namespace) -> dict[str, Any]:
    kw = parse_options(args.opt)
    if args.tol is not None:
        kw["tol"] = args.tol
    if args.max_iter is not None:
        kw["max_iter"] = args.max_iter
    if args.tile_rows < 1:
        raise InvalidOptionError(f"--tile-rows: expected an integer >= 1, got {args.tile_rows}")
    kw["tile_rows"] = args.tile_rows
    return kw


@contextlib.contextmanager
def _client(address: str | None) -> Iterator[Any]:
    if address is None:
        yield None
        return
    from geoik import tiles

    try:
        client = tiles.local_client() if address == "local" else tiles.connect(address)
    except GeoIKError:
        raise
    except (OSError, TimeoutError, ValueError) as e:
        raise InvalidOptionError(f"--scheduler: cannot connect to {address!r}: {e}") from None
    try:
        yield client
    finally:
        cluster = client.cluster if address == "local" else None
        client.close()
        if cluster is not None:
            cluster.close()


def _progress(label: str, total_targets: int) -> Callable[[int, int], None] | None:
    if total_targets < PROGRESS_MIN_TARGETS:
        return None
    return ProgressBar(f"geoik {label}", unit="tiles")


def _compute(
    args: argparse.Namespace, jobs: list[tuple[Chain, str]]
) -> tuple[list[MetricMap], float]:
    kw = _solve_kw(args)
    with _client(args.scheduler) as client:
        t0 = time.perf_counter()
        maps = metric_maps(
            jobs, args.metric, args.size, client=client,
            progress=_progress(args.command, len(jobs) * args.size**2), **kw,
        )  # fmt: skip
        return maps, time.perf_counter() - t0


def _row(m: MetricMap) -> list[str]:
    mean, top = m.stats()
    return [m.method, f"{100 * m.coverage:.2f}", f"{mean:.4g}", f"{top:.4g}"]


def _write_csv(path: str, header: Sequence[str], rows: Sequence[Sequence[Any]]) -> None:
    def write(tmp: str) -> None:
        with open(tmp, "w", newline="") as f:
            w = csv.writer(f)
            w.writerow(header)
            w.writerows(rows)

    save_atomic(path, write)


# --------------------------------------------------------------------------- commands


def run_map(args: argparse.Namespace) -> int:
    chain = chain_from_args(args, 2)
    (m,), wall = _compute(args, [(chain, args.method)])
    mean, top = m.stats()
    targets = m.size**2
    print(f"{chain.describe()}, {m.method}, {m.params()}, {m.size}x{m.size} pixels")
    print(f"coverage: {100 * m.coverage:.2f}% of the reachable workspace")
    print(f"{m.metric} over reached pixels: mean {mean:.4g}, max {top:.4g}")
    print(f"time: {wall:.3f} s, {targets / wall:,.0f} targets/s")
    if args.output:
        save_figure(maps_figure([m], contours=args.contours), args.output)
        print(f"wrote {args.output}")
    return 0


def run_compare(args: argparse.Namespace) -> int:
    chain = chain_from_args(args, 2)
    methods = [s.strip() for s in args.methods.split(",") if s.strip()]
    if not methods:
        raise InvalidOptionError(f"--methods: expected solver names, got {args.methods!r}")
    maps, wall = _compute(args, [(chain, method) for method in methods])
    print(f"{chain.describe()}, {maps[0].params()}, metric {args.metric}, {args.size} px")
    header = ["method", "coverage_pct", f"mean_{args.metric}", f"max_{args.metric}"]
    rows = [_row(m) for m in maps]
    widths = [max(len(h), *(len(r[i]) for r in rows)) for i, h in enumerate(header)]
    for line in [header, *rows]:
        print("  ".join(cell.ljust(w) for cell, w in zip(line, widths, strict=True)))
    print(f"time: {wall:.3f} s, {len(maps) * args.size**2 / wall:,.0f} targets/s")
    if args.csv:
        _write_csv(args.csv, header, rows)
        print(f"wrote {args.csv}")
    if args.output:
        save_figure(maps_figure(maps, contours=args.contours), args.output)
        print(f"wrote {args.output}")
    return 0


def run_sweep(args: argparse.Namespace) -> int:
    joints = parse_joints(args.joints)
    try:
        chains = [Chain.planar(sweep_lengths(args.lengths_rule, n)) for n in joints]
    except InvalidChainError as e:  # pragma: no cover - lengths are generated
        raise InvalidOptionError(str(e)) from None
    maps, wall = _compute(args, [(c, args.method) for c in chains])
    print(f"{args.method}, {maps[0].params()}, {args.lengths_rule} links, {args.size} px")
    print("joints  coverage_pct")
    for n, m in zip(joints, maps, strict=True):
        print(f"{n:>6}  {100 * m.coverage:.2f}")
    print(f"time: {wall:.3f} s")
    if args.csv:
        table = [[n, m.coverage] for n, m in zip(joints, maps, strict=True)]
        _write_csv(args.csv, ["joints", "coverage"], table)
        print(f"wrote {args.csv}")
    if args.output:
        title = f"{args.method} coverage, {args.lengths_rule} links ({maps[0].params()})"
        save_figure(sweep_figure(joints, [m.coverage for m in maps], title), args.output)
        print(f"wrote {args.output}")
    return 0
