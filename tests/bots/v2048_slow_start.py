"""versus2048 bot that computes for about half a second before reading anything, as a JVM starts.

Then it plays like the judge-style bot: answers the pre-game at once, one legal move a turn. It
also says what it does on stderr, as bots do when their authors debug them.
"""

import sys
import time

from v2048lib import first_effective

began = time.process_time()
while time.process_time() - began < 0.5:  # CPU work, like loading tables or a JIT warming up
    pass
print("ready after warming up", file=sys.stderr, flush=True)


def tokens():
    for line in sys.stdin:
        yield from line.split()


N = 5
stream = tokens()
next(stream)
print("1 1", flush=True)
for _turn in stream:
    values = [int(next(stream)) for _ in range(3 + 2 * N * N)]
    cells = values[3:]
    mine = [cells[r * N : (r + 1) * N] for r in range(N)]
    theirs = [cells[N * N + r * N : N * N + (r + 1) * N] for r in range(N)]
    direction, merges = first_effective(mine)
    row, col = next((r + 1, c + 1) for r in range(N) for c in range(N) if theirs[r][c] == 0)
    print(f"{direction} 1 {merges + 1} {row} {col}", flush=True)
