"""The viewer end to end: a real uvicorn server on a loopback port, Debian's headless Chromium
driven by Playwright. Screenshots go to ``tests/artifacts/``.

Skipped, with the reason, when ``/usr/bin/chromium``, Playwright or the viewer extra is missing
(``apt-get install -y chromium`` and ``pip install -e '.[test]'``; never ``playwright install``).
"""

from __future__ import annotations

import math
import os
import socket
import threading
import time
from pathlib import Path

import pytest

CHROMIUM = os.environ.get("GEOIK_CHROMIUM", "/usr/bin/chromium")
if not Path(CHROMIUM).exists():
    pytest.skip(f"no Chromium at {CHROMIUM} (apt-get install -y chromium)", allow_module_level=True)
sync_api = pytest.importorskip(
    "playwright.sync_api", reason="Playwright for Python is missing (pip install playwright)"
)
uvicorn = pytest.importorskip("uvicorn", reason="the viewer extra is missing: geoik[viewer]")
pytest.importorskip("starlette", reason="the viewer extra is missing: geoik[viewer]")

from geoik.viewer.server import create_app  # noqa: E402

ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
ARTIFACTS = Path(__file__).parent / "artifacts"
MIN_FPS = 30.0
WARM_TIMEOUT_MS = 120_000  # first run: numba compiles every kernel once (then cached)


@pytest.fixture(scope="module")
def server_url():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    config = uvicorn.Config(create_app(), host="127.0.0.1", port=port, log_level="warning")
    server = uvicorn.Server(config)
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    deadline = time.monotonic() + 30
    while not server.started:
        assert thread.is_alive() and time.monotonic() < deadline, "uvicorn did not start"
        time.sleep(0.05)
    yield f"http://127.0.0.1:{port}/"
    server.should_exit = True
    thread.join(10)


@pytest.fixture(scope="module")
def page(server_url):
    ARTIFACTS.mkdir(exist_ok=True)
    with sync_api.sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        pg = browser.new_page(viewport={"width": 1100, "height": 800})
        pg.errors = []
        pg.on("pageerror", lambda e: pg.errors.append(f"{e}\n{e.stack}"))
        pg.on("console", lambda m: m.type == "error" and pg.errors.append(m.text))
        pg.goto(server_url)
        pg.wait_for_function(
            "geoikState.connected && geoikState.lastReply && geoikState.lastReply.type === 'solve'",
            timeout=WARM_TIMEOUT_MS,
        )
        yield pg
        browser.close()


def state(pg, expr):
    return pg.evaluate(f"(() => {{ const s = window.geoikState; return {expr}; }})()")


def settled(pg, timeout=30_000):
    """Wait until the last solve reply is for the current target and nothing is pending."""
    pg.wait_for_function(
        """(() => { const s = window.geoikState, r = s.lastReply;
            return r && r.type === 'solve' && !s.replaying &&
                   r.target[0] === s.target[0] && r.target[1] === s.target[1]; })()""",
        timeout=timeout,
    )


def drag(pg, to, steps=25):
    x0, y0 = pg.evaluate("geoikState.worldToClient(geoikState.target)")
    x1, y1 = pg.evaluate(f"geoikState.worldToClient([{to[0]}, {to[1]}])")
    pg.mouse.move(x0, y0)
    pg.mouse.down()
    pg.mouse.move(x1, y1, steps=steps)
    pg.mouse.up()


def test_dragging_the_target_moves_the_drawn_chain_onto_it(page):
    drag(page, (-6.0, 9.0))
    settled(page)
    target = state(page, "s.target")
    assert math.dist(target, (-6.0, 9.0)) < 0.1  # where the mouse let go, to a pixel
    reply = state(page, "s.lastReply")
    end = state(page, "s.endEffector")
    assert reply["status"] == "REACHED"
    assert math.dist(end, target) <= reply["tol"]
    page.screenshot(path=ARTIFACTS / "viewer-drag.png")
    assert page.errors == []


