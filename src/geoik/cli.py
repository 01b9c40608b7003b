"""The ``geoik`` command line: the one place (with :mod:`geoik.commands`) that prints.

Subcommands are modules of :mod:`geoik.commands`, named in :data:`COMMANDS`; each exposes
``register(subparsers)`` and sets a ``handler``. Every error a user can cause (a
:class:`geoik.GeoIKError`, a bad argument, an unreadable or unwritable file) ends as one line
``geoik: error: ...`` on stderr and exit status 2, never a traceback.
"""

from __future__ import annotations

import argparse
import importlib
import os
import re
import sys
from collections.abc import Sequence
from typing import NoReturn

from geoik import __version__
from geoik.errors import GeoIKError, UsageError

__all__ = ["COMMANDS", "build_parser", "main"]

COMMANDS = ("solve", "methods", "experiment", "view", "maps", "pose")
"""Modules of :mod:`geoik.commands`, in the order ``geoik --help`` lists them."""

PROG = "geoik"
EXIT_USAGE = 2

DESCRIPTION = """\
geoik: fast geometric inverse kinematics for joint chains in 2-D and 3-D.
Solve a target with one of several solvers (CCD, FABRIK, damped least squares, two-bone, ...),
read the seeds' costs of the motion, and plot what the solver did."""
EPILOG = """\
examples:
  geoik solve --lengths 2x10 --target 8.33,2.83 --method ccd
  geoik solve --lengths 2x10 --target 8.33,2.83 --method ccd --plot ccd.png
  geoik solve --lengths 3x4 --target 4,5,3 --max-bend-deg 60 --json
  geoik methods
  geoik map --lengths 1x5 --method ccd --max-iter 20 --tol 0.01 --size 1000 -o ccd.png
  geoik compare --lengths 1x5 --methods ccd,fabrik,caa -o compare.png
  geoik experiment all --out results/
  geoik view

'geoik COMMAND --help' explains each command."""

# a value that starts with a minus sign followed by a digit or a point: "-5,3", "-30:120"
_NEGATIVE_VALUE = re.compile(r"^-\.?\d")


class _Parser(argparse.ArgumentParser):
    """An ArgumentParser that raises instead of printing usage and exiting."""

    def error(self, message: str) -> NoReturn:
        raise UsageError(f"{message} (see '{self.prog} --help')")


def build_parser() -> argparse.ArgumentParser:
    """The full parser, one subparser per module in :data:`COMMANDS`."""
    parser = _Parser(
        prog=PROG,
        description=DESCRIPTION,
        epilog=EPILOG,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("--version", action="version", version=f"geoik {__version__}")
    sub = parser.add_subparsers(title="commands", dest="command", metavar="COMMAND")
    for name in COMMANDS:
        importlib.import_module(f"geoik.commands.{name}").register(sub)
    return parser


def join_negative_values(argv: Sequence[str]) -> list[str]:
    """``--target -5,3`` as ``--target=-5,3``: argparse would take ``-5,3`` for an option."""
    out: list[str] = []
    i = 0
    while i < len(argv):
        tok = argv[i]
        nxt = argv[i + 1] if i + 1 < len(argv) else None
        if tok.startswith("--") and "=" not in tok and nxt and _NEGATIVE_VALUE.match(nxt):
            out.append(f"{tok}={nxt}")
            i += 2
        else:
            out.append(tok)
            i += 1
    return out


def _fail(message: str) -> int:
    print(f"{PROG}: error: {message}", file=sys.stderr)
    return EXIT_USAGE


def main(argv: list[str] | None = None) -> int:
    """Run the command line; returns the exit status (0 success, 2 any error)."""
    args_list = join_negative_values(sys.argv[1:] if argv is None else argv)
    parser = build_parser()
    try:
        args = parser.parse_args(args_list)
        if args.command is None:
            return _fail(f"expected a command ({', '.join(COMMANDS)}); see 'geoik --help'")
        status = int(args.handler(args))
        sys.stdout.flush()  # a closed pipe shows here, inside the handlers below
        return status
    except SystemExit as e:  # --help and --version
        return e.code if isinstance(e.code, int) else 0
    except (UsageError, GeoIKError) as e:
        return _fail(str(e))
    except BrokenPipeError:
        # the reader went away (``geoik solve ... | head``): stop quietly, and keep Python from
        # reporting the failed flush of stdout at exit
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 1
    except OSError as e:
        where = f" {e.filename}" if e.filename else ""
        return _fail(f"cannot access{where}: {e.strerror or e}")
    except KeyboardInterrupt:
        print(f"{PROG}: interrupted", file=sys.stderr)
        return 130


if __name__ == "__main__":
    sys.exit(main())
