"""Cold start: the first run of every README command, and the first solve of every solver, with
an empty numba cache, as a user meets them.

Commands (``--commands``): each command of the README and the guide's tour (``geoik solve``,
``map``, ``compare``, ``sweep``, ``pose``, ``experiment all --quick``, and ``geoik view`` until
its first answer to a solve over its WebSocket) runs twice in fresh processes sharing a new,
empty numba cache: the first run compiles (or runs as plain Python) what it needs, the second
finds numba's cache filled. Goals: every first run within 10 s on two cores, and no second run
slower than its first (by more than :data:`SAME_WITHIN`, the run-to-run noise).

Solvers (``--methods``, ``--dims``): for each registered solver and dimension, in fresh
processes:

- cold CLI: ``geoik solve --lengths 2x10 --target 8.33,2.83 --method M`` (3-D:
  ``--lengths 3x4 --target 4,5,3``), run by the ``geoik`` script next to this Python, with
  ``NUMBA_CACHE_DIR`` pointing at a new, empty directory (numba otherwise caches next to the
  sources, in ``__pycache__``, where earlier runs have filled it);
- cold API: ``python -c "import geoik; geoik.solve(geoik.Chain.planar([2] * 10), (8.33, 2.83),
  method=M)"`` with another new, empty cache;
- warm: the CLI command again, with the cache its cold run filled (``--warm-runs`` times).

A solver that does not take the chain (``two-bone`` takes two links) solves the two-link chain
``5,4`` for the same targets instead. Every figure is the wall clock of the whole process, as the
user waits for it: the interpreter's start, the imports, numba's compilation, the solve and the
output. Each is the median of ``--reps`` repetitions, each with new empty caches (the warm figure:
the median of all warm runs). Two yardsticks are measured the same way in the same run: ``import
geoik`` alone, and importing numba and compiling one tiny function, both with an empty cache.

Goal: the first solve of any one solver within 3 s with an empty cache (met when both the cold
CLI and the cold API figures are).

    python benchmarks/bench_cold.py [--commands map,pose] [--methods ccd,dls] [--dims 2,3]
                                    [--reps 3]

``--commands none`` or ``--methods none`` leaves that part out. It takes minutes (each cold
process compiles geoik's kernels); progress goes to stderr. The machine's load average is
printed at the start and the end: other users' work slows every figure.
"""

from __future__ import annotations

import argparse
import json
import os
import shlex
import shutil
import signal
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

import numba

from geoik.solvers import REGISTRY

GOAL_S = 3.0
COMMAND_GOAL_S = 10.0
"""Goal for the first run of every README command with an empty numba cache."""
SAME_WITHIN = 0.05
"""A second run counts as slower than its first when its median is more than this share above
the first's: a command that compiles nothing runs the same work both times, and its median
over three fresh processes still moves by a few per cent from one run of this script to the
next (``pose``: 0.82 and 0.83 s, one repetition 0.89 s), which says nothing of numba's cache."""
VIEW = "view"
COMMAND_LINES = {
    "solve": "solve --lengths 2x10 --target 8.33,2.83 --method ccd --plot ccd.png",
    "map": (
        "map --lengths 1x5 --method ccd --metric iterations --max-iter 20 --tol 0.01 --size 1000 "
        "-o ccd-map.png"
    ),
    "compare": (
        "compare --lengths 1x5 --methods ccd,fabrik,caa,dls --max-iter 20 --tol 0.01 -o cmp.png "
        "--csv cmp.csv"
    ),
    "sweep": (
        "sweep --joints 2-10 --methods ccd,caa --max-iter 5 --tol 0.01 --size 200 -o sweep.png "
        "--csv sweep.csv"
    ),
    "pose": "pose walk.bvh --pin LeftFoot@11-24 --pin RightFoot@24-37 -o planted.bvh",
    "experiment --quick": "experiment all --quick",
    VIEW: "view --port 0 --no-browser",
}
COMMANDS = {name: shlex.split(line) for name, line in COMMAND_LINES.items()}
"""The README's and the guide's commands as a user first types them (``view``: until its first
answer to a solve)."""
VIEW_SOLVE = {"type": "solve", "id": 1, "chain": {"lengths": [2.0] * 10}, "target": [8.33, 2.83]}
GEOIK_SCRIPT = Path(sys.executable).parent / ("geoik.exe" if os.name == "nt" else "geoik")


