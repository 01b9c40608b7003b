"""geoik.jit: kernels run as plain Python until compiling pays, with the same results."""

from __future__ import annotations

import ast
import gc
import json
import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
from numba import njit

import geoik
import geoik as ik
from geoik import jit
from geoik.solvers import REGISTRY, chain_methods

pytestmark = pytest.mark.jit_auto  # the choice between Python and compiling is what is tested

METHODS = sorted(chain_methods())


def _chain(method: str, dim: int, rng: np.random.Generator, limited: bool) -> ik.Chain:
    n = 2 if method == "two-bone" else int(rng.integers(2, 7))
    lengths = rng.uniform(0.5, 2.0, n)
    bend = 70.0 if limited else None
    if dim == 2:
        return ik.Chain.planar(lengths, max_bend_deg=bend)
    hinges = [(0.0, 0.0, 1.0) if i % 2 else None for i in range(n)] if limited else None
    return ik.Chain.spatial(lengths, max_bend_deg=bend, hinge_axes=hinges)


@pytest.mark.parametrize("method", METHODS)
@pytest.mark.parametrize("dim", [2, 3])
def test_interpreted_solves_equal_compiled_ones(method, dim, monkeypatch):
    """The plain-Python twins give what the compiled kernels give, bit for bit: statuses,
    iterations, errors, angles and costs, on random targets and on the special ones
    (the base, the straight chain's line, its end, beyond reach). Both forms run the same float64
    operations (kernels square by ``geometry.sq``, not ``** 2``, which Python hands to ``pow``)."""
    if dim not in REGISTRY[method].dims:
        pytest.skip(f"{method} has no {dim}-D kernel")
    twins = []
    real = jit.interpreted
    monkeypatch.setattr(jit, "interpreted", lambda fn: twins.append(fn) or real(fn))
    rng = np.random.default_rng(7)
    for trial in range(4):
        chain = _chain(method, dim, rng, limited=bool(trial % 2))
        unit = np.eye(dim)[0] * chain.total_length
        targets = [*rng.uniform(-1.1, 1.1, (5, dim)) * chain.total_length, 0 * unit]
        targets += [0.5 * unit, unit, 2 * unit]
        for target in targets:
            out = []
            for how in ("compiled", "interpreted"):
                with jit.mode(how):
                    try:
                        sol = ik.solve(chain, target, method=method, max_iter=15)
                    except ik.LimitError as e:
                        out.append(str(e))
                        continue
                    c = ik.costs(sol)
                    out.append((sol.status, sol.iterations, sol.error, sol.angles.tobytes(), c))
            assert out[0] == out[1], (trial, target)
    assert twins, "the interpreted mode ran no twin"


def test_a_twin_belongs_to_its_function_not_to_its_address():
    """A function made after another was garbage-collected often lands at the same address;
    its plain-Python twin is still its own, not the one of the function gone."""
    for k in range(60):
        f = njit(lambda x, k=k: x + k)
        assert jit.interpreted(f)(0.0) == k
        del f
        gc.collect(1)  # the young generations: where f lies, in milliseconds


def test_trees_interpreted_equal_compiled():
    hand = ik.Skeleton.hand()
    targets = {"index": (1.45, 0.2, -0.45), "thumb": (1.2, 0.45, -0.4)}
    for method in ("circles", "fabrik"):
        sols = []
        for how in ("compiled", "interpreted"):
            with jit.mode(how):
                sols.append(ik.solve_tree(hand, targets, method=method))
        assert sols[0].status == sols[1].status
        np.testing.assert_allclose(sols[0].positions, sols[1].positions, rtol=0, atol=1e-12)


def _run(code: str, cache_dir: str | None) -> dict:
    """Run ``code`` in a fresh interpreter whose numba cache is ``cache_dir`` (None: numba's
    own); ``code`` leaves its findings in ``out`` (a dict), printed as JSON. ``compiled`` counts
    numba compilations."""
    script = (
        "import json\n"
        "from numba.core import event\n"
        "out = {'compiled': 0}\n"
        "class Count(event.Listener):\n"
        "    def on_start(self, e): out['compiled'] += 1\n"
        "    def on_end(self, e): pass\n"
        "event.register('numba:compile', Count())\n" + code + "\nprint(json.dumps(out))\n"
    )
    env = dict(os.environ) if cache_dir is None else dict(os.environ, NUMBA_CACHE_DIR=cache_dir)
    proc = subprocess.run(
        [sys.executable, "-c", script], env=env, capture_output=True, text=True, timeout=600
    )
    assert proc.returncode == 0, proc.stderr
    return json.loads(proc.stdout.strip().splitlines()[-1])


def test_a_cached_kernel_is_compiled_again_when_a_module_its_file_imports_changes(tmp_path):
    """numba keys a cached function by its own file alone, yet the code it saves holds what it
    calls from other modules. In a copy of the package: ``kinematics.angle_between`` (which
    calls ``q_angle`` of ``geometry/quaternions.py``) compiled once, then loaded; loaded again
    after a module ``kinematics.py`` does not import changes; compiled again after
    ``quaternions.py`` changes, then loaded."""
    import shutil

    copy = tmp_path / "src"
    shutil.copytree(
        Path(geoik.__file__).parent,
        copy / "geoik",
        ignore=shutil.ignore_patterns("__pycache__", "static"),
    )
    code = (
        f"import sys; sys.path.insert(0, {str(copy)!r})\n"
        "import numpy as np\n"
        "import geoik\n"
        "from geoik.kinematics import angle_between\n"
        "out['copy'] = geoik.__file__\n"
        "out['angle'] = angle_between(np.eye(3), np.eye(3))\n"
    )
    cache = str(tmp_path / "cache")

    def compiled() -> int:
        out = _run(code, cache)
        assert out["copy"].startswith(str(copy)) and out["angle"] == 0.0
        return out["compiled"]

    assert compiled() > 0
    assert compiled() == 0
    with open(copy / "geoik" / "viewer" / "server.py", "a") as f:
        f.write("\n# changed\n")
    assert compiled() == 0
    with open(copy / "geoik" / "geometry" / "quaternions.py", "a") as f:
        f.write("\n# changed\n")
    assert compiled() > 0
    assert compiled() == 0


def test_a_files_geoik_imports_are_read_from_its_import_lines(tmp_path):
    """What ``_stamps_follow_imports`` follows: the modules a file's ``import`` lines name, a
    name imported from a package counted where it is a module (also inside parentheses, after
    a comment), nothing outside geoik."""
    source = tmp_path / "kernel.py"
    source.write_text(
        "import math\n"
        "import geoik.jit\n"
        "from numba import njit\n"
        "from geoik.solvers.analytic import (\n"
        "    algebra,  # the products\n"
        "    families as fam,\n"
        ")\n"
        "from geoik.geometry import copy_into, wrap\n"
    )
    package = Path(geoik.__file__).parent
    files = {str(Path(f).relative_to(package)) for f in jit._file_imports(str(source))[1]}
    assert files == {
        "jit.py",
        "solvers/analytic/__init__.py",
        "solvers/analytic/algebra.py",
        "solvers/analytic/families.py",
        "geometry/__init__.py",
    }


def test_a_module_that_cannot_be_read_leaves_a_kernel_numba_s_own_stamp(monkeypatch):
    """The stamp of a geoik kernel is numba's with the digest of the modules its file imports;
    where one of them cannot be read, numba's alone (the kernel's module still imports)."""
    from geoik.kinematics import angle_between

    locator = angle_between._cache._impl.locator
    stamp = locator.get_source_stamp()
    assert isinstance(stamp, tuple) and len(stamp) == 2

    def unreadable(path: str) -> None:
        raise PermissionError(path)

    monkeypatch.setattr(jit, "_digests", {})
    monkeypatch.setattr(jit, "_file_imports", unreadable)
    assert locator.get_source_stamp() == stamp[0]


