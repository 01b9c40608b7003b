"""7-joint arms: one joint held, the six others in closed form, the held joint searched.

A 7R arm whose first or last joint, held, leaves a 6R chain with a closed form (the Franka
Panda, the xArm7) is solved without decomposing anew at each value of the held joint: the
six-joint chain is the one with the held joint at 0 (:class:`.decompose.Plan`, packed once by
:func:`.finish.pack`), and the held joint's value ``v`` moves the goal instead. With
``X(v)`` the turn by ``-v`` about the held joint's axis,

- the last joint held: ``T_7(q, v) = T_6(q) M^-1 e^{xi_7 v} M``, so the six joints solve the
  goal ``T_goal X_tip(v)``, ``X_tip`` the turn about the axis in the tip's frame at the zero
  configuration (``a = R_tip^T h_7`` through ``c = R_tip^T (o_7 - tip)``);
- the first joint held: the goal is turned back, ``X_base(v) T_goal``, about ``h_1`` through
  ``o_1``.

:func:`held_solutions` is one compiled call: every solution at a given value, or, with the value
NaN, a search of the held joint for the solution nearest the start. Each value tried is judged
by the family's candidates alone (no polish, no sort): the squared distance from the start of
the nearest candidate within the limits.

The search first solves all seven joints locally from the start (:func:`_local`: Gauss-Newton steps
that meet the linearised pose as near the start as they can). Where the start lies near a solution
(a moving target followed), this lands on the nearest one, also near a singularity of the six
joints, where it lies in a window of the held joint's values narrower than any grid's step; its
held value is the seed (:func:`_edge`: at a fold, where the held joint turns back along the
solutions, or with a joint at its limit, the closed form meets that branch only on one side of the
value, and the value is bisected towards the branch's edge from there; so too when the steps end
unsettled within :data:`_LOCAL_NEARLY` of the pose, as they can beside a joint's limit). Where
the steps stall, within :data:`_LOCAL_NEARLY` of the pose or with the start's own pose near the
goal (a target followed), the start's branch is also followed across nearby values of the held
joint (:func:`_follow_branch`): beside a singularity of the six other joints (the Panda's elbow
stretched to its limit) two of them swing fast as the held joint turns, and the nearest solution
lies in a window of its values narrower than any grid's step; where the branch ends between two
values followed (a fold, a joint's limit), its edge is bisected, as the distance from the start
can fall steeply towards it. Then the start's value is tried, then (without a seed, or after a
stall near the pose) values at growing offsets from it, then :data:`SAMPLES` values evenly across
the joint's limits, outward from the start's; a value farther from the start's than the best
distance found is skipped (its own term alone exceeds it, so a good seed leaves little to try).
Unless the best value is that of a settled local solve, successive parabolic interpolation refines
it within a grid step and the local solve runs again from its nearest candidate; the full solve
(polished, checked by forward kinematics, sorted) runs at the value found. Where the first local
solve ended on a solution (within the tolerances, by the seven joints' forward kinematics) nearer
the start than the full solve's nearest, that solution comes first, with the full solve's rows at
its held value after it (:func:`_with_local`): near a fold the closed form can put the target a
micrometre beyond the six joints' reach there and lose that branch. When the coarse grid finds
nothing within the limits, a grid of :data:`FINE_SAMPLES` follows; when that finds nothing either,
the coarse value whose answer comes nearest (solutions outside the limits, else the nearest
least-squares candidate) is kept. From a start far from every solution, a nearer solution in a
window of the held joint between two grid values can be missed (another, farther one is returned).

The search's steps that :func:`held_solutions` calls once or twice (:func:`_scan`,
:func:`_refine`, :func:`_edge`, :func:`_follow_branch`, :func:`_with_local`) are inlined into
it: numba links every compiled function's callees into it and optimises them again, so each of
them compiled on its own repeated the closed form's optimisation and machine code (measured: the
kernel's first compile 37-43 s before, 34-36 s after, with the same speed). :func:`_solve_at`,
the full solve at one value, is compiled once on its own instead: it is called from six places
(here, in :func:`held_sweep` and in the inlined steps), and inlined at each it was typed six
times (measured: compiling both kernels for their three call forms took 14.8 s inlined, 11.7 s
not; the solves and sweeps ran as fast). Both kernels declare it as a part
(:func:`geoik.jit.parts`): compiled at once in two processes (a solve's helper and a sweep's),
it is compiled by one of them, under its lock, and loaded by the other.
"""

from __future__ import annotations

import math

import numpy as np
from numba import njit, types

from geoik.geometry import copy_into, wrap
from geoik.jit import parts, slow_to_compile
from geoik.solvers.analytic.algebra import mm, mmt, mv, rot, start_term
from geoik.solvers.analytic.families import MAX_SOLUTIONS, NEAR_SIZE, solve_6r_closed
from geoik.solvers.analytic.finish import (
    OUT_COLUMNS,
    _errors,
    _gauss,
    _into_limits,
    chain_goal,
    chain_size,
    forward,
    goal_error,
    jacobian,
    solve_goal_closed,
    tip_at_zero,
    tuple9,
)
from geoik.solvers.analytic.polish import column9, forward_many
from geoik.solvers.analytic.subproblems import LEAST_SQUARES

__all__ = [
    "FINE_SAMPLES",
    "HELD_SIZE",
    "SAMPLES",
    "held_goal",
    "held_solutions",
    "held_sweep",
    "pack_held",
]

