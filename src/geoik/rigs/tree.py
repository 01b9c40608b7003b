"""Inverse kinematics of skeletons (trees) with several end effectors.

``solve_tree(skeleton, targets, method=...)`` moves the targeted joints of a
:class:`~geoik.rigs.skeleton.Skeleton` (its end effectors, the leaves, or any other joint but the
root: a foot's ankle pinned above its toes) towards their targets, the root staying in place.
Positions are the state; every link is placed at exactly its length from its parent, so lengths
hold to rounding. Joints not on a path from the root to a targeted joint are carried along: on a
skeleton without limits each keeps its offset from its parent, on a limited one its link's
direction in its parent link's frame (it turns with its parent, which keeps it within its
limits).

Limits. On a skeleton with joint limits (:mod:`geoik.rigs.limits`) both methods run their
limited kernels (:mod:`geoik.rigs.limited_tree`): the start pose is brought within the limits
first and every joint is placed within them, so no returned pose breaks a limit. The root's
orientation, which the limits of the links leaving the root are measured in, is the start
pose's ``root_rotation`` (a :class:`~geoik.TreePose`, e.g. a BVH frame) or the identity.

``fabrik``
    Multi-end-effector FABRIK, Aristidou & Lasenby 2011, Section 5 ("multiple end effectors"),
    the reference tree solver cited by seed 003. Each iteration: a pass from the tips to the root,
    each targeted end effector put on its target and every joint pulled onto the line to its
    current position at its link's length from its child; a sub-base (a joint with several
    branches leading to targets) goes to the centroid of the positions its branches want, and the
    pass continues to the root. Then a pass from the root (kept in place) outwards, each joint
    on the line from its parent to where the first pass put it.

``circles``
    Seed 003 on trees (Srinivasan & John 2013, Sections 3.2 and 5: the hand and the cyclist).
    The paper does not say how branches share a joint; the choice here: the tree is cut at its
    key joints (the root, the sub-bases, the targeted end effectors) into segments, each a chain
    from its upper key joint down to the next. Per round: (1) from the tips to the root, each
    segment whose lower key joint cannot sit where it should (its target, or where its own
    segments want it) from where the upper key joint is proposes the upper key joint's current
    position moved into the segment's reachable annulus (seed 003 §4.1's safe zones) about that
    point; a sub-base wants the centroid of these proposals, as in FABRIK's averaging, and stays
    when there are none. Averaging the content segments' "stay here" in as well would shrink
    every correction by the number of branches and slow the rounds several-fold.
    (2) From the root outwards, each sub-base is set at the point nearest to what it wants
    within the annulus of its own segment from its (already placed) upper key joint, and every
    segment is placed by intersection of circles (:mod:`geoik.solvers.circles`, the same kernel
    as for chains) from its upper key joint to its goal, curling evenly and keeping the sense of
    the bends it has (a finger reaching a ball bends at all three joints, a knee bent forward
    stays forward). A tree whose branches all leave from the root is solved in one round;
    otherwise rounds repeat.

``auto`` (the default)
    ``circles`` first: a tree whose branches all leave from the root is then solved in one round,
    each branch placed exactly as a chain, so every reachable set of targets is reached. If some
    targeted end effector ends neither REACHED nor CLOSEST (targets pulling a shared sub-base
    apart), ``fabrik`` runs from the same start, and the solution with fewer such end effectors
    (then the smaller sum of errors) is kept; ``TreeSolution.method`` names the method that
    produced it, ``TreeSolution.requested`` is ``"auto"``.

Iterations are passes (fabrik) or rounds (circles); both stop when every targeted end effector
is within ``tol`` of its target or of its provably closest point (see below), when a round moves
no joint by more than ``1e-12`` times the skeleton's reach (STALLED), or after ``max_iter``.

Status per end effector: REACHED iff its error is within ``tol``; CLOSEST when its target lies
outside the annulus its path from the root can reach and it is within ``tol`` of the nearest
point of that annulus (for a target at the root: its distance from the root within ``tol`` of
the minimum reach); otherwise MAX_ITERATIONS or STALLED, as the solver ended. Targets that
pull a shared joint apart, or that the limits keep out of reach, usually end STALLED.
"""

