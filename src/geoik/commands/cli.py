"""The ``geoik`` command line: the one place (with :mod:`geoik.commands`) that prints.

Subcommands are registered by the modules of :mod:`geoik.commands` named in :data:`COMMANDS`;
each exposes ``register(subparsers)`` and sets a ``handler``. The modules import only what their
parsers need; heavy modules are imported by the handlers, so ``geoik solve`` starts without
matplotlib, Dask or the viewer's server. Every error a user can cause (a
:class:`geoik.GeoIKError`, a bad argument, an unreadable or unwritable file) ends as one line
``geoik: error: ...`` on stderr and exit status 2, never a traceback.
"""

from __future__ import annotations

import argparse
import atexit
import contextlib
import difflib
import importlib
import os
import re
import signal
import sys
import threading
from argparse import SUPPRESS
from collections.abc import Iterator, Sequence
from typing import Any, NoReturn

from geoik import __version__
from geoik.commands._progress import compile_notice
from geoik.errors import GeoIKError, UsageError

__all__ = ["COMMANDS", "build_parser", "command_names", "main", "run", "subparsers"]

COMMANDS = ("solve", "methods", "maps", "pose", "experiment", "view")
"""Modules of :mod:`geoik.commands`, in the order ``geoik --help`` lists their commands; a
module may register several (``maps``: ``map``, ``compare`` and ``sweep``), so the commands
themselves are :func:`command_names`."""

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
    """An ArgumentParser that takes no abbreviations (``--meth`` is not ``--method``) and
    raises instead of printing usage and exiting; its messages start with the option. An
    unknown option is reported before anything it may have caused (``compare --method ccd``:
    ``--method`` is unknown, rather than ``--methods`` missing)."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        kwargs["allow_abbrev"] = False
        super().__init__(*args, **kwargs)
        self._argv: list[str] = []

    def parse_known_args(self, args: Any = None, namespace: Any = None) -> Any:
        self._argv = list(args or ())
        return super().parse_known_args(args, namespace)

    def error(self, message: str) -> NoReturn:
        if not subparsers(self):  # a command's parser: all its options are known here
            unknown = [a for a in self._argv if self._is_unknown_option(a)]
            if unknown:
                raise UsageError(_unknown(self, unknown))
        raise UsageError(f"{_option_first(message)} (see '{self.prog} --help')")

    def _is_unknown_option(self, arg: str) -> bool:
        return (
            len(arg) > 1
            and arg[0] in self.prefix_chars
            and arg.split("=", 1)[0] not in self._option_string_actions
            and not self._negative_number_matcher.match(arg)
        )


def _option_first(message: str) -> str:
    """argparse's message rephrased to start with the option it is about."""
    m = re.fullmatch(r"argument (\S+): (.*)", message, re.DOTALL)
    if m:
        flag, rest = m[1], m[2]
        choice = re.fullmatch(r"invalid choice: (.*) \(choose from (.*)\)", rest)
        if choice:
            options = choice[2].replace("'", "")
            if flag == "COMMAND":
                return f"expected a command ({options}), got {choice[1]}"
            return f"{flag}: expected one of {options}, got {choice[1]}"
        return f"{flag}: {rest.replace('not allowed with argument ', 'not allowed with ')}"
    m = re.fullmatch(r"the following arguments are required: (.*)", message)
    if m:
        return f"{m[1]}: required"
    m = re.fullmatch(r"one of the arguments (.*) is required", message)
    if m:
        return f"{' or '.join(m[1].split())}: one of them is required"
    return message


