"""A tiny attack2048 toolkit for the hostile test bots, independent of the engine under test (I/O: botio).

The bridge examples (attack2048_bridge_*.py) do not use it: they are self-contained on purpose.
"""

import sys

DIRECTIONS = ["north", "east", "south", "west"]


def read_board():
    """One request as 4 rows of 4 values; exits quietly on ``quit`` or EOF."""
    command = sys.stdin.readline()
    if command in ("", "quit\n"):
        sys.exit(0)
    return [[int(v) for v in sys.stdin.readline().split()] for _ in range(4)]


def empty_cells(rows):
    """The empty (x, y) cells in reading order."""
    return [(x, y) for y in range(4) for x in range(4) if rows[y][x] == 0]


def occupied_cells(rows):
    """The occupied (x, y) cells in reading order."""
    return [(x, y) for y in range(4) for x in range(4) if rows[y][x]]


def _slide_left(line):
    tiles = [v for v in line if v]
    out = []
    while tiles:
        if len(tiles) > 1 and tiles[0] == tiles[1]:
            out.append(2 * tiles[0])
            tiles = tiles[2:]
        else:
            out.append(tiles.pop(0))
    return out + [0] * (4 - len(out))


def slide(rows, direction):
    """The board after a slide."""
    if direction in ("west", "east"):
        lines = [list(row) for row in rows]
    else:
        lines = [[rows[y][x] for y in range(4)] for x in range(4)]
    backwards = direction in ("east", "south")
    moved = [_slide_left(line[::-1])[::-1] if backwards else _slide_left(line) for line in lines]
    if direction in ("west", "east"):
        return moved
    return [[moved[x][y] for x in range(4)] for y in range(4)]


def legal_directions(rows):
    """The directions that change the board."""
    return [d for d in DIRECTIONS if slide(rows, d) != rows]