from __future__ import annotations

import types
from collections.abc import Mapping
from typing import Any

import numpy as np

from geoik.checks import DEFAULT_METHOD, check_max_iter, check_point, check_tol, relative_tol
from geoik.errors import (
    InvalidChainError,
    InvalidPoseError,
    InvalidTargetError,
    UnknownMethodError,
    UnsupportedChainError,
    describe,
)
from geoik.geometry import annulus_closest
from geoik.jit import call
from geoik.judge import annulus_params, judge
from geoik.rigs.limited_tree import circles_tree_limited, fabrik_tree_limited
from geoik.rigs.pose import TreePose, check_root_rotation
from geoik.rigs.skeleton import Skeleton
from geoik.robots.model import Robot
from geoik.robots.solve import solve_robot_tree
from geoik.solution import STATUSES, Status, TreeSolution
from geoik.solvers.auto import AUTO, ROBOT_AUTO
from geoik.solvers.circles.tree import circles_tree
from geoik.solvers.fabrik.tree import fabrik_tree

__all__ = ["METHODS", "TreeSolution", "solve_tree", "tree_scale"]

METHODS = ("circles", "fabrik")
DEFAULT_MAX_ITER = 1000
_LENGTH_RTOL = 1e-6


def solve_tree(
    skeleton: Skeleton | Robot,
    targets: Mapping[str, Any],
    method: str | None = DEFAULT_METHOD,
    tol: float | None = None,
    max_iter: int | None = None,
    start: Any = None,
    orientations: Mapping[str, Any] | None = None,
    angle_tol: float | None = None,
) -> TreeSolution:
    """Move a skeleton's end effectors (or a robot's tips) to their targets.

    Parameters
    ----------
    skeleton : the tree (:class:`geoik.Skeleton`), or a robot with several tips
        (:class:`geoik.Robot`, e.g. a hand from :func:`geoik.load_urdf`).
    targets : joint name -> (d,) point: end effectors, or any joint but the root (a robot:
        tip names, each a (3,) point or a (4, 4) homogeneous pose, position and orientation at
        once). Joints not on the paths to them are carried along.
    method : for a skeleton ``"circles"`` (seed 003), ``"fabrik"`` (multi-end-effector
        FABRIK) or ``"auto"`` (the default): circles, then fabrik from the same start if some
        targeted end effector ended neither REACHED nor CLOSEST; the solution with fewer such
        end effectors (then the smaller sum of errors) is returned, ``method`` naming the one
        that produced it. For a robot ``"dls"`` (the default, also for ``"auto"``: damped least
        squares on the tips' stacked Jacobians) or ``"ccd"``.
    tol : distance within which a target counts as reached; default
        :data:`geoik.checks.DEFAULT_TOL` (``1e-4``) times the longest path from the root to an
        end effector.
    max_iter : budget of passes / rounds; default 1000.
    start : (m, d) joint positions to start from, a :class:`~geoik.TreePose` (positions and
        root orientation) or a TreeSolution (the previous frame); default the rest pose.

    orientations : robots only: tip name -> target orientation (a 3x3 rotation matrix, a
        unit quaternion ``(w, x, y, z)`` or a SciPy ``Rotation`` holding one), for tips that
        have a target (beside a 4x4 pose target, only its own rotation).
    angle_tol : robots only: the angle tolerance in radians (default ``1e-3``).

    Returns
    -------
    TreeSolution
    """
    if isinstance(skeleton, Robot):
        name = ROBOT_AUTO if method is None or method == AUTO else method
        return solve_robot_tree(
            skeleton, targets, name, tol, max_iter, start, orientations, angle_tol
        )
    method = DEFAULT_METHOD if method is None else method
    if not isinstance(skeleton, Skeleton):
        raise InvalidChainError(
            f"expected a geoik.Skeleton or a geoik.Robot, got {describe(skeleton)}",
            argument="skeleton",
        )
    if orientations is not None or angle_tol is not None:
        raise UnsupportedChainError(
            "orientation targets need tip frames, which a geoik.Robot has; a geoik.Skeleton takes "
            "positions only",
            argument="orientations",
        )
    if method != AUTO and method not in METHODS:
        raise UnknownMethodError(
            f"expected {AUTO} or one of {', '.join(METHODS)} for trees, got {method!r}",
            argument="method",
        )
    goals = _check_targets(skeleton, targets)
    scale = tree_scale(skeleton)
    tol_ = check_tol(tol, relative_tol(scale))
    iters = check_max_iter(max_iter, DEFAULT_MAX_ITER)
    first, root_q = _check_start(skeleton, start)
    root_q.setflags(write=False)
    return _best_attempt(skeleton, goals, method, first, tol_, iters, scale, root_q)


