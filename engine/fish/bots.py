"""Built-in fish players, written against typed observations, each seeded.

* ``random``: a uniformly random legal placement or move.
* ``greedy``: places each penguin on the free 1-fish tile with the most fish around it and the
  most room to move; then makes the move that takes the most fish now and lands on the richest
  tile, preferring landings with free neighbours; seeded tie-breaks.
* ``search``: paranoid alpha-beta with a territory evaluation (``engine/fish/search.py``).
"""

from __future__ import annotations

import random

from engine.fish.board import RAYS, cell_index
from engine.fish.observations import FishObservation, Move, Place
from engine.fish.search import SearchBot


class RandomBot:
    """A uniformly random legal action.

    Args:
        seed: Seeds every choice.
    """

    def __init__(self, seed: int = 0) -> None:
        self.rng = random.Random(seed)

    def act(self, observation: FishObservation) -> Place | Move:
        """One of ``observation.legal``, drawn at random."""
        return self.rng.choice(observation.legal)


class GreedyBot:
    """One-ply rules of thumb: rich tiles now, room to move next.

    A placement scores the fish on the free tiles next to it plus half the free tiles its penguin
    could slide to. A move scores the fish of the tile left (taken now) and of the landing tile
    (taken when the penguin moves on), plus a little for each free tile next to the landing; a
    landing with no free neighbour (a penguin stuck for good) loses a point.

    Args:
        seed: Seeds the tie-breaks.
    """

    def __init__(self, seed: int = 0) -> None:
        self.rng = random.Random(seed)

    def act(self, observation: FishObservation) -> Place | Move:
        """The legal action that scores best, ties broken at random."""
        fish = observation.fish
        taken = {cell_index(r, c) for seat in observation.penguins for r, c in seat}
        scored = []
        for action in observation.legal:
            if isinstance(action, Place):
                cell = cell_index(action.r, action.c)
                score = _room(cell, fish, taken, around=True) + 0.5 * _room(cell, fish, taken, around=False)
            else:
                start, end = cell_index(action.r1, action.c1), cell_index(action.r2, action.c2)
                after = (taken - {start}) | {end}
                free_next = sum(
                    1 for ray in RAYS[end] if ray and fish[ray[0]] and ray[0] not in after and ray[0] != start
                )
                score = fish[start] + fish[end] + 0.2 * free_next - (1 if free_next == 0 else 0)
            scored.append((score + 0.01 * self.rng.random(), action))
        return max(scored, key=lambda item: item[0])[1]


def _room(cell: int, fish: tuple[int, ...], taken: set[int], around: bool) -> int:
    """The fish on the free tiles next to ``cell`` (``around``), or how many free tiles it can slide to."""
    total = 0
    for ray in RAYS[cell]:
        for target in ray:
            if not fish[target] or target in taken:
                break
            total += fish[target] if around else 1
            if around:
                break
    return total


BUILTIN_BOTS: dict[str, type] = {"random": RandomBot, "greedy": GreedyBot, "search": SearchBot}
