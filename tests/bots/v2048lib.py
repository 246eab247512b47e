"""A tiny versus2048 toolkit for the test bots, independent of the engine under test (I/O: botio)."""

from botio import read_line


def read_turn():
    """Read one turn input: header numbers, own board, opponent board (rows of exponents)."""
    header = [int(x) for x in read_line().split()]
    first = [int(x) for x in read_line().split()]
    n = len(first)
    rows = [first] + [[int(x) for x in read_line().split()] for _ in range(2 * n - 1)]
    return header, rows[:n], rows[n:]


def slide_row_left(row):
    """Slide one row toward index 0: (new row, merges)."""
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
    """Slide a board (list of rows) in U R D L: (new board, merges)."""
    n = len(board)
    if direction in "LR":
        lines = [list(r) for r in board]
    else:
        lines = [[board[r][c] for r in range(n)] for c in range(n)]
    if direction in "RD":
        lines = [line[::-1] for line in lines]
    moved, merges = [], 0
    for line in lines:
        new, m = slide_row_left(line)
        moved.append(new)
        merges += m
    if direction in "RD":
        moved = [line[::-1] for line in moved]
    if direction in "LR":
        return moved, merges
    return [[moved[c][r] for c in range(n)] for r in range(n)], merges


def first_effective(board):
    """The first direction in U R D L that changes the board, with its merge count."""
    for direction in "URDL":
        new, merges = slide(board, direction)
        if new != board:
            return direction, merges
    return None, 0


def legal_reply(mine, theirs):
    """A legal turn reply: the first effective slide, then one tile on the opponent's first empty cell."""
    direction, merges = first_effective(mine)
    row, col = next((r + 1, c + 1) for r, line in enumerate(theirs) for c, v in enumerate(line) if v == 0)
    return f"{direction} 1 {merges + 1} {row} {col}"
