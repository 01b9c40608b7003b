"""What the page will use, made ready in the background as soon as the server starts.

Compiling the kernels a solver runs takes seconds, and minutes on a loaded two-core machine
whose numba cache is empty (:mod:`geoik.jit`). A :class:`Preparation` compiles them in one
background thread, in :class:`Step` s: the robot or clip the server was started with (the page
shows it first), the 2-D panel's solvers, each scene, the metric maps' engines. Meanwhile:

- every request runs in :func:`geoik.jit.mode` ``"no-compile"``: what a finished step compiled
  runs compiled, the rest as plain Python, which answers a frame in milliseconds to a fraction
  of a second; a request never compiles, so it never waits for numba's compiler lock, which the
  preparation holds while it compiles;
- a request asks for the step it needs to come next (:meth:`Preparation.want`), so the tab the
  user looks at is compiled first;
- a metric map (thousands of solves: too many for plain Python) waits for its step
  (:meth:`Preparation.wait_for`);
- every change of state is sent to each connection, so that the page says "preparing
  solvers…" until the preparation is done.

A step that fails leaves its kernels to be compiled on first use (``"auto"``); the page is told.

On two cores a helper process (:func:`geoik.jit.helper_for`) runs the steps that need no model
(the panel's solvers, the scenes, the maps: ``Step.portable``) from the last, compiling their
kernels into numba's disk cache, while this thread runs the robot's and the clip's and then the
others from the first; a step the helper has run is then run here too, loading its kernels from
the cache in milliseconds. With an empty cache the preparation of the Panda and a clip took
47 s rather than 99 s on two quiet cores. The helper starts once the steps have taken
:data:`HELPER_AFTER` (with a warm cache they are done by then).
"""

from __future__ import annotations

import contextlib
import threading
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from geoik import jit
from geoik.errors import GeoIKError

__all__ = ["Preparation", "Step", "default_steps"]

Listener = Callable[[dict[str, Any]], None]

HELPER_AFTER = 1.0
"""Seconds of preparing after which a helper process takes steps too (see the module): about
what the whole preparation takes when numba's disk cache holds every kernel, where a helper
would only load them a second time."""


@dataclass(frozen=True)
class Step:
    """One part of the preparation: ``name`` (what requests ask for), ``label`` (words for the
    page) and ``run`` (solves that compile what the part needs)."""

    name: str
    label: str
    run: Callable[[], None]
    portable: bool = False
    """Whether another process can run it by its name (:func:`run_step`): a step of
    :func:`default_steps` that needs no model."""


class Preparation:
    """The steps to run, their state, and who to tell when it changes; thread-safe.

    ``state`` is ``"preparing"`` until every step has run, then ``"ready"``. Without steps it is
    ready at once (a server started without warming up)."""

    def __init__(self, steps: Sequence[Step] = ()) -> None:
        self._todo = list(steps)
        self.names = [s.name for s in steps]
        self._done: list[str] = []
        self._failed: list[str] = []
        self._current: Step | None = None
        self._lock = threading.Lock()
        self._listeners: list[Listener] = []
        self._finished = {s.name: threading.Event() for s in steps}
        self.ready = threading.Event()
        self._helper: tuple[jit.Helper | None, dict[str, int]] = (None, {})
        self._helper_started = False
        self.helped: list[str] = []  # the steps the helper ran first
        if not steps:
            self.ready.set()

    def start(self) -> threading.Thread:
        """Run the steps in a daemon thread."""
        thread = threading.Thread(target=self.run, name="geoik-prepare", daemon=True)
        thread.start()
        return thread

    def run(self) -> None:
        """Run every step, the wanted ones first, each compiled (``jit.mode("compiled")``); the
        portable ones shared with a helper process where there are two cores, once the steps
        have taken :data:`HELPER_AFTER` seconds (see the module)."""
        timer = threading.Timer(HELPER_AFTER, self._start_helper)
        timer.daemon = True
        timer.start()
        try:
            while True:
                with self._lock:
                    if not self._todo:
                        break
                    step = self._current = self._todo.pop(0)
                    helper, index = self._helper
                self._changed()
                i = index.get(step.name)
                if helper is not None and i is not None and not helper.claim(i):
                    helper.wait_for(i)  # run there: here it loads what the helper compiled
                    self.helped.append(step.name)
                ok = True
                try:
                    with jit.mode("compiled"):
                        step.run()
                except Exception:  # a step that fails leaves its kernels to compile on first use
                    ok = False
                with self._lock:
                    (self._done if ok else self._failed).append(step.name)
                    self._current = None
                self._finished[step.name].set()
        finally:
            timer.cancel()
            with self._lock:
                helper, _ = self._helper
                self._helper = (None, {})
                self._helper_started = True  # none from now on
            if helper is not None:
                helper.close()
        self.ready.set()
        self._changed()

    def _start_helper(self) -> None:
        """Start the helper on the portable steps not yet started here (see the module)."""
        with self._lock:
            if self._helper_started:
                return
            self._helper_started = True
            names = [s.name for s in self._todo if s.portable]
            helper = jit.helper_for([(run_step, (name,)) for name in names])
            if helper is not None:
                self._helper = (helper, {name: i for i, name in enumerate(names)})

    def want(self, name: str) -> None:
        """Run step ``name`` next, if it has not started."""
        with self._lock:
            for k, step in enumerate(self._todo):
                if step.name == name:
                    if k:
                        self._todo.insert(0, self._todo.pop(k))
                    return

    def is_done(self, name: str) -> bool:
        """Whether step ``name`` has run (or there is no such step)."""
        event = self._finished.get(name)
        return event is None or event.is_set()

    def wait_for(self, name: str, timeout: float | None = None) -> bool:
        """Wait until step ``name`` has run (asking for it first); False on timeout."""
        if self.is_done(name):
            return True
        self.want(name)
        return self._finished[name].wait(timeout)

    def mode(self) -> str:
        """The :func:`geoik.jit.mode` requests run in: ``"no-compile"`` while preparing."""
        return "auto" if self.ready.is_set() else "no-compile"

    def status(self) -> dict[str, Any]:
        """The state as the page shows it: ``state``, steps ``done`` of ``total``, the step
        running (its words) and the steps that failed."""
        with self._lock:
            current = self._current
            return {
                "state": "ready" if self.ready.is_set() else "preparing",
                "done": len(self._done) + len(self._failed),
                "total": len(self.names),
                "step": None if current is None else current.label,
                "failed": list(self._failed),
            }

    def subscribe(self, listener: Listener) -> Callable[[], None]:
        """Call ``listener(status)`` (from the preparing thread) on every change; returns the
        function that stops it."""
        with self._lock:
            self._listeners.append(listener)

        def stop() -> None:
            with self._lock, contextlib.suppress(ValueError):
                self._listeners.remove(listener)

        return stop

    def _changed(self) -> None:
        status = self.status()
        with self._lock:
            listeners = list(self._listeners)
        for listener in listeners:
            with contextlib.suppress(Exception):  # a closed connection must not stop the rest
                listener(status)