def test_first_solve_in_a_fresh_install_compiles_nothing(tmp_path):
    """With an empty numba cache, one command-line solve of every solver, 2-D and 3-D, runs
    as plain Python: nothing is compiled, so nothing waits for a compiler. (All twenty solves
    run in one process, with no limit on the seconds spent as plain Python: what is decided
    here is the size of each call, not the machine's speed; the limit has its own test below.)"""
    code = (
        "import contextlib, io\n"
        "from geoik import jit\n"
        "from geoik.commands.cli import main\n"
        "jit.INTERPRETED_BUDGET = float('inf')\n"
        "from geoik.solvers import chain_methods\n"
        "for m in chain_methods():\n"
        "    n = '2' if m == 'two-bone' else '5'\n"
        "    for t in ('2,1', '2,1,0.5'):\n"
        "        with contextlib.redirect_stdout(io.StringIO()):\n"
        "            assert main(['solve', '--lengths', f'1x{n}', '--target', t, '--method', m,\n"
        "                         '--max-bend-deg', '80']) == 0\n"
    )
    assert _run(code, str(tmp_path))["compiled"] == 0


def test_first_robot_solve_in_a_fresh_install_compiles_nothing(tmp_path):
    """The same for robots: with an empty numba cache, one command-line solve of a 6-, a 7- and
    a 5-joint arm by ``auto``, ``analytic`` and ``dls``, and every solution of the pose
    (``--all``), runs as plain Python in this process: loading the arm, finding its family and
    solving call no compiled function directly (a direct call sets numba's compiler up first,
    0.2-0.3 s, in a process that has run no kernel yet). (CCD on a 7-joint arm records a
    motion long enough that measuring it is a large call, compiled at once by design.)"""
    pytest.importorskip("yourdfpy")
    code = (
        "import contextlib, io\n"
        "from geoik import jit\n"
        "from geoik.commands.cli import main\n"
        "from geoik.robots.urdf import example_path\n"
        "jit.INTERPRETED_BUDGET = float('inf')\n"
        "arms = [('ur5', 'tool0', '0.4,0.2,0.3', []), ('so100', 'gripper', '0.1,0.0,0.2', []),\n"
        "        ('kinova', 'j2s6s200_end_effector', '0.3,0.2,0.4', []),\n"
        "        ('panda', 'panda_hand_tcp', '0.5,0.1,0.4', ['--redundancy', '0.5'])]\n"
        "for arm, tip, target, held in arms:\n"
        "    where = ['solve', '--urdf', str(example_path(arm)), '--tip', tip]\n"
        "    where += ['--target', target]\n"
        "    turn = [] if arm == 'so100' else ['--orientation', '0,1,0,0']\n"
        "    methods = [['--method', m] for m in ('auto', 'analytic', 'dls')]\n"
        "    for extra in [['--all', *held], *methods]:\n"
        "        with contextlib.redirect_stdout(io.StringIO()):\n"
        "            status = main([*where, *turn, *extra])\n"
        "        assert status == 0, (arm, extra, status)\n"
    )
    assert _run(code, str(tmp_path))["compiled"] == 0


def test_first_tree_solve_in_a_fresh_install_compiles_nothing(tmp_path):
    """The same for skeletons: with an empty numba cache, a first ``solve_tree`` on the hand,
    with its limits and without, by every tree solver, runs as plain Python in tens of
    milliseconds rather than compiling its kernel first (8-13 s): the tree kernels are slow to
    compile, and their work hint (every joint times the whole iteration budget) is far above
    what a solve takes."""
    code = (
        "import geoik as ik\n"
        "from geoik import jit\n"
        "jit.INTERPRETED_BUDGET = float('inf')\n"
        "targets = {'index': (1.45, 0.2, -0.45), 'thumb': (1.2, 0.45, -0.4)}\n"
        "for limits in (True, False):\n"
        "    hand = ik.Skeleton.hand(limits=limits)\n"
        "    for method in ('auto', 'fabrik', 'circles'):\n"
        "        sol = ik.solve_tree(hand, targets, method=method)\n"
        "        assert sol.iterations >= 1, (limits, method)\n"
    )
    assert _run(code, str(tmp_path))["compiled"] == 0


def test_first_costs_and_robot_trees_in_a_fresh_install_compile_nothing(tmp_path):
    """The same for what follows a first solve: the costs and the traced path of a 3-D and a
    2-D solve's motion (a long CCD motion among them), and a robot hand's fingertips solved
    together by ``solve_tree`` (the general robot kernels): each runs as plain Python in
    milliseconds rather than compiling for seconds (2.5 s, 1.2 s, 8 s) because its work hint
    is an upper bound far above what the call takes."""
    pytest.importorskip("yourdfpy")
    code = (
        "import geoik as ik\n"
        "from geoik import jit\n"
        "from geoik.robots.urdf import load_example\n"
        "jit.INTERPRETED_BUDGET = float('inf')\n"
        "cone = ik.Chain.spatial([1.0] * 6, max_bend_deg=70)\n"
        "solves = [ik.solve(cone, (2, 2, 1), method='ccd'),\n"
        "          ik.solve(ik.Chain.spatial([1.0] * 10), (3, 4, 1), method='ccd', tol=1e-12),\n"
        "          ik.solve(ik.Chain.planar([1.0] * 10), (3, 4), method='ccd', tol=1e-12)]\n"
        "for sol in solves:\n"
        "    assert ik.costs(sol).path_length > 0 and len(sol.motion.trace()) > 1\n"
        "hand = load_example('allegro')\n"
        "q = hand.rest_angles() + 0.2\n"
        "tips = {t: hand.tip_frame(q, t)[:3, 3] for t in hand.tip_names}\n"
        "for method in ('auto', 'dls', 'ccd'):\n"
        "    assert ik.solve_tree(hand, tips, method=method).iterations >= 1\n"
    )
    assert _run(code, str(tmp_path))["compiled"] == 0


def test_a_loop_of_solves_is_compiled_once_it_pays(tmp_path):
    """Solving on and on from Python: after its first fraction of a second as plain Python the
    kernel is compiled, and later calls run compiled."""
    code = (
        "import geoik as ik\n"
        "from geoik.solvers import REGISTRY\n"
        "kernel = REGISTRY['two-bone'].kernel_2d\n"  # the quickest kernel to compile
        "chain = ik.Chain.planar([1.0, 1.5])\n"
        "calls = 0\n"
        "while not kernel.signatures and calls < 100000:\n"
        "    ik.solve(chain, (1.2, 0.8 + calls % 7 * 0.1), method='two-bone')\n"
        "    calls += 1\n"
        "out['calls'] = calls\n"
        "out['compiled_now'] = bool(kernel.signatures)\n"
    )
    out = _run(code, str(tmp_path))
    assert out["compiled_now"] and out["calls"] > 1 and out["compiled"] > 0


