"""Metric-map speed: geoik's batch engine against C and NumPy yardsticks, in the same run.

The reference map: planar CCD, n = 5 unit links from the straight pose, I = 20 sweeps,
eps = 0.01, a 1000 x 1000 grid of pixel centres on [-5, 5]^2.

1. Builds the repository's C reference, ``benchmarks/c/ccd_reference.c`` (see the README next
   to it), with the system C compiler (``--cc``, else ``$CC``, else gcc, else cc) into a
   temporary directory, three ways: the scalar C (-O3, OpenMP), the SIMD-lane C (``block`` and
   ``notrig`` modes; -ffast-math with glibc's vector maths) and the lane C without trigonometry
   built the way a user chasing speed builds it (-O3 -march=native -ffast-math -fopenmp). All
   run on every core numba uses. Without a compiler it says so in one line and goes on.
2. Times geoik's CCD map (:func:`geoik.maps.metric_map`, in-process tiles, every core), checks
   the checksums of the C README (for the C builds too), and compares its iteration map pixel by
   pixel with the scalar C's (which turns joints by atan2/cos/sin where geoik uses
   (dot, cross)/norm) and with the ``notrig`` C's.
3. Times a NumPy CCD written here, vectorised over targets: chunks of targets, the end effector
   updated incrementally per joint as CCD does (O(n) per sweep, one forward pass per sweep to
   place the joints), converged targets dropped from the arrays; on one thread and on every
   core (NumPy's ufuncs release the GIL). Its iteration map is compared with geoik's.
4. Every contender runs once per round, in an order that turns round by round, for ``--reps``
   rounds, so that load from other users of the machine falls on all of them alike; each timed
   run directly follows an untimed run of the same contender (a C process runs once before its
   timed run, and geoik and NumPy do the same, so that none is timed on caches the others
   left). It prints
   the best and the median of the rounds for each, and geoik's ratio to each (best against
   best, and the median of the per-round ratios). The goals, the rate judged on the best of the
   rounds (``--judge median``: on their median), the ratios on the median of the per-round
   ratios, which pair runs made seconds apart:

   - geoik's CCD map at least 5 M targets/s;
   - at least 6x the scalar C;
   - within 1.5x of the SIMD-lane C (``block``);
   - at least as fast as the lane C without trigonometry built with a user's speed flags
     (``notrig``, -O3 -march=native -ffast-math -fopenmp).

5. Times the iterations map of every registered planar solver (best and median of
   ``--solver-reps`` runs; goal: at most 1 s each), and with ``--costs`` their path maps too
   (goal: at most 2 s each); each run follows a run of the reference CCD map, and the median of
   the time ratios is printed beside.
6. 3-D (``--spatial``): CCD on 5 unit links with 60-degree cones, I = 20, eps = 0.01, over the
   voxel centres of the cube [-5, 5]^3: the batch engine's targets/s on the 128^3 centres, and
   a whole ``volume_map`` of 128^3 (a new chain each run, so the reachable set is decided anew
   every time); beside them, in turns, a plain 3-D CCD written here (one joint at a time, the
   forward kinematics redone after every update, trigonometry for every rotation: the
   straightforward kernel) on the same targets, on every core. Goals: at least 1 M targets/s,
   the volume map within 10 s (judged on the best of the rounds).

    python benchmarks/bench_maps.py [--size 1000] [--solvers ccd,fabrik] [--reps 5] [--costs]
        [--spatial] [--sections reference,solvers,spatial]
"""

from __future__ import annotations

import argparse
import math
import os
import re
import shlex
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from functools import partial
from pathlib import Path

import numba
import numpy as np
from numba import njit, prange

import geoik as ik
from geoik import geometry as g
from geoik.batch.engine import evaluate
from geoik.maps import MetricMap, metric_map, volume_map
from geoik.maps.tiles import pixel_centres, voxel_centres
from geoik.solvers import REGISTRY
from geoik.state import rest_state

