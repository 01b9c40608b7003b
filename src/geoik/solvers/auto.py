"""``method="auto"``: which solvers to run for a chain, and in which order.

:func:`geoik.solve`, :func:`geoik.batch.evaluate` (hence the metric maps) and, for skeletons,
:func:`geoik.solve_tree` take ``method="auto"``. For a chain the plan (:func:`plan`) is:

1. An exact method where it provably reaches every reachable target: ``two-bone`` for two links
   without limits (closed form), ``circles`` for any other chain without limits (its module
   proves that every target within the reach annulus is met exactly). Out-of-reach targets get
   their closest reachable point from both (status CLOSEST).
2. Otherwise (a chain with limits or hinges): ``two-bone`` first when the chain has two links
   (its two elbow branches are every solution a two-link chain has; it keeps a branch that
   meets the limits), then ``dls`` with ``escape=1``, the fastest iterative solver here that
   honours limits and the one that reaches the most reachable targets of limited chains
   (``benchmarks/bench_auto.py``, ``benchmarks/limited_3d.py``).
3. Fallbacks, in order, when the solver before ended short (neither REACHED nor CLOSEST) of a
   target that may be reachable: ``dls`` after an exact method, then ``ccd`` and ``fabrik``,
   each with ``escape=1``. Each attempt starts from the same start pose; a target provably out
   of reach (its distance from the base outside :meth:`geoik.Chain.reach`) gets no fallback.

The first attempt that ends REACHED or CLOSEST is the answer; if none does, the attempt ending
nearest to the target (a later one only when nearer by more than :data:`NEARER` times the
chain's length, so that rounding never decides). ``Solution.method`` names the solver that produced
the answer and ``Solution.requested`` is ``"auto"``; its iterations and motion are that
solver's.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import numpy as np

from geoik.errors import InvalidOptionError, UnknownMethodError
from geoik.solvers import REGISTRY, Solver, get

if TYPE_CHECKING:
    from geoik.chain import Chain

__all__ = [
    "AUTO",
    "FALLBACKS",
    "ROBOT_AUTO",
    "NEARER",
    "SUMMARY",
    "Attempt",
    "check_no_options",
    "get_or_auto",
    "out_of_reach",
    "out_of_reach_all",
    "plan",
]

AUTO = "auto"
"""The method name that asks for the plan below."""
SUMMARY = (
    "Chooses per chain: two-bone or circles without limits (exact), else dls; falls back on "
    "dls, ccd, fabrik (escape on) when one ends short"
)
"""One line for ``geoik methods``."""
ROBOT_AUTO = "dls"
"""What ``method="auto"`` runs on a :class:`geoik.Robot`: damped least squares, the general
solver that honours the joint limits and orientation targets."""
FALLBACKS = ("dls", "ccd", "fabrik")
"""The iterative solvers tried, in order, after the first choice ends short."""
NEARER = 1e-9
"""A later attempt that ends short replaces an earlier one only when nearer to the target by
more than this times the chain's length."""
_ESCAPE = {"escape": 1}

Attempt = tuple[Solver, np.ndarray]
"""A solver and its kernel options for the chain."""


def plan(chain: Chain) -> tuple[Attempt, ...]:
    """The solvers ``method="auto"`` runs on ``chain``, in order, with their kernel options
    (cached on the chain; see the module docstring)."""
    cached = chain._cache.get("auto_plan")
    if cached is None:
        names: list[str] = []
        if chain.n == 2:
            names.append("two-bone")
        elif not chain.is_limited:
            names.append("circles")
        names += [m for m in FALLBACKS if m not in names]
        attempts = []
        for name in names:
            solver = get(name)
            if chain.dim not in solver.dims:
                continue
            options = _ESCAPE if any(o.name == "escape" for o in solver.options) else {}
            attempts.append((solver, solver.kernel_opts(chain, options)))
        cached = chain._cache["auto_plan"] = tuple(attempts)
    return cached


def out_of_reach(chain: Chain, target: np.ndarray) -> bool:
    """True when ``target`` is provably out of reach: its distance from the base lies outside
    :meth:`geoik.Chain.reach` (exact, or an enclosure of the true reach)."""
    return bool(out_of_reach_all(chain, target[None, :])[0])


def out_of_reach_all(chain: Chain, targets: np.ndarray) -> np.ndarray:
    """:func:`out_of_reach` of each row of ``targets`` (m, d)."""
    rmin, rmax = chain.reach()
    d = targets - chain.base
    dist = np.sqrt(np.sum(d * d, axis=1))
    return (dist > rmax * (1.0 + 1e-12)) | (dist < rmin * (1.0 - 1e-12))


def get_or_auto(method: Any) -> Solver:
    """The registered solver ``method`` (see :func:`geoik.solvers.get`); the error names
    ``auto`` among the known methods."""
    try:
        return get(method)
    except UnknownMethodError:
        known = ", ".join(sorted(REGISTRY))
        raise UnknownMethodError(
            f"expected auto or one of {known}, got {method!r}", argument="method"
        ) from None


def check_no_options(options: dict[str, Any]) -> None:
    """``method="auto"`` chooses each solver's options itself."""
    if options:
        key = next(iter(options))
        raise InvalidOptionError(
            "method 'auto' takes no solver options (it picks the solvers and their options "
            "itself); name a method to set its options",
            argument=key,
        )
