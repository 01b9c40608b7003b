"""The maps of the ``metric-maps-2010`` experiment (seed 004): its settings, the link lengths
and every map the tables and figures read, computed in a fixed order (:func:`compute`)."""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, field
from functools import partial

import numba

import geoik as ik
from geoik.experiments._report import Progress
from geoik.maps.metric import MetricMap, metric_map

SIZE = 300
QUICK_SIZE = 60
EPS = 0.01
JOINTS = tuple(range(2, 11))
SERIES = (
    ("equal, i = 10", "equal", 10),
    ("equal, i = 20", "equal", 20),
    ("doubling, i = 5", "doubling", 5),
)
"""Coverage sweeps against n: (label, link lengths, i). Figs. 6 and 8 are maps of the first."""
CAA_JOINTS = (3, 4, 5, 6)
CAA_ITERS = (10, 20)
TIMING_ITER = 20
REPEATS = 3
"""Each timed map is the best of this many runs (the machine may be shared)."""
QUICK_REPEATS = 1
"""The same in the quick run (a check of the machinery, not a reproduction)."""


def doubling(n: int) -> list[float]:
    """Lengths doubling from the tip: each link equals the sum of those after it (n=6:
    16, 8, 4, 2, 1, 1)."""
    if n == 1:
        return [1.0]
    return [float(2 ** (n - 2 - i)) for i in range(n - 1)] + [1.0]


def lengths(rule: str, n: int) -> list[float]:
    """``n`` unit links (``equal``) or :func:`doubling` lengths."""
    return [1.0] * n if rule == "equal" else doubling(n)


def make_map(lengths: list[float], method: str, metric: str, size: int, max_iter: int) -> MetricMap:
    """One map of a planar chain with eps = :data:`EPS`."""
    chain = ik.Chain.planar(lengths)
    return metric_map(chain, method, metric, size=size, tol=EPS, max_iter=max_iter)


@dataclass
class Maps:
    """Every map of the experiment: CCD sweeps per series label and n, the Fig. 7 path map, the
    CAA maps per (n, i), and the Fig. 11 timings per (method, threads) and n (seconds)."""

    size: int
    sweeps: dict[str, dict[int, MetricMap]] = field(default_factory=dict)
    path: MetricMap | None = None
    caa: dict[tuple[int, int], MetricMap] = field(default_factory=dict)
    timing: dict[tuple[str, int], dict[int, float]] = field(default_factory=dict)
    threads: int = 1
    repeats: int = REPEATS

    def ccd(self, n: int, i: int) -> MetricMap:
        """The CCD map of ``n`` unit links with ``i`` iterations."""
        return self.sweeps[f"equal, i = {i}"][n]


def best_time(run: Callable[[], object], repeats: int) -> float:
    """The shortest wall time (seconds) of ``repeats`` calls of ``run``."""
    best = float("inf")
    for _ in range(repeats):
        t0 = time.perf_counter()
        run()
        best = min(best, time.perf_counter() - t0)
    return best


def _timings(maps: Maps, tick: Callable[[str], None]) -> None:
    """Fig. 11: 300 x 300 (or the quick size) maps timed on one thread and on all of numba's."""
    every = numba.get_num_threads()
    maps.threads = every
    try:
        for method in ("ccd", "caa"):
            for threads in sorted({1, every}):
                numba.set_num_threads(threads)
                per_n = maps.timing.setdefault((method, threads), {})
                for n in JOINTS:
                    job = partial(make_map, [1.0] * n, method, "iterations", maps.size, TIMING_ITER)
                    per_n[n] = best_time(job, maps.repeats)
                    tick("fig11")
    finally:
        numba.set_num_threads(every)


def compute(size: int, progress: Progress | None = None, repeats: int = REPEATS) -> Maps:
    """Every map the experiment reads, in a fixed order; each timed map the best of
    ``repeats`` runs."""
    maps = Maps(size, repeats=repeats)
    threads = len({1, numba.get_num_threads()})
    total = len(SERIES) * len(JOINTS) + 1 + len(CAA_JOINTS) * len(CAA_ITERS)
    total += 2 * threads * len(JOINTS)
    done = [0]

    def tick(stage: str) -> None:
        done[0] += 1
        if progress:
            progress(stage, done[0], total)

    for label, rule, i in SERIES:
        maps.sweeps[label] = {}
        for n in JOINTS:
            maps.sweeps[label][n] = make_map(lengths(rule, n), "ccd", "iterations", size, i)
            tick("coverage sweeps")
    maps.path = make_map([1.0] * 5, "ccd", "path", size, 10)
    tick("fig7")
    for n in CAA_JOINTS:
        for i in CAA_ITERS:
            maps.caa[n, i] = make_map([1.0] * n, "caa", "iterations", size, i)
            tick("caa")
    _timings(maps, tick)
    return maps
