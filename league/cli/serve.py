"""``league serve LEAGUE.yaml``: the contest server, its league played on while authors submit versions.

The server binds its socket itself (``league.serve.listen``) before anything starts (127.0.0.1:8000
unless ``--host`` and ``--port`` say otherwise; ``--port 0`` takes a free port), so a port in use is one
line, exit status 2, and nothing started. It prints its address (``http://HOST:PORT/``) on a line of its own on stdout
once it listens, then serves the app (``league.serve``) with uvicorn until Ctrl-C or SIGTERM, which
stop the league as they stop ``league run``: what is stored stays, the next start goes on from there.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any

from league.cli.args import UsageError

DEFAULT_HOST = "127.0.0.1"
DEFAULT_PORT = 8000


def cmd_serve(args: argparse.Namespace) -> int:
    """Serve the contest until Ctrl-C or SIGTERM."""
    from league.cli.cluster_join import check_cluster, cluster_address
    from league.cluster.session import ClusterUnreachable
    from league.contest.contest import Contest
    from league.contest.field import FieldError
    from league.plan.config import ConfigError
    from league.serve.app import create_app
    from league.serve.listen import ListenRefused, address_line, bound_socket, web_server
    from league.store.authors import AuthorError

    path = Path(args.file)
    if not path.is_file():
        raise UsageError(f"{args.file}: no such league file; give the contest's league file")
    asked = cluster_address(args)
    check_cluster(asked)  # an address where no head answers: one line, nothing started
    address = asked[0] if asked else None
    try:
        contest = Contest(path, address)
    except (ConfigError, FieldError) as error:
        raise UsageError(str(error)) from None
    try:
        sock = bound_socket(args.host, args.port)
    except ListenRefused as error:
        raise UsageError(str(error)) from None
    try:
        try:
            contest.start()
        except AuthorError as error:
            raise UsageError(str(error)) from None
        except ClusterUnreachable as error:
            raise UsageError(f"--address {address}: {error.why}") from None
        server = web_server(create_app(contest))
        print(address_line(sock), flush=True)
        print(f"league: serving the contest of {path}; Ctrl-C stops it (what is stored stays)", file=sys.stderr)
        server.run(sockets=[sock])
    finally:
        contest.stop()
        sock.close()
    return 0


def add_commands(commands: Any) -> None:
    """Register ``serve`` on the ``league`` parser."""
    serve = commands.add_parser("serve", help="run a live contest: authors submit versions, the league plays on")
    serve.add_argument("file", metavar="FILE.yaml", help="the contest's league file (its bots are the house bots)")
    serve.add_argument("--host", default=DEFAULT_HOST, help=f"the address to listen on (default {DEFAULT_HOST})")
    serve.add_argument(
        "--port", type=int, default=DEFAULT_PORT, help=f"the port (default {DEFAULT_PORT}; 0 takes a free one)"
    )
    serve.add_argument("--address", help="a Ray cluster's address (default: RAY_ADDRESS, else a local Ray)")
    serve.set_defaults(handler=cmd_serve)
