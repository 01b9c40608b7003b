"""When geoik's kernels run compiled, and when as plain Python; and what compiling costs.

Every kernel is a numba function, compiled on first use and cached on disk. Compiling the
functions one solve needs takes seconds; loading them from numba's disk cache costs about half a
second in a new process (numba's compiler is set up first); running them once as plain Python
takes milliseconds. So calls from Python into a kernel go through :func:`call` (or
:func:`runner`), which picks:

- the compiled function, when it is compiled (or loaded) in this process already, or when numba's
  compiler is set up in this process and its disk cache holds the function for these argument
  types (loading then takes milliseconds);
- otherwise its plain-Python twin (:func:`interpreted`: the same source, every compiled function
  it calls also run as Python), as long as the call is small (its ``work`` hint, e.g. joints
  times iterations, at most :data:`SMALL_WORK`) and this process has spent less than
  :data:`INTERPRETED_BUDGET` seconds running the function as Python;
- after that, the compiled function: it is compiled once (seconds; or loaded from the disk
  cache) and from then on every call is compiled. Within a :func:`job` whose size is known (a
  clip of frames to pose), the function is compiled only once the plain Python still to run is
  expected to take longer than compiling it would (:data:`COMPILE_SECONDS`, or
  :data:`LOAD_SECONDS` when the disk cache holds it), so a small job runs as Python to its end.
  Where another core is free (no other helper of this process at work), a function due to be
  compiled so is compiled by a helper process into the disk cache instead, while the job goes
  on as Python; the job runs it compiled from the first call after the helper has ended.

A function declared :func:`slow_to_compile` (the analytic solver's kernels: tens of seconds; the
tree solvers', the general robot solvers' and the motion replays': seconds, for calls whose
work hint, an upper bound such as every joint times the whole iteration budget, lies far above
the milliseconds they take) is compiled instead by a helper process once its budget is spent,
while its calls go on as plain Python (calls of up to :data:`SLOW_SMALL_WORK`: seconds as
Python, less than the compiling; for one declared to compile in a few seconds, calls of up to
that much Python); the first call after the helper has ended loads it.

A one-off solve (``geoik solve`` on the command line, a first call in a notebook) therefore
answers at once, with numba's cache empty or full, and a loop of solves is compiled after its
first fraction of a second. Both forms run the same source on the same float64 operations, so
they give the same results (to rounding where NumPy's linear algebra differs from numba's).
:func:`geoik.warm_up` compiles ahead, for servers and benchmarks; :func:`mode` forces one form,
for tests, or (``"no-compile"``) never compiles: a server answering while another thread
compiles ahead runs what is compiled already and the rest as plain Python, rather than wait for
numba's compiler lock.

Compiling is watched: :func:`compile_stats` says how many of geoik's functions this process has
compiled and the wall time that took, and :func:`watching` calls a function back as compiling
starts and progresses (the command line's notice on standard error; the library prints
nothing).
"""

from __future__ import annotations

import atexit
import contextlib
import functools
import hashlib
import importlib
import os
import pickle
import re
import subprocess
import sys
import tempfile
import threading
import time
import types
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
from numba import typeof
from numba.core import event
from numba.core.dispatcher import Dispatcher

__all__ = [
    "COMPILE_SECONDS",
    "INTERPRETED_BUDGET",
    "JOB_SMALL_WORK",
    "LOAD_SECONDS",
    "SLOW_SMALL_WORK",
    "SMALL_WORK",
    "WORK_PER_SECOND",
    "CompileStats",
    "Job",
    "KernelModel",
    "call",
    "compile_ahead",
    "compile_stats",
    "compiling_behind",
    "interpreted",
    "job",
    "mode",
    "parts",
    "runner",
    "slow_to_compile",
    "watching",
]

SMALL_WORK = 50_000
"""Largest ``work`` hint of a call that may run as plain Python (about a quarter second)."""
WORK_PER_SECOND = 4 * SMALL_WORK
"""``work`` units of plain Python per second (a unit is about 5 µs: an elementary step such as
one joint's update in an iteration)."""
INTERPRETED_BUDGET = 0.25
"""Seconds a process may spend running one function as plain Python before compiling it (CPU
seconds of the calling threads, so that a loaded machine does not tip the choice)."""
COMPILE_SECONDS = 5.0
"""What compiling a function and what it calls is taken to cost, in seconds, when deciding within
a :func:`job` (a solver's kernel: 2-10 s on two cores)."""
LOAD_SECONDS = 0.5
"""What loading a function from numba's disk cache is taken to cost in a process that has not
compiled anything yet (numba's compiler is set up first)."""
JOB_SMALL_WORK = 20 * SMALL_WORK
"""Within a :func:`job`, the largest ``work`` hint of a call that may run as plain Python: the
hints are upper bounds (a solver's whole iteration budget), and the times measured as the job
goes decide."""
SLOW_SMALL_WORK = 20 * SMALL_WORK
"""For a :func:`slow_to_compile` function, the largest ``work`` hint of a call that may run as
plain Python (seconds at most) while a helper compiles it: less than its compiling would take
(tens of seconds), which such a call would otherwise wait for."""
MODES = ("auto", "compiled", "interpreted", "no-compile")
_NO_READY = ("interpreted", "no-compile")  # modes that may not call a READY function blindly

_READY = object()  # the function runs compiled from now on
_state: dict[Any, Any] = {}  # dispatcher -> _READY or seconds spent running it as Python
_ready_any = [False]  # whether any function has been made _READY in this process
_disk: dict[Any, bool] = {}  # dispatcher -> whether numba's disk cache held it when asked
_twins: dict[Any, Callable[..., Any]] = {}  # dispatcher -> its plain-Python twin
_parts: dict[Any, Callable[[tuple[Any, ...]], list[tuple[Any, Any]]]] = {}  # see parts()
_module_globals: dict[int, tuple[dict[str, Any], dict[str, Any]]] = {}  # id -> (globals, copy)


