"""Figures of solutions: start pose, final pose, the end-effector path and the target.

Matplotlib is imported inside the functions, and figures are plain
:class:`matplotlib.figure.Figure` objects drawn by the Agg canvas, so importing geoik never loads
matplotlib or touches pyplot's global state (backend, current figure).
"""

from __future__ import annotations

import atexit
import contextlib
import io
import os
import pickle
import subprocess
import sys
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np

from geoik.files import save_all_atomic, save_atomic, write_bytes

if TYPE_CHECKING:
    from matplotlib.axes import Axes
    from matplotlib.figure import Figure

    from geoik.solution import Solution

__all__ = [
    "VIEWS_3D",
    "figure_helper",
    "plot_solution",
    "save_each",
    "save_figure",
    "save_figures",
]

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

    canvas, fmt = FigureCanvasAgg(fig), _fmt(path)
    return save_atomic(path, lambda tmp: canvas.print_figure(tmp, format=fmt, dpi=dpi))


def save_figures(items: list[tuple[Figure, str | os.PathLike[str], int]]) -> None:
    """Write several ``(figure, path, dpi)`` all or nothing (:func:`geoik.files.save_all_atomic`):
    no path is written unless every figure is."""
    from matplotlib.backends.backend_agg import FigureCanvasAgg

    def writer(fig: Figure, path: str | os.PathLike[str], dpi: int) -> Any:
        canvas, fmt = FigureCanvasAgg(fig), _fmt(path)
        return lambda tmp: canvas.print_figure(tmp, format=fmt, dpi=dpi)

    save_all_atomic([(path, writer(fig, path, dpi)) for fig, path, dpi in items])


# --------------------------------------------------------------------------- two cores


def save_each(items: list[tuple[Figure, str | os.PathLike[str], int]]) -> list[Path]:
    """Write each ``(figure, path, dpi)`` as :func:`save_figure` does (atomically, each on its
    own); within :func:`figure_helper`, on two cores: the helper process draws some of the
    figures (the largest first, each side taking the next one left) while this process draws
    the others, and this process writes every file. A figure the helper cannot draw (it ended,
    or the figure cannot be pickled) is drawn here: the files never depend on the helper, and
    they are the same bytes either way. Returns the paths, in the order given."""
    helper = _helpers[-1] if _helpers else None
    if helper is None or len(items) < 2 or not helper.alive():
        return [save_figure(fig, path, dpi) for fig, path, dpi in items]
    return helper.save_each(items)


@contextlib.contextmanager
def figure_helper() -> Iterator[None]:
    """Within the block (a command that draws many figures: the reproductions), a helper
    process draws figures for :func:`save_each` on another core. It starts at once and loads
    matplotlib while this process works, and is stopped on leaving the block. Nothing is started
    on one core, or when the process cannot start (figures are then drawn here)."""
    helper = _FigureHelper.start() if _cores() > 1 else None
    if helper is None:
        yield
        return
    _helpers.append(helper)
    try:
        yield
    finally:
        _helpers.remove(helper)
        helper.close()


def _cores() -> int:
    from geoik.jit import _cores as cores  # numba is loaded by then: figures follow solves

    return cores()


def _cost(fig: Figure) -> tuple[int, float]:
    """How long ``fig`` takes to draw, to order by: its axes (their texts and layout dominate),
    then its area."""
    w, h = fig.get_size_inches()
    return len(fig.axes), float(w * h)


def _fmt(path: str | os.PathLike[str]) -> str:
    """The format ``path``'s suffix names, where matplotlib's Agg canvas writes it; else PNG."""
    from matplotlib.backends.backend_agg import FigureCanvasAgg

    fmt = Path(path).suffix.lower().lstrip(".")
    return fmt if fmt in FigureCanvasAgg.get_supported_filetypes() else "png"


def _draw_bytes(fig: Figure, fmt: str, dpi: int) -> bytes:
    """``fig`` drawn into ``fmt`` (a format matplotlib's Agg canvas writes) at ``dpi``."""
    from matplotlib.backends.backend_agg import FigureCanvasAgg

    buf = io.BytesIO()
    FigureCanvasAgg(fig).print_figure(buf, format=fmt, dpi=dpi)
    return buf.getvalue()


_helpers: list[_FigureHelper] = []  # figure_helper's, innermost last


