"""``geoik experiment``: reproduce a seed's study, published figures beside geoik's."""

from __future__ import annotations

import argparse
import os
import time
from functools import partial
from pathlib import Path
from typing import Any

from geoik.commands._args import parse_int, writing
from geoik.commands._progress import ProgressBar
from geoik.errors import GeoIKError, InvalidOptionError

HELP = "reproduce a seed's experiment (tables and figures beside the published ones)"
DESCRIPTION = """\
Reproduce one of the seeds' experiments, or all of them. Each writes into --out a Markdown
report NAME.md, one CSV file per table (NAME_TABLE.csv) and PNG figures (NAME_figN.png), and
prints its main table. Every published figure has its published value beside geoik's and a note
on each difference (by how much, and why where the cause is known); where the paper leaves a
choice open, each reading is run and labelled. Nothing is tuned to match.

Files are written only when an experiment has finished, each complete: an interrupted run
leaves the previous results in place. The full run of 'all' takes a few minutes (the 10,000
random 3-D targets of triangulation-2007 dominate); --quick takes seconds."""
EXAMPLES = """\
examples:
  geoik experiment single-pass-2009
  geoik experiment triangulation-2007 --seed 1 --out results/
  geoik experiment all --quick"""


def register(subparsers: Any) -> None:
    from geoik.experiments import EXPERIMENTS

    p = subparsers.add_parser(
        "experiment",
        help=HELP,
        description=DESCRIPTION
        + "\n\nexperiments:\n"
        + "\n".join(f"  {k:22s}{m.TITLE}" for k, m in EXPERIMENTS.items())
        + "\n  all                   every one of them, in this order",
        epilog=EXAMPLES,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    p.add_argument("name", metavar="NAME", help="an experiment name, or 'all'")
    p.add_argument(
        "--seed",
        default="0",
        help="seed of the random targets, a non-negative integer (default 0); the experiments "
        "without random targets ignore it",
    )
    p.add_argument(
        "--out",
        type=Path,
        default=Path("experiments"),
        metavar="DIR",
        help="output directory, created if missing (default ./experiments)",
    )
    p.add_argument(
        "--quick",
        action="store_true",
        help=_quick_help(EXPERIMENTS),
    )
    p.set_defaults(handler=run)


def _quick_help(experiments: dict[str, Any]) -> str:
    tri = experiments["triangulation-2007"]
    maps = experiments["metric-maps-2010"]
    return (
        f"{tri.QUICK_TARGETS:,} targets instead of {tri.TARGETS:,} and {maps.QUICK_SIZE} x "
        f"{maps.QUICK_SIZE} maps instead of {maps.SIZE} x {maps.SIZE}: a check of the "
        "machinery in seconds, not a reproduction"
    )


def _check_out(out: Path) -> None:
    """Fail before the work, not after it, when ``out`` cannot take the results."""
    if out.exists() and not out.is_dir():
        raise InvalidOptionError(f"--out: expected a directory, got the file {out}")
    writing("--out", str(out), lambda: out.mkdir(parents=True, exist_ok=True))
    if not os.access(out, os.W_OK | os.X_OK):
        raise InvalidOptionError(f"--out: expected a writable directory, got {out}")


def _run(mod: Any, args: argparse.Namespace, seed: int, bar: ProgressBar) -> Any:
    return mod.run(
        args.out,
        seed=seed,
        quick=args.quick,
        progress=lambda stage, done, total: bar.update(done, total, stage),
    )


def run(args: argparse.Namespace) -> int:
    from geoik.experiments import EXPERIMENTS, get

    seed = parse_int(args.seed, "--seed", lo=0)
    try:
        names = list(EXPERIMENTS) if args.name == "all" else [get(args.name).NAME]
    except GeoIKError as e:
        raise type(e)(f"NAME: {str(e).partition(': ')[2]}") from None
    _check_out(args.out)
    start = time.perf_counter()
    for name in names:
        mod = EXPERIMENTS[name]
        t0 = time.perf_counter()
        bar = ProgressBar(name)
        try:
            res = writing("--out", str(args.out), partial(_run, mod, args, seed, bar))
        finally:
            bar.close()
        print(f"## {res.title}\n")
        for note in res.notes:
            print(note)
        print()
        print(res.tables[0].markdown())
        spent = time.perf_counter() - t0
        print(f"wrote {len(res.files)} files to {args.out} in {spent:.1f} s\n")
    if len(names) > 1:
        print(f"{len(names)} experiments in {time.perf_counter() - start:.1f} s")
    return 0
