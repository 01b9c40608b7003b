"""The viewer end to end: a real uvicorn server on a loopback port, Debian's headless Chromium
driven by Playwright. With ``GEOIK_E2E_SCREENSHOTS=1`` the tests also save screenshots of what
they checked in ``tests/artifacts/`` (off by default: the module's 15 took about 10 s of its
80-90 s on two cores, and no test reads them).

Without ``/usr/bin/chromium`` (or ``GEOIK_CHROMIUM``), Playwright or the viewer extra, the module
is skipped with the reason; with ``GEOIK_REQUIRE_BROWSER=1`` (as CI sets it) it fails instead.
Install with ``apt-get install -y chromium`` and ``pip install -e '.[test]'``; never
``playwright install``.
"""

from __future__ import annotations

import importlib.util
import inspect
import math
import os
from pathlib import Path

import numpy as np
import pytest

CHROMIUM = os.environ.get("GEOIK_CHROMIUM", "/usr/bin/chromium")


def _missing() -> str | None:
    if not Path(CHROMIUM).exists():
        return f"no Chromium at {CHROMIUM} (apt-get install -y chromium)"
    for module, why in (
        ("playwright", "Playwright for Python is missing (pip install playwright)"),
        ("uvicorn", "the viewer extra is missing: pip install 'geoik[viewer]'"),
        ("starlette", "the viewer extra is missing: pip install 'geoik[viewer]'"),
    ):
        if importlib.util.find_spec(module) is None:
            return why
    return None


if (_why := _missing()) is not None:
    if os.environ.get("GEOIK_REQUIRE_BROWSER") == "1":
        pytest.fail(f"GEOIK_REQUIRE_BROWSER=1 but {_why}", pytrace=False)
    pytest.skip(_why, allow_module_level=True)

from playwright import sync_api  # noqa: E402

from geoik.solvers import REGISTRY  # noqa: E402
from geoik.viewer import hand  # noqa: E402
from tests.conftest import viewer_server  # noqa: E402

