"""``geoik solve``: solve one target and print the status, costs and joint angles."""

from __future__ import annotations

import argparse
import json
import math
from typing import Any

import numpy as np

from geoik.api import solve
from geoik.chain import Chain
from geoik.checks import DEFAULT_METHOD, check_angle_tol, check_rotation
from geoik.commands._all import (
    check_all_flags,
    check_oriented,
    check_redundancy,
    parse_number,
    parse_values,
    print_all,
)
from geoik.commands._args import (
    FIGURE_FORMATS,
    add_chain_arguments,
    add_solver_arguments,
    as_typed,
    chain_from_args,
    check_distinct,
    check_output,
    parse_max_iter,
    parse_options,
    parse_point,
    parse_start_deg,
    parse_tol,
    typed_names,
    writing,
)
from geoik.costs import Costs, costs
from geoik.errors import GeoIKError, InvalidOptionError, InvalidTargetError
from geoik.solution import Solution
from geoik.solvers import REGISTRY, robot_methods

HELP = "solve inverse kinematics for one target"
DESCRIPTION = """\
Solve inverse kinematics for one target and print the status, iterations, error, the costs
(rotations over 5 degrees, rotation sum, end-effector path length, iterations) and the joint
angles in degrees. Two target numbers make a planar chain, three a 3-D chain; 3-D joint angles
are printed as rotation vectors in degrees, in the parent link's frame.

For a robot (--urdf) the default method, auto, answers a target with an orientation by the
analytic solver (every solution of the pose, the nearest to --start kept) on arms it decomposes,
and by dls otherwise; CLOSEST only where a closed form proves the pose out of reach. With --all
it prints every solution within the joint limits instead (a table, or --json), and for an empty
set one line saying why, with exit status 1 (geoik solve without --all exits 0 whatever the
status, which it prints; any error exits 2).

When a value starts with a minus sign, either form works: --target -5,3 or --target=-5,3."""
EXAMPLES = """\
examples:
  geoik solve --lengths 2x10 --target 8.33,2.83
  geoik solve --lengths 2x10 --target 8.33,2.83 --method ccd
  geoik solve --lengths 9,9,9,9,4 --target 20,-15 --max-bend-deg 90 --json
  geoik solve --lengths 2x10 --target 8.33,2.83 --max-bend-deg=-30:120 --plot ccd.png
  geoik solve --lengths 5,4 --target 6,3 --method two-bone --opt elbow=-1
  geoik solve --lengths 3x4 --target 4,5,3 --method fabrik --plot arm3d.png
  geoik solve --chain arm.toml --target 2,3,1 --start-deg 0,0,10,0,0,20
  geoik solve --urdf panda.urdf --tip panda_hand --target 0.4,0.1,0.5 --orientation 0,1,0,0
  geoik solve --urdf ur5.urdf --tip tool0 --target 0.4,0.2,0.5 --orientation 0,1,0,0 --all
  geoik solve --urdf panda.urdf --tip panda_hand_tcp --target 0.5,0.1,0.4 --orientation 0,1,0,0 \\
      --all --redundancy 0.8"""


def _add_robot_arguments(p: argparse.ArgumentParser, models: Any) -> None:
    """Add the flags of a robot's solve (``--urdf`` in the ``models`` group, then ``--tip``,
    ``--base``, ``--orientation``, ``--angle-tol``, ``--all``, ``--redundancy``, ``--start``) to
    the parser ``p`` of ``geoik solve``."""
    models.add_argument(
        "--urdf",
        metavar="FILE",
        help="a robot's URDF file; with --tip, the link to move. The "
        "default method, auto, is then: analytic with --orientation on an arm it decomposes "
        "('geoik methods analytic' lists the example arms), dls otherwise and where analytic "
        "finds no pose within the limits",
    )
    p.add_argument("--tip", metavar="LINK", help="with --urdf: the link to move to the target")
    p.add_argument(
        "--base",
        metavar="LINK",
        help="with --urdf: the link the robot hangs from, whose frame the target is in "
        "(default: the URDF's root link)",
    )
    p.add_argument(
        "--orientation",
        metavar="W,X,Y,Z",
        help="with --urdf: the tip's target orientation, a unit quaternion in the base frame",
    )
    p.add_argument(
        "--angle-tol",
        metavar="RAD",
        help="with --orientation: the angle that counts as reached, radians (default 1e-3)",
    )
    p.add_argument(
        "--all",
        action="store_true",
        help="with --urdf and --orientation (an arm of 4 or 5 joints: the position alone will "
        "do): every solution of the pose within the joint limits (the analytic solver), nearest "
        "--start first; exit status 1 when there is none",
    )
    p.add_argument(
        "--redundancy",
        metavar="VALUE[,VALUE...]",
        help="with --all on a 7-joint arm: the value of the joint held while the six others are "
        "solved (radians; 'geoik methods analytic' says which joint); several values separated "
        "by commas: every solution at each of them",
    )
    p.add_argument(
        "--start",
        metavar="V,V,...",
        help="with --urdf: the joint values to start from (radians; metres for prismatic "
        "joints), base to tip; default the rest configuration",
    )


