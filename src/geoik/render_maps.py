"""Drawing metric maps as seed 004 does (Section 4, Figs. 6-10, 12).

Black marks a failure (a reachable pixel not reached), a hue scale runs from blue (the least
value, e.g. one iteration) to red (the largest; for iterations, the last allowed one), and the
area outside the reachable annulus is a neutral grey; a legend under each map says so. Integer
metrics (iterations, rotations) get one colour per value and a colour bar with a band per
value. Contour lines are optional, a colour bar names the metric, and the title states the
chain, solver, parameters and coverage.

Figures are :class:`matplotlib.figure.Figure` objects drawn on an Agg canvas: no pyplot, no
global state. They are written by :func:`geoik.render.save_figure`, through
:func:`geoik.files.save_atomic` (a temporary file renamed into place), as every other file is,
so an interrupted run never leaves a half-written file under the requested name.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

import numpy as np
from matplotlib.backends.backend_agg import FigureCanvasAgg
from matplotlib.colors import BoundaryNorm, ListedColormap, Normalize, hsv_to_rgb
from matplotlib.figure import Figure
from matplotlib.patches import Patch

if TYPE_CHECKING:
    from matplotlib.axes import Axes

    from geoik.chain import Chain
    from geoik.maps import MetricMap

__all__ = [
    "FAILURE",
    "HUE_MAP",
    "UNREACHABLE",
    "chain_label",
    "draw_map",
    "figure_dpi",
    "maps_figure",
    "sweep_figure",
]

FAILURE = (0.0, 0.0, 0.0)
UNREACHABLE = (0.6, 0.6, 0.6)
_HUES = np.linspace(240.0, 0.0, 256) / 360.0
HUE_MAP = ListedColormap(hsv_to_rgb(np.stack([_HUES, np.ones(256), np.ones(256)], axis=1)))
"""Blue (least) through cyan, green and yellow to red (most): a hue scale at full saturation."""

LABELS = {
    "iterations": "iterations",
    "path": "end-effector path length",
    "rotation-sum": "sum of joint rotations (degrees)",
    "rotations": "joint rotations over 5 degrees",
    "error": "final error",
}
INTEGER_METRICS = frozenset({"iterations", "rotations"})
MAX_BANDS = 64
"""Integer metrics with at most this many distinct values get one colour band per value."""
MAX_COLUMNS = 4
"""Maps per row of a figure with several."""
MAP_INCHES = 3.8
"""Width of one map's axes in a figure, inches (the figure adds the colour bar and margins)."""


def chain_label(chain: Chain) -> str:
    """The chain in words, e.g. ``5 links of length 1, free joints`` or
    ``links 16,8,4,2,1,1, max bend 90 deg``."""
    ls = chain.lengths
    if np.all(ls == ls[0]):
        links = f"{chain.n} link{'s' if chain.n > 1 else ''} of length {ls[0]:g}"
    else:
        links = "links " + ",".join(f"{v:g}" for v in ls)
    bends = chain.max_bend_deg()
    if all(b is None for b in bends):
        limits = "free joints"
    elif all(b == bends[0] for b in bends):
        limits = f"max bend {_bend(bends[0])} deg"
    else:
        limits = "max bend " + ",".join("free" if b is None else _bend(b) for b in bends) + " deg"
    base = "" if not np.any(chain.base) else f", base ({chain.base[0]:g}, {chain.base[1]:g})"
    return f"{links}, {limits}{base}"


def _bend(b: Any) -> str:
    return f"{b[0]:g}:{b[1]:g}" if isinstance(b, tuple | list) else f"{b:g}"


def _range(m: MetricMap) -> tuple[float, float]:
    v = m.values[m.reached]
    if v.size == 0:
        return 0.0, 1.0
    lo = float(v.min())
    hi = float(m.max_iter) if m.metric == "iterations" else float(v.max())
    return lo, max(hi, lo + 1e-12)


def _rgb(m: MetricMap, lo: float, hi: float) -> np.ndarray:
    """(N, N, 3) colours: the hue of each reached pixel's value, black, grey."""
    scaled = np.clip((m.values - lo) / (hi - lo), 0.0, 1.0)
    rgb = HUE_MAP(np.where(m.reached, scaled, 0.0))[..., :3]
    rgb[~m.reached & m.reachable] = FAILURE
    rgb[~m.reached & ~m.reachable] = UNREACHABLE
    return rgb


def _bands(m: MetricMap, lo: float, hi: float) -> int:
    """How many colour bands the colour bar shows: one per integer value, or 0 (continuous)."""
    if m.metric not in INTEGER_METRICS:
        return 0
    count = int(round(hi - lo)) + 1
    return count if 2 <= count <= MAX_BANDS else 0