def test_large_solves_and_warm_caches_run_compiled():
    """A solve too large for plain Python is compiled (or loaded) at once. With numba's disk
    cache holding a kernel (here after ``geoik.warm_up``), a new process's one small solve still
    runs as plain Python (loading would first set numba's compiler up, which costs more than the
    solve), and once the process has compiled or loaded anything, the kernel is loaded, not
    interpreted. Numba's own cache, which the rest of the suite fills too: an empty one would
    compile CCD's kernel again (a quarter of a minute) and prove nothing more."""
    cache = None
    big = (
        "import geoik as ik\n"
        "from geoik.solvers import REGISTRY\n"
        "ik.solve(ik.Chain.planar([1.0] * 60), (30.0, 20.0), method='ccd', max_iter=5000)\n"
        "ccd = REGISTRY['ccd']\n"
        "out['kernel_compiled'] = bool(ccd.chain_kernel(2, ccd.pack_options({})).signatures)\n"
    )
    assert _run(big, cache)["kernel_compiled"]
    _run("import geoik\ngeoik.warm_up(['fabrik'], dims=(2,))", cache)
    warm = (
        "import geoik as ik\n"
        "from geoik import jit\n"
        "from geoik.solvers import REGISTRY\n"
        "chain = ik.Chain.planar([1.0, 2.0, 1.5])\n"
        "ik.costs(ik.solve(chain, (2.0, 1.0), method='fabrik'))\n"
        "out['first_compiled'] = bool(REGISTRY['fabrik'].kernel_2d.signatures)\n"
        "with jit.mode('compiled'):\n"
        "    ik.solve(ik.Chain.planar([1.0] * 60), (30.0, 20.0), method='ccd', max_iter=5000)\n"
        "ik.costs(ik.solve(chain, (2.5, 1.0), method='fabrik'))\n"
        "out['then_compiled'] = bool(REGISTRY['fabrik'].kernel_2d.signatures)\n"
    )
    out = _run(warm, cache)
    assert not out["first_compiled"] and out["then_compiled"] and out["compiled"] == 0


@pytest.fixture
def fresh(monkeypatch):
    """A kernel as a first call meets it: nothing compiled in this process, nothing spent."""
    kernel = REGISTRY["fabrik"].kernel_2d
    monkeypatch.setattr(jit, "_state", {})
    monkeypatch.setattr(jit, "_disk", {})
    monkeypatch.setattr(jit, "_compiler_ready", lambda: False)
    monkeypatch.setattr(jit, "_cached_on_disk", lambda fn, args: False)
    monkeypatch.setattr(type(kernel), "signatures", property(lambda self: []))
    return kernel


@njit(cache=True)
def _elsewhere(x):
    return x + 1.0


def test_a_compile_holds_its_functions_lock_and_not_the_ones_it_compiles_inside(
    tmp_path, monkeypatch
):
    """Processes sharing numba's cache compile a geoik function one at a time: a compile holds
    a lock named by the function's cache index (the second process then loads what the first
    saved); the functions compiled inside it take none, so that a process never waits holding
    a lock (no two processes can wait for each other). Functions outside geoik take none. In a
    fresh process with an empty cache, so that the function inside is compiled, not loaded."""
    code = (
        "import os\n"
        "from numba import types\n"
        "from geoik import jit\n"
        "from geoik.geometry.points import distance\n"
        "seen = []\n"
        "real = jit._lock_path\n"
        "jit._lock_path = lambda path: seen.append(path) or real(path)\n"
        "single = types.Array(types.float32, 1, 'C')\n"
        "distance.compile((single, single))  # and norm3 inside it\n"
        "out['geoik'] = [os.path.basename(p) for p in seen if p.endswith('.nbi')]\n"
        "out['locked'] = jit._COMPILES_LOCKED\n"
    )
    out = _run(code, str(tmp_path))
    assert out["locked"] and out["compiled"] >= 2  # distance and norm3 compiled
    assert len(out["geoik"]) == 1 and out["geoik"][0].startswith("points.distance-")
    seen = []
    real = jit._lock_path
    monkeypatch.setattr(jit, "_lock_path", lambda path: seen.append(path) or real(path))
    _elsewhere.compile("float64(float64)")
    assert _elsewhere(1.0) == 2.0 and not [p for p in seen if p.endswith(".nbi")]


class _StandInHelper:
    """A compile helper that runs until told it has ended (see test below)."""

    def __init__(self, todo):
        self.todo = todo
        self.ended = False
        self.closed = False

    def running(self):
        return not self.ended

    def close(self):
        self.closed = True


def test_a_slow_function_is_compiled_by_a_helper_while_its_calls_run_as_python(fresh, monkeypatch):
    """A function declared slow to compile, its budget as Python spent: the next call starts a
    helper process on it (once) and runs as Python, and so do the calls after it while the
    helper works, nothing compiled in this process; the first call after the helper has ended
    runs compiled (loaded from numba's disk cache, or compiled here if the helper failed).
    Without a helper (no lock on numba's cache saves) it is compiled when due, as any."""
    from numba import types

    @njit
    def twice(x):
        return 2 * x

    started = []

    def start(todo):
        started.append(_StandInHelper(todo))
        return started[-1]

    monkeypatch.setattr(jit, "_slow", {twice})
    monkeypatch.setattr(jit, "_behind_calls", {})
    monkeypatch.setattr(jit, "_tried_behind", set())
    monkeypatch.setattr(jit, "_SAVES_LOCKED", True)
    monkeypatch.setattr(jit, "_cores", lambda: 2)
    monkeypatch.setattr(jit, "_missing", lambda items: list(items))
    monkeypatch.setattr(jit._Helper, "start", staticmethod(start))
    jit._state[twice] = 2 * jit.INTERPRETED_BUDGET  # its budget as Python is spent
    for x in (3, 4, 5):
        assert jit.call(twice, x) == 2 * x
        assert not twice.overloads  # ran as Python
    assert len(started) == 1 and started[0].todo == [(twice, (types.int64,))]
    started[0].ended = True
    assert jit.call(twice, 6) == 12
    assert twice.overloads and started[0].closed and len(started) == 1
    assert jit.call(twice, 7) == 14  # compiled from now on

    @njit
    def thrice(x):
        return 3 * x

    monkeypatch.setattr(jit, "_slow", {thrice})
    monkeypatch.setattr(jit, "_SAVES_LOCKED", False)
    jit._state[thrice] = 2 * jit.INTERPRETED_BUDGET
    assert jit.call(thrice, 3) == 9 and thrice.overloads and len(started) == 1


def test_a_slow_function_runs_larger_calls_as_python_than_others(fresh, monkeypatch):
    """A call larger than :data:`jit.SMALL_WORK` is compiled at once, but one of a function
    slow to compile runs as Python (and, its budget spent, has a helper compile it) up to
    :data:`jit.SLOW_SMALL_WORK`: seconds of Python rather than tens of seconds of waiting."""
    work = 2 * jit.SMALL_WORK
    assert jit._compiles_now(fresh, (), work)
    monkeypatch.setattr(jit, "_slow", {fresh})
    assert not jit._compiles_now(fresh, (), work)
    assert jit._compiles_now(fresh, (), jit.SLOW_SMALL_WORK + 1)
    started = []
    monkeypatch.setattr(jit, "_behind_calls", {})
    monkeypatch.setattr(jit, "_tried_behind", set())
    monkeypatch.setattr(jit, "_SAVES_LOCKED", True)
    monkeypatch.setattr(jit, "_cores", lambda: 2)
    monkeypatch.setattr(jit, "_missing", lambda items: list(items))
    monkeypatch.setattr(
        jit._Helper,
        "start",
        staticmethod(lambda todo: started.append(todo) or _StandInHelper(todo)),
    )
    monkeypatch.setattr(jit, "_as_python", lambda fn, args: "as Python")
    jit._state[fresh] = 2 * jit.INTERPRETED_BUDGET  # its budget as Python is spent
    assert jit.call(fresh, 1.0, work=work) == "as Python" and len(started) == 1


