"""The command line: outputs agree with geoik.solve, argument parsing, and every error path."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

import geoik as ik
from geoik import checks
from geoik.commands._args import parse_lengths, parse_max_bend, parse_options, parse_point
from geoik.commands.cli import COMMANDS, build_parser, command_names, join_negative_values, main
from geoik.solvers import REGISTRY
from tests.notices import without_compile_notices

PNG_MAGIC = b"\x89PNG\r\n\x1a\n"


def run(capsys, *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def links_for(solver) -> int:
    lo, hi = solver.links
    return lo if hi == lo else max(lo, 3) if hi is None else min(max(lo, 3), hi)


def cases():
    for name, solver in REGISTRY.items():
        for dim in solver.dims:
            yield pytest.param(name, dim, id=f"{name}-{dim}d")


# --------------------------------------------------------------------------- solve outputs


@pytest.mark.jit_auto  # a first run says nothing on standard error, as a user's does
def test_solve_text_agrees_with_api(capsys):
    code, out, err = run(
        capsys, "solve", "--lengths", "2x10", "--target", "8.33,2.83", "--method", "ccd"
    )
    assert code == 0 and err == ""
    sol = ik.solve(ik.Chain.planar([2.0] * 10), (8.33, 2.83), method="ccd")
    fields = dict(line.split(":", 1) for line in out.splitlines() if ":" in line and line[0] != " ")
    assert fields["status"].strip() == sol.status.name
    assert int(fields["iterations"]) == sol.iterations
    assert float(fields["error"].split()[0]) == pytest.approx(sol.error, rel=1e-5)
    c = ik.costs(sol)
    assert f"rotations over 5 deg:  {c.rotations_over_5deg}" in out
    rows = [line.split() for line in out.splitlines() if line.startswith("    ")]
    angles = [float(r[1]) for r in rows if len(r) == 2 and r[0].isdigit()]
    np.testing.assert_allclose(angles, np.degrees(sol.angles), atol=1e-4)


@pytest.mark.parametrize(("method", "dim"), list(cases()))
def test_solve_json_agrees_with_api(capsys, method, dim):
    n = links_for(REGISTRY[method])
    target = "2.5,1.5" if dim == 2 else "2.0,1.5,1.0"
    code, out, err = run(
        capsys, "solve", "--lengths", f"1.5x{n}", "--target", target, "--method", method, "--json"
    )
    assert code == 0, err
    rec = json.loads(out)
    t = [float(v) for v in target.split(",")]
    chain = ik.Chain.planar([1.5] * n) if dim == 2 else ik.Chain.spatial([1.5] * n)
    sol = ik.solve(chain, t, method=method)
    c = ik.costs(sol)
    assert rec["method"] == method
    assert rec["status"] == sol.status.name
    assert rec["iterations"] == sol.iterations
    assert rec["error"] == pytest.approx(sol.error, abs=1e-12)
    assert rec["tol"] == pytest.approx(sol.tol)
    assert rec["costs"] == pytest.approx(
        {
            "rotations_over_5deg": c.rotations_over_5deg,
            "rotation_sum_deg": c.rotation_sum_deg,
            "path_length": c.path_length,
            "iterations": c.iterations,
        }
    )
    np.testing.assert_allclose(rec["angles_deg"], np.degrees(sol.angles), atol=1e-9)
    np.testing.assert_allclose(rec["positions"], sol.positions, atol=1e-9)
    assert rec["chain"]["lengths"] == [1.5] * n and rec["chain"]["dim"] == dim
    # the printed angles reproduce the printed positions by forward kinematics
    fk = chain.pose_from_angles(np.radians(rec["angles_deg"])).positions
    np.testing.assert_allclose(fk, rec["positions"], atol=1e-9)


def test_solve_3d_text_says_rotation_vectors(capsys):
    code, out, _ = run(capsys, "solve", "--lengths", "3x4", "--target", "4,5,3", "--method", "ccd")
    assert code == 0
    assert "rotation vectors in degrees" in out


def test_plot_writes_png(capsys, tmp_path):
    png = tmp_path / "ccd.png"
    code, out, err = run(
        capsys,
        "solve",
        "--lengths",
        "2x10",
        "--target",
        "8.33,2.83",
        "--method",
        "ccd",
        "--plot",
        str(png),
    )
    assert code == 0, err
    assert png.read_bytes()[:8] == PNG_MAGIC
    assert [p.name for p in tmp_path.iterdir()] == ["ccd.png"]
    assert str(png) in out


def test_start_deg_agrees_with_api(capsys):
    code, out, _ = run(
        capsys,
        "solve",
        "--lengths",
        "2x4",
        "--target",
        "3,4",
        "--method",
        "ccd",
        "--start-deg",
        "10,20,-30,40",
        "--json",
    )
    assert code == 0
    sol = ik.solve(
        ik.Chain.planar([2.0] * 4), (3, 4), method="ccd", start=np.radians([10, 20, -30, 40])
    )
    np.testing.assert_allclose(json.loads(out)["positions"], sol.positions, atol=1e-12)


def test_max_bend_applies_to_every_joint(capsys):
    code, out, _ = run(
        capsys,
        "solve",
        "--lengths",
        "2x5",
        "--target",
        "-3,4",
        "--max-bend-deg",
        "-30:120",
        "--json",
    )
    assert code == 0
    rec = json.loads(out)
    assert rec["chain"]["max_bend_deg"] == [[-30.0, 120.0]] * 5
    assert all(-30 - 1e-6 <= a <= 120 + 1e-6 for a in rec["angles_deg"])


# --------------------------------------------------------------------------- chain files


def test_chain_file_toml_and_json_agree_with_lengths(capsys, tmp_path):
    toml = tmp_path / "arm.toml"
    toml.write_text('lengths = "2x3"\nmax_bend_deg = [90, "none", [-30, 120]]\n')
    js = tmp_path / "arm.json"
    js.write_text(json.dumps({"lengths": [2, 2, 2], "max_bend_deg": [90, None, "-30:120"]}))
    outs = []
    for path in (toml, js):
        code, out, err = run(capsys, "solve", "--chain", str(path), "--target", "1,4", "--json")
        assert code == 0, err
        outs.append(json.loads(out))
    code, out, _ = run(
        capsys,
        "solve",
        "--lengths",
        "2x3",
        "--target",
        "1,4",
        "--max-bend-deg",
        "90,None,-30:120",
        "--json",
    )
    assert outs[0] == outs[1] == json.loads(out)


def test_chain_file_3d_with_hinges(capsys, tmp_path):
    path = tmp_path / "leg.json"
    chain = {"lengths": [4, 4], "hinge_axes": [None, [0, 0, 1]], "max_bend_deg": [60, [0, 150]]}
    path.write_text(json.dumps(chain))
    code, out, err = run(capsys, "solve", "--chain", str(path), "--target", "5,2,1", "--json")
    assert code == 0, err
    rec = json.loads(out)
    assert rec["chain"]["hinge_axes"] == [None, [0.0, 0.0, 1.0]]
    assert rec["angles_deg"][1][0] == pytest.approx(0.0, abs=1e-9)


# --------------------------------------------------------------------------- parsers


def test_parse_lengths():
    assert parse_lengths("2x10") == [2.0] * 10
    assert parse_lengths("9,9,9,9,4") == [9.0, 9.0, 9.0, 9.0, 4.0]
    assert parse_lengths("9x4, 4") == [9.0] * 4 + [4.0]
    assert parse_lengths("0.5X2") == [0.5, 0.5]


@pytest.mark.parametrize("text", ["2x0", "abc", "0", "-1", "2x", "x3", "2x1.5", "nan", "1,,2"])
def test_parse_lengths_rejects(text):
    with pytest.raises(ik.GeoIKError, match="--lengths"):
        parse_lengths(text)


def test_parse_point():
    assert parse_point("8.33,2.83") == [8.33, 2.83]
    assert parse_point("1, -2, 3") == [1.0, -2.0, 3.0]


@pytest.mark.parametrize("text", ["1", "1,2,3,4", "nan,1", "1,inf", "", "a,b"])
def test_parse_point_rejects(text):
    with pytest.raises(ik.InvalidTargetError, match="--target"):
        parse_point(text)


def test_parse_max_bend():
    assert parse_max_bend("90") == 90.0
    assert parse_max_bend("none") is None
    assert parse_max_bend("-30:120") == (-30.0, 120.0)
    assert parse_max_bend("126,90,None,-30:120") == [126.0, 90.0, None, (-30.0, 120.0)]


@pytest.mark.parametrize("text", ["abc", "1:x", "90,,z"])
def test_parse_max_bend_rejects(text):
    with pytest.raises(ik.InvalidChainError, match="--max-bend-deg"):
        parse_max_bend(text)


def test_parse_options():
    assert parse_options(["elbow=-1", "pole=0,0,1"]) == {"elbow": -1.0, "pole": (0.0, 0.0, 1.0)}
    assert parse_options(None) == {}


@pytest.mark.parametrize("item", ["elbow", "=1", "elbow=abc", "pole=1,x"])
def test_parse_options_rejects(item):
    with pytest.raises(ik.InvalidOptionError, match="--opt"):
        parse_options([item])


def test_negative_values_join_their_option():
    argv = ["solve", "--target", "-5,3", "--max-bend-deg", "-30:120", "--json"]
    assert join_negative_values(argv) == [
        "solve",
        "--target=-5,3",
        "--max-bend-deg=-30:120",
        "--json",
    ]


# --------------------------------------------------------------------------- errors


def one_line_error(code: int, out: str, err: str) -> str:
    assert code == 2
    assert out == ""
    err = without_compile_notices(err)  # a first run's, with an empty numba cache
    lines = err.splitlines()
    assert len(lines) == 1, err
    assert lines[0].startswith("geoik: error: ")
    assert "Traceback" not in err
    return lines[0]


SOLVE = ("solve", "--lengths", "2x3", "--target", "1,1")
SOLVE_3D = ("solve", "--lengths", "2x3", "--target", "1,1,0")


@pytest.mark.parametrize(
    ("argv", "needle"),
    [
        (("solve", "--lengths", "2x0", "--target", "1,1"), "--lengths"),
        (("solve", "--lengths", "abc", "--target", "1,1"), "--lengths"),
        (("solve", "--lengths", "2x3", "--target", "1,2,3,4"), "--target"),
        (("solve", "--lengths", "2x3", "--target", "nan,1"), "--target"),
        (("solve", "--lengths", "2x3"), "--target"),
        (("solve", "--target", "1,1"), "--lengths"),
        ((*SOLVE, "--opt", "nosuchoption=1"), "nosuchoption"),
        ((*SOLVE, "--opt", "broken"), "--opt"),
        ((*SOLVE, "--max-bend-deg", "200"), "--max-bend-deg[0]: expected a maximum bend"),
        ((*SOLVE, "--max-bend-deg", "90,90"), "--max-bend-deg: expected None, one value"),
        ((*SOLVE, "--max-bend-deg", "50:10"), "--max-bend-deg[0]: expected min <= max"),
        ((*SOLVE, "--tol", "abc"), "--tol"),
        ((*SOLVE, "--tol", "-1"), "--tol: expected a finite distance > 0, got -1.0"),
        ((*SOLVE, "--max-iter", "0"), "--max-iter: expected an integer >= 1, got 0"),
        ((*SOLVE, "--method", "dls", "--opt", "damping=-1"), "--opt damping: expected"),
        ((*SOLVE, "--start-deg", "0,0,120", "--max-bend-deg", "90"), "--start-deg[2]: joint 2"),
        (
            (*SOLVE_3D, "--start-deg", "0,0,0,0,0,0,0,100,0", "--max-bend-deg", "30"),
            "--start-deg[2]: joint 2 bends 100 degrees",
        ),
        ((*SOLVE, "--start-deg", "1,2"), "--start-deg"),
        ((*SOLVE, "--chain", "x.toml"), "--chain"),
        (("solve", "--chain", "/no/such/file.toml", "--target", "1,1"), "/no/such/file.toml"),
        ((*SOLVE, "--plot", "/no/such/dir/x.png"), "/no/such/dir/x.png"),
        (("solve", "--lengths", "2x3", "--target", "1,1", "--bogus"), "--bogus"),
        (("bogus",), "bogus"),
        ((), "command"),
    ],
)
def test_errors_are_one_line_exit_2(capsys, argv, needle):
    line = one_line_error(*run(capsys, *argv))
    assert needle in line


def test_unknown_method_lists_the_known_ones(capsys):
    line = one_line_error(*run(capsys, *SOLVE, "--method", "nosuch"))
    assert "nosuch" in line
    assert all(name in line for name in REGISTRY)


@pytest.mark.parametrize("name", [n for n, s in REGISTRY.items() if s.links[1] is not None])
def test_too_many_links_for_a_bounded_solver(capsys, name):
    n = REGISTRY[name].links[1] + 1
    line = one_line_error(
        *run(capsys, "solve", "--lengths", f"2x{n}", "--target", "1,1", "--method", name)
    )
    assert name in line


def test_two_bone_on_three_links(capsys):
    if "two-bone" not in REGISTRY:
        pytest.skip("two-bone is not registered")
    line = one_line_error(*run(capsys, *SOLVE, "--method", "two-bone"))
    assert "two-bone" in line and "3" in line


@pytest.mark.parametrize(
    ("content", "suffix", "needle"),
    [
        ('lengths = "2x3"\ncolour = 1\n', ".toml", "colour"),
        ("lengths = [1, -2]\n", ".toml", "lengths[1]"),
        ("max_bend_deg = 90\n", ".toml", "lengths"),
        ("lengths = [1, \n", ".toml", "TOML"),
        ('{"lengths": [1, 1], "base": [0]}', ".json", "base"),
        ('{"lengths": [1, 1], "max_bend_deg": [90, "wobbly"]}', ".json", "max_bend_deg[1]"),
        ("[1, 2]", ".json", "table"),
    ],
)
def test_chain_file_errors_name_the_field(capsys, tmp_path, content, suffix, needle):
    path = tmp_path / f"chain{suffix}"
    path.write_text(content)
    line = one_line_error(*run(capsys, "solve", "--chain", str(path), "--target", "1,1"))
    assert needle in line


# --------------------------------------------------------------------------- methods, help


def test_methods_lists_the_registry(capsys):
    """One line per solver with its summary and source, then every option with its default."""
    code, out, _ = run(capsys, "methods")
    assert code == 0
    lines = out.splitlines()
    for name, solver in REGISTRY.items():
        (line,) = [x for x in lines if x.split()[:1] == [name] and solver.summary in x]
        assert line.endswith(f"[{solver.source}]")
        for o in solver.options:
            default = o.default if isinstance(o.default, tuple) else (o.default,)
            assert any(f"{o.name}={','.join(f'{v:g}' for v in default)}" in x for x in lines)
    for name, solver in REGISTRY.items():
        code, out, _ = run(capsys, "methods", name)
        assert code == 0
        assert out.startswith(f"{name}  {solver.summary}") and solver.source in out
        assert all(f"--opt {o.name}=" in out for o in solver.options)
    line = one_line_error(*run(capsys, "methods", "nosuch"))
    assert "nosuch" in line and all(name in line for name in REGISTRY)
    code, out, _ = run(capsys, "methods", "--json")
    rec = json.loads(out)
    assert set(rec) == set(REGISTRY)
    for name, solver in REGISTRY.items():
        assert {k: v["default"] for k, v in rec[name]["options"].items()} == {
            o.name: list(o.default) if isinstance(o.default, tuple) else o.default
            for o in solver.options
        }


def test_every_command_module_registers():
    names = command_names()
    assert {"solve", "methods"} <= set(names)
    assert len(names) >= len(COMMANDS)


@pytest.mark.parametrize("argv", [(), *((c,) for c in command_names())])
def test_help_at_every_level_has_examples(capsys, argv):
    code, out, _ = run(capsys, *argv, "--help")
    assert code == 0
    assert "examples:" in out
    assert "geoik" in out


def test_version(capsys):
    code, out, _ = run(capsys, "--version")
    assert code == 0 and ik.__version__ in out


# --------------------------------------------------------------------------- real processes


def script_or_module() -> list[list[str]]:
    script = Path(sys.executable).with_name("geoik")
    runs = [[sys.executable, "-m", "geoik"]]
    if script.exists():
        runs.append([str(script)])
    return runs


@pytest.mark.parametrize("prefix", script_or_module(), ids=lambda p: Path(p[-1]).name)
def test_real_process(prefix):
    ok = subprocess.run(
        [
            *prefix,
            "solve",
            "--lengths",
            "2x10",
            "--target",
            "8.33,2.83",
            "--method",
            "ccd",
            "--json",
        ],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert ok.returncode == 0, ok.stderr
    assert json.loads(ok.stdout)["status"] == "REACHED"
    bad = subprocess.run(
        [*prefix, "solve", "--lengths", "2x10", "--target", "1,nan"],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert bad.returncode == 2
    assert bad.stdout == ""
    assert bad.stderr.startswith("geoik: error: --target") and bad.stderr.count("\n") == 1


def test_closed_pipe_ends_quietly():
    """A reader that goes away (``geoik methods | head -1``) ends the command without a
    traceback or an error line."""
    env = {k: v for k, v in os.environ.items() if k != "PYTHONUNBUFFERED"}
    proc = subprocess.Popen(
        [sys.executable, "-m", "geoik", "methods"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        env=env,
    )
    proc.stdout.close()  # type: ignore[union-attr]
    err = proc.stderr.read()  # type: ignore[union-attr]
    assert proc.wait(timeout=120) in (0, 1)
    assert err == b""


_EXIT_PROBE = """
import atexit, sys, threading
from geoik.commands import cli

