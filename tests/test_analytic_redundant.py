"""7-joint arms by the analytic solver: the held joint folded into the goal (either end of the
chain), and the compiled search of its value: held-out reachable poses of the Franka Panda and
the xArm7 all solved, exactly (the robot's own forward kinematics), within the limits, the
solution near a start that is near one of the pose's solutions, unreachable poses reported."""

from __future__ import annotations

import math

import numpy as np
import pytest

import geoik as ik
from geoik import jit
from geoik.kinematics import angle_between
from geoik.robots import analytic as robot_analytic
from geoik.robots.urdf import example_path, load_example
from geoik.solvers.analytic import redundant as rd
from geoik.solvers.analytic.decompose import lock_joint
from geoik.solvers.analytic.finish import forward
from geoik.solvers.analytic.redundant import held_goal, held_solutions, held_sweep, pack_held

pytest.importorskip("yourdfpy")


def _arm(name: str) -> ik.Robot:
    if name == "panda":
        return load_example("panda")
    path = example_path("ur5").parents[2] / "xarm_description/urdf/xarm7.urdf"
    return ik.load_urdf(path, tip="link_eef")


def _tuples(frame: np.ndarray) -> tuple[tuple[float, ...], tuple[float, ...]]:
    return tuple(frame[:3, :3].ravel().tolist()), tuple(frame[:3, 3].tolist())


@pytest.mark.parametrize("joint", [0, 6])
def test_the_held_joint_moves_the_goal(joint):
    """The six joints' goal with the held joint at ``v`` is the pose of the chain with that
    joint held at ``v``, for the first joint (the goal turned back about its axis) and the last
    (the goal turned about the axis in the tip's frame)."""
    poe = load_example("panda").poe()
    held = pack_held(joint, poe.H, poe.P, poe.R_tip, -np.pi, np.pi)
    rng = np.random.default_rng(3)
    for _ in range(10):
        q = rng.uniform(-np.pi, np.pi, 7)
        rot, pos = _tuples(poe.forward(q))
        r6, p6 = held_goal(held, rot, pos, q[joint])
        h, p, r = lock_joint(poe.H, poe.P, poe.R_tip, joint, 0.0)
        got_r, got_p = forward(h, p, r, np.delete(q, joint))
        np.testing.assert_allclose(got_r, r6, rtol=0, atol=1e-12)
        np.testing.assert_allclose(got_p, p6, rtol=0, atol=1e-12)


@pytest.mark.parametrize("name", ["panda", "xarm7"])
def test_seven_joints_searched(name):
    """``solve(method="analytic")`` on held-out reachable poses, from the rest pose and from a
    start near the pose's joint values: REACHED every time, the forward kinematics on the pose
    to 1e-9, every joint within its limits, nothing NaN; from the near start, the solution is
    near it (the search keeps the nearest; near a shoulder or elbow singularity, where the
    joints beside it swing far for a small turn of the held one, it can miss that one)."""
    robot = _arm(name)
    rng = np.random.default_rng(11)
    qs = robot.random_angles(rng, 30)
    close = 0
    for q in qs:
        frame = robot.tip_frame(q)
        near = np.clip(q + rng.uniform(-0.05, 0.05, 7), robot.lo, robot.hi)
        for start in (None, near):
            sol = ik.solve(
                robot, frame[:3, 3], orientation=frame[:3, :3], method="analytic", start=start
            )
            assert sol.status is ik.Status.REACHED
            assert not np.any(np.isnan(sol.angles))
            assert np.all(sol.angles >= robot.lo) and np.all(sol.angles <= robot.hi)
            got = robot.tip_frame(sol.angles)
            assert np.linalg.norm(got[:3, 3] - frame[:3, 3]) <= 1e-9
            assert jit.call(angle_between, frame[:3, :3], got[:3, :3]) <= 1e-9
        close += np.max(np.abs(sol.angles - near)) < 0.2
    assert close >= 27


