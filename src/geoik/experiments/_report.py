"""Tables, figures and files of the reproductions: Markdown and CSV, written all at once.

An experiment collects its tables and matplotlib figures in an :class:`ExperimentResult`;
:meth:`ExperimentResult.write` renders them into a hidden staging directory inside the output
directory and only then moves each finished file into place, so an interrupted run leaves the
previous results as they were, never a half-written table or image.
"""

from __future__ import annotations

import contextlib
import csv
import io
import math
import shutil
import tempfile
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from geoik.files import place, write_text

if TYPE_CHECKING:
    from matplotlib.figure import Figure

__all__ = [
    "ExperimentResult",
    "Progress",
    "Table",
    "diff",
    "fmt",
    "mean",
    "staged",
    "write_text",
]

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


def diff(value: float, published: float, digits: int = 2) -> str:
    """``value - published`` with its relative size, e.g. ``+0.39 (+0.4 %)``, ``-3 (-50 %)``."""
    if math.isnan(value):
        return "no value"
    d = value - published
    if published == 0:
        return f"{d:+.{digits}f}"
    rel = 100 * d / abs(published)
    return f"{d:+.{digits}f} ({rel:+.{1 if abs(rel) < 10 else 0}f} %)"


def mean(values: Any) -> float:
    """The mean of a sequence or array, NaN when it is empty."""
    n = len(values)
    return float(sum(values) / n) if n else float("nan")


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
        """The table as GitHub Markdown, its title a level-3 heading, its notes a list."""
        head = "| " + " | ".join(self.columns) + " |"
        rule = "|" + "|".join("---" for _ in self.columns) + "|"
        body = ["| " + " | ".join(fmt(v, self.digits) for v in row) + " |" for row in self.rows]
        text = [f"### {self.title}", "", head, rule, *body]
        if self.notes:
            text += ["", *(f"- {n}" for n in self.notes)]
        return "\n".join(text) + "\n"

    def csv(self) -> str:
        """The table as CSV with a header row; numbers at full precision, empty for None."""
        buf = io.StringIO()
        w = csv.writer(buf, lineterminator="\n")
        w.writerow(self.columns)
        for row in self.rows:
            w.writerow(["" if v is None else v for v in row])
        return buf.getvalue()


@dataclass
class ExperimentResult:
    """What an experiment produced: tables (the first is the main one), figures, files written.

    ``figures`` maps a figure's name to the figure until :meth:`write` saves it as
    ``{name}_{figure}.png``; ``files`` then lists every file written.
    """

    name: str
    title: str
    tables: list[Table] = field(default_factory=list)
    figures: dict[str, Figure] = field(default_factory=dict)
    files: list[Path] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)

    def markdown(self) -> str:
        """The whole report: title, notes, every table, then the figures as images."""
        parts = [f"## {self.title}", ""]
        parts += [f"{n}" for n in self.notes]
        if self.notes:
            parts.append("")
        parts += [t.markdown() for t in self.tables]
        parts += [f"![{self.name} {k}]({self.name}_{k}.png)" for k in self.figures]
        return "\n".join(parts) + "\n"

    def write(self, out: Path) -> None:
        """Write every table as CSV, every figure as PNG and the report as Markdown into ``out``.

        All files are rendered in a staging directory first and moved into ``out`` together
        when every one is complete; the figures on two cores within
        :func:`geoik.render.figure_helper`.
        """
        from geoik.render import save_each

        with staged(out) as stage:
            names = [f"{self.name}_{t.name}.csv" for t in self.tables]
            for t, fname in zip(self.tables, names, strict=True):
                write_text(stage / fname, t.csv())
            figures = {f"{self.name}_{k}.png": fig for k, fig in self.figures.items()}
            save_each([(fig, stage / fname, 120) for fname, fig in figures.items()])
            names += figures
            write_text(stage / f"{self.name}.md", self.markdown())
            names.append(f"{self.name}.md")
        self.files = [out / n for n in names]


@contextlib.contextmanager
def staged(out: Path) -> Iterator[Path]:
    """A hidden directory inside ``out`` whose files replace those of ``out`` on success.

    On any exception (an interruption included) the staging directory is removed and ``out``
    keeps what it had.
    """
    out.mkdir(parents=True, exist_ok=True)
    stage = Path(tempfile.mkdtemp(prefix=".geoik-staging-", dir=out))
    try:
        yield stage
        for f in sorted(stage.iterdir()):
            place(f, out / f.name)
    finally:
        shutil.rmtree(stage, ignore_errors=True)


def band_label(lo: float, hi: float) -> str:
    """A half-open interval as a row label: ``10-20``, ``70+``."""
    return f"{lo:g}+" if math.isinf(hi) else f"{lo:g}-{hi:g}"


def join(values: Sequence[str], sep: str = "; ") -> str:
    """Non-empty parts joined into one note."""
    return sep.join(v for v in values if v)
