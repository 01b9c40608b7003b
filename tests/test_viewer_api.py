"""The viewer's HTTP and WebSocket API, through Starlette's test client and through a real
uvicorn server and WebSocket client (no browser), and the ``geoik view`` command."""

from __future__ import annotations

import json
import math
import os
import posixpath
import re
import threading
import time
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
from geoik.checks import check_int, check_number  # noqa: E402
from geoik.maps import palette  # noqa: E402
from geoik.rigs.tree import METHODS as TREE_METHODS  # noqa: E402
from geoik.solvers import chain_methods  # noqa: E402
from geoik.viewer import protocol  # noqa: E402
from geoik.viewer.overlay import MapCache, MapCancelledError  # noqa: E402
from geoik.viewer.prepare import Preparation, Step, default_steps  # noqa: E402
from geoik.viewer.server import STATIC, create_app  # noqa: E402
from tests.conftest import viewer_server  # noqa: E402

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
    """Send ``msg`` and return its reply, passing over progress and status notes."""
    sock.send_text(json.dumps(msg))
    while True:
        reply = sock.receive_json()
        if reply["type"] not in ("progress", "status"):
            return reply


# ---------------------------------------------------------------------------- HTTP


def test_page_and_every_asset_are_served_with_their_types(client):
    page = client.get("/")
    assert page.status_code == 200
    assert page.headers["content-type"].startswith("text/html")
    kinds = {".js": "javascript", ".css": "text/css", ".html": "text/html"}
    files = sorted(p for p in STATIC.iterdir() if p.is_file())
    assert {p.name for p in files} >= {"index.html", "app.js", "style.css"}
    for path in files:
        r = client.get(f"/static/{path.name}")
        assert r.status_code == 200, path.name
        assert kinds[path.suffix] in r.headers["content-type"], (path.name, r.headers)
        assert r.text == path.read_text()


def test_every_script_import_is_a_served_file(client):
    """The page loads app.js as a module; every module it imports (transitively) is served."""
    page = client.get("/").text
    todo = re.findall(r'<script type="module" src="/static/([\w.]+)"', page)
    assert todo == ["app.js"]
    seen = set()
    while todo:
        name = todo.pop()
        seen.add(name)
        r = client.get(f"/static/{name}")
        assert r.status_code == 200, name
        for dep in re.findall(r'from "\./([\w.]+)"', r.text):
            if dep not in seen:
                todo.append(dep)
    assert {"common.js", "panel.js", "scenes.js", "draw3d.js"} <= seen


def test_the_import_map_resolves_every_bare_import_to_a_served_file(client):
    """three.js and its addons are files of the package (vendor/three), found through the
    page's import map; every module they import, relative or bare, is served as JavaScript."""
    page = client.get("/").text
    imports = json.loads(re.search(r'<script type="importmap">(.*?)</script>', page, re.S)[1])
    table = imports["imports"]

    def resolve(spec, base):
        if spec.startswith("."):
            return posixpath.normpath(posixpath.join(posixpath.dirname(base), spec))
        if spec in table:
            return table[spec]
        prefix = max((k for k in table if k.endswith("/") and spec.startswith(k)), key=len)
        return table[prefix] + spec[len(prefix) :]

    todo, seen = ["/static/app.js"], set()
    while todo:
        url = todo.pop()
        if url in seen:
            continue
        seen.add(url)
        r = client.get(url)
        assert r.status_code == 200 and "javascript" in r.headers["content-type"], url
        for spec in re.findall(
            r"""(?:^|\n)\s*(?:import|export)\b[^'"]*?from\s*['"]([^'"]+)['"]""", r.text
        ):
            todo.append(resolve(spec, url))
        for spec in re.findall(r"""(?:^|\n)import\s*['"]([^'"]+)['"]""", r.text):
            todo.append(resolve(spec, url))
    assert "/static/vendor/three/three.core.js" in seen
    assert "/static/vendor/three/addons/controls/TransformControls.js" in seen
    assert "/static/vendor/three/addons/loaders/collada/ColladaParser.js" in seen
    assert client.get("/static/vendor/three/LICENSE").status_code == 200