@pytest.mark.parametrize("name", ["panda", "xarm7"])
def test_a_start_near_a_solution_gets_one_at_most_as_far(name):
    """Following a target: from a start within 0.05 rad per joint of a known solution ``q``,
    the solution returned is as near the start as ``q`` (the nearest is at most as far; 0.01
    rad^2 allowed for a fold, where the held joint turns back along the solutions and the
    closed form meets the branch only at its edge), also near a singularity of the six joints,
    where the nearest solution lies in a window of the held joint's values far narrower than
    the search's grid."""
    robot = _arm(name)
    rng = np.random.default_rng(5)
    for q in robot.random_angles(rng, 60):
        frame = robot.tip_frame(q)
        near = np.clip(q + rng.uniform(-0.05, 0.05, 7), robot.lo, robot.hi)
        sol = ik.solve(
            robot, frame[:3, 3], orientation=frame[:3, :3], method="analytic", start=near
        )
        assert sol.status is ik.Status.REACHED
        assert np.sum((sol.angles - near) ** 2) <= np.sum((q - near) ** 2) + 0.01


def _followed(name, case, method="analytic"):
    """The 7-joint arm ``name`` solved by ``method`` towards the pose of ``case``'s solution
    ``q`` (its first two lists) from ``case``'s start (its last two), as a followed target is:
    REACHED, within the limits, and no farther from the start than ``q`` by more than 0.01
    rad^2 (another branch is farther by tenths of a rad^2 or more). Returns the solution."""
    robot = _arm(name)
    q = np.array(case[0] + case[1])
    near = np.array(case[2] + case[3])
    frame = robot.tip_frame(q)
    sol = ik.solve(robot, frame[:3, 3], orientation=frame[:3, :3], method=method, start=near)
    assert sol.status is ik.Status.REACHED
    assert np.all(sol.angles >= robot.lo) and np.all(sol.angles <= robot.hi)
    assert np.sum((sol.angles - near) ** 2) <= np.sum((q - near) ** 2) + 0.01
    return sol


FOLD_CASES = [  # (a solution q, a start within 0.05 rad per joint of it): the Panda
    (
        [0.5464309549951629, -0.571460183352051, -0.628024539539517, -0.39919639528161355],
        [-1.581012608511478, 2.3319155354663796, -2.4104646900775126],
        [0.5262067119237602, -0.6160802724683536, -0.6212576641552983, -0.3551405803179684],
        [-1.5585852368349473, 2.367553344464637, -2.406033125102577],
    ),
    (
        [0.7310489773833528, -0.010806596435596116, -1.8120833235244838, -0.4115028604032722],
        [2.2157777515519546, 2.0543728869611555, 1.1942440411662418],
        [0.6988608381006793, 0.036504159485408985, -1.7634506535925505, -0.43307609240108413],
        [2.195230461802819, 2.0392326113863852, 1.212927927446547],
    ),
]


BEYOND_REACH_CASES = [  # (a solution q, a start within 0.05 rad per joint of it): the xArm7
    (
        [1.7711060522943693, -1.6142144867433945, 2.415536343522069, 2.4251655210138394],
        [-1.5517893696962544, 2.1675411456537654, -3.8449892670476107],
        [1.784232387646259, -1.5988144788178127, 2.4247585003631595, 2.3962483855312278],
        [-1.556823458800932, 2.2162949847474005, -3.8040662244248376],
    ),
    (
        [5.07498771591446, -0.9816911154041232, 3.298810222432758, 2.701078004246954],
        [-1.6794235050528918, 1.6904289567348332, 5.2873267674259985],
        [5.0419193113302, -0.9671993801581743, 3.336791906545623, 2.6942363534710787],
        [-1.6764856212527277, 1.6765353401458725, 5.2629617734656335],
    ),
]

LIMIT_EDGE_CASE = (  # the xArm7: joint 5 at 6.268 of its limit 6.283, the start's at the limit
    [1.265693557810227, -1.9567949780697405, -1.2129161947128067, 2.7116910738872932],
    [6.26765639190223, -1.0941634119789354, -1.3098022120567983],
    [1.266444153909615, -1.9393730851041266, -1.227090872351425, 2.7358597558773283],
    [6.283185307179586, -1.0970609117540027, -1.2711027344306165],
)


