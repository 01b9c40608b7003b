"""What the viewer's 2-D panel asks for: ``methods``, ``solve`` and ``reach`` (``map`` is in
:mod:`geoik.viewer.overlay`).

Each handler takes a parsed message and returns the reply's fields; it raises a
:class:`geoik.GeoIKError` (usually a :class:`~geoik.viewer.protocol.ProtocolError`) on bad
input. Solving goes through :func:`geoik.solve` and the registry, as everywhere else.
"""

from __future__ import annotations

import math
import time
from typing import Any

import numpy as np

from geoik.api import solve
from geoik.checks import DEFAULT_METHOD
from geoik.costs import costs
from geoik.errors import InvalidOptionError, describe
from geoik.maps.metric import METRICS
from geoik.maps.palette import METRICS as METRIC_INFO
from geoik.maps.palette import page_colours
from geoik.rigs.tree import METHODS as TREE_METHODS
from geoik.solvers import REGISTRY
from geoik.solvers.auto import AUTO, get_or_auto
from geoik.viewer.protocol import (
    MAX_COORDINATE,
    MAX_ITER,
    MAX_LINKS,
    ProtocolError,
    chain_from,
    integer,
    point,
    tol,
)

__all__ = ["MAP_METRICS", "methods_reply", "options_of", "reach_reply", "solve_reply", "tol_of"]

MAX_MOTION_NUMBERS = 60_000
"""Keyframes sent for a replay: all of them while they hold at most this many angles, else
evenly picked ones (the first and last always, at least MIN_KEYFRAMES)."""
MIN_KEYFRAMES = 240
MAX_TRACE = 2000
"""Most end-effector trace points sent."""
MAP_METRICS = tuple(METRICS)
"""Metrics a map may show, as ``geoik map --metric`` names them."""
_MAX_OPTIONS = 16


def methods_reply(_msg: dict[str, Any]) -> dict[str, Any]:
    """The registered solvers of chains, their chains and options; the map metrics with their labels
    and the maps' colours (:mod:`geoik.maps.palette`); the caps on what a page may send."""
    out = []
    for name, s in REGISTRY.items():
        if not s.dims:  # robots only: the page's chains cannot use it
            continue
        out.append(
            {
                "name": name,
                "summary": s.summary,
                "source": s.source,
                "dims": list(s.dims),
                "links": [s.links[0], s.links[1]],
                "iterative": s.iterative,
                "default_max_iter": s.default_max_iter,
                "options": {o.name: {"default": o.default, "help": o.help} for o in s.options},
            }
        )
    return {
        "methods": out,
        "map_metrics": list(MAP_METRICS),
        "map_metric_labels": {
            m: {"words": METRIC_INFO[m].words, "unit": METRIC_INFO[m].unit} for m in MAP_METRICS
        },
        "map_colours": page_colours(),
        "tree_methods": list(TREE_METHODS),
        "caps": {"links": MAX_LINKS, "max_iter": MAX_ITER, "coordinate": MAX_COORDINATE},
    }


def reach_reply(msg: dict[str, Any]) -> dict[str, Any]:
    """Minimum and maximum safe zones (seed 003 Section 4.1) of the chain, and each joint's
    limits in degrees (``[lo, hi]`` relative to the parent link, None when free)."""
    chain = chain_from(msg)
    try:
        lo, hi = chain.reach()
    except (NotImplementedError, ArithmeticError) as e:
        raise ProtocolError("chain", f"reach not available for this chain ({e})") from None
    limits = [
        None if math.isinf(a) and math.isinf(b) else [math.degrees(a), math.degrees(b)]
        for a, b in zip(chain.lo.tolist(), chain.hi.tolist(), strict=True)
    ]
    return {"min": float(lo), "max": float(hi), "base": chain.base.tolist(), "limits_deg": limits}


def options_of(msg: dict[str, Any]) -> dict[str, Any]:
    """The message's solver options (checked by the solver itself when it runs)."""
    opts = msg.get("options") or {}
    if not isinstance(opts, dict) or len(opts) > _MAX_OPTIONS:
        raise InvalidOptionError(
            f"expected an object of at most {_MAX_OPTIONS} solver options, got {describe(opts)}",
            argument="options",
        )
    return opts


def tol_of(msg: dict[str, Any], chain: Any = None) -> float | None:
    """The message's tolerance, None for the solver's default; with ``chain``, below its total
    length (a tolerance as long as the chain would call every target reached)."""
    value = tol(msg)
    if value is not None and chain is not None and value >= chain.total_length:
        raise ProtocolError(
            "tol",
            f"expected a distance > 0 and below the chain's length {chain.total_length:g}, "
            f"got {value:g}",
        )
    return value


def solve_reply(msg: dict[str, Any]) -> dict[str, Any]:
    """Solve one target; with ``"motion": true`` (default) also the keyframes and trace."""
    chain = chain_from(msg)
    target = point(msg, "target", 2)
    method = msg.get("method", DEFAULT_METHOD)
    if method != AUTO:  # UnknownMethodError names the method before anything else runs
        get_or_auto(method)
    max_iter = integer(msg, "max_iter", None, 1, MAX_ITER)
    start = msg.get("start")
    if start is not None and (not isinstance(start, list) or len(start) != chain.n):
        raise ProtocolError("start", f"expected {chain.n} angles in radians, got {start!r}"[:200])
    t0 = time.perf_counter()
    sol = solve(chain, target, method, tol_of(msg, chain), max_iter, start, **options_of(msg))
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
