"""Metric maps (seed 004): what a solver does over a plane or a volume of targets.

- :mod:`~geoik.maps.metric`: :func:`metric_map` and :func:`metric_maps` over a plane through the
  base; :mod:`~geoik.maps.result`: :class:`MetricMap`, what a map holds, and the named planes;
- :mod:`~geoik.maps.volume`: :func:`volume_map` over the cube about a 3-D chain's base,
  :class:`VolumeMap`;
- :mod:`~geoik.maps.tiles`: a map cut into tiles of pixel rows, run here or on a Dask cluster;
- :mod:`~geoik.maps.palette`: the colours, metrics and colour bars every map view shares
  (NumPy only);
- :mod:`~geoik.maps.figures`: the maps' figures (matplotlib).

May import :mod:`geoik.batch` and every layer below it; never :mod:`geoik.experiments`,
:mod:`geoik.commands` or :mod:`geoik.viewer`. The public names are imported on first use, so
that the palette costs no numba.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from geoik import lazy_exports

__all__ = [
    "METRICS",
    "PLANES",
    "MetricMap",
    "VolumeMap",
    "check_jobs",
    "metric_map",
    "metric_maps",
    "plane_axes",
    "reachable_mask",
    "volume_map",
]

__getattr__, __dir__ = lazy_exports(
    __name__,
    {
        "METRICS": "geoik.maps.metric",
        "PLANES": "geoik.maps.metric",
        "MetricMap": "geoik.maps.metric",
        "check_jobs": "geoik.maps.metric",
        "metric_map": "geoik.maps.metric",
        "metric_maps": "geoik.maps.metric",
        "plane_axes": "geoik.maps.metric",
        "reachable_mask": "geoik.maps.metric",
        "VolumeMap": "geoik.maps.volume",
        "volume_map": "geoik.maps.volume",
    },
)

if TYPE_CHECKING:
    from geoik.maps.metric import (
        METRICS,
        PLANES,
        MetricMap,
        check_jobs,
        metric_map,
        metric_maps,
        plane_axes,
        reachable_mask,
    )
    from geoik.maps.volume import VolumeMap, volume_map
