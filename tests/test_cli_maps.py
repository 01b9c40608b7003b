"""geoik map / compare / sweep from the command line."""

from __future__ import annotations

import csv
import os
import stat

import numpy as np
import pytest

from geoik.commands.cli import main
from geoik.commands.maps import parse_joints, sweep_lengths
from tests.interrupts import ctrl_c_at_first_progress

BASE = ["--lengths", "1x3", "--max-iter", "10", "--tol", "0.01", "--size", "40"]


def test_map_prints_and_writes(tmp_path, capsys):
    out, data = tmp_path / "m.png", tmp_path / "m.npz"
    assert main(["map", *BASE, "--method", "ccd", "-o", str(out), "--data", str(data)]) == 0
    text = capsys.readouterr().out
    for word in (
        "ccd: 3 links of length 1",
        "I = 10, eps = 0.01",
        "coverage: ",
        "mean ",
        "max ",
        "time: ",
        "targets/s",
        f"wrote {out}",
    ):
        assert word in text
    assert out.read_bytes()[:4] == b"\x89PNG"
    with np.load(data) as arrays:
        assert arrays["values"].shape == (40, 40)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["m.npz", "m.png"]


def test_map_figure_formats(tmp_path):
    out = tmp_path / "m.svg"
    assert main(["map", *BASE, "--contours", "--metric", "path", "-o", str(out)]) == 0
    assert out.read_text().lstrip().startswith("<?xml")


def test_compare_table_and_csv(tmp_path, capsys):
    table = tmp_path / "t.csv"
    fig = tmp_path / "c.png"
    argv = ["compare", *BASE, "--methods", "ccd,fabrik", "--csv", str(table), "-o", str(fig)]
    assert main(argv) == 0
    rows = list(csv.reader(table.open()))
    assert rows[0] == ["method", "coverage_pct", "mean_iterations", "max_iterations", "params"]
    assert [r[0] for r in rows[1:]] == ["ccd", "fabrik"]
    assert all(0.0 <= float(r[1]) <= 100.0 for r in rows[1:])
    assert fig.exists()
    printed = capsys.readouterr().out.splitlines()
    assert any(line.startswith("fabrik") for line in printed)
    assert all(line == line.rstrip() for line in printed)


def test_sweep_csv(tmp_path, capsys):
    table = tmp_path / "s.csv"
    argv = [
        "sweep",
        "--joints",
        "2-4",
        "--max-iter",
        "5",
        "--tol",
        "0.01",
        "--size",
        "30",
        "--csv",
        str(table),
        "-o",
        str(tmp_path / "s.png"),
    ]
    assert main(argv) == 0
    rows = list(csv.DictReader(table.open()))
    assert [r["joints"] for r in rows] == ["2", "3", "4"]
    assert all(0.0 <= float(r["coverage_pct"]) <= 100.0 for r in rows)
    assert [r["lengths"] for r in rows] == ["1,1", "1,1,1", "1,1,1,1"]
    assert (tmp_path / "s.png").exists()


def test_sweep_several_methods_and_rules(tmp_path):
    table = tmp_path / "s.csv"
    argv = [
        "sweep",
        "--joints",
        "2,4",
        "--methods",
        "ccd,caa",
        "--lengths-rule",
        "doubling",
        "--max-iter",
        "20",
        "--tol",
        "0.01",
        "--size",
        "30",
        "--csv",
        str(table),
    ]
    assert main(argv) == 0
    rows = list(csv.DictReader(table.open()))
    assert [(r["joints"], r["method"]) for r in rows] == [
        ("2", "ccd"),
        ("4", "ccd"),
        ("2", "caa"),
        ("4", "caa"),
    ]
    assert rows[1]["lengths"] == "4,2,1,1"
    caa = [float(r["coverage_pct"]) for r in rows if r["method"] == "caa"]
    assert min(caa) > 95.0  # seed 004: CAA covers the workspace


