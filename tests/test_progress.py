"""The progress bar of long commands: redrawn in place on a terminal, sparse lines in logs."""

from __future__ import annotations

import io

import pytest

from geoik.commands import _progress
from geoik.commands._progress import ProgressBar


class Clock:
    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        return self.now


class Tty(io.StringIO):
    def isatty(self) -> bool:
        return True


def run(stream: io.StringIO, steps: int, dt: float, monkeypatch, stage: str = "") -> str:
    clock = Clock()
    monkeypatch.setattr(_progress.time, "monotonic", clock)
    bar = ProgressBar("geoik map", unit="tiles", stream=stream)
    for i in range(1, steps + 1):
        clock.now += dt
        bar.update(i, steps, stage)
    return stream.getvalue()


def test_log_gets_one_line_per_tenth_at_most(monkeypatch):
    out = run(io.StringIO(), 100, 1.0, monkeypatch)
    lines = out.splitlines()
    assert 5 <= len(lines) <= 11
    assert lines[-1].startswith("geoik map: [" + "#" * 30 + "] 100/100 tiles")
    assert "\r" not in out


def test_quick_work_leaves_logs_alone(monkeypatch):
    assert run(io.StringIO(), 50, 0.01, monkeypatch) == ""


def test_terminal_redraws_in_place_and_ends_the_line(monkeypatch):
    out = run(Tty(), 1000, 0.01, monkeypatch, stage="tiles")
    assert out.count("\r") <= 1000 * 0.01 * 5 + 2  # at most 5 redraws a second, plus the last
    assert out.endswith("\n") and out.count("\n") == 1
    assert "1000/1000" in out.rsplit("\r", 1)[-1]


def test_time_left_is_estimated(monkeypatch):
    out = run(io.StringIO(), 10, 3.0, monkeypatch)
    assert "~27 s left" in out.splitlines()[0]  # 1 of 10 done after 3 s


class InterruptedTty(Tty):
    """A terminal on which a Ctrl-C lands while the first line goes out."""

    def write(self, text: str) -> int:
        n = super().write(text)
        if self.getvalue() == text:
            raise KeyboardInterrupt
        return n


def test_a_ctrl_c_while_the_bar_is_drawn_still_ends_its_line():
    stream = InterruptedTty()
    bar = ProgressBar("geoik map", unit="tiles", stream=stream)
    with pytest.raises(KeyboardInterrupt):
        bar.update(1, 10)
    bar.close()
    assert stream.getvalue().startswith("\rgeoik map: [") and stream.getvalue().endswith(" \n")
    assert stream.getvalue().count("\n") == 1