def test_a_function_that_compiles_in_seconds_runs_as_python_only_as_long(fresh, monkeypatch):
    """``slow_to_compile(seconds=s)``: a call runs as Python only up to ``s`` seconds of work
    (``s * WORK_PER_SECOND``), a larger one is compiled at once, and none is left to a helper;
    a plain ``slow_to_compile`` keeps :data:`jit.SLOW_SMALL_WORK`."""
    monkeypatch.setattr(jit, "_slow", set())
    monkeypatch.setattr(jit, "_slow_work", {})
    assert jit.slow_to_compile(seconds=2.0)(fresh) is fresh
    bound = int(2.0 * jit.WORK_PER_SECOND)
    assert jit.SMALL_WORK < bound < jit.SLOW_SMALL_WORK
    assert not jit._compiles_now(fresh, (), bound)
    assert jit._compiles_now(fresh, (), bound + 1)
    assert jit._goes_behind(fresh, bound, True) and not jit._goes_behind(fresh, bound + 1, True)
    monkeypatch.setattr(jit, "_slow_work", {})
    assert jit.slow_to_compile(fresh) is fresh
    assert not jit._compiles_now(fresh, (), jit.SLOW_SMALL_WORK)
    assert jit._compiles_now(fresh, (), jit.SLOW_SMALL_WORK + 1)


def test_a_job_runs_as_python_while_the_rest_would_take_less_than_compiling(fresh, monkeypatch):
    """Within a job of known size, a function is compiled once the plain Python still to run is
    expected to take longer than compiling: by the time spent so far per unit done."""
    spent = 2 * jit.INTERPRETED_BUDGET
    jit._state[fresh] = spent
    assert jit._compiles_now(fresh, (), 10)  # outside a job: the budget is spent
    with jit.job(100) as work:
        assert not jit._compiles_now(fresh, (), 10)  # no unit done: nothing to go by
        work.step(50)  # 50 more units would take as long again: spent < COMPILE_SECONDS
        assert not jit._compiles_now(fresh, (), 10)
    per_unit = spent / 10
    total = 10 + int(jit.COMPILE_SECONDS / per_unit) + 10
    with jit.job(total) as work:
        work.step(10)
        assert jit._compiles_now(fresh, (), 10)
        monkeypatch.setattr(jit, "_disk", {fresh: True})
        assert jit._compiles_now(fresh, (), 10)  # loading costs less still


def _stand_in_helpers(monkeypatch, on_disk):
    """Helpers that run until told they have ended (the list of those started), in a process
    that has compiled nothing; numba's disk cache holds a function when ``on_disk["saved"]``."""
    started = []

    def start(todo):
        started.append(_StandInHelper(todo))
        return started[-1]

    monkeypatch.setattr(jit, "_state", {})
    monkeypatch.setattr(jit, "_disk", {})
    monkeypatch.setattr(jit, "_compiler_ready", lambda: False)
    monkeypatch.setattr(jit, "_cached_on_disk", lambda fn, args: on_disk["saved"])
    monkeypatch.setattr(jit, "_behind_calls", {})
    monkeypatch.setattr(jit, "_tried_behind", set())
    monkeypatch.setattr(jit, "_behind", [])
    monkeypatch.setattr(jit, "_SAVES_LOCKED", True)
    monkeypatch.setattr(jit, "_cores", lambda: 2)
    monkeypatch.setattr(jit, "_missing", lambda items: list(items))
    monkeypatch.setattr(jit._Helper, "start", staticmethod(start))
    return started


PER_UNIT = 2 * jit.INTERPRETED_BUDGET / 10
"""Seconds of Python per unit of a job's work in the tests below: its budget spent in 10."""


def test_a_job_has_a_helper_compile_what_is_due_while_it_runs_as_python(monkeypatch):
    """Within a job, a function whose plain Python still to run would take longer than
    compiling it is compiled by a helper process, started once, while its calls go on as
    Python; the first call after the helper has ended loads what it saved and runs compiled."""
    from numba import types

    @njit
    def twice(x):
        return 2 * x

    on_disk = {"saved": False}
    started = _stand_in_helpers(monkeypatch, on_disk)
    with jit.job(10 + int(jit.COMPILE_SECONDS / PER_UNIT) + 10) as work:
        jit._state[twice] = 10 * PER_UNIT
        work.step(10)
        assert jit._compiles_now(twice, (1.0,), 10)  # due
        for x in (1.0, 2.0, 3.0):
            assert jit.call(twice, x, work=10) == 2 * x
            work.step()
            assert not twice.overloads  # ran as Python
        assert len(started) == 1 and started[0].todo == [(twice, (types.float64,))]
        on_disk["saved"] = True
        started[0].ended = True
        assert jit.call(twice, 4.0, work=10) == 8.0
        assert twice.overloads and started[0].closed and len(started) == 1


def test_a_job_starts_no_second_helper_and_none_for_what_is_not_due(monkeypatch):
    """While another helper of this process is at work (a command compiling its later steps'
    kernels), a job starts none: what is due is compiled here, as without helpers. Nor does a
    job start one for a function not due (its Python nearly done), nor does a call outside a
    job (it is compiled when due, here)."""

    @njit
    def twice(x):
        return 2 * x

    @njit
    def halve(x):
        return x / 2

    started = _stand_in_helpers(monkeypatch, {"saved": False})
    busy = _StandInHelper([])
    monkeypatch.setattr(jit, "_behind", [busy])
    jit._state[twice] = 10 * PER_UNIT
    with jit.job(10 + int(jit.COMPILE_SECONDS / PER_UNIT) + 10) as work:
        work.step(10)
        assert jit._compiles_now(twice, (1.0,), 10)
        assert jit.call(twice, 1.0, work=10) == 2.0
    assert twice.overloads and not started  # compiled here, no helper

    busy.ended = True  # the other helper is done: a job may start its own now
    jit._state[halve] = 10 * PER_UNIT
    with jit.job(10 + int(jit.LOAD_SECONDS / PER_UNIT) + 10) as work:  # not worth compiling
        work.step(10)
        assert jit.call(halve, 1.0, work=10) == 0.5
    assert not halve.overloads and not started
    assert jit.call(halve, 1.0, work=10) == 0.5  # outside a job: compiled when due, here
    assert halve.overloads and not started


def test_a_job_compiles_huge_calls_at_once_and_small_jobs_never(fresh):
    with jit.job(3) as work:
        assert jit._compiles_now(fresh, (), jit.JOB_SMALL_WORK + 1)
        jit._state[fresh] = 0.0
        assert not jit._compiles_now(fresh, (), jit.SMALL_WORK * 10)  # hints are upper bounds
        work.step()
        jit._state[fresh] = 1.0  # a second per unit, two units left: two seconds to go
        assert not jit._compiles_now(fresh, (), 10)


def test_compiling_is_counted_and_reported(tmp_path):
    """What compiling geoik's functions costs is counted, and a watcher hears of it as it goes,
    with an estimate of how many functions are to come that covers those compiled."""
    code = (
        "from geoik import jit\n"
        "from geoik.solvers import REGISTRY\n"
        "from geoik.batch.engine import KERNEL_2D_ARGS\n"
        "from geoik.kinematics import angle_between\n"
        "reports = []\n"
        "before = jit.compile_stats()\n"
        "with jit.watching(lambda *r: reports.append(r)):\n"
        "    REGISTRY['two-bone'].kernel_2d.compile(KERNEL_2D_ARGS)\n"
        "angle_between.compile('float64(float64[:, :], float64[:, :])')\n"
        "after = jit.compile_stats()\n"
        "out['reports'] = reports\n"
        "out['functions'] = after.functions - before.functions\n"
        "out['seconds'] = after.seconds - before.seconds\n"
    )
    out = _run(code, str(tmp_path))
    reports = out["reports"]
    assert reports[0][0] == 0 and reports[0][1] > 1  # told at once, before anything is done
    done = [r[0] for r in reports]
    assert done == sorted(done) and done[-1] > 1
    assert all(total >= d for d, total, _ in reports)
    assert reports[-1][0] == reports[-1][1]  # all that was expected came
    assert out["functions"] > done[-1]  # angle_between, after the watch: counted, not reported
    assert out["seconds"] >= reports[-1][2] > 0