N_LINKS, ITERS, EPS = 5, 20, 0.01
C_SOURCE = Path(__file__).resolve().parent / "c" / "ccd_reference.c"
# The checksums of benchmarks/c/README.md (n = 5, N = 1000, I = 20, eps = 0.01), every mode;
# path_sum in the scalar and block modes only (notrig's path uses chords).
CHECKSUMS = {"converged_frac": 0.55666, "mean_iters_conv": 5.7427}
PATH_SUM = 11734342.47
GOAL_RATE, GOAL_VS_SCALAR, GOAL_VS_BLOCK, GOAL_VS_USER = 5e6, 6.0, 1 / 1.5, 1.0
GOAL_SECONDS = {"iterations": 1.0, "path": 2.0}
GOAL_3D_RATE, GOAL_3D_VOLUME, VOLUME = 1e6, 10.0, 128
GEOIK = "geoik ccd"


# --------------------------------------------------------------------------- the C yardsticks


@dataclass(frozen=True)
class CBuild:
    """One way of compiling the C reference: the executable's name, compiler flags, libraries."""

    exe: str
    flags: tuple[str, ...]
    libs: tuple[str, ...] = ("-lm",)

    def command(self, cc: Sequence[str], src: Path, out_dir: Path) -> list[str]:
        return [*cc, *self.flags, "-o", str(out_dir / self.exe), str(src), *self.libs]


# The flags of benchmarks/c/README.md. -fno-builtin-sin/cos stop gcc fusing sin and cos into
# sincos(), which it cannot vectorise; "user" is the build of someone chasing speed, without them.
C_BUILDS = {
    "O3": CBuild("ccd_O3", ("-O3", "-march=native", "-fopenmp")),
    "fast": CBuild(
        "ccd_fast",
        ("-O3", "-march=native", "-ffast-math", "-fno-builtin-sin", "-fno-builtin-cos", "-fopenmp"),
        ("-lmvec", "-lm"),
    ),
    "user": CBuild("ccd_user", ("-O3", "-march=native", "-ffast-math", "-fopenmp")),
}
# (label, build, mode): the C contenders
C_CONTENDERS = (
    ("C scalar", "O3", "scalar"),
    ("C block", "fast", "block"),
    ("C notrig", "fast", "notrig"),
    ("C notrig, user flags", "user", "notrig"),
)


def find_compiler(cc: str | None = None) -> list[str] | None:
    """The C compiler command: ``cc`` if given (None if it is not found), else ``$CC``, else
    gcc, else cc; None when none of them is on the PATH."""
    for candidate in [cc] if cc else [os.environ.get("CC"), "gcc", "cc"]:
        words = shlex.split(candidate or "")
        if words and shutil.which(words[0]):
            return words
    return None


def build_c(
    cc: Sequence[str], out_dir: Path, builds: dict[str, CBuild] | None = None
) -> tuple[dict[str, Path], list[str]]:
    """Compile the C reference into ``out_dir`` every way of ``builds`` (default
    :data:`C_BUILDS`): (build name -> executable, one message per failed build)."""
    exes, failures = {}, []
    for name, build in (C_BUILDS if builds is None else builds).items():
        cmd = build.command(cc, C_SOURCE, out_dir)
        done = subprocess.run(cmd, capture_output=True, text=True)
        if done.returncode == 0:
            exes[name] = out_dir / build.exe
        else:
            why = (done.stderr.strip().splitlines() or [f"exit status {done.returncode}"])[-1]
            failures.append(f"C build {build.exe} failed ({shlex.join(cmd)}): {why}")
    return exes, failures


