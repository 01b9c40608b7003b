"""Regressions for faults found under adversarial input: each ends in a typed GeoIKError or a
finite, honest result, never a traceback, a hang or NaN."""

from __future__ import annotations

import math
import os
import signal
import subprocess
import sys
import time

import numpy as np
import pytest

import geoik as ik
from geoik.batch.engine import evaluate
from geoik.checks import MAX_COORDINATE, MAX_ITER, MAX_LINKS, MAX_MOTION_BYTES
from geoik.solvers import REGISTRY, chain_methods
from tests.interrupts import run_interrupted_at
from tests.notices import is_compile_notice


def test_a_solution_pose_is_a_valid_start_when_a_limit_ends_at_180_degrees():
    chain = ik.Chain.planar([1, 1], max_bend_deg=[None, (90, 180)])
    sol = ik.solve(chain, (0, 0), method="fabrik")
    again = ik.solve(chain, (0, 0), start=sol.pose)
    assert again.status is sol.status
    np.testing.assert_allclose(again.positions, sol.positions, atol=1e-12)
    # the same joint given as -180 degrees is the same angle, inside [90, 180]
    ik.solve(chain, (0, 0), start=[0.0, -math.pi])
    with pytest.raises(ik.InvalidPoseError, match=r"joint 1 at -90"):
        ik.solve(chain, (0, 0), start=[0.0, -math.pi / 2])


@pytest.mark.parametrize("method", ["ccd", "fabrik", "dls"])
def test_a_huge_iteration_budget_is_refused_before_memory_runs_out(method):
    chain = ik.Chain.planar([1.0] * 60)
    with pytest.raises(ik.InvalidOptionError, match=r"max_iter: .* GB of motion.*at most"):
        ik.solve(
            chain, (30.0, 20.0), method=method, max_iter=10**6 * (60 if method != "ccd" else 1)
        )
    with pytest.raises(ik.InvalidOptionError, match=f"at most {MAX_ITER:,}"):
        ik.solve(chain, (30.0, 20.0), method=method, max_iter=10**23)


def test_the_largest_allowed_budget_records_within_the_memory_bound():
    chain = ik.Chain.planar([1.0] * 60)
    solver = REGISTRY["ccd"]
    message = ""
    try:
        ik.solve(chain, (30.0, 20.0), method="ccd", max_iter=10**6)
    except ik.InvalidOptionError as e:
        message = str(e)
    most = int(message.rsplit("at most ", 1)[1].replace(",", ""))
    assert solver.capacity(60, most) * 60 * 8 <= MAX_MOTION_BYTES
    assert solver.capacity(60, most + 1) * 60 * 8 > MAX_MOTION_BYTES or most == MAX_ITER
    sol = ik.solve(chain, (30.0, 20.0), method="ccd", max_iter=most)
    assert sol.status is ik.Status.REACHED


def test_batch_budgets_and_coordinates_are_checked():
    chain = ik.Chain.planar([1.0] * 5)
    with pytest.raises(ik.InvalidOptionError, match="max_iter"):
        evaluate(chain, [[1.0, 1.0]], "ccd", max_iter=10**20)
    with pytest.raises(ik.InvalidOptionError, match="GB of motion"):
        evaluate(chain, [[1.0, 1.0]], "ccd", max_iter=10**9)
    # without costs nothing is recorded: a large budget is only a budget
    res = evaluate(chain, [[1.0, 1.0]], "ccd", max_iter=10**9, costs=False)
    assert res.status[0] == ik.Status.REACHED
    for bad in ([[1 + 2j, 1.0]], [[True, False]], [["1", "2"]], [[1e300, 0.0]], [[math.nan, 0]]):
        with pytest.raises(ik.InvalidTargetError, match="targets"):
            evaluate(chain, bad, "ccd")


