"""The solver registry: the one place that maps names (as the CLI spells them) to solvers."""

from __future__ import annotations

from geoik.errors import UnknownMethodError
from geoik.solvers import (
    caa,
    ccd,
    circles,
    dls,
    fabrik,
    single_pass,
    triangulation,
    two_bone,
)
from geoik.solvers.base import Option, Solver

__all__ = ["REGISTRY", "Option", "Solver", "general_methods", "get"]

REGISTRY: dict[str, Solver] = {
    m.SOLVER.name: m.SOLVER
    for m in (ccd, fabrik, circles, dls, triangulation, single_pass, two_bone, caa)
}


def get(method: str) -> Solver:
    """The registered solver called ``method``; raises UnknownMethodError listing the known ones."""
    try:
        return REGISTRY[method]
    except (KeyError, TypeError):
        known = ", ".join(sorted(REGISTRY))
        raise UnknownMethodError(f"method: expected one of {known}, got {method!r}") from None


def general_methods() -> list[str]:
    """The solvers that take general models (:class:`geoik.Robot`), in registry order."""
    return [s.name for s in REGISTRY.values() if s.kernel_general is not None]
