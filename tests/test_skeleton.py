"""Skeleton: validation and builders."""

from __future__ import annotations

import dataclasses

import numpy as np
import pytest

from geoik.errors import GeoIKError, InvalidChainError
from geoik.rigs.skeleton import Branch, Skeleton


def _links(sk: Skeleton, pos: np.ndarray) -> np.ndarray:
    out = np.zeros(sk.n)
    for j in range(sk.n):
        if sk.parents[j] >= 0:
            out[j] = np.linalg.norm(pos[j] - pos[sk.parents[j]])
    return out


def test_direct_construction_and_queries():
    sk = Skeleton(("a", "b", "c", "d"), [-1, 0, 1, 1], [0.0, 1.0, 2.0, 0.5])
    assert sk.n == 4 and sk.root_index == 0
    assert sk.effector_names == ("c", "d")
    assert sk.path("c").tolist() == [0, 1, 2]
    assert sk.reach("c") == (1.0, 3.0)
    np.testing.assert_allclose(sk.rest_positions()[:, 0], [0, 1, 3, 1.5])
    with pytest.raises(dataclasses.FrozenInstanceError):
        sk.dim = 3  # type: ignore[misc]
    with pytest.raises(ValueError):
        sk.lengths[1] = 5.0


def test_order_puts_parents_first_whatever_the_listing():
    sk = Skeleton(("tip", "mid", "root"), [1, 2, -1], [1.0, 1.0, 0.0])
    seen: set[int] = set()
    for j in sk.order:
        assert sk.parents[j] < 0 or sk.parents[j] in seen
        seen.add(int(j))
    assert sk.effector_names == ("tip",)


@pytest.mark.parametrize(
    ("names", "parents", "lengths", "words"),
    [
        (("a", "a"), [-1, 0], [0, 1], "unique"),
        (("a", "b"), [-1, 5], [0, 1], "parents[1]"),
        (("a", "b"), [-1, 1], [0, 1], "parents[1]"),
        (("a", "b", "c"), [-1, 2, 1], [0, 1, 1], "cycle"),
        (("a", "b"), [-1, -1], [0, 0], "exactly one root"),
        (("a", "b"), [0, 0], [1, 1], "parents[0]"),
        (("a", "b"), [-1, 0], [0, 0], "lengths[1]"),
        (("a", "b"), [-1, 0], [0, -2], "lengths[1]"),
        (("a", "b"), [-1, 0], [0, float("nan")], "lengths[1]"),
        (("a", "b"), [-1, 0], [1, 1], "root"),
        (("a", ""), [-1, 0], [0, 1], "names[1]"),
        (("a", "b"), [-1.0, 0.0], [0, 1], "integer"),
    ],
)
def test_invalid_skeletons(names, parents, lengths, words):
    with pytest.raises(InvalidChainError, match=words.replace("[", r"\[").replace("]", r"\]")):
        Skeleton(names, parents, lengths)


def test_effectors_must_be_leaves_and_dims_checked():
    with pytest.raises(InvalidChainError, match="leaves"):
        Skeleton(("a", "b", "c"), [-1, 0, 1], [0, 1, 1], effectors=[False, True, True])
    with pytest.raises(InvalidChainError, match="dim"):
        Skeleton(("a", "b"), [-1, 0], [0, 1], dim=4)
    with pytest.raises(InvalidChainError, match="root"):
        Skeleton(("a", "b"), [-1, 0], [0, 1], root=(0, 0, 0))
    with pytest.raises(InvalidChainError, match=r"directions\[1\]"):
        Skeleton(("a", "b"), [-1, 0], [0, 1], directions=[[1, 0], [0, 0]])
    assert issubclass(InvalidChainError, GeoIKError)


def test_unknown_names():
    sk = Skeleton.from_chains([("arm", [1.0, 1.0])])
    with pytest.raises(InvalidChainError, match="nose"):
        sk.index("nose")
    with pytest.raises(InvalidChainError, match="parent"):
        Skeleton.from_chains([("arm", [1.0]), ("hand", [1.0], "elbow")])
    with pytest.raises(InvalidChainError, match="unique"):
        Skeleton.from_chains([("arm", [1.0]), ("arm", [1.0])])
    with pytest.raises(InvalidChainError, match="chains"):
        Skeleton.from_chains(["arm"])  # type: ignore[list-item]


def test_from_chains_names_branches_and_rest_pose():
    sk = Skeleton.from_chains(
        [Branch("arm", [2.0, 1.0], direction=(0, 1)), ("leg", [1.5, 0.5], "arm_1", (1, 0))],
        root=(1.0, 1.0),
    )
    assert sk.names == ("root", "arm_1", "arm", "leg_1", "leg")
    assert sk.effector_names == ("arm", "leg")
    pos = sk.rest_positions()
    np.testing.assert_allclose(pos[sk.index("arm")], (1.0, 4.0))
    np.testing.assert_allclose(pos[sk.index("leg")], (3.0, 3.0))
    np.testing.assert_allclose(_links(sk, pos), sk.lengths)


@pytest.mark.parametrize("dim", [2, 3])
def test_hand(dim):
    sk = Skeleton.hand(dim=dim)
    assert sk.effector_names == ("thumb", "index", "middle", "ring", "little")
    palm = sk.index("palm")
    for f in sk.effector_names:
        path = sk.path(f)
        assert len(path) == 5 and path[1] == palm  # wrist, palm, three finger joints
    pos = sk.rest_positions()
    np.testing.assert_allclose(_links(sk, pos), sk.lengths)
    tips = np.array([pos[sk.index(f)] for f in sk.effector_names])
    assert len({tuple(np.round(t, 6)) for t in tips}) == 5  # spread: distinct fingertips
    assert sk.reach("middle")[1] > sk.reach("little")[1]  # the middle finger is the longest


@pytest.mark.parametrize("dim", [2, 3])
def test_legs(dim):
    sk = Skeleton.legs(dim=dim)
    assert sk.effector_names == ("left_foot", "right_foot")
    assert sk.names[sk.parents[sk.index("left_knee")]] == "pelvis"
    pos = sk.rest_positions()
    assert pos[sk.index("left_ankle"), 1] < pos[sk.index("left_knee"), 1] < 0
    np.testing.assert_allclose(_links(sk, pos), sk.lengths)


def test_positions_from_directions_keep_lengths():
    sk = Skeleton.hand(dim=3)
    rng = np.random.default_rng(0)
    pos = sk.positions_from_directions(rng.normal(size=(sk.n, 3)))
    np.testing.assert_allclose(_links(sk, pos), sk.lengths)
    with pytest.raises(InvalidChainError, match="directions"):
        sk.positions_from_directions(np.ones((2, 3)))