def test_no_compile_mode_runs_what_is_compiled_and_interprets_the_rest():
    """``"no-compile"`` (a server answering while it compiles ahead): a solve large enough that
    ``"auto"`` would compile it (or load it from numba's cache) runs as plain Python and
    compiles nothing; once the kernels are compiled (``geoik.warm_up``), the same solve runs
    them compiled, with the same result."""
    code = (
        "import geoik as ik\n"
        "from geoik import jit\n"
        "from geoik.solvers import REGISTRY\n"
        "chain = ik.Chain.planar([1.0] * 60)\n"
        "assert 60 * 1000 > jit.SMALL_WORK\n"
        "with jit.mode('no-compile'):\n"
        "    a = ik.solve(chain, (30.0, 20.0), method='ccd', max_iter=1000)\n"
        "kernel = REGISTRY['ccd'].chain_kernel(2, REGISTRY['ccd'].pack_options({}))\n"
        "out['compiled_before'] = out['compiled'] + len(kernel.signatures)\n"
        "ik.warm_up(['ccd'], dims=(2,))\n"
        "twins = []\n"
        "real = jit.interpreted\n"
        "jit.interpreted = lambda fn: twins.append(fn) or real(fn)\n"
        "with jit.mode('no-compile'):\n"
        "    b = ik.solve(chain, (30.0, 20.0), method='ccd', max_iter=1000)\n"
        "out['kernel_as_python'] = kernel in twins\n"
        "out['same'] = [a.status.name, a.iterations, a.angles.tolist()] == [\n"
        "    b.status.name, b.iterations, b.angles.tolist()]\n"
    )
    out = _run(code, None)
    assert out["compiled_before"] == 0
    assert out["kernel_as_python"] is False and out["same"]


def test_mode_names_are_checked():
    with pytest.raises(ValueError, match="mode"), jit.mode("fast"):
        pass


def test_warm_up_compiles_what_a_robot_solve_runs():
    """``warm_up(..., robots=True)``: a robot's forward kinematics with the position and
    orientation errors (what a solve reports) and the general kernel run compiled from the
    first solve on."""
    code = (
        "import geoik as ik\n"
        "from geoik.kinematics import pose_errors\n"
        "from geoik.solvers import REGISTRY\n"
        "kernels = (pose_errors, REGISTRY['dls'].kernel_general)\n"
        "out['before'] = [bool(k.signatures) for k in kernels]\n"
        "ik.warm_up(['dls'], dims=(3,), robots=True)\n"
        "out['after'] = [bool(k.signatures) for k in kernels]\n"
    )
    out = _run(code, None)  # numba's own cache, warm or not
    assert out["before"] == [False] * 2 and out["after"] == [True] * 2


_AHEAD_ITEMS = (
    "from numba import types\n"
    "from geoik.geometry import core\n"
    "from geoik.solvers import REGISTRY\n"
    "from geoik.batch.engine import KERNEL_2D_ARGS\n"
    "f8 = types.float64\n"
    "items = [(REGISTRY['two-bone'].kernel_2d, KERNEL_2D_ARGS), (core.clamp, (f8, f8, f8)),\n"
    "         (core.wrap, (f8,)), (core.sq, (f8,))]\n"
    "mine = {f.py_func: 0 for f, _ in items}\n"  # compilations of each item in this process
    "class Mine(event.Listener):\n"
    "    def on_start(self, e):\n"
    "        f = e.data['dispatcher'].py_func\n"
    "        if f in mine: mine[f] += 1\n"
    "    def on_end(self, e): pass\n"
    "event.register('numba:compile', Mine())\n"
)


@pytest.mark.skipif(not os.path.isdir("/proc"), reason="reads /proc for the helper process")
@pytest.mark.parametrize("helper", [True, False])
def test_compile_ahead_compiles_every_item_once(tmp_path, helper):
    """With an empty cache, :func:`geoik.jit.compile_ahead` leaves every item compiled in this
    process for its argument types and in numba's disk cache, whichever process compiled it
    (with a helper, this one compiles only what the helper did not take: at most every item
    once), counts the helper's functions with its own, and leaves no process behind."""
    code = _AHEAD_ITEMS + (
        "import os\n"
        "from geoik import jit\n"
        "before = jit.compile_stats().functions\n"
        f"jit.compile_ahead(items + items[1:2], helper={helper})\n"  # a repeat compiles once
        "out['here'] = all(tuple(s) in f.overloads for f, s in items)\n"
        "out['on_disk'] = all(jit._has(f, s) for f, s in items)\n"
        "out['functions'] = jit.compile_stats().functions - before\n"
        "out['here_compiled'] = list(mine.values())\n"
        "out['clamp'] = core.clamp(5.0, 0.0, 1.0)\n"
        "def parent(p):\n"
        "    with open(f'/proc/{p}/stat') as f: return int(f.read().rsplit(')', 1)[1].split()[1])\n"
        "out['children'] = [p for p in os.listdir('/proc') if p.isdigit() and\n"
        "                   os.path.exists(f'/proc/{p}/stat') and parent(p) == os.getpid()]\n"
    )
    out = _run(code, str(tmp_path))
    assert out["here"] and out["on_disk"] and out["clamp"] == 1.0
    assert out["functions"] >= 4  # the four items at least, whoever compiled them
    assert all(n <= 1 for n in out["here_compiled"])  # here, never an item twice
    if not helper:
        assert out["here_compiled"] == [1, 1, 1, 1]
    assert out["children"] == []  # no helper left behind


def test_compile_ahead_helper_takes_items_as_told_and_stops(tmp_path):
    """The helper process's side of the exchange: it asks for an item, compiles the one it is
    given into numba's disk cache and says how many functions that took, asks again, and ends
    on ``stop``."""
    code = _AHEAD_ITEMS + (
        "import pickle, subprocess, sys\n"
        "from geoik import jit\n"
        "names = [(f.py_func.__module__, f.py_func.__qualname__, s) for f, s in items]\n"
        "payload = pickle.dumps(names)\n"
        "p = subprocess.Popen([sys.executable, '-c',\n"
        "                      'from geoik.jit import _helper_main; _helper_main()'],\n"
        "                     stdin=subprocess.PIPE, stdout=subprocess.PIPE)\n"
        "p.stdin.write(len(payload).to_bytes(8, 'little') + payload); p.stdin.flush()\n"
        "lines = [p.stdout.readline().decode()]\n"
        "p.stdin.write(b'2\\n'); p.stdin.flush()\n"  # core.wrap
        "lines += [p.stdout.readline().decode(), p.stdout.readline().decode()]\n"
        "p.stdin.write(b'stop\\n'); p.stdin.flush()\n"
        "out['rc'] = p.wait(60)\n"
        "out['lines'] = lines\n"
        "out['on_disk'] = [jit._has(f, s) for f, s in items]\n"
    )
    out = _run(code, str(tmp_path))
    assert out["rc"] == 0
    first, done, again = out["lines"]
    assert first == "next\n" and again == "next\n"
    word, item, functions = done.split()
    assert (word, item) == ("done", "2") and int(functions) >= 1
    assert out["on_disk"] == [False, False, True, False]  # wrap, and only wrap


