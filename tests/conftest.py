"""Shared fixtures: each test's kernels compiled whatever the cache holds, hypothesis strategies
for random chains and targets, the invariant check that every solver's every result must pass, a
spy on the work hints of a module's compiled calls, and a live viewer server."""

from __future__ import annotations

import compileall
import contextlib
import math
import os
import threading
from collections.abc import Iterator
from pathlib import Path

import numpy as np
import pytest
from hypothesis import HealthCheck, settings
from hypothesis import strategies as st

import geoik as ik
from geoik import geometry as g
from geoik import jit
from geoik.reach import closest_reachable_point


def pytest_configure(config) -> None:
    """Once per run, in the process that starts the workers: the package byte-compiled (only the
    modules changed since), as installing it in editable mode does not, and a machine that sets
    PYTHONDONTWRITEBYTECODE never writes it: each of the hundred-odd processes a run starts (its
    workers, the commands and examples run as a user runs them) would otherwise compile every
    module's source again, 0.14 s of the 0.6 s an import of ``geoik.api`` takes. numba's cache
    lives in the same ``__pycache__`` folders."""
    if not hasattr(config, "workerinput"):
        compileall.compile_dir(Path(ik.__file__).parent, quiet=2)


def pytest_xdist_auto_num_workers(config) -> int:
    """``-n auto`` (the default, pyproject.toml): one worker per core this process may use, at
    most four; with numba's cache cold, each worker compiles the kernels its tests need."""
    cores = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count()
    return max(1, min(cores or 1, 4))


@pytest.fixture(autouse=True)
def kernels_compiled(request) -> Iterator[None]:
    """A test's own calls (in its thread) run the compiled kernels, compiled there and then when
    numba's cache lacks them, as they run once it holds them: what a test runs, and its outcome,
    do not depend on the cache's state. The automatic choice (plain Python while a helper
    process compiles, :mod:`geoik.jit`) would run each kernel's first calls with an empty cache
    as Python beside the helper's compiling, both on the same two cores: with numba's cache empty
    the whole suite took 220-228 s that way, 213-222 s this way (alternate runs, two cores).
    What that choice does is tested where a test or its module is marked ``jit_auto`` (then
    nothing is forced); commands run in their own processes, and servers' threads, choose as
    usual."""
    if request.node.get_closest_marker("jit_auto") is not None:
        yield
        return
    with jit.mode("compiled"):
        yield


settings.register_profile(
    "default",
    max_examples=int(os.environ.get("GEOIK_EXAMPLES", "60")),
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
    derandomize=True,
)
settings.load_profile("default")

LENGTH = st.floats(0.1, 10.0, allow_nan=False)


@st.composite
def limit_2d(draw):
    kind = draw(st.sampled_from(["free", "bend", "pair"]))
    if kind == "free":
        return None
    if kind == "bend":
        return draw(st.floats(5.0, 180.0))
    a = draw(st.floats(-170.0, 170.0))
    b = draw(st.floats(-170.0, 170.0))
    lo, hi = min(a, b), max(a, b)
    if hi - lo < 5.0:
        hi = lo + 5.0
    return (lo, hi)


@st.composite
def chains(draw, dims=(2, 3), n_min=1, n_max=15, limited=None):
    """Random chains: 1-15 links of length 0.1-10, 2-D or 3-D, with or without limits."""
    dim = draw(st.sampled_from(dims))
    n = draw(st.integers(n_min, n_max))
    lengths = draw(st.lists(LENGTH, min_size=n, max_size=n))
    use_limits = draw(st.booleans()) if limited is None else limited
    if dim == 2:
        bends = [draw(limit_2d()) for _ in range(n)] if use_limits else None
        return ik.Chain.planar(lengths, max_bend_deg=bends)
    if not use_limits:
        return ik.Chain.spatial(lengths)
    hinges = []
    bends = []
    for _ in range(n):
        if draw(st.booleans()):
            ang = draw(st.floats(0.0, 2 * math.pi))
            hinges.append((0.0, math.cos(ang), math.sin(ang)))
            bends.append(draw(limit_2d()))
        else:
            hinges.append(None)
            kind = draw(st.sampled_from(["free", "cone"]))
            bends.append(None if kind == "free" else draw(st.floats(5.0, 180.0)))
    return ik.Chain.spatial(lengths, max_bend_deg=bends, hinge_axes=hinges)


@st.composite
def targets_for(draw, chain, scale=1.3):
    """Random target in the box of half-side ``scale`` times the chain's length about the base."""
    r = scale * chain.total_length
    coords = [draw(st.floats(-r, r, allow_nan=False)) for _ in range(chain.dim)]
    return chain.base + np.array(coords)


