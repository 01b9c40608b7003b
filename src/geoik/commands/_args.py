"""Command-line arguments shared by the geoik commands: chains, points, limits, solver options.

Every parser raises a :class:`geoik.GeoIKError` subclass whose message names the option (as the
user typed it), what was expected and what came. Angles are in degrees here, the user's edge.
"""

from __future__ import annotations

import argparse
import json
import math
import tomllib
from collections.abc import Iterable
from pathlib import Path
from typing import Any

from geoik.chain import Chain
from geoik.errors import (
    GeoIKError,
    InvalidChainError,
    InvalidOptionError,
    InvalidPoseError,
    InvalidTargetError,
)

__all__ = [
    "add_chain_arguments",
    "add_solver_arguments",
    "as_typed",
    "chain_from_args",
    "load_chain_file",
    "parse_lengths",
    "parse_max_bend",
    "parse_options",
    "parse_point",
    "parse_start_deg",
]

MAX_LINKS = 10_000
FLAGS = {
    "target": "--target",
    "tol": "--tol",
    "max_iter": "--max-iter",
    "method": "--method",
    "start": "--start-deg",
    "lengths": "--lengths",
    "max_bend_deg": "--max-bend-deg",
}
"""The command-line flag of each argument name the library's error messages start with."""
CHAIN_FIELDS = ("lengths", "max_bend_deg", "hinge_axes", "base", "dim")
_FREE = ("none", "free", "null", "")

MaxBend = float | tuple[float, float] | None


def _number(text: str) -> float | None:
    """A finite float from ``text``, or None."""
    try:
        value = float(text.strip())
    except ValueError:
        return None
    return value if math.isfinite(value) else None


def _numbers(text: str) -> list[float] | None:
    """Comma-separated finite numbers, or None if any is not one."""
    values = [_number(part) for part in text.split(",")]
    return None if any(v is None for v in values) else [float(v) for v in values if v is not None]


def parse_lengths(text: str, name: str = "--lengths") -> list[float]:
    """Link lengths from ``"2x10"`` (ten links of length 2), ``"9,9,9,9,4"`` or a mix
    (``"9x4,4"``)."""
    expected = (
        f"{name}: expected positive link lengths as LENGTHxCOUNT (e.g. 2x10) or a comma list "
        f"(e.g. 9,9,9,9,4), got {text!r}"
    )
    out: list[float] = []
    for part in text.split(","):
        length_text, sep, count_text = part.strip().lower().partition("x")
        length = _number(length_text)
        count = 1
        if sep:
            count_text = count_text.strip()
            count = int(count_text) if count_text.isdigit() else 0
        if length is None or length <= 0 or count < 1:
            raise InvalidChainError(expected)
        if len(out) + count > MAX_LINKS:
            raise InvalidChainError(f"{name}: expected at most {MAX_LINKS} links, got {text!r}")
        out.extend([length] * count)
    return out


def parse_point(text: str, name: str = "--target", dims: tuple[int, ...] = (2, 3)) -> list[float]:
    """A point from ``"8.33,2.83"`` (2-D) or ``"1,2,3"`` (3-D)."""
    values = _numbers(text)
    if values is None or len(values) not in dims:
        want = " or ".join(str(d) for d in dims)
        raise InvalidTargetError(
            f"{name}: expected {want} finite numbers separated by commas, got {text!r}"
        )
    return values


def _bend_entry(text: str, name: str) -> MaxBend:
    t = text.strip()
    if t.lower() in _FREE:
        return None
    if ":" in t:
        lo, _, hi = t.partition(":")
        pair = (_number(lo), _number(hi))
        if pair[0] is None or pair[1] is None:
            raise InvalidChainError(
                f"{name}: expected a signed MIN:MAX pair in degrees (e.g. -30:120), got {text!r}"
            )
        return (pair[0], pair[1])
    value = _number(t)
    if value is None:
        raise InvalidChainError(
            f"{name}: expected a maximum bend in degrees, MIN:MAX or None per joint, got {text!r}"
        )
    return value


def parse_max_bend(text: str, name: str = "--max-bend-deg") -> MaxBend | list[MaxBend]:
    """Joint limits in degrees: ``"90"`` (every joint), ``"-30:120"`` (every joint, signed),
    or one entry per joint ``"126,90,None,-30:120"``. ``None`` (or ``free``) leaves a joint free.
    """
    entries = [_bend_entry(part, name) for part in text.split(",")]
    return entries[0] if len(entries) == 1 else entries


