"""``method="auto"`` beside every geoik solver, ikpy and the Robotics Toolbox's ``ik_LM``.

On the same seeded reachable targets, in the same run, it prints for each problem and each
contender the share of targets reached and the median time per solve, with the median of the
per-target time ratios to ``auto``:

- problems: planar 10 x 2 (ten links of length 2), planar 5 x 1, 3-D 6 x 1 (ball joints) and
  planar 10 x 2 with every joint limited to +-45 degrees;
- targets: the end effectors of random poses within the limits (``--targets`` per problem,
  default 500, seeded): every target is reachable;
- every solve starts from the rest pose (straight along +x), tolerance 1e-3 (a target counts as
  reached when the end effector, by the contender's own forward kinematics, is within 1e-3 of
  it, and every joint is within its limits), 100 iterations: geoik's ``max_iter``; ``ik_LM``'s
  ``ilimit`` (its other settings its defaults: up to ``slimit=100`` searches, the first from
  the rest pose, the others from random poses; residual ``tol`` 5e-7, which is
  ``0.5 * 1e-3 ** 2``, its error being half the squared distance; position only); ikpy has no
  iteration count (its ``max_iter`` is deprecated), so it runs with its defaults
  (``scipy.optimize.least_squares`` under the joints' bounds);
- geoik's solvers are called through ``geoik.solve`` (input checks and the Solution included),
  compiled first (``geoik.warm_up``); a solver refusing a chain is left out (``two-bone``), one
  raising ``LimitError`` (``caa``) counts as a miss;
- timing: the targets are cut into chunks (``--chunk``, default 25) and each chunk is solved
  by every contender in turn, the order turning chunk by chunk, so that load from other users
  falls on all alike; each solve is timed alone and the median taken. Chunks rather than single
  targets: the first calls after another library's solve run slower (its work evicts the
  caches; after an ikpy solve, a geoik solve took several times its time), which would charge
  each contender for its neighbour.

The goal, per problem: ``auto`` reaches 100 % of the reachable targets at a median under 20 us
per solve. The references are an optional extra (``pip install -e '.[bench]'``); without one
the benchmark says so in one line and compares without it.

    python benchmarks/bench_auto.py [--targets 500] [--seed 0] [--chunk 25] [--no-ikpy]
        [--no-rtb]
"""

from __future__ import annotations

import argparse
import math
import os
import statistics
import sys
import time
import warnings
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import numpy as np

import geoik as ik
from geoik.solvers import REGISTRY

TOL = 1e-3
MAX_ITER = 100
GOAL_US = 20.0


@dataclass
class Problem:
    """A chain and how the references model it."""

    name: str
    chain: ik.Chain
    limit: float | None = None  # the +- limit of every joint (radians), planar only


def problems() -> list[Problem]:
    return [
        Problem("planar 10x2", ik.Chain.planar([2.0] * 10)),
        Problem("planar 5x1", ik.Chain.planar([1.0] * 5)),
        Problem("3-D 6x1", ik.Chain.spatial([1.0] * 6)),
        Problem(
            "planar 10x2, +-45 deg",
            ik.Chain.planar([2.0] * 10, max_bend_deg=45),
            limit=math.radians(45.0),
        ),
    ]


def reachable_targets(chain: ik.Chain, count: int, seed: int) -> np.ndarray:
    """End effectors of random poses within the limits: planar angles uniform in each range
    (free: in [-pi, pi]); 3-D rotation vectors with a uniform axis and an angle uniform in
    [0, pi]."""
    rng = np.random.default_rng(seed)
    out = np.empty((count, chain.dim))
    for k in range(count):
        if chain.dim == 2:
            lo = np.where(np.isfinite(chain.lo), chain.lo, -math.pi)
            hi = np.where(np.isfinite(chain.hi), chain.hi, math.pi)
            angles = rng.uniform(lo, hi)
        else:
            axes = rng.normal(size=(chain.n, 3))
            axes /= np.linalg.norm(axes, axis=1)[:, None]
            angles = axes * rng.uniform(0.0, math.pi, chain.n)[:, None]
        out[k] = chain.pose_from_angles(angles).positions[-1]
    return out


# ------------------------------------------------------------------------------ contenders


