"""The viewer's ASGI app: the static page and one WebSocket at ``/ws``.

Built on Starlette (the ``viewer`` extra). Messages on one connection are served in order, in a
worker thread so that the event loop stays free for other connections. Metric maps are the
exception: they run beside the rest, one per connection at a time (a newer map request stops
the older one, which gets an error reply), sending ``progress`` messages with the request's id,
so that scene frames keep flowing meanwhile. Any error a message causes becomes an ``error``
reply naming the field; the connection and the server stay up. A socket opened by a page of
another site (its ``Origin`` is not this server) is refused, and a map stops within about a
second once its connection closes. Every asset is a file of :mod:`geoik.viewer`'s ``static``
folder: nothing is fetched from elsewhere.

From the start the server prepares what the page will use (:mod:`geoik.viewer.prepare`):
requests are answered meanwhile without waiting for the compiler, a map waits for its engines,
and every connection gets a ``status`` message (id null) each time the preparation moves on.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import threading
import time
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

from starlette.applications import Starlette
from starlette.concurrency import run_in_threadpool
from starlette.responses import FileResponse, PlainTextResponse, Response
from starlette.routing import Mount, Route, WebSocketRoute
from starlette.staticfiles import StaticFiles
from starlette.websockets import WebSocket, WebSocketDisconnect

from geoik import jit
from geoik.errors import GeoIKError
from geoik.viewer import handlers, modes
from geoik.viewer.models import MESH_TYPES, Models
from geoik.viewer.overlay import MapCache, MapCancelledError
from geoik.viewer.prepare import Preparation, default_steps
from geoik.viewer.protocol import ProtocolError, error_reply, parse_message, safe_id
from geoik.viewer.scenes import SceneState, scene_reply

__all__ = ["STATIC", "create_app"]

STATIC = Path(__file__).with_name("static")
_HEADERS = {"Cache-Control": "no-store", "X-Content-Type-Options": "nosniff"}
_PROGRESS_EVERY = 0.1
"""Seconds between two progress messages of one map."""
_CANCEL_POLL = 0.2
"""Seconds between two looks at whether a map waiting for its engines was cancelled."""


def create_app(
    warm: bool = True, models: Models | None = None, preparation: Preparation | None = None
) -> Starlette:
    """The viewer app. ``warm`` prepares (compiles, or loads from numba's cache) what the page
    will use in a background thread from the start (:mod:`geoik.viewer.prepare`), requests
    being answered meanwhile without waiting for it. ``models``: the robot and the clip the page
    may show (``geoik view --robot``, ``--urdf``, ``--bvh``). ``preparation``: other steps than
    :func:`~geoik.viewer.prepare.default_steps` (tests)."""
    cache = MapCache()
    loaded = models if models is not None else Models()
    if preparation is None:
        preparation = Preparation(default_steps(loaded) if warm else ())
    prep = preparation

    async def index(_request: Any) -> FileResponse:
        return FileResponse(STATIC / "index.html", media_type="text/html", headers=_HEADERS)

    async def mesh(request: Any) -> Response:
        """A mesh file the loaded robot's visuals name, by its index; nothing else."""
        files = loaded.robot.meshes if loaded.robot is not None else []
        index = request.path_params["index"]
        if not 0 <= index < len(files):
            return PlainTextResponse("no such mesh", status_code=404, headers=_HEADERS)
        path = files[index]
        kind = MESH_TYPES[path.suffix.lower()]
        return FileResponse(path, media_type=kind, headers=_HEADERS)

    async def socket(ws: WebSocket) -> None:
        await Session(ws, cache, loaded, prep).run()

    @contextlib.asynccontextmanager
    async def lifespan(_app: Starlette) -> AsyncIterator[None]:
        if not prep.ready.is_set():
            prep.start()
        yield

    return Starlette(
        routes=[
            Route("/", index),
            Route("/model/mesh/{index:int}", mesh),
            WebSocketRoute("/ws", socket),
            Mount("/static", StaticFiles(directory=STATIC), name="static"),
        ],
        lifespan=lifespan,
    )


def warm_up(models: Models | None = None) -> None:
    """Compile (or load from numba's cache) every kernel the page may run: the steps of
    :func:`~geoik.viewer.prepare.default_steps`, here and now."""
    Preparation(default_steps(models or Models())).run()


_STEP_OF = {"solve": "chain", "reach": "chain", "robot_solve": "robot", "pose": "rig"}
"""The preparation step whose kernels a message runs (a scene's: its name)."""


class Session:
    """One WebSocket connection: its scene state, its map in progress, the order of replies."""

    def __init__(
        self,
        ws: WebSocket,
        cache: MapCache,
        models: Models | None = None,
        preparation: Preparation | None = None,
    ) -> None:
        self.ws = ws
        self.cache = cache
        self.models = models if models is not None else Models()
        self.prep = preparation if preparation is not None else Preparation()
        self.scenes = SceneState()
        self.lock = asyncio.Lock()
        self.map_task: asyncio.Task[None] | None = None
        self.map_cancel = threading.Event()

    async def run(self) -> None:
        if not same_origin(self.ws.headers.get("origin"), self.ws.headers.get("host")):
            await self.ws.close(code=1008)  # before accepting: the browser sees a refusal
            return
        await self.ws.accept()
        loop = asyncio.get_running_loop()

        def tell(status: dict[str, Any]) -> None:  # in the preparing thread
            note = {"type": "status", "id": None, "preparation": status}
            asyncio.run_coroutine_threadsafe(self.send(note), loop)

        stop_telling = self.prep.subscribe(tell)
        try:
            while True:
                event = await self.ws.receive()
                if event["type"] == "websocket.disconnect":
                    break
                await self.handle(event.get("text"))
        except WebSocketDisconnect:
            pass
        finally:
            stop_telling()
            self.map_cancel.set()

    async def handle(self, text: str | None) -> None:
        """Serve one frame; a binary frame (``text`` None) gets an error reply."""
        try:
            msg = parse_message(text)
        except ProtocolError as e:
            await self.send(error_reply(e.msg_id, e.request, e))
            return
        if msg["type"] == "map":
            await self.start_map(msg)
            return
        await self.send(await run_in_threadpool(self.serve, msg))

    def serve(self, msg: dict[str, Any]) -> dict[str, Any]:
        """The reply to one checked message (``msg['type']`` says which): a scene, a robot or rig
        pose, a solve or a map; an error reply naming the field when it cannot be served. Its
        kernels run without waiting for the preparation (:mod:`geoik.viewer.prepare`)."""
        kind = msg["type"]
        step = msg.get("scene") if kind == "scene" else _STEP_OF.get(kind)
        if isinstance(step, str):
            self.prep.want(step)
        with jit.mode(self.prep.mode()):
            return self._serve(msg, kind)

    def _serve(self, msg: dict[str, Any], kind: str) -> dict[str, Any]:
        try:
            if kind == "scene":
                body = scene_reply(msg, self.scenes)
            elif kind == "robot":
                body = modes.robot_reply(msg, self.models.robot)
            elif kind == "robot_solve":
                body = modes.robot_solve_reply(msg, self.models.robot, self.scenes.previous)
            elif kind == "clip":
                body = modes.clip_reply(msg, self.models.rig)
            elif kind == "pose":
                body = modes.pose_reply(msg, self.models.rig)
            elif kind == "save":
                body = modes.save_reply(msg, self.models.rig)
            elif kind == "methods":
                body = dict(
                    handlers.methods_reply(msg),
                    models=self.models.summary(),
                    preparation=self.prep.status(),
                )
            else:
                body = {"solve": handlers.solve_reply, "reach": handlers.reach_reply}[kind](msg)
        except GeoIKError as e:
            return error_reply(safe_id(msg), kind, e)
        except (TypeError, ValueError, OverflowError, MemoryError) as e:
            return error_reply(safe_id(msg), kind, ProtocolError("message", f"cannot serve: {e}"))
        return dict(body, type=kind, id=msg.get("id"))

    async def start_map(self, msg: dict[str, Any]) -> None:
        """Stop the map in progress (it replies with an error) and start this one."""
        self.map_cancel.set()
        if self.map_task is not None:
            await asyncio.wait([self.map_task])
        self.map_cancel = threading.Event()
        self.map_task = asyncio.create_task(self.serve_map(msg, self.map_cancel))

    async def serve_map(self, msg: dict[str, Any], cancel: threading.Event) -> None:
        loop = asyncio.get_running_loop()
        last = [0.0]

        def progress(done: int, total: int) -> None:  # in the worker thread
            now = time.monotonic()
            if now - last[0] >= _PROGRESS_EVERY and done < total:
                last[0] = now
                note = {"type": "progress", "id": safe_id(msg), "done": done, "total": total}
                asyncio.run_coroutine_threadsafe(self.send(note), loop)

        try:
            if not self.prep.is_done("map"):
                # asked for before the page is told it waits, so that the note means the maps'
                # step runs next
                self.prep.want("map")
                note = {"type": "progress", "id": safe_id(msg), "done": 0, "total": 1}
                await self.send(dict(note, preparing=self.prep.status()))
                await run_in_threadpool(self._wait_for_maps, cancel)
            body = await run_in_threadpool(self.cache.reply, msg, progress, cancel)
            reply = dict(body, type="map", id=msg.get("id"))
        except MapCancelledError:
            reply = error_reply(
                safe_id(msg), "map", ProtocolError("map", "superseded by a newer map request")
            )
        except GeoIKError as e:
            reply = error_reply(safe_id(msg), "map", e)
        except (TypeError, ValueError, OverflowError, MemoryError) as e:
            reply = error_reply(safe_id(msg), "map", ProtocolError("map", f"cannot serve: {e}"))
        with contextlib.suppress(RuntimeError, WebSocketDisconnect):
            await self.send(reply)

    def _wait_for_maps(self, cancel: threading.Event) -> None:
        """Wait (in a worker thread) until the maps' engines are compiled: a map is thousands
        of solves, too many to run as plain Python meanwhile."""
        while not self.prep.wait_for("map", _CANCEL_POLL):
            if cancel.is_set():
                raise MapCancelledError

    async def send(self, reply: dict[str, Any]) -> None:
        try:
            text = json.dumps(reply, allow_nan=False, default=_plain)
        except (TypeError, ValueError) as e:
            bad = ProtocolError("reply", f"cannot be sent as JSON ({e})")
            text = json.dumps(error_reply(reply.get("id"), reply.get("type"), bad))
        async with self.lock:
            await self.ws.send_text(text)


def same_origin(origin: str | None, host: str | None) -> bool:
    """Whether a WebSocket's ``Origin`` header names the page's own server (``Host``).

    Browsers send the origin of the page that opens a socket; a page from any other site must
    not drive this server (it runs solves and maps on the user's machine). A client that sends
    no origin (not a browser) is let in.
    """
    if origin is None:
        return True
    return host is not None and urlsplit(origin).netloc.lower() == host.lower()


def _plain(value: Any) -> Any:
    """JSON for numpy scalars and arrays that slipped into a reply."""
    if hasattr(value, "tolist"):
        return value.tolist()
    raise TypeError(f"not JSON serialisable: {type(value).__name__}")
