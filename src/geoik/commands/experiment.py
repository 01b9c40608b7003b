"""``geoik experiment``: reproduce a seed's study, published figures beside geoik's."""

from __future__ import annotations

import argparse
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from geoik.commands._progress import ProgressBar

HELP = "reproduce a seed's experiment (tables and figures beside the published ones)"
DESCRIPTION = """\
Reproduce one of the seeds' experiments, or all of them. Each writes Markdown and CSV tables and
PNG figures into --out and prints its main table. Every published figure has a row 'published'
beside geoik's; where the paper leaves a choice open, each reading is run and labelled."""
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
        + "\n".join(f"  {k:22s}{m.TITLE}" for k, m in EXPERIMENTS.items()),
        epilog=EXAMPLES,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    p.add_argument("name", metavar="NAME", help="an experiment name, or 'all'")
    p.add_argument("--seed", type=int, default=0, help="random seed (default 0)")
    p.add_argument(
        "--out",
        type=Path,
        default=Path("experiments"),
        help="output directory (default ./experiments)",
    )
    p.add_argument(
        "--quick", action="store_true", help="fewer targets and smaller maps, for a fast check"
    )
    p.set_defaults(handler=run)


def _progress(label: str) -> Callable[[str, int, int], None]:
    bar = ProgressBar(label)
    return lambda stage, done, total: bar.update(done, total, stage)


def run(args: argparse.Namespace) -> int:
    from geoik.experiments import EXPERIMENTS, get

    names = list(EXPERIMENTS) if args.name == "all" else [get(args.name).NAME]
    for name in names:
        mod = EXPERIMENTS[name]
        t0 = time.perf_counter()
        res = mod.run(args.out, seed=args.seed, quick=args.quick, progress=_progress(name))
        print(f"## {res.title}\n")
        for note in res.notes:
            print(note)
        print()
        print(res.tables[0].markdown())
        print(f"wrote {len(res.files)} files to {args.out} in {time.perf_counter() - t0:.1f} s\n")
    return 0