Solve = Callable[[np.ndarray], bool]
"""Solve one target from the rest pose; True when reached (within TOL and the limits)."""


def geoik_contender(problem: Problem, method: str) -> Solve | None:
    chain = problem.chain
    if method != "auto":
        solver = REGISTRY[method]
        try:
            solver.check_chain(chain.n, chain.dim)
        except ik.UnsupportedChainError:
            return None

    def run(t: np.ndarray) -> bool:
        try:
            sol = ik.solve(chain, t, method=method, tol=TOL, max_iter=MAX_ITER)
        except ik.LimitError:
            return False
        return sol.status is ik.Status.REACHED

    return run


def ikpy_contender(problem: Problem) -> Solve:
    """Planar: one revolute joint about z per link; 3-D: three (z, y, x) per ball joint."""
    import ikpy.chain
    import ikpy.link

    chain = problem.chain
    axes = [(0.0, 0.0, 1.0)] if chain.dim == 2 else [(0, 0, 1.0), (0, 1.0, 0), (1.0, 0, 0)]
    bounds = None if problem.limit is None else (-problem.limit, problem.limit)
    links: list[Any] = [ikpy.link.OriginLink()]
    offset = 0.0
    for i, length in enumerate(chain.lengths):
        for k, axis in enumerate(axes):
            links.append(
                ikpy.link.URDFLink(
                    f"j{i}{k}",
                    origin_translation=np.array([offset if k == 0 else 0.0, 0.0, 0.0]),
                    origin_orientation=np.zeros(3),
                    rotation=np.array(axis),
                    bounds=bounds,
                )
            )
        offset = float(length)
    links.append(
        ikpy.link.URDFLink(
            "tip",
            origin_translation=np.array([offset, 0.0, 0.0]),
            origin_orientation=np.zeros(3),
            joint_type="fixed",
        )
    )
    active = [False] + [True] * (len(links) - 2) + [False]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        model = ikpy.chain.Chain(links, active_links_mask=active)
    rest = np.zeros(len(links))
    lim = math.inf if problem.limit is None else problem.limit

    def run(t: np.ndarray) -> bool:
        target = np.zeros(3)
        target[: chain.dim] = t
        q = model.inverse_kinematics(target_position=target, initial_position=rest)
        end = model.forward_kinematics(q)[: chain.dim, 3]
        within = bool(np.all(np.abs(q) <= lim + 1e-9))
        return within and float(np.linalg.norm(end - t)) <= TOL

    return run


def rtb_contender(problem: Problem) -> Solve:
    """An ETS: Rz then tx per link in the plane; Rz, Ry, Rx then tx per 3-D ball joint."""
    import roboticstoolbox as rtb

    chain = problem.chain
    lim = None if problem.limit is None else [-problem.limit, problem.limit]
    ets = rtb.ETS()
    for length in chain.lengths:
        if chain.dim == 2:
            ets = ets * rtb.ET.Rz(qlim=lim) * rtb.ET.tx(float(length))
        else:
            ets = ets * rtb.ET.Rz() * rtb.ET.Ry() * rtb.ET.Rx() * rtb.ET.tx(float(length))
    rest = np.zeros(ets.n)
    mask = np.array([1.0, 1.0, 0.0 if chain.dim == 2 else 1.0, 0.0, 0.0, 0.0])
    bound = math.inf if problem.limit is None else problem.limit

    def run(t: np.ndarray) -> bool:
        pose = np.eye(4)
        pose[: chain.dim, 3] = t
        sol = ets.ik_LM(pose, q0=rest, ilimit=MAX_ITER, tol=0.5 * TOL**2, mask=mask)
        end = ets.fkine(sol.q).t[: chain.dim]
        within = bool(np.all(np.abs(sol.q) <= bound + 1e-9))
        return within and float(np.linalg.norm(end - t)) <= TOL

    return run


# ------------------------------------------------------------------------------ the run


@dataclass
class Result:
    name: str
    reached: int = 0
    times: list[float] = field(default_factory=list)  # seconds per target, in target order

    def median_us(self) -> float:
        return 1e6 * statistics.median(self.times)


