"""versus2048 bot that never randomises: its slide is the first of ORDER (argv[1], default URDL) that changes its board.

It places its pre-game tile at (1, 1) and attacks with one tile of exponent X + 1 on the opponent's
first empty cell (its last with argv[2] == "last"). With argv[3] == "echo" it writes every line it
reads to stderr as Python's repr of its bytes, so a test can see the exact bytes it was sent.
"""

import sys

from botio import read_raw_line, say
from v2048lib import slide

order = sys.argv[1] if len(sys.argv) > 1 else "URDL"
last = len(sys.argv) > 2 and sys.argv[2] == "last"
echo = len(sys.argv) > 3 and sys.argv[3] == "echo"


def line():
    return read_raw_line(echo).decode("ascii").rstrip("\n")


line()
say("1 1")
while True:
    header = line()
    first = [int(x) for x in line().split()]
    n = len(first)
    rows = [first] + [[int(x) for x in line().split()] for _ in range(2 * n - 1)]
    mine, theirs = rows[:n], rows[n:]
    direction, merges = next((d, m) for d in order for new, m in [slide(mine, d)] if new != mine)
    empty = [(r + 1, c + 1) for r in range(n) for c in range(n) if theirs[r][c] == 0]
    row, col = empty[-1] if last else empty[0]
    say(f"{direction} 1 {merges + 1} {row} {col}")
