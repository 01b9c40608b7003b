"""``geoik methods``: list the registered solvers, their sources and options."""

from __future__ import annotations

import argparse
import json
from typing import Any

from geoik.errors import GeoIKError
from geoik.solvers import REGISTRY, Solver, get
from geoik.solvers.auto import AUTO, ROBOT_SUMMARY, SUMMARY

HELP = "list the solvers, their sources and options"
DESCRIPTION = """\
List every registered solver, one line each: its name (as --method takes it), what it does and
the paper it follows, and 'auto' (the default of 'geoik solve'), which picks among them; then
the solvers' options with their defaults (pass them to 'geoik solve' as --opt KEY=VALUE). With a
solver's name, show that solver in full: the chains it solves, its iteration budget and its
options; 'geoik methods analytic' also lists which example arms it decomposes, and into which
family (loading them needs geoik[robots]). 'geoik methods auto' says what auto does for chains
and for robots."""
EXAMPLES = """\
examples:
  geoik methods
  geoik methods two-bone
  geoik methods analytic
  geoik methods auto
  geoik methods --json"""


def register(subparsers: Any) -> None:
    """Add the parser of ``geoik methods`` to ``subparsers`` (see :mod:`geoik.commands`)."""
    p = subparsers.add_parser(
        "methods",
        help=HELP,
        description=DESCRIPTION,
        epilog=EXAMPLES,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    p.add_argument("name", nargs="?", metavar="NAME", help="one solver to show in full")
    p.add_argument("--json", action="store_true", help="print one JSON object instead of text")
    p.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:
    """Run ``geoik methods`` with the parsed ``args``; the exit status."""
    if args.name == AUTO and not args.json:
        print(
            f"{AUTO}  {SUMMARY}\n    {ROBOT_SUMMARY}\n"
            "    options: none for chains (it sets those of the solvers it runs); for robots "
            "dls's, used when dls runs"
        )
        return 0
    try:
        solvers = list(REGISTRY.values()) if args.name is None else [get(args.name)]
    except GeoIKError as e:
        raise e.about("NAME") from None
    arms = arm_families() if args.name is not None and solvers[0].kernel_all else None
    if args.json:
        records = {s.name: solver_record(s) for s in solvers}
        if arms is not None:
            records[solvers[0].name]["example_arms"] = [
                {"arm": a, "joints": n, "family": f, "auto": m} for a, n, f, m in arms
            ]
        print(json.dumps(records))
    elif args.name is not None:
        print(solver_text(solvers[0]))
        if solvers[0].kernel_all:
            print(arms_text(arms))
    else:
        print(listing(solvers))
    return 0


def listing(solvers: list[Solver]) -> str:
    """One line per solver (name, summary, source), then the options of those that take some."""
    width = max(len(s.name) for s in solvers) + 2
    lines = ["solvers (geoik solve --method NAME; 'geoik methods NAME' shows one in full):"]
    lines += [f"  {s.name:<{width}}{s.summary}  [{s.source}]" for s in solvers]
    if len(solvers) == len(REGISTRY):
        lines.append(f"  {AUTO:<{width}}{SUMMARY} (the default)")
        lines.append(f"  {'':<{width}}{ROBOT_SUMMARY}")
    general = [s.name for s in solvers if s.takes_robots]
    lines += [
        "",
        "robots (general joint models: geoik.Robot, geoik solve --urdf): "
        + (", ".join(general) if general else "none of these")
        + "; the others take chains only",
    ]
    with_options = [s for s in solvers if s.options]
    if with_options:
        lines += ["", "options (geoik solve --opt KEY=VALUE; defaults shown):"]
        for s in with_options:
            for k, o in enumerate(s.options):
                name = s.name if k == 0 else ""
                lines.append(f"  {name:<{width}}{_option(o.name, o.default):<22}{o.help}")
    return "\n".join(lines)


def arm_families() -> list[tuple[str, int, str, str]] | None:
    """The example arms (:data:`geoik.robots.urdf.ARMS`) as the analytic solver sees them: name,
    joint count, :attr:`geoik.Robot.family`, and the solver ``method="auto"`` runs for a target
    with an orientation; None when the robots extra (the example URDFs) is missing."""
    from geoik.robots.urdf import ARMS, load_example
    from geoik.solvers.auto import robot_plan

    try:
        robots = [(name, load_example(name)) for name in ARMS]
    except (ImportError, GeoIKError):
        return None
    return [(name, r.n, r.family, robot_plan(r, True)[0]) for name, r in robots]


def arms_text(arms: list[tuple[str, int, str, str]] | None) -> str:
    """What ``geoik methods analytic`` prints of the example arms."""
    if arms is None:
        return "    example arms: need geoik[robots] (pip install 'geoik[robots]')"
    width = max(len(a) for a, *_ in arms) + 2
    lines = ["    example arms (geoik.robots.urdf.load_example NAME; auto with an orientation):"]
    lines += [f"      {a:<{width}}{m:<10}{f}" for a, _, f, m in arms]
    return "\n".join(lines)


def families_markdown(arms: list[tuple[str, int, str, str]]) -> str:
    """The table of the example arms in ``docs/robots.md`` (the same as ``geoik methods
    analytic``)."""
    lines = [
        '| arm | joints | `method="auto"` with an orientation | family (`robot.family`) |',
        "|---|---|---|---|",
    ]
    lines += [f"| `{a}` | {n} | `{m}` | {f} |" for a, n, f, m in arms]
    return "\n".join(lines)


def _option(name: str, default: float | tuple[float, ...]) -> str:
    values = default if isinstance(default, tuple) else (default,)
    return f"{name}={','.join(f'{v:g}' for v in values)}"


def _links(solver: Solver) -> str:
    lo, hi = solver.links
    if hi is None:
        return f"{lo} or more links"
    return f"exactly {lo} links" if lo == hi else f"{lo}-{hi} links"


def solver_record(solver: Solver) -> dict[str, Any]:
    """What ``geoik methods --json`` prints of one solver."""
    return {
        "summary": solver.summary,
        "source": solver.source,
        "dims": list(solver.dims),
        "links": list(solver.links),
        "iterative": solver.iterative,
        "default_max_iter": solver.default_max_iter,
        "robots": solver.takes_robots,
        "default_max_iter_robots": (
            solver.budget_general if solver.kernel_general is not None else None
        ),
        "options": {
            o.name: {"default": o.default, "size": o.size, "help": o.help} for o in solver.options
        },
    }


def solver_text(solver: Solver) -> str:
    """What ``geoik methods NAME`` prints of one solver."""
    dims = ", ".join(f"{d}-D" for d in solver.dims)
    budget = f"max_iter {solver.default_max_iter}" if solver.iterative else "one pass"
    chains = f"{dims}; {_links(solver)}; {budget}" if solver.dims else "none (robots only)"
    if solver.kernel_all is not None:
        robots = (
            "6 revolute joints in a family with a closed form (three parallel axes, as UR "
            "and Unitree Z1; a spherical wrist, as Kinova j2s6s200 and the Talos arm; the "
            "searched family where axes 5 and 6 meet), 7 whose joint 1 or 7 held leaves "
            "one (Franka Panda, xArm7), or 4 and 5 with axes 2, 3, 4 parallel (SO-100: the "
            "nearest orientation where the pose is out of reach); robot.family says which: "
            "every solution of a pose (geoik.solve_all, geoik solve --all [--redundancy "
            "VALUE]), the nearest by geoik.solve (auto's choice for these arms with an "
            "orientation); position and orientation targets"
        )
    elif solver.kernel_general is not None:
        robots = (
            "yes (geoik.Robot, geoik solve --urdf), position and orientation targets; "
            f"max_iter {solver.budget_general}"
        )
    else:
        robots = f"no (needs {solver.general_note})"
    lines = [
        f"{solver.name}  {solver.summary}",
        f"    source:  {solver.source}",
        f"    chains:  {chains}",
        f"    robots:  {robots}",
    ]
    if not solver.options:
        lines.append("    options: none")
    for o in solver.options:
        lines.append(f"    --opt {_option(o.name, o.default)}  {o.help}")
    return "\n".join(lines)