def test_kernels_for_names_what_a_batch_compiles():
    """:func:`geoik.batch.engine.kernels_for` lists, for every solver and dimension, the
    functions and argument types the batch engine then runs: each is compiled (or loaded)
    for exactly those types once a batch has run. ``"auto"`` lists every attempt's, of which
    a batch runs the later ones only on the targets the earlier ones miss (none here): its list
    is the first attempt's, which its batch compiles, and those of the fallbacks with the
    options it gives them (CCD's escape on), each compiled here by a batch of its own."""
    from geoik.batch.engine import kernels_for

    def key(items):
        return {(fn.py_func.__qualname__, str(sig)) for fn, sig in items}

    runs = [(m, {}) for m in METHODS] + [("ccd", {"escape": 1.0}), ("auto", {})]
    for dim in (2, 3):
        for costs in (False, True):
            ran = set()
            for method, options in runs:
                n = 2 if method == "two-bone" else 4
                chain = ik.Chain.planar([1.0] * n) if dim == 2 else ik.Chain.spatial([1.0] * n)
                items = kernels_for(chain, method, costs=costs, **options)
                assert items, (method, dim)
                ik.batch.evaluate(chain, np.zeros((1, dim)), method, costs=costs, **options)
                first = items if method != "auto" else items[:3]  # the kernel, cost, engine
                for fn, sig in first:
                    assert jit._has(fn, sig), (method, dim, costs, fn)
                if method == "auto":
                    assert key(items) <= ran, (dim, costs, key(items) - ran)
                ran |= key(items)
    with pytest.raises(ik.UnknownMethodError):
        kernels_for(ik.Chain.planar([1.0, 1.0]), "nope")
    with pytest.raises(ik.InvalidOptionError):
        kernels_for(ik.Chain.planar([1.0, 1.0]), "ccd", tol=-1.0)


def _flock_waited_for(path: str) -> bool | None:
    """Whether someone waits for an ``flock`` on the file ``path`` (Linux lists each waiter in
    ``/proc/locks`` as ``N: -> FLOCK ... MAJ:MIN:INODE ...``); None where nothing lists them."""
    if not os.path.exists("/proc/locks"):
        return None
    inode = os.stat(path).st_ino
    with open("/proc/locks", encoding="ascii") as f:
        for fields in map(str.split, f):
            if fields[1:3] == ["->", "FLOCK"] and int(fields[6].rsplit(":", 1)[1]) == inode:
                return True
    return False


@pytest.mark.skipif(os.name != "posix", reason="the lock is POSIX flock")
def test_cache_saves_wait_for_the_lock(tmp_path):
    """Saving into numba's disk cache takes the cache directory's lock: a save (here from a
    thread) does not touch the index while another holder keeps the lock, and completes once it
    is released. Two processes compiling at once (compile_ahead's helper) therefore never
    interleave their reads and writes of one function's index. The save is judged once it waits
    for the lock (as the kernel lists it), not after a time it might not have started within."""
    import fcntl
    import threading
    import time

    from numba.core.caching import IndexDataCacheFile

    assert jit._SAVES_LOCKED
    here = tmp_path
    cache = IndexDataCacheFile(str(here), "f-1.py311", ("stamp", 1))
    lock = jit._lock_path(str(here))
    os.makedirs(os.path.dirname(lock), exist_ok=True)
    fd = os.open(lock, os.O_RDWR | os.O_CREAT)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX)
        saver = threading.Thread(target=cache.save, args=(("sig",), b"code"))
        saver.start()
        if _flock_waited_for(lock) is None:  # no list of waiters here: give it half a second
            saver.join(0.5)
        else:
            deadline = time.monotonic() + 60  # a hang guard: it waits within moments
            while not _flock_waited_for(lock) and saver.is_alive():
                assert time.monotonic() < deadline, "the save neither waited nor ended"
                time.sleep(0.01)
            assert _flock_waited_for(lock)
        assert saver.is_alive() and not (here / "f-1.py311.nbi").exists()
    finally:
        os.close(fd)
    saver.join(60)
    assert not saver.is_alive()
    assert cache.load(("sig",)) == b"code"
    assert sorted(p.name for p in here.iterdir()) == ["f-1.py311.1.nbc", "f-1.py311.nbi"]


def test_the_parts_of_3d_ccd_are_declared_with_the_types_it_compiles_them_for(monkeypatch):
    """``ccd_3d`` declares its escape and lane kernels as parts (:func:`geoik.jit.parts`), to be
    compiled ahead on two cores, with the argument types it calls them with: typing ``ccd_3d``'s
    body anew (a copy without numba's cache, for the solve's types) asks each part for exactly
    the declared types. A declaration that differed would have each compiled twice.
    ``ccd_3d_plain`` runs the same inlined one-lane body and declares its lane kernel alone.
    The copy is typed, not compiled: its lowering is stopped (the parts it calls, compiled or
    loaded, are the kernels' own)."""
    from numba.core.dispatcher import Dispatcher
    from numba.core.typed_passes import NativeLowering

    from geoik.batch.spatial import KERNEL_3D_ARGS
    from geoik.solvers.ccd import _parts_3d, _parts_3d_plain, ccd_3d, ccd_3d_lanes

    declared = dict(_parts_3d(KERNEL_3D_ARGS))
    assert _parts_3d_plain(KERNEL_3D_ARGS) == [(ccd_3d_lanes, declared[ccd_3d_lanes])]
    asked: dict = {}
    template = Dispatcher.get_call_template

    def recording(self, args, kws):
        if self in declared:
            asked.setdefault(self, []).append(tuple(args))
        return template(self, args, kws)

    lower = NativeLowering.run_pass

    def typed_only(self, state):
        if state.func_id.func is ccd_3d.py_func:
            raise _TypingStoppedError
        return lower(self, state)

    monkeypatch.setattr(Dispatcher, "get_call_template", recording)
    monkeypatch.setattr(NativeLowering, "run_pass", typed_only)
    with pytest.raises(_TypingStoppedError):
        njit(ccd_3d.py_func).compile(KERNEL_3D_ARGS)
    assert {fn: set(a) for fn, a in asked.items()} == {
        fn: {tuple(sig)} for fn, sig in declared.items()
    }


class _TypingStoppedError(Exception):
    """Raised where a test has seen what it wanted of a kernel's typing (see below)."""


def test_the_held_kernels_declare_their_full_solve_with_the_types_they_call_it_with(
    monkeypatch,
):
    """``held_solutions`` and ``held_sweep`` (7-joint arms) each declare ``_solve_at``, the full
    solve at one value of the held joint, as a part (:func:`geoik.jit.parts`), so that where a
    solve and a sweep compile at once (two helpers, or a worker and a helper) one process
    compiles it under its lock and the other loads it. Typing each kernel's body anew for the
    types the solvers pass asks ``_solve_at`` for exactly the declared types (the typing is
    stopped there: compiling the body would take seconds). A declaration that differed would
    compile it twice, once for nothing."""
    from numba import typeof
    from numba.core.dispatcher import Dispatcher

    from geoik.robots.urdf import load_example
    from geoik.solvers.analytic import redundant as rd

    robot = load_example("panda")
    frame = robot.tip_frame(np.full(7, 0.3))
    passed: dict = {}
    real = jit.call

    def spy(fn, *args, work=0):
        if fn in (rd.held_solutions, rd.held_sweep):
            passed[fn] = tuple(typeof(a) for a in args)
        return real(fn, *args, work=work)

    monkeypatch.setattr(jit, "call", spy)
    with jit.mode("interpreted"):
        ik.solve_all(robot, frame)
        ik.solve_all(robot, frame, redundancy=np.linspace(-1.0, 1.0, 3))
    assert set(passed) == {rd.held_solutions, rd.held_sweep}
    asked: list = []
    template = Dispatcher.get_call_template

    def recording(self, args, kws):
        if self is rd._solve_at:
            asked.append(tuple(args))
            raise _TypingStoppedError
        return template(self, args, kws)

    monkeypatch.setattr(Dispatcher, "get_call_template", recording)
    for kernel, sig in passed.items():
        with pytest.raises(_TypingStoppedError):
            njit(kernel.py_func).compile(sig)
        assert [(rd._solve_at, asked[-1])] == [(fn, tuple(s)) for fn, s in jit._parts[kernel](sig)]