def joint_violation(chain: ik.Chain, angles: np.ndarray) -> float:
    """How far (radians) the angles break the chain's limits; 0 when they respect them."""
    if chain.dim == 2:
        lo_break = np.maximum(chain.lo - angles, 0.0)
        hi_break = np.maximum(angles - chain.hi, 0.0)
        return float(max(lo_break.max(initial=0.0), hi_break.max(initial=0.0)))
    worst = 0.0
    for i in range(chain.n):
        q = g.rotvec_to_q(*angles[i])
        c = g.constrain_joint_3d(*q, i, chain.cone, chain.hinge, chain.lo, chain.hi)
        d = g.qmul(*c, q[0], -q[1], -q[2], -q[3])
        worst = max(worst, g.q_angle(*d))
    return worst


def check_invariants(sol: ik.Solution, chain: ik.Chain, target) -> None:
    """Every invariant of a solution."""
    L = chain.total_length
    n, d = chain.n, chain.dim
    assert sol.positions.shape == (n + 1, d)
    assert np.all(np.isfinite(sol.positions))
    assert np.all(np.isfinite(sol.angles))
    assert math.isfinite(sol.error)
    assert np.all(np.isfinite(sol.motion.keys))
    # positions are forward kinematics of the angles
    fk = chain.pose_from_angles(sol.angles).positions
    np.testing.assert_allclose(sol.positions, fk, rtol=0, atol=1e-9 * max(L, 1.0))
    np.testing.assert_allclose(sol.positions[0], chain.base, atol=1e-12)
    # link lengths preserved
    links = np.linalg.norm(np.diff(sol.positions, axis=0), axis=1)
    np.testing.assert_allclose(links, chain.lengths, rtol=1e-9)
    # limits respected
    assert joint_violation(chain, sol.angles) <= 1e-9
    # error and status
    expected = float(np.linalg.norm(sol.positions[-1] - np.asarray(target, float)))
    assert abs(sol.error - expected) <= 1e-12 * max(1.0, expected)
    assert (sol.status is ik.Status.REACHED) == (sol.error <= sol.tol)
    assert sol.iterations >= 0
    # CLOSEST only at the provably closest reachable point
    if sol.status is ik.Status.CLOSEST:
        closest = closest_reachable_point(chain, np.asarray(target, float))
        assert closest is not None
        if np.array_equal(target, chain.base):
            assert sol.error <= np.linalg.norm(closest - chain.base) + sol.tol
        else:
            assert np.linalg.norm(sol.positions[-1] - closest) <= sol.tol
    # the motion starts at the start pose, ends at the returned pose; every keyframe respects
    # the limits (2-D: all of them; 3-D: a sample, the check being slow)
    poses = sol.motion.poses()
    np.testing.assert_allclose(poses[-1], sol.positions, atol=1e-9 * max(L, 1.0))
    if d == 2:
        keys = sol.motion.keys
        assert np.all(keys >= chain.lo - 1e-9) and np.all(keys <= chain.hi + 1e-9)
    else:
        for key in sol.motion.angles[:: max(1, sol.motion.steps // 8)]:
            assert joint_violation(chain, key) <= 1e-9
    c = ik.costs(sol)
    moves = int(np.count_nonzero(sol.motion.rotations() > 1e-12))
    assert 0 <= c.rotations_over_5deg <= moves
    assert math.isfinite(c.rotation_sum_deg) and c.rotation_sum_deg >= 0
    # the end effector travels at least the straight distance from where it started
    moved = float(np.linalg.norm(poses[-1, -1] - poses[0, -1]))
    assert math.isfinite(c.path_length) and c.path_length >= moved * (1 - 1e-9) - 1e-12 * L
    assert c.iterations == sol.iterations


def spy_work_hints(monkeypatch, module) -> list[int]:
    """The ``work`` hints that ``module``'s calls through :func:`geoik.jit.call` pass from now
    on, in order (the calls still run)."""
    hints: list[int] = []
    real = module.call

    def spy(fn, *args, work=0):
        hints.append(work)
        return real(fn, *args, work=work)

    monkeypatch.setattr(module, "call", spy)
    return hints


@contextlib.contextmanager
def viewer_server(
    warm: bool = True, models: object = None, preparation: object = None
) -> Iterator[str]:
    """uvicorn serving the viewer app on a free loopback port, as ``geoik view`` does, in a
    thread; yields ``host:port``. ``models``: the robot and clip it shows
    (:class:`geoik.viewer.models.Models`); ``preparation``: its steps, if not the default
    (:class:`geoik.viewer.prepare.Preparation`). Needs the viewer extra (imported here, not at
    the top)."""
    import uvicorn

    from geoik.commands.view import WS_MAX_SIZE, listen
    from geoik.viewer.server import create_app

    sock = listen("127.0.0.1", 0)
    app = create_app(warm=warm, models=models, preparation=preparation)  # type: ignore[arg-type]
    config = uvicorn.Config(app, log_level="warning", ws_max_size=WS_MAX_SIZE)
    server = uvicorn.Server(config)
    thread = threading.Thread(target=server.run, kwargs={"sockets": [sock]}, daemon=True)
    thread.start()
    while not server.started:
        assert thread.is_alive(), "uvicorn did not start"
        thread.join(0.05)
    try:
        yield f"127.0.0.1:{sock.getsockname()[1]}"
    finally:
        server.should_exit = True
        thread.join(10)
