"""The 2-D panel's metric-map overlay: :func:`geoik.maps.metric_map` of the current chain, solver
and metric (seed 004), as an RGBA image with the seed's colours, cached. Colours, value range and
colour bar come from :mod:`geoik.maps.palette`, as the figures' do, so a map looks the same in both.

A map of a long chain with a large iteration budget can take a minute, so :meth:`MapCache.reply`
reports progress after each band of rows and stops when told to (a newer map was asked for).
"""

from __future__ import annotations

import base64
import math
import threading
import time
from collections import OrderedDict
from collections.abc import Callable
from typing import Any

import numpy as np

from geoik.errors import MapCancelledError
from geoik.maps.metric import metric_map
from geoik.maps.palette import colour_bar, map_rgb, value_range
from geoik.solvers import get
from geoik.viewer.handlers import MAP_METRICS, options_of, tol_of
from geoik.viewer.protocol import MAX_ITER, MAX_MAP_SIZE, chain_from, chain_key, choice, integer

__all__ = ["MapCache", "MapCancelledError", "map_image"]

DEFAULT_SIZE = 128
_BANDS = 16
"""A map is computed in at least this many bands of rows, each reported as progress."""
BAND_WORK = 20_000_000
"""Joints times iterations of the targets of one band at most (but one row): about a second of
the slowest solver, the longest a cancelled map runs on."""
BAR_TICKS = 5
"""Most labelled ticks on the page's colour bar (it is 250 pixels wide)."""


class MapCache:
    """Metric-map replies cached per (chain, method, metric, size, tol, max_iter, options);
    safe to share between connections (maps run in worker threads)."""

    def __init__(self, capacity: int = 16) -> None:
        self.capacity = capacity
        self._items: OrderedDict[Any, dict[str, Any]] = OrderedDict()
        self._lock = threading.Lock()

    def reply(
        self,
        msg: dict[str, Any],
        progress: Callable[[int, int], None] | None = None,
        cancelled: threading.Event | None = None,
    ) -> dict[str, Any]:
        """The map the message asks for; ``progress(done, total)`` after each band of rows;
        raises :class:`MapCancelledError` soon after ``cancelled`` is set."""
        chain = chain_from(msg)
        method = msg.get("method", "fabrik")
        get(method)
        metric = choice(msg, "metric", MAP_METRICS, "iterations")
        size = integer(msg, "size", DEFAULT_SIZE, 8, MAX_MAP_SIZE)
        assert size is not None
        max_iter = integer(msg, "max_iter", None, 1, MAX_ITER)
        tol = tol_of(msg, chain)
        opts = options_of(msg)
        key = (chain_key(chain), method, metric, size, tol, max_iter, repr(sorted(opts.items())))
        with self._lock:
            hit = self._items.get(key)
            if hit is not None:
                self._items.move_to_end(key)
                return dict(hit, cached=True)
        extra: dict[str, Any] = dict(opts)
        if tol is not None:
            extra["tol"] = tol
        if max_iter is not None:
            extra["max_iter"] = max_iter

        def step(done: int, total: int) -> None:
            if cancelled is not None and cancelled.is_set():
                raise MapCancelledError
            if progress is not None:
                progress(done, total)

        t0 = time.perf_counter()
        # bands of rows small enough that a cancelled map stops soon: at most _BANDS bands, and
        # about BAND_WORK joint-iterations each (a band runs to its end once started)
        per_row = size * chain.n * (max_iter or get(method).default_max_iter)
        rows = max(1, min(math.ceil(size / _BANDS), BAND_WORK // per_row))
        mm = metric_map(chain, method, metric, size=size, progress=step, tile_rows=rows, **extra)
        ms = (time.perf_counter() - t0) * 1e3
        out = dict(map_image(mm, chain), metric=metric, method=method, size=size, compute_ms=ms)
        with self._lock:
            self._items[key] = out
            while len(self._items) > self.capacity:
                self._items.popitem(last=False)
        return dict(out, cached=False)


def map_image(mm: Any, chain: Any) -> dict[str, Any]:
    """Seed 004's colours as base64 RGBA rows, top row first: black where a reachable target
    failed, blue (least) to red (most) where reached, grey outside the reachable annulus; with
    the colour bar the page draws (``bar``: :meth:`geoik.maps.palette.ColourBar.as_dict`).

    The map's arrays are read as ``values[i, j]`` at ``x = x_j``, ``y = y_i`` with i and j
    increasing with the coordinate over the square ``[-L, L]^2`` around the base."""
    values = np.asarray(mm.values, dtype=np.float64)
    vmin, vmax = value_range(mm.metric, values, mm.reached, mm.max_iter)
    rgba = np.empty(values.shape + (4,), dtype=np.uint8)
    rgba[..., :3] = rgb_bytes(map_rgb(values, mm.reached, mm.reachable, vmin, vmax))
    rgba[..., 3] = 255
    return {
        "width": int(values.shape[1]),
        "height": int(values.shape[0]),
        "rgba": base64.b64encode(rgba[::-1].tobytes()).decode("ascii"),
        "vmin": vmin,
        "vmax": vmax,
        "bar": colour_bar(mm.metric, vmin, vmax, BAR_TICKS).as_dict(),
        "half": float(mm.half),
        "center": chain.base.tolist(),
        "coverage": _finite_or_none(mm.coverage),
        "params": mm.params(),
    }


def rgb_bytes(rgb: np.ndarray) -> np.ndarray:
    """Colours in [0, 1] as 8-bit channels (rounded to the nearest)."""
    return (np.clip(rgb, 0.0, 1.0) * 255.0).round().astype(np.uint8)


def _finite_or_none(value: Any) -> float | None:
    try:
        v = float(value)
    except (TypeError, ValueError):
        return None
    return v if math.isfinite(v) else None