SAMPLES = 16
"""Values of the held joint the search scans, evenly across its limits (after the start's)."""
FINE_SAMPLES = 8 * SAMPLES
"""Values the search scans when none of the coarse ones has a solution within the limits."""
HELD_SIZE = 10
"""Length of a packed held joint's head (:func:`pack_held`); the arm's chain follows it."""
_LADDER = 0.02
"""The first offset (radians) from the start's value of the held joint that the search tries
before its grid."""
_REFINE = 6
"""Evaluations of the refinement around the best sample."""
_LOCAL_STEPS = 14
"""Gauss-Newton steps of the local solve from the start (:func:`_local`), at most."""
_LOCAL_STILL = 1e-7
"""The local solve stops when no joint moves by more than this (radians) in a step: the held
joint's value is then known far more finely than the search needs (the closed form at that
value gives the exact solutions)."""
_LOCAL_CHECK = 3
"""From this many steps on, the local solve gives up when the pose is still :data:`_LOCAL_FAR`
away and its error fell by less than :data:`_LOCAL_RATE` in the last step: from a start near a
solution the steps converge quadratically, or, where the nearest solution lies at a fold of the
held joint (the six joints singular there, the start's value of the held joint beyond it), at
least linearly (the error falling by about 4 a step); from a start far from every solution they
do not converge."""
_LOCAL_FAR = 1e-4
"""Pose error (radians, plus metres over the arm's size) beyond which the local solve may give
up (:data:`_LOCAL_CHECK`)."""
_LOCAL_RATE = 0.5
"""The factor by which the local solve's pose error must fall in each step after
:data:`_LOCAL_CHECK` steps while it is beyond :data:`_LOCAL_FAR`."""
_LOCAL_NEAR = 1e-10
"""Pose error (radians, plus metres over the arm's size) within which, after
:data:`_LOCAL_CHECK` steps, the local solve's joint values are taken as a solution (the closed
form at their held value gives the exact ones): near a fold the steps along the solutions
settle slowly."""
_EDGE = 1e-3
"""How far (radians) past an edge of a branch the search looks for the branch (:func:`_edge`)."""
_EDGE_FAR = 1e-2
"""How far (radians) past an edge of a branch the search looks for the branch at most, from
:data:`_EDGE` threefold (an unsettled local solve can end that far beyond a fold)."""
_EDGE_STEPS = 24
"""Halvings of the bisection towards an edge of a branch (:func:`_edge`): to ~6e-11 rad."""
_BRANCH = 0.1
"""Two candidates within this (radians, every joint) of each other are one branch."""
_LOCAL_MOVE = 0.5
"""Largest turn of a joint (radians) in one step of the local solve."""
_LOCAL_DAMPING = 1e-12
"""Damping (squared, in the units of the Jacobian's rows) of the local solve's steps."""
_LOCAL_NEARLY = 1e-2
"""Pose error (radians; metres per metre of the arm's size) within which an unsettled local
solve's answer is taken as near a solution, its branch sought by :func:`_edge`."""
_FOLLOWED = 0.1
"""Pose error of the start (radians; metres per metre of the arm's size) within which a stalled
local solve has the start's branch followed (:func:`_follow_branch`): a target followed (so
too a local solve that stalled within :data:`_LOCAL_NEARLY` of the pose)."""
_WINDOW = 0.25
"""Radians of the held joint, each way from the start's, over which the start's branch is
followed (:func:`_follow_branch`)."""
_WINDOW_STEPS = 6
"""Values tried each way in :data:`_WINDOW`."""
_WINDOW_GOLDEN = 12
"""Golden-section steps (one value each) about the nearest of them."""
_SAME_LOCAL = 1e-6
"""Radians per joint within which a closed-form row is the local solve's solution."""


def pack_held(
    joint: int, H: np.ndarray, P: np.ndarray, R_tip: np.ndarray, lo: float, hi: float
) -> np.ndarray:
    """The held joint and the arm as one float64 array, the second argument of
    :func:`held_solutions`: the held joint's index (0 or 6), its axis and a point on it (the
    last joint: in the tip's frame at the zero configuration; the first: in the base frame),
    its limits (radians; +-inf when continuous), the number of joints ``n``; then the whole
    chain, ``H`` (n, 3), ``P`` (n + 1, 3) and ``R_tip`` (3, 3), row by row (the search's
    local solve from the start, :func:`_local`). ``H``, ``P``, ``R_tip``: the 7R chain in
    product-of-exponentials form (:mod:`geoik.robots.poe`)."""
    if joint == 0:
        axis, point = H[0], P[0]
    else:
        tip = P.sum(axis=0)
        axis = R_tip.T @ H[-1]
        point = R_tip.T @ (P[:-1].sum(axis=0) - tip)
    head = [float(joint), *axis, *point, lo, hi, float(H.shape[0])]
    out = np.concatenate([head, H.ravel(), P.ravel(), R_tip.ravel()]).astype(np.float64)
    out.setflags(write=False)
    return out


@njit(cache=True)
def held_goal(held, Rg, pg, v):
    """The six joints' goal (9-tuple rotation, 3-tuple position) with the held joint at ``v``
    radians, from the 7R arm's goal ``Rg``, ``pg``."""
    axis = (held[1], held[2], held[3])
    c = (held[4], held[5], held[6])
    turn = rot(axis, -v)
    if held[0] == 0.0:  # X_base(v) T_goal
        r = mm(turn, Rg)
        d = mv(turn, (pg[0] - c[0], pg[1] - c[1], pg[2] - c[2]))
        return r, (c[0] + d[0], c[1] + d[1], c[2] + d[2])
    tc = mv(turn, c)  # T_goal X_tip(v)
    d = mv(Rg, (c[0] - tc[0], c[1] - tc[1], c[2] - tc[2]))
    return mm(Rg, turn), (pg[0] + d[0], pg[1] + d[1], pg[2] + d[2])


@njit(cache=True, inline="always")
def _arm(held):
    """The 7R arm of a packed held joint (:func:`pack_held`): its axes ``H`` (7, 3), offsets
    ``P`` (8, 3) and the tip's rotation at the zero configuration ``R_tip`` (3, 3)."""
    return held[10:31].reshape((7, 3)), held[31:55].reshape((8, 3)), held[55:64].reshape((3, 3))


@njit(cache=True, inline="always")
def _candidates(problem, v, work):
    """The family's candidates for the six joints with the held joint at ``v`` (radians), in
    the order and signs of the chain as solved, into ``work`` (``(cand, cflags, two, four3, near)``,
    :func:`.families.solve_6r_closed`'s outputs and scratch); returns their count.
    ``problem`` as :func:`_nearest` takes it."""
    model, held, goal, _ = problem
    Rg, pg = goal
    H = model[2:20].reshape((6, 3))
    P = model[20:41].reshape((7, 3))
    points = model[50:56].reshape((2, 3))
    r6, p6 = held_goal(held, Rg, pg, v)
    _, g_pos, R06 = chain_goal(model, r6, p6)
    return solve_6r_closed(int(model[0]), (H, P, points), (R06, g_pos), tip_at_zero(P), work)


