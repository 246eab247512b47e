"""versus2048 bot that plays legal moves at once while it tries to starve its opponent of CPU.

Once it has placed its pre-game tile it starts CHILDREN (argv[1], default 58) processes that each
start a session of their own (``setsid``: outside a cgroup, a scheduler autogroup of its own, which
weighs as much as a whole bot) and spin forever; one spawner process forks them, so the bot itself
answers every request at once. Before every reply once a quarter of a second has passed since they
started, it says on stderr how many cores its processes got together since then, summed from their
/proc CPU times (``hog cores 1.93``), so a test sees whether the jail capped them together. The
league must give its opponent the cores its game allots it all the same.
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


def spin_in_a_session_of_its_own():
    os.setsid()
    ctypes.CDLL(None).prctl(1, signal.SIGKILL)  # PR_SET_PDEATHSIG: unjailed, none outlives its parent
    while True:
        pass


def start_spinners():
    """Fork the spawner, which forks the other spinners and then spins too."""
    if os.fork() != 0:
        return
    for _ in range(CHILDREN - 1):
        try:
            if os.fork() == 0:
                spin_in_a_session_of_its_own()
        except OSError:  # the jail's process cap: the ones started already spin
            break
    spin_in_a_session_of_its_own()


def descendants_cpu_seconds():
    total, frontier = 0, [os.getpid()]
    while frontier:
        pid = frontier.pop()
        try:
            with open(f"/proc/{pid}/stat") as handle:
                fields = handle.read().rpartition(")")[2].split()
            with open(f"/proc/{pid}/task/{pid}/children") as handle:
                frontier += [int(child) for child in handle.read().split()]
        except OSError:
            continue
        if pid != os.getpid():
            total += int(fields[11]) + int(fields[12])
    return total / TICK


read_line()
say("1 1")
started = time.monotonic()
start_spinners()  # on its opponent's time
while True:
    _, mine, theirs = read_turn()
    elapsed = time.monotonic() - started
    if elapsed > 0.25:
        sys.stderr.write(f"hog cores {descendants_cpu_seconds() / elapsed:.2f}\n")
        sys.stderr.flush()
    say(legal_reply(mine, theirs))
