"""What a metric map holds: :class:`MetricMap`, and the planes through a 3-D chain's base that
a map is drawn over (:data:`PLANES`, :func:`plane_axes`).

:mod:`geoik.maps.metric` computes the maps and re-exports these names; :mod:`geoik.maps.volume`
builds its slices from them.
"""

from __future__ import annotations

import math
import os
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from geoik.chain import Chain
from geoik.checks import is_number
from geoik.errors import InvalidOptionError, describe
from geoik.maps.tiles import Axes
from geoik.reach.workspace import Workspace

__all__ = ["PLANES", "MetricMap", "plane_axes"]

PLANES: dict[str, Axes] = {
    "xy": ((1.0, 0.0, 0.0), (0.0, 1.0, 0.0)),
    "xz": ((1.0, 0.0, 0.0), (0.0, 0.0, 1.0)),
    "yz": ((0.0, 1.0, 0.0), (0.0, 0.0, 1.0)),
}
"""The named planes through the base: the unit vectors along the columns and the rows."""


def plane_axes(plane: Any) -> tuple[str, Axes]:
    """(name, (u, v)) of a map's plane: ``"xy"``, ``"xz"``, ``"yz"`` (the columns along the
    first axis, the rows along the second), or a normal vector ``n``, for which ``u`` is +x
    projected onto the plane (+y when ``n`` is within 25 degrees of x) and ``v = n x u``
    (unit vectors; the name is ``"normal (a, b, c)"``)."""
    if isinstance(plane, str):
        if plane in PLANES:
            return plane, PLANES[plane]
        raise InvalidOptionError(
            f"expected xy, xz, yz or a normal vector (3 numbers), got {plane!r}", argument="plane"
        )
    try:
        n = np.array(plane, dtype=np.float64)
    except (TypeError, ValueError):
        n = np.zeros(0)
    ok = (
        isinstance(plane, tuple | list | np.ndarray)
        and all(is_number(x) for x in np.asarray(plane).ravel().tolist())
        and n.shape == (3,)
        and bool(np.all(np.isfinite(n)))
    )
    norm = float(np.linalg.norm(n)) if ok else 0.0
    if not ok or norm == 0.0 or norm > 1e150:
        raise InvalidOptionError(
            f"expected xy, xz, yz or a non-zero normal vector (3 finite numbers), got "
            f"{describe(plane)}",
            argument="plane",
        )
    n = n / norm
    e = (
        np.array([1.0, 0.0, 0.0])
        if abs(n[0]) < math.cos(math.radians(25.0))
        else np.array([0.0, 1.0, 0.0])
    )
    u = e - (e @ n) * n
    u /= np.linalg.norm(u)
    v = np.cross(n, u)
    v /= np.linalg.norm(v)
    name = "normal (" + ", ".join(f"{x:g}" for x in np.asarray(plane, dtype=float)) + ")"
    return name, (tuple(float(x) for x in u), tuple(float(x) for x in v))  # type: ignore[return-value]


