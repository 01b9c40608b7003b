"""A robot's first loop of solves with an empty numba cache, as a user's script meets it.

A fresh process, with ``NUMBA_CACHE_DIR`` pointing at a new, empty directory, solves ``--solves``
held-out poses of ``--arm`` one by one (``geoik.solve`` with the orientation, ``method="auto"``,
the default start), and prints the loop's total wall time, its slowest call (the longest the
script waited at once), and the solve from which the analytic kernel ran compiled (none: the
loop ended first, all of it as plain Python). The analytic solver's kernels take tens of seconds
to compile; a helper process compiles them while the loop goes on as Python
(:func:`geoik.jit.slow_to_compile`).

    python benchmarks/bench_first_loop.py [--arm ur5] [--solves 300] [--seed 7]

A few thousand solves run as plain Python while the helper works (2-3 ms a UR5 solve, about
25 ms a Panda solve, on two cores); ``--solves 40000`` on a UR5 runs compiled before its end.
The machine's load average is printed: other users' work slows every figure.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time

CHILD = """
import json, sys, time
import numpy as np
import geoik as ik
from geoik.robots.analytic import kernel_of
from geoik.robots.urdf import load_example
arm, solves, seed = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
robot = load_example(arm)
kernel = kernel_of(robot.analytic_plan())
goals = [robot.tip_frame(q) for q in robot.random_angles(np.random.default_rng(seed), 500)]
start = time.perf_counter()
worst, worst_at, compiled_from, reached = 0.0, -1, None, 0
for i in range(solves):
    goal = goals[i % len(goals)]
    t0 = time.perf_counter()
    sol = ik.solve(robot, goal[:3, 3], orientation=goal[:3, :3])
    took = time.perf_counter() - t0
    reached += sol.reached
    if took > worst:
        worst, worst_at = took, i
    if compiled_from is None and kernel.signatures:
        compiled_from = (i, time.perf_counter() - start)
total = time.perf_counter() - start
print(json.dumps(dict(total=total, worst=worst, worst_at=worst_at, compiled_from=compiled_from,
                      reached=reached)))
"""


def run(arm: str, solves: int, seed: int) -> dict[str, object]:
    """The loop in a fresh process with a new, empty numba cache: its figures."""
    with tempfile.TemporaryDirectory(prefix="geoik-first-loop-") as cache:
        env = {**os.environ, "NUMBA_CACHE_DIR": cache}
        done = subprocess.run(
            [sys.executable, "-c", CHILD, arm, str(solves), str(seed)],
            env=env,
            capture_output=True,
            text=True,
            check=True,
        )
    result: dict[str, object] = json.loads(done.stdout.strip().splitlines()[-1])
    return result


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--arm", default="ur5", help="an example arm (default ur5)")
    parser.add_argument("--solves", type=int, default=300, help="solves in the loop (300)")
    parser.add_argument("--seed", type=int, default=7, help="of the held-out poses (7)")
    args = parser.parse_args(argv)
    if args.solves < 1:
        parser.error(f"--solves: expected at least 1, got {args.solves}")
    load = os.getloadavg()[0]
    t0 = time.perf_counter()
    r = run(args.arm, args.solves, args.seed)
    wall = time.perf_counter() - t0
    compiled = r["compiled_from"]
    when = (
        "never (all of it as plain Python)"
        if compiled is None
        else f"solve {compiled[0]}, {compiled[1]:.1f} s in"  # type: ignore[index]
    )
    print(f"{args.arm}: {args.solves} solves, empty numba cache, one fresh process")
    print(f"  loop: {r['total']:.2f} s, {r['reached']} reached")
    print(f"  slowest call: {r['worst']:.2f} s (solve {r['worst_at']})")
    print(f"  the analytic kernel compiled from: {when}")
    print(f"  the whole process: {wall:.1f} s")
    print(
        f"machine load (1-minute average): {load:.2f} at the start, {os.getloadavg()[0]:.2f} "
        f"at the end, on {os.cpu_count()} cores"
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
