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

The scenes of Srinivasan & John (2013), in orthographic side, top and front views, solved by the
server every frame: a three-joint robot arm, a cyclist whose feet stay on the pedals, a hand
closing on a ball (solved as one tree).

The server listens on 127.0.0.1 (this machine only) unless --host says otherwise; the page
fetches nothing from elsewhere. Ctrl-C stops it. Needs the viewer extra:
pip install 'geoik[viewer]'."""
EXAMPLES = """\
examples:
  geoik view                            # http://127.0.0.1:8765/ in the browser
  geoik view --port 0 --no-browser      # any free port; print the address only"""

DEFAULT_PORT = 8765
WS_MAX_SIZE = 16 * 1024 * 1024
"""Largest WebSocket message uvicorn takes in; larger ones close the connection (code 1009).
Messages between this and the viewer's own cap (64 KiB) get an error reply instead."""
_NEEDS = ("starlette", "uvicorn", "websockets")


def register(subparsers: Any) -> None:
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
    p.set_defaults(handler=run)


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
            f"--host: expected an address or host name of this machine, got {host!r} ({e})"
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

    sock = listen(args.host, port)
    port = sock.getsockname()[1]
    host = f"[{args.host}]" if ":" in args.host else args.host
    url = f"http://{host}:{port}/"
    print(f"geoik viewer on {url} (Ctrl-C to stop)", flush=True)
    if args.host not in ("127.0.0.1", "localhost", "::1"):
        print(
            f"geoik: note: listening on {args.host}: other machines that can reach it can use "
            "this server",
            file=sys.stderr,
        )
    if not args.no_browser and not webbrowser.open(url):
        print(f"geoik: note: no browser could be opened; open {url} yourself", file=sys.stderr)
    config = uvicorn.Config(create_app(), log_level="warning", ws_max_size=WS_MAX_SIZE)
    with contextlib.suppress(KeyboardInterrupt):  # uvicorn shuts down, then raises it again
        uvicorn.Server(config).run(sockets=[sock])
    print("geoik viewer stopped", flush=True)
    return 0