@njit(cache=True, inline="always")
def _start_distance(problem, v, work, c, bound):
    """The squared distance (radians squared) from ``start`` of candidate ``c`` of ``work``
    (:func:`_candidates`) with the held joint at ``v``, each joint's value the turn within its
    limits nearest the start's (:func:`.algebra.start_term`; inf when no turn is within
    them), summed until it reaches ``bound`` (then it is at least ``bound``). ``problem`` as
    :func:`_nearest` takes it."""
    model, held, _, start = problem
    cand = work[0]
    j = int(held[0])
    lo = model[56:62]
    hi = model[62:68]
    reverse = model[1] != 0.0
    dist = _held_term(problem, v)
    for i in range(6):
        x = wrap(-cand[c, 5 - i] if reverse else cand[c, i])
        t = start_term(x, lo[i], hi[i], start[i + 1 if i >= j else i])
        if t != t:
            return np.inf
        dist += t
        if dist >= bound:
            break
    return dist


@njit(cache=True, inline="always")
def _held_term(problem, v):
    """The held joint's squared distance (radians squared) from ``start`` at ``v`` (wrapped
    for a continuous joint). ``problem`` as :func:`_nearest` takes it."""
    _, held, _, start = problem
    dv = v - start[int(held[0])]
    if held[7] == -np.inf:
        dv = wrap(dv)
    return dv * dv


@njit(cache=True, inline="always")
def _near_start(problem):
    """The ``near`` array of :func:`.families.solve_6r_closed`'s ``work`` for ``problem``: no
    bound yet (NaN), then, for each of the three joints that place the wrist centre, its sign,
    limits and start value, in the chain as solved (:func:`_nearest` sets the bound for its own
    calls)."""
    model, held, _, start = problem
    j = int(held[0])
    reverse = model[1] != 0.0
    near = np.full(NEAR_SIZE, np.nan)
    for k in range(3):
        i = 5 - k if reverse else k  # the six joints' index of the chain's joint k
        b = 2 + 4 * k
        near[b] = -1.0 if reverse else 1.0
        near[b + 1] = model[56 + i]
        near[b + 2] = model[62 + i]
        near[b + 3] = start[i + 1 if i >= j else i]
    return near


@njit(cache=True)
def _nearest(problem, v, work, bound, keep):
    """The squared distance from ``start`` (7,) of the nearest candidate within the limits at
    held value ``v``, from the family's composition alone (candidates flagged least squares
    left out); inf when none. A candidate is dropped as soon as its distance reaches ``bound``
    (then the answer is at least ``bound``: none nearer; inf for the exact distance). The
    nearest candidate's seven joint values (robot order, ``v`` among them) go into ``keep``
    (7,) when one is found below ``bound``.

    ``problem`` is ``(model, held, goal, start)``: the packed arm (:func:`.finish.pack`), the
    held joint (:func:`pack_held`), the tip's goal (rotation 9-tuple, position 3-tuple) and the
    start (7,) radians; ``work`` is ``(cand, cflags, two, four3, near)``,
    :func:`.families.solve_6r_closed`'s
    outputs and scratch."""
    model, held, _, start = problem
    cand, cflags = work[0], work[1]
    j = int(held[0])
    lo = model[56:62]
    hi = model[62:68]
    reverse = model[1] != 0.0
    # the wrist centre's rows that cannot be nearer than bound dropped before the wrist
    near = work[4]
    near[0] = bound
    near[1] = _held_term(problem, v)
    count = _candidates(problem, v, work)
    near[0] = np.nan  # the other callers of _candidates: every candidate
    best = np.inf
    for c in range(count):
        if cflags[c] & LEAST_SQUARES:
            continue
        dist = _start_distance(problem, v, work, c, bound)
        if dist < best and dist < bound:
            best = dist
            for i in range(6):
                x = wrap(-cand[c, 5 - i] if reverse else cand[c, i])
                keep[i + 1 if i >= j else i] = _into_limits(
                    x, lo[i], hi[i], start[i + 1 if i >= j else i]
                )
            keep[j] = v
        best = min(best, dist)
    return best


@njit(cache=True)
def _local(problem, q_from, q, jac):
    """The joint values nearest ``start`` among the arm's solutions near ``q_from`` (7,): from
    ``q_from``, steps that each meet the linearised pose with the least distance from
    ``start`` (the pose error's Gauss-Newton step plus the pull towards ``start`` within the
    Jacobian's null space, damped by :data:`_LOCAL_DAMPING`, at most :data:`_LOCAL_MOVE`
    radians a joint, each joint held within its limits), :data:`_LOCAL_STEPS` at most.
    Followed through the joint space, the solutions near ``start`` are found where a scan of
    the held joint's values steps over them: near a singularity of the six joints, the nearest
    solution sits in a narrow window of the held joint's values. ``q`` (7,) the result (a
    proposal: the caller judges its held value by the closed form's candidates there),
    ``jac`` (6, 8) scratch. Returns 1 when the steps settled (no joint moving by more than
    :data:`_LOCAL_STILL`, or the pose within :data:`_LOCAL_NEAR`: ``q`` is a solution), 0 when
    they did not (steps used up, a singular system, or the pose still far and not converging
    after :data:`_LOCAL_CHECK` steps), -1 when the arm is not the 7R chain of ``held`` (``q``
    untouched).
    ``problem`` as :func:`_nearest` takes it; the chain is the tail of ``held``
    (:func:`pack_held`)."""
    model, held, goal, start = problem
    Rg, pg = goal
    if int(held[9]) != 7 or start.shape[0] != 7:
        return -1
    j = int(held[0])
    H, P, R_tip = _arm(held)
    lo = np.empty(7)
    hi = np.empty(7)
    for i in range(7):
        if i == j:
            lo[i], hi[i] = held[7], held[8]
        else:
            k = i if i < j else i - 1
            lo[i], hi[i] = model[56 + k], model[62 + k]
        q[i] = min(max(q_from[i], lo[i]), hi[i])
    a = np.empty((6, 7))
    pull = np.empty(7)
    step = np.empty(7)
    size = chain_size(P)
    before = np.inf
    for k in range(_LOCAL_STEPS):
        R, p = forward(H, P, R_tip, q)
        ep, er, dp, da = _errors(Rg, pg, R, p)
        now = dp / size + da
        if k >= _LOCAL_CHECK:
            if now > _LOCAL_FAR and now > _LOCAL_RATE * before:
                return 0  # not converging: the start is far from every solution
            if now <= _LOCAL_NEAR:
                return 1  # a solution to this precision (the closed form gives it exactly)
        before = now
        jacobian(H, P, q, p, jac)
        for i in range(7):
            d = start[i] - q[i]
            pull[i] = wrap(d) if lo[i] == -np.inf else d
        # a joint at its limit that the step would push beyond it stays there: its column
        # out, the others solve the linearised pose (an active set, refined twice)
        for _ in range(3):
            if not _local_step(jac, (ep, er), pull, a, step):
                return 0
            pushed = False
            for i in range(7):
                out = (q[i] >= hi[i] and step[i] > 0.0) or (q[i] <= lo[i] and step[i] < 0.0)
                if out and (jac[0, i] != 0.0 or pull[i] != 0.0):
                    for r in range(6):
                        jac[r, i] = 0.0
                    pull[i] = 0.0
                    pushed = True
            if not pushed:
                break
        largest = 0.0
        for i in range(7):
            largest = max(largest, abs(step[i]))
        scale = min(1.0, _LOCAL_MOVE / largest) if largest > 0.0 else 1.0
        for i in range(7):
            q[i] = min(max(q[i] + scale * step[i], lo[i]), hi[i])
        if largest * scale <= _LOCAL_STILL:
            return 1
    return 0


