"""``league serve LEAGUE.yaml``: the contest server, its league played on while authors submit versions.

The server binds its socket itself before anything starts (127.0.0.1:8000 unless ``--host`` and
``--port`` say otherwise; ``--port 0`` takes a free port), so a port in use is one line, exit status
2, and nothing started. It prints its address (``http://HOST:PORT/``) on a line of its own on stdout
once it listens, then serves the app (``league.serve``) with uvicorn until Ctrl-C or SIGTERM, which
stop the league as they stop ``league run``: what is stored stays, the next start goes on from there.
"""

from __future__ import annotations

import argparse
import errno
import socket
import sys
from pathlib import Path
from typing import Any

from league.cli.args import UsageError

DEFAULT_HOST = "127.0.0.1"
DEFAULT_PORT = 8000
MAX_CONNECTIONS = 1500
"""Connections served at once (uvicorn answers 503 past it): the live pages' streams (``league.serve.live``
caps them lower) and the pages, within the open files a process has."""


def bound_socket(host: str, port: int) -> socket.socket:
    """A listening TCP socket on ``host:port`` (port 0: a free one).

    Raises:
        UsageError: The port is taken, the address is not this machine's, or binding is refused.
    """
    if not 0 <= port <= 65535:
        raise UsageError(f"--port {port}: a port is 0 to 65535 (0 takes a free one)")
    try:
        info = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM)[0]
    except socket.gaierror:
        raise UsageError(f"--host {host}: no such address on this machine; give an address such as 127.0.0.1") from None
    sock = socket.socket(info[0], socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    try:
        sock.bind(info[4])
        sock.listen(128)
    except OSError as error:
        sock.close()
        if error.errno == errno.EADDRINUSE:
            raise UsageError(
                f"port {port} on {host} is in use (another server?): give another --port, or --port 0 for a free one"
            ) from None
        if error.errno == errno.EACCES:
            raise UsageError(f"port {port} on {host} needs privileges: give a port above 1023 with --port") from None
        raise UsageError(f"cannot listen on {host}:{port} ({error.strerror}); give another --host or --port") from None
    return sock


def address_line(sock: socket.socket) -> str:
    """The server's address as a person opens it."""
    host, port = sock.getsockname()[:2]
    shown = f"[{host}]" if ":" in host else host
    return f"http://{shown}:{port}/"


def cmd_serve(args: argparse.Namespace) -> int:
    """Serve the contest until Ctrl-C or SIGTERM."""
    import uvicorn

    from league.cli.cluster_join import check_cluster, cluster_address
    from league.cluster.session import ClusterUnreachable
    from league.contest.contest import Contest
    from league.contest.field import FieldError
    from league.plan.config import ConfigError
    from league.serve.app import create_app
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
    sock = bound_socket(args.host, args.port)
    try:
        try:
            contest.start()
        except AuthorError as error:
            raise UsageError(str(error)) from None
        except ClusterUnreachable as error:
            raise UsageError(f"--address {address}: {error.why}") from None
        config = uvicorn.Config(
            create_app(contest),
            log_level="warning",
            access_log=False,
            lifespan="off",
            proxy_headers=False,  # an X-Forwarded-For from a local client must not pass for another address
            limit_concurrency=MAX_CONNECTIONS,
            timeout_keep_alive=5,
        )
        server = uvicorn.Server(config)
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
