"""geoik map / compare / sweep from the command line."""

from __future__ import annotations

import csv

import pytest

from geoik.cli import main
from geoik.commands.maps import sweep_lengths

BASE = ["--lengths", "1x3", "--max-iter", "10", "--tol", "0.01", "--size", "40"]


def test_map_prints_and_writes(tmp_path, capsys):
    out = tmp_path / "m.png"
    assert main(["map", *BASE, "--method", "ccd", "-o", str(out)]) == 0
    text = capsys.readouterr().out
    for word in ("coverage", "mean", "max", "targets/s"):
        assert word in text
    assert out.read_bytes()[:4] == b"\x89PNG"


def test_compare_table_and_csv(tmp_path, capsys):
    table = tmp_path / "t.csv"
    fig = tmp_path / "c.png"
    argv = ["compare", *BASE, "--methods", "ccd,fabrik", "--csv", str(table), "-o", str(fig)]
    assert main(argv) == 0
    rows = list(csv.reader(table.open()))
    assert rows[0][:2] == ["method", "coverage_pct"]
    assert [r[0] for r in rows[1:]] == ["ccd", "fabrik"]
    assert fig.exists()
    assert "fabrik" in capsys.readouterr().out


def test_sweep_csv(tmp_path):
    table = tmp_path / "s.csv"
    argv = ["sweep", "--joints", "2-4", "--max-iter", "5", "--tol", "0.01", "--size", "30",
            "--csv", str(table), "-o", str(tmp_path / "s.png")]  # fmt: skip
    assert main(argv) == 0
    rows = list(csv.reader(table.open()))
    assert [r[0] for r in rows[1:]] == ["2", "3", "4"]
    assert all(0.0 <= float(r[1]) <= 1.0 for r in rows[1:])


def test_doubling_rule_matches_the_seed():
    assert sweep_lengths("doubling", 6) == [16, 8, 4, 2, 1, 1]  # seed 004, Section 5
    assert sweep_lengths("equal", 3) == [1, 1, 1]


@pytest.mark.parametrize(
    "argv, word",
    [
        (["map", *BASE, "--method", "nope"], "method"),
        (["map", *BASE, "--metric", "speed"], "metric"),
        (["map", "--lengths", "1x3", "--size", "0"], "size"),
        (["sweep", "--joints", "9-2"], "--joints"),
        (["compare", *BASE, "--methods", ","], "--methods"),
    ],
)
def test_errors_are_one_line(argv, word, capsys):
    assert main(argv) == 2
    err = capsys.readouterr().err.strip()
    assert "\n" not in err and word in err


def test_failed_write_leaves_nothing(tmp_path, monkeypatch):
    """An interrupted write leaves neither the requested file nor a temporary one."""
    from geoik import render_maps

    def boom(self, *a, **k):
        raise KeyboardInterrupt

    monkeypatch.setattr(render_maps.Figure, "savefig", boom)
    out = tmp_path / "m.png"
    assert main(["map", *BASE, "-o", str(out)]) == 130
    assert list(tmp_path.iterdir()) == []
