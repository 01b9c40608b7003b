"""Small statistics and image measures the reproductions read their results with."""

from __future__ import annotations

import math
from collections import deque

import numpy as np

__all__ = ["band_means", "components", "rank_correlation", "ranks"]


def ranks(x: np.ndarray) -> np.ndarray:
    """Ranks 0..n-1 of ``x``, ties given their average rank."""
    order = np.argsort(x, kind="stable")
    r = np.empty(len(x))
    r[order] = np.arange(len(x), dtype=float)
    _, inverse, counts = np.unique(x, return_inverse=True, return_counts=True)
    return (np.bincount(inverse, weights=r) / counts)[inverse]


def rank_correlation(x: np.ndarray, y: np.ndarray) -> float:
    """Spearman's rank correlation of ``x`` and ``y`` (pairs with a NaN dropped); NaN when
    fewer than three pairs remain or either side is constant."""
    x, y = np.asarray(x, dtype=float), np.asarray(y, dtype=float)
    ok = ~(np.isnan(x) | np.isnan(y))
    if ok.sum() < 3:
        return math.nan
    rx, ry = ranks(x[ok]), ranks(y[ok])
    if rx.std() == 0 or ry.std() == 0:
        return math.nan
    return float(np.corrcoef(rx, ry)[0, 1])


def band_means(x: np.ndarray, y: np.ndarray, edges: tuple[float, ...]) -> list[tuple[float, int]]:
    """(mean of y, count) for the x in each half-open band ``[edges[i], edges[i + 1])``."""
    out = []
    for lo, hi in zip(edges[:-1], edges[1:], strict=True):
        sel = (x >= lo) & (x < hi) if math.isfinite(hi) else x >= lo
        out.append((float(y[sel].mean()) if sel.any() else math.nan, int(sel.sum())))
    return out


def components(mask: np.ndarray) -> list[int]:
    """Sizes (pixels) of the edge-connected regions of a 2-D boolean mask, largest first.

    Pixels touching only at a corner belong to different regions, so a band one pixel wide
    drawn diagonally still separates the regions on either side of it.
    """
    rows, cols = mask.shape
    seen = np.zeros_like(mask, dtype=bool)
    sizes = []
    for start in zip(*np.nonzero(mask), strict=True):
        if seen[start]:
            continue
        seen[start] = True
        queue, size = deque([start]), 0
        while queue:
            r, c = queue.popleft()
            size += 1
            for rr, cc in ((r - 1, c), (r + 1, c), (r, c - 1), (r, c + 1)):
                if 0 <= rr < rows and 0 <= cc < cols and mask[rr, cc] and not seen[rr, cc]:
                    seen[rr, cc] = True
                    queue.append((rr, cc))
        sizes.append(size)
    return sorted(sizes, reverse=True)