def test_a_branch_cut_off_by_a_limit_next_to_the_start_is_found():
    """Joint 7's values that keep the solution's branch within joint 5's limit end at -1.304;
    the start's (-1.271) lies beyond, with joint 5 at its limit. The local solve from the start
    slows there and ends unsettled 3e-4 m from the pose, at -1.303, where the closed form has no
    candidate of that branch; the answer came from another branch 17 rad^2 away. Its branch is
    now sought at the edge from the unsettled answer, as from a settled one."""
    _followed("xarm7", LIMIT_EDGE_CASE)


STRETCHED_ELBOW_CASES = [  # the Panda: a solution q with joint 4 within 3 mrad of its upper
    # limit (the elbow nearly stretched), and a start within 0.05 rad per joint of it
    (
        [1.8582998993770796, -0.5307492912033935, 0.3395994152024957, -0.07280594532415485],
        [0.030576410820031708, 2.6373504632127003, 0.14332258878382698],
        [1.892490184776672, -0.4980705325635044, 0.2974902968143145, -0.0698],
        [0.02281031009732183, 2.6408280279023635, 0.11596694298277986],
    ),
    (
        [2.6018643597195124, 1.3857381717805928, -0.338116537330051, -0.07216972302063941],
        [2.5306285901733934, 1.6965814874795846, 0.2382156576051222],
        [2.557559377735381, 1.3839321457453795, -0.3387667916479674, -0.0698],
        [2.488102261274691, 1.6692772905472142, 0.20289880032169816],
    ),
]


@pytest.mark.parametrize("case", STRETCHED_ELBOW_CASES)
def test_following_with_the_elbow_at_its_limit_keeps_the_branch(case):
    """Beside the stretched elbow, joints 3 and 5 swing by tenths of a radian as joint 7
    turns by hundredths, so the nearest solution lies in a window of joint 7 a few mrad wide;
    the local solve from the start (its elbow at the limit) stalls 1-3 cm from the pose. The
    start's branch is followed across joint 7's values near the start's into that window; the
    answer came from another branch 0.14 and 12 rad^2 away."""
    _followed("panda", case)


@pytest.mark.parametrize("case", BEYOND_REACH_CASES)
def test_a_branch_the_closed_form_loses_near_a_fold_is_kept_from_the_local_solve(case):
    """Each solution lies near a fold of joint 7, where the closed form of the six other
    joints, at the solution's own value of joint 7, puts the target about a micrometre beyond
    their reach and flags every candidate of that branch inexact (polishing cannot mend it:
    the six joints are singular there). The local solve of all seven joints finds the
    solution; it was dropped, and the answer came from another branch 15-21 rad^2 away.
    (The batch, which runs the same search: ``test_batch_arms``.)"""
    for method in ("analytic", "auto"):
        sol = _followed("xarm7", case, method)
        assert sol.method == "analytic"
        assert sol.error <= 1e-9 and sol.angle_error <= 1e-9


@pytest.mark.parametrize("case", FOLD_CASES)
def test_a_start_near_a_fold_of_the_held_joint_gets_the_solution_there(case):
    """Each solution lies at a fold of joint 7 (along the solutions it turns back there, the
    six other joints singular), and the start's value of joint 7 lies beyond the fold, where
    that branch has no solution: the local solve from the start converges to the fold only
    linearly, and once gave up there, answering from another branch 0.35-0.41 rad away."""
    _followed("panda", case)


