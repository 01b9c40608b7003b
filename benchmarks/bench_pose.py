"""Frames per second of posing a 1000-frame clip with two pins (``geoik pose``'s work).

Run ``python benchmarks/bench_pose.py`` (``--frames``, ``--rounds``). The clip is the locomotion
capture in ``tests/data/bvh`` (22 joints) played forwards and backwards until it has
``--frames`` frames; each foot is pinned on every frame, in blocks of ten frames each held where
the clip has the foot in the block's middle frame, lifted by 2 % of the leg (planting the feet
for a tenth of a second at a time), so every frame is solved for two pins. Each
round runs, in turn, the reference (reading and writing the clip: ``load_bvh`` + ``save_bvh``,
the least any posing run does) and ``pose_clip`` with each tree solver (the pelvis held as the
clip has it, so the limited kernels run); it prints the best and median frames per second and the
median over rounds of each solver's time against the reference's in the same round.
Everything is compiled before timing (``jit.mode("compiled")`` on a first short run).
"""

from __future__ import annotations

import argparse
import os
import statistics
import tempfile
import time
from pathlib import Path

import numpy as np

import geoik as ik
from geoik import jit

CLIP = (
    Path(__file__).resolve().parent.parent
    / "tests"
    / "data"
    / "bvh"
    / "bvhtools_locomotion_240.bvh"
)
PINS = ("LeftFoot", "RightFoot")


def long_clip(frames: int, folder: str) -> str:
    """The capture played forwards and backwards to ``frames`` frames, written to a file."""
    sk, clip, dt = ik.load_bvh(CLIP)
    idx = np.concatenate([np.arange(len(clip)), np.arange(len(clip) - 1, -1, -1)])
    take = np.resize(idx, frames)
    src = ik.Frames(clip.positions[take], clip.root_rotations[take])
    path = os.path.join(folder, "long.bvh")
    ik.save_bvh(path, sk, src, dt)
    return path


def pins_for(sk: ik.Skeleton, frames: ik.Frames, block: int = 10) -> list[ik.Pin]:
    leg = sk.reach("LeftFoot")[1]
    out = []
    for start in range(0, len(frames), block):
        which = range(start, min(start + block, len(frames)))
        middle = which[len(which) // 2]
        for name in PINS:
            where = frames.positions[middle, sk.index(name)] + np.array([0.0, 0.02 * leg, 0.0])
            out.append(ik.Pin(name, where, which))
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--frames", type=int, default=1000)
    ap.add_argument("--rounds", type=int, default=3)
    args = ap.parse_args()
    load0 = os.getloadavg()[0]
    with tempfile.TemporaryDirectory() as folder:
        path = long_clip(args.frames, folder)
        out = os.path.join(folder, "out.bvh")
        sk, frames, dt = ik.load_bvh(path)
        rig = sk
        with jit.mode("compiled"):  # compile every kernel once, off the clock
            for method in ("circles", "fabrik"):
                ik.pose_clip(
                    rig,
                    frames[:3],
                    pins_for(rig, ik.Frames(frames.positions[:3], frames.root_rotations[:3])),
                    method=method,
                )
        times: dict[str, list[float]] = {"reference": [], "circles": [], "fabrik": []}
        ratios: dict[str, list[float]] = {"circles": [], "fabrik": []}
        reached: dict[str, float] = {}
        for _ in range(args.rounds):
            t0 = time.perf_counter()
            sk_, fr_, dt_ = ik.load_bvh(path)
            ik.save_bvh(out, sk_, fr_, dt_)
            ref = time.perf_counter() - t0
            times["reference"].append(ref)
            for method in ("circles", "fabrik"):
                t0 = time.perf_counter()
                res = ik.pose_clip(rig, frames, pins_for(rig, frames), method=method)
                spent = time.perf_counter() - t0
                times[method].append(spent)
                ratios[method].append(spent / ref)
                reached[method] = float(res.reached[~np.isnan(res.error)].mean())
    n = args.frames
    print(f"posing a {n}-frame clip ({sk.n} joints) with two pins, {args.rounds} rounds")
    for name, ts in times.items():
        best, med = min(ts), statistics.median(ts)
        line = f"  {name:9s} best {n / best:8.0f} frames/s   median {n / med:8.0f} frames/s"
        if name in ratios:
            ratio = statistics.median(ratios[name])
            line += f"   {ratio:5.2f} x reference   pins reached {reached[name]:.1%}"
        else:
            line += "   (load_bvh + save_bvh)"
        print(line)
    end = os.getloadavg()[0]
    print(f"machine load (1-minute average): {load0:.2f} at the start, {end:.2f} at the end")


if __name__ == "__main__":
    main()