def default_steps(models: Any) -> list[Step]:
    """What the page uses, in the order it is likely to need it: the robot or the clip the
    server was started with (shown first), the 2-D panel's solvers, the scenes, the maps."""
    from geoik.viewer.scenes import SCENES

    steps = []
    if models.robot is not None:
        steps.append(Step("robot", "the robot's solvers", lambda: _robot(models.robot)))
    if models.rig is not None:
        steps.append(Step("rig", "the clip's solvers", lambda: _rig(models.rig)))
    steps.append(Step("chain", "the 2-D panel's solvers", _chain, portable=True))
    for scene in SCENES:
        words = f"the {_SCENE_WORDS[scene]} scene"
        steps.append(Step(scene, words, _scene_step(scene), portable=True))
    steps.append(Step("map", "the metric maps", _maps, portable=True))
    return steps


def run_step(name: str) -> None:
    """Run the portable step ``name`` of :func:`default_steps` (what a helper process runs)."""
    from geoik.viewer.models import Models

    (step,) = [s for s in default_steps(Models()) if s.name == name and s.portable]
    step.run()


_SCENE_WORDS = {"arm": "robot arm", "cyclist": "cyclist", "hand": "hand"}
_SCENE_INPUT: dict[str, dict[str, Any]] = {
    "arm": {"target": [1.0, 1.0]},
    "cyclist": {"t": 0.1},
    "hand": {"ball": [1.05, 0.0, -0.65]},
}


def _planar_methods() -> list[tuple[str, int]]:
    """Each solver of planar chains, the panel's default first, with a link count it takes."""
    from geoik.viewer.handlers import REGISTRY

    out = []
    for name, solver in REGISTRY.items():
        if 2 not in solver.dims:
            continue
        lo, hi = solver.links
        out.append((name, 3 if hi is None else min(max(lo, 3), hi)))
    out.sort(key=lambda item: item[0] != "fabrik")
    return out


def _chain() -> None:
    from geoik.viewer import handlers

    for name, n in _planar_methods():
        chain = {"lengths": [1.0] * n, "max_bend_deg": 120.0}
        with contextlib.suppress(GeoIKError):
            handlers.reach_reply({"chain": chain})
            first = handlers.solve_reply({"chain": chain, "target": [1.5, 1.0], "method": name})
            handlers.solve_reply(
                {
                    "chain": chain,
                    "target": [1.0, 1.5],
                    "method": name,
                    "start": first["angles"],
                    "motion": False,
                }
            )


def _scene_step(scene: str) -> Callable[[], None]:
    def run() -> None:
        from geoik.viewer.scenes import SceneState, scene_reply

        msg: dict[str, Any] = dict(_SCENE_INPUT[scene])
        state = SceneState()
        for method in ("fabrik", "circles"):
            for t in (0.1, 0.2):  # a second frame starts from the first
                with contextlib.suppress(GeoIKError):
                    scene_reply(dict(msg, scene=scene, method=method, t=t), state)

    return run


def _maps() -> None:
    from geoik.viewer.overlay import MapCache

    cache = MapCache()
    for name, n in _planar_methods():
        with contextlib.suppress(GeoIKError):
            cache.reply({"chain": {"lengths": [1.0] * n}, "method": name, "size": 8})


def _robot(model: Any) -> None:
    from geoik.viewer import modes

    described = model.describe()
    frames = dict(zip(described["tips"], described["tip_frames"], strict=True))
    targets = {name: f["position"] for name, f in frames.items()}
    for method in modes.general_methods():
        for oriented in (False, True):
            msg: dict[str, Any] = {"targets": targets, "method": method, "reset": True}
            if oriented:
                msg["orientations"] = {name: f["quaternion"] for name, f in frames.items()}
                msg["others"] = True  # the other solutions of a pose (geoik.solve_all)
            with contextlib.suppress(GeoIKError):
                modes.robot_solve_reply(msg, model, {})


def _rig(rig: Any) -> None:
    from geoik.viewer import modes

    joint = rig.effectors[0] if rig.effectors else rig.skeleton.names[-1]
    where = rig.frames.positions[0, rig.skeleton.index(joint)].tolist()
    for method in modes.tree_methods():
        msg = {"frame": 0, "pins": [{"joint": joint, "target": where}], "method": method}
        with contextlib.suppress(GeoIKError):
            modes.pose_reply(msg, rig)
