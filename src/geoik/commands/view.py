"""``geoik view``: serve the interactive viewer on this machine and open it in the browser."""

from __future__ import annotations

import argparse
import contextlib
import errno
import importlib.util
import socket
import sys
import webbrowser
from typing import Any

from geoik.commands._args import parse_int
from geoik.errors import ServerAddressError

HELP = "open the interactive viewer (a local web page driving the solvers)"
DESCRIPTION = """\
Serve the viewer, a web page that drives geoik's solvers live, and open it in the browser.

The 2-D panel: drag the target of a planar chain (mouse or touch), pick the solver, edit the
number of links, their lengths and joint limits; read the status, iterations, error, the costs
of the motion and the server's solve time; replay the recorded motion with the end-effector
trace; show the metric map of the chain and solver behind it; draw the minimum and maximum
safe zones and clamp the target to them.

The scenes of Srinivasan & John (2013), as 3-D models (orbit camera, a draggable target
handle) and in orthographic side, top and front views, solved by the server every frame: a
three-joint robot arm, a cyclist whose feet stay on the pedals, a hand closing on a ball
(solved as one tree).

A robot (--robot NAME, one of the example-robot-data models, or --urdf FILE --tip LINK) in 3-D
with its meshes: drag the handle (position, and orientation in the rotate mode) and the robot
is solved every frame with the chosen solver; its joint values, limits, errors and the solve
time are shown. A robot with several tips (the Allegro hand's fingertips; --tip repeated) has a
handle each, solved together. A rig (--bvh FILE) plays its clip: drag a hand or foot handle to
pin it, every frame is re-solved as geoik pose does, and Save writes the posed clip to --output
(default NAME.posed.bvh beside the input, never the input itself).

The server prepares (compiles) its solvers in the background from the start, the page saying
"preparing solvers…" meanwhile (minutes on a first run, seconds once numba's cache holds
them). The server listens on 127.0.0.1 (this machine only) unless --host says otherwise; the
page fetches nothing from elsewhere. Ctrl-C stops it. Needs the viewer extra:
pip install 'geoik[viewer]'."""
EXAMPLES = """\
examples:
  geoik view                            # http://127.0.0.1:8765/ in the browser
  geoik view --port 0 --no-browser      # any free port; print the address only
  geoik view --robot panda              # the Franka Panda of example-robot-data, in 3-D
  geoik view --urdf arm.urdf --tip tool0
  geoik view --robot allegro            # a handle on each of its four fingertips
  geoik view --bvh walk.bvh -o walk_pinned.bvh"""

DEFAULT_PORT = 8765
WS_MAX_SIZE = 16 * 1024 * 1024
"""Largest WebSocket message uvicorn takes in; larger ones close the connection (code 1009).
Messages between this and the viewer's own cap (64 KiB) get an error reply instead."""
_NEEDS = ("starlette", "uvicorn", "websockets")


