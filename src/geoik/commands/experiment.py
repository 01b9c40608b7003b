"""``geoik experiment``: reproduce a seed's study, published figures beside geoik's."""

from __future__ import annotations

import argparse
import contextlib
import os
import time
from collections.abc import Iterable
from functools import partial
from pathlib import Path
from typing import Any

from geoik.commands._args import parse_int, writing
from geoik.commands._progress import ProgressBar, compiling_part
from geoik.errors import GeoIKError, InvalidOptionError

HELP = "reproduce a seed's experiment (tables and figures beside the published ones)"
DESCRIPTION = """\
Reproduce one of the seeds' experiments, or all of them. Each writes into --out a Markdown
report NAME.md, one CSV file per table (NAME_TABLE.csv) and PNG figures (NAME_figN.png), and
prints its main table. Every published figure has its published value beside geoik's and a note
on each difference (by how much, and why where the cause is known); where the paper leaves a
choice open, each reading is run and labelled. Nothing is tuned to match.

Files are written only when an experiment has finished, each complete: an interrupted run
leaves the previous results in place. The full run of 'all' takes about 50 s on two cores (the
10,000 random 3-D targets of triangulation-2007 dominate), --quick 5-6 s; a first run also
compiles geoik's kernels: about 40 s more for the full run, 3-4 s more with --quick (numba
caches them for later runs)."""
TITLES = (
    ("triangulation-2007", "Müller-Cajar & Mukundan 2007: triangulation against CCD (seed 000)"),
    (
        "single-pass-2009",
        "Mukundan 2009: single-pass triangulation against CCD and triangulation (seed 002)",
    ),
    ("metric-maps-2010", "Performance metric maps: CCD workspace coverage and CAA (seed 004)"),
)
"""Each experiment's name and title, as :data:`geoik.experiments.EXPERIMENTS` has them (a test
keeps them equal): the help must not import the experiments, which load the batch engine and
matplotlib."""
QUICK_HELP = (
    "100 targets instead of 10,000 and 60 x 60 maps instead of 300 x 300, each timed once "
    "rather than best of 3: a check of the machinery in 5-6 s, not a reproduction"
)
"""``--quick``'s help, from the experiments' QUICK_TARGETS, TARGETS, QUICK_SIZE, SIZE,
QUICK_REPEATS and REPEATS (a test keeps them equal)."""
EXAMPLES = """\
examples:
  geoik experiment single-pass-2009
  geoik experiment triangulation-2007 --seed 1 --out results/
  geoik experiment all --quick"""


def register(subparsers: Any) -> None:
    """Add the parser of ``geoik experiment`` to ``subparsers`` (see :mod:`geoik.commands`)."""
    p = subparsers.add_parser(
        "experiment",
        help=HELP,
        description=f"{DESCRIPTION}\n\n{listing(TITLES)}",
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
        help=QUICK_HELP,
    )
    p.set_defaults(handler=run)


def quick_help(experiments: dict[str, Any]) -> str:
    """What :data:`QUICK_HELP` says, from the experiments themselves."""
    tri = experiments["triangulation-2007"]
    maps = experiments["metric-maps-2010"]
    return (
        f"{tri.QUICK_TARGETS:,} targets instead of {tri.TARGETS:,} and {maps.QUICK_SIZE} x "
        f"{maps.QUICK_SIZE} maps instead of {maps.SIZE} x {maps.SIZE}, each timed "
        f"{_times(maps.QUICK_REPEATS)} rather than best of {maps.REPEATS}: a check of the "
        "machinery in 5-6 s, not a reproduction"
    )


def _times(n: int) -> str:
    return {1: "once", 2: "twice"}.get(n, f"{n} times")


def listing(titles: Iterable[tuple[str, str]]) -> str:
    """The help's list of experiments, from (name, title) pairs."""
    rows = [f"  {name:22s}{title}" for name, title in titles]
    return "\n".join(["experiments:", *rows, f"  {'all':22s}every one of them, in this order"])


def _check_out(out: Path) -> None:
    """Fail before the work, not after it, when ``out`` cannot take the results."""
    if out.exists() and not out.is_dir():
        raise InvalidOptionError(f"expected a directory, got the file {out}", argument="--out")
    writing("--out", str(out), lambda: out.mkdir(parents=True, exist_ok=True))
    if not os.access(out, os.W_OK | os.X_OK):
        raise InvalidOptionError(f"expected a writable directory, got {out}", argument="--out")


def _run(mod: Any, args: argparse.Namespace, seed: int, bar: ProgressBar) -> Any:
    return mod.run(
        args.out,
        seed=seed,
        quick=args.quick,
        progress=lambda stage, done, total: bar.update(done, total, stage),
    )


def run(args: argparse.Namespace) -> int:
    """Run ``geoik experiment`` with the parsed ``args``; the exit status."""
    from geoik import jit
    from geoik.experiments import EXPERIMENTS, get
    from geoik.render import figure_helper

    seed = parse_int(args.seed, "--seed", lo=0)
    try:
        names = list(EXPERIMENTS) if args.name == "all" else [get(args.name).NAME]
    except GeoIKError as e:
        raise e.about("NAME") from None
    _check_out(args.out)
    start, first = time.perf_counter(), jit.compile_stats().seconds
    # the later experiments' kernels compile on the other core while the first ones run
    later = [k for name in names[1:] for k in getattr(EXPERIMENTS[name], "kernels", list)()]
    # and, for several experiments (ten figures), a helper draws figures on it beside this
    # process (started now: it loads matplotlib meanwhile)
    drawing = figure_helper() if len(names) > 1 else contextlib.nullcontext()
    with jit.compiling_behind(later), drawing:
        _run_all(names, args, seed)
    if len(names) > 1:
        spent, compiling = time.perf_counter() - start, jit.compile_stats().seconds - first
        print(f"{len(names)} experiments in {spent:.1f} s{compiling_part(compiling)}")
    return 0


def _run_all(names: list[str], args: argparse.Namespace, seed: int) -> None:
    """Run the experiments ``names`` in turn, printing each one's main table and time."""
    from geoik import jit
    from geoik.experiments import EXPERIMENTS

    for name in names:
        mod = EXPERIMENTS[name]
        t0, before = time.perf_counter(), jit.compile_stats().seconds
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
        spent, compiling = time.perf_counter() - t0, jit.compile_stats().seconds - before
        print(
            f"wrote {len(res.files)} files to {args.out} in {spent:.1f} s"
            f"{compiling_part(compiling)}\n"
        )