class Teardown:  # says so when Python's teardown frees the module's globals
    def __del__(self):
        sys.stdout.write("teardown\\n")

kept = Teardown()
atexit.register(lambda: print("exit handler", flush=False))
if sys.argv[1] == "thread":  # a thread at work until the command has ended
    main = threading.main_thread()
    threading.Thread(target=lambda: (main.join(), print("thread done"))).start()
sys.argv[1:] = sys.argv[2:]
cli.run()
"""


@pytest.mark.parametrize("thread", [False, True], ids=["alone", "with-thread"])
def test_the_script_exits_with_its_status_output_and_handlers_kept(thread, tmp_path):
    """The script's exit skips Python's teardown only where nothing is lost by it: the status,
    the whole output, the files written and the exit handlers' output kept (also after a map,
    whose engine threads wait for a next run); a thread still at work is waited for, and then
    the teardown runs as usual."""
    png = tmp_path / "map.png"
    map_args = ["map", "--lengths", "1x3", "--method", "fabrik", "--size", "40", "-o", str(png)]
    cases = (
        (["methods"], 0),
        (["solve", "--lengths", "2x3", "--target", "1,nan"], 2),
        (map_args, 0),
    )
    for args, status in cases:
        done = subprocess.run(
            [sys.executable, "-c", _EXIT_PROBE, "thread" if thread else "-", *args],
            capture_output=True,
            text=True,
            timeout=300,
            check=False,
        )
        assert done.returncode == status, done.stderr
        lines = done.stdout.splitlines()
        assert "exit handler" in lines
        if args[0] == "methods":
            assert lines[0].startswith("solvers") and any(w.startswith("  ccd") for w in lines)
        elif args[0] == "map":
            assert f"wrote {png}" in lines
            assert png.read_bytes().endswith(b"IEND\xaeB`\x82")  # the whole PNG
        else:
            assert done.stderr.startswith("geoik: error: --target")
        assert ("thread done" in lines) is thread
        assert ("teardown" in lines) is thread  # a skipped teardown frees nothing


# --------------------------------------------------------------------------- one validation layer


@pytest.mark.parametrize(
    ("argv", "call"),
    [
        (("--target", "1,nan"), lambda: checks.check_point([1.0, float("nan")], 2, "--target")),
        (
            ("--target", "1,2,inf"),
            lambda: checks.check_point([1.0, 2.0, float("inf")], 3, "--target"),
        ),
        (("--tol", "-1"), lambda: checks.check_tol(-1.0, 1.0, "--tol")),
        (("--tol", "abc"), lambda: checks.check_tol("abc", 1.0, "--tol")),
        (("--max-iter", "0"), lambda: checks.check_max_iter(0, 1, "--max-iter")),
        (("--max-iter", "1.5"), lambda: checks.check_max_iter("1.5", 1, "--max-iter")),
    ],
    ids=["target-nan", "target-inf", "tol", "tol-text", "max-iter", "max-iter-text"],
)
def test_the_command_line_says_what_geoik_checks_say(capsys, argv, call):
    """The parsers only turn text into values; the verdict and its words are geoik.checks'."""
    argv = dict(zip(argv[::2], argv[1::2], strict=True))
    full = ["solve", "--lengths", "2x3", "--target", argv.pop("--target", "1,1")]
    full += [x for kv in argv.items() for x in kv]
    line = one_line_error(*run(capsys, *full))
    with pytest.raises(ik.GeoIKError) as expected:
        call()
    assert line == f"geoik: error: {expected.value}"


