"""The 2048 slide and merge, shared by versus2048, pk2048 and attack2048.

Boards are flat row-major tuples of exponents (0 empty, e >= 1 a tile of value 2**e). For a
direction every line parallel to it is slid on its own: the tiles are read from the destination
edge, equal neighbours (empties skipped) merge once into one tile of the next exponent, a merged
tile never merges again in the same slide, and the result is packed against the edge. A merge of
two 2**e tiles is worth 2**(e + 1). Directions are ``U`` (toward row 0), ``R``, ``D``, ``L``.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import cache, lru_cache
from operator import itemgetter
from typing import Any

Board = tuple[int, ...]
DIRECTIONS = ("U", "R", "D", "L")


@dataclass(frozen=True)
class SlideOutcome:
    """What one slide did.

    Attributes:
        board: The board after the slide.
        merges: How many merges happened (X).
        gain: Sum of the values of the tiles merges created.
    """

    board: Board
    merges: int
    gain: int

    def changed(self, before: Board) -> bool:
        """Whether the slide was effective (the board differs)."""
        return self.board != before


@lru_cache(maxsize=1 << 16)
def slide_line(line: tuple[int, ...]) -> tuple[tuple[int, ...], int, int]:
    """Slide one line toward its index 0.

    Args:
        line: Exponents, the destination edge first.

    Returns:
        The new line, the number of merges and the score gain.
    """
    tiles = [value for value in line if value]
    packed: list[int] = []
    merges = gain = 0
    i = 0
    while i < len(tiles):
        if i + 1 < len(tiles) and tiles[i] == tiles[i + 1]:
            packed.append(tiles[i] + 1)
            merges += 1
            gain += 1 << (tiles[i] + 1)
            i += 2
        else:
            packed.append(tiles[i])
            i += 1
    packed.extend([0] * (len(line) - len(packed)))
    return tuple(packed), merges, gain


@dataclass(frozen=True)
class Geometry:
    """A rows x cols board: its cell indices grouped into lines, per direction.

    Attributes:
        rows: Number of rows.
        cols: Number of columns.
    """

    rows: int
    cols: int
    lines: dict[str, tuple[tuple[int, ...], ...]] = field(init=False, repr=False, compare=False)
    _plans: dict[str, tuple[Any, Any, int]] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        rows, cols = self.rows, self.cols
        row_lines = [tuple(r * cols + c for c in range(cols)) for r in range(rows)]
        col_lines = [tuple(r * cols + c for r in range(rows)) for c in range(cols)]
        lines = {
            "L": tuple(row_lines),
            "R": tuple(tuple(reversed(line)) for line in row_lines),
            "U": tuple(col_lines),
            "D": tuple(tuple(reversed(line)) for line in col_lines),
        }
        object.__setattr__(self, "lines", lines)
        # Per direction: gather the cells line after line, and scatter the slid lines back.
        plans = {}
        for direction, direction_lines in lines.items():
            order = [i for line in direction_lines for i in line]
            position = {cell: k for k, cell in enumerate(order)}
            plans[direction] = (
                itemgetter(*order),
                itemgetter(*(position[cell] for cell in range(rows * cols))),
                len(direction_lines[0]),
            )
        object.__setattr__(self, "_plans", plans)

    @property
    def cells(self) -> int:
        """Number of cells."""
        return self.rows * self.cols

    def slide(self, board: Board, direction: str) -> SlideOutcome:
        """Slide ``board`` in ``direction`` (one of ``U R D L``)."""
        gather, scatter, length = self._plans[direction]
        values = gather(board)
        slid: list[int] = []
        merges = gain = 0
        for start in range(0, len(values), length):
            new, line_merges, line_gain = slide_line(values[start : start + length])
            slid += new
            merges += line_merges
            gain += line_gain
        return SlideOutcome(scatter(slid), merges, gain)

    def can_move(self, board: Board) -> bool:
        """Whether some direction changes a board that holds at least one tile."""
        if 0 in board:
            return True
        cols = self.cols
        for i, value in enumerate(board):
            if (i + 1) % cols and board[i + 1] == value:
                return True
            if i + cols < len(board) and board[i + cols] == value:
                return True
        return False

    def best_gain(self, board: Board) -> int:
        """The most one effective slide of ``board`` scores; -1 if no slide changes it."""
        best = -1
        for direction in DIRECTIONS:
            outcome = self.slide(board, direction)
            if outcome.board != board and outcome.gain > best:
                best = outcome.gain
        return best

    def pressure(self, board: Board) -> float:
        """How close a board is to being stuck, 0 (empty) to 1 (no slide changes it).

        Six tenths come from how full it is, four tenths from how few of the four directions
        still change it: a full board that still merges is tense, one slide from stuck more so.
        """
        empty = board.count(0)
        directions = 4 if empty == len(board) else sum(self.slide(board, d).board != board for d in DIRECTIONS)
        return 0.6 * (1 - empty / len(board)) + 0.4 * (1 - directions / 4)

    def effective_moves(self, board: Board) -> dict[str, SlideOutcome]:
        """The directions that change the board, with their outcomes."""
        moves = {}
        for direction in DIRECTIONS:
            outcome = self.slide(board, direction)
            if outcome.board != board:
                moves[direction] = outcome
        return moves


@cache
def square(size: int) -> Geometry:
    """The geometry of a size x size board (cached)."""
    return Geometry(size, size)
