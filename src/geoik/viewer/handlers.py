"""What the viewer's 2-D panel asks for: ``methods``, ``solve``, ``reach`` and ``map``.

Each handler takes a parsed message and returns the reply's fields; it raises a
:class:`geoik.GeoIKError` (usually a :class:`~geoik.viewer.protocol.ProtocolError`) on bad
input. Solving goes through :func:`geoik.solve` and the registry, as everywhere else.
"""

from __future__ import annotations

import base64
import importlib
import importlib.util
import math
import time
from collections import OrderedDict
from typing import Any

import numpy as np

from geoik.api import solve
from geoik.costs import costs
from geoik.errors import InvalidOptionError
from geoik.solvers import REGISTRY, get
from geoik.viewer.protocol import (
    MAX_ITER,
    MAX_MAP_SIZE,
    ProtocolError,
    chain_from,
    chain_key,
    choice,
    integer,
    point,
)

__all__ = ["MAP_METRICS", "MapCache", "methods_reply", "reach_reply", "solve_reply"]

MAX_MOTION_NUMBERS = 60_000
"""Keyframes sent for a replay: all of them while they hold at most this many angles, else
evenly picked ones (the first and last always, at least MIN_KEYFRAMES)."""
MIN_KEYFRAMES = 240
MAX_TRACE = 2000
"""Most end-effector trace points sent."""
MAP_METRICS = ("iterations", "path", "rotation-sum", "rotations", "error")
_MAX_OPTIONS = 16


def methods_reply(_msg: dict[str, Any]) -> dict[str, Any]:
    """The registered solvers, their chains and options."""
    out = []
    for name, s in REGISTRY.items():
        out.append({
            "name": name,
            "summary": s.summary,
            "source": s.source,
            "dims": list(s.dims),
            "links": [s.links[0], s.links[1]],
            "iterative": s.iterative,
            "default_max_iter": s.default_max_iter,
            "options": {o.name: {"default": o.default, "help": o.help} for o in s.options},
        })  # fmt: skip
    tree = importlib.util.find_spec("geoik.tree") is not None
    tree_methods = list(importlib.import_module("geoik.tree").METHODS) if tree else []
    return {
        "methods": out,
        "map_metrics": list(MAP_METRICS),
        "maps": maps_available(),
        "tree_methods": tree_methods,
    }


def reach_reply(msg: dict[str, Any]) -> dict[str, Any]:
    """Minimum and maximum safe zones (seed 003 Section 4.1) of the chain."""
    chain = chain_from(msg)
    try:
        lo, hi = chain.reach()
    except (NotImplementedError, ArithmeticError) as e:
        raise ProtocolError("chain", f"reach not available for this chain ({e})") from None
    return {"min": float(lo), "max": float(hi), "base": chain.base.tolist()}


def _options(msg: dict[str, Any]) -> dict[str, Any]:
    opts = msg.get("options") or {}
    if not isinstance(opts, dict) or len(opts) > _MAX_OPTIONS:
        raise InvalidOptionError(f"options: expected an object of solver options, got {opts!r}"[
            :200])  # fmt: skip
    return opts


def _tol(msg: dict[str, Any]) -> float | None:
    tol = msg.get("tol")
    if tol is None:
        return None
    ok = isinstance(tol, int | float) and not isinstance(tol, bool)
    if not ok or not math.isfinite(tol) or tol <= 0:
        raise ProtocolError("tol", f"expected a finite distance > 0, got {tol!r}")
    return float(tol)


def solve_reply(msg: dict[str, Any]) -> dict[str, Any]:
    """Solve one target; with ``"motion": true`` (default) also the keyframes and trace."""
    chain = chain_from(msg)
    target = point(msg, "target", 2)
    method = msg.get("method", "fabrik")
    get(method)  # UnknownMethodError names the method before anything else runs
    max_iter = integer(msg, "max_iter", None, 1, MAX_ITER)
    start = msg.get("start")
    if start is not None and (not isinstance(start, list) or len(start) != chain.n):
        raise ProtocolError("start", f"expected {chain.n} angles in radians, got {start!r}"[:200])
    t0 = time.perf_counter()
    sol = solve(chain, target, method, _tol(msg), max_iter, start, **_options(msg))
    solve_ms = (time.perf_counter() - t0) * 1e3
    c = costs(sol)
    reply: dict[str, Any] = {
        "method": sol.method,
        "status": sol.status.name,
        "reached": sol.reached,
        "iterations": sol.iterations,
        "error": sol.error,
        "tol": sol.tol,
        "target": list(target),
        "positions": sol.positions.tolist(),
        "angles": sol.angles.tolist(),
        "solve_ms": solve_ms,
        "costs": {
            "rotations_over_5deg": c.rotations_over_5deg,
            "rotation_sum_deg": c.rotation_sum_deg,
            "path_length": c.path_length,
            "iterations": c.iterations,
        },
    }
    if msg.get("motion", True):
        reply["motion"] = _motion(sol)
    return reply


