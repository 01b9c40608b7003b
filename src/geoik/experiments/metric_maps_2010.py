"""Seed 004 (performance metric maps), Sections 4-5: Figs. 6-10 and CCD against CAA.

Every map is N x N pixel centres of [-L, L]^2 solved from the straight pose (``geoik.maps``);
chains have unit links unless stated. The paper's images are lost, so most "published" rows
carry what its text says about them; its only numbers are 67 % against 100 % coverage for CCD
and CAA on one configuration it does not name, CAA's "at most 5 iterations" and "a couple of
seconds" for a 300 x 300 map on 4 threads. Choices the text leaves open, each stated in a table:

- Fig. 8 keeps Fig. 6's i = 10, eps = 0.01.
- Fig. 9 gives only eps = 0.01: it is run with i = 10 (as Figs. 6-8) and i = 20 (as Fig. 11).
- The CCD-against-CAA configuration is not named: it is run for n = 3 to 6, i = 20, eps = 0.01.
"""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

import numpy as np

import geoik as ik
from geoik.experiments._report import ExperimentResult, Progress, Table
from geoik.maps import MetricMap, metric_map
from geoik.render import save_figure
from geoik.render_maps import maps_figure, sweep_figure

NAME = "metric-maps-2010"
TITLE = "Performance metric maps: CCD workspace coverage and CAA (seed 004)"
SIZE = 300
QUICK_SIZE = 60
EPS = 0.01
JOINTS = tuple(range(2, 11))


def doubling(n: int) -> list[float]:
    """Lengths doubling from the tip: each link equals the sum of those after it (n=6:
    16, 8, 4, 2, 1, 1)."""
    if n == 1:
        return [1.0]
    return [float(2 ** (n - 2 - i)) for i in range(n - 1)] + [1.0]


def _map(lengths, method, metric, size, max_iter) -> MetricMap:
    chain = ik.Chain.planar(lengths)
    return metric_map(chain, method, metric, size=size, tol=EPS, max_iter=max_iter)


def void_near_start(m: MetricMap, radius: float = 0.1) -> float:
    """Share of reachable pixels within ``radius`` L of the initial end effector that fail."""
    size, half = m.size, m.half
    c = (np.arange(size) + 0.5) / size * 2 * half - half
    x, y = np.meshgrid(c, c)
    near = (np.hypot(x - half, y) <= radius * half) & m.reachable
    return float((near & ~m.reached).sum() / max(near.sum(), 1))


