"""fish's board: 60 hexagonal cells in 8 rows of 7, 8, 7, ..., their lines, and the tiles dealt from a seed.

Cells are numbered 0..59 in reading order; ``(r, c)`` are the rules' offset coordinates (the rows
of 7 sit half a tile to the right). To walk a straight line a cell sits at the doubled column
``x = 2c + 1`` on an even row and ``x = 2c`` on an odd one, where each of the six directions is one
fixed step ``(dx, dr)`` (engine/fish/README.md).
"""

from __future__ import annotations

import random

ROWS = 8
ROW_LENGTHS = tuple(7 if r % 2 == 0 else 8 for r in range(ROWS))
ROW_STARTS = tuple(sum(ROW_LENGTHS[:r]) for r in range(ROWS))
CELLS = sum(ROW_LENGTHS)
CELL_OF = tuple((r, c) for r in range(ROWS) for c in range(ROW_LENGTHS[r]))
DIRECTIONS = {"E": (2, 0), "W": (-2, 0), "NE": (1, -1), "NW": (-1, -1), "SE": (1, 1), "SW": (-1, 1)}
"""The six directions as steps ``(dx, dr)`` in doubled columns (2.2)."""


def on_board(r: int, c: int) -> bool:
    """Whether ``(r, c)`` names one of the 60 cells."""
    return 0 <= r < ROWS and 0 <= c < ROW_LENGTHS[r]


def cell_index(r: int, c: int) -> int:
    """The reading-order index of cell ``(r, c)`` (which must be on the board)."""
    return ROW_STARTS[r] + c


def _ray(index: int, step: tuple[int, int]) -> tuple[int, ...]:
    r, c = CELL_OF[index]
    x = 2 * c + (1 if r % 2 == 0 else 0)
    cells = []
    while True:
        x, r = x + step[0], r + step[1]
        if not (0 <= r < ROWS and 0 <= x <= 14):
            return tuple(cells)
        cells.append(cell_index(r, x // 2))


RAYS = tuple(tuple(_ray(i, step) for step in DIRECTIONS.values()) for i in range(CELLS))
"""Per cell, per direction (in ``DIRECTIONS`` order), the cells of the straight line from it."""


def neighbours(r: int, c: int) -> dict[str, tuple[int, int]]:
    """The existing neighbours of a cell by direction name (10.1)."""
    rays = RAYS[cell_index(r, c)]
    return {name: CELL_OF[ray[0]] for name, ray in zip(DIRECTIONS, rays, strict=True) if ray}


def board_from_seed(seed: int) -> list[int]:
    """The 60 tiles' fish in reading order, shuffled with ``random.Random(seed)`` (3.1)."""
    tiles = [1] * 30 + [2] * 20 + [3] * 10
    random.Random(seed).shuffle(tiles)
    return tiles


def board_rows(fish: list[int] | tuple[int, ...]) -> list[str]:
    """The eight ``BOARD`` row tokens of a board (0 for a gap, which a real ``BOARD`` never holds)."""
    return ["".join(str(f) for f in fish[ROW_STARTS[r] : ROW_STARTS[r] + ROW_LENGTHS[r]]) for r in range(ROWS)]
