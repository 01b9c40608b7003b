"""The batch engine: one solver over many targets, compiled, on every core.

- :mod:`~geoik.batch.engine`: :func:`evaluate` and :func:`evaluate_grid`, the front of every
  batch (checks, ``method="auto"``, the result);
- :mod:`~geoik.batch.planar`: the planar chain engines;
- :mod:`~geoik.batch.spatial`: the 3-D chain engines;
- :mod:`~geoik.batch.trees`: skeletons, row by row;
- :mod:`~geoik.batch.parallel`: the dynamic schedule the engines share among numba's threads.

The engines run the very kernels :func:`geoik.solve` runs, judged by the same judge. May import
every layer below :mod:`geoik.api` (base, model, solvers, robots, rigs); never :mod:`geoik.maps`
or above. The public names are imported on first use.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from geoik import lazy_exports

__all__ = ["BatchResult", "TreeBatchResult", "evaluate", "evaluate_grid"]

__getattr__, __dir__ = lazy_exports(
    __name__,
    {
        "BatchResult": "geoik.batch.engine",
        "TreeBatchResult": "geoik.batch.trees",
        "evaluate": "geoik.batch.engine",
        "evaluate_grid": "geoik.batch.engine",
    },
)

if TYPE_CHECKING:
    from geoik.batch.engine import BatchResult, evaluate, evaluate_grid
    from geoik.batch.trees import TreeBatchResult
