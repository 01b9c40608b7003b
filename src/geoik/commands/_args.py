"""Command-line arguments shared by the geoik commands: chains, points, limits, solver options,
tolerances, iteration budgets and output files.

The parsers here only turn text into Python values; whether a value is valid is decided by the
shared checks of :mod:`geoik.checks` (and the library's constructors), called with the name of
the option as the user typed it (``--target``, ``--tol``, ``--start-deg[2]``). A value that does
not even parse is handed to the same check as text, so the message is the same either way.
Every error is a :class:`geoik.GeoIKError` subclass whose message starts with the option, then
says what was expected and what came. Library errors that name an argument (``tol``,
``max_bend_deg[2]``) are re-spelled by :func:`as_typed`, their hints in command-line syntax.
Angles are in degrees here, the user's edge.
"""

from __future__ import annotations

import argparse
import json
import math
import stat
import tomllib
from pathlib import Path
from typing import Any

from geoik.chain import Chain
from geoik.checks import check_int, check_max_iter, check_number, check_point, check_tol
from geoik.commands._outputs import (
    FIGURE_FORMATS,
    check_distinct,
    check_output,
    writing,
)
from geoik.commands._outputs import WRITTEN_THROUGH as WRITTEN_THROUGH
from geoik.commands._spelling import (
    CHAIN_FIELDS,
    TypedStore,
    as_typed,
    chain_names,
    typed_flag,
    typed_names,
)
from geoik.commands._spelling import FLAGS as FLAGS
from geoik.errors import (
    GeoIKError,
    InvalidChainError,
    InvalidOptionError,
    InvalidPoseError,
    InvalidTargetError,
    describe,
)
from geoik.files import kind_of

__all__ = [
    "FIGURE_FORMATS",
    "TypedStore",
    "add_chain_arguments",
    "add_solver_arguments",
    "as_typed",
    "chain_from_args",
    "chain_names",
    "check_distinct",
    "check_output",
    "int_or_text",
    "load_chain_file",
    "parse_int",
    "parse_lengths",
    "parse_max_bend",
    "parse_max_iter",
    "parse_options",
    "parse_point",
    "parse_start_deg",
    "parse_tol",
    "typed_flag",
    "writing",
]

MAX_LINKS = 10_000
_FREE = ("none", "free", "null", "")

MaxBend = float | tuple[float, float] | None


def _float(text: str) -> float | None:
    """``text`` as a float (``nan`` and ``inf`` included: the checks judge them), or None if it
    is not a number at all."""
    try:
        return float(text.strip())
    except ValueError:
        return None


def _int(text: str) -> int | None:
    """``text`` as an int, or None if it is not an integer."""
    try:
        return int(text.strip())
    except ValueError:
        return None


def parse_lengths(text: str, name: str = "--lengths") -> list[float]:
    """Link lengths from ``"2x10"`` (ten links of length 2), ``"9,9,9,9,4"`` or a mix
    (``"9x4,4"``)."""
    expected = (
        f"expected positive link lengths as LENGTHxCOUNT (e.g. 2x10) or a comma list "
        f"(e.g. 9,9,9,9,4), got {text!r}"
    )
    out: list[float] = []
    for part in text.split(","):
        length_text, sep, count_text = part.strip().lower().partition("x")
        length = _float(length_text)
        count = 1
        if sep:
            count_text = count_text.strip()
            count = int(count_text) if count_text.isdigit() else 0
        if length is None or not length > 0 or count < 1:
            raise InvalidChainError(expected, argument=name)
        if len(out) + count > MAX_LINKS:
            raise InvalidChainError(
                f"expected at most {MAX_LINKS} links, got {text!r}", argument=name
            )
        out.extend([length] * count)
    return out


def parse_point(
    text: str, name: str = "--target", dims: tuple[int, ...] = (2, 3), model: str = "chain"
) -> list[float]:
    """A point from ``"8.33,2.83"`` (2-D) or ``"1,2,3"`` (3-D); the number of coordinates (one
    of ``dims``) gives the dimension, :func:`geoik.checks.check_point` the verdict (its message
    says the point is of a ``model``)."""
    parts = text.split(",")
    values = [_float(part) for part in parts]
    if len(parts) not in dims or any(v is None for v in values):
        want = " or ".join(str(d) for d in dims)
        raise InvalidTargetError(
            f"expected {want} numbers separated by commas, got {text!r}", argument=name
        )
    return check_point(values, len(values), name, model=model).tolist()


