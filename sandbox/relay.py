"""The TCP relay: lets a bot that only speaks TCP play over the jail's stdin/stdout.

Run inside the bot's jail in front of the bot (``python3 -I -S relay.py PORT -- CLIENT...``;
standard library only, no package import). It listens on ``127.0.0.1:PORT`` (0: any free port),
starts the client with ``{host}`` and ``{port}`` in its arguments replaced by that address, and
accepts one connection: the first whose other end is a socket of the client or of a process it
started. Where bots share the host's network, another bot could connect first; such a connection
is closed at once and noted on stderr, and the relay waits on for its client. Once the client's
is accepted, further connections are closed at once without data. Then it carries bytes: its
stdin to the connection, the connection to its stdout. The client's own stdout and stderr go to
the relay's stderr (the bot's stderr tail).

Who holds the other end is read from /proc, which the relay can read for its own jail: the kernel's
TCP tables (``/proc/self/net/tcp``, and ``tcp6`` for dual-stack clients such as a JVM's, which
connect from ``::ffff:127.0.0.1``) give the peer socket's inode, and the open files of the client
and its descendants (``/proc/PID/fd``) say whether one of them holds it.

Its first stdout lines are for the launcher, not the game: ``listening PORT``, then
``connected``, or ``exited STATUS`` when the client ended before connecting, or ``failed
REASON`` (also where /proc cannot tell the client's connection from others: it never relays a
connection it could not check). When stdin closes, it shuts down its sending side, gives the
client a moment to close, and exits. When the client closes the connection, it closes stdout and
exits (the bot crashed as far as the game is concerned).
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
_TCP_TABLES = ("/proc/self/net/tcp", "/proc/self/net/tcp6")
_NOTED_REFUSALS = 3
"""Refused connections noted on stderr, at most: a bot that keeps connecting cannot fill the tail."""
_refusals = 0


def _say(line: str) -> None:
    os.write(1, line.encode() + b"\n")


def _note(text: str) -> None:
    os.write(2, f"league relay: {text}\n".encode(errors="replace"))


def _refuse(connection: socket.socket, why: str) -> None:
    """Close a connection at once, without data, and note it (the first few times)."""
    global _refusals
    connection.close()
    _refusals += 1
    if _refusals <= _NOTED_REFUSALS:
        more = " (further refusals are not noted)" if _refusals == _NOTED_REFUSALS else ""
        _note(f"refused a connection {why}{more}")


def _mapped(raw: bytes) -> bytes:
    """An IPv4 or IPv6 address's bytes in IPv6 form (``::ffff:a.b.c.d`` for IPv4), to compare both."""
    return raw if len(raw) == 16 else bytes(10) + b"\xff\xff" + raw


def _table_endpoint(field: str) -> tuple[bytes, int]:
    """An address of /proc/net/tcp or tcp6 (hex 32-bit words in host byte order, ``:`` the port in hex)."""
    host, _, port = field.partition(":")
    raw = b"".join(int(host[i : i + 8], 16).to_bytes(4, sys.byteorder) for i in range(0, len(host), 8))
    return _mapped(raw), int(port, 16)


def _socket_endpoint(address: tuple[str, int] | tuple[str, int, int, int]) -> tuple[bytes, int]:
    """An address as ``getpeername``/``getsockname`` give it, in the form of ``_table_endpoint``."""
    family = socket.AF_INET6 if ":" in address[0] else socket.AF_INET
    return _mapped(socket.inet_pton(family, address[0])), address[1]


def peer_inode(connection: socket.socket) -> int | None:
    """The inode of the socket at the other end of a connection on this host, or None if no table shows it.

    Raises:
        OSError: /proc/self/net/tcp cannot be read.
    """
    peer = _socket_endpoint(connection.getpeername())
    own = _socket_endpoint(connection.getsockname())
    for table in _TCP_TABLES:
        try:
            with open(table, encoding="ascii") as lines:
                rows = [line.split() for line in lines.readlines()[1:]]
        except FileNotFoundError:
            if table.endswith("6"):
                continue  # a kernel without IPv6: no dual-stack sockets either
            raise
        for row in rows:  # sl local remote st queues timer retransmits uid timeout inode ...
            if row[9] != "0" and _table_endpoint(row[1]) == peer and _table_endpoint(row[2]) == own:
                return int(row[9])
    return None


def family_of(pid: int) -> set[int]:
    """``pid`` and every process descended from it, from the parent links in /proc."""
    children: dict[int, list[int]] = {}
    for name in os.listdir("/proc"):
        if name.isdigit():
            try:
                with open(f"/proc/{name}/stat", "rb") as stat:
                    parent = int(stat.read().rpartition(b")")[2].split()[1])
            except (OSError, IndexError, ValueError):
                continue  # gone meanwhile
            children.setdefault(parent, []).append(int(name))
    family: set[int] = set()
    todo = [pid]
    while todo:
        member = todo.pop()
        if member not in family:
            family.add(member)
            todo.extend(children.get(member, ()))
    return family


def holds(pid: int, target: str) -> bool:
    """Whether process ``pid`` has an open file that links to ``target`` (``socket:[INODE]``)."""
    folder = f"/proc/{pid}/fd"
    try:
        names = os.listdir(folder)
    except OSError:
        return False
    for name in names:
        try:
            if os.readlink(f"{folder}/{name}") == target:
                return True
        except OSError:
            continue  # closed meanwhile
    return False


def from_client(connection: socket.socket, client_pid: int) -> bool:
    """Whether the other end of ``connection`` is a socket held by the client or one of its descendants.

    Raises:
        OSError: /proc/self/net/tcp cannot be read.
    """
    inode = peer_inode(connection)
    if inode is None:
        return False
    target = f"socket:[{inode}]"
    return any(holds(pid, target) for pid in family_of(client_pid))


def peer_check_problem() -> str | None:
    """Why /proc here cannot tell which process holds the other end of a TCP connection, or None.

    It connects to itself on the loopback and checks that the peer is found to be this process.
    Another process's connection to the probe's port (on a shared network) is skipped, not taken
    for the probe's.
    """
    try:
        with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as listener:
            listener.bind((HOST, 0))
            listener.listen(8)
            listener.settimeout(5)
            with socket.create_connection(listener.getsockname(), timeout=5) as probe:
                while True:
                    connection, peer = listener.accept()
                    with connection:
                        if peer[:2] == probe.getsockname()[:2]:
                            if from_client(connection, os.getpid()):
                                return None
                            break
    except OSError as error:
        return f"{error.filename}: {error.strerror}" if error.filename else str(error)
    return "/proc/self/net/tcp and /proc/PID/fd do not show which process holds a connection's other end"


def _accept_first(listener: socket.socket, client: subprocess.Popen[bytes]) -> socket.socket | None:
    """Wait for the client's connection, refusing any other; None if the client exits first."""
    listener.settimeout(0.05)
    while True:
        try:
            connection, _ = listener.accept()
        except TimeoutError:
            if client.poll() is not None:
                return None
            continue
        try:
            ours = from_client(connection, client.pid)
        except OSError:
            ours = False  # never relay a connection that could not be checked
        if not ours:
            _refuse(connection, "from a process other than its client")
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
                    _refuse(extra, "after the client's: one connection per port")
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
    problem = peer_check_problem()
    if problem is not None:
        _say(f"failed cannot tell its client's connection from another process's ({problem})")
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