@dataclass(frozen=True)
class Case:
    """A chain (link lengths) and a target, as the CLI and the API take them."""

    lengths: tuple[float, ...]
    target: tuple[float, ...]

    @property
    def dim(self) -> int:
        return len(self.target)

    def lengths_arg(self) -> str:
        """``--lengths`` as a user types it: ``2x10`` for equal links, else ``5,4``."""
        if len(set(self.lengths)) == 1:
            return f"{self.lengths[0]:g}x{len(self.lengths)}"
        return ",".join(f"{x:g}" for x in self.lengths)

    def target_arg(self) -> str:
        return ",".join(f"{x:g}" for x in self.target)

    def cli(self, method: str) -> list[str]:
        return [
            str(GEOIK_SCRIPT),
            "solve",
            "--lengths",
            self.lengths_arg(),
            "--target",
            self.target_arg(),
            "--method",
            method,
        ]

    def api(self, method: str) -> list[str]:
        chain = "planar" if self.dim == 2 else "spatial"
        code = (
            "import geoik; "
            f"sol = geoik.solve(geoik.Chain.{chain}({list(self.lengths)!r}), {self.target!r}, "
            f"method={method!r}); print('status:', sol.status.name)"
        )
        return [sys.executable, "-c", code]


CASES = {2: Case((2.0,) * 10, (8.33, 2.83)), 3: Case((3.0,) * 4, (4.0, 5.0, 3.0))}
TWO_LINKS = {2: Case((5.0, 4.0), (8.33, 2.83)), 3: Case((5.0, 4.0), (4.0, 5.0, 3.0))}
YARDSTICKS = {
    "import geoik": "import geoik",
    "import numba, compile one function": (
        "import numba\n@numba.njit\ndef f(x):\n    return x + 1\nf(1)"
    ),
}


def case_for(method: str, dim: int) -> Case:
    """The chain and target ``method`` is timed on in ``dim`` dimensions."""
    lo, hi = REGISTRY[method].links
    case = CASES[dim]
    n = len(case.lengths)
    return case if lo <= n and (hi is None or n <= hi) else TWO_LINKS[dim]


def parse_status(stdout: str) -> str | None:
    """The status a ``geoik solve`` (or the API snippet) printed, e.g. ``REACHED``."""
    for line in stdout.splitlines():
        key, _, value = line.partition(":")
        if key.strip() == "status" and value.strip():
            return value.split()[0]
    return None


@dataclass
class Run:
    seconds: float
    ok: bool
    note: str = ""


def timed_process(cmd: Sequence[str], cache: Path, timeout: float, solve: bool = False) -> Run:
    """Wall clock of one process run with ``NUMBA_CACHE_DIR=cache``; ok when it exited with
    status 0 and, for a ``solve``, printed a status (kept as the run's note)."""
    env = {**os.environ, "NUMBA_CACHE_DIR": str(cache)}
    t0 = time.perf_counter()
    try:
        done = subprocess.run(
            list(cmd), env=env, cwd=cache.parent, capture_output=True, text=True, timeout=timeout
        )
    except subprocess.TimeoutExpired:
        return Run(time.perf_counter() - t0, False, f"timed out after {timeout:g} s")
    seconds = time.perf_counter() - t0
    if done.returncode != 0:
        last = (done.stderr.strip().splitlines() or ["(no output)"])[-1]
        return Run(seconds, False, f"exit status {done.returncode}: {last}")
    if not solve:
        return Run(seconds, True)
    status = parse_status(done.stdout)
    return Run(seconds, status is not None, status or "no status printed")


def command_process(name: str, cache: Path, work: Path, timeout: float) -> Run:
    """Wall clock of one README command, run by the ``geoik`` script in ``work`` with
    ``NUMBA_CACHE_DIR=cache``; ``view`` until its first answer."""
    argv = [str(GEOIK_SCRIPT), *COMMANDS[name]]
    if name == VIEW:
        return view_first_answer(argv, cache, work, timeout)
    env = {**os.environ, "NUMBA_CACHE_DIR": str(cache)}
    t0 = time.perf_counter()
    try:
        done = subprocess.run(argv, env=env, cwd=work, capture_output=True, text=True,
                              timeout=timeout)  # fmt: skip
    except subprocess.TimeoutExpired:
        return Run(time.perf_counter() - t0, False, f"timed out after {timeout:g} s")
    seconds = time.perf_counter() - t0
    if done.returncode != 0:
        last = (done.stderr.strip().splitlines() or ["(no output)"])[-1]
        return Run(seconds, False, f"exit status {done.returncode}: {last}")
    return Run(seconds, True, compiled_note(done.stderr))


