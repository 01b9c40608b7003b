"""geoik on real arms beside EAIK, ik-geo, ur_analytic_ik and ikpy, in one run.

Run ``python benchmarks/bench_robots.py`` (the peers are the ``bench`` extra:
``pip install -e '.[bench]'``; a peer that is not installed is reported as such). Options:
``--poses`` per arm (default 300; ``--targets`` is the same), ``--ikpy-poses`` (default 50;
ikpy takes milliseconds a solve; ``--ikpy-targets`` is the same), ``--batch-poses`` (default
20000), ``--threads`` of the batch calls (default 2), ``--arms`` (a subset), ``--chunk``
(default 25), ``--seed``, ``--no-ikpy``. A full run takes some minutes on two cores;
``--poses 50 --batch-poses 2000`` a fraction of that.

What it measures
----------------
Arms: the nine arms of :data:`geoik.robots.urdf.ARMS`, URDF files of the ``example-robot-data``
package loaded by :func:`geoik.load_urdf` (UR3, UR5, UR10, Unitree Z1, Kinova j2s6s200, Talos's
left arm, SO-100, Franka Panda, xArm7; tips as :data:`geoik.robots.urdf.EXAMPLES` names them).

Poses: held out and reachable: the tip frames (position and orientation) of seeded random
configurations drawn uniformly within the joint limits (seeds the tests do not use).

Judge: an independent forward kinematics, yourdfpy's joint transforms (its
``_forward_kinematics_joint``, the URDF read by yourdfpy, not by geoik) chained from the base
to the tip. An answer succeeds when its tip is within 1e-4 m and 1e-3 rad of the target and
every joint is inside its limits. A peer's angles, given in (-pi, pi], are first moved by whole
turns into the limits where they fit (the same pose). For the solvers that return every
solution, a solution is *exact* when it is within 1e-9 m and 1e-9 rad (and inside the limits).

Contenders, each solving one pose per call from Python, timed alone (``time.perf_counter``
around the call; the peers' frame conversions are done before, untimed):

- geoik ``follow``: ``auto`` from a start within 0.05 rad of the pose's own joint values
  (:data:`FOLLOW`, seeded), as when a moving target is followed; its note counts the answers
  farther from the start than the pose's own joint values by more than 0.01 rad^2 (a jump to
  another branch);
- geoik ``dls``, ``auto`` and ``analytic`` through :func:`geoik.solve` with the orientation,
  ``tol=1e-4`` (metres), every other setting at its default (``max_iter`` included), from the
  rest configuration (``auto``'s row notes which solver answered how many poses: the analytic
  one on the arms that decompose); ``geoik all``, :func:`geoik.solve_all` (every solution; a
  7-joint arm with its held joint swept over the same 32 values as EAIK's: one call with
  ``redundancy`` the 32 values). An arm without a kinematic family (none of the example arms)
  has no ``analytic`` or ``geoik all`` row: "not available", with the reason;
- EAIK (every solution, its own kinematic family detection; the Panda with joint 7 locked and
  swept over 32 values within its limits, one call per value, all 32 in one timed call);
- ik-geo (every solution, 6-joint arms, its family picked from the axes' geometry, see
  :mod:`robot_peers`);
- ur_analytic_ik (every solution, the UR arms);
- ikpy's ``inverse_kinematics`` (``orientation_mode="all"``, its defaults) on the first
  ``--ikpy-poses`` poses, from the same rest configuration.

The poses are cut into chunks of ``--chunk``; every contender solves a chunk in turn, the order
turning chunk by chunk, so that the load of other users falls on all alike and no contender's
calls follow another library's in the caches.

Printed per arm and contender: the success share, the poses answered with a joint outside its
limits, the median microseconds per call, the mean number of correct solutions per pose (inside
the limits) and of exact ones; for geoik's iterative rows the largest iteration count and how
many ended MAX_ITERATIONS; batch poses per second (``--threads`` threads) for the contenders
with a batch call (EAIK's ``IK_batched``; geoik's ``geoik.batch.evaluate``, the analytic
solver's with ``every=True``: both keep every solution of every pose). Then the ratios of
median times measured in this run, the comparison of geoik's solution sets with EAIK's exact
ones (same count, each within 1e-9 rad joint by joint, angles compared modulo whole turns;
7-joint arms at the same 32 values of the held joint), and the goals with met / NOT met / not
available (a goal over "every arm" names the arms it could not be measured on). The machine may
be shared: the load average is printed at the start and the end; the ratios, measured side by
side, are what to read.
"""