STALLED_NEAR_CASES = [  # (a solution q, a start within 0.05 rad per joint of it): the xArm7, its
    # start's orientation 0.14 rad from the pose's
    (
        [-4.55394739885279, -0.2355803435987791, 4.181483662245686, 3.225303647154992],
        [0.9040297854563741, -0.12296140771678488, 2.9753251103306138],
        [-4.602964213862565, -0.28542512152933863, 4.166020675086163, 3.250648405652246],
        [0.9093608962006005, -0.1617409225355027, 2.926209833892356],
    ),
    (
        [2.1610177380084625, 1.1072736577797508, 0.08914635247629477, 2.9255314112413724],
        [4.783668370608668, 2.8735444006420057, 1.8171138085186165],
        [2.1157905443132847, 1.1394655184216747, 0.07300731857546289, 2.8758355862759166],
        [4.804157389012686, 2.917882356906877, 1.7699760322840927],
    ),
]


@pytest.mark.parametrize("case", STALLED_NEAR_CASES)
def test_a_local_solve_stalled_near_the_pose_has_the_start_s_branch_followed(case):
    """The local solve from these starts stalls about a millimetre from the pose, its error
    falling by less than half a step; the start's own orientation lies 0.14 rad from the
    pose's, beyond the 0.1 rad within which a stalled solve had the start's branch followed,
    and the answer came from a grid value of joint 7, 0.01-0.07 rad^2 farther from the start
    than ``q``. A solve stalled that near the pose now has the branch followed too."""
    _followed("xarm7", case)


BEYOND_FOLD_CASE = (  # the xArm7: the local solve ends 1.5 mrad of joint 7 beyond a fold
    [5.195675816128576, -0.01599599336926616, 3.637288737311227, 2.7445556449240938],
    [5.510860898286007, 1.090451207636243, -4.77039935103005],
    [5.17191006460628, -0.0650003287542448, 3.653429089743849, 2.6986630710119957],
    [5.464287440780499, 1.0480377519009374, -4.810706952581752],
)


def test_a_local_solve_that_ends_farther_beyond_a_fold_has_its_branch_found():
    """The local solve stalls half a millimetre from the pose at a value of joint 7 about 1.5
    mrad beyond a fold of the solution's branch; the branch was sought 1 mrad to each side of
    it only, and the answer came 0.52 rad^2 farther from the start than ``q``. It is now
    sought 1, 3 and 9 mrad out."""
    _followed("xarm7", BEYOND_FOLD_CASE)


FOLD_BEYOND_START_CASE = (  # the Panda: joint 7's start 0.034 rad beyond the fold at q's
    [-2.8756856013093604, 0.2793567281489162, 1.6289013553516596, -0.45987931934706383],
    [-1.826273738803014, 1.7861324663982256, 0.5744733478882154],
    [-2.8798610611864888, 0.2620332419149233, 1.660952100554104, -0.49989037803774133],
    [-1.8187706152432133, 1.7545034867946898, 0.6087585230610287],
)


def test_a_branch_that_ends_between_two_followed_values_is_sought_at_its_edge():
    """The solution's branch ends at a fold of joint 7 just beyond ``q``'s value, and its
    distance from the start falls from 0.09 to 0.005 rad^2 in the last 5 mrad before it; the
    start's value lies 34 mrad beyond the fold, where no candidate exists, and the local solve
    stalls. The branch was followed from the local solve's stalled values rather than the
    start's, and in steps of 42 mrad met only a smooth minimum 0.05 rad^2 away. It is now
    followed from the start, and the edge between a value without the branch and one with it
    is bisected, as the local solve's is."""
    _followed("panda", FOLD_BEYOND_START_CASE)


UNSETTLED_CASE = (  # the Panda: the start's elbow (joint 4) at its limit, q's 4 mrad from it
    [-1.3318282487925883, -1.6514911487101909, -0.22192890977728963, -0.07389577153011206],
    [-0.27621268923383324, 1.903408116506966, -0.5338789857589101],
    [-1.3544298412983393, -1.6628666590390155, -0.19021999919352572, -0.0698],
    [-0.2909671305762834, 1.8702299936883924, -0.5776904041041163],
)


