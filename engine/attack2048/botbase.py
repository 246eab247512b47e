"""Shared plumbing of the built-in attack2048 players (engine/attack2048/bots.py lists them).

The 4-tile allowance as a bot keeps it, board helpers, and one base class per role.
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Sequence
from typing import Any

from engine.attack2048.rules import SIZE, Attack2048Observation, Placement, Slide
from engine.slide import Board, square

GEOMETRY = square(SIZE)
_RIGHT = [(i, i + 1) for i in range(SIZE * SIZE) if (i + 1) % SIZE]
_DOWN = [(i, i + SIZE) for i in range(SIZE * SIZE - SIZE)]
NEIGHBOURS = tuple(_RIGHT + _DOWN)


class VariantRules:
    """The 4-tile allowance (3.5) as a bot sees it: counters kept from its own placements and boards.

    Args:
        tiles: The variant's tile values ([2] or [2, 4]).
        four_limit: Most 4s a half; None = no limit.
        four_every_twos: One credit per N placed 2s; None = off.
        four_on_new_max: One credit per slide that raises the largest tile.
    """

    def __init__(
        self,
        tiles: Iterable[int] = (2,),
        four_limit: int | None = None,
        four_every_twos: int | None = None,
        four_on_new_max: bool = False,
    ) -> None:
        self.fours_on = 4 in tuple(tiles)
        self.four_limit = four_limit
        self.four_every_twos = four_every_twos
        self.four_on_new_max = four_on_new_max
        self.earning = self.fours_on and (four_every_twos is not None or four_on_new_max)
        self.twos = self.fours = self.credits = 0
        self.left: Board | None = None

    def observe(self, board: Board) -> None:
        """Take in the board of a new request: a slide since the last placement may have earned a credit."""
        if not (self.fours_on and self.four_on_new_max) or not any(board):
            return
        if self.left is None:
            before = 1  # random_two: the defender first slid a board of two 2s
        elif board != self.left:
            before = max(self.left)
        else:
            return  # attacker_two: no slide between the two placements
        if max(board) > before:
            self.credits += 1

    def exponents(self) -> tuple[int, ...]:
        """The tile exponents allowed now: 1 (a 2), and 2 (a 4) when the allowance permits."""
        if not self.fours_on:
            return (1,)
        if self.four_limit is not None and self.fours >= self.four_limit:
            return (1,)
        if self.earning and self.credits < 1:
            return (1,)
        return (1, 2)

    def placed(self, board: Board, exponent: int) -> None:
        """Count one own placement; ``board`` is the board it left."""
        self.left = board
        if exponent == 1:
            self.twos += 1
            if self.fours_on and self.four_every_twos and self.twos % self.four_every_twos == 0:
                self.credits += 1
        else:
            self.fours += 1
            if self.earning:
                self.credits -= 1


def put(board: Board, cell: int, exponent: int) -> Board:
    """The board with ``exponent`` at ``cell``."""
    return board[:cell] + (exponent,) + board[cell + 1 :]


def empty_cells(board: Board) -> list[int]:
    """The empty cell indices in reading order."""
    return [i for i, e in enumerate(board) if not e]


class Player:
    """What every built-in of either role takes: a seed and the variant's 4-tile keys.

    Args:
        seed: Seeds its random choices.
        tiles: The variant's tile values ([2] or [2, 4]); told nothing, a bot assumes [2].
        four_limit: Most 4s the attacker may place a half; None = no limit.
        four_every_twos: One 4-credit per N placed 2s; None = off.
        four_on_new_max: One 4-credit per slide that raises the largest tile.
    """

    def __init__(
        self,
        seed: int = 0,
        tiles: Sequence[int] = (2,),
        four_limit: int | None = None,
        four_every_twos: int | None = None,
        four_on_new_max: bool = False,
    ) -> None:
        self.rng = random.Random(seed)
        self.rules = VariantRules(tiles, four_limit, four_every_twos, four_on_new_max)


class Attacker(Player):
    """Shared attacker plumbing: the variant's allowance, and the choice turned into a Placement."""

    def act(self, obs: Attack2048Observation) -> Placement:
        board = obs.board
        self.rules.observe(board)
        cell, exponent = self.choose(board, self.rules.exponents())
        self.rules.placed(put(board, cell, exponent), exponent)
        return Placement(cell % SIZE, cell // SIZE, 1 << exponent)

    def choose(self, board: Board, exponents: tuple[int, ...]) -> tuple[int, int]:
        """The (cell, exponent) to place."""
        raise NotImplementedError


class Defender(Player):
    """Shared defender plumbing: the attacker's tile values it may meet."""

    def __init__(self, seed: int = 0, **variant: Any) -> None:
        super().__init__(seed, **variant)
        self.exponents = (1, 2) if self.rules.fours_on else (1,)

    def act(self, obs: Attack2048Observation) -> Slide:
        return Slide(self.choose(obs.board))

    def choose(self, board: Board) -> str:
        """The direction to slide (the board has a legal one)."""
        raise NotImplementedError
