"""When geoik's kernels run compiled, and when as plain Python.

Every kernel is a numba function, compiled on first use and cached on disk. Compiling the
functions one solve needs takes seconds; running them once as plain Python takes milliseconds.
So calls from Python into a kernel go through :func:`call` (or :func:`runner`), which picks:

- the compiled function, when it is compiled in this process already or numba's disk cache holds
  it for these argument types (loading takes milliseconds);
- otherwise its plain-Python twin (:func:`interpreted`: the same source, every compiled function
  it calls also run as Python), as long as the call is small (its ``work`` hint, e.g. joints
  times iterations, at most :data:`SMALL_WORK`) and this process has spent less than
  :data:`INTERPRETED_BUDGET` seconds running the function as Python;
- after that, the compiled function: it is compiled once (seconds) and cached on disk, and from
  then on every call is compiled.

A one-off solve (``geoik solve`` on the command line, a first call in a notebook) therefore
answers at once, and a loop of solves is compiled after its first fraction of a second. Both
forms run the same source on the same float64 operations, so they give the same results (to
rounding where NumPy's linear algebra differs from numba's). :func:`geoik.warm_up` compiles
ahead, for servers and benchmarks; :func:`mode` forces one form, for tests, or (``"no-compile"``)
never compiles: a server answering while another thread compiles ahead runs what is compiled
already and the rest as plain Python, rather than wait for numba's compiler lock.
"""

from __future__ import annotations

import contextlib
import functools
import threading
import time
import types
from collections.abc import Callable, Iterator, Sequence
from typing import Any

from numba import typeof
from numba.core.dispatcher import Dispatcher

__all__ = [
    "INTERPRETED_BUDGET",
    "SMALL_WORK",
    "call",
    "interpreted",
    "mode",
    "runner",
]

SMALL_WORK = 50_000
"""Largest ``work`` hint of a call that may run as plain Python (about a quarter second)."""
INTERPRETED_BUDGET = 0.25
"""Seconds a process may spend running one function as plain Python before compiling it."""
MODES = ("auto", "compiled", "interpreted", "no-compile")
_NO_READY = ("interpreted", "no-compile")  # modes that may not call a READY function blindly

_READY = object()  # the function runs compiled from now on
_state: dict[Any, Any] = {}  # dispatcher -> _READY or seconds spent running it as Python
_twins: dict[int, Callable[..., Any]] = {}
_module_globals: dict[int, dict[str, Any]] = {}


class _Mode(threading.local):
    value = "auto"


_mode = _Mode()  # per thread: a server may compile in one thread and answer in another


def call(fn: Any, *args: Any, work: int = 0) -> Any:
    """``fn(*args)``, compiled or as plain Python as the module docstring says.

    ``work`` estimates the call's size in elementary steps (e.g. joints times iterations), so
    that a large call is never run as Python.
    """
    how = _mode.value
    if _state.get(fn) is _READY and how not in _NO_READY:
        return fn(*args)
    if not isinstance(fn, Dispatcher):  # numba disabled (NUMBA_DISABLE_JIT=1): plain Python
        return fn(*args)
    if how == "no-compile":
        return fn(*args) if _compiled_for(fn, args) else interpreted(fn)(*args)
    if how == "compiled" or (how == "auto" and _compiles_now(fn, args, work)):
        _state[fn] = _READY
        return fn(*args)
    spent = _state.get(fn, 0.0)
    if spent is _READY:  # compiled already, run as Python on request (mode "interpreted")
        return interpreted(fn)(*args)
    start = time.perf_counter()
    try:
        return interpreted(fn)(*args)
    finally:
        _state[fn] = spent + time.perf_counter() - start


def runner(fn: Any, work: int = 0) -> Callable[..., Any]:
    """``fn`` itself once it runs compiled, else a callable doing :func:`call` with ``work``:
    for hot paths, which then call ``fn`` without any step in between."""
    if _state.get(fn) is _READY and _mode.value not in _NO_READY:
        return fn
    return functools.partial(call, fn, work=work)


def _compiles_now(fn: Dispatcher, args: Sequence[Any], work: int) -> bool:
    spent = _state.get(fn)
    if spent is None:  # first call in this process
        return bool(fn.signatures) or work > SMALL_WORK or _cached_on_disk(fn, args)
    return bool(spent >= INTERPRETED_BUDGET or work > SMALL_WORK)


def _compiled_for(fn: Dispatcher, args: Sequence[Any]) -> bool:
    """Whether ``fn`` is compiled in this process for the types of ``args`` (a compile started in
    another thread counts once it has finished)."""
    if not fn.overloads:
        return False
    try:
        return tuple(typeof(a) for a in args) in fn.overloads
    except Exception:  # a value numba cannot type: it would not run compiled either
        return False


def _cached_on_disk(fn: Dispatcher, args: Sequence[Any]) -> bool:
    """Whether numba's disk cache holds ``fn`` for the types of ``args``. Reads numba's cache
    index through its internal API; if that changes, the answer is False (compile when due)."""
    try:
        sig = tuple(typeof(a) for a in args)
        cache = fn._cache
        key = cache._index_key(sig, fn.targetctx.codegen())
        return key in cache._cache_file._load_index()
    except Exception:
        return False


def interpreted(fn: Any) -> Callable[..., Any]:
    """The plain-Python twin of a compiled function: its own source, with every compiled
    function it reaches through its module's globals replaced by its twin."""
    if not isinstance(fn, Dispatcher):
        return fn
    twin = _twins.get(id(fn))
    if twin is None:
        py = fn.py_func
        twin = types.FunctionType(
            py.__code__, _twin_globals(py.__globals__), py.__name__, py.__defaults__
        )
        _twins[id(fn)] = twin
    return twin


def _twin_globals(namespace: dict[str, Any]) -> dict[str, Any]:
    """A copy of a module's globals in which compiled functions are their twins (one copy per
    module, made before it is filled so that functions calling each other resolve)."""
    copy = _module_globals.get(id(namespace))
    if copy is None:
        copy = _module_globals[id(namespace)] = dict(namespace)
        for name, value in namespace.items():
            if isinstance(value, Dispatcher):
                copy[name] = interpreted(value)
    return copy


@contextlib.contextmanager
def mode(value: str) -> Iterator[None]:
    """Within the block (in this thread), run kernels ``"compiled"`` always, ``"interpreted"``
    (as plain Python) always, compiled where they are compiled already and as plain Python
    otherwise (``"no-compile"``), or choose as usual (``"auto"``)."""
    if value not in MODES:
        raise ValueError(f"mode: expected one of {', '.join(MODES)}, got {value!r}")
    before, _mode.value = _mode.value, value
    try:
        yield
    finally:
        _mode.value = before