def compiled_note(stderr: str) -> str:
    """What the command's compile notice said at its end (``compiled 22 kernel functions in
    8.1 s``), or that it compiled nothing."""
    for line in reversed(stderr.splitlines()):
        if ": compiled " in line:
            return line.split(": ", 1)[1].split(" (")[0]
    return "compiled nothing"


def view_first_answer(argv: list[str], cache: Path, work: Path, timeout: float) -> Run:
    """Seconds from starting ``geoik view`` to its answer to a solve over the WebSocket (the
    first thing a user sees move), then stops the server with Ctrl-C (SIGINT)."""
    from websockets.sync.client import connect

    env = {**os.environ, "NUMBA_CACHE_DIR": str(cache), "PYTHONUNBUFFERED": "1"}
    t0 = time.perf_counter()
    proc = subprocess.Popen(argv, env=env, cwd=work, stdout=subprocess.PIPE,
                            stderr=subprocess.DEVNULL, text=True)  # fmt: skip
    try:
        assert proc.stdout is not None
        line = proc.stdout.readline()  # geoik viewer on http://127.0.0.1:PORT/ (Ctrl-C to stop)
        if "http://" not in line:
            return Run(time.perf_counter() - t0, False, f"no address printed: {line.strip()!r}")
        url = line.split("http://", 1)[1].split("/", 1)[0]
        with connect(f"ws://{url}/ws", open_timeout=timeout) as ws:
            ws.send(json.dumps(VIEW_SOLVE))
            # the server also tells every connection how its preparation moves on (status
            # messages, id null): the answer is the message that replies to the request
            deadline = time.perf_counter() + timeout
            while True:
                reply = json.loads(ws.recv(timeout=max(deadline - time.perf_counter(), 0.0)))
                if reply.get("id") == VIEW_SOLVE["id"]:
                    break
        seconds = time.perf_counter() - t0
        ok = reply.get("type") == "solve"
        return Run(seconds, ok, reply.get("status", "") if ok else f"reply {reply}"[:200])
    except Exception as e:  # a benchmark reports, never raises, on one failed run
        return Run(time.perf_counter() - t0, False, f"{type(e).__name__}: {e}")
    finally:
        proc.send_signal(signal.SIGINT)
        try:
            proc.wait(timeout=30)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()


def empty_cache(root: Path, name: str) -> Path:
    """A new, empty directory for numba's cache under ``root``."""
    path = root / name
    path.mkdir()
    return path


def median(runs: list[Run]) -> float | None:
    ok = [r.seconds for r in runs if r.ok]
    return statistics.median(ok) if ok else None


def fmt(seconds: float | None) -> str:
    return "failed" if seconds is None else f"{seconds:.2f}"


def progress(msg: str) -> None:
    print(msg, file=sys.stderr, flush=True)


def load_note(start: float) -> str:
    """The machine's 1-minute load average at the start and now, against its cores."""
    return (
        f"machine load (1-minute average): {start:.2f} at the start, {os.getloadavg()[0]:.2f} at "
        f"the end, on {os.cpu_count()} cores (other users' load slows every figure)"
    )


def walk_clip() -> Path:
    """The BVH clip that comes with geoik, which ``geoik pose`` is timed on."""
    from geoik.rigs.bvh import example_path

    return Path(example_path("walk"))


