"""What a command says on standard error besides its answer: the notice of kernels being
compiled (a first run's, with an empty numba cache), which tests of one-line errors leave out so
that their outcome does not depend on the cache's state."""

from __future__ import annotations

import re

__all__ = ["is_compile_notice", "without_compile_notices"]

_NOTICE = re.compile(r"^geoik [a-z-]+: compil\w* .*kernel")


def is_compile_notice(line: str) -> bool:
    """Whether ``line`` is a command's notice of kernels being compiled (progress or summary)."""
    return bool(_NOTICE.match(line))


def without_compile_notices(err: str) -> str:
    """``err`` without its compile-notice lines (each redraw of a bar ends in ``\\r`` or a new
    line: the pieces are judged one by one)."""
    pieces = re.split(r"(?<=[\r\n])", err)
    return "".join(p for p in pieces if not is_compile_notice(p.lstrip("\r")))
