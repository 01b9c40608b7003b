"""``python -m geoik``: the same command line as the ``geoik`` script."""

import sys

from geoik.cli import main

sys.exit(main())