def _best_attempt(
    skeleton: Skeleton,
    goals: dict[str, np.ndarray],
    method: str,
    first: np.ndarray,
    tol: float,
    iters: int,
    scale: float,
    root_q: np.ndarray,
) -> TreeSolution:
    """Run ``method`` (with ``"auto"``: each of :data:`METHODS` in turn, until one leaves no
    targeted end effector short) and return the best solution.

    Parameters
    ----------
    skeleton : Skeleton
        The tree.
    goals : dict
        Joint name -> target ``(d,)``, checked.
    method : str
        ``"auto"`` or a name of :data:`METHODS`.
    first : (m, d) ndarray
        The start positions.
    tol : float
        Distance within which a target counts as reached.
    iters : int
        The budget of passes / rounds.
    scale : float
        The skeleton's size (:func:`tree_scale`).
    root_q : (4,) ndarray
        The root's rotation (``w, x, y, z``), read-only.

    Returns
    -------
    TreeSolution
        The one with fewest end effectors neither REACHED nor CLOSEST, then the smallest sum
        of errors; ``requested`` is ``method``.
    """
    best: tuple[tuple[int, float], TreeSolution] | None = None
    for name in METHODS if method == AUTO else (method,):
        pos, code, used = _run(skeleton, goals, name, first, tol, iters, scale, root_q)
        status, error = _judge(skeleton, goals, pos, tol, code)
        pos.setflags(write=False)
        sol = TreeSolution(
            skeleton=skeleton,
            targets=types.MappingProxyType(goals),
            method=name,
            positions=pos,
            status=types.MappingProxyType(status),
            error=types.MappingProxyType(error),
            iterations=int(used),
            tol=tol,
            root_rotation=root_q,
            requested=method,
        )
        short = sum(s not in (Status.REACHED, Status.CLOSEST) for s in status.values())
        score = (short, sum(error.values()))
        if best is None or score < best[0]:
            best = (score, sol)
        if short == 0:
            break
    assert best is not None
    return best[1]


def tree_scale(skeleton: Skeleton) -> float:
    """The skeleton's size: the longest path from the root to an end effector (at least the
    longest link); the default tolerance is :data:`geoik.checks.DEFAULT_TOL` times it, and a
    round moving no joint more than ``1e-12`` times it has stalled."""
    scale = max((skeleton.reach(e)[1] for e in skeleton.effector_names), default=0.0)
    return max(scale, float(skeleton.lengths.max(initial=0.0)), 1e-300)


