"""The end-effector trace figures of the ``single-pass-2009`` experiment (seed 002, Figs. 9-10)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import numpy as np

from geoik.experiments.single_pass_2009 import study
from geoik.maps.palette import LENGTH_UNIT

if TYPE_CHECKING:
    from matplotlib.figure import Figure

TRACE_LEGEND = (
    "start pose (straight)",
    "final pose (joints as dots)",
    "end-effector trace",
    "target",
    "base",
)
"""What each line and marker of a trace panel is, in drawing order (the figure's legend)."""


def trace_figure(name: str, cols: list[study.Column], per_col: dict[str, dict[str, Any]]) -> Figure:
    """One panel per method: start pose, final pose, end-effector trace, path lengths; axes in
    link-length units and one legend for every panel."""
    from matplotlib.figure import Figure

    target, published = study.FIGURES[name]
    ncols = 4
    nrows = -(-len(cols) // ncols)
    fig = Figure(figsize=(3.4 * ncols, 3.5 * nrows + 0.4), layout="constrained")
    axes = np.atleast_1d(fig.subplots(nrows, ncols, squeeze=False).ravel())
    start_style, final_style, trace_style, target_style, base_style = (
        {"ls": "--", "color": "0.6", "lw": 1},
        {"marker": "o", "color": "tab:blue", "ms": 2, "lw": 1.2},
        {"color": "tab:red", "lw": 0.8},
        {"marker": "x", "ls": "none", "color": "k", "ms": 7},
        {"marker": "s", "ls": "none", "color": "k", "ms": 4},
    )
    for ax, col in zip(axes, cols, strict=False):
        r = per_col[col.label]
        sol = r["solution"]
        trace = sol.motion.trace(max_step_deg=0.5)
        start = sol.motion.poses()[0]
        ax.plot(start[:, 0], start[:, 1], label=TRACE_LEGEND[0], **start_style)
        ax.plot(sol.positions[:, 0], sol.positions[:, 1], label=TRACE_LEGEND[1], **final_style)
        ax.plot(trace[:, 0], trace[:, 1], label=TRACE_LEGEND[2], **trace_style)
        ax.plot([target[0]], [target[1]], label=TRACE_LEGEND[3], **target_style)
        ax.plot([0.0], [0.0], label=TRACE_LEGEND[4], **base_style)
        pub = f"\npublished {published[col.published]:.2f}" if col.published else ""
        ax.set_title(
            f"{col.label}: path length\nchord {r['chord']:.2f}, arc {r['arc']:.2f}{pub}",
            fontsize=8,
        )
        ax.set_aspect("equal", adjustable="datalim")
        ax.set_xlabel(f"x ({LENGTH_UNIT})", fontsize=7)
        ax.set_ylabel(f"y ({LENGTH_UNIT})", fontsize=7)
        ax.tick_params(labelsize=6)
    for ax in axes[len(cols) :]:
        ax.set_visible(False)
    handles, labels = axes[0].get_legend_handles_labels()
    fig.legend(handles, labels, loc="outside lower center", ncols=len(labels), fontsize=8)
    fig.suptitle(
        f"Seed 002 {name.replace('fig', 'Fig. ')}: end-effector traces for target "
        f"({target[0]:g}, {target[1]:g}), 10 links of length 2 from the straight pose",
        fontsize=9,
    )
    return fig