@njit(cache=True)
def _local_step(jac, err, pull, a, step):
    """One step of :func:`_local` into ``step`` (7,): ``pull + J^T y`` with ``(J J^T +
    damping) y = e - J pull``, ``J`` = ``jac[:, :7]``, ``e`` the pose error ``err`` (position,
    rotation; 3-tuples), ``pull`` (7,) the way to the start; ``a`` (6, 7) scratch. False when
    the system is singular."""
    ep, er = err
    for r in range(6):
        for c in range(r, 6):
            acc = 0.0
            for i in range(7):
                acc += jac[r, i] * jac[c, i]
            a[r, c] = acc
            a[c, r] = acc
        a[r, r] += _LOCAL_DAMPING
        jp = 0.0
        for i in range(7):
            jp += jac[r, i] * pull[i]
        a[r, 6] = (ep[r] if r < 3 else er[r - 3]) - jp
    if not _gauss(a, np.int64(6)):
        return False
    for i in range(7):
        acc = pull[i]
        for r in range(6):
            acc += jac[r, i] * a[r, 6]
        step[i] = acc
    return True


@njit(cache=True, inline="always")
def _edge(problem, q, v, span, work):
    """The held value for the local solve's solution ``q`` (7,), of held value ``v``, and the
    distance from ``start`` of the nearest candidate there: ``(distance, value)``. Where the
    closed form at ``v`` lacks ``q``'s branch (within the limits), ``v`` lies at an edge of
    that branch: a fold, where the held joint turns back along the arm's solutions, or a joint
    at its limit; the branch then lies on one side only, and the value is taken by bisection
    towards the edge from that side (the branch sought :data:`_EDGE` radians out, then three
    and nine times as far, to :data:`_EDGE_FAR`; :data:`_EDGE_STEPS` halvings).
    ``span`` ``(lo, hi)`` the held joint's range; ``problem`` and ``work`` as
    :func:`_nearest` takes them."""
    lo, hi = span
    keep = np.empty(7)
    key = _nearest(problem, v, work, np.inf, keep)
    if _same_branch(keep, q) and key < np.inf:
        return key, v
    off = _EDGE
    while off <= _EDGE_FAR:  # the nearer side first, farther out threefold
        for side in (1.0, -1.0):
            good = min(max(v + side * off, lo), hi)
            fg = _nearest(problem, good, work, np.inf, keep)
            if fg < np.inf and _same_branch(keep, q):
                fg, good = _to_edge(problem, keep, (fg, good), v, work)
                return (fg, good) if fg < key else (key, v)
        off *= 3.0
    return key, v


@njit(cache=True, inline="always")
def _to_edge(problem, q, found, bad, work):
    """Bisection towards the edge of a branch, between the held value of ``found``
    ``(distance, value)``, where the branch's candidate ``q`` (7,) is the nearest within the
    limits, and ``bad``, where it is not (a fold lies between, or a joint's limit):
    :data:`_EDGE_STEPS` halvings, the branch followed from value to value. Returns
    ``(distance, value)`` nearest the edge on the branch's side. ``problem`` and ``work`` as
    :func:`_nearest` takes them."""
    fg, good = found
    ref = q.copy()
    keep = np.empty(7)
    for _ in range(_EDGE_STEPS):
        mid = 0.5 * (good + bad)
        fm = _nearest(problem, mid, work, np.inf, keep)
        if fm < np.inf and _same_branch(keep, ref):
            good, fg = mid, fm
            copy_into(ref, keep)
        else:
            bad = mid
    return fg, good


@njit(cache=True, inline="always")
def _same_branch(a, b):
    """Whether the joint values ``a`` and ``b`` (7,) lie within :data:`_BRANCH` radians of each
    other, joint by joint: the same branch of the solutions, near one value of the held
    joint."""
    far = 0.0
    for i in range(7):
        far = max(far, abs(a[i] - b[i]))
    return far <= _BRANCH


