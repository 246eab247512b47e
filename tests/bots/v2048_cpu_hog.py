"""versus2048 bot that plays legal moves at once while it tries to starve its opponent of CPU.

Once it has placed its pre-game tile it forks CHILDREN (argv[1], default 58) processes that each start a session
of their own (``setsid``: a scheduler autogroup of its own, outside a cgroup) and spin forever.
Before every reply it says on stderr how many cores its children got since they started, summed
from their /proc CPU times (``hog cores 1.93``), so a test sees whether the jail capped them
together. The league must give its opponent the cores its game allots it all the same.
"""

import ctypes
import os
import signal
import sys
import time

from botio import read_line, say
from v2048lib import legal_reply, read_turn

CHILDREN = int(sys.argv[1]) if len(sys.argv) > 1 else 58
TICK = os.sysconf("SC_CLK_TCK")


def spawn_spinners():
    pids = []
    for _ in range(CHILDREN):
        try:
            pid = os.fork()
        except OSError:  # the jail's process cap: the ones started already spin
            break
        if pid == 0:
            os.setsid()
            ctypes.CDLL(None).prctl(1, signal.SIGKILL)  # PR_SET_PDEATHSIG: unjailed, none outlives the bot
            while True:
                pass
        pids.append(pid)
    return pids


def children_cpu_seconds(pids):
    total = 0
    for pid in pids:
        try:
            with open(f"/proc/{pid}/stat") as handle:
                fields = handle.read().rpartition(")")[2].split()
        except OSError:
            continue
        total += int(fields[11]) + int(fields[12])
    return total / TICK


read_line()
say("1 1")
started = time.monotonic()
spinners = spawn_spinners()  # on its opponent's time
while True:
    _, mine, theirs = read_turn()
    elapsed = time.monotonic() - started
    if elapsed > 0.5:
        sys.stderr.write(f"hog cores {children_cpu_seconds(spinners) / elapsed:.2f}\n")
        sys.stderr.flush()
    say(legal_reply(mine, theirs))
