"""versus2048 bot that computes (a busy loop, not a sleep) for CPU_MS (argv[1]) of CPU time before every turn reply.

It plays legally (the first effective slide, one tile on the first empty cell) and says on stderr,
once, which CPUs it may run on (``cpus 0,1``), so a test or benchmark can see what pinning did.
"""

import os
import sys
import time

from botio import read_line, say
from v2048lib import legal_reply, read_turn

spin_seconds = int(sys.argv[1]) / 1000
sys.stderr.write(f"cpus {','.join(map(str, sorted(os.sched_getaffinity(0))))}\n")
sys.stderr.flush()
read_line()
say("1 1")
while True:
    _, mine, theirs = read_turn()
    reply = legal_reply(mine, theirs)
    until = time.process_time() + spin_seconds
    while time.process_time() < until:
        pass
    say(reply)
