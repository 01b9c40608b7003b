"""Metric-map speed: geoik's batch engine against C and NumPy yardsticks, in the same run.

The map of the issue: planar CCD, n = 5 unit links from the straight pose, I = 20 sweeps,
eps = 0.01, a 1000 x 1000 grid of pixel centres on [-5, 5]^2.

1. Builds ``ccd_reference.c`` (``--perf-dir``, default ``../shared/perf`` next to the repository)
   into a temporary directory with gcc, as its ``build.sh`` does, and runs its scalar C (-O3,
   OpenMP) and its SIMD-lane C (``block``, ``notrig``) on both cores.
2. Times geoik's CCD map (:func:`geoik.maps.metric_map`, in-process tiles, both cores), checks the
   checksums of the perf README, and compares its iteration map pixel by pixel with the scalar
   C's (which turns joints by atan2/cos/sin where geoik uses (dot, cross)/norm).
3. Times a NumPy CCD written here, vectorised over targets: chunks of targets, the end effector
   updated incrementally per joint as CCD does (O(n) per sweep, one forward pass per sweep to
   place the joints), converged targets dropped from the arrays; on one thread and on two
   (NumPy's ufuncs release the GIL). Its iteration map is compared with geoik's.
4. Prints the ratios and the issue's goals, then times the iterations map of every registered
   planar solver (goal: at most 5 s each), and with ``--costs`` their path maps too.

    python benchmarks/bench_maps.py [--size 1000] [--solvers ccd,fabrik] [--reps 5] [--costs]
"""

from __future__ import annotations

import argparse
import math
import re
import shutil
import subprocess
import tempfile
import time
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import numpy as np

import geoik as ik
from geoik.maps import MetricMap, metric_map
from geoik.solvers import REGISTRY
from geoik.tiles import pixel_centres

N_LINKS, ITERS, EPS = 5, 20, 0.01
CHECKSUMS = {"converged_frac": 0.55666, "mean_iters_conv": 5.7427}  # n=5, N=1000 (perf README)
DEFAULT_PERF = Path(__file__).resolve().parents[2] / "shared" / "perf"
GOAL_RATE, GOAL_VS_SCALAR, GOAL_VS_BLOCK, GOAL_SECONDS = 5e6, 6.0, 1 / 1.5, 5.0


# --------------------------------------------------------------------------- the C yardsticks


def build_c(perf: Path, tmp: Path) -> dict[str, Path]:
    """Compile the C yardsticks into ``tmp``; empty if gcc or the source is missing."""
    src = perf / "ccd_reference.c"
    if shutil.which("gcc") is None or not src.exists():
        return {}
    base = ["gcc", "-O3", "-march=native", "-fopenmp", "-o"]
    fast = ["-ffast-math", "-fno-builtin-sin", "-fno-builtin-cos"]
    subprocess.run([*base, str(tmp / "ccd_O3"), str(src), "-lm"], check=True)
    subprocess.run(
        [*base[:3], *fast, base[3], "-o", str(tmp / "ccd_fast"), str(src), "-lmvec", "-lm"],
        check=True,
    )
    return {"scalar": tmp / "ccd_O3", "block": tmp / "ccd_fast", "notrig": tmp / "ccd_fast"}


def run_c(exe: Path, mode: str, size: int, reps: int, prefix: Path | None) -> dict[str, float]:
    """One C mode's printed figures (median over ``reps``); its maps under ``prefix`` if given."""
    args = [str(exe), mode, str(N_LINKS), str(size), str(ITERS), str(EPS), str(reps), "2"]
    if prefix is not None:
        args.append(str(prefix))
    out = subprocess.run(args, check=True, capture_output=True, text=True).stdout
    return {k: float(v) for k, v in re.findall(r"(\w+)=([-\d.e+]+)", out)}


# --------------------------------------------------------------------------- the NumPy yardstick


def _sweep(px, py, dx, dy, rc, rs, tx, ty) -> None:
    """One CCD sweep over the lanes of a chunk: joints n-1..0 turn the end effector onto the
    line to the target, by the unit complex (dot, cross)/|(dot, cross)|; then one forward pass
    turns every link by the product of the rotations before it and places the joints."""
    n = dx.shape[0]
    ex, ey = px[n].copy(), py[n].copy()
    ax, ay, bx, by, t1, t2 = (np.empty_like(ex) for _ in range(6))
    for j in range(n - 1, -1, -1):
        np.subtract(ex, px[j], out=ax)
        np.subtract(ey, py[j], out=ay)
        np.subtract(tx, px[j], out=bx)
        np.subtract(ty, py[j], out=by)
        c, s = rc[j], rs[j]
        np.multiply(ax, bx, out=c)
        c += np.multiply(ay, by, out=t1)  # dot
        np.multiply(ax, by, out=s)
        s -= np.multiply(ay, bx, out=t1)  # cross
        np.hypot(c, s, out=t1)
        still = t1 == 0.0  # e or t on the joint: no turn
        t1[still] = 1.0
        c /= t1
        s /= t1
        c[still] = 1.0
        np.add(px[j], np.multiply(c, ax, out=t1) - np.multiply(s, ay, out=t2), out=ex)
        np.add(py[j], np.multiply(s, ax, out=t1) + np.multiply(c, ay, out=t2), out=ey)
    cc, cs = np.ones_like(ex), np.zeros_like(ex)
    for k in range(n):
        cc, cs = cc * rc[k] - cs * rs[k], cc * rs[k] + cs * rc[k]
        dx[k], dy[k] = cc * dx[k] - cs * dy[k], cs * dx[k] + cc * dy[k]
        np.add(px[k], dx[k], out=px[k + 1])
        np.add(py[k], dy[k], out=py[k + 1])


