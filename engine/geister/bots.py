"""Built-in geister players, written against typed observations, each seeded.

* ``random``: four random reds, then a uniformly random legal move.
"""

from __future__ import annotations

import random

from engine.geister.rules import (
    DIRECTIONS,
    EXITS,
    LETTERS,
    SIZE,
    Move,
    MoveObservation,
    SetReds,
    SetupObservation,
)

Observation = SetupObservation | MoveObservation
Action = SetReds | Move


def legal_moves(obs: MoveObservation, escape: str = "on_turn_start") -> list[Move]:
    """Every legal move in an observation (own frame), escapes off the board included under ``move_off``."""
    own = {(p.x, p.y) for p in obs.own if p.on_board}
    moves = []
    for letter, piece in zip(LETTERS, obs.own, strict=True):
        if not piece.on_board:
            continue
        for word, (dx, dy) in DIRECTIONS.items():
            x, y = piece.x + dx, piece.y + dy
            if 0 <= x < SIZE and 0 <= y < SIZE:
                if (x, y) not in own:
                    moves.append(Move(letter, word))
            elif escape == "move_off" and (piece.x, piece.y) in EXITS and piece.colour == "B":
                moves.append(Move(letter, word))
    return moves


class RandomBot:
    """Random reds, then a uniformly random legal move.

    Args:
        seed: Seeds every choice.
        escape: The variant's escape rule (given by the league).
        max_plies: The variant's ply cap (given by the league).
    """

    def __init__(self, seed: int = 0, escape: str = "on_turn_start", max_plies: int = 254) -> None:
        self.rng = random.Random(seed)
        self.escape = escape
        self.max_plies = max_plies

    def act(self, obs: Observation) -> Action:
        if isinstance(obs, SetupObservation):
            return SetReds("".join(sorted(self.rng.sample(LETTERS, 4))))
        return self.rng.choice(legal_moves(obs, self.escape))


BUILTIN_BOTS: dict[str, type] = {"random": RandomBot}
