"""A robot's product-of-exponentials form equals its own forward kinematics."""

from __future__ import annotations

import numpy as np
import pytest

import geoik as ik
from geoik.robots.urdf import EXAMPLES, load_example

pytest.importorskip("yourdfpy")

ARMS = [name for name, (_, tips) in EXAMPLES.items() if len(tips) == 1]


@pytest.mark.parametrize("name", ARMS)
def test_poe_equals_forward_kinematics(name):
    robot = load_example(name)
    poe = robot.poe()
    assert poe.H.shape == (robot.n, 3) and poe.P.shape == (robot.n + 1, 3)
    np.testing.assert_allclose(np.linalg.norm(poe.H, axis=1), 1.0, atol=1e-12)
    assert poe is robot.poe()  # cached
    rng = np.random.default_rng(3)
    for q in robot.random_angles(rng, 200):
        np.testing.assert_allclose(poe.forward(q), robot.tip_frame(q), rtol=0, atol=1e-12)


def test_poe_of_one_tip_of_a_tree():
    hand = load_example("allegro")
    tip = hand.tip_names[1]
    poe = hand.poe(tip)
    assert poe.tip == tip and list(poe.joints) == list(hand.path(tip))
    rng = np.random.default_rng(4)
    for q in hand.random_angles(rng, 50):
        np.testing.assert_allclose(
            poe.forward(q[poe.joints]), hand.tip_frame(q, tip), rtol=0, atol=1e-12
        )
    with pytest.raises(ik.InvalidChainError):
        hand.poe()
