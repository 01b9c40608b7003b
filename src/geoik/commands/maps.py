"""``geoik map``, ``geoik compare`` and ``geoik sweep``: seed 004's performance metric maps.

Output names are checked before any target is solved (a long map must not fail at the end on a
typo), and every file is written under a temporary name and renamed, so an interrupted run
(Ctrl-C, a failed cluster) leaves nothing half-written under the requested name.
"""

from __future__ import annotations

import argparse
import os
from typing import Any

from geoik.chain import Chain
from geoik.commands._args import (
    FIGURE_FORMATS,
    TypedStore,
    add_budget_arguments,
    add_chain_arguments,
    as_typed,
    chain_from_args,
    check_distinct,
    check_output,
    parse_int,
    parse_max_bend,
    typed_flag,
    writing,
)
from geoik.commands._maps_run import (
    DEFAULT_TILE_ROWS,
    _compute,
    _row,
    _save_maps,
    _table,
    _Typed,
    _write_csv,
)
from geoik.commands._maps_run import PROGRESS_MIN_TARGETS as PROGRESS_MIN_TARGETS
from geoik.commands._maps_run import Timing as Timing
from geoik.errors import GeoIKError, InvalidOptionError
from geoik.maps.palette import METRICS

MAX_VOLUME = 1024
"""Most voxels per side of --volume: :data:`geoik.maps.volume.MAX_VOLUME` (a test keeps them equal;
importing geoik.maps.metric here would load the batch engine for every command)."""
VOLUME_TILE_TARGETS = 1 << 16
"""Voxels per tile of a volume map: :data:`geoik.maps.volume.VOLUME_TILE_TARGETS` (kept equal by a
test)."""

MAP_EXAMPLES = """\
examples:
  geoik map --lengths 1x5 --method ccd --metric iterations --max-iter 20 --tol 0.01 \\
      --size 1000 -o ccd.png
  geoik map --lengths 1x2 --max-iter 10 --tol 0.01 --metric path --contours -o path.png
  geoik map --lengths 1x5 --max-iter 20 --tol 0.01 --data ccd.npz      # the arrays, no figure
  geoik map --lengths 1x5 --max-iter 20 --tol 0.01 --scheduler local -o ccd.png
  geoik map --lengths 1x5 --max-iter 20 --tol 0.01 --scheduler tcp://10.0.0.5:8786 -o ccd.png
  geoik map --lengths 3x4 --max-bend-deg 60 --plane xz -o xz.png      # a 3-D chain, plane xz
  geoik map --chain arm.toml --plane 1,1,0 -o tilted.png                # normal vector 1,1,0
  geoik map --lengths 3x4 --max-bend-deg 60 --volume 128 -o vol.png   # vol.png, vol-coverage.png

colours: black = reachable but not reached, blue (least) to red (most; for iterations the last
allowed one), grey = out of reach. Coverage = reached / reachable pixels (voxels). --plane or
--volume makes the chain 3-D (so does a 3-D chain file); how its reachable points are decided
(exactly, or within a stated distance) is printed."""
COMPARE_EXAMPLES = """\
examples:
  geoik compare --lengths 1x5 --methods ccd,fabrik,caa --max-iter 20 --tol 0.01 -o cmp.png
  geoik compare --lengths 1x5 --methods ccd,fabrik --csv cmp.csv -o cmp.png
  geoik compare --lengths 3x4 --max-bend-deg 60 --plane xz --methods ccd,fabrik,dls -o cmp.png
  geoik compare --lengths 3x4 --max-bend-deg 60 --volume 48 --methods ccd,fabrik --csv v.csv

with --volume the figure shows each solver's middle layer across z."""
SWEEP_EXAMPLES = """\
examples:
  geoik sweep --lengths-rule equal --joints 2-10 --methods ccd --max-iter 5 --tol 0.01 \\
      --size 200 -o sweep.png --csv sweep.csv
  geoik sweep --lengths-rule doubling --joints 2-10 --max-iter 5 --tol 0.01 -o doubling.png
  geoik sweep --joints 2,3,5,8 --methods ccd,caa --max-iter 20 --tol 0.01 -o ccd-caa.png
  geoik sweep --joints 2-6 --max-bend-deg 60 --plane xz --methods ccd,fabrik -o cones.png
  geoik sweep --joints 2-6 --max-bend-deg 60 --volume 32 --methods ccd -o cones-volume.png

length rules: equal = n unit links; doubling = each link, from the end effector back, as long
as all the links after it (n = 6: 16,8,4,2,1,1; seed 004 Fig. 10)."""


