"""Writing files all or nothing: a temporary file beside the target, then a rename.

Every file geoik writes for a user (figures, CSV and Markdown tables, map arrays) goes through
:func:`save_atomic`, so an interrupted run (Ctrl-C, a lost worker, a full disk) never leaves a
half-written file under the requested name, and an older file of that name stays as it was.
"""

from __future__ import annotations

import contextlib
import os
import secrets
from collections.abc import Callable
from pathlib import Path

__all__ = ["save_all_atomic", "save_atomic", "write_text"]


def save_atomic(path: str | os.PathLike[str], write: Callable[[str], None]) -> Path:
    """Call ``write(tmp)`` on a temporary file next to ``path``, then rename it to ``path``.

    If ``write`` fails or is interrupted, the temporary file is removed and ``path`` is left as
    it was. The file gets the permissions of any new file (0o666 less the umask; ``mkstemp``
    would give 0o600). Raises OSError naming ``path`` when its folder cannot be written.
    """
    target = os.fspath(path)
    folder, name = os.path.split(os.path.abspath(target))
    tmp = os.path.join(folder, f".{name}.{secrets.token_hex(6)}.tmp")
    try:
        os.close(os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o666))
    except OSError as e:  # name the file asked for, not the temporary one
        raise OSError(e.errno, e.strerror, target) from None
    try:
        write(tmp)
        os.replace(tmp, target)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        raise
    return Path(target)


def save_all_atomic(items: list[tuple[str | os.PathLike[str], Callable[[str], None]]]) -> None:
    """Several files, all or nothing: every ``write(tmp)`` into a temporary file beside its
    path first, then the renames; if any write fails or is interrupted, every temporary file is
    removed and no path is touched."""
    staged: list[tuple[str, str]] = []
    try:
        for path, write in items:
            target = os.fspath(path)
            folder, name = os.path.split(os.path.abspath(target))
            tmp = os.path.join(folder, f".{name}.{secrets.token_hex(6)}.tmp")
            try:
                os.close(os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o666))
            except OSError as e:
                raise OSError(e.errno, e.strerror, target) from None
            staged.append((tmp, target))
            write(tmp)
        for tmp, target in staged:
            os.replace(tmp, target)
    except BaseException:
        for tmp, _ in staged:
            with contextlib.suppress(OSError):
                os.unlink(tmp)
        raise


def write_text(path: str | os.PathLike[str], text: str) -> Path:
    """Write ``text`` (UTF-8, newlines as given) to ``path`` with :func:`save_atomic`."""

    def write(tmp: str) -> None:
        with open(tmp, "w", encoding="utf-8", newline="") as f:
            f.write(text)

    return save_atomic(path, write)
