"""Colours and names of the metric maps, defined once for every place that shows a map.

The figures (:mod:`geoik.maps.figures`), the viewer's overlay image
(:mod:`geoik.viewer.overlay`) and the viewer's page (which receives them in the ``methods`` and
``map`` replies) all read them from here:

- the hue scale of seed 004: blue (the least value) through cyan, green and yellow to red (the
  largest), at full saturation. At full saturation and value each channel is linear in the hue
  between those five colours, so the scale is exactly the linear interpolation of
  :data:`HUE_STOPS` (as a canvas gradient draws it);
- black for a reachable pixel the solver failed to reach (:data:`FAILURE`), grey outside the
  reach annulus (:data:`OUTSIDE`);
- the metrics (:data:`METRICS`): name as ``geoik map --metric`` spells it, the
  :class:`~geoik.batch.BatchResult` field it reads, words and unit;
- the value range a map is coloured over (:func:`value_range`) and its colour bar, with the
  least and the largest value always labelled (:func:`colour_bar`).

NumPy only, no matplotlib: the viewer's server imports this module.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

import numpy as np

__all__ = [
    "FAILURE",
    "HUE_STOPS",
    "LENGTH_UNIT",
    "METRICS",
    "OUTSIDE",
    "ColourBar",
    "Metric",
    "colour_bar",
    "hex_colour",
    "hue_rgb",
    "map_rgb",
    "page_colours",
    "value_range",
]

RGB = tuple[float, float, float]

HUE_STOPS: tuple[tuple[float, RGB], ...] = (
    (0.0, (0.0, 0.0, 1.0)),  # blue, hue 240 degrees: the least value
    (0.25, (0.0, 1.0, 1.0)),  # cyan, 180
    (0.5, (0.0, 1.0, 0.0)),  # green, 120
    (0.75, (1.0, 1.0, 0.0)),  # yellow, 60
    (1.0, (1.0, 0.0, 0.0)),  # red, 0: the largest value
)
"""The hue scale as (position in [0, 1], RGB) stops, linear in RGB between them."""
FAILURE: RGB = (0.0, 0.0, 0.0)
"""A reachable pixel the solver did not reach: black."""
OUTSIDE: RGB = (0.6, 0.6, 0.6)
"""A pixel outside the reach annulus: neutral grey."""
LENGTH_UNIT = "unit of the link lengths"
"""The unit of positions and distances on every figure: whatever unit the chain's link lengths
are given in."""
MAX_BANDS = 64
"""Integer metrics with at most this many distinct values get one colour band per value."""


@dataclass(frozen=True)
class Metric:
    """One metric a map can show."""

    name: str
    """As ``geoik map --metric`` spells it."""
    field: str
    """The :class:`geoik.batch.BatchResult` field it reads."""
    words: str
    """What it is, e.g. ``end-effector path length``."""
    unit: str
    """Its unit, empty for counts."""
    integer: bool
    """Whole numbers only (one colour per value on a map)."""

    @property
    def label(self) -> str:
        """Words and unit, as a colour bar names the metric: ``sum of joint rotations
        (degrees)``."""
        return f"{self.words} ({self.unit})" if self.unit else self.words


METRICS: dict[str, Metric] = {
    m.name: m
    for m in (
        Metric("iterations", "iterations", "iterations", "", True),
        Metric("path", "path_length", "end-effector path length", LENGTH_UNIT, False),
        Metric("rotation-sum", "rotation_sum_deg", "sum of joint rotations", "degrees", False),
        Metric("rotations", "rotations_over_5deg", "joint rotations over 5 degrees", "", True),
        Metric("error", "error", "final error", LENGTH_UNIT, False),
    )
}
"""Every map metric by name, in the order the command line and the viewer list them."""


def hue_rgb(t: Any) -> np.ndarray:
    """RGB in [0, 1] (shape ``t.shape + (3,)``) of values ``t`` in [0, 1] on the hue scale
    (clipped into it): 0 blue, 0.25 cyan, 0.5 green, 0.75 yellow, 1 red."""
    t = np.clip(np.asarray(t, dtype=np.float64), 0.0, 1.0)
    at = [s[0] for s in HUE_STOPS]
    channels = [np.interp(t, at, [s[1][c] for s in HUE_STOPS]) for c in range(3)]
    return np.stack(channels, axis=-1)


def value_range(
    metric: str, values: np.ndarray, reached: np.ndarray, max_iter: int | None = None
) -> tuple[float, float]:
    """(least, largest) value the hue scale spans: over the reached pixels, the largest for
    iterations being the last allowed one (``max_iter``), as seed 004 colours them."""
    v = np.asarray(values, dtype=np.float64)[np.asarray(reached, dtype=bool)]
    v = v[np.isfinite(v)]
    if v.size == 0:
        return 0.0, 1.0
    lo = float(v.min())
    hi = float(max_iter) if metric == "iterations" and max_iter is not None else float(v.max())
    return lo, max(hi, lo + 1e-12)


def map_rgb(
    values: np.ndarray, reached: np.ndarray, reachable: np.ndarray, lo: float, hi: float
) -> np.ndarray:
    """(N, N, 3) colours of a map: the hue of each reached pixel's value over [lo, hi], black
    for a failure in the annulus, grey outside it."""
    values = np.asarray(values, dtype=np.float64)
    reached = np.asarray(reached, dtype=bool) & np.isfinite(values)
    reachable = np.asarray(reachable, dtype=bool)
    scaled = np.where(reached, (np.where(reached, values, lo) - lo) / (hi - lo), 0.0)
    rgb = hue_rgb(scaled)
    rgb[~reached & reachable] = FAILURE
    rgb[~reached & ~reachable] = OUTSIDE
    return rgb


def hex_colour(rgb: Any) -> str:
    """``#rrggbb`` of an RGB triple in [0, 1]."""
    r, g, b = (int(round(255 * float(np.clip(c, 0.0, 1.0)))) for c in rgb)
    return f"#{r:02x}{g:02x}{b:02x}"