class _Mode(threading.local):
    value = "auto"


_mode = _Mode()  # per thread: a server may compile in one thread and answer in another


class Job:
    """A piece of work of known size, in units (frames, targets), of which ``done`` are done:
    see :func:`job`. ``step()`` marks one more unit done."""

    def __init__(self, total: int) -> None:
        self.total = max(int(total), 0)
        self.done = 0

    def step(self, units: int = 1) -> None:
        """Mark ``units`` more units done."""
        self.done += units

    def remaining_share(self) -> float | None:
        """Units still to do per unit done (None before the first is done)."""
        if self.done <= 0:
            return None
        return max(self.total - self.done, 0) / self.done


class _Jobs(threading.local):
    current: Job | None = None


_jobs = _Jobs()


@contextlib.contextmanager
def job(total: int) -> Iterator[Job]:
    """Within the block (in this thread), kernels are compiled only when the plain Python still
    to run is expected to take longer than compiling: ``total`` units of work follow, and the
    yielded :class:`Job` is told as each is done (``job.step()``). A function that has run as
    Python for ``s`` seconds over ``done`` units is expected to need ``s * (total - done) /
    done`` more; it is compiled when that exceeds :data:`COMPILE_SECONDS` (or
    :data:`LOAD_SECONDS` when numba's disk cache holds it). Calls larger than
    :data:`JOB_SMALL_WORK` are compiled at once. Where a second core is free, a helper process
    compiles a function due while its calls go on as Python (see the module's docstring)."""
    before, _jobs.current = _jobs.current, Job(total)
    try:
        yield _jobs.current
    finally:
        _jobs.current = before


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
    due = how == "auto" and _compiles_now(fn, args, work)
    if how == "auto" and _goes_behind(fn, work, due):
        if _compiling_behind(fn, args):
            return _as_python(fn, args)  # the helper process compiles it meanwhile
        due = _compiles_now(fn, args, work)  # asked again once the helper has saved it
    if how == "compiled" or due:
        _state[fn] = _READY
        _ready_any[0] = True
        if fn in _parts and not _compiled_for(fn, args):
            with contextlib.suppress(Exception):  # a value numba cannot type: fn(*args) says so
                compile_ahead([(fn, tuple(typeof(a) for a in args))])
        return fn(*args)
    return _as_python(fn, args)


def _as_python(fn: Any, args: Sequence[Any]) -> Any:
    """``fn(*args)`` as plain Python, its time counted against :data:`INTERPRETED_BUDGET`."""
    spent = _state.get(fn, 0.0)
    if spent is _READY:  # compiled already, run as Python on request (mode "interpreted")
        return interpreted(fn)(*args)
    start = time.thread_time()
    try:
        return interpreted(fn)(*args)
    finally:
        _state[fn] = spent + time.thread_time() - start


def slow_to_compile(fn: Any = None, *, seconds: float | None = None) -> Any:
    """Declare ``fn`` (a compiled function) slow to compile: tens of seconds, as the analytic
    solver's kernels, which hold every kinematic family. Once its small calls have spent
    :data:`INTERPRETED_BUDGET` as plain Python, a helper process compiles it into numba's disk
    cache (:func:`compile_ahead`'s, on another core) while this process goes on running it as
    Python; the call after the helper has ended loads it (milliseconds) and runs compiled. A
    loop of solves then never stops for the compiler: it runs slower for as long as the helper
    works. Without a helper (one core, no lock on numba's cache saves, or its start failed) it
    is compiled when due, as any function.

    A call runs as Python only while its ``work`` hint stays within :data:`SLOW_SMALL_WORK`
    (seconds of Python); ``seconds``, for a function that compiles in seconds rather than tens
    (measured in a new process on one core), lowers that bound to as much Python as compiling
    takes (``seconds`` times :data:`WORK_PER_SECOND`): a larger call is compiled at once rather
    than run slower than compiling would be. Used as ``@slow_to_compile`` or
    ``@slow_to_compile(seconds=2.0)``; returns ``fn`` (a decorator)."""

    def declare(f: Any) -> Any:
        _slow.add(f)
        if seconds is not None:
            _slow_work[f] = min(SLOW_SMALL_WORK, int(seconds * WORK_PER_SECOND))
        return f

    return declare if fn is None else declare(fn)


_slow: set[Any] = set()  # slow_to_compile's functions
_slow_work: dict[Any, int] = {}  # their bounds on a call run as Python, where not SLOW_SMALL_WORK
_behind_calls: dict[Any, _Helper] = {}  # a function run as Python -> the helper compiling it


def _goes_behind(fn: Dispatcher, work: int, due: bool) -> bool:
    """Whether a helper process should compile ``fn`` (or goes on compiling it) while its calls
    run as Python: a :func:`slow_to_compile` function once it is ``due``; within a :func:`job`,
    a function being compiled behind already, or one ``due`` (the Python still to run would take
    longer than compiling it) while no other helper of this process is at work (two would share
    the other core with this process)."""
    if fn in _slow:
        return due and work <= _slow_work.get(fn, SLOW_SMALL_WORK)
    if _jobs.current is None or work > JOB_SMALL_WORK or fn.signatures:
        return False
    if fn in _behind_calls:
        return True
    return due and fn not in _tried_behind and not _helper_at_work()


def _helper_at_work() -> bool:
    """Whether a helper process of this process is compiling (:func:`compiling_behind`'s, or
    one compiling a function behind its calls)."""
    return any(child.running() for child in _behind) or any(
        child.running() for child in _behind_calls.values()
    )