def numpy_ccd_chunk(targets: np.ndarray, n: int, iters: int, eps: float) -> np.ndarray:
    """Sweeps to convergence per target (0: the start pose; -1: not within ``eps`` after
    ``iters`` sweeps) of planar CCD with n unit links from the straight pose along +x.
    Convergence ``|e - t| <= eps`` is checked before the first sweep and after each one."""
    m = targets.shape[0]
    out = np.full(m, -1, np.int8)
    idx = np.arange(m)
    tx, ty = targets[:, 0].copy(), targets[:, 1].copy()
    px, py = np.repeat(np.arange(n + 1.0)[:, None], m, axis=1), np.zeros((n + 1, m))
    dx, dy = np.ones((n, m)), np.zeros((n, m))
    rc, rs = np.empty((n, m)), np.empty((n, m))
    for it in range(iters + 1):
        if it > 0:
            _sweep(px, py, dx, dy, rc, rs, tx, ty)
        done = (px[n] - tx) ** 2 + (py[n] - ty) ** 2 <= eps * eps
        if done.any():  # settled lanes leave the arrays: later sweeps cost what is left
            out[idx[done]] = it
            keep = ~done
            idx, tx, ty = idx[keep], tx[keep], ty[keep]
            px, py, dx, dy = px[:, keep], py[:, keep], dx[:, keep], dy[:, keep]
            rc, rs = rc[:, keep], rs[:, keep]
        if idx.size == 0:
            break
    return out


def numpy_ccd(targets: np.ndarray, threads: int = 1, chunk: int = 8192) -> np.ndarray:
    """:func:`numpy_ccd_chunk` over chunks of ``chunk`` targets, on ``threads`` threads."""
    out = np.empty(len(targets), np.int8)

    def job(s: int) -> None:
        out[s : s + chunk] = numpy_ccd_chunk(targets[s : s + chunk], N_LINKS, ITERS, EPS)

    with ThreadPoolExecutor(threads) as pool:
        list(pool.map(job, range(0, len(targets), chunk)))
    return out


# --------------------------------------------------------------------------- measuring


def timed(fn: Callable[[], Any], reps: int) -> tuple[float, Any]:
    """Median wall time of ``reps`` calls, and the last result."""
    times, result = [], None
    for _ in range(reps):
        t0 = time.perf_counter()
        result = fn()
        times.append(time.perf_counter() - t0)
    return float(np.median(times)), result


def iteration_map(m: MetricMap) -> np.ndarray:
    """(N*N,) int8 as the yardsticks write it: iterations where reached, -1 elsewhere."""
    return np.where(m.reached, m.values, -1).astype(np.int8).ravel()


def differences(ours: np.ndarray, theirs: np.ndarray, label: str) -> str:
    """How two iteration maps (-1 = failure) differ, pixel by pixel."""
    diff = ours != theirs
    if not diff.any():
        return f"iteration map identical to {label}'s on all {ours.size:,} pixels"
    both = diff & (ours >= 0) & (theirs >= 0)
    most = int(np.abs(ours[both].astype(int) - theirs[both]).max(initial=0))
    return (
        f"iteration map differs from {label}'s on {int(diff.sum()):,} of {ours.size:,} pixels: "
        f"{int((diff & ~both).sum()):,} reached by one only, {int(both.sum()):,} reached by "
        f"both in sweep counts at most {most} apart"
    )


def c_section(a: argparse.Namespace, rates: dict[str, float]) -> np.ndarray | None:
    """Run the C yardsticks; the scalar C's iteration map (or None without gcc)."""
    c_map = None
    with tempfile.TemporaryDirectory() as tmp:
        exes = build_c(a.perf_dir, Path(tmp))
        if not exes:
            print("C yardsticks skipped: gcc or ccd_reference.c not found")
        for mode, exe in exes.items():
            prefix = Path(tmp) / "scalar" if mode == "scalar" else None
            r = run_c(exe, mode, a.size, a.reps, prefix)
            rates[f"C {mode}"] = r["targets_per_s"]
            print(
                f"{'C ' + mode:<20} {r['targets_per_s'] / 1e6:8.3f} M targets/s  "
                f"converged_frac={r['converged_frac']:.5f} "
                f"mean_iters={r['mean_iters_conv']:.4f}"
            )
            if prefix is not None:
                c_map = np.fromfile(f"{prefix}_iters.i8", dtype=np.int8)
    return c_map