def test_page_fetches_nothing_from_elsewhere(client):
    """Every src/href in the page and every URL in the scripts is local (no CDN)."""
    texts = [client.get("/").text] + [
        client.get(f"/static/{p.name}").text for p in STATIC.iterdir() if p.is_file()
    ]
    for text in texts:
        for url in re.findall(r"""(?:src|href)\s*=\s*["']([^"']+)""", text):
            assert url.startswith(("/", "data:")), url
        assert not re.search(r"https?://(?!\$\{)", text), "absolute URL in a served asset"


def test_unknown_paths_are_404(client):
    assert client.get("/static/nope.js").status_code == 404
    assert client.get("/static/../protocol.py").status_code == 404


# ---------------------------------------------------------------------------- solve


def test_methods_lists_the_registry_the_tree_methods_and_the_map_metrics(ws):
    r = ask(ws, {"type": "methods", "id": "m"})
    assert r["type"] == "methods" and r["id"] == "m"
    assert [m["name"] for m in r["methods"]] == chain_methods()
    assert r["tree_methods"] == list(TREE_METHODS)
    assert r["map_metrics"] == list(palette.METRICS)
    words = {k: {"words": m.words, "unit": m.unit} for k, m in palette.METRICS.items()}
    assert r["map_metric_labels"] == words
    colours = r["map_colours"]  # what the page's legend draws, from geoik.maps.palette
    assert colours["failure"] == "#000000" and colours["outside"] == "#999999"
    assert [c for _, c in colours["stops"]] == [
        "#0000ff",
        "#00ffff",
        "#00ff00",
        "#ffff00",
        "#ff0000",
    ]


@pytest.mark.parametrize("method", chain_methods())
def test_solve_round_trip_is_consistent(ws, method):
    lengths = [2.0, 1.5] if method == "two-bone" else CHAIN["lengths"]
    target = [1.5, 2.0] if method == "two-bone" else [8.33, 2.83]
    msg = {"type": "solve", "id": 7, "chain": {"lengths": lengths}, "target": target}
    r = ask(ws, dict(msg, method=method))
    assert r["type"] == "solve" and r["id"] == 7 and r["method"] == method
    chain = ik.Chain.planar(lengths)
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
    again = ask(
        ws,
        {
            "type": "solve",
            "id": 2,
            "chain": CHAIN,
            "target": [5, 5],
            "start": first["angles"],
            "motion": True,
        },
    )
    # starting at the answer, the recorded motion starts there
    np.testing.assert_allclose(again["motion"]["poses"][0], first["positions"], atol=1e-8)


def test_solve_respects_limits_typed_as_on_the_command_line(ws):
    spec = {"lengths": [2.0] * 4, "max_bend_deg": [None, 90, [-30, 120], 45]}
    r = ask(ws, {"type": "solve", "id": 1, "chain": spec, "target": [-3, 2], "method": "ccd"})
    angles = np.degrees(r["angles"])
    lo = np.array([-np.inf, -90, -30, -45])
    hi = np.array([np.inf, 90, 120, 45])
    assert np.all(angles >= lo - 1e-9) and np.all(angles <= hi + 1e-9)


def test_reach_gives_the_safe_zones_and_the_limits_in_degrees(ws):
    spec = {"lengths": [1, 1, 3], "max_bend_deg": [None, 90, [-30, 120]]}
    r = ask(ws, {"type": "reach", "id": 3, "chain": spec})
    assert r["max"] == pytest.approx(5.0)
    assert r["limits_deg"][0] is None
    assert r["limits_deg"][1] == pytest.approx([-90, 90])
    assert r["limits_deg"][2] == pytest.approx([-30, 120])
    free = ask(ws, {"type": "reach", "id": 4, "chain": {"lengths": [1, 1, 3]}})
    assert (free["min"], free["max"]) == pytest.approx((1.0, 5.0))


# ---------------------------------------------------------------------------- maps