def _compiling_behind(fn: Dispatcher, args: Sequence[Any]) -> bool:
    """Whether a helper process is compiling ``fn`` for the types of ``args`` (started here when
    it is due and none has yet; see :func:`slow_to_compile` and :func:`job`). False once the
    helper has ended (the caller then loads what it saved, or compiles) or when none can
    start."""
    child = _behind_calls.get(fn)
    if child is None:
        if fn in _tried_behind or not (_SAVES_LOCKED and _cores() > 1):
            return False
        _tried_behind.add(fn)
        try:
            todo = _missing([(fn, tuple(typeof(a) for a in args))])
        except Exception:  # a value numba cannot type: fn(*args) says so
            return False
        started = _Helper.start(todo) if todo else None
        if started is None:
            return False
        child = _behind_calls[fn] = started
    if child.running():
        return True
    del _behind_calls[fn]
    child.close()
    _disk.pop(fn, None)  # asked again: the helper has saved it there (unless it failed)
    return False


_tried_behind: set[Any] = set()


@atexit.register
def _stop_behind_calls() -> None:
    """At exit: stop the helpers still compiling (their work is dropped)."""
    for child in [*_behind_calls.values(), *_helpers]:
        child.close()
    _behind_calls.clear()
    _helpers.clear()


def runner(fn: Any, work: int = 0) -> Callable[..., Any]:
    """``fn`` itself once it runs compiled, else a callable doing :func:`call` with ``work``:
    for hot paths, which then call ``fn`` without any step in between."""
    if _state.get(fn) is _READY and _mode.value not in _NO_READY:
        return fn
    return functools.partial(call, fn, work=work)


def _compiles_now(fn: Dispatcher, args: Sequence[Any], work: int) -> bool:
    spent = _state.get(fn)
    current = _jobs.current
    small = SMALL_WORK if current is None else JOB_SMALL_WORK
    if fn in _slow:
        small = max(small, _slow_work.get(fn, SLOW_SMALL_WORK))
    if fn.signatures or work > small:
        return True  # compiled in this process already (a server's warm-up thread), or large
    # loading from the disk cache sets numba's compiler up first (about half a second, more than
    # a small call takes as Python); once it is set up, loading costs milliseconds
    if _compiler_ready() and _on_disk(fn, args):
        return True
    if spent is None or spent < INTERPRETED_BUDGET:
        return False
    if current is None:
        return True
    share = current.remaining_share()
    if share is None:  # the first unit is not done yet: nothing to go by
        return False
    return bool(spent * share > (LOAD_SECONDS if _on_disk(fn, args) else COMPILE_SECONDS))


def _compiled_for(fn: Dispatcher, args: Sequence[Any]) -> bool:
    """Whether ``fn`` is compiled in this process for the types of ``args`` (a compile started in
    another thread counts once it has finished)."""
    if not fn.overloads:
        return False
    try:
        return tuple(typeof(a) for a in args) in fn.overloads
    except Exception:  # a value numba cannot type: it would not run compiled either
        return False


def _compiler_ready() -> bool:
    """Whether this process has compiled or loaded a kernel already (so numba's compiler is set
    up and loading another from the disk cache is cheap)."""
    return _ready_any[0] or _WATCH.functions > 0


def _on_disk(fn: Dispatcher, args: Sequence[Any]) -> bool:
    """:func:`_cached_on_disk`, asked once per function (it reads numba's index file)."""
    known = _disk.get(fn)
    if known is None:
        known = _disk[fn] = _cached_on_disk(fn, args)
    return known


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
    # keyed by the dispatcher itself, which the entry keeps alive: a key by id() would hand a
    # function defined later at the same address the twin of one garbage-collected since
    twin = _twins.get(fn)
    if twin is None:
        py = fn.py_func
        twin = types.FunctionType(
            py.__code__, _twin_globals(py.__globals__), py.__name__, py.__defaults__
        )
        _twins[fn] = twin
    return twin


def _twin_globals(namespace: dict[str, Any]) -> dict[str, Any]:
    """A copy of a module's globals in which compiled functions are their twins (one copy per
    module, made before it is filled so that functions calling each other resolve)."""
    entry = _module_globals.get(id(namespace))
    if entry is not None:  # its namespace is kept in it: no other can have taken its id
        return entry[1]
    copy = dict(namespace)
    _module_globals[id(namespace)] = (namespace, copy)
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


# --------------------------------------------------------------------------- models, pickled


class KernelModel:
    """Pickling for a frozen model whose arrays the kernels take read-only (:class:`geoik.Chain`,
    :class:`geoik.Robot`, :class:`geoik.Skeleton` and its limits): a copy (``pickle``,
    ``copy.deepcopy``; a model sent to a Dask worker or a process pool) has its arrays read-only
    again, as the original (pickle makes arrays writable, and a kernel compiled for read-only
    arrays is compiled a second time for writable ones: seconds for each solver), and leaves the
    model's cache of derived values behind (rebuilt on first use; it can hold what does not
    pickle, such as the solvers ``method="auto"`` chose)."""

    __slots__ = ()

    def __getstate__(self) -> dict[str, Any]:
        state = dict(self.__dict__)
        if "_cache" in state:
            state["_cache"] = {}
        return state

    def __setstate__(self, state: dict[str, Any]) -> None:
        for value in state.values():
            for item in value if isinstance(value, tuple) else (value,):
                if isinstance(item, np.ndarray):
                    item.setflags(write=False)
        self.__dict__.update(state)


# --------------------------------------------------------------------------- compiling, watched


