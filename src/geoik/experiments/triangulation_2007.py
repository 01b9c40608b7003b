"""Seed 000 (Müller-Cajar & Mukundan 2007), Sections 4-5: CCD against triangulation.

Set-up as published: targets uniformly random in a box of side 60 centred on the base (a cube:
the experiment is 3-D, see the seeds README), reached = within 0.5, CCD gives up after 99
iterations. Chain A: links 9, 9, 9, 9, 4, free joints. Chain B: 18, 18, 4 with the elbow within
126° and the wrist within 90° of the preceding link (cones; the shoulder is free).

Two readings are left open by the paper and both are run, labelled:

- start: every target from the rest pose ("rest"), or from the pose the previous target left
  ("previous"), as an interactive application would;
- cost C (its eq. 3, a sum over the joints): the sum of every rotation performed
  ("performed"), or the sum of each joint's net change from start to end ("net").

Means of iterations and costs are taken over the targets within reach, as the paper's are.
"""

from __future__ import annotations

import math
from pathlib import Path
from typing import Any

import numpy as np

import geoik as ik
from geoik import geometry as g
from geoik.experiments._report import ExperimentResult, Progress, Table
from geoik.solvers import REGISTRY

NAME = "triangulation-2007"
TITLE = "Müller-Cajar & Mukundan 2007: triangulation against CCD (seed 000)"
BOX = 60.0
TOL = 0.5
MAX_ITER = 99
TARGETS = 10_000
QUICK_TARGETS = 400
PUBLISHED_METHODS = ("ccd", "triangulation")
EXTRA = ("fabrik", "single-pass", "circles", "dls")
MODES = ("rest", "previous")
PUBLISHED = {
    "out_of_reach_pct": 8.27,
    "more_unreachable_B_pct": 2.23,
    "ccd_within20_A_pct": 92.12,
    "ccd_within20_B_pct": 92.97,
    "ccd_mean_iter_A": 8.351,
    "ccd_mean_iter_B": 8.727,
    "cost_ccd_A": 315.5,
    "cost_ccd_B": 173.9,
    "cost_triangulation_A": 159.9,
    "cost_triangulation_B": 141.5,
}


def chains() -> dict[str, ik.Chain]:
    return {
        "A": ik.Chain.spatial([9, 9, 9, 9, 4]),
        "B": ik.Chain.spatial([18, 18, 4], max_bend_deg=[None, 126, 90]),
    }


def cube_outside_ball_fraction(half: float, radius: float, steps: int = 20001) -> float:
    """Fraction of the cube [-half, half]^3 outside the ball of ``radius`` about its centre.

    Integrates over z the exact area of a disc intersected with a square (Simpson's rule).
    """
    z = np.linspace(-half, half, steps)
    rho = np.sqrt(np.maximum(radius**2 - z**2, 0.0))
    area = np.empty_like(rho)
    for i, r in enumerate(rho):
        if r <= half:
            area[i] = math.pi * r * r
        elif r >= half * math.sqrt(2.0):
            area[i] = 4 * half * half
        else:
            seg = r * r * math.acos(half / r) - half * math.sqrt(r * r - half * half)
            area[i] = math.pi * r * r - 4 * seg
    h = z[1] - z[0]
    w = np.ones(steps)
    w[1:-1:2], w[2:-1:2] = 4, 2
    inside = float(h / 3 * np.dot(w, area))
    return 1.0 - inside / (2 * half) ** 3


def targets(n: int, seed: int) -> np.ndarray:
    rng = np.random.default_rng(seed)
    return rng.uniform(-BOX / 2, BOX / 2, size=(n, 3))


def net_change_deg(sol: ik.Solution) -> float:
    """Sum over joints of the angle between each joint's start and final rotation, degrees."""
    keys = sol.motion.keys
    a, b = keys[0], keys[-1]
    total = 0.0
    for j in range(a.shape[0]):
        d = g.qmul(*b[j], a[j, 0], -a[j, 1], -a[j, 2], -a[j, 3])
        total += g.q_angle(*d)
    return math.degrees(total)


def methods() -> list[str]:
    return [m for m in (*PUBLISHED_METHODS, *EXTRA) if m in REGISTRY and 3 in REGISTRY[m].dims]


def run_method(chain: ik.Chain, method: str, pts: np.ndarray, mode: str, tick=None):
    """Per-target arrays: reached, iterations, performed and net cost (degrees)."""
    n = len(pts)
    out = {k: np.zeros(n) for k in ("reached", "iterations", "performed", "net")}
    start = None
    for i, t in enumerate(pts):
        sol = ik.solve(chain, t, method=method, tol=TOL, max_iter=MAX_ITER, start=start)
        out["reached"][i] = sol.status is ik.Status.REACHED
        out["iterations"][i] = sol.iterations
        out["performed"][i] = ik.costs(sol).rotation_sum_deg
        out["net"][i] = net_change_deg(sol)
        if mode == "previous":
            start = sol.pose
        if tick:
            tick()
    return out