def run_c(
    exe: Path, mode: str, size: int, threads: int, reps: int = 1, prefix: Path | None = None
) -> dict[str, float]:
    """The figures one C run prints (``median_s``, ``min_s``, ``targets_per_s`` and the
    checksums) for ``reps`` timed runs after its own warm-up; its maps under ``prefix``."""
    args = [str(exe), mode, str(N_LINKS), str(size), str(ITERS), str(EPS), str(reps), str(threads)]
    if prefix is not None:
        args.append(str(prefix))
    out = subprocess.run(args, check=True, capture_output=True, text=True).stdout
    return {k: float(v) for k, v in re.findall(r"(\w+)=([-+]?[\d.]+(?:e[-+]?\d+)?)\b", out)}


def c_checksums(r: dict[str, float], mode: str) -> str:
    """Whether one C run reproduced the checksums of benchmarks/c/README.md."""
    ok = math.isclose(r["converged_frac"], CHECKSUMS["converged_frac"], abs_tol=5e-6)
    ok &= math.isclose(r["mean_iters_conv"], CHECKSUMS["mean_iters_conv"], abs_tol=5e-5)
    got = f"converged_frac={r['converged_frac']:.5f} mean_iters={r['mean_iters_conv']:.4f}"
    if mode != "notrig":
        ok &= math.isclose(r["path_sum"], PATH_SUM, abs_tol=5e-3)
        got += f" path_sum={r['path_sum']:.2f}"
    return f"checksums {'reproduced' if ok else 'NOT reproduced'} ({got})"


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


@dataclass(frozen=True)
class Figure:
    """One contender's per-round wall times (seconds) for ``targets`` targets."""

    times: list[float]
    targets: int

    @property
    def rates(self) -> list[float]:
        return [self.targets / t for t in self.times]

    @property
    def best(self) -> float:
        return max(self.rates)

    @property
    def median(self) -> float:
        return statistics.median(self.rates)


def interleaved(contenders: dict[str, Callable[[], float]], reps: int) -> dict[str, list[float]]:
    """Run every contender (a call returning the seconds of one timed run) once per round, for
    ``reps`` rounds, starting each round one contender further on; the seconds per round."""
    labels = list(contenders)
    times: dict[str, list[float]] = {label: [] for label in labels}
    for k in range(reps):
        shift = k % len(labels)
        for label in labels[shift:] + labels[:shift]:
            times[label].append(contenders[label]())
        print(f"  round {k + 1}/{reps} done", file=sys.stderr, flush=True)
    return times


def best_and_median(fn: Callable[[], object], reps: int) -> tuple[float, float]:
    """Best and median wall time of ``reps`` calls of ``fn``."""
    times = []
    for _ in range(reps):
        t0 = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t0)
    return min(times), statistics.median(times)


def iteration_map(m: MetricMap) -> np.ndarray:
    """(N*N,) int8 as the yardsticks write it: iterations where reached, -1 elsewhere."""
    return np.where(m.reached, m.values, -1).astype(np.int8).ravel()


def differences(ours: np.ndarray, theirs: np.ndarray, label: str) -> str:
    """How two iteration maps (-1 = failure) differ, pixel by pixel."""
    diff = ours != theirs
    if not diff.any():
        return f"same iteration map as {label} on all {ours.size:,} pixels"
    both = diff & (ours >= 0) & (theirs >= 0)
    most = int(np.abs(ours[both].astype(int) - theirs[both]).max(initial=0))
    return (
        f"iteration map differs from {label} on {int(diff.sum()):,} of {ours.size:,} pixels: "
        f"{int((diff & ~both).sum()):,} reached by one only, {int(both.sum()):,} reached by "
        f"both in sweep counts at most {most} apart"
    )


# --------------------------------------------------------------------------- the reference map