def test_map_replies_with_an_image_then_from_the_cache(ws):
    msg = {
        "type": "map",
        "id": 4,
        "chain": {"lengths": [1, 1, 1]},
        "method": "ccd",
        "metric": "iterations",
        "size": 16,
        "max_iter": 10,
    }
    r = ask(ws, msg)
    assert r["type"] == "map" and r["id"] == 4 and r["width"] == r["height"] == 16
    assert len(r["rgba"]) == math.ceil(16 * 16 * 4 / 3) * 4  # base64 of RGBA pixels
    assert r["half"] == pytest.approx(3.0) and 0 < r["coverage"] <= 1
    assert 1 <= r["vmin"] <= r["vmax"] == 10 and not r["cached"]  # red: the last iteration
    bar = r["bar"]  # the colour bar: its ends labelled, one band per iteration count
    assert bar["label"] == "iterations" and bar["bands"] == 10 - r["vmin"] + 1
    assert bar["ticks"][0][1] == str(int(r["vmin"])) and bar["ticks"][-1][1] == "10"
    assert [p for p, _ in bar["ticks"]] == sorted(p for p, _ in bar["ticks"])
    assert bar["ticks"][0][0] >= 0 and bar["ticks"][-1][0] <= 1
    again = ask(ws, dict(msg, id=5))
    assert again["cached"] and again["rgba"] == r["rgba"]


def test_map_reports_progress_and_stops_when_cancelled():
    cache = MapCache()
    msg = {"chain": {"lengths": [1.0] * 5}, "method": "fabrik", "size": 32}
    seen = []
    cache.reply(msg, progress=lambda done, total: seen.append((done, total)))
    assert len(seen) >= 8 and seen[-1][0] == seen[-1][1]
    assert [d for d, _ in seen] == sorted(d for d, _ in seen)
    stop = threading.Event()
    stop.set()
    with pytest.raises(MapCancelledError):
        cache.reply(dict(msg, size=24), cancelled=stop)


