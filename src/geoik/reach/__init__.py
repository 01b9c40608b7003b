"""Reach of a chain: the minimum and maximum distance of the end effector from the base
(seed 003 Section 4.1, its "safe zones"), and the closest reachable point to a target.

The seed finds the minimum safe zone by search: it puts the end effector on the root, runs its
solver, and moves the end effector out until the solver succeeds. Here both zones are computed
(exactly, or as a proven enclosure for the 3-D chains named below), with joint limits.

Exact reach
-----------
The distance of the end effector from the base does not depend on the first joint. The set of
reachable distances is an interval ``[rmin, rmax]``: the joint space (a product of intervals,
circles and cones) is connected and the distance is continuous.

* Free joints split the chain. Behind a free joint ``k`` (2-D: no limits; 3-D: a ball joint with
  a full cone) the rest of the chain can point anywhere, so its end sweeps a full annulus
  (spherical shell) ``[m2, M2]`` about joint ``k`` whatever the part before it does. If the part
  before reaches distances ``[m1, M1]``, the whole reaches
  ``[max(0, m1 - M2, m2 - M1), M1 + M2]``. A chain without limits is the case of single links.
* A run of links whose inner joints are all limited (2-D) is solved by the branch and bound of
  :mod:`geoik.reach.search` (a second-order Taylor enclosure that provably converges; accuracy
  ``1e-12`` times the run's length). When every inner joint allows 0 the maximum is the straight
  run's length, exactly.
* 3-D runs of ball joints with cones reduce exactly to the planar run with symmetric limits
  ``[-cone, cone]``. Proof: a ball joint turns freely about its parent link, so the tail's
  reachable set is a solid of revolution about the parent direction; describe it by its meridian
  section ``M = {(rho, psi)}`` (distance, angle from the axis in ``[0, pi]``). The planar tail with
  symmetric limits is mirror-symmetric and has a section too. Induction from the tip: a point of
  the child's section gives, about the joint, a fixed distance and a fixed angle ``beta`` from the
  link; in 3-D, with the link at angle ``gamma <= cone`` from the axis and any azimuth about the
  link, the angle from the axis fills ``fold([beta - gamma, beta + gamma])``; the union over
  ``gamma`` in ``[0, cone]`` is ``fold([beta - cone, beta + cone])`` (``fold`` maps an angle to its
  distance from the axis in ``[0, pi]``), which is exactly what the planar joint gives with
  ``gamma`` in ``[-cone, cone]``. The sections agree at every joint, hence the distances.
* 3-D runs of hinges whose axes are all parallel (``h`` or ``-h`` in every parent frame) stay in
  the plane normal to ``h``: the planar run with signed limits (negated for ``-h``).
* Other 3-D runs (hinges with different axes, hinges mixed with limited ball joints) are bounded,
  not computed: every hinge is relaxed to a ball joint with cone ``max(|lo|, |hi|)``, which admits
  more configurations, so the interval returned contains the true one. :func:`reach_is_exact`
  says when this happened; :func:`closest_reachable_point` then declares nothing.

May import the base layer (``geoik.geometry``, ``geoik.jit``, ``geoik.errors``) and
:mod:`geoik.chain` (which reads its reach from here); never the solvers or anything above them.
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING

import numpy as np

from geoik.geometry import distance
from geoik.jit import call
from geoik.reach.search import extreme_distance

if TYPE_CHECKING:
    from geoik.chain import Chain

__all__ = [
    "chain_reach",
    "clamp_into_reach",
    "closest_radii",
    "closest_reachable_point",
    "reach_is_exact",
]

_EPS = 1e-12
_CAP = 150_000
_PARALLEL = 1e-12


def _free(chain: Chain) -> bool:
    return not chain.is_limited


def _run_reach(lengths: np.ndarray, lo: np.ndarray, hi: np.ndarray) -> tuple[float, float, bool]:
    """Exact [min, max] distance of a run whose inner joints 1.. are all limited (2-D)."""
    if lengths.size == 1:
        v = float(lengths[0])
        return v, v, True
    eps = _EPS * float(lengths.sum())
    work = 1000 * lengths.size  # boxes of the branch and bound, a guess: it stops when settled
    lengths, lo, hi = _read_only(lengths), _read_only(lo), _read_only(hi)
    if np.all(lo[1:] <= 0.0) and np.all(hi[1:] >= 0.0):
        top, top_ok = float(lengths.sum()), True
    else:
        _, top, top_ok = call(extreme_distance, lengths, lo, hi, True, eps, _CAP, work=work)
    _, low, low_ok = call(extreme_distance, lengths, lo, hi, False, eps, _CAP, work=work)
    return float(low), float(top), bool(top_ok and low_ok)


def _read_only(a: np.ndarray) -> np.ndarray:
    """``a``, or a read-only view of it: a chain's arrays are read-only, and one type for every
    caller compiles the search once."""
    if not a.flags.writeable:
        return a
    view = a.view()
    view.setflags(write=False)
    return view


def _planar_reach(lengths: np.ndarray, lo: np.ndarray, hi: np.ndarray) -> tuple[float, float, bool]:
    """[min, max] distance of a planar chain with limits lo, hi (joint 0 ignored)."""
    free = ~(np.isfinite(lo) | np.isfinite(hi))
    cuts = [0] + [j for j in range(1, lengths.size) if free[j]] + [lengths.size]
    rmin, rmax, exact = 0.0, 0.0, True
    for k, (s, e) in enumerate(zip(cuts[:-1], cuts[1:], strict=True)):
        m2, big, ok = _run_reach(lengths[s:e], lo[s:e], hi[s:e])
        exact = exact and ok
        if k == 0:
            rmin, rmax = m2, big
        else:
            rmin, rmax = max(0.0, rmin - big, m2 - rmax), rmax + big
    return rmin, rmax, exact


def _planar_equivalent(chain: Chain) -> tuple[np.ndarray, np.ndarray, bool]:
    """Planar limits with the same reachable distances as a 3-D chain (see module docstring)."""
    n = chain.n
    lo, hi = np.full(n, -np.inf), np.full(n, np.inf)
    hinged = np.any(chain.hinge != 0.0, axis=1)
    free_ball = ~hinged & (chain.cone >= math.pi)
    exact = True
    s = 1
    while s < n:
        if free_ball[s]:
            s += 1
            continue
        e = s
        while e < n and not free_ball[e]:
            e += 1
        run = range(s, e)
        if not np.any(hinged[s:e]):
            for j in run:
                lo[j], hi[j] = -chain.cone[j], chain.cone[j]
        elif np.all(hinged[s:e]) and all(
            abs(abs(float(chain.hinge[j] @ chain.hinge[s])) - 1.0) <= _PARALLEL for j in run
        ):
            for j in run:
                flip = float(chain.hinge[j] @ chain.hinge[s]) < 0.0
                lo[j], hi[j] = (-chain.hi[j], -chain.lo[j]) if flip else (chain.lo[j], chain.hi[j])
        else:
            exact = False
            for j in run:
                bend = chain.cone[j]
                if hinged[j]:
                    bend = min(math.pi, max(abs(chain.lo[j]), abs(chain.hi[j])))
                if bend < math.pi:
                    lo[j], hi[j] = -bend, bend
        s = e
    return lo, hi, exact


def _reach_detail(chain: Chain) -> tuple[float, float, bool]:
    cached = chain._cache.get("reach_detail")
    if cached is None:
        ls = chain.lengths
        if _free(chain):
            cached = (max(0.0, 2.0 * float(ls.max()) - float(ls.sum())), float(ls.sum()), True)
        elif chain.dim == 2:
            cached = _planar_reach(ls, np.asarray(chain.lo), np.asarray(chain.hi))
        else:
            lo, hi, exact = _planar_equivalent(chain)
            rmin, rmax, ok = _planar_reach(ls, lo, hi)
            cached = (rmin, rmax, exact and ok)
        chain._cache["reach_detail"] = cached
    return cached


def chain_reach(chain: Chain) -> tuple[float, float]:
    """(minimum, maximum) distance from the base the end effector can reach, honouring limits.

    Exact (to ``1e-12`` times the chain's length) except for the 3-D chains named in the module
    docstring, for which the interval returned contains the true one.
    """
    rmin, rmax, _ = _reach_detail(chain)
    return rmin, rmax


def reach_is_exact(chain: Chain) -> bool:
    """True when :func:`chain_reach` is exact rather than an enclosing bound."""
    return _reach_detail(chain)[2]


def _straight_allowed(chain: Chain) -> bool:
    lo, hi = chain.lo[1:], chain.hi[1:]
    return bool(np.all(lo <= 0.0) and np.all(hi >= 0.0))


def _first_joint_free(chain: Chain) -> bool:
    if chain.dim == 2:
        return bool(chain.lo[0] == -np.inf and chain.hi[0] == np.inf)
    return bool(chain.cone[0] >= math.pi and not np.any(chain.hinge[0]))


def _radial(chain: Chain, d: np.ndarray, dist: float, radius: float) -> np.ndarray:
    """The point at ``radius`` from the base towards ``d`` (+x when ``d`` is zero)."""
    if dist == 0.0:
        u = np.zeros(chain.dim)
        u[0] = 1.0
        return chain.base + radius * u
    return chain.base + d * (radius / dist)


def closest_radii(chain: Chain) -> tuple[float | None, float | None]:
    """Radii of the spheres about the base that hold the closest reachable points, where that is
    provable: ``(outer, inner)``. A target farther than ``outer`` from the base has its closest
    reachable point on the sphere of radius ``outer`` (its radial projection), one nearer than
    ``inner`` on the sphere of radius ``inner``; None where nothing is provable (or, for
    ``inner``, where the minimum reach is 0 and no target is too near).

    It is provable when the first joint is free: the reachable set is then invariant under
    rotations about the base, hence (its distances forming an interval) the full annulus
    (spherical shell) ``rmin <= |p - base| <= rmax``, and the nearest point lies on the ray
    through the target. It is also provable for a chain that can straighten (every joint but the
    first allows angle 0) with a free first joint and a target beyond its length.
    """
    if not _first_joint_free(chain):
        return None, None
    if reach_is_exact(chain):
        rmin, rmax = chain.reach()
        return rmax, (rmin if rmin > 0.0 else None)
    if _straight_allowed(chain):
        return chain.total_length, None
    return None, None


def closest_reachable_point(chain: Chain, target: np.ndarray) -> np.ndarray | None:
    """The reachable point nearest to an out-of-reach ``target`` (see :func:`closest_radii`).

    Returns None when the target is within reach, or when the nearest point is not provable.
    For a target at the base of a chain whose minimum reach is positive, every point of that
    circle (sphere) is nearest; the one along +x is returned.
    """
    d = target - chain.base
    dist = call(distance, target, chain.base)
    outer, inner = closest_radii(chain)
    if outer is not None and dist > outer:
        return _radial(chain, d, dist, outer)
    if inner is not None and dist < inner:
        return _radial(chain, d, dist, inner)
    return None


def clamp_into_reach(chain: Chain, target: np.ndarray) -> np.ndarray:
    """``target`` moved radially onto the reach annulus ``[rmin, rmax]`` about the base.

    A target within the annulus is returned unchanged (the same array); one at the base of a chain
    with positive minimum reach goes along +x.
    """
    d = target - chain.base
    dist = call(distance, target, chain.base)
    rmin, rmax = chain.reach()
    if dist > rmax:
        return _radial(chain, d, dist, rmax)
    if dist < rmin:
        return _radial(chain, d, dist, rmin)
    return target
