"""The exceptions geoik raises.

Every error derives from :class:`GeoIKError`, itself a :class:`ValueError`, and its message names
the argument, what was expected and what came.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any

__all__ = [
    "BVHError",
    "ClusterError",
    "DaskMissingError",
    "GeoIKError",
    "InvalidChainError",
    "InvalidOptionError",
    "InvalidPoseError",
    "InvalidTargetError",
    "LimitError",
    "MapCancelledError",
    "ProtocolError",
    "RobotsMissingError",
    "ServerAddressError",
    "Spell",
    "UnknownMethodError",
    "URDFError",
    "UnsupportedChainError",
    "UnsupportedJointError",
    "UsageError",
]


class GeoIKError(ValueError):
    """Base class of every error geoik raises on bad input.

    Parameters
    ----------
    detail : what was expected and what came, e.g. ``"expected a finite distance > 0, got -1"``.
    argument : the argument the error is about, as the caller spelled it: ``"tol"``,
        ``"lengths[3]"``, ``"targets['hand']"``, a file; None when it is about no one argument.

    Attributes
    ----------
    argument, detail : as given. The message (``str(err)``) is ``"argument: detail"``, or the
        detail alone; interfaces that spell arguments their own way (the command line's flags)
        read :attr:`argument` and :attr:`detail`, never the message.
    """

    def __init__(
        self, detail: str | Sequence[str | Spell] = "", argument: str | None = None
    ) -> None:
        parts = (detail,) if isinstance(detail, str) else tuple(detail)
        text = "".join(map(str, parts))
        super().__init__(text if argument is None else f"{argument}: {text}")
        self.detail = text
        self.parts = parts
        self.argument = argument

    def __reduce__(self) -> tuple[Any, ...]:
        # pickled (a tile's error sent back by a Dask worker) with its argument and parts
        return (_rebuild, (type(self), self.parts, self.argument, self.__dict__))

    def about(self, argument: str, detail: str | Sequence[str | Spell] | None = None) -> Any:
        """The same error (same type) about ``argument`` instead, with ``detail`` if given."""
        return _rebuild(
            type(self), self.parts if detail is None else detail, argument, self.__dict__
        )


_OWN = frozenset(("detail", "parts", "argument"))


def _rebuild(cls: type[GeoIKError], detail: Any, argument: str | None, state: dict) -> Any:
    error = cls.__new__(cls)
    GeoIKError.__init__(error, detail, argument)
    error.__dict__.update({k: v for k, v in state.items() if k not in _OWN})
    return error


class Spell:
    """A part of an error's detail that each interface writes in its own syntax.

    The library's messages show values and hints as Python would take them (``(-30.0, 120.0)``,
    ``[(90.0, 90.0)] * 3``); the command line and chain files take them otherwise (``-30:120``,
    ``"90:90"``). A detail made of strings and Spell parts (:attr:`GeoIKError.parts`) is written
    in Python by ``str()`` and in another syntax by the interface, from :attr:`kind` and
    :attr:`values`, without reading the message.

    Kinds: ``"value"`` (a value that came, as :func:`describe` shows it), ``"pair"`` (a signed
    range ``lo, hi``), ``"range_for_all"`` (``lo, hi, n``: one range for every one of ``n``
    joints), ``"axis_for_all"`` (``axis, n``), and the phrases ``"signed_range"``,
    ``"pair_needs"``, ``"or_pair"``, ``"two_numbers"`` (no values).
    """

    __slots__ = ("kind", "values")

    def __init__(self, kind: str, *values: Any) -> None:
        self.kind = kind
        self.values = values

    def __str__(self) -> str:
        v = self.values
        if self.kind == "value":
            return describe(v[0])
        if self.kind == "pair":
            return repr((v[0], v[1]))
        if self.kind == "range_for_all":
            pair = (v[0], v[1])
            return f" (the range {pair} for every joint: [{pair}] * {v[2]})"
        if self.kind == "axis_for_all":
            return f"the single axis {v[0]} (for every joint: [{v[0]}] * {v[1]})"
        return _PHRASES[self.kind]

    def __repr__(self) -> str:
        return f"Spell({self.kind!r}{''.join(f', {x!r}' for x in self.values)})"


_PHRASES = {
    "signed_range": " (a signed range is a (min, max) pair)",
    "pair_needs": "a (min, max) pair needs",
    "or_pair": "or a (min, max) pair",
    "two_numbers": "two numbers (min, max)",
}


class InvalidChainError(GeoIKError):
    """A chain or skeleton description is malformed (lengths, limits, hinge axes, base)."""


class InvalidTargetError(GeoIKError):
    """A target is not a finite point of the chain's dimension."""


class InvalidPoseError(GeoIKError):
    """A start pose or angle vector does not fit the chain."""


class UnknownMethodError(GeoIKError):
    """The requested solver is not registered."""


class InvalidOptionError(GeoIKError):
    """A solver option is unknown to the chosen solver or has a bad value."""


class UnsupportedChainError(GeoIKError):
    """The chosen solver cannot handle this chain (e.g. two-bone IK on three links)."""


class LimitError(UnsupportedChainError):
    """The chain's joint limits do not allow the pose a solver must produce (e.g. CAA's arc)."""


class URDFError(InvalidChainError):
    """A robot description cannot be loaded: a missing or unreadable file, malformed XML, a
    link or joint name the description does not have."""


class UnsupportedJointError(URDFError):
    """A robot description has a joint geoik cannot model on a path it was asked to solve
    (a mimic, floating or planar joint)."""


class RobotsMissingError(GeoIKError):
    """The example robots (example-robot-data), or the viewer's robot meshes (yourdfpy), need the
    ``robots`` extra, which is not installed."""


class BVHError(GeoIKError):
    """A BVH file geoik cannot read (malformed hierarchy, missing MOTION, wrong channel counts,
    a truncated motion) or a clip it cannot write; the message names the file and the line."""


class ProtocolError(GeoIKError):
    """A message the viewer cannot act on; ``field`` names the offending part."""

    def __init__(self, field: str, message: str) -> None:
        super().__init__(message, argument=field)
        self.field = field
        self.msg_id: Any = None
        self.request: Any = None


class MapCancelledError(Exception):
    """A viewer's map computation stopped because a newer one was asked for (control flow,
    not bad input)."""


class ServerAddressError(GeoIKError):
    """The viewer cannot listen on the address asked for."""


class DaskMissingError(GeoIKError):
    """A Dask scheduler was asked for but ``dask.distributed`` is not installed."""


class ClusterError(GeoIKError):
    """A Dask scheduler cannot be reached or has no workers, or a tile failed on the cluster."""


class UsageError(Exception):
    """A command-line syntax error (argparse's), reported as one line by ``geoik``."""


def describe(value: object) -> str:
    """Short, readable description of what came, for error messages: one line (a NumPy
    array's rows joined), at most 80 characters."""
    text = repr(value)
    if "\n" in text:
        text = re.sub(r"\s*\n\s*", " ", text)
    if len(text) > 80:
        text = text[:77] + "..."
    return text


def counted(n: int, noun: str) -> str:
    """``n`` and the noun, plural unless ``n`` is 1: ``"1 solution"``, ``"8 solutions"``."""
    return f"{n} {noun}" if n == 1 else f"{n} {noun}s"