def _probe_part(x):
    return x + 1.0


def test_a_helper_compiles_a_kernels_parts_first(monkeypatch):
    """The compile helper (:func:`geoik.jit._helper_main`, run here on in-memory streams)
    compiles an item as :func:`geoik.jit.compile_ahead` does: the parts it declares first, each
    on its own (so each under its own lock), then the item."""
    import importlib
    import io
    import pickle
    import types as pytypes

    from numba import types

    part = njit(_probe_part)
    whole = njit(lambda x: part(x) * 2.0)
    declared: list = []

    def parts_of(sig):
        declared.append(sig)
        return [(part, sig)]

    module = pytypes.ModuleType("geoik_parts_probe")
    module.whole = whole
    monkeypatch.setitem(sys.modules, "geoik_parts_probe", module)
    monkeypatch.setitem(jit._parts, whole, parts_of)
    real_import = importlib.import_module
    monkeypatch.setattr(
        importlib,
        "import_module",
        lambda name: module if name == module.__name__ else real_import(name),
    )
    names = pickle.dumps([("geoik_parts_probe", "whole", (types.float64,))])
    stdin = io.BytesIO(len(names).to_bytes(8, "little") + names + b"0\nstop\n")
    stdout = io.BytesIO()
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(stdin))
    monkeypatch.setattr(sys, "stdout", io.TextIOWrapper(stdout))
    jit._helper_main()
    assert declared == [(types.float64,)]
    assert part.signatures == [(types.float64,)] and whole.signatures == [(types.float64,)]
    assert stdout.getvalue().startswith(b"next\ndone 0 ")


def test_waiting_for_a_helper_compiles_its_next_items_here():
    """While :func:`compile_ahead` waits for an item a :func:`compiling_behind` helper is
    compiling, this process compiles the helper's next items (from the helper's end: the next
    needed), each once, leaves it none of them, and returns once the awaited item has ended."""
    import threading

    compiled: list[int] = []

    class Item:
        def __init__(self, i):
            self.i = i

        def compile(self, sig):
            compiled.append(self.i)

    helper = object.__new__(jit._Helper)
    helper.lock = threading.Condition()
    helper.front, helper.back = 0, 1  # items 0 and 1 not taken yet; 2 in the helper's hands
    helper.busy, helper.done, helper.here, helper.ended = {2}, set(), set(), False
    helper.items = [(Item(i), None) for i in range(3)]

    def the_helper():
        with helper.lock:
            while helper.here != {0, 1}:
                helper.lock.wait(0.05)
            helper.busy.discard(2)
            helper.done.add(2)
            helper.lock.notify_all()

    thread = threading.Thread(target=the_helper)
    thread.start()
    helper.share_until({2})
    thread.join(5)
    assert compiled == [1, 0]
    assert helper.back < helper.front  # nothing left for the helper to take
    assert helper.done == {2} and helper.here == {0, 1}


def test_compiling_behind_compiles_while_this_process_works(tmp_path):
    """:func:`geoik.jit.compiling_behind`: with an empty cache, the helper compiles the items
    into numba's disk cache while this process only waits (here, for the files to appear and
    the helper to have said it is done with each: it writes a file before it says so), so that
    this process then compiles none of them; and a :func:`compile_ahead` of the same items
    within the block shares them with the helper and leaves every item compiled once here at
    most."""
    code = _AHEAD_ITEMS + (
        "import os, time\n"
        "from geoik import jit\n"
        "before = jit.compile_stats().functions\n"
        "with jit.compiling_behind(items[1:]):\n"  # the three helpers of geometry.core
        "    child = jit._behind[-1]\n"  # its helper: running while items are left or in hand
        "    deadline = time.monotonic() + 300\n"
        "    while not all(jit._has(f, s) for f, s in items[1:]) or child.running():\n"
        "        if time.monotonic() > deadline:\n"
        "            break\n"
        "        time.sleep(0.05)\n"
        "out['behind'] = [jit._has(f, s) for f, s in items]\n"
        "out['functions'] = jit.compile_stats().functions - before\n"
        "jit.compile_ahead(items[1:])\n"  # loads them
        "out['here_after_behind'] = [mine[f.py_func] for f, _ in items]\n"
        "with jit.compiling_behind(items[:1]):\n"  # the two-bone kernel
        "    jit.compile_ahead(items[:1])\n"
        "out['here'] = [mine[f.py_func] for f, _ in items]\n"
        "out['two_bone'] = tuple(items[0][1]) in items[0][0].overloads\n"
    )
    out = _run(code, str(tmp_path))
    assert out["behind"] == [False, True, True, True]
    assert out["functions"] >= 3
    assert out["here_after_behind"] == [0, 0, 0, 0]  # loaded from the disk cache, not compiled
    assert out["here"][0] <= 1 and out["two_bone"]


def test_the_metric_maps_experiment_declares_what_its_maps_compile():
    """``geoik experiment all`` has a helper compile ``metric_maps_2010.kernels()`` while the
    experiments before it run: after that experiment's kinds of maps have run (CCD's iterations
    and path, CAA's iterations, small here), each declared item is compiled or cached for exactly
    its declared types."""
    from geoik.experiments import metric_maps_2010 as mm

    for method, metric in (("ccd", "iterations"), ("ccd", "path"), ("caa", "iterations")):
        mm.make_map([1.0] * 5, method, metric, 8, 5)
    items = mm.kernels()
    assert len(items) >= 6
    for fn, sig in items:
        assert jit._has(fn, sig), fn


def _slice_assignments(tree: ast.AST) -> list[tuple[str, int, str]]:
    """Every assignment to a slice of an array (``a[:] = x``, ``a[i, :] += x``) in a compiled
    function of ``tree`` whose value is not a number or a constant's name."""
    found = []
    for fn in ast.walk(tree):
        if not isinstance(fn, ast.FunctionDef):
            continue
        if not any("njit" in ast.unparse(d) for d in fn.decorator_list):
            continue
        for node in ast.walk(fn):
            if isinstance(node, ast.Assign):
                targets, value = node.targets, node.value
            elif isinstance(node, ast.AugAssign):
                targets, value = [node.target], node.value
            else:
                continue
            sliced = any(
                isinstance(t, ast.Subscript)
                and (
                    any(isinstance(n, ast.Slice) for n in ast.walk(t.slice))
                    # an element is never a tuple: a row of a 2-D array (``a[i] = (x, y)``)
                    or isinstance(value, ast.Tuple | ast.List)
                )
                for t in targets
            )
            if isinstance(value, ast.UnaryOp):
                value = value.operand
            constant = isinstance(value, ast.Constant) or (
                isinstance(value, ast.Name | ast.Attribute)
                and ast.unparse(value).split(".")[-1] in ("inf", "nan", "pi")
                or isinstance(value, ast.Name)
                and value.id.isupper()
            )
            if sliced and not constant:
                found.append((fn.name, node.lineno, ast.unparse(node)))
    return found


