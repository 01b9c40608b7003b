"""The viewer's three scenes (seed 003 Section 5), checked through the WebSocket API for what an
animator relies on: the arm in its safe zones, the cyclist's feet on the pedals with knees
bending forwards, the hand's fingers closing on the ball with a flat palm and natural bends."""

from __future__ import annotations

import dataclasses
import json
import math
import warnings

import numpy as np
import pytest

pytest.importorskip(
    "starlette", reason="the viewer extra is not installed: pip install 'geoik[viewer]'"
)
pytest.importorskip("httpx", reason="starlette's test client needs httpx")

with warnings.catch_warnings():  # starlette >= 1 prefers httpx2 but still works with httpx
    warnings.simplefilter("ignore")
    from starlette.testclient import TestClient

from geoik.rigs.tree import METHODS as TREE_METHODS  # noqa: E402
from geoik.solvers import REGISTRY  # noqa: E402
from geoik.viewer import cyclist, hand, scenes  # noqa: E402
from geoik.viewer.server import create_app  # noqa: E402


@pytest.fixture(scope="module")
def ws():
    with TestClient(create_app(warm=False)) as client, client.websocket_connect("/ws") as sock:
        yield sock


def ask(sock, msg):
    sock.send_text(json.dumps(msg))
    return sock.receive_json()


def test_arm_scene_keeps_the_target_in_the_safe_zones_and_above_the_floor(ws):
    r = ask(ws, {"type": "scene", "id": 1, "scene": "arm", "target": [9.0, 0.0], "yaw_deg": 90})
    lo, hi = r["reach"]
    assert math.hypot(*r["target"]) == pytest.approx(hi)
    assert r["status"] in ("REACHED", "CLOSEST")
    tip = np.array(r["points"][-1])
    np.testing.assert_allclose(tip, r["target3"], atol=max(1e-3, r["error"] * 1.01))
    assert abs(tip[0]) < 1e-9 and tip[1] > 0  # yaw 90 degrees: the arm lies in the y-z plane
    low = ask(ws, {"type": "scene", "id": 2, "scene": "arm", "target": [1.0, -5.0]})
    assert low["target3"][2] >= scenes.ARM_FLOOR_GAP - 1e-12
    links = np.linalg.norm(np.diff(np.array(low["points"][1:]), axis=0), axis=1)
    np.testing.assert_allclose(links, scenes.ARM_LENGTHS, rtol=1e-9)


LEG_METHODS = [m for m, s in REGISTRY.items() if s.dims and s.links[0] <= 2 <= (s.links[1] or 2)]


@pytest.mark.parametrize("method", LEG_METHODS)
def test_cyclist_feet_stay_on_the_pedals_and_knees_bend_forwards(ws, method):
    for k in range(48):  # two turns of the cranks, every frame from the previous one
        msg = {"type": "scene", "id": k, "scene": "cyclist", "t": k / 24, "method": method}
        r = ask(ws, msg)
        assert r["type"] == "scene", r.get("message")
        for side, leg in r["legs"].items():
            assert leg["status"] == "REACHED", (side, k, leg)
            hip, knee, ankle = (np.array(p) for p in leg["points"])
            heel, ankle2, ball, toe = (np.array(p) for p in leg["foot"])
            # the ball of the foot is on the pedal spindle, in all three coordinates
            assert math.dist(ball, leg["pedal"]) <= 1e-3
            np.testing.assert_allclose(ankle2, ankle)
            assert math.dist(ankle, ball) == pytest.approx(cyclist.FOOT)
            np.testing.assert_allclose(
                [math.dist(hip, knee), math.dist(knee, ankle)], cyclist.LEG_LENGTHS, rtol=1e-9
            )
            # the knee lies in front of the line from the hip to the ankle, bent 0-160 degrees
            a, kk = ankle - hip, knee - hip
            assert a[0] * kk[2] - a[2] * kk[0] > 0, (side, k)
            assert 0 < leg["knee_deg"] <= 160
            # the whole leg is in the plane of its pedal
            assert {p[1] for p in leg["points"]} == {leg["pedal"][1]}


def hand_reply(ws, ball, method="circles"):
    """A hand frame, checked to be within the hand's anatomical limits (as every one is)."""
    msg = {"type": "scene", "id": 1, "scene": "hand", "ball": ball, "radius": 0.35}
    r = ask(ws, dict(msg, method=method))
    assert r["type"] == "scene", r.get("message")
    sk, _ = hand.hand_skeleton()
    assert sk.limit_violation(np.array(r["points"])) == 0.0, (ball, method)
    return r