def test_an_unsettled_local_solve_s_value_is_refined():
    """The local solve stalls 5 mm from the pose, beside the nearest solution, whose distance
    from the start rises from 0.006 to 0.4 rad^2 within 13 mrad of joint 7 each way. Its value
    was taken as settled and not refined, and the answer lay 0.018 rad^2 from the start
    (``q`` 0.005); an unsettled value is now refined as a grid value is."""
    _followed("panda", UNSETTLED_CASE)


NARROW_WINDOW_CASE = (  # the Panda: the start's elbow at its limit, q's 15 mrad from it
    [2.789879781437181, -0.9552765779940497, -1.3069792581919548, -0.08479968542247818],
    [-0.3880080853994725, 1.975656915937233, -2.2520902258372195],
    [2.777696214526553, -0.9950762841037651, -1.3423269207196935, -0.0698],
    [-0.4139912286606022, 1.9885176612243947, -2.23244356904678],
)


def test_a_narrow_window_beside_the_start_s_value_is_found_when_the_local_solve_stalls():
    """The nearest solution lies in a narrow window of joint 7 (the distance from the start
    0.004 rad^2 at its middle, above 0.08 rad^2 7 mrad to either side, about 1 rad^2 20 mrad
    out), 20 mrad from the start's value; the local solve wanders off, and the start's branch,
    followed, is another, 0.95 rad^2 away. When the local solve stalls near the pose, values at
    growing offsets from the start's are now tried too, as when it gives no seed at all."""
    _followed("panda", NARROW_WINDOW_CASE)


@pytest.mark.parametrize("name", ["panda", "xarm7"])
def test_the_search_s_nearest_candidate_at_a_value_is_the_full_solve_s(name):
    """The search measures a value of the held joint by its candidate nearest the start within
    the limits (``_nearest``), and drops before the wrist the wrist centre's rows with a joint
    that no turn puts within its limits, or that alone are farther from the start than the
    best distance found so far. At random values, starts and bounds: the same distance and
    joint values, to the bit, as with no row dropped (the limits opened for the rows alone,
    no bound), and the same candidate as the full solve's first row at that value (every
    candidate polished and checked); with a bound, the same below it, at least the bound
    above it."""
    robot = _arm(name)
    model, held = robot_analytic._held_model(robot, robot.analytic_plan())
    lo, hi = max(held[7], -np.pi), min(held[8], np.pi)
    rng = np.random.default_rng(11)
    keep, every = np.empty(7), np.empty(7)
    out = np.empty((64, 10))
    checked = bounded = 0
    for q in robot.random_angles(rng, 150):
        frame = robot.tip_frame(q)
        start = robot.random_angles(rng, 1)[0] if checked % 2 else robot.rest_angles()
        problem = (model, held, _tuples(frame), start)
        scratch = (np.empty((16, 6)), np.zeros(16, np.int64), np.empty((3, 2)), np.empty((4, 3)))
        work = (*scratch, rd._near_start(problem))
        opened = rd._near_start(problem)
        opened[3::4], opened[4::4] = -np.inf, np.inf  # each row's joints: no limits
        v = rng.uniform(lo, hi)
        got = rd._nearest(problem, v, work, np.inf, keep)
        assert got == rd._nearest(problem, v, (*scratch, opened), np.inf, every)
        a, _, _, _ = held_solutions(
            model, held, frame[:3, :3].copy(), frame[:3, 3].copy(), start, 1e-9, 1e-9, v, out
        )
        if a == 0:
            assert got == np.inf
            continue
        np.testing.assert_array_equal(keep, every)
        # the same candidate as the full solve's (polished: on the xArm7, whose axes miss
        # meeting by micrometres, by up to about 1e-4 rad)
        np.testing.assert_allclose(keep, out[0, :7], rtol=0, atol=1e-3)
        checked += 1
        bound = got * rng.uniform(0.5, 1.5)
        capped = rd._nearest(problem, v, work, bound, keep)
        if got < bound:
            assert capped == got
            np.testing.assert_array_equal(keep, every)
            bounded += 1
        else:
            assert capped >= bound
    assert checked >= 50 and bounded >= 20, (checked, bounded)