def _run(
    sk: Skeleton,
    goals: dict[str, np.ndarray],
    method: str,
    first: np.ndarray,
    tol: float,
    max_iter: int,
    scale: float,
    root_q: np.ndarray,
) -> tuple[np.ndarray, int, int]:
    pos = first.copy()
    if sk.is_limited:
        return _run_limited(sk, goals, method, pos, tol, max_iter, scale, root_q)
    if not goals:
        return pos, 0, 0
    active, targeted, tgt, has_closest, closest = _target_arrays(sk, goals)
    goal = (targeted, tgt, has_closest, closest)
    if method == "fabrik":
        tree = (sk.parents, sk.lengths, sk.order, active)
        work = sk.n * max_iter
        code, used = call(fabrik_tree, tree, goal, pos, tol, max_iter, scale, work=work)
    else:
        segments = _segments(sk, active, targeted)
        work = sk.n * max_iter * 8
        code, used = call(
            circles_tree, segments, active, goal, pos, tol, max_iter, scale, work=work
        )
    for j in sk.order[1:]:  # joints off the targeted paths keep their offsets
        if not active[j]:
            p = sk.parents[j]
            pos[j] = pos[p] + (first[j] - first[p])
    return pos, int(code), int(used)


def _run_limited(
    sk: Skeleton,
    goals: dict[str, np.ndarray],
    method: str,
    pos: np.ndarray,
    tol: float,
    max_iter: int,
    scale: float,
    root_q: np.ndarray,
) -> tuple[np.ndarray, int, int]:
    active, targeted, tgt, has_closest, closest = _target_arrays(sk, goals)
    goal = (targeted, tgt, has_closest, closest)
    tree = (sk.parents, sk.lengths, sk.order, active)
    lim = (sk.limits.arrays, root_q)
    if not goals:  # nothing to move: the start brought within the limits
        call(fabrik_tree_limited, tree, goal, pos, tol, 0, scale, *lim, work=sk.n)
        return pos, 0, 0
    if method == "fabrik":
        work = sk.n * max_iter * 4
        code, used = call(
            fabrik_tree_limited, tree, goal, pos, tol, max_iter, scale, *lim, work=work
        )
    else:
        segments = _segments(sk, active, targeted)
        code, used = call(
            circles_tree_limited,
            segments,
            tree,
            goal,
            pos,
            tol,
            max_iter,
            scale,
            *lim,
            work=sk.n * max_iter * 8,
        )
    return pos, int(code), int(used)


def _target_arrays(sk: Skeleton, goals: dict[str, np.ndarray]) -> tuple[np.ndarray, ...]:
    """Kernel arrays: ``active``, ``targeted``, ``targets``, ``has_closest``, ``closest``."""
    m, d = sk.n, sk.dim
    targeted = np.zeros(m, dtype=np.bool_)
    tgt = np.zeros((m, d))
    closest = np.zeros((m, d))
    has_closest = np.zeros(m, dtype=np.bool_)
    for name, t in goals.items():
        j = sk.index(name)
        targeted[j] = True
        tgt[j] = t
        c = _closest_point(sk, name, t)
        if c is not None:
            has_closest[j] = True
            closest[j] = c
    active = targeted.copy()
    for j in sk.order[::-1]:
        if active[j] and sk.parents[j] >= 0:
            active[sk.parents[j]] = True
    return active, targeted, tgt, has_closest, closest


def _segments(sk: Skeleton, active: np.ndarray, targeted: np.ndarray) -> tuple[np.ndarray, ...]:
    """Cut the active tree at its key joints into chains, in root-to-tip order.

    Returns ``top (s,)``, ``key (s,)``, ``ptr (s + 1,)`` and the flat ``joints`` / ``seg_len``:
    segment ``i`` is ``joints[ptr[i]:ptr[i + 1]]`` from its top to its key, ``seg_len`` holding
    each joint's link length (0 for the top).
    """
    kids = np.bincount(sk.parents[active & (sk.parents >= 0)], minlength=sk.n)
    is_key = targeted | (kids >= 2)
    is_key[sk.root_index] = True
    top, key, ptr, joints, seg_len = [], [], [0], [], []
    for k in sk.order:
        if not (active[k] and is_key[k]) or k == sk.root_index:
            continue
        path = [int(k)]
        while not is_key[sk.parents[path[-1]]]:
            path.append(int(sk.parents[path[-1]]))
        path.append(int(sk.parents[path[-1]]))
        path.reverse()
        top.append(path[0])
        key.append(int(k))
        joints.extend(path)
        seg_len.extend([0.0] + [float(sk.lengths[j]) for j in path[1:]])
        ptr.append(len(joints))
    ints = [np.array(a, dtype=np.int64) for a in (top, key, ptr, joints)]
    return (*ints, np.array(seg_len, dtype=np.float64))