def test_sweep_takes_methods_as_compare_does_and_still_the_old_method(tmp_path, capsys):
    """``--methods`` in both commands; ``sweep --method``, the old spelling, works unlisted."""
    common = ["sweep", "--joints", "2,3", "--max-iter", "5", "--tol", "0.01", "--size", "20"]
    new, old = tmp_path / "new.csv", tmp_path / "old.csv"
    assert main([*common, "--methods", "ccd,fabrik", "--csv", str(new)]) == 0
    assert main([*common, "--method", "ccd,fabrik", "--csv", str(old)]) == 0
    rows = list(csv.DictReader(new.open()))
    assert [r["method"] for r in rows] == ["ccd", "ccd", "fabrik", "fabrik"]
    assert new.read_text() == old.read_text()
    capsys.readouterr()
    assert main(["sweep", "--help"]) == 0
    text = capsys.readouterr().out
    assert "--methods" in text and "--method " not in text and "--method," not in text
    assert main([*common, "--method", "ccd", "--methods", "ccd"]) == 2
    err = capsys.readouterr().err
    assert err.startswith("geoik: error: --method: expected --methods alone")


def test_doubling_rule_matches_the_seed():
    assert sweep_lengths("doubling", 6) == [16, 8, 4, 2, 1, 1]  # seed 004, Section 5
    assert sweep_lengths("equal", 3) == [1, 1, 1]


SPATIAL = ["--lengths", "1x3", "--max-bend-deg", "60", "--max-iter", "10", "--tol", "0.01"]


def test_map_over_a_plane(tmp_path, capsys):
    out, data = tmp_path / "xz.png", tmp_path / "xz.npz"
    argv = ["map", *SPATIAL, "--size", "30", "--plane", "xz", "-o", str(out), "--data", str(data)]
    assert main(argv) == 0
    text = capsys.readouterr().out
    assert "30x30 pixels, plane xz" in text and "reachable points: a solid of revolution" in text
    with np.load(data) as arrays:
        assert str(arrays["plane"]) == "xz" and arrays["values"].shape == (30, 30)
    assert main(["map", *SPATIAL, "--size", "20", "--plane", "0,1,1"]) == 0
    assert "plane normal (0, 1, 1)" in capsys.readouterr().out


def test_map_of_a_volume(tmp_path, capsys):
    out, data = tmp_path / "vol.png", tmp_path / "vol.npz"
    argv = ["map", *SPATIAL, "--volume", "12", "-o", str(out), "--data", str(data)]
    assert main(argv) == 0
    text = capsys.readouterr().out
    assert "12x12x12 voxels" in text and "of the reachable workspace" in text
    assert sorted(p.name for p in tmp_path.iterdir()) == ["vol-coverage.png", "vol.npz", "vol.png"]
    with np.load(data) as arrays:
        assert arrays["values"].shape == (12, 12, 12)


def test_compare_and_sweep_in_3d(tmp_path, capsys):
    table = tmp_path / "c.csv"
    argv = ["compare", *SPATIAL, "--plane", "yz", "--size", "20", "--methods", "ccd,fabrik"]
    assert main([*argv, "--csv", str(table), "-o", str(tmp_path / "c.png")]) == 0
    rows = list(csv.DictReader(table.open()))
    assert [r["method"] for r in rows] == ["ccd", "fabrik"]
    argv = ["compare", *SPATIAL, "--volume", "8", "--methods", "ccd,dls"]
    assert main([*argv, "-o", str(tmp_path / "v.png")]) == 0
    assert "8x8x8 voxels" in capsys.readouterr().out
    sweep = tmp_path / "s.csv"
    argv = ["sweep", "--joints", "2-3", "--max-bend-deg", "60", "--plane", "xz", "--size", "16"]
    assert main([*argv, "--max-iter", "10", "--tol", "0.01", "--csv", str(sweep)]) == 0
    assert "3-D chains" in capsys.readouterr().out
    assert [r["joints"] for r in csv.DictReader(sweep.open())] == ["2", "3"]


