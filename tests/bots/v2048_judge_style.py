"""A bot written the way the original judge's sample AIs were (the protocol of engine/versus2048/README.md).

It reads whitespace-separated tokens like Java's Scanner (not lines), assumes the contest's 5x5
board as those bots did, prints each answer with a trailing newline and flushes, and never
expects a final message. It plays a plain legal game: the first effective slide, then one tile of
value 2^(X+1) on the first empty cell of the opponent's board.
"""

import sys

from v2048lib import first_effective

N = 5


def tokens():
    for line in sys.stdin:
        yield from line.split()


stream = tokens()
number = int(next(stream))
print("1 1" if number == 0 else "2 2", flush=True)
for turn in stream:  # noqa: B007 - read like the sample AIs, which ignore it
    time_left, my_score, opponent_score = int(next(stream)), int(next(stream)), int(next(stream))
    cells = [int(next(stream)) for _ in range(2 * N * N)]
    mine = [cells[r * N : (r + 1) * N] for r in range(N)]
    theirs = [cells[N * N + r * N : N * N + (r + 1) * N] for r in range(N)]
    direction, merges = first_effective(mine)
    row, col = next((r + 1, c + 1) for r in range(N) for c in range(N) if theirs[r][c] == 0)
    print(f"{direction} 1 {merges + 1} {row} {col}", flush=True)