# --------------------------------------------------------------------------- flags first


def chain_file(tmp_path, text: str, suffix: str = ".json") -> str:
    path = tmp_path / f"chain{suffix}"
    path.write_text(text)
    return str(path)


FLAG_FIRST = [
    # (argv, the start of the message: the flag as typed, [index,] then what was expected)
    ((*SOLVE, "--plot", "out.xyz"), "--plot: expected a file name ending in .png"),
    ((*SOLVE, "--plot", "/no/such/dir/x.png"), "--plot: expected a file in an existing folder"),
    ((*SOLVE, "--plot", "."), "--plot: expected a file name, got the folder"),
    ((*SOLVE, "--tol", "abc"), "--tol: expected a finite distance > 0, got 'abc'"),
    ((*SOLVE, "--tol"), "--tol: expected one argument"),
    ((*SOLVE, "--max-iter", "1.5"), "--max-iter: expected an integer >= 1, got '1.5'"),
    (("solve", "--lengths", "2x3"), "--target: required"),
    (("solve", "--target", "1,1"), "--lengths or --chain or --urdf: one of them is required"),
    ((*SOLVE, "--chain", "a.toml"), "--chain: not allowed with --lengths"),
    ((*SOLVE, "--method", "nosuch"), "--method: expected auto or one of"),
    ((*SOLVE, "--method", "two-bone"), "--lengths: method 'two-bone' needs exactly 2 links"),
    ((*SOLVE, "--opt", "elbow"), "--opt: expected KEY=VALUE"),
    ((*SOLVE, "--json=yes"), "--json: ignored explicit argument 'yes'"),
    ((*SOLVE, "--max-bend-deg", "90,abc,45"), "--max-bend-deg[1]: expected a maximum bend"),
    ((*SOLVE, "--max-bend-deg", "90,nan,45"), "--max-bend-deg[1]: expected a maximum bend"),
    ((*SOLVE, "--max-bend-deg", "90,90,-30"), "--max-bend-deg[2]: expected a maximum bend"),
    ((*SOLVE, "--start-deg", "0,0,x"), "--start-deg[2]: expected a finite number, got 'x'"),
    ((*SOLVE, "--start-deg", "0,nan,0"), "--start-deg[1]: expected a finite number, got nan"),
    (
        (
            "solve",
            "--lengths",
            "2x4",
            "--target",
            "1,1",
            "--start-deg",
            "0,0,0,200",
            "--max-bend-deg",
            "90",
        ),
        "--start-deg[3]: joint 3 at 200 degrees is outside its limits [-90, 90]",
    ),
    (
        (*SOLVE_3D, "--start-deg", "0,0,0,0,x,0,0,0,0"),
        "--start-deg[1]: expected a finite number, got 'x'",
    ),
    (
        (
            "solve",
            "--lengths",
            "1x4",
            "--target",
            "1,2",
            "--method",
            "caa",
            "--max-bend-deg",
            "-10:20",
        ),
        "--max-bend-deg[1]: method 'caa' cannot reach target",
    ),
    (("methods", "nosuch"), "NAME: expected one of"),
    (("experiment", "nosuch"), "NAME: expected one of"),
    (("experiment", "all", "--seed", "x"), "--seed: expected an integer >= 0, got 'x'"),
    (("experiment", "all", "--seed", "-1"), "--seed: expected an integer >= 0, got -1"),
    (("view", "--port", "x"), "--port: expected an integer in [0, 65535], got 'x'"),
    (("map", "--lengths", "1x3", "--size", "x"), "--size: expected an integer number of pixels"),
    (("map", "--lengths", "1x3", "--tile-rows", "0"), "--tile-rows: expected an integer"),
    (("map", "--lengths", "1x3", "--metric", "speed"), "--metric: expected one of iterations"),
    (("map", "--lengths", "1x3", "--tol", "0"), "--tol: expected a finite distance > 0"),
    (("map", "--lengths", "1x3", "--max-iter", "x"), "--max-iter: expected an integer >= 1"),
    (("map", "--lengths", "1x3", "--method", "nope"), "--method: expected auto or one of"),
    (("map", "--lengths", "1x3", "--opt", "bogus=1"), "--opt bogus: method 'ccd' takes no option"),
    (("map", "--lengths", "1x3", "-o", "m.xyz"), "-o: expected a file name ending in .png"),
    (("map", "--lengths", "1x3", "--output", "m.xyz"), "--output: expected a file name ending"),
    (("map", "--lengths", "1x3", "--data", "m.csv"), "--data: expected a file name ending in .npz"),
    (("map", "--lengths", "1x3", "--scheduler", "nonsense"), "--scheduler: cannot connect"),
    (("compare", "--lengths", "1x3"), "--methods: required"),
    (
        ("compare", "--lengths", "1x3", "--methods", "ccd,nope"),
        "--methods: expected auto or one of",
    ),
    (
        ("compare", "--lengths", "1x3", "--methods", "ccd", "--csv", "/no/such/t.csv"),
        "--csv: expected a file in an existing folder",
    ),
    (("sweep", "--joints", "9-2"), "--joints: expected joint counts"),
    (("sweep", "--joints", "2", "--methods", "nope"), "--methods: expected auto or one of"),
    (("sweep", "--joints", "2", "--method", "nope"), "--method: expected auto or one of"),
    (("sweep", "--joints", "2", "--size", "-3"), "--size: expected an integer number of pixels"),
]


