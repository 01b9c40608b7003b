"""One progress bar for every long command (maps, sweeps, experiments), on standard error.

On a terminal the bar is redrawn in place at most ``hz`` times a second; when standard error is
a file or a pipe (CI logs, ``2> log``) it prints a plain line at each tenth of the work instead,
at most one every ``QUIET`` seconds and none for work that ends sooner, so logs stay readable.
"""

from __future__ import annotations

import sys
import time
from typing import TextIO

__all__ = ["ProgressBar"]


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

    def __call__(self, done: int, total: int, stage: str = "") -> None:
        self.update(done, total, stage)

    def update(self, done: int, total: int, stage: str = "") -> None:
        """Report that ``done`` of ``total`` units of ``stage`` are finished."""
        total = max(total, 1)
        if stage != self._stage:
            self._stage, self._last_tenth = stage, 0
        finished = done >= total
        now = time.monotonic()
        if self.tty:
            if not finished and now - self._last_draw < self.period:
                return
            self._last_draw = now
            # open before the write: a Ctrl-C that lands while the line goes out (a terminal's
            # stream flushes at the "\r") still finds the line to end
            self._open = True
            self.stream.write("\r" + self._line(done, total, stage, now) + " ")
            if finished:
                self.stream.write("\n")
                self._open = False
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
            self.stream.write("\n")
            self.stream.flush()
            self._open = False

    def _line(self, done: int, total: int, stage: str, now: float) -> str:
        fill = self.WIDTH * min(done, total) // total
        bar = "#" * fill + "-" * (self.WIDTH - fill)
        head = f"{self.label}: {stage} " if stage else f"{self.label}: "
        unit = f" {self.unit}" if self.unit else ""
        spent = now - self.t0
        timing = f"  {spent:.0f} s"
        if 0 < done < total and spent >= 1.0:
            timing += f", ~{spent * (total - done) / done:.0f} s left"
        return f"{head}[{bar}] {done}/{total}{unit}{timing}"
