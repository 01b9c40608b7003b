"""Frames per second of the viewer's 3-D views, solved by the server and drawn by the browser.

Run ``python benchmarks/bench_viewer.py`` (``--seconds`` per measure, ``--robot``, ``--chromium``).
It serves the viewer as ``geoik view --robot panda --bvh walk.bvh`` would (the BVH clip of the
tests), waits until the server has prepared its solvers (compiled), and drives headless Chromium
with the test suite's flags: WebGL on the CPU (SwiftShader), as on a machine without a GPU. On a
desktop window (1440 x 900) and a phone's (390 x 844, touch), for each scene of seed 003 with its
animation on, the robot with its target animated and the rig playing its clip, it counts over
``--seconds``:

- solved: the frames the server solved and the page received;
- drawn: the frames the 3-D view drew (it draws only when something changed);
- browser: the animation frames the browser ran (``requestAnimationFrame``): the most the page
  could draw. Measured in the same window, it is the reference each rate is divided by;

then, with everything still (animation off, nothing dragged), the frames drawn and the requests
sent (both should be 0). It prints the machine's load and the browser's WebGL renderer, since
both bound the rates: on two cores shared with other work, SwiftShader's drawing competes with
the server's solving for the same CPU.
"""

from __future__ import annotations

import argparse
import contextlib
import os
import shutil
import tempfile
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
CLIP = ROOT / "tests" / "data" / "bvh" / "freebvh_walk.bvh"
ARGS = [
    "--headless",
    "--no-sandbox",
    "--use-angle=swiftshader",
    "--enable-unsafe-swiftshader",
    "--ignore-gpu-blocklist",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
SIZES = {"desktop 1440x900": (1440, 900, False), "phone 390x844": (390, 844, True)}

COUNTERS = {
    "scene": "[s.sceneFrames, s.view3d.scene.frames, s.rafTicks, s.sent.scene || 0]",
    "robot": "[s.robot.frames, s.view3d.robot.frames, s.rafTicks, s.sent.robot_solve || 0]",
    "rig": "[s.rig.frames, s.view3d.rig.frames, s.rafTicks, s.sent.pose || 0]",
}


@contextlib.contextmanager
def serve(models: Any) -> Iterator[str]:
    """The viewer on a free loopback port, in a thread, as ``geoik view`` serves it."""
    import uvicorn

    from geoik.commands.view import WS_MAX_SIZE, listen
    from geoik.viewer.server import create_app

    sock = listen("127.0.0.1", 0)
    config = uvicorn.Config(
        create_app(models=models),
        log_level="warning",
        ws_max_size=WS_MAX_SIZE,
    )
    server = uvicorn.Server(config)
    thread = threading.Thread(target=server.run, kwargs={"sockets": [sock]}, daemon=True)
    thread.start()
    while not server.started:
        thread.join(0.05)
    try:
        yield f"127.0.0.1:{sock.getsockname()[1]}"
    finally:
        server.should_exit = True
        thread.join(10)


def measure(page: Any, which: str, seconds: float) -> list[float]:
    """Solved, drawn and browser frames per second, and requests sent per second."""
    expr = f"(() => {{ const s = window.geoikState; return {COUNTERS[which]}; }})()"
    before = page.evaluate(expr)
    t0 = time.perf_counter()
    time.sleep(seconds)
    after = page.evaluate(expr)
    span = time.perf_counter() - t0
    return [(b - a) / span for a, b in zip(before, after, strict=True)]


def run_tab(pg: Any, tab: str, seconds: float) -> tuple[list[float], list[float]]:
    """The rates while ``tab`` moves, then while it is still."""
    pg.click(f"#tabs button[data-scene={tab}]")
    which = "robot" if tab == "robot" else "rig" if tab == "rig" else "scene"
    toggle = {"robot": "#r-auto", "rig": None}.get(tab, "#auto")
    if toggle:
        pg.check(toggle)
    elif not pg.evaluate("geoikState.rig.playing"):
        pg.click("#g-play")
    time.sleep(1.0)  # the tab's first frames (meshes built, shaders compiled)
    moving = measure(pg, which, seconds)
    if toggle:
        pg.uncheck(toggle)
    else:
        pg.click("#g-play")
    time.sleep(0.5)  # the last replies drawn
    still = measure(pg, which, seconds)
    return moving, still


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--seconds", type=float, default=5.0, help="length of each measure")
    ap.add_argument("--robot", default="panda", help="an example robot (default panda)")
    ap.add_argument("--chromium", default=os.environ.get("GEOIK_CHROMIUM", "/usr/bin/chromium"))
    args = ap.parse_args()

    from playwright import sync_api

    from geoik.robots.urdf import EXAMPLES, example_path
    from geoik.viewer.models import Models, load_rig, load_robot

    folder = tempfile.mkdtemp()
    clip = shutil.copy(CLIP, folder)
    robot = load_robot(example_path(args.robot), list(EXAMPLES[args.robot][1]))
    models = Models(robot, load_rig(clip))
    load0 = os.getloadavg()[0]
    rows = []
    with serve(models) as address, sync_api.sync_playwright() as p:
        browser = p.chromium.launch(executable_path=args.chromium, args=ARGS)
        print(f"Chromium {browser.version}, {os.cpu_count()} cores, {args.seconds:g} s a measure")
        for size, (width, height, phone) in SIZES.items():
            page = browser.new_page(
                viewport={"width": width, "height": height}, is_mobile=phone, has_touch=phone
            )
            page.goto(f"http://{address}/")
            page.wait_for_function(
                "geoikState.preparation && geoikState.preparation.state === 'ready'",
                timeout=600_000,
            )
            renderer = page.evaluate(
                """(() => { const gl = document.createElement('canvas').getContext('webgl2');
                    const i = gl.getExtension('WEBGL_debug_renderer_info');
                    return gl.getParameter(i ? i.UNMASKED_RENDERER_WEBGL : gl.RENDERER); })()"""
            )
            for tab in ("arm", "cyclist", "hand", "robot", "rig"):
                moving, still = run_tab(page, tab, args.seconds)
                rows.append((size, tab, moving, still))
                solved, drawn, raf, _ = moving
                print(
                    f"{size:17} {tab:8} solved {solved:5.1f}/s  drawn {drawn:5.1f}/s  "
                    f"browser {raf:5.1f}/s  (drawn/browser {drawn / raf if raf else 0:.2f}); "
                    f"still: drawn {still[1]:.1f}/s, sent {still[3]:.1f}/s",
                    flush=True,
                )
            page.close()
        browser.close()
    print(f"WebGL renderer: {renderer}")
    load1 = os.getloadavg()[0]
    print(f"machine load (1-minute average): {load0:.2f} at the start, {load1:.2f} at the end")
    for size in SIZES:
        scenes = [r[2][1] for r in rows if r[0] == size and r[1] in ("arm", "cyclist", "hand")]
        print(f"{size}: scenes drawn {min(scenes):.0f}-{max(scenes):.0f} frames/s")


if __name__ == "__main__":
    main()
