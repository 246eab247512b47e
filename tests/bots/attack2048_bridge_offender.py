#!/usr/bin/env python3
"""An attack2048 attacker written for the vs2048 stdio bridge format, Python 3, no imports from us.

It reads exactly what the bridge wrote: ``game`` then four rows of four values, each value
followed by one space (so every row ends in ``space LF``), or ``quit``. It answers ``x y 2``
(column, row, value) on an empty cell, like the original ``offender.py`` sample, but never on an
occupied one.
"""

import random
import sys


# A self-contained example for users to copy, so it imports nothing from this folder: its
# reading code stays here even though attack2048_lib.py (for the other test bots) has its own.
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
        assert len(rows[-1]) == 4, line
    return rows


def main():
    rng = random.Random(2015)
    while True:
        rows = read_board()
        if rows is None:
            return 0
        empty = [(x, y) for y in range(4) for x in range(4) if rows[y][x] == 0]
        x, y = rng.choice(empty)
        print(f"{x} {y} 2")
        sys.stdout.flush()


if __name__ == "__main__":
    sys.exit(main())
