"""The viewer's HTTP and WebSocket API, through Starlette's test client (no browser)."""

from __future__ import annotations

import json
import math
import re
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

import geoik as ik  # noqa: E402
from geoik.solvers import REGISTRY  # noqa: E402
from geoik.viewer import protocol, scenes  # noqa: E402
from geoik.viewer.server import STATIC, create_app  # noqa: E402

CHAIN = {"lengths": [2.0] * 10}


@pytest.fixture(scope="module")
def client():
    with TestClient(create_app(warm=False)) as c:
        yield c


@pytest.fixture
def ws(client):
    with client.websocket_connect("/ws") as sock:
        yield sock


def ask(sock, msg):
    sock.send_text(json.dumps(msg))
    return sock.receive_json()


# ---------------------------------------------------------------------------- HTTP


def test_page_and_assets_are_served_with_their_types(client):
    page = client.get("/")
    assert page.status_code == 200
    assert page.headers["content-type"].startswith("text/html")
    for path, kind in (("app.js", "javascript"), ("style.css", "text/css")):
        r = client.get(f"/static/{path}")
        assert r.status_code == 200, path
        assert kind in r.headers["content-type"], (path, r.headers["content-type"])
        assert r.text == (STATIC / path).read_text()
        assert f"/static/{path}" in page.text


def test_page_fetches_nothing_from_elsewhere(client):
    """Every src/href in the page and every URL in the script is local (no CDN)."""
    texts = [client.get(p).text for p in ("/", "/static/app.js", "/static/style.css")]
    for text in texts:
        for url in re.findall(r"""(?:src|href)\s*=\s*["']([^"']+)""", text):
            assert url.startswith(("/", "data:")), url
        assert not re.search(r"https?://(?!\$\{)", text), "absolute URL in a served asset"


def test_unknown_paths_are_404(client):
    assert client.get("/static/nope.js").status_code == 404
    assert client.get("/static/../protocol.py").status_code == 404


# ---------------------------------------------------------------------------- solve


def test_methods_lists_the_registry(ws):
    r = ask(ws, {"type": "methods", "id": "m"})
    assert r["type"] == "methods" and r["id"] == "m"
    assert [m["name"] for m in r["methods"]] == list(REGISTRY)


@pytest.mark.parametrize("method", ["ccd", "fabrik"])
def test_solve_round_trip_is_consistent(ws, method):
    target = [8.33, 2.83]
    r = ask(ws, {"type": "solve", "id": 7, "chain": CHAIN, "target": target, "method": method})
    assert r["type"] == "solve" and r["id"] == 7 and r["method"] == method
    chain = ik.Chain.planar(CHAIN["lengths"])
    pos = np.array(r["positions"])
    # forward kinematics of the returned angles gives the returned positions ...
    np.testing.assert_allclose(chain.pose_from_angles(r["angles"]).positions, pos, atol=1e-9)
    # ... whose end effector is where the reply says
    assert math.dist(pos[-1], target) == pytest.approx(r["error"], abs=1e-12)
    assert (r["status"] == "REACHED") == (r["error"] <= r["tol"]) == r["reached"]
    assert r["solve_ms"] >= 0
    assert r["costs"]["iterations"] == r["iterations"]
    # the motion starts at the rest pose, ends at the final pose; the trace follows the tip
    m = r["motion"]
    np.testing.assert_allclose(m["poses"][0], chain.rest_pose().positions, atol=1e-8)
    np.testing.assert_allclose(m["poses"][-1], pos, atol=1e-8)
    np.testing.assert_allclose(m["trace"][-1], pos[-1], atol=1e-8)
    assert m["keyframe_steps"][-1] == m["steps"]


