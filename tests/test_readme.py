"""The README's examples work as pasted: every Python block runs, and every ``geoik`` command
line of its shell blocks exits 0 (but the long-running and interactive ones)."""

from __future__ import annotations

import re
import shlex
import subprocess
import sys
from pathlib import Path

import pytest

README = Path(__file__).resolve().parents[1] / "README.md"
BLOCKS = re.findall(r"```(\w+)\n(.*?)```", README.read_text(encoding="utf-8"), re.S)
# not run here: the viewer serves until stopped, the full experiments take a minute (their
# --quick form runs), installs and benchmarks are not examples of use


def _skipped(line: str) -> bool:
    return line.startswith("geoik view") or (
        line.startswith("geoik experiment") and "--quick" not in line
    )


def _python_blocks() -> list[str]:
    return [code for lang, code in BLOCKS if lang == "python"]


def _commands() -> list[str]:
    out = []
    for lang, code in BLOCKS:
        if lang != "sh":
            continue
        for line in code.splitlines():
            line = line.split("  #")[0].strip()
            if line.startswith("geoik ") and not _skipped(line):
                out.append(line)
    return out


def _toml_block() -> str:
    return next(code for lang, code in BLOCKS if lang == "toml")


def test_the_readme_has_examples():
    assert len(_python_blocks()) >= 3 and len(_commands()) >= 12


@pytest.mark.parametrize("index", range(len(_python_blocks())))
def test_python_example_runs(index, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    code = _python_blocks()[index]
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=600)
    assert proc.returncode == 0, proc.stderr[-2000:]


@pytest.mark.parametrize("command", _commands())
def test_command_example_runs(command, tmp_path):
    (tmp_path / "arm.toml").write_text(_toml_block(), encoding="utf-8")
    args = shlex.split(command)[1:]
    proc = subprocess.run(
        [sys.executable, "-m", "geoik", *args],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert proc.returncode == 0, proc.stderr[-2000:]
    assert "error" not in proc.stderr.lower()