from __future__ import annotations

import argparse
import math
import os
import statistics
import sys
import time
import warnings
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))

import geoik as ik  # noqa: E402
import robot_peers as peers  # noqa: E402
from geoik.robots.urdf import ARMS, EXAMPLES, example_path, load_example  # noqa: E402

TOL = 1e-4
ANGLE_TOL = 1e-3
EXACT = 1e-9
SEED = 20250611
FOLLOW = 0.05
"""``geoik follow``'s start: the pose's own joint values moved by up to this (radians) each."""
SIX_JOINT_GOAL_US = 25.0
BATCH_GOAL = 1e6
GEOIK_METHODS = ("dls", "auto", "analytic")


class IndependentFK:
    """Forward kinematics of one robot's tip by yourdfpy's joint transforms."""

    def __init__(self, path: Path, robot: ik.Robot) -> None:
        import yourdfpy

        urdf = yourdfpy.URDF.load(
            str(path),
            build_scene_graph=False,
            build_collision_scene_graph=False,
            load_meshes=False,
            load_collision_meshes=False,
        )
        by_child = {j.child: j for j in urdf.robot.joints}
        path_joints = []
        link = robot.tip_names[0]
        while link != robot.base_name:
            path_joints.append(by_child[link])
            link = by_child[link].parent
        self.joints = path_joints[::-1]
        self.index = {name: i for i, name in enumerate(robot.joint_names)}
        self.urdf = urdf

    def __call__(self, q: np.ndarray) -> np.ndarray:
        frame = np.eye(4)
        for joint in self.joints:
            value = float(q[self.index[joint.name]]) if joint.name in self.index else None
            frame = frame @ self.urdf._forward_kinematics_joint(joint, q=value)[0]
        return frame


def pose_errors(frame: np.ndarray, goal: np.ndarray) -> tuple[float, float]:
    """Distance (m) and angle (rad) between two frames; the angle from the chord
    ``|R_a - R_b|_F = 2 sqrt(2) sin(angle / 2)``, precise for tiny angles."""
    dist = float(np.linalg.norm(frame[:3, 3] - goal[:3, 3]))
    chord = float(np.linalg.norm(frame[:3, :3] - goal[:3, :3])) / (2.0 * math.sqrt(2.0))
    return dist, 2.0 * math.asin(min(chord, 1.0))


@dataclass
class Row:
    """One contender on one arm."""

    solved: list[bool] = field(default_factory=list)
    outside: int = 0
    times: list[float] = field(default_factory=list)
    good: list[int] = field(default_factory=list)
    exact: list[int] = field(default_factory=list)
    iterations: list[int] = field(default_factory=list)
    capped: int = 0
    batch: float | None = None
    note: str = ""
    unavailable: str | None = None
    every: bool = False
    sets: list[np.ndarray] = field(default_factory=list)
    answered_by: dict[str, int] = field(default_factory=dict)
    jumps: int = 0  # geoik follow: answers farther from the start than the pose's own joints

    def share(self, first: int | None = None) -> float:
        flags = self.solved[:first]
        return sum(flags) / len(flags) if flags else float("nan")

    def median_us(self, first: int | None = None) -> float:
        return statistics.median(self.times[:first]) * 1e6 if self.times else float("nan")


@dataclass
class Contender:
    """A one-pose call and how to read its answer: ``prepare(goal)`` untimed, ``call(x)``
    timed, ``read(answer)`` -> ((k, n) joint values, iterations or None, MAX_ITERATIONS)."""

    name: str
    prepare: Callable[[np.ndarray], Any]
    call: Callable[[Any], Any]
    read: Callable[[Any], tuple[np.ndarray, int | None, bool]]
    every: bool  # returns every solution (judged by the exact check too)
    wraps: bool  # answers in (-pi, pi]: moved by whole turns into the limits
    limit: int | None = None  # solves only the first poses
    batch: Callable[[list[np.ndarray]], Any] | None = None
    note: str = ""
    method_of: Callable[[Any], str] | None = None  # which solver answered (geoik's auto)
    follows: bool = False  # prepare takes (goal, start near the pose's joint values)


