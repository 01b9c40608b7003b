"""Every solution of one pose: geoik's analytic solver beside EAIK, in the same run.

For each 6-joint arm (and the 5-joint SO-100), held-out reachable poses (forward kinematics of
random joint values within the limits) are solved one call at a time from Python:
``geoik.solve_all`` (validation, one compiled call, the result object), the compiled kernel alone,
and EAIK's ``IK`` on the same arm given by its axes and offsets (``HPRobot``). Prints microseconds
per call (median of rounds), the ratio geoik / EAIK, and whether both found the same solution sets
(same count of exact solutions, each of geoik's within 1e-9 of one of EAIK's, EAIK's without joint
limits).

Then the 7-joint arms (Franka Panda, xArm7): ``geoik.solve(robot, target, orientation=R,
method="analytic")`` on held-out reachable poses (the held joint searched in one compiled
call), beside geoik's ``dls`` on the same poses and EAIK with the same joint locked at
:data:`robot_peers.SWEEP` values across its limits (one EAIK robot per value, built before
timing; its rows kept when a turn by 2 pi puts them within the limits). A pose counts as
solved when the answer's forward kinematics lies within 1e-4 m and 1e-3 rad of it with every
joint within its limits. Prints the share solved and the median microseconds per call.

The batch: ``geoik.batch.evaluate(robot, positions, "analytic", orientations=...)`` on
every core beside EAIK's ``IK_batched`` with as many threads, on the same poses of the SO-100
(five joints) and the UR5, in poses per second and their ratio; and, for the SO-100 at
orientations it cannot attain, the nearest answers of both (position and angle errors, each
answer checked by the robot's forward kinematics).

    python benchmarks/bench_analytic.py [--poses 200] [--rounds 5] [--batch 200000] [--seven 200]
                                        [--dense 3000]

``--dense N`` adds the 7-joint search's quality: for each of the ``--seven`` poses, from the
rest pose and from a start within 0.05 rad per joint of the pose's own joints, the squared
distance from the start of ``solve(..., method="analytic")``'s answer against the nearest over
a scan of N values of the held joint (each judged as the search judges one, by the closed
form's candidates within the limits): how many answers lie farther than the scan's nearest by
more than 0.001 and 0.1 rad^2, and how many nearer (the nearest between two scanned values).

EAIK is not a geoik dependency: ``pip install eaik`` (skipped when absent).
"""

from __future__ import annotations

import argparse
import statistics
import time
from pathlib import Path

import numpy as np

import geoik as ik
from geoik import jit
from geoik.batch import evaluate
from geoik.batch.parallel import threads
from geoik.checks import check_rotation
from geoik.kinematics import angle_between
from geoik.robots.analytic import analytic_model, kernel_of
from geoik.robots.urdf import example_path, load_example

TOL, ANGLE_TOL = 1e-4, 1e-3
"""What a 7-joint pose solved means here: metres, radians."""


def _continuous(robot: ik.Robot, lo: np.ndarray, hi: np.ndarray) -> ik.Robot:
    """``robot`` with every joint continuous and the limits ``lo``, ``hi`` (radians): the arm
    whose every solution EAIK returns, wrapped or not."""
    return ik.Robot(
        robot.joint_names,
        ("continuous",) * robot.n,
        robot.parents,
        robot.origin_xyz,
        robot.origin_rot,
        robot.axes,
        lo,
        hi,
        robot.tip_names,
        robot.tip_parents,
        robot.tip_xyz,
        robot.tip_rot,
    )


def arms() -> dict[str, ik.Robot]:
    root = example_path("ur5").parents[2]
    out = {name: load_example(name) for name in ("ur5", "ur10", "kinova", "z1")}
    out["ur3"] = ik.load_urdf(Path(root, "ur_description/urdf/ur3_robot.urdf"), tip="tool0")
    talos = Path(root, "talos_data/robots/talos_left_arm.urdf")
    out["talos arm"] = ik.load_urdf(talos, tip="arm_left_7_link")
    out["so100"] = load_example("so100")
    return out


