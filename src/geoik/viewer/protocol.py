"""The viewer's WebSocket messages: parsing, size caps and field validation.

Every message is a JSON object with a ``type`` (one of :data:`TYPES`) and an ``id`` that the
reply echoes. Bad input raises :class:`ProtocolError` (a :class:`geoik.GeoIKError`) naming the
field; :func:`error_reply` turns it, or any other GeoIKError, into the reply the page shows. The
caps keep one message from occupying the server: a browser tab is not a batch job.
"""

from __future__ import annotations

import contextlib
import json
import math
from collections.abc import Iterator
from typing import Any

from geoik.chain import Chain
from geoik.checks import (
    check_int,
    check_number,
    check_point_within,
    check_tol,
    is_integer,
)
from geoik.errors import GeoIKError, ProtocolError, describe

__all__ = [
    "MAX_ITER",
    "MAX_LINKS",
    "MAX_MAP_SIZE",
    "MAX_MESSAGE_BYTES",
    "TYPES",
    "ProtocolError",
    "chain_from",
    "error_reply",
    "field_of",
    "field_scope",
    "number",
    "parse_message",
    "point",
    "tol",
]

MAX_MESSAGE_BYTES = 64 * 1024
"""Largest accepted message, in bytes of UTF-8 text."""
MAX_LINKS = 64
"""Most links a chain sent by the page may have."""
MAX_MAP_SIZE = 512
"""Largest metric-map side, in pixels."""
MAX_ITER = 1000
"""Largest iteration budget a page may ask for (CCD on 64 links records some 40 keyframes per
iteration: a thousand iterations are already 20 MB of motion)."""
MAX_COORDINATE = 1e6
"""Largest length or coordinate accepted, so that squares and sums stay far from overflow."""
TYPES = (
    "solve",
    "methods",
    "reach",
    "map",
    "scene",
    "robot",
    "robot_solve",
    "clip",
    "pose",
    "save",
)
_ID_CHARS = 64


def parse_message(raw: str | bytes | None) -> dict[str, Any]:
    """The message as a dict with a known ``type``; ProtocolError otherwise.

    NaN and infinities are parsed (JSON extensions Python accepts) so that the field holding
    them is named by the validation that follows, not reported as malformed JSON.
    """
    if raw is None:
        raise ProtocolError("message", "expected a JSON text frame, got a binary frame")
    size = len(raw) if isinstance(raw, bytes) else len(raw.encode("utf-8", "surrogatepass"))
    if size > MAX_MESSAGE_BYTES:
        raise ProtocolError(
            "message", f"expected at most {MAX_MESSAGE_BYTES} bytes, got {size} bytes"
        )
    try:
        msg = json.loads(raw)
    except (ValueError, RecursionError) as e:
        raise ProtocolError("message", f"expected JSON, got malformed text ({e})") from None
    if not isinstance(msg, dict):
        raise ProtocolError("message", f"expected a JSON object, got {describe(msg)}")
    kind = msg.get("type")
    try:
        check_id(msg.get("id"))
        if kind not in TYPES:
            raise ProtocolError("type", f"expected one of {', '.join(TYPES)}, got {describe(kind)}")
    except ProtocolError as e:
        e.msg_id, e.request = safe_id(msg), kind
        raise
    return msg


@contextlib.contextmanager
def _field(name: str) -> Iterator[None]:
    """Re-raise the :class:`geoik.GeoIKError` of a :mod:`geoik.checks` check as the
    :class:`ProtocolError` of field ``name``."""
    try:
        yield
    except ProtocolError:
        raise
    except GeoIKError as e:
        raise ProtocolError(name, _after_field(e)) from None


field_scope = _field
"""``with field_scope("name"):`` reports a :mod:`geoik.checks` error as the field ``name``'s."""


def check_id(value: Any) -> None:
    """A message id: absent, an integer or a string of at most 64 characters."""
    ok = value is None or is_integer(value) or isinstance(value, str)
    if not ok or (isinstance(value, str) and len(value) > _ID_CHARS):
        raise ProtocolError(
            "id",
            f"expected a number or a string of at most {_ID_CHARS} characters, "
            f"got {describe(value)}",
        )


def safe_id(msg: Any) -> Any:
    """The message's id if it can be echoed, else None."""
    if not isinstance(msg, dict):
        return None
    try:
        check_id(msg.get("id"))
    except ProtocolError:
        return None
    return msg.get("id")


def number(
    msg: dict[str, Any],
    key: str,
    default: float | None = None,
    lo: float = -math.inf,
    hi: float = math.inf,
    where: str = "",
) -> float:
    """A finite number ``msg[key]`` in ``[lo, hi]`` (:func:`geoik.checks.check_number`);
    ``default`` when absent."""
    value = msg.get(key, default)
    name = where + key
    if value is None:
        raise ProtocolError(name, "expected a number, got nothing")
    with _field(name):
        return check_number(value, name, lo, hi)


