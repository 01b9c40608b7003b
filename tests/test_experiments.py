"""The reproduction machinery (never the papers' numbers)."""

from __future__ import annotations

import math

import numba
import numpy as np
import pytest

import geoik as ik
import geoik.experiments
from geoik.commands.cli import main
from geoik.experiments import EXPERIMENTS, get
from geoik.experiments import metric_maps_2010 as mm
from geoik.experiments import single_pass_2009 as sp
from geoik.experiments import triangulation_2007 as tri
from geoik.experiments._report import ExperimentResult, Table, diff, write_text
from geoik.experiments._stats import band_means, components, rank_correlation, ranks
from geoik.experiments.metric_maps_2010.tables import void_near_start
from geoik.experiments.single_pass_2009.figures import TRACE_LEGEND
from geoik.maps.palette import LENGTH_UNIT


@pytest.fixture
def small(monkeypatch):
    """Quick mode made smaller still: a dozen targets, 16 x 16 maps of 2-6 joints, one timing
    run per map."""
    monkeypatch.setattr(tri.study, "QUICK_TARGETS", 12)
    monkeypatch.setattr(mm.study, "QUICK_SIZE", 16)
    monkeypatch.setattr(mm.study, "JOINTS", (2, 3, 4, 5, 6))
    monkeypatch.setattr(mm.study, "REPEATS", 1)


# --- seed 000: the cube of targets -------------------------------------------------------------


def test_cube_fraction_matches_sampling():
    """The analytic fraction of the cube outside the ball agrees with random targets."""
    expected = tri.cube_outside_ball_fraction(30.0, 40.0)
    pts = tri.targets(200_000, seed=3)
    observed = float(np.mean(np.linalg.norm(pts, axis=1) > 40.0))
    sigma = math.sqrt(expected * (1 - expected) / len(pts))
    assert abs(observed - expected) < 4 * sigma


@pytest.mark.parametrize(("half", "r"), [(30.0, 10.0), (1.0, 2.0), (1.0, 1.2)])
def test_cube_fraction_limits(half, r):
    f = tri.cube_outside_ball_fraction(half, r)
    if r <= half:
        assert f == pytest.approx(1 - 4 / 3 * math.pi * r**3 / (2 * half) ** 3, rel=1e-9)
    elif r >= half * math.sqrt(3):
        assert f == pytest.approx(0.0, abs=1e-12)
    else:
        assert 0.0 < f < 1 - 4 / 3 * math.pi * half**3 / (2 * half) ** 3


@pytest.mark.parametrize("radius", [5.0, 12.9, 33.0, 45.0])
def test_ball_radius_inverts_the_fraction(radius):
    inside = 1 - tri.cube_outside_ball_fraction(30.0, radius)
    assert tri.ball_radius_inside(inside, 30.0) == pytest.approx(radius, abs=1e-3)


def test_targets_fill_the_cube_and_follow_the_seed():
    a, b, c = tri.targets(500, 1), tri.targets(500, 1), tri.targets(500, 2)
    assert a.shape == (500, 3) and np.array_equal(a, b) and not np.array_equal(a, c)
    assert np.all(np.abs(a) <= tri.BOX / 2)


def test_chain_b_dead_zone_is_unreachable():
    """Targets inside chain B's minimum reach are never reached, whatever the solver."""
    chain = tri.chains()["B"]
    rmin = chain.reach()[0]
    rng = np.random.default_rng(4)
    d = rng.normal(size=(20, 3))
    pts = d / np.linalg.norm(d, axis=1)[:, None] * rng.uniform(0.5, 0.95 * rmin, (20, 1))
    for m in ("ccd", "triangulation"):
        run = tri.run_method(chain, m, pts, "rest")
        assert not np.any(run["status"] == ik.geometry.REACHED)


# --- seed 000: the per-target runs -------------------------------------------------------------


def test_run_method_start_distances_follow_the_start_reading():
    chain = tri.chains()["A"]
    pts = tri.targets(5, seed=8)
    rest = tri.run_method(chain, "ccd", pts, "rest")
    tip = chain.rest_pose().positions[-1]
    assert np.allclose(rest["start_dist"], np.linalg.norm(pts - tip, axis=1))
    prev = tri.run_method(chain, "ccd", pts, "previous")
    start, ends = None, [tip]
    for t in pts[:-1]:
        sol = ik.solve(chain, t, method="ccd", tol=tri.TOL, max_iter=tri.MAX_ITER, start=start)
        start = sol.pose
        ends.append(sol.positions[-1])
    assert np.allclose(prev["start_dist"], np.linalg.norm(pts - np.array(ends), axis=1))


