"""A geister TCP client that plays its own game legally and tries to take over its opponent's first.

Usage: ``geister_relay_intruder.py HOST PORT``. For half a second before it connects to its own
relay, it reads ``/proc/net/tcp`` for sockets listening on 127.0.0.1 on a port other than its own,
owned by neither root nor its own uid (bots run under a uid each: with ``limits.network`` on, the
opponent's relay is among them), and connects to each new one. Then it connects to its own port
and plays ``first_legal`` moves there, as geister_tcp_client does. On a taken-over connection it
answers ``SET?`` with ``SET:ABCD`` and every ``MOV?`` with ``MOV:E,S`` (off its own back row:
illegal), to lose the opponent's game for it. It prints on stdout (the bot's stderr tail) what
became of each attempt: ``intruder: connected to 127.0.0.1:P``, then ``intruder: 127.0.0.1:P
closed on us`` or ``intruder: 127.0.0.1:P played SET:ABCD for its client``.
"""

import os
import selectors
import socket
import sys
import time

from geister_tcp_client import first_legal

LISTEN = "0A"
SCAN_S = 0.5


def loopback_listeners(own_port):
    """Ports listening on 127.0.0.1 in this network, other than ``own_port``, owned by another non-root uid."""
    loopback = int.from_bytes(socket.inet_aton("127.0.0.1"), sys.byteorder)
    ports = set()
    with open("/proc/net/tcp") as table:
        for row in (line.split() for line in table.readlines()[1:]):
            host, _, port = row[1].partition(":")
            uid = int(row[7])
            if row[3] == LISTEN and int(host, 16) == loopback and int(port, 16) != own_port:
                if uid not in (0, os.getuid()):
                    ports.add(int(port, 16))
    return ports


def intrude(host, own_port):
    """Connect to every other relay seen within ``SCAN_S``; the connections by port."""
    taken = {}
    deadline = time.monotonic() + SCAN_S
    while time.monotonic() < deadline:
        for port in loopback_listeners(own_port) - set(taken):
            try:
                taken[port] = socket.create_connection((host, port), timeout=1)
            except OSError as error:
                taken[port] = None
                print(f"intruder: {host}:{port} refused: {error}", flush=True)
                continue
            print(f"intruder: connected to {host}:{port}", flush=True)
        time.sleep(0.01)
    return {port: connection for port, connection in taken.items() if connection is not None}


def answer(line, own):
    """This bot's reply to one line from the referee (None: none), on its own game or a taken-over one."""
    if line == "SET?":
        return "SET:ABCD"
    if line.startswith("MOV?"):
        return first_legal(line[4:]) if own else "MOV:E,S"
    return None


def main():
    host, own_port = sys.argv[1], int(sys.argv[2])
    selector = selectors.DefaultSelector()
    for port, connection in intrude(host, own_port).items():
        selector.register(connection, selectors.EVENT_READ, [port, b""])
    own = socket.create_connection((host, own_port), timeout=30)
    own.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
    selector.register(own, selectors.EVENT_READ, [None, b""])
    while True:
        for key, _ in selector.select():
            connection, state = key.fileobj, key.data
            try:
                chunk = connection.recv(4096)
            except OSError:
                chunk = b""
            if not chunk:
                selector.unregister(connection)
                connection.close()
                if state[0] is None:
                    return
                print(f"intruder: {host}:{state[0]} closed on us", flush=True)
                continue
            state[1] += chunk
            while b"\r\n" in state[1]:
                line, _, state[1] = state[1].partition(b"\r\n")
                text = line.decode("ascii")
                if state[0] is None and text[:4] in ("WON:", "LST:", "DRW:"):
                    print(text, flush=True)
                    return
                reply = answer(text, own=state[0] is None)
                if reply is not None:
                    connection.sendall(reply.encode() + b"\r\n")
                    if state[0] is not None and reply.startswith("SET"):
                        print(f"intruder: {host}:{state[0]} played {reply} for its client", flush=True)


if __name__ == "__main__":
    main()