@pytest.mark.parametrize("rows", [1, 3])
def test_a_heavy_map_is_cut_into_bands_a_cancel_stops_between(monkeypatch, rows):
    """The bands of a heavy map hold at most BAND_WORK joint-iterations (but one row): a map
    whose page has gone (its connection closed, which sets ``cancelled``) stops after the band
    in progress. BAND_WORK is made small here, so that a map of 64 x 64 pixels is as heavy as
    the page's largest (a row of 512 x 64 links x 1000 iterations is above the real one): the
    same cut, in milliseconds rather than seconds."""
    from geoik.viewer import overlay

    assert overlay.BAND_WORK < 512 * 64 * 1000
    per_row = 64 * 8 * 200  # pixels x joints x iterations
    monkeypatch.setattr(overlay, "BAND_WORK", rows * per_row + per_row // 2)
    cache = MapCache()
    msg = {"chain": {"lengths": [1.0] * 8}, "method": "ccd", "size": 64, "max_iter": 200}
    stop = threading.Event()
    seen = []

    def progress(done, total):
        seen.append((done, total))
        stop.set()  # the page leaves after the first band

    with pytest.raises(MapCancelledError):
        cache.reply(msg, progress=progress, cancelled=stop)
    # the first band of ceil(64 / rows): as many rows as BAND_WORK holds, at least one
    assert seen == [(1, math.ceil(64 / rows))]


def test_sockets_from_other_sites_are_refused(client):
    """A page of another site may not drive the server; the page's own origin and clients
    that send none (not browsers) are served."""
    from starlette.websockets import WebSocketDisconnect

    with (
        pytest.raises(WebSocketDisconnect) as info,
        client.websocket_connect("/ws", headers={"origin": "http://evil.example"}),
    ):
        pass
    assert info.value.code == 1008
    for headers in ({"origin": "http://testserver"}, {}):
        with client.websocket_connect("/ws", headers=headers) as sock:
            assert ask(sock, {"type": "methods", "id": 1})["type"] == "methods"


def test_a_newer_map_stops_the_older_one(ws):
    big = {
        "type": "map",
        "id": "old",
        "chain": {"lengths": [1.0] * 40},
        "method": "ccd",
        "size": 256,
        "max_iter": 1000,
    }
    ws.send_text(json.dumps(big))
    first = ws.receive_json()  # the old map under way: a band of one row done, 255 to come
    assert first["type"] == "progress" and first["id"] == "old", first
    assert first["done"] < first["total"] // 2
    small = {"type": "map", "id": "new", "chain": {"lengths": [1.0] * 3}, "size": 16}
    ws.send_text(json.dumps(small))
    replies = {}
    while len(replies) < 2:
        r = ws.receive_json()
        if r["type"] != "progress":
            replies[r["id"]] = r
    assert replies["old"]["type"] == "error" and "superseded" in replies["old"]["message"]
    assert replies["new"]["type"] == "map"


# ---------------------------------------------------------------------------- bad input


BAD = [
    ("{not json", "message"),
    ("[1, 2]", "message"),
    ("[" * 100_000 + "]" * 100_000, "message"),
    (json.dumps({"type": "fly", "id": 1}), "type"),
    (json.dumps({"type": "solve", "id": [1]}), "id"),
    (
        json.dumps({"type": "solve", "id": 1, "chain": CHAIN, "target": [1, 2], "method": "nope"}),
        "method",
    ),
    ('{"type": "solve", "id": 1, "chain": {"lengths": [2, 2]}, "target": [NaN, 1]}', "target"),
    ('{"type": "solve", "id": 1, "chain": {"lengths": [2, 2]}, "target": [1e999, 1]}', "target"),
    (
        '{"type": "solve", "id": 1, "chain": {"lengths": [2, NaN]}, "target": [1, 1]}',
        "chain.lengths[1]",
    ),
    (
        json.dumps({"type": "solve", "id": 1, "chain": {"lengths": [1e300, 1]}, "target": [1, 1]}),
        "chain.lengths[0]",
    ),
    (
        json.dumps(
            {
                "type": "solve",
                "id": 1,
                "chain": {"lengths": [1, 1], "base": [1e9, 0]},
                "target": [1, 1],
            }
        ),
        "chain.base",
    ),
    (json.dumps({"type": "solve", "id": 1, "chain": CHAIN, "target": [1e300, 0]}), "target"),
    (
        json.dumps(
            {"type": "solve", "id": 1, "chain": {"lengths": [1.0] * 1_000_000}, "target": [1, 1]}
        ),
        "message",
    ),
    (
        json.dumps({"type": "solve", "id": 1, "chain": {"lengths": [1.0] * 65}, "target": [1, 1]}),
        "chain.lengths",
    ),
    (
        json.dumps(
            {
                "type": "solve",
                "id": 1,
                "chain": {"lengths": [1, 1], "max_bend_deg": 200},
                "target": [1, 1],
            }
        ),
        "chain.max_bend_deg[0]",
    ),
    (
        json.dumps({"type": "solve", "id": 1, "chain": CHAIN, "target": [1, 1], "max_iter": 10**9}),
        "max_iter",
    ),
    (
        json.dumps({"type": "solve", "id": 1, "chain": CHAIN, "target": [1, 1], "tol": -1}),
        "tol",
    ),
    (
        json.dumps(
            {"type": "solve", "id": 1, "chain": CHAIN, "target": [1, 1], "options": {"bogus": 1}}
        ),
        "bogus",
    ),
    (
        json.dumps({"type": "solve", "id": 1, "chain": CHAIN, "target": [1, 1], "options": [1]}),
        "options",
    ),
    (
        json.dumps({"type": "solve", "id": 1, "chain": CHAIN, "target": [1, 1], "start": [0.1]}),
        "start",
    ),
    (json.dumps({"type": "map", "id": 1, "chain": CHAIN, "size": 100_000}), "size"),
    (json.dumps({"type": "map", "id": 1, "chain": CHAIN, "metric": "speed"}), "metric"),
    (json.dumps({"type": "scene", "id": 1, "scene": "dance"}), "scene"),
    (json.dumps({"type": "scene", "id": 1, "scene": "hand", "ball": [1, 2]}), "ball"),
    (
        json.dumps(
            {"type": "scene", "id": 1, "scene": "hand", "ball": [1, 0, -1], "method": "ccd"}
        ),
        "method",
    ),
    (json.dumps({"type": "scene", "id": 1, "scene": "cyclist", "t": "soon"}), "t"),
    (json.dumps({"type": "scene", "id": 1, "scene": "cyclist", "cadence": 1e6}), "cadence"),
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
    assert "Traceback" not in r["message"] and len(r["message"]) < 400
    ok = ask(ws, {"type": "solve", "id": 99, "chain": CHAIN, "target": [3, 4], "motion": False})
    assert ok["type"] == "solve" and ok["id"] == 99


def library_message(call):
    with pytest.raises(ik.GeoIKError) as info:
        call()
    return str(info.value)


@pytest.mark.parametrize(
    ("msg", "field", "call"),
    [
        (
            {"type": "solve", "chain": CHAIN, "target": [math.nan, 1]},
            "target",
            lambda: ik.solve(ik.Chain.planar(CHAIN["lengths"]), [math.nan, 1]),
        ),
        (
            {"type": "solve", "chain": CHAIN, "target": [1, 2, 3]},
            "target",
            lambda: ik.solve(ik.Chain.planar(CHAIN["lengths"]), [1, 2, 3]),
        ),
        (
            {"type": "solve", "chain": {"lengths": [1, 1], "base": [0]}, "target": [1, 1]},
            "chain.base",
            lambda: ik.Chain.planar([1, 1], base=[0]),
        ),
        (
            {"type": "solve", "chain": CHAIN, "target": [1, 1], "tol": "small"},
            "tol",
            lambda: ik.solve(ik.Chain.planar(CHAIN["lengths"]), [1, 1], tol="small"),
        ),
        (
            {"type": "solve", "chain": CHAIN, "target": [1, 1], "max_iter": 2.5},
            "max_iter",
            lambda: check_int(2.5, "max_iter", 1, protocol.MAX_ITER),
        ),
        (
            {"type": "scene", "scene": "cyclist", "t": "soon"},
            "t",
            lambda: check_number("soon", "t", -1e9, 1e9),
        ),
    ],
    ids=["target-nan", "target-3d", "base", "tol", "max_iter", "t"],
)
def test_the_viewer_says_what_geoik_checks_say(ws, msg, field, call):
    """One validation layer: a bad field gets the words geoik's own checks use for it."""
    r = ask(ws, dict(msg, id=1))
    assert r["type"] == "error" and r["field"] == field
    expected = library_message(call)
    assert r["message"] == field + ":" + expected.partition(":")[2]


def test_size_caps_say_what_they_allow(ws):
    r = ask(ws, {"type": "solve", "id": 1, "chain": {"lengths": [1.0] * 65}, "target": [1, 1]})
    assert f"at most {protocol.MAX_LINKS} links, got 65" in r["message"]
    r = ask(ws, {"type": "solve", "id": 1, "chain": CHAIN, "target": [1, 1], "max_iter": 10**9})
    assert f"[1, {protocol.MAX_ITER}]" in r["message"]
    ws.send_text(json.dumps({"type": "solve", "id": 1, "pad": "x" * 1_000_000}))
    r = ws.receive_json()
    assert f"at most {protocol.MAX_MESSAGE_BYTES} bytes" in r["message"]


def test_binary_frames_get_an_error(ws):
    ws.send_bytes(b'{"type": "methods"}')
    assert ws.receive_json()["type"] == "error"
    assert ask(ws, {"type": "methods", "id": 1})["type"] == "methods"


def test_an_error_echoes_the_id(ws):
    r = ask(ws, {"type": "solve", "id": "abc", "chain": CHAIN, "target": [1, "b"]})
    assert r == {**r, "type": "error", "id": "abc", "request": "solve", "field": "target"}


def test_view_without_the_extra_says_how_to_install_it(monkeypatch, capsys):
    from geoik.commands import cli, view

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


# ---------------------------------------------------------------------------- a real server


@pytest.fixture(scope="module")
def live_server():
    """uvicorn serving the app on a free loopback port, as ``geoik view`` does."""
    pytest.importorskip("uvicorn")
    with viewer_server(warm=False) as address:
        yield address


def test_a_real_websocket_survives_bad_and_huge_messages(live_server):
    sync = pytest.importorskip("websockets.sync.client")
    with sync.connect(f"ws://{live_server}/ws", max_size=None) as sock:

        def call(text):
            sock.send(text)
            return json.loads(sock.recv(timeout=30))

        good = json.dumps({"type": "solve", "id": 1, "chain": CHAIN, "target": [3, 4]})
        assert call(good)["status"] == "REACHED"
        assert call("{nope")["field"] == "message"
        megabyte = json.dumps({"type": "solve", "id": 2, "pad": "x" * 2_000_000})
        r = call(megabyte)
        assert r["type"] == "error" and f"at most {protocol.MAX_MESSAGE_BYTES}" in r["message"]
        million = json.dumps({"type": "solve", "id": 3, "chain": {"lengths": [1] * 10**6}})
        assert call(million)["type"] == "error"
        assert call(good)["type"] == "solve"  # the same connection still works


def test_a_message_beyond_the_frame_limit_closes_only_its_connection(live_server):
    sync = pytest.importorskip("websockets.sync.client")
    from websockets.exceptions import ConnectionClosed

    from geoik.commands.view import WS_MAX_SIZE

    with sync.connect(f"ws://{live_server}/ws", max_size=None) as sock:
        sock.send("x" * (WS_MAX_SIZE + 1))
        with pytest.raises(ConnectionClosed) as closed:
            sock.recv(timeout=30)
    assert closed.value.rcvd is not None and closed.value.rcvd.code == 1009  # message too big
    with sync.connect(f"ws://{live_server}/ws") as sock:  # the server is still up
        sock.send(json.dumps({"type": "methods", "id": 1}))
        assert json.loads(sock.recv(timeout=30))["type"] == "methods"


# ---------------------------------------------------------------------------- preparing


def test_the_steps_run_in_order_the_wanted_one_first():
    gate, running, ran = threading.Event(), threading.Event(), []

    def step(name):
        def run():
            if name == "a":
                running.set()
                gate.wait()
            ran.append(name)

        return Step(name, f"step {name}", run)

    prep = Preparation([step(n) for n in "abcd"])
    seen = []
    prep.subscribe(seen.append)
    assert prep.status()["state"] == "preparing" and prep.mode() == "no-compile"
    thread = prep.start()
    assert running.wait(30)
    prep.want("d")  # asked for while "a" runs: it comes next
    gate.set()
    thread.join(30)
    assert ran == ["a", "d", "b", "c"] and prep.ready.is_set() and prep.mode() == "auto"
    assert [s["step"] for s in seen] == ["step a", "step d", "step b", "step c", None]
    assert [s["done"] for s in seen] == [0, 1, 2, 3, 4] and seen[-1]["state"] == "ready"
    assert all(s["total"] == 4 and s["failed"] == [] for s in seen)


def test_a_step_that_fails_is_named_and_the_rest_still_run():
    def boom():
        raise RuntimeError("no compiler")

    ran = []
    prep = Preparation([Step("a", "a", boom), Step("b", "b", lambda: ran.append("b"))])
    prep.run()
    assert ran == ["b"] and prep.status()["failed"] == ["a"] and prep.ready.is_set()
    assert prep.is_done("a") and prep.wait_for("a", 0)


def test_without_steps_the_server_is_ready_at_once(ws):
    r = ask(ws, {"type": "methods", "id": 1})
    assert r["preparation"] == {"state": "ready", "done": 0, "total": 0, "step": None, "failed": []}


def test_the_default_steps_prepare_every_part_of_the_page_without_failing():
    from geoik.viewer.models import Models

    prep = Preparation(default_steps(Models()))
    assert prep.names == ["chain", "arm", "cyclist", "hand", "map"]
    prep.run()
    assert prep.status() == {"state": "ready", "done": 5, "total": 5, "step": None, "failed": []}


def test_a_helper_process_runs_the_portable_steps_from_the_last(monkeypatch):
    """On two cores, once preparing has taken :data:`~geoik.viewer.prepare.HELPER_AFTER`, a
    helper process takes the steps that need no model from the last while this thread goes on
    from the first; a step the helper has taken is run here once the helper has ended it (its
    kernels then load from the cache), so every step is done here, in order, none failed."""
    from geoik import jit
    from geoik.viewer import prepare
    from geoik.viewer.models import Models

    monkeypatch.setattr(prepare, "HELPER_AFTER", 0.0)
    monkeypatch.setattr(jit, "_cores", lambda: 2)
    ran = []
    prep = Preparation([])  # replaced below: the gate needs the preparation

    def gate():  # this thread's first step: held until the helper has taken the last one
        deadline = time.monotonic() + 120  # a hang guard: the helper takes it once started
        while time.monotonic() < deadline:
            helper, index = prep._helper
            if helper is not None and helper.taken(index["map"]):
                break
            time.sleep(0.05)
        ran.append("gate")

    steps = [Step("gate", "the test's gate", gate)] + default_steps(Models())
    prep = Preparation(steps)
    prep.subscribe(lambda status: ran.append(status["step"]))
    prep.run()
    assert prep.status() == {"state": "ready", "done": 6, "total": 6, "step": None, "failed": []}
    assert ran[1] == "gate" and "map" in prep.helped
    assert [r for r in ran if r not in ("gate", None)] == [
        "the test's gate",
        "the 2-D panel's solvers",
        "the robot arm scene",
        "the cyclist scene",
        "the hand scene",
        "the metric maps",
    ]
    assert prep._helper == (None, {}) and not jit._helpers  # stopped


def test_helper_takes_calls_from_the_back_and_this_process_from_the_front(tmp_path, monkeypatch):
    """:func:`geoik.jit.helper_for`: the helper runs calls from the last while this process
    claims them from the first; a call the helper has taken is not this process's, and waiting
    for it leaves its result in place; on one core there is no helper."""
    from geoik import jit

    monkeypatch.setattr(jit, "_cores", lambda: 1)
    calls = [(os.makedirs, (str(tmp_path / name),)) for name in "abc"]
    assert jit.helper_for(calls) is None
    monkeypatch.setattr(jit, "_cores", lambda: 2)
    helper = jit.helper_for(calls)
    assert helper is not None
    try:
        assert helper.claim(0)  # before the helper's process has started: this one's
        deadline = time.monotonic() + 120
        while not helper.taken(1) and time.monotonic() < deadline:
            time.sleep(0.02)
        assert helper.taken(1) and helper.taken(2) and not helper.taken(0)
        assert not helper.claim(1) and not helper.claim(2)
        helper.wait_for(1)
        helper.wait_for(2)
        assert sorted(p.name for p in tmp_path.iterdir()) == ["b", "c"]
    finally:
        helper.close()
    assert not jit._helpers


def test_requests_are_answered_while_preparing_and_a_map_waits_for_its_step(monkeypatch):
    """A preparation stuck in its first step: solves are answered meanwhile, their kernels run
    without compiling (``jit.mode("no-compile")``); a map asks for its step and waits for it,
    saying so; every connection is told each time the preparation moves on; once it is done,
    requests run as usual (``"auto"``)."""
    sync = pytest.importorskip("websockets.sync.client")
    from geoik import jit
    from geoik.viewer import handlers

    modes = []
    real = handlers.solve_reply
    monkeypatch.setattr(
        handlers, "solve_reply", lambda msg: modes.append(jit._mode.value) or real(msg)
    )
    gate, ran = threading.Event(), []
    steps = [Step("chain", "the test's gate", gate.wait)]
    steps += [Step(n, f"step {n}", lambda n=n: ran.append(n)) for n in ("arm", "map")]
    prep = Preparation(steps)
    with viewer_server(preparation=prep) as address, sync.connect(f"ws://{address}/ws") as sock:
        statuses = []  # every status note, whenever it comes

        def ask_live(msg, want=None):
            """Send ``msg`` (if any) and return the next message of type ``want`` (default
            the reply's), keeping the status notes that come meanwhile."""
            if msg is not None:
                sock.send(json.dumps(msg))
            while True:
                got = json.loads(sock.recv(timeout=300))  # a hang guard: a cold map compiles first
                if got["type"] == "status":
                    statuses.append(got["preparation"])
                if got["type"] == (want or msg["type"]):
                    return got

        r = ask_live({"type": "methods", "id": 1})
        assert r["preparation"]["state"] == "preparing" and r["preparation"]["done"] == 0
        assert r["preparation"]["step"] == "the test's gate"
        r = ask_live({"type": "solve", "id": 2, "chain": CHAIN, "target": [3, 4], "motion": False})
        assert r["status"] == "REACHED" and modes == ["no-compile"]
        msg = {"type": "map", "id": 3, "chain": CHAIN, "method": "fabrik", "size": 8}
        note = ask_live(msg, "progress")
        assert note["id"] == 3 and note["preparing"]["state"] == "preparing" and ran == []
        before = len(statuses)
        gate.set()  # the map's step runs next, before the arm's it was queued after
        r = ask_live(None, "map")
        assert r["id"] == 3 and r["width"] == 8
        while statuses[-1]["state"] != "ready":
            ask_live(None, "status")
        after = [s["step"] for s in statuses[before:] if s["step"] != "the test's gate"]
        assert after == ["step map", "step arm", None]  # (the gate's own note may come late)
        assert statuses[-1]["done"] == 3 and ran == ["map", "arm"]
        r = ask_live({"type": "solve", "id": 4, "chain": CHAIN, "target": [3, 4], "motion": False})
        assert modes == ["no-compile", "auto"]


# ---------------------------------------------------------------------------- the command


def test_view_reports_a_port_in_use_in_one_line(live_server, capsys):
    from geoik.commands import cli

    port = live_server.rsplit(":", 1)[1]
    assert cli.main(["view", "--no-browser", "--port", port]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and f"port {port}" in err[0] and "--port 0" in err[0], err


def test_view_reports_an_unknown_host_in_one_line(capsys):
    from geoik.commands import cli

    assert cli.main(["view", "--no-browser", "--host", "no-such-host.invalid"]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and err[0].startswith("geoik: error: --host:"), err


@pytest.mark.parametrize("port", ["-1", "70000", "http"])
def test_view_rejects_a_bad_port(port, capsys):
    from geoik.commands import cli

    assert cli.main(["view", "--no-browser", "--port", port]) == 2
    err = capsys.readouterr().err
    assert err.startswith("geoik: error: --port: expected an integer in [0, 65535], got ")
    assert port in err


def test_view_help_explains_the_options(capsys):
    from geoik.commands import cli

    assert cli.main(["view", "--help"]) == 0
    out = capsys.readouterr().out
    for text in ("--port", "--host", "--no-browser", "127.0.0.1", "robot arm", "cyclist", "hand"):
        assert text in out


def test_geoik_view_serves_the_page_and_stops_cleanly_on_ctrl_c():
    import os
    import signal
    import subprocess
    import sys
    import urllib.request

    cmd = [sys.executable, "-m", "geoik", "view", "--port", "0", "--no-browser"]
    env = dict(os.environ, PYTHONUNBUFFERED="1")
    proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env)
    try:
        line = proc.stdout.readline()
        url = re.search(r"http://127\.0\.0\.1:\d+/", line)
        assert url, line
        with urllib.request.urlopen(url.group(0), timeout=30) as page:
            assert b"geoik viewer" in page.read()
    finally:
        proc.send_signal(signal.SIGINT)
        out, err = proc.communicate(timeout=30)
    assert proc.returncode == 0, err
    assert "Traceback" not in err and out.strip() == "geoik viewer stopped"