@njit(cache=True, inline="always")
def _refine(problem, b, fb, h, span, work, keep):
    """The held value near ``b`` (distance ``fb``, from a scan of spacing ``h``) whose nearest
    candidate is nearer ``start``: successive parabolic interpolation in the bracket
    ``[b - h, b + h]`` (within ``span``, ``(lo, hi)`` radians), an end without a candidate
    within the limits drawn halfway in instead; :data:`_REFINE` evaluations at most. Returns
    the value and its distance. ``problem``, ``work`` and ``keep`` (scratch here) as
    :func:`_nearest` takes them."""
    lo, hi = span
    a = max(lo, b - h)
    c = min(hi, b + h)
    fa = _nearest(problem, a, work, np.inf, keep) if a < b else np.inf
    fc = _nearest(problem, c, work, np.inf, keep) if c > b else np.inf
    for _ in range(_REFINE):
        if c - a < 1e-6:
            break
        if fa < np.inf and fc < np.inf and fa > fb and fc > fb:
            num = (b - a) * (b - a) * (fb - fc) - (b - c) * (b - c) * (fb - fa)
            den = (b - a) * (fb - fc) - (b - c) * (fb - fa)
            x = b - 0.5 * num / den if den != 0.0 else 0.5 * (a + b)
            if not a < x < c or abs(x - b) < 1e-9:
                x = 0.5 * (a + b) if b - a > c - b else 0.5 * (b + c)
        elif fa < fb or (fa == np.inf and b - a >= c - b and b > a):
            x = 0.5 * (a + b)
        else:
            if c <= b:
                break
            x = 0.5 * (b + c)
        fx = _nearest(problem, x, work, np.inf, keep)
        if fx < fb:
            if x < b:
                c, fc = b, fb
            else:
                a, fa = b, fb
            b, fb = x, fx
        elif x < b:
            a, fa = x, fx
        else:
            c, fc = x, fx
    return b, fb


@njit(cache=True)
def _solve_at(problem, start6, v, tols, rows6, out):
    """The full solve at held value ``v``, written into ``out`` (16, 10) with ``v`` put back
    in column ``held[0]`` and each row's errors those of the 7R arm's forward kinematics;
    returns the three groups' sizes. ``problem`` as :func:`_nearest`
    takes it, ``start6`` (6,) the start without the held joint, ``tols`` ``(tol, angle_tol)``
    (metres, radians), ``rows6`` (16, 9) scratch."""
    model, held, goal, _ = problem
    Rg, pg = goal
    tol, angle_tol = tols
    j = int(held[0])
    r6, p6 = held_goal(held, Rg, pg, v)
    sizes = solve_goal_closed(model, r6, p6, start6, tol, angle_tol, rows6, 4)
    for r in range(sizes[0] + sizes[1] + sizes[2]):
        for i in range(7):
            if i < j:
                out[r, i] = rows6[r, i]
            elif i == j:
                out[r, i] = v
            else:
                out[r, i] = rows6[r, i - 1]
        for k in range(3):
            out[r, 7 + k] = rows6[r, 6 + k]
    _arm_errors(problem, out, sizes[0] + sizes[1] + sizes[2])
    return sizes


@njit(cache=True, inline="always")
def _arm_errors(problem, out, count):
    """The position and angle errors (columns 8 and 9) of the first ``count`` rows of ``out``
    by the 7R arm's forward kinematics, all rows at once (:func:`.polish.forward_many`). The
    six joints' own errors are those of the pose they solve, the goal turned by the held
    joint's value; the tip's differ from them by the rotation error times the tip's offset
    from the held joint's axis, and by a few 1e-12 on the xArm7 for candidates within the
    tolerances left unpolished. ``problem`` as :func:`_nearest` takes it."""
    _, held, goal, _ = problem
    Rg, pg = goal
    H, P, R_tip = _arm(held)
    flat = np.empty(7 * count)
    trig = np.empty((2, 7 * count))
    acc = np.empty((12, count))
    for r in range(count):
        for i in range(7):
            flat[7 * r + i] = out[r, i]
    forward_many(H, P, flat, count, trig, acc)
    g = mmt(Rg, tuple9(R_tip))  # the goal times R_tip^T: the joints' product is compared
    for r in range(count):
        p = (acc[9, r], acc[10, r], acc[11, r])
        _, _, dp, da = _errors(g, pg, column9(acc, r), p)
        out[r, 8] = dp
        out[r, 9] = da


