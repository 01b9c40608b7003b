"""``geoik solve --urdf FILE --all``: every solution of one pose, as a table or as JSON.

The exit status says whether the set is empty: 0 with at least one solution within the joint
limits, :data:`EXIT_EMPTY` (1) when there is none, as ``grep`` answers when nothing matches;
errors exit 2 as everywhere. An empty set says why in one line, then lists what the arm does
reach: the pose reachable only outside the limits, its solutions there (each naming the joints
beyond their limits); out of reach, the least-squares poses nearest it (with their errors); an
orientation a 4- or 5-joint arm cannot take at the position, its poses at the nearest one.
"""

from __future__ import annotations

import argparse
import json
import math
from collections.abc import Sequence
from typing import Any

import numpy as np

from geoik.errors import InvalidOptionError, counted
from geoik.solvers.auto import AUTO

__all__ = [
    "EXIT_EMPTY",
    "all_record",
    "all_text",
    "check_all_flags",
    "check_oriented",
    "check_redundancy",
    "parse_number",
    "parse_values",
    "print_all",
]

EXIT_EMPTY = 1
"""Exit status of ``geoik solve --all`` when no solution lies within the joint limits."""


def parse_values(text: str, name: str) -> list[float]:
    """Comma-separated finite numbers (``--start``: joint values in ``joint_names`` order)."""
    parts = text.split(",")
    try:
        values = [float(v) for v in parts]
    except ValueError:
        values = []
    if not values or not all(map(math.isfinite, values)):
        raise InvalidOptionError(
            f"expected comma-separated joint values (radians; metres for prismatic joints) in "
            f"the order of the robot's joints, got {text!r}",
            argument=name,
        )
    return values


def parse_number(text: str, name: str) -> float | list[float]:
    """One finite number, or several separated by commas (``--redundancy``: a 7-joint arm's
    held joint at one value, or swept over several)."""
    try:
        values = [float(part) for part in text.split(",")]
    except ValueError:
        values = [math.nan]
    if not all(map(math.isfinite, values)):
        raise InvalidOptionError(
            f"expected a number (radians), or several separated by commas, got {text!r}",
            argument=name,
        )
    return values[0] if len(values) == 1 else values


def check_all_flags(args: argparse.Namespace) -> None:
    """``--all`` is the analytic solver's (no iterations, no options); ``--redundancy``
    belongs to ``--all``. Whether the arm needs ``--orientation`` is :func:`check_oriented`'s
    (once it is loaded)."""
    if not args.all:
        if args.redundancy is not None:
            raise InvalidOptionError(
                "expected with --all (geoik solve searches a 7-joint arm's redundancy itself)",
                argument="--redundancy",
            )
        return
    if args.method not in (AUTO, "analytic"):
        raise InvalidOptionError(
            f"--all lists every solution by the analytic solver, got {args.method!r}; leave "
            f"--method out",
            argument="--method",
        )
    for flag, value in (("--max-iter", args.max_iter), ("--opt", args.opt)):
        if value is not None:
            raise InvalidOptionError(
                "the analytic solver (--all) runs no iterations and takes no options",
                argument=flag,
            )


def check_oriented(robot: Any, oriented: bool) -> None:
    """``--all`` on an arm of six or seven joints needs a full pose; one of four or five joints
    takes a position alone (every solution at it, the tip's orientation held as near its
    orientation at the start as the arm can, as :func:`geoik.solve_all` does)."""
    if not oriented and robot.n >= 6:
        raise InvalidOptionError(
            f"expected with --orientation W,X,Y,Z on an arm of {robot.n} joints: every solution "
            f"is of a full pose (position and orientation)",
            argument="--all",
        )


def check_redundancy(robot: Any, redundancy: float | list[float] | None) -> None:
    """A 7-joint arm's every solution holds one joint at a value the user gives: say which,
    and its limits, when ``--redundancy`` is missing."""
    plan = robot.analytic_plan()
    if redundancy is None and plan.locked >= 0:
        j = plan.locked
        raise InvalidOptionError(
            f"expected with --all on a 7-joint arm ({robot.describe()}): every solution "
            f"holds joint {robot.joint_names[j]!r} at one value; add --redundancy VALUE "
            f"(radians, within [{robot.lo[j]:.6g}, {robot.hi[j]:.6g}])",
            argument="--redundancy",
        )


def _reason(found: Any, redundancy: float | list[float] | None = None) -> str:
    """Why the set is what it is, in one line; a 7-joint arm's at its held joint's values."""
    held = ""
    if redundancy is not None:
        j = found.robot.analytic_plan().locked
        at = (
            f"{redundancy:g}"
            if isinstance(redundancy, float)
            else f"{len(redundancy)} values ({', '.join(f'{v:g}' for v in redundancy)})"
        )
        held = f" with joint {found.robot.joint_names[j]!r} at {at}"
    name = found.status.name
    if name == "SOLVED":
        extra = len(found.outside)
        more = f" ({extra} more outside the joint limits)" if extra else ""
        return f"{counted(len(found), 'solution')} within the joint limits{held}{more}"
    if name == "OUTSIDE_LIMITS":
        return (
            f"no solution{held}: the pose is reachable only with joints outside their limits "
            f"({counted(len(found.outside), 'solution')} outside them)"
        )
    if name == "NEAREST_ORIENTATION":
        return (
            "no solution: the orientation is out of the arm's reach at this position; "
            f"{len(found)} poses at the nearest orientation it can take"
        )
    return f"no solution{held}: the pose is out of reach"


