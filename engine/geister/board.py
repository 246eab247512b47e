"""geister's board: the 6x6 squares, the pieces' letters and start squares, the exits and directions.

Positions are kept in each seat's own frame (its pieces start on rows 4 and 5, its exits are
the opponent's back corners on row 0); the other seat sees (x, y) as (5 - x, 5 - y).
"""

from __future__ import annotations

SIZE = 6
LETTERS = "ABCDEFGH"
START = ((1, 4), (2, 4), (3, 4), (4, 4), (1, 5), (2, 5), (3, 5), (4, 5))
CAPTURED = (9, 9)
ESCAPED = (8, 8)
EXITS = ((0, 0), (5, 0))
DIRECTIONS = {"NORTH": (0, -1), "EAST": (1, 0), "SOUTH": (0, 1), "WEST": (-1, 0)}
SHORT = {word[0]: word for word in DIRECTIONS}


def rotate(square: tuple[int, int]) -> tuple[int, int]:
    """A square of one player's frame in the other player's frame (captured and escaped stay)."""
    if square in (CAPTURED, ESCAPED):
        return square
    return (SIZE - 1 - square[0], SIZE - 1 - square[1])
