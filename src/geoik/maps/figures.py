"""Drawing metric maps as seed 004 does (Section 4, Figs. 6-10, 12).

Black marks a failure (a reachable pixel not reached), a hue scale runs from blue (the least
value, e.g. one iteration) to red (the largest; for iterations, the last allowed one), and the
area outside the reachable annulus is a neutral grey; a legend under each map says so. The
colours, the value range and the metric names come from :mod:`geoik.maps.palette`, which the viewer
uses too. Integer metrics (iterations, rotations) get one colour per value and a colour bar with
a band per value. The colour bar names the metric with its unit and always labels its least and
largest value; contour lines are optional, and the title states the chain, solver, parameters
and coverage.

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
from matplotlib.colors import BoundaryNorm, ListedColormap, Normalize
from matplotlib.figure import Figure
from matplotlib.patches import Patch

from geoik.errors import counted
from geoik.maps.palette import (
    FAILURE,
    LENGTH_UNIT,
    METRICS,
    OUTSIDE,
    colour_bar,
    hue_rgb,
    map_rgb,
    value_range,
)

if TYPE_CHECKING:
    from matplotlib.axes import Axes

    from geoik.chain import Chain
    from geoik.maps.metric import MetricMap
    from geoik.maps.volume import VolumeMap

__all__ = [
    "FAILURE",
    "HUE_MAP",
    "UNREACHABLE",
    "chain_label",
    "draw_map",
    "figure_dpi",
    "maps_figure",
    "sweep_figure",
    "volume_figures",
]

UNREACHABLE = OUTSIDE
HUE_MAP = ListedColormap(hue_rgb(np.linspace(0.0, 1.0, 256)), name="geoik-hue")
"""Blue (least) through cyan, green and yellow to red (most): :func:`geoik.maps.palette.hue_rgb`
sampled for matplotlib."""
MAX_COLUMNS = 4
"""Maps per row of a figure with several."""
MAP_INCHES = 3.8
"""Width of one map's axes in a figure, inches (the figure adds the colour bar and margins)."""


def chain_label(chain: Chain) -> str:
    """The chain in words, e.g. ``5 links of length 1, free joints`` or
    ``links 16,8,4,2,1,1, max bend 90 deg``."""
    ls = chain.lengths
    if np.all(ls == ls[0]):
        links = f"{counted(chain.n, 'link')} of length {ls[0]:g}"
    else:
        links = "links " + ",".join(f"{v:g}" for v in ls)
    bends = chain.max_bend_deg()
    if all(b is None for b in bends):
        limits = "free joints"
    elif all(b == bends[0] for b in bends):
        limits = f"max bend {_bend(bends[0])} deg"
    else:
        limits = "max bend " + ",".join("free" if b is None else _bend(b) for b in bends) + " deg"
    base = (
        "" if not np.any(chain.base) else ", base (" + ", ".join(f"{b:g}" for b in chain.base) + ")"
    )
    hinges = "" if chain.dim == 2 or not np.any(chain.hinge) else _hinges(chain)
    return f"{links}, {limits}{hinges}{base}"


def _hinges(chain: Chain) -> str:
    """``, hinges at joints 1, 3`` for a 3-D chain with hinge joints."""
    joints = [str(j) for j in range(chain.n) if np.any(chain.hinge[j])]
    return (
        f", hinge{'s' if len(joints) > 1 else ''} at joint{'s' if len(joints) > 1 else ''} "
        + ", ".join(joints)
    )


def _bend(b: Any) -> str:
    return f"{b[0]:g}:{b[1]:g}" if isinstance(b, tuple | list) else f"{b:g}"


def _range(m: MetricMap | VolumeMap) -> tuple[float, float]:
    return value_range(m.metric, m.values, m.reached, m.max_iter)


def _rgb(m: MetricMap, lo: float, hi: float) -> np.ndarray:
    """(N, N, 3) colours: the hue of each reached pixel's value, black, grey."""
    return map_rgb(m.values, m.reached, m.reachable, lo, hi)


def _bands(m: MetricMap, lo: float, hi: float) -> int:
    """How many colour bands the colour bar shows: one per integer value, or 0 (continuous)."""
    return colour_bar(m.metric, lo, hi).bands


