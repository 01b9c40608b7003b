"""One validation step for a chain and a method: the request every chain solve runs.

:func:`geoik.solve` (a named method or ``"auto"``) and the batch engine
(:func:`geoik.batch.evaluate`, hence the metric maps) check their shared arguments here, once,
in one order (the method, the model, the method's fit to the chain, the options, the tolerance,
the iteration budget), and run the :class:`Request` that comes back: a frozen value holding the
chain, the attempts (the one solver named, or the plan of ``"auto"``), each with its packed
kernel options and iteration budget, and the tolerance. What differs between the entries, the
target (one point, or an array of them) and the start pose, each checks itself with
:mod:`geoik.checks` and :mod:`geoik.state`.
"""

from __future__ import annotations

from typing import Any, NamedTuple

import numpy as np

from geoik.chain import Chain
from geoik.checks import DEFAULT_METHOD, check_max_iter, check_tol, relative_tol
from geoik.errors import InvalidChainError, describe
from geoik.solvers.auto import AUTO, check_no_options, get_or_auto, plan
from geoik.solvers.base import Solver

__all__ = ["Attempt", "Request", "check_request"]


class Attempt(NamedTuple):
    """One solver run of a request: the solver, its packed kernel options for the chain (a
    read-only float64 array, :meth:`geoik.solvers.Solver.kernel_opts`) and its iteration
    budget."""

    solver: Solver
    opts: np.ndarray
    max_iter: int


class Request(NamedTuple):
    """A checked chain solve, target aside.

    Attributes
    ----------
    chain : the :class:`~geoik.Chain`.
    requested : the method asked for: ``"auto"`` or a registered name.
    attempts : the solvers to run, in order: the one named, or the plan of ``"auto"``
        (:func:`geoik.solvers.auto.plan`), each with its options and budget.
    tol : the tolerance, in the chain's units (the default: :func:`geoik.checks.relative_tol`).
    """

    chain: Chain
    requested: str
    attempts: tuple[Attempt, ...]
    tol: float

    @property
    def auto(self) -> bool:
        """True when the request runs ``method="auto"``'s plan."""
        return self.requested == AUTO


def check_request(
    chain: Any,
    method: Any,
    tol: Any,
    max_iter: Any,
    options: dict[str, Any],
    models: str = "a geoik.Chain",
) -> Request:
    """The :class:`Request` of solving ``chain`` by ``method`` (None: the default,
    :data:`geoik.checks.DEFAULT_METHOD`).

    Raises the :class:`~geoik.GeoIKError` of the first bad argument, naming it:
    :class:`~geoik.UnknownMethodError` (``method``), :class:`~geoik.InvalidChainError`
    (``chain``: not a Chain; ``models`` says what the caller takes),
    :class:`~geoik.UnsupportedChainError` (``chain``: the solver does not take it),
    :class:`~geoik.InvalidOptionError` (an option, ``tol`` or ``max_iter``).
    """
    name = DEFAULT_METHOD if method is None else method
    solver = None if name == AUTO else get_or_auto(name)
    if not isinstance(chain, Chain):
        raise InvalidChainError(f"expected {models}, got {describe(chain)}", argument="chain")
    if solver is None:
        check_no_options(options)
        tol_ = check_tol(tol, relative_tol(chain.total_length))
        attempts = tuple(
            Attempt(s, opts, check_max_iter(max_iter, s.default_max_iter))
            for s, opts in plan(chain)
        )
        return Request(chain, AUTO, attempts, tol_)
    solver.check_chain(chain.n, chain.dim)
    tol_ = check_tol(tol, relative_tol(chain.total_length))
    iters = check_max_iter(max_iter, solver.default_max_iter)
    attempt = Attempt(solver, solver.kernel_opts(chain, options), iters)
    return Request(chain, solver.name, (attempt,), tol_)
