"""versus2048 bot that never randomises: the same position always gets the same reply.

It slides where it merges most (ties in the order given as argv[1], "URDL" by default) and attacks
with one tile on the opponent's first empty cell, or its last with argv[2] "last". Two of these with
different arguments are a bot and its variant: in a game without randomness they play the same two
games on every seed, as the deterministic SPRT of issue 32 found.
"""

import sys

from botio import read_line, say
from v2048lib import read_turn, slide

ORDER = sys.argv[1] if len(sys.argv) > 1 else "URDL"
LAST = len(sys.argv) > 2 and sys.argv[2] == "last"


def reply(mine, theirs):
    """The slide that merges most (first in ORDER on a tie), then a tile 1 on the chosen empty cell."""
    moves = [(direction, *slide(mine, direction)) for direction in ORDER]
    effective = [(merges, -rank, direction) for rank, (direction, new, merges) in enumerate(moves) if new != mine]
    merges, _, direction = max(effective) if effective else (0, 0, ORDER[0])
    empty = [(r + 1, c + 1) for r, line in enumerate(theirs) for c, v in enumerate(line) if v == 0]
    row, col = empty[-1] if LAST else empty[0]
    return f"{direction} 1 {merges + 1} {row} {col}"


read_line()
say("1 1")
while True:
    _, mine, theirs = read_turn()
    say(reply(mine, theirs))
