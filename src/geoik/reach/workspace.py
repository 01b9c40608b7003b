"""Which points a 3-D chain can reach: the denominator of a 3-D map's coverage.

A limited 3-D chain does not reach a ball or a shell about its base: its first joint's cone or
hinge, and the cones and hinges after it, carve the set. :func:`reachable_points` decides, for an
array of points, which are reachable, and says how (a :class:`Workspace`):

``shell`` (exact)
    The first joint is a free ball joint: every rotation of a pose about the base is again a
    pose, so the reachable set is the shell ``rmin <= |p - base| <= rmax`` of
    :func:`geoik.reach.chain_reach`. Exact when :func:`geoik.reach.reach_is_exact` says so (free
    chains, cones, parallel hinges); otherwise the chain is treated as below.
``revolution`` (bounded)
    Every joint is a ball joint and the first has a cone about +x. Turning the first link about
    +x keeps it in its cone, so the set is a solid of revolution about the line through the base
    along +x, and its meridian section is that of the planar chain with the limits
    ``[-cone_j, cone_j]`` (the reduction proved in :mod:`geoik.reach`). The planar set is
    enclosed by composition, joint by joint from the tip, on a polar grid about each joint:
    every cell a link's tail set touches is turned by the joint's range, and every cell its
    image touches is marked. Each step keeps every reachable point and adds only points within
    a proven distance of it (the cell sizes, see :func:`_compose`), so a point counted reachable
    lies within ``bound`` of the reachable set and every reachable point is counted.
``sampled`` (bounded)
    Any other chain (hinges with the first joint limited). The joint space is sampled on a
    grid: a hinge by its angle, a ball joint by ``Rx(a) Rz(b) Rx(t)`` with ``b`` within its
    cone (``t`` only where a hinge follows, which the twist turns). A rotation changed by at
    most ``h`` moves the end effector by at most ``h`` times the length of the links beyond the
    joint, so every reachable point lies within ``delta`` (the sum of these) of an end effector
    of the grid, and cells within ``delta`` of one are marked; ``bound`` is ``delta`` and the
    cell's size. When the first joint is a ball joint the set is again a solid of revolution and
    the grid leaves out the first joint's turn about +x.

``bound`` is 0 for ``shell`` and otherwise the largest distance from the reachable set of a point
counted reachable; the mask never misses a reachable point.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import TYPE_CHECKING

import numpy as np
from numba import njit, prange

from geoik.geometry import fk_3d, qmul
from geoik.jit import call
from geoik.reach import chain_reach, reach_is_exact

if TYPE_CHECKING:
    from geoik.chain import Chain

__all__ = ["Workspace", "reachable_points", "workspace"]

RADIAL_BINS = 1024
"""Radius rows of the polar grids of ``revolution`` (over the chain's length)."""
ANGULAR_BINS = 4096
"""Angle columns of the polar grids of ``revolution``."""
SAMPLES = 1 << 22
"""Most end effectors ``sampled`` computes (a quarter of it without the symmetry)."""
SECTION_CELLS = 1024
"""Most cells per chain length of the section grid ``sampled`` marks (fewer: a third of
``delta`` at least)."""
CUBE_CELLS = 128
"""Most cells per chain length of the cube ``sampled`` marks without the symmetry (fewer: half
of ``delta`` at least)."""


@dataclass(frozen=True, eq=False)
class Workspace:
    """How a chain's reachable set is decided (see the module docstring).

    Attributes
    ----------
    method : ``"shell"``, ``"revolution"`` or ``"sampled"``.
    exact : True when the decision is exact.
    bound : every point counted reachable lies within this distance of the reachable set (0 when
        exact); every reachable point is counted.
    """

    method: str
    exact: bool
    bound: float
    radii: tuple[float, float] = (0.0, 0.0)
    grid: np.ndarray | None = None
    cell: float = 0.0

    def describe(self) -> str:
        """One line for reports, e.g. ``exact (a shell about the base)``."""
        if self.method == "shell":
            return "exact (a shell about the base)"
        what = {
            "revolution": "a solid of revolution about +x, its section enclosed on a polar grid",
            "sampled": "the joint space sampled on a grid",
        }[self.method]
        return f"{what}; counted points within {self.bound:.3g} of the reachable set"


def workspace(chain: Chain) -> Workspace:
    """How :func:`reachable_points` decides for ``chain`` (a 3-D chain), with the grids it uses;
    computed once per chain."""
    cached = chain._cache.get("workspace")
    if cached is None:
        cached = chain._cache["workspace"] = _workspace(chain)
    result: Workspace = cached
    return result


def reachable_points(chain: Chain, points: np.ndarray) -> tuple[np.ndarray, Workspace]:
    """(bool mask of the points ``chain`` can reach, how it was decided); ``points`` (..., 3).

    No reachable point is left out; a point counted reachable lies within ``Workspace.bound`` of
    the reachable set (0: exact).
    """
    ws = workspace(chain)
    p = np.ascontiguousarray(points, dtype=np.float64).reshape(-1, 3)
    out = np.empty(p.shape[0], dtype=np.bool_)
    if ws.method == "shell":
        call(_in_shell, p, chain.base, ws.radii[0], ws.radii[1], out, work=p.shape[0])
    elif ws.method == "revolution":
        assert ws.grid is not None
        call(_in_polar, p, chain.base, ws.grid, chain.total_length, out, work=p.shape[0])
    else:
        assert ws.grid is not None
        if ws.grid.ndim == 2:
            call(_in_section, p, chain.base, ws.grid, ws.cell, out, work=p.shape[0])
        else:
            call(_in_cube, p, chain.base, ws.grid, ws.cell, out, work=p.shape[0])
    return out.reshape(np.shape(points)[:-1]), ws


def _first_free(chain: Chain) -> bool:
    return bool(chain.cone[0] >= math.pi and not np.any(chain.hinge[0]))


def _workspace(chain: Chain) -> Workspace:
    hinged = np.any(chain.hinge != 0.0, axis=1)
    if _first_free(chain) and reach_is_exact(chain):
        rmin, rmax = chain_reach(chain)
        return Workspace("shell", True, 0.0, (rmin, rmax))
    if not hinged.any():
        cones = np.minimum(chain.cone, math.pi)
        grid, bound = call(
            _compose, chain.lengths, -cones, cones, RADIAL_BINS, ANGULAR_BINS, work=1 << 30
        )
        return Workspace("revolution", False, float(bound), grid=grid)
    return _sampled(chain)


# ----------------------------------------------------------------------------- lookups


@njit(cache=True, parallel=True)
def _in_shell(p, base, rmin, rmax, out):
    for i in prange(p.shape[0]):
        dx, dy, dz = p[i, 0] - base[0], p[i, 1] - base[1], p[i, 2] - base[2]
        d = math.sqrt(dx * dx + dy * dy + dz * dz)
        out[i] = rmin <= d <= rmax


@njit(cache=True, parallel=True)
def _in_polar(p, base, grid, total, out):
    """The points whose meridian point (distance from the base, angle from +x) falls in a
    marked cell of the polar grid (rows: radius over [0, total]; columns: angle over
    [-pi, pi))."""
    nr, na = grid.shape
    dr, da = total / nr, 2.0 * math.pi / na
    for i in prange(p.shape[0]):
        dx, dy, dz = p[i, 0] - base[0], p[i, 1] - base[1], p[i, 2] - base[2]
        rho = math.sqrt(dx * dx + dy * dy + dz * dz)
        psi = math.atan2(math.sqrt(dy * dy + dz * dz), dx)  # in [0, pi]
        r = int(rho / dr)
        a = min(na - 1, int((psi + math.pi) / da))
        out[i] = r < nr and grid[r, a] != 0


@njit(cache=True, parallel=True)
def _in_section(p, base, grid, cell, out):
    """The points whose meridian point (x along +x, distance from the x axis) falls in a marked
    cell of the section grid (rows: distance from the axis; columns: x from -total)."""
    nr, nx = grid.shape
    half = 0.5 * nx * cell
    for i in prange(p.shape[0]):
        dx, dy, dz = p[i, 0] - base[0], p[i, 1] - base[1], p[i, 2] - base[2]
        r = int(math.sqrt(dy * dy + dz * dz) / cell)
        c = int((dx + half) / cell)
        out[i] = 0 <= r < nr and 0 <= c < nx and grid[r, c] != 0


@njit(cache=True, parallel=True)
def _in_cube(p, base, grid, cell, out):
    n = grid.shape[0]
    half = 0.5 * n * cell
    for i in prange(p.shape[0]):
        a = int(math.floor((p[i, 0] - base[0] + half) / cell))
        b = int(math.floor((p[i, 1] - base[1] + half) / cell))
        c = int(math.floor((p[i, 2] - base[2] + half) / cell))
        out[i] = 0 <= a < n and 0 <= b < n and 0 <= c < n and grid[a, b, c] != 0


# ----------------------------------------------------------------------------- revolution


@njit(cache=True)
def _mark(diff, r0, r1, a_lo, a_hi, na, da):
    """Count the cells of rows r0..r1 whose angles meet [a_lo, a_hi] (radians; turned into
    [-pi, pi), wrapping) in the difference array ``diff`` (rows, na + 1)."""
    if a_hi - a_lo >= 2.0 * math.pi - da:
        b0, b1 = 0, na - 1
    else:
        b0 = int(math.floor((a_lo + math.pi) / da))
        b1 = int(math.floor((a_hi + math.pi) / da))
        shift = (b0 // na) * na
        b0, b1 = b0 - shift, b1 - shift
    for r in range(r0, r1 + 1):
        if b1 < na:
            diff[r, b0] += 1
            diff[r, b1 + 1] -= 1
        else:  # wraps past +pi
            diff[r, b0] += 1
            diff[r, na] -= 1
            diff[r, 0] += 1
            diff[r, min(na, b1 - na + 1)] -= 1


@njit(cache=True)
def _settle(diff, grid):
    """Marked cells from the difference array; the array cleared."""
    nr, na = grid.shape
    for r in range(nr):
        run = 0
        for a in range(na):
            run += diff[r, a]
            grid[r, a] = 1 if run > 0 else 0
            diff[r, a] = 0
        diff[r, na] = 0


@njit(cache=True)
def _compose(lengths, lo, hi, nr, na):
    """A polar grid (radius over [0, sum of lengths], angle over [-pi, pi)) whose marked cells
    cover the reachable set of the planar chain with limits ``[lo_j, hi_j]`` (joint 0 about
    +x), and the largest distance from that set of a point of a marked cell.

    From the tip: the last link's tail set is the arc of its length over the last joint's range.
    A tail set ``T`` of link ``k + 1`` (in link ``k``'s frame, about joint ``k + 1``) gives that
    of link ``k`` as the union over the joint's range of the turned ``T + (l_k, 0)``. Each marked
    cell is a disc about its centre (radius ``rho``: half the radial step and half the arc of its
    outer edge), moved by the link, turned by the joint's range; the polar box of the moved disc
    (radii ``|c| -+ rho``, angles ``arg c -+ d`` with ``tan d = rho / sqrt(|c|^2 - rho^2)``)
    swept by the range is marked. A point of a newly marked cell lies within (the cell's
    diameter + the box's reach from its centre) of a point of the turned, moved cell, which
    lies within the previous bound of the tail set; the bound adds up over the joints.
    """
    n = lengths.shape[0]
    total = 0.0
    for i in range(n):
        total += lengths[i]
    dr = total / nr
    da = 2.0 * math.pi / na
    grid = np.zeros((nr, na), np.uint8)
    diff = np.zeros((nr, na + 1), np.int32)
    cell = math.sqrt(dr * dr + (total * da) ** 2)  # the widest cell's diameter
    # the last link: an arc of radius l about the last joint
    length = lengths[n - 1]
    r0 = min(nr - 1, int(length / dr))
    r1 = r0 - 1 if r0 > 0 and r0 * dr == length else r0
    _mark(diff, min(r0, r1), max(r0, r1), lo[n - 1], hi[n - 1], na, da)
    _settle(diff, grid)
    bound = cell
    cos_c = np.empty(na)
    sin_c = np.empty(na)
    for a in range(na):
        th = -math.pi + (a + 0.5) * da
        cos_c[a], sin_c[a] = math.cos(th), math.sin(th)
    for k in range(n - 2, -1, -1):
        length = lengths[k]
        reach = 0.0
        for r in range(nr):
            rc = (r + 0.5) * dr
            rho = math.sqrt((0.5 * dr) ** 2 + (0.5 * (r + 1) * dr * da) ** 2)
            for a in range(na):
                if grid[r, a] == 0:
                    continue
                cx, cy = rc * cos_c[a] + length, rc * sin_c[a]
                dc = math.sqrt(cx * cx + cy * cy)
                if dc > 2.0 * rho:
                    d = rho / math.sqrt(dc * dc - rho * rho)  # tan of the half-angle, >= it
                    mid = math.atan2(cy, cx)
                    a_lo, a_hi = mid - d + lo[k], mid + d + hi[k]
                    far = rho + (dc + rho) * d
                else:  # the disc is near the joint: every angle
                    a_lo, a_hi = -math.pi, math.pi
                    far = 2.0 * dc + rho
                reach = max(reach, far)
                q0 = int(max(0.0, dc - rho) / dr)
                q1 = min(nr - 1, int((dc + rho) / dr))
                if q0 <= q1:
                    _mark(diff, q0, q1, a_lo, a_hi, na, da)
        _settle(diff, grid)
        bound += reach + cell
    return grid, bound


# ----------------------------------------------------------------------------- sampled


def _sampled(chain: Chain) -> Workspace:
    """The ``sampled`` decision: joint-space grid, end effectors marked on a section (first
    joint a ball joint) or a cube."""
    n = chain.n
    hinged = np.any(chain.hinge != 0.0, axis=1)
    revolution = not hinged[0]
    later_hinge = np.array([hinged[j + 1 :].any() for j in range(n)])
    # per parameter: joint, kind (0 hinge angle, 1 ball azimuth, 2 ball bend, 3 ball twist),
    # range start, width, periodic
    params: list[tuple[int, int, float, float, bool]] = []
    for j in range(n):
        if hinged[j]:
            lo, hi = max(chain.lo[j], -math.pi), min(chain.hi[j], math.pi)
            params.append((j, 0, lo, hi - lo, hi - lo >= 2 * math.pi - 1e-12))
            continue
        if not (j == 0 and revolution):
            params.append((j, 1, -math.pi, 2 * math.pi, True))
        params.append((j, 2, 0.0, float(min(chain.cone[j], math.pi)), False))
        if later_hinge[j]:
            params.append((j, 3, -math.pi, 2 * math.pi, True))
    beyond = np.cumsum(chain.lengths[::-1])[::-1]  # links beyond each joint, its own included
    step = _step([w for _, _, _, w, _ in params], SAMPLES if revolution else SAMPLES // 4)
    counts, spacing = [], []
    for _, _, _, w, periodic in params:
        if w <= 0.0:
            counts.append(1)
            spacing.append(0.0)
            continue
        c = max(1, math.ceil(w / step)) if periodic else math.ceil(w / step) + 1
        counts.append(c)
        spacing.append(w / c if periodic else w / max(c - 1, 1))
    delta = sum(0.5 * s * float(beyond[j]) for (j, *_), s in zip(params, spacing, strict=True))
    total = chain.total_length
    table = np.array(
        [(j, kind, lo, s) for (j, kind, lo, _, _), s in zip(params, spacing, strict=True)],
        dtype=np.float64,
    ).reshape(-1, 4)
    counts_arr = np.array(counts, dtype=np.int64)
    if revolution:
        cell = max(delta / 3.0, total / SECTION_CELLS)
        cells = math.ceil(total / cell) + 1
        grid = np.zeros((cells, 2 * cells), np.uint8)
    else:
        cell = max(delta / 2.0, total / CUBE_CELLS)
        cells = 2 * (math.ceil(total / cell) + 1)
        grid = np.zeros((cells, cells, cells), np.uint8)
    sample = _sample_section if revolution else _sample_cube
    call(sample, chain.lengths, chain.hinge, table, counts_arr, delta, cell, grid, work=1 << 30)
    bound = delta + cell * (math.sqrt(2.0) if revolution else math.sqrt(3.0))
    return Workspace("sampled", False, float(bound), grid=grid, cell=cell)


def _step(widths: list[float], most: int) -> float:
    """The largest common step that keeps the grid within ``most`` samples."""
    lo, hi = 1e-6, 2 * math.pi
    for _ in range(60):
        mid = math.sqrt(lo * hi)
        count = 1.0
        for w in widths:
            count *= max(1.0, w / mid + 1.0)
        if count > most:
            lo = mid
        else:
            hi = mid
    return hi


@njit(cache=True)
def _tip(s, lengths, hinge, table, counts, vals, quats, pos, world, origin):
    """The end effector (from the origin) of grid configuration ``s``."""
    n = lengths.shape[0]
    m = table.shape[0]
    rest = s
    for i in range(m):
        idx = rest % counts[i]
        rest //= counts[i]
        vals[i] = table[i, 2] + idx * table[i, 3]
    for j in range(n):
        quats[j, 0], quats[j, 1], quats[j, 2], quats[j, 3] = 1.0, 0.0, 0.0, 0.0
    for i in range(m):  # a ball joint's Rx(azimuth) Rz(bend) Rx(twist), in that order
        j = int(table[i, 0])
        kind = int(table[i, 1])
        h = 0.5 * vals[i]
        c, sn = math.cos(h), math.sin(h)
        if kind == 0:
            r0, r1, r2, r3 = c, sn * hinge[j, 0], sn * hinge[j, 1], sn * hinge[j, 2]
        elif kind == 2:
            r0, r1, r2, r3 = c, 0.0, 0.0, sn
        else:
            r0, r1, r2, r3 = c, sn, 0.0, 0.0
        q0, q1, q2, q3 = qmul(quats[j, 0], quats[j, 1], quats[j, 2], quats[j, 3], r0, r1, r2, r3)
        quats[j, 0], quats[j, 1], quats[j, 2], quats[j, 3] = q0, q1, q2, q3
    fk_3d(lengths, origin, quats, pos, world)
    return pos[n, 0], pos[n, 1], pos[n, 2]


@njit(cache=True)
def _sample_section(lengths, hinge, table, counts, delta, cell, grid):
    """Every grid configuration's end effector, the cells of the meridian section (rows:
    distance from the x axis; columns: x) within ``delta`` of it marked."""
    n = lengths.shape[0]
    samples = 1
    for i in range(table.shape[0]):
        samples *= counts[i]
    quats, pos, world = np.empty((n, 4)), np.empty((n + 1, 3)), np.empty((n, 4))
    vals, origin = np.zeros(table.shape[0]), np.zeros(3)
    reach = int(math.ceil(delta / cell)) + 1
    half = 0.5 * grid.shape[1] * cell
    for s in range(samples):
        x, y, z = _tip(s, lengths, hinge, table, counts, vals, quats, pos, world, origin)
        rad, u = math.sqrt(y * y + z * z), x + half
        cr, cx = int(rad / cell), int(u / cell)
        for r in range(max(0, cr - reach), min(grid.shape[0], cr + reach + 1)):
            ny = min(max(rad, r * cell), (r + 1) * cell) - rad
            for c in range(max(0, cx - reach), min(grid.shape[1], cx + reach + 1)):
                nx = min(max(u, c * cell), (c + 1) * cell) - u  # to the cell's nearest point
                if nx * nx + ny * ny <= delta * delta:
                    grid[r, c] = 1


@njit(cache=True)
def _sample_cube(lengths, hinge, table, counts, delta, cell, grid):
    """Every grid configuration's end effector, the cells of the cube within ``delta`` of it
    marked."""
    n = lengths.shape[0]
    samples = 1
    for i in range(table.shape[0]):
        samples *= counts[i]
    quats, pos, world = np.empty((n, 4)), np.empty((n + 1, 3)), np.empty((n, 4))
    vals, origin = np.zeros(table.shape[0]), np.zeros(3)
    reach = int(math.ceil(delta / cell)) + 1
    g = grid.shape[0]
    half = 0.5 * g * cell
    for s in range(samples):
        x, y, z = _tip(s, lengths, hinge, table, counts, vals, quats, pos, world, origin)
        x, y, z = x + half, y + half, z + half
        ca, cb, cc = int(x / cell), int(y / cell), int(z / cell)
        for a in range(max(0, ca - reach), min(g, ca + reach + 1)):
            nx = min(max(x, a * cell), (a + 1) * cell) - x
            for b in range(max(0, cb - reach), min(g, cb + reach + 1)):
                ny = min(max(y, b * cell), (b + 1) * cell) - y
                for c in range(max(0, cc - reach), min(g, cc + reach + 1)):
                    nz = min(max(z, c * cell), (c + 1) * cell) - z
                    if nx * nx + ny * ny + nz * nz <= delta * delta:
                        grid[a, b, c] = 1
