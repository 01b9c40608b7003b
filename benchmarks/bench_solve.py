"""Per-call time of ``geoik.solve``, beside a plain-Python CCD measured in the same run.

Run ``python benchmarks/bench_solve.py`` (``--rounds`` and ``--targets`` to trade time for noise).
For n = 5 and n = 10 links of length 1 and every registered solver (2-D and 3-D where the solver
supports them; two-bone, which takes two links only, at n = 2 beside ccd), it solves a fixed,
seeded set of reachable targets with ``max_iter=20`` and prints the per-call time (the mean over
the targets, validation and building the Solution included) as the best and the median of
``--rounds`` rounds. Each round times every case once, in an order that turns round by round, so
that load from other users of the machine falls on all of them alike. The reference is
:func:`plain_ccd`, CCD written with lists and :mod:`math` only, with the same semantics as
``geoik.solvers.ccd.ccd_2d`` (sweeps from the tip to the base, convergence checked before the
first sweep and after each sweep); the benchmark checks that both use the same number of sweeps
on every target, so that the two do the same work; each solver's speed-up over it is the median
of the per-round ratios. Then, in ``--import-runs`` fresh processes with numba's cache warm (after
one that warms it), it times ``import geoik`` plus the first solve (best and median).

Goals, judged on the best figures (``--judge median`` for the medians): ``ccd``, 2-D, n = 10,
max_iter 20: at most 20 µs per call; import plus first solve under 1 s.
"""

from __future__ import annotations

import argparse
import math
import os
import statistics
import subprocess
import sys
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass

import numpy as np

import geoik as ik
from geoik.solvers import REGISTRY, Solver

MAX_ITER = 20
SIZES = (5, 10)
SEED = 20240601
GOAL_CCD_US = 20.0
GOAL_IMPORT_S = 1.0
MOVED = 1e-12
PLAIN = "plain-python ccd"


def plain_ccd(
    lengths: Sequence[float], target: Sequence[float], tol: float, max_iter: int
) -> tuple[list[float], int]:
    """CCD from the rest pose in plain Python: (relative angles, iterations)."""
    n = len(lengths)
    tx, ty = target
    angles = [0.0] * n
    px = [0.0] * (n + 1)
    py = [0.0] * (n + 1)

    def fk() -> None:
        a = 0.0
        for i in range(n):
            a += angles[i]
            px[i + 1] = px[i] + lengths[i] * math.cos(a)
            py[i + 1] = py[i] + lengths[i] * math.sin(a)

    fk()
    ex, ey = px[n], py[n]
    if (ex - tx) ** 2 + (ey - ty) ** 2 <= tol * tol:
        return angles, 0
    for it in range(1, max_iter + 1):
        biggest = 0.0
        for j in range(n - 1, -1, -1):
            ax, ay = ex - px[j], ey - py[j]
            bx, by = tx - px[j], ty - py[j]
            th = math.atan2(ax * by - ay * bx, ax * bx + ay * by)
            if abs(th) <= MOVED:
                continue
            angles[j] += th
            c, s = math.cos(th), math.sin(th)
            ex, ey = px[j] + c * ax - s * ay, py[j] + s * ax + c * ay
            biggest = max(biggest, abs(th))
        fk()
        ex, ey = px[n], py[n]
        if (ex - tx) ** 2 + (ey - ty) ** 2 <= tol * tol or biggest <= MOVED:
            return angles, it
    return angles, max_iter


def targets(n: int, dim: int, count: int) -> np.ndarray:
    """``count`` reachable targets, seeded: distance 10-90 % of the reach, uniform direction."""
    rng = np.random.default_rng([SEED, n, dim])
    direction = rng.normal(size=(count, dim))
    direction /= np.linalg.norm(direction, axis=1, keepdims=True)
    return direction * rng.uniform(0.1, 0.9, size=(count, 1)) * n


def one_round_us(call: Callable[[np.ndarray], object], pts: np.ndarray) -> float:
    """Mean time per call over all targets, in microseconds."""
    t0 = time.perf_counter()
    for p in pts:
        call(p)
    return (time.perf_counter() - t0) / len(pts) * 1e6


@dataclass(frozen=True)
class Row:
    """One timed case: its per-call times (µs), one per round."""

    name: str
    dim: int
    n: int
    us: list[float]

    @property
    def best(self) -> float:
        return min(self.us)

    @property
    def median(self) -> float:
        return statistics.median(self.us)


def _takes(solver: Solver, n: int) -> bool:
    lo, hi = solver.links
    return lo <= n and (hi is None or n <= hi)


def cases() -> list[tuple[int, list[str]]]:
    """(n, solvers timed at n): every solver at n = 5 and n = 10; a solver that takes neither
    (two-bone) at its own link count, beside ccd."""
    out = [(n, [name for name, s in REGISTRY.items() if _takes(s, n)]) for n in SIZES]
    small = [name for name, s in REGISTRY.items() if not any(_takes(s, n) for n in SIZES)]
    for n in sorted({REGISTRY[name].links[0] for name in small}):
        out.insert(0, (n, ["ccd"] + [name for name in small if _takes(REGISTRY[name], n)]))
    return out


Case = tuple[str, int, int, Callable[[np.ndarray], object], np.ndarray]