def register(subparsers: Any) -> None:
    """Add the parser of ``geoik view`` to ``subparsers`` (see :mod:`geoik.commands`)."""
    p = subparsers.add_parser(
        "view",
        help=HELP,
        description=DESCRIPTION,
        epilog=EXAMPLES,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    p.add_argument(
        "--port",
        default=str(DEFAULT_PORT),
        help=f"TCP port (default {DEFAULT_PORT}; 0: any free port)",
    )
    p.add_argument(
        "--host",
        default="127.0.0.1",
        help="address to listen on (default 127.0.0.1, this machine only)",
    )
    p.add_argument(
        "--no-browser", action="store_true", help="do not open a browser, just print the address"
    )
    p.add_argument(
        "--robot",
        metavar="NAME",
        help="show an example robot of the example-robot-data package: " + ", ".join(ROBOTS),
    )
    p.add_argument("--urdf", metavar="FILE", help="show the robot of a URDF file")
    p.add_argument(
        "--tip",
        metavar="LINK",
        action="append",
        help="a link a handle moves; several (repeat --tip, or LINK,LINK) are solved together, "
        "a handle each (default: the example robot's tips, e.g. the tool link or the Allegro "
        "hand's four fingertips; for --urdf every leaf link a joint moves)",
    )
    p.add_argument(
        "--base",
        metavar="LINK",
        help="the link the robot hangs from (default: the URDF's root link)",
    )
    p.add_argument("--bvh", metavar="FILE", help="play a BVH clip and pin its hands and feet")
    p.add_argument(
        "-o",
        "--output",
        metavar="FILE",
        help="where Save writes the posed clip (default NAME.posed.bvh beside the BVH file)",
    )
    p.set_defaults(handler=run)


ROBOTS = (
    "panda",
    "ur3",
    "ur5",
    "ur10",
    "kinova",
    "z1",
    "talos_arm",
    "so100",
    "xarm7",
    "allegro",
)
"""The names --robot takes (geoik.robots.urdf.EXAMPLES)."""


def load_models(args: argparse.Namespace) -> Any:
    """The robot and the clip the command line names (:class:`geoik.viewer.models.Models`);
    GeoIKError naming the flag otherwise."""
    from geoik.errors import InvalidOptionError
    from geoik.viewer.models import Models, load_rig, load_robot

    models = Models()
    if args.robot is not None and args.urdf is not None:
        raise InvalidOptionError("expected one of them, got both", argument="--robot, --urdf")
    for flag, value in (("--tip", args.tip), ("--base", args.base)):
        if value is not None and args.robot is None and args.urdf is None:
            raise InvalidOptionError("expected with --urdf FILE or --robot NAME", argument=flag)
    if args.output is not None and args.bvh is None:
        raise InvalidOptionError("expected with --bvh FILE", argument="--output")
    if args.robot is not None:
        from geoik.robots.urdf import EXAMPLES, example_path

        if args.robot not in EXAMPLES:
            raise InvalidOptionError(
                f"expected one of {', '.join(EXAMPLES)}, got {args.robot!r}", argument="--robot"
            )
        tips = _tips(args.tip) or list(EXAMPLES[args.robot][1])
        models.robot = _flagged(
            "--robot",
            lambda: load_robot(example_path(args.robot), tips, f"--robot {args.robot}", args.base),
        )
    elif args.urdf is not None:
        models.robot = _flagged(
            "--urdf", lambda: load_robot(args.urdf, _tips(args.tip), base=args.base)
        )
    if args.bvh is not None:
        models.rig = _flagged("--bvh", lambda: load_rig(args.bvh, args.output))
    return models


def _tips(values: list[str] | None) -> list[str] | None:
    """The links ``--tip`` names (each value one link or several separated by commas), in
    order, each once; None when it is not given."""
    if values is None:
        return None
    from geoik.errors import InvalidOptionError

    names = [name.strip() for value in values for name in value.split(",")]
    if not all(names):
        raise InvalidOptionError(f"expected link names, got {','.join(values)!r}", argument="--tip")
    return list(dict.fromkeys(names))


def _flagged(flag: str, load: Any) -> Any:
    """``load()``, its GeoIKError re-raised with ``flag`` in front (``--urdf: tip: ...``)."""
    from geoik.errors import GeoIKError

    try:
        return load()
    except GeoIKError as e:
        if e.argument is not None and e.argument.startswith("--"):
            raise
        raise e.about(flag, str(e)) from None
    except OSError as e:
        from geoik.errors import InvalidOptionError

        raise InvalidOptionError(
            f"cannot read {e.filename!r}: {e.strerror}", argument=flag
        ) from None


def missing_dependencies() -> list[str]:
    """The viewer extra's packages that cannot be imported."""
    return [name for name in _NEEDS if importlib.util.find_spec(name) is None]


def listen(host: str, port: int) -> socket.socket:
    """A socket bound to ``(host, port)`` and listening, or ServerAddressError saying why not
    and what to do."""
    try:
        infos = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM, flags=socket.AI_PASSIVE)
    except (socket.gaierror, UnicodeError) as e:
        raise ServerAddressError(
            f"expected an address or host name of this machine, got {host!r} ({e})",
            argument="--host",
        ) from None
    family, kind, proto, _, address = infos[0]
    sock = socket.socket(family, kind, proto)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    try:
        sock.bind(address)
        sock.listen(128)  # the browser may connect before uvicorn's loop runs
    except OSError as e:
        sock.close()
        raise ServerAddressError(_bind_problem(host, port, e)) from None
    return sock


def _bind_problem(host: str, port: int, e: OSError) -> str:
    if e.errno == errno.EADDRINUSE:
        return (
            f"--port: port {port} on {host} is already in use (another geoik view?); "
            f"choose another with --port, or --port 0 for any free port"
        )
    if e.errno == errno.EACCES:
        return f"--port: not allowed to listen on port {port} (ports below 1024 need privileges)"
    if e.errno == errno.EADDRNOTAVAIL:
        return f"--host: expected an address of this machine, got {host!r}"
    return f"--host/--port: cannot listen on {host} port {port}: {e.strerror or e}"


def run(args: argparse.Namespace) -> int:
    """Run ``geoik view`` with the parsed ``args``; the exit status."""
    port = parse_int(args.port, "--port", 0, 65535)
    missing = missing_dependencies()
    if missing:
        print(
            f"geoik: error: the viewer needs {', '.join(missing)}: pip install 'geoik[viewer]'",
            file=sys.stderr,
        )
        return 2
    import uvicorn

    from geoik.viewer.server import create_app

    models = load_models(args)
    sock = listen(args.host, port)
    port = sock.getsockname()[1]
    host = f"[{args.host}]" if ":" in args.host else args.host
    url = f"http://{host}:{port}/"
    print(f"geoik viewer on {url} (Ctrl-C to stop)", flush=True)
    if models.robot is not None:
        print(f"{models.robot.robot.describe()} ({models.robot.source})", flush=True)
    if models.rig is not None:
        rig = models.rig
        print(
            f"clip: {rig.path.name}, {len(rig.frames)} frames; Save writes {rig.output}",
            flush=True,
        )
    if args.host not in ("127.0.0.1", "localhost", "::1"):
        print(
            f"geoik: note: listening on {args.host}: other machines that can reach it can use "
            "this server",
            file=sys.stderr,
        )
    if not args.no_browser and not webbrowser.open(url):
        print(f"geoik: note: no browser could be opened; open {url} yourself", file=sys.stderr)
    config = uvicorn.Config(create_app(models=models), log_level="warning", ws_max_size=WS_MAX_SIZE)
    with contextlib.suppress(KeyboardInterrupt):  # uvicorn shuts down, then raises it again
        uvicorn.Server(config).run(sockets=[sock])
    print("geoik viewer stopped", flush=True)
    return 0