def test_the_hand_has_anatomical_limits():
    """Cones at the knuckles, hinges at the two outer joints of every finger flexing towards
    the palm only, a rigid palm: a finger bent backwards, or out of its hinge's plane, breaks
    them; every curl a finger closes along, turned sideways as far as it may, keeps them."""
    sk, fingers = hand.hand_skeleton()
    assert sk.is_limited
    rest = hand.open_hand()
    assert sk.limit_violation(rest) == 0.0
    for f in fingers:
        a, b = rest[f.joints[2]], rest[f.joints[3]]
        for push, broken in ((f.n, False), (-f.n, True), (np.cross(f.d, f.n), True)):
            bent = rest.copy()  # the last joint bent by 27 degrees
            v = b - a + 0.5 * np.linalg.norm(b - a) * push
            bent[f.joints[3]] = a + np.linalg.norm(b - a) * v / np.linalg.norm(v)
            assert (sk.limit_violation(bent) > math.radians(5)) == broken, (f.name, push)
        side = np.cross(f.rest_n, f.rest_d)
        for psi in (-f.spread, 0.0, f.spread):
            turned = dataclasses.replace(f, d=math.cos(psi) * f.d + math.sin(psi) * side)
            pose = rest.copy()
            for curl in np.linspace(*f.s_range, 25):
                pose[f.joints] = turned.pose(curl)[0]
                assert sk.limit_violation(pose) == 0.0, (f.name, psi, curl)
    moved = rest.copy()
    moved[sk.index("index_base")] += (0.0, 0.0, 0.05)  # the palm bent at a knuckle
    assert sk.limit_violations(moved)[sk.index("index_base")] > 0.0


def test_hand_closes_all_five_fingertips_on_a_ball_under_the_fingers(ws):
    r = hand_reply(ws, [1.05, 0.0, -0.65])
    assert r["on_ball"] == 5
    assert "solve_tree" in r["solver"]
    pos, ball = np.array(r["points"]), np.array(r["ball"])
    for f in hand.FINGERS:
        assert abs(math.dist(pos[r["names"].index(f)], ball) - 0.35) <= hand.TOUCH_TOL


def test_hand_reaches_for_a_ball_out_of_reach_and_says_so(ws):
    r = hand_reply(ws, [2.9, 1.4, -1.9])
    assert r["on_ball"] == 0
    assert all(v["touch"] == "none" for v in r["fingers"].values())


@pytest.mark.parametrize("method", list(TREE_METHODS))
def test_hand_keeps_its_bones_and_reports_honestly(ws, method):
    rng = np.random.default_rng(6)
    sk, _ = hand.hand_skeleton()
    for ball in rng.uniform([0.5, -0.8, -1.3], [2.1, 0.8, -0.4], size=(25, 3)):
        r = hand_reply(ws, ball.tolist(), method)
        pos = np.array(r["points"])
        assert np.all(np.isfinite(pos))
        links = np.linalg.norm(pos[1:] - pos[sk.parents[1:]], axis=1)
        np.testing.assert_allclose(links, sk.lengths[1:], rtol=1e-6)
        assert r["on_ball"] == sum(v["touch"] == "tip" for v in r["fingers"].values())
        for f, v in r["fingers"].items():
            tip = pos[r["names"].index(f)]
            if v["status"] == "REACHED":
                assert math.dist(tip, v["target"]) <= r["tol"]
            if v["touch"] == "tip":
                assert abs(math.dist(tip, ball) - 0.35) <= hand.TOUCH_TOL


def test_hand_by_circles_keeps_the_palm_flat_and_bends_fingers_the_natural_way(ws):
    rng = np.random.default_rng(7)
    palm = [n for n, _ in hand.PALM] + ["wrist"]
    rest = hand.open_hand()
    sk, fingers = hand.hand_skeleton()
    for ball in rng.uniform([0.5, -0.8, -1.3], [2.1, 0.8, -0.4], size=(60, 3)):
        r = hand_reply(ws, ball.tolist())
        pos = np.array(r["points"])
        for name in palm:
            np.testing.assert_allclose(pos[sk.index(name)], rest[sk.index(name)], atol=1e-9)
        for f in fingers:
            v = r["fingers"][f.name]
            assert v["status"] == "REACHED"
            # bends within a finger's range: none backwards by more than a few degrees, none
            # past a clenched fist, and the finger in one plane
            assert all(-12.0 <= b <= 100.0 for b in v["bends_deg"]), (f.name, v["bends_deg"])
            assert v["out_of_plane_deg"] <= 1e-6
            assert abs(v["spread_deg"]) <= 25.0 + 1e-9
            # no part of the finger inside the ball (it closed onto the surface), unless the
            # ball is in the way of the finger however open or closed
            at = np.array(r["ball"])
            gap = hand._clearance_of(pos[f.joints][None], at, 0.35)[0]
            if gap < -hand.TOUCH_TOL:
                curls = np.linspace(*f.s_range, 200)
                assert hand._clearance(f.toward(at), curls, at, 0.35).max() <= 0.0, f.name
                assert v["touch"] == "finger"
