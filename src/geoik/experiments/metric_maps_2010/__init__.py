"""Seed 004 (performance metric maps), Sections 4-5: Figs. 6-12 and CCD against CAA.

Every map is N x N pixel centres of [-L, L]^2 solved from the straight pose (``geoik.maps.metric``);
chains have unit links unless stated. The paper's images are lost, so most "published" rows
carry what its text says about them; its only numbers are 67 % against 100 % coverage for CCD
and CAA on one configuration it does not name, CAA's "at most 5 iterations", and "a couple of
seconds" for a 300 x 300 map. Choices the text leaves open, each stated in a table:

- Fig. 8 keeps Fig. 6's i = 10, eps = 0.01 (its caption gives neither).
- Fig. 9 gives only eps = 0.01: it is run with i = 10 (as Figs. 6-8) and i = 20 (as Fig. 11).
- The CCD-against-CAA configuration is not named: n = 3 to 6 with i = 10 and i = 20 are all run.
- Fig. 11 ("4x multi-threaded" in its caption, "without parallel techniques" in the text): the
  300 x 300 maps are timed on one thread and on every core numba uses, for CCD and CAA against n.

The settings and the maps are in :mod:`.study`, the tables in :mod:`.tables` and the figures
in :mod:`.figures`.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import geoik as ik
from geoik.batch.engine import kernels_for
from geoik.experiments._report import ExperimentResult, Progress
from geoik.experiments.metric_maps_2010 import figures, study, tables
from geoik.experiments.metric_maps_2010.study import (
    CAA_ITERS,
    CAA_JOINTS,
    EPS,
    JOINTS,
    QUICK_REPEATS,
    QUICK_SIZE,
    REPEATS,
    SERIES,
    SIZE,
    TIMING_ITER,
    Maps,
    best_time,
    compute,
    doubling,
    lengths,
    make_map,
)

__all__ = [
    "CAA_ITERS",
    "CAA_JOINTS",
    "EPS",
    "JOINTS",
    "NAME",
    "QUICK_REPEATS",
    "QUICK_SIZE",
    "REPEATS",
    "SERIES",
    "SIZE",
    "TIMING_ITER",
    "TITLE",
    "Maps",
    "best_time",
    "compute",
    "doubling",
    "kernels",
    "lengths",
    "make_map",
    "report",
    "run",
]

NAME = "metric-maps-2010"
TITLE = "Performance metric maps: CCD workspace coverage and CAA (seed 004)"


def report(maps: Maps) -> ExperimentResult:
    """The tables and figures of the computed maps (nothing written yet)."""
    res = ExperimentResult(NAME, TITLE)
    res.notes.append(
        f"{maps.size} x {maps.size} pixel centres per map; eps = {study.EPS}; unit links unless "
        "stated; every target from the straight pose. Coverage = reached share of the reachable "
        "pixels."
    )
    res.tables += [tables.figures_table(maps), tables.caa_table(maps), tables.sweeps_table(maps)]
    res.tables.append(tables.timing_table(maps))
    res.figures.update(figures.figures(maps))
    return res


def kernels() -> list[tuple[Any, Any]]:
    """What the experiment's maps compile: CCD's iteration maps (no costs), its path map (the
    costs) and CAA's iteration maps, as :func:`geoik.batch.engine.kernels_for` lists them."""
    chain = ik.Chain.planar([1.0] * 5)
    return [
        *kernels_for(chain, "ccd", costs=False),
        *kernels_for(chain, "ccd", costs=True),
        *kernels_for(chain, "caa", costs=False),
    ]


def run(
    out: Path, seed: int = 0, quick: bool = False, progress: Progress | None = None
) -> ExperimentResult:
    """Run the experiment, write its tables and figures into ``out``, return the result."""
    del seed  # deterministic: every pixel centre is a target
    if quick:
        maps = study.compute(study.QUICK_SIZE, progress, study.QUICK_REPEATS)
    else:
        maps = study.compute(study.SIZE, progress, study.REPEATS)
    res = report(maps)
    res.write(out)
    return res