def _motion(sol: Any) -> dict[str, Any]:
    """Keyframes (angles and poses, thinned when too many) and the end-effector trace."""
    keys = sol.motion.keys
    pick = _thin(keys.shape[0], max(MIN_KEYFRAMES, MAX_MOTION_NUMBERS // sol.chain.n))
    poses = sol.motion.poses()[pick]
    trace = sol.motion.trace()
    trace = trace[_thin(trace.shape[0], MAX_TRACE)]
    return {
        "steps": sol.motion.steps,
        "keyframe_steps": pick.tolist(),
        "keys": np.round(keys[pick], 9).tolist(),
        "poses": np.round(poses, 9).tolist(),
        "trace": np.round(trace, 9).tolist(),
    }


def _thin(count: int, most: int) -> np.ndarray:
    if count <= most:
        return np.arange(count)
    return np.unique(np.round(np.linspace(0, count - 1, most)).astype(np.int64))


# ------------------------------------------------------------------------ metric maps


def maps_available() -> bool:
    return importlib.util.find_spec("geoik.maps") is not None


class MapCache:
    """Metric-map replies cached per (chain, method, metric, size, tol, max_iter, options)."""

    def __init__(self, capacity: int = 16) -> None:
        self.capacity = capacity
        self._items: OrderedDict[Any, dict[str, Any]] = OrderedDict()

    def reply(self, msg: dict[str, Any]) -> dict[str, Any]:
        chain = chain_from(msg)
        method = msg.get("method", "fabrik")
        get(method)
        metric = choice(msg, "metric", MAP_METRICS, "iterations")
        size = integer(msg, "size", 128, 8, MAX_MAP_SIZE)
        max_iter = integer(msg, "max_iter", None, 1, MAX_ITER)
        tol = _tol(msg)
        opts = _options(msg)
        key = (chain_key(chain), method, metric, size, tol, max_iter, repr(sorted(opts.items())))
        hit = self._items.get(key)
        if hit is not None:
            self._items.move_to_end(key)
            return dict(hit, cached=True)
        if not maps_available():
            raise ProtocolError("map", "map overlay needs geoik.maps (not installed in this geoik)")
        maps = importlib.import_module("geoik.maps")
        extra: dict[str, Any] = dict(opts)
        if tol is not None:
            extra["tol"] = tol
        if max_iter is not None:
            extra["max_iter"] = max_iter
        t0 = time.perf_counter()
        mm = maps.metric_map(chain, method, metric, size=size, **extra)
        ms = (time.perf_counter() - t0) * 1e3
        out = dict(map_image(mm, chain), metric=metric, method=method, size=size, compute_ms=ms)
        self._items[key] = out
        while len(self._items) > self.capacity:
            self._items.popitem(last=False)
        return dict(out, cached=False)


def map_image(mm: Any, chain: Any) -> dict[str, Any]:
    """Seed 004's colours as base64 RGBA rows, top row first: black where a reachable target
    failed, blue (least) to red (most) where reached, grey outside the reachable annulus.

    The map's arrays are read as ``values[i, j]`` at ``x = x_j``, ``y = y_i`` with i and j
    increasing with the coordinate over the square ``[-L, L]^2`` around the base."""
    values = np.asarray(mm.values, dtype=np.float64)
    reached = np.asarray(mm.reached, dtype=bool)
    reachable = np.asarray(mm.reachable, dtype=bool)
    ok = reached & np.isfinite(values)
    vmin = float(values[ok].min()) if ok.any() else 0.0
    vmax = float(values[ok].max()) if ok.any() else 1.0
    span = vmax - vmin if vmax > vmin else 1.0
    hue = np.clip((values - vmin) / span, 0.0, 1.0)
    hue = np.where(ok, hue, 0.0)
    rgba = np.empty(values.shape + (4,), dtype=np.uint8)
    rgba[..., :3] = (_hue_rgb(hue) * 255.0).round().astype(np.uint8)
    rgba[..., 3] = 255
    rgba[reachable & ~ok] = (0, 0, 0, 255)
    rgba[~reachable & ~ok] = (205, 205, 205, 255)
    half = float(chain.reach()[1])
    return {
        "width": int(values.shape[1]),
        "height": int(values.shape[0]),
        "rgba": base64.b64encode(rgba[::-1].tobytes()).decode("ascii"),
        "vmin": vmin,
        "vmax": vmax,
        "half": half,
        "center": chain.base.tolist(),
        "coverage": _finite_or_none(getattr(mm, "coverage", None)),
    }


def _finite_or_none(value: Any) -> float | None:
    try:
        v = float(value)
    except (TypeError, ValueError):
        return None
    return v if math.isfinite(v) else None


def _hue_rgb(t: np.ndarray) -> np.ndarray:
    """Fully saturated colours from blue (t = 0, hue 240 degrees) to red (t = 1, hue 0)."""
    h = (1.0 - t) * 4.0  # hue / 60 degrees, 4 = blue, 0 = red
    x = 1.0 - np.abs(np.mod(h, 2.0) - 1.0)
    z = np.zeros_like(t)
    one = np.ones_like(t)
    sector = np.clip(np.floor(h).astype(np.int64), 0, 3)
    rgb = np.select(
        [sector[..., None] == k for k in range(4)],
        [np.stack(c, axis=-1) for c in ((one, x, z), (x, one, z), (z, one, x), (z, x, one))],
    )
    return rgb
