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

For a robot (:class:`geoik.Robot`, :func:`robot_plan`): ``analytic`` where it applies (one tip,
an orientation, and an arm the analytic solver decomposes: :attr:`geoik.Robot.family` names a
closed form, the searched family or a 7-joint arm's held joint), else ``dls`` (position-only
targets, several tips, arms with no family, prismatic joints). When the analytic solver does
not reach the pose, :func:`robot_fallback` says what happens:

- *out of reach*, proven by a closed form (a 6-joint family other than the searched one: every
  solution is found, so none exists): the analytic answer, CLOSEST, the least-squares pose;
- an orientation a 4- or 5-joint family cannot take at the position: the analytic answer,
  CLOSEST, the position exact at the nearest attainable orientation;
- *reachable only outside the joint limits*: ``dls`` from the same start, whose pose is inside
  the limits (it ends REACHED only where a pose within the limits lies within the tolerances;
  usually MAX_ITERATIONS), since a robot cannot be sent the analytic solutions;
- the searched family or a 7-joint arm (whose search samples the free joint, so that an empty
  answer proves nothing), or no candidate at all: ``dls`` from the same start, whatever it
  ends with.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import numpy as np

from geoik.errors import InvalidOptionError, UnknownMethodError
from geoik.solution import Status
from geoik.solvers import REGISTRY, Solver, get
from geoik.solvers.analytic.decompose import FAMILIES, SEARCH_56
from geoik.solvers.analytic.five import FAMILIES_SHORT

if TYPE_CHECKING:
    from geoik.chain import Chain
    from geoik.robots.model import Robot

__all__ = [
    "AUTO",
    "CLOSED_FORMS",
    "FALLBACKS",
    "NEARER",
    "ROBOT_ANALYTIC",
    "ROBOT_AUTO",
    "ROBOT_SUMMARY",
    "SUMMARY",
    "Attempt",
    "check_no_options",
    "get_or_auto",
    "out_of_reach",
    "out_of_reach_all",
    "plan",
    "robot_fallback",
    "robot_plan",
]

AUTO = "auto"
"""The method name that asks for the plan below."""
SUMMARY = (
    "Chooses per chain: two-bone or circles without limits (exact), else dls; falls back on "
    "dls, ccd, fabrik (escape on) when one ends short"
)
"""One line for ``geoik methods``."""
ROBOT_AUTO = "dls"
"""What ``method="auto"`` runs on a :class:`geoik.Robot` where the analytic solver does not
apply (:func:`robot_plan`), and after it where it does not reach (:func:`robot_fallback`):
damped least squares, the general solver that honours the joint limits and orientation
targets."""
ROBOT_ANALYTIC = "analytic"
"""What ``method="auto"`` runs first on a robot where it applies (:func:`robot_plan`): every
solution of the pose, the nearest to the start kept."""
ROBOT_SUMMARY = (
    "robots: analytic (every solution, the nearest kept) for one tip with an orientation on an "
    "arm with a family (robot.family), dls otherwise and where analytic finds no pose within "
    "the limits; CLOSEST only when a closed form proves the pose out of reach"
)
"""What ``method="auto"`` does for robots, in one line (``geoik methods``)."""
FALLBACKS = ("dls", "ccd", "fabrik")
"""The iterative solvers tried, in order, after the first choice ends short."""
NEARER = 1e-9
"""A later attempt that ends short replaces an earlier one only when nearer to the target by
more than this times the chain's length."""
_ESCAPE = {"escape": 1}
CLOSED_FORMS = frozenset(code for code in FAMILIES if code != SEARCH_56) | frozenset(FAMILIES_SHORT)
"""The analytic families that find every solution of a pose (so an empty answer proves it
out of reach, and a 4- or 5-joint arm's nearest orientation is the nearest there is): all but
the searched one."""

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


def robot_plan(robot: Robot, oriented: bool) -> tuple[str, ...]:
    """The solvers ``method="auto"`` runs on ``robot`` (one tip or several), in order:
    ``("analytic", "dls")`` for one tip with an orientation (``oriented``) on an arm the
    analytic solver decomposes (:meth:`geoik.Robot.analytic_plan` finds a family), else
    ``("dls",)``. The second entry runs only as :func:`robot_fallback` says."""
    if not oriented or robot.k != 1:
        return (ROBOT_AUTO,)
    key = "auto robot plan"
    cached = robot._cache.get(key)
    if cached is None:
        found = robot.analytic_plan().code != 0
        cached = robot._cache[key] = (ROBOT_ANALYTIC, ROBOT_AUTO) if found else (ROBOT_AUTO,)
    return cached


def robot_fallback(robot: Robot, status: Status | None) -> bool:
    """Whether ``method="auto"`` runs ``dls`` after the analytic solver ended with ``status``
    (None: the pose is reachable only outside the joint limits): not after REACHED, nor after
    CLOSEST where a closed form proves the pose out of reach (a 6-joint family other than the
    searched one); after anything else."""
    if status is Status.REACHED:
        return False
    if status is Status.CLOSEST:
        plan = robot.analytic_plan()
        return not (plan.locked < 0 and plan.code in CLOSED_FORMS)
    return True


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
