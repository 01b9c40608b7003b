"""The runs of the ``triangulation-2007`` experiment (seed 000) and what the tables and Fig. 6
read from them: which targets each run reached, shares, means and misses (:class:`Context`)."""

from __future__ import annotations

import math
from dataclasses import dataclass, field

import numpy as np

from geoik import geometry as g
from geoik.experiments.triangulation_2007 import study

STATUS_NAMES = {
    g.REACHED: "REACHED",
    g.CLOSEST: "CLOSEST",
    g.MAX_ITERATIONS: "MAX_ITERATIONS",
    g.STALLED: "STALLED",
}


@dataclass
class Context:
    """The targets, the chains' reach, the methods run and every run's per-target arrays."""

    pts: np.ndarray
    reach: dict[str, tuple[float, float]]
    methods: list[str]
    data: dict[tuple[str, str, str], study.Run]
    dist: np.ndarray = field(init=False)
    within: dict[str, np.ndarray] = field(init=False)

    def __post_init__(self) -> None:
        self.dist = np.linalg.norm(self.pts, axis=1)
        self.within = {
            k: (self.dist >= lo) & (self.dist <= hi) for k, (lo, hi) in self.reach.items()
        }

    def reached(self, ck: str, m: str, mode: str) -> np.ndarray:
        """Targets within chain ``ck``'s reach that ``m`` reached from ``mode``'s start."""
        return (self.data[ck, m, mode]["status"] == g.REACHED) & self.within[ck]

    def pct_reached(self, ck: str, m: str, mode: str, max_iter: int | None = None) -> float:
        """Percentage of the targets within reach that chain ``ck``, method ``m`` and start
        ``mode`` reached (within ``max_iter`` iterations when given)."""
        ok = self.reached(ck, m, mode)
        if max_iter is not None:
            ok &= self.data[ck, m, mode]["iterations"] <= max_iter
        return 100.0 * float(ok.sum()) / max(int(self.within[ck].sum()), 1)

    def mean_iterations(self, ck: str, m: str, mode: str) -> float:
        """Mean iterations over the reached targets of ``(ck, m, mode)``; NaN if none."""
        ok = self.reached(ck, m, mode)
        return float(self.data[ck, m, mode]["iterations"][ok].mean()) if ok.any() else math.nan

    def mean_cost(self, ck: str, m: str, mode: str, reading: str) -> float:
        """Mean of the cost ``reading`` over the targets within reach of ``(ck, m, mode)``;
        NaN if none."""
        w = self.within[ck]
        return float(self.data[ck, m, mode][reading][w].mean()) if w.any() else math.nan

    def misses(self, ck: str, m: str, mode: str) -> str:
        """``rest: 46 misses (MAX_ITERATIONS), 39.6-40.0 from the base``, or empty."""
        bad = self.within[ck] & ~self.reached(ck, m, mode)
        if not bad.any():
            return ""
        codes = self.data[ck, m, mode]["status"][bad]
        kinds = ", ".join(STATUS_NAMES[int(c)] for c in np.unique(codes))
        d = self.dist[bad]
        return (
            f"{mode}: {int(bad.sum())} misses ({kinds}), {d.min():.1f}-{d.max():.1f} from the base"
        )

    def misses_at_rim(self, ck: str, m: str) -> bool:
        """Whether every miss of ``m`` on chain ``ck`` lies within 5 % of the maximum reach."""
        rim = 0.95 * self.reach[ck][1]
        return all(
            bool(np.all(self.dist[self.within[ck] & ~self.reached(ck, m, mode)] >= rim))
            for mode in study.MODES
        )