class Reference:
    """The contenders on the reference map, and what their last runs produced."""

    def __init__(self, a: argparse.Namespace, tmp: Path) -> None:
        self.size, self.tmp = a.size, tmp
        self.threads = numba.get_num_threads()
        self.contenders: dict[str, Callable[[], float]] = {GEOIK: self.geoik}
        self.modes: dict[str, str] = {}  # C label -> mode
        self.c_out: dict[str, dict[str, float]] = {}  # C label -> its last printed figures
        self.maps: dict[str, np.ndarray] = {}  # label -> last iteration map (N*N,) int8
        self.chain = ik.Chain.planar([1.0] * N_LINKS)
        self.last: MetricMap | None = None
        self.pts = pixel_centres(np.zeros(2), float(N_LINKS), a.size, 0, a.size)
        self.add_c(a.cc)
        for threads in sorted({1, self.threads}):
            label = f"numpy ccd {threads} thread{'s' if threads > 1 else ''}"
            self.contenders[label] = partial(self.numpy, threads, label)

    def add_c(self, cc_choice: str | None) -> None:
        cc = find_compiler(cc_choice)
        if cc is None:
            looked = cc_choice or "$CC, gcc, cc"
            print(
                f"C reference not built: no C compiler found ({looked}); compared with NumPy only"
            )
            return
        version = subprocess.run([*cc, "--version"], capture_output=True, text=True).stdout
        print(
            f"C reference {C_SOURCE.name} built with {shlex.join(cc)} ({version.splitlines()[0]}):"
        )
        exes, failures = build_c(cc, self.tmp)
        for name, build in C_BUILDS.items():
            if name in exes:
                modes = ", ".join(label for label, b, _ in C_CONTENDERS if b == name)
                print(f"  {shlex.join(build.command(cc, Path(C_SOURCE.name), Path()))}  ({modes})")
        for failure in failures:
            print(f"  {failure}")
        for label, name, mode in C_CONTENDERS:
            if name in exes:
                self.modes[label] = mode
                self.contenders[label] = partial(self.c, exes[name], mode, label)

    def geoik(self) -> float:
        run = partial(
            metric_map, self.chain, "ccd", "iterations", self.size, tol=EPS, max_iter=ITERS
        )
        run()  # untimed, as each C process runs once before its timed run
        t0 = time.perf_counter()
        self.last = run()
        return time.perf_counter() - t0

    def c(self, exe: Path, mode: str, label: str) -> float:
        prefix = self.tmp / exe.name if label in ("C scalar", "C notrig") else None
        r = run_c(exe, mode, self.size, self.threads, 1, prefix)
        self.c_out[label] = r
        if prefix is not None:
            self.maps[label] = np.fromfile(f"{prefix}_iters.i8", dtype=np.int8)
        return r["median_s"]  # one timed run

    def numpy(self, threads: int, label: str) -> float:
        numpy_ccd(self.pts, threads=threads)  # untimed, as for the C and geoik
        t0 = time.perf_counter()
        its = numpy_ccd(self.pts, threads=threads)
        seconds = time.perf_counter() - t0
        self.maps[label] = its
        return seconds

    def warm_up(self) -> None:
        """numba's compilation or cache load, and one untimed map (the C runs warm up
        themselves)."""
        metric_map(self.chain, "ccd", "iterations", size=20, tol=EPS, max_iter=ITERS)
        self.geoik()

    def checks(self) -> list[str]:
        """The checksums and the pixel-by-pixel comparisons, from the last round."""
        assert self.last is not None
        m, out = self.last, []
        frac, mean = float(m.reached.mean()), float(m.values[m.reached].mean())
        if self.size == 1000:
            ok = math.isclose(frac, CHECKSUMS["converged_frac"], abs_tol=5e-6)
            ok &= math.isclose(mean, CHECKSUMS["mean_iters_conv"], abs_tol=5e-5)
            verdict = "reproduced" if ok else "NOT reproduced"
            out.append(
                f"{GEOIK}: checksums of benchmarks/c/README.md {verdict} "
                f"(converged_frac={frac:.5f} mean_iters={mean:.4f})"
            )
            for label, r in self.c_out.items():
                out.append(f"{label}: {c_checksums(r, self.modes[label])}")
        else:
            out.append(
                f"{GEOIK}: converged_frac={frac:.5f} mean_iters={mean:.4f} (the README's "
                "checksums are for --size 1000)"
            )
        ours = iteration_map(m)
        for label, theirs in self.maps.items():
            out.append(f"{GEOIK}: {differences(ours, theirs, label)}")
        return out


