"""Ctrl-C (SIGINT) sent to a ``geoik`` process on an event, never after a sleep: whether the
command is still at work when the signal comes must not depend on the machine's speed.

Two ways, both a real SIGINT delivered to a real ``python -m geoik`` process:

- :func:`run_interrupted_at` presses Ctrl-C from inside the process at a named moment: when a
  module starts to be imported (``"import:numpy.linalg"``: NumPy is importing) or when a function
  is first called (``"call:geoik.maps.figures:maps_figure"``: the figure is being drawn). The
  moment cannot be missed: if the command never reaches it, it ends without the signal and the
  caller's check of the exit status fails.
- :func:`ctrl_c_at_first_progress` presses it from outside, as a user would, once the command's
  progress bar (drawn on a terminal: a pseudo-terminal here) reports work done and work left.

Either way the child first takes Python's own SIGINT handler, as it does in a terminal: a
parent run as a background job may have passed SIGINT on ignored (geoik then, rightly, keeps it
ignored), and these tests are about the handled signal.
"""

from __future__ import annotations

import os
import pty
import re
import select
import signal
import subprocess
import sys
from pathlib import Path

__all__ = ["PROGRESS", "Interrupted", "ctrl_c_at_first_progress", "run_interrupted_at"]

STALL = 600.0
"""Seconds without any output after which a command counts as hung (only ever reached when the
code is broken: a cap, not a timing)."""

LAUNCHER = r"""
import importlib, os, runpy, signal, sys

signal.signal(signal.SIGINT, signal.default_int_handler)
moment = sys.argv.pop(1)


def ctrl_c():
    os.kill(os.getpid(), signal.SIGINT)  # os.kill runs the handler before it returns


if moment.startswith("import:"):
    name = moment[len("import:"):]

    class Finder:
        def find_spec(self, fullname, path=None, target=None):
            if fullname == name:
                sys.meta_path.remove(self)
                ctrl_c()
            return None

    if name in sys.modules:
        raise SystemExit(f"launcher: {name} is imported before geoik runs")
    sys.meta_path.insert(0, Finder())
elif moment.startswith("call:"):
    module, _, path = moment[len("call:"):].partition(":")
    owner = importlib.import_module(module)
    *outer, attr = path.split(".")
    for part in outer:
        owner = getattr(owner, part)
    inner = getattr(owner, attr)

    def first_call(*args, **kwargs):
        setattr(owner, attr, inner)
        ctrl_c()
        return inner(*args, **kwargs)

    setattr(owner, attr, first_call)
elif moment != "none":
    raise SystemExit(f"launcher: unknown moment {moment!r}")
sys.argv[0] = "geoik"
runpy.run_module("geoik", run_name="__main__", alter_sys=True)
"""

PROGRESS = re.compile(rb"(\d+)/(\d+) tiles")
"""A progress bar's count: ``done/total tiles``."""


def geoik_command(moment: str = "none") -> list[str]:
    """The command that runs ``python -m geoik`` with Python's SIGINT handler, pressing Ctrl-C at
    ``moment`` (see the module docstring; ``"none"``: never); append geoik's arguments."""
    return [sys.executable, "-c", LAUNCHER, moment]


def run_interrupted_at(
    moment: str, argv: list[str], cwd: str | Path | None = None
) -> subprocess.CompletedProcess:
    """``geoik *argv`` with Ctrl-C pressed at ``moment``; the finished process, text output."""
    return subprocess.run(
        [*geoik_command(moment), *argv],
        cwd=cwd,
        capture_output=True,
        text=True,
        timeout=STALL,
        check=False,
    )


class Interrupted:
    """What :func:`ctrl_c_at_first_progress` saw: the progress count at the Ctrl-C, the exit
    status, standard output and standard error (the terminal's text, ``\\r\\n`` line ends)."""

    def __init__(self, done: int, total: int, returncode: int, stdout: str, stderr: str):
        self.done, self.total = done, total
        self.returncode, self.stdout, self.stderr = returncode, stdout, stderr


def ctrl_c_at_first_progress(
    argv: list[str], cwd: str | Path, env: dict[str, str] | None = None
) -> Interrupted:
    """Run ``geoik *argv`` with standard error on a pseudo-terminal, where the progress bar is
    drawn at the first finished tile; send SIGINT as soon as it shows, and wait for the end."""
    master, slave = pty.openpty()
    proc = subprocess.Popen(
        [*geoik_command(), *argv],
        cwd=cwd,
        env=env,
        stdin=subprocess.DEVNULL,
        stdout=subprocess.PIPE,
        stderr=slave,
    )
    os.close(slave)
    err = b""
    try:
        match = None
        while match is None:
            chunk = _read(master)
            if not chunk:
                break
            err += chunk
            match = PROGRESS.search(err)
        if match is None:
            proc.kill()
            proc.wait()
            raise AssertionError(f"no progress bar before the end: {err.decode(errors='replace')}")
        proc.send_signal(signal.SIGINT)
        out = proc.stdout.read() if proc.stdout is not None else b""  # until the child ends
        while chunk := _read(master):
            err += chunk
        proc.wait(timeout=STALL)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
        if proc.stdout is not None:
            proc.stdout.close()
        os.close(master)
    done, total = (int(x) for x in match.groups())
    return Interrupted(done, total, proc.returncode, out.decode(), err.decode(errors="replace"))


def _read(fd: int) -> bytes:
    """The next bytes the child wrote to the terminal; b"" once it has closed it."""
    ready, _, _ = select.select([fd], [], [], STALL)
    if not ready:
        raise AssertionError(f"no output for {STALL:.0f} s: the command hangs")
    try:
        return os.read(fd, 65536)
    except OSError:  # EIO: every process holding the terminal has ended
        return b""