def parse_tol(text: str | None, name: str = "--tol") -> float | None:
    """A tolerance (:func:`geoik.checks.check_tol`); None when not given."""
    if text is None:
        return None
    value = _float(text)
    return check_tol(text if value is None else value, 1.0, name)


def parse_max_iter(text: str | None, name: str = "--max-iter") -> int | None:
    """An iteration budget (:func:`geoik.checks.check_max_iter`); None when not given."""
    if text is None:
        return None
    value = _int(text)
    return check_max_iter(text if value is None else value, 1, name)


def parse_int(text: str, name: str, lo: float = -math.inf, hi: float = math.inf) -> int:
    """An integer in ``[lo, hi]`` (:func:`geoik.checks.check_int`)."""
    return check_int(int_or_text(text), name, lo, hi)


def int_or_text(text: str) -> int | str:
    """``text`` as an int if it is one, else the text itself: for a check elsewhere (the
    library's) to judge and name."""
    value = _int(text)
    return text if value is None else value


def _bend_entry(text: str, name: str) -> MaxBend:
    """One joint's limit: ``none``, a maximum bend (``90``) or a signed ``MIN:MAX``; the numbers
    are judged by :class:`geoik.Chain`."""
    t = text.strip()
    if t.lower() in _FREE:
        return None
    if ":" in t:
        lo, _, hi = t.partition(":")
        pair = (_float(lo), _float(hi))
        if pair[0] is None or pair[1] is None:
            raise InvalidChainError(
                f"expected a signed MIN:MAX pair in degrees (e.g. -30:120), got {text!r}",
                argument=name,
            )
        return (pair[0], pair[1])
    value = _float(t)
    if value is None:
        raise InvalidChainError(
            f"expected a maximum bend in degrees, MIN:MAX or none, got {text!r}", argument=name
        )
    return value


def parse_max_bend(text: str, name: str = "--max-bend-deg") -> MaxBend | list[MaxBend]:
    """Joint limits in degrees: ``"90"`` (every joint), ``"-30:120"`` (every joint, signed),
    or one entry per joint ``"126,90,None,-30:120"``, each named ``NAME[i]``. ``None`` (or
    ``free``) leaves a joint free."""
    parts = text.split(",")
    if len(parts) == 1:
        return _bend_entry(parts[0], name)
    return [_bend_entry(part, f"{name}[{i}]") for i, part in enumerate(parts)]


def parse_options(items: list[str] | None, name: str = "--opt") -> dict[str, Any]:
    """Solver options from ``KEY=VALUE`` strings; VALUE a number or a comma vector (judged by
    the solver)."""
    out: dict[str, Any] = {}
    for item in items or ():
        key, sep, value = item.partition("=")
        key = key.strip().replace("-", "_")
        if not sep or not key.isidentifier():
            raise InvalidOptionError(
                f"expected KEY=VALUE (e.g. elbow=-1), got {item!r}", argument=name
            )
        numbers = [_float(part) for part in value.split(",")]
        if any(v is None for v in numbers):
            raise InvalidOptionError(
                f"expected a number or comma-separated numbers, got {value!r}",
                argument=f"{name} {key}",
            )
        out[key] = numbers[0] if len(numbers) == 1 else tuple(numbers)
    return out


def parse_start_deg(text: str, chain: Chain, name: str = "--start-deg") -> Any:
    """Start angles in degrees for ``chain``: n relative angles (2-D) or n rotation vectors,
    3n numbers (3-D); each joint's numbers checked as ``NAME[i]``; returned in radians, shaped
    as :meth:`Chain.pose_from_angles` takes them."""
    parts = text.split(",")
    per = 1 if chain.dim == 2 else 3
    if len(parts) != per * chain.n:
        what = "one angle" if per == 1 else "one rotation vector (3 numbers)"
        raise InvalidPoseError(
            f"expected {per * chain.n} numbers in degrees ({what} per joint of {chain.n}), got "
            f"{text!r}",
            argument=name,
        )
    rad = []
    for k, part in enumerate(parts):
        value = _float(part)
        where = f"{name}[{k // per}]"
        deg = check_number(part.strip() if value is None else value, where, error=InvalidPoseError)
        rad.append(math.radians(deg))
    return rad if per == 1 else [rad[3 * i : 3 * i + 3] for i in range(chain.n)]


# --------------------------------------------------------------------------- chain files

MAX_CHAIN_FILE_BYTES = 1 << 22
"""Largest chain file read (4 MiB: far more than any chain of at most 10,000 links needs)."""


