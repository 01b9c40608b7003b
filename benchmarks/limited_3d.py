"""How often each solver reaches reachable targets of random 3-D chains with limits.

Run ``python benchmarks/limited_3d.py`` (``--chains`` per cell, ``--max-iter``). For three kinds
of chain (ball joints with cones; cones and hinges mixed; hinges only, with random axes and
signed ranges), 2, 4 and 8 links of length 0.5-2, it draws a random pose within the limits and
takes its end effector as the target, so every target is reachable; then it counts the solves
that end REACHED, for every registered solver with a 3-D kernel that takes the chain (a solver
refusing a chain up front, as CAA refuses limits, is counted apart), and for ``method="auto"``.
Seeded: the same chains and targets every run.
"""

from __future__ import annotations

import argparse
import math
import sys

import numpy as np

import geoik as ik
from geoik.solvers import REGISTRY

SEED = 20240611
KINDS = ("ball", "mixed", "hinge")
SIZES = (2, 4, 8)


def random_chain(rng: np.random.Generator, n: int, kind: str) -> ik.Chain:
    """Links of length 0.5-2; cones of 30-120 degrees; hinges with a random axis normal to the
    link and a range [lo, hi] with lo in [-150, 0] and hi in [0, 150] degrees."""
    lengths = rng.uniform(0.5, 2.0, n)
    hinges: list[tuple[float, float, float] | None] = []
    bends: list[float | tuple[float, float]] = []
    for _ in range(n):
        if kind == "hinge" or (kind == "mixed" and rng.random() < 0.5):
            a = rng.uniform(0.0, 2.0 * math.pi)
            hinges.append((0.0, math.cos(a), math.sin(a)))
            bends.append((rng.uniform(-150.0, 0.0), rng.uniform(0.0, 150.0)))
        else:
            hinges.append(None)
            bends.append(rng.uniform(30.0, 120.0))
    return ik.Chain.spatial(lengths, max_bend_deg=bends, hinge_axes=hinges)


def random_pose(rng: np.random.Generator, chain: ik.Chain) -> np.ndarray:
    """(n, 3) rotation vectors within the limits: a hinge angle in its range, a ball joint's
    bend in its cone about a random axis normal to the link."""
    out = np.zeros((chain.n, 3))
    for i in range(chain.n):
        if np.any(chain.hinge[i]):
            out[i] = chain.hinge[i] * rng.uniform(chain.lo[i], chain.hi[i])
        else:
            a = rng.uniform(0.0, 2.0 * math.pi)
            out[i] = (0.0, math.cos(a), math.sin(a))
            out[i] *= rng.uniform(0.0, chain.cone[i])
    return out


def rates(chains: int, max_iter: int) -> dict[tuple[str, int], dict[str, tuple[int, int]]]:
    """Per (kind, n): per solver, (solves REACHED, solves run)."""
    rng = np.random.default_rng(SEED)
    table: dict[tuple[str, int], dict[str, tuple[int, int]]] = {}
    for kind in KINDS:
        for n in SIZES:
            cell = {"auto": (0, 0)}
            cell.update({name: (0, 0) for name, s in REGISTRY.items() if 3 in s.dims})
            for _ in range(chains):
                chain = random_chain(rng, n, kind)
                target = chain.pose_from_angles(random_pose(rng, chain)).positions[-1]
                for name in cell:
                    try:
                        sol = ik.solve(chain, target, method=name, max_iter=max_iter)
                    except ik.UnsupportedChainError:
                        continue
                    hits, runs = cell[name]
                    cell[name] = (hits + (sol.status is ik.Status.REACHED), runs + 1)
            table[(kind, n)] = cell
    return table


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--chains", type=int, default=100, help="chains (targets) per cell")
    parser.add_argument("--max-iter", type=int, default=200, help="iteration budget")
    args = parser.parse_args(argv)
    table = rates(args.chains, args.max_iter)
    names = list(next(iter(table.values())))
    print(f"REACHED on reachable targets, {args.chains} chains per row, max_iter {args.max_iter}")
    print(f"\n{'chain':<8}{'n':>3}" + "".join(f"{name:>15}" for name in names))
    for (kind, n), cell in table.items():
        row = "".join(
            f"{100 * h / r:>14.0f}%" if r else f"{'refused':>15}" for h, r in cell.values()
        )
        print(f"{kind:<8}{n:>3}{row}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