@pytest.mark.parametrize("method", sorted(chain_methods()))
def test_far_targets_stay_finite_or_are_refused(method):
    chain = ik.Chain.planar([1.0, 2.0] if method == "two-bone" else [1.0, 2.0, 1.5])
    for target in ((MAX_COORDINATE, MAX_COORDINATE), (-MAX_COORDINATE, 3.0)):
        sol = ik.solve(chain, target, method=method)
        assert np.all(np.isfinite(sol.positions)) and math.isfinite(sol.error)
        assert sol.status is not ik.Status.REACHED
        assert sol.error == pytest.approx(math.dist(sol.positions[-1], target), rel=1e-12)
    with pytest.raises(ik.InvalidTargetError, match=r"within \+-1e\+50"):
        ik.solve(chain, (1e300, 1e300), method=method)
    with pytest.raises(ik.InvalidTargetError, match="finite"):
        ik.solve(chain, (True, 1.0), method=method)


def test_chains_are_capped_in_links_and_size():
    with pytest.raises(ik.InvalidChainError, match=f"at most {MAX_LINKS:,} links"):
        ik.Chain.planar(np.ones(MAX_LINKS + 1))
    with pytest.raises(ik.InvalidChainError, match=r"lengths\[1\]"):
        ik.Chain.planar([1.0, 1e300])
    with pytest.raises(ik.InvalidChainError, match="base"):
        ik.Chain.spatial([1.0], base=(0.0, 0.0, 1e300))


def _geoik(*args: str, **kw) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "geoik", *args], capture_output=True, text=True, timeout=120, **kw
    )


def test_chain_files_that_are_no_files_or_nest_too_deep_are_refused(tmp_path):
    deep = tmp_path / "deep.json"
    deep.write_text('{"lengths": ' + "[" * 100_000 + "]" * 100_000 + "}")
    fifo = tmp_path / "fifo.json"
    os.mkfifo(fifo)
    for path, words in ((deep, "nested too deeply"), (fifo, "named pipe"), (tmp_path, "directory")):
        proc = _geoik("solve", "--chain", str(path), "--target", "1,1")
        assert proc.returncode == 2 and proc.stdout == ""
        assert (
            proc.stderr
            == f"geoik: error: --chain {path}: expected " + proc.stderr.split(": expected ", 1)[1]
        )
        assert words in proc.stderr and len(proc.stderr.splitlines()) == 1


@pytest.mark.parametrize(
    ("moment", "size"),
    [
        ("import:numpy.linalg", 500),  # NumPy importing (an extension module's import)
        ("import:llvmlite.binding.ffi", 500),  # numba importing: LLVM's library loading
        ("import:numba.core.decorators", 500),  # numba importing, in Python code
        ("call:geoik.commands._progress:ProgressBar.update", 500),  # a tile done, more to come
        ("call:geoik.maps.figures:maps_figure", 60),  # the map done, its figure being drawn
    ],
    ids=["numpy", "llvm", "numba", "computing", "drawing"],
)
def test_ctrl_c_at_any_moment_of_a_map_ends_in_one_line(moment, size, tmp_path):
    """A SIGINT while NumPy or numba is still importing, while the map is computed or while its
    figure is drawn: one line and exit status 130, never a traceback. (Before geoik's code runs
    at all, in the interpreter's first few tens of milliseconds, Python itself reports it.) The
    Ctrl-C comes at each moment itself (tests/interrupts.py), whatever the machine's speed."""
    argv = ["map", "--lengths", "1x5", "--method", "dls", "--size", str(size)]
    proc = run_interrupted_at(moment, [*argv, "--metric", "path", "-o", str(tmp_path / "m.png")])
    # the notice of kernels being compiled (a first run) may come before; nothing else does
    said = [line for line in proc.stderr.splitlines(keepends=True) if not is_compile_notice(line)]
    assert said == ["geoik: interrupted\n"], proc.stderr
    # 130, or the process ends by the signal itself: Python does so on exit when the Ctrl-C came
    # while C code ran Python code (an extension module importing), as shells expect
    assert proc.returncode in (130, -signal.SIGINT)
    assert proc.stdout == "" or moment.endswith("maps_figure")  # the figure: after the summary
    assert not (tmp_path / "m.png").exists()


