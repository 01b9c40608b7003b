"""Seed 000's Fig. 6 (CCD iterations against the start distance and angle) as rows, a table and
a figure for the ``triangulation-2007`` experiment."""

from __future__ import annotations

import math
from typing import TYPE_CHECKING, Any

import numpy as np

from geoik.experiments._report import Table, band_label
from geoik.experiments._stats import band_means, rank_correlation
from geoik.experiments.triangulation_2007 import study

if TYPE_CHECKING:
    from matplotlib.figure import Figure

    from geoik.experiments.triangulation_2007.results import Context

DIST_BANDS = (0.0, 10.0, 20.0, 30.0, 40.0, 50.0, 60.0, 70.0, math.inf)
ANGLE_BANDS = (0.0, 30.0, 60.0, 90.0, 120.0, 150.0, 180.0)


def _ccd_fig6(ctx: Context, ck: str, mode: str, key: str) -> tuple[np.ndarray, np.ndarray]:
    """(start distance or angle, iterations) of CCD's reached targets within reach."""
    ok = ctx.reached(ck, "ccd", mode)
    d = ctx.data[ck, "ccd", mode]
    return d[key][ok], d["iterations"][ok]


def _growth_per_10(x: np.ndarray, y: np.ndarray) -> float:
    """exp(10 k) of the least-squares fit log(y) = k x + c over y > 0."""
    ok = y > 0
    if ok.sum() < 2:
        return math.nan
    k = np.polyfit(x[ok], np.log(y[ok]), 1)[0]
    return float(math.exp(10 * k))


def _sign(rho: list[float]) -> str:
    return "agrees, positive from both starts" if all(r > 0 for r in rho) else "differs in sign"


def fig6_rows(ctx: Context) -> list[tuple[Any, ...]]:
    """Rows of the main table for Fig. 6: rank correlations with a note each."""
    rows = []
    for ck in study.CHAINS:
        rho = [rank_correlation(*_ccd_fig6(ctx, ck, mode, "start_dist")) for mode in study.MODES]
        x, y = _ccd_fig6(ctx, ck, "rest", "start_dist")
        means = [
            (m, band_label(lo, hi))
            for (m, c), lo, hi in zip(
                band_means(x, y, DIST_BANDS), DIST_BANDS[:-1], DIST_BANDS[1:], strict=True
            )
            if c
        ]
        note = (
            f"{_sign(rho)}; published as a plot (lost) and the words 'increases exponentially'; "
            "rest: mean "
            f"{means[0][0]:.1f} ({means[0][1]}) to {means[-1][0]:.1f} ({means[-1][1]}), "
            f"×{_growth_per_10(x, y):.2f} per 10 units (log-linear fit)"
            if means
            else "no reached targets"
        )
        rows.append(
            (
                f"Fig. 6: CCD iterations against start distance, chain {ck} (rank correlation)",
                "positive",
                *rho,
                note,
            )
        )
    for ck in study.CHAINS:
        rho = [rank_correlation(*_ccd_fig6(ctx, ck, mode, "start_angle")) for mode in study.MODES]
        rows.append(
            (
                f"Fig. 6: CCD iterations against start angle, chain {ck} (rank correlation)",
                "positive",
                *rho,
                f"{_sign(rho)}; {_ANGLE_NOTE}",
            )
        )
    return rows


_ANGLE_NOTE = (
    "published in words only ('as it increases so does the number of iterations'); the angle "
    "at the base between the chain's end effector and the target"
)


def fig6_table(ctx: Context) -> Table:
    """Fig. 6 as numbers: CCD's mean iterations per band of start distance and start angle."""
    rows = []
    for key, label, edges in (
        ("start_dist", "start distance", DIST_BANDS),
        ("start_angle", "start angle (°)", ANGLE_BANDS),
    ):
        per = {
            (ck, mode): band_means(*_ccd_fig6(ctx, ck, mode, key), edges)
            for ck in study.CHAINS
            for mode in study.MODES
        }
        for i, (lo, hi) in enumerate(zip(edges[:-1], edges[1:], strict=True)):
            row: list[Any] = [label, band_label(lo, hi)]
            for k in per:
                mean_it, count = per[k][i]
                row += [mean_it, count]
            rows.append(tuple(row))
    cols = ["by", "band"]
    for ck in study.CHAINS:
        for mode in study.MODES:
            cols += [f"{ck} {mode} mean", f"{ck} {mode} n"]
    notes = (
        "CCD iterations of the reached targets within reach. Start distance: from the end "
        "effector before the solve to the target; start angle: at the base, between the end "
        "effector before the solve and the target.",
    )
    title = "Fig. 6: CCD mean iterations against the start distance and angle"
    return Table("fig6", title, tuple(cols), tuple(rows), notes)


def fig6_figure(ctx: Context) -> Figure:
    """CCD iterations against start distance (top) and start angle (bottom), chains A and B."""
    from matplotlib.figure import Figure

    fig = Figure(figsize=(10.0, 7.5), layout="constrained")
    axes = fig.subplots(2, 2)
    for col, ck in enumerate(study.CHAINS):
        for row, (key, label, edges) in enumerate(
            (
                ("start_dist", "distance from the end effector to the target", DIST_BANDS),
                ("start_angle", "angle at the base, chain to target (°)", ANGLE_BANDS),
            )
        ):
            ax = axes[row][col]
            x, y = _ccd_fig6(ctx, ck, "rest", key)
            ax.scatter(x, y, s=3, alpha=0.3, color="tab:blue", lw=0, label="rest, each target")
            for mode, colour in zip(study.MODES, ("tab:blue", "tab:orange"), strict=True):
                xm, ym = _ccd_fig6(ctx, ck, mode, key)
                stats = band_means(xm, ym, edges)
                hi = [
                    h if math.isfinite(h) else lo + 10
                    for lo, h in zip(edges[:-1], edges[1:], strict=True)
                ]
                mids = [0.5 * (lo + h) for lo, h in zip(edges[:-1], hi, strict=True)]
                ax.plot(mids, [m for m, _ in stats], "o-", color=colour, label=f"{mode}, band mean")
            ax.set_xlabel(label, fontsize=8)
            ax.set_ylabel("CCD iterations", fontsize=8)
            ax.set_title(f"chain {ck}: {study.chains()[ck].describe()}", fontsize=9)
            ax.tick_params(labelsize=7)
            ax.legend(fontsize=7)
    fig.suptitle(
        "Seed 000 Fig. 6: CCD iterations against the start distance and angle", fontsize=10
    )
    return fig