def test_solve_without_motion_and_from_a_start_pose(ws):
    first = ask(ws, {"type": "solve", "id": 1, "chain": CHAIN, "target": [5, 5], "motion": False})
    assert "motion" not in first
    again = ask(ws, {"type": "solve", "id": 2, "chain": CHAIN, "target": [5, 5],
                     "start": first["angles"], "motion": True})  # fmt: skip
    # starting at the answer, the recorded motion starts there
    np.testing.assert_allclose(again["motion"]["poses"][0], first["positions"], atol=1e-8)


def test_reach_gives_the_safe_zones(ws):
    r = ask(ws, {"type": "reach", "id": 3, "chain": {"lengths": [1, 1, 3]}})
    assert (r["min"], r["max"]) == pytest.approx((1.0, 5.0))


def test_map_replies_with_an_image_or_says_what_is_missing(ws):
    r = ask(ws, {"type": "map", "id": 4, "chain": {"lengths": [1, 1, 1]}, "method": "ccd",
                 "metric": "iterations", "size": 16, "max_iter": 10})  # fmt: skip
    assert r["id"] == 4
    if r["type"] == "error":
        assert "map overlay needs geoik.maps" in r["message"]
    else:
        assert r["type"] == "map" and r["width"] == r["height"] == 16
        again = ask(
            ws,
            {
                "type": "map",
                "id": 5,
                "chain": {"lengths": [1, 1, 1]},
                "method": "ccd",
                "metric": "iterations",
                "size": 16,
                "max_iter": 10,
            },
        )
        assert again["cached"] and again["rgba"] == r["rgba"]


# ---------------------------------------------------------------------------- bad input


BAD = [
    ("{not json", "message"),
    ("[1, 2]", "message"),
    (json.dumps({"type": "fly", "id": 1}), "type"),
    (json.dumps({"type": "solve", "id": [1]}), "id"),
    (
        json.dumps({"type": "solve", "id": 1, "chain": CHAIN, "target": [1, 2], "method": "nope"}),
        "method",
    ),
    ('{"type": "solve", "id": 1, "chain": {"lengths": [2, 2]}, "target": [NaN, 1]}', "target"),
    (
        '{"type": "solve", "id": 1, "chain": {"lengths": [2, NaN]}, "target": [1, 1]}',
        "chain.lengths[1]",
    ),
    (
        json.dumps(
            {"type": "solve", "id": 1, "chain": {"lengths": [1.0] * 1_000_000}, "target": [1, 1]}
        )[:100]
        + "]}",
        "message",
    ),
    (
        json.dumps({"type": "solve", "id": 1, "chain": {"lengths": [1.0] * 65}, "target": [1, 1]}),
        "chain.lengths",
    ),
    (
        json.dumps({"type": "solve", "id": 1, "chain": CHAIN, "target": [1, 1], "max_iter": 10**9}),
        "max_iter",
    ),
    (
        json.dumps(
            {"type": "solve", "id": 1, "chain": CHAIN, "target": [1, 1], "options": {"bogus": 1}}
        ),
        "bogus",
    ),
    (
        json.dumps({"type": "solve", "id": 1, "chain": CHAIN, "target": [1, 1], "start": [0.1]}),
        "start",
    ),
    (json.dumps({"type": "map", "id": 1, "chain": CHAIN, "size": 100_000}), "size"),
    (json.dumps({"type": "map", "id": 1, "chain": CHAIN, "metric": "speed"}), "metric"),
    (json.dumps({"type": "scene", "id": 1, "scene": "dance"}), "scene"),
    (json.dumps({"type": "scene", "id": 1, "scene": "hand", "ball": [1, 2]}), "ball"),
    (json.dumps({"type": "scene", "id": 1, "scene": "cyclist", "t": "soon"}), "t"),
    (
        json.dumps({"type": "scene", "id": 1, "scene": "arm", "target": [1, 1], "method": "x"}),
        "method",
    ),
    ("x" * (protocol.MAX_MESSAGE_BYTES + 1), "message"),
    (json.dumps({"type": "solve", "id": 1, "pad": "x" * 1_000_000}), "message"),
]