def per_call(fn, poses, rounds: int) -> float:
    times = []
    for _ in range(rounds):
        t0 = time.perf_counter()
        for pose in poses:
            fn(pose)
        times.append((time.perf_counter() - t0) / len(poses))
    return statistics.median(times) * 1e6


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--poses", type=int, default=200)
    ap.add_argument("--rounds", type=int, default=5)
    ap.add_argument("--seven", type=int, default=200, help="7-joint poses (0: none)")
    ap.add_argument("--batch", type=int, default=200_000, help="poses of the batch rows (0: none)")
    ap.add_argument(
        "--dense",
        type=int,
        default=0,
        help="values of the held joint in a scan that checks the answers of the --seven poses "
        "(0: none)",
    )
    args = ap.parse_args()
    try:
        from eaik.IK_HP import HPRobot
    except ImportError:
        HPRobot = None
    rng = np.random.default_rng(0)
    print(
        f"{'arm':<10} {'family':<44} {'solve_all':>9} {'kernel':>8} {'EAIK':>8} "
        f"{'ratio':>6}  same sets"
    )
    for name, robot in arms().items():
        poe = robot.poe()
        plan = robot.analytic_plan()
        qs = robot.random_angles(rng, args.poses)
        frames = [robot.tip_frame(q) for q in qs]
        poses = [(f[:3, 3].copy(), f[:3, :3].copy()) for f in frames]
        with jit.mode("compiled"):
            ik.solve_all(robot, *poses[0], start=qs[0])
        start = robot.rest_angles()
        out = np.empty((16, robot.n + 3))
        model = analytic_model(robot, plan)
        all_solutions = kernel_of(plan)

        def api(pose, robot=robot, start=start):
            ik.solve_all(robot, pose[0], orientation=pose[1], start=start)

        def kernel(pose, model=model, start=start, out=out, all_solutions=all_solutions):
            all_solutions(model, pose[1], pose[0], start, 1e-9, 1e-9, out)

        t_api = per_call(api, poses, args.rounds)
        t_kernel = per_call(kernel, poses, args.rounds)
        t_eaik, same = float("nan"), "-"
        if HPRobot is not None:
            eaik = HPRobot(poe.H.copy(), poe.P.copy())
            targets = []
            for f in frames:
                t = np.eye(4)
                t[:3, :3] = f[:3, :3] @ poe.R_tip.T
                t[:3, 3] = f[:3, 3]
                targets.append(t)
            t_eaik = per_call(eaik.IK, targets, args.rounds)
            agree = 0
            free = _continuous(robot, robot.lo, robot.hi)
            for (p, r), t in zip(poses, targets, strict=True):
                theirs = eaik.IK(t)
                exact = [q for q, ls in zip(theirs.Q, theirs.is_LS, strict=True) if not ls]
                ours = ik.solve_all(free, p, orientation=r).angles
                gap = lambda a, b: np.max(np.abs(np.remainder(a - b + np.pi, 2 * np.pi) - np.pi))  # noqa: E731
                ok = len(exact) == len(ours) and all(
                    min(gap(a, b) for b in exact) < 1e-9 for a in ours
                )
                agree += ok
            same = f"{agree}/{len(poses)}"
        print(
            f"{name:<10} {plan.family[4:48]:<44} {t_api:9.2f} {t_kernel:8.2f} {t_eaik:8.2f} "
            f"{t_api / t_eaik:6.2f}  {same}"
        )
    print("microseconds per pose, one call at a time from Python; machine shared and loaded")
    print()
    if args.batch:
        batch_rows(args.batch, args.rounds, HPRobot)
    nearest_rows(HPRobot)
    print()
    if args.seven:
        seven_joints(args.seven)
    if args.seven and args.dense:
        dense_check(args.seven, args.dense)


def lands(robot: ik.Robot, q: np.ndarray, frame: np.ndarray) -> bool:
    """Whether ``q`` is within the limits and puts the tip within TOL, ANGLE_TOL of ``frame``."""
    if not np.all(np.isfinite(q)) or np.any(q < robot.lo - 1e-9) or np.any(q > robot.hi + 1e-9):
        return False
    got = robot.tip_frame(q)
    angle = jit.call(angle_between, frame[:3, :3], got[:3, :3])
    return bool(np.linalg.norm(got[:3, 3] - frame[:3, 3]) <= TOL and angle <= ANGLE_TOL)


def timed(fn, items) -> tuple[list, float]:
    """Each item's answer and the median microseconds of one call."""
    answers, times = [], []
    for item in items:
        t0 = time.perf_counter()
        answers.append(fn(item))
        times.append(time.perf_counter() - t0)
    return answers, statistics.median(times) * 1e6


