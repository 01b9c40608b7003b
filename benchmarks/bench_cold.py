"""Cold start: the first solve of every solver with an empty numba cache, as a user meets it.

For each registered solver (``--methods``) and dimension (``--dims``), in fresh processes:

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

    python benchmarks/bench_cold.py [--methods ccd,dls] [--dims 2,3] [--reps 3]

It takes minutes (each cold process compiles geoik's kernels); progress goes to stderr.
"""

from __future__ import annotations

import argparse
import os
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


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        description=__doc__.split("\n\n")[0], formatter_class=argparse.RawTextHelpFormatter
    )
    parser.add_argument(
        "--methods", default=",".join(REGISTRY), help="solvers, comma-separated (default: all)"
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
    methods = [m for m in args.methods.split(",") if m]
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
    total = args.reps * (len(rows) + 1)
    step = 0
    for rep in range(1, args.reps + 1):
        with tempfile.TemporaryDirectory(prefix="geoik-cold-") as tmp:
            root = Path(tmp)
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
    print(header)
    failed = False
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