@slow_to_compile  # tens of seconds: a helper compiles it while calls run as Python
@njit(cache=True)
def held_solutions(model, held, R_goal_in, p_goal_in, start, tol, angle_tol, value, out):
    """Every solution of a 7R arm's pose with one joint held (at ``value``), or the solutions
    at the held value whose nearest solution is nearest ``start`` (``value`` NaN: the search).

    ``model``: the six other joints' plan and limits packed by :func:`.finish.pack` (the
    chain with the held joint at 0); ``held``: :func:`pack_held`; ``R_goal_in`` (3, 3),
    ``p_goal_in`` (3,): the tip's goal; ``start`` (7,) radians; ``tol`` metres and
    ``angle_tol`` radians. Writes rows of ``out`` (16, :data:`.finish.OUT_COLUMNS` + 1) as
    :func:`.finish.all_solutions` does, with the seven joints. Returns the three groups'
    sizes and the held value used; sizes ``(-1, 0, 0)``, ``(-2, 0, 0)`` or ``(-3, 0, 0)``
    for a goal that is not a rotation, a goal or a start that is not finite, as
    :func:`.finish.all_solutions`.
    """
    bad = goal_error(R_goal_in, p_goal_in, start)
    if bad:
        return bad, 0, 0, value
    Rg = tuple9(R_goal_in)
    pg = (p_goal_in[0], p_goal_in[1], p_goal_in[2])
    j = int(held[0])
    start6 = np.empty(6)
    for i in range(6):
        start6[i] = start[i + 1 if i >= j else i]
    rows6 = np.empty((MAX_SOLUTIONS, OUT_COLUMNS))
    problem = (model, held, (Rg, pg), start)
    tols = (tol, angle_tol)
    if value == value:
        sizes = _solve_at(problem, start6, value, tols, rows6, out)
        return sizes[0], sizes[1], sizes[2], value
    lo = held[7] if held[7] > -np.inf else -math.pi
    hi = held[8] if held[8] < np.inf else math.pi
    cand = np.empty((MAX_SOLUTIONS, 6))
    cflags = np.zeros(MAX_SOLUTIONS, dtype=np.int64)
    work = (cand, cflags, np.empty((3, 2)), np.empty((4, 3)), _near_start(problem))
    seed = (np.inf, math.nan)
    q7 = np.empty(7)
    jac = np.empty((6, 8))
    settled = _local(problem, start, q7, jac)
    # the local solve's answer, when it is a solution within the tolerances: kept against the
    # closed form's, which can lack its branch near a fold (see _with_local)
    local = np.empty(7)
    local_err = _pose_error(problem, q7) if settled >= 0 else (np.inf, np.inf)
    has_local = settled == 1 and local_err[0] <= tol and local_err[1] <= angle_tol
    # unsettled but near a solution (steps slowed at a joint's limit): its branch sought too
    nearly = local_err[0] <= _LOCAL_NEARLY * chain_size(_arm(held)[1])
    nearly = nearly and local_err[1] <= _LOCAL_NEARLY
    if has_local:
        copy_into(local, q7)
    if settled >= 0:
        v = q7[j]
        if abs(v - start[j]) <= _LOCAL_STILL:  # the start's own value, to the local solve's
            v = start[j]  # precision (exactly: near a singular pose the candidates swing)
        v = min(max(v, lo), hi)
        if settled or nearly:  # q7 is (nearly) a solution: its branch at v, or at its edge
            seed = _edge(problem, q7, v, (lo, hi), work)
        else:
            seed = (_nearest(problem, v, work, np.inf, q7), v)
    # the local solve stalled near the pose, or with the start near it (a target followed)
    stalled_near = settled == 0 and (nearly or _start_near(problem))
    # offsets from the start's value: without a seed from the local solve, or when it stalled
    # near the pose (the nearest solution can lie in a window of the held joint narrower than
    # the grid's step, beside the start's value)
    ladder = seed[0] == np.inf or stalled_near
    # the local solve's value, when its steps settled: refined by them already
    settled_at = seed[1] if settled == 1 else math.nan
    if stalled_near:
        # the local solve stalled near the pose (beside a singularity of the six other joints,
        # a joint at its limit): the start's branch followed across the held joint's values
        # to its nearest, in a window that can be narrower than any grid's step
        found = _follow_branch(problem, (lo, hi), work, q7)
        if found[0] < seed[0]:
            seed = found
    for count in (SAMPLES, FINE_SAMPLES):  # the fine scan only when the coarse finds nothing
        v, key = _scan(problem, (lo, hi), count, work, seed, ladder)
        if key < np.inf and v != settled_at:  # else the local solve found the nearest
            step = (hi - lo) / (count - 1)
            span = (lo, hi)
            if held[7] > -np.inf:  # farther from the start's value than sqrt(key): no nearer
                reach = math.sqrt(key)
                span = (max(lo, start[j] - reach), min(hi, start[j] + reach))
            v, key = _refine(problem, v, key, step, span, work, q7)
            # from the nearest candidate there, the local solve towards the start
            _nearest(problem, v, work, np.inf, q7)
            if _local(problem, q7.copy(), q7, jac) >= 0:
                w = min(max(q7[j], lo), hi)
                if _nearest(problem, w, work, key, q7) < key:
                    v = w
        if key < np.inf:
            sizes = _solve_at(problem, start6, v, tols, rows6, out)
            if sizes[0] > 0:
                if has_local and _nearer(problem, local, out[0]):
                    return _with_local(problem, start6, local, local_err, tols, rows6, out)
                return sizes[0], sizes[1], sizes[2], v
    if has_local:
        return _with_local(problem, start6, local, local_err, tols, rows6, out)
    return _fallback(problem, start6, (lo, hi), tols, rows6, out)


@slow_to_compile  # seconds: a helper compiles it while calls run as Python
@njit(cache=True)
def held_sweep(model, held, R_goal_in, p_goal_in, start, tol, angle_tol, values, out):
    """Every solution of a 7R arm's pose at each of ``values`` (the held joint's, radians,
    within its limits), in one set: the rows of :func:`held_solutions` at each value, merged
    into its three groups, each sorted as one value's are (the solutions by squared distance
    from ``start``, seven joints, a continuous joint's difference wrapped; the least-squares
    candidates by position plus angle error). The arguments as :func:`held_solutions` takes
    them, ``values`` (v,) and ``out`` (16 v, :data:`.finish.OUT_COLUMNS` + 1). Returns the
    three groups' sizes; ``(-1, 0, 0)``, ``(-2, 0, 0)`` or ``(-3, 0, 0)`` as
    :func:`held_solutions` refuses a goal or a start."""
    bad = goal_error(R_goal_in, p_goal_in, start)
    if bad:
        return bad, 0, 0
    j = int(held[0])
    start6 = np.empty(6)
    for i in range(6):
        start6[i] = start[i + 1 if i >= j else i]
    goal = (tuple9(R_goal_in), (p_goal_in[0], p_goal_in[1], p_goal_in[2]))
    problem = (model, held, goal, start)
    rows6 = np.empty((MAX_SOLUTIONS, OUT_COLUMNS))
    m = values.shape[0]
    stage = np.empty((MAX_SOLUTIONS * m, OUT_COLUMNS + 1))
    group = np.empty(MAX_SOLUTIONS * m, dtype=np.int64)
    key = np.empty(MAX_SOLUTIONS * m)
    order = np.empty(MAX_SOLUTIONS * m, dtype=np.int64)
    kept = 0
    for k in range(m):  # each value's rows after the ones before, their group and key beside
        block = stage[kept : kept + MAX_SOLUTIONS]
        a, b, c = _solve_at(problem, start6, values[k], (tol, angle_tol), rows6, block)
        for r in range(min(a + b + c, MAX_SOLUTIONS)):
            g = 0 if r < a else 1 if r < a + b else 2
            group[kept] = g
            key[kept] = block[r, 8] + block[r, 9] if g == 2 else _distance(problem, block[r])
            kept += 1
    for r in range(kept):  # insertion sort of the rows' indices by (group, key)
        p = r
        while p > 0 and (
            group[order[p - 1]] > group[r]
            or (group[order[p - 1]] == group[r] and key[order[p - 1]] > key[r])
        ):
            order[p] = order[p - 1]
            p -= 1
        order[p] = r
    for r in range(kept):
        copy_into(out[r], stage[order[r]])
    a = b = 0
    for r in range(kept):
        a += group[r] == 0
        b += group[r] == 1
    return a, b, kept - a - b


def _solve_at_types(sig: tuple[types.Type, ...], value: types.Type, out: types.Type) -> tuple:
    """The argument types of :func:`_solve_at` as a held kernel called with the types ``sig``
    passes them: its problem tuple, the six-joint start and scratch (fresh C arrays), the held
    value's type ``value``, the tolerances' pair and the rows' type ``out``."""
    model, held, _, _, start, tol, angle_tol = sig[:7]
    goal = types.Tuple((types.UniTuple(types.float64, 9), types.UniTuple(types.float64, 3)))
    problem = types.Tuple((model, held, goal, start))
    vector, rows = types.Array(types.float64, 1, "C"), types.Array(types.float64, 2, "C")
    tols = types.BaseTuple.from_types((tol, angle_tol))
    return (problem, vector, value, tols, rows, out)