def test_switching_solver_solves_again_with_it(page):
    for method in ("ccd", "circles"):
        page.select_option("#method", method)
        page.wait_for_function(
            f"geoikState.lastReply && geoikState.lastReply.method === '{method}'", timeout=30_000
        )
        settled(page)
        reply = state(page, "s.lastReply")
        end = state(page, "s.endEffector")
        assert (math.dist(end, reply["target"]) <= reply["tol"]) == (reply["status"] == "REACHED")
    assert page.errors == []


def test_clamping_keeps_the_target_inside_the_safe_zones(page):
    page.check("#clamp")
    drag(page, (30.0, 0.0))  # beyond the maximum reach of 20
    settled(page)
    base, hi = state(page, "s.reach.base"), state(page, "s.reach.max")
    assert math.dist(state(page, "s.target"), base) <= hi + 1e-9
    page.uncheck("#clamp")


def test_replay_plays_the_motion_and_ends_on_the_solution(page):
    page.select_option("#method", "ccd")
    drag(page, (-4.0, 6.0))
    settled(page)
    page.click("#replay")
    page.wait_for_function("geoikState.replaying", timeout=30_000)
    page.wait_for_timeout(300)
    page.screenshot(path=ARTIFACTS / "viewer-replay.png")
    middle = state(page, "s.endEffector")
    page.wait_for_function("!geoikState.replaying", timeout=30_000)
    reply, end = state(page, "s.lastReply"), state(page, "s.endEffector")
    assert reply["motion"]["steps"] > 1
    assert end == reply["positions"][-1]
    assert math.dist(middle, end) > reply["tol"]  # the chain was drawn on its way
    assert page.errors == []


def test_map_overlay_toggles(page):
    page.check("#overlay")
    assert state(page, "s.overlay") is True
    page.wait_for_function("geoikState.map.state !== 'loading'", timeout=60_000)
    m = state(page, "s.map")
    if m["state"] == "error":  # geoik.maps not there yet: the page says so
        assert "map overlay needs geoik.maps" in m["text"]
        assert "map overlay needs geoik.maps" in page.inner_text("#map-text")
    else:
        assert m["state"] == "shown" and m["reply"]["vmax"] >= m["reply"]["vmin"]
    page.screenshot(path=ARTIFACTS / "viewer-map.png")
    page.uncheck("#overlay")
    assert state(page, "s.overlay") is False
    assert page.errors == []


@pytest.mark.parametrize("scene", ["arm", "cyclist", "hand"])
def test_scene_runs_at_30_frames_per_second_or_more(page, scene):
    page.click(f"#tabs button[data-scene={scene}]")
    assert state(page, "s.scene") == scene
    page.wait_for_function(
        f"geoikState.sceneReply && geoikState.sceneReply.scene === '{scene}'",
        timeout=WARM_TIMEOUT_MS,
    )
    frames = state(page, "s.sceneFrames")
    page.wait_for_timeout(2000)
    fps = state(page, "s.fps")
    assert state(page, "s.sceneFrames") - frames >= 2 * MIN_FPS * 0.9
    assert fps >= MIN_FPS, f"{scene}: {fps:.1f} solved frames/s"
    shown = page.inner_text("#s-fps")  # the page shows the rate it measures
    assert shown.endswith("solved frames/s") and float(shown.split()[0]) >= MIN_FPS
    reply = state(page, "s.sceneReply")
    assert reply["solve_ms"] >= 0
    if scene == "hand":
        assert "solve_tree" in reply["solver"] or "per finger" in reply["solver"]
        assert page.inner_text("#s-solver") == reply["solver"]
    page.screenshot(path=ARTIFACTS / f"viewer-{scene}.png")
    assert page.errors == []


def test_dragging_in_a_scene_view_moves_it(page):
    page.click("#tabs button[data-scene=hand]")
    page.wait_for_function("geoikState.sceneReply && geoikState.sceneReply.scene === 'hand'")
    x, y = page.evaluate("geoikState.viewToClient('top', [1.6, 0.3, 0])")
    page.mouse.move(x, y)
    page.mouse.down()
    page.mouse.move(x + 5, y, steps=3)
    page.mouse.up()
    page.wait_for_timeout(300)
    ball = state(page, "s.sceneReply.ball")
    assert state(page, "document.getElementById('auto').checked") is False
    assert abs(ball[1] - 0.3) < 0.05
    assert page.errors == []