@pytest.mark.parametrize("name", ["panda", "xarm7"])
def test_seven_joints_out_of_reach(name):
    """A pose beyond the arm's reach: CLOSEST, within the limits, not NaN."""
    robot = _arm(name)
    frame = robot.tip_frame(robot.rest_angles())
    target = frame[:3, 3] + np.array([3.0, 0.0, 0.0])
    sol = ik.solve(robot, target, orientation=frame[:3, :3], method="analytic")
    assert sol.status is ik.Status.CLOSEST
    assert not np.any(np.isnan(sol.angles))
    assert np.all(sol.angles >= robot.lo) and np.all(sol.angles <= robot.hi)


@pytest.mark.parametrize("name", ["ur5", "so100", "panda"])
@pytest.mark.parametrize("bad", [math.nan, -math.inf])
def test_a_start_that_is_not_finite_is_refused_by_name(name, bad):
    """A start given as a float64 array goes to the kernel as it is; one that is not finite (or
    absurdly large) is refused, naming ``start``, and never sorts the solutions by NaN."""
    robot = load_example(name)
    frame = robot.tip_frame(robot.random_angles(np.random.default_rng(7)))
    start = robot.rest_angles()
    start[2] = bad
    for call in (ik.solve_all, lambda *a, **k: ik.solve(*a, method="analytic", **k)):
        with pytest.raises(ik.InvalidPoseError) as err:
            call(robot, frame[:3, 3], orientation=frame[:3, :3], start=start)
        assert err.value.argument == "start"
    good = ik.solve_all(robot, frame[:3, 3], orientation=frame[:3, :3], start=robot.rest_angles())
    assert len(good) >= 1 and np.all(np.isfinite(good.angles))


def test_a_pose_whose_rotation_is_no_rotation_is_refused_by_name_at_one_value_and_many():
    """A 7-joint arm's float64 (4, 4) pose goes to the held kernels with its rotation block
    unchecked; one that is no rotation is refused, naming ``target[:3, :3]``, at a given value
    of the held joint and at several; one a little off orthonormal is made a rotation."""
    robot = load_example("panda")
    frame = robot.tip_frame(robot.rest_angles() + 0.2)
    mirrored = frame.copy()
    mirrored[:3, 0] *= -1.0
    nudged = frame.copy()
    nudged[0, 0] += 1e-9
    for redundancy in (0.3, [0.3, 0.5]):
        with pytest.raises(ik.InvalidTargetError) as err:
            ik.solve_all(robot, mirrored, redundancy=redundancy)
        assert err.value.argument == "target[:3, :3]"
        got = ik.solve_all(robot, nudged, redundancy=redundancy)
        assert len(got) >= 1
        assert np.abs(got.orientation @ got.orientation.T - np.eye(3)).max() <= 1e-14
        for q in got.angles:
            assert angle_between(robot.tip_frame(q)[:3, :3], got.orientation) <= 1e-9


def test_warming_up_compiles_the_7_joint_kernel_a_solve_then_runs():
    """``geoik.warm_up([...], robots=True)`` compiles the 7-joint kernels from a 6-joint arm
    standing in (a seventh joint on its last axis held): both forms of the search's and the
    sweep's run there, and a Panda's solve, ``solve_all`` at one value and at several then run
    those compiled kernels (no other argument types)."""
    from geoik.api import _small_arm
    from geoik.robots.analytic import warm_held

    with jit.mode("compiled"):
        warm_held(_small_arm())
        assert len(held_solutions.signatures) == len(held_sweep.signatures) == 1
        robot = load_example("panda")
        frame = robot.tip_frame(robot.rest_angles() + 0.2)
        sol = ik.solve(robot, frame[:3, 3], orientation=frame[:3, :3], method="analytic")
        assert sol.status is ik.Status.REACHED
        assert len(ik.solve_all(robot, frame, redundancy=0.3)) >= 1
        assert len(ik.solve_all(robot, frame, redundancy=[0.3, 0.5])) >= 2
        assert len(held_solutions.signatures) == len(held_sweep.signatures) == 1
