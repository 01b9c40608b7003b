"""The README's and the user guide's examples work as pasted.

Pages: ``README.md`` and every ``docs/*.md``. Every ``python`` block runs as a script; every
``pycon`` block runs as a doctest (what it shows printed is what it prints); the command lines
of every ``sh`` block run in order in one fresh directory, each exiting 0 and writing the files
it names (but the long-running and interactive ones, installs and benchmarks); ``toml`` blocks
are the files those commands read. Also: the README stays a front page, every guide page is in
the guide's index, and every relative link leads to a file (and heading) that exists.
"""

from __future__ import annotations

import json
import re
import shlex
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
README = ROOT / "README.md"
DOCS = ROOT / "docs"
PAGES = [README, *sorted(DOCS.glob("*.md"))]
FRONT_PAGE_LINES = 250
"""The README is a front page: the rest of the text lives in the guide under docs/."""
OUTPUTS = ("-o", "--output", "--plot", "--data", "--csv")
"""Options whose value is a file the command writes."""
DOCTEST_FLAGS = "doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE"
# not run here: the viewer serves until stopped, the full experiments take a minute (their
# --quick form runs); lines that are neither `geoik ...` nor `python ...` (installs, benchmarks
# run as .venv/bin/python, apt-get) are not examples of use


@dataclass(frozen=True)
class Block:
    """A fenced code block of a page: its language, text and the line its fence opens on."""

    page: Path
    lang: str
    code: str
    line: int
    before: str  # the paragraph just before the block

    @property
    def where(self) -> str:
        return f"{self.page.relative_to(ROOT)}:{self.line}"


def _blocks(page: Path) -> list[Block]:
    """The page's fenced blocks, read line by line (a fence without a language counts too, so
    that its contents are never taken for a block of their own)."""
    out: list[Block] = []
    lines = page.read_text(encoding="utf-8").splitlines()
    prose: list[str] = []
    i = 0
    while i < len(lines):
        if not lines[i].startswith("```"):
            prose.append(lines[i])
            i += 1
            continue
        lang, start = lines[i][3:].strip(), i
        i += 1
        body = []
        while i < len(lines) and not lines[i].startswith("```"):
            body.append(lines[i])
            i += 1
        i += 1
        before = "\n".join(prose).rstrip().split("\n\n")[-1]
        out.append(Block(page, lang, "\n".join(body) + "\n", start + 1, before))
        prose = []
    return out


BLOCKS = [b for page in PAGES for b in _blocks(page)]


def _skipped(line: str) -> bool:
    return line.startswith("geoik view") or (
        line.startswith("geoik experiment") and "--quick" not in line
    )


def _python_blocks() -> list[Block]:
    return [b for b in BLOCKS if b.lang == "python"]


def _pycon_blocks() -> list[Block]:
    return [b for b in BLOCKS if b.lang == "pycon"]


def _lines(code: str) -> list[str]:
    out = []
    for line in code.splitlines():
        line = line.split("  #")[0].strip()
        if line.startswith(("geoik ", "python ")) and not _skipped(line):
            out.append(line)
    return out


def _shell_blocks() -> list[list[str]]:
    """The runnable lines of each shell block that has any."""
    return [lines for b in BLOCKS if b.lang == "sh" if (lines := _lines(b.code))]


def _shell_where() -> list[str]:
    return [b.where for b in BLOCKS if b.lang == "sh" and _lines(b.code)]


def _shell_plans() -> list[tuple[list[str], str]]:
    """The shell blocks to run, each with the places it stands for: a block whose lines begin
    another block (``geoik experiment all --quick`` on the front page and in the reproductions'
    guide) is run once, by the longer one. Each block runs in a fresh directory, so the lines
    they share meet the same files either way."""
    blocks = list(zip(_shell_blocks(), _shell_where(), strict=True))
    plans: list[tuple[list[str], str]] = []
    for lines, _ in blocks:
        longer = [other for other, _ in blocks if len(other) > len(lines)]
        if any(other[: len(lines)] == lines for other in longer):
            continue  # run by the longer block
        if any(lines == other for other, _ in plans):
            continue  # run by the first of equal blocks
        places = [w for other, w in blocks if lines[: len(other)] == other]
        plans.append((lines, "+".join(places)))
    return plans


def _toml_files() -> dict[str, str]:
    """Each TOML block under the file name the paragraph just before it gives
    (`` `arm.toml`: ``); one name, one text, whichever page holds it."""
    out: dict[str, str] = {}
    for b in BLOCKS:
        if b.lang != "toml":
            continue
        names = re.findall(r"`([\w.-]+\.toml)`", b.before)
        assert names, f"{b.where}: a TOML block without a file name before it: {b.before[-200:]!r}"
        assert out.get(names[-1], b.code) == b.code, f"{b.where}: {names[-1]} given twice"
        out[names[-1]] = b.code
    return out