def geoik_contenders(robot: ik.Robot) -> dict[str, Contender | str]:
    """geoik's rows: a Contender, or the reason it is not available."""
    from geoik.solvers import REGISTRY

    out: dict[str, Contender | str] = {}
    for method in GEOIK_METHODS:
        if method != "auto" and method not in REGISTRY:
            out[f"geoik {method}"] = f"not available (no method {method!r} registered)"
            continue

        def call(goal: np.ndarray, method: str = method) -> Any:
            return ik.solve(robot, goal[:3, 3], method=method, orientation=goal[:3, :3], tol=TOL)

        def read(sol: Any) -> tuple[np.ndarray, int | None, bool]:
            return sol.angles[None], int(sol.iterations), sol.status.name == "MAX_ITERATIONS"

        def method_of(sol: Any) -> str:
            return str(sol.method)

        try:
            call(robot.tip_frame(robot.rest_angles()))
        except ik.GeoIKError as e:
            out[f"geoik {method}"] = f"not available ({e})"
            continue
        out[f"geoik {method}"] = Contender(
            f"geoik {method}",
            lambda goal: goal,
            call,
            read,
            every=False,
            wraps=False,
            batch=geoik_batch(robot, method),
            method_of=method_of,
        )
    if isinstance(out.get("geoik auto"), Contender):  # a target followed: auto from near it

        def call_near(x: tuple[np.ndarray, np.ndarray]) -> Any:
            goal, start = x
            p, r = goal[:3, 3], goal[:3, :3]
            return ik.solve(robot, p, method="auto", orientation=r, tol=TOL, start=start)

        out["geoik follow"] = Contender(
            "geoik follow",
            lambda x: x,
            call_near,
            read,
            every=False,
            wraps=False,
            note=f"auto from within {FOLLOW:g} rad of the pose's joints",
            method_of=lambda sol: str(sol.method),
            follows=True,
        )
    solve_all = getattr(ik, "solve_all", None)
    if solve_all is None:
        out["geoik all"] = "not available (geoik.solve_all does not exist)"
        return out

    held, values = held_joint(robot)
    note = ""

    def call_all(goal: np.ndarray) -> Any:
        return solve_all(robot, goal[:3, 3], orientation=goal[:3, :3])

    if held >= 0:  # every solution at each of the held joint's values, in one call

        def call_all(goal: np.ndarray) -> Any:
            return solve_all(robot, goal[:3, 3], orientation=goal[:3, :3], redundancy=values)

        note = f"joint {held + 1} held, {len(values)} values"

    try:
        solution_rows(call_all(robot.tip_frame(robot.rest_angles())), robot.n)
    except (ik.GeoIKError, TypeError, ValueError) as e:
        out["geoik all"] = f"not available ({e})"
        return out
    out["geoik all"] = Contender(
        "geoik all",
        lambda goal: goal,
        call_all,
        lambda answer: (solution_rows(answer, robot.n), None, False),
        every=True,
        wraps=False,
        note=note,
    )
    return out


def held_joint(robot: ik.Robot) -> tuple[int, list[float]]:
    """A 7-joint arm's held joint (-1 for others) and the values EAIK's sweep locks it at
    (:data:`robot_peers.SWEEP` across its limits)."""
    plan = robot.analytic_plan()
    j = plan.locked
    if j < 0:
        return -1, []
    if np.isfinite(robot.lo[j]):
        values = np.linspace(robot.lo[j], robot.hi[j], peers.SWEEP)
    else:
        values = np.linspace(-math.pi, math.pi, peers.SWEEP, endpoint=False)
    return j, [float(v) for v in values]


