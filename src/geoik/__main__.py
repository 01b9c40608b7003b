"""``python -m geoik``: the same command line as the ``geoik`` script."""

import sys

from geoik.commands.cli import main

sys.exit(main())
