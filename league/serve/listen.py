"""A server's socket and uvicorn, as ``league serve`` and ``league run --live`` run them.

The socket is bound before anything starts (``bound_socket``), so a port in use is one sentence
(``ListenRefused``) and nothing started. ``web_server`` is uvicorn with the settings every server of ours
has: no lifespan events, no trust in a client's ``X-Forwarded-For``, a cap on connections. ``Background``
serves an app on a thread of its own beside a batch league (uvicorn installs no signal handler there).
"""

from __future__ import annotations

import errno
import socket
import threading
from typing import Any

MAX_CONNECTIONS = 1500
"""Connections served at once (uvicorn answers 503 past it): the live pages' streams (capped lower) and the
pages, within the open files a process has."""
STOP_WAIT_S = 10.0
"""How long ``Background.stop`` waits for the server's thread."""


class ListenRefused(ValueError):
    """The server cannot listen where asked: the sentence names the fix."""


def bound_socket(host: str, port: int) -> socket.socket:
    """A listening TCP socket on ``host:port`` (port 0: a free one).

    Raises:
        ListenRefused: The port is taken, the address is not this machine's, or binding is refused.
    """
    if not 0 <= port <= 65535:
        raise ListenRefused(f"--port {port}: a port is 0 to 65535 (0 takes a free one)")
    try:
        info = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM)[0]
    except socket.gaierror:
        raise ListenRefused(f"--host {host}: no such address on this machine; give one such as 127.0.0.1") from None
    sock = socket.socket(info[0], socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    try:
        sock.bind(info[4])
        sock.listen(128)
    except OSError as error:
        sock.close()
        if error.errno == errno.EADDRINUSE:
            raise ListenRefused(
                f"port {port} on {host} is in use (another server?): give another --port, or --port 0 for a free one"
            ) from None
        if error.errno == errno.EACCES:
            raise ListenRefused(f"port {port} on {host} needs privileges: give a port above 1023 with --port") from None
        problem = f"cannot listen on {host}:{port} ({error.strerror}); give another --host or --port"
        raise ListenRefused(problem) from None
    return sock


def address_line(sock: socket.socket) -> str:
    """The server's address as a person opens it."""
    host, port = sock.getsockname()[:2]
    shown = f"[{host}]" if ":" in host else host
    return f"http://{shown}:{port}/"


def web_server(app: Any) -> Any:
    """The uvicorn ``Server`` of ``app`` with our settings (``server.run(sockets=[sock])`` serves it)."""
    import uvicorn

    config = uvicorn.Config(
        app,
        log_level="warning",
        access_log=False,
        lifespan="off",
        proxy_headers=False,  # an X-Forwarded-For from a local client must not pass for another address
        limit_concurrency=MAX_CONNECTIONS,
        timeout_keep_alive=5,
    )
    return uvicorn.Server(config)


class Background:
    """An app served on a thread of its own from a bound socket, until ``stop``.

    Args:
        app: The ASGI app.
        sock: Its socket, bound already (``bound_socket``).
    """

    def __init__(self, app: Any, sock: socket.socket) -> None:
        self.sock = sock
        self.server = web_server(app)
        self._thread = threading.Thread(target=self.server.run, kwargs={"sockets": [sock]}, daemon=True)

    def start(self) -> None:
        """Start serving."""
        self._thread.start()

    def stop(self) -> None:
        """Stop serving (open streams are closed) and close the socket."""
        self.server.should_exit = True
        self.server.force_exit = True  # live streams never end by themselves
        self._thread.join(STOP_WAIT_S)
        self.sock.close()