@dataclass(frozen=True)
class CompileStats:
    """What compiling has cost this process so far.

    Attributes
    ----------
    functions : int
        geoik's compiled functions compiled (numba's disk cache did not hold them), each
        specialisation counted.
    seconds : float
        Wall time spent compiling them, from the start of each outermost compilation to its end
        (the numba functions a geoik function needs, compiled with it, included).
    """

    functions: int = 0
    seconds: float = 0.0


Report = Callable[[int, int, float], None]
"""``report(done, total, seconds)``: geoik functions compiled so far within the watch, how many
it looks like (``done`` plus those still to compile that the functions being compiled call; an
estimate that may grow), and the seconds spent compiling within the watch."""


class _Watch(event.Listener):
    """numba's compile events, counted for geoik's functions and passed on to the watchers."""

    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.local = threading.local()  # per thread: nesting depth and start of the outermost
        self.reports: list[Report] = []
        self.pending: dict[int, Dispatcher] = {}  # functions expected to compile, by id
        self.functions = 0
        self.seconds = 0.0
        self.window: tuple[float, float] | None = None  # compile_ahead: (start, seconds before)

    def on_start(self, ev: event.Event) -> None:
        depth = getattr(self.local, "depth", 0)
        self.local.depth = depth + 1
        fn = _geoik_function(ev)
        if depth == 0:
            self.local.t0 = time.perf_counter()
            self.local.ours = fn is not None
        if fn is not None and depth == 0:
            with self.lock:
                self.pending.update(_callees(fn))
            self._tell()

    def on_end(self, ev: event.Event) -> None:
        self.local.depth -= 1
        fn = _geoik_function(ev)
        with self.lock:
            if fn is not None:
                self.functions += 1
                self.pending.pop(id(fn), None)
            if self.local.depth == 0 and self.local.ours:
                self.seconds += time.perf_counter() - self.local.t0
        if fn is not None:
            self._tell()

    def _tell(self) -> None:
        with self.lock:
            # those loaded from the disk cache, or compiled, meanwhile are not to come
            for key in [k for k, f in self.pending.items() if f.signatures]:
                del self.pending[key]
            reports = list(self.reports)
            done, total = self.functions, self.functions + len(self.pending)
            seconds = self.seconds
            if self.window is not None:  # within compile_ahead, all of its time
                seconds = self.window[1] + time.perf_counter() - self.window[0]
            elif getattr(self.local, "depth", 0) > 0 and self.local.ours:
                seconds += time.perf_counter() - self.local.t0
        for report in reports:
            report(done, total, seconds)


def _geoik_function(ev: event.Event) -> Any:
    """The geoik dispatcher a compile event is about, or None (numba's own functions)."""
    fn = (ev.data or {}).get("dispatcher")
    module = getattr(getattr(fn, "py_func", None), "__module__", "") or ""
    return fn if module.split(".")[0] == "geoik" else None


def _callees(fn: Dispatcher) -> dict[int, Dispatcher]:
    """``fn`` and the not yet compiled geoik functions it reaches through its module's globals
    (by name, transitively), by id: an estimate of what compiling ``fn`` compiles. Functions
    inlined where they are called (``inline="always"``) are not compiled on their own: they are
    left out, and what they call is counted."""
    out: dict[int, Dispatcher] = {}
    seen: set[int] = set()
    todo = [fn]
    while todo:
        f = todo.pop()
        if id(f) in seen:
            continue
        seen.add(id(f))
        if f.targetoptions.get("inline", "never") != "always":
            out[id(f)] = f
        code, names = f.py_func.__code__, set()
        stack = [code]
        while stack:
            c = stack.pop()
            names.update(c.co_names)
            stack.extend(k for k in c.co_consts if isinstance(k, types.CodeType))
        for name in names:
            g = f.py_func.__globals__.get(name)
            if isinstance(g, Dispatcher) and not g.signatures:
                module = getattr(g.py_func, "__module__", "") or ""
                if module.split(".")[0] == "geoik":
                    todo.append(g)
    return out


_WATCH = _Watch()
event.register("numba:compile", _WATCH)


def _lock_cache_saves() -> bool:
    """Make numba's disk cache safe for processes that compile at once; whether it is.

    numba saves a compiled function into its disk cache by reading the function's index,
    choosing the first data file name the index does not use, and writing both. Two processes
    saving two signatures of one function at the same moment can choose the same data file, and
    the index then names one signature's code for the other's. Here each save holds an exclusive
    lock on one file in the cache's directory (``geoik-cache.lock``, POSIX ``flock``) from reading
    the index to writing the data, in every geoik process: :func:`compile_ahead`'s helper, and
    other geoik processes compiling at the same time (two commands, test workers). The lock
    files are the user's, in the system's temporary directory (:func:`_lock_path`), one per
    cache directory, so that nothing is added to the cache directories. Where the lock
    is not available (no ``fcntl``, or numba's cache class has changed) nothing is changed and
    False is returned: :func:`compile_ahead` then starts no helper."""
    try:
        import fcntl

        from numba.core.caching import IndexDataCacheFile
    except ImportError:
        return False
    save = IndexDataCacheFile.save
    if getattr(save, "geoik_locked", False):
        return True
    if "_cache_path" not in IndexDataCacheFile.__init__.__code__.co_names:
        return False  # not the class this was written for

    def locked(self: Any, key: Any, data: Any) -> Any:
        fd = _hold(fcntl, self._cache_path)
        try:
            return save(self, key, data)
        finally:
            if fd >= 0:
                os.close(fd)  # releases the lock

    locked.geoik_locked = True  # type: ignore[attr-defined]
    IndexDataCacheFile.save = locked
    return True


