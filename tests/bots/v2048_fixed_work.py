"""versus2048 bot that does the same amount of work (argv[1] loop iterations) before every turn reply.

It plays legally (the first effective slide, one tile on the first empty cell). After each reply
it says on stderr how long its work took in wall and in CPU time (``work 412.3 ms wall 401.0 ms
cpu``), so a benchmark can see how much an opponent slowed it.
"""

import sys
import time

from botio import read_line, say
from v2048lib import legal_reply, read_turn

ITERATIONS = int(sys.argv[1]) if len(sys.argv) > 1 else 2_000_000


def work(iterations):
    """The same loop as benchmarks/starvation.py calibrates (in a function: local names, the same speed)."""
    total = 0
    for step in range(iterations):
        total += step
    return total


read_line()
say("1 1")
while True:
    _, mine, theirs = read_turn()
    reply = legal_reply(mine, theirs)
    wall, cpu = time.perf_counter(), time.process_time()
    work(ITERATIONS)
    say(reply)
    sys.stderr.write(
        f"work {(time.perf_counter() - wall) * 1000:.1f} ms wall {(time.process_time() - cpu) * 1000:.1f} ms cpu\n"
    )
    sys.stderr.flush()
