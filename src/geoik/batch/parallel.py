"""Sharing work among threads the way OpenMP's dynamic schedule does.

An engine is a compiled function that releases the GIL (``nogil=True``) and takes chunks of the
work one after another from a counter shared by every thread with :func:`take`, until none is
left; :func:`run_threads` runs it in as many threads at once as numba would use, the calling
thread among them. A thread slowed down by other work on the machine simply takes fewer chunks,
and the threads meet only once, at the end::

    @njit(nogil=True, cache=True)
    def engine(counter, ...):
        c = take(counter)
        while c < chunks:
            ...  # chunk c
            c = take(counter)

    counter = np.zeros(1, np.int64)
    run_threads(lambda: engine(counter, ...), threads())

Python threads rather than numba's ``prange``: a ``parallel=True`` function costs seconds more
to compile (its loop is outlined into a kernel of its own, and the whole call tree is optimised
again with it) and loading it starts numba's threading layer; and ``prange`` splits its range
into one block per thread before the loop starts, so a thread that is descheduled for a while
holds up the whole call.
"""

from __future__ import annotations

import concurrent.futures
import functools
import threading
from collections.abc import Callable
from typing import Any

from numba import config, types
from numba.core import cgutils
from numba.extending import intrinsic

__all__ = ["compiled", "end_threads", "run_threads", "take", "threads"]

_pool: list[concurrent.futures.ThreadPoolExecutor] = []
_pool_lock = threading.Lock()


def threads() -> int:
    """How many threads the engines use: numba's (``numba.set_num_threads``, the environment's
    ``NUMBA_NUM_THREADS``, else every core). Asked of numba only once its threading layer runs,
    since asking starts it."""
    from numba.np.ufunc import parallel

    if parallel._is_initialized:
        from numba import get_num_threads

        return int(get_num_threads())
    return int(config.NUMBA_NUM_THREADS)


def run_threads(work: Callable[[], None], count: int) -> None:
    """Run ``work()`` in ``count`` threads at once, the calling thread one of them, and return
    when all have returned. ``work`` is a compiled engine's call: it releases the GIL, and the
    threads share its chunks through :func:`take`."""
    if count <= 1:
        work()
        return
    with _pool_lock:
        if not _pool or _pool[0]._max_workers < count - 1:
            if _pool:
                _pool.pop().shutdown(wait=False)
            _pool.append(
                concurrent.futures.ThreadPoolExecutor(count - 1, thread_name_prefix="geoik-engine")
            )
        pool = _pool[0]
    helpers = [pool.submit(work) for _ in range(count - 1)]
    work()
    for helper in helpers:
        helper.result()


def end_threads() -> None:
    """End the threads :func:`run_threads` keeps for later runs (idle between runs), so that a
    process can exit at once (:func:`geoik.commands.cli.run`); a later run starts new ones."""
    with _pool_lock:
        while _pool:
            _pool.pop().shutdown(wait=True)


@intrinsic
def take(typingctx, counter):
    """``counter[0] += 1`` as one atomic step, from compiled code; returns the value before."""
    sig = types.int64(counter)

    def codegen(context, builder, signature, args):
        ary = context.make_array(signature.args[0])(context, builder, args[0])
        ptr = cgutils.get_item_pointer(
            context, builder, signature.args[0], ary, [cgutils.intp_t(0)]
        )
        return builder.atomic_rmw("add", ptr, cgutils.intp_t(1), "monotonic")

    return sig, codegen


@functools.cache
def compiled(kernel: Any, kernel_types: Any, engine: Any, signature: Any) -> Any:
    """``kernel`` compiled for ``kernel_types`` and ``engine`` for ``signature`` and nothing
    else (once; numba caches both on disk, each in its own file's cache, so a changed kernel is
    never run through a stale engine): every kernel, whatever its own type, is passed to the
    engine as the first-class function type of the signature. Returns ``kernel``."""
    kernel.compile(kernel_types)
    if not engine.signatures:
        engine.compile(signature)
    # also when compile_ahead compiled it: a call never adds a specialisation
    engine.disable_compile()
    return kernel
