"""The stop test and keyframe recording the iterative chain solvers share.

Every iterative kernel (``ccd``'s one-target 3-D kernel, ``dls`` and ``fabrik``, in 2-D and 3-D)
ends each iteration the same way: it appends the new pose to its keyframes while there is room
(:func:`record`), then asks :func:`verdict` whether the run is over and with which status::

    nrec = record(rec, nrec, angles)
    code = verdict(end, target, outer, tol2, out_of_reach, still)
    if code != GO:
        return code, it, nrec

The order of the tests is the contract of every chain kernel: REACHED within ``tol`` of the
target, else CLOSEST within ``tol`` of the closest reachable point when the target is out of
reach, else STALLED when the iteration moved nothing, else go on (MAX_ITERATIONS once the budget
is spent). Both are plain loops over arrays, compiled into the kernels that call them.
"""

from __future__ import annotations

from numba import njit

from geoik.geometry import CLOSEST, REACHED, STALLED, copy_into, dist2

__all__ = ["GO", "record", "verdict"]

GO = -1
"""What :func:`verdict` returns while the run goes on (no status has that code)."""


@njit(cache=True, inline="always")
def record(rec, nrec, state):
    """Append ``state`` to the keyframes ``rec`` while there is room.

    Parameters
    ----------
    rec : (cap, n) relative angles (radians) or (cap, n, 4) local rotations (unit quaternions);
        a buffer of one row records nothing past the start pose its caller wrote.
    nrec : int, rows of ``rec`` used so far.
    state : (n,) or (n, 4), the pose to record, of ``rec``'s row shape.

    Returns
    -------
    int
        The rows used now: ``nrec + 1``, or ``nrec`` when ``rec`` is full.
    """
    if nrec < rec.shape[0]:
        copy_into(rec[nrec], state)
        return nrec + 1
    return nrec


@njit(cache=True, inline="always")
def verdict(end, target, outer, tol2, out_of_reach, still):
    """How a run stands after an iteration.

    Parameters
    ----------
    end, target : (d,) the end effector and the target, in the chain's length unit.
    outer : (d,) the closest reachable point, read only when ``out_of_reach`` (it may hold
        anything otherwise).
    tol2 : float, the squared tolerance (length unit^2).
    out_of_reach : bool, whether the closest reachable point is a goal (the target is beyond
        reach, or the chain was folded towards it).
    still : bool, whether the iteration moved nothing (by the solver's own measure).

    Returns
    -------
    int
        REACHED, CLOSEST or STALLED (:mod:`geoik.geometry`'s codes) in that order of
        precedence, else :data:`GO`.
    """
    if dist2(end, target) <= tol2:
        return REACHED
    if out_of_reach and dist2(end, outer) <= tol2:
        return CLOSEST
    if still:
        return STALLED
    return GO