def _colorbar(ax: Axes, m: MetricMap, lo: float, hi: float) -> None:
    from matplotlib.cm import ScalarMappable
    from matplotlib.ticker import MaxNLocator

    k = _bands(m, lo, hi)
    if k:
        cmap = ListedColormap(HUE_MAP(np.linspace(0.0, 1.0, k))[:, :3])
        norm: Normalize = BoundaryNorm(np.arange(lo - 0.5, hi + 1.0, 1.0), k)
    else:
        cmap, norm = HUE_MAP, Normalize(lo, hi)
    bar = ax.figure.colorbar(ScalarMappable(norm, cmap), ax=ax, fraction=0.046, pad=0.04)
    if m.metric in INTEGER_METRICS:
        bar.locator = MaxNLocator(nbins=10, integer=True)
        bar.update_ticks()
    bar.set_label(LABELS[m.metric])


def _contours(ax: Axes, m: MetricMap, lo: float, hi: float) -> None:
    x0, x1, y0, y1 = m.extent
    centres = (np.arange(m.size) + 0.5) / m.size
    xs, ys = x0 + (x1 - x0) * centres, y0 + (y1 - y0) * centres
    masked = np.ma.masked_array(m.values, ~m.reached)
    k = _bands(m, lo, hi)
    # integer metrics: lines between successive values, at most about 8 of them
    levels: Any = np.arange(lo + 0.5, hi, max(1, -(-k // 8))) if k else 8
    ax.contour(xs, ys, masked, levels=levels, colors="k", linewidths=0.5)


def draw_map(ax: Axes, m: MetricMap, contours: bool = False, colorbar: bool = True) -> None:
    """Draw one map on ``ax``: pixels, optional contours, colour bar, legend and title."""
    lo, hi = _range(m)
    ax.imshow(_rgb(m, lo, hi), origin="lower", extent=m.extent, interpolation="nearest")
    if contours and m.reached.any():
        _contours(ax, m, lo, hi)
    if colorbar:
        _colorbar(ax, m, lo, hi)
    handles = [
        Patch(facecolor=FAILURE, label="not reached"),
        Patch(facecolor=UNREACHABLE, edgecolor="0.4", label="out of reach"),
    ]
    ax.legend(
        handles=handles,
        loc="upper center",
        bbox_to_anchor=(0.5, -0.11),
        ncol=2,
        fontsize=8,
        frameon=False,
        handlelength=1.2,
    )
    ax.set_title(
        f"{m.method}: {chain_label(m.chain)}\n"
        f"{m.params()}, {m.size}x{m.size} px, coverage {100 * m.coverage:.1f}%",
        fontsize=9,
    )
    ax.set_aspect("equal")
    ax.set_xlabel("x")
    ax.set_ylabel("y")


def figure_dpi(size: int) -> int:
    """Dots per inch that give a map of ``size`` pixels about one dot per pixel (100-300)."""
    return int(min(300, max(100, round(size / MAP_INCHES))))


def maps_figure(maps: Sequence[MetricMap], contours: bool = False) -> Figure:
    """One figure with the maps side by side, at most :data:`MAX_COLUMNS` to a row."""
    k = len(maps)
    cols = min(k, MAX_COLUMNS)
    rows = -(-k // cols)
    fig = Figure(figsize=(5.2 * cols, 5.1 * rows), layout="constrained")
    FigureCanvasAgg(fig)
    axes = fig.subplots(rows, cols, squeeze=False).ravel()
    for ax, m in zip(axes, maps, strict=False):
        draw_map(ax, m, contours=contours)
    for ax in axes[k:]:
        ax.set_axis_off()
    return fig


def sweep_figure(
    joints: Sequence[int], coverage: Sequence[float] | Mapping[str, Sequence[float]], title: str
) -> Figure:
    """Coverage (percent) against the number of joints, as seed 004 Figs. 9-10.

    ``coverage`` is one series (fractions, one per joint count) or a mapping of labelled series,
    drawn as one line each.
    """
    series = dict(coverage) if isinstance(coverage, Mapping) else {"": coverage}
    fig = Figure(figsize=(6.0, 4.0), layout="constrained")
    FigureCanvasAgg(fig)
    ax = fig.subplots()
    for label, values in series.items():
        ax.plot(list(joints), [100.0 * c for c in values], "o-", label=label or None)
    if len(series) > 1 or "" not in series:
        ax.legend(fontsize=8)
    ax.set_xlabel("number of joints")
    ax.set_ylabel("workspace coverage (%)")
    ax.set_ylim(0, 105)
    ax.set_xticks(list(joints))
    ax.grid(True, alpha=0.3)
    ax.set_title(title, fontsize=9)
    return fig