def _parts_solutions(sig: tuple[types.Type, ...]) -> list[tuple[object, tuple]]:
    """What compiling :func:`held_solutions` for ``sig`` compiles on its own: :func:`_solve_at`,
    writing into the caller's ``out`` at the given held value."""
    return [(_solve_at, _solve_at_types(sig, sig[7], sig[8]))]


def _parts_sweep(sig: tuple[types.Type, ...]) -> list[tuple[object, tuple]]:
    """:func:`_parts_solutions` for :func:`held_sweep`: each value of ``values`` (their dtype),
    its rows into a block of a fresh C array."""
    return [(_solve_at, _solve_at_types(sig, sig[7].dtype, types.Array(types.float64, 2, "C")))]


# one process compiles _solve_at (under its lock, see geoik.jit.parts) and the other loads it,
# where a solve and a sweep are compiled at once (a helper behind each)
parts(held_solutions, _parts_solutions)
parts(held_sweep, _parts_sweep)


@njit(cache=True, inline="always")
def _start_near(problem):
    """Whether the start's own pose lies within :data:`_FOLLOWED` of the goal (metres per
    metre of the arm's size; radians): a target followed."""
    _, held, _, start = problem
    dp, da = _pose_error(problem, start)
    size = chain_size(_arm(held)[1])
    return dp <= _FOLLOWED * size and da <= _FOLLOWED


@njit(cache=True)
def _branch_distance(problem, v, work, ref, keep):
    """At held value ``v``, the family's candidate (least squares left out) nearest ``ref``
    (7,), whatever the limits: its joint values into ``keep`` (7,, robot order, each turn the
    one nearest ``ref``'s, so that a branch followed from value to value stays continuous), and
    its squared distance from ``start`` (radians squared; inf when it lies outside the limits
    or there is no candidate). ``problem`` and ``work`` as :func:`_nearest` takes them."""
    model, held, _, _ = problem
    cand, cflags = work[0], work[1]
    j = int(held[0])
    reverse = model[1] != 0.0
    count = _candidates(problem, v, work)
    best = np.inf
    pick = -1
    for c in range(count):
        if cflags[c] & LEAST_SQUARES:
            continue
        dist = 0.0
        for i in range(6):
            x = -cand[c, 5 - i] if reverse else cand[c, i]
            dist += wrap(x - ref[i + 1 if i >= j else i]) ** 2
        if dist < best:
            best, pick = dist, c
    if pick < 0:
        return np.inf
    for i in range(6):
        k = i + 1 if i >= j else i
        x = -cand[pick, 5 - i] if reverse else cand[pick, i]
        keep[k] = ref[k] + wrap(x - ref[k])
    keep[j] = v
    return _start_distance(problem, v, work, pick, np.inf)


@njit(cache=True, inline="always")
def _follow_branch(problem, span, work, keep):
    """The start's branch (the candidate nearest the start at the start's held value; where
    there is none, the one nearest the start at the first value that has one) followed
    across :data:`_WINDOW_STEPS` values each way within :data:`_WINDOW` radians of the start's
    (in ``span`` ``(lo, hi)``; a value farther than the best distance found is not tried),
    then a golden-section search within a step of the nearest, :data:`_WINDOW_GOLDEN` more
    values: ``(distance, value)`` of the nearest solution within the limits found (inf
    when none). Beside a singularity of the six other joints, two of them swing fast as the
    held joint turns and the nearest solution lies in a window of its values narrower than any
    grid's step. Where the branch has a candidate within the limits at one of two neighbouring
    values and not at the other, the edge between them is bisected (:func:`_to_edge`): near a
    fold the distance can fall by tenths of a radian squared within a few milliradians of it.
    ``keep`` (7,) scratch."""
    _, held, _, start = problem
    lo, hi = span
    j = int(held[0])
    v0 = min(max(start[j], lo), hi)
    h = _WINDOW / _WINDOW_STEPS
    ref = start.copy()
    copy_into(keep, start)  # the start's own values where no candidate is found at its value
    best = _branch_distance(problem, v0, work, ref, keep)
    best_v = v0
    best_ref = keep.copy()
    at_v0 = keep.copy()
    g0 = best
    for side in (1.0, -1.0):
        copy_into(ref, at_v0)
        before, before_v = g0, v0
        for k in range(1, _WINDOW_STEPS + 1):
            v = v0 + side * k * h
            if not lo <= v <= hi:
                break
            dv = v - v0
            if dv * dv >= best:
                break
            g = _branch_distance(problem, v, work, ref, keep)
            if (g < np.inf) != (before < np.inf):
                # the branch ends (a fold, a joint's limit) between the two values: the
                # distance can fall steeply towards that edge, so it is sought there
                if g < np.inf:
                    edge = _to_edge(problem, keep, (g, v), before_v, work)
                else:
                    edge = _to_edge(problem, ref, (before, before_v), v, work)
                if edge[0] < best:
                    best, best_v = edge
            copy_into(ref, keep)
            before, before_v = g, v
            if g < best:
                best, best_v = g, v
                copy_into(best_ref, keep)
    a, b = max(lo, best_v - h), min(hi, best_v + h)
    ratio = 0.5 * (math.sqrt(5.0) - 1.0)
    x = b - ratio * (b - a)
    y = a + ratio * (b - a)
    gx = _branch_distance(problem, x, work, best_ref, keep)
    gy = _branch_distance(problem, y, work, best_ref, keep)
    for _ in range(_WINDOW_GOLDEN):
        if gx < gy:
            b, y, gy = y, x, gx
            x = b - ratio * (b - a)
            gx = _branch_distance(problem, x, work, best_ref, keep)
        else:
            a, x, gx = x, y, gy
            y = a + ratio * (b - a)
            gy = _branch_distance(problem, y, work, best_ref, keep)
    for g, v in ((gx, x), (gy, y)):
        if g < best:
            best, best_v = g, v
    return best, best_v


