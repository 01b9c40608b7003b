"""Flags as the user typed them: which spelling of a flag was used (``-o`` or ``--output``),
and library errors about an argument (``tol``, ``max_bend_deg[2]``) re-spelled as the flag or
the chain file's field, their hints in command-line or file syntax."""

from __future__ import annotations

import argparse
from collections.abc import Iterable, Mapping
from typing import Any

from geoik.errors import (
    GeoIKError,
    Spell,
)

FLAGS = {
    "target": "--target",
    "tol": "--tol",
    "max_iter": "--max-iter",
    "method": "--method",
    "start": "--start-deg",
    "lengths": "--lengths",
    "max_bend_deg": "--max-bend-deg",
    "chain": "--lengths",
    "metric": "--metric",
    "size": "--size",
    "tile_rows": "--tile-rows",
    "scheduler": "--scheduler",
    "plane": "--plane",
    "volume": "--volume",
}
"""The command-line flag of each argument name the library's error messages start with."""
CHAIN_FIELDS = ("lengths", "max_bend_deg", "hinge_axes", "base", "dim")
_TYPED = "typed_flags"


class TypedStore(argparse._StoreAction):
    """argparse's ``store`` action that also records the option string the user typed
    (``-o`` or ``--output``), for :func:`typed_flag`."""

    def __call__(
        self,
        parser: argparse.ArgumentParser,
        namespace: argparse.Namespace,
        values: Any,
        option_string: str | None = None,
    ) -> None:
        super().__call__(parser, namespace, values, option_string)
        if option_string:
            typed = dict(getattr(namespace, _TYPED, {}))
            typed[self.dest] = option_string
            setattr(namespace, _TYPED, typed)


def typed_flag(args: argparse.Namespace, dest: str, default: str) -> str:
    """The option string the user typed for ``dest`` (a :class:`TypedStore`), else
    ``default``."""
    return str(getattr(args, _TYPED, {}).get(dest, default))


# --------------------------------------------------------------------------- library errors


def _g(value: Any) -> str:
    """A number as the user would type it: ``90.0`` as ``90``."""
    return f"{value:g}" if isinstance(value, int | float) else str(value)


def _numbers(value: Any) -> list[float] | None:
    """``value``'s items if it is a tuple or list of plain numbers, else None."""
    plain = isinstance(value, tuple | list) and value
    if plain and all(isinstance(x, int | float) and not isinstance(x, bool) for x in value):
        return list(value)
    return None


def _example(value: str, n: int) -> str:
    """``90,90,90`` (one entry per joint), shortened for long chains."""
    return ",".join([value] * n) if n <= 4 else f"{value},{value},... ({n} entries)"


_CLI_PHRASES = {
    "signed_range": " (a signed range is MIN:MAX, such as -30:120)",
    "pair_needs": "a MIN:MAX range needs",
    "or_pair": "or MIN:MAX",
    "two_numbers": "MIN:MAX",
}
_FILE_PHRASES = {
    "signed_range": ' (a signed range: [-30, 120] or "-30:120")',
    "pair_needs": "a [min, max] pair needs",
    "or_pair": "or a [min, max] pair",
    "two_numbers": "[min, max]",
}


def _cli_spelling(part: Spell, flag: str) -> str:
    """A Spell part of a library error in command-line syntax (``-30:120``, ``1,2``)."""
    v = part.values
    if part.kind == "value":
        items = _numbers(v[0])
        if items is None:
            return str(part)
        sep = ":" if flag.startswith("--max-bend-deg") and len(items) == 2 else ","
        return sep.join(_g(x) for x in items)
    if part.kind == "pair":
        return f"{_g(v[0])}:{_g(v[1])}"
    if part.kind == "range_for_all":
        lo, hi, n = _g(v[0]), _g(v[1]), v[2]
        return (
            f" (the range {lo}:{hi} for every joint: {flag} {lo}:{hi}; one bend per joint: "
            f"{_example(hi, n)})"
        )
    return _CLI_PHRASES.get(part.kind, str(part))


def _file_spelling(part: Spell) -> str:
    """A Spell part of a library error in a chain file's syntax (TOML and JSON alike)."""
    v = part.values
    if part.kind == "value":
        items = _numbers(v[0])
        return str(part) if items is None else f"[{', '.join(_g(x) for x in items)}]"
    if part.kind == "pair":
        return f"[{_g(v[0])}, {_g(v[1])}]"
    if part.kind == "range_for_all":
        lo, hi = _g(v[0]), _g(v[1])
        return f' (the range {lo}:{hi} for every joint: "{lo}:{hi}")'
    if part.kind == "axis_for_all":
        axis = f"[{', '.join(_g(x) for x in v[0])}]"
        n = v[1]
        axes = ", ".join([axis] * n) if n <= 4 else f"{axis}, {axis}, ... ({n} entries)"
        return f"the single axis {axis} (for every joint: [{axes}])"
    return _FILE_PHRASES.get(part.kind, str(part))


def as_typed(
    error: GeoIKError, options: Iterable[str] = (), names: Mapping[str, str] | None = None
) -> GeoIKError:
    """``error`` (same type) about the argument as the user typed it, its values and hints in
    the syntax the user types: an error about ``max_bend_deg[2]`` becomes one about
    ``--max-bend-deg[2]``, ``tol`` ``--tol``, a solver option ``elbow`` (one of ``options``)
    ``--opt elbow``, ``start[2]`` ``--start-deg[2]``. Read from the error's
    :attr:`~geoik.GeoIKError.argument` and :attr:`~geoik.GeoIKError.parts`, never its message.

    ``names`` maps argument names to what to print instead (default :data:`FLAGS`; see
    :func:`chain_names` for a chain from a file). A name mapped to ``--chain FILE: field`` gets
    its hints in a chain file's syntax."""
    if error.argument is None:
        return error
    table = FLAGS if names is None else names
    name, bracket, index = error.argument.partition("[")
    flag = table.get(name) or (f"--opt {name}" if name in options else None)
    if flag is None:
        return error
    in_file = flag.startswith("--chain ")
    detail = "".join(
        p if isinstance(p, str) else _file_spelling(p) if in_file else _cli_spelling(p, flag)
        for p in error.parts
    )
    return error.about(f"{flag}{bracket}{index}", detail)


def chain_names(path: str, flags: Mapping[str, str] = FLAGS) -> dict[str, str]:
    """:data:`FLAGS` with the chain's fields named as in the file ``path``
    (``--chain FILE: max_bend_deg``) and the chain itself as ``--chain FILE``."""
    where = f"--chain {path}"
    names = dict(flags)
    names["chain"] = where
    names.update({field: f"{where}: {field}" for field in CHAIN_FIELDS})
    return names


def typed_names(args: argparse.Namespace, flags: Mapping[str, str] = FLAGS) -> dict[str, str]:
    """What to call each argument the library names, for this invocation: :data:`FLAGS`, or
    with a chain from a file (:func:`chain_names`) the file's fields, except ``max_bend_deg``
    when ``--max-bend-deg`` overrides the file's limits."""
    path = getattr(args, "chain", None)
    if path is None:
        return dict(flags)
    names = chain_names(path, flags)
    if getattr(args, "max_bend_deg", None) is not None:
        names["max_bend_deg"] = flags["max_bend_deg"]
    return names