def _colorbar(ax: Axes | list[Axes], m: MetricMap | VolumeMap, lo: float, hi: float) -> None:
    """The colour bar: one band per value of an integer metric, else the hue scale from ``lo``
    to ``hi``; ticks at round values with ``lo`` and ``hi`` always labelled; the metric and
    its unit as the label."""
    from matplotlib.cm import ScalarMappable

    spec = colour_bar(m.metric, lo, hi)
    if spec.bands:
        cmap = ListedColormap(spec.colours())
        a, b = spec.limits
        norm: Normalize = BoundaryNorm(np.linspace(a, b, spec.bands + 1), spec.bands)
    else:
        cmap, norm = HUE_MAP, Normalize(lo, hi)
    fig = (ax[0] if isinstance(ax, list) else ax).figure
    assert fig is not None
    bar = fig.colorbar(ScalarMappable(norm, cmap), ax=ax, fraction=0.046, pad=0.04)
    bar.set_ticks([v for v, _ in spec.ticks], labels=[text for _, text in spec.ticks])
    bar.minorticks_off()
    bar.set_label(METRICS[m.metric].label)


def _contours(ax: Axes, m: MetricMap, lo: float, hi: float) -> None:
    x0, x1, y0, y1 = m.extent
    centres = (np.arange(m.size) + 0.5) / m.size
    xs, ys = x0 + (x1 - x0) * centres, y0 + (y1 - y0) * centres
    masked = np.ma.masked_array(m.values, ~m.reached)
    k = _bands(m, lo, hi)
    # integer metrics: lines between successive values, at most about 8 of them
    levels: Any = np.arange(lo + 0.5, hi, max(1, -(-k // 8))) if k else 8
    ax.contour(xs, ys, masked, levels=levels, colors="k", linewidths=0.5)


def draw_map(
    ax: Axes,
    m: MetricMap,
    contours: bool = False,
    colorbar: bool = True,
    span: tuple[float, float] | None = None,
    title: str | None = None,
) -> None:
    """Draw one map on ``ax``: pixels, optional contours, colour bar, legend and title
    (``span``: the values the hue spans, default the map's own; ``title``: instead of the
    chain, solver, parameters and coverage)."""
    lo, hi = _range(m) if span is None else span
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
    if title is None:
        where = "" if m.axes is None else f", plane {m.plane}"
        title = (
            f"{m.method}: {chain_label(m.chain)}\n"
            f"{m.params()}, {m.size}x{m.size} px{where}, coverage {100 * m.coverage:.1f}%"
        )
    ax.set_title(title, fontsize=9)
    ax.set_aspect("equal")
    h, v = m.axis_labels
    ax.set_xlabel(f"{h} ({LENGTH_UNIT})")
    ax.set_ylabel(f"{v} ({LENGTH_UNIT})")


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


VOLUME_SLICES = 9
"""Layers of a volume map drawn in its figure of slices."""


def volume_figures(v: VolumeMap, slices: int = VOLUME_SLICES) -> tuple[Figure, Figure]:
    """Two figures of a volume map: its layers across z (``slices`` of them, evenly spaced over
    those that hold a reachable voxel), coloured over one range with one colour bar; and its
    coverage: the share of the reachable voxels reached along each line of sight (three views)
    and in each layer across x, y and z."""
    return _slices_figure(v, slices), _coverage_figure(v)


def _volume_title(v: VolumeMap) -> str:
    n = v.size
    return (
        f"{v.method}: {chain_label(v.chain)}\n{v.params()}, {n}x{n}x{n} voxels, coverage "
        f"{100 * v.coverage:.1f}%; reachable: {v.workspace.describe()}"
    )


def _slices_figure(v: VolumeMap, count: int) -> Figure:
    layers = np.flatnonzero(v.reachable.any(axis=(1, 2)))
    if layers.size == 0:
        layers = np.arange(v.size)
    picks = np.unique(np.round(np.linspace(layers[0], layers[-1], count)).astype(int))
    cols = min(len(picks), 3)
    rows = -(-len(picks) // cols)
    fig = Figure(figsize=(4.2 * cols + 1.2, 4.2 * rows + 0.9), layout="constrained")
    FigureCanvasAgg(fig)
    axes = fig.subplots(rows, cols, squeeze=False).ravel()
    span = _range(v)
    z = v.axis() + v.chain.base[2]
    for ax, k in zip(axes, picks, strict=False):
        m = v.slice("z", int(k))
        title = f"z = {z[k]:.3g}: coverage {100 * m.coverage:.1f}%"
        draw_map(ax, m, colorbar=False, span=span, title=title)
    for ax in axes[len(picks) :]:
        ax.set_axis_off()
    _colorbar(list(axes[: len(picks)]), v, *span)
    fig.suptitle(_volume_title(v), fontsize=10)
    return fig


def _draw_projections(fig: Figure, axes: Any, v: VolumeMap) -> None:
    """Draw, in each of the three ``axes``, the share of reachable voxels reached along lines
    of sight through the cube ``v`` (along z, y and x; percent, in the hue colours), and one
    colour bar beside them on ``fig``."""
    x = v.axis()
    base = v.chain.base
    views = (  # (name, axis of the arrays summed over, horizontal, vertical)
        ("along z (top)", 0, "x", "y"),
        ("along y (front)", 1, "x", "z"),
        ("along x (side)", 2, "y", "z"),
    )
    cmap = HUE_MAP.with_extremes(bad=OUTSIDE)
    image = None
    for ax, (name, axis, h, vert) in zip(axes, views, strict=True):
        reach = v.reachable.sum(axis=axis)
        hit = (v.reached & v.reachable).sum(axis=axis)
        share = np.ma.masked_array(100.0 * hit / np.maximum(reach, 1), reach == 0)
        lo_h, lo_v = base["xyz".index(h)] + x[0], base["xyz".index(vert)] + x[0]
        step = x[1] - x[0] if v.size > 1 else 2.0 * v.half
        extent = (
            lo_h - step / 2,
            lo_h + v.size * step - step / 2,
            lo_v - step / 2,
            lo_v + v.size * step - step / 2,
        )
        image = ax.imshow(
            share,
            origin="lower",
            extent=extent,
            cmap=cmap,
            vmin=0.0,
            vmax=100.0,
            interpolation="nearest",
        )
        ax.set_title(f"reached / reachable {name}", fontsize=9)
        ax.set_xlabel(f"{h} ({LENGTH_UNIT})")
        ax.set_ylabel(f"{vert} ({LENGTH_UNIT})")
        ax.set_aspect("equal")
    if image is not None:
        bar = fig.colorbar(image, ax=list(axes), fraction=0.03, pad=0.02)
        bar.set_label("voxels reached along the line of sight (% of the reachable ones)")


def _draw_layer_coverage(ax: Any, v: VolumeMap) -> None:
    """Plot in ``ax`` the coverage (percent) of each layer of the cube ``v`` across x, y and
    z against the layer's position (length units), with the whole volume's as a line."""
    x = v.axis()
    base = v.chain.base
    for name, axes in (("x", (0, 1)), ("y", (0, 2)), ("z", (1, 2))):
        reach = v.reachable.sum(axis=axes)
        hit = (v.reached & v.reachable).sum(axis=axes)
        keep = reach > 0
        share = 100.0 * hit[keep] / reach[keep]
        ax.plot((x + base["xyz".index(name)])[keep], share, label=f"layers across {name}")
    ax.axhline(100 * v.coverage, color="0.4", linestyle="--", linewidth=0.8, label="whole volume")
    ax.set_ylim(0, 105)
    ax.set_xlabel(f"position of the layer ({LENGTH_UNIT})")
    ax.set_ylabel("coverage of the layer (%)")
    ax.legend(fontsize=8)
    ax.grid(True, alpha=0.3)
    ax.set_title("coverage layer by layer", fontsize=9)


def _write_volume_summary(ax: Any, v: VolumeMap) -> None:
    """Write in ``ax`` (no axes drawn) the cube's counts: voxels, reachable, reached, the
    coverage, how reachability was decided and the metric's mean and maximum."""
    reach_total = int(v.reachable.sum())
    hit_total = int((v.reached & v.reachable).sum())
    lines = [
        f"voxels: {v.size**3:,}",
        f"reachable: {reach_total:,} ({100 * reach_total / v.size**3:.1f}%)",
        f"reached and reachable: {hit_total:,}",
        f"coverage: {100 * v.coverage:.2f}%",
        f"reachable decided: {v.workspace.method}"
        + (" (exact)" if v.workspace.exact else f", within {v.workspace.bound:.3g}"),
    ]
    mean, top = v.stats()
    lines.append(f"{METRICS[v.metric].words}: mean {mean:.4g}, max {top:.4g}")
    ax.text(0.02, 0.95, "\n".join(lines), va="top", ha="left", fontsize=10, family="monospace")
    ax.set_axis_off()


def _coverage_figure(v: VolumeMap) -> Figure:
    fig = Figure(figsize=(15.0, 8.6), layout="constrained")
    FigureCanvasAgg(fig)
    grid = fig.subplots(2, 3, height_ratios=(1.15, 1.0))
    _draw_projections(fig, grid[0], v)
    _draw_layer_coverage(grid[1, 0], v)
    mid = v.size // 2
    draw_map(
        grid[1, 1],
        v.slice("y", mid),
        span=_range(v),
        title=f"the layer y = {v.chain.base[1] + v.axis()[mid]:.3g}",
    )
    _write_volume_summary(grid[1, 2], v)
    fig.suptitle(_volume_title(v), fontsize=10)
    return fig
