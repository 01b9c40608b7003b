"""The ``geoik`` subcommands, one module each.

Each module ``geoik.commands.<name>`` exposes ``register(subparsers)``, which adds its parser and
sets ``handler`` (a function ``(argparse.Namespace) -> int``, the exit status) as a default.
:mod:`geoik.commands.cli` loads the modules named in its ``COMMANDS`` tuple; a new command is a
new module plus one entry there. Shared argument parsing (chains, points, limits, solver options)
lives in :mod:`geoik.commands._args`, with the flags as typed and errors re-spelled in
:mod:`geoik.commands._spelling` and the checks of output files in :mod:`geoik.commands._outputs`.
Only this folder prints.

May import every layer of the library (imported inside the handlers where it is heavy, so that
``geoik --help`` starts at once) and :mod:`geoik.viewer`; nothing in the library imports it.
"""