def _hold(fcntl: Any, key: str) -> int:
    """An exclusive ``flock`` on :func:`_lock_path` of ``key``, waited for: its file descriptor
    (closing it releases the lock), or -1 where the lock file cannot be made (no room: then the
    caller goes on unlocked, as numba does)."""
    fd = -1
    try:
        path = _lock_path(key)
        os.makedirs(os.path.dirname(path), mode=0o700, exist_ok=True)
        fd = os.open(path, os.O_RDWR | os.O_CREAT, 0o600)
        fcntl.flock(fd, fcntl.LOCK_EX)
    except OSError:
        if fd >= 0:
            os.close(fd)
        return -1
    return fd


def _lock_path(cache_path: str) -> str:
    """The lock file of the numba cache directory ``cache_path`` (see
    :func:`_lock_cache_saves`): in a directory of this user's in the system's temporary
    directory, named by a hash of the cache directory's path."""
    user = os.getuid() if hasattr(os, "getuid") else 0
    name = hashlib.sha1(os.path.abspath(cache_path).encode()).hexdigest()
    return os.path.join(tempfile.gettempdir(), f"geoik-cache-locks-{user}", name + ".lock")


_SAVES_LOCKED = _lock_cache_saves()


def _stamps_follow_imports() -> bool:
    """Make numba's disk cache of a geoik function stale when a geoik module its file imports
    changes, not only its own file; whether it is so.

    numba keys a cached function by its own source file alone, yet the machine code it saves
    holds every compiled function it calls, inlined or linked in, and the constants it reads,
    from whatever module they come from. Changing :mod:`geoik.solvers.analytic.finish` would
    leave :func:`geoik.solvers.analytic.redundant.held_solutions`, cached beside
    ``redundant.py``, running the old code until ``redundant.py`` itself changed. Here the stamp
    of a function whose file lies in this package is numba's (its file's content) together with
    :func:`_imports_digest` of that file: the content of every geoik module it imports, and
    theirs in turn. Functions of other packages keep numba's stamp. Where numba's locator
    class has changed nothing is changed and False is returned."""
    try:
        from numba.core import caching
    except ImportError:
        return False
    mixin: Any = getattr(caching, "_SourceFileBackedLocatorMixin", None)
    own = getattr(mixin, "get_source_stamp", None)
    if own is None or "_py_file" not in own.__code__.co_names:
        return False  # not the class this was written for
    if getattr(own, "geoik_imports", False):
        return True

    def stamp(self: Any) -> Any:
        base = own(self)
        path = os.path.abspath(self._py_file)
        if not path.startswith(_PACKAGE + os.sep):
            return base
        try:
            return base, _imports_digest(path)
        except OSError:  # a module that cannot be read: numba's stamp, as before
            return base

    stamp.geoik_imports = True  # type: ignore[attr-defined]
    mixin.get_source_stamp = stamp
    return True


_PACKAGE = os.path.dirname(os.path.abspath(__file__))
"""This package's directory: the files whose functions :func:`_stamps_follow_imports` stamps."""
_IMPORT = re.compile(
    r"^\s*(?:from\s+(geoik(?:\.\w+)*)\s+import\s+(\([^)]*\)|[^\n#]+)|import\s+(geoik(?:\.\w+)*))",
    re.MULTILINE,
)
_read: dict[str, tuple[bytes, tuple[str, ...]]] = {}
_digests: dict[str, bytes] = {}


@functools.cache
def _module_file(name: str) -> str | None:
    """The source file of the geoik module ``name`` (a module or a package), None if none."""
    base = os.path.join(os.path.dirname(_PACKAGE), *name.split("."))
    for path in (base + ".py", os.path.join(base, "__init__.py")):
        if os.path.isfile(path):
            return path
    return None


def _file_imports(path: str) -> tuple[bytes, tuple[str, ...]]:
    """A geoik file's content digest and the geoik modules' files it imports (``from geoik.x
    import y`` names ``geoik.x``, and ``geoik.x.y`` where that is a module), read once a
    process (a function's stamp is taken once, as its module is imported)."""
    known = _read.get(path)
    if known is not None:
        return known
    with open(path, "rb") as source:
        data = source.read()
    found = set()
    for module, names, plain in _IMPORT.findall(data.decode("utf-8", "replace")):
        if plain:
            found.add(plain)
            continue
        found.add(module)
        for name in re.sub(r"#[^\n]*", "", names).strip("()").replace("\n", " ").split(","):
            word = name.split(" as ")[0].strip()
            if word.isidentifier():
                found.add(f"{module}.{word}")
    files = tuple(sorted({p for m in found if (p := _module_file(m)) is not None} - {path}))
    _read[path] = known = (hashlib.sha256(data).digest(), files)
    return known


def _imports_digest(path: str) -> bytes:
    """One digest of the content of every geoik file ``path`` imports, directly or through
    the files it imports (its own excluded: numba's stamp holds it); once a process."""
    digest = _digests.get(path)
    if digest is not None:
        return digest
    seen = {path}
    todo = list(_file_imports(path)[1])
    while todo:
        f = todo.pop()
        if f not in seen:
            seen.add(f)
            todo.extend(_file_imports(f)[1])
    seen.discard(path)
    h = hashlib.sha256()
    for f in sorted(seen):
        h.update(os.path.relpath(f, _PACKAGE).encode())
        h.update(_file_imports(f)[0])
    _digests[path] = digest = h.digest()
    return digest


_STAMPS_FOLLOW_IMPORTS = _stamps_follow_imports()
_compiling = threading.local()  # depth of geoik's compiles in this thread (_lock_compiles)


