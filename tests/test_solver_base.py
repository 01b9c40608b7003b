"""The solver registry and what every solver declares: names, options packed for the kernels,
chain checks."""

from __future__ import annotations

import numpy as np
import pytest

import geoik as ik
from geoik.solvers import REGISTRY, chain_methods, get


def test_registry_has_the_classic_solvers():
    assert {"ccd", "fabrik", "dls", "two-bone"} <= set(REGISTRY)
    for name, solver in REGISTRY.items():
        assert solver.name == name and get(name) is solver
        assert solver.summary and solver.source and solver.module.startswith("geoik.solvers.")
        assert solver.dims in ((2,), (3,), (2, 3)) or (solver.dims == () and solver.kernel_all)
        assert solver.capacity(3, 10) >= 1


def test_pack_options_defaults_and_values():
    two_bone = REGISTRY["two-bone"]
    np.testing.assert_array_equal(two_bone.pack_options({}), [1.0, 0.0, 1.0, 0.0])
    np.testing.assert_array_equal(
        two_bone.pack_options({"elbow": -1, "pole": (0, 0, 2)}), [-1.0, 0.0, 0.0, 2.0]
    )
    with pytest.raises(ik.InvalidOptionError, match=r"pole: expected 3 finite numbers"):
        two_bone.pack_options({"pole": (0, 1)})
    with pytest.raises(ik.InvalidOptionError, match=r"elbow: expected a finite number, got True"):
        two_bone.pack_options({"elbow": True})


def test_default_options_are_packed_once():
    dls = REGISTRY["dls"]
    chain = ik.Chain.planar([1.0, 1.0])
    assert dls.kernel_opts(chain, {}) is dls.kernel_opts(chain, {})
    np.testing.assert_array_equal(dls.kernel_opts(chain, {"damping": 0.5}), [0.5, 0.2, 1.0])


@pytest.mark.parametrize("name", sorted(chain_methods()))
def test_check_chain_messages(name):
    solver = REGISTRY[name]
    lo, hi = solver.links
    if hi is not None:
        with pytest.raises(ik.UnsupportedChainError, match=rf"{name}.*got a chain of {hi + 1}"):
            solver.check_chain(hi + 1, solver.dims[0])
    solver.check_chain(lo, solver.dims[0])  # accepted
