"""Tables for the reproductions: Markdown and CSV, written atomically."""

from __future__ import annotations

import contextlib
import csv
import io
import math
import os
import secrets
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

__all__ = ["ExperimentResult", "Progress", "Table", "fmt", "write_text"]

Progress = Callable[[str, int, int], None]
"""progress(stage, done, total): called as work advances; the CLI draws it, the library never
prints."""


def fmt(value: Any, digits: int = 2) -> str:
    """A table cell: numbers rounded, None / NaN as an em dash."""
    if value is None:
        return "—"
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, int):
        return str(value)
    if isinstance(value, float):
        if math.isnan(value):
            return "—"
        return f"{value:.{digits}f}"
    return str(value)


@dataclass(frozen=True)
class Table:
    """A table with a title, column names, rows and notes (one per difference worth noting)."""

    name: str
    title: str
    columns: tuple[str, ...]
    rows: tuple[tuple[Any, ...], ...]
    notes: tuple[str, ...] = ()
    digits: int = 2

    def markdown(self) -> str:
        head = "| " + " | ".join(self.columns) + " |"
        rule = "|" + "|".join("---" for _ in self.columns) + "|"
        body = ["| " + " | ".join(fmt(v, self.digits) for v in row) + " |" for row in self.rows]
        text = [f"### {self.title}", "", head, rule, *body]
        if self.notes:
            text += ["", *(f"- {n}" for n in self.notes)]
        return "\n".join(text) + "\n"

    def csv(self) -> str:
        buf = io.StringIO()
        w = csv.writer(buf, lineterminator="\n")
        w.writerow(self.columns)
        for row in self.rows:
            w.writerow(["" if v is None else v for v in row])
        return buf.getvalue()


@dataclass
class ExperimentResult:
    """What an experiment produced: its tables (the first is the main one) and files written."""

    name: str
    title: str
    tables: list[Table] = field(default_factory=list)
    files: list[Path] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)

    def markdown(self) -> str:
        parts = [f"## {self.title}", ""]
        parts += [f"{n}" for n in self.notes]
        if self.notes:
            parts.append("")
        parts += [t.markdown() for t in self.tables]
        figs = [f for f in self.files if f.suffix == ".png"]
        parts += [f"![{f.stem}]({f.name})" for f in figs]
        return "\n".join(parts) + "\n"

    def write(self, out: Path) -> None:
        """Write every table as CSV and the whole report as Markdown into ``out``."""
        out.mkdir(parents=True, exist_ok=True)
        for t in self.tables:
            self.files.append(write_text(out / f"{self.name}_{t.name}.csv", t.csv()))
        self.files.append(write_text(out / f"{self.name}.md", self.markdown()))


def write_text(path: Path, text: str) -> Path:
    """Write ``text`` to ``path`` atomically: a temporary file beside it, then a rename."""
    tmp = path.parent / f".{path.name}.{secrets.token_hex(6)}.tmp"
    try:
        with open(tmp, "w", encoding="utf-8", newline="") as f:
            f.write(text)
        os.replace(tmp, path)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        raise
    return path


def mean(values: Sequence[float]) -> float:
    return float(sum(values) / len(values)) if values else float("nan")