def test_ctrl_c_while_numba_types_a_compiled_function_argument_is_raised_once_it_returns(
    monkeypatch,
):
    """A compiled function passed to a kernel (as the batch engines pass a solver's kernel) is
    typed on each call by numba's C dispatcher, which reads its ``_numba_type_`` through
    ``PyObject_HasAttr``: that call clears any exception raised inside, so a KeyboardInterrupt
    raised there was lost, and the command ran on to its end (1 or 2 in 100 sweeps interrupted
    at their first tile). The CLI raises it as soon as the reading has returned."""
    from numba import njit
    from numba.core.dispatcher import Dispatcher

    from geoik.commands import cli

    @njit
    def apply(f, x):
        return f(x)

    @njit
    def twice(x):
        return 2.0 * x

    assert apply(twice, 1.0) == 2.0  # compiled before the reading is made to press Ctrl-C
    original = Dispatcher.__dict__["_numba_type_"]
    source = (
        "import os, signal\n"
        "def _numba_type_(self):\n"
        "    if not pressed:  # once: the first reading, numba's C code then reads it again\n"
        "        pressed.append(True)\n"
        "        os.kill(os.getpid(), signal.SIGINT)  # the handler runs here, in the reading\n"
        "    return fget(self)\n"
    )
    where = os.path.join(os.sep, "site", "numba", "core", "dispatcher.py")
    ns: dict = {"fget": original.fget, "pressed": []}
    exec(compile(source, where, "exec"), ns)
    results = []
    inherited = signal.signal(signal.SIGINT, signal.default_int_handler)  # as in a terminal
    try:
        with cli._interrupts() as seen, pytest.raises(KeyboardInterrupt):
            monkeypatch.setattr(Dispatcher, "_numba_type_", property(ns["_numba_type_"]))
            results.append(apply(twice, 2.0))  # typed, and run, without the interrupt
            monkeypatch.setattr(Dispatcher, "_numba_type_", original)
            for _ in range(600):  # interrupted here, by the next alarm (a hang guard: 60 s)
                time.sleep(0.1)
    finally:
        signal.signal(signal.SIGINT, inherited)
    assert results == [4.0] and seen
    assert signal.getitimer(signal.ITIMER_REAL) == (0.0, 0.0)  # no alarm left behind


def test_ctrl_c_inside_a_native_callback_is_raised_once_it_returns():
    """While numba compiles, llvmlite calls Python back from C; a KeyboardInterrupt raised there
    would be printed as ignored. The CLI raises it as soon as the callback has returned."""
    from geoik.commands import cli

    source = (
        "import os, signal, time\n"
        "def callback():\n"
        "    os.kill(os.getpid(), signal.SIGINT)\n"
        "    start = time.monotonic()\n"
        "    while time.monotonic() - start < 0.1:\n"
        "        pass\n"
        "    return 'returned'\n"
    )
    fake = os.path.join(os.sep, "site", "llvmlite", "binding", "callback.py")
    ns: dict = {}
    exec(compile(source, fake, "exec"), ns)
    results = []
    # Python's own handler first, as in a terminal: pytest run as a background job inherits
    # SIGINT ignored, and _interrupts then (rightly) leaves it so
    inherited = signal.signal(signal.SIGINT, signal.default_int_handler)
    try:
        with cli._interrupts() as seen, pytest.raises(KeyboardInterrupt):
            results.append(ns["callback"]())  # not interrupted inside
            for _ in range(600):  # interrupted here, out of the callback, by the next alarm
                time.sleep(0.1)
    finally:
        signal.signal(signal.SIGINT, inherited)
    assert results == ["returned"] and seen
    assert signal.getitimer(signal.ITIMER_REAL) == (0.0, 0.0)  # no alarm left behind


