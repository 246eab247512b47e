"""versus2048 bot that tries to think for free before the game: 5 s of CPU before it reads anything.

The referee lets freshly started bots settle before their first request, so that start-up is not
charged; this bot hopes the referee waits for as long as it keeps computing. The wait has a cap
(2 s by default): past it the pre-game request goes out and the bot's computing is on its own clock.
"""

import sys
import time

from v2048lib import first_effective

began = time.process_time()
while time.process_time() - began < 5.0:  # "precomputing", on the referee's patience
    pass

N = 5
tokens = (token for line in sys.stdin for token in line.split())
next(tokens)
print("1 1", flush=True)
for _turn in tokens:
    values = [int(next(tokens)) for _ in range(3 + 2 * N * N)]
    mine = [values[3 + r * N : 3 + (r + 1) * N] for r in range(N)]
    direction, merges = first_effective(mine)
    print(f"{direction} 1 {merges + 1} 1 1", flush=True)
