"""Progress on standard error: one bar for every long command (maps, sweeps, experiments), and
the notice of kernels being compiled, which any command may meet on its first run.

On a terminal a bar is redrawn in place at most ``hz`` times a second; when standard error is
a file or a pipe (CI logs, ``2> log``) it prints a plain line at each tenth of the work instead,
at most one every ``QUIET`` seconds and none for work that ends sooner, so logs stay readable.
The compile notice (:class:`CompileNotice`) says at once that kernels are being compiled, then
how far it has got, and on a pipe ends with one line saying how long it took. On a terminal the
notice and a bar share the line being redrawn: whichever draws next starts a new line.

The time left is estimated from the pace of the last :attr:`ProgressBar.RECENT` seconds, not the
whole run's, and the seconds this process spent compiling kernels meanwhile are not counted as
work: work whose kernels finish compiling part-way (an experiment's solves run as Python until
then, or wait for the compile) speeds up many times over, and the whole run's average would go
on promising minutes that the work no longer needs.
"""

from __future__ import annotations

import contextlib
import sys
import threading
import time
from collections import deque
from collections.abc import Iterator
from typing import Any, TextIO

from geoik.errors import counted

__all__ = ["COMPILING", "CompileNotice", "ProgressBar", "compile_notice", "compiling_part"]

COMPILING = "compiling kernels, first run only"
"""What the notice says while numba compiles: the wait happens once per install, since numba
caches the compiled kernels on disk for later runs."""

_line: dict[int, Any] = {}  # per terminal stream: who has its line open (drawn, not ended)


def _claim(stream: TextIO, owner: Any) -> None:
    """End the line another drawer left open on this terminal, so ``owner`` draws on its own."""
    if _line.get(id(stream), owner) is not owner:
        stream.write("\n")
    _line[id(stream)] = owner


def _owns(stream: TextIO, owner: Any) -> bool:
    return _line.get(id(stream)) is owner


def _release(stream: TextIO, owner: Any) -> None:
    if _owns(stream, owner):
        del _line[id(stream)]


class ProgressBar:
    """A bar: ``label: stage [####------] done/total unit  12 s, ~30 s left``.

    Parameters
    ----------
    label : str
        What the work is (a command or an experiment name).
    unit : str
        What is counted, shown after the numbers (``"tiles"``, ``"targets"``), or empty.
    stream : text stream, optional
        Where to draw; standard error by default.
    hz : float
        Largest number of redraws per second on a terminal.
    """

    WIDTH = 30
    QUIET = 2.0
    RECENT = 3.0
    """Seconds of the latest progress whose pace estimates the time left (the whole run's pace
    until that much has passed)."""

    def __init__(self, label: str, unit: str = "", stream: TextIO | None = None, hz: float = 5.0):
        self.label = label
        self.unit = unit
        self.stream = stream if stream is not None else sys.stderr
        self.tty = bool(getattr(self.stream, "isatty", lambda: False)())
        self.period = 1.0 / hz
        self.t0 = time.monotonic()
        self._last_draw = -float("inf")
        self._last_tenth = 0
        self._printed = False
        self._stage = ""
        self._open = False
        self._c0 = _compiling()
        # (time, done, seconds compiling so far) of this stage's updates
        self._marks: deque[tuple[float, int, float]] = deque()

    def __call__(self, done: int, total: int, stage: str = "") -> None:
        self.update(done, total, stage)

    def update(self, done: int, total: int, stage: str = "") -> None:
        """Report that ``done`` of ``total`` units of ``stage`` are finished."""
        total = max(total, 1)
        now = time.monotonic()
        if stage != self._stage:
            self._stage, self._last_tenth = stage, 0
            self._marks.clear()
        self._mark(now, done)
        finished = done >= total
        if self.tty:
            if not finished and now - self._last_draw < self.period:
                return
            self._last_draw = now
            _claim(self.stream, self)
            # open before the write: a Ctrl-C that lands while the line goes out (a terminal's
            # stream flushes at the "\r") still finds the line to end
            self._open = True
            self.stream.write("\r" + self._line(done, total, stage, now) + " ")
            if finished:
                self.stream.write("\n")
                self._open = False
                _release(self.stream, self)
        else:
            tenth = 10 * done // total
            quiet = now - max(self.t0, self._last_draw) < self.QUIET
            if finished:
                if not self._printed and now - self.t0 < self.QUIET:
                    return
            elif tenth <= self._last_tenth or quiet:
                return
            self._last_tenth, self._last_draw, self._printed = tenth, now, True
            self.stream.write(self._line(done, total, stage, now) + "\n")
        self.stream.flush()

    def close(self) -> None:
        """End a bar left open on a terminal (work interrupted before it finished)."""
        if self._open:
            if _owns(self.stream, self):
                self.stream.write("\n")
                self.stream.flush()
            _release(self.stream, self)
            self._open = False

    def _mark(self, now: float, done: int) -> None:
        """Remember this update, keeping one mark at least :attr:`RECENT` seconds old."""
        marks = self._marks
        marks.append((now, done, _compiling()))
        while len(marks) > 2 and now - marks[1][0] >= self.RECENT:
            marks.popleft()

    def _left(self, done: int, total: int, now: float) -> float | None:
        """Seconds left at the pace since the oldest mark (at least :attr:`RECENT` seconds
        back), or at the whole run's pace before that or when nothing moved since; the seconds
        spent compiling are not counted as work. None when no work time is known."""
        t_old, d_old, c_old = self._marks[0]
        compiling = self._marks[-1][2]
        if now - t_old >= self.RECENT and done > d_old:
            work = now - t_old - (compiling - c_old)
        else:
            d_old, work = 0, now - self.t0 - (compiling - self._c0)
        if work <= 0.0:
            return None
        return work * (total - done) / (done - d_old)

    def _line(self, done: int, total: int, stage: str, now: float) -> str:
        fill = self.WIDTH * min(done, total) // total
        bar = "#" * fill + "-" * (self.WIDTH - fill)
        head = f"{self.label}: {stage} " if stage else f"{self.label}: "
        unit = f" {self.unit}" if self.unit else ""
        spent = now - self.t0
        timing = f"  {spent:.0f} s"
        left = self._left(done, total, now) if 0 < done < total and spent >= 1.0 else None
        if left is not None:
            timing += f", ~{left:.0f} s left"
        return f"{head}[{bar}] {done}/{total}{unit}{timing}"