@pytest.mark.parametrize(
    ("argv", "start"), FLAG_FIRST, ids=[" ".join(a[1:]) for a, _ in FLAG_FIRST]
)
def test_every_error_starts_with_the_flag_as_typed(capsys, tmp_path, monkeypatch, argv, start):
    pytest.importorskip("dask.distributed") if "--scheduler" in argv else None
    monkeypatch.chdir(tmp_path)
    line = one_line_error(*run(capsys, *argv))
    assert line.startswith(f"geoik: error: {start}"), line
    assert list(tmp_path.iterdir()) == []


@pytest.mark.parametrize("command", ["map", "sweep"])
def test_a_malformed_scheduler_is_refused_before_any_kernel_is_compiled(
    capsys, tmp_path, monkeypatch, command
):
    """A scheduler address that cannot be one is said at once: the maps' checks, which compile
    their kernels with an empty cache (seconds), come after it."""
    pytest.importorskip("dask.distributed")
    from geoik.commands import _maps_run

    def checked(*args, **kw):
        pytest.fail("the maps were checked (their kernels compiled) before the scheduler")

    monkeypatch.setattr(_maps_run, "_check_maps", checked)
    monkeypatch.chdir(tmp_path)
    what = ["--lengths", "1x3"] if command == "map" else ["--joints", "2-4"]
    line = one_line_error(*run(capsys, command, *what, "--scheduler", "tcp://host-without-port"))
    assert line.startswith("geoik: error: --scheduler: cannot connect to"), line
    assert list(tmp_path.iterdir()) == []


