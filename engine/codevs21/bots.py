"""Built-in codevs21 players (solo and versus), written against the observations, each seeded.

* ``random``: a random rotation and a random legal position.
* ``greedy``: the move that scores most this turn; among equals, the lowest field after it.
* ``chains``: builds before it fires. Each turn it weighs firing now (the best score this turn)
  against building: of the moves that erase nothing, the ``width`` that leave the lowest field
  are tried, and each is worth the best score the next pack could then make. It builds while
  that promise beats firing now and the field has room; it fires when it does not.
"""

from __future__ import annotations

import random
from collections.abc import Iterator

from engine.codevs21.field import Field
from engine.codevs21.observations import SoloObservation, VersusObservation
from engine.codevs21.packs import Pack, legal_positions, rotate
from engine.core import require_at_least


def moves(pack: Pack, well: Field) -> Iterator[tuple[int, int, Pack]]:
    """Every legal move of ``pack``: (X, R, the rotated pack); rotations that look alike once."""
    side, seen = well.params.T, set()
    for rotation in range(4):
        rotated = rotate(pack, side, rotation)
        if rotated in seen:
            continue
        seen.add(rotated)
        for x in legal_positions(rotated, side, well.params.W):
            yield x, rotation, rotated


def tried(well: Field, rotated: Pack, x: int) -> tuple[Field, int, bool]:
    """The field after a move on a copy: (field, points it scored, whether anything was erased)."""
    after = well.copy()
    steps = after.play(rotated, x)
    return after, after.score - well.score, bool(steps)


def height(well: Field) -> int:
    """The tallest column."""
    return max(len(column) for column in well.columns)


class RandomBot:
    """A random rotation, then a random legal position for it.

    Args:
        seed: Seeds every choice.
    """

    def __init__(self, seed: int = 0) -> None:
        self.rng = random.Random(seed)

    def act(self, observation: SoloObservation | VersusObservation) -> tuple[int, int]:
        """A random legal move."""
        params = observation.params
        rotation = self.rng.randrange(4)
        rotated = rotate(observation.pack, params.T, rotation)
        return self.rng.choice(legal_positions(rotated, params.T, params.W)), rotation


class GreedyBot:
    """The move that scores most now; then the lowest field; seeded tie-breaks; never an overflow if avoidable.

    Args:
        seed: Seeds the tie-breaks.
    """

    def __init__(self, seed: int = 0) -> None:
        self.rng = random.Random(seed)

    def act(self, observation: SoloObservation | VersusObservation) -> tuple[int, int]:
        """The best move by (no overflow, points now, lower field)."""
        well = observation.well()
        best_key, best = None, (0, 0)
        for x, rotation, rotated in moves(observation.pack, well):
            after, points, _ = tried(well, rotated, x)
            key = (not after.overflowed(), points, -height(after), self.rng.random())
            if best_key is None or key > best_key:
                best_key, best = key, (x, rotation)
        return best


class ChainBot:
    """Builds a well that can chain; fires when the next pack promises no more than firing now.

    Args:
        seed: Seeds the tie-breaks.
        width: Building moves looked at one pack further each turn (the work budget).
        margin: Rows kept free below H before it must fire (in packs of T rows).
    """

    def __init__(self, seed: int = 0, width: int = 3, margin: float = 1.0) -> None:
        require_at_least(1, width=width)
        require_at_least(0, margin=margin)
        self.rng = random.Random(seed)
        self.width = width
        self.margin = margin

    def act(self, observation: SoloObservation | VersusObservation) -> tuple[int, int]:
        """Fire now or build, whichever the next pack says is worth more."""
        params, well, turn = observation.params, observation.well(), observation.turn
        fire_key, fire_move = None, (0, 0)
        builds = []
        for x, rotation, rotated in moves(observation.pack, well):
            after, points, erased = tried(well, rotated, x)
            safe = not after.overflowed()
            key = (safe, points, -height(after), self.rng.random())
            if fire_key is None or key > fire_key:
                fire_key, fire_move = key, (x, rotation)
            if safe and not erased and height(after) <= params.H - self.margin * params.T:
                builds.append((height(after), self.rng.random(), after, (x, rotation)))
        assert fire_key is not None
        if not builds or turn + 1 >= len(observation.packs):
            return fire_move
        builds.sort(key=lambda build: build[:2])
        promise, build_move = -1, builds[0][3]
        for _, _, after, move in builds[: self.width]:
            best_next = max(
                (
                    points
                    for x, _, rotated in moves(observation.packs[turn + 1], after)
                    for _, points, _ in [tried(after, rotated, x)]
                ),
                default=0,
            )
            if best_next > promise:
                promise, build_move = best_next, move
        return build_move if promise > fire_key[1] else fire_move


BUILTIN_BOTS: dict[str, type] = {"random": RandomBot, "greedy": GreedyBot, "chains": ChainBot}
