"""The six canonical subproblems of geometric inverse kinematics, as compiled kernels.

Paden and Kahan's three (SP1-SP3) and the three IK-Geo adds (SP4-SP6; Elias and Wen, "IK-Geo:
Unified robot inverse kinematics using subproblem decomposition", 2022-2024). Each is an
intersection of circles, cones or spheres; an arm whose axes intersect or are parallel in the
right places is solved by a short composition of them (:mod:`geoik.solvers.analytic.families`).

``R(k, t)`` is the rotation by ``t`` radians about the unit axis ``k`` (right hand). Every
kernel takes plain float64 arrays and scalars (vectors (3,)), writes its solutions into an
``out`` array and returns ``(count, flags)``; it never raises and never writes NaN:

=====  ===================================================================  ==========
SP1    ``R(k, t) p1 = p2``                                                   1 solution
SP2    ``R(k1, t1) p1 = R(k2, t2) p2``                                       up to 2
SP3    ``|R(k, t) p1 - p2| = d``                                             up to 2
SP4    ``h . R(k, t) p = d``                                                 up to 2
SP5    ``p0 + R(k1, t1) p1 = R(k2, t2) (p2 + R(k3, t3) p3)``                 up to 4
SP6    ``h1 . R(k1, t1) p1 + h2 . R(k2, t2) p2 = d1`` and
       ``h3 . R(k3, t1) p3 + h4 . R(k4, t2) p4 = d2``                        up to 4
=====  ===================================================================  ==========

``flags`` is a bit set: :data:`LEAST_SQUARES` when the geometry has no exact answer and the
ones returned are least-squares (SP1: the closest ``R p1`` to ``p2``; SP2: the closest pair of
points of the two circles; SP3 and SP4: the angle minimising the equation's residual; SP5 and
SP6: the angle where the two conditions come closest to agreeing, see :func:`circles2`), and
:data:`DEGENERATE` when an angle is not determined (a zero vector, a point on the axis,
parallel axes of SP2: every angle, or every angle of a circle, solves alike) and one
representative is returned (the angle 0, or the angle the other conditions give).

Equations of the form ``a cos t + b sin t = c`` (SP3, SP4) are solved by one ``atan2`` and one
``acos``; SP5 and SP6 reduce to two such equations in two angles, i.e. a circle meeting a conic,
a quartic whose real roots are isolated by the roots of its derivatives (no eigenvalue solver,
no complex arithmetic) and then polished by Newton's method on the trigonometric form.

The folder: ``circle.py`` holds the flags and SP1-SP4 (a point's circle about one axis meeting a
point, a circle, a sphere or a plane, each solved in closed form; :func:`trig`), ``conic.py``
SP5 and SP6 (two coupled angles: :func:`circles2`, its quartic and that quartic's real roots).
Every name is re-exported here. May import :mod:`geoik.geometry` only.
"""

from __future__ import annotations

from geoik.solvers.analytic.subproblems.circle import (
    DEGENERATE,
    EXACT,
    LEAST_SQUARES,
    sp1,
    sp2,
    sp3,
    sp4,
    trig,
)
from geoik.solvers.analytic.subproblems.conic import circles2, sp5, sp6

__all__ = [
    "DEGENERATE",
    "EXACT",
    "LEAST_SQUARES",
    "circles2",
    "sp1",
    "sp2",
    "sp3",
    "sp4",
    "sp5",
    "sp6",
    "trig",
]