def _compiling() -> float:
    """Seconds this process has spent compiling geoik's kernels (0 before any kernel was
    imported): a bar does not count them as work when it estimates the time left."""
    jit = sys.modules.get("geoik.jit")
    return float(jit.compile_stats().seconds) if jit is not None else 0.0


class CompileNotice:
    """``label: compiling kernels, first run only [####------] 12/30 functions  6 s``.

    Called back by :func:`geoik.jit.watching` (``notice(done, total, seconds)``) while numba
    compiles geoik's functions, from any thread. On a terminal the line is redrawn in place; in a
    file or pipe the first report prints a line at once, later ones at most one every
    :attr:`QUIET` seconds. :meth:`close` ends the line (a terminal) or prints how long compiling
    took (a file or pipe), if anything was compiled.

    Parameters
    ----------
    label : str
        The command (``"geoik map"``).
    stream : text stream, optional
        Where to write; standard error by default.
    hz : float
        Largest number of redraws per second on a terminal.
    """

    WIDTH = 20
    QUIET = 5.0

    def __init__(self, label: str, stream: TextIO | None = None, hz: float = 5.0):
        self.label = label
        self.stream = stream if stream is not None else sys.stderr
        self.tty = bool(getattr(self.stream, "isatty", lambda: False)())
        self.period = 1.0 / hz
        self.lock = threading.Lock()
        self.done = self.total = 0
        self.seconds = 0.0
        self._last = -float("inf")
        self._drawn = False

    def __call__(self, done: int, total: int, seconds: float) -> None:
        now = time.monotonic()
        with self.lock:
            first = self.done == 0 and self.total == 0
            self.done, self.total, self.seconds = done, max(total, done), seconds
            wait = self.period if self.tty else self.QUIET
            if not first and now - self._last < wait:
                return
            self._last, self._drawn = now, True
            if self.tty:
                _claim(self.stream, self)
                self.stream.write("\r" + self._text() + "\x1b[K")
            else:
                self.stream.write(self._text() + "\n")
            self.stream.flush()

    def _text(self) -> str:
        total = max(self.total, 1)
        fill = self.WIDTH * min(self.done, total) // total
        bar = "#" * fill + "-" * (self.WIDTH - fill)
        return (
            f"{self.label}: {COMPILING} [{bar}] {self.done}/{self.total} functions  "
            f"{self.seconds:.0f} s"
        )

    def close(self) -> None:
        """End the notice: the terminal's line, or one last line in a file or pipe."""
        with self.lock:
            if not self._drawn:
                return
            last = self._summary() if self.done > 0 else None
            if self.tty and _owns(self.stream, self):
                self.stream.write("\r" + (last or self._text()) + "\x1b[K\n")
            elif last is not None:
                self.stream.write(last + "\n")
            _release(self.stream, self)
            self.stream.flush()
            self.done = self.total = 0
            self._drawn = False

    def _summary(self) -> str:
        return (
            f"{self.label}: compiled {counted(self.done, 'kernel function')} in "
            f"{self.seconds:.1f} s "
            "(first run only: numba caches them for later runs)"
        )


@contextlib.contextmanager
def compile_notice(label: str, stream: TextIO | None = None) -> Iterator[CompileNotice]:
    """A :class:`CompileNotice` for the block: told by :func:`geoik.jit.watching` of every
    compilation of geoik's functions in the block, closed at its end."""
    from geoik import jit

    notice = CompileNotice(label, stream)
    try:
        with jit.watching(notice):
            yield notice
    finally:
        notice.close()


def compiling_part(seconds: float) -> str:
    """The words a printed time gets when ``seconds`` of it were spent compiling kernels:
    ``", of which 8.1 s compiling kernels (first run only)"``, or nothing."""
    if seconds < 0.05:
        return ""
    return f", of which {seconds:.1f} s compiling kernels (first run only)"