def geoik_section(a: argparse.Namespace, rates: dict[str, float]) -> np.ndarray:
    """Time geoik's CCD map; its iteration map."""
    chain = ik.Chain.planar([1.0] * N_LINKS)
    kw = {"tol": EPS, "max_iter": ITERS}
    metric_map(chain, "ccd", "iterations", size=20, **kw)  # compile / load caches
    wall, m = timed(lambda: metric_map(chain, "ccd", "iterations", size=a.size, **kw), a.reps)
    rates["geoik ccd"] = a.size**2 / wall
    frac, mean = m.reached.mean(), m.values[m.reached].mean()
    print(
        f"{'geoik ccd':<20} {a.size**2 / wall / 1e6:8.3f} M targets/s  converged_frac={frac:.5f} "
        f"mean_iters={mean:.4f}  ({wall:.3f} s)"
    )
    if a.size == 1000:
        ok = math.isclose(frac, CHECKSUMS["converged_frac"], abs_tol=5e-6) and math.isclose(
            mean, CHECKSUMS["mean_iters_conv"], abs_tol=5e-5
        )
        print(f"  checksums of the perf README: {'reproduced' if ok else 'NOT reproduced'}")
    return iteration_map(m)


def numpy_section(a: argparse.Namespace, rates: dict[str, float], ours: np.ndarray) -> None:
    pts = pixel_centres(np.zeros(2), float(N_LINKS), a.size, 0, a.size)
    its = None
    for threads in (1, 2):
        wall, its = timed(lambda t=threads: numpy_ccd(pts, threads=t), 1)
        label = f"numpy ccd {threads} thread{'s' if threads > 1 else ''}"
        rates[label] = len(pts) / wall
        print(f"{label:<20} {len(pts) / wall / 1e6:8.3f} M targets/s  ({wall:.2f} s)")
    print(f"  numpy: {differences(ours, its, 'geoik')}")


def ratios(rates: dict[str, float]) -> None:
    ours = rates["geoik ccd"]
    for ref in rates:
        if ref != "geoik ccd":
            print(f"geoik ccd / {ref:<20} = {ours / rates[ref]:6.2f}x")
    goals = [(f"geoik ccd >= {GOAL_RATE / 1e6:g} M targets/s", ours >= GOAL_RATE)]
    if "C scalar" in rates:
        scalar = rates["C scalar"]
        goals.append((f">= {GOAL_VS_SCALAR:g}x C scalar", ours >= GOAL_VS_SCALAR * scalar))
    if "C block" in rates:
        goals.append(("within 1.5x of C block", ours >= GOAL_VS_BLOCK * rates["C block"]))
    verdicts = [f"{goal}: {'met' if ok else 'NOT met'}" for goal, ok in goals]
    print("goals of the issue: " + "; ".join(verdicts))


def solvers_section(a: argparse.Namespace) -> None:
    metrics = ["iterations", "path"] if a.costs else ["iterations"]
    kw = {"tol": EPS, "max_iter": ITERS}
    print(
        f"\nevery planar solver, {a.size}x{a.size} map, I = {ITERS}, eps = {EPS} "
        f"(goal <= {GOAL_SECONDS:g} s each):"
    )
    for name in [s for s in a.solvers.split(",") if s]:
        lo, hi = REGISTRY[name].links
        n = max(lo, N_LINKS if hi is None else min(N_LINKS, hi))
        chain = ik.Chain.planar([1.0] * n)
        for metric in metrics:
            metric_map(chain, name, metric, size=10, **kw)
            t, _ = timed(lambda c=chain, s=name, m=metric: metric_map(c, s, m, a.size, **kw), 1)
            print(
                f"  {name:<14} n={n} {metric:<10} {a.size**2 / t / 1e6:8.3f} M targets/s "
                f"{t:7.2f} s  {'ok' if t <= GOAL_SECONDS else 'SLOW'}"
            )


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    ap.add_argument("--size", type=int, default=1000, help="pixels per side (default 1000)")
    ap.add_argument("--reps", type=int, default=5, help="timed runs of geoik and C (median)")
    ap.add_argument("--perf-dir", type=Path, default=DEFAULT_PERF)
    ap.add_argument("--solvers", default=",".join(n for n, s in REGISTRY.items() if s.kernel_2d))
    ap.add_argument("--costs", action="store_true", help="also time every solver's path map")
    a = ap.parse_args()
    rates: dict[str, float] = {}
    c_map = c_section(a, rates)
    ours = geoik_section(a, rates)
    if c_map is not None:
        print(f"  {differences(ours, c_map, 'the scalar C')}")
    numpy_section(a, rates, ours)
    ratios(rates)
    solvers_section(a)


if __name__ == "__main__":
    main()
