"""Robots: the general joint model, as URDF describes real arms and hands.

A :class:`Robot` is a tree of actuated joints hanging from a fixed base. Each joint is a fixed
transform from its parent joint's frame (the URDF ``origin``: translation in metres and a
rotation; fixed joints in between folded in) followed by a motion about or along its unit axis:
revolute (an angle within limits), continuous (an angle without limits) or prismatic (a
distance within limits). Tips are frames fixed to a joint's frame (the links one wants to move:
a tool flange, a fingertip). One tip makes a serial arm that :func:`geoik.solve` moves, several
make a tree that :func:`geoik.solve_tree` moves; :func:`geoik.load_urdf` builds either from a
URDF file.

Joint values (``angles`` throughout geoik) are radians for revolute and continuous joints and
metres for prismatic ones, in the order of :attr:`Robot.joint_names` (each joint after its
parent, so from the base to the tip for one tip), as a URDF tool takes them. Every position and
frame is in the base link's frame. See :mod:`geoik.kinematics` for the kernels.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from geoik.checks import check_array, check_ints, check_names, check_rotations
from geoik.errors import InvalidChainError, InvalidPoseError, describe
from geoik.jit import KernelModel, call
from geoik.kinematics import KIND_NAMES, fk_robot, pose_errors, robot_pose, slides, wraps
from geoik.robots.motion import RobotMotion
from geoik.robots.poe import SerialPOE, serial_poe
from geoik.solvers.analytic.decompose import Plan, decompose

__all__ = ["Robot"]

_LIMIT_SLACK = 1e-9
_UNIT_TOL = 1e-9
_NO_ORIENTATION = np.eye(3)
"""The orientation :meth:`Robot.pose_errors` measures from when none is asked for (its angle
unused)."""


@dataclass(frozen=True, eq=False)
class Robot(KernelModel):
    """A general joint model: a tree of actuated joints and the tips fixed to them; frozen.

    Usually made by :func:`geoik.load_urdf`. ``m`` joints, ``k`` tips; lengths in metres (or
    the URDF's unit), angles in radians.

    Attributes
    ----------
    joint_names : (m,) actuated joints, each after its parent.
    kinds : (m,) joint types: ``"revolute"``, ``"continuous"`` or ``"prismatic"``.
    parents : (m,) parent joint index of each joint, -1 for a joint hanging from the base;
        ``parents[j] < j``.
    origin_xyz : (m, 3) translation of each joint's frame in its parent joint's frame.
    origin_rot : (m, 3, 3) rotation of each joint's frame in its parent joint's frame.
    axes : (m, 3) unit axis of each joint in its own frame.
    lo, hi : (m,) joint limits (radians, or metres for prismatic joints); -inf and inf for a
        continuous joint.
    tip_names : (k,) names of the tips (URDF links).
    tip_parents : (k,) the joint each tip is fixed to.
    tip_xyz : (k, 3) translation of each tip in its joint's frame.
    tip_rot : (k, 3, 3) rotation of each tip in its joint's frame.
    base_name : name of the base (the URDF link the model starts from).
    name : the robot's name.

    Raises
    ------
    InvalidChainError
        On arrays of the wrong shape, non-finite values, unknown joint types, parents out of
        order, axes that are not unit vectors, rotations that are not rotation matrices,
        limits with ``lo > hi``, tips with no joint to move them, duplicate names.
    """

    joint_names: tuple[str, ...]
    kinds: tuple[str, ...]
    parents: np.ndarray
    origin_xyz: np.ndarray
    origin_rot: np.ndarray
    axes: np.ndarray
    lo: np.ndarray
    hi: np.ndarray
    tip_names: tuple[str, ...]
    tip_parents: np.ndarray
    tip_xyz: np.ndarray
    tip_rot: np.ndarray
    base_name: str = "base"
    name: str = "robot"
    _cache: dict[str, Any] = field(default_factory=dict, repr=False, compare=False)
    n: int = field(init=False, repr=False, compare=False)
    """Number of actuated joints (``m``)."""
    dim: int = field(init=False, repr=False, compare=False)
    """Always 3."""
    kind_codes: np.ndarray = field(init=False, repr=False, compare=False)
    """(m,) joint types as the kernels' codes (:mod:`geoik.kinematics`)."""
    slides: np.ndarray = field(init=False, repr=False, compare=False)
    """(m,) bool: which joints slide (prismatic, metres); the others turn (radians)."""
    wraps: np.ndarray = field(init=False, repr=False, compare=False)
    """(m,) bool: which joints turn without limits (continuous; angles in (-pi, pi])."""
    on_path: np.ndarray = field(init=False, repr=False, compare=False)
    """(k, m) whether joint ``j`` lies on the path from the base to tip ``i``."""
    total_length: float = field(init=False, repr=False, compare=False)
    """The model's size: the longest path from the base to a tip, as the sum of the distances
    between consecutive joint origins (plus the prismatic joints' largest travel)."""
    kernel_arrays: tuple[np.ndarray, ...] = field(init=False, repr=False, compare=False)
    """The model as the general kernels take it: ``(parents, kinds, origin_xyz, origin_rot,
    axes, lo, hi, tip_parents, tip_xyz, tip_rot, on_path)``."""

    def __post_init__(self) -> None:
        joints = _checked_joints(self)
        tips = _checked_tips(self, len(joints["joint_names"]))
        on_path = _tip_paths(tips["tip_parents"], joints["parents"])
        fields = {
            **joints,
            **tips,
            "on_path": on_path,
            "n": len(joints["joint_names"]),
            "dim": 3,
            "total_length": _robot_size(joints, tips, on_path),
        }
        for key, value in fields.items():
            if isinstance(value, np.ndarray):
                value.setflags(write=False)
            object.__setattr__(self, key, value)
        object.__setattr__(
            self,
            "kernel_arrays",
            tuple(
                fields[key]
                for key in (
                    "parents",
                    "kind_codes",
                    "origin_xyz",
                    "origin_rot",
                    "axes",
                    "lo",
                    "hi",
                    "tip_parents",
                    "tip_xyz",
                    "tip_rot",
                    "on_path",
                )
            ),
        )

    # ------------------------------------------------------------------ queries
    @property
    def k(self) -> int:
        """Number of tips."""
        return len(self.tip_names)

    @property
    def is_limited(self) -> bool:
        """True if any joint has limits (every revolute and prismatic joint has)."""
        return not bool(np.all(self.wraps))

    def tip_index(self, tip: str) -> int:
        """Index of the tip called ``tip``; InvalidTargetError-free lookups use this."""
        try:
            return self.tip_names.index(tip)
        except ValueError:
            raise InvalidChainError(
                f"expected one of the robot's tips ({', '.join(self.tip_names)}), got "
                f"{describe(tip)}",
                argument="tip",
            ) from None

    def path(self, tip: str) -> np.ndarray:
        """Indices of the joints from the base to ``tip``, base first."""
        return np.flatnonzero(self.on_path[self.tip_index(tip)])

    def __repr__(self) -> str:
        """Its name, joints and tips in one line (the arrays are its attributes), e.g.
        ``Robot(name='ur5', joints=6, tip_names=('tool0',), base_name='world')``: the line a
        solution or a set of solutions shows for its robot."""
        return (
            f"Robot(name={self.name!r}, joints={self.n}, tip_names={self.tip_names!r}, "
            f"base_name={self.base_name!r})"
        )

    def describe(self) -> str:
        """One line for titles and reports, e.g. ``robot panda: 7 joints, tip panda_hand``."""
        tips = ", ".join(self.tip_names)
        word = "tip" if self.k == 1 else "tips"
        return f"robot {self.name}: {self.n} joints, {word} {tips}"

    def with_tips(self, tips: str | Sequence[str]) -> Robot:
        """The same robot with only the tips ``tips`` (a name or a sequence of names) and the
        joints on their paths from the base (in the same order)."""
        wanted = [tips] if isinstance(tips, str) else list(tips)
        if not wanted:
            raise InvalidChainError("expected at least one tip name, got none", argument="tips")
        rows = [self.tip_index(t) for t in wanted]
        keep = np.flatnonzero(self.on_path[rows].any(axis=0))
        new = {int(j): i for i, j in enumerate(keep)}
        parents = np.array([-1 if self.parents[j] < 0 else new[int(self.parents[j])] for j in keep])
        return Robot(
            tuple(self.joint_names[j] for j in keep),
            tuple(self.kinds[j] for j in keep),
            parents,
            self.origin_xyz[keep],
            self.origin_rot[keep],
            self.axes[keep],
            self.lo[keep],
            self.hi[keep],
            tuple(wanted),
            np.array([new[int(self.tip_parents[i])] for i in rows]),
            self.tip_xyz[rows],
            self.tip_rot[rows],
            self.base_name,
            self.name,
        )

    @classmethod
    def from_poe(
        cls,
        H: Any,
        P: Any,
        R_tip: Any = None,
        lo: Any = None,
        hi: Any = None,
        joint_names: Sequence[str] | None = None,
        tip_name: str = "tip",
        name: str = "robot",
    ) -> Robot:
        """A serial arm of revolute joints from its product-of-exponentials form, as IK-Geo and
        EAIK take an arm: ``p(q) = P_0 + R_1 P_1 + ... + R_1 ... R_n P_n`` and ``R(q) = R_1
        ... R_n R_tip``, ``R_i`` the turn by ``q[i]`` about ``H[i]``.

        Parameters
        ----------
        H : (n, 3) unit joint axes at the zero configuration, base frame.
        P : (n + 1, 3) offsets (metres): base to the first joint's axis, joint to joint, the
            last joint to the tip, at the zero configuration, base frame.
        R_tip : (3, 3) the tip's rotation at the zero configuration (default the identity).
        lo, hi : (n,) joint limits (radians); default none (continuous joints).
        joint_names : n names (default ``joint1`` .. ``jointn``); ``tip_name``, ``name``: the
            tip's and the robot's names.

        Returns one tip's arm; ``robot.poe()`` gives ``H``, ``P`` and ``R_tip`` back. Raises
        :class:`~geoik.InvalidChainError` on arrays of the wrong shape or not finite, axes not
        of unit length, an ``R_tip`` that is no rotation, limits with ``lo > hi``. See
        :mod:`geoik.robots.params`."""
        from geoik.robots.params import poe_fields

        return cls(**poe_fields(H, P, R_tip, (lo, hi), (joint_names, tip_name, name)))

    @classmethod
    def from_dh(
        cls,
        a: Any,
        alpha: Any,
        d: Any,
        theta: Any = None,
        modified: bool = False,
        tool: Any = None,
        lo: Any = None,
        hi: Any = None,
        joint_names: Sequence[str] | None = None,
        tip_name: str = "tip",
        name: str = "robot",
    ) -> Robot:
        """A serial arm of revolute joints from its Denavit-Hartenberg table: each link
        ``Rz(theta_i + q_i) Tz(d_i) Tx(a_i) Rx(alpha_i)`` (classic), or with ``modified``
        Craig's ``Rx(alpha_{i-1}) Tx(a_{i-1}) Rz(theta_i + q_i) Tz(d_i)``, row ``i`` holding
        ``a_{i-1}`` and ``alpha_{i-1}`` as Craig's tables do.

        Parameters
        ----------
        a, alpha, d : (n,) link lengths (metres), twists (radians), offsets along the joint
            axes (metres).
        theta : (n,) the joint angles' offsets (radians); default zeros.
        modified : Craig's (proximal) convention rather than the classic (distal) one.
        tool : (4, 4) the tip's fixed transform from the last link's frame (a flange to a tool
            centre point); default the identity.
        lo, hi : (n,) joint limits (radians, of ``q``); default none (continuous joints).
        joint_names, tip_name, name : as :meth:`from_poe`.

        Returns one tip's arm in the table's frame 0. Raises
        :class:`~geoik.InvalidChainError` on columns of different lengths or not finite, a
        ``tool`` that is no rigid transform, limits with ``lo > hi``. See
        :mod:`geoik.robots.params`."""
        from geoik.robots.params import dh_fields

        table = (a, alpha, d, theta)
        return cls(**dh_fields(table, modified, tool, (lo, hi), (joint_names, tip_name, name)))

    def poe(self, tip: str | None = None) -> SerialPOE:
        """The chain from the base to ``tip`` (default: the only tip) in product-of-exponentials
        form: joint axes ``H`` (n, 3) and offsets ``P`` (n + 1, 3) at the zero configuration in
        the base frame, the tip's rotation there, the joints' kinds and limits (cached; see
        :mod:`geoik.robots.poe`)."""
        i = self._one_tip(tip)
        key = f"poe {i}"
        cached = self._cache.get(key)
        if cached is None:
            cached = self._cache[key] = serial_poe(self, i)
        return cached

    @property
    def family(self) -> str:
        """The arm's kinematic family in words, as the analytic solver decomposes it (one tip),
        e.g. ``"6R: three parallel axes (2, 3, 4), axes 5 and 6 intersect: closed form, up to
        8 solutions"``; see :mod:`geoik.solvers.analytic.decompose`."""
        if self.k != 1:
            return f"{self.k} tips: a tree, no serial family"
        return self.analytic_plan().family

    def analytic_plan(self) -> Plan:
        """The analytic solver's plan of the arm (one tip; cached): its family, and the chain as
        the family's kernel takes it (:func:`geoik.solvers.analytic.decompose`)."""
        plan = self._cache.get("analytic plan")
        if plan is None:
            poe = self.poe()
            # through call(): a direct call would set numba's compiler up (0.2-0.3 s) in a
            # process that has not run a compiled kernel yet
            revolute = not any(call(slides, k) for k in poe.kinds.tolist())
            plan = self._cache["analytic plan"] = decompose(poe.H, poe.P, poe.R_tip, revolute)
        return plan

    # ------------------------------------------------------------------ poses
    def rest_angles(self) -> np.ndarray:
        """The rest configuration: every joint at 0, or at its nearer limit when its limits
        exclude 0 (a URDF's zero configuration, held inside the limits)."""
        return self._rest_shared().copy()

    def _rest_shared(self) -> np.ndarray:
        """:meth:`rest_angles` without the copy: the robot's own cached array, for solves that
        only read their start (writable, so that kernels take it with the type of any start)."""
        cached = self._cache.get("rest")
        if cached is None:
            cached = self._cache["rest"] = np.clip(np.zeros(self.n), self.lo, self.hi)
        return cached

    def check_angles(self, angles: Any, name: str = "angles", limits: bool = True) -> np.ndarray:
        """``angles`` as a fresh (m,) float64 array of finite joint values, within the joint
        limits (to 1e-9) when ``limits``; InvalidPoseError naming ``name`` otherwise."""
        try:
            a = np.array(angles, dtype=np.float64)
        except (TypeError, ValueError):
            a = np.zeros(0)
        if a.shape != (self.n,) or not np.all(np.isfinite(a)):
            raise InvalidPoseError(
                f"expected {self.n} finite joint values (radians; metres for prismatic joints) in "
                f"the order of joint_names, got {describe(angles)}",
                argument=name,
            )
        if limits:
            bad = np.flatnonzero((a < self.lo - _LIMIT_SLACK) | (a > self.hi + _LIMIT_SLACK))
            if bad.size:
                j = int(bad[0])
                raise InvalidPoseError(
                    f"joint {self.joint_names[j]!r} at {a[j]:.9g} is outside its "
                    f"limits [{self.lo[j]:.9g}, {self.hi[j]:.9g}]",
                    argument=f"{name}[{j}]",
                )
            np.clip(a, self.lo, self.hi, out=a)
        return a

    def random_angles(self, rng: np.random.Generator, count: int | None = None) -> np.ndarray:
        """Joint values drawn uniformly within the limits (continuous joints in [-pi, pi]):
        (m,) or (count, m)."""
        lo = np.where(np.isfinite(self.lo), self.lo, -math.pi)
        hi = np.where(np.isfinite(self.hi), self.hi, math.pi)
        shape = (self.n,) if count is None else (count, self.n)
        return rng.uniform(lo, hi, size=shape)

    def frames(self, angles: Any) -> tuple[np.ndarray, np.ndarray]:
        """Forward kinematics of every joint.

        Returns ``(rot, pos)``: (m, 3, 3) and (m, 3), each joint's frame after its motion, in
        the base frame.
        """
        q = self.check_angles(angles, limits=False)
        rot, pos = self._fk(q)[:2]
        return rot, pos

    def tip_frames(self, angles: Any) -> np.ndarray:
        """Forward kinematics of the tips: (k, 4, 4) homogeneous transforms (rotation and
        translation, metres) of every tip in the base frame, in the order of ``tip_names``."""
        q = self.check_angles(angles, limits=False)
        _, _, _, _, trot, tpos = self._fk(q)
        out = np.zeros((self.k, 4, 4))
        out[:, :3, :3] = trot
        out[:, :3, 3] = tpos
        out[:, 3, 3] = 1.0
        return out

    def tip_frame(self, angles: Any, tip: str | None = None) -> np.ndarray:
        """(4, 4) homogeneous transform of one tip (default: the only one) in the base frame."""
        i = self._one_tip(tip)
        return self.tip_frames(angles)[i]

    def joint_positions(self, angles: Any) -> np.ndarray:
        """(m + 2, 3) points to draw the robot by: the base, every joint's origin (before its
        motion; each prismatic joint's frame after it), and the tip (one-tip robots; else the
        first tip)."""
        q = self.check_angles(angles, limits=False)
        return self.pose_of(q)[0]

    def pose_of(self, q: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """(:meth:`joint_positions`, the first tip's (4, 4) frame) of checked joint values
        ``q``, from one forward kinematics (what a solve reports)."""
        pts = np.empty((self.n + 2, 3))
        frame = np.empty((4, 4))
        call(robot_pose, self.kernel_arrays, self.slides, q, pts, frame)
        return pts, frame

    def _motion_between(self, start: np.ndarray, end: np.ndarray) -> RobotMotion:
        """The recorded motion of a one-step solve: two keyframes, joint values ``start`` and
        ``end`` (n,) (copied)."""
        keys = np.empty((2, self.n))
        keys[0], keys[1] = start, end
        return RobotMotion.fast(self, keys)  # type: ignore[arg-type, return-value]

    def pose_errors(
        self, q: np.ndarray, target: np.ndarray, orientation: np.ndarray | None
    ) -> tuple[np.ndarray, np.ndarray, float, float | None]:
        """:meth:`pose_of` of checked joint values ``q``, with the first tip's distance (metres)
        from ``target`` (3,) and its angle (radians) from ``orientation`` (3, 3; None: no
        angle), from one compiled call (what a solve reports)."""
        pts = np.empty((self.n + 2, 3))
        frame = np.empty((4, 4))
        goal = _NO_ORIENTATION if orientation is None else orientation
        error, angle = call(
            pose_errors, self.kernel_arrays, self.slides, q, target, goal, pts, frame
        )
        return pts, frame, error, None if orientation is None else angle

    def _one_tip(self, tip: str | None) -> int:
        if tip is not None:
            return self.tip_index(tip)
        if self.k != 1:
            raise InvalidChainError(
                f"expected one of the robot's tips ({', '.join(self.tip_names)}), since it has "
                f"{self.k}, got None",
                argument="tip",
            )
        return 0

    def _fk(self, q: np.ndarray) -> tuple[np.ndarray, ...]:
        m, k = self.n, self.k
        rot, pos = np.empty((m, 3, 3)), np.empty((m, 3))
        origins, world_axes = np.empty((m, 3)), np.empty((m, 3))
        trot, tpos = np.empty((k, 3, 3)), np.empty((k, 3))
        call(fk_robot, self.kernel_arrays, q, rot, pos, origins, world_axes, trot, tpos)
        return rot, pos, origins, world_axes, trot, tpos


def _checked_joints(robot: Robot) -> dict[str, Any]:
    """The joint fields of ``robot`` as given, checked and converted.

    Parameters
    ----------
    robot : Robot
        A robot under construction (its fields as the caller gave them).

    Returns
    -------
    dict
        ``joint_names, kinds`` (m,) tuples, ``parents`` (m,) int64, ``origin_xyz`` (m, 3),
        ``origin_rot`` (m, 3, 3), ``axes`` (m, 3) unit vectors, ``lo, hi`` (m,) radians or
        metres (-inf, inf for continuous joints), ``kind_codes`` (m,) int64 and the (m,) bool
        masks ``slides`` and ``wraps``.

    Raises
    ------
    InvalidChainError
        About the first field that is not as expected.
    """
    names = check_names(robot.joint_names, "joint_names", allow_empty=False)
    m = len(names)
    kinds = tuple(robot.kinds)
    if len(kinds) != m or any(k not in KIND_NAMES for k in kinds):
        raise InvalidChainError(
            f"expected {m} of {', '.join(KIND_NAMES)}, got {describe(robot.kinds)}",
            argument="kinds",
        )
    codes = np.array([KIND_NAMES.index(k) for k in kinds], dtype=np.int64)
    parents = check_ints(robot.parents, m, "parents")
    for j, p in enumerate(parents):
        if not -1 <= p < j:
            raise InvalidChainError(
                f"expected -1 (the base) or an earlier joint (0..{j - 1}), got {p}",
                argument=f"parents[{j}]",
            )
    xyz = check_array(robot.origin_xyz, (m, 3), "origin_xyz")
    rot = check_rotations(robot.origin_rot, m, "origin_rot")
    axes = check_array(robot.axes, (m, 3), "axes")
    bad = np.flatnonzero(np.abs(np.linalg.norm(axes, axis=1) - 1.0) > _UNIT_TOL)
    if bad.size:
        j = int(bad[0])
        raise InvalidChainError(
            f"expected a unit vector, got {axes[j].tolist()}", argument=f"axes[{j}]"
        )
    lo = check_array(robot.lo, (m,), "lo", finite=False)
    hi = check_array(robot.hi, (m,), "hi", finite=False)
    slide = np.array([call(slides, c) for c in codes.tolist()], dtype=np.bool_)
    wrap = np.array([call(wraps, c) for c in codes.tolist()], dtype=np.bool_)
    for j in range(m):
        if wrap[j]:
            lo[j], hi[j] = -np.inf, np.inf
        elif not (math.isfinite(lo[j]) and math.isfinite(hi[j]) and lo[j] <= hi[j]):
            raise InvalidChainError(
                f"expected finite limits lo <= hi for the {kinds[j]} joint "
                f"{names[j]!r}, got {lo[j]!r}, {hi[j]!r}",
                argument=f"lo[{j}], hi[{j}]",
            )
    return {
        "joint_names": names,
        "kinds": kinds,
        "parents": parents,
        "origin_xyz": xyz,
        "origin_rot": rot,
        "axes": axes,
        "lo": lo,
        "hi": hi,
        "kind_codes": codes,
        "slides": slide,
        "wraps": wrap,
    }


def _checked_tips(robot: Robot, m: int) -> dict[str, Any]:
    """The tip fields of ``robot`` as given, checked against its ``m`` joints.

    Returns
    -------
    dict
        ``tip_names`` (k,) tuple, ``tip_parents`` (k,) int64 joint indices, ``tip_xyz`` (k, 3)
        and ``tip_rot`` (k, 3, 3), each tip's place in its joint's frame.
    """
    tips = check_names(robot.tip_names, "tip_names", allow_empty=False)
    k = len(tips)
    tip_parents = check_ints(robot.tip_parents, k, "tip_parents")
    for i, p in enumerate(tip_parents):
        if not 0 <= p < m:
            raise InvalidChainError(
                f"expected the index of the joint that moves tip {tips[i]!r} (0..{m - 1}), got {p}",
                argument=f"tip_parents[{i}]",
            )
    return {
        "tip_names": tips,
        "tip_parents": tip_parents,
        "tip_xyz": check_array(robot.tip_xyz, (k, 3), "tip_xyz"),
        "tip_rot": check_rotations(robot.tip_rot, k, "tip_rot"),
    }


def _tip_paths(tip_parents: np.ndarray, parents: np.ndarray) -> np.ndarray:
    """(k, m) bool: which joints lie between the base and each tip (``tip_parents (k,)``,
    ``parents (m,)`` as in :class:`Robot`)."""
    on_path = np.zeros((len(tip_parents), len(parents)), dtype=np.bool_)
    for i, p in enumerate(tip_parents):
        j = int(p)
        while j >= 0:
            on_path[i, j] = True
            j = int(parents[j])
    return on_path


def _robot_size(joints: dict[str, Any], tips: dict[str, Any], on_path: np.ndarray) -> float:
    """The longest reach from the base to a tip (metres): the offsets and prismatic travel of
    the joints on its path (``on_path (k, m)``), plus the tip's own offset.

    Raises
    ------
    InvalidChainError
        When it is zero: no tip can move.
    """
    slide, lo, hi = joints["slides"], joints["lo"], joints["hi"]
    travel = np.where(slide, np.maximum(np.abs(lo), np.abs(hi)), 0.0)
    reach = np.linalg.norm(joints["origin_xyz"], axis=1) + travel
    tip_xyz = tips["tip_xyz"]
    size = max(
        float(reach[on_path[i]].sum() + np.linalg.norm(tip_xyz[i])) for i in range(len(tip_xyz))
    )
    if size == 0.0:  # no tolerance or reach can be scaled by it, and no tip can move
        raise InvalidChainError(
            "expected a robot of some size, got every joint and tip at the base (no offsets, "
            "no prismatic travel): its tips cannot move",
            argument="origin_xyz, tip_xyz",
        )
    return size
