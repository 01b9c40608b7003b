"""The engines' cost functions, passed to them as first-class functions.

An engine takes the function that costs a target's recorded motion (``motion.costs_2d`` or
``costs_3d``) as an argument rather than calling it by name, so that an engine asked for no costs
(a map of iterations or errors, the viewer's maps) is given :func:`no_costs` and never compiles
the cost functions, which take seconds to compile.
"""

from __future__ import annotations

import functools
from typing import Any

from numba import njit

__all__ = ["cost_function", "no_costs"]


@njit(cache=True)
def no_costs(lengths, base, keys, nkeys):
    """The cost function of an engine asked for no costs (never called then: the engines skip
    the costs); returns what ``motion.costs_2d`` and ``costs_3d`` return, all zero."""
    return 0, 0.0, 0.0


@functools.cache
def cost_function(fn: Any, args: tuple[Any, ...]) -> Any:
    """``fn`` (``motion.costs_2d``, ``costs_3d`` or :func:`no_costs`) compiled for ``args``, the
    argument types the engines call it with."""
    fn.compile(args)
    return fn