def solution_rows(answer: Any, n: int) -> np.ndarray:
    """The (k, n) joint values of a :func:`geoik.solve_all` answer: an array, an object with
    ``solutions`` or 2-D ``angles``, or a sequence of Solutions or of joint values."""
    if isinstance(answer, np.ndarray):
        return answer.reshape(-1, n).astype(np.float64)
    angles = getattr(answer, "angles", None)
    if angles is not None and np.ndim(angles) == 2:
        return np.asarray(angles, dtype=np.float64).reshape(-1, n)
    if isinstance(answer, list) and answer and hasattr(answer[0], "sizes"):  # several sets
        found = [solution_rows(a, n) for a in answer]
        return np.vstack(found)
    items = getattr(answer, "solutions", answer)
    if isinstance(items, Sequence) or hasattr(items, "__iter__"):
        rows = [np.asarray(getattr(s, "angles", s), dtype=np.float64) for s in items]
        return np.vstack(rows).reshape(-1, n) if rows else np.zeros((0, n))
    raise TypeError(
        f"geoik.solve_all returned {type(answer).__name__}, which this script cannot read"
    )


def geoik_batch(robot: ik.Robot, method: str) -> Callable[[list[np.ndarray]], Any] | None:
    """``geoik.batch.evaluate`` on many poses with their orientations, where it takes them for
    ``method`` (None where it does not); the analytic solver keeps every solution of every pose
    (``every=True``), as EAIK's batch returns them."""
    import geoik.batch

    evaluate = geoik.batch.evaluate
    every = {"every": True} if method == "analytic" else {}

    def run(goals: list[np.ndarray]) -> Any:
        g = np.asarray(goals)
        return evaluate(robot, g[:, :3, 3], method, orientations=g[:, :3, :3], tol=TOL, **every)

    try:
        run([robot.tip_frame(robot.rest_angles())] * 4)
    except (ik.GeoIKError, TypeError, ValueError):
        return None
    return run


def peer_contenders(robot: ik.Robot, arm: str, threads: int) -> dict[str, Contender | str]:
    out: dict[str, Contender | str] = {}
    makers = {
        "EAIK": lambda: peers.eaik_peer(robot, threads),
        "ik-geo": lambda: peers.ikgeo_peer(robot),
        "ur_analytic_ik": lambda: peers.ur_peer(robot, arm),
    }
    for name, make in makers.items():
        try:
            peer = make()
        except peers.UnavailableError as e:
            out[name] = str(e)
            continue
        except Exception as e:  # a peer's own failure is its row's, not the run's
            out[name] = f"failed to set up ({type(e).__name__}: {e})"
            continue
        out[name] = Contender(
            name,
            peer.prepare,
            peer.call,
            lambda answer, peer=peer: (peer.rows(answer), None, False),
            every=True,
            wraps=True,
            batch=peer.batch,
            note=peer.note,
        )
    return out