CHAIN_FILE_ERRORS = [
    # (file text, suffix, target, what follows "--chain FILE: ")
    ("lengths = [1, \n", ".toml", "1,1", "expected TOML, got a syntax error"),
    ("[1, 2]", ".json", "1,1", "expected a table of chain fields, got [1, 2]"),
    ('{"lengths": [1], "colour": 1}', ".json", "1,1", "colour: expected one of the fields"),
    ('{"max_bend_deg": 90}', ".json", "1,1", "lengths: expected link lengths"),
    ('{"lengths": "2x0"}', ".json", "1,1", "lengths: expected positive link lengths"),
    ('{"lengths": [1, -2]}', ".json", "1,1", "lengths[1]: expected a finite length > 0"),
    ('{"lengths": [1, 1], "dim": 4}', ".json", "1,1", "dim: expected 2 or 3, got 4"),
    ('{"lengths": [1, 1], "base": [0]}', ".json", "1,1", "base: expected 2 finite coordinates"),
    (
        '{"lengths": [1, 1], "max_bend_deg": [90, "wobbly"]}',
        ".json",
        "1,1",
        "max_bend_deg[1]: expected",
    ),
    (
        '{"lengths": [1, 1], "max_bend_deg": "90,wobbly"}',
        ".json",
        "1,1",
        "max_bend_deg[1]: expected",
    ),
    ('{"lengths": [1, 1], "max_bend_deg": [90, 200]}', ".json", "1,1", "max_bend_deg[1]: expected"),
    ('{"lengths": [1, 1, 1], "max_bend_deg": [90, 90]}', ".json", "1,1", "max_bend_deg: expected"),
    (
        '{"lengths": [1, 1], "hinge_axes": [[1, 0, 0], null]}',
        ".json",
        "1,1,1",
        "hinge_axes[0]: expected an axis perpendicular to the link",
    ),
    (
        '{"lengths": [1, 1], "dim": 2, "hinge_axes": [null, null]}',
        ".json",
        "1,1",
        "hinge_axes: expected none in a 2-D chain",
    ),
    ('{"lengths": [1, 1, 1]}', ".json", "1,1,1 --method two-bone", "method 'two-bone' needs"),
]


