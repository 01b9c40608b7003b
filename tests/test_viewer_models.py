"""The viewer's robot and rig modes through Starlette's test client: the ``robot``,
``robot_solve``, ``clip``, ``pose`` and ``save`` messages, the mesh route (only the files the
loaded URDF names), bad input (an error reply naming the field; the connection stays up) and
the ``geoik view`` flags that load them."""

from __future__ import annotations

import math
import shutil
import warnings

import numpy as np
import pytest

pytest.importorskip(
    "starlette", reason="the viewer extra is not installed: pip install 'geoik[viewer]'"
)
pytest.importorskip("httpx", reason="starlette's test client needs httpx")
pytest.importorskip("yourdfpy", reason="robots need the robots extra")

with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    from starlette.testclient import TestClient

import geoik as ik  # noqa: E402
from geoik.robots.urdf import EXAMPLES, example_path  # noqa: E402
from geoik.viewer.models import Models, load_rig, load_robot  # noqa: E402
from geoik.viewer.server import create_app  # noqa: E402
from tests.test_viewer_api import CHAIN, ask  # noqa: E402

BVH = "tests/data/bvh/freebvh_walk.bvh"


@pytest.fixture(scope="module")
def clip_file(tmp_path_factory):
    folder = tmp_path_factory.mktemp("clip")
    return shutil.copy(BVH, folder / "walk.bvh")


@pytest.fixture(scope="module")
def models(clip_file):
    robot = load_robot(example_path("panda"), "panda_hand_tcp", "--robot panda")
    return Models(robot, load_rig(clip_file))


@pytest.fixture(scope="module")
def client(models):
    with TestClient(create_app(warm=False, models=models)) as c:
        yield c


@pytest.fixture
def ws(client):
    with client.websocket_connect("/ws") as sock:
        yield sock


# ---------------------------------------------------------------------------- robots


@pytest.mark.parametrize("name", list(EXAMPLES))
def test_every_link_is_placed_by_the_models_forward_kinematics(name):
    m = load_robot(example_path(name), EXAMPLES[name][1][0])
    q = m.robot.random_angles(np.random.default_rng(1))
    poses = m.link_poses(q)
    tip = m.robot.tip_frame(q)
    pose = poses[m.links.index(m.robot.tip_names[0])]
    np.testing.assert_allclose(pose[:3], tip[:3, 3], atol=1e-12)
    w, x, y, z = pose[3:]
    r = np.array(
        [
            [1 - 2 * (y * y + z * z), 2 * (x * y - w * z), 2 * (x * z + w * y)],
            [2 * (x * y + w * z), 1 - 2 * (x * x + z * z), 2 * (y * z - w * x)],
            [2 * (x * z - w * y), 2 * (y * z + w * x), 1 - 2 * (x * x + y * y)],
        ]
    )
    np.testing.assert_allclose(r, tip[:3, :3], atol=1e-9)
    assert m.notes == [] and m.meshes  # every visual of the example robots is drawn


def test_robot_describes_the_model_its_limits_and_its_meshes(ws, client):
    r = ask(ws, {"type": "robot", "id": 1})
    assert r["type"] == "robot" and r["name"] == "panda" and r["tip"] == "panda_hand_tcp"
    panda = ik.load_urdf(example_path("panda"), tip="panda_hand_tcp")
    assert [j["name"] for j in r["joints"]] == list(panda.joint_names)
    assert [j["lo"] for j in r["joints"]] == pytest.approx(panda.lo.tolist())
    assert set(r["methods"]) >= {"ccd", "dls"}
    assert "panda_leftfinger" in r["links"]  # links beyond the tip are drawn too
    urls = [m["url"] for m in r["meshes"]]
    for k, url in enumerate(urls):
        got = client.get(url)
        assert got.status_code == 200 and got.headers["content-type"] == "model/vnd.collada+xml"
        assert got.content[:5] == b"<?xml", k


@pytest.mark.parametrize("path", ["/model/mesh/99", "/model/mesh/-1", "/model/mesh/x", "/model/x"])
def test_the_mesh_route_serves_only_the_urdfs_meshes(client, path):
    assert client.get(path).status_code == 404