def ratio_table(figures: dict[str, Figure]) -> list[str]:
    """Targets/s of every contender, best and median, and geoik's ratio to each."""
    ours = figures[GEOIK]
    lines = [
        f"{'':<22}{'M targets/s':>20}   {'geoik ccd / contender':>34}",
        f"{'contender':<22}{'best':>10}{'median':>10}   "
        f"{'best / best':>16}{'median of rounds':>18}",
    ]
    for label, fig in figures.items():
        row = f"{label:<22}{fig.best / 1e6:>10.3f}{fig.median / 1e6:>10.3f}"
        if label != GEOIK:
            row += f"   {ours.best / fig.best:>15.2f}x{per_round(ours, fig):>17.2f}x"
        lines.append(row)
    return lines


def per_round(ours: Figure, theirs: Figure) -> float:
    """The median over the rounds of the ratio of two contenders' targets/s in the same round."""
    return statistics.median(g / r for g, r in zip(ours.rates, theirs.rates, strict=True))


def goals(figures: dict[str, Figure], judge: str) -> list[str]:
    """The goals: the rate judged on the best (or median) of the rounds, the ratios on the
    median of the per-round ratios (each pairs runs made seconds apart)."""
    ours = figures[GEOIK]

    def verdict(ok: bool) -> str:
        return "met" if ok else "NOT met"

    got = ours.best if judge == "best" else ours.median
    met = verdict(got >= GOAL_RATE)
    out = [f"{GEOIK} >= {GOAL_RATE / 1e6:g} M targets/s: {got / 1e6:.2f} M ({met})"]
    if "C scalar" in figures:
        r = per_round(ours, figures["C scalar"])
        out.append(
            f"{GEOIK} >= {GOAL_VS_SCALAR:g}x C scalar: {r:.2f}x ({verdict(r >= GOAL_VS_SCALAR)})"
        )
    if "C block" in figures:
        r = per_round(ours, figures["C block"])
        out.append(
            f"{GEOIK} within 1.5x of C block (>= {GOAL_VS_BLOCK:.2f}x): {r:.2f}x "
            f"({verdict(r >= GOAL_VS_BLOCK)})"
        )
    if "C notrig, user flags" in figures:
        r = per_round(ours, figures["C notrig, user flags"])
        best = ours.best / figures["C notrig, user flags"].best
        out.append(
            f"{GEOIK} >= {GOAL_VS_USER:g}x C notrig, user flags: {r:.2f}x (best / best "
            f"{best:.2f}x) ({verdict(r >= GOAL_VS_USER)})"
        )
    return out


def reference_section(a: argparse.Namespace) -> dict[str, Figure]:
    print(
        f"reference map: planar CCD, n = {N_LINKS} unit links, I = {ITERS}, eps = {EPS}, "
        f"{a.size} x {a.size} targets, {numba.get_num_threads()} threads"
    )
    with tempfile.TemporaryDirectory(prefix="geoik-bench-c-") as tmp:
        ref = Reference(a, Path(tmp))
        ref.warm_up()
        print(
            f"\n{a.reps} rounds, every contender once per round in a turning order; each figure "
            "is the best and the median of the rounds",
            flush=True,
        )
        times = interleaved(ref.contenders, a.reps)
        figures = {label: Figure(t, a.size**2) for label, t in times.items()}
        for line in ratio_table(figures):
            print(line)
        print("\nchecks (last round):")
        for line in ref.checks():
            print(f"  {line}")
    print(
        f"\ngoals (the rate: the {a.judge} of {a.reps} rounds; the ratios: the median of the "
        "per-round ratios):"
    )
    for line in goals(figures, a.judge):
        print(f"  {line}")
    return figures


