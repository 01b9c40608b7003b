"""geoik pose: pins on a BVH clip from the command line."""

from __future__ import annotations

import json
import os
from pathlib import Path

import numpy as np

import geoik as ik
from geoik.commands.cli import main

WALK = Path(__file__).parent / "data" / "bvh" / "freebvh_walk.bvh"
LEFT = "mixamorig:LeftFoot"


def test_pose_pins_a_foot_and_writes_the_clip(tmp_path, capsys):
    out = tmp_path / "planted.bvh"
    argv = ["pose", str(WALK), "--pin", f"{LEFT}@11-24", "--tol", "1e-4", "-o", str(out)]
    code = main([*argv, "--json", "--quiet"])
    assert code == 0
    summary = json.loads(capsys.readouterr().out)
    assert summary["pins"] == [
        {"joint": LEFT, "frames": 14, "reached": 14, "max_error": summary["pins"][0]["max_error"]}
    ]
    assert summary["pins"][0]["max_error"] <= 1e-4
    sk, frames, _ = ik.load_bvh(WALK)
    _, posed, _ = ik.load_bvh(out)
    held = posed.positions[11:25, sk.index(LEFT)]
    assert np.abs(held - frames.positions[11, sk.index(LEFT)]).max() <= 1e-4 + 1e-6


def test_pose_targets_and_limits_files(tmp_path, capsys):
    pins = tmp_path / "pins.toml"
    pins.write_text(f'[[pin]]\njoint = "{LEFT}"\nframes = "11-24"\n')
    limits = tmp_path / "limits.json"
    limits.write_text(json.dumps({"max_bend_deg": {"mixamorig:LeftLeg": 140}}))
    out = tmp_path / "o.bvh"
    args = ["pose", str(WALK), "--targets", str(pins), "--limits", str(limits), "-o", str(out)]
    assert main([*args, "--quiet"]) == 0
    text = capsys.readouterr().out
    assert "reached on 14 of 14 frames" in text and out.exists()


def test_pose_errors_name_the_flag(tmp_path, capsys):
    out = str(tmp_path / "o.bvh")
    for argv, words in (
        (["--pin", "nose"], "--pin nose: expected a joint"),
        (["--pin", f"{LEFT}@5-500"], "--pin mixamorig:LeftFoot@: expected frames within 0-68"),
        (["--pin", f"{LEFT}=1,2"], "--pin mixamorig:LeftFoot: expected 3 numbers separated"),
        (["--pin", LEFT, "--method", "ccd"], "--method: expected one of circles, fabrik"),
        ([], "--pin: expected at least one pin"),
    ):
        assert main(["pose", str(WALK), *argv, "-o", out, "--quiet"]) == 2
        assert words in capsys.readouterr().err
    bad = tmp_path / "bad.bvh"
    bad.write_text("HIERARCHY\nROOT a\n{\n OFFSET 0 0 0\n}\n")
    assert main(["pose", str(bad), "--pin", "a", "-o", out]) == 2
    assert "MOTION" in capsys.readouterr().err
    assert not Path(out).exists()


def test_an_output_that_is_the_input_is_refused_before_any_work(tmp_path, capsys):
    clip = tmp_path / "walk.bvh"
    clip.write_bytes(WALK.read_bytes())
    (tmp_path / "sym.bvh").symlink_to(clip)
    os.link(clip, tmp_path / "hard.bvh")
    pins = tmp_path / "pins.toml"
    pins.write_text(f'[[pin]]\njoint = "{LEFT}"\n')
    before = clip.read_bytes()
    for flag, out, input_words in (
        ("-o", clip, f"(IN.bvh {clip})"),
        ("--output", tmp_path / "sym.bvh", f"(IN.bvh {clip})"),
        ("-o", tmp_path / "hard.bvh", f"(IN.bvh {clip})"),
        ("-o", pins, f"(--targets {pins})"),
    ):
        argv = ["pose", str(clip), "--pin", f"{LEFT}@11-24", "--targets", str(pins)]
        assert main([*argv, flag, str(out), "--quiet"]) == 2
        captured = capsys.readouterr()
        assert captured.out == "" and len(captured.err.splitlines()) == 1
        assert captured.err.startswith(f"geoik: error: {flag}: expected another file than the ")
        assert input_words in captured.err
    assert clip.read_bytes() == before and (tmp_path / "sym.bvh").is_symlink()
    assert pins.read_text() == f'[[pin]]\njoint = "{LEFT}"\n'


def test_an_output_that_is_a_directory_is_named_as_typed(tmp_path, capsys, monkeypatch):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "out").mkdir()
    assert main(["pose", str(WALK), "--pin", LEFT, "-o", "out", "--quiet"]) == 2
    assert (
        capsys.readouterr().err == "geoik: error: -o: expected a file name, got the folder 'out'\n"
    )
    assert list((tmp_path / "out").iterdir()) == [] and sorted(os.listdir(tmp_path)) == ["out"]


def test_contradictory_pins_are_refused_as_typed(tmp_path, capsys):
    out = tmp_path / "o.bvh"
    pins = tmp_path / "pins.toml"
    pins.write_text(f'[[pin]]\njoint = "{LEFT}"\nframes = "0-5"\ntarget = [1, 2, 3]\n')
    for argv, head, other in (
        (
            [f"{LEFT}=1,2,3@10-20", f"{LEFT}@15-30"],
            f"--pin {LEFT}@15-30",
            f"--pin {LEFT}=1,2,3@10-20",
        ),
        ([f"{LEFT}@3", "--targets", str(pins)], f"--targets {pins}: pin[0]", f"--pin {LEFT}@3"),
    ):
        argv = ["--pin", argv[0], *(["--pin", argv[1]] if argv[1].startswith(LEFT) else argv[1:])]
        assert main(["pose", str(WALK), *argv, "-o", str(out), "--quiet"]) == 2
        err = capsys.readouterr().err
        assert err.startswith(
            f"geoik: error: {head}: expected one target for '{LEFT}' on each frame"
        )
        assert f" from {other} on frame" in err and len(err.splitlines()) == 1
    assert not out.exists()
