"""Seed 002 (Mukundan 2009), Section V: ten targets for a 10-link chain, Tables I-III, Figs. 9-10.

Set-up as published: 10 links of length 2, base at the origin, every solve starting from the
straight pose along +x. CCD runs at most 100 sweeps (the paper's Fig. 2(a) names 100) and, like
every solver here, counts a target reached within ``TOL``; the paper states no tolerance, so the
one its companion study (seed 004) uses, 0.01, is taken.

Readings the paper leaves open, each run and labelled:

- single-pass threshold on θk: 130° in the pseudo-code (step 6.3), 135° in the prose; the two
  are the columns ``single-pass 130°`` and ``single-pass 135°``;
- Table III: "arc", the true length of the path the end effector traces (``geoik.costs``), and
  "chord", the sum of the straight-line end-effector displacements, one per recorded step, which
  is what the published CCD column agrees with (seeds README).

The set-up and the solves are in :mod:`.study`, the tables in :mod:`.tables` and the trace
figures in :mod:`.figures`.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from geoik import jit
from geoik.experiments._report import ExperimentResult, Progress
from geoik.experiments.single_pass_2009 import figures, study, tables
from geoik.experiments.single_pass_2009.study import (
    FIGURES,
    LENGTHS,
    MAX_ITER,
    PUBLISHED_METHODS,
    TABLE_I,
    TABLE_II,
    TABLE_III,
    TARGETS,
    THRESHOLDS,
    TOL,
    Column,
    chord_length,
    columns,
    measure,
)

__all__ = [
    "FIGURES",
    "LENGTHS",
    "MAX_ITER",
    "NAME",
    "PUBLISHED_METHODS",
    "TABLE_I",
    "TABLE_II",
    "TABLE_III",
    "TARGETS",
    "THRESHOLDS",
    "TITLE",
    "TOL",
    "Column",
    "chord_length",
    "columns",
    "measure",
    "run",
]

NAME = "single-pass-2009"
TITLE = "Mukundan 2009: single-pass triangulation against CCD and triangulation (seed 002)"


def run(
    out: Path, seed: int = 0, quick: bool = False, progress: Progress | None = None
) -> ExperimentResult:
    """Run the experiment, write its tables and figures into ``out``, return the result."""
    del seed, quick  # fully determined: ten fixed targets from the straight pose
    cols = study.columns()
    targets = study.TARGETS
    points = [*targets, *(t for t, _ in study.FIGURES.values())]
    total = len(cols) * len(points)
    results: dict[str, list[dict[str, Any]]] = {}
    with jit.job(total) as work:  # a few solves each: as plain Python unless compiling pays
        for i, col in enumerate(cols):
            results[col.label] = []
            for j, t in enumerate(points):
                results[col.label].append(study.measure(col, t))
                work.step()
                if progress:
                    progress("targets", i * len(points) + j + 1, total)
    res = ExperimentResult(NAME, TITLE)
    res.notes.append(
        f"10 links of length 2 from the straight pose; tol {study.TOL}; CCD at most "
        f"{study.MAX_ITER} sweeps. 'pub' = published, 'geoik' = this run; single-pass with the "
        "threshold on θk of the pseudo-code (130°) and of the prose (135°)."
    )
    ctx = tables.Context(cols, {k: v[: len(targets)] for k, v in results.items()})
    res.tables += tables.published_tables(ctx)
    figs = {
        k: {c: v[len(targets) + i] for c, v in results.items()} for i, k in enumerate(study.FIGURES)
    }
    res.tables.append(tables.figures_table(cols, figs))
    res.tables.append(tables.status_table(ctx))
    for name, per_col in figs.items():
        res.figures[name] = figures.trace_figure(name, cols, per_col)
    res.write(out)
    return res
