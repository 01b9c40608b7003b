"""``geoik view``: serve the interactive viewer on this machine and open it in the browser."""

from __future__ import annotations

import argparse
import importlib.util
import sys
import webbrowser
from typing import Any

HELP = "open the interactive viewer (a local web page driving the solvers)"
DESCRIPTION = """\
Serve the viewer, a web page that drives geoik's solvers live: drag the target of a planar
chain, pick the solver, edit the links and their limits, replay the recorded motion with the
end-effector trace, show the metric map behind the chain and the minimum and maximum safe zones;
and seed 003's scenes (robot arm, cyclist, hand grasping a ball) in orthographic views, solved by
the server every frame. The server listens on 127.0.0.1 only unless --host says otherwise.
Needs the viewer extra: pip install 'geoik[viewer]'."""
EXAMPLES = """\
examples:
  geoik view
  geoik view --port 8765 --no-browser"""

DEFAULT_PORT = 8765
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
        "--port", type=_port, default=DEFAULT_PORT, help="TCP port (default 8765; 0: any free port)"
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


def _port(text: str) -> int:
    try:
        port = int(text)
    except ValueError:
        port = -1
    if not 0 <= port <= 65535:
        raise argparse.ArgumentTypeError(f"expected a port number 0-65535, got {text!r}")
    return port


def missing_dependencies() -> list[str]:
    """The viewer extra's packages that cannot be imported."""
    return [name for name in _NEEDS if importlib.util.find_spec(name) is None]


def run(args: argparse.Namespace) -> int:
    missing = missing_dependencies()
    if missing:
        print(
            f"geoik: error: the viewer needs {', '.join(missing)}: pip install 'geoik[viewer]'",
            file=sys.stderr,
        )
        return 2
    import socket

    import uvicorn

    from geoik.viewer.server import create_app

    sock = socket.socket(socket.AF_INET6 if ":" in args.host else socket.AF_INET)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    sock.bind((args.host, args.port))  # an OSError here is reported by the CLI in one line
    sock.listen(128)  # the browser may connect before uvicorn's loop runs
    port = sock.getsockname()[1]
    host = f"[{args.host}]" if ":" in args.host else args.host
    url = f"http://{host}:{port}/"
    print(f"geoik viewer on {url} (Ctrl-C to stop)", flush=True)
    if not args.no_browser:
        webbrowser.open(url)
    config = uvicorn.Config(create_app(), log_level="warning", ws_max_size=16 * 1024 * 1024)
    uvicorn.Server(config).run(sockets=[sock])
    return 0
