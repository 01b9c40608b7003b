"""The exceptions geoik raises.

Every error derives from :class:`GeoIKError`, itself a :class:`ValueError`, and its message names
the argument, what was expected and what came.
"""

from __future__ import annotations

__all__ = [
    "GeoIKError",
    "InvalidChainError",
    "InvalidOptionError",
    "InvalidPoseError",
    "InvalidTargetError",
    "LimitError",
    "UnknownMethodError",
    "UnsupportedChainError",
]


class GeoIKError(ValueError):
    """Base class of every error geoik raises on bad input."""


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


def describe(value: object) -> str:
    """Short, readable description of what came, for error messages."""
    text = repr(value)
    if len(text) > 80:
        text = text[:77] + "..."
    return text