def run(out: Path, seed: int = 0, quick: bool = False, progress: Progress | None = None):
    """Run the experiment, write its tables and figures into ``out``, return the result."""
    del seed  # deterministic: every pixel centre is a target
    size = QUICK_SIZE if quick else SIZE
    out.mkdir(parents=True, exist_ok=True)
    res = ExperimentResult(NAME, TITLE)
    res.notes.append(
        f"{size} x {size} pixel centres per map; eps = {EPS}; unit links unless "
        "stated; every target from the straight pose."
    )
    steps = 7 + 3 * len(JOINTS) + 2 * 4
    done = [0]

    def tick(stage: str) -> None:
        done[0] += 1
        if progress:
            progress(stage, done[0], steps)

    rows: list[tuple[Any, ...]] = []
    fig6 = _map([1.0] * 2, "ccd", "iterations", size, 10)
    tick("fig6")
    t0 = time.perf_counter()
    timed = _map([1.0] * 5, "ccd", "iterations", 300, 20)
    wall = time.perf_counter() - t0
    del timed
    tick("timing")
    fig7 = _map([1.0] * 5, "ccd", "path", size, 10)
    tick("fig7")
    fig8 = [_map([1.0] * n, "ccd", "iterations", size, 10) for n in (3, 4, 5, 6)]
    for _ in fig8:
        tick("fig8")
    res.files.append(save_figure(maps_figure([fig6]), out / f"{NAME}_fig6.png"))
    res.files.append(save_figure(maps_figure([fig7]), out / f"{NAME}_fig7.png"))
    res.files.append(save_figure(maps_figure(fig8), out / f"{NAME}_fig8.png"))
    rows += [
        ("Fig. 6", "CCD iterations, n = 2, i = 10", "a void around the initial end effector",
         f"{100 * void_near_start(fig6):.1f} % of reachable pixels within 0.1 L of it fail",
         f"coverage {100 * fig6.coverage:.1f} %"),
        ("Fig. 7", "CCD path, n = 5, i = 10", "map of distance travelled",
         f"mean {fig7.stats()[0]:.2f}, max {fig7.stats()[1]:.2f}",
         f"coverage {100 * fig7.coverage:.1f} %"),
        ("Fig. 8", "CCD iterations, n = 3-6, i = 10", "more voids as n grows",
         ", ".join(f"n={n}: {100 * m.coverage:.1f} %" for n, m in zip((3, 4, 5, 6), fig8,
                                                                        strict=True)),
         "coverage per n"),
        ("Fig. 11", "300 x 300 CCD map, n = 5, i = 20", "a couple of seconds, 4 threads",
         f"{wall:.2f} s on this machine (2 cores)", "wall time incl. compilation cache"),
    ]  # fmt: skip
    sweeps = {}
    for label, rule, it in (
        ("equal, i = 10", "equal", 10),
        ("equal, i = 20", "equal", 20),
        ("doubling, i = 5", "doubling", 5),
    ):
        cov = []
        for n in JOINTS:
            lengths = [1.0] * n if rule == "equal" else doubling(n)
            cov.append(_map(lengths, "ccd", "iterations", size, it).coverage)
            tick("sweeps")
        sweeps[label] = cov
    res.files.append(
        save_figure(
            sweep_figure(
                JOINTS, sweeps["equal, i = 10"], "CCD coverage, equal links, i = 10 (Fig. 9)"
            ),
            out / f"{NAME}_fig9.png",
        )
    )
    res.files.append(
        save_figure(
            sweep_figure(
                JOINTS, sweeps["doubling, i = 5"], "CCD coverage, doubling links, i = 5 (Fig. 10)"
            ),
            out / f"{NAME}_fig10.png",
        )
    )
    best = {k: JOINTS[int(np.argmax(v))] for k, v in sweeps.items()}
    rows += [
        ("Fig. 9", f"CCD coverage, {k}", "falls once n exceeds 3",
         f"peak at n = {best[k]}; n=2..10: " + ", ".join(f"{100 * c:.0f}" for c in v) + " %",
         "coverage per n") for k, v in sweeps.items() if k.startswith("equal")
    ]  # fmt: skip
    dv = sweeps["doubling, i = 5"]
    rows.append(
        (
            "Fig. 10",
            "CCD coverage, doubling links, i = 5",
            "largely unaffected by n",
            f"range {100 * min(dv):.1f}-{100 * max(dv):.1f} %; n=2..10: "
            + ", ".join(f"{100 * c:.0f}" for c in dv)
            + " %",
            "coverage per n",
        )
    )
    caa_rows, pairs = [], []
    for n in (3, 4, 5, 6):
        ccd_map = _map([1.0] * n, "ccd", "iterations", size, 20)
        tick("caa")
        caa_map = _map([1.0] * n, "caa", "iterations", size, 20)
        tick("caa")
        pairs.append((ccd_map, caa_map))
        caa_rows.append(
            (n, 67.0, 100 * ccd_map.coverage, 100.0, 100 * caa_map.coverage, 5, caa_map.stats()[1])
        )
    res.files.append(save_figure(maps_figure(list(pairs[2])), out / f"{NAME}_fig12.png"))
    res.tables.append(Table("figures", "Published figures against geoik",
                            ("figure", "configuration", "published", "geoik", "reading"),
                            tuple(rows)))  # fmt: skip
    res.tables.append(Table(
        "ccd_vs_caa", "CCD against CAA (Fig. 12), i = 20, eps = 0.01",
        ("n", "CCD coverage pub (%)", "CCD coverage geoik (%)", "CAA coverage pub (%)",
         "CAA coverage geoik (%)", "CAA max iterations pub", "CAA max iterations geoik"),
        tuple(caa_rows),
        ("The paper does not name the chain of its 67 % / 100 % comparison; every n from 3 to 6 "
         "is shown rather than one picked to match.",),
    ))  # fmt: skip
    res.tables.append(Table("sweeps", "Coverage (%) against the number of joints",
                            ("joints", *sweeps), tuple(
                                (n, *(100 * sweeps[k][i] for k in sweeps))
                                for i, n in enumerate(JOINTS))))  # fmt: skip
    res.write(out)
    return res