@pytest.mark.parametrize("method", ["dls", "ccd"])
def test_robot_solve_reaches_a_reachable_pose_and_places_every_link(ws, method):
    panda = ik.load_urdf(example_path("panda"), tip="panda_hand_tcp")
    q = panda.rest_angles() + np.array([0.3, 0.4, -0.2, -1.2, 0.1, 1.3, 0.2])
    goal = panda.tip_frame(q)
    quat = ask(ws, {"type": "robot", "id": 0})["tip_frame"]["quaternion"]
    # a budget ccd needs from the rest pose at robots' tolerance of 0.1 mm (its default of 100
    # iterations ends 0.12 mm away)
    msg = {"type": "robot_solve", "id": 2, "method": method, "reset": True, "max_iter": 1000}
    r = ask(ws, dict(msg, target=goal[:3, 3].tolist(), orientation=_quat(goal[:3, :3])))
    assert r["type"] == "robot_solve" and r["method"] == method, r
    assert (
        r["status"] == "REACHED" and r["error"] <= r["tol"] and r["angle_error"] <= r["angle_tol"]
    )
    assert np.all(np.array(r["angles"]) >= panda.lo - 1e-9)
    assert np.all(np.array(r["angles"]) <= panda.hi + 1e-9)
    np.testing.assert_allclose(r["tip_frame"]["position"], goal[:3, 3], atol=r["tol"])
    assert len(r["poses"]) == 13 and r["solve_ms"] > 0 and len(quat) == 4
    # position only, from that solution
    r2 = ask(ws, {"type": "robot_solve", "id": 3, "method": method, "target": [0.4, 0.2, 0.5]})
    assert r2["status"] == "REACHED" and r2["angle_error"] is None and r2["orientation"] is None


def test_robot_solve_by_default_is_auto_the_analytic_solver_with_an_orientation(ws):
    """The robot tab's default method, auto: a pose with an orientation answered by the
    analytic solver (the Panda decomposes with joint 7 held), a position only by dls."""
    panda = ik.load_urdf(example_path("panda"), tip="panda_hand_tcp")
    assert ask(ws, {"type": "robot", "id": 0})["methods"][0] == "auto"
    q = panda.rest_angles() + np.array([0.3, 0.4, -0.2, -1.2, 0.1, 1.3, 0.2])
    goal = panda.tip_frame(q)
    msg = {"type": "robot_solve", "id": 2, "reset": True, "target": goal[:3, 3].tolist()}
    r = ask(ws, dict(msg, orientation=_quat(goal[:3, :3])))
    assert r["method"] == "analytic" and r["status"] == "REACHED", r
    assert r["error"] <= 1e-9 and r["angle_error"] <= 1e-9
    assert np.all(np.array(r["angles"]) >= panda.lo - 1e-12)
    assert np.all(np.array(r["angles"]) <= panda.hi + 1e-12)
    np.testing.assert_allclose(panda.tip_frame(r["angles"]), goal, atol=1e-9)
    r2 = ask(ws, {"type": "robot_solve", "id": 3, "target": [0.4, 0.2, 0.5]})
    assert r2["method"] == "dls" and r2["status"] == "REACHED" and r2["orientation"] is None


def _quat(r):
    from geoik.viewer.models import quaternion

    return quaternion(r)


@pytest.fixture(scope="module")
def hand_ws():
    """A server started as ``geoik view --robot allegro`` (its four fingertips)."""
    hand = load_robot(example_path("allegro"), EXAMPLES["allegro"][1], "--robot allegro")
    with (
        TestClient(create_app(warm=False, models=Models(hand))) as c,
        c.websocket_connect("/ws") as sock,
    ):
        yield sock, hand


def test_a_hand_is_described_with_every_fingertip(hand_ws):
    sock, hand = hand_ws
    r = ask(sock, {"type": "robot", "id": 1})
    assert r["tips"] == list(EXAMPLES["allegro"][1]) and r["tip"] == r["tips"][0]
    frames = hand.robot.tip_frames(hand.robot.rest_angles())
    assert len(r["tip_frames"]) == 4
    for got, want in zip(r["tip_frames"], frames, strict=True):
        np.testing.assert_allclose(got["position"], want[:3, 3], atol=1e-12)
        assert got["quaternion"] == pytest.approx(_quat(want[:3, :3]))