def _common(p: argparse.ArgumentParser, size: int = 300) -> None:
    p.add_argument(
        "--metric",
        default="iterations",
        choices=list(METRICS),
        help="what each pixel shows (default iterations)",
    )
    p.add_argument(
        "--size", metavar="N", default=str(size), help=f"pixels per side (default {size})"
    )
    p.add_argument(
        "--plane",
        metavar="P",
        help="map a 3-D chain over a plane through its base: xy, xz, yz or a normal vector "
        "A,B,C (default xy for a 3-D chain file); makes the chain 3-D",
    )
    p.add_argument(
        "--volume",
        metavar="N",
        help="map a 3-D chain over the cube [-L, L]^3 in N x N x N voxels instead of a plane; "
        "makes the chain 3-D",
    )
    add_budget_arguments(p, "1e-4 x L", "per solver")
    p.add_argument(
        "--opt",
        action="append",
        metavar="KEY=VALUE",
        help="solver option, repeatable ('geoik methods' lists them)",
    )
    p.add_argument(
        "--scheduler",
        metavar="ADDR",
        help="run the tiles on a Dask cluster: tcp://HOST:PORT of a running scheduler, or "
        "'local' to start a LocalCluster of one worker per core (needs pip install "
        "'geoik[dask]'); default: in this process. Results are identical either way",
    )
    p.add_argument(
        "--tile-rows",
        metavar="R",
        help="pixel rows per tile, the unit of work and of progress (default "
        f"{DEFAULT_TILE_ROWS}; a volume: rows of N voxels, about {VOLUME_TILE_TARGETS:,} voxels "
        "a tile)",
    )


MAP_DESCRIPTION = """\
Solve every pixel centre of the square [-L, L]^2 around the base (L = the chain's reach) as a
target, from the rest pose, and colour the pixel by the metric. Prints the coverage, the mean and
max of the metric over reached pixels, the wall time and targets/s. A 3-D chain is mapped over a
plane through its base (--plane) or over the cube [-L, L]^3 (--volume N: a figure of its layers
and, beside it as NAME-coverage.EXT, one of its coverage)."""
COMPARE_DESCRIPTION = """\
One metric map per solver, side by side in one figure, and a table of coverage, mean and max of
the metric over reached pixels."""
SWEEP_DESCRIPTION = """\
Coverage of the reachable annulus against the number of joints (seed 004 Figs. 9-10), from one
metric map per chain and solver: a table, a plot and a CSV. --max-bend-deg limits every joint;
--plane or --volume sweeps 3-D chains (ball joints within the bend's cone)."""
_FMT = argparse.RawDescriptionHelpFormatter


def register(subparsers: Any) -> None:
    """Add the parsers of ``geoik map``, ``geoik compare`` and ``geoik sweep`` to
    ``subparsers`` (see :mod:`geoik.commands`)."""
    _register_map(subparsers)
    _register_compare(subparsers)
    _register_sweep(subparsers)


def _register_map(subparsers: Any) -> None:
    p = subparsers.add_parser(
        "map",
        help="draw a performance metric map (seed 004)",
        epilog=MAP_EXAMPLES,
        description=MAP_DESCRIPTION,
        formatter_class=_FMT,
    )
    add_chain_arguments(p)
    p.add_argument("--method", default="ccd", help="solver name (default ccd)")
    _common(p)
    p.add_argument("--contours", action="store_true", help="draw contour lines")
    _output(p, "write the figure (PNG, SVG, PDF)")
    p.add_argument(
        "--data",
        metavar="FILE.npz",
        help="write the arrays (values, reached, reachable, status, extent) as NumPy .npz",
    )
    p.set_defaults(handler=run_map)


