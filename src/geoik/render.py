"""Figures of solutions: start pose, final pose, the end-effector path and the target.

Matplotlib is imported inside the functions, and figures are plain
:class:`matplotlib.figure.Figure` objects drawn by the Agg canvas, so importing geoik never loads
matplotlib or touches pyplot's global state (backend, current figure).
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np

from geoik.files import save_all_atomic, save_atomic

if TYPE_CHECKING:
    from matplotlib.axes import Axes
    from matplotlib.figure import Figure

    from geoik.solution import Solution

__all__ = ["VIEWS_3D", "plot_solution", "save_figure", "save_figures"]

VIEWS_3D = (("side (x-z)", 0, 2), ("top (x-y)", 0, 1), ("front (y-z)", 1, 2))
"""The orthographic views of a 3-D figure: (title, horizontal axis, vertical axis)."""

_START: dict[str, Any] = {
    "color": "0.6",
    "linestyle": "--",
    "marker": "o",
    "markersize": 3,
    "linewidth": 1.2,
}
_FINAL: dict[str, Any] = {"color": "tab:blue", "marker": "o", "markersize": 4, "linewidth": 2.0}
_PATH: dict[str, Any] = {"color": "tab:orange", "linewidth": 1.0}
_TARGET: dict[str, Any] = {
    "color": "tab:red",
    "marker": "x",
    "markersize": 10,
    "markeredgewidth": 2.0,
}
_BASE: dict[str, Any] = {"color": "black", "marker": "s", "markersize": 6}


def plot_solution(solution: Solution, path: str | os.PathLike[str] | None = None) -> Figure:
    """Draw a solution: start pose, final pose, end-effector path and target.

    Parameters
    ----------
    solution : what :func:`geoik.solve` returned.
    path : if given, the figure is also written there (PNG unless the suffix names another
        format matplotlib writes), atomically: to a temporary file in the same directory, then
        renamed.

    Returns
    -------
    matplotlib.figure.Figure
        One axes for a planar chain; three orthographic views (side, top, front) for a 3-D chain.
        The title states the chain, the method, the status and the path length.
    """
    from matplotlib.figure import Figure

    poses = solution.motion.poses()
    start, final = poses[0], np.asarray(solution.positions)
    trace = solution.motion.trace()
    title = (
        f"{solution.chain.describe()} | {solution.method} | {solution.status.name} | "
        f"path length {solution.motion.path_length():.4g}"
    )
    if solution.chain.dim == 2:
        fig = Figure(figsize=(6.4, 6.0), layout="constrained")
        ax = fig.add_subplot()
        _draw(ax, start, final, trace, np.asarray(solution.target), 0, 1)
        ax.set_xlabel("x")
        ax.set_ylabel("y")
        ax.legend(loc="best", fontsize="small")
    else:
        fig = Figure(figsize=(13.0, 4.8), layout="constrained")
        axes = fig.subplots(1, len(VIEWS_3D))
        for ax, (name, h, v) in zip(axes, VIEWS_3D, strict=True):
            _draw(ax, start, final, trace, np.asarray(solution.target), h, v)
            ax.set_title(name, fontsize="medium")
            ax.set_xlabel("xyz"[h])
            ax.set_ylabel("xyz"[v])
        axes[0].legend(loc="best", fontsize="small")
    fig.suptitle(title, fontsize="medium")
    if path is not None:
        save_figure(fig, path)
    return fig


def _draw(
    ax: Axes,
    start: np.ndarray,
    final: np.ndarray,
    trace: np.ndarray,
    target: np.ndarray,
    h: int,
    v: int,
) -> None:
    """One view: coordinates ``h`` and ``v`` of every point."""
    ax.plot(start[:, h], start[:, v], label="start pose", **_START)
    ax.plot(trace[:, h], trace[:, v], label="end-effector path", **_PATH)
    ax.plot(final[:, h], final[:, v], label="final pose", **_FINAL)
    ax.plot([start[0, h]], [start[0, v]], linestyle="none", label="base", **_BASE)
    ax.plot([target[h]], [target[v]], linestyle="none", label="target", **_TARGET)
    ax.set_aspect("equal", adjustable="datalim")
    ax.grid(True, linewidth=0.4, alpha=0.5)


def save_figure(fig: Figure, path: str | os.PathLike[str], dpi: int = 120) -> Path:
    """Write ``fig`` to ``path`` atomically (temporary file in the same directory, then rename).

    The format follows the suffix when matplotlib's Agg canvas writes it, PNG otherwise.
    Raises OSError when the directory cannot be written.
    """
    from matplotlib.backends.backend_agg import FigureCanvasAgg

    canvas = FigureCanvasAgg(fig)
    fmt = Path(path).suffix.lower().lstrip(".")
    if fmt not in canvas.get_supported_filetypes():
        fmt = "png"
    return save_atomic(path, lambda tmp: canvas.print_figure(tmp, format=fmt, dpi=dpi))


def save_figures(items: list[tuple[Figure, str | os.PathLike[str], int]]) -> None:
    """Write several ``(figure, path, dpi)`` all or nothing (:func:`geoik.files.save_all_atomic`):
    no path is written unless every figure is."""
    from matplotlib.backends.backend_agg import FigureCanvasAgg

    def writer(fig: Figure, path: str | os.PathLike[str], dpi: int) -> Any:
        canvas = FigureCanvasAgg(fig)
        fmt = Path(path).suffix.lower().lstrip(".")
        if fmt not in canvas.get_supported_filetypes():
            fmt = "png"
        return lambda tmp: canvas.print_figure(tmp, format=fmt, dpi=dpi)

    save_all_atomic([(path, writer(fig, path, dpi)) for fig, path, dpi in items])