def run(out: Path, seed: int = 0, quick: bool = False, progress: Progress | None = None):
    """Run the experiment, write its tables into ``out``, return the result."""
    n = QUICK_TARGETS if quick else TARGETS
    pts = targets(n, seed)
    ms = methods()
    cs = chains()
    total = n * len(ms) * len(cs) * len(MODES)
    done = [0]

    def tick() -> None:
        done[0] += 1
        if progress and (done[0] % 50 == 0 or done[0] == total):
            progress("solves", done[0], total)

    dist = np.linalg.norm(pts, axis=1)
    reach = {k: c.reach() for k, c in cs.items()}
    within = {k: (dist >= reach[k][0]) & (dist <= reach[k][1]) for k in cs}
    data: dict[tuple[str, str, str], dict[str, np.ndarray]] = {}
    for ck, chain in cs.items():
        for m in ms:
            for mode in MODES:
                data[ck, m, mode] = run_method(chain, m, pts, mode, tick)
    res = ExperimentResult(NAME, TITLE)
    res.notes.append(
        f"{n} targets uniform in a cube of side {BOX:g} (seed {seed}); reached = within {TOL}; "
        f"at most {MAX_ITER} iterations. Reach of chain A {reach['A'][0]:.3f}-{reach['A'][1]:g},"
        f" chain B {reach['B'][0]:.3f}-{reach['B'][1]:g}."
    )
    res.tables.append(_main_table(pts, dist, reach, within, data, n))
    res.tables.append(_methods_table(ms, cs, within, data))
    res.write(out)
    return res


def _pct(mask: np.ndarray) -> float:
    return 100.0 * float(mask.mean()) if mask.size else float("nan")


def _main_table(pts, dist, reach, within, data, n) -> Table:
    expected = 100 * cube_outside_ball_fraction(BOX / 2, 40.0)
    sigma = 100 * math.sqrt(expected / 100 * (1 - expected / 100) / n)
    rows: list[tuple[Any, ...]] = [
        ("targets out of reach (%)", PUBLISHED["out_of_reach_pct"], _pct(dist > 40.0),
         _pct(dist > 40.0), f"cube geometry predicts {expected:.2f} ± {sigma:.2f}"),
        ("further unreachable by chain B (%)", PUBLISHED["more_unreachable_B_pct"],
         _pct((dist <= 40.0) & (dist < reach["B"][0])),
         _pct((dist <= 40.0) & (dist < reach["B"][0])),
         f"targets nearer than chain B's minimum reach {reach['B'][0]:.3f}"),
    ]  # fmt: skip
    for ck in ("A", "B"):
        w = within[ck]
        vals, its = [], []
        for mode in MODES:
            d = data[ck, "ccd", mode]
            ok = (d["reached"] > 0) & (d["iterations"] <= 20) & w
            vals.append(100 * ok.sum() / max(w.sum(), 1))
            reached = (d["reached"] > 0) & w
            its.append(float(d["iterations"][reached].mean()) if reached.any() else math.nan)
        rows.append(
            (
                f"CCD reached within 20 iterations, chain {ck} (%)",
                PUBLISHED[f"ccd_within20_{ck}_pct"],
                *vals,
                "of targets within reach",
            )
        )
        rows.append(
            (
                f"CCD mean iterations, chain {ck}",
                PUBLISHED[f"ccd_mean_iter_{ck}"],
                *its,
                "over reached targets within reach",
            )
        )
    for m in PUBLISHED_METHODS:
        for ck in ("A", "B"):
            if (ck, m, "rest") not in data:
                continue
            w = within[ck]
            for reading in ("performed", "net"):
                vals = [float(data[ck, m, mode][reading][w].mean()) for mode in MODES]
                rows.append(
                    (
                        f"mean cost C, {m}, chain {ck}, {reading} (°)",
                        PUBLISHED[f"cost_{m}_{ck}"],
                        *vals,
                        "over targets within reach",
                    )
                )
    notes = (
        "geoik columns: every target from the rest pose / from the previous target's pose.",
        "'performed' sums every rotation made; 'net' sums each joint's change from start to "
        "end. The paper's C is one of these; which one it does not say.",
    )
    return Table("main", "Published against geoik", ("quantity", "published", "geoik (rest)",
                 "geoik (previous)", "note"), tuple(rows), notes)  # fmt: skip


def _methods_table(ms, cs, within, data) -> Table:
    rows = []
    for ck in cs:
        w = within[ck]
        for m in ms:
            for mode in MODES:
                d = data[ck, m, mode]
                reached = (d["reached"] > 0) & w
                rows.append(
                    (
                        ck,
                        m,
                        mode,
                        100 * reached.sum() / max(w.sum(), 1),
                        float(d["iterations"][reached].mean()) if reached.any() else None,
                        float(d["performed"][w].mean()),
                        float(d["net"][w].mean()),
                    )
                )
    return Table("methods", "Every solver on both chains (targets within reach)",
                 ("chain", "method", "start", "reached %", "mean iterations",
                  "mean cost performed (°)", "mean cost net (°)"), tuple(rows))  # fmt: skip
