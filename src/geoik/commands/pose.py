"""``geoik pose``: pin joints of a BVH clip to targets on its frames and write the result."""

from __future__ import annotations

import argparse
import json
import re
import time
from typing import Any

from geoik.commands._args import TypedStore

HELP = "pin joints of a BVH clip to targets and re-solve its frames"
DESCRIPTION = """\
Read a BVH clip, hold the pinned joints at their targets on the frames given, re-solve each of
those frames with a tree solver starting from the clip's own pose (the joints the pins do not
need keep their motion; the pelvis stays as the clip has it), and write the clip to -o.

A pin is NAME[=X,Y,Z][@FRAMES]: without coordinates the joint stays where the clip has it on the
first pinned frame (a foot planted during its stance); FRAMES counts from 0, as N, A-B (both
included), A- (to the end) or a comma list (10-30,40); without it the pin holds on every frame.
Coordinates are in the file's units and world axes. --targets reads pins from a TOML or JSON
file: a list 'pin' of tables with 'joint', optional 'target' [x, y, z] and 'frames' "10-30".
--limits reads joint limits in degrees (fields 'max_bend_deg' and 'hinge_axes', by joint name,
as geoik.Skeleton takes them). The summary gives each pin's frames reached and largest error.

A walking clip to try comes with geoik (joints Hips, LeftFoot, LeftHand, ...; its left foot
rests on frames 12-23, its right on 24-37): the first example copies it here as walk.bvh."""
EXAMPLES = """\
examples:
  python -c "import shutil, geoik.rigs.bvh as b; shutil.copy(b.example_path('walk'), '.')"
  geoik pose walk.bvh --pin LeftFoot@11-24 --pin RightFoot@24-37 -o planted.bvh
  geoik pose walk.bvh --pin LeftHand=30,95,40@5-20 --method fabrik -o reach.bvh
  geoik pose walk.bvh --targets pins.toml --limits knees.toml --tol 1e-4 -o out.bvh --json"""


POSE_FLAGS = {"tol": "--tol", "max_iter": "--max-iter"}
"""The flag of each argument of :func:`geoik.pose_clip` that ``geoik pose`` takes as one."""


def _pin_index(argument: str | None) -> int | None:
    """``k`` of an error about ``pins[k]`` or one of its fields (``pins[k].joint``), else None."""
    if argument is None or not argument.startswith("pins["):
        return None
    index = argument[5:].partition("]")[0]
    return int(index) if index.isdigit() else None


