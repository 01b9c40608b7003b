"""Sharing work among numba's threads the way OpenMP's dynamic schedule does.

A compiled engine runs one task per thread (``for _ in prange(threads)``); each thread then
takes chunks of the work one after another from a shared counter with :func:`take`, so a thread
slowed down by other work on the machine simply takes fewer chunks, and the threads meet only
once, at the end of the engine's call::

    counter = np.zeros(1, np.int64)
    for _ in prange(threads):
        c = take(counter)
        while c < chunks:
            ...  # chunk c
            c = take(counter)

numba's own ``prange`` splits its range into one block per thread before the loop starts, so a
thread that is descheduled for a while holds up the whole call.
"""

from __future__ import annotations

from numba import types
from numba.core import cgutils
from numba.extending import intrinsic

__all__ = ["take"]


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