def solvers_section(a: argparse.Namespace) -> None:
    """Every solver's map, each run paired with a run of the reference CCD map just before it."""
    metrics = ["iterations", "path"] if a.costs else ["iterations"]
    ref_chain = ik.Chain.planar([1.0] * N_LINKS)
    reference = partial(metric_map, ref_chain, "ccd", "iterations", a.size, tol=EPS, max_iter=ITERS)
    print(
        f"\nevery planar solver, {a.size}x{a.size} map, I = {ITERS}, eps = {EPS}: best and median "
        f"of {a.solver_reps} runs, each run after one of the reference CCD map, and the median of "
        f"their time ratios; goal: at most {GOAL_SECONDS['iterations']:g} s an iterations map, "
        f"{GOAL_SECONDS['path']:g} s a path map, judged on the {a.judge}"
    )
    print(
        f"  {'solver':<14}{'n':>3} {'metric':<11}{'best s':>8}{'median s':>10}"
        f"{'M targets/s':>13}{'time / reference CCD map':>26}"
    )
    for name in [s for s in a.solvers.split(",") if s]:
        lo, hi = REGISTRY[name].links
        n = max(lo, N_LINKS if hi is None else min(N_LINKS, hi))
        chain = ik.Chain.planar([1.0] * n)
        for metric in metrics:
            metric_map(chain, name, metric, size=10, tol=EPS, max_iter=ITERS)
            run = partial(metric_map, chain, name, metric, a.size, tol=EPS, max_iter=ITERS)
            times, ratios = [], []
            for _ in range(a.solver_reps):
                ref_s, _ = best_and_median(reference, 1)
                t, _ = best_and_median(run, 1)
                times.append(t)
                ratios.append(t / ref_s)
            best, median = min(times), statistics.median(times)
            t = best if a.judge == "best" else median
            print(
                f"  {name:<14}{n:>3} {metric:<11}{best:>8.3f}{median:>10.3f}"
                f"{a.size**2 / t / 1e6:>13.3f}{statistics.median(ratios):>25.2f}x"
                f"  {'ok' if t <= GOAL_SECONDS[metric] else 'SLOW'}",
                flush=True,
            )


# --------------------------------------------------------------------------- 3-D


@njit(cache=True)
def plain_ccd_3d(lengths, base, cone, hinge, lo, hi, target, quats, tol, max_iter):
    """CCD in 3-D one joint at a time, the forward kinematics redone after every update and
    every rotation built with trigonometry (``geoik.geometry``'s helpers): the straightforward
    kernel, status and sweeps as geoik's (tests/test_ccd3d.py checks the same algorithm)."""
    n = lengths.shape[0]
    pos = np.empty((n + 1, 3))
    world = np.empty((n, 4))
    outer = np.empty(3)
    is_beyond = g.beyond_reach(lengths, base, target, outer)
    tol2 = tol * tol
    g.fk_3d(lengths, base, quats, pos, world)
    if g.dist2(pos[n], target) <= tol2:
        return g.REACHED, 0
    for it in range(1, max_iter + 1):
        biggest = 0.0
        for j in range(n - 1, -1, -1):
            ax, ay, az = pos[n, 0] - pos[j, 0], pos[n, 1] - pos[j, 1], pos[n, 2] - pos[j, 2]
            bx, by, bz = target[0] - pos[j, 0], target[1] - pos[j, 1], target[2] - pos[j, 2]
            p0, p1, p2, p3 = g.parent_frame(j, world)
            o0, o1, o2, o3 = quats[j, 0], quats[j, 1], quats[j, 2], quats[j, 3]
            na = math.sqrt(ax * ax + ay * ay + az * az)
            nb = math.sqrt(bx * bx + by * by + bz * bz)
            if na < 1e-300 or nb < 1e-300:
                continue
            r0, r1, r2, r3 = g.q_between(ax / na, ay / na, az / na, bx / nb, by / nb, bz / nb)
            l0, l1, l2, l3 = g.qmul(p0, -p1, -p2, -p3, r0, r1, r2, r3)
            l0, l1, l2, l3 = g.qmul(l0, l1, l2, l3, p0, p1, p2, p3)
            q0, q1, q2, q3 = g.qmul(l0, l1, l2, l3, o0, o1, o2, o3)
            q0, q1, q2, q3 = g.constrain_joint_3d(q0, q1, q2, q3, j, cone, hinge, lo, hi)
            q0, q1, q2, q3 = g.qnormalize(q0, q1, q2, q3)
            d0, d1, d2, d3 = g.qmul(q0, q1, q2, q3, o0, -o1, -o2, -o3)
            th = g.q_angle(d0, d1, d2, d3)
            if th <= 1e-12:
                continue
            quats[j, 0], quats[j, 1], quats[j, 2], quats[j, 3] = q0, q1, q2, q3
            g.fk_3d_from(j, lengths, quats, pos, world)
            biggest = max(biggest, th)
        if g.dist2(pos[n], target) <= tol2:
            return g.REACHED, it
        if is_beyond and g.dist2(pos[n], outer) <= tol2:
            return g.CLOSEST, it
        if biggest <= 1e-12:
            return g.STALLED, it
    return g.MAX_ITERATIONS, max_iter