def parse_options(items: list[str] | None, name: str = "--opt") -> dict[str, Any]:
    """Solver options from ``KEY=VALUE`` strings; VALUE a number or a comma vector."""
    out: dict[str, Any] = {}
    for item in items or ():
        key, sep, value = item.partition("=")
        key = key.strip().replace("-", "_")
        if not sep or not key.isidentifier():
            raise InvalidOptionError(f"{name}: expected KEY=VALUE (e.g. elbow=-1), got {item!r}")
        numbers = _numbers(value)
        if numbers is None:
            raise InvalidOptionError(
                f"{name} {key}: expected a finite number or comma-separated numbers, got {value!r}"
            )
        out[key] = numbers[0] if len(numbers) == 1 else tuple(numbers)
    return out


def parse_start_deg(text: str, chain: Chain, name: str = "--start-deg") -> Any:
    """Start angles in degrees for ``chain``: n relative angles (2-D) or n rotation vectors,
    3n numbers (3-D); returned in radians, shaped as :meth:`Chain.pose_from_angles` takes them."""
    values = _numbers(text)
    per = 1 if chain.dim == 2 else 3
    if values is None or len(values) != per * chain.n:
        what = "one angle" if per == 1 else "one rotation vector (3 numbers)"
        raise InvalidPoseError(
            f"{name}: expected {per * chain.n} finite numbers in degrees ({what} per joint of "
            f"{chain.n}), got {text!r}"
        )
    rad = [math.radians(v) for v in values]
    return rad if per == 1 else [rad[3 * i : 3 * i + 3] for i in range(chain.n)]


def as_typed(error: GeoIKError, options: Iterable[str] = ()) -> GeoIKError:
    """``error`` (same type) with the argument its message names spelled as the user typed it:
    ``max_bend_deg[2]: ...`` becomes ``--max-bend-deg[2]: ...``, ``tol: ...`` ``--tol: ...``, and
    a solver option ``elbow: ...`` (one of ``options``) ``--opt elbow: ...``."""
    message = str(error)
    head, sep, rest = message.partition(":")
    name, bracket, index = head.partition("[")
    flag = FLAGS.get(name) or (f"--opt {name}" if name in options else None)
    if not sep or flag is None:
        return error
    return type(error)(f"{flag}{bracket}{index}{sep}{rest}")


# --------------------------------------------------------------------------- chain files


def _read_chain_file(path: str, name: str) -> dict[str, Any]:
    p = Path(path)
    try:
        text = p.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as e:
        why = e.strerror if isinstance(e, OSError) and e.strerror else str(e)
        raise InvalidChainError(f"{name}: cannot read {path!r}: {why}") from None
    try:
        data: Any = tomllib.loads(text) if p.suffix.lower() == ".toml" else json.loads(text)
    except (tomllib.TOMLDecodeError, json.JSONDecodeError) as e:
        kind = "TOML" if p.suffix.lower() == ".toml" else "JSON"
        raise InvalidChainError(f"{name}: {path!r} is not valid {kind}: {e}") from None
    if not isinstance(data, dict):
        raise InvalidChainError(f"{name}: {path!r}: expected a table of chain fields, got a list")
    unknown = sorted(set(data) - set(CHAIN_FIELDS))
    if unknown:
        raise InvalidChainError(
            f"{name}: {path!r}: unknown field {unknown[0]!r} (fields: {', '.join(CHAIN_FIELDS)})"
        )
    if "lengths" not in data:
        raise InvalidChainError(f"{name}: {path!r}: missing field 'lengths'")
    return data


def _file_bend(value: Any, where: str) -> Any:
    """A file's max_bend_deg: strings as on the command line, 2-lists as (min, max) pairs."""
    if isinstance(value, str):
        return parse_max_bend(value, where)
    if isinstance(value, list):
        out: list[Any] = []
        for i, v in enumerate(value):
            if isinstance(v, str):
                out.append(_bend_entry(v, f"{where}[{i}]"))
            else:
                out.append(tuple(v) if isinstance(v, list) else v)
        return out
    return value