def test_net_cost_is_at_most_the_performed_cost():
    """Each joint's net change is no more than the rotations it performed; one turn per joint
    (triangulation) makes them equal."""
    chain = tri.chains()["A"]
    pts = tri.targets(30, seed=2)
    for m in ("ccd", "triangulation", "fabrik"):
        run = tri.run_method(chain, m, pts, "rest")
        assert np.all(run["net"] <= run["performed"] + 1e-6)
        assert np.all(run["net_last"] <= run["net"] + 1e-9)
    tri_run = tri.run_method(chain, "triangulation", pts, "rest")
    assert np.allclose(tri_run["net"], tri_run["performed"], atol=1e-6)


def test_collect_gives_each_method_its_own_job(monkeypatch):
    """Each method's solves form one job of their own (so a method's kernel is compiled only
    when its own solves would take longer as Python), every unit of it is counted, and the
    progress counts every solve once."""
    from geoik import jit

    opened, real_job = [], jit.job

    def spy(total):
        opened.append(total)
        return real_job(total)

    monkeypatch.setattr(tri.study.jit, "job", spy)
    seen: list[tuple[int, int]] = []
    steps: list[tuple[int, int]] = []
    real_step = jit.Job.step

    def counted(self, units=1):
        real_step(self, units)
        steps.append((id(self), self.done))

    monkeypatch.setattr(jit.Job, "step", counted)
    pts = tri.targets(3, seed=1)
    ms = ["ccd", "fabrik"]
    runs = tri.study.collect(pts, ms, lambda stage, done, total: seen.append((done, total)))
    per_method = len(pts) * len(tri.CHAINS) * len(tri.MODES)
    assert opened == [per_method] * len(ms)
    jobs = list(dict.fromkeys(j for j, _ in steps))
    assert len(jobs) == len(ms)
    assert [max(d for j, d in steps if j == job) for job in jobs] == [per_method] * len(ms)
    assert seen[-1] == (per_method * len(ms), per_method * len(ms))
    assert set(runs) == {(c, m, mode) for c in tri.CHAINS for m in ms for mode in tri.MODES}


def test_triangulation_every_published_number_has_a_row(tmp_path, small):
    res = tri.run(tmp_path, seed=5, quick=True)
    main_table = res.tables[0]
    assert main_table.columns[:4] == ("quantity", "published", "geoik (rest)", "geoik (previous)")
    published = {row[1] for row in main_table.rows}
    assert set(tri.PUBLISHED.values()) <= published
    assert all(row[-1] for row in main_table.rows), "every row has its note"
    assert any(r[0].startswith("Fig. 6") for r in main_table.rows)
    costs = next(t for t in res.tables if t.name == "costs")
    for m in tri.EXTRA:
        assert m in costs.columns
    assert {(r[0], r[1], r[2]) for r in costs.rows} == {
        (c, k, s) for c in tri.CHAINS for k in ("performed", "net") for s in tri.MODES
    }


def test_triangulation_out_of_reach_row_counts_the_targets(tmp_path, small):
    res = tri.run(tmp_path, seed=9, quick=True)
    row = next(r for r in res.tables[0].rows if r[0] == "targets out of reach (%)")
    pts = tri.targets(tri.study.QUICK_TARGETS, 9)
    expected = 100 * float(np.mean(np.linalg.norm(pts, axis=1) > 40.0))
    assert row[2] == row[3] == pytest.approx(expected)


def test_triangulation_same_seed_same_tables(tmp_path, small):
    a = tri.run(tmp_path / "a", seed=5, quick=True)
    b = tri.run(tmp_path / "b", seed=5, quick=True)
    c = tri.run(tmp_path / "c", seed=6, quick=True)
    assert [t.rows for t in a.tables] == [t.rows for t in b.tables]
    assert [t.rows for t in a.tables] != [t.rows for t in c.tables]
    assert (tmp_path / "a" / "triangulation-2007_main.csv").read_text() == (
        tmp_path / "b" / "triangulation-2007_main.csv"
    ).read_text()


# --- seed 002 ----------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def single_pass(tmp_path_factory):
    out = tmp_path_factory.mktemp("sp")
    return out, sp.run(out)


def test_single_pass_tables_have_every_published_row(single_pass):
    out, res = single_pass
    published = {
        "table1": sp.TABLE_I,
        "table2": sp.TABLE_II,
        "table3_chord": sp.TABLE_III,
        "table3_arc": sp.TABLE_III,
    }
    tables = {t.name: t for t in res.tables}
    assert set(published) <= set(tables)
    for name, pub in published.items():
        t = tables[name]
        assert len(t.rows) == len(sp.TARGETS)
        for k, m in enumerate(sp.PUBLISHED_METHODS):
            col = t.columns.index(f"{m} pub")
            assert [row[col] for row in t.rows] == [p[k] for p in pub]
        for threshold in sp.THRESHOLDS:
            assert f"single-pass {threshold:g}° geoik" in t.columns
        assert len(t.notes) == 4, "one note per published column and reading"