def build_parser() -> argparse.ArgumentParser:
    """The full parser, one subparser per command the modules in :data:`COMMANDS` register.

    Building it imports only the command modules, which import nothing heavy (matplotlib,
    Dask, the viewer's server, the batch engine): their handlers do, when they run."""
    parser = _Parser(
        prog=PROG,
        description=DESCRIPTION,
        epilog=EPILOG,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("--version", action="version", version=f"geoik {__version__}")
    sub = parser.add_subparsers(
        title="commands", dest="command", metavar="COMMAND", parser_class=_Parser
    )
    for name in COMMANDS:
        importlib.import_module(f"geoik.commands.{name}").register(sub)
    return parser


def subparsers(parser: argparse.ArgumentParser) -> dict[str, argparse.ArgumentParser]:
    """The parser of each registered command, by name, in the order ``geoik --help`` lists
    them."""
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            return dict(action.choices)
    return {}


def command_names(parser: argparse.ArgumentParser | None = None) -> list[str]:
    """Every command ``parser`` (default: :func:`build_parser`'s) knows."""
    return list(subparsers(parser if parser is not None else build_parser()))


def _unknown(parser: argparse.ArgumentParser, extras: list[str]) -> str:
    """The usage error for arguments ``parser`` does not take: the first unknown option, and
    the option it may have meant (an abbreviation or a near miss)."""
    known = sorted(s for a in parser._actions for s in a.option_strings if a.help != SUPPRESS)
    see = f"(see '{parser.prog} --help')"
    flags = [e.split("=", 1)[0] for e in extras if e.startswith("-")]
    if not flags:
        return f"unexpected argument {extras[0]!r} {see}"
    flag = flags[0]
    guess = [k for k in known if k.startswith(flag)] or difflib.get_close_matches(flag, known, 1)
    hint = f"; did you mean {' or '.join(guess)}?" if guess else ""
    return f"{flag}: unknown option of '{parser.prog}'{hint} {see}"


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
    """Run the command line; returns the exit status (0 success, 2 any error, 130 Ctrl-C)."""
    with _interrupts() as interrupted:
        try:
            return _main(argv)
        except Exception:
            # Ctrl-C inside an extension module's import (NumPy's, numba's) can surface as
            # another error, an ImportError; it is still the user's Ctrl-C
            if not interrupted:
                raise
            print(f"{PROG}: interrupted", file=sys.stderr)
            return 130


def run() -> NoReturn:
    """The ``geoik`` script and ``python -m geoik``: :func:`main`, then the process's exit.

    Once the command is done, the exit handlers run and the output is flushed as at any exit,
    then the process ends without Python's teardown of every module, which frees numba's
    compiled functions and matplotlib's objects one by one (0.1-0.3 s after a command that
    compiled or drew, a tenth of a warm ``geoik compare``). The batch engines' idle threads are
    ended first; where another thread than this one still runs (and is no daemon), or the
    output cannot be flushed, Python exits as usual."""
    status = main()
    try:
        quick = _leave_quickly()
    except KeyboardInterrupt:  # a Ctrl-C while the process ends: it ends, and says so once
        if status != 130:
            print(f"{PROG}: interrupted", file=sys.stderr, flush=True)
        os._exit(130)
    if not quick:
        sys.exit(status)
    os._exit(status)


def _leave_quickly() -> bool:
    """:func:`run`'s last steps before the process ends: the batch engines' idle threads ended,
    then, unless another thread still runs, the exit handlers run and the output flushed.
    Returns whether the process may now end without Python's teardown."""
    engines = sys.modules.get("geoik.batch.parallel")
    if engines is not None:  # its threads wait idle for a next run: none will come
        engines.end_threads()
    run_exit_handlers = getattr(atexit, "_run_exitfuncs", None)
    others = [t for t in threading.enumerate() if t is not threading.main_thread()]
    if run_exit_handlers is None or not all(t.daemon for t in others):
        return False
    run_exit_handlers()
    try:
        sys.stdout.flush()
        sys.stderr.flush()
    except (OSError, ValueError, AttributeError):  # a closed stream, or none: as usual
        return False
    return True


@contextlib.contextmanager
def _interrupts() -> Iterator[list[bool]]:
    """Note a Ctrl-C (SIGINT) in the yielded list, raising KeyboardInterrupt as Python does."""
    seen: list[bool] = []
    if (
        threading.current_thread() is not threading.main_thread()
        or signal.getsignal(signal.SIGINT) is signal.SIG_IGN  # as a background job: keep so
    ):
        yield seen
        return

    def handler(signum: int, frame: Any) -> None:
        seen.append(True)
        if _in_native_callback(frame):
            # raised here, inside a callback from C (llvmlite's while numba compiles, numba's
            # typing of a compiled function passed to a kernel), Python would print it as
            # ignored, or C code would clear it, and go on: raise it once the callback returned
            signal.setitimer(signal.ITIMER_REAL, 0.02)
            return
        raise KeyboardInterrupt

    def again(signum: int, frame: Any) -> None:
        if seen:
            handler(signum, frame)

    previous = signal.signal(signal.SIGINT, handler)
    previous_alarm = signal.signal(signal.SIGALRM, again)
    try:
        yield seen
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous_alarm)
        signal.signal(signal.SIGINT, previous)


def _in_native_callback(frame: Any) -> bool:
    """Whether Python code called back from C code that would lose an exception raised in it is
    running: llvmlite's (numba compiling), or the reading of a compiled function's
    ``_numba_type_`` by numba's C dispatcher, which types a compiled function passed to a
    kernel (the batch engines pass a solver's kernel) on each call through
    ``PyObject_HasAttr``, and that clears any exception raised inside; or a callback whose
    exception Python prints as ignored and goes on: a ``__del__``, or the weak reference
    callback by which the import system drops a module's lock (run whenever a lock is freed,
    while any module imports)."""
    while frame is not None:
        code = frame.f_code
        if f"{os.sep}llvmlite{os.sep}" in code.co_filename:
            return True
        if code.co_name == "_numba_type_" and f"{os.sep}numba{os.sep}" in code.co_filename:
            return True
        if code.co_name == "__del__":
            return True
        if code.co_name == "cb" and code.co_filename == "<frozen importlib._bootstrap>":
            return True
        frame = frame.f_back
    return False


def _main(argv: list[str] | None) -> int:
    args_list = join_negative_values(sys.argv[1:] if argv is None else argv)
    try:
        parser = build_parser()
        args, extras = parser.parse_known_args(args_list)
        if extras:
            command = subparsers(parser).get(args.command or "", parser)
            raise UsageError(_unknown(command, extras))
        if args.command is None:
            names = ", ".join(command_names(parser))
            return _fail(f"expected a command ({names}); see 'geoik --help'")
        with compile_notice(f"{PROG} {args.command}"):
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
    run()
