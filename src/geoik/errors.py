"""The exceptions geoik raises.

Every error derives from :class:`GeoIKError`, itself a :class:`ValueError`, and its message names
the argument, what was expected and what came.
"""

from __future__ import annotations

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
    "UnknownMethodError",
    "URDFError",
    "UnsupportedChainError",
    "UnsupportedJointError",
    "UsageError",
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


class URDFError(InvalidChainError):
    """A robot description cannot be loaded: a missing or unreadable file, malformed XML, a
    link or joint name the description does not have."""


class UnsupportedJointError(URDFError):
    """A robot description has a joint geoik cannot model on a path it was asked to solve
    (a mimic, floating or planar joint)."""


class RobotsMissingError(GeoIKError):
    """Loading a URDF needs the ``robots`` extra (yourdfpy), which is not installed."""


class BVHError(GeoIKError):
    """A BVH file geoik cannot read (malformed hierarchy, missing MOTION, wrong channel counts,
    a truncated motion) or a clip it cannot write; the message names the file and the line."""


class ProtocolError(GeoIKError):
    """A message the viewer cannot act on; ``field`` names the offending part."""

    def __init__(self, field: str, message: str) -> None:
        super().__init__(f"{field}: {message}")
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
    """Short, readable description of what came, for error messages."""
    text = repr(value)
    if len(text) > 80:
        text = text[:77] + "..."
    return text