def _written(line: str) -> list[str]:
    args = shlex.split(line)
    return [args[i + 1] for i, a in enumerate(args[:-1]) if a in OUTPUTS]


def test_the_pages_have_examples():
    assert len(_python_blocks()) + len(_pycon_blocks()) >= 10
    assert sum(len(b) for b in _shell_blocks()) >= 20
    assert {"arm.toml", "pins.toml", "knees.toml"} <= set(_toml_files())
    readme = [b for b in BLOCKS if b.page == README]
    assert sum(b.lang in ("python", "pycon") for b in readme) >= 3
    langs = {b.lang for b in BLOCKS}
    assert langs <= {"python", "pycon", "sh", "toml", ""}, langs


def test_the_readme_is_a_front_page():
    lines = README.read_text(encoding="utf-8").count("\n")
    assert lines <= FRONT_PAGE_LINES, f"README.md has {lines} lines; move text into docs/"


def test_every_guide_page_is_in_the_index():
    index = (DOCS / "README.md").read_text(encoding="utf-8")
    listed = set(re.findall(r"\]\(([\w.-]+\.md)\)", index))
    pages = {p.name for p in DOCS.glob("*.md")} - {"README.md"}
    assert pages <= listed, f"not in docs/README.md: {sorted(pages - listed)}"


def _anchor(heading: str) -> str:
    """GitHub's anchor of a heading: lower case, punctuation dropped, spaces as hyphens."""
    text = re.sub(r"[^\w\- ]", "", heading.strip().lower())
    return text.replace(" ", "-")


def _anchors(page: Path) -> set[str]:
    text = re.sub(r"```.*?```", "", page.read_text(encoding="utf-8"), flags=re.S)
    return {_anchor(m.group(1)) for m in re.finditer(r"^#+ (.*)$", text, re.M)}


@pytest.mark.parametrize("page", PAGES, ids=[str(p.relative_to(ROOT)) for p in PAGES])
def test_relative_links_lead_somewhere(page):
    text = re.sub(r"```.*?```", "", page.read_text(encoding="utf-8"), flags=re.S)
    for target in re.findall(r"\]\(([^)\s]+)\)", text):
        if re.match(r"\w+:", target):  # https:, mailto:
            continue
        path, _, anchor = target.partition("#")
        dest = (page.parent / path).resolve() if path else page
        assert dest.exists(), f"{page.name}: link to {target}: no such file"
        if anchor and dest.suffix == ".md":
            assert anchor in _anchors(dest), f"{page.name}: link to {target}: no such heading"


@pytest.mark.parametrize("block", _python_blocks(), ids=[b.where for b in _python_blocks()])
def test_python_example_runs(block, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    proc = subprocess.run(
        [sys.executable, "-c", block.code], capture_output=True, text=True, timeout=600
    )
    assert proc.returncode == 0, proc.stderr[-2000:]


@pytest.mark.parametrize("block", _pycon_blocks(), ids=[b.where for b in _pycon_blocks()])
def test_pycon_example_prints_what_it_shows(block, tmp_path):
    assert block.code.lstrip().startswith(">>> "), f"{block.where}: a pycon block starts >>>"
    (tmp_path / "example.txt").write_text(block.code, encoding="utf-8")
    code = (
        "import doctest, sys\n"
        f"failed, _ = doctest.testfile('example.txt', module_relative=False, "
        f"optionflags={DOCTEST_FLAGS})\n"
        "sys.exit(1 if failed else 0)\n"
    )
    proc = subprocess.run(
        [sys.executable, "-c", code], cwd=tmp_path, capture_output=True, text=True, timeout=600
    )
    assert proc.returncode == 0, (proc.stdout + proc.stderr)[-3000:]


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


def test_every_shell_block_is_run():
    """Each shell block is run: by itself, or as the beginning of a longer one."""
    run = [place for _, where in _shell_plans() for place in where.split("+")]
    assert sorted(run) == sorted(_shell_where())
    for lines, where in _shell_plans():
        for place in where.split("+"):
            ran = _shell_blocks()[_shell_where().index(place)]
            assert lines[: len(ran)] == ran, (place, where)


@pytest.mark.parametrize(
    "lines", [lines for lines, _ in _shell_plans()], ids=[where for _, where in _shell_plans()]
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


def test_the_pose_help_shows_the_guides_examples():
    """``geoik pose --help`` gives lines of the guide, so both stay runnable."""
    from geoik.commands.pose import EXAMPLES

    guide = {line for lines in _shell_blocks() for line in lines}
    shown = [line.strip() for line in EXAMPLES.splitlines()[1:]]
    assert shown and all(line in guide for line in shown), set(shown) - guide