def register(subparsers: Any) -> None:
    """Add the parser of ``geoik pose`` to ``subparsers`` (see :mod:`geoik.commands`)."""
    p = subparsers.add_parser(
        "pose",
        help=HELP,
        description=DESCRIPTION,
        epilog=EXAMPLES,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    p.add_argument("input", metavar="IN.bvh", help="the clip to pose")
    p.add_argument(
        "--pin",
        action="append",
        metavar="NAME[=X,Y,Z][@FRAMES]",
        help="a joint held at a target (repeatable)",
    )
    p.add_argument("--targets", metavar="FILE", help="pins from a TOML or JSON file")
    p.add_argument("--limits", metavar="FILE", help="joint limits from a TOML or JSON file")
    p.add_argument(
        "--method", default="circles", help="tree solver: circles or fabrik (default circles)"
    )
    p.add_argument("--tol", type=float, help="distance that counts as reached (file units)")
    p.add_argument("--max-iter", type=int, metavar="N", help="iteration budget per frame")
    p.add_argument(
        "-o", "--output", required=True, metavar="OUT.bvh", action=TypedStore, help="file to write"
    )
    p.add_argument("--json", action="store_true", help="print the summary as one JSON object")
    p.add_argument("--quiet", action="store_true", help="no progress bar")
    p.set_defaults(handler=run)


def _read_table(path: str, flag: str) -> dict[str, Any]:
    import tomllib
    from pathlib import Path

    from geoik.errors import InvalidOptionError

    try:
        text = Path(path).read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as e:
        why = e.strerror if isinstance(e, OSError) and e.strerror else str(e)
        raise InvalidOptionError(f"cannot read {path!r}: {why}", argument=flag) from None
    try:
        data = tomllib.loads(text) if path.lower().endswith(".toml") else json.loads(text)
    except (tomllib.TOMLDecodeError, json.JSONDecodeError) as e:
        raise InvalidOptionError(
            f"{path!r} is not valid TOML or JSON: {e}", argument=flag
        ) from None
    if not isinstance(data, dict):
        raise InvalidOptionError(
            f"{path!r}: expected a table, got {type(data).__name__}", argument=flag
        )
    return data


def parse_pin(text: str, count: int, flag: str = "--pin") -> Any:
    """A :class:`geoik.Pin` from ``NAME[=X,Y,Z][@FRAMES]``."""
    from geoik.commands._args import parse_point
    from geoik.errors import InvalidTargetError
    from geoik.rigs.clip import Pin, parse_frames

    head, at, frames = text.partition("@")
    name, eq, coords = head.partition("=")
    name = name.strip()
    if not name:
        raise InvalidTargetError(f"expected NAME[=X,Y,Z][@FRAMES], got {text!r}", argument=flag)
    target = parse_point(coords, f"{flag} {name}", dims=(3,)) if eq else None
    which = parse_frames(frames, count, f"{flag} {name}@") if at else None
    return Pin(name, target, which)


def _file_pins(path: str, count: int) -> list[Any]:
    from geoik.errors import InvalidTargetError
    from geoik.rigs.clip import Pin, parse_frames

    data = _read_table(path, "--targets")
    items = data.get("pin")
    if not isinstance(items, list) or not items:
        raise InvalidTargetError(f"{path!r}: expected a list 'pin' of tables", argument="--targets")
    pins = []
    for k, item in enumerate(items):
        where = f"--targets {path}: pin[{k}]"
        if not isinstance(item, dict) or not isinstance(item.get("joint"), str):
            raise InvalidTargetError("expected a table with a 'joint' name", argument=where)
        unknown = sorted(set(item) - {"joint", "target", "frames"})
        if unknown:
            raise InvalidTargetError(f"unknown field {unknown[0]!r}", argument=where)
        frames = item.get("frames")
        which = parse_frames(str(frames), count, f"{where}.frames") if frames is not None else None
        pins.append(Pin(item["joint"], item.get("target"), which))
    return pins


def _with_limits(skeleton: Any, path: str) -> Any:
    """The skeleton with the joint limits of the ``--limits`` file at ``path``.

    Parameters
    ----------
    skeleton : geoik.Skeleton
        The clip's skeleton.
    path : str
        A TOML or JSON file with the fields ``max_bend_deg`` and ``hinge_axes`` (by joint name,
        in degrees, as :class:`geoik.Skeleton` takes them).

    Returns
    -------
    geoik.Skeleton
        The same tree with those limits; a bad file or limit raises a ``GeoIKError`` about
        ``--limits``.
    """
    from geoik.errors import GeoIKError, InvalidOptionError

    data = _read_table(path, "--limits")
    unknown = sorted(set(data) - {"max_bend_deg", "hinge_axes"})
    if unknown:
        raise InvalidOptionError(
            f"{path!r}: unknown field {unknown[0]!r} (fields: max_bend_deg, hinge_axes)",
            argument="--limits",
        )
    bends = {
        k: tuple(v) if isinstance(v, list) else v
        for k, v in (data.get("max_bend_deg") or {}).items()
    }
    try:
        return skeleton.with_limits(bends or None, data.get("hinge_axes"))
    except GeoIKError as e:
        raise e.about(f"--limits: {path}", str(e)) from None


def _read_pins(args: argparse.Namespace, count: int) -> tuple[list[Any], list[str]]:
    """The pins of ``--pin`` and ``--targets``, and each one's label as the user gave it.

    Parameters
    ----------
    args : argparse.Namespace
        The parsed ``geoik pose`` arguments (``pin``, ``targets``).
    count : int
        The clip's number of frames F, which the pins' frame ranges must fit.

    Returns
    -------
    pins : list of geoik.Pin
        The ``--pin`` pins first, then the file's.
    labels : list of str
        ``"--pin TEXT"`` or ``"--targets FILE: pin[k]"``, one per pin, for messages.
    """
    pins = [parse_pin(p, count) for p in args.pin or []]
    labels = [f"--pin {p}" for p in args.pin or []]  # each pin as the user gave it
    if args.targets:
        pins += _file_pins(args.targets, count)
        labels += [f"--targets {args.targets}: pin[{k}]" for k in range(len(pins) - len(labels))]
    return pins, labels


def _pose(
    args: argparse.Namespace, skeleton: Any, frames: Any, pins: list[Any], labels: list[str]
) -> tuple[Any, float, float]:
    """Solve the pinned frames, with a progress bar unless ``--quiet``.

    Parameters
    ----------
    args : argparse.Namespace
        The parsed ``geoik pose`` arguments (``method``, ``tol``, ``max_iter``, ``quiet``).
    skeleton : geoik.Skeleton
        The clip's skeleton, with the ``--limits`` if any.
    frames : geoik.Frames
        The clip's F frames.
    pins, labels : list
        The pins and their labels as :func:`_read_pins` gives them; an error about a pin is
        raised about its label.

    Returns
    -------
    posed : geoik.PosedClip
        The posed frames and each pin's error.
    seconds : float
        Wall time of the solve, in seconds.
    compiling : float
        The part of ``seconds`` spent compiling kernels.
    """
    from geoik import jit
    from geoik.commands._progress import ProgressBar
    from geoik.errors import GeoIKError
    from geoik.rigs.clip import pose_clip

    bar = None if args.quiet else ProgressBar("geoik pose", "frames")
    before = jit.compile_stats().seconds
    t0 = time.perf_counter()
    try:
        posed = pose_clip(
            skeleton,
            frames,
            pins,
            method=args.method,
            tol=args.tol,
            max_iter=args.max_iter,
            progress=bar,
        )
    except GeoIKError as e:
        if e.argument in POSE_FLAGS:
            raise e.about(POSE_FLAGS[e.argument]) from None
        pin = _pin_index(e.argument)
        if pin is not None:  # pins[k].joint: ... -> the pin as the user gave it
            detail = re.sub(r"pins\[(\d+)\]", lambda m: labels[int(m[1])], e.detail)
            raise e.about(labels[pin], detail) from None
        raise
    finally:
        if bar is not None:
            bar.close()
    seconds = time.perf_counter() - t0
    return posed, seconds, min(jit.compile_stats().seconds - before, seconds)


def _pin_summaries(posed: Any, pins: list[Any]) -> list[dict[str, Any]]:
    """Each pin's joint, frames held, frames reached and largest error (file units; None when
    the pin holds on no frame)."""
    import numpy as np

    out = []
    for k, pin in enumerate(pins):
        err = posed.error[:, k]
        held = ~np.isnan(err)
        out.append(
            {
                "joint": pin.joint,
                "frames": int(held.sum()),
                "reached": int(posed.reached[held, k].sum()),
                "max_error": float(err[held].max()) if held.any() else None,
            }
        )
    return out


def _print_summary(summary: dict[str, Any]) -> None:
    """Print the summary :func:`run` builds as lines: the rate, each pin, the file written."""
    from geoik.commands._progress import compiling_part

    count, seconds, compiling = (
        summary["frames"],
        summary["seconds"],
        summary["compile_seconds"],
    )
    rate = count / max(seconds - compiling, 1e-9)
    print(
        f"{count} frames posed by {summary['method']} in {seconds:.2f} s"
        f"{compiling_part(compiling)} ({rate:.0f} frames/s)"
    )
    for p in summary["pins"]:
        worst = "-" if p["max_error"] is None else f"{p['max_error']:.3g}"
        print(
            f"  {p['joint']}: reached on {p['reached']} of {p['frames']} frames, "
            f"largest error {worst}"
        )
    print(f"wrote {summary['output']}")


def run(args: argparse.Namespace) -> int:
    """Run ``geoik pose`` with the parsed ``args``; the exit status."""
    from geoik.commands._args import check_distinct, check_output, typed_flag, writing
    from geoik.errors import InvalidOptionError, InvalidTargetError
    from geoik.rigs.bvh import load_bvh, save_bvh
    from geoik.rigs.tree import METHODS

    if args.method not in METHODS:
        raise InvalidOptionError(
            f"expected one of {', '.join(METHODS)}, got {args.method!r}", argument="--method"
        )
    if not args.pin and not args.targets:
        raise InvalidTargetError("expected at least one pin (or --targets FILE)", argument="--pin")
    flag = typed_flag(args, "output", "--output")
    check_output(args.output, flag)
    inputs = [("IN.bvh", args.input), ("--targets", args.targets), ("--limits", args.limits)]
    check_distinct([(flag, args.output)], inputs)
    skeleton, frames, frame_time = load_bvh(args.input)
    count = len(frames)
    pins, labels = _read_pins(args, count)
    if args.limits:
        skeleton = _with_limits(skeleton, args.limits)
    posed, seconds, compiling = _pose(args, skeleton, frames, pins, labels)
    out = writing(
        flag, args.output, lambda: save_bvh(args.output, skeleton, posed.frames, frame_time)
    )
    summary: dict[str, Any] = {
        "input": args.input,
        "output": str(out),
        "frames": count,
        "method": args.method,
        "tol": posed.tol,
        "seconds": seconds,
        "compile_seconds": compiling,
        "frames_per_second": count / (seconds - compiling) if seconds > compiling else None,
        "pins": _pin_summaries(posed, pins),
    }
    if args.json:
        print(json.dumps(summary))
    else:
        _print_summary(summary)
    return 0