def print_commands(
    commands: list[str],
    firsts: dict[str, list[Run]],
    seconds: dict[str, list[Run]],
    yardstick: float | None,
) -> bool:
    """The commands' table and goal lines; True if a run failed. ``yardstick``: numba compiling
    one tiny function in a fresh process, measured in the same run, the unit of the column that
    a loaded machine changes least."""
    print(
        f"\ngoals: every README command's first run within {COMMAND_GOAL_S:g} s with an empty "
        f"numba cache, and no second run slower than its first (medians; by more than "
        f"{SAME_WITHIN:.0%}, run-to-run noise)"
    )
    print(
        f"{'command':<20}{'first s':>9}{'second s':>10}{'second/first':>14}"
        f"{'first/yardstick':>17}  goal  compiled"
    )
    failed = False
    for name in commands:
        first, second = median(firsts[name]), median(seconds[name])
        if first is None or second is None:
            print(f"{name:<20}{fmt(first):>9}{fmt(second):>10}{'':>14}  failed")
            failed = True
            continue
        met = first <= COMMAND_GOAL_S and second <= first * (1.0 + SAME_WITHIN)
        notes = sorted({r.note for r in firsts[name] if r.ok})
        units = f"{first / yardstick:.1f}" if yardstick else "-"
        print(
            f"{name:<20}{first:>9.2f}{second:>10.2f}{second / first:>14.2f}{units:>17}  "
            f"{'met' if met else 'NOT met':<5} {'; '.join(notes)}"
        )
    print(
        f"  ({COMMANDS[VIEW][0]}: until its first answer to a solve over the WebSocket; "
        "yardstick: numba compiling one tiny function in a fresh process, this run: "
        f"{fmt(yardstick)} s)"
    )
    return failed


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        description=__doc__.split("\n\n")[0], formatter_class=argparse.RawTextHelpFormatter
    )
    parser.add_argument(
        "--commands",
        default=",".join(COMMANDS),
        help="README commands, comma-separated (default: all of "
        f"{', '.join(COMMANDS)}); none: leave them out",
    )
    parser.add_argument(
        "--methods",
        default=",".join(REGISTRY),
        help="solvers, comma-separated (default: all); none: leave them out",
    )
    parser.add_argument("--dims", default="2,3", help="dimensions, comma-separated (default 2,3)")
    parser.add_argument(
        "--reps", type=int, default=3, help="repetitions, each with new empty caches (median)"
    )
    parser.add_argument(
        "--warm-runs", type=int, default=3, help="warm runs per repetition (default 3)"
    )
    parser.add_argument("--timeout", type=float, default=600.0, help="seconds per process")
    args = parser.parse_args(argv)
    commands = [] if args.commands == "none" else [c for c in args.commands.split(",") if c]
    strange = [c for c in commands if c not in COMMANDS]
    if strange:
        parser.error(f"--commands: unknown command {strange[0]!r}; known: {', '.join(COMMANDS)}")
    methods = [] if args.methods == "none" else [m for m in args.methods.split(",") if m]
    unknown = [m for m in methods if m not in REGISTRY]
    if unknown:
        parser.error(f"--methods: unknown solver {unknown[0]!r}; known: {', '.join(REGISTRY)}")
    try:
        dims = [int(d) for d in args.dims.split(",") if d]
    except ValueError:
        parser.error(f"--dims: expected 2, 3 or 2,3, got {args.dims!r}")
    if not dims or any(d not in (2, 3) for d in dims):
        parser.error(f"--dims: expected 2, 3 or 2,3, got {args.dims!r}")
    if args.reps < 1 or args.warm_runs < 1:
        parser.error("--reps and --warm-runs must be at least 1")
    if not GEOIK_SCRIPT.exists():
        parser.error(f"no geoik script next to {sys.executable} (install geoik in this env)")

    rows = [(m, d) for m in methods for d in dims if d in REGISTRY[m].dims]
    firsts: dict[str, list[Run]] = {c: [] for c in commands}
    seconds: dict[str, list[Run]] = {c: [] for c in commands}
    cold_cli: dict[tuple[str, int], list[Run]] = {row: [] for row in rows}
    cold_api: dict[tuple[str, int], list[Run]] = {row: [] for row in rows}
    warm: dict[tuple[str, int], list[Run]] = {row: [] for row in rows}
    yard: dict[str, list[Run]] = {name: [] for name in YARDSTICKS}

    print(
        f"cold start: Python {sys.version.split()[0]}, numba {numba.__version__}, "
        f"{os.cpu_count()} cores; {args.reps} repetition(s), each with new empty numba caches; "
        f"every figure the median wall clock of whole processes, in seconds",
        flush=True,
    )
    if os.environ.get("PYTHONDONTWRITEBYTECODE"):
        print(
            "(PYTHONDONTWRITEBYTECODE is set: every process compiles geoik's Python sources)",
            flush=True,
        )
    t_start = time.perf_counter()
    load_start = os.getloadavg()[0]
    total = args.reps * (len(rows) + 1 + len(commands))
    step = 0
    for rep in range(1, args.reps + 1):
        with tempfile.TemporaryDirectory(prefix="geoik-cold-") as tmp:
            root = Path(tmp)
            for name in commands:
                step += 1
                tag = name.split()[0]
                cache, work = empty_cache(root, f"{tag}-cache"), empty_cache(root, f"{tag}-work")
                shutil.copy(walk_clip(), work / "walk.bvh")
                first = command_process(name, cache, work, args.timeout)
                second = command_process(name, cache, work, args.timeout)
                firsts[name].append(first)
                seconds[name].append(second)
                progress(
                    f"[{step}/{total}] rep {rep}: {name}: first {first.seconds:.2f} s "
                    f"({first.note}), second {second.seconds:.2f} s ({second.note})  "
                    f"[{time.perf_counter() - t_start:.0f} s]"
                )
            step += 1
            for k, (name, code) in enumerate(YARDSTICKS.items()):
                run = timed_process(
                    [sys.executable, "-c", code], empty_cache(root, f"yard{k}"), args.timeout
                )
                yard[name].append(run)
                progress(
                    f"[{step}/{total}] rep {rep}: {name}: {run.seconds:.2f} s {run.note}".rstrip()
                )
            for method, dim in rows:
                step += 1
                case = case_for(method, dim)
                tag = f"{method}-{dim}d"
                cli_cache = empty_cache(root, f"{tag}-cli")
                cli = timed_process(case.cli(method), cli_cache, args.timeout, solve=True)
                api_cache = empty_cache(root, f"{tag}-api")
                api = timed_process(case.api(method), api_cache, args.timeout, solve=True)
                cold_cli[(method, dim)].append(cli)
                cold_api[(method, dim)].append(api)
                warms = [
                    timed_process(case.cli(method), cli_cache, args.timeout, solve=True)
                    for _ in range(args.warm_runs)
                ]
                warm[(method, dim)].extend(warms)
                progress(
                    f"[{step}/{total}] rep {rep}: {method} {dim}-D: cold CLI {cli.seconds:.2f} s "
                    f"({cli.note}), cold API {api.seconds:.2f} s ({api.note}), warm "
                    f"{fmt(median(warms))} s  [{time.perf_counter() - t_start:.0f} s]"
                )

    failed = False
    if commands:
        unit = median(yard["import numba, compile one function"])
        failed = print_commands(commands, firsts, seconds, unit)
    print("\nyardsticks (fresh process, empty cache):")
    for name, runs in yard.items():
        print(f"  {name:<36}{fmt(median(runs)):>8} s")
    print(
        f"\ngoal: first solve of any one solver within {GOAL_S:g} s with an empty cache "
        "(both cold CLI and cold API)"
    )
    header = (
        f"{'solver':<14}{'dim':>4}  {'chain':<8}{'target':<12}"
        f"{'cold CLI s':>11}{'cold API s':>11}{'warm s':>8}  goal"
    )
    if rows:
        print(header)
    for method, dim in rows:
        case = case_for(method, dim)
        cli_s, api_s, warm_s = (median(d[(method, dim)]) for d in (cold_cli, cold_api, warm))
        if cli_s is None or api_s is None:
            verdict = "failed"
            failed = True
        else:
            verdict = "met" if max(cli_s, api_s) <= GOAL_S else "NOT met"
        print(
            f"{method:<14}{dim:>3}D  {case.lengths_arg():<8}{case.target_arg():<12}"
            f"{fmt(cli_s):>11}{fmt(api_s):>11}{fmt(warm_s):>8}  {verdict}"
        )
    notes = [
        f"  {name} {label} run: {r.note}"
        for name in commands
        for label, d in (("first", firsts), ("second", seconds))
        for r in d[name]
        if not r.ok
    ]
    notes += [
        f"  {method} {dim}-D {label}: {r.note}"
        for (method, dim) in rows
        for label, d in (("cold CLI", cold_cli), ("cold API", cold_api), ("warm", warm))
        for r in d[(method, dim)]
        if not r.ok
    ]
    if notes:
        print("\nfailed runs:")
        print("\n".join(dict.fromkeys(notes)))
    print(f"\n{load_note(load_start)}")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