def load_chain_file(path: str, dim: int | None = None, name: str = "--chain") -> Chain:
    """A chain from a TOML or JSON file with fields ``lengths`` (a list or ``"2x10"``),
    ``max_bend_deg``, ``hinge_axes`` (per joint None/"none" or a 3-vector), ``base`` and
    optionally ``dim``; the dimension otherwise follows ``base``/``hinge_axes``, then ``dim``."""
    data = _read_chain_file(path, name)
    where = f"{name} {path}"
    lengths = data["lengths"]
    if isinstance(lengths, str):
        lengths = parse_lengths(lengths, f"{where}: lengths")
    bend = _file_bend(data.get("max_bend_deg"), f"{where}: max_bend_deg")
    hinges = data.get("hinge_axes")
    if isinstance(hinges, list):
        hinges = [None if isinstance(h, str) and h.lower() in _FREE else h for h in hinges]
    base = data.get("base")
    file_dim = data.get("dim")
    if file_dim is None and (hinges is not None or (isinstance(base, list) and len(base) == 3)):
        file_dim = 3
    file_dim = file_dim if file_dim is not None else (dim or 2)
    if file_dim not in (2, 3):
        raise InvalidChainError(f"{where}: dim: expected 2 or 3, got {file_dim!r}")
    if isinstance(bend, tuple) and isinstance(lengths, list):
        bend = [bend] * len(lengths)
    try:
        if file_dim == 2:
            if hinges is not None:
                raise InvalidChainError("hinge_axes: only a 3-D chain has hinge axes")
            return Chain.planar(lengths, bend, base if base is not None else (0.0, 0.0))
        return Chain.spatial(lengths, bend, hinges, base if base is not None else (0.0, 0.0, 0.0))
    except InvalidChainError as e:
        raise InvalidChainError(f"{where}: {e}") from None


# --------------------------------------------------------------------------- argparse glue


def add_chain_arguments(parser: argparse.ArgumentParser) -> None:
    """``--lengths`` or ``--chain``, plus ``--max-bend-deg``."""
    group = parser.add_mutually_exclusive_group(required=True)
    group.add_argument(
        "--lengths",
        metavar="L",
        help="link lengths: LENGTHxCOUNT (2x10 = ten links of length 2) or a list (9,9,9,9,4)",
    )
    group.add_argument(
        "--chain",
        metavar="FILE",
        help="chain file (.toml or .json) with fields lengths, max_bend_deg, hinge_axes, base",
    )
    parser.add_argument(
        "--max-bend-deg",
        metavar="B",
        help="joint limits in degrees: one bend for all joints (90), a signed range (-30:120), "
        "or one entry per joint (126,90,None,-30:120); default: free joints",
    )


def add_solver_arguments(parser: argparse.ArgumentParser, default_method: str) -> None:
    """``--method``, ``--tol``, ``--max-iter`` and repeatable ``--opt KEY=VALUE``."""
    from geoik.solvers import REGISTRY

    parser.add_argument(
        "--method",
        default=default_method,
        help=f"solver: auto, {', '.join(REGISTRY)} (default {default_method}; 'geoik methods' "
        "describes them)",
    )
    parser.add_argument(
        "--tol", type=float, help="distance that counts as reached (default 1e-4 x chain length)"
    )
    parser.add_argument(
        "--max-iter",
        type=int,
        metavar="N",
        help="iteration budget (default: the solver's, 'geoik methods' shows it)",
    )
    parser.add_argument(
        "--opt",
        action="append",
        metavar="KEY=VALUE",
        help="solver option, repeatable; VALUE a number or a comma vector "
        "(e.g. --opt elbow=-1, --opt pole=0,0,1); 'geoik methods' lists them",
    )


def chain_from_args(args: argparse.Namespace, dim: int) -> Chain:
    """The chain an invocation describes; ``dim`` (2 or 3) is the target's dimension."""
    bend = None if args.max_bend_deg is None else parse_max_bend(args.max_bend_deg)
    base: Any = None
    hinges: Any = None
    if args.chain is not None:
        chain = load_chain_file(args.chain, dim)
        if bend is None:
            return chain
        # --max-bend-deg overrides the file's limits; the rest of the file stays
        lengths, base, dim = chain.lengths.tolist(), chain.base.tolist(), chain.dim
        hinges = [h.tolist() if h.any() else None for h in chain.hinge]
    else:
        lengths = parse_lengths(args.lengths)
    if isinstance(bend, tuple):
        bend = [bend] * len(lengths)
    try:
        if dim == 2:
            return Chain.planar(lengths, bend, base if base is not None else (0.0, 0.0))
        return Chain.spatial(lengths, bend, hinges, base if base is not None else (0.0, 0.0, 0.0))
    except GeoIKError as e:
        raise as_typed(e) from None
