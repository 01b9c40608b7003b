"""Robots: general joint models (URDF arms and hands) and how they are solved.

- :mod:`~geoik.robots.model`: :class:`~geoik.Robot`, a frozen tree of revolute, continuous and
  prismatic joints with tips fixed to them, its forward kinematics and limits;
- :mod:`~geoik.robots.urdf`: :func:`~geoik.load_urdf` and the bundled example robots; the joint
  model of a parsed file by :mod:`~geoik.robots.urdf_model`;
- :mod:`~geoik.robots.solve`: one tip or several, by the registry's general kernels, judged and
  wrapped in a :class:`~geoik.Solution`;
- :mod:`~geoik.robots.motion`: a robot's recorded motion and its costs;
- :mod:`~geoik.robots.analytic`: :func:`~geoik.solve_all`, every solution of an arm's pose, as a
  :class:`~geoik.SolutionSet` (:mod:`~geoik.robots.solution_set`).

May import the base and the model layers (``geoik.errors``, ``geoik.checks``, ``geoik.jit``,
``geoik.geometry``, ``geoik.kinematics``, ``geoik.motion``, ``geoik.solution``, ``geoik.judge``,
...) and :mod:`geoik.solvers`; never :mod:`geoik.rigs`, :mod:`geoik.api` or anything above them.
"""
