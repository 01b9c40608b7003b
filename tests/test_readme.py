"""The README's examples work as pasted: every Python block runs, and the command lines of every
shell block run in order in one fresh directory, each exiting 0 and writing the files it names
(but the long-running and interactive ones, installs and benchmarks)."""

from __future__ import annotations

import json
import re
import shlex
import subprocess
import sys
from pathlib import Path

import pytest

README = Path(__file__).resolve().parents[1] / "README.md"
TEXT = README.read_text(encoding="utf-8")
FENCE = re.compile(r"```(\w+)\n(.*?)```", re.S)
BLOCKS = [(m.group(1), m.group(2), m.start()) for m in FENCE.finditer(TEXT)]
OUTPUTS = ("-o", "--output", "--plot", "--data", "--csv")
"""Options whose value is a file the command writes."""
# not run here: the viewer serves until stopped, the full experiments take a minute (their
# --quick form runs); lines that are neither `geoik ...` nor `python ...` (installs, benchmarks
# run as .venv/bin/python, apt-get) are not examples of use


def _skipped(line: str) -> bool:
    return line.startswith("geoik view") or (
        line.startswith("geoik experiment") and "--quick" not in line
    )


def _python_blocks() -> list[str]:
    return [code for lang, code, _ in BLOCKS if lang == "python"]


def _lines(code: str) -> list[str]:
    out = []
    for line in code.splitlines():
        line = line.split("  #")[0].strip()
        if line.startswith(("geoik ", "python ")) and not _skipped(line):
            out.append(line)
    return out


def _shell_blocks() -> list[list[str]]:
    """The runnable lines of each shell block that has any."""
    return [lines for lang, code, _ in BLOCKS if lang == "sh" if (lines := _lines(code))]


def _toml_files() -> dict[str, str]:
    """Each TOML block under the file name the text just before it gives (`` `arm.toml`: ``)."""
    out = {}
    end = 0
    for m in FENCE.finditer(TEXT):
        if m.group(1) == "toml":
            before = TEXT[end : m.start()].rstrip().split("\n\n")[-1]
            names = re.findall(r"`([\w.-]+\.toml)`", before)
            assert names, f"a TOML block without a file name before it: {before[-200:]!r}"
            out[names[-1]] = m.group(2)
        end = m.end()
    return out


def _written(line: str) -> list[str]:
    args = shlex.split(line)
    return [args[i + 1] for i, a in enumerate(args[:-1]) if a in OUTPUTS]


def test_the_readme_has_examples():
    assert len(_python_blocks()) >= 3
    assert sum(len(b) for b in _shell_blocks()) >= 12
    assert {"arm.toml", "pins.toml", "knees.toml"} <= set(_toml_files())


@pytest.mark.parametrize("index", range(len(_python_blocks())))
def test_python_example_runs(index, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    code = _python_blocks()[index]
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=600)
    assert proc.returncode == 0, proc.stderr[-2000:]


BLOCK = r"""
import contextlib, io, json, os, subprocess, sys
from geoik.commands.cli import main

done = []
for args, outputs in json.load(sys.stdin):
    if args[0] == "python":
        proc = subprocess.run([sys.executable, *args[1:]], capture_output=True, text=True)
        status, err = proc.returncode, proc.stderr
    else:
        err_text = io.StringIO()
        with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(err_text):
            status = main(args[1:])
        err = err_text.getvalue()
    missing = [out for out in outputs if not os.path.isfile(out)]
    done.append({"status": status, "stderr": err[-2000:], "missing": missing})
    if status != 0:
        break
print(json.dumps(done))
"""
"""Runs the lines of a shell block in order, in one process as ``geoik`` would run each (its
``main``; ``python`` lines in a process of their own), so that a block pays Python's, NumPy's and
numba's start once; reports each line's exit status, standard error and files not written."""


@pytest.mark.parametrize(
    "lines", _shell_blocks(), ids=[b[0].split("  ")[0][:40] for b in _shell_blocks()]
)
def test_shell_example_runs(lines, tmp_path):
    for name, text in _toml_files().items():
        (tmp_path / name).write_text(text, encoding="utf-8")
    plan = [(shlex.split(line), _written(line)) for line in lines]
    proc = subprocess.run(
        [sys.executable, "-c", BLOCK],
        input=json.dumps(plan),
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=1800,
    )
    assert proc.returncode == 0, proc.stderr[-2000:]
    done = json.loads(proc.stdout.strip().splitlines()[-1])
    for line, run in zip(lines, done, strict=False):
        assert run["status"] == 0, (line, run["stderr"])
        assert "error" not in run["stderr"].lower(), (line, run["stderr"])
        assert run["missing"] == [], (line, run["missing"])
    assert len(done) == len(lines)


def test_the_pose_help_shows_the_readmes_examples():
    """``geoik pose --help`` gives the README's lines, so both stay runnable."""
    from geoik.commands.pose import EXAMPLES

    readme = {line for lines in _shell_blocks() for line in lines}
    shown = [line.strip() for line in EXAMPLES.splitlines()[1:]]
    assert shown and all(line in readme for line in shown), set(shown) - readme