def seven_joints(count: int) -> None:
    """The 7-joint table: analytic (the held joint searched), dls, EAIK swept."""
    import robot_peers

    rng = np.random.default_rng(1)
    print(
        f"\n{'7 joints':<10} {'analytic':>9} {'us':>8} {'dls':>9} {'us':>8} {'EAIK':>9} "
        f"{'us':>8} {'ratio':>6}  (solved, median us per call; ratio analytic / EAIK)"
    )
    for name in ("panda", "xarm7"):
        robot = load_example(name)
        frames = [robot.tip_frame(q) for q in robot.random_angles(rng, count)]
        goals = [(f[:3, 3].copy(), f[:3, :3].copy()) for f in frames]
        row = f"{name:<10}"
        median = {}
        for method in ("analytic", "dls"):

            def run(goal, robot=robot, method=method):
                return ik.solve(
                    robot, goal[0], orientation=goal[1], method=method, tol=TOL, angle_tol=ANGLE_TOL
                )

            with jit.mode("compiled"):
                run(goals[0])
            sols, us = timed(run, goals)
            ok = sum(lands(robot, s.angles, f) for s, f in zip(sols, frames, strict=True))
            row += f" {100 * ok / count:8.1f}% {us:8.2f}"
            median[method] = us
        try:
            peer = robot_peers.eaik_peer(robot, 1)
        except robot_peers.UnavailableError as e:
            print(f"{row} {'-':>9} {'-':>8} {'-':>6}  EAIK: {e}")
            continue
        inputs = [peer.prepare(f) for f in frames]
        answers, us = timed(peer.call, inputs)
        ok = 0
        for answer, f in zip(answers, frames, strict=True):
            fits = (robot_peers.into_limits(q, robot.lo, robot.hi) for q in peer.rows(answer))
            ok += any(q is not None and lands(robot, q, f) for q in fits)
        row += f" {100 * ok / count:8.1f}% {us:8.2f} {median['analytic'] / us:6.2f}"
        print(f"{row}  EAIK: {peer.note}")


def dense_check(count: int, values: int) -> None:
    """The 7-joint search's answers against a dense scan of the held joint (see ``--dense``)."""
    from geoik.robots.analytic import _held_model
    from geoik.solvers.analytic import redundant
    from geoik.solvers.analytic.families import MAX_SOLUTIONS
    from geoik.solvers.analytic.finish import tuple9

    print(
        f"\n7-joint answers against a scan of {values:,} values of the held joint "
        f"({count} poses; squared distance from the start, rad^2):"
    )
    for name in ("panda", "xarm7"):
        robot = load_example(name)
        model, held = _held_model(robot, robot.analytic_plan())
        lo = held[7] if held[7] > -np.inf else -np.pi
        hi = held[8] if held[8] < np.inf else np.pi
        grid = np.linspace(lo, hi, values)
        scratch = (
            np.empty((MAX_SOLUTIONS, 6)),
            np.zeros(MAX_SOLUTIONS, np.int64),
            np.empty((3, 2)),
            np.empty((4, 3)),
        )
        keep = np.empty(7)
        rng, near = np.random.default_rng(5), np.random.default_rng(6)
        gaps: dict[str, list[float]] = {"rest": [], "following": []}
        for q in robot.random_angles(rng, count):
            frame = robot.tip_frame(q)
            goal = (tuple9(np.ascontiguousarray(frame[:3, :3])), tuple(frame[:3, 3]))
            follow = np.clip(q + near.uniform(-0.05, 0.05, 7), robot.lo, robot.hi)
            for kind, start in (("rest", robot.rest_angles()), ("following", follow)):
                with jit.mode("compiled"):
                    sol = ik.solve(
                        robot,
                        frame[:3, 3],
                        orientation=frame[:3, :3],
                        start=start,
                        method="analytic",
                    )
                problem = (model, held, goal, start)
                work = (*scratch, redundant._near_start(problem))
                scan = min(redundant._nearest(problem, v, work, np.inf, keep) for v in grid)
                gaps[kind].append(float(np.sum((sol.angles - start) ** 2)) - scan)
        for kind, g in gaps.items():
            a = np.array(g)
            print(
                f"  {name:<6} from {kind:<9}: farther than the scan by > 0.001: "
                f"{int(np.sum(a > 1e-3))}, by > 0.1: {int(np.sum(a > 0.1))}; nearer: "
                f"{int(np.sum(a < -1e-9))}"
            )


def _eaik_targets(robot: ik.Robot, pos: np.ndarray, rot: np.ndarray) -> np.ndarray:
    """The poses as EAIK's (m, 4, 4) frames of the chain without the tip's fixed rotation."""
    t = np.zeros((len(pos), 4, 4))
    t[:, :3, :3] = rot @ robot.poe().R_tip.T
    t[:, :3, 3] = pos
    t[:, 3, 3] = 1.0
    return t


