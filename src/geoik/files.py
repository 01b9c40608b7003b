"""Writing files all or nothing: a temporary file beside the target, then a rename.

Every file geoik writes for a user (figures, CSV and Markdown tables, map arrays) goes through
:func:`save_atomic`, so an interrupted run (Ctrl-C, a lost worker, a full disk) never leaves a
half-written file under the requested name, and an older file of that name stays as it was.

What already sits at the path decides how it is written, as ``cp`` does:

- nothing, or a regular file: a temporary file beside it, renamed over it (an existing file
  keeps its permission bits);
- a symbolic link: the file it names is written so (the link stays a link);
- a character device or a named pipe (``/dev/null``, a FIFO a reader waits on): written
  through, once the whole content is ready in a temporary file elsewhere; the device is never
  replaced by a regular file;
- a directory, a block device or a socket: refused (an OSError naming the path as given).

:func:`same_file` and :func:`special_kind` let the command line refuse, before any work, an
output that is one of its inputs or another of its outputs.
"""

from __future__ import annotations

import contextlib
import errno
import os
import secrets
import shutil
import stat
import tempfile
from collections.abc import Callable
from pathlib import Path

__all__ = [
    "kind_of",
    "place",
    "same_file",
    "save_all_atomic",
    "save_atomic",
    "special_kind",
    "write_bytes",
    "write_text",
]

_KINDS = (
    (stat.S_ISDIR, "a directory"),
    (stat.S_ISFIFO, "a named pipe"),
    (stat.S_ISCHR, "a character device"),
    (stat.S_ISBLK, "a block device"),
    (stat.S_ISSOCK, "a socket"),
)


def kind_of(info: os.stat_result) -> str:
    """What a file is, in words: ``"a regular file"``, ``"a directory"``, ``"a named pipe"``,
    ``"a character device"``, ``"a block device"``, ``"a socket"`` or ``"a special file"``."""
    if stat.S_ISREG(info.st_mode):
        return "a regular file"
    for test, word in _KINDS:
        if test(info.st_mode):
            return word
    return "a special file"


def special_kind(path: str | os.PathLike[str]) -> str | None:
    """None when ``path`` (symbolic links followed) does not exist or is a regular file; else
    what it is, in words (see :func:`kind_of`)."""
    try:
        info = os.stat(path)
    except OSError:
        return None
    return None if stat.S_ISREG(info.st_mode) else kind_of(info)


def same_file(a: str | os.PathLike[str], b: str | os.PathLike[str]) -> bool:
    """Whether ``a`` and ``b`` name the same file: the same device and inode when both exist
    (a symbolic or hard link counts), else the same path once links are resolved."""
    with contextlib.suppress(OSError):
        return os.path.samefile(a, b)
    return os.path.realpath(a) == os.path.realpath(b)


def _writes_through(info: os.stat_result | None) -> bool:
    return info is not None and (stat.S_ISCHR(info.st_mode) or stat.S_ISFIFO(info.st_mode))


def _destination(target: str) -> tuple[str, os.stat_result | None]:
    """Where a write to ``target`` lands (the file a symbolic link names) and what is there now
    (None: nothing); OSError naming ``target`` when it is refused (a directory, a block device,
    a socket)."""
    real = os.path.realpath(target)
    try:
        info: os.stat_result | None = os.stat(real)
    except OSError:
        info = None
    if info is None or stat.S_ISREG(info.st_mode) or _writes_through(info):
        return real, info
    if stat.S_ISDIR(info.st_mode):
        raise IsADirectoryError(errno.EISDIR, "Is a directory", target)
    raise OSError(errno.EINVAL, f"not a regular file but {kind_of(info)}", target)


