"""The set-up and the solves of the ``triangulation-2007`` experiment (seed 000): the chains,
the targets, the published numbers, the cube's geometry, and every (chain, method, start) run
over the targets (:func:`collect`)."""

from __future__ import annotations

import math
from collections.abc import Callable

import numpy as np

import geoik as ik
from geoik import geometry as g
from geoik import jit
from geoik.experiments._report import Progress
from geoik.solvers import REGISTRY

BOX = 60.0
TOL = 0.5
MAX_ITER = 99
TARGETS = 10_000
QUICK_TARGETS = 100
PUBLISHED_METHODS = ("ccd", "triangulation")
EXTRA = ("fabrik", "single-pass", "circles", "dls")
MODES = ("rest", "previous")
CHAINS = ("A", "B")
PUBLISHED = {
    "out_of_reach_pct": 8.27,
    "more_unreachable_B_pct": 2.23,
    "ccd_within20_A_pct": 92.12,
    "ccd_within20_B_pct": 92.97,
    "ccd_mean_iter_A": 8.351,
    "ccd_mean_iter_B": 8.727,
    "cost_ccd_A": 315.5,
    "cost_ccd_B": 173.9,
    "cost_triangulation_A": 159.9,
    "cost_triangulation_B": 141.5,
    # §6: "Every target that could theoretically be reached was reached by both algorithms"
    "ccd_reached_pct": 100.0,
    "triangulation_reached_pct": 100.0,
    # §5: "Triangulation reached each target on the first iteration"
    "triangulation_iterations": 1.0,
}
FIELDS = ("status", "iterations", "performed", "net", "net_last", "start_dist", "start_angle")
"""Per-target arrays of a run: the status code (``geoik.geometry``), iterations, cost C in both
readings (degrees), the last joint's net change (degrees), and the start end effector's distance
to the target and angle at the base between it and the target (degrees), which the paper's
Fig. 6 plots iterations against."""

Run = dict[str, np.ndarray]


def chains() -> dict[str, ik.Chain]:
    """The paper's two chains of length 40: A free, B an approximate human arm."""
    return {
        "A": ik.Chain.spatial([9, 9, 9, 9, 4]),
        "B": ik.Chain.spatial([18, 18, 4], max_bend_deg=[None, 126, 90]),
    }


def cube_outside_ball_fraction(half: float, radius: float, steps: int = 20001) -> float:
    """Fraction of the cube [-half, half]^3 outside the ball of ``radius`` about its centre.

    Integrates over z the exact area of a disc intersected with a square (Simpson's rule).
    """
    z = np.linspace(-half, half, steps)
    rho = np.sqrt(np.maximum(radius**2 - z**2, 0.0))
    area = np.empty_like(rho)
    for i, r in enumerate(rho):
        if r <= half:
            area[i] = math.pi * r * r
        elif r >= half * math.sqrt(2.0):
            area[i] = 4 * half * half
        else:
            seg = r * r * math.acos(half / r) - half * math.sqrt(r * r - half * half)
            area[i] = math.pi * r * r - 4 * seg
    h = z[1] - z[0]
    w = np.ones(steps)
    w[1:-1:2], w[2:-1:2] = 4, 2
    inside = float(h / 3 * np.dot(w, area))
    return 1.0 - inside / (2 * half) ** 3


def ball_radius_inside(fraction: float, half: float) -> float:
    """Radius of the ball about the centre holding ``fraction`` of the cube [-half, half]^3."""
    lo, hi = 0.0, half * math.sqrt(3.0)
    for _ in range(60):
        mid = 0.5 * (lo + hi)
        if 1.0 - cube_outside_ball_fraction(half, mid, 2001) < fraction:
            lo = mid
        else:
            hi = mid
    return 0.5 * (lo + hi)


def targets(n: int, seed: int) -> np.ndarray:
    """``n`` targets uniform in the cube of side ``BOX`` about the base, (n, 3)."""
    rng = np.random.default_rng(seed)
    return rng.uniform(-BOX / 2, BOX / 2, size=(n, 3))