def batch_rows(m: int, rounds: int, HPRobot) -> None:
    """Poses per second of the batch on every core, beside EAIK's batch call."""
    cores = threads()
    print(f"batch of {m:,} reachable poses on {cores} threads: poses per second")
    print(f"{'arm':<10} {'geoik':>12} {'EAIK':>12} {'ratio':>6}  solved (geoik, EAIK exact)")
    rng = np.random.default_rng(1)
    for name in ("so100", "ur5"):
        robot = load_example(name)
        k = min(m, 20_000)
        frames = np.array([robot.tip_frame(q) for q in robot.random_angles(rng, k)])
        reps = -(-m // k)
        pos = np.ascontiguousarray(np.tile(frames[:, :3, 3], (reps, 1))[:m])
        rot = np.ascontiguousarray(np.tile(frames[:, :3, :3], (reps, 1, 1))[:m])
        evaluate(robot, pos[:1000], "analytic", orientations=rot[:1000])  # compiled, warm
        eaik = targets = out = None
        if HPRobot is not None:
            poe = robot.poe()
            eaik = HPRobot(poe.H.copy(), poe.P.copy())
            targets = _eaik_targets(robot, pos, rot)
        best, best_e = np.inf, np.inf
        for _ in range(rounds):  # the two alternate, so that both see the same load
            t0 = time.perf_counter()
            res = evaluate(robot, pos, "analytic", orientations=rot)
            best = min(best, time.perf_counter() - t0)
            if eaik is not None:
                t0 = time.perf_counter()
                out = eaik.IK_batched(targets, cores)
                best_e = min(best_e, time.perf_counter() - t0)
        ours, solved = m / best, "-"
        theirs = m / best_e if eaik is not None else float("nan")
        if out is not None:
            exact = sum(1 for s in out if s.num_solutions() and not all(s.is_LS))
            solved = f"{int(res.solved.sum()):,}, {exact:,}"
        print(f"{name:<10} {ours:12,.0f} {theirs:12,.0f} {ours / theirs:6.2f}  {solved}")
    print("EAIK's counts ignore the joint limits; machine shared and loaded")


def nearest_rows(HPRobot, m: int = 2000) -> None:
    """The SO-100 at random orientations at reachable positions: the nearest answer of each
    (geoik: the position exact, the least angle; EAIK: its least-squares solutions, the one
    nearest the position), measured by the robot's forward kinematics."""
    robot = load_example("so100")
    rng = np.random.default_rng(2)
    pos = np.array([robot.tip_frame(q)[:3, 3] for q in robot.random_angles(rng, m)])
    quat = rng.normal(size=(m, 4))
    quat /= np.linalg.norm(quat, axis=1)[:, None]
    res = evaluate(robot, pos, "analytic", orientations=quat)
    rot = np.array([check_rotation(q) for q in quat])
    print()
    print(f"SO-100, {m:,} random orientations at reachable positions: mean (max) errors")
    print(f"{'':<24} {'position (m)':>22} {'angle (rad)':>20}")
    ok = res.status <= 3
    print(
        f"{'geoik (within limits)':<24} {res.error[ok].mean():11.2e} ({res.error[ok].max():.1e})"
        f" {res.angle_error[ok].mean():12.4f} ({res.angle_error[ok].max():.3f})"
    )
    if HPRobot is None:
        return
    poe = robot.poe()
    eaik = HPRobot(poe.H.copy(), poe.P.copy())
    dp, da = [], []
    free = _continuous(robot, np.full(robot.n, -np.inf), np.full(robot.n, np.inf))
    unlimited = evaluate(free, pos, "analytic", orientations=quat)
    for i, s in enumerate(eaik.IK_batched(_eaik_targets(robot, pos, rot), threads())):
        frames = [robot.tip_frame(q) for q in s.Q]
        if not frames:
            continue
        errs = [
            (np.linalg.norm(f[:3, 3] - pos[i]), angle_between(rot[i], f[:3, :3])) for f in frames
        ]
        e = min(errs)
        dp.append(e[0])
        da.append(e[1])
    dp_, da_ = np.array(dp), np.array(da)
    print(
        f"{'geoik (no limits)':<24} {unlimited.error.mean():11.2e} ({unlimited.error.max():.1e})"
        f" {unlimited.angle_error.mean():12.4f} ({unlimited.angle_error.max():.3f})"
    )
    print(
        f"{'EAIK (no limits)':<24} {dp_.mean():11.2e} ({dp_.max():.1e}) {da_.mean():12.4f} "
        f"({da_.max():.3f})  {len(dp_)} of {m} with an answer"
    )


if __name__ == "__main__":
    main()
