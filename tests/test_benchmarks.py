"""The benchmarks' helpers: bench_cold's commands and status parser, and bench_maps' build of the
C reference (which must give geoik's CCD iteration map, pixel for pixel). No timings."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from types import ModuleType

import numpy as np
import pytest

import geoik as ik
from geoik.commands.cli import main
from geoik.maps.metric import metric_map

BENCHMARKS = Path(__file__).resolve().parents[1] / "benchmarks"


def load(name: str) -> ModuleType:
    spec = importlib.util.spec_from_file_location(f"_bench_{name}", BENCHMARKS / f"{name}.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module


@pytest.fixture(scope="module")
def cold() -> ModuleType:
    return load("bench_cold")


@pytest.fixture(scope="module")
def maps() -> ModuleType:
    return load("bench_maps")


def test_cold_cases_take_every_solver(cold):
    assert cold.case_for("ccd", 2).lengths_arg() == "2x10"
    assert cold.case_for("ccd", 3).target_arg() == "4,5,3"
    assert cold.case_for("two-bone", 2).lengths_arg() == "5,4"  # two links only
    cli = cold.case_for("ccd", 2).cli("ccd")
    assert cli[1:] == ["solve", "--lengths", "2x10", "--target", "8.33,2.83", "--method", "ccd"]


def test_cold_times_the_commands_the_readme_and_the_guide_show(cold):
    """Every command bench_cold times is one a user reads in the README or the guide, as
    written there (the tour's and the guide's shell lines, or the set-up line)."""
    root = BENCHMARKS.parent
    pages = [root / "README.md", *sorted((root / "docs").glob("*.md"))]
    text = "\n".join(p.read_text(encoding="utf-8") for p in pages)
    for name, line in cold.COMMAND_LINES.items():
        assert f"geoik {line}" in text, name
    assert set(cold.COMMANDS) >= {"solve", "map", "compare", "sweep", "pose", "view"}


def test_cold_reads_what_a_command_compiled(cold):
    err = (
        "geoik map: compiling kernels, first run only [####] 3/3 functions  9 s\n"
        "geoik map: compiled 22 kernel functions in 8.1 s (first run only: numba caches them "
        "for later runs)\n"
    )
    assert cold.compiled_note(err) == "compiled 22 kernel functions in 8.1 s"
    assert cold.compiled_note("") == "compiled nothing"


@pytest.mark.parametrize("dim", [2, 3])
def test_cold_reads_the_status_the_cli_and_the_api_print(cold, capsys, dim):
    case = cold.case_for("ccd", dim)
    assert main(case.cli("ccd")[1:]) == 0
    assert cold.parse_status(capsys.readouterr().out) == "REACHED"
    exec(case.api("ccd")[-1], {})
    assert cold.parse_status(capsys.readouterr().out) == "REACHED"
    assert cold.parse_status("chain: x\nerror: 0.1\n") is None


def test_c_reference_builds_and_gives_geoiks_map(maps, tmp_path):
    cc = maps.find_compiler()
    if cc is None:
        pytest.skip("no C compiler")
    exes, failures = maps.build_c(cc, tmp_path, {"O3": maps.C_BUILDS["O3"]})
    assert not failures and exes["O3"].exists()
    size = 40
    r = maps.run_c(exes["O3"], "scalar", size, 1, 1, tmp_path / "m")
    assert r["targets_per_s"] > 0 and 0 < r["converged_frac"] < 1
    theirs = np.fromfile(tmp_path / "m_iters.i8", dtype=np.int8)
    chain = ik.Chain.planar([1.0] * maps.N_LINKS)
    ours = metric_map(chain, "ccd", "iterations", size, tol=maps.EPS, max_iter=maps.ITERS)
    assert np.array_equal(maps.iteration_map(ours), theirs)


def test_no_compiler_is_none(maps, monkeypatch):
    assert maps.find_compiler("no-such-compiler-xyz") is None
    monkeypatch.setenv("PATH", "")
    monkeypatch.delenv("CC", raising=False)
    assert maps.find_compiler() is None


@pytest.fixture(scope="module")
def auto_bench() -> ModuleType:
    return load("bench_auto")


def test_bench_auto_targets_are_reachable_and_reported(auto_bench):
    """Its targets are reachable (auto reaches them here too), each contender is run on every
    target, and the table and goal lines name every contender; no timing is checked."""
    problem = auto_bench.problems()[3]  # the limited one
    assert problem.limit == pytest.approx(np.radians(45.0))
    pts = auto_bench.reachable_targets(problem.chain, 20, seed=1)
    for t in pts:
        assert ik.solve(problem.chain, t, tol=auto_bench.TOL).reached
    results = auto_bench.run_problem(problem, 6, 0, False, False, chunk=4)
    assert "auto" in results and "two-bone" not in results
    assert all(len(r.times) == 6 for r in results.values())
    lines = auto_bench.table(problem, results, 6)
    assert all(any(line.split()[:1] == [name.split()[0]] for line in lines) for name in results)
    goal = auto_bench.goal_line(problem, results, 6)
    assert goal.startswith(f"goal, {problem.name}: auto reaches 100%")


def test_bench_robots_reads_every_solution_and_names_unmeasured_arms():
    """bench_robots: geoik's rows run where the arm decomposes (a 7-joint arm's held joint
    swept as EAIK's is, every set read), and a goal over every arm names those it could not be
    measured on instead of calling itself met."""
    pytest.importorskip("yourdfpy")
    robots = load("bench_robots")
    from geoik.robots.urdf import load_example

    panda = load_example("panda")
    rows = robots.geoik_contenders(panda)
    assert all(not isinstance(c, str) for c in rows.values()), rows
    held, values = robots.held_joint(panda)
    assert held == 6 and len(values) == 32 and values[0] == panda.lo[6]
    q = panda.rest_angles() + 0.3
    goal = panda.tip_frame(q)
    every = rows["geoik all"]
    found = every.read(every.call(goal))[0]
    assert found.shape[1] == 7 and len(found) >= 1
    for row in found:
        np.testing.assert_allclose(panda.tip_frame(row), goal, atol=1e-9)
    so100 = robots.geoik_contenders(load_example("so100"))
    assert not isinstance(so100["geoik all"], str), so100["geoik all"]
    thumb = robots.geoik_contenders(load_example("allegro").with_tips("link_15.0_tip"))
    assert isinstance(thumb["geoik analytic"], str) and "no closed form" in thumb["geoik all"]
    assert robots.verdict([("ur5", True), ("so100", None)]) == (
        "met on the 1 arms measured; not available on so100"
    )
    assert robots.verdict([("ur5", False), ("panda", True)]) == "NOT met (ur5)"
    assert robots.verdict([("so100", None)]) == "not available"


def test_bench_robots_explains_a_solution_set_that_differs_near_a_singularity():
    """bench_robots: two exact solution sets of one pose that differ are explained by their
    counts, or by how far apart their pairs lie beside the Jacobian's smallest singular value:
    the Talos arm with its elbow 4e-4 rad from straight (axes 2 and 4 nearly in line) meets the
    pose to 1e-12 m with joints 2 and 4 moved 2e-9 rad in turn, more than the comparison's 1e-9."""
    pytest.importorskip("yourdfpy")
    robots = load("bench_robots")
    from geoik.robots.urdf import load_example

    talos = load_example("talos_arm")
    q = np.array([2.197227014052, 2.07912097765, -4.180335109227e-04, -0.8346121745461,
                  -1.180613906526, 0.5697372025542])  # fmt: skip
    moved = q + 2.2e-9 * np.array([0.0, 1.0, 0.0, -1.0, 0.0, 0.0])
    frame = talos.tip_frame(q)
    assert np.abs(talos.tip_frame(moved)[:3, 3] - frame[:3, 3]).max() < 1e-12
    other = q + np.array([0.0, 0.0, 0.0, 3.0, 0.0, 0.0])
    ours, theirs = [np.array([q, other]), np.array([q])], [np.array([moved, other]), np.array([q])]
    assert robots.same_set_poses(ours, theirs) == [1]
    why = robots.explain_mismatch(talos, ours[0], theirs[0])
    assert why.startswith("the same count, pairs up to 2.2e-09 rad apart")
    assert float(why.split("singular value is ")[1].split()[0]) < 1e-4
    assert robots.smallest_singular_value(talos, q + 0.5) > 1e-2  # far from it
    assert robots.explain_mismatch(talos, ours[0], theirs[1]) == "2 solutions against 1"


