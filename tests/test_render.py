"""Figures of solutions: the artists drawn, atomic PNG writing, three views in 3-D."""

from __future__ import annotations

import subprocess
import sys

import numpy as np
import pytest

import geoik as ik
from geoik.render import VIEWS_3D, plot_solution, save_figure

PNG_MAGIC = b"\x89PNG\r\n\x1a\n"


def lines_by_label(ax):
    return {line.get_label(): line for line in ax.get_lines()}


@pytest.fixture(scope="module")
def planar():
    return ik.solve(ik.Chain.planar([2.0] * 10), (8.33, 2.83), method="ccd")


@pytest.fixture(scope="module")
def spatial():
    return ik.solve(ik.Chain.spatial([3.0] * 4), (4.0, 5.0, 3.0), method="ccd")


def test_planar_figure_artists(planar):
    fig = plot_solution(planar)
    (ax,) = fig.axes
    lines = lines_by_label(ax)
    assert {"start pose", "final pose", "end-effector path", "target", "base"} <= set(lines)
    np.testing.assert_allclose(np.column_stack(lines["final pose"].get_data()), planar.positions)
    start = planar.chain.pose_from_angles(planar.motion.angles[0]).positions
    np.testing.assert_allclose(np.column_stack(lines["start pose"].get_data()), start)
    np.testing.assert_allclose(
        np.column_stack(lines["end-effector path"].get_data()), planar.motion.trace()
    )
    np.testing.assert_allclose(np.ravel(lines["target"].get_data()), planar.target)
    title = fig.get_suptitle()
    assert "ccd" in title and planar.status.name in title and "path length" in title
    assert ax.get_legend() is not None


def test_spatial_figure_has_three_views(spatial):
    fig = plot_solution(spatial)
    assert len(fig.axes) == 3
    assert [ax.get_title() for ax in fig.axes] == [v[0] for v in VIEWS_3D]
    for ax, (_, h, v) in zip(fig.axes, VIEWS_3D, strict=True):
        lines = lines_by_label(ax)
        final = np.column_stack(lines["final pose"].get_data())
        np.testing.assert_allclose(final, spatial.positions[:, [h, v]])
        np.testing.assert_allclose(np.ravel(lines["target"].get_data()), spatial.target[[h, v]])
    assert {(h, v) for _, h, v in VIEWS_3D} == {(0, 1), (0, 2), (1, 2)}


def test_png_written_with_no_leftovers(planar, tmp_path):
    out = tmp_path / "sol.png"
    plot_solution(planar, out)
    assert out.read_bytes()[:8] == PNG_MAGIC
    assert [p.name for p in tmp_path.iterdir()] == ["sol.png"]


def test_failed_write_keeps_the_old_file(planar, tmp_path, monkeypatch):
    from matplotlib.backends.backend_agg import FigureCanvasAgg

    out = tmp_path / "sol.png"
    out.write_bytes(b"old")

    def broken(self, *args, **kwargs):
        raise RuntimeError("disk full")

    monkeypatch.setattr(FigureCanvasAgg, "print_figure", broken)
    with pytest.raises(RuntimeError, match="disk full"):
        save_figure(plot_solution(planar), out)
    assert out.read_bytes() == b"old"
    assert [p.name for p in tmp_path.iterdir()] == ["sol.png"]


def test_replaces_an_existing_file(planar, tmp_path):
    out = tmp_path / "sol.png"
    out.write_bytes(b"old")
    plot_solution(planar, out)
    assert out.read_bytes()[:8] == PNG_MAGIC


def test_import_and_plot_leave_pyplot_alone(tmp_path):
    code = (
        "import sys, geoik, geoik.render\n"
        "assert 'matplotlib' not in sys.modules, 'matplotlib imported with geoik'\n"
        "s = geoik.solve(geoik.Chain.planar([1, 1]), (1, 1), method='ccd')\n"
        f"geoik.render.plot_solution(s, {str(tmp_path / 'x.png')!r})\n"
        "assert 'matplotlib.pyplot' not in sys.modules, 'pyplot imported'\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, timeout=120, check=False
    )
    assert done.returncode == 0, done.stderr


# --- figures drawn on two cores ----------------------------------------------------------------


