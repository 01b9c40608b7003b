"""A model pickled (sent to a Dask worker or a process pool, or deep-copied) is the same model:
its arrays read-only as the original's, so that every kernel takes it with the argument types it
is compiled for (writable arrays are other types, compiled anew: seconds per solver in every
process the copy reaches), its answers the same, and its cache of derived values left behind (a
chain solved by ``method="auto"`` holds the solvers it chose, which do not pickle)."""

from __future__ import annotations

import copy
import pickle

import numpy as np
import pytest
from numba import typeof

import geoik as ik
from geoik.jit import KernelModel


def _arrays(obj, seen=None):
    """Every NumPy array of a model's fields (in tuples, and in the models it holds), by name."""
    seen = set() if seen is None else seen
    out = {}
    for name, value in vars(obj).items():
        if name == "_cache":
            continue
        items = value if isinstance(value, tuple) else (value,)
        for i, item in enumerate(items):
            if isinstance(item, np.ndarray):
                out[f"{name}[{i}]"] = item
            elif isinstance(item, KernelModel) and id(item) not in seen:
                seen.add(id(item))
                out.update({f"{name}.{k}": a for k, a in _arrays(item, seen).items()})
    return out


def _chain():
    chain = ik.Chain.spatial([1.0, 0.8, 0.6], max_bend_deg=60)
    return chain, lambda c: ik.solve(c, (1.0, 0.9, 0.4)).angles  # auto: its plan cached


def _robot():
    from geoik.robots.urdf import load_example

    robot = load_example("ur5")
    frame = robot.tip_frame(np.full(robot.n, 0.4))

    def solve(r):
        found = ik.solve_all(r, frame[:3, 3], orientation=frame[:3, :3])
        dls = ik.solve(r, frame[:3, 3], orientation=frame[:3, :3], method="dls")
        return np.concatenate([found.angles.ravel(), dls.angles, dls.frame.ravel()])

    return robot, solve


def _skeleton():
    hand = ik.Skeleton.hand(limits=True)
    targets = {"index": (1.45, 0.2, -0.45), "thumb": (1.2, 0.45, -0.4)}
    return hand, lambda h: ik.solve_tree(h, targets).positions


@pytest.mark.parametrize("make", [_chain, _robot, _skeleton], ids=["chain", "robot", "skeleton"])
def test_a_pickled_model_keeps_its_arrays_read_only_and_its_answers(make):
    model, solve = make()
    first = solve(model)
    arrays = _arrays(model)
    assert arrays and not any(a.flags.writeable for a in arrays.values())
    for twin in (pickle.loads(pickle.dumps(model)), copy.deepcopy(model)):
        got = _arrays(twin)
        assert list(got) == list(arrays)
        for name, a in got.items():
            assert not a.flags.writeable, name
            assert typeof(a) == typeof(arrays[name]), name  # the kernels' argument types
            np.testing.assert_array_equal(a, arrays[name])
        if hasattr(twin, "_cache"):
            assert twin._cache == {}  # derived values are rebuilt on first use
        np.testing.assert_array_equal(solve(twin), first)
    if hasattr(model, "_cache"):
        assert model._cache  # the original keeps its own


def test_a_chain_and_its_solution_pickle_after_an_auto_solve():
    """``method="auto"`` caches on the chain the solvers it runs (compiled functions among
    them); the chain, and a solution holding it, still pickle."""
    chain = ik.Chain.planar([1.0, 1.0, 1.0])
    sol = ik.solve(chain, (1.5, 1.0))
    assert "auto_plan" in chain._cache
    back = pickle.loads(pickle.dumps(sol))
    np.testing.assert_array_equal(back.angles, sol.angles)
    assert ik.solve(back.chain, (1.5, 1.0)).status is sol.status