@njit(parallel=True, cache=True)
def plain_ccd_3d_map(lengths, base, cone, hinge, lo, hi, targets, start, tol, max_iter, out):
    """:func:`plain_ccd_3d` for every target, on every core (chunks of 256 targets)."""
    m = targets.shape[0]
    for c in prange((m + 255) // 256):
        q = np.empty(start.shape)
        t = np.empty(3)
        for i in range(c * 256, min(m, c * 256 + 256)):
            q[:, :] = start
            t[0], t[1], t[2] = targets[i, 0], targets[i, 1], targets[i, 2]
            out[i] = plain_ccd_3d(lengths, base, cone, hinge, lo, hi, t, q, tol, max_iter)[1]


def spatial_section(a: argparse.Namespace) -> None:
    chain = ik.Chain.spatial([1.0] * N_LINKS, max_bend_deg=60)
    half = chain.reach()[1]
    centres = voxel_centres(chain.base, half, VOLUME, 0, VOLUME * VOLUME)
    print(
        f"\n3-D: CCD, {N_LINKS} unit links, 60-degree cones, I = {ITERS}, eps = {EPS}, "
        f"{VOLUME}^3 voxel centres of [-{half:g}, {half:g}]^3, {numba.get_num_threads()} threads; "
        f"{a.reps} rounds in turns, best and median"
    )
    sample = centres[:: max(1, len(centres) // (1 << 18))]  # the plain CCD on every 8th or so
    start = np.ascontiguousarray(rest_state(chain))
    plain_out = np.empty(len(sample), np.int64)

    def engine() -> float:
        t0 = time.perf_counter()
        evaluate(chain, centres, "ccd", tol=EPS, max_iter=ITERS, costs=False)
        return time.perf_counter() - t0

    def plain() -> float:
        t0 = time.perf_counter()
        plain_ccd_3d_map(*chain.kernel_arrays, sample, start, EPS, ITERS, plain_out)
        return time.perf_counter() - t0

    def volume() -> float:
        fresh = ik.Chain.spatial([1.0] * N_LINKS, max_bend_deg=60)  # its reachable set anew
        t0 = time.perf_counter()
        volume_map(fresh, "ccd", "iterations", VOLUME, tol=EPS, max_iter=ITERS)
        return time.perf_counter() - t0

    evaluate(chain, centres[:1000], "ccd", tol=EPS, max_iter=ITERS, costs=False)
    volume_map(chain, "ccd", "iterations", 8, tol=EPS, max_iter=ITERS)
    plain_ccd_3d_map(*chain.kernel_arrays, sample[:1000], start, EPS, ITERS, plain_out[:1000])
    times = interleaved({"engine": engine, "plain": plain, "volume": volume}, a.reps)
    ours = Figure(times["engine"], len(centres))
    theirs = Figure(times["plain"], len(sample))
    check = evaluate(chain, sample, "ccd", tol=EPS, max_iter=ITERS, costs=False)
    same = float(np.mean(check.iterations == plain_out))
    print(
        f"  geoik ccd (batch engine)  {ours.best / 1e6:8.3f} M targets/s best, "
        f"{ours.median / 1e6:.3f} median"
    )
    print(
        f"  plain 3-D CCD             {theirs.best / 1e6:8.3f} M targets/s best, "
        f"{theirs.median / 1e6:.3f} median; geoik / plain: best / best "
        f"{ours.best / theirs.best:.1f}x, median of rounds {per_round(ours, theirs):.1f}x; "
        f"same sweeps on {100 * same:.2f}% of its {len(sample):,} targets"
    )
    vol = times["volume"]
    print(
        f"  volume_map {VOLUME}^3          {min(vol):8.2f} s best, {statistics.median(vol):.2f} s "
        f"median (the reachable set decided, every voxel solved, the coverage)"
    )
    rate = ours.best if a.judge == "best" else ours.median
    seconds = min(vol) if a.judge == "best" else statistics.median(vol)
    fast, quick = rate >= GOAL_3D_RATE, seconds <= GOAL_3D_VOLUME
    print(
        f"  goals: >= {GOAL_3D_RATE / 1e6:g} M targets/s: {rate / 1e6:.2f} M "
        f"({'met' if fast else 'NOT met'}); {VOLUME}^3 volume map within "
        f"{GOAL_3D_VOLUME:g} s: {seconds:.2f} s ({'met' if quick else 'NOT met'})"
    )


def load_note(start: float) -> str:
    """The machine's 1-minute load average at the start and now, against its cores."""
    return (
        f"machine load (1-minute average): {start:.2f} at the start, {os.getloadavg()[0]:.2f} at "
        f"the end, on {os.cpu_count()} cores (other users' load slows every figure)"
    )


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    ap.add_argument("--size", type=int, default=1000, help="pixels per side (default 1000)")
    ap.add_argument("--reps", type=int, default=5, help="rounds on the reference map (default 5)")
    ap.add_argument(
        "--solver-reps", type=int, default=3, help="timed runs of each solver's map (default 3)"
    )
    ap.add_argument(
        "--judge",
        choices=("best", "median"),
        default="best",
        help="the figure the rate goal and the solver goal are judged on (default best)",
    )
    ap.add_argument("--cc", help="C compiler command (default: $CC, else gcc, else cc)")
    ap.add_argument("--solvers", default=",".join(n for n, s in REGISTRY.items() if s.kernel_2d))
    ap.add_argument("--costs", action="store_true", help="also time every solver's path map")
    ap.add_argument("--spatial", action="store_true", help="also time the 3-D CCD section")
    ap.add_argument(
        "--sections",
        default=None,
        help="comma-separated sections to run: reference, solvers, spatial (default: reference "
        "and solvers, and spatial with --spatial)",
    )
    a = ap.parse_args()
    if a.reps < 1 or a.solver_reps < 1:
        ap.error("--reps and --solver-reps must be at least 1")
    sections = (
        a.sections.split(",")
        if a.sections
        else ["reference", "solvers"] + (["spatial"] if a.spatial else [])
    )
    start = os.getloadavg()[0]
    if "reference" in sections:
        reference_section(a)
    if "solvers" in sections:
        solvers_section(a)
    if "spatial" in sections:
        spatial_section(a)
    print(f"\n{load_note(start)}")


if __name__ == "__main__":
    main()