@pytest.mark.parametrize(
    ("name", "where"),
    [("cb", "<frozen importlib._bootstrap>"), ("__del__", os.path.join(os.sep, "site", "m.py"))],
    ids=["import-lock", "finalizer"],
)
def test_ctrl_c_inside_a_weakref_callback_or_finalizer_is_raised_once_it_returns(
    name, where, monkeypatch
):
    """While a module imports, the import system drops a freed module lock in a weak reference
    callback (importlib's ``cb``), and objects' ``__del__`` run as they are freed: Python prints a
    KeyboardInterrupt raised in either as ignored and goes on. The CLI raises it once the
    callback has returned, as for llvmlite's: nothing printed, the Ctrl-C not lost."""
    import weakref

    from geoik.commands import cli

    source = (
        "import os, signal, time\n"
        f"def {name}(*args):\n"
        "    os.kill(os.getpid(), signal.SIGINT)\n"
        "    start = time.monotonic()\n"
        "    while time.monotonic() - start < 0.1:\n"
        "        pass\n"
        "    done.append('returned')\n"
    )
    results: list[str] = []
    ns: dict = {"done": results}
    exec(compile(source, where, "exec"), ns)
    ignored: list = []
    monkeypatch.setattr(sys, "unraisablehook", ignored.append)

    class Held:
        pass

    held = Held()
    ref = weakref.ref(held, ns[name])  # called from C as ``held`` is freed
    inherited = signal.signal(signal.SIGINT, signal.default_int_handler)
    try:
        with cli._interrupts() as seen, pytest.raises(KeyboardInterrupt):
            del held  # the callback runs here, from C, and is not interrupted inside
            for _ in range(600):  # interrupted here, out of the callback, by the next alarm
                time.sleep(0.1)
    finally:
        signal.signal(signal.SIGINT, inherited)
    assert results == ["returned"] and seen and ref() is None
    assert ignored == []  # nothing printed as ignored
    assert signal.getitimer(signal.ITIMER_REAL) == (0.0, 0.0)


def _arm() -> ik.Robot:
    """Two revolute joints and a prismatic one, in a line."""
    eye = np.tile(np.eye(3), (3, 1, 1))
    return ik.Robot(
        joint_names=("a", "b", "c"),
        kinds=("revolute", "revolute", "prismatic"),
        parents=np.array([-1, 0, 1]),
        origin_xyz=np.array([[0.0, 0.0, 0.0], [0.0, 0.0, 0.5], [0.0, 0.0, 0.5]]),
        origin_rot=eye,
        axes=np.array([[0.0, 0.0, 1.0], [0.0, 1.0, 0.0], [0.0, 0.0, 1.0]]),
        lo=np.array([-2.0, -2.0, 0.0]),
        hi=np.array([2.0, 2.0, 0.2]),
        tip_names=("tip",),
        tip_parents=np.array([2]),
        tip_xyz=np.array([[0.0, 0.0, 0.3]]),
        tip_rot=np.eye(3)[None],
    )


@pytest.mark.parametrize("method", ["dls", "ccd"])
def test_a_robot_budget_beyond_the_motion_cap_is_refused_as_for_chains(method):
    arm = _arm()
    solver = REGISTRY[method]
    for solve in (
        lambda it: ik.solve(arm, (0.2, 0.1, 0.6), method=method, max_iter=it),
        lambda it: ik.solve_tree(arm, {"tip": (0.2, 0.1, 0.6)}, method=method, max_iter=it),
    ):
        with pytest.raises(ik.InvalidOptionError, match=r"max_iter: .* GB of motion.*at most"):
            solve(10**9)
        with pytest.raises(ik.InvalidOptionError) as err:
            solve(MAX_ITER)
        most = int(str(err.value).rsplit("at most ", 1)[1].replace(",", ""))
        assert solver.capacity_general(arm.n, most) * arm.n * 8 <= MAX_MOTION_BYTES
        assert solver.capacity_general(arm.n, most + 1) * arm.n * 8 > MAX_MOTION_BYTES


