"""The set-up of the ``single-pass-2009`` experiment (seed 002): the chain, the ten targets,
the published Tables I-III and Figs. 9-10, the geoik columns, and one measured solve
(:func:`measure`)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np

import geoik as ik
from geoik.solvers import REGISTRY

LENGTHS = [2.0] * 10
TOL = 0.01
MAX_ITER = 100
TARGETS = [
    (15.17, 4.58),
    (8.33, 2.83),
    (-10.58, 2.58),
    (-4.08, 16.0),
    (6.41, -10.08),
    (-17.75, 15.75),
    (3.33, -13.0),
    (-1.08, 6.91),
    (-8.33, 0.33),
    (0.667, 11.33),
]
PUBLISHED_METHODS = ("ccd", "triangulation", "single-pass")
# Tables I, II, III: per target, (CCD, triangulation, proposed)
TABLE_I = [
    (12, 3, 2),
    (9, 6, 10),
    (49, 6, 4),
    (35, 2, 2),
    (25, 6, 6),
    (77, 1, 1),
    (37, 4, 3),
    (17, 8, 9),
    (34, 2, 5),
    (28, 6, 7),
]
TABLE_II = [
    (512.68, 355.17, 96.09),
    (668.19, 879.56, 299.94),
    (2156.80, 228.25, 225.05),
    (1899.72, 171.66, 139.43),
    (914.28, 549.08, 153.99),
    (2753.46, 130.41, 138.41),
    (1238.17, 346.76, 119.74),
    (1281.12, 593.44, 242.92),
    (2067.28, 191.73, 249.20),
    (1350.44, 465.85, 174.50),
]
TABLE_III = [
    (14.05, 83.34, 19.42),
    (14.07, 192.76, 46.35),
    (72.81, 58.27, 52.98),
    (100.64, 44.69, 34.21),
    (36.80, 141.94, 26.17),
    (207.21, 37.39, 37.39),
    (57.72, 94.92, 25.69),
    (31.22, 155.56, 34.33),
    (53.37, 39.21, 56.95),
    (40.29, 128.15, 31.40),
]
FIGURES = {
    "fig9": ((-4.08, 16.0), {"ccd": 100.64, "triangulation": 44.69, "single-pass": 34.31}),
    "fig10": ((3.06, 8.91), {"ccd": 42.57, "triangulation": 19.12, "single-pass": 19.09}),
}
"""Figs. 9-10: the target and the path length printed in each published panel."""
THRESHOLDS = (130.0, 135.0)
"""The single-pass threshold on θk: pseudo-code step 6.3, then the prose."""


@dataclass(frozen=True)
class Column:
    """One geoik column: a solver with its options, and the published method it stands for."""

    label: str
    method: str
    options: tuple[tuple[str, float], ...] = ()
    published: str | None = None


def columns() -> list[Column]:
    """The published methods (single-pass in both readings), then every other 2-D solver."""
    cols = [Column(m, m, published=m) for m in PUBLISHED_METHODS[:2] if m in REGISTRY]
    if "single-pass" in REGISTRY:
        cols += [
            Column(f"single-pass {t:g}°", "single-pass", (("threshold_deg", t),), "single-pass")
            for t in THRESHOLDS
        ]
    extra = sorted(m for m, s in REGISTRY.items() if 2 in s.dims and m not in PUBLISHED_METHODS)
    return cols + [Column(m, m) for m in extra if REGISTRY[m].links[1] is None]


def chord_length(sol: ik.Solution) -> float:
    """Sum of straight-line end-effector displacements, one per recorded step."""
    ends = sol.motion.poses()[:, -1, :]
    return float(np.linalg.norm(np.diff(ends, axis=0), axis=1).sum())


def measure(col: Column, target: tuple[float, float]) -> dict[str, Any]:
    """Solve ``target`` from the straight pose; the solution and the three costs."""
    chain = ik.Chain.planar(LENGTHS)
    options: dict[str, Any] = dict(col.options)
    sol = ik.solve(chain, target, method=col.method, tol=TOL, max_iter=MAX_ITER, **options)
    c = ik.costs(sol)
    return {
        "solution": sol,
        "status": sol.status.name,
        "rotations": c.rotations_over_5deg,
        "sum": c.rotation_sum_deg,
        "arc": c.path_length,
        "chord": chord_length(sol),
    }