def _lock_compiles() -> bool:
    """One process at a time compiles a geoik function into numba's disk cache; whether it is so.

    Processes that share the cache (test workers, two commands at once, :func:`compile_ahead`'s
    helper) would each compile a kernel they all need at the same moment, seconds to a minute
    each. Here a process compiling a cached geoik function holds an exclusive lock for it (POSIX
    ``flock`` on a file beside :func:`_lock_cache_saves`' lock, named by a hash of the
    function's cache index), so a second process waits, then finds it in the cache and loads it
    (numba looks there first). Only a compile that no other geoik compile in the thread
    encloses takes a lock (not the functions compiled inside it): a process never waits while
    holding one, so no two processes wait for each other. Where the lock is not available
    nothing is changed and False is returned."""
    try:
        import fcntl
    except ImportError:
        return False
    compile_ = Dispatcher.compile
    if getattr(compile_, "geoik_locked", False):
        return True

    def locked(self: Any, sig: Any) -> Any:
        depth = getattr(_compiling, "depth", 0)
        fd = -1
        if depth == 0 and self.py_func.__module__.startswith("geoik"):
            index = getattr(getattr(self._cache, "_cache_file", None), "_index_path", None)
            if isinstance(index, str):
                fd = _hold(fcntl, index)
        _compiling.depth = depth + 1
        try:
            return compile_(self, sig)
        finally:
            _compiling.depth = depth
            if fd >= 0:
                os.close(fd)  # releases the lock

    locked.geoik_locked = True  # type: ignore[attr-defined]
    Dispatcher.compile = locked
    return True


_COMPILES_LOCKED = _lock_compiles()


def parts(fn: Any, of: Callable[[tuple[Any, ...]], list[tuple[Any, Any]]]) -> None:
    """Declare that compiling ``fn`` for the argument types ``sig`` (a tuple of numba types)
    compiles the large functions ``of(sig)`` (``(function, argument types)`` pairs, none calling
    another), so that :func:`compile_ahead`, and :func:`call` when it compiles ``fn``, compile
    them first, on two cores, then ``fn``. A kernel that dispatches to two large kernels (3-D
    CCD: its lane kernel, or its escape kernel) compiles in about the time of the larger."""
    _parts[fn] = of


def compile_ahead(items: Sequence[tuple[Any, Any]], helper: bool = True) -> None:
    """Compile each ``(function, argument types)`` of ``items`` that is neither compiled in this
    process nor in numba's disk cache, before it is first called, on two cores.

    numba compiles one function at a time, in one thread: a command that needs several kernels
    (a map compiles its solver's kernel and the engine that runs it, a comparison one kernel per
    solver) would wait for each in turn on one core. With ``helper`` (and two cores or more, and
    two items or more to compile; and where numba's cache saves can be locked, see
    :func:`_lock_cache_saves`), a second Python process compiles items too, into numba's disk
    cache: this process takes them from the front of ``items`` and the helper from the back, each
    the next one the other has not taken, until they meet; then this process loads the helper's
    from the disk cache. Whatever the helper fails to compile (it ended, or numba's cache is
    off), this process compiles itself: the results never depend on the helper.

    The time spent here, waiting for the helper included, counts as compiling in
    :func:`compile_stats` and :func:`watching`, and the helper's functions count with this
    process's. Does nothing in the ``"interpreted"`` and ``"no-compile"`` modes (:func:`mode`).
    """
    if _mode.value in _NO_READY:
        return
    shared = [(b, wanted) for b in list(_behind) if (wanted := _wanted(b.items, items))]
    if shared:  # compiling_behind's helper holds some: share its list, do not compile twice
        with _compiling_window():
            for behind, wanted in shared:
                behind.share_until(wanted)
    first = [p for fn, sig in items if fn in _parts and not _has(fn, sig) for p in _parts[fn](sig)]
    if first:  # the parts declared by parts(), then what calls them
        compile_ahead(first, helper)
    todo = _missing(items)
    if not todo:
        return
    with _compiling_window():
        busy = any(b.running() for b in _behind)  # it has the other core
        parallel = helper and _SAVES_LOCKED and len(todo) > 1 and _cores() > 1 and not busy
        child = _Helper.start(todo) if parallel else None
        if child is None:
            for fn, sig in todo:
                fn.compile(sig)
            return
        try:
            while (i := child.claim_front()) is not None:
                todo[i][0].compile(todo[i][1])
            child.finish()
        finally:
            child.close()
        for fn, sig in todo:  # the helper's, from the disk cache (or compiled here if it failed)
            fn.compile(sig)


@contextlib.contextmanager
def _compiling_window() -> Iterator[None]:
    """Within the block (the outermost one, in this process), wall time counts as compiling in
    :func:`compile_stats`, waiting for a helper included."""
    with _WATCH.lock:
        outer = _WATCH.window is None
        if outer:
            _WATCH.window = (time.perf_counter(), _WATCH.seconds)
    try:
        yield
    finally:
        if outer:
            with _WATCH.lock:
                assert _WATCH.window is not None
                start, before = _WATCH.window
                _WATCH.window = None
                _WATCH.seconds = before + time.perf_counter() - start
            _WATCH._tell()


def _wanted(theirs: list[tuple[Any, Any]], items: Sequence[tuple[Any, Any]]) -> set[int]:
    """The indices, in a helper's list ``theirs``, of the ``items`` it holds."""
    return {i for i, item in enumerate(theirs) if item in items}


_behind: list[_Helper] = []  # compiling_behind's helpers, while they run


