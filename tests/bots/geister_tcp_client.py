"""A geister client that only speaks TCP, as clients written for miyo's server do.

Usage: ``geister_tcp_client.py HOST PORT [MODE]``. It connects, answers ``SET?`` and ``MOV?`` with
CR LF line ends, expects every line from the server to end with CR LF (it stops with status 3 on
a bare LF), moves the first legal piece it finds, and exits after the end message. It prints the
end message on its stdout (the league keeps it in the bot's stderr tail). Modes:
``plain`` (default); ``twice``: opens a second connection to the same port first, and checks
that it is closed at once without data; ``hangup``: closes the connection after its setup;
``never``: never connects; ``wrong``: connects to PORT + 1 (where nothing listens); ``late``:
connects after a second (so that two games surely listen on the same port at once).
"""

import socket
import sys
import time

STEPS = {"N": (0, -1), "E": (1, 0), "S": (0, 1), "W": (-1, 0)}


def first_legal(board):
    own = [(int(board[i]), int(board[i + 1])) for i in range(0, 24, 3)]
    for index, (x, y) in enumerate(own):
        if (x, y) in ((9, 9), (8, 8)):
            continue
        for word, (dx, dy) in STEPS.items():
            target = (x + dx, y + dy)
            if 0 <= target[0] < 6 and 0 <= target[1] < 6 and target not in own:
                return f"MOV:{'ABCDEFGH'[index]},{word}"
    raise SystemExit("no legal move")


def lines(connection):
    buffer = b""
    while True:
        while b"\n" not in buffer:
            chunk = connection.recv(4096)
            if not chunk:
                return
            buffer += chunk
        line, _, buffer = buffer.partition(b"\n")
        if not line.endswith(b"\r"):
            print(f"line without CR: {line!r}", flush=True)
            sys.exit(3)
        yield line[:-1].decode("ascii")


def main():
    host, port = sys.argv[1], int(sys.argv[2])
    mode = sys.argv[3] if len(sys.argv) > 3 else "plain"
    if mode == "never":
        time.sleep(60)
        return
    if mode == "wrong":
        port += 1
    if mode == "late":
        time.sleep(1)
    connection = socket.create_connection((host, port), timeout=30)
    connection.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
    if mode == "twice":
        second = socket.create_connection((host, port), timeout=5)
        if second.recv(16) != b"":
            sys.exit(4)  # a second connection must be closed without data
        second.close()
    for line in lines(connection):
        if line == "SET?":
            connection.sendall(b"SET:ABCD\r\n")
            if mode == "hangup":
                connection.close()
                return
        elif line.startswith("MOV?"):
            connection.sendall(first_legal(line[4:]).encode() + b"\r\n")
        elif line[:4] in ("WON:", "LST:", "DRW:"):
            print(line, flush=True)
            return


if __name__ == "__main__":
    main()