def register(subparsers: Any) -> None:
    """Add the parser of ``geoik solve`` to ``subparsers`` (see :mod:`geoik.commands`)."""
    p = subparsers.add_parser(
        "solve",
        help=HELP,
        description=DESCRIPTION,
        epilog=EXAMPLES,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    models = add_chain_arguments(p)
    _add_robot_arguments(p, models)
    p.add_argument(
        "--target", required=True, metavar="X,Y[,Z]", help="target point: 2 or 3 numbers"
    )
    add_solver_arguments(p, default_method=DEFAULT_METHOD)
    p.add_argument(
        "--start-deg",
        metavar="A",
        help="start pose in degrees: one relative angle per joint (2-D) or one rotation vector, "
        "3 numbers, per joint (3-D); default: the rest pose, straight along +x",
    )
    p.add_argument("--json", action="store_true", help="print one JSON object instead of text")
    p.add_argument(
        "--plot",
        metavar="FILE",
        help="draw start pose, final pose and end-effector path (PNG, SVG, PDF, ...: the "
        "extension says which)",
    )
    p.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:
    """Run ``geoik solve`` with the parsed ``args``; the exit status."""
    if args.urdf is not None:
        return run_robot(args)
    for flag, value in (
        ("--tip", args.tip),
        ("--base", args.base),
        ("--orientation", args.orientation),
        ("--angle-tol", args.angle_tol),
        ("--all", args.all or None),
        ("--redundancy", args.redundancy),
        ("--start", args.start),
    ):
        if value is not None:
            raise InvalidOptionError("needs a robot (--urdf FILE)", argument=flag)
    check_output(args.plot, "--plot", FIGURE_FORMATS)  # before the solve, not after it
    check_distinct([("--plot", args.plot)], [("--chain", args.chain)])
    target = parse_point(args.target)
    chain = chain_from_args(args, len(target))
    options = parse_options(args.opt)
    tol = parse_tol(args.tol)
    max_iter = parse_max_iter(args.max_iter)
    start = None if args.start_deg is None else parse_start_deg(args.start_deg, chain)
    try:
        sol = solve(
            chain, target, method=args.method, tol=tol, max_iter=max_iter, start=start, **options
        )
    except GeoIKError as e:
        raise as_typed(e, options, typed_names(args)) from None
    c = costs(sol)
    if args.plot is not None:
        from geoik.render import plot_solution

        writing("--plot", args.plot, lambda: plot_solution(sol, args.plot))
    if args.json:
        record = solution_record(sol, c)
        if args.plot is not None:
            record["plot"] = str(args.plot)
        print(json.dumps(record, allow_nan=False))
    else:
        print(solution_text(sol, c))
        if args.plot is not None:
            print(f"plot written to {args.plot}")
    return 0


def angles_deg(sol: Solution) -> list[Any]:
    """Joint angles in degrees: (n,) relative angles in 2-D, (n, 3) rotation vectors in 3-D."""
    return np.degrees(np.asarray(sol.angles)).tolist()


def chain_record(chain: Chain) -> dict[str, Any]:
    """The chain as the fields of a ``--chain`` file (JSON-ready)."""
    bend = [list(b) if isinstance(b, tuple) else b for b in chain.max_bend_deg()]
    record: dict[str, Any] = {
        "dim": chain.dim,
        "lengths": chain.lengths.tolist(),
        "max_bend_deg": bend,
        "base": chain.base.tolist(),
    }
    if chain.dim == 3:
        record["hinge_axes"] = [h.tolist() if h.any() else None for h in chain.hinge]
    return record


def solution_record(sol: Solution, c: Costs) -> dict[str, Any]:
    """Everything ``geoik solve --json`` prints, as one JSON-ready dict."""
    return {
        "method": sol.method,
        "requested": sol.requested,
        "status": sol.status.name,
        "iterations": sol.iterations,
        "error": sol.error,
        "tol": sol.tol,
        "costs": {
            "rotations_over_5deg": c.rotations_over_5deg,
            "rotation_sum_deg": c.rotation_sum_deg,
            "path_length": c.path_length,
            "iterations": c.iterations,
        },
        "angles_deg": angles_deg(sol),
        "angles_kind": "relative" if sol.chain.dim == 2 else "rotation vectors",
        "positions": np.asarray(sol.positions).tolist(),
        "target": np.asarray(sol.target).tolist(),
        "chain": chain_record(sol.chain),
    }


def solution_text(sol: Solution, c: Costs) -> str:
    """The human-readable report of ``geoik solve``."""
    end = ", ".join(f"{v:.6g}" for v in sol.end_effector)
    chosen = f" (chosen by {sol.requested})" if sol.requested != sol.method else ""
    lines = [
        f"chain:       {sol.chain.describe()}",
        f"method:      {sol.method}{chosen}",
        f"target:      {', '.join(f'{v:.6g}' for v in sol.target)}",
        f"status:      {sol.status.name}",
        f"iterations:  {sol.iterations}",
        f"error:       {sol.error:.6g}  (tol {sol.tol:.6g})",
        f"end:         {end}",
        "costs:",
        f"  rotations over 5 deg:  {c.rotations_over_5deg}",
        f"  rotation sum:          {c.rotation_sum_deg:.6g} deg",
        f"  path length:           {c.path_length:.6g}",
        f"  iterations:            {c.iterations}",
    ]
    if sol.chain.dim == 2:
        lines.append("joint angles (degrees; each relative to its parent link, joint 0 to +x):")
        lines += [f"  {j:3d}  {a:10.4f}" for j, a in enumerate(angles_deg(sol))]
    else:
        lines.append(
            "joint rotations (rotation vectors in degrees, in the parent link's frame; "
            "the length is the angle):"
        )
        for j, rv in enumerate(angles_deg(sol)):
            mag = math.sqrt(sum(v * v for v in rv))
            xyz = "  ".join(f"{v:10.4f}" for v in rv)
            lines.append(f"  {j:3d}  {xyz}   ({mag:.4f} deg)")
    return "\n".join(lines)


ROBOT_FLAGS = {
    "orientation": "--orientation",
    "angle_tol": "--angle-tol",
    "path": "--urdf",
    "chain": "--urdf",
    "base": "--base",
    "redundancy": "--redundancy",
}


def parse_quaternion(text: str, name: str = "--orientation") -> list[float]:
    """A unit quaternion from ``"W,X,Y,Z"`` (:func:`geoik.checks.check_rotation` judges its
    length)."""
    parts = text.split(",")
    try:
        values = [float(v) for v in parts]
    except ValueError:
        values = []
    if len(values) != 4 or not all(map(math.isfinite, values)):
        raise InvalidTargetError(
            f"expected a unit quaternion W,X,Y,Z (4 finite numbers), got {text!r}", argument=name
        )
    check_rotation(values, name)
    return values


def parse_angle_tol(text: str, name: str = "--angle-tol") -> float:
    """An angle tolerance in radians (:func:`geoik.checks.check_angle_tol`)."""
    try:
        value: Any = float(text)
    except ValueError:
        value = text
    return check_angle_tol(value, name)


def _check_robot_flags(args: argparse.Namespace) -> None:
    """Refuse the flags of chains and a ``--method`` that solves no robot, with ``--urdf``.

    Parameters
    ----------
    args : argparse.Namespace
        The parsed ``geoik solve`` arguments.

    Raises
    ------
    InvalidOptionError
        About ``--max-bend-deg``, ``--start-deg``, ``--plot`` or ``--method``.
    """
    for flag, value in (("--max-bend-deg", args.max_bend_deg), ("--start-deg", args.start_deg)):
        if value is not None:
            raise InvalidOptionError(
                "takes a chain (--lengths or --chain), not --urdf", argument=flag
            )
    if args.plot is not None:
        raise InvalidOptionError("draws chains only, not --urdf robots", argument="--plot")
    method = args.method
    if method != DEFAULT_METHOD and method not in robot_methods():
        why = ", which solves chains (--lengths, --chain) only" if method in REGISTRY else ""
        raise InvalidOptionError(
            f"expected auto or one of {', '.join(robot_methods())} for a robot (--urdf), got "
            f"{method!r}{why}",
            argument="--method",
        )


def _robot_error(e: GeoIKError, args: argparse.Namespace, options: dict[str, Any]) -> GeoIKError:
    """The error ``e`` of a robot's load or solve, said about the flag the user gave.

    Parameters
    ----------
    e : GeoIKError
        The error, about an argument of :func:`geoik.load_urdf` or :func:`geoik.solve`.
    args : argparse.Namespace
        The parsed ``geoik solve`` arguments (``tip``).
    options : dict
        The solver options of ``--opt``, by name.

    Returns
    -------
    GeoIKError
        The same error about ``--orientation``, ``--start[j]``, ``--tip``, ... or ``--opt``.
    """
    if e.argument in ROBOT_FLAGS:
        return e.about(ROBOT_FLAGS[e.argument])
    if e.argument is not None and e.argument.split("[")[0] == "start":
        return e.about("--start" + e.argument[len("start") :])
    if e.argument == "tip" and args.tip is not None:
        return e.about("--tip")
    return as_typed(e, options)


def robot_record(sol: Any, c: Costs) -> dict[str, Any]:
    """Everything ``geoik solve --urdf ... --json`` prints, as one JSON-ready dict.

    Parameters
    ----------
    sol : geoik.Solution
        A robot's solution (``sol.chain`` the Robot, one tip); joint values in radians (metres
        for prismatic joints), ``frame`` the tip's (4, 4) pose.
    c : geoik.Costs
        Its costs.
    """
    robot: Any = sol.chain
    return {
        "robot": robot.name,
        "tip": robot.tip_names[0],
        "method": sol.method,
        "requested": sol.requested,
        "status": sol.status.name,
        "iterations": sol.iterations,
        "error": sol.error,
        "angle_error": sol.angle_error,
        "tol": sol.tol,
        "angle_tol": sol.angle_tol,
        "joint_names": list(robot.joint_names),
        "joint_values": [float(v) for v in sol.angles],
        "frame": np.asarray(sol.frame).tolist(),
        "target": np.asarray(sol.target).tolist(),
        "costs": {
            "rotations_over_5deg": c.rotations_over_5deg,
            "rotation_sum_deg": c.rotation_sum_deg,
            "path_length": c.path_length,
            "iterations": c.iterations,
        },
    }


def robot_text(sol: Any) -> str:
    """The human-readable report of ``geoik solve --urdf``: the solve, then each joint's value
    (radians, with degrees; metres for prismatic joints), base to tip."""
    robot: Any = sol.chain
    end = ", ".join(f"{v:.6g}" for v in sol.end_effector)
    chosen = f" (chosen by {sol.requested})" if sol.requested != sol.method else ""
    angle = "" if sol.angle_error is None else f"{sol.angle_error:.6g} rad (tol {sol.angle_tol:g})"
    lines = [
        f"robot:       {robot.describe()}",
        f"method:      {sol.method}{chosen}",
        f"target:      {', '.join(f'{v:.6g}' for v in sol.target)}",
        f"status:      {sol.status.name}",
        f"iterations:  {sol.iterations}",
        f"error:       {sol.error:.6g}  (tol {sol.tol:.6g})",
    ]
    if angle:
        lines.append(f"angle error: {angle}")
    lines += [
        f"tip:         {end}",
        "joint values (radians; metres for prismatic joints), base to tip:",
    ]
    width = max(len(nm) for nm in robot.joint_names)
    values = [float(v) for v in sol.angles]
    for nm, kind, v in zip(robot.joint_names, robot.kinds, values, strict=True):
        deg = "" if kind == "prismatic" else f"  ({math.degrees(v):.4f} deg)"
        lines.append(f"  {nm:<{width}}  {v:12.6f}{deg}")
    return "\n".join(lines)


def run_robot(args: argparse.Namespace) -> int:
    """``geoik solve --urdf FILE --tip LINK --target X,Y,Z [--orientation W,X,Y,Z]``."""
    from geoik.robots.analytic import solve_all
    from geoik.robots.urdf import load_urdf

    _check_robot_flags(args)
    target = parse_point(args.target, dims=(3,), model="robot")
    orientation = None
    if args.orientation is not None:
        orientation = parse_quaternion(args.orientation, "--orientation")
    elif args.angle_tol is not None:
        raise InvalidOptionError("expected with --orientation W,X,Y,Z", argument="--angle-tol")
    check_all_flags(args)
    angle_tol = None if args.angle_tol is None else parse_angle_tol(args.angle_tol)
    options = parse_options(args.opt)
    tol, max_iter = parse_tol(args.tol), parse_max_iter(args.max_iter)
    start = None if args.start is None else parse_values(args.start, "--start")
    redundancy = None if args.redundancy is None else parse_number(args.redundancy, "--redundancy")
    try:
        robot = load_urdf(args.urdf, tip=args.tip, base=args.base)
        if args.tip is None and robot.k != 1:
            raise InvalidOptionError(
                f"expected the link to move, one of {', '.join(robot.tip_names)} (the leaves of "
                f"{args.urdf}), got none",
                argument="--tip",
            )
        if args.all:
            check_oriented(robot, orientation is not None)
            check_redundancy(robot, redundancy)
            found = solve_all(
                robot, target, orientation, start, tol, angle_tol, redundancy=redundancy
            )
            q0 = robot.rest_angles() if start is None else np.asarray(start, dtype=float)
            return print_all(found, q0, redundancy, args.json)
        sol = solve(
            robot,
            target,
            method=args.method,
            tol=tol,
            max_iter=max_iter,
            start=start,
            orientation=orientation,
            angle_tol=angle_tol,
            **options,
        )
    except GeoIKError as e:
        raise _robot_error(e, args, options) from None
    c = costs(sol)
    if args.json:
        print(json.dumps(robot_record(sol, c), allow_nan=False))
    else:
        print(robot_text(sol))
    return 0
