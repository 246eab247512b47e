"""A versus2048 contest entry that, in its validation game, reaches for the server's files, processes and port.

It reads ``targets.json`` beside it (written into its archive by the test): ``files`` (the league
folder's ``contest.sqlite`` and ``games.jsonl``, the folder itself and the league file), ``pid`` and
``cmdline`` (the server's process and its command line's words) and ``port`` (where the server
listens on 127.0.0.1). Before its first reply it tries each: reading the files and listing the
folder (anything in it but the way down to its own folder counts), listing ``/proc`` for a process
whose command line is the server's, reading the server's ``/proc/PID/cmdline``, and connecting to
the port. It writes one line per try on stderr, ``REACHED what`` or ``BLOCKED what: why``, then
``reached: N of M``, and plays on legally (v2048lib) until the game ends.
"""

import json
import os
import socket
import sys

from botio import read_line, say
from v2048lib import legal_reply, read_turn

here = os.path.dirname(os.path.abspath(__file__))
with open(os.path.join(here, "targets.json")) as handle:
    targets = json.load(handle)
tries = []


def attempt(what, action):
    try:
        shown = action()
    except OSError as error:
        tries.append(False)
        print(f"BLOCKED {what}: {type(error).__name__}", file=sys.stderr)
        return
    tries.append(True)
    print(f"REACHED {what}: {shown!r}"[:200], file=sys.stderr)


def read(path):
    with open(path, "rb") as handle:
        return handle.read(32)


def listing(folder):
    """What ``folder`` holds besides the way down to this bot's own folder (which its jail must show)."""
    others = [
        name for name in os.listdir(folder) if not (here + os.sep).startswith(os.path.join(folder, name) + os.sep)
    ]
    if not others:
        raise FileNotFoundError("nothing but the way to its own folder")
    return others


def server_processes():
    server = "\0".join(targets["cmdline"]).encode() + b"\0"
    seen = []
    for name in os.listdir("/proc"):
        if name.isdigit():
            try:
                seen += [name] if read_all(f"/proc/{name}/cmdline") == server else []
            except OSError:
                continue
    if not seen:
        raise FileNotFoundError("no process of the server in /proc")
    return seen


def read_all(path):
    with open(path, "rb") as handle:
        return handle.read()


def connect():
    with socket.create_connection(("127.0.0.1", targets["port"]), timeout=5) as connection:
        connection.sendall(b"hello from the jail\n")
        return "connected"


read_line()
for path in targets["files"]:
    attempt(f"file {path}", lambda path=path: read(path) if not os.path.isdir(path) else listing(path))
attempt("processes of the server in /proc", server_processes)
attempt(f"/proc/{targets['pid']}/cmdline", lambda: read_all(f"/proc/{targets['pid']}/cmdline")[:60])
attempt(f"port 127.0.0.1:{targets['port']}", connect)
print(f"reached: {sum(tries)} of {len(tries)}", file=sys.stderr, flush=True)
say("1 1")
while True:
    _, mine, theirs = read_turn()
    say(legal_reply(mine, theirs))
