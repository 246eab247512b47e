"""A starter versus2048 bot to submit to a contest (``league submit``): Python 3, the standard library only.

It slides where it merges most and drops one attack tile (worth its merges) on the opponent's
emptiest row. The protocol is in engine/versus2048/README.md (section 2): read the player number,
answer the pre-game with a cell, then answer each turn with one line, flushing stdout each time.
Change ``choose`` to make it stronger, then submit the folder again: each version is its content.
"""

import sys


def read_line():
    """One line from the referee, without its end; exit at the end of the game (stdin closed)."""
    line = sys.stdin.readline()
    if not line:
        sys.exit(0)
    return line.rstrip("\n")


def say(text):
    """Send one line to the referee (flushed: a reply must not wait in a buffer)."""
    sys.stdout.write(text + "\n")
    sys.stdout.flush()


def slide_left(row):
    """A row slid towards its start, equal tiles merged once: (the new row, merges)."""
    tiles = [v for v in row if v]
    out, merges, i = [], 0, 0
    while i < len(tiles):
        if i + 1 < len(tiles) and tiles[i] == tiles[i + 1]:
            out.append(tiles[i] + 1)
            merges += 1
            i += 2
        else:
            out.append(tiles[i])
            i += 1
    return out + [0] * (len(row) - len(out)), merges


def slide(board, direction):
    """The board (rows of exponents) slid U, R, D or L: (the new board, merges)."""
    n = len(board)
    lines = [list(r) for r in board] if direction in "LR" else [[board[r][c] for r in range(n)] for c in range(n)]
    if direction in "RD":
        lines = [line[::-1] for line in lines]
    moved, merges = [], 0
    for line in lines:
        new, m = slide_left(line)
        moved.append(new)
        merges += m
    if direction in "RD":
        moved = [line[::-1] for line in moved]
    if direction in "LR":
        return moved, merges
    return [[moved[c][r] for c in range(n)] for r in range(n)], merges


def choose(mine, theirs):
    """The turn reply: the slide that merges most, one tile on the emptiest row of the opponent's board."""
    options = [(slide(mine, d)[1], d) for d in "URDL" if slide(mine, d)[0] != mine]
    merges, direction = max(options) if options else (0, "U")
    rows = sorted(range(len(theirs)), key=lambda r: -theirs[r].count(0))
    row = next(r for r in rows if 0 in theirs[r])
    col = theirs[row].index(0)
    return f"{direction} 1 {merges + 1} {row + 1} {col + 1}"


read_line()  # our player number
say("1 1")  # the pre-game: a cell of the opponent's board (every board has it)
while True:
    read_line()  # Turn TimeLeft MyScore OpponentScore
    first = [int(x) for x in read_line().split()]
    n = len(first)
    rows = [first] + [[int(x) for x in read_line().split()] for _ in range(2 * n - 1)]
    say(choose(rows[:n], rows[n:]))
