"""Figures of the ``metric-maps-2010`` experiment, laid out as seed 004 describes them."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING

from geoik.experiments.metric_maps_2010 import study
from geoik.maps.metric import MetricMap

if TYPE_CHECKING:
    from matplotlib.figure import Figure

__all__ = ["figures"]


def _grid(maps: Sequence[MetricMap | None], rows: int, cols: int, title: str) -> Figure:
    """Maps on a rows x cols grid (None leaves a cell empty), with a title."""
    from matplotlib.figure import Figure

    from geoik.maps.figures import draw_map

    fig = Figure(figsize=(5.0 * cols, 5.0 * rows), layout="constrained")
    axes = fig.subplots(rows, cols, squeeze=False).ravel()
    for ax, m in zip(axes, maps, strict=True):
        if m is None:
            ax.set_visible(False)
        else:
            draw_map(ax, m)
    fig.suptitle(title, fontsize=10)
    return fig


def _lines(
    series: Mapping[str, Sequence[float]], ylabel: str, title: str, ylim: tuple[float, float] | None
) -> Figure:
    """Values against the number of joints, one line per labelled series."""
    from matplotlib.figure import Figure

    fig = Figure(figsize=(6.4, 4.2), layout="constrained")
    ax = fig.subplots()
    for label, values in series.items():
        ax.plot(list(study.JOINTS), list(values), "o-", label=label)
    ax.set_xlabel("number of joints n")
    ax.set_ylabel(ylabel)
    if ylim is not None:
        ax.set_ylim(*ylim)
    ax.set_xticks(list(study.JOINTS))
    ax.grid(True, alpha=0.3)
    ax.legend(fontsize=8)
    ax.set_title(title, fontsize=9)
    return fig


def _coverage(maps: study.Maps, labels: Sequence[str], title: str) -> Figure:
    series = {
        label: [100 * maps.sweeps[label][n].coverage for n in study.JOINTS] for label in labels
    }
    return _lines(series, "workspace coverage (%)", title, (0, 105))


def figures(maps: study.Maps) -> dict[str, Figure]:
    """Figs. 6-12 by name (``fig6`` ...)."""
    assert maps.path is not None
    first = "equal, i = 10"
    # Fig. 8: "clockwise from top left, n = 3, n = 4, n = 5 and n = 6"
    fig8 = [maps.ccd(3, 10), maps.ccd(4, 10), maps.ccd(6, 10), maps.ccd(5, 10)]
    fig12 = [maps.ccd(n, 20) for n in study.CAA_JOINTS]
    fig12 += [maps.caa[n, 20] for n in study.CAA_JOINTS]
    ncaa = len(study.CAA_JOINTS)
    timing = {
        f"{m}, {t} thread{'s' * (t > 1)}": [maps.timing[m, t][n] for n in study.JOINTS]
        for m, t in sorted(maps.timing)
    }
    return {
        "fig6": _grid([maps.ccd(2, 10)], 1, 1, "Seed 004 Fig. 6: CCD iterations, n = 2"),
        "fig7": _grid([maps.path], 1, 1, "Seed 004 Fig. 7: CCD distance travelled, n = 5"),
        "fig8": _grid(fig8, 2, 2, "Seed 004 Fig. 8, clockwise from top left: n = 3, 4, 5, 6"),
        "fig9": _coverage(
            maps, [first, "equal, i = 20"], "Seed 004 Fig. 9: CCD coverage, equal links"
        ),
        "fig10": _coverage(
            maps, ["doubling, i = 5", first], "Seed 004 Fig. 10: CCD coverage, doubling links"
        ),
        "fig11": _lines(
            timing,
            "seconds per map",
            f"Seed 004 Fig. 11: time of a {maps.size} x {maps.size} map, i = {study.TIMING_ITER} "
            f"(this machine, best of {maps.repeats})",
            None,
        ),
        "fig12": _grid(fig12, 2, ncaa, "Seed 004 Fig. 12: CCD (top) against CAA (bottom), i = 20"),
    }
