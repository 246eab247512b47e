"""The TCP relay: lets a bot that only speaks TCP play over the jail's stdin/stdout.

Run inside the bot's jail in front of the bot (``python3 -I -S relay.py PORT -- CLIENT...``;
standard library only, no package import). It listens on ``127.0.0.1:PORT`` (0: any free port),
starts the client with ``{host}`` and ``{port}`` in its arguments replaced by that address, and
accepts one connection. Further connections are closed at once without data. Then it carries
bytes: its stdin to the connection, the connection to its stdout. The client's own stdout and
stderr go to the relay's stderr (the bot's stderr tail).

Its first stdout lines are for the launcher, not the game: ``listening PORT``, then
``connected``, or ``exited STATUS`` when the client ended before connecting, or ``failed
REASON``. When stdin closes, it shuts down its sending side, gives the client a moment to close,
and exits. When the client closes the connection, it closes stdout and exits (the bot crashed
as far as the game is concerned).
"""

from __future__ import annotations

import os
import selectors
import socket
import subprocess
import sys
import time

HOST = "127.0.0.1"
_CHUNK = 1 << 16
_LINGER_S = 1.0


def _say(line: str) -> None:
    os.write(1, line.encode() + b"\n")


def _note(text: str) -> None:
    os.write(2, f"league relay: {text}\n".encode(errors="replace"))


def _accept_first(listener: socket.socket, client: subprocess.Popen[bytes]) -> socket.socket | None:
    """Wait for the client's connection; None if the client exits first."""
    listener.settimeout(0.05)
    while True:
        try:
            connection, _ = listener.accept()
        except TimeoutError:
            if client.poll() is not None:
                return None
            continue
        connection.settimeout(None)
        return connection


def _pump(listener: socket.socket, connection: socket.socket) -> int:
    """Carry bytes both ways until stdin or the connection ends; the exit status."""
    connection.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
    listener.setblocking(False)
    selector = selectors.DefaultSelector()
    selector.register(0, selectors.EVENT_READ, "stdin")
    selector.register(connection, selectors.EVENT_READ, "client")
    selector.register(listener, selectors.EVENT_READ, "again")
    linger_until: float | None = None
    while True:
        timeout = None if linger_until is None else max(0.0, linger_until - time.monotonic())
        events = selector.select(timeout)
        if not events and linger_until is not None:
            return 0
        for key, _ in events:
            if key.data == "again":  # one connection per port: later ones are closed without data
                try:
                    extra, _ = listener.accept()
                    extra.close()
                    _note("a second connection was refused: one connection per port")
                except OSError:
                    pass
            elif key.data == "stdin":
                data = os.read(0, _CHUNK)
                if data:
                    try:
                        connection.sendall(data)
                    except OSError:
                        _note("the client's connection broke")
                        return 0
                    continue
                selector.unregister(0)  # the game is over: end our side, let the client close
                connection.shutdown(socket.SHUT_WR)
                linger_until = time.monotonic() + _LINGER_S
            else:
                try:
                    data = connection.recv(_CHUNK)
                except OSError:
                    data = b""
                if data:
                    os.write(1, data)
                    continue
                if linger_until is None:
                    _note("the client closed its connection")
                return 0


def main(argv: list[str]) -> int:
    """Relay for ``PORT -- CLIENT...``; see the module docstring."""
    if len(argv) < 3 or argv[1] != "--" or not argv[0].isdigit():
        _say("failed usage: relay.py PORT -- CLIENT...")
        return 2
    listener = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    try:
        listener.bind((HOST, int(argv[0])))
        listener.listen(8)
    except OSError as error:
        _say(f"failed cannot listen on {HOST}:{argv[0]}: {error.strerror or error}")
        return 2
    port = listener.getsockname()[1]
    _say(f"listening {port}")
    command = [arg.replace("{host}", HOST).replace("{port}", str(port)) for arg in argv[2:]]
    try:
        client = subprocess.Popen(command, stdin=subprocess.DEVNULL, stdout=2, stderr=2)
    except OSError as error:
        _say(f"failed cannot start {command[0]!r}: {error.strerror or error}")
        return 2
    connection = _accept_first(listener, client)
    if connection is None:
        _say(f"exited {client.returncode}")
        return 0
    _say("connected")
    try:
        return _pump(listener, connection)
    finally:
        os.close(1)
        try:
            client.wait(timeout=_LINGER_S)
        except subprocess.TimeoutExpired:
            pass


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