def _read_chain_file(path: str, where: str) -> dict[str, Any]:
    p = Path(path)
    try:
        info = p.stat()
        if not stat.S_ISREG(info.st_mode):  # a FIFO or a device would block or never end
            raise InvalidChainError(f"expected a regular file, got {kind_of(info)}", argument=where)
        if info.st_size > MAX_CHAIN_FILE_BYTES:
            raise InvalidChainError(
                f"expected a chain file of at most {MAX_CHAIN_FILE_BYTES:,} bytes, got "
                f"{info.st_size:,}",
                argument=where,
            )
        text = p.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as e:
        why = e.strerror if isinstance(e, OSError) and e.strerror else str(e)
        raise InvalidChainError(
            f"expected a readable chain file, got: {why}", argument=where
        ) from None
    kind = "TOML" if p.suffix.lower() == ".toml" else "JSON"
    try:
        data: Any = tomllib.loads(text) if kind == "TOML" else json.loads(text)
    except (tomllib.TOMLDecodeError, json.JSONDecodeError) as e:
        raise InvalidChainError(
            f"expected {kind}, got a syntax error: {e}", argument=where
        ) from None
    except RecursionError:
        raise InvalidChainError(
            f"expected {kind} of chain fields, got values nested too deeply", argument=where
        ) from None
    if not isinstance(data, dict):
        raise InvalidChainError(
            f"expected a table of chain fields, got {describe(data)}", argument=where
        )
    unknown = sorted(set(data) - set(CHAIN_FIELDS))
    if unknown:
        raise InvalidChainError(
            f"expected one of the fields {', '.join(CHAIN_FIELDS)}, got an unknown field",
            argument=f"{where}: {unknown[0]}",
        )
    if "lengths" not in data:
        raise InvalidChainError(
            'expected link lengths (a list, or a string such as "2x10"), got no such field',
            argument=f"{where}: lengths",
        )
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
    optionally ``dim``; the dimension otherwise follows ``base``/``hinge_axes``, then ``dim``.

    Every error reads ``--chain FILE: field[i]: expected ..., got ...``."""
    where = f"{name} {path}"
    data = _read_chain_file(path, where)
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
    if file_dim not in (2, 3) or isinstance(file_dim, bool):
        raise InvalidChainError(f"dim: expected 2 or 3, got {file_dim!r}", argument=where)
    if file_dim == 2 and hinges is not None:
        raise InvalidChainError(
            f"hinge_axes: expected none in a 2-D chain (dim = 2), got {describe(hinges)}",
            argument=where,
        )
    if isinstance(bend, tuple) and isinstance(lengths, list):
        bend = [bend] * len(lengths)
    try:
        if file_dim == 2:
            return Chain.planar(lengths, bend, base if base is not None else (0.0, 0.0))
        return Chain.spatial(lengths, bend, hinges, base if base is not None else (0.0, 0.0, 0.0))
    except InvalidChainError as e:
        typed = as_typed(e, names=chain_names(path))
        raise typed if typed is not e else e.about(where, str(e)) from None


# --------------------------------------------------------------------------- argparse glue


def add_chain_arguments(parser: argparse.ArgumentParser) -> Any:
    """``--lengths`` or ``--chain``, plus ``--max-bend-deg``; returns the group of the first
    two, to which a command may add other ways of naming its model."""
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
    return group


def add_solver_arguments(parser: argparse.ArgumentParser, default_method: str) -> None:
    """``--method``, ``--tol``, ``--max-iter`` and repeatable ``--opt KEY=VALUE``."""
    from geoik.solvers import REGISTRY

    parser.add_argument(
        "--method",
        default=default_method,
        help=f"solver: auto, {', '.join(REGISTRY)} (default {default_method}; 'geoik methods' "
        "describes them)",
    )
    add_budget_arguments(parser, "1e-4 x chain length", "the solver's, 'geoik methods' shows it")
    parser.add_argument(
        "--opt",
        action="append",
        metavar="KEY=VALUE",
        help="solver option, repeatable; VALUE a number or a comma vector "
        "(e.g. --opt elbow=-1, --opt pole=0,0,1); 'geoik methods' lists them",
    )


def add_budget_arguments(parser: argparse.ArgumentParser, tol: str, max_iter: str) -> None:
    """``--tol`` and ``--max-iter``, kept as text for :func:`parse_tol` and
    :func:`parse_max_iter`; ``tol`` and ``max_iter`` describe the defaults."""
    parser.add_argument(
        "--tol", metavar="D", help=f"distance that counts as reached (default {tol})"
    )
    parser.add_argument("--max-iter", metavar="N", help=f"iteration budget (default: {max_iter})")


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
        raise as_typed(e, names=typed_names(args)) from None