@pytest.mark.parametrize("method", ["dls", "ccd"])
def test_every_fingertip_is_solved_together_with_a_readout_each(hand_ws, method):
    """Targets where the fingertips are in a random pose within the limits: every tip reaches
    its own, the joints stay within their limits, and each tip link is drawn where its reply
    says it is."""
    sock, hand = hand_ws
    robot = hand.robot
    q = robot.random_angles(np.random.default_rng(5))
    goals = robot.tip_frames(q)
    targets = {n: goals[i, :3, 3].tolist() for i, n in enumerate(robot.tip_names)}
    msg = {"type": "robot_solve", "id": 2, "method": method, "reset": True, "targets": targets}
    r = ask(sock, msg)
    assert r["type"] == "robot_solve", r
    assert [t["name"] for t in r["tips"]] == list(robot.tip_names)
    for tip in r["tips"]:
        assert tip["status"] == "REACHED" and tip["error"] <= r["tol"], tip
        assert tip["target"] == targets[tip["name"]] and tip["angle_error"] is None
        np.testing.assert_allclose(tip["frame"]["position"], targets[tip["name"]], atol=r["tol"])
        pose = r["poses"][hand.links.index(tip["name"])]
        np.testing.assert_allclose(pose[:3], tip["frame"]["position"], atol=1e-9)
    assert r["status"] == "REACHED" and r["reached"] and r["error"] <= r["tol"]
    angles = np.array(r["angles"])
    assert np.all(angles >= robot.lo - 1e-9) and np.all(angles <= robot.hi + 1e-9)
    # one fingertip sent far out of reach: its readout says so, and every tip's readout is
    # where its frame is
    far = dict(targets, **{robot.tip_names[2]: [0.5, 0.5, 0.5]})
    r = ask(sock, dict(msg, id=3, targets=far))
    by_name = {t["name"]: t for t in r["tips"]}
    assert by_name[robot.tip_names[2]]["status"] != "REACHED" and not r["reached"]
    assert r["error"] == by_name[robot.tip_names[2]]["error"] > r["tol"]
    for tip in r["tips"]:
        gap = math.dist(tip["frame"]["position"], far[tip["name"]])
        assert tip["error"] == pytest.approx(gap, rel=1e-9, abs=1e-15)
        assert (tip["status"] == "REACHED") <= (gap <= r["tol"])


def test_some_fingertips_may_be_left_without_a_target(hand_ws):
    sock, hand = hand_ws
    rest = hand.robot.tip_frames(hand.robot.rest_angles())
    one = {hand.robot.tip_names[1]: (rest[1, :3, 3] + [0.0, 0.0, -0.01]).tolist()}
    r = ask(sock, {"type": "robot_solve", "id": 4, "reset": True, "targets": one})
    assert [t["name"] for t in r["tips"]] == [hand.robot.tip_names[1]]
    assert r["tips"][0]["status"] == "REACHED"


HAND_BAD = [
    ({"target": [0.1, 0.0, 0.1]}, "targets"),
    ({"targets": {}}, "targets"),
    ({"targets": {"nope": [0, 0, 0.1]}}, "targets"),
    ({"targets": [[0, 0, 0.1]]}, "targets"),
    ({"targets": {"link_3.0_tip": [0, 0]}}, "targets.link_3.0_tip"),
    (
        {"targets": {"link_3.0_tip": [0, 0, 0.1]}, "orientations": {"link_7.0_tip": [1, 0, 0, 0]}},
        "orientations.link_7.0_tip",
    ),
    (
        {"targets": {"link_3.0_tip": [0, 0, 0.1]}, "orientations": {"link_3.0_tip": [2, 0, 0]}},
        "orientations.link_3.0_tip",
    ),
]


@pytest.mark.parametrize(("fields", "field"), HAND_BAD)
def test_a_hands_bad_targets_get_an_error_naming_the_field(hand_ws, fields, field):
    sock, _ = hand_ws
    r = ask(sock, dict(fields, type="robot_solve", id=5))
    assert r["type"] == "error" and r["field"] == field, r


# ---------------------------------------------------------------------------- rigs


def test_clip_describes_the_skeleton_and_offers_hands_and_feet(ws, clip_file):
    r = ask(ws, {"type": "clip", "id": 1})
    assert r["type"] == "clip" and r["frames"] == 69 and r["frame_time"] == pytest.approx(1 / 30)
    assert {"mixamorig:LeftHand", "mixamorig:RightFoot"} <= set(r["effectors"])
    assert r["up"] == 1 and r["output"].endswith("walk.posed.bvh")
    assert len(r["names"]) == len(r["parents"]) and r["root"] == "mixamorig:Hips"