@pytest.mark.parametrize(("text", "field"), BAD, ids=[f for _, f in BAD])
def test_bad_input_gets_an_error_naming_the_field_and_the_connection_stays_up(ws, text, field):
    ws.send_text(text)
    r = ws.receive_json()
    assert r["type"] == "error"
    assert r["field"] == field, r["message"]
    assert r["message"].startswith(field)
    ok = ask(ws, {"type": "solve", "id": 99, "chain": CHAIN, "target": [3, 4], "motion": False})
    assert ok["type"] == "solve" and ok["id"] == 99


def test_binary_frames_get_an_error(ws):
    ws.send_bytes(b'{"type": "methods"}')
    assert ws.receive_json()["type"] == "error"
    assert ask(ws, {"type": "methods", "id": 1})["type"] == "methods"


def test_an_error_echoes_the_id(ws):
    r = ask(ws, {"type": "solve", "id": "abc", "chain": CHAIN, "target": [1, "b"]})
    assert r == {**r, "type": "error", "id": "abc", "request": "solve", "field": "target"}


# ---------------------------------------------------------------------------- scenes


def test_arm_scene_keeps_the_target_in_the_safe_zones(ws):
    r = ask(ws, {"type": "scene", "id": 1, "scene": "arm", "target": [9.0, 0.0], "yaw_deg": 90})
    lo, hi = r["reach"]
    assert math.hypot(*r["target"]) == pytest.approx(hi)
    assert r["status"] in ("REACHED", "CLOSEST")
    tip = np.array(r["points"][-1])
    np.testing.assert_allclose(tip, r["target3"], atol=max(1e-3, r["error"] * 1.01))
    # yaw 90 degrees: the arm lies in the y-z plane
    assert abs(tip[0]) < 1e-9 and tip[1] > 0


def test_cyclist_feet_stay_on_the_pedals_frame_after_frame(ws):
    lengths = scenes.LEG_LENGTHS
    for k in range(24):
        r = ask(ws, {"type": "scene", "id": k, "scene": "cyclist", "t": k / 24})
        for leg in r["legs"].values():
            pts = np.array(leg["points"])
            ankle, pedal = pts[-1], np.array(leg["pedal"])
            assert leg["status"] == "REACHED"
            assert math.dist(ankle[[0, 2]], pedal[[0, 2]]) <= 1e-3
            links = np.linalg.norm(np.diff(pts, axis=0), axis=1)
            np.testing.assert_allclose(links, lengths, rtol=1e-9)


@pytest.mark.parametrize("per_finger", [False, True])
def test_hand_fingertips_close_on_the_ball(ws, per_finger):
    ball = [1.45, 0.05, -0.45]
    msg = {"type": "scene", "scene": "hand", "ball": ball, "radius": 0.3, "per_finger": per_finger}
    for k in range(5):  # a few frames, each from the previous one
        r = ask(ws, dict(msg, id=k))
    pts = np.array(r["points"])
    names = r["names"]
    assert ("per finger" in r["solver"]) == per_finger
    for f, info in r["fingers"].items():
        tip = pts[names.index(f)]
        assert math.dist(tip, ball) == pytest.approx(0.3, abs=0.01) or info["status"] != "REACHED"
    reached = sum(info["status"] == "REACHED" for info in r["fingers"].values())
    assert reached >= 4


def test_view_without_the_extra_says_how_to_install_it(monkeypatch, capsys):
    from geoik import cli
    from geoik.commands import view

    monkeypatch.setattr(view, "missing_dependencies", lambda: ["uvicorn"])
    assert cli.main(["view", "--no-browser"]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "pip install 'geoik[viewer]'" in err[0]


def test_importing_geoik_does_not_need_the_viewer_extra():
    import subprocess
    import sys

    code = "import sys, geoik, geoik.viewer, geoik.commands.view; print('starlette' in sys.modules)"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "False"
