"""One game of a schedule as it crosses the wire to a worker (``GameSpec``), and its deterministic id.

A game's id is a hash of the league, the variant, the pairing, the round and the seat order (and what
their names stand for): the same config always gives the same ids, whatever runs them.
"""

from __future__ import annotations

import hashlib
from collections.abc import Sequence
from dataclasses import asdict, dataclass
from typing import Any


@dataclass(frozen=True)
class GameSpec:
    """One match to play, as it crosses the wire to a worker.

    Attributes:
        game_id: Deterministic id (hex).
        index: Position in the schedule (ratings are applied in this order).
        league: The league's name.
        variant: The variant's name.
        seats: Bot names, seat 0 first.
        seed: The match seed (below 2**63), shared by the seat-swapped twin (a table's rotations)
            and by every variant.
        round: Which repetition of the pairing this is (0-based pair of games); for tables, the
            table's number in the schedule.
        opening: What the game starts from (``league.plan.openings.Openings.for_round``: the same for
            both games of a pair), None for the rules' start.
    """

    game_id: str
    index: int
    league: str
    variant: str
    seats: tuple[str, ...]
    seed: int
    round: int
    opening: dict[str, Any] | None = None

    def to_json(self) -> dict[str, Any]:
        """JSON-ready data."""
        data = asdict(self)
        data["seats"] = list(self.seats)
        if self.opening is None:
            del data["opening"]  # a game without one is stored as it was before openings
        return data


def game_id(
    league: str, variant: str, pairing: Sequence[str], round_: int, seats: Sequence[str], content: str = ""
) -> str:
    """The id of one game: a hash of what makes it that game.

    Args:
        league: The league's name.
        variant: The variant's name.
        pairing: The bots that meet.
        round_: Which repetition of the pairing.
        seats: The seat order.
        content: What the names stand for (variant parameters, bot specs, seed, limits), so a
            changed config gives new games instead of reusing stored ones.
    """
    text = "\x1f".join([league, variant, ",".join(sorted(pairing)), str(round_), ",".join(seats), content])
    return hashlib.sha256(text.encode()).hexdigest()[:20]
