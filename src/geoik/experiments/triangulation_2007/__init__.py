"""Seed 000 (Müller-Cajar & Mukundan 2007), Sections 4-5: CCD against triangulation.

Set-up as published: targets uniformly random in a box of side 60 centred on the base (a cube:
the experiment is 3-D, see the seeds README), reached = within 0.5, CCD gives up after 99
iterations. Chain A: links 9, 9, 9, 9, 4, free joints. Chain B: 18, 18, 4 with the elbow within
126° and the wrist within 90° of the preceding link (cones; the shoulder is free).

Two readings are left open by the paper and both are run, labelled:

- start: every target from the rest pose ("rest"), or from the pose the previous target left
  ("previous"), as the paper's application moving one target through 10,000 positions may have;
- cost C (its eq. 3, a sum over the joints): the sum of every rotation performed
  ("performed"), or the sum of each joint's net change from start to end ("net").

Means of iterations are taken over the reached targets within reach, as the paper's are ("the
mean also does not include those targets that were unreachable"); means of costs over every
target within reach.

The set-up and the solves are in :mod:`.study`, what the tables read from the runs in
:mod:`.results`, the tables in :mod:`.tables` and Fig. 6 in :mod:`.fig6`.
"""

from __future__ import annotations

from pathlib import Path

from geoik.experiments._report import ExperimentResult, Progress
from geoik.experiments.triangulation_2007 import fig6, results, study, tables
from geoik.experiments.triangulation_2007.study import (
    BOX,
    CHAINS,
    EXTRA,
    FIELDS,
    MAX_ITER,
    MODES,
    PUBLISHED,
    PUBLISHED_METHODS,
    QUICK_TARGETS,
    TARGETS,
    TOL,
    Run,
    ball_radius_inside,
    chains,
    collect,
    cube_outside_ball_fraction,
    methods,
    net_change_deg,
    net_changes_deg,
    run_method,
    targets,
)

__all__ = [
    "BOX",
    "CHAINS",
    "EXTRA",
    "FIELDS",
    "MAX_ITER",
    "MODES",
    "NAME",
    "PUBLISHED",
    "PUBLISHED_METHODS",
    "QUICK_TARGETS",
    "TARGETS",
    "TITLE",
    "TOL",
    "Run",
    "ball_radius_inside",
    "chains",
    "collect",
    "cube_outside_ball_fraction",
    "methods",
    "net_change_deg",
    "net_changes_deg",
    "run",
    "run_method",
    "targets",
]

NAME = "triangulation-2007"
TITLE = "Müller-Cajar & Mukundan 2007: triangulation against CCD (seed 000)"


def run(
    out: Path, seed: int = 0, quick: bool = False, progress: Progress | None = None
) -> ExperimentResult:
    """Run the experiment, write its tables and figure into ``out``, return the result."""
    n = study.QUICK_TARGETS if quick else study.TARGETS
    pts = study.targets(n, seed)
    ms = study.methods()
    data = study.collect(pts, ms, progress)
    reach = {k: c.reach() for k, c in study.chains().items()}
    res = ExperimentResult(NAME, TITLE)
    res.notes.append(
        f"{n} targets uniform in a cube of side {study.BOX:g} (seed {seed}); reached = within "
        f"{study.TOL}; at most {study.MAX_ITER} iterations. Reach of chain A "
        f"{reach['A'][0]:.3f}-{reach['A'][1]:g}, chain B {reach['B'][0]:.3f}-{reach['B'][1]:g}. "
        "geoik columns: every target from the rest pose (straight along +x) / from the pose the "
        "previous target left."
    )
    ctx = results.Context(pts, reach, ms, data)
    res.tables += [tables.main_table(ctx), tables.cost_table(ctx), tables.solver_table(ctx)]
    res.tables.append(fig6.fig6_table(ctx))
    res.figures["fig6"] = fig6.fig6_figure(ctx)
    res.write(out)
    return res