@contextlib.contextmanager
def compiling_behind(items: Sequence[tuple[Any, Any]], helper: bool = True) -> Iterator[None]:
    """Within the block, a helper process compiles ``items`` (``(function, argument types)``
    pairs, the first needed first) into numba's disk cache while this process does other work:
    a command of several steps (the reproductions) has the kernels of its later steps compiled
    during the earlier ones, on the other core. This process loads each from the disk cache when
    it first needs it. When :func:`compile_ahead` is asked for some of ``items``, those the
    helper is compiling are waited for rather than compiled twice; meanwhile this process
    compiles the helper's next items itself, from the same end of the list (so that neither
    compiles one the other has taken, and no core idles), and the helper goes on with the rest.
    On leaving the block the helper is stopped, the work in its hands dropped. The helper's
    functions count in :func:`compile_stats`; its time does not (this process did not wait for
    it). Nothing is started where :func:`compile_ahead` would start no helper."""
    todo: list[tuple[Any, Any]] = []
    if helper and _mode.value not in _NO_READY and _SAVES_LOCKED and _cores() > 1:
        todo = _missing(items)
    child = _Helper.start(todo[::-1]) if todo else None  # it takes them from the back
    if child is None:
        yield
        return
    _behind.append(child)
    try:
        yield
    finally:
        _behind.remove(child)
        child.close()


class Helper:
    """A helper process that runs a list of calls from its back while this process takes them
    from its front (:func:`helper_for`): neither takes one the other has taken.

    Each call is a plain function of a module and the tuple of arguments it is called with, in
    ``"compiled"`` mode: what it compiles goes into numba's disk cache, from which this process
    then loads it in milliseconds."""

    def __init__(self, child: _Helper) -> None:
        self._child = child
        _helpers.add(child)  # stopped at exit, if still running

    def claim(self, i: int) -> bool:
        """Take call ``i`` for this process: True unless the helper has taken it (then wait
        for it with :meth:`wait_for` before running it here, which loads what it compiled).
        Only the front one can be taken from the helper; a call further back that the helper
        has not reached yet is run by both processes, the later one loading from the cache."""
        with self._child.lock:
            if i > self._child.back:
                return False
            if i == self._child.front:
                self._child.front += 1
            return True

    def taken(self, i: int) -> bool:
        """Whether the helper has taken call ``i`` (it may still be running it)."""
        with self._child.lock:
            return i > self._child.back

    def wait_for(self, i: int) -> None:
        """Wait until the helper has ended call ``i`` (or has ended)."""
        with self._child.lock:
            while i in self._child.busy and not self._child.ended:
                self._child.lock.wait(0.5)

    def close(self) -> None:
        """Stop the helper at once, the call in its hands dropped."""
        _helpers.discard(self._child)
        self._child.close()


_helpers: set[_Helper] = set()  # Helper's processes, while they run


def helper_for(calls: Sequence[tuple[Callable[..., Any], tuple[Any, ...]]]) -> Helper | None:
    """A :class:`Helper` started on ``calls`` (``(function, arguments)`` pairs, the first
    needed first), or None where :func:`compile_ahead` would start no helper (one core, no lock
    on numba's cache saves, fewer than two calls) or it could not start."""
    if len(calls) < 2 or _mode.value in _NO_READY or not (_SAVES_LOCKED and _cores() > 1):
        return None
    child = _Helper.start(list(calls))
    return None if child is None else Helper(child)


def _missing(items: Sequence[tuple[Any, Any]]) -> list[tuple[Any, Any]]:
    """The compiled functions of ``items``, each once, that are neither compiled in this
    process for their types nor in numba's disk cache (:func:`_has`)."""
    todo: list[tuple[Any, Any]] = []
    for fn, sig in items:
        if isinstance(fn, Dispatcher) and (fn, sig) not in todo and not _has(fn, sig):
            todo.append((fn, sig))
    return todo


def _has(fn: Dispatcher, sig: Any) -> bool:
    """Whether ``fn`` is compiled in this process for ``sig``, or numba's disk cache holds it
    (read through numba's internal API; if that changes, the answer is False)."""
    try:
        from numba.core import sigutils

        args, _ = sigutils.normalize_signature(sig)
        if tuple(args) in fn.overloads:
            return True
        cache = fn._cache
        key = cache._index_key(sig, fn.targetctx.codegen())
        return key in cache._cache_file._load_index()
    except Exception:
        return False


def _cores() -> int:
    """The cores this process may run on."""
    try:
        return len(os.sched_getaffinity(0))
    except (AttributeError, OSError):
        return os.cpu_count() or 1


