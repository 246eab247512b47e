"""What a fish player answers and what it is shown, typed: a placement, a move, the observation.

The referee's state (engine/fish/rules.py) makes the observations; engine/fish/protocol.py turns
them into bytes and the bytes of a reply into ``Place`` or ``Move``.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Place:
    """A placement: a penguin onto ``(r, c)`` (the reply ``r c``)."""

    r: int
    c: int

    def __str__(self) -> str:
        return f"{self.r} {self.c}"


@dataclass(frozen=True, order=True)
class Move:
    """A move of the penguin on ``(r1, c1)`` to ``(r2, c2)`` (the reply ``r1 c1 r2 c2``)."""

    r1: int
    c1: int
    r2: int
    c2: int

    def __str__(self) -> str:
        return f"{self.r1} {self.c1} {self.r2} {self.c2}"


@dataclass(frozen=True)
class FishObservation:
    """What a seat sees when asked (the game has no hidden information).

    Attributes:
        seat: The seat asked.
        phase: ``place`` or ``move``.
        turn: The turn number of this request.
        penguins_per_player: ``k``.
        fish: Per cell in reading order, the fish on its tile; 0 for a gap.
        penguins: Per seat, the ``(r, c)`` of its penguins on the board, in placement order.
        scores: Per seat, the fish collected so far.
        tiles: Per seat, the tiles collected so far.
        legal: Every legal action now, sorted.
    """

    seat: int
    phase: str
    turn: int
    penguins_per_player: int
    fish: tuple[int, ...]
    penguins: tuple[tuple[tuple[int, int], ...], ...]
    scores: tuple[int, ...]
    tiles: tuple[int, ...]
    legal: tuple[Place | Move, ...]