@dataclass(frozen=True)
class ColourBar:
    """A map's colour bar: the range, the bands and the labelled ticks.

    ``bands`` is the number of colour bands (one per whole value from ``lo`` to ``hi``), or 0
    for a continuous scale. ``ticks`` are (value, text) pairs, ``lo`` first and ``hi`` last.
    """

    metric: Metric
    lo: float
    hi: float
    bands: int
    ticks: tuple[tuple[float, str], ...]

    @property
    def limits(self) -> tuple[float, float]:
        """The values at the bar's two ends: half a band beyond ``lo`` and ``hi`` when banded."""
        if self.bands:
            return self.lo - 0.5, self.hi + 0.5
        return self.lo, self.hi

    def position(self, value: float) -> float:
        """Where ``value`` sits along the bar: 0 at the lower end, 1 at the upper one (a
        band's value at the band's middle)."""
        a, b = self.limits
        return float((value - a) / (b - a)) if b > a else 0.0

    def colours(self) -> np.ndarray:
        """(bands, 3) colours of the bands, least first (empty when continuous)."""
        return hue_rgb(np.linspace(0.0, 1.0, self.bands)) if self.bands else np.zeros((0, 3))

    def gradient(self) -> list[tuple[float, str]]:
        """The bar as (position, ``#rrggbb``) stops of a linear gradient: the hue stops when
        continuous, two stops a band (hard edges) when banded."""
        if not self.bands:
            return [(t, hex_colour(c)) for t, c in HUE_STOPS]
        out = []
        for k, c in enumerate(self.colours()):
            out += [(k / self.bands, hex_colour(c)), ((k + 1) / self.bands, hex_colour(c))]
        return out

    def as_dict(self) -> dict[str, Any]:
        """The bar as the viewer's page draws it (JSON)."""
        return {
            "metric": self.metric.name,
            "label": self.metric.label,
            "lo": self.lo,
            "hi": self.hi,
            "bands": self.bands,
            "gradient": [[t, c] for t, c in self.gradient()],
            "ticks": [[self.position(v), text] for v, text in self.ticks],
        }


def colour_bar(metric: str, lo: float, hi: float, max_ticks: int = 8) -> ColourBar:
    """The colour bar of a map of ``metric`` coloured over [lo, hi] (:func:`value_range`): one
    band per whole value for an integer metric with 2 to :data:`MAX_BANDS` values, and at most
    ``max_ticks`` labelled ticks, always including ``lo`` and ``hi``."""
    m = METRICS[metric]
    count = int(round(hi - lo)) + 1
    bands = count if m.integer and 2 <= count <= MAX_BANDS else 0
    return ColourBar(m, lo, hi, bands, _ticks(lo, hi, m.integer, max_ticks))


def _ticks(lo: float, hi: float, integer: bool, max_ticks: int) -> tuple[tuple[float, str], ...]:
    """``lo``, round values between (at least half a step from either end) and ``hi``."""
    span = hi - lo
    if span <= 1e-9 * max(1.0, abs(lo)):
        return ((float(lo), _text(lo, 3, integer)),)
    step = _step(span / max(1, max_ticks - 1), integer)
    first, last = math.ceil((lo + 0.5 * step) / step), math.floor((hi - 0.5 * step) / step)
    inner = [k * step for k in range(first, last + 1)]
    digits = _decimals(step)
    # the ends, seldom round, get one digit more than the ticks between them, and at least
    # three significant ones
    return tuple(
        (
            float(v),
            _text(v, max(digits + 1, _significant(v, 3)) if v in (lo, hi) else digits, integer),
        )
        for v in [lo, *inner, hi]
    )


def _step(raw: float, integer: bool) -> float:
    """The least round step (1, 2, 2.5 or 5 times a power of ten) at least ``raw``."""
    mag = 10.0 ** math.floor(math.log10(raw))
    mantissas = (1.0, 2.0, 5.0, 10.0) if integer else (1.0, 2.0, 2.5, 5.0, 10.0)
    step = next(s * mag for s in mantissas if s * mag >= raw * (1 - 1e-12))
    return max(1.0, round(step)) if integer else step


def _decimals(step: float) -> int:
    """Decimal places that write every multiple of ``step`` exactly (2.5 -> 1, 0.02 -> 2)."""
    for d in range(16):
        scaled = step * 10.0**d
        if abs(scaled - round(scaled)) <= 1e-6 * scaled:
            return d
    return 16


def _significant(value: float, figures: int) -> int:
    """Decimal places that show ``figures`` significant figures of ``value`` (at most 6)."""
    if value == 0:
        return 0
    return int(min(6, max(0, figures - 1 - math.floor(math.log10(abs(value))))))


def _text(value: float, digits: int, integer: bool) -> str:
    """``value`` with ``digits`` decimal places (whole numbers for integer metrics); exponent
    form when that would show a nonzero value as zero, or for magnitudes of 1e6 and more."""
    if integer:
        return str(int(round(value)))
    if abs(value) >= 1e6 or (value != 0 and abs(value) < 0.5 * 10.0**-digits):
        return f"{value:.2e}"
    return f"{value:.{digits}f}"


def page_colours() -> dict[str, Any]:
    """The colours the viewer's page needs for a map's legend, as ``#rrggbb``: the hue stops,
    failure and outside."""
    return {
        "stops": [[t, hex_colour(c)] for t, c in HUE_STOPS],
        "failure": hex_colour(FAILURE),
        "outside": hex_colour(OUTSIDE),
    }