def test_pose_holds_a_pin_on_the_frame_and_leaves_unpinned_frames_as_the_clip(ws):
    sk, frames, _ = ik.load_bvh(BVH)
    j = sk.names.index("mixamorig:LeftHand")
    target = (frames.positions[10, j] + [5.0, 8.0, 3.0]).tolist()
    pin = {"joint": "mixamorig:LeftHand", "target": target, "frames": "5-20"}
    r = ask(ws, {"type": "pose", "id": 1, "frame": 10, "pins": [pin]})
    assert r["solved"] and r["pins"][0]["active"] and r["pins"][0]["reached"]
    assert math.dist(r["positions"][j], target) <= r["pins"][0]["error"] + 1e-6
    off = ask(ws, {"type": "pose", "id": 2, "frame": 30, "pins": [pin]})
    assert not off["solved"] and off["pins"] == [{"joint": pin["joint"], "active": False}]
    np.testing.assert_allclose(off["positions"], frames.positions[30], atol=1e-6)


def test_save_writes_the_posed_clip_beside_the_input_and_never_over_it(ws, clip_file):
    before = clip_file.read_bytes()
    sk, frames, _ = ik.load_bvh(clip_file)
    j = sk.names.index("mixamorig:RightFoot")
    target = frames.positions[5, j].tolist()  # the foot held where it is on frame 5
    pins = [{"joint": "mixamorig:RightFoot", "target": target, "frames": "4-6"}]
    r = ask(ws, {"type": "save", "id": 1, "pins": pins, "method": "circles"})
    assert r["type"] == "save", r
    out = clip_file.with_name("walk.posed.bvh")
    assert r["path"] == str(out) and clip_file.read_bytes() == before
    sk2, posed, _ = ik.load_bvh(out)
    assert sk2.names == sk.names and len(posed) == len(frames)
    assert r["pins"][0]["frames"] == 3 and r["pins"][0]["reached"] == 3
    held = np.linalg.norm(posed.positions[4:7, j] - target, axis=1)
    assert held.max() <= 10 * r["tol"]  # as written to nine digits and read back


def test_the_output_may_not_be_the_input(clip_file):
    with pytest.raises(ik.BVHError, match="--output"):
        load_rig(clip_file, clip_file)


# ---------------------------------------------------------------------------- bad input

PIN = {"joint": "mixamorig:LeftHand", "target": [1, 2, 3]}
BAD = [
    ({"type": "robot_solve", "target": [1, 2]}, "target"),
    ({"type": "robot_solve", "target": [math.nan, 0, 0]}, "target"),
    ({"type": "robot_solve", "target": [1e9, 0, 0]}, "target"),
    ({"type": "robot_solve", "target": [0.3, 0, 0.5], "orientation": [1, 0, 0]}, "orientation"),
    ({"type": "robot_solve", "target": [0.3, 0, 0.5], "orientation": [2, 0, 0, 0]}, "orientation"),
    ({"type": "robot_solve", "target": [0.3, 0, 0.5], "method": "fabrik"}, "method"),
    ({"type": "robot_solve", "target": [0.3, 0, 0.5], "max_iter": 10**9}, "max_iter"),
    ({"type": "robot_solve", "target": [0.3, 0, 0.5], "tol": -1}, "tol"),
    ({"type": "robot_solve", "target": [0.3, 0, 0.5], "angle_tol": "x"}, "angle_tol"),
    ({"type": "robot_solve", "target": [0.3, 0, 0.5], "reset": "yes"}, "reset"),
    ({"type": "pose", "frame": 69}, "frame"),
    ({"type": "pose", "frame": 1.5}, "frame"),
    ({"type": "pose", "frame": 0, "pins": "LeftHand"}, "pins"),
    ({"type": "pose", "frame": 0, "pins": [PIN] * 17}, "pins"),
    ({"type": "pose", "frame": 0, "pins": [1]}, "pins[0]"),
    ({"type": "pose", "frame": 0, "pins": [dict(PIN, joint="nope")]}, "pins[0].joint"),
    ({"type": "pose", "frame": 0, "pins": [dict(PIN, joint="mixamorig:Hips")]}, "pins[0].joint"),
    ({"type": "pose", "frame": 0, "pins": [PIN, PIN]}, "pins[1].joint"),
    ({"type": "pose", "frame": 0, "pins": [dict(PIN, target=[1, 2])]}, "pins[0].target"),
    ({"type": "pose", "frame": 0, "pins": [dict(PIN, frames="9-3")]}, "pins[0].frames"),
    ({"type": "pose", "frame": 0, "pins": [dict(PIN, frames=[1, 2])]}, "pins[0].frames"),
    ({"type": "pose", "frame": 0, "pins": [PIN], "method": "ccd"}, "method"),
    ({"type": "save", "pins": []}, "pins"),
    ({"type": "save", "pins": [dict(PIN, target=["a", 1, 1])]}, "pins[0].target"),
]


