"""A tiny pk2048 toolkit for the test bots, independent of the engine under test (I/O: botio)."""

from botio import read_line


def read_state():
    """The next request's 23 integers (a seat line before it, at the first turn, is skipped)."""
    numbers = [int(x) for x in read_line().split()]
    if len(numbers) == 1:
        numbers = [int(x) for x in read_line().split()]
    return numbers


def board_of(state):
    """The 16 cell values of a state line."""
    return state[5:21]


def _slide_left(line):
    tiles = [v for v in line if v]
    out, i = [], 0
    while i < len(tiles):
        if i + 1 < len(tiles) and tiles[i] == tiles[i + 1]:
            out.append(2 * tiles[i])
            i += 2
        else:
            out.append(tiles[i])
            i += 1
    return out + [0] * (4 - len(out))


def _lines(direction):
    rows = [[r * 4 + c for c in range(4)] for r in range(4)]
    cols = [[r * 4 + c for r in range(4)] for c in range(4)]
    return {1: cols, 2: [row[::-1] for row in rows], 3: [col[::-1] for col in cols], 4: rows}[direction]


def changes(cells, direction):
    """Whether sliding the 16 values in direction 1..4 (up right down left) changes them."""
    for line in _lines(direction):
        values = [cells[i] for i in line]
        if _slide_left(values) != values:
            return True
    return False


def working(cells):
    """The directions that change the board."""
    return [d for d in (1, 2, 3, 4) if changes(cells, d)]
