"""``geoik methods``: list the registered solvers, their sources and their options."""

from __future__ import annotations

import argparse
import json
from typing import Any

from geoik.solvers import REGISTRY, Solver

HELP = "list the solvers, their sources and options"
DESCRIPTION = """\
List every registered solver: its name (as --method takes it), a one-line summary, the paper it
follows, the chains it solves, its default iteration budget and its options with their defaults
(pass them to 'geoik solve' as --opt KEY=VALUE)."""
EXAMPLES = """\
examples:
  geoik methods
  geoik methods --json"""


def register(subparsers: Any) -> None:
    p = subparsers.add_parser(
        "methods",
        help=HELP,
        description=DESCRIPTION,
        epilog=EXAMPLES,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    p.add_argument("--json", action="store_true", help="print one JSON object instead of text")
    p.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:
    if args.json:
        print(json.dumps({name: solver_record(s) for name, s in REGISTRY.items()}))
        return 0
    blocks = [solver_text(s) for s in REGISTRY.values()]
    print("\n\n".join(blocks))
    return 0


def _links(solver: Solver) -> str:
    lo, hi = solver.links
    if hi is None:
        return f"{lo} or more links"
    return f"exactly {lo} links" if lo == hi else f"{lo}-{hi} links"


def solver_record(solver: Solver) -> dict[str, Any]:
    return {
        "summary": solver.summary,
        "source": solver.source,
        "dims": list(solver.dims),
        "links": list(solver.links),
        "iterative": solver.iterative,
        "default_max_iter": solver.default_max_iter,
        "options": {
            o.name: {"default": o.default, "size": o.size, "help": o.help} for o in solver.options
        },
    }


def solver_text(solver: Solver) -> str:
    dims = ", ".join(f"{d}-D" for d in solver.dims)
    budget = f"max_iter {solver.default_max_iter}" if solver.iterative else "one pass"
    lines = [
        f"{solver.name}  {solver.summary}",
        f"    source:  {solver.source}",
        f"    chains:  {dims}; {_links(solver)}; {budget}",
    ]
    if not solver.options:
        lines.append("    options: none")
    for o in solver.options:
        values = o.default if isinstance(o.default, tuple) else (o.default,)
        default = ",".join(f"{v:g}" for v in values)
        lines.append(f"    --opt {o.name}={default}  {o.help}")
    return "\n".join(lines)