@pytest.mark.parametrize(("text", "suffix", "target", "rest"), CHAIN_FILE_ERRORS)
def test_chain_file_errors_have_one_form(capsys, tmp_path, text, suffix, target, rest):
    """``--chain FILE: field[i]: expected ..., got ...``, whatever the field."""
    path = chain_file(tmp_path, text, suffix)
    target, *more = target.split()
    line = one_line_error(*run(capsys, "solve", "--chain", path, "--target", target, *more))
    assert line.startswith(f"geoik: error: --chain {path}: {rest}"), line


def test_an_unreadable_chain_file_is_named(capsys):
    line = one_line_error(*run(capsys, "solve", "--chain", "/no/such/arm.toml", "--target", "1,1"))
    assert line.startswith("geoik: error: --chain /no/such/arm.toml: expected a readable")


# --------------------------------------------------------------------------- hints in CLI syntax


PYTHON = ("] *", "(min, max)", "[(", "None]")


@pytest.mark.parametrize(
    ("argv", "hint"),
    [
        (
            (*SOLVE, "--max-bend-deg", "90,90"),
            "(the range 90:90 for every joint: --max-bend-deg 90:90; one bend per joint: 90,90,90)",
        ),
        ((*SOLVE, "--max-bend-deg", "-90,90"), "--max-bend-deg -90:90"),
        (
            ("solve", "--lengths", "2x10", "--target", "1,1", "--max-bend-deg", "90,90"),
            "90,90,... (10 entries)",
        ),
        (
            (*SOLVE, "--max-bend-deg", "-30"),
            "got -30.0 (a signed range is MIN:MAX, such as -30:120)",
        ),
        (
            (*SOLVE_3D, "--max-bend-deg", "-30:120"),
            "[0]: a MIN:MAX range needs a planar chain or a hinge joint",
        ),
        ((*SOLVE, "--max-bend-deg", "-200:10"), "got -200:10"),
        (
            (
                "solve",
                "--lengths",
                "1x4",
                "--target",
                "1,2",
                "--method",
                "caa",
                "--max-bend-deg",
                "-10:20",
            ),
            "leaving its limits -10:20 (degrees)",
        ),
        (
            (
                "solve",
                "--lengths",
                "1x2",
                "--target",
                "1,1",
                "--method",
                "two-bone",
                "--opt",
                "pole=1,nan",
            ),
            "--opt pole: expected 3 finite numbers, got 1,nan",
        ),
    ],
)
def test_hints_say_what_to_type(capsys, argv, hint):
    line = one_line_error(*run(capsys, *argv))
    assert hint in line, line
    assert not any(p in line for p in PYTHON), line