def contenders(problem: Problem, use_ikpy: bool, use_rtb: bool) -> dict[str, Solve]:
    out: dict[str, Solve] = {}
    for method in ["auto", *REGISTRY]:
        run = geoik_contender(problem, method)
        if run is not None:
            out[method] = run
    if use_ikpy:
        out["ikpy"] = ikpy_contender(problem)
    if use_rtb:
        out["rtb ik_LM"] = rtb_contender(problem)
    return out


def run_problem(
    problem: Problem, count: int, seed: int, use_ikpy: bool, use_rtb: bool, chunk: int
) -> dict[str, Result]:
    runs = contenders(problem, use_ikpy, use_rtb)
    pts = reachable_targets(problem.chain, count, seed)
    for run in runs.values():  # untimed: loads what each needs
        run(pts[0])
    results = {name: Result(name) for name in runs}
    names = list(runs)
    for k, c0 in enumerate(range(0, count, chunk)):
        order = names[k % len(names) :] + names[: k % len(names)]
        for name in order:
            run, res = runs[name], results[name]
            for t in pts[c0 : c0 + chunk]:
                start = time.perf_counter()
                hit = run(t)
                res.times.append(time.perf_counter() - start)
                res.reached += hit
    return results


def table(problem: Problem, results: dict[str, Result], count: int) -> list[str]:
    auto = results["auto"]
    lines = [
        f"\n{problem.name}: {count} reachable targets, from rest, tol {TOL:g}, {MAX_ITER} "
        "iterations",
        f"  {'contender':<15}{'reached':>9}{'median us':>12}{'time / auto':>13}",
    ]
    for name, r in results.items():
        ratio = statistics.median(a / b for a, b in zip(r.times, auto.times, strict=True))
        share = 100.0 * r.reached / count
        lines.append(f"  {name:<15}{share:>8.1f}%{r.median_us():>12.1f}{ratio:>12.2f}x")
    return lines


def goal_line(problem: Problem, results: dict[str, Result], count: int) -> str:
    auto = results["auto"]
    share, us = 100.0 * auto.reached / count, auto.median_us()
    met = "met" if auto.reached == count and us < GOAL_US else "NOT met"
    refs = [
        f"{n} {100.0 * r.reached / count:.1f}% at {r.median_us():.1f} us "
        f"({statistics.median(a / b for a, b in zip(r.times, auto.times, strict=True)):.1f}x "
        "auto's time)"
        for n, r in results.items()
        if n in ("ikpy", "rtb ik_LM")
    ]
    line = (
        f"goal, {problem.name}: auto reaches 100% at a median under {GOAL_US:g} us: {met} "
        f"({share:.1f}%, {us:.1f} us)"
    )
    return line + ("; " + ", ".join(refs) if refs else "")


def available(module: str, flag: bool) -> bool:
    if not flag:
        return False
    try:
        __import__(module)
    except ImportError:
        print(
            f"{module} is not installed (pip install -e '.[bench]'): compared without it",
            file=sys.stderr,
        )
        return False
    return True


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--targets", type=int, default=500, help="targets per problem (500)")
    ap.add_argument("--seed", type=int, default=0, help="seed of the targets (0)")
    ap.add_argument("--chunk", type=int, default=25, help="targets per turn (25)")
    ap.add_argument("--no-ikpy", action="store_true", help="leave ikpy out")
    ap.add_argument("--no-rtb", action="store_true", help="leave the Robotics Toolbox out")
    args = ap.parse_args(argv)
    use_ikpy = available("ikpy", not args.no_ikpy)
    use_rtb = available("roboticstoolbox", not args.no_rtb)
    load = os.getloadavg()[0]
    print("compiling every solver's kernels (or loading them from numba's cache)", file=sys.stderr)
    ik.warm_up()
    goals = []
    for k, problem in enumerate(problems()):
        print(f"solving {problem.name}", file=sys.stderr)
        results = run_problem(
            problem, args.targets, args.seed + k, use_ikpy, use_rtb, max(1, args.chunk)
        )
        print("\n".join(table(problem, results, args.targets)))
        goals.append(goal_line(problem, results, args.targets))
    print()
    print("\n".join(goals))
    print(
        f"\nmachine load (1-minute average): {load:.2f} at the start, {os.getloadavg()[0]:.2f} "
        f"at the end, on {os.cpu_count()} cores (other users' load slows every figure)"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