def _figures(planar, spatial):
    """Four small figures of different sizes, the last of which cannot be pickled (a lock on
    an artist)."""
    import threading

    figs = [plot_solution(planar), plot_solution(spatial), plot_solution(planar)]
    for fig, size in zip(figs, [(3.0, 3.0), (6.0, 2.5), (2.0, 2.0)], strict=True):
        fig.set_size_inches(*size)
    odd = plot_solution(planar)
    odd.set_size_inches(2.5, 2.5)
    odd.axes[0].lines[0].lock = threading.Lock()
    return [*figs, odd]


def test_figures_drawn_by_the_helper_are_the_bytes_drawn_here(planar, spatial, tmp_path):
    """Within ``figure_helper``, ``save_each`` has the helper draw some figures (here two of
    them: each side takes the next largest left, and the one that cannot be pickled is drawn
    here); every file is written, the same bytes as ``save_figure`` writes, and nothing else is
    left in the folder."""
    from geoik import render

    # a figure is drawn once (constrained layout starts from where a first drawing left it)
    mine = [
        save_figure(f, tmp_path / f"here{i}.png", 80)
        for i, f in enumerate(_figures(planar, spatial))
    ]
    figs = _figures(planar, spatial)
    drawn: list[bytes | None] = []
    real = render._FigureHelper.draw

    def draw(self, fig, fmt, dpi, rc):
        out = real(self, fig, fmt, dpi, rc)
        drawn.append(out)
        return out

    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(render._FigureHelper, "draw", draw)
        mp.setattr(render, "_cores", lambda: 2)
        with render.figure_helper():
            (helper,) = render._helpers
            items = [(fig, tmp_path / f"two{i}.png", 80) for i, fig in enumerate(figs)]
            paths = render.save_each(items)
        assert not helper.alive() and not render._helpers
    assert paths == [p for _, p, _ in items]
    assert any(d is not None for d in drawn)
    for a, (_, b, _) in zip(mine, items, strict=True):
        assert b.read_bytes() == a.read_bytes()
        assert b.read_bytes().startswith(PNG_MAGIC)
    assert sorted(p.name for p in tmp_path.iterdir()) == sorted(
        [p.name for p in mine] + [p.name for _, p, _ in items]
    )


def test_figures_are_all_written_when_the_helper_dies_on_the_way(planar, spatial, tmp_path):
    """A helper that has died (here before the first figure reaches it, while it still looks
    alive) hands every figure back: each is drawn here, every file written."""
    from geoik import render

    figs = _figures(planar, spatial)[:3]
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(render, "_cores", lambda: 2)
        with render.figure_helper():
            (helper,) = render._helpers
            helper.proc.kill()
            helper.proc.wait()
            mp.setattr(render._FigureHelper, "alive", lambda self: True)
            items = [(fig, tmp_path / f"f{i}.png", 60) for i, fig in enumerate(figs)]
            render.save_each(items)
    for _, path, _ in items:
        assert path.read_bytes().startswith(PNG_MAGIC)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["f0.png", "f1.png", "f2.png"]


def test_a_failed_figure_stops_the_helper_and_leaves_no_file_behind(planar, spatial, tmp_path):
    """A figure that cannot be written here (its folder is gone) raises as ``save_figure``
    does; the helper is stopped (its work dropped), and no temporary file is left."""
    from geoik import render

    figs = _figures(planar, spatial)[:3]
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(render, "_cores", lambda: 2)
        with render.figure_helper():
            (helper,) = render._helpers
            items = [(fig, tmp_path / "gone" / f"f{i}.png", 60) for i, fig in enumerate(figs)]
            with pytest.raises(OSError):
                render.save_each(items)
            assert not helper.alive()
            items = [(fig, tmp_path / f"f{i}.png", 60) for i, fig in enumerate(figs)]
            render.save_each(items)  # drawn here: the helper has been stopped
    assert sorted(p.name for p in tmp_path.iterdir()) == ["f0.png", "f1.png", "f2.png"]


def test_one_core_starts_no_figure_helper(planar, tmp_path, monkeypatch):
    from geoik import render

    monkeypatch.setattr(render, "_cores", lambda: 1)
    with render.figure_helper():
        assert not render._helpers
        paths = render.save_each([(plot_solution(planar), tmp_path / "a.png", 60)] * 2)
    assert [p.name for p in paths] == ["a.png", "a.png"]
