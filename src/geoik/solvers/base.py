"""What every solver declares: its kernels, options, motion capacity and source."""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from geoik.errors import InvalidOptionError, LimitError, Spell, UnsupportedChainError
from geoik.jit import runner

__all__ = ["Option", "Solver"]


@dataclass(frozen=True)
class Option:
    """A solver option, packed into the kernel's ``opts`` float64 array.

    ``size`` is 1 for a number or 3 for a vector; ``check`` returns None if a value is acceptable
    or a phrase saying what is expected.
    """

    name: str
    default: float | tuple[float, ...]
    help: str
    size: int = 1
    check: Callable[[Any], str | None] | None = None


def positive(value: Any) -> str | None:
    """An :class:`Option` check: None for a finite number > 0, else what is expected."""
    return None if value > 0 and math.isfinite(value) else "a finite number > 0"


def non_negative(value: Any) -> str | None:
    """An :class:`Option` check: None for a finite number >= 0, else what is expected."""
    return None if value >= 0 and math.isfinite(value) else "a finite number >= 0"


def flag(value: Any) -> str | None:
    """An :class:`Option` check: None for 0 or 1, else what is expected."""
    return None if value in (0, 1) else "0 or 1"


def sign(value: Any) -> str | None:
    """An :class:`Option` check: None for +1 or -1, else what is expected."""
    return None if value in (1, -1) else "+1 or -1"