def _register_compare(subparsers: Any) -> None:
    p = subparsers.add_parser(
        "compare",
        help="metric maps of several solvers side by side",
        epilog=COMPARE_EXAMPLES,
        description=COMPARE_DESCRIPTION,
        formatter_class=_FMT,
    )
    add_chain_arguments(p)
    p.add_argument("--methods", required=True, help="comma-separated solver names")
    _common(p)
    p.add_argument("--contours", action="store_true", help="draw contour lines")
    _output(p, "write the figure (PNG, SVG, PDF)")
    p.add_argument("--csv", metavar="FILE", help="write the table as CSV")
    p.set_defaults(handler=run_compare)


def _register_sweep(subparsers: Any) -> None:
    p = subparsers.add_parser(
        "sweep",
        help="workspace coverage against the number of joints (seed 004 Figs. 9-10)",
        epilog=SWEEP_EXAMPLES,
        description=SWEEP_DESCRIPTION,
        formatter_class=_FMT,
    )
    p.add_argument(
        "--lengths-rule",
        choices=("equal", "doubling"),
        default="equal",
        help="link lengths of each chain (default equal)",
    )
    p.add_argument(
        "--joints", default="2-10", help="joint counts: a range 2-10, a list 2,3,5 or both"
    )
    p.add_argument(
        "--max-bend-deg",
        metavar="B",
        help="every joint's limit in degrees: one bend (60) or a signed range (-30:120); "
        "default: free joints",
    )
    p.add_argument("--methods", help="comma-separated solver names (default ccd)")
    # the old spelling, kept for existing scripts; not shown in the help
    p.add_argument("--method", dest="method_alias", help=argparse.SUPPRESS)
    _common(p, size=200)
    _output(p, "write the plot (PNG, SVG, PDF)")
    p.add_argument("--csv", metavar="FILE", help="write the table as CSV")
    p.set_defaults(handler=run_sweep)


# --------------------------------------------------------------------------- helpers


def sweep_lengths(rule: str, n: int) -> list[float]:
    """Link lengths of an n-joint chain: equal unit links, or doubling from the tip."""
    if rule == "equal" or n == 1:
        return [1.0] * n
    return [float(2 ** (n - 2 - i)) for i in range(n - 1)] + [1.0]


def parse_joints(text: str, name: str = "--joints") -> list[int]:
    """Joint counts from ``2-10``, ``2,3,5`` or ``2-4,8``: sorted, each once, within 1-64."""
    out: set[int] = set()
    for part in text.split(","):
        lo, sep, hi = part.strip().partition("-")
        try:
            a, b = int(lo), int(hi if sep else lo)
        except ValueError:
            a = b = 0
        if a < 1 or b < a or b > 64:
            raise InvalidOptionError(
                f"expected joint counts within 1-64 as a range (2-10) or a list (2,3,5), got "
                f"{text!r}",
                argument=name,
            )
        out.update(range(a, b + 1))
    return sorted(out)


def parse_methods(text: str, name: str) -> list[str]:
    """Solver names from a comma list (``ccd,fabrik``); InvalidOptionError naming ``name``
    when there is none."""
    methods = [s.strip() for s in text.split(",") if s.strip()]
    if not methods:
        raise InvalidOptionError(f"expected solver names, got {text!r}", argument=name)
    return methods


def _output(p: argparse.ArgumentParser, what: str) -> None:
    """``-o/--output FILE``; errors name the spelling the user typed."""
    p.add_argument("-o", "--output", metavar="FILE", action=TypedStore, help=what)


def _methods(args: argparse.Namespace) -> tuple[list[str], str]:
    """The solvers of ``compare`` or ``sweep`` and the flag they came with: ``--methods``, or
    ``sweep``'s old spelling ``--method``."""
    alias = getattr(args, "method_alias", None)
    if alias is None:
        return parse_methods(args.methods or "ccd", "--methods"), "--methods"
    if args.methods is not None:
        raise InvalidOptionError(
            "expected --methods alone (--method is its old spelling), got both", argument="--method"
        )
    return parse_methods(alias, "--method"), "--method"