def solve_cases(count: int) -> list[Case]:
    """(name, dim, n, call, targets) of every timed case, the plain-Python CCD first at each n."""
    out: list[Case] = []
    for n, names in cases():
        pts2 = targets(n, 2, count)
        lengths = [1.0] * n
        tol = ik.api.DEFAULT_TOL * n

        def plain(p: np.ndarray, lengths: list[float] = lengths, tol: float = tol) -> object:
            return plain_ccd(lengths, (p[0], p[1]), tol, MAX_ITER)

        out.append((PLAIN, 2, n, plain, pts2))
        for name in names:
            solver = REGISTRY[name]
            for dim in solver.dims:
                chain = ik.Chain.planar(lengths) if dim == 2 else ik.Chain.spatial(lengths)
                pts = pts2 if dim == 2 else targets(n, 3, count)

                def call(p: np.ndarray, chain: ik.Chain = chain, name: str = name) -> object:
                    return ik.solve(chain, p, method=name, max_iter=MAX_ITER)

                out.append((name, dim, n, call, pts))
    return out


def solve_table(rounds: int, count: int) -> list[Row]:
    """Every case timed once per round, for ``rounds`` rounds, each round starting one case
    further on; a first, untimed call per case compiles or loads its kernel."""
    todo = solve_cases(count)
    for _, _, _, call, pts in todo:
        call(pts[0])
    us: list[list[float]] = [[] for _ in todo]
    for k in range(rounds):
        shift = k % len(todo)
        for i in list(range(shift, len(todo))) + list(range(shift)):
            us[i].append(one_round_us(todo[i][3], todo[i][4]))
        print(f"  round {k + 1}/{rounds} done", file=sys.stderr, flush=True)
    return [Row(name, dim, n, t) for (name, dim, n, _, _), t in zip(todo, us, strict=True)]


def same_sweeps(count: int) -> tuple[int, int]:
    """(targets on which plain_ccd and geoik's ccd use the same number of sweeps, targets),
    for n = 10 and the timed targets."""
    n = 10
    chain = ik.Chain.planar([1.0] * n)
    tol = ik.api.DEFAULT_TOL * n
    pts = targets(n, 2, count)
    same = 0
    for p in pts:
        _, plain_sweeps = plain_ccd([1.0] * n, (p[0], p[1]), tol, MAX_ITER)
        same += plain_sweeps == ik.solve(chain, p, method="ccd", max_iter=MAX_ITER).iterations
    return same, len(pts)


IMPORT_SNIPPET = """\
import time
t0 = time.perf_counter()
import geoik
geoik.solve(geoik.Chain.planar([2.0] * 10), (8.33, 2.83), method="ccd")
print(time.perf_counter() - t0)
"""


def import_and_first_solve_s(runs: int) -> list[float]:
    """Seconds for ``import geoik`` + first solve in ``runs`` fresh processes, numba's cache
    warm (an untimed first process warms it)."""
    times = []
    for k in range(runs + 1):
        out = subprocess.run(
            [sys.executable, "-c", IMPORT_SNIPPET], capture_output=True, text=True, check=True
        ).stdout
        if k > 0:
            times.append(float(out.strip().splitlines()[-1]))
    return times


def load_note(start: float) -> str:
    """The machine's 1-minute load average at the start and now, against its cores."""
    return (
        f"machine load (1-minute average): {start:.2f} at the start, {os.getloadavg()[0]:.2f} at "
        f"the end, on {os.cpu_count()} cores (other users' load slows every figure)"
    )


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=7, help="timing rounds (default 7)")
    parser.add_argument("--targets", type=int, default=100, help="targets per round")
    parser.add_argument(
        "--import-runs", type=int, default=5, help="timed fresh processes (default 5)"
    )
    parser.add_argument(
        "--judge",
        choices=("best", "median"),
        default="best",
        help="the figure the goals are judged on (default best)",
    )
    args = parser.parse_args(argv)
    start = os.getloadavg()[0]
    if args.rounds < 1 or args.targets < 1 or args.import_runs < 1:
        parser.error("--rounds, --targets and --import-runs must be at least 1")
    print(
        f"geoik.solve per call: max_iter {MAX_ITER}, {args.targets} seeded reachable targets, "
        f"links of length 1; best and median of {args.rounds} interleaved rounds",
        flush=True,
    )
    print("compiling every solver's kernels (or loading them from numba's cache)", file=sys.stderr)
    ik.warm_up()  # otherwise the first calls of each would run as plain Python
    rows = solve_table(args.rounds, args.targets)
    ref = {row.n: row for row in rows if row.name == PLAIN}
    print(
        f"\n{'solver':<18}{'dim':>4}{'n':>4}{'best us':>10}{'median us':>11}"
        f"{'speed-up vs plain CCD (median)':>32}"
    )
    for row in rows:
        plain = ref[row.n].us
        speedup = statistics.median(p / u for p, u in zip(plain, row.us, strict=True))
        print(
            f"{row.name:<18}{row.dim:>3}D{row.n:>4}{row.best:>10.1f}{row.median:>11.1f}"
            f"{speedup:>31.1f}x"
        )
    same, total = same_sweeps(args.targets)
    print(f"\nplain-python ccd and geoik ccd, n = 10: same sweeps on {same} of {total} targets")

    def pick(best: float, median: float) -> float:
        return best if args.judge == "best" else median

    ccd10 = next(row for row in rows if (row.name, row.dim, row.n) == ("ccd", 2, 10))
    us = pick(ccd10.best, ccd10.median)
    verdict = "met" if us <= GOAL_CCD_US else "NOT met"
    print(
        f"goal: ccd, 2-D, n = 10 <= {GOAL_CCD_US:g} us per call: {us:.1f} us, {args.judge} of "
        f"{args.rounds} rounds ({verdict})"
    )
    first = import_and_first_solve_s(args.import_runs)
    secs = pick(min(first), statistics.median(first))
    verdict = "met" if secs < GOAL_IMPORT_S else "NOT met"
    print(
        f"goal: import geoik + first solve < {GOAL_IMPORT_S:g} s (numba cache warm): "
        f"{secs:.2f} s, {args.judge} of {args.import_runs} fresh processes ({verdict})"
    )
    print(f"\n{load_note(start)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