class _FigureHelper:
    """The helper process of :func:`figure_helper` and the thread that talks to it: each
    request is a pickled ``(figure, format, dpi, matplotlib's settings)``, each answer the
    pickled ``("ok", bytes)`` or ``("error", message)``, both prefixed by their length."""

    def __init__(self, proc: subprocess.Popen[bytes]) -> None:
        self.proc = proc
        self.lock = threading.Lock()

    @classmethod
    def start(cls) -> _FigureHelper | None:
        try:
            proc = subprocess.Popen(
                [sys.executable, "-c", "from geoik.render import _helper_main; _helper_main()"],
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                stderr=subprocess.DEVNULL,
            )
        except OSError:
            return None
        helper = cls(proc)
        _started.add(helper)
        return helper

    def alive(self) -> bool:
        return self.proc.poll() is None

    def draw(self, fig: Figure, fmt: str, dpi: int, rc: dict[str, Any]) -> bytes | None:
        """``fig`` drawn by the helper with matplotlib's settings ``rc``, or None if it could
        not be (then it is drawn here)."""
        try:
            payload = pickle.dumps((fig, fmt, dpi, rc))
        except Exception:  # a figure holding something that cannot be pickled
            return None
        try:
            assert self.proc.stdin is not None and self.proc.stdout is not None
            self.proc.stdin.write(len(payload).to_bytes(8, "little") + payload)
            self.proc.stdin.flush()
            size = int.from_bytes(_read(self.proc.stdout, 8), "little")
            kind, value = pickle.loads(_read(self.proc.stdout, size))
        except (OSError, ValueError, EOFError, pickle.UnpicklingError):
            self.close()
            return None
        return value if kind == "ok" else None

    def save_each(self, items: list[tuple[Figure, str | os.PathLike[str], int]]) -> list[Path]:
        import matplotlib

        # the figures left to draw, the largest first, and those the helper handed back
        left = sorted(range(len(items)), key=lambda i: _cost(items[i][0]), reverse=True)
        back: list[int] = []
        drawn: dict[int, bytes] = {}
        # this process's settings, read here before any drawing: the helper draws with them
        rc: dict[str, Any] = {k: v for k, v in matplotlib.rcParams.items() if k != "backend"}

        def take() -> int | None:
            with self.lock:
                return left.pop(0) if left else None

        def theirs() -> None:
            while self.alive() and (i := take()) is not None:
                fig, path, dpi = items[i]
                data = self.draw(fig, _fmt(path), dpi, rc)
                if data is None:  # drawn here, after the others
                    back.append(i)
                else:
                    drawn[i] = data

        thread = threading.Thread(target=theirs, daemon=True)
        thread.start()
        done = False
        try:
            while (i := take()) is not None:
                fig, path, dpi = items[i]
                save_figure(fig, path, dpi)
            thread.join()
            for i in back:  # what the helper could not draw
                fig, path, dpi = items[i]
                save_figure(fig, path, dpi)
            for i, data in drawn.items():
                write_bytes(items[i][1], data)
            done = True
        finally:
            if not done:  # interrupted or failed: the helper's work is dropped
                self.close()
                thread.join(5)
        return [Path(path) for _, path, _ in items]

    def close(self) -> None:
        """Stop the helper at once (its work in hand is dropped)."""
        from geoik.jit import _stop_process

        _started.discard(self)
        _stop_process(self.proc)


_started: set[_FigureHelper] = set()


@atexit.register
def _stop_helpers() -> None:
    for helper in list(_started):
        helper.close()


def _read(stream: Any, size: int) -> bytes:
    """Exactly ``size`` bytes of ``stream``; EOFError if it ends first."""
    chunks, got = [], 0
    while got < size:
        chunk = stream.read(size - got)
        if not chunk:
            raise EOFError("the figure helper ended")
        chunks.append(chunk)
        got += len(chunk)
    return b"".join(chunks)


def _helper_main() -> None:
    """The helper process of :func:`figure_helper` (standard input and output: see
    :class:`_FigureHelper`). It loads matplotlib and its fonts first, while the command works."""
    import matplotlib
    from matplotlib.figure import Figure

    warm = Figure(figsize=(1.0, 1.0))
    warm.subplots().set_title("0.5")
    _draw_bytes(warm, "png", 20)
    inp, out = sys.stdin.buffer, sys.stdout.buffer
    while True:
        try:
            size = int.from_bytes(_read(inp, 8), "little")
            fig, fmt, dpi, rc = pickle.loads(_read(inp, size))
        except EOFError:
            return
        try:
            with matplotlib.rc_context(rc):
                answer: tuple[str, Any] = ("ok", _draw_bytes(fig, fmt, dpi))
        except Exception as e:  # drawn by the command itself then, which reports it
            answer = ("error", f"{type(e).__name__}: {e}")
        payload = pickle.dumps(answer)
        out.write(len(payload).to_bytes(8, "little") + payload)
        out.flush()
