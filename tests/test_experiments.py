"""The reproduction machinery (never the papers' numbers)."""

from __future__ import annotations

import math

import numpy as np
import pytest

from geoik.cli import main
from geoik.experiments import EXPERIMENTS, get
from geoik.experiments import single_pass_2009 as sp
from geoik.experiments import triangulation_2007 as tri


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


def test_unknown_experiment_lists_known():
    with pytest.raises(ValueError, match="single-pass-2009"):
        get("nope")


def test_single_pass_tables_have_every_published_row(tmp_path):
    res = sp.run(tmp_path)
    names = {t.name for t in res.tables}
    assert {"table1", "table2", "table3_chord", "table3_arc"} <= names
    published = {"table1": sp.TABLE_I, "table2": sp.TABLE_II, "table3_chord": sp.TABLE_III}
    for t in res.tables:
        if t.name not in published:
            continue
        assert len(t.rows) == len(sp.TARGETS)
        for k, m in enumerate(sp.PUBLISHED_METHODS):
            if f"{m} pub" in t.columns:
                col = t.columns.index(f"{m} pub")
                assert [row[col] for row in t.rows] == [p[k] for p in published[t.name]]
                assert f"{m} geoik" in t.columns
        assert t.notes, "every table notes its differences"
    for f in res.files:
        assert f.exists() and f.stat().st_size > 0
    assert (tmp_path / "single-pass-2009_fig9.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_triangulation_same_seed_same_tables(tmp_path, monkeypatch):
    monkeypatch.setattr(tri, "QUICK_TARGETS", 12)
    a = tri.run(tmp_path / "a", seed=5, quick=True)
    b = tri.run(tmp_path / "b", seed=5, quick=True)
    c = tri.run(tmp_path / "c", seed=6, quick=True)
    assert [t.rows for t in a.tables] == [t.rows for t in b.tables]
    assert [t.rows for t in a.tables] != [t.rows for t in c.tables]
    main_rows = {row[0] for row in a.tables[0].rows}
    for key in ("targets out of reach (%)", "further unreachable by chain B (%)"):
        assert key in main_rows
    assert any(r.startswith("CCD reached within 20") for r in main_rows)
    assert any("mean cost C, triangulation" in r for r in main_rows) or (
        "triangulation" not in tri.methods()
    )


def test_cli_experiment_prints_main_table(tmp_path, capsys):
    assert main(["experiment", "single-pass-2009", "--out", str(tmp_path)]) == 0
    out = capsys.readouterr().out
    assert "Table I" in out and "(15.17, 4.58)" in out
    assert (tmp_path / "single-pass-2009.md").exists()
    assert set(EXPERIMENTS) >= {"single-pass-2009", "triangulation-2007"}


def test_cli_experiment_unknown_name(capsys):
    assert main(["experiment", "nope"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "triangulation-2007" in err