def test_a_batch_too_large_for_memory_is_refused_before_the_targets_are_copied():
    chain = ik.Chain.planar([1.0] * 5)
    # a view of 10**13 targets costs nothing; its results would take hundreds of terabytes
    huge = np.broadcast_to(np.zeros(2), (10**13, 2))
    with pytest.raises(ik.InvalidOptionError, match=r"^targets: expected results that fit in"):
        evaluate(chain, huge, "ccd")
    sk = ik.Skeleton.from_chains([("a", [1.0, 1.0]), ("b", [1.0])])
    rows = np.broadcast_to(np.zeros((1, 2, 2)), (10**13, 2, 2))
    with pytest.raises(ik.InvalidOptionError, match=r"10,000,000,000,000 rows of targets, about"):
        evaluate(sk, rows, "circles")


def test_batches_and_maps_are_checked_against_the_memory_available(monkeypatch):
    import geoik.checks.memory
    from geoik.maps import metric_map, volume_map

    monkeypatch.setattr(geoik.checks.memory, "memory_limit", lambda: 4_000_000)  # 4 MB left
    monkeypatch.setattr(geoik.checks.memory, "_SMALL_RESULT", 0)  # check even small results
    chain = ik.Chain.planar([1.0] * 5)
    targets = np.random.default_rng(3).uniform(-4, 4, (100_000, 2))
    message = r"expected results that fit in the memory available \(4 MB\), got 100,000 targets"
    with pytest.raises(ik.InvalidOptionError, match=message):
        evaluate(chain, targets, "ccd")
    few = evaluate(chain, targets[:1000], "ccd", tol=0.01, max_iter=5)  # 65 kB fit
    assert few.status.shape == (1000,)
    with pytest.raises(ik.InvalidOptionError, match=r"^size: .*got 1 map of 300x300 pixels"):
        metric_map(chain, "ccd", size=300)
    with pytest.raises(ik.InvalidOptionError, match=r"^size: .*got 1 map of 64x64x64 voxels"):
        volume_map(ik.Chain.spatial([1.0] * 3), "ccd", size=64)
    assert metric_map(chain, "ccd", size=20, tol=0.01, max_iter=5).values.shape == (20, 20)


def test_the_command_line_names_the_flag_that_asks_for_too_much_memory(monkeypatch, capsys):
    import geoik.checks.memory
    from geoik.commands.cli import main

    monkeypatch.setattr(geoik.checks.memory, "memory_limit", lambda: 4_000_000)
    monkeypatch.setattr(geoik.checks.memory, "_SMALL_RESULT", 0)
    for argv, flag in (
        (["map", "--lengths", "1x3", "--size", "300"], "--size"),
        (["map", "--lengths", "1x3", "--volume", "64"], "--volume"),
        (["compare", "--lengths", "1x3", "--methods", "ccd,fabrik", "--size", "200"], "--size"),
    ):
        assert main(argv) == 2
        captured = capsys.readouterr()
        assert captured.out == ""
        assert captured.err.startswith(f"geoik: error: {flag}: expected results that fit in ")
        assert len(captured.err.splitlines()) == 1


@pytest.mark.parametrize("method", ["fabrik", "ccd", "dls", "auto"])
def test_huge_start_angles_give_angles_that_are_the_pose_reported(method):
    """A start angle of 1e20 rad: the kernels' floor-based wrap would lose the angle (the answer
    was 1.6e20 rad, or a pose 3 away from the one reported); it is reduced exactly on entry."""
    chain = ik.Chain.planar([1.0, 1.0, 1.0], max_bend_deg=[None, None, 170])
    for start in ([1e300, 0.5, 0.1], [1e20, -1e20, 0.0], [1e15 + 0.3, 7.0, -0.2]):
        given = chain.pose_from_angles(start).positions
        for target in (given[-1], (1.0, 1.5)):
            sol = ik.solve(chain, target, method=method, start=start)
            assert np.all(np.abs(sol.angles) <= math.pi)
            fk = chain.pose_from_angles(sol.angles).positions
            np.testing.assert_allclose(fk, sol.positions, atol=1e-12)
            if target is given[-1]:
                assert sol.iterations == 0
                np.testing.assert_allclose(sol.positions, given, atol=1e-12)