@pytest.mark.parametrize(
    "argv, word",
    [
        (["map", *SPATIAL, "--plane", "xw"], "--plane: expected xy, xz, yz or a normal"),
        (["map", *SPATIAL, "--plane", "1,2"], "--plane"),
        (["map", *SPATIAL, "--plane", "0,0,0"], "--plane"),
        (["map", *SPATIAL, "--plane", "xz", "--volume", "8"], "--plane"),
        (["map", *SPATIAL, "--volume", "0"], "--volume"),
        (["map", *SPATIAL, "--volume", "2000"], "--volume"),
        (["map", "--lengths", "1x3", "--max-bend-deg", "-30:120", "--plane", "xz"], "--max-bend"),
        (["sweep", "--joints", "2-3", "--max-bend-deg", "60,40", "--plane", "xz"], "--max-bend"),
    ],
)
def test_3d_errors_are_one_line(argv, word, capsys, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    assert main(argv) == 2
    err = capsys.readouterr().err.strip()
    assert err.startswith("geoik: error: ") and "\n" not in err and word in err, err
    assert list(tmp_path.iterdir()) == []


def test_parse_joints():
    assert parse_joints("2-4") == [2, 3, 4]
    assert parse_joints("2,5, 3") == [2, 3, 5]
    assert parse_joints("2-3,8") == [2, 3, 8]


def test_help_explains(capsys):
    for command in ("map", "compare", "sweep"):
        assert main([command, "--help"]) == 0
        text = capsys.readouterr().out
        assert "examples:" in text and "--scheduler" in text


@pytest.mark.parametrize(
    "argv, word",
    [
        (["map", *BASE, "--method", "nope"], "method"),
        (["map", *BASE, "--metric", "speed"], "metric"),
        (["map", "--lengths", "1x3", "--size", "0"], "size"),
        (["map", *BASE, "--tile-rows", "0"], "--tile-rows"),
        (["map", *BASE, "--opt", "bogus=1"], "bogus"),
        (["map", *BASE, "-o", "m.xyz"], "-o: expected a file name ending in .png"),
        (["map", *BASE, "--output", "m.xyz"], "--output: expected a file name ending in .png"),
        (["map", *BASE, "-o", "/no/such/folder/m.png"], "-o: expected a file in an existing"),
        (["map", *BASE, "--data", "m.csv"], "--data"),
        (["sweep", "--joints", "9-2"], "--joints"),
        (["sweep", "--joints", "2-4", "--csv", "/no/such/folder/s.csv"], "--csv"),
        (["compare", *BASE, "--methods", ","], "--methods"),
        (["compare", *BASE, "--methods", "ccd,nope"], "method"),
    ],
)
def test_errors_are_one_line(argv, word, capsys, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    assert main(argv) == 2
    err = capsys.readouterr().err.strip()
    assert err.startswith("geoik: error: ")
    assert "\n" not in err and word in err
    assert list(tmp_path.iterdir()) == []


def test_failed_write_leaves_nothing(tmp_path, monkeypatch):
    """An interrupted write leaves neither the requested file nor a temporary one."""
    from matplotlib.backends.backend_agg import FigureCanvasAgg

    def boom(self, *a, **k):
        raise KeyboardInterrupt

    monkeypatch.setattr(FigureCanvasAgg, "print_figure", boom)
    out = tmp_path / "m.png"
    assert main(["map", *BASE, "-o", str(out)]) == 130
    assert list(tmp_path.iterdir()) == []


@pytest.mark.parametrize(
    "argv",
    [
        ["map", "--lengths", "1x5", "--method", "dls", "--size", "2500", "-o", "out.png"],
        [
            "sweep",
            "--joints",
            "2-30",
            "--method",
            "dls",
            "--size",
            "600",
            "-o",
            "out.png",
            "--csv",
            "out.csv",
        ],
    ],
    ids=["map", "sweep"],
)
def test_ctrl_c_leaves_nothing(tmp_path, argv):
    """A real SIGINT in the middle of a long map or sweep: exit 130, no file, no leftovers. It
    is sent once the progress bar shows tiles done and most of them still to do (the map is
    far longer than that)."""
    cmd = [*argv, "--tol", "0.01", "--max-iter", "20"]
    run = ctrl_c_at_first_progress(cmd, cwd=tmp_path)
    assert 0 < run.done < run.total // 2, run.stderr
    assert run.returncode == 130, run.stderr
    assert "Traceback" not in run.stderr
    assert run.stderr.splitlines()[-1] == "geoik: interrupted"
    assert list(tmp_path.iterdir()) == []


def test_bad_arguments_refused_before_a_cluster_starts(monkeypatch, capsys):
    from geoik.maps import tiles

    def no_cluster(*a, **k):
        raise AssertionError("a cluster was started for a request that was bound to fail")

    monkeypatch.setattr(tiles, "local_client", no_cluster)
    assert main(["map", *BASE, "--method", "nope", "--scheduler", "local"]) == 2
    assert "method" in capsys.readouterr().err


def test_two_outputs_or_an_output_and_the_chain_file_are_refused_before_any_work(
    tmp_path, capsys, monkeypatch
):
    from geoik.maps import metric

    def no_map(*a, **k):
        raise AssertionError("a map was computed for a request that was bound to fail")

    monkeypatch.setattr(metric, "metric_maps", no_map)
    monkeypatch.chdir(tmp_path)
    chain = tmp_path / "arm.json"
    chain.write_text('{"lengths": [1, 1]}')
    (tmp_path / "data.npz").symlink_to("m.png")  # another name for the figure
    methods = ["--methods", "ccd,fabrik"]
    for argv, words in (
        (["compare", *BASE, *methods, "-o", "c.png", "--csv", "c.png"], "--csv: expected another "
         "file than -o c.png, got 'c.png'"),
        (["sweep", "--joints", "2-3", "--output", "s.png", "--csv", "./s.png"], "--csv: expected "
         "another file than --output s.png, got './s.png', the same file"),
        (["map", *BASE, "-o", "m.png", "--data", "data.npz"], "--data: expected another file "
         "than -o m.png, got 'data.npz', the same file"),
        (["compare", "--chain", str(chain), *methods, "--csv", str(chain)], "--csv: expected "
         f"another file than the input (--chain {chain}), got '{chain}'"),
    ):  # fmt: skip
        assert main(argv) == 2
        captured = capsys.readouterr()
        assert captured.out == "" and captured.err == f"geoik: error: {words}\n"
    assert sorted(os.listdir(tmp_path)) == ["arm.json", "data.npz"]
    assert chain.read_text() == '{"lengths": [1, 1]}'


def test_a_pipe_or_a_device_as_output_is_written_through(tmp_path, capsys):
    import threading

    fifo = tmp_path / "pipe"
    os.mkfifo(fifo)
    got: list[bytes] = []
    reader = threading.Thread(target=lambda: got.append(fifo.read_bytes()))
    reader.start()
    assert main(["compare", *BASE, "--methods", "ccd", "--csv", str(fifo)]) == 0
    reader.join(timeout=60)
    assert got and got[0].decode().splitlines()[0].startswith("method,coverage_pct")
    assert stat.S_ISFIFO(os.lstat(fifo).st_mode)
    capsys.readouterr()
    if os.geteuid() == 0:  # a device such as /dev/null, made here rather than the real one
        null = tmp_path / "null"
        os.mknod(null, stat.S_IFCHR | 0o666, os.makedev(1, 3))
        assert (
            main(["compare", *BASE, "--methods", "ccd", "-o", str(null), "--csv", str(null)]) == 0
        )
        assert stat.S_ISCHR(os.lstat(null).st_mode) and os.lstat(null).st_rdev == os.makedev(1, 3)
    assert sorted(os.listdir(tmp_path)) == ["null", "pipe"][int(os.geteuid() != 0) :]
