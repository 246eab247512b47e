#!/usr/bin/env python3
"""An attack2048 defender written for the vs2048 stdio bridge format, Python 3, no imports from us.

It reads ``game`` and four rows of values (each followed by one space), or ``quit``, and prints
one of the four lower-case direction words the bridge knew: the first of north, west, south,
east that changes the board (the original ``defender.py`` sample chose at random).
"""

import sys

DIRECTIONS = ["north", "west", "south", "east"]


# A self-contained example for users to copy, so it imports nothing from this folder: its
# reading and sliding code stays here even though attack2048_lib.py (for the other test bots) has its own.
def read_board():
    """The board as 4 rows of 4 values, or None on ``quit`` or EOF."""
    command = sys.stdin.readline()
    if command in ("", "quit\n"):
        return None
    assert command == "game\n", f"unexpected line {command!r}"
    rows = []
    for _ in range(4):
        line = sys.stdin.readline()
        assert line.endswith(" \n"), f"a row must end in space LF: {line!r}"
        rows.append([int(value) for value in line[:-2].split(" ")])
    return rows


def slide_left(line):
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
    """The board after a slide (rows of values)."""
    if direction in ("west", "east"):
        lines = [list(row) for row in rows]
    else:
        lines = [[rows[y][x] for y in range(4)] for x in range(4)]
    backwards = direction in ("east", "south")
    moved = [slide_left(line[::-1])[::-1] if backwards else slide_left(line) for line in lines]
    if direction in ("west", "east"):
        return moved
    return [[moved[x][y] for x in range(4)] for y in range(4)]


def main():
    while True:
        rows = read_board()
        if rows is None:
            return 0
        direction = next(d for d in DIRECTIONS if slide(rows, d) != rows)
        print(direction)
        sys.stdout.flush()


if __name__ == "__main__":
    sys.exit(main())