def test_single_pass_figures_table_has_every_published_panel(single_pass):
    _, res = single_pass
    t = next(t for t in res.tables if t.name == "figures")
    for name, (_, published) in sp.FIGURES.items():
        fig = name.replace("fig", "Fig. ")
        rows = [r for r in t.rows if r[0] == fig]
        assert {r[2].split(" ")[0] for r in rows} == set(published)
        for r in rows:
            assert r[3] == published[r[2].split(" ")[0]]
            assert r[4] <= r[5] + 1e-9, "the chord sum never exceeds the arc"
            assert r[6]


def test_single_pass_chord_never_exceeds_arc(single_pass):
    _, res = single_pass
    tables = {t.name: t for t in res.tables}
    chord, arc = tables["table3_chord"], tables["table3_arc"]
    for rc, ra in zip(chord.rows, arc.rows, strict=True):
        for col, name in enumerate(chord.columns):
            if name.endswith(" pub") or col < 2:
                continue
            assert rc[col] <= ra[col] + 1e-9


def test_single_pass_threshold_reaches_the_solver(monkeypatch):
    seen = []
    real = ik.solve

    def spy(*args, **kwargs):
        seen.append(kwargs.get("threshold_deg"))
        return real(*args, **kwargs)

    monkeypatch.setattr(ik, "solve", spy)
    for col in sp.columns():
        sp.measure(col, sp.TARGETS[1])
    assert sorted(t for t in seen if t is not None) == sorted(sp.THRESHOLDS)


def test_single_pass_writes_figures(single_pass):
    out, res = single_pass
    for name in sp.FIGURES:
        png = out / f"single-pass-2009_{name}.png"
        assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
        assert png in res.files
    assert all(f.exists() and f.stat().st_size > 0 for f in res.files)
    assert not [p for p in out.iterdir() if p.name.startswith(".")], "no staging left"


def test_single_pass_trace_figures_have_axis_labels_and_a_legend_of_every_line(single_pass):
    _, res = single_pass
    for name in sp.FIGURES:
        fig = res.figures[name]
        panels = [ax for ax in fig.axes if ax.get_visible()]
        assert len(panels) == len(sp.columns())
        (legend,) = fig.legends
        named = [t.get_text() for t in legend.get_texts()]
        assert named == list(TRACE_LEGEND)
        styles = [(h.get_color(), h.get_linestyle(), h.get_marker()) for h in legend.legend_handles]
        for ax in panels:
            assert ax.get_xlabel() == f"x ({LENGTH_UNIT})"
            assert ax.get_ylabel() == f"y ({LENGTH_UNIT})"
            lines = ax.get_lines()
            # every line and marker of the panel is in the legend, drawn as the legend shows it
            assert [ln.get_label() for ln in lines] == named
            assert [(ln.get_color(), ln.get_linestyle(), ln.get_marker()) for ln in lines] == styles


# --- seed 004 ----------------------------------------------------------------------------------


def test_doubling_lengths():
    assert mm.doubling(6) == [16.0, 8.0, 4.0, 2.0, 1.0, 1.0]
    for n in range(2, 11):
        ls = mm.doubling(n)
        assert all(ls[i] == sum(ls[i + 1 :]) for i in range(n - 1))


@pytest.mark.parametrize(("quick", "repeats"), [(True, 1), (False, 2)])
def test_each_timed_map_is_run_as_often_as_its_notes_say(monkeypatch, quick, repeats):
    """The quick run times each map once (QUICK_REPEATS), the full run the best of REPEATS (2
    here): every timed map is run that often, and the timing table and Fig. 11 say so."""
    monkeypatch.setattr(mm.study, "QUICK_REPEATS", repeats if quick else 1)
    monkeypatch.setattr(mm.study, "REPEATS", repeats if not quick else 3)
    monkeypatch.setattr(mm.study, "QUICK_SIZE", 8)
    monkeypatch.setattr(mm.study, "SIZE", 8)
    monkeypatch.setattr(mm.study, "JOINTS", (2, 3, 4, 5, 6))
    runs: list[int] = []
    real = mm.study.best_time
    monkeypatch.setattr(mm.study, "best_time", lambda run, n: (runs.append(n), real(run, n))[1])
    captured = {}
    real_report = mm.report
    monkeypatch.setattr(mm, "report", lambda maps: captured.setdefault("m", real_report(maps)))
    monkeypatch.setattr(ExperimentResult, "write", lambda self, out: None)
    mm.run(None, quick=quick)
    assert runs and set(runs) == {repeats}
    res = captured["m"]
    timing = next(t for t in res.tables if t.name == "timing")
    assert f"best of {repeats} runs each" in timing.notes[0]
    assert f"best of {repeats})" in res.figures["fig11"].axes[0].get_title()