def _stage(real: str, target: str, info: os.stat_result | None) -> str:
    """A new empty temporary file for the content of ``real``: beside it (so that the rename is
    atomic), or for a device or pipe in the temporary folder; OSError naming ``target`` when it
    cannot be made."""
    if _writes_through(info):
        fd, tmp = tempfile.mkstemp(prefix=".geoik-", suffix=".tmp")
        os.close(fd)
        return tmp
    folder, name = os.path.split(real)
    tmp = os.path.join(folder, f".{name}.{secrets.token_hex(6)}.tmp")
    try:
        os.close(os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o666))
    except OSError as e:  # name the file asked for, not the temporary one
        raise OSError(e.errno, e.strerror, target) from None
    if info is not None:  # an existing file keeps its permission bits
        with contextlib.suppress(OSError):
            os.chmod(tmp, stat.S_IMODE(info.st_mode))
    return tmp


def _commit(tmp: str, real: str, target: str, info: os.stat_result | None) -> None:
    """Put the finished ``tmp`` in place: renamed over ``real``, or copied into a device or
    pipe and removed; OSError naming ``target``."""
    try:
        if _writes_through(info):
            with open(tmp, "rb") as src, open(real, "wb") as dst:
                shutil.copyfileobj(src, dst)
            os.unlink(tmp)
        else:
            os.replace(tmp, real)
    except OSError as e:
        raise OSError(e.errno, e.strerror, target) from None


def save_atomic(path: str | os.PathLike[str], write: Callable[[str], None]) -> Path:
    """Call ``write(tmp)`` on a temporary file next to ``path``, then rename it to ``path``.

    If ``write`` fails or is interrupted, the temporary file is removed and ``path`` is left as
    it was. A new file gets the permissions of any new file (0o666 less the umask; ``mkstemp``
    would give 0o600), an existing one keeps its own. A symbolic link at ``path`` is followed;
    a character device or a named pipe there is written through once the content is complete
    (see the module's notes). Raises OSError naming ``path`` when its folder cannot be written
    or ``path`` is a directory, a block device or a socket.
    """
    target = os.fspath(path)
    real, info = _destination(target)
    tmp = _stage(real, target, info)
    try:
        write(tmp)
        _commit(tmp, real, target, info)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        raise
    return Path(target)


def save_all_atomic(items: list[tuple[str | os.PathLike[str], Callable[[str], None]]]) -> None:
    """Several files, all or nothing: every ``write(tmp)`` into a temporary file beside its
    path first, then the renames; if any write fails or is interrupted, every temporary file is
    removed and no path is touched. Each path is treated as :func:`save_atomic` treats it."""
    staged: list[tuple[str, str, str, os.stat_result | None]] = []
    try:
        places = [(os.fspath(path), write) for path, write in items]
        for target, write in places:
            real, info = _destination(target)
            tmp = _stage(real, target, info)
            staged.append((tmp, real, target, info))
            write(tmp)
        for tmp, real, target, info in staged:
            _commit(tmp, real, target, info)
    except BaseException:
        for tmp, *_ in staged:
            with contextlib.suppress(OSError):
                os.unlink(tmp)
        raise


def place(tmp: str | os.PathLike[str], path: str | os.PathLike[str]) -> None:
    """Move the finished file ``tmp`` (on the same file system) to ``path`` as
    :func:`save_atomic` would put it there: renamed over a regular file or into the file a
    link names, copied into a device or pipe; OSError naming ``path`` when it is refused."""
    target = os.fspath(path)
    real, info = _destination(target)
    _commit(os.fspath(tmp), real, target, info)


def write_text(path: str | os.PathLike[str], text: str) -> Path:
    """Write ``text`` (UTF-8, newlines as given) to ``path`` with :func:`save_atomic`."""

    def write(tmp: str) -> None:
        with open(tmp, "w", encoding="utf-8", newline="") as f:
            f.write(text)

    return save_atomic(path, write)


def write_bytes(path: str | os.PathLike[str], data: bytes) -> Path:
    """Write ``data`` to ``path`` with :func:`save_atomic`."""

    def write(tmp: str) -> None:
        with open(tmp, "wb") as f:
            f.write(data)

    return save_atomic(path, write)