def test_bench_first_loop_reads_a_fresh_process_loop():
    """bench_first_loop: a few solves in a fresh process with an empty numba cache are all
    reached, as plain Python (too few to spend the budget that starts the compile helper)."""
    pytest.importorskip("yourdfpy")
    bench = load("bench_first_loop")
    result = bench.run("ur5", 5, 7)
    assert result["reached"] == 5 and result["compiled_from"] is None
    assert 0.0 < result["worst"] <= result["total"]


def test_bench_analytic_scans_the_held_joint_against_the_search(capsys):
    """bench_analytic's ``--dense``: every 7-joint answer is compared with the nearest over a
    scan of the held joint, the counts add up, and following a target on the Panda no answer
    is farther than a scan's nearest."""
    pytest.importorskip("yourdfpy")
    analytic = load("bench_analytic")
    analytic.dense_check(4, 40)
    lines = [line for line in capsys.readouterr().out.splitlines() if "farther than" in line]
    assert len(lines) == 4  # two arms, from rest and following
    for line in lines:
        farther = int(line.split("> 0.001: ")[1].split(",")[0])
        far = int(line.split("> 0.1: ")[1].split(";")[0])
        nearer = int(line.split("nearer: ")[1])
        assert 0 <= far <= farther and farther + nearer <= 4
        if "panda" in line and "following" in line:
            assert farther == 0, line