def ikpy_contender(robot: ik.Robot, arm: str, count: int) -> Contender | str:
    """ikpy's chain of the same joints, from the base to the tip, fixed joints inactive."""
    try:
        import yourdfpy
        from ikpy.chain import Chain
    except ImportError:
        return "not installed (pip install ikpy)"
    path = str(example_path(arm))
    urdf = yourdfpy.URDF.load(path, load_meshes=False, build_scene_graph=False)
    by_child = {j.child: j for j in urdf.robot.joints}
    elements = [robot.tip_names[0]]
    while elements[-1] != robot.base_name:
        j = by_child[elements[-1]]
        elements += [j.name, j.parent]
    elements.reverse()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        chain = Chain.from_urdf_file(path, base_elements=elements)
        # ikpy follows a lone child past the last element (the Z1's gripper): cut there
        links = chain.links[: 1 + len(elements) // 2]
        mask = np.array([link.joint_type != "fixed" for link in links])
        chain = Chain(links, active_links_mask=mask, name=robot.name)
    names = [link.name for link, on in zip(chain.links, mask, strict=True) if on]
    if names != list(robot.joint_names):
        return f"not comparable (ikpy's joints {names})"
    start = np.zeros(len(mask))
    start[mask] = robot.rest_angles()

    def call(goal: np.ndarray) -> Any:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            return chain.inverse_kinematics(
                goal[:3, 3], goal[:3, :3], orientation_mode="all", initial_position=start
            )

    return Contender(
        "ikpy",
        lambda goal: goal,
        call,
        lambda full: (np.asarray(full)[mask][None], None, False),
        every=False,
        wraps=False,
        limit=count,
    )


def judge(
    row: Row, robot: ik.Robot, fk: IndependentFK, goal: np.ndarray, rows: np.ndarray, wraps: bool
) -> None:
    """Add one pose's answer (``rows``: (k, n) joint values) to ``row``."""
    good = exact = 0
    outside = False
    kept = []
    for q in rows:
        if wraps:
            moved = peers.into_limits(q, robot.lo, robot.hi)
            if moved is None:
                continue
            q = moved
        elif np.any(q < robot.lo - 1e-12) or np.any(q > robot.hi + 1e-12):
            outside = True
            continue
        dist, angle = pose_errors(fk(q), goal)
        good += dist <= TOL and angle <= ANGLE_TOL
        if dist <= EXACT and angle <= EXACT:
            exact += 1
            kept.append(q)
    row.solved.append(good > 0)
    row.outside += outside
    row.good.append(good)
    row.exact.append(exact)
    row.sets.append(np.array(kept).reshape(-1, robot.n))


def run_arm(arm: str, args: argparse.Namespace) -> tuple[ik.Robot, dict[str, Row]]:
    robot = load_example(arm)
    fk = IndependentFK(example_path(arm), robot)
    rng = np.random.default_rng([args.seed, ARMS.index(arm)])
    qs = robot.random_angles(rng, args.poses)
    goals = [robot.tip_frame(q) for q in qs]
    near = np.random.default_rng([args.seed, 7, ARMS.index(arm)])
    starts = [np.clip(q + near.uniform(-FOLLOW, FOLLOW, robot.n), robot.lo, robot.hi) for q in qs]
    contenders: dict[str, Contender | str] = {
        **geoik_contenders(robot),
        **peer_contenders(robot, arm, args.threads),
    }
    if not args.no_ikpy:
        contenders["ikpy"] = ikpy_contender(robot, arm, args.ikpy_poses)
    rows = {name: Row() for name in contenders}
    live: dict[str, Contender] = {}
    for name, c in contenders.items():
        if isinstance(c, str):
            rows[name].unavailable = c
        else:
            live[name] = c
            rows[name].note = c.note
            rows[name].every = c.every
    inputs = {
        name: [c.prepare((g, s) if c.follows else g) for g, s in zip(goals, starts, strict=True)]
        for name, c in live.items()
    }
    answers: dict[str, list[Any]] = {name: [] for name in live}
    order = list(live)
    for start in range(0, len(goals), args.chunk):
        for name in order:
            c = live[name]
            stop = min(start + args.chunk, len(goals), c.limit or len(goals))
            times = rows[name].times
            for x in inputs[name][start:stop]:
                t0 = time.perf_counter()
                answer = c.call(x)
                times.append(time.perf_counter() - t0)
                answers[name].append(answer)
        order = order[1:] + order[:1]
    for name, c in live.items():
        for goal, answer in zip(goals, answers[name], strict=False):
            q, iters, capped = c.read(answer)
            judge(rows[name], robot, fk, goal, q, c.wraps)
            if iters is not None:
                rows[name].iterations.append(iters)
                rows[name].capped += capped
            if c.method_of is not None:
                by = rows[name].answered_by
                by[c.method_of(answer)] = by.get(c.method_of(answer), 0) + 1
        if c.follows:  # farther from the start than the pose's own joint values, by 0.01 rad^2
            for q0, start, answer in zip(qs, starts, answers[name], strict=False):
                got = c.read(answer)[0][0]
                rows[name].jumps += bool(
                    np.sum((got - start) ** 2) > np.sum((q0 - start) ** 2) + 0.01
                )
    if args.batch_poses:
        batch_goals = [
            robot.tip_frame(q)
            for q in robot.random_angles(
                np.random.default_rng([args.seed, 99, ARMS.index(arm)]), args.batch_poses
            )
        ]
        for name, c in live.items():
            if c.batch is None:
                continue
            prepared = [c.prepare(g) for g in batch_goals]
            c.batch(prepared[:16])  # compiled or loaded before timing
            t0 = time.perf_counter()
            c.batch(prepared)
            rows[name].batch = len(prepared) / (time.perf_counter() - t0)
    return robot, rows


def classes(q: np.ndarray) -> np.ndarray:
    """Solutions as angles wrapped into (-pi, pi], duplicates (within EXACT) removed."""
    wrapped = (q + math.pi) % (2 * math.pi) - math.pi
    out: list[np.ndarray] = []
    for row in wrapped:
        if not any(_apart(row, o) <= EXACT for o in out):
            out.append(row)
    return np.array(out).reshape(-1, q.shape[1])


def _apart(a: np.ndarray, b: np.ndarray) -> float:
    d = np.abs(a - b) % (2 * math.pi)
    return float(np.max(np.minimum(d, 2 * math.pi - d)))


def same_sets(ours: list[np.ndarray], theirs: list[np.ndarray]) -> tuple[int, int]:
    """(poses whose exact solution sets agree, poses compared)."""
    return len(same_set_poses(ours, theirs)), min(len(ours), len(theirs))


def same_set_poses(ours: list[np.ndarray], theirs: list[np.ndarray]) -> list[int]:
    """The poses (indices) whose exact solution sets agree."""
    return [
        k
        for k, (a, b) in enumerate(zip(ours, theirs, strict=False))
        if len(ca := classes(a)) == len(cb := classes(b))
        and all(any(_apart(x, y) <= EXACT for y in ca) for x in cb)
    ]


def explain_mismatch(robot: ik.Robot, ours: np.ndarray, theirs: np.ndarray) -> str:
    """How two exact solution sets of one pose differ: their counts, or how far apart their
    nearest pairs lie, beside the Jacobian's smallest singular value there (near a singularity
    the pose fixes the joint values only to about its rounding over that value)."""
    ca, cb = classes(ours), classes(theirs)
    if len(ca) != len(cb):
        return f"{len(ca)} solutions against {len(cb)}"
    worst, at = max((min(_apart(x, y) for y in ca), x) for x in cb)
    return (
        f"the same count, pairs up to {worst:.1e} rad apart, where the Jacobian's smallest "
        f"singular value is {smallest_singular_value(robot, at):.1e} (metres or radians per radian)"
    )


def smallest_singular_value(robot: ik.Robot, q: np.ndarray, h: float = 1e-7) -> float:
    """Of the tip's Jacobian at ``q`` (central differences; position rows in metres, rotation
    rows in radians, per radian of each joint)."""
    cols = []
    for j in range(robot.n):
        dq = np.zeros(robot.n)
        dq[j] = h
        a, b = robot.tip_frame(q + dq), robot.tip_frame(q - dq)
        turn = a[:3, :3] @ b[:3, :3].T
        axis = np.array([turn[2, 1] - turn[1, 2], turn[0, 2] - turn[2, 0], turn[1, 0] - turn[0, 1]])
        cols.append(np.concatenate([(a[:3, 3] - b[:3, 3]) / (2 * h), axis / (4 * h)]))
    return float(np.linalg.svd(np.array(cols).T, compute_uv=False)[-1])


def fmt(value: float | None, spec: str, missing: str = "-") -> str:
    return missing if value is None or value != value else format(value, spec)


def rate(value: float | None) -> str:
    if value is None:
        return "-"
    return f"{value / 1e6:.2f} M" if value >= 1e6 else f"{value / 1e3:.0f} k"


def print_table(results: list[tuple[str, ik.Robot, dict[str, Row]]], poses: int) -> None:
    print(
        f"\n{'arm':<10}{'contender':<16}{'solved':>8}{'outside':>8}{'median us':>11}"
        f"{'sols':>7}{'exact':>7}{'max it':>8}{'capped':>7}{'batch/s':>10}  family / note"
    )
    for arm, _robot, rows in results:
        for name, row in rows.items():
            if row.unavailable is not None:
                print(f"{arm:<10}{name:<16}  {row.unavailable}")
                continue
            sols = statistics.fmean(row.good) if row.good else None
            exact = statistics.fmean(row.exact) if row.every and row.exact else None
            max_it = max(row.iterations) if row.iterations else None
            capped = row.capped if row.iterations else None
            count = f" (first {len(row.solved)})" if len(row.solved) < poses else ""
            if name in ("geoik auto", "geoik follow") and row.answered_by:
                count += " by " + ", ".join(f"{m} {k}" for m, k in sorted(row.answered_by.items()))
            if name == "geoik follow":
                count += f"; {row.jumps} farther than the pose's own joints"
            print(
                f"{arm:<10}{name:<16}{100 * row.share():>7.1f}%{row.outside:>8}"
                f"{row.median_us():>11.1f}{fmt(sols, '.2f'):>7}{fmt(exact, '.2f'):>7}"
                f"{fmt(max_it, 'd'):>8}{fmt(capped, 'd'):>7}{rate(row.batch):>10}  "
                f"{row.note}{count}"
            )


def print_ratios(results: list[tuple[str, ik.Robot, dict[str, Row]]]) -> None:
    print("\nratios of median times per call, measured in this run (> 1: geoik faster)")
    pairs = [
        ("EAIK", "geoik dls"),
        ("EAIK", "geoik analytic"),
        ("EAIK", "geoik all"),
        ("ik-geo", "geoik all"),
        ("ur_analytic_ik", "geoik all"),
        ("ikpy", "geoik dls"),
    ]
    for arm, _robot, rows in results:
        parts = []
        for peer, ours in pairs:
            a, b = rows.get(peer), rows.get(ours)
            if a is None or b is None or a.unavailable or b.unavailable:
                continue
            first = len(a.times) if len(a.times) < len(b.times) else None
            parts.append(f"{peer} / {ours} {a.median_us() / b.median_us(first):.2f}")
        print(f"  {arm:<10}" + ("; ".join(parts) if parts else "-"))


def print_sets(results: list[tuple[str, ik.Robot, dict[str, Row]]]) -> None:
    print(
        "\nsolution sets, geoik all against EAIK's exact solutions (same count, each within "
        f"{EXACT:g} rad)"
    )
    for arm, robot, rows in results:
        ours, theirs = rows.get("geoik all"), rows.get("EAIK")
        if ours is None or ours.unavailable:
            why = ours.unavailable if ours is not None else "not run"
            print(f"  {arm:<10}geoik all {why}")
        elif theirs is None or theirs.unavailable:
            print(f"  {arm:<10}EAIK {theirs.unavailable if theirs else 'not run'}")
        else:
            kept = set(same_set_poses(ours.sets, theirs.sets))
            total = min(len(ours.sets), len(theirs.sets))
            print(f"  {arm:<10}{len(kept)} of {total} poses agree")
            for k in [k for k in range(total) if k not in kept][:5]:
                why = explain_mismatch(robot, ours.sets[k], theirs.sets[k])
                print(f"  {'':<10}pose {k}: {why}")


Flag = tuple[str, bool | None]
"""An arm and whether it meets a goal (None: not measured, with the reason in the table)."""


def verdict(flags: list[Flag]) -> str:
    """met / NOT met (naming the arms that miss), and the arms it could not be measured on."""
    measured = [(arm, ok) for arm, ok in flags if ok is not None]
    missing = [arm for arm, ok in flags if ok is None]
    if not measured:
        return "not available"
    failed = [arm for arm, ok in measured if not ok]
    text = "met" if not failed else f"NOT met ({', '.join(failed)})"
    if missing:
        text += f" on the {len(measured)} arms measured; not available on {', '.join(missing)}"
    return text


def _full(row: Row | None) -> bool | None:
    if row is None or row.unavailable:
        return None
    return row.share() == 1.0 and row.outside == 0


def _both(rows: dict[str, Row], ours: str, theirs: str) -> tuple[Row, Row] | None:
    a, b = rows.get(ours), rows.get(theirs)
    if a is None or a.unavailable or b is None or b.unavailable:
        return None
    return a, b


def print_goals(results: list[tuple[str, ik.Robot, dict[str, Row]]]) -> None:
    print()
    flags = [(arm, _full(rows.get("geoik dls"))) for arm, _, rows in results]
    print(
        "goal: dls at its defaults solves 100.0 % with orientation, no joint outside its limits, "
        f"every arm: {verdict(flags)}"
    )
    flags = [(arm, _full(rows.get("geoik analytic"))) for arm, _, rows in results]
    print(f"goal: analytic solves 100.0 %, every arm: {verdict(flags)}")
    flags = []
    for arm, robot, rows in results:
        row = rows.get("geoik auto")
        ok = _full(row)
        if ok is not None and row is not None and robot.analytic_plan().code:
            ok = ok and set(row.answered_by) == {"analytic"}
        flags.append((arm, ok))
    print(
        "goal: auto solves 100.0 % inside the limits, by the analytic solver on every arm that "
        f"decomposes: {verdict(flags)}"
    )
    flags = []
    for arm, _, rows in results:
        pair = _both(rows, "geoik all", "EAIK")
        if pair is None:
            flags.append((arm, None))
            continue
        agree, total = same_sets(pair[0].sets, pair[1].sets)
        flags.append((arm, agree == total))
    print(f"goal: the same solution sets as EAIK on every arm: {verdict(flags)}")
    flags = []
    for arm, _, rows in results:
        pair = _both(rows, "geoik all", "EAIK")
        ok = None if pair is None else pair[0].median_us() <= pair[1].median_us()
        flags.append((arm, ok))
    print(f"goal: every solution in at most EAIK's time per call: {verdict(flags)}")
    flags = []
    for arm, _, rows in results:
        ours, theirs = rows.get("geoik analytic"), rows.get("EAIK")
        if ours is None or ours.batch is None or theirs is None or theirs.batch is None:
            flags.append((arm, None))
        else:
            flags.append((arm, ours.batch >= BATCH_GOAL and ours.batch >= 3 * theirs.batch))
    print(
        f"goal: batch >= {BATCH_GOAL:.0e} poses/s and 3x EAIK's: {verdict(flags)} "
        "(geoik analytic's batch on every core)"
    )
    flags = []
    for arm, _, rows in results:
        if arm in ("panda", "xarm7"):
            row = rows.get("geoik auto")
            ok = _full(row)
            flags.append(
                (
                    arm,
                    None
                    if ok is None or row is None
                    else ok and row.median_us() <= SIX_JOINT_GOAL_US,
                )
            )
    print(
        f"goal: Panda and xArm7 by auto 100 % with orientation, median <= "
        f"{SIX_JOINT_GOAL_US:g} us, inside the limits: {verdict(flags)}"
    )
    for arm, _, rows in results:
        row = rows.get("geoik follow")
        if arm in ("panda", "xarm7") and row is not None and row.unavailable is None:
            print(
                f"  (not the goal's measure) {arm} following a target, auto from within "
                f"{FOLLOW:g} rad of the pose's joints: {100 * row.share():.1f} %, median "
                f"{row.median_us():.1f} us, {row.jumps} answers farther than the pose's own joints"
            )


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--poses", "--targets", type=int, default=300, help="held-out poses per arm"
    )
    parser.add_argument(
        "--ikpy-poses", "--ikpy-targets", type=int, default=50, help="of which ikpy solves"
    )
    parser.add_argument("--batch-poses", type=int, default=20000, help="poses per batch call")
    parser.add_argument("--threads", type=int, default=2, help="threads of the batch calls")
    parser.add_argument("--chunk", type=int, default=25, help="poses per turn")
    parser.add_argument("--arms", nargs="+", choices=ARMS, default=list(ARMS))
    parser.add_argument("--seed", type=int, default=SEED, help="of the held-out poses")
    parser.add_argument("--no-ikpy", action="store_true", help="leave ikpy out")
    args = parser.parse_args(argv)
    load = os.getloadavg()[0]
    print(
        f"{len(args.arms)} arms of example-robot-data, {args.poses} held-out reachable poses "
        f"each (position and orientation); success: within {TOL:g} m and {ANGLE_TOL:g} rad by "
        f"yourdfpy's forward kinematics, every joint inside its limits; exact: within "
        f"{EXACT:g} m and {EXACT:g} rad",
        flush=True,
    )
    ik.warm_up(["dls", "analytic"], dims=(3,), robots=True)  # compiled before any timing
    results = []
    for arm in args.arms:
        robot, rows = run_arm(arm, args)
        results.append((arm, robot, rows))
        print(
            f"  {arm} done ({EXAMPLES[arm][1][0]}, {robot.n} joints)", file=sys.stderr, flush=True
        )
    print_table(results, args.poses)
    print(
        "(sols: correct solutions per pose, inside the limits; exact: within "
        f"{EXACT:g} m and rad; max it / capped: geoik's largest iteration count and the "
        "poses that ended MAX_ITERATIONS)"
    )
    print_ratios(results)
    print_sets(results)
    print_goals(results)
    print(
        f"machine load (1-minute average): {load:.2f} at the start, {os.getloadavg()[0]:.2f} at "
        f"the end, on {os.cpu_count()} cores (shared: read the ratios, measured side by side)"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
