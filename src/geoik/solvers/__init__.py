"""The solvers: one module (or folder) per algorithm, and the registry that names them.

:data:`REGISTRY` is the one place that maps names, as the command line spells them, to
:class:`~geoik.solvers.base.Solver` descriptions (kernels, options, what a solver takes);
:mod:`~geoik.solvers.auto` decides what ``method="auto"`` runs. Every kernel is written once and
run both by :func:`geoik.solve` and by the batch engine.

May import the base and the model layers (``geoik.geometry``, ``geoik.kinematics``,
``geoik.jit``, ``geoik.errors``, ``geoik.chain``, ...); never :mod:`geoik.robots`,
:mod:`geoik.rigs` or anything above them.
"""

from __future__ import annotations

from geoik.errors import UnknownMethodError
from geoik.solvers import (
    analytic,
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

__all__ = [
    "REGISTRY",
    "Option",
    "Solver",
    "chain_methods",
    "general_methods",
    "get",
    "robot_methods",
]

REGISTRY: dict[str, Solver] = {
    m.SOLVER.name: m.SOLVER
    for m in (ccd, fabrik, circles, dls, triangulation, single_pass, two_bone, caa, analytic)
}


def get(method: str) -> Solver:
    """The registered solver called ``method``; raises UnknownMethodError listing the known ones."""
    try:
        return REGISTRY[method]
    except (KeyError, TypeError):
        known = ", ".join(sorted(REGISTRY))
        raise UnknownMethodError(
            f"expected one of {known}, got {method!r}", argument="method"
        ) from None


def general_methods() -> list[str]:
    """The solvers that take general models (:class:`geoik.Robot`), in registry order."""
    return [s.name for s in REGISTRY.values() if s.kernel_general is not None]


def robot_methods() -> list[str]:
    """The solvers that solve a :class:`geoik.Robot` with one tip (a general kernel, or every
    solution of a pose), in registry order."""
    return [s.name for s in REGISTRY.values() if s.takes_robots]


def chain_methods(dim: int | None = None) -> list[str]:
    """The solvers that solve a :class:`geoik.Chain` (of ``dim`` dimensions, default any), in
    registry order."""
    return [s.name for s in REGISTRY.values() if s.dims and (dim is None or dim in s.dims)]
