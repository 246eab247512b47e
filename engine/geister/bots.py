"""Built-in geister players, written against typed observations, each seeded.

* ``random``: four random reds, then a uniformly random legal move.
* ``greedy``: one of a few sensible setups, then the legal move that scores best by one-ply rules
  of thumb: escape when it can, capture a piece that may be blue unless that may be the fourth
  red, run blues for the exits and keep them off squares the opponent can take, guard the
  corners the opponent runs for; seeded tie-breaks.
* ``search``: belief-weighted expectiminimax with alpha-beta (``engine/geister/search.py``).
"""

from __future__ import annotations

import random

from engine.geister.belief import OPP_EXITS, distance, my_exit_distance, opponent_exit_distance
from engine.geister.board import DIRECTIONS, EXITS, LETTERS, SIZE
from engine.geister.observations import Move, MoveObservation, SetReds, SetupObservation
from engine.geister.search import SearchBot

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


class SeededBot:
    """A built-in that draws its choices from its seed and knows the rules the league tells it.

    Args:
        seed: Seeds every choice (the setup and the tie-breaks).
        escape: The variant's escape rule (given by the league).
        max_plies: The variant's ply cap (given by the league).
    """

    def __init__(self, seed: int = 0, escape: str = "on_turn_start", max_plies: int = 254) -> None:
        self.rng = random.Random(seed)
        self.escape = escape
        self.max_plies = max_plies


class RandomBot(SeededBot):
    """Random reds, then a uniformly random legal move."""

    def act(self, obs: Observation) -> Action:
        if isinstance(obs, SetupObservation):
            return SetReds("".join(sorted(self.rng.sample(LETTERS, 4))))
        return self.rng.choice(legal_moves(obs, self.escape))


def _step(square: tuple[int, int], direction: str) -> tuple[int, int]:
    dx, dy = DIRECTIONS[direction]
    return square[0] + dx, square[1] + dy


def _neighbours(square: tuple[int, int]) -> list[tuple[int, int]]:
    return [(square[0] + dx, square[1] + dy) for dx, dy in DIRECTIONS.values()]


class GreedyBot(SeededBot):
    """A sensible setup, then the best legal move by one-ply rules of thumb.

    Each move is scored: an escape (or a blue stepping onto an exit no opponent piece can reach in
    time) first; a capture is worth more the likelier the piece is blue and the nearer it is to
    its exits, and is avoided when it may be the fourth red (which loses); a blue gains for each
    step toward the exits and loses for stepping next to an opponent piece; a piece stepping
    toward a corner an opponent piece threatens gains. Opponent colours are guessed only from the
    captured-colour counts (every unknown piece equally likely blue).
    """

    SETUPS = ("BCFG", "BCEH", "ADFG", "BCEF", "BCGH")

    def act(self, obs: Observation) -> Action:
        if isinstance(obs, SetupObservation):
            return SetReds(self.rng.choice(self.SETUPS))
        moves = legal_moves(obs, self.escape)
        scored = [(self.score(obs, move) + self.rng.random(), i) for i, move in enumerate(moves)]
        return moves[max(scored)[1]]

    def score(self, obs: MoveObservation, move: Move) -> float:
        """How good ``move`` looks (higher is better)."""
        index = LETTERS.index(move.piece)
        piece = obs.own[index]
        source = (piece.x, piece.y)
        target = _step(source, move.direction)
        if not (0 <= target[0] < SIZE and 0 <= target[1] < SIZE):
            return 1e6  # a legal move off the board is an escape
        theirs = {(p.x, p.y): i for i, p in enumerate(obs.opponent) if p.on_board}
        taken_red = sum(1 for p in obs.opponent if not p.on_board and p.colour == "r")
        taken_blue = sum(1 for p in obs.opponent if not p.on_board and p.colour == "b")
        p_blue = (4 - taken_blue) / max(len(theirs), 1)
        score = 0.0
        if target in theirs:
            threat = 6 - opponent_exit_distance(target)
            if taken_blue == 3:
                score += 1000 * p_blue - 1000 * (1 - p_blue) * (taken_red == 3)
            elif taken_red == 3:  # a red now loses: only stop a piece on its exit, and only if it is likelier blue
                score += (600 if p_blue >= 0.5 else -600) if target in OPP_EXITS else -300
            else:
                score += 40 + 8 * threat + (500 if target in OPP_EXITS else 0)
        others = [square for square in theirs if square != target]
        attacked = sum(1 for square in _neighbours(target) if square in others)
        if piece.colour == "B":
            score += 12 * (my_exit_distance(source) - my_exit_distance(target))
            if target in EXITS:
                score += 30 if attacked else 5000
            if attacked:
                score -= 45
            elif any(square in theirs for square in _neighbours(source)):
                score += 20
        else:
            score += 3 * attacked + (2 if move.direction == "NORTH" else 0)
        for square in others:
            if opponent_exit_distance(square) <= 2:
                corner = min(OPP_EXITS, key=lambda exit_, at=square: distance(at, exit_))
                score += 8 * (distance(corner, source) - distance(corner, target))
        return score


BUILTIN_BOTS: dict[str, type] = {"random": RandomBot, "greedy": GreedyBot, "search": SearchBot}
