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


def test_time_left_follows_the_latest_pace(monkeypatch):
    """Work that speeds up part-way (kernels compiled behind it) is estimated at its new pace
    within :attr:`ProgressBar.RECENT` seconds, not at the whole run's average."""
    clock = Clock()
    monkeypatch.setattr(_progress.time, "monotonic", clock)
    stream = io.StringIO()
    bar = ProgressBar("experiment", stream=stream)
    lines = []
    for i in range(1, 1001):
        clock.now += 1.0 if i <= 100 else 0.01  # 100 units at 1/s, then 900 at 100/s
        bar.update(i, 1000)
        lines += stream.getvalue().splitlines()[len(lines) :]

    def left(line):
        return float(line.rsplit("~", 1)[1].split(" s left")[0])

    slow = [line for line in lines if "100/1000" in line]
    assert slow and left(slow[0]) == pytest.approx(900, abs=1)  # 900 units at 1/s
    fast = [line for line in lines if "s left" in line]
    # the last estimate, 3 s or more into the fast pace: what is left at 100/s, where the
    # whole run's average would say about ten times as long
    late = fast[-1]
    done = int(late.split("] ")[1].split("/")[0])
    assert done >= 400
    assert left(late) == pytest.approx((1000 - done) / 100, abs=1)


def test_time_spent_compiling_is_not_counted_as_work(monkeypatch):
    """A wait for kernels compiled in this process does not slow the estimated pace: 50 units
    in 0.1 s, then 10 s compiling, then 50 more in 0.1 s is 500 units a second."""
    clock = Clock()
    compiling = [0.0]
    monkeypatch.setattr(_progress.time, "monotonic", clock)
    monkeypatch.setattr(_progress, "_compiling", lambda: compiling[0])
    stream = io.StringIO()
    bar = ProgressBar("experiment", stream=stream)
    clock.now = 0.1
    bar.update(50, 1000)
    clock.now += 10.1
    compiling[0] += 10.0
    bar.update(100, 1000)
    line = stream.getvalue().splitlines()[0]
    assert line.startswith("experiment: [###") and "100/1000  10 s, ~2 s left" in line  # 1.8 s


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


# --------------------------------------------------------------------------- the compile notice


def notice_run(stream: io.StringIO, reports: list[tuple[int, int, float]], dt: float, monkeypatch):
    clock = Clock()
    monkeypatch.setattr(_progress.time, "monotonic", clock)
    notice = _progress.CompileNotice("geoik map", stream=stream)
    for report in reports:
        clock.now += dt
        notice(*report)
    notice.close()
    return stream.getvalue()


def test_compile_notice_speaks_at_once_then_sparsely_in_logs(monkeypatch):
    reports = [(k, 30, 0.5 * k) for k in range(31)]
    out = notice_run(io.StringIO(), reports, 0.5, monkeypatch)
    lines = out.splitlines()
    assert lines[0].startswith(f"geoik map: {_progress.COMPILING} [")
    assert "0/30 functions" in lines[0]
    assert len(lines) <= 2 + 30 * 0.5 / _progress.CompileNotice.QUIET + 1
    assert lines[-1] == (
        "geoik map: compiled 30 kernel functions in 15.0 s (first run only: numba caches them "
        "for later runs)"
    )
    assert "\r" not in out


def test_compile_notice_redraws_in_place_on_a_terminal(monkeypatch):
    reports = [(k, 12, 0.1 * k) for k in range(13)]
    out = notice_run(Tty(), reports, 0.05, monkeypatch)
    assert out.count("\n") == 1 and out.endswith("\x1b[K\n")
    assert "compiled 12 kernel functions in 1.2 s" in out.rsplit("\r", 1)[-1]


def test_nothing_compiled_nothing_said(monkeypatch):
    assert notice_run(io.StringIO(), [], 1.0, monkeypatch) == ""
    assert notice_run(Tty(), [], 1.0, monkeypatch) == ""


def test_a_bar_and_the_notice_take_turns_on_the_terminal_line(monkeypatch):
    """Whichever draws after the other starts a new line, so neither overwrites the other."""
    clock = Clock()
    monkeypatch.setattr(_progress.time, "monotonic", clock)
    tty = Tty()
    bar = ProgressBar("geoik experiment", stream=tty)
    notice = _progress.CompileNotice("geoik experiment", stream=tty)
    bar.update(1, 10, "maps")
    clock.now += 1.0
    notice(0, 5, 0.0)
    clock.now += 1.0
    bar.update(2, 10, "maps")
    clock.now += 1.0
    bar.update(10, 10, "maps")
    notice.close()
    bar.close()
    lines = tty.getvalue().split("\n")
    assert "1/10" in lines[0] and "2/10" not in lines[0]
    assert _progress.COMPILING in lines[1] and "maps" not in lines[1]
    assert "10/10" in lines[2]
    assert "compiled 0" not in tty.getvalue()  # nothing had finished compiling
    assert tty.getvalue().endswith("\n")


def test_compiling_part_names_the_compile_time():
    assert _progress.compiling_part(0.0) == ""
    assert _progress.compiling_part(8.06) == ", of which 8.1 s compiling kernels (first run only)"
