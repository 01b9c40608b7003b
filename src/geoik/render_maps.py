"""Drawing metric maps as seed 004 does (Section 4, Figs. 6-8, 12).

Black marks a failure (a reachable pixel not reached), a hue scale runs from blue (the least
value, e.g. one iteration) to red (the largest; for iterations, the last allowed one), and the
area outside the reachable annulus is a neutral grey. Contour lines are optional, a colour bar
names the metric, and the title states the chain, solver, parameters and coverage.

Figures are :class:`matplotlib.figure.Figure` objects drawn on an Agg canvas: no pyplot, no
global state. :func:`save_atomic` writes a file under a temporary name and renames it, so an
interrupted run never leaves a half-written file under the requested name.
"""

from __future__ import annotations

import contextlib
import os
import tempfile
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any

import numpy as np
from matplotlib.backends.backend_agg import FigureCanvasAgg
from matplotlib.colors import ListedColormap, hsv_to_rgb
from matplotlib.figure import Figure

if TYPE_CHECKING:
    from matplotlib.axes import Axes

    from geoik.maps import MetricMap

__all__ = ["HUE_MAP", "draw_map", "maps_figure", "save_atomic", "save_figure", "sweep_figure"]

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


def _range(m: MetricMap) -> tuple[float, float]:
    v = m.values[m.reached]
    if v.size == 0:
        return 0.0, 1.0
    lo = float(v.min())
    hi = float(m.max_iter) if m.metric == "iterations" else float(v.max())
    return lo, max(hi, lo + 1e-12)


def _rgb(m: MetricMap, lo: float, hi: float) -> np.ndarray:
    scaled = np.clip((m.values - lo) / (hi - lo), 0.0, 1.0)
    rgb = HUE_MAP(np.where(m.reached, scaled, 0.0))[..., :3]
    rgb[~m.reached & m.reachable] = FAILURE
    rgb[~m.reached & ~m.reachable] = UNREACHABLE
    return rgb


def draw_map(ax: Axes, m: MetricMap, contours: bool = False, colorbar: bool = True) -> None:
    """Draw one map on ``ax``: pixels, optional contours, colour bar and title."""
    lo, hi = _range(m)
    ax.imshow(_rgb(m, lo, hi), origin="lower", extent=m.extent, interpolation="nearest")
    if contours and m.reached.any():
        x0, x1, y0, y1 = m.extent
        centres = (np.arange(m.size) + 0.5) / m.size
        xs, ys = x0 + (x1 - x0) * centres, y0 + (y1 - y0) * centres
        masked = np.ma.masked_array(m.values, ~m.reached)
        ax.contour(xs, ys, masked, levels=8, colors="k", linewidths=0.5)
    if colorbar:
        sm = _scalar_mappable(lo, hi)
        bar = ax.figure.colorbar(sm, ax=ax, fraction=0.046, pad=0.04)
        bar.set_label(LABELS[m.metric])
    ax.set_title(
        f"{m.chain.describe()}\n{m.method}: {m.params()}, coverage {100 * m.coverage:.1f}%",
        fontsize=9,
    )
    ax.set_aspect("equal")
    ax.set_xlabel("x")
    ax.set_ylabel("y")


def _scalar_mappable(lo: float, hi: float) -> Any:
    from matplotlib.cm import ScalarMappable
    from matplotlib.colors import Normalize

    return ScalarMappable(norm=Normalize(lo, hi), cmap=HUE_MAP)


def maps_figure(maps: Sequence[MetricMap], contours: bool = False) -> Figure:
    """One figure with the maps side by side."""
    k = len(maps)
    fig = Figure(figsize=(5.2 * k, 4.8), layout="constrained")
    FigureCanvasAgg(fig)
    axes = fig.subplots(1, k, squeeze=False)[0]
    for ax, m in zip(axes, maps, strict=True):
        draw_map(ax, m, contours=contours)
    return fig


def sweep_figure(joints: Sequence[int], coverage: Sequence[float], title: str) -> Figure:
    """Coverage (percent) against the number of joints, as seed 004 Figs. 9-10."""
    fig = Figure(figsize=(6.0, 4.0), layout="constrained")
    FigureCanvasAgg(fig)
    ax = fig.subplots()
    ax.plot(list(joints), [100.0 * c for c in coverage], "o-", color="tab:blue")
    ax.set_xlabel("number of joints")
    ax.set_ylabel("workspace coverage (%)")
    ax.set_ylim(0, 105)
    ax.set_xticks(list(joints))
    ax.grid(True, alpha=0.3)
    ax.set_title(title, fontsize=9)
    return fig


def save_atomic(path: str | os.PathLike[str], write: Callable[[str], None]) -> None:
    """Call ``write(tmp)`` on a temporary file next to ``path``, then rename it to ``path``.

    If ``write`` fails or is interrupted, the temporary file is removed and ``path`` is left as
    it was.
    """
    target = os.fspath(path)
    folder = os.path.dirname(os.path.abspath(target))
    suffix = os.path.splitext(target)[1]
    fd, tmp = tempfile.mkstemp(prefix=".geoik-", suffix=suffix, dir=folder)
    os.close(fd)
    try:
        write(tmp)
        os.replace(tmp, target)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        raise


def save_figure(fig: Figure, path: str | os.PathLike[str], dpi: int = 100) -> None:
    """Write a figure (format from the file name's extension) without a half-written file."""
    ext = os.path.splitext(os.fspath(path))[1].lstrip(".") or "png"
    save_atomic(path, lambda tmp: fig.savefig(tmp, dpi=dpi, format=ext))
