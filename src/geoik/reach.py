"""Reach of a chain: the minimum and maximum distance of the end effector from the base
(seed 003 Section 4.1, its "safe zones"), and the closest reachable point to a target."""

from __future__ import annotations

import math
from typing import TYPE_CHECKING

import numpy as np

if TYPE_CHECKING:
    from geoik.chain import Chain

__all__ = ["chain_reach", "closest_reachable_point"]


def _free(chain: Chain) -> bool:
    return not chain.is_limited


def chain_reach(chain: Chain) -> tuple[float, float]:
    """(minimum, maximum) distance from the base the end effector can reach, honouring limits."""
    ls = chain.lengths
    total = float(ls.sum())
    if _free(chain):
        longest = float(ls.max())
        return max(0.0, 2.0 * longest - total), total
    raise NotImplementedError("reach of limited chains")


def _straight_allowed(chain: Chain) -> bool:
    lo, hi = chain.lo[1:], chain.hi[1:]
    return bool(np.all(lo <= 0.0) and np.all(hi >= 0.0))


def _first_joint_free(chain: Chain) -> bool:
    if chain.dim == 2:
        return bool(chain.lo[0] == -np.inf and chain.hi[0] == np.inf)
    return bool(chain.cone[0] >= math.pi and not np.any(chain.hinge[0]))


def closest_reachable_point(chain: Chain, target: np.ndarray) -> np.ndarray | None:
    """The reachable point nearest to an out-of-reach ``target``.

    Returns None when the target is within reach, or when the nearest point is not known in
    closed form (some limited chains). For a target at the base of a chain whose minimum reach is
    positive, every point of that circle (sphere) is nearest; the one along +x is returned.
    """
    d = target - chain.base
    dist = float(np.linalg.norm(d))
    total = chain.total_length
    if dist > total:
        if _free(chain) or (_straight_allowed(chain) and _first_joint_free(chain)):
            return chain.base + d * (total / dist)
        return None
    if not _free(chain):
        return None
    rmin = chain_reach(chain)[0]
    if dist >= rmin:
        return None
    if dist == 0.0:
        u = np.zeros(chain.dim)
        u[0] = 1.0
        return chain.base + rmin * u
    return chain.base + d * (rmin / dist)