class _Helper:
    """The second process of :func:`compile_ahead` and the two ends of its list. The helper asks
    for an item (``next``), is given the last one not yet taken by either process (or ``stop``),
    compiles it and says so (``done i functions``); this side answers from a thread."""

    def __init__(self, proc: subprocess.Popen[bytes], items: list[tuple[Any, Any]]) -> None:
        self.proc = proc
        self.items = items  # what it was given, in its order
        self.lock = threading.Condition()
        self.front, self.back = 0, len(items) - 1
        self.busy: set[int] = set()  # items the helper is compiling
        self.done: set[int] = set()  # items the helper has ended
        self.here: set[int] = set()  # items this process took from the helper's end and ended
        self.ended = False
        self.thread = threading.Thread(target=self._serve, daemon=True)
        self.thread.start()

    @classmethod
    def start(cls, todo: list[tuple[Any, Any]]) -> _Helper | None:
        """The helper, started on ``todo`` (None if it cannot be: a function that its module
        does not name, or no process could start). An item is a compiled function and its
        argument types, or a plain function of a module and a tuple of arguments it is called
        with, kernels compiled (:func:`helper_for`)."""
        names = []
        for fn, sig in todo:
            plain = getattr(fn, "py_func", fn)
            module, name = plain.__module__, plain.__qualname__
            if getattr(sys.modules.get(module), name, None) is not fn:
                return None
            names.append((module, name, sig))
        try:
            payload = pickle.dumps(names)
            proc = subprocess.Popen(
                [sys.executable, "-c", "from geoik.jit import _helper_main; _helper_main()"],
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                stderr=subprocess.DEVNULL,
            )
            assert proc.stdin is not None
            proc.stdin.write(len(payload).to_bytes(8, "little") + payload)
            proc.stdin.flush()
        except (OSError, pickle.PicklingError, ValueError):
            return None
        return cls(proc, list(todo))

    def running(self) -> bool:
        """Whether the helper still has items to take or in hand."""
        with self.lock:
            return not self.ended and (self.back >= self.front or bool(self.busy))

    def claim_front(self) -> int | None:
        """The next item for this process, or None when none is left."""
        with self.lock:
            if self.front > self.back:
                return None
            self.front += 1
            return self.front - 1

    def share_until(self, wanted: set[int]) -> None:
        """Until the items ``wanted`` have ended (compiled by the helper or here): rather than
        wait idle while the helper compiles one of them, compile here the next item it has not
        taken, from its end of the list (:func:`compiling_behind`'s: the next one needed), and
        leave it the rest. Its other items stay its own. If it ends, this stops waiting: what
        is missing is then compiled as usual."""
        while True:
            with self.lock:
                if self.ended or wanted <= self.done | self.here:
                    return
                mine = self.back >= self.front
                if mine:
                    i, self.back = self.back, self.back - 1
                else:
                    self.lock.wait(0.5)
            if not mine:
                _WATCH._tell()
                continue
            fn, sig = self.items[i]
            fn.compile(sig)  # loaded, if the disk cache has it meanwhile
            with self.lock:
                self.here.add(i)

    def finish(self) -> None:
        """Wait until the helper has ended the items it took (or has ended)."""
        with self.lock:
            while self.busy and not self.ended:
                self.lock.wait(0.5)
                _WATCH._tell()

    def close(self) -> None:
        """Stop the helper at once: after :meth:`finish` it has nothing in hand (it may still
        be starting, with nothing to lose), and on an interruption its work is dropped (numba
        writes each cache file whole, under the lock, which ends with the process)."""
        with self.lock:
            self.back = self.front - 1  # nothing more for it
        _stop_process(self.proc, self.thread)

    def _serve(self) -> None:
        assert self.proc.stdout is not None and self.proc.stdin is not None
        try:
            for line in self.proc.stdout:
                words = line.split()
                if words == [b"next"]:
                    with self.lock:
                        if self.back >= self.front:
                            i, self.back = self.back, self.back - 1
                            self.busy.add(i)
                        else:
                            i = -1
                    self.proc.stdin.write(b"stop\n" if i < 0 else b"%d\n" % i)
                    self.proc.stdin.flush()
                elif len(words) == 3 and words[0] == b"done":
                    with _WATCH.lock:  # counted before the call is seen to have ended
                        _WATCH.functions += int(words[2])
                    with self.lock:
                        self.busy.discard(int(words[1]))
                        self.done.add(int(words[1]))
                        self.lock.notify_all()
                    _WATCH._tell()
        except (OSError, ValueError):
            pass
        finally:
            with self.lock:
                self.ended = True
                self.lock.notify_all()


def _stop_process(proc: subprocess.Popen[bytes], reader: threading.Thread | None = None) -> None:
    """End a helper process at once: its standard input closed, killed if still running,
    waited for; then ``reader`` (the thread reading its output, which ends with it) joined and
    its standard output closed."""
    with contextlib.suppress(OSError, ValueError):
        assert proc.stdin is not None
        proc.stdin.close()
    if proc.poll() is None:
        proc.kill()
    proc.wait()
    if reader is not None:
        reader.join(5)
    with contextlib.suppress(OSError, ValueError):
        assert proc.stdout is not None
        proc.stdout.close()


def _helper_main() -> None:
    """The helper process of :func:`compile_ahead` (standard input and output: see
    :class:`_Helper`)."""
    inp, out = sys.stdin.buffer, sys.stdout.buffer
    size = int.from_bytes(inp.read(8), "little")
    names = pickle.loads(inp.read(size))
    while True:
        out.write(b"next\n")
        out.flush()
        line = inp.readline().strip()
        if not line or line == b"stop":
            return
        i = int(line)
        module, name, sig = names[i]
        before = compile_stats().functions
        try:
            fn: Any = importlib.import_module(module)
            for part in name.split("."):
                fn = getattr(fn, part)
            if isinstance(fn, Dispatcher):
                compile_ahead([(fn, sig)], helper=False)  # its parts() first, each under its lock
            else:
                with mode("compiled"):
                    fn(*sig)
        except Exception:  # this process compiles it then
            pass
        out.write(b"done %d %d\n" % (i, compile_stats().functions - before))
        out.flush()


def compile_stats() -> CompileStats:
    """What compiling geoik's functions has cost this process so far (see :class:`CompileStats`);
    the difference of two calls is what the work between them compiled."""
    with _WATCH.lock:
        return CompileStats(_WATCH.functions, _WATCH.seconds)


@contextlib.contextmanager
def watching(report: Report) -> Iterator[None]:
    """Within the block, call ``report(done, total, seconds)`` (:data:`Report`) whenever one of
    geoik's functions starts compiling at the outermost level or finishes compiling, in any
    thread. Nothing is reported while everything needed is compiled or in numba's disk cache."""
    base = compile_stats()

    def relative(done: int, total: int, seconds: float) -> None:
        report(done - base.functions, total - base.functions, seconds - base.seconds)

    with _WATCH.lock:
        _WATCH.reports.append(relative)
    try:
        yield
    finally:
        with _WATCH.lock:
            _WATCH.reports.remove(relative)