ARGS = [
    "--headless",
    "--no-sandbox",
    # WebGL (the 3-D views) on the CPU: SwiftShader through ANGLE, asked for by name, since
    # Chromium no longer falls back to it by itself
    "--use-angle=swiftshader",
    "--enable-unsafe-swiftshader",
    "--ignore-gpu-blocklist",
    # the page's own drawing (text, panels, the 2-D canvas) and the compositing of the page in
    # Skia on the CPU rather than through SwiftShader, which emulates a GPU at several times
    # the cost; WebGL (the 3-D views) still draws through SwiftShader. The module ran in about
    # 80 s rather than 113-136 s. Software compositing also delivers frames and replies in
    # another rhythm than a GPU's, which is how a reply to an older place of a dragged handle
    # was found drawing the handle back there.
    "--disable-gpu-rasterization",
    "--disable-accelerated-2d-canvas",
    "--disable-gpu-compositing",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
ARTIFACTS = Path(__file__).parent / "artifacts"
SCREENSHOTS = os.environ.get("GEOIK_E2E_SCREENSHOTS") == "1"
MIN_FPS = 30.0
WARM_TIMEOUT_MS = 600_000  # first run: numba compiles every kernel once (then cached)
FRAME_MS = 16
"""One animation frame of the page's clock (Playwright's requestAnimationFrame runs every 16 ms)."""
SECOND = 63
"""Animation frames in a second (and a little more) of the page's clock."""


@pytest.fixture(scope="module")
def compiled():
    """Every kernel the module's pages run, compiled (or loaded from numba's cache) here, once,
    before the first server starts: what the servers' preparations then do takes no time, so a
    page never waits on plain-Python answers (``"no-compile"``) while a background thread holds
    the compiler, and each robot's server (``warm=False``) compiles nothing on its first solve.
    The servers still run their preparation as ``geoik view`` does."""
    from geoik.robots.urdf import EXAMPLES, example_path
    from geoik.viewer.models import Models, load_rig, load_robot
    from geoik.viewer.server import warm_up

    robot = load_robot(example_path("panda"), "panda_hand_tcp", "--robot panda")
    warm_up(Models(robot, load_rig(Path(__file__).parent / "data" / "bvh" / "freebvh_walk.bvh")))
    tips = list(EXAMPLES["allegro"][1])  # several tips: the tree solvers' kernels
    warm_up(Models(load_robot(example_path("allegro"), tips, "--robot allegro")))


@pytest.fixture(scope="module")
def server_url(compiled):
    with viewer_server() as address:
        yield f"http://{address}/"


@pytest.fixture(scope="module")
def browser(compiled):
    """One headless Chromium for the module's pages (Playwright's sync API runs one at a time)."""
    if SCREENSHOTS:
        ARTIFACTS.mkdir(exist_ok=True)
    with sync_api.sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        yield b
        b.close()


def shot(pg, name):
    """A screenshot of the page into ``tests/artifacts/name`` when ``GEOIK_E2E_SCREENSHOTS=1``."""
    if SCREENSHOTS:
        pg.screenshot(path=ARTIFACTS / name)


def new_page(browser, url, ready, **options):
    pg = browser.new_page(viewport={"width": 1280, "height": 800}, **options)
    pg.errors = []
    pg.on("pageerror", lambda e: pg.errors.append(f"{e}\n{e.stack}"))
    pg.on("console", lambda m: m.type == "error" and pg.errors.append(m.text))
    pg.clock.install()  # flows as usual until a test runs frames one by one (run_frames)
    pg.goto(url)
    pg.wait_for_function(ready, timeout=WARM_TIMEOUT_MS)
    pg.ready = ready
    pg.used = False
    return pg


SHARED: dict[str, sync_api.Page] = {}
"""The module's shared pages by fixture name (``page``, ``model_page``), while open."""


@pytest.fixture(scope="module")
def page(server_url, browser):
    pg = new_page(
        browser,
        server_url,
        "geoikState.connected && geoikState.lastReply && geoikState.lastReply.type === 'solve'",
        has_touch=True,
    )
    SHARED["page"] = pg
    yield pg
    del SHARED["page"]
    pg.close()


@pytest.fixture(autouse=True)
def only_the_tests_pages_run(request):
    """A shared page the test does not name is held still (its clock paused: no animation
    frame, so nothing drawn and nothing sent), and the ones it names run: a page left animated
    (a scene, the robot, the rig playing) would otherwise draw on the CPU and have its frames
    solved by this process's server throughout the other tests."""
    named = set(inspect.signature(request.function).parameters)
    for name, pg in SHARED.items():
        held = getattr(pg, "held", False)
        if name in named and held:
            pg.clock.resume()
            pg.held = False
        elif name not in named and not held:
            pause(pg)
            pg.held = True
        if name in named:
            fresh(pg)


def fresh(pg):
    """A shared page as a test first meets it: loaded anew (its tab, fields, pins and drawings
    as the server's page starts them) when an earlier test has used it, so that no test depends
    on the order the tests run in."""
    if pg.used:
        pg.reload()
        pg.wait_for_function(pg.ready, timeout=WARM_TIMEOUT_MS)
        browser_frames(pg, 3)  # drawn, and the views framed
    pg.used = True


def state(pg, expr):
    """``expr`` evaluated in the page, with ``s`` the page state and ``text(id)`` an element's
    text."""
    return pg.evaluate(
        "(() => { const s = window.geoikState;"
        " const text = (id) => document.getElementById(id).textContent;"
        f" return {expr}; }})()"
    )


def settled(pg, timeout=30_000):
    """Wait until the last solve reply is for the current target and nothing is pending."""
    pg.wait_for_function(
        """(() => { const s = window.geoikState, r = s.lastReply;
            return r && r.type === 'solve' && !s.replaying && s.pending === 0 &&
                   r.target[0] === s.target[0] && r.target[1] === s.target[1]; })()""",
        timeout=timeout,
    )


def pause(pg):
    """Stop the page's clock a moment ahead of its time (its timers due by then fire once)."""
    for ahead in (0.1, 1.0, 10.0, 100.0):  # the page's time runs on while this is asked
        try:
            pg.clock.pause_at(pg.evaluate("Date.now()") / 1000 + ahead)
            return
        except sync_api.Error as e:
            if "to the past" not in str(e):
                raise
    raise AssertionError("the page's clock could not be paused")


def run_frames(pg, count, read):
    """``count`` animation frames on the page's clock, paused meanwhile: each frame runs once
    every request sent before it has its reply. What the page counts then (solves, frames drawn,
    its own frames a second) is what it shows wherever the server answers within a frame,
    whatever this machine's speed or load. Returns ``state(pg, read)`` read at the last frame;
    the clock flows again afterwards."""
    pause(pg)
    try:
        for _ in range(count):
            pg.clock.run_for(FRAME_MS)
            pg.wait_for_function("geoikState.pending === 0", timeout=WARM_TIMEOUT_MS)
        return state(pg, read)
    finally:
        pg.clock.resume()


def client_xy(pg, world):
    return pg.evaluate(f"geoikState.worldToClient([{world[0]}, {world[1]}])")


DRAG_STEPS = 6
"""Mouse moves a drag makes: each waits for the page to handle it (a frame or more), and what
the tests check (where the target ends, what was solved or refused) holds for any number."""


def drag(pg, to, steps=DRAG_STEPS):
    x0, y0 = pg.evaluate("geoikState.worldToClient(geoikState.target)")
    x1, y1 = client_xy(pg, to)
    pg.mouse.move(x0, y0)
    pg.mouse.down()
    pg.mouse.move(x1, y1, steps=steps)
    pg.mouse.up()


def assert_drawn_chain_reaches(pg):
    """The chain drawn (page state) is the reply's, and its end is where the status says."""
    reply, drawn, target = state(pg, "[s.lastReply, s.positions, s.target]")  # one moment
    assert drawn == reply["positions"]
    gap = math.dist(drawn[-1], target)
    assert (gap <= reply["tol"]) == (reply["status"] == "REACHED"), (gap, reply["status"])


def test_the_page_lists_every_planar_solver(page):
    names = page.eval_on_selector_all("#method option", "os => os.map(o => o.value)")
    assert names == [n for n, s in REGISTRY.items() if 2 in s.dims]
    assert page.inner_text("#conn") == "connected"


def test_a_mesh_simplified_for_software_webgl_keeps_its_shape_within_a_cell(page):
    """simplify.js on a dense torus knot of two material groups: within its budget (and not far
    below it), its bounds within one cell of the grid it used of the original's and inside
    them, no NaN, each group kept; a mesh already within budget is left whole."""
    out = page.evaluate(
        """async () => {
        const THREE = await import("three");
        const { simplify, SOFTWARE_MESH_TRIANGLES } = await import("/static/simplify.js");
        const dense = new THREE.TorusKnotGeometry(1, 0.3, 400, 40);  // 32,000 triangles
        const n = dense.index.count;
        dense.clearGroups(); dense.addGroup(0, n / 2, 0); dense.addGroup(n / 2, n / 2, 1);
        dense.computeBoundingBox();
        const box = dense.boundingBox.clone();
        const mesh = new THREE.Mesh(dense, [new THREE.MeshBasicMaterial(),
                                            new THREE.MeshBasicMaterial()]);
        const group = new THREE.Group(); group.add(mesh);
        const [before, after, cells] = simplify(group);
        const g = mesh.geometry, p = g.attributes.position.array;
        g.computeBoundingBox();
        const small = new THREE.Mesh(new THREE.BoxGeometry(1, 1, 1));
        const kept = small.geometry;
        const same = simplify(small);
        return { before, after, cells, budget: SOFTWARE_MESH_TRIANGLES, drawn: p.length / 9,
                 finite: p.every(Number.isFinite), groups: g.groups.map(x => x.count),
                 min: box.min.toArray(), max: box.max.toArray(),
                 newMin: g.boundingBox.min.toArray(), newMax: g.boundingBox.max.toArray(),
                 side: Math.max(...box.getSize(new THREE.Vector3()).toArray()),
                 same, keptWhole: small.geometry === kept };
        }"""
    )
    assert out["before"] == 32_000 and out["after"] == out["drawn"]
    assert 0.25 * out["budget"] < out["after"] <= out["budget"], out
    assert out["finite"] and len(out["groups"]) == 2 and all(c > 0 for c in out["groups"])
    assert sum(out["groups"]) == 3 * out["after"]
    assert 4 <= out["cells"] <= 512
    cell = out["side"] / out["cells"]
    for a, b in zip(out["min"] + out["max"], out["newMin"] + out["newMax"], strict=True):
        assert abs(a - b) <= cell, out
    # a mean of points inside the original bounds stays inside them
    assert all(lo - 1e-6 <= v for lo, v in zip(out["min"], out["newMin"], strict=True))
    assert all(v <= hi + 1e-6 for hi, v in zip(out["max"], out["newMax"], strict=True))
    assert out["same"] == [12, 12, math.inf] and out["keptWhole"]


def test_dragging_the_target_moves_the_drawn_chain_onto_it(page):
    drag(page, (-6.0, 9.0))
    settled(page)
    assert math.dist(state(page, "s.target"), (-6.0, 9.0)) < 0.1  # where the mouse let go
    assert state(page, "s.lastReply.status") == "REACHED"
    assert_drawn_chain_reaches(page)
    assert page.inner_text("#r-status") == "REACHED"
    shot(page, "viewer-drag.png")
    assert page.errors == []


def test_a_touch_drag_moves_the_target_too(page):
    cdp = page.context.new_cdp_session(page)

    def touch(kind, *xy):
        points = [{"x": x, "y": y} for x, y in xy]
        cdp.send("Input.dispatchTouchEvent", {"type": kind, "touchPoints": points})

    (x0, y0), (x1, y1) = client_xy(page, (5.0, 5.0)), client_xy(page, (8.0, -4.0))
    touch("touchStart", (x0, y0))
    for k in range(1, 11):
        touch("touchMove", (x0 + (x1 - x0) * k / 10, y0 + (y1 - y0) * k / 10))
    touch("touchEnd")
    settled(page)
    assert state(page, "s.lastPointer") == "touch"
    assert math.dist(state(page, "s.target"), (8.0, -4.0)) < 0.1
    assert_drawn_chain_reaches(page)


def test_switching_solver_solves_again_with_it(page):
    for method in ("ccd", "circles", "dls", "fabrik"):
        page.select_option("#method", method)
        page.wait_for_function(f"geoikState.lastReply.method === '{method}'", timeout=30_000)
        settled(page)
        assert_drawn_chain_reaches(page)
    # two-bone takes two links: on ten it is in the picker, disabled, with the reason
    option = page.eval_on_selector(
        "#method option[value=two-bone]", "o => [o.disabled, o.textContent, o.title]"
    )
    assert option[0] is True and "2 links" in option[1] and "this chain has 10" in option[2]
    assert page.inner_text("#chain-err") == "" and page.errors == []


def test_editing_links_lengths_and_limits(page):
    page.fill("#links", "4")
    page.fill("#lengths", "3, 2, 2, 1")
    page.fill("#limits", "none, 90, -30:120, 45")
    page.press("#limits", "Enter")
    page.wait_for_function("geoikState.reach && geoikState.reach.max === 8 && geoikState.limits[3]")
    limits = state(page, "s.limits")
    assert limits[0] is None
    assert limits[1:] == [pytest.approx(p) for p in ([-90, 90], [-30, 120], [-45, 45])]
    drag(page, (2.0, 5.0))
    settled(page)
    reply = state(page, "s.lastReply")
    assert len(reply["positions"]) == 5 and reply["target"] == pytest.approx([2.0, 5.0], abs=0.1)
    bends = [math.degrees(a) for a in reply["angles"]]
    assert -90 - 1e-6 <= bends[1] <= 90 + 1e-6 and -30 - 1e-6 <= bends[2] <= 120 + 1e-6
    assert -45 - 1e-6 <= bends[3] <= 45 + 1e-6
    assert_drawn_chain_reaches(page)
    shot(page, "viewer-limits.png")
    page.fill("#limits", "200")  # not a bend: the page names the field by its label
    page.press("#limits", "Enter")
    page.wait_for_function("document.getElementById('chain-err').textContent !== ''")
    assert page.inner_text("#chain-err").startswith("limits (°): expected a maximum bend")
    assert page.get_attribute("#limits", "aria-invalid") == "true"
    for field, value in (("#links", "10"), ("#lengths", "2"), ("#limits", "")):
        page.fill(field, value)
        page.press(field, "Enter")
    page.wait_for_function(
        "(geoikState.reach || {}).max === 20 && geoikState.limits.every(x => !x)"
    )
    assert page.inner_text("#chain-err") == "" and page.errors == []


def test_clamping_keeps_the_target_inside_the_safe_zones(page):
    page.check("#clamp")
    drag(page, (30.0, 0.0))  # beyond the maximum reach of 20
    settled(page)
    base, hi = state(page, "s.reach.base"), state(page, "s.reach.max")
    assert math.dist(state(page, "s.target"), base) == pytest.approx(hi)
    assert_drawn_chain_reaches(page)
    page.uncheck("#clamp")


def test_replay_plays_the_motion_with_its_trace_and_ends_on_the_solution(page):
    page.select_option("#method", "ccd")
    page.fill("#speed", "4")  # the fastest replay: 0.3-1.5 s rather than 1.2-6 s
    drag(page, (-4.0, 6.0))
    settled(page)
    pause(page)
    try:
        page.click("#replay")  # asks for the motion, and replays it once it comes
        page.wait_for_function("geoikState.replaying", timeout=30_000)
        page.clock.run_for(100)  # a third of the way at most: a replay lasts 0.3 s or more
        middle = state(page, "s.endEffector")
    finally:
        page.clock.resume()
    page.wait_for_function("!geoikState.replaying", timeout=30_000)
    reply, end = state(page, "s.lastReply"), state(page, "s.endEffector")
    assert reply["motion"]["steps"] > 1
    assert end == reply["positions"][-1]
    assert math.dist(middle, end) > reply["tol"]  # the chain was drawn on its way
    assert page.errors == []


def test_map_overlay_shows_the_metric_map_with_its_legend(page):
    page.check("#overlay")
    page.wait_for_function("['shown', 'error'].includes(geoikState.map.state)", timeout=60_000)
    m = state(page, "s.map")
    assert m["state"] == "shown", m["text"]
    assert m["reply"]["metric"] == "iterations" and 1 <= m["reply"]["vmin"] <= m["reply"]["vmax"]
    assert "coverage" in page.inner_text("#map-text")
    legend_ink = page.evaluate(
        """(() => { const c = document.getElementById('legend');
            const d = c.getContext('2d').getImageData(0, 0, c.width, c.height).data;
            let n = 0; for (let i = 3; i < d.length; i += 4) n += d[i] > 0; return n; })()"""
    )
    assert legend_ink > 1000  # the colour bar and its labels are drawn
    bar = m["reply"][
        "bar"
    ]  # the server's colour bar (geoik.maps.palette): its ends always labelled
    drawn = state(page, "s.map.legendLabels")
    assert drawn[:2] == [bar["ticks"][0][1], bar["ticks"][-1][1]]
    assert bar["ticks"][-1][1] == fmt_int(m["reply"]["vmax"]) and bar["label"] == "iterations"
    options = page.eval_on_selector_all(
        "#metric option", "os => os.map(o => [o.value, o.textContent, o.title])"
    )
    sent = state(page, "s.mapMetricLabels")  # the methods reply's, from geoik.maps.palette
    assert [[v, sent[v]["words"]] for v, _, _ in options] == [[v, t] for v, t, _ in options]
    assert [
        "path",
        "end-effector path length",
        "end-effector path length (unit of the link lengths)",
    ] in options
    page.click("#replay")  # the docs' picture: map, chain, replayed trace
    # the motion asked for, come (its replay starts as it comes) and replayed to its end
    page.wait_for_function("geoikState.pending === 0 && !geoikState.replaying", timeout=30_000)
    shot(page, "viewer-map.png")
    page.uncheck("#overlay")
    assert state(page, "s.overlay") is False and state(page, "s.map.state") == "off"
    assert page.errors == []


def fmt_int(v):
    assert float(v).is_integer()
    return str(int(v))


def check_scene_reply(scene, r):
    if scene == "arm" and r["status"] == "REACHED":
        assert math.dist(r["points"][-1], r["target3"]) <= 1e-3
    elif scene == "cyclist":
        for leg in r["legs"].values():
            assert leg["status"] == "REACHED" and math.dist(leg["foot"][2], leg["pedal"]) <= 1e-3
    elif scene == "hand":
        assert "solve_tree" in r["solver"]
        assert r["on_ball"] == sum(v["touch"] == "tip" for v in r["fingers"].values())
        assert hand.hand_skeleton()[0].limit_violation(np.array(r["points"])) == 0.0


def browser_frames(pg, count):
    """Wait for the browser to run ``count`` more animation frames (an event, not a time)."""
    ticks = state(pg, "s.rafTicks")
    pg.wait_for_function(f"geoikState.rafTicks >= {ticks + count}", timeout=60_000)


@pytest.mark.parametrize("scene", ["arm", "cyclist", "hand"])
def test_scene_is_solved_and_drawn_while_it_moves_and_idle_when_still(page, scene):
    """Animated, every frame the 3-D view draws is a new solve of the server's, and the solves
    keep coming; still (animation off, nothing dragged), nothing is sent and nothing drawn, and
    the rates say so. How fast is a benchmark's question (benchmarks/bench_viewer.py)."""
    page.click(f"#tabs button[data-scene={scene}]")
    assert state(page, "s.scene") == scene
    page.check("#auto")
    page.wait_for_function(
        f"geoikState.sceneReply && geoikState.sceneReply.scene === '{scene}'",
        timeout=WARM_TIMEOUT_MS,
    )
    solved, drawn = state(page, "[s.sceneFrames, s.view3d.scene.frames]")
    page.wait_for_function(f"geoikState.sceneFrames >= {solved + 8}", timeout=60_000)
    now_solved, now_drawn = state(page, "[s.sceneFrames, s.view3d.scene.frames]")
    assert now_drawn > drawn, f"{scene}: the 3-D view drew nothing while the scene moved"
    assert now_drawn - drawn <= now_solved - solved + 1  # a drawing per new solve, at most
    reply = state(page, "s.sceneReply")
    check_scene_reply(scene, reply)
    page.wait_for_function(  # the readouts show the frame drawn
        "document.getElementById('s-iter').textContent"
        " === String(geoikState.sceneReply.iterations)",
        polling=50,
        timeout=30_000,
    )
    assert state(page, "s.view3d.scene.renderer.getContext().isContextLost()") is False
    shot(page, f"viewer-{scene}.png")
    page.uncheck("#auto")
    scene_settled(page)  # the last input sent (not only every request sent so far answered)
    browser_frames(page, 5)
    sent, drawn = state(page, "[s.sent.scene, s.view3d.scene.frames]")
    browser_frames(page, 20)
    assert state(page, "[s.sent.scene, s.view3d.scene.frames]") == [sent, drawn]
    page.wait_for_function(
        "document.getElementById('s-rfps').textContent.startsWith('idle')", timeout=30_000
    )
    page.check("#auto")
    assert page.errors == []


def scene_settled(pg):
    """Wait until the scene's last input is sent (the page sends it on the frame after a
    request comes free) and every request has its reply, the scene's answering the last, and
    that reply is drawn (on the frame after it comes: the 3-D handle snaps to it then)."""
    pg.wait_for_function(
        "!geoikState.sceneQueued && geoikState.pending === 0"
        " && (geoikState.sceneReply || {}).id >= geoikState.lastSent"
        " && geoikState.sceneDrawn === geoikState.sceneReply.id",
        timeout=30_000,
    )


def drag_in_view(pg, view, start, end):
    x0, y0 = pg.evaluate(f"geoikState.viewToClient('{view}', {list(start)})")
    x1, y1 = pg.evaluate(f"geoikState.viewToClient('{view}', {list(end)})")
    pg.mouse.move(x0, y0)
    pg.mouse.down()
    pg.mouse.move(x1, y1, steps=5)
    pg.mouse.up()
    scene_settled(pg)


def test_dragging_in_the_scene_views_moves_what_they_control(page):
    page.click("#tabs button[data-scene=arm]")
    page.wait_for_function("geoikState.sceneReply && geoikState.sceneReply.scene === 'arm'")
    drag_in_view(page, "top", (1.0, 0.0, 0.0), (0.0, 1.5, 0.0))  # the base turns to +y
    assert state(page, "document.getElementById('auto').checked") is False
    assert state(page, "s.sceneReply.yaw_deg") == pytest.approx(90.0, abs=2.0)
    drag_in_view(page, "side", (1.0, 0.0, 1.0), (1.2, 0.0, 1.3))  # the end effector follows
    r = state(page, "s.sceneReply")
    assert r["target"] == pytest.approx([1.2, 1.0], abs=0.05) and r["status"] == "REACHED"
    page.click("#tabs button[data-scene=hand]")
    page.wait_for_function("geoikState.sceneReply && geoikState.sceneReply.scene === 'hand'")
    drag_in_view(page, "top", (1.0, 0.0, 0.0), (1.1, 0.3, 0.0))
    ball = state(page, "s.sceneReply.ball")
    assert ball[:2] == pytest.approx([1.1, 0.3], abs=0.05)
    assert page.errors == []


def view_drawn(pg, view):
    """Wait until the 3-D view has drawn what it shows now (every reply asked for came, and the
    view has nothing left to draw)."""
    pg.wait_for_function("geoikState.pending === 0", timeout=30_000)
    pg.wait_for_function(f"!geoikState.view3d.{view}.dirty", timeout=30_000)


def handle_xy(pg, view):
    return pg.evaluate(f"(v => v.toClient(v.handlePose().position))(geoikState.view3d.{view})")


def drag_handle(pg, view, dx, dy, steps=DRAG_STEPS):
    """A real mouse drag of the 3-D handle (three's TransformControls): press on its centre,
    which moves it in the plane facing the camera, move by (dx, dy) pixels, let go. The view is
    first drawn as it is now (a tab just shown frames its view on its first drawings); a press
    that misses the handle (moved or drawn anew in between) is let go and made again."""
    moves = state(pg, f"s.view3d.{view}.handleMoves")
    x0, y0 = press_handle(pg, view)
    pg.mouse.move(x0 + dx, y0 + dy, steps=steps)
    pg.mouse.up()
    assert state(pg, f"s.view3d.{view}.handleMoves") > moves, "the handle did not move"
    return state(pg, f"s.view3d.{view}.handlePose()")


def press_handle(pg, view, where=None, taken="true"):
    """Press the mouse on the 3-D handle of ``view`` (its centre, or the client point the
    JavaScript expression ``where`` gives) and keep it down, once the press has taken the
    handle (the view says it is dragging, and the expression ``taken`` holds); returns the
    point pressed. The page's clock is held from reading the place to pressing it, so that no
    frame draws a reply (which moves an animated scene's handle) in between; a press that still
    misses is let go without moving and made again."""
    where = where or f"(v => v.toClient(v.handlePose().position))(geoikState.view3d.{view})"
    for _ in range(10):
        view_drawn(pg, view)
        browser_frames(pg, 2)
        pause(pg)
        try:
            x0, y0 = pg.evaluate(where)
            pg.mouse.move(x0, y0)
            pg.mouse.down()
            took = state(pg, f"s.view3d.{view}.dragging && ({taken})")
        finally:
            pg.clock.resume()
        if took:
            return x0, y0
        pg.mouse.up()
    raise AssertionError("ten presses on the handle did not take it")


def test_dragging_the_3d_handle_moves_the_arm_and_the_ball(page):
    page.click("#tabs button[data-scene=arm]")
    page.wait_for_function("geoikState.sceneReply && geoikState.sceneReply.scene === 'arm'")
    view_drawn(page, "scene")
    pose = drag_handle(page, "scene", -50, 40)
    assert state(page, "document.getElementById('auto').checked") is False
    scene_settled(page)
    r = state(page, "s.sceneReply")
    held = state(page, "s.view3d.scene.handlePose()")["position"]  # snapped to the reply's
    assert math.dist(r["target3"], held) <= 1e-6
    x, y, z = pose["position"]
    assert r["yaw_deg"] == pytest.approx(math.degrees(math.atan2(y, x)), abs=0.5)
    assert r["status"] == "REACHED" and math.dist(r["points"][-1], r["target3"]) <= 1e-3
    shot(page, "viewer-arm-3d-drag.png")
    page.click("#tabs button[data-scene=hand]")
    page.wait_for_function("geoikState.sceneReply && geoikState.sceneReply.scene === 'hand'")
    view_drawn(page, "scene")
    pose = drag_handle(page, "scene", 30, -20)
    scene_settled(page)
    r = state(page, "s.sceneReply")
    assert (
        math.dist(r["ball"], pose["position"]) <= 0.4
    )  # the ball followed (clamped under the palm)
    assert r["on_ball"] == sum(v["touch"] == "tip" for v in r["fingers"].values())
    shot(page, "viewer-hand-3d-drag.png")
    assert page.errors == []


def in_sight(pg, selector):
    """Whether the element lies wholly inside the window, and the page does not overflow it
    sideways (half a pixel of rounding allowed)."""
    return pg.evaluate(
        f"""(() => {{ const r = document.querySelector('{selector}').getBoundingClientRect();
            const d = document.documentElement;
            return r.width > 0 && r.top >= -0.5 && r.left >= -0.5 && r.bottom <= innerHeight + 0.5
                   && r.right <= innerWidth + 0.5 && d.scrollWidth <= d.clientWidth; }})()"""
    )


def test_the_hand_fingertip_table_is_wholly_in_sight(page):
    page.click("#tabs button[data-scene=hand]")
    page.wait_for_function("geoikState.sceneReply && geoikState.sceneReply.scene === 'hand'")
    page.wait_for_selector("table.fingers")
    rows = page.eval_on_selector_all("table.fingers tr", "rs => rs.map(r => r.innerText)")
    assert len(rows) == 6  # the header and the five fingers
    assert in_sight(page, "table.fingers") and in_sight(page, "#scene-detail")  # 1280 x 800
    size = page.viewport_size
    try:
        for width, height in ((1024, 700), (800, 600), (420, 800)):
            page.set_viewport_size({"width": width, "height": height})
            page.evaluate("new Promise(r => requestAnimationFrame(() => requestAnimationFrame(r)))")
            page.eval_on_selector("#scene-detail", "e => e.scrollIntoView({block: 'end'})")
            assert in_sight(page, "#scene-detail"), (width, height)
            shot(page, f"viewer-hand-{width}x{height}.png")
    finally:
        page.set_viewport_size(size)
        page.evaluate("window.scrollTo(0, 0)")
    assert page.errors == []


# ---------------------------------------------------------------------------- robot and rig


@pytest.fixture(scope="module")
def model_page(tmp_path_factory, browser, page):
    """A viewer started as ``geoik view --robot panda --bvh walk.bvh`` would be, in a page of
    its own; the clip is a copy in a temporary folder (Save writes beside it). The other page
    rests on its 2-D panel meanwhile, so that its scenes do not share the two cores."""
    import shutil

    page.click("#tabs button[data-scene=chain]")
    from geoik.robots.urdf import example_path
    from geoik.viewer.models import Models, load_rig, load_robot

    folder = tmp_path_factory.mktemp("rig")
    clip = shutil.copy(Path(__file__).parent / "data" / "bvh" / "freebvh_walk.bvh", folder)
    models = Models(
        load_robot(example_path("panda"), "panda_hand_tcp", "--robot panda"), load_rig(clip)
    )
    with viewer_server(models=models) as address:
        ready = (
            "geoikState.robot && geoikState.robot.reply"
            " && (m => m.loaded + m.failed.length === m.total)(geoikState.robot.meshes)"
        )
        pg = new_page(browser, f"http://{address}/", ready)
        pg.clip_file = Path(clip)
        SHARED["model_page"] = pg
        yield pg
        del SHARED["model_page"]
        pg.close()


def robot_settled(pg, timeout=30_000):
    """Wait until the robot's last solve is for where the handle is now: nothing left to send
    (a move or a change of the settings is sent on the next frame), every request answered, and
    the last reply's target the handle's."""
    pg.wait_for_function(
        """(() => { const r = geoikState.robot.reply, h = geoikState.view3d.robot.handlePose();
            return !geoikState.robot.queued && geoikState.pending === 0
                && r && r.target.every((v, k) => Math.abs(v - h.position[k]) < 1e-9); })()""",
        timeout=timeout,
    )
    return state(pg, "s.robot.reply")


def test_the_robot_is_shown_first_with_its_meshes(model_page):
    pg = model_page
    assert state(pg, "s.scene") == "robot" and not pg.is_hidden("#robot-panel")
    pg.wait_for_function(
        "(m => m.total > 0 && m.loaded + m.failed.length === m.total)(geoikState.robot.meshes)",
        timeout=60_000,
    )
    meshes = state(pg, "s.robot.meshes")
    assert meshes["failed"] == [] and meshes["loaded"] == meshes["total"] == 11
    # WebGL runs on the CPU here (SwiftShader): each of the Panda's 10 mesh files is drawn with
    # at most SOFTWARE_MESH_TRIANGLES triangles, and the panel says how many of how many
    before, after = meshes["triangles"]
    assert before == 134_300 and 0 < after <= 10 * 2500, meshes["triangles"]
    assert f"software WebGL: {after:,} of their {before:,} triangles drawn" in pg.inner_text(
        "#r-meshes"
    )
    assert "panda: 7 joints to panda_hand_tcp" in pg.inner_text("#r-title")
    names = pg.eval_on_selector_all("#r-method option", "os => os.map(o => o.value)")
    assert set(names) >= {"auto", "ccd", "dls"} and pg.input_value("#r-method") == "auto"
    rows = pg.eval_on_selector_all("#r-joints tr", "rs => rs.map(r => r.innerText)")
    assert len(rows) == 8 and "panda_joint4" in rows[4] and "-176° … -4°" in rows[4]
    view_drawn(pg, "robot")  # every mesh drawn
    shot(pg, "viewer-robot-rest.png")
    assert pg.errors == []


def test_dragging_the_robot_handle_solves_and_the_robot_follows(model_page):
    pg = model_page
    pose = drag_handle(pg, "robot", -90, 110, steps=20)
    r = robot_settled(pg)
    assert r["target"] == pytest.approx(pose["position"])
    assert r["status"] == "REACHED", r
    assert math.dist(r["tip_frame"]["position"], pose["position"]) <= r["tol"]
    assert r["angle_error"] <= r["angle_tol"]  # the orientation target is the handle's
    # the tip link is drawn where the server put it
    tip = state(pg, "s.robot.model.links.indexOf(s.robot.model.tip)")
    assert r["poses"][tip][:3] == pytest.approx(r["tip_frame"]["position"], abs=1e-9)
    assert pg.inner_text("#r-tips tbody td:nth-child(2)") == "REACHED"
    assert pg.inner_text("#r3-ms").endswith("ms (analytic)")  # auto, with an orientation
    values = pg.eval_on_selector_all("#r-joints td.val", "cs => cs.map(c => c.textContent)")
    assert values == [f"{math.degrees(a):.1f}°" for a in r["angles"]]
    shot(pg, "viewer-robot.png")
    assert pg.errors == []


def robot_answered_handle(pg, method, timeout=30_000):
    """Wait until the robot's last reply is ``method``'s solve for the handle's pose as it is
    now, position and orientation (a quaternion or its negative), with nothing left to send or
    in flight (a click on "rest" is sent on the next frame), and return it."""
    pg.wait_for_function(
        """(m => { const r = geoikState.robot.reply, h = geoikState.view3d.robot.handlePose();
            if (geoikState.robot.queued || geoikState.pending !== 0) return false;
            if (!r || r.method !== m || !r.orientation) return false;
            const q = h.quaternion;
            const near = s => r.orientation.every((v, k) => Math.abs(v - s * q[k]) < 1e-9);
            return r.target.every((v, k) => Math.abs(v - h.position[k]) < 1e-9)
                && (near(1) || near(-1)); })""",
        arg=method,
        timeout=timeout,
    )
    return state(pg, "s.robot.reply")


def test_turning_the_handle_and_switching_the_solver(model_page):
    pg = model_page
    pg.click("#r-turn")
    assert state(pg, "s.view3d.robot.transform.mode") == "rotate"
    for method in ("ccd", "dls"):
        # each solver from the rest pose, so that it starts where this test says rather than
        # where an earlier test or a solve still in flight left the arm
        pg.select_option("#r-method", method)
        pg.click("#r-rest")
        robot_answered_handle(pg, method)
        # the rotate gizmo's rings are hard to hit by pixels in a test: turn the handle through
        # the page in the small steps a drag makes, 0.35 rad about its x axis and then -0.3 rad
        # about its z axis, each step solved from the last answer as during a drag (CCD needs
        # about 850 iterations to make the whole turn at once from the rest pose, more than its
        # budget of 100 per solve)
        for axis, angle in (("X", 0.035), ("Z", -0.03)):
            for _ in range(10):
                pg.evaluate(
                    f"(v => {{ v.handle.rotate{axis}({angle}); v.handleMoves++; }})"
                    "(geoikState.view3d.robot)"
                )
                r = robot_answered_handle(pg, method)
        assert r["status"] == "REACHED", (method, r["error"], r["angle_error"])
    shot(pg, "viewer-robot-turned.png")
    pg.click("#r-move")
    pg.uncheck("#r-orient")
    drag_handle(pg, "robot", 40, -30)
    r = robot_settled(pg)
    assert r["angle_error"] is None and r["status"] == "REACHED"
    assert "position only" in pg.inner_text("#r3-tol")
    assert pg.inner_text("#r-tips tbody td:nth-child(4)") == "–"
    pg.check("#r-orient")
    assert pg.errors == []


def test_the_robot_is_solved_while_its_target_moves_and_idle_when_still(model_page):
    """Animated, the server solves frame after frame and the view draws them; still, nothing
    is sent or drawn, and the page says "idle" rather than a rate of 0."""
    pg = model_page
    pg.click("#r-rest")
    pg.check("#r-auto")
    frames, drawn = state(pg, "[s.robot.frames, s.view3d.robot.frames]")
    pg.wait_for_function(f"geoikState.robot.frames >= {frames + 8}", timeout=60_000)
    assert state(pg, "s.view3d.robot.frames") > drawn
    r = state(pg, "s.robot.reply")
    assert r["status"] == "REACHED", r
    pg.wait_for_function(
        "/^\\d+ frames?\\/s$/.test(document.getElementById('r3-fps').textContent)", timeout=30_000
    )
    pg.uncheck("#r-auto")
    robot_settled(pg)  # the last move sent (not only every request sent so far answered)
    browser_frames(pg, 5)
    sent, drawn = state(pg, "[s.sent.robot_solve, s.view3d.robot.frames]")
    browser_frames(pg, 20)
    assert state(pg, "[s.sent.robot_solve, s.view3d.robot.frames]") == [sent, drawn]
    pg.wait_for_function(
        "['r3-fps', 'r3-draw'].every(id => document.getElementById(id).textContent"
        ".startsWith('idle'))",
        timeout=30_000,
    )
    assert pg.errors == []


def test_the_panda_shows_no_other_solutions_and_says_why(model_page):
    """A 7-joint arm has a continuum of solutions per pose: no ghosts, the toggle off and
    disabled, and the page says why."""
    pg = model_page
    pg.click("#tabs button[data-scene=robot]")
    assert pg.is_disabled("#r-others") and not pg.is_checked("#r-others")
    note = pg.inner_text("#r-others-note")
    assert "none shown" in note and "continuum" in note
    assert "continuum" in pg.get_attribute("#r-others-label", "title")
    r = robot_settled(pg)
    assert r["others"] is None  # not asked for
    assert state(pg, "s.robot.ghostsShown") == 0
    assert state(pg, GHOSTS_DRAWN) == 0
    assert pg.errors == []


def test_the_rig_plays_pins_a_hand_and_saves_the_posed_clip(model_page):
    pg = model_page
    pg.click("#tabs button[data-scene=rig]")
    pg.wait_for_function("geoikState.rig.reply", timeout=WARM_TIMEOUT_MS)
    clip = state(pg, "s.rig.clip")
    assert clip["frames"] == 69 and "mixamorig:LeftHand" in clip["effectors"]
    frames = state(pg, "s.rig.frames")  # playing: one frame of the clip after another
    pg.wait_for_function(f"geoikState.rig.frames >= {frames + 5}", timeout=60_000)
    pg.click("#g-play")  # pause, then pin the left hand where it is and drag its handle
    assert state(pg, "s.rig.playing") is False
    pg.select_option("#g-joint", "mixamorig:LeftHand")
    pg.click("#g-pin")
    assert state(pg, "s.rig.selected") == "mixamorig:LeftHand"
    pose = drag_handle(pg, "rig", 40, -35)
    pg.wait_for_function("geoikState.rig.settled()", timeout=30_000)
    g = state(pg, "({pins: s.rig.pins, reply: s.rig.reply})")
    assert g["pins"][0]["target"] == pytest.approx(pose["position"])
    j = clip["names"].index("mixamorig:LeftHand")
    assert g["reply"]["pins"][0]["reached"] is True
    assert math.dist(g["reply"]["positions"][j], pose["position"]) <= 1e-3 * clip["size"]
    # press the right foot's ball: a second pin where it is (drawn there first: a press is
    # picked against the balls as last drawn)
    view_drawn(pg, "rig")
    foot = clip["names"].index("mixamorig:RightFoot")
    x, y = pg.evaluate(f"geoikState.view3d.rig.toClient(geoikState.rig.reply.positions[{foot}])")
    pg.mouse.click(x, y)
    assert [p["joint"] for p in state(pg, "s.rig.pins")] == [
        "mixamorig:LeftHand",
        "mixamorig:RightFoot",
    ]
    pg.fill("#g-pins .pin:nth-child(2) input", "0-20")
    pg.press("#g-pins .pin:nth-child(2) input", "Enter")
    pg.click("#g-play")  # play with the pins: every frame solved on the server
    frames = state(pg, "s.rig.frames")
    pg.wait_for_function(f"geoikState.rig.frames >= {frames + 5}", timeout=60_000)
    pg.wait_for_function("geoikState.rig.reply.solved && geoikState.rig.reply.pins[0].active")
    r = state(pg, "s.rig.reply")
    assert r["solved"] and r["pins"][0]["active"]
    shot(pg, "viewer-rig.png")
    before = pg.clip_file.read_bytes()
    pg.click("#g-save")
    pg.wait_for_function("geoikState.rig.saved", timeout=60_000)
    saved = state(pg, "s.rig.saved")
    out = pg.clip_file.with_name("freebvh_walk.posed.bvh")
    assert saved["path"] == str(out) and out.is_file()
    assert pg.clip_file.read_bytes() == before
    assert [p["frames"] for p in saved["pins"]] == [69, 21]
    assert "wrote" in pg.inner_text("#g-saved")
    assert pg.errors == []


# ---------------------------------------------------------------------------- honest readouts


def readouts(pg):
    return pg.eval_on_selector_all("#readout td", "cs => cs.map(c => c.textContent)")


def test_an_error_clears_the_readouts_and_greys_the_last_pose_until_a_solve_succeeds(page):
    page.click("#tabs button[data-scene=chain]")
    drag(page, (5.0, 5.0))
    settled(page)
    assert page.inner_text("#r-status") == "REACHED"
    pose = state(page, "s.positions")
    sent = state(page, "s.sent.solve")
    page.fill("#lengths", "abc")
    page.press("#lengths", "Enter")
    assert all(text == "–" for text in readouts(page)), readouts(page)
    assert state(page, "s.stale").startswith("not solved") and state(page, "s.positions") == pose
    assert page.get_attribute("#lengths", "aria-invalid") == "true"
    drag(page, (-3.0, 6.0))  # a press on the canvas moves the target, solves nothing
    browser_frames(page, 5)
    assert state(page, "s.sent.solve") == sent and page.inner_text("#r-status") == "–"
    assert state(page, "s.positions") == pose  # the last valid pose, drawn grey
    grey = page.evaluate(  # the chain's ink on the canvas is grey, not its usual blue
        """(() => { const c = document.getElementById('c2d'), g = c.getContext('2d');
            const d = g.getImageData(0, 0, c.width, c.height).data; let blue = 0, grey = 0;
            for (let i = 0; i < d.length; i += 4) {
              if (d[i] === 13 && d[i + 1] === 59 && d[i + 2] === 102) blue++;
              if (d[i] === 163 && d[i + 1] === 169 && d[i + 2] === 173) grey++; }
            return [blue, grey]; })()"""
    )
    assert grey[0] == 0 and grey[1] > 50, grey
    page.fill("#lengths", "2")
    page.press("#lengths", "Enter")
    settled(page)
    assert page.inner_text("#r-status") == "REACHED" and state(page, "s.stale") is None
    assert page.get_attribute("#lengths", "aria-invalid") is None
    assert page.inner_text("#chain-err") == "" and page.errors == []


REFUSED = [
    ("#links", "abc", "links: expected a whole number from 1 to 64"),
    ("#links", "", "links: expected a whole number"),
    ("#links", "2.5", "links: expected a whole number"),
    ("#links", "1000", "links: expected a whole number from 1 to 64, got “1000”"),
    ("#lengths", "", "lengths: expected a length > 0"),
    ("#lengths", "abc", "lengths: expected a length > 0"),
    ("#lengths", "-5", "lengths: expected a length > 0"),
    ("#lengths", "1,2,3", "lengths: expected one length for every link or one per link (10)"),
    ("#limits", "abc", "limits (°): expected a maximum bend"),
    ("#limits", "90,abc", "limits (°): expected one limit for every link or one per link"),
    ("#limits", "-30:500", "limits (°): expected a range min:max within -180:180"),
    ("#tol", "abc", "tol: expected a distance > 0"),
    ("#tol", "-1", "tol: expected a distance > 0"),
    ("#tol", "1e308", "tol: expected a distance > 0 and below the chain's length (20)"),
    ("#maxiter", "abc", "max iter: expected a whole number from 1 to 1000"),
    ("#maxiter", "0", "max iter: expected a whole number from 1 to 1000"),
]


@pytest.mark.parametrize(
    ("field", "text", "message"), REFUSED, ids=[f"{f}={t!r}" for f, t, _ in REFUSED]
)
def test_a_field_is_checked_as_typed_and_nothing_is_sent_until_it_is_valid(
    page, field, text, message
):
    page.click("#tabs button[data-scene=chain]")
    before = page.input_value(field)
    sent = state(page, "[s.sent.solve, s.sent.reach, s.sent.map || 0]")
    page.fill(field, text)  # typed: checked at once, before it is committed
    assert page.get_attribute(field, "aria-invalid") == "true"
    shown = page.inner_text("#chain-err")
    assert shown.startswith(message), shown
    page.press(field, "Enter")  # committed: still refused, nothing sent
    drag(page, (4.0, 4.0))
    browser_frames(page, 3)
    assert state(page, "[s.sent.solve, s.sent.reach, s.sent.map || 0]") == sent
    body = page.inner_text("body")
    assert body.count(shown) == 1  # said once, in the page's words
    assert "chain.lengths" not in body and "max_bend_deg" not in body
    assert all(t == "–" for t in readouts(page))
    page.fill(field, before)
    page.press(field, "Enter")
    settled(page)
    assert page.get_attribute(field, "aria-invalid") is None and page.inner_text("#chain-err") == ""
    assert page.errors == []


def test_solvers_that_cannot_take_the_chain_are_disabled_with_the_reason(page):
    page.click("#tabs button[data-scene=chain]")
    two = "#method option[value=two-bone]"
    assert page.eval_on_selector(two, "o => o.disabled") is True
    page.fill("#links", "2")
    page.press("#links", "Enter")
    settled(page)
    assert page.eval_on_selector(two, "o => [o.disabled, o.textContent]") == [False, "two-bone"]
    page.select_option("#method", "two-bone")
    page.wait_for_function("geoikState.lastReply.method === 'two-bone'")
    page.fill("#links", "3")  # two-bone chosen, then a third link: the solver is named
    page.press("#links", "Enter")
    assert page.inner_text("#chain-err").startswith("solver: two-bone needs exactly 2 links")
    assert page.get_attribute("#method", "aria-invalid") == "true"
    page.select_option("#method", "fabrik")
    page.fill("#links", "10")
    page.press("#links", "Enter")
    settled(page)
    assert page.inner_text("#chain-err") == "" and page.errors == []


def test_the_2d_canvas_has_a_scale_in_the_unit_of_the_lengths(page):
    page.click("#tabs button[data-scene=chain]")
    bar = state(page, "s.scaleBar")
    assert bar["text"].endswith("(unit of the lengths)")
    scale = state(page, "s.worldToClient([1, 0])[0] - s.worldToClient([0, 0])[0]")
    width = page.eval_on_selector("#c2d", "c => c.getBoundingClientRect().width / c.width")
    assert bar["pixels"] * width == pytest.approx(bar["length"] * scale, rel=1e-9)


def test_a_drag_leaves_no_text_selected(page):
    page.click("#tabs button[data-scene=chain]")
    x0, y0 = client_xy(page, (0.0, 0.0))
    box = page.eval_on_selector("#result-box", "e => e.getBoundingClientRect().toJSON()")
    page.mouse.move(x0, y0)
    page.mouse.down()
    page.mouse.move(box["x"] + 60, box["y"] + 80, steps=10)  # across the side panel
    page.mouse.up()
    settled(page)
    assert page.evaluate("String(getSelection())") == ""


# ---------------------------------------------------------------------------- preparing


def test_the_page_says_preparing_solvers_until_the_server_is_ready(browser):
    """A server whose preparation is held at its first step (as a long compile would hold
    it): the page says "preparing solvers…", a drag is solved meanwhile, a map waits for its
    step and says so; once the preparation moves on, the notice goes and the map comes. Each
    step is an event the test causes, not a time it waits for."""
    import threading

    from geoik.viewer.prepare import Preparation, Step

    gate = threading.Event()
    prep = Preparation(
        [Step("chain", "the test's gate", gate.wait), Step("map", "the maps", lambda: None)]
    )
    try:
        with viewer_server(preparation=prep) as address:
            pg = new_page(
                browser,
                f"http://{address}/",
                "geoikState.lastReply && geoikState.lastReply.type === 'solve'",
            )
            pg.wait_for_selector("#busy:not([hidden])")
            assert pg.inner_text("#busy").startswith("preparing solvers… 0 of 2")
            assert "the test's gate" in pg.get_attribute("#busy", "title")
            drag(pg, (3.0, 7.0))
            settled(pg)
            assert pg.inner_text("#r-status") == "REACHED"
            pg.check("#overlay")
            pg.wait_for_function("geoikState.map.state === 'waiting'")
            assert "prepare the map engines" in pg.inner_text("#map-text")
            pg.wait_for_function("(geoikState.waiting || {}).type === 'map'")  # announced
            assert "computing the map" in pg.inner_text("#busy")
            gate.set()
            pg.wait_for_function("geoikState.map.state === 'shown'", timeout=WARM_TIMEOUT_MS)
            pg.wait_for_selector("#busy", state="hidden")
            assert state(pg, "s.preparation.state") == "ready" and state(pg, "s.waiting") is None
            assert pg.errors == []
            pg.close()
    finally:
        gate.set()


# ---------------------------------------------------------------------------- robots


def tips_settled(pg, timeout=30_000):
    """Wait until the robot's last solve is for every tip's handle as it is now: the 3-D
    handle's last move has been sent (a move is sent on the next animation frame, so the
    reply to the move before it can match the tips until then), and the reply answers it."""
    pg.wait_for_function(
        """(() => { const R = geoikState.robot, r = R.reply;
            const h = geoikState.view3d.robot.handlePose().position;
            const sent = R.tips[R.selected].position;
            return r && h.every((v, k) => v === sent[k]) && R.tips.every(t => {
              const got = r.tips.find(x => x.name === t.name);
              return got && got.target.every((v, k) => Math.abs(v - t.position[k]) < 1e-9);
            }); })()""",
        timeout=timeout,
    )
    return state(pg, "s.robot.reply")


def test_a_hand_has_a_handle_and_a_readout_per_fingertip(browser, page):
    page.click("#tabs button[data-scene=chain]")  # the other page rests meanwhile
    from geoik.robots.urdf import EXAMPLES, example_path
    from geoik.viewer.models import Models, load_robot

    tips = list(EXAMPLES["allegro"][1])
    hand = load_robot(example_path("allegro"), tips, "--robot allegro")
    with viewer_server(models=Models(hand)) as address:
        pg = new_page(browser, f"http://{address}/", "geoikState.robot && geoikState.robot.reply")
        assert [t["name"] for t in state(pg, "s.robot.tips")] == tips  # four handles
        rows = pg.eval_on_selector_all("#r-tips tbody tr th", "hs => hs.map(h => h.textContent)")
        assert rows == tips
        assert pg.is_checked("#r-orient") is False  # fingers: positions
        r = tips_settled(pg)
        assert [t["status"] for t in r["tips"]] == ["REACHED"] * 4
        # press the third fingertip's ball and drag it: its handle moves, the arrows go with it
        before = state(pg, "s.robot.tips")
        where = "geoikState.robot.handleClient(2)"
        x, y = press_handle(pg, "robot", where, "s.robot.selected === 2")
        pg.mouse.move(x + 12, y + 16, steps=6)
        pg.mouse.up()
        assert state(pg, "s.robot.selected") == 2
        r = tips_settled(pg)
        now = state(pg, "s.robot.tips")  # where the drag left the handles (its last step)
        assert now[2]["position"] != before[2]["position"]
        assert [t["position"] for k, t in enumerate(now) if k != 2] == [
            t["position"] for k, t in enumerate(before) if k != 2
        ]
        cells = pg.eval_on_selector_all(
            "#r-tips tbody tr", "rs => rs.map(r => [...r.cells].map(c => c.textContent))"
        )
        for tip, row in zip(r["tips"], cells, strict=True):
            assert row[0] == tip["name"] and row[1] == tip["status"]
            gap = math.dist(tip["frame"]["position"], tip["target"])
            assert tip["error"] == pytest.approx(gap, rel=1e-9, abs=1e-15)
        moved = r["tips"][2]
        assert moved["target"] == pytest.approx(now[2]["position"])
        shot(pg, "viewer-allegro.png")
        assert pg.errors == []
        pg.close()


def handles_in_view(pg):
    """Each tip handle's place in the 3-D view, as fractions of its width and height."""
    return pg.evaluate(
        """(() => { const v = geoikState.view3d.robot, r = v.canvas.getBoundingClientRect();
            return geoikState.robot.tips.map(t => { const [x, y] = v.toClient(t.position);
              return [(x - r.left) / r.width, (y - r.top) / r.height]; }); })()"""
    )


@pytest.mark.parametrize("name", ["panda", "ur5", "ur10", "kinova", "z1", "allegro"])
def test_every_bundled_robot_is_framed_with_its_handles_well_inside_the_view(browser, page, name):
    """At rest, with its meshes loaded, on a desktop window and on a phone: every handle is
    inside the middle of the view (its arrows whole), and the robot is in sight."""
    page.click("#tabs button[data-scene=chain]")
    from geoik.robots.urdf import EXAMPLES, example_path
    from geoik.viewer.models import Models, load_robot

    robot = load_robot(example_path(name), list(EXAMPLES[name][1]), f"--robot {name}")
    with viewer_server(warm=False, models=Models(robot)) as address:
        pg = new_page(browser, f"http://{address}/", "geoikState.robot && geoikState.robot.reply")
        pg.wait_for_function(
            "(m => m.loaded + m.failed.length === m.total)(geoikState.robot.meshes)",
            timeout=60_000,
        )
        for width, height in ((1440, 900), (390, 844)):
            pg.set_viewport_size({"width": width, "height": height})
            # the view has taken its canvas's new size (a resize observer's callback, run when
            # the browser next lays the page out) and framed the robot again for it
            pg.wait_for_function(
                """(v => v.framed && v.camera.aspect === v.canvas.clientWidth
                    / v.canvas.clientHeight)(geoikState.view3d.robot)""",
                timeout=30_000,
            )
            browser_frames(pg, 3)
            for x, y in handles_in_view(pg):
                assert 0.12 <= x <= 0.88 and 0.12 <= y <= 0.88, (name, width, x, y)
            framed = state(pg, "s.view3d.robot.framed")  # the robot's bounds, in the view
            x, y = pg.evaluate(f"geoikState.view3d.robot.toClient({framed['center']})")
            rect = pg.eval_on_selector("#r-3d", "c => c.getBoundingClientRect().toJSON()")
            assert abs(x - (rect["left"] + rect["width"] / 2)) < 1
            assert abs(y - (rect["top"] + rect["height"] / 2)) < 1
            shot(pg, f"viewer-frame-{name}-{width}.png")
        assert pg.errors == []
        pg.close()


def test_a_handle_dragged_past_the_views_edge_keeps_moving(model_page):
    pg = model_page
    pg.click("#tabs button[data-scene=robot]")
    pg.click("#r-rest")
    robot_settled(pg)
    rect = pg.eval_on_selector("#r-3d", "c => c.getBoundingClientRect().toJSON()")
    x0, y0 = press_handle(pg, "robot")
    pg.mouse.move(rect["right"] - 4, y0, steps=8)
    inside = state(pg, "s.view3d.robot.handlePose().position")
    pg.mouse.move(rect["right"] + 120, y0, steps=8)  # beyond the view, over the side panel
    outside = state(pg, "s.view3d.robot.handlePose().position")
    pg.mouse.up()
    assert math.dist(inside, outside) > 1e-3  # it kept following the pointer
    assert handle_xy(pg, "robot")[0] > rect["right"] - 4
    assert pg.evaluate("String(getSelection())") == ""  # and nothing got selected
    robot_settled(pg)  # the handle's last move sent: the tip framed below is where it is
    pg.click("#r-frame")  # framed again: the handle back in sight
    browser_frames(pg, 3)
    x, y = handle_xy(pg, "robot")
    assert rect["left"] < x < rect["right"] and rect["top"] < y < rect["bottom"]
    pg.click("#r-rest")
    robot_settled(pg)


def test_a_refused_pin_range_clears_the_rigs_readouts_until_fixed(model_page):
    pg = model_page
    pg.click("#tabs button[data-scene=rig]")
    pg.wait_for_function("geoikState.rig.reply")
    if not state(pg, "s.rig.pins.length"):
        pg.select_option("#g-joint", "mixamorig:LeftHand")
        pg.click("#g-pin")
    if state(pg, "s.rig.playing"):
        pg.click("#g-play")
    pg.wait_for_function("geoikState.rig.settled()", timeout=30_000)
    assert "held" in pg.inner_text("#g-status")
    field = "#g-pins .pin:nth-child(1) input"
    pg.fill(field, "30-9")
    pg.press(field, "Enter")
    assert pg.get_attribute(field, "aria-invalid") == "true"
    assert "frames: expected frames within 0-68 (first <= last)" in pg.inner_text("#g-err")
    assert pg.inner_text("#g-status") == "–" and pg.inner_text("#g-ms") == "–"
    assert pg.eval_on_selector_all("#g-pins .state", "ss => ss.map(s => s.textContent)") == [
        "–"
    ] * state(pg, "s.rig.pins.length")
    pg.fill(field, "0-")
    pg.press(field, "Enter")
    pg.wait_for_function("geoikState.rig.settled()", timeout=30_000)
    assert "held" in pg.inner_text("#g-status") and pg.inner_text("#g-err") == ""
    assert pg.get_attribute(field, "aria-invalid") is None and pg.errors == []


# ---------------------------------------------------------------------------- the phone


PHONE_TABS = ("chain", "arm", "cyclist", "hand", "robot", "rig")


def test_on_a_phone_the_view_comes_first_and_the_controls_within_reach(model_page):
    """390 x 844, on every tab: no sideways overflow, the tabs on one row, the view first and the
    solver picker and the first readouts within the first 900 pixels of the page. (The tabs are
    visited in turn on one page, the first as the page starts: each tab's layout is read after
    its own click, once its first answer is shown, as a user switching tabs on a phone meets it.)"""
    pg = model_page
    size = pg.viewport_size
    pg.set_viewport_size({"width": 390, "height": 844})
    try:
        for tab in PHONE_TABS:
            phone_layout(pg, tab)
    finally:
        pg.set_viewport_size(size)
    assert pg.errors == []


TAB_SHOWN = {
    "chain": "geoikState.positions",
    "robot": "geoikState.robot.reply",
    "rig": "geoikState.rig.reply",
}
"""Per tab, what holds once its first answer has come (a scene's: its reply); the texts that lay
out its panel (the clip's title and frame, a scene's readouts) come with it, drawn a frame later."""


def phone_layout(pg, tab):
    """The phone checks of one tab, on a page already at 390 x 844."""
    pg.click(f"#tabs button[data-scene={tab}]")
    shown = TAB_SHOWN.get(tab, f"(geoikState.sceneReply || {{}}).scene === '{tab}'")
    pg.wait_for_function(shown, timeout=WARM_TIMEOUT_MS)
    browser_frames(pg, 3)
    pg.evaluate("window.scrollTo(0, 0)")
    d = pg.evaluate("[document.documentElement.scrollWidth, document.documentElement.clientWidth]")
    assert d[0] <= d[1], (tab, d)
    tops = pg.eval_on_selector_all(
        "#tabs button", "bs => bs.map(b => Math.round(b.getBoundingClientRect().top))"
    )
    assert len(set(tops)) == 1, (tab, tops)
    view, picker, readout = {
        "chain": ("#c2d", "#method", "#readout"),
        "robot": ("#r-3d", "#r-method", "#r-tips"),
        "rig": ("#g-3d", "#g-method", "#g-readout"),
    }.get(tab, ("#v-3d", "#scene-method", "#scene-readout"))
    where = {
        sel: pg.eval_on_selector(sel, "e => e.getBoundingClientRect().toJSON()")
        for sel in (view, picker, readout)
    }
    assert where[view]["top"] < where[picker]["top"] and where[view]["height"] >= 300, tab
    assert where[picker]["bottom"] <= 900 and where[readout]["top"] + 60 <= 900, (tab, where)
    shot(pg, f"viewer-phone-{tab}.png")


# ---------------------------------------------------------------------------- other solutions

GHOSTS_DRAWN = "s.view3d.robot.content.children.filter(c => c.name === 'ghost' && c.visible).length"
"""Ghost arms in the robot's 3-D scene, shown."""


def put_handle(pg, frame):
    """Move the robot's handle to the 4x4 pose ``frame`` through the page, as a drag ending
    there would."""
    from geoik.viewer.models import quaternion

    w, x, y, z = quaternion(frame[:3, :3])
    px, py, pz = frame[:3, 3].tolist()
    pg.evaluate(
        f"(v => {{ v.handle.position.set({px}, {py}, {pz}); v.handle.quaternion.set({x}, {y}, "
        f"{z}, {w}); v.handleMoves++; }})(geoikState.view3d.robot)"
    )


def test_the_ur5_shows_its_other_solutions_and_a_click_takes_one(browser, page):
    """For a pose with k solutions the UR5 shows k - 1 ghost arms, each on the pose; a click
    on one puts the arm on its joint values, and the next move continues from there."""
    page.click("#tabs button[data-scene=chain]")  # the other page rests meanwhile
    import geoik as ik
    from geoik.robots.urdf import EXAMPLES, example_path
    from geoik.viewer.models import Models, load_robot

    model = load_robot(example_path("ur5"), list(EXAMPLES["ur5"][1]), "--robot ur5")
    robot = model.robot
    frame = robot.tip_frame(np.array([0.4, -1.1, 1.3, -0.6, 0.9, 0.3]))  # no singularity
    with viewer_server(models=Models(model)) as address:
        pg = new_page(browser, f"http://{address}/", "geoikState.robot && geoikState.robot.reply")
        pg.wait_for_function(
            "(m => m.loaded + m.failed.length === m.total)(geoikState.robot.meshes)",
            timeout=60_000,
        )
        assert pg.is_checked("#r-others") and not pg.is_disabled("#r-others")
        put_handle(pg, frame)
        r = robot_settled(pg)
        assert r["status"] == "REACHED", r
        every = ik.solve_all(robot, r["target"], r["orientation"])
        k = len(every)
        assert k >= 2 and r["others"]["solutions"] == k and r["others"]["own"]
        ghosts = r["others"]["ghosts"]
        assert len(ghosts) == k - 1 == state(pg, "s.robot.ghostsShown") == state(pg, GHOSTS_DRAWN)
        for g in ghosts:  # each ghost on the pose
            f = robot.tip_frame(np.array(g["angles"]))
            assert math.dist(f[:3, 3].tolist(), r["target"]) <= 1e-8
        assert f"{k} solutions of this pose: {k - 1} others shown" in pg.inner_text(
            "#r-others-note"
        )
        browser_frames(pg, 2)
        shot(pg, "viewer-robot-ghosts.png")
        # a click on a ghost: the arm takes its joint values
        picks = [(i, pg.evaluate(f"geoikState.robot.ghostClient({i})")) for i in range(k - 1)]
        i, xy = next((i, xy) for i, xy in picks if xy is not None)
        want = ghosts[i]["angles"]
        pg.mouse.click(*xy)
        assert state(pg, "s.robot.picked") == want
        pg.wait_for_function(
            f"(r => r.angles.every((v, j) => Math.abs(v - {want}[j]) < 1e-9))"
            "(geoikState.robot.reply)",
            timeout=30_000,
        )
        r2 = state(pg, "s.robot.reply")
        assert r2["status"] == "REACHED" and len(r2["others"]["ghosts"]) == k - 1
        tip = state(pg, "s.robot.model.links.indexOf(s.robot.model.tip)")
        drawn = state(
            pg,
            f"s.view3d.robot.content.children.find(g => g.name === "
            f"s.robot.model.links[{tip}]).position.toArray()",
        )
        assert drawn == pytest.approx(r2["poses"][tip][:3], abs=1e-9)
        # the arm's former solution is a ghost now, and a small move stays on the picked one
        former = np.array([g["angles"] for g in r2["others"]["ghosts"]])
        assert np.abs(former - r["angles"]).max(axis=1).min() <= 1e-2
        moved = frame.copy()
        moved[0, 3] += 0.005
        put_handle(pg, moved)
        r3 = robot_settled(pg)
        assert r3["status"] == "REACHED"
        gaps = np.abs(np.array([want, r["angles"]]) - r3["angles"]).max(axis=1)
        assert gaps[0] < gaps[1] and gaps[0] < 0.1
        # the toggle hides them, and shows them again
        pg.uncheck("#r-others")
        assert state(pg, GHOSTS_DRAWN) == 0 and "hidden" in pg.inner_text("#r-others-note")
        pg.check("#r-others")
        pg.wait_for_function(f"geoikState.robot.ghostsShown === {k - 1}", timeout=30_000)
        assert pg.errors == []
        pg.close()