def all_record(
    found: Any, start: np.ndarray, redundancy: float | list[float] | None
) -> dict[str, Any]:
    """What ``geoik solve --all --json`` prints: the set, each solution's joint values, errors
    and singular flag, nearest the start first; ``outside``: the exact solutions beyond the
    limits (nearest the start first) and ``closest``: the least-squares poses of a pose out of
    reach (nearest the pose first), each naming the joints beyond their limits."""
    robot = found.robot
    solutions = [
        {
            "index": i,
            "joint_values": [float(v) for v in q],
            "error": float(err[0]),
            "angle_error": float(err[1]),
            "singular": bool(s),
        }
        for i, (q, err, s) in enumerate(
            zip(found.angles, found.errors, found.singular, strict=True)
        )
    ]
    outside = _beyond_entries(robot, found.outside, found.outside_errors)
    # the least-squares candidates only out of reach (else other branches' candidates)
    reach = found.status.name == "OUT_OF_REACH"
    closest = _beyond_entries(robot, found.closest, found.closest_errors) if reach else []
    return {
        "robot": robot.name,
        "tip": robot.tip_names[0],
        "method": "analytic",
        "family": found.family,
        "status": found.status.name,
        "reason": _reason(found, redundancy),
        "count": len(found),
        "outside_limits": len(found.outside),
        "joint_names": list(robot.joint_names),
        "start": [float(v) for v in start],
        "redundancy": redundancy,
        "target": np.asarray(found.target).tolist(),
        "orientation": np.asarray(found.orientation).tolist(),
        "solutions": solutions,
        "outside": outside,
        "closest": closest,
    }


def _beyond_entries(robot: Any, rows: np.ndarray, errors: np.ndarray) -> list[dict[str, Any]]:
    """``rows`` (joint values) with their ``errors`` (position, angle) as the JSON lists the
    solutions outside the limits and the least-squares poses, each naming its joints beyond
    their limits."""
    return [
        {
            "joint_values": [float(v) for v in q],
            "error": float(e[0]),
            "angle_error": float(e[1]),
            "beyond_limits": _beyond(robot, q),
        }
        for q, e in zip(rows, errors, strict=True)
    ]


def _beyond(robot: Any, q: np.ndarray) -> list[str]:
    """The names of the joints whose values in ``q`` lie beyond their limits (to 1e-9)."""
    return [
        name
        for name, v, lo, hi in zip(robot.joint_names, q.tolist(), robot.lo, robot.hi, strict=True)
        if not lo - 1e-9 <= v <= hi + 1e-9
    ]


def all_text(found: Any, start: np.ndarray, redundancy: float | list[float] | None = None) -> str:
    """The table of ``geoik solve --all``: one row per solution (index, joint values in
    ``joint_names`` order, position and angle error, singular flag), nearest the start first;
    an empty set says why in one line, then lists the solutions outside the limits or the
    least-squares poses, each with the joints it puts beyond their limits."""
    robot = found.robot
    lines = [
        f"robot:   {robot.describe()}",
        f"family:  {found.family}",
        f"target:  {', '.join(f'{v:.6g}' for v in found.target)}",
    ]
    start_line = f"start:   {', '.join(f'{v:.6g}' for v in start)}"
    units = "joint values in radians (metres for prismatic joints)"
    if not len(found):
        lines.append(_reason(found, redundancy))
        if len(found.outside):
            lines += [start_line, f"outside the joint limits, nearest the start first; {units}:"]
            lines += _beyond_table(robot, found.outside, found.outside_errors)
        elif len(found.closest):
            lines.append(
                f"the nearest poses the arm reaches (least squares), nearest first; {units}:"
            )
            lines += _beyond_table(robot, found.closest, found.closest_errors)
        return "\n".join(lines)
    lines += [start_line, f"{_reason(found, redundancy)}, nearest the start first; {units}:"]
    flags = ["yes" if s else "no" for s in found.singular]
    lines += _table(robot, found.angles, found.errors, "singular", flags)
    return "\n".join(lines)


def _beyond_table(robot: Any, rows: np.ndarray, errors: np.ndarray) -> list[str]:
    """:func:`_table` of ``rows`` with a last column naming each row's joints beyond their
    limits."""
    beyond = [", ".join(_beyond(robot, q)) for q in rows]
    return _table(robot, rows, errors, "beyond the limits", beyond)


def _table(
    robot: Any, angles: np.ndarray, errors: np.ndarray, label: str = "", last: Sequence[str] = ()
) -> list[str]:
    """Rows of joint values (``joint_names`` order), position and angle errors, and a last
    column ``label`` (``last``: one entry per row), under a header line."""
    names = list(robot.joint_names)
    widths = [max(10, len(nm)) for nm in names]
    head = "  ".join(f"{nm:>{w}}" for nm, w in zip(names, widths, strict=True))
    out = [f"{'#':>3}  {head}  {'pos error':>9}  {'ang error':>9}  {label}".rstrip()]
    for i, (q, err) in enumerate(zip(angles, errors, strict=True)):
        values = "  ".join(f"{v:>{w}.6f}" for v, w in zip(q.tolist(), widths, strict=True))
        extra = last[i] if label else ""
        out.append(f"{i:>3}  {values}  {err[0]:>9.2g}  {err[1]:>9.2g}  {extra}".rstrip())
    return out


def print_all(
    found: Any, start: np.ndarray, redundancy: float | list[float] | None, as_json: bool
) -> int:
    """Print the set (text or JSON) and return the exit status."""
    if as_json:
        print(json.dumps(all_record(found, start, redundancy), allow_nan=False))
    else:
        print(all_text(found, start, redundancy))
    return 0 if found.status.name == "SOLVED" else EXIT_EMPTY