def test_metric_maps_every_figure_has_a_row_and_the_same_tables(tmp_path, small):
    threads = numba.get_num_threads()
    res = mm.run(tmp_path / "a", quick=True)
    assert numba.get_num_threads() == threads, "timing restores numba's threads"
    figures = {row[0] for row in res.tables[0].rows}
    assert figures == {f"Fig. {k}" for k in range(6, 13)}
    assert all(row[4] for row in res.tables[0].rows)
    caa = next(t for t in res.tables if t.name == "ccd_vs_caa")
    assert len(caa.rows) == len(mm.CAA_JOINTS) * len(mm.CAA_ITERS)
    for row in caa.rows:
        assert 0 <= row[3] <= 100 and 0 <= row[5] <= 100
    for k in range(6, 13):
        assert (tmp_path / "a" / f"metric-maps-2010_fig{k}.png").exists()

    def stable(r):
        """Every row but the machine-dependent timings."""
        return [
            [row for row in t.rows if not str(row[0]).startswith("Fig. 11")]
            for t in r.tables
            if t.name != "timing"
        ]

    assert stable(res) == stable(mm.report(mm.compute(mm.study.QUICK_SIZE)))


def test_void_near_start_counts_the_failing_pixels():
    m = mm.make_map([1.0, 1.0], "ccd", "iterations", 24, 10)
    forced = type(m)(**{**m.__dict__, "reached": np.zeros_like(m.reached)})
    assert void_near_start(forced) == 1.0
    forced = type(m)(**{**m.__dict__, "reached": np.ones_like(m.reached)})
    assert void_near_start(forced) == 0.0


# --- helpers -----------------------------------------------------------------------------------


def test_components_are_edge_connected():
    mask = np.zeros((6, 6), dtype=bool)
    mask[0:2, 0:2] = True  # 4 pixels
    mask[2, 2] = True  # touches the first only at a corner
    mask[4:6, 0:6] = True  # 12 pixels
    assert components(mask) == [12, 4, 1]
    assert components(np.zeros((3, 3), dtype=bool)) == []


def test_rank_correlation():
    x = np.arange(10.0)
    assert rank_correlation(x, x**3) == pytest.approx(1.0)
    assert rank_correlation(x, -x) == pytest.approx(-1.0)
    assert math.isnan(rank_correlation(x, np.ones(10)))
    assert list(ranks(np.array([3.0, 1.0, 3.0]))) == [1.5, 0.0, 1.5]


def test_band_means():
    x, y = np.array([1.0, 2.0, 15.0, 99.0]), np.array([1.0, 3.0, 5.0, 7.0])
    assert band_means(x, y, (0.0, 10.0, 20.0, math.inf)) == [(2.0, 2), (5.0, 1), (7.0, 1)]


def test_diff_states_size_and_sign():
    assert diff(8.0, 10.0) == "-2.00 (-20 %)"
    assert diff(8.35, 8.3) == "+0.05 (+0.6 %)"
    assert diff(float("nan"), 1.0) == "no value"


def test_interrupted_write_leaves_the_previous_files(tmp_path):
    class Boom(Table):
        def csv(self) -> str:
            raise KeyboardInterrupt

    write_text(tmp_path / "x_a.csv", "old\n")
    res = ExperimentResult(
        "x", "X", tables=[Table("a", "A", ("c",), ((1,),)), Boom("b", "B", ("c",), ())]
    )
    with pytest.raises(KeyboardInterrupt):
        res.write(tmp_path)
    assert (tmp_path / "x_a.csv").read_text() == "old\n"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["x_a.csv"]


# --- command line ------------------------------------------------------------------------------


def test_unknown_experiment_lists_known():
    with pytest.raises(ValueError, match="single-pass-2009"):
        get("nope")


def test_cli_experiment_all_quick(tmp_path, capsys, small):
    assert main(["experiment", "all", "--quick", "--out", str(tmp_path)]) == 0
    out = capsys.readouterr().out
    for mod in EXPERIMENTS.values():
        assert mod.TITLE in out
        assert (tmp_path / f"{mod.NAME}.md").exists()
    assert "Published against geoik" in out and "Table I" in out
    assert "3 experiments in" in out


@pytest.mark.parametrize(
    ("argv", "needle"),
    [
        (["experiment", "nope"], "triangulation-2007"),
        (["experiment", "all", "--seed", "-1"], "--seed"),
        (["experiment", "all", "--out", "{file}"], "--out: expected a directory"),
    ],
)
def test_cli_experiment_errors_are_one_line(argv, needle, capsys, tmp_path):
    file = tmp_path / "results.txt"
    file.write_text("")
    assert main([a.format(file=file) for a in argv]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and needle in err and err.startswith("geoik: error:")
