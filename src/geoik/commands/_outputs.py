"""Output files of the geoik commands: the checks made before any work (a figure's format, a
folder that exists, no output that is also an input) and the write that names its flag when it
fails."""

from __future__ import annotations

import os
from collections.abc import Callable, Sequence
from typing import Any

from geoik.errors import (
    InvalidOptionError,
)
from geoik.files import same_file, special_kind

FIGURE_FORMATS = ("png", "svg", "pdf", "jpg", "jpeg", "webp", "tif", "tiff", "eps", "ps")
"""File name extensions of the figures geoik writes (matplotlib's Agg canvas)."""


# --------------------------------------------------------------------------- output files


def check_output(path: str | None, flag: str, formats: Sequence[str] | None = None) -> None:
    """Refuse, before any work, an output that is a directory (or a block device or a socket),
    whose folder is missing or read-only, or whose extension names no format that can be
    written; the message starts with ``flag`` and gives ``path`` as typed. A character device
    or a named pipe (``/dev/null``) is written through, as ``cp`` does, whatever its name."""
    if path is None:
        return
    kind = special_kind(path)
    if kind == "a directory":
        raise InvalidOptionError(f"expected a file name, got the folder {path!r}", argument=flag)
    if kind in WRITTEN_THROUGH:
        if not os.access(path, os.W_OK):
            raise InvalidOptionError(
                f"expected a writable file, got {kind} {path!r}", argument=flag
            )
        return
    if kind is not None:
        raise InvalidOptionError(
            f"expected a file, a character device or a named pipe, got {kind} {path!r}",
            argument=flag,
        )
    ext = os.path.splitext(path)[1].lower().lstrip(".")
    if formats is not None and ext not in formats:
        raise InvalidOptionError(
            f"expected a file name ending in .{', .'.join(formats)}, got {path!r}", argument=flag
        )
    folder = os.path.dirname(os.path.realpath(path))
    if not os.path.isdir(folder):
        raise InvalidOptionError(
            f"expected a file in an existing folder, got {path!r}", argument=flag
        )
    if not os.access(folder, os.W_OK):
        raise InvalidOptionError(
            f"expected a file in a writable folder, got {path!r}", argument=flag
        )


WRITTEN_THROUGH = ("a character device", "a named pipe")
"""What an output may be besides a regular file: written through, never replaced."""


def check_distinct(
    outputs: Sequence[tuple[str, str | None]], inputs: Sequence[tuple[str, str | None]] = ()
) -> None:
    """Refuse, before any work, an output that is the same file as an input or as another
    output of the command (a symbolic or hard link counts): ``(flag, path)`` pairs, the flags
    as typed. Devices and pipes, written through, may be named twice (``/dev/null``)."""
    seen: list[tuple[str, str]] = []
    for flag, path in outputs:
        if path is None or special_kind(path) in WRITTEN_THROUGH:
            continue
        for other_flag, other in inputs:
            if other is not None and same_file(path, other):
                raise InvalidOptionError(
                    f"expected another file than the input ({other_flag} {other}), got "
                    f"{_same(path, other)}",
                    argument=flag,
                )
        for other_flag, other in seen:
            if same_file(path, other):
                raise InvalidOptionError(
                    f"expected another file than {other_flag} {other}, got {_same(path, other)}",
                    argument=flag,
                )
        seen.append((flag, path))


def _same(path: str, other: str) -> str:
    """``'path'``, and when it is spelled otherwise, that it is the same file."""
    return repr(path) if path == other else f"{path!r}, the same file"


def writing(flag: str, path: str, write: Callable[[], Any]) -> Any:
    """``write()``, with an OSError (disk full, folder removed meanwhile) reported as a
    GeoIKError that starts with ``flag``."""
    try:
        return write()
    except OSError as e:
        where = e.filename if isinstance(e.filename, str) else path
        raise InvalidOptionError(
            f"cannot write {where!r}: {e.strerror or e}", argument=flag
        ) from None