@pytest.mark.parametrize(
    ("text", "target", "hint"),
    [
        (
            '{"lengths": [1, 1, 1], "max_bend_deg": [90, 90]}',
            "1,1",
            '(the range 90:90 for every joint: "90:90")',
        ),
        (
            '{"lengths": [1, 1, 1], "max_bend_deg": -30}',
            "1,1",
            '(a signed range: [-30, 120] or "-30:120")',
        ),
        (
            '{"lengths": [1, 1], "max_bend_deg": [90, [1, 2, 3]]}',
            "1,1",
            "or a [min, max] pair, got [1, 2, 3]",
        ),
        (
            '{"lengths": [1, 1], "max_bend_deg": [90, [-10, 20]]}',
            "1,1,1",
            "a [min, max] pair needs a planar chain",
        ),
        (
            '{"lengths": [1, 1, 1], "hinge_axes": [0, 0, 1]}',
            "1,1,1",
            "got the single axis [0, 0, 1] (for every joint: [[0, 0, 1], [0, 0, 1], [0, 0, 1]])",
        ),
    ],
)
def test_chain_file_hints_say_what_to_write(capsys, tmp_path, text, target, hint):
    path = chain_file(tmp_path, text)
    line = one_line_error(*run(capsys, "solve", "--chain", path, "--target", target))
    assert hint in line, line
    assert not any(p in line for p in PYTHON), line