def _outputs(args: argparse.Namespace, data: str | None = None) -> str:
    """Check every output before any work: each writable, none the chain file or another
    output; returns the flag ``-o`` or ``--output`` as typed."""
    flag = typed_flag(args, "output", "--output")
    check_output(args.output, flag, FIGURE_FORMATS)
    outputs = [(flag, args.output)]
    if args.output is not None and args.command == "map" and args.volume is not None:
        twin = coverage_path(args.output)  # the volume's second figure
        check_output(twin, flag, FIGURE_FORMATS)
        outputs.append((flag, twin))
    if data is not None:
        check_output(getattr(args, data), f"--{data}", ("npz",) if data == "data" else None)
        outputs.append((f"--{data}", getattr(args, data)))
    check_distinct(outputs, [("--chain", getattr(args, "chain", None))])
    return flag


def _space(args: argparse.Namespace) -> tuple[int, Any, int | None]:
    """(the chain's dimension as the options ask: 3 with --plane or --volume, else 2; the
    plane as typed; the volume's size or None), the flags checked."""
    plane, volume = args.plane, args.volume
    if plane is not None and volume is not None:
        raise InvalidOptionError(
            "a volume map (--volume) covers the whole cube; expected one of the two",
            argument="--plane",
        )
    if volume is not None:
        return 3, None, parse_int(volume, "--volume", 1, MAX_VOLUME)
    if plane is None:
        return 2, None, None
    text = plane.strip().lower()
    if text in ("xy", "xz", "yz"):
        return 3, text, None
    parts = [p.strip() for p in plane.split(",")]
    try:
        normal = [float(p) for p in parts]
    except ValueError:
        normal = []
    if len(normal) != 3:
        raise InvalidOptionError(
            f"expected xy, xz, yz or a normal vector A,B,C, got {plane!r}", argument="--plane"
        )
    return 3, tuple(normal), None


# --------------------------------------------------------------------------- commands


def _reachable_line(m: Any) -> str | None:
    """How a 3-D map's reachable points were decided, for the printout."""
    ws = getattr(m, "workspace", None)
    return None if ws is None else f"reachable points: {ws.describe()}"


def run_map(args: argparse.Namespace) -> int:
    """Run ``geoik map`` with the parsed ``args``; the exit status."""
    from geoik.maps.figures import chain_label

    flag = _outputs(args, "data")
    with _Typed(args):
        dim, plane, volume = _space(args)
    chain = chain_from_args(args, dim)
    (m,), timing = _compute(args, [(chain, args.method)], _Typed(args), plane, volume)
    mean, top = m.stats()
    hit = int((m.reached & m.reachable).sum())
    if volume is None:
        where = "" if m.axes is None else f", plane {m.plane}"
        print(f"{m.method}: {chain_label(chain)}; {m.params()}; {m.size}x{m.size} pixels{where}")
    else:
        print(f"{m.method}: {chain_label(chain)}; {m.params()}; {volume}x{volume}x{volume} voxels")
    unit = "pixels" if volume is None else "voxels"
    print(
        f"coverage: {100 * m.coverage:.2f}% of the reachable workspace "
        f"({hit:,} of {int(m.reachable.sum()):,} {unit})"
    )
    line = _reachable_line(m)
    if line:
        print(line)
    print(f"{m.metric} over reached {unit}: mean {mean:.4g}, max {top:.4g}")
    print(timing.line())
    if args.data:
        writing("--data", args.data, lambda: m.save_npz(args.data))
        print(f"wrote {args.data}")
    if volume is None:
        _save_maps([m], args.output, flag, args.contours)
    else:
        _save_volume(m, args.output, flag)
    return 0


def coverage_path(path: str) -> str:
    """Where a volume map's coverage figure goes beside its figure of slices: ``vol.png`` ->
    ``vol-coverage.png``."""
    stem, ext = os.path.splitext(path)
    return f"{stem}-coverage{ext}"


def _save_volume(v: Any, path: str | None, flag: str) -> None:
    from geoik.maps.figures import figure_dpi, volume_figures
    from geoik.render import save_figures

    if path is None:
        return
    slices, coverage = volume_figures(v)
    second = coverage_path(path)
    dpi = figure_dpi(3 * v.size)
    writing(flag, path, lambda: save_figures([(slices, path, dpi), (coverage, second, 100)]))
    print(f"wrote {path}, {second}")


