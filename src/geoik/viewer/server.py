"""The viewer's ASGI app: the static page and one WebSocket at ``/ws``.

Built on Starlette (the ``viewer`` extra). Messages on one connection are served in order,
except metric maps, which run in a worker thread and reply when done so that scene frames keep
flowing meanwhile. Any error a message causes becomes an ``error`` reply naming the field; the
connection and the server stay up. Every asset is a file of :mod:`geoik.viewer`'s ``static``
folder: nothing is fetched from elsewhere.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import threading
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

from starlette.applications import Starlette
from starlette.concurrency import run_in_threadpool
from starlette.responses import FileResponse
from starlette.routing import Mount, Route, WebSocketRoute
from starlette.staticfiles import StaticFiles
from starlette.websockets import WebSocket, WebSocketDisconnect

from geoik.errors import GeoIKError
from geoik.viewer import handlers
from geoik.viewer.protocol import ProtocolError, error_reply, parse_message, safe_id
from geoik.viewer.scenes import SceneState, scene_reply

__all__ = ["STATIC", "create_app"]

STATIC = Path(__file__).with_name("static")
_HEADERS = {"Cache-Control": "no-store", "X-Content-Type-Options": "nosniff"}


def create_app(warm: bool = True) -> Starlette:
    """The viewer app. ``warm`` compiles (or loads from numba's cache) every solver's kernel in
    a background thread at startup, so the first drag does not wait for it."""
    cache = handlers.MapCache()

    async def index(_request: Any) -> FileResponse:
        return FileResponse(STATIC / "index.html", media_type="text/html", headers=_HEADERS)

    async def socket(ws: WebSocket) -> None:
        await Session(ws, cache).run()

    @contextlib.asynccontextmanager
    async def lifespan(_app: Starlette) -> AsyncIterator[None]:
        if warm:
            threading.Thread(target=warm_up, name="geoik-warm-up", daemon=True).start()
        yield

    return Starlette(
        routes=[
            Route("/", index),
            WebSocketRoute("/ws", socket),
            Mount("/static", StaticFiles(directory=STATIC), name="static"),
        ],
        lifespan=lifespan,
    )


def warm_up() -> None:
    """Run every registered solver once on a small planar chain (and the scenes once)."""
    from geoik.viewer.handlers import solve_reply

    chain = {"lengths": [1.0, 1.0, 1.0]}
    for name in handlers.REGISTRY:
        with contextlib.suppress(Exception):
            solve_reply({"chain": chain, "target": [1.5, 1.0], "method": name})
    state = SceneState()
    for msg in ({"scene": "arm", "target": [1.0, 1.0]}, {"scene": "cyclist", "t": 0.1},
                {"scene": "hand", "ball": [1.4, 0.0, -0.4]}):  # fmt: skip
        with contextlib.suppress(Exception):
            scene_reply(msg, state)


class Session:
    """One WebSocket connection: its scene state and the order of its replies."""

    def __init__(self, ws: WebSocket, cache: handlers.MapCache) -> None:
        self.ws = ws
        self.cache = cache
        self.scenes = SceneState()
        self.lock = asyncio.Lock()
        self.tasks: set[asyncio.Task[None]] = set()

    async def run(self) -> None:
        await self.ws.accept()
        try:
            while True:
                event = await self.ws.receive()
                if event["type"] == "websocket.disconnect":
                    break
                await self.handle(event.get("text"))
        except WebSocketDisconnect:
            pass
        finally:
            for task in self.tasks:
                task.cancel()

    async def handle(self, text: str | None) -> None:
        """Serve one frame; a binary frame (``text`` None) gets an error reply."""
        try:
            msg = parse_message(text)
        except ProtocolError as e:
            await self.send(error_reply(e.msg_id, e.request, e))
            return
        if msg["type"] == "map":
            task = asyncio.create_task(self.serve_map(msg))
            self.tasks.add(task)
            task.add_done_callback(self.tasks.discard)
            return
        await self.send(self.serve(msg))

    def serve(self, msg: dict[str, Any]) -> dict[str, Any]:
        kind = msg["type"]
        try:
            if kind == "scene":
                body = scene_reply(msg, self.scenes)
            else:
                body = {"solve": handlers.solve_reply, "methods": handlers.methods_reply,
                        "reach": handlers.reach_reply}[kind](msg)  # fmt: skip
        except GeoIKError as e:
            return error_reply(safe_id(msg), kind, e)
        except (TypeError, ValueError, OverflowError, MemoryError) as e:
            return error_reply(safe_id(msg), kind, ProtocolError("message", f"cannot serve: {e}"))
        return dict(body, type=kind, id=msg.get("id"))

    async def serve_map(self, msg: dict[str, Any]) -> None:
        try:
            body = await run_in_threadpool(self.cache.reply, msg)
            reply = dict(body, type="map", id=msg.get("id"))
        except GeoIKError as e:
            reply = error_reply(safe_id(msg), "map", e)
        except (TypeError, ValueError, OverflowError, MemoryError) as e:
            reply = error_reply(safe_id(msg), "map", ProtocolError("map", f"cannot serve: {e}"))
        with contextlib.suppress(RuntimeError, WebSocketDisconnect):
            await self.send(reply)

    async def send(self, reply: dict[str, Any]) -> None:
        try:
            text = json.dumps(reply, allow_nan=False, default=_plain)
        except (TypeError, ValueError) as e:
            bad = ProtocolError("reply", f"cannot be sent as JSON ({e})")
            text = json.dumps(error_reply(reply.get("id"), reply.get("type"), bad))
        async with self.lock:
            await self.ws.send_text(text)


def _plain(value: Any) -> Any:
    """JSON for numpy scalars and arrays that slipped into a reply."""
    if hasattr(value, "tolist"):
        return value.tolist()
    raise TypeError(f"not JSON serialisable: {type(value).__name__}")