@dataclass(frozen=True, eq=False)
class MetricMap:
    """A performance metric map.

    Attributes
    ----------
    values : (N, N) float64, the metric per pixel (row 0 at y = -L, or at -L along ``v``);
        computed for every pixel, meaningful where ``reached`` (the error metric is meaningful
        everywhere).
    reached : (N, N) bool, the solve ended REACHED.
    reachable : (N, N) bool. A planar chain: the pixel centre lies in the annulus
        ``rmin <= |p - base| <= rmax`` of :meth:`geoik.Chain.reach` (with a limited first joint
        part of the annulus cannot be reached at all, and counts as failure). A 3-D chain: the
        pixel centre is reachable, as ``workspace`` decides.
    status : (N, N) int8, the :class:`geoik.Status` value of every solve.
    coverage : |reached and reachable| / |reachable|.
    chain, method, metric : what was mapped.
    half : L, half the side of the square, the chain's maximum reach.
    tol, max_iter : the tolerance and iteration budget used.
    options : the solver options given.
    plane : ``"xy"``, ``"xz"``, ``"yz"`` or ``"normal (a, b, c)"``: the plane through the base
        that was mapped (``"xy"`` for a planar chain).
    axes : (u, v) unit vectors along the columns and the rows (3-D chains; None in 2-D).
    workspace : how the reachable pixels were decided (3-D chains; None in 2-D).
    """

    values: np.ndarray
    reached: np.ndarray
    reachable: np.ndarray
    status: np.ndarray
    coverage: float
    chain: Chain
    method: str
    metric: str
    half: float
    tol: float
    max_iter: int
    options: dict[str, Any] = field(default_factory=dict)
    plane: str = "xy"
    axes: Axes | None = None
    workspace: Workspace | None = None

    @property
    def size(self) -> int:
        """N, pixels per side."""
        return int(self.values.shape[0])

    @property
    def extent(self) -> tuple[float, float, float, float]:
        """(xmin, xmax, ymin, ymax) of the square, for plotting: in the plane's coordinates
        (for a named plane the base's coordinates along its axes, for a normal vector 0 at the
        base)."""
        if self.axes is None:
            bx, by = self.chain.base
        elif self.plane in PLANES:
            bx, by = (float(np.dot(self.chain.base, a)) for a in self.axes)
        else:
            bx, by = 0.0, 0.0
        return (bx - self.half, bx + self.half, by - self.half, by + self.half)

    @property
    def axis_labels(self) -> tuple[str, str]:
        """The names of the horizontal and vertical axes: ``x`` and ``y``, the named plane's
        axes, or ``u`` and ``v`` for a normal vector."""
        if self.plane in PLANES:
            return self.plane[0], self.plane[1]
        return "u", "v"

    def stats(self) -> tuple[float, float]:
        """(mean, max) of the metric over the reached pixels; NaN when none is reached."""
        v = self.values[self.reached]
        if v.size == 0:
            return float("nan"), float("nan")
        return float(v.mean()), float(v.max())

    def params(self) -> str:
        """The parameters as a title states them, e.g. ``I = 20, eps = 0.01``."""
        extra = "".join(f", {k} = {_fmt(v)}" for k, v in self.options.items())
        return f"I = {self.max_iter}, eps = {self.tol:g}{extra}"

    def save_npz(self, path: str | os.PathLike[str]) -> None:
        """Write the arrays and what was mapped to a NumPy ``.npz`` file, atomically (an
        interrupted write leaves nothing under ``path``)."""
        from geoik.files import save_atomic

        def write(tmp: str) -> None:
            with open(tmp, "wb") as f:
                np.savez_compressed(
                    f,
                    values=self.values,
                    reached=self.reached,
                    reachable=self.reachable,
                    status=self.status,
                    extent=np.array(self.extent),
                    lengths=self.chain.lengths,
                    lo=self.chain.lo,
                    hi=self.chain.hi,
                    method=self.method,
                    metric=self.metric,
                    tol=self.tol,
                    max_iter=self.max_iter,
                    coverage=self.coverage,
                    **self._extra(),
                )

        save_atomic(path, write)

    def _extra(self) -> dict[str, Any]:
        """What a 3-D chain's map adds to the ``.npz``: the plane, its axes and the limits."""
        if self.axes is None:
            return {}
        ws = self.workspace
        return {
            "plane": self.plane,
            "axes": np.array(self.axes),
            "base": self.chain.base,
            "cone": self.chain.cone,
            "hinge": self.chain.hinge,
            "reachable_bound": ws.bound if ws is not None else 0.0,
        }


def _fmt(value: Any) -> str:
    if isinstance(value, tuple | list | np.ndarray):
        return "(" + ", ".join(f"{float(v):g}" for v in value) + ")"
    return f"{value:g}" if isinstance(value, int | float | np.number) else str(value)