def test_no_kernel_assigns_an_array_or_a_tuple_to_a_slice():
    """A slice assignment from an array or a tuple (``dst[i, :] = src``, ``acc[i, :] += v``,
    or a 2-D array's row from a tuple, ``a[i] = (x, y)``) compiles numba's shape-mismatch error
    with its formatted message: a second or two of string formatting in every process that
    compiles such a kernel, and in every kernel that calls it. Kernels copy with
    ``copy_into``, add with ``add_into`` or assign elements."""
    root = Path(geoik.__file__).parent
    found = [
        f"{path.relative_to(root)}:{line} {name}: {text}"
        for path in sorted(root.rglob("*.py"))
        for name, line, text in _slice_assignments(ast.parse(path.read_text(encoding="utf-8")))
    ]
    assert found == []
    # the check itself finds each form, and not a tuple unpacked into elements
    sample = (
        "@njit\ndef f(a, b, i):\n    a[i, :] = b\n    a[:] += (1.0, 2.0)\n    a[:] = 0.0\n"
        "    a[i] = (1.0, 0.0)\n    a[i], a[0] = 1.0, 2.0\n"
    )
    assert [line for _, line, _ in _slice_assignments(ast.parse(sample))] == [3, 4, 6]


_LITERAL = (int, bool)
"""Constants that numba types as literals (a type per value)."""


def _compiled_functions(root: Path) -> tuple[dict, dict]:
    """The compiled functions of the package at ``root``, ``{module: {name: (FunctionDef,
    inlined)}}``, and each module's imports, ``{module: {name: (module, name)}}``."""
    defs, imports = {}, {}
    for path in sorted(root.rglob("*.py")):
        parts = path.relative_to(root.parent).with_suffix("").parts
        module = ".".join(parts[:-1] if parts[-1] == "__init__" else parts)
        tree = ast.parse(path.read_text(encoding="utf-8"))
        mine, names = {}, {}
        for node in tree.body:
            if isinstance(node, ast.FunctionDef):
                decos = [ast.unparse(d) for d in node.decorator_list]
                if any("njit" in d for d in decos):
                    mine[node.name] = (
                        node,
                        any('inline="always"' in d or "inline='always'" in d for d in decos),
                    )
            elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
                for a in node.names:
                    names[a.asname or a.name] = (node.module, a.name)
        defs[module], imports[module] = mine, names
    return defs, imports


def _resolve(defs: dict, imports: dict, module: str, name: str, depth: int = 0) -> tuple | None:
    """The (module, name) of the compiled function ``name`` means in ``module``, following
    imports and re-exports; None when it names none."""
    if name in defs.get(module, {}):
        return module, name
    if depth < 5 and name in imports.get(module, {}):
        m, n = imports[module][name]
        return _resolve(defs, imports, m, n, depth + 1)
    return None


def _is_literal(node: ast.AST) -> bool:
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.USub):
        node = node.operand
    return isinstance(node, ast.Constant) and type(node.value) in _LITERAL


def _changing_constants(fn: ast.FunctionDef) -> set[str]:
    """Names a compiled function first binds to an int or bool constant and binds again later."""
    first, bound = {}, {}
    for node in ast.walk(fn):
        pairs = []
        if isinstance(node, ast.Assign):
            for t in node.targets:
                if isinstance(t, ast.Name):
                    pairs.append((t.id, node.value))
                elif isinstance(t, ast.Tuple) and isinstance(node.value, ast.Tuple):
                    pairs += [
                        (e.id, v)
                        for e, v in zip(t.elts, node.value.elts, strict=False)
                        if isinstance(e, ast.Name)
                    ]
                elif isinstance(t, ast.Tuple):
                    pairs += [(e.id, None) for e in t.elts if isinstance(e, ast.Name)]
        elif isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name):
            pairs.append((node.target.id, node.value))
        elif isinstance(node, ast.AugAssign) and isinstance(node.target, ast.Name):
            pairs.append((node.target.id, None))
        elif isinstance(node, ast.For):
            pairs += [(n.id, None) for n in ast.walk(node.target) if isinstance(n, ast.Name)]
        for name, value in pairs:
            bound[name] = bound.get(name, 0) + 1
            if value is not None and _is_literal(value):
                first[name] = True
    return {n for n in first if bound[n] > 1}


def _literal_and_typed_calls(root: Path) -> list[tuple[str, str, list[str]]]:
    """(callee, argument, sites) for every argument of a compiled function (not inlined) that
    its callers pass both as an int or bool constant (or a variable that starts as one and
    changes) and as something else, or leave to its default at one call and pass at another:
    numba compiles the callee once for each."""
    defs, imports = _compiled_functions(root)
    kinds = {}
    for module, mine in defs.items():
        for fname, (fn, _) in mine.items():
            changing = _changing_constants(fn)
            for call in ast.walk(fn):
                if not isinstance(call, ast.Call) or not isinstance(call.func, ast.Name):
                    continue
                target = _resolve(defs, imports, module, call.func.id)
                if target is None:
                    continue
                callee, inline = defs[target[0]][target[1]]
                starred = any(isinstance(a, ast.Starred) for a in call.args)
                if inline or starred or any(k.arg is None for k in call.keywords):
                    continue
                params = [a.arg for a in callee.args.args]
                given = {params[i]: a for i, a in enumerate(call.args) if i < len(params)}
                given.update({k.arg: k.value for k in call.keywords if k.arg})
                for p in params:
                    a = given.get(p)
                    if a is None:
                        kind = {"default"}
                    elif _is_literal(a):
                        kind = {"literal"}
                    elif isinstance(a, ast.Name) and a.id in changing:
                        kind = {"literal", "typed"}
                    else:
                        kind = {"typed"}
                    entry = kinds.setdefault((".".join(target), p), [set(), []])
                    entry[0] |= kind
                    entry[1].append(f"{module}.{fname}:{call.lineno}")
    return sorted((k[0], k[1], v[1]) for k, v in kinds.items() if len(v[0]) > 1)


def test_no_compiled_function_is_called_with_a_constant_and_a_variable_alike():
    """numba types an int or bool constant passed to a compiled function as a type of its own
    (a literal), and compiles the callee once for it and once more for the variables other
    callers pass; so too a variable that starts as a constant and changes later (``m = 0``,
    then ``m = i`` in a loop: the call is typed with the constant while the variable is
    inferred), or an argument left to its default at one call and passed at another. Callers
    pass ``np.int64(0)`` or ``np.bool_(True)``; inlined callees are exempt."""
    found = [
        f"{callee}({arg}): {', '.join(sites)}"
        for callee, arg, sites in _literal_and_typed_calls(Path(geoik.__file__).parent)
    ]
    assert found == []


def test_the_constant_argument_check_finds_each_form(tmp_path):
    pkg = tmp_path / "pkg"
    pkg.mkdir()
    (pkg / "__init__.py").write_text(
        "@njit\ndef g(a, b, c=0.0):\n    return a + b + c\n\n"
        "@njit\ndef f(x, n):\n    m = 0\n    for i in range(n):\n        m = i\n"
        "    return g(x, 1, 2.0) + g(x, n) + g(x, m, 1.0)\n",
        encoding="utf-8",
    )
    found = {(callee, arg) for callee, arg, _ in _literal_and_typed_calls(pkg)}
    assert found == {("pkg.g", "b"), ("pkg.g", "c")}
