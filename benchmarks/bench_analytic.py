"""Every solution of one pose: geoik's analytic solver beside EAIK, in the same run.

For each 6-joint arm, held-out reachable poses (forward kinematics of random joint values
within the limits) are solved one call at a time from Python: ``geoik.solve_all`` (validation,
one compiled call, the result object), the compiled kernel alone, and EAIK's ``IK`` on the
same arm given by its axes and offsets (``HPRobot``). Prints microseconds per call (median of
rounds), the ratio geoik / EAIK, and whether both found the same solution sets (same count of
exact solutions, each of geoik's within 1e-9 of one of EAIK's, EAIK's without joint limits).

Then the 7-joint arms (Franka Panda, xArm7): ``geoik.solve(robot, target, orientation=R,
method="analytic")`` on held-out reachable poses (the held joint searched in one compiled
call), beside geoik's ``dls`` on the same poses and EAIK with the same joint locked at
:data:`robot_peers.SWEEP` values across its limits (one EAIK robot per value, built before
timing; its rows kept when a turn by 2 pi puts them within the limits). A pose counts as
solved when the answer's forward kinematics lies within 1e-4 m and 1e-3 rad of it with every
joint within its limits. Prints the share solved and the median microseconds per call.

    python benchmarks/bench_analytic.py [--poses 200] [--rounds 5] [--seven 200]

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
from geoik.kinematics import angle_between
from geoik.robots.urdf import example_path, load_example
from geoik.solvers.analytic import all_solutions, pack

TOL, ANGLE_TOL = 1e-4, 1e-3
"""What a 7-joint pose solved means here: metres, radians."""


def arms() -> dict[str, ik.Robot]:
    root = example_path("ur5").parents[2]
    out = {name: load_example(name) for name in ("ur5", "ur10", "kinova", "z1")}
    out["ur3"] = ik.load_urdf(Path(root, "ur_description/urdf/ur3_robot.urdf"), tip="tool0")
    talos = Path(root, "talos_data/robots/talos_left_arm.urdf")
    out["talos arm"] = ik.load_urdf(talos, tip="arm_left_7_link")
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
        out = np.empty((16, 9))
        model = pack(
            plan.code, plan.reverse, plan.H, plan.P, plan.R_tip, plan.points, robot.lo, robot.hi
        )

        def api(pose, robot=robot, start=start):
            ik.solve_all(robot, pose[0], orientation=pose[1], start=start)

        def kernel(pose, model=model, start=start, out=out):
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
            free = ik.Robot(
                robot.joint_names,
                ("continuous",) * 6,
                robot.parents,
                robot.origin_xyz,
                robot.origin_rot,
                robot.axes,
                robot.lo,
                robot.hi,
                robot.tip_names,
                robot.tip_parents,
                robot.tip_xyz,
                robot.tip_rot,
            )
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
    if args.seven:
        seven_joints(args.seven)


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


if __name__ == "__main__":
    main()
