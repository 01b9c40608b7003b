"""``python -m geoik``: the same command line as the ``geoik`` script."""

from geoik.commands.cli import run

run()