@pytest.mark.parametrize(("msg", "field"), BAD, ids=[f"{m['type']}-{f}" for m, f in BAD])
def test_bad_input_gets_an_error_naming_the_field_and_the_connection_stays_up(ws, msg, field):
    r = ask(ws, dict(msg, id=7))
    assert r["type"] == "error" and r["id"] == 7 and r["request"] == msg["type"]
    assert r["field"] == field, r["message"]
    assert r["message"].startswith(field) and "Traceback" not in r["message"]
    ok = ask(ws, {"type": "pose", "id": 8, "frame": 3})
    assert ok["type"] == "pose" and ok["frame"] == 3
    ok = ask(ws, {"type": "solve", "id": 9, "chain": CHAIN, "target": [3, 4], "motion": False})
    assert ok["type"] == "solve"


def test_a_server_without_a_robot_or_clip_says_how_to_start_one():
    with TestClient(create_app(warm=False)) as c, c.websocket_connect("/ws") as sock:
        for kind, flag in (("robot", "--robot"), ("clip", "--bvh"), ("pose", "--bvh")):
            r = ask(sock, {"type": kind, "id": 1, "frame": 0})
            assert r["type"] == "error" and r["field"] == "type" and flag in r["message"]
        assert c.get("/model/mesh/0").status_code == 404
        methods = ask(sock, {"type": "methods", "id": 2})
        assert methods["models"] == {"robot": None, "clip": None}


def test_methods_names_what_the_server_was_started_with(ws):
    r = ask(ws, {"type": "methods", "id": 1})
    assert r["models"] == {
        "robot": {"name": "panda", "source": "--robot panda"},
        "clip": {"file": "walk.bvh"},
    }


# ---------------------------------------------------------------------------- the command


@pytest.mark.parametrize(
    ("argv", "tips"),
    [
        (["--robot", "allegro"], list(EXAMPLES["allegro"][1])),
        (["--robot", "allegro", "--tip", "link_7.0_tip"], ["link_7.0_tip"]),
        (
            ["--robot", "allegro", "--tip", "link_7.0_tip,link_3.0_tip"],
            ["link_7.0_tip", "link_3.0_tip"],
        ),
        (
            ["--robot", "allegro", "--tip", "link_7.0_tip", "--tip", "link_15.0_tip"],
            ["link_7.0_tip", "link_15.0_tip"],
        ),
        (["--robot", "panda"], ["panda_hand_tcp"]),
    ],
)
def test_tip_names_one_link_or_several(argv, tips):
    from geoik.commands.cli import build_parser
    from geoik.commands.view import load_models

    args = build_parser().parse_args(["view", *argv])
    assert list(load_models(args).robot.robot.tip_names) == tips


@pytest.mark.parametrize(
    ("argv", "start"),
    [
        (["--robot", "nope"], "--robot: expected one of panda"),
        (["--robot", "panda", "--tip", "nope"], "--robot: tip: expected a link"),
        (["--urdf", "no/such.urdf"], "--urdf: path: no such file"),
        (["--robot", "panda", "--urdf", "x.urdf"], "--robot, --urdf: expected one of them"),
        (["--tip", "tool0"], "--tip: expected with --urdf"),
        (["--robot", "allegro", "--tip", "link_3.0_tip,"], "--tip: expected link names"),
        (["--output", "x.bvh"], "--output: expected with --bvh"),
        (["--bvh", "no/such.bvh"], "--bvh: no such file"),
        (["--bvh", BVH, "-o", BVH], "--output: expected another file than the input"),
    ],
)
def test_view_reports_a_bad_robot_or_clip_in_one_line(argv, start, capsys):
    from geoik.commands import cli

    assert cli.main(["view", "--no-browser", "--port", "0", *argv]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and err[0].startswith(f"geoik: error: {start}"), err