def integer(msg: dict[str, Any], key: str, default: int | None, lo: int, hi: int) -> int | None:
    """An integer ``msg[key]`` in ``[lo, hi]`` (:func:`geoik.checks.check_int`); ``default``
    (may be None) when absent or null."""
    value = msg.get(key)
    if value is None:
        return default
    with _field(key):
        return check_int(value, key, lo, hi)


def tol(msg: dict[str, Any], key: str = "tol") -> float | None:
    """The tolerance ``msg[key]`` (:func:`geoik.checks.check_tol`); None when absent or null,
    for the solver's default."""
    value = msg.get(key)
    if value is None:
        return None
    with _field(key):
        return check_tol(value, 1.0, key)


def point(
    msg: dict[str, Any], key: str, dim: int, where: str = "", model: str = "chain"
) -> tuple[float, ...]:
    """A ``dim``-coordinate finite point ``msg[key]`` of a ``model``, each coordinate within
    :data:`MAX_COORDINATE` (:func:`geoik.checks.check_point_within`)."""
    name = where + key
    with _field(name):
        p = check_point_within(msg.get(key), dim, name, MAX_COORDINATE, model=model)
    return tuple(p.tolist())


def choice(msg: dict[str, Any], key: str, options: tuple[str, ...], default: str) -> str:
    """``msg[key]`` (``default`` when absent) if it is one of ``options``; ProtocolError
    naming ``key`` otherwise."""
    value = msg.get(key, default)
    if value not in options:
        raise ProtocolError(key, f"expected one of {', '.join(options)}, got {describe(value)}")
    return str(value)


def chain_from(msg: dict[str, Any], key: str = "chain") -> Chain:
    """A planar :class:`geoik.Chain` from ``{"lengths": [...], "max_bend_deg": ..., "base":
    [x, y], "dim": 2}``; geoik's own validation names the bad field (prefixed ``chain.``), then
    the caps: at most :data:`MAX_LINKS` links, lengths and base within :data:`MAX_COORDINATE`."""
    spec = msg.get(key)
    if not isinstance(spec, dict):
        raise ProtocolError(key, f"expected an object with lengths, got {describe(spec)}")
    dim = spec.get("dim", 2)
    if dim != 2 or isinstance(dim, bool):
        raise ProtocolError(f"{key}.dim", f"expected 2 (the panel is planar), got {describe(dim)}")
    for field in ("lengths", "max_bend_deg"):  # before any work on them
        entries = spec.get(field)
        if isinstance(entries, list) and len(entries) > MAX_LINKS:
            raise ProtocolError(
                f"{key}.{field}",
                f"expected at most {MAX_LINKS} {'links' if field == 'lengths' else 'entries'}, "
                f"got {len(entries)}",
            )
    if "base" in spec:
        point(spec, "base", 2, f"{key}.")
    try:
        chain = Chain.planar(
            spec.get("lengths"), spec.get("max_bend_deg"), spec.get("base", (0.0, 0.0))
        )
    except GeoIKError as e:
        raise ProtocolError(f"{key}.{field_of(e)}", _after_field(e)) from None
    for i, length in enumerate(chain.lengths.tolist()):
        with _field(f"{key}.lengths[{i}]"):
            check_number(length, f"{key}.lengths[{i}]", 0.0, MAX_COORDINATE)
    return chain


def chain_key(chain: Chain) -> tuple[Any, ...]:
    """A hashable identity of a planar chain, for caches."""
    return (
        tuple(chain.lengths.tolist()),
        tuple(chain.base.tolist()),
        tuple(chain.lo.tolist()),
        tuple(chain.hi.tolist()),
    )


def field_of(error: Exception) -> str:
    """The field a geoik error is about (:attr:`geoik.GeoIKError.argument`), else
    ``"message"``."""
    if isinstance(error, ProtocolError):
        return error.field
    argument = getattr(error, "argument", None)
    return argument if isinstance(argument, str) and " " not in argument else "message"


def _after_field(error: Exception) -> str:
    """The error's message without the field it is about."""
    argument = getattr(error, "argument", None)
    if isinstance(argument, str) and " " not in argument:
        return str(getattr(error, "detail", error))
    return str(error)


def error_reply(msg_id: Any, request: Any, error: Exception) -> dict[str, Any]:
    """The reply to a message that could not be served."""
    req = request if isinstance(request, str) and request in TYPES else None
    return {
        "type": "error",
        "id": msg_id,
        "request": req,
        "field": field_of(error),
        "message": str(error),
    }
