"""The viewer's WebSocket messages: parsing, size caps and field validation.

Every message is a JSON object with a ``type`` (one of :data:`TYPES`) and an ``id`` that the
reply echoes. Bad input raises :class:`ProtocolError` (a :class:`geoik.GeoIKError`) naming the
field; :func:`error_reply` turns it, or any other GeoIKError, into the reply the page shows. The
caps keep one message from occupying the server: a browser tab is not a batch job.
"""

from __future__ import annotations

import json
import math
from typing import Any

from geoik.chain import Chain
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
    "number",
    "parse_message",
    "point",
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
TYPES = ("solve", "methods", "reach", "map", "scene")
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


def check_id(value: Any) -> None:
    ok = value is None or isinstance(value, int | str) and not isinstance(value, bool)
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
    """A finite number ``msg[key]`` in ``[lo, hi]``; ``default`` when absent."""
    value = msg.get(key, default)
    name = where + key
    if value is None:
        raise ProtocolError(name, "expected a number, got nothing")
    ok = isinstance(value, int | float) and not isinstance(value, bool)
    if not ok or not math.isfinite(value) or not lo <= value <= hi:
        raise ProtocolError(
            name, f"expected a finite number in [{lo:g}, {hi:g}], got {describe(value)}"
        )
    return float(value)


def integer(msg: dict[str, Any], key: str, default: int | None, lo: int, hi: int) -> int | None:
    """An integer ``msg[key]`` in ``[lo, hi]``; ``default`` (may be None) when absent or null."""
    value = msg.get(key)
    if value is None:
        return default
    if isinstance(value, bool) or not isinstance(value, int) or not lo <= value <= hi:
        raise ProtocolError(key, f"expected an integer in [{lo}, {hi}], got {describe(value)}")
    return value


def point(msg: dict[str, Any], key: str, dim: int, where: str = "") -> tuple[float, ...]:
    """A ``dim``-coordinate finite point ``msg[key]``."""
    value = msg.get(key)
    name = where + key
    if not isinstance(value, list) or len(value) != dim:
        raise ProtocolError(name, f"expected {dim} numbers, got {describe(value)}")
    for v in value:
        ok = isinstance(v, int | float) and not isinstance(v, bool)
        if not ok or not math.isfinite(v):
            raise ProtocolError(name, f"expected {dim} finite numbers, got {describe(value)}")
        if abs(v) > MAX_COORDINATE:
            raise ProtocolError(
                name, f"expected coordinates within +-{MAX_COORDINATE:g}, got {describe(value)}"
            )
    return tuple(float(v) for v in value)


def choice(msg: dict[str, Any], key: str, options: tuple[str, ...], default: str) -> str:
    value = msg.get(key, default)
    if value not in options:
        raise ProtocolError(key, f"expected one of {', '.join(options)}, got {describe(value)}")
    return str(value)


def chain_from(msg: dict[str, Any], key: str = "chain") -> Chain:
    """A planar :class:`geoik.Chain` from ``{"lengths": [...], "max_bend_deg": ..., "base":
    [x, y], "dim": 2}``; geoik's own validation names the bad field (prefixed ``chain.``)."""
    spec = msg.get(key)
    if not isinstance(spec, dict):
        raise ProtocolError(key, f"expected an object with lengths, got {describe(spec)}")
    dim = spec.get("dim", 2)
    if dim != 2 or isinstance(dim, bool):
        raise ProtocolError(f"{key}.dim", f"expected 2 (the panel is planar), got {describe(dim)}")
    lengths = spec.get("lengths")
    if isinstance(lengths, list) and len(lengths) > MAX_LINKS:
        raise ProtocolError(
            f"{key}.lengths", f"expected at most {MAX_LINKS} links, got {len(lengths)}"
        )
    if isinstance(lengths, list):
        for i, v in enumerate(lengths):
            if isinstance(v, int | float) and not isinstance(v, bool) and abs(v) > MAX_COORDINATE:
                raise ProtocolError(
                    f"{key}.lengths[{i}]",
                    f"expected a length of at most {MAX_COORDINATE:g}, got {describe(v)}",
                )
    if "base" in spec:
        point(spec, "base", 2, f"{key}.")
    bend = spec.get("max_bend_deg")
    if isinstance(bend, list) and len(bend) > MAX_LINKS:
        raise ProtocolError(
            f"{key}.max_bend_deg", f"expected at most {MAX_LINKS} entries, got {len(bend)}"
        )
    try:
        return Chain.planar(lengths, bend, spec.get("base", (0.0, 0.0)))
    except GeoIKError as e:
        raise ProtocolError(f"{key}.{field_of(e)}", _after_field(str(e))) from None


def chain_key(chain: Chain) -> tuple[Any, ...]:
    """A hashable identity of a planar chain, for caches."""
    return (
        tuple(chain.lengths.tolist()),
        tuple(chain.base.tolist()),
        tuple(chain.lo.tolist()),
        tuple(chain.hi.tolist()),
    )


def field_of(error: Exception) -> str:
    """The field a geoik error message names: its text before the first colon."""
    if isinstance(error, ProtocolError):
        return error.field
    text = str(error)
    head, sep, _ = text.partition(":")
    return head.strip() if sep and head and " " not in head.strip() else "message"


def _after_field(text: str) -> str:
    head, sep, rest = text.partition(":")
    return rest.strip() if sep and " " not in head.strip() else text


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