# --------------------------------------------------------------------------- parsers, commands


def every_parser(parser=None):
    from geoik.commands.cli import subparsers

    parser = parser or build_parser()
    yield parser
    for sub in subparsers(parser).values():
        yield from every_parser(sub)


def test_no_parser_takes_abbreviations():
    parsers = list(every_parser())
    assert len(parsers) == 1 + len(command_names())
    assert all(p.allow_abbrev is False for p in parsers)


@pytest.mark.parametrize(
    ("argv", "start"),
    [
        (
            ("compare", "--lengths", "1x3", "--method", "ccd"),
            "--method: unknown option of 'geoik compare'; did you mean --methods?",
        ),
        (
            (*SOLVE, "--max-it", "5"),
            "--max-it: unknown option of 'geoik solve'; did you mean --max-iter?",
        ),
        ((*SOLVE, "--meth=ccd"), "--meth: unknown option of 'geoik solve'; did you mean --method?"),
        (
            ("map", "--lengths", "1x3", "--out", "m.png"),
            "--out: unknown option of 'geoik map'; did you mean --output?",
        ),
        (
            (*SOLVE, "--xyzzy"),
            "--xyzzy: unknown option of 'geoik solve' (see 'geoik solve --help')",
        ),
        ((*SOLVE, "extra"), "unexpected argument 'extra' (see 'geoik solve --help')"),
        (("--vers",), "--vers: unknown option of 'geoik'; did you mean --version?"),
    ],
)
def test_abbreviations_are_usage_errors_naming_the_flag(capsys, argv, start):
    line = one_line_error(*run(capsys, *argv))
    assert line.startswith(f"geoik: error: {start}"), line


def test_no_command_lists_the_registered_commands(capsys):
    line = one_line_error(*run(capsys))
    names = command_names()
    assert {"solve", "methods", "map", "compare", "sweep", "experiment", "view"} <= set(names)
    assert line == f"geoik: error: expected a command ({', '.join(names)}); see 'geoik --help'"
    line = one_line_error(*run(capsys, "bogus"))
    assert f"expected a command ({', '.join(names)}), got 'bogus'" in line


def test_help_lists_every_command(capsys):
    code, out, _ = run(capsys, "--help")
    assert code == 0
    commands = out.split("commands:")[1].split("examples:")[0]
    listed = re.findall(r"^    (\S+)", commands, re.MULTILINE)
    assert listed == command_names()


# --------------------------------------------------------------------------- start-up cost

LIGHT = (
    "import sys; from geoik.commands.cli import main; main({argv}); "
    "print(sorted(m for m in sys.modules if m.split('.')[0] in "
    "('matplotlib','dask','distributed','starlette','uvicorn') or m in ('geoik.maps.metric',"
    "'geoik.batch.engine','geoik.maps.tiles','geoik.render','geoik.maps.figures') "
    "or m.startswith('geoik.experiments')))"
)


@pytest.mark.parametrize(
    "argv",
    [
        ["solve", "--lengths", "2x3", "--target", "1,1"],
        ["solve", "--lengths", "2x3", "--target", "1,1,1", "--json"],
        ["--help"],
        ["methods"],
        *[[name, "--help"] for name in ("solve", "map", "compare", "sweep", "experiment", "view")],
    ],
    ids=lambda a: " ".join(a),
)
def test_the_command_line_starts_without_heavy_modules(argv):
    """Building the parser and solving import no plotting, Dask, viewer server, batch engine,
    metric maps or experiments."""
    code = LIGHT.format(argv=argv)
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, timeout=120, check=True
    )
    assert out.stdout.strip().splitlines()[-1] == "[]"


def test_static_help_texts_match_the_library():
    """The help texts that stand in for imports say what the library says."""
    from geoik.commands import experiment, maps
    from geoik.experiments import EXPERIMENTS
    from geoik.maps import tiles
    from geoik.maps import volume as library_maps

    assert maps.DEFAULT_TILE_ROWS == tiles.DEFAULT_TILE_ROWS
    assert maps.MAX_VOLUME == library_maps.MAX_VOLUME
    assert maps.VOLUME_TILE_TARGETS == library_maps.VOLUME_TILE_TARGETS
    assert tuple((k, m.TITLE) for k, m in EXPERIMENTS.items()) == experiment.TITLES
    assert experiment.quick_help(EXPERIMENTS) == experiment.QUICK_HELP