@njit(cache=True)
def _pose_error(problem, q):
    """The pose error of the seven joint values ``q`` (7,): position (metres) and angle
    (radians), by the forward kinematics of the 7R chain of ``held``. ``problem`` as
    :func:`_nearest` takes it."""
    _, held, goal, _ = problem
    Rg, pg = goal
    H, P, R_tip = _arm(held)
    R, p = forward(H, P, R_tip, q)
    _, _, dp, da = _errors(Rg, pg, R, p)
    return dp, da


@njit(cache=True)
def _distance(problem, q):
    """The squared distance (radians squared) of the seven joint values ``q`` (7,) from
    ``start``, wrapped for a continuous joint. ``problem`` as :func:`_nearest` takes it."""
    model, held, _, start = problem
    j = int(held[0])
    dist = 0.0
    for i in range(7):
        lo = held[7] if i == j else model[56 + (i if i < j else i - 1)]
        d = q[i] - start[i]
        if lo == -np.inf:
            d = wrap(d)
        dist += d * d
    return dist


@njit(cache=True, inline="always")
def _nearer(problem, q, row):
    """Whether the seven joint values ``q`` (7,) lie nearer ``start`` than ``row``'s first
    seven, and are not the same solution (within :data:`_SAME_LOCAL` radians a joint: the
    closed form's, polished, is kept then)."""
    same = True
    for i in range(7):
        same = same and abs(wrap(row[i] - q[i])) <= _SAME_LOCAL
    return not same and _distance(problem, q) < _distance(problem, row)


@njit(cache=True, inline="always")
def _with_local(problem, start6, q, err, tols, rows6, out):
    """The rows at the held value of the local solve's solution ``q`` (7,), of pose error
    ``err`` ``(position, angle)``, with ``q`` first where the closed form there gives no
    solution as near ``start``: near a fold of the held joint (where, along the solutions, it
    turns back, the six others singular) the closed form can put the target a micrometre
    beyond the six joints' reach and lose the branch, which ``q``, solved with all seven
    joints, holds. Returns the three groups' sizes and the held value, as
    :func:`held_solutions`; ``problem``, ``start6``, ``tols`` and ``rows6`` as
    :func:`_solve_at` takes them."""
    _, held, _, _ = problem
    v = q[int(held[0])]
    sizes = _solve_at(problem, start6, v, tols, rows6, out)
    if sizes[0] > 0 and not _nearer(problem, q, out[0]):
        return sizes[0], sizes[1], sizes[2], v
    rows = sizes[0] + sizes[1] + sizes[2]
    for r in range(min(rows, out.shape[0] - 1) - 1, -1, -1):
        for i in range(out.shape[1]):
            out[r + 1, i] = out[r, i]
    for i in range(7):
        out[0, i] = q[i]
    out[0, 7] = 0.0  # exact, within the limits (the local solve keeps every joint there)
    out[0, 8] = err[0]
    out[0, 9] = err[1]
    return sizes[0] + 1, sizes[1], sizes[2], v


@njit(cache=True, inline="always")
def _fallback(problem, start6, span, tols, rows6, out):
    """Where no value of the held joint solves the pose within the limits: of
    :data:`SAMPLES` values evenly across ``span`` ``(lo, hi)`` (radians), the one with
    solutions outside the limits, else the one whose least-squares candidate comes nearest the
    pose; its rows into ``out`` as :func:`held_solutions`. ``problem``, ``start6``, ``tols``
    and ``rows6`` as :func:`_solve_at` takes them. Returns the three groups' sizes and the
    value."""
    lo, hi = span
    spare = np.empty_like(out)
    key_best = np.inf
    got = (0, 0, 0)
    v_got = lo
    for k in range(SAMPLES):
        v = lo + k * (hi - lo) / (SAMPLES - 1)
        sizes = _solve_at(problem, start6, v, tols, rows6, spare)
        a_, b_, c_ = sizes
        key = np.inf
        if a_ or b_:
            key = 0.0 if a_ else 1.0
        elif c_:
            key = 2.0 + spare[0, 8] + spare[0, 9]
        if key < key_best or k == 0:
            key_best = key
            got = sizes
            v_got = v
            for r in range(a_ + b_ + c_):
                for i in range(OUT_COLUMNS + 1):
                    out[r, i] = spare[r, i]
    return got[0], got[1], got[2], v_got


@njit(cache=True, inline="always")
def _scan(problem, span, count, work, seed, ladder):
    """The start's value of the held joint (clamped into ``span``, ``(lo, hi)`` radians) and
    ``count`` values evenly across ``span``, outward from it: the value whose nearest candidate
    is nearest ``start``, and its squared distance (inf when none has a candidate within the
    limits), or ``seed`` ``(distance, value)`` when none is nearer. A value farther from the
    start's than the best distance found is skipped: its own term alone exceeds it. With
    ``ladder``, offsets from the start's value growing threefold are tried first.
    ``problem`` and ``work`` as :func:`_nearest` takes them."""
    _, held, _, start = problem
    lo, hi = span
    j = int(held[0])
    v0 = min(max(start[j], lo), hi)
    best, best_v = seed
    keep = np.empty(7)
    key = _nearest(problem, v0, work, best, keep)
    if key < best:
        best, best_v = key, v0
    # a solution near the start can lie in a narrow window of the held joint (a joint near its
    # limit): offsets from the start's value growing threefold, each tried while it can still
    # be nearer than the best found
    step = (hi - lo) / (count - 1)
    off = _LADDER if ladder else step  # else a seed: the local solve found that window
    while off < step:  # farther out, the grid's own spacing
        if off * off >= best:
            break
        for v in (v0 - off, v0 + off):
            if lo <= v <= hi:
                key = _nearest(problem, v, work, best, keep)
                if key < best:
                    best, best_v = key, v
        off *= 3.0
    k0 = min(max(int(round((v0 - lo) / step)), 0), count - 1)
    for t in range(2 * count):
        k = k0 + (t + 1) // 2 if t % 2 else k0 - t // 2
        if k < 0 or k >= count:
            continue
        v = lo + k * step
        d = wrap(v - v0) if held[7] == -np.inf else v - v0
        if d * d >= best:
            continue
        key = _nearest(problem, v, work, best, keep)
        if key < best:
            best, best_v = key, v
    return best_v, best