def net_changes_deg(sol: ik.Solution) -> np.ndarray:
    """Per joint, the angle between its start and final rotation (degrees), (n,)."""
    keys = sol.motion.keys
    a, b = keys[0], keys[-1]
    # b a^-1 per joint (a unit quaternion's inverse is its conjugate): its scalar part and the
    # length of its vector part give the angle, 2 atan2(|v|, |w|)
    w = np.einsum("ij,ij->i", b, a)
    v = a[:, :1] * b[:, 1:] - b[:, :1] * a[:, 1:] - np.cross(b[:, 1:], a[:, 1:])
    return np.degrees(2.0 * np.arctan2(np.sqrt(np.einsum("ij,ij->i", v, v)), np.abs(w)))


def net_change_deg(sol: ik.Solution) -> float:
    """Sum over joints of the angle between each joint's start and final rotation, degrees."""
    return float(net_changes_deg(sol).sum())


def methods() -> list[str]:
    """The published methods, then the extra columns, as far as they solve 3-D chains."""
    return [m for m in (*PUBLISHED_METHODS, *EXTRA) if m in REGISTRY and 3 in REGISTRY[m].dims]


def _angle_deg(u: np.ndarray, v: np.ndarray) -> float:
    nu, nv = float(np.linalg.norm(u)), float(np.linalg.norm(v))
    if nu < 1e-12 or nv < 1e-12:
        return float("nan")
    return math.degrees(math.acos(max(-1.0, min(1.0, float(u @ v) / (nu * nv)))))


def run_method(
    chain: ik.Chain,
    method: str,
    pts: np.ndarray,
    mode: str,
    tick: Callable[[], None] | None = None,
) -> Run:
    """Solve every target in turn; per-target arrays named by :data:`FIELDS`."""
    out = {k: np.zeros(len(pts)) for k in FIELDS}
    pose = chain.rest_pose()
    start = None
    for i, t in enumerate(pts):
        ee = pose.positions[-1]
        out["start_dist"][i] = float(np.linalg.norm(t - ee))
        out["start_angle"][i] = _angle_deg(ee - chain.base, t - chain.base)
        sol = ik.solve(chain, t, method=method, tol=TOL, max_iter=MAX_ITER, start=start)
        out["status"][i] = {
            ik.Status.REACHED: g.REACHED,
            ik.Status.CLOSEST: g.CLOSEST,
            ik.Status.MAX_ITERATIONS: g.MAX_ITERATIONS,
            ik.Status.STALLED: g.STALLED,
        }[sol.status]
        out["iterations"][i] = sol.iterations
        # cost C as performed: ik.costs' rotation sum, without the path it also measures
        out["performed"][i] = math.degrees(float(sol.motion.rotations().sum()))
        net = net_changes_deg(sol)
        out["net"][i], out["net_last"][i] = net.sum(), net[-1]
        if mode == "previous":
            start = pose = sol.pose
        if tick:
            tick()
    return out


def collect(
    pts: np.ndarray, ms: list[str], progress: Progress | None = None
) -> dict[tuple[str, str, str], Run]:
    """Every (chain, method, start) run over the targets."""
    cs = chains()
    per_method = len(pts) * len(cs) * len(MODES)
    total = per_method * len(ms)
    done = [0]
    jobs: list[jit.Job] = []

    def tick() -> None:
        done[0] += 1
        jobs[-1].step()
        if progress and (done[0] % 50 == 0 or done[0] == total):
            progress("solves", done[0], total)

    out: dict[tuple[str, str, str], Run] = {}
    for m in ms:
        # one job per method, so that a method's kernel is compiled only where its own solves
        # still to run would take longer as plain Python than compiling it (the quick run's 800
        # CCD solves: 1.6 s as Python against 5-6 s compiling; the full run's: compiled)
        with jit.job(per_method) as work:
            jobs.append(work)
            for ck, chain in cs.items():
                for mode in MODES:
                    out[ck, m, mode] = run_method(chain, m, pts, mode, tick)
    return out
