"""Metric-map speed: geoik's batch engine against C and NumPy yardsticks, in the same run.

Builds ``ccd_reference.c`` (``--perf-dir``, default ``../shared/perf`` next to the repository)
into a temporary directory with gcc, as its ``build.sh`` does, runs the scalar C (-O3, OpenMP)
and the SIMD-lane C (``block``, ``notrig``) on the CCD map (n = 5 unit links, I = 20,
eps = 0.01), then times geoik's CCD map of the same size, checks the checksums of the perf
README, times a NumPy CCD vectorised over targets, and every registered planar solver.

    python benchmarks/bench_maps.py [--size 1000] [--solvers ccd,fabrik] [--reps 3]
"""

from __future__ import annotations

import argparse
import math
import re
import shutil
import subprocess
import tempfile
import time
from pathlib import Path

import numpy as np

import geoik as ik
from geoik.maps import metric_map
from geoik.solvers import REGISTRY
from geoik.tiles import pixel_centres

N_LINKS, ITERS, EPS = 5, 20, 0.01
CHECKSUMS = {"converged_frac": 0.55666, "mean_iters_conv": 5.7427}  # n=5, N=1000 (perf README)
DEFAULT_PERF = Path(__file__).resolve().parents[2] / "shared" / "perf"


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


def run_c(exe: Path, mode: str, size: int, reps: int) -> dict[str, float]:
    args = [str(exe), mode, str(N_LINKS), str(size), str(ITERS), str(EPS), str(reps), "2"]
    out = subprocess.run(args, check=True, capture_output=True, text=True).stdout
    return {k: float(v) for k, v in re.findall(r"(\w+)=([-\d.e+]+)", out)}


def numpy_ccd(targets: np.ndarray, chunk: int = 65536) -> np.ndarray:
    """Iterations per target (-1: failure) of planar CCD, vectorised over targets with NumPy."""
    out = np.empty(len(targets), np.int64)
    for s in range(0, len(targets), chunk):
        t = targets[s : s + chunk]
        m = len(t)
        ang = np.zeros((m, N_LINKS))
        it = np.full(m, -1)
        active = np.ones(m, bool)
        for k in range(1, ITERS + 1):
            for j in range(N_LINKS - 1, -1, -1):
                cum = np.cumsum(ang, axis=1)
                px = np.concatenate([np.zeros((m, 1)), np.cumsum(np.cos(cum), axis=1)], axis=1)
                py = np.concatenate([np.zeros((m, 1)), np.cumsum(np.sin(cum), axis=1)], axis=1)
                ax, ay = px[:, -1] - px[:, j], py[:, -1] - py[:, j]
                bx, by = t[:, 0] - px[:, j], t[:, 1] - py[:, j]
                th = np.arctan2(ax * by - ay * bx, ax * bx + ay * by)
                ang[:, j] += np.where(active, th, 0.0)
            cum = np.cumsum(ang, axis=1)
            ex, ey = np.cos(cum).sum(axis=1), np.sin(cum).sum(axis=1)
            done = active & (np.hypot(ex - t[:, 0], ey - t[:, 1]) < EPS)
            it[done] = k
            active &= ~done
            if not active.any():
                break
        out[s : s + chunk] = it
    return out


def timed(fn, reps: int) -> tuple[float, object]:
    times, result = [], None
    for _ in range(reps):
        t0 = time.perf_counter()
        result = fn()
        times.append(time.perf_counter() - t0)
    return float(np.median(times)), result


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    ap.add_argument("--size", type=int, default=1000)
    ap.add_argument("--reps", type=int, default=3)
    ap.add_argument("--perf-dir", type=Path, default=DEFAULT_PERF)
    ap.add_argument("--solvers", default=",".join(n for n, s in REGISTRY.items() if s.kernel_2d))
    ap.add_argument("--numpy-size", type=int, default=300)
    a = ap.parse_args()
    size, targets = a.size, a.size**2
    chain = ik.Chain.planar([1.0] * N_LINKS)
    kw = {"tol": EPS, "max_iter": ITERS}
    metric_map(chain, "ccd", "iterations", size=20, **kw)  # compile / load caches

    rates: dict[str, float] = {}
    with tempfile.TemporaryDirectory() as tmp:
        for mode, exe in build_c(a.perf_dir, Path(tmp)).items():
            r = run_c(exe, mode, size, a.reps)
            rates[f"C {mode}"] = r["targets_per_s"]
            frac, mean = r["converged_frac"], r["mean_iters_conv"]
            print(f"C {mode:<7} {r['targets_per_s'] / 1e6:8.3f} M targets/s  "
                  f"converged_frac={frac:.5f} mean_iters={mean:.4f}")  # fmt: skip

    wall, m = timed(lambda: metric_map(chain, "ccd", "iterations", size=size, **kw), a.reps)
    rates["geoik ccd"] = targets / wall
    frac = m.reached.mean()
    mean = m.values[m.reached].mean()
    print(f"geoik ccd {targets / wall / 1e6:8.3f} M targets/s  converged_frac={frac:.5f} "
          f"mean_iters={mean:.4f}  ({wall:.2f} s)")  # fmt: skip
    if size == 1000:
        ok = math.isclose(frac, CHECKSUMS["converged_frac"], abs_tol=5e-6) and math.isclose(
            mean, CHECKSUMS["mean_iters_conv"], abs_tol=5e-5
        )
        print(f"checksums of the perf README: {'reproduced' if ok else 'NOT reproduced'}")

    half = float(N_LINKS)
    pts = pixel_centres(np.zeros(2), half, a.numpy_size, 0, a.numpy_size)
    wall_np, its = timed(lambda: numpy_ccd(pts), 1)
    rates["numpy ccd"] = len(pts) / wall_np
    print(f"numpy ccd {rates['numpy ccd'] / 1e6:8.3f} M targets/s  ({a.numpy_size} px map)")

    ours = rates["geoik ccd"]
    for ref in ("C scalar", "C block", "C notrig", "numpy ccd"):
        if ref in rates:
            print(f"geoik ccd / {ref:<9} = {ours / rates[ref]:6.2f}x")

    print(f"\nevery planar solver, {size}x{size} iterations map (goal <= 5 s each):")
    for name in [s for s in a.solvers.split(",") if s]:
        solver = REGISTRY[name]
        lo, hi = solver.links
        n = max(lo, N_LINKS if hi is None else min(N_LINKS, hi))
        c = ik.Chain.planar([1.0] * n)
        metric_map(c, name, "iterations", size=10, **kw)
        t, _ = timed(lambda c=c, name=name: metric_map(c, name, "iterations", size=size, **kw), 1)
        print(f"  {name:<14} n={n}  {targets / t / 1e6:8.3f} M targets/s  {t:7.2f} s "
              f"{'ok' if t <= 5 else 'SLOW'}  ({ours / (targets / t):.2f}x ccd time)")  # fmt: skip


if __name__ == "__main__":
    main()