def run_compare(args: argparse.Namespace) -> int:
    """Run ``geoik compare`` with the parsed ``args``; the exit status."""
    from geoik.maps.figures import chain_label

    flag = _outputs(args, "csv")
    with _Typed(args):
        dim, plane, volume = _space(args)
    chain = chain_from_args(args, dim)
    methods, methods_flag = _methods(args)
    jobs = [(chain, m) for m in methods]
    maps, timing = _compute(args, jobs, _Typed(args, methods_flag), plane, volume)
    if volume is None:
        where = "" if maps[0].axes is None else f"; plane {maps[0].plane}"
        print(f"{chain_label(chain)}; metric {args.metric}; {args.size}x{args.size} pixels{where}")
    else:
        print(f"{chain_label(chain)}; metric {args.metric}; {volume}x{volume}x{volume} voxels")
    line = _reachable_line(maps[0])
    if line:
        print(line)
    header = ["method", "coverage_pct", f"mean_{args.metric}", f"max_{args.metric}", "params"]
    rows = [[*_row(m), m.params()] for m in maps]
    print(_table(header, rows))
    print(timing.line())
    if args.csv:
        _write_csv(args.csv, header, rows)
    shown = maps if volume is None else [v.slice("z", volume // 2) for v in maps]
    _save_maps(shown, args.output, flag, args.contours)
    return 0


def run_sweep(args: argparse.Namespace) -> int:
    """Run ``geoik sweep`` with the parsed ``args``; the exit status."""
    flag = _outputs(args, "csv")
    joints = parse_joints(args.joints)
    methods, methods_flag = _methods(args)
    with _Typed(args):
        dim, plane, volume = _space(args)
    chains = [_sweep_chain(args, n, dim) for n in joints]
    jobs = [(c, method) for method in methods for c in chains]
    maps, timing = _compute(args, jobs, _Typed(args, methods_flag), plane, volume)
    size = args.size if volume is None else volume
    grid = f"{size}x{size} pixels" if volume is None else f"{size}x{size}x{size} voxels"
    where = "" if dim == 2 or volume is not None else f", plane {maps[0].plane}"
    limits = "" if args.max_bend_deg is None else f", max bend {args.max_bend_deg} deg"
    kind = "" if dim == 2 else "3-D chains, "
    print(f"{kind}{args.lengths_rule} links{limits}; metric {args.metric}; {grid}{where}")
    header = [
        "joints",
        "method",
        "coverage_pct",
        f"mean_{args.metric}",
        f"max_{args.metric}",
        "lengths",
        "params",
    ]
    rows = [
        [str(m.chain.n), *_row(m), ",".join(f"{v:g}" for v in m.chain.lengths), m.params()]
        for m in maps
    ]
    print(_table(header[:5], [r[:5] for r in rows]))
    print(timing.line())
    if args.csv:
        _write_csv(args.csv, header, rows)
    if args.output:
        from geoik.maps.figures import sweep_figure
        from geoik.render import save_figure

        k = len(joints)
        series = {
            meth: [m.coverage for m in maps[i * k : (i + 1) * k]] for i, meth in enumerate(methods)
        }
        px = f"{size} px" if volume is None else f"{size}^3 voxels"
        title = f"Coverage, {kind}{args.lengths_rule} links{limits} ({maps[0].params()}, {px})"
        fig = sweep_figure(joints, series, title)
        writing(flag, args.output, lambda: save_figure(fig, args.output))
        print(f"wrote {args.output}")
    return 0


def _sweep_chain(args: argparse.Namespace, n: int, dim: int) -> Chain:
    """The sweep's chain of ``n`` joints: its lengths by the rule, the limits of
    --max-bend-deg for every joint, planar or 3-D."""
    lengths = sweep_lengths(args.lengths_rule, n)
    bend: Any = None
    if args.max_bend_deg is not None:
        bend = parse_max_bend(args.max_bend_deg)
        if isinstance(bend, list):
            raise InvalidOptionError(
                f"expected one limit for every joint of every chain (60 or -30:120), got "
                f"{args.max_bend_deg!r}",
                argument="--max-bend-deg",
            )
        bend = [bend] * n
    try:
        if dim == 2:
            return Chain.planar(lengths, bend)
        return Chain.spatial(lengths, bend)
    except GeoIKError as e:
        raise as_typed(e) from None