@dataclass(frozen=True)
class Solver:
    """A registered IK solver.

    Kernels (numba-compiled, never raising) have the signatures::

        kernel_2d(model, target, angles, tol, max_iter, opts, rec)
        kernel_3d(model, target, quats, tol, max_iter, opts, rec)

    with ``model`` the chain's :attr:`~geoik.Chain.kernel_arrays` (``(lengths, base, lo, hi)`` in
    2-D, ``(lengths, base, cone, hinge, lo, hi)`` in 3-D), and return
    ``(status, iterations, nrec)``. ``angles`` (n,) or ``quats`` (n, 4) hold the start
    pose on entry and the final pose on return; ``rec`` (capacity, n) or (capacity, n, 4) receives
    the motion's keyframes, ``rec[0]`` being the start pose written by the caller, and ``nrec`` is
    the number of keyframes written including that one.
    The iterative kernels record a keyframe and decide whether to stop with the helpers of
    :mod:`geoik.solvers.stop` (``record``, ``verdict``), so that every one of them orders its
    statuses alike: REACHED, then CLOSEST, then STALLED.

    ``prepare``, if given, computes per-chain constants once (``prepare(chain, packed_options)``
    returns a float64 array appended to ``opts``; see :meth:`kernel_opts`), used alike by
    :func:`geoik.solve` and the batch engine.

    ``kernel_2d_lanes`` and ``kernel_3d_lanes``, if given, solve many targets at once in lanes
    (CCD); the batch engine runs them instead of ``kernel_2d`` / ``kernel_3d`` (see
    :mod:`geoik.batch.engine`) for the packed options ``opts`` where ``lanes_for(opts)`` is true
    (CCD in 3-D: without ``escape``)::

        kernel_2d_lanes(model, targets, angles, tol, max_iter, opts, rec, out, final)

    with ``targets`` (K, d), the start poses ``angles`` (K, n) or (K, n, 4) and the keyframes
    ``rec`` (K, cap, ...) a row per lane, ``out`` the outputs ``(nrec, status, iterations,
    end)`` (:data:`geoik.batch.bundles.LANE_OUTPUTS`) and ``final`` whether to write the final
    poses back. ``kernel_2d_lanes_plain``, if given, is the same 2-D lane kernel compiled
    without the paths of options that are off where ``plain_for(opts)`` is true (CCD: without
    ``escape``), which compiles faster; the batch engine runs it there
    (:meth:`lane_kernel_2d`). ``kernel_2d_plain`` and ``kernel_3d_plain``, if given, are the
    one-target kernels so compiled; :func:`geoik.solve` runs them there (:meth:`chain_kernel`).

    ``kernel_general``, if given, solves general joint models (:class:`geoik.Robot`)::

        kernel_general(model, goal, q, tol, angle_tol, max_iter, opts, rec)

    with ``model`` the robot's ``kernel_arrays``, ``goal`` the arrays ``(targets, goal_rot,
    targeted, oriented)``, ``opts`` the packed options followed by the
    robot's size, ``capacity_general`` its keyframe rows (see
    :mod:`geoik.solvers.dls_general`) and ``default_max_iter_general`` its iteration budget
    (``default_max_iter`` when None): :attr:`budget_general`. A solver without one raises
    :class:`geoik.UnsupportedChainError` for a robot, saying what it needs
    (``general_note``).

    ``kernel_all``, if given, returns every solution of a pose of a serial arm rather than
    moving one state towards it (the analytic solver)::

        kernel_all(model, R_goal, p_goal, start, tol, angle_tol, out)
        -> (exact, outside_limits, closest)

    with ``decompose(H, P, R_tip, revolute)`` giving the plan (the family, the chain as solved
    and its special points) from the arm's product-of-exponentials form once per robot, and
    ``pack(plan, lo, hi)`` the ``model`` array the kernel takes; ``out`` (``max_solutions``,
    n + 3) receives the solutions (joint values, flags, errors) in three sorted groups whose
    sizes it returns (see :mod:`geoik.solvers.analytic`). Such a solver has no chain
    kernels; :meth:`check_chain` says it takes robots.

    A kernel that cannot produce its pose within the joint limits (CAA: the arc it must take)
    keeps the start pose and returns ``(STALLED, 0, -1 - j)``, ``j`` the first joint whose
    limits it cannot meet: :func:`geoik.solve` raises :class:`geoik.LimitError` naming the joint
    (and ``limit_note``, why the solver is bound to that pose), the batch engine records a
    failure.
    """

    name: str
    summary: str
    source: str
    module: str
    kernel_2d: Any
    kernel_3d: Any
    capacity: Callable[[int, int], int]
    options: tuple[Option, ...] = ()
    default_max_iter: int = 100
    iterative: bool = True
    links: tuple[int, int | None] = (1, None)
    limit_note: str = ""
    kernel_2d_lanes: Any = None
    kernel_3d_lanes: Any = None
    lanes_for: Callable[[np.ndarray], bool] = lambda opts: True
    kernel_2d_lanes_plain: Any = None
    kernel_2d_plain: Any = None
    kernel_3d_plain: Any = None
    plain_for: Callable[[np.ndarray], bool] = lambda opts: False
    prepare: Callable[[Any, np.ndarray], np.ndarray] | None = None
    kernel_general: Any = None
    capacity_general: Callable[[int, int], int] | None = None
    general_note: str = "a geoik.Chain"
    kernel_all: Any = None
    decompose: Callable[..., Any] | None = None
    pack: Callable[..., Any] | None = None
    max_solutions: int = 0
    default_max_iter_general: int | None = None
    _option_index: dict[str, Option] = field(default_factory=dict, repr=False, compare=False)
    _defaults: dict[str, np.ndarray] = field(default_factory=dict, repr=False, compare=False)
    _fits: set[tuple[int, int]] = field(default_factory=set, repr=False, compare=False)

    def __post_init__(self) -> None:
        self._option_index.update({o.name: o for o in self.options})

    @property
    def takes_robots(self) -> bool:
        """Whether the solver solves general models (:class:`geoik.Robot`): by a general kernel
        or by every solution of a pose."""
        return self.kernel_general is not None or self.kernel_all is not None

    @property
    def dims(self) -> tuple[int, ...]:
        """The dimensions (2, 3) the solver has a chain kernel for."""
        return tuple(d for d, k in ((2, self.kernel_2d), (3, self.kernel_3d)) if k is not None)

    def kernel(self, dim: int) -> Any:
        """The chain kernel for ``dim`` (2 or 3), or None."""
        return self.kernel_2d if dim == 2 else self.kernel_3d

    def chain_kernel(self, dim: int, opts: np.ndarray) -> Any:
        """The one-target kernel :meth:`run` runs for ``dim`` and the packed options ``opts``:
        ``kernel_2d_plain`` / ``kernel_3d_plain`` where ``plain_for(opts)``, else the
        registered ``kernel_2d`` / ``kernel_3d``."""
        plain = self.kernel_2d_plain if dim == 2 else self.kernel_3d_plain
        if plain is not None and self.plain_for(opts):
            return plain
        return self.kernel_2d if dim == 2 else self.kernel_3d

    def lane_kernel_2d(self, opts: np.ndarray) -> Any:
        """The 2-D lane kernel the batch engine runs for the packed options ``opts``:
        ``kernel_2d_lanes_plain`` where ``plain_for(opts)``, else ``kernel_2d_lanes`` (None:
        the solver has none)."""
        if self.kernel_2d_lanes_plain is not None and self.plain_for(opts):
            return self.kernel_2d_lanes_plain
        return self.kernel_2d_lanes

    def run(
        self,
        chain: Any,
        target: np.ndarray,
        state: np.ndarray,
        tol: float,
        max_iter: int,
        opts: np.ndarray,
        rec: np.ndarray,
    ) -> tuple[int, int, int]:
        """Run the kernel of the chain's dimension on ``state`` (in place) towards ``target``;
        returns the kernel's ``(status, iterations, nrec)``."""
        work = chain.n * max_iter * (1 if chain.dim == 2 else 4)
        kernel = runner(self.chain_kernel(chain.dim, opts), work)
        return kernel(chain.kernel_arrays, target, state, tol, max_iter, opts, rec)

    def run_general(
        self,
        robot: Any,
        goals: tuple[np.ndarray, ...],
        q: np.ndarray,
        tol: float,
        angle_tol: float,
        max_iter: int,
        opts: np.ndarray,
        rec: np.ndarray,
    ) -> tuple[int, int, int]:
        """Run the general kernel on ``q`` (in place) towards ``goals``, the arrays ``(targets,
        goal_rot, targeted, oriented)``; returns the kernel's ``(status, iterations, nrec)``."""
        kernel = runner(self.kernel_general, robot.n * robot.n * max_iter)
        return kernel(robot.kernel_arrays, goals, q, tol, angle_tol, max_iter, opts, rec)

    @property
    def budget_general(self) -> int:
        """The default iteration budget on general models (robots)."""
        if self.default_max_iter_general is None:
            return self.default_max_iter
        return self.default_max_iter_general

    def check_model(self, model: Any, general: Sequence[str] = ()) -> None:
        """Raise UnsupportedChainError unless the solver takes general models (robots), naming
        the solvers that do (``general``)."""
        if self.takes_robots:
            return
        raise UnsupportedChainError(
            f"method {self.name!r} needs {self.general_note}, got {model.describe()} (joint "
            f"origins, axes and limits of a general model); for a geoik.Robot use one of "
            f"{', '.join(general)}",
            argument="chain",
        )

    def general_opts(self, model: Any, options: Mapping[str, Any]) -> np.ndarray:
        """The general kernel's ``opts``: the packed options, then the model's size (cached on
        the model for the default options; kernels only read it)."""
        if options:
            return np.append(self.pack_options(options), model.total_length)
        key = ("general_opts", self.name)
        cached = model._cache.get(key)
        if cached is None:
            cached = model._cache[key] = np.append(self.pack_options({}), model.total_length)
        return cached

    def limit_error(self, chain: Any, target: np.ndarray, joint: int) -> LimitError:
        """The error of a kernel that reported joint ``joint``'s limits as unmeetable."""
        why = f" ({self.limit_note})" if self.limit_note else ""
        limit = chain.max_bend_deg()[joint]
        shown = Spell("pair", *limit) if isinstance(limit, tuple) else Spell("value", limit)
        return LimitError(
            (
                f"method {self.name!r} cannot reach target {np.round(target, 6).tolist()} "
                f"without joint {joint} leaving its limits ",
                shown,
                f" (degrees){why}",
            ),
            argument=f"max_bend_deg[{joint}]",
        )

    def check_chain(self, n: int, dim: int) -> None:
        """Raise UnsupportedChainError unless the solver takes ``n`` links in ``dim``-D."""
        if (n, dim) in self._fits:
            return
        lo, hi = self.links
        if n < lo or (hi is not None and n > hi):
            want = f"exactly {lo}" if hi == lo else f"at least {lo}" if hi is None else f"{lo}-{hi}"
            raise UnsupportedChainError(
                f"method {self.name!r} needs {want} links, got a chain of {n}", argument="chain"
            )
        if not self.dims:
            raise UnsupportedChainError(
                f"method {self.name!r} solves robots (a geoik.Robot, e.g. from "
                f"geoik.load_urdf), got a {dim}-D chain of {n} links",
                argument="chain",
            )
        if self.kernel(dim) is None:
            raise UnsupportedChainError(
                f"method {self.name!r} solves {self.dims[0]}-D chains only, got a {dim}-D chain",
                argument="chain",
            )
        self._fits.add((n, dim))

    def kernel_opts(self, chain: Any, options: Mapping[str, Any]) -> np.ndarray:
        """The kernel's ``opts``: the packed options followed by what ``prepare`` derives from
        the chain once (cached on the chain), so per-chain work is not redone per target.

        The array may be shared between calls (kernels only read it)."""
        if options:
            opts = self.pack_options(options)
        elif "opts" in self._defaults:
            opts = self._defaults["opts"]
        else:
            opts = self._defaults["opts"] = self.pack_options({})
        if self.prepare is None:
            return opts
        key = ("kernel_opts", self.name, opts.tobytes())
        cached = chain._cache.get(key)
        if cached is None:
            cached = np.concatenate([opts, self.prepare(chain, opts)])
            chain._cache[key] = cached
        return cached

    def pack_options(self, options: Mapping[str, Any]) -> np.ndarray:
        """Validate ``options`` and pack them, defaults filled in, into a float64 array."""
        for key in options:
            if key not in self._option_index:
                known = ", ".join(o.name for o in self.options) or "none"
                raise InvalidOptionError(
                    f"method {self.name!r} takes no option {key!r} (its options: {known})",
                    argument=key,
                )
        out: list[float] = []
        for o in self.options:
            value = options.get(o.name, o.default)
            if o.size == 1:
                ok = isinstance(value, int | float | np.number) and not isinstance(value, bool)
                why = None if ok and math.isfinite(value) else "a finite number"
                if why is None and o.check is not None:
                    why = o.check(value)
                if why is not None:
                    raise InvalidOptionError(
                        (f"expected {why}, got ", Spell("value", value)), argument=o.name
                    )
                out.append(float(value))
            else:
                try:
                    vec = np.array(value, dtype=np.float64)
                except (TypeError, ValueError):
                    vec = np.zeros(0)
                why = None
                if vec.shape != (o.size,) or not np.all(np.isfinite(vec)):
                    why = f"{o.size} finite numbers"
                elif o.check is not None:
                    why = o.check(vec)
                if why is not None:
                    raise InvalidOptionError(
                        (f"expected {why}, got ", Spell("value", value)), argument=o.name
                    )
                out.extend(float(v) for v in vec)
        return np.array(out, dtype=np.float64)