def _closest_point(sk: Skeleton, name: str, t: np.ndarray) -> np.ndarray | None:
    """Nearest point to ``t`` that end effector ``name`` can reach, when ``t`` is out of reach
    (None when within reach, or at the root where a whole sphere is nearest)."""
    rmin, rmax = sk.reach(name)
    out = np.empty(sk.dim)
    return out if call(annulus_closest, t, sk.root, rmin, rmax, out) else None


def _judge(sk: Skeleton, goals: dict[str, np.ndarray], pos: np.ndarray, tol: float, code: int):
    """Each targeted end effector's (Status, error), by the judge :func:`geoik.solve` uses, with
    the annulus its path from the root reaches (skeleton joints are free)."""
    status: dict[str, Status] = {}
    error: dict[str, float] = {}
    for name, t in goals.items():
        params = annulus_params(*sk.reach(name))
        c, e = call(judge, t, pos[sk.index(name)], code, tol, sk.root, params)
        status[name], error[name] = STATUSES[c], float(e)
    return status, error


# ---------------------------------------------------------------------- input checks


def _check_targets(sk: Skeleton, targets: Any) -> dict[str, np.ndarray]:
    if not isinstance(targets, Mapping):
        raise InvalidTargetError(
            f"expected a mapping of end-effector names to points, got {describe(targets)}",
            argument="targets",
        )
    out: dict[str, np.ndarray] = {}
    root = sk.names[sk.root_index]
    for name, value in targets.items():
        if not isinstance(name, str) or name not in sk.names or name == root:
            others = ", ".join(nm for nm in sk.names if nm != root)
            raise InvalidTargetError(
                f"expected names of joints other than the root {root!r} ({others}), got {name!r}",
                argument="targets",
            )
        t = check_point(value, sk.dim, f"targets[{name!r}]", model="skeleton")
        t.setflags(write=False)
        out[name] = t
    return out


def _check_start(sk: Skeleton, start: Any) -> tuple[np.ndarray, np.ndarray]:
    """The start positions, checked (shape, root, link lengths), and the root's orientation."""
    if start is None:
        return sk.rest_positions(), check_root_rotation(None, "start.root_rotation")
    root_q = check_root_rotation(None, "start.root_rotation")
    if isinstance(start, TreeSolution | TreePose):
        root_q = check_root_rotation(start.root_rotation, "start.root_rotation")
        start = start.positions
    try:
        pos = np.array(start, dtype=np.float64)
    except (TypeError, ValueError):
        pos = np.zeros(0)
    shape = (sk.n, sk.dim)
    if pos.shape != shape or not np.all(np.isfinite(pos)):
        raise InvalidPoseError(
            f"expected {shape} finite joint positions, got {describe(start)}", argument="start"
        )
    scale = max(sk.total_length, 1.0)
    if not np.allclose(pos[sk.root_index], sk.root, rtol=0.0, atol=1e-9 * scale):
        raise InvalidPoseError(
            f"expected the root at {sk.root.tolist()}, got {pos[sk.root_index].tolist()}",
            argument="start",
        )
    for j in sk.order[1:]:
        got = float(np.linalg.norm(pos[j] - pos[sk.parents[j]]))
        if abs(got - sk.lengths[j]) > _LENGTH_RTOL * sk.lengths[j]:
            raise InvalidPoseError(
                f"expected joint {sk.names[j]!r} at {sk.lengths[j]:.6g} from its parent, got "
                f"{got:.6g}",
                argument="start",
            )
    return pos, root_q
