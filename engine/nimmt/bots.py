"""Built-in nimmt players, written against typed observations, each seeded.

* ``random``: a uniformly random card of the hand; a uniformly random row to take.
* ``greedy``: one ply of risk. For each card it estimates the penalty the card costs this round
  (``engine/nimmt/tracking.py``): on a row with room, the row's bullheads (and the cards that
  would fill it) times the chance that enough unseen cards land on that row before it to make it
  the sixth; on a full row, the row's bullheads unless an unseen card lands first; for a card
  below every row end, the cheapest row unless an opponent plays lower still. It plays the card
  with the lowest estimate (seeded tie-breaks) and, asked to take a row, takes the cheapest.
* ``montecarlo``: samples the opponents' hands from the unseen cards and plays the rest of the
  deal out with a fast rule of thumb for every seat (``engine/nimmt/montecarlo.py``).
"""

from __future__ import annotations

import random

from engine.nimmt.montecarlo import MonteCarloBot
from engine.nimmt.rules import PlayObservation, TakeObservation
from engine.nimmt.tracking import TABLES, CardTracker, landing_risks, play_chance

Observation = PlayObservation | TakeObservation


class RandomBot:
    """A random card, a random row to take.

    Args:
        seed: Seeds every choice.
    """

    def __init__(self, seed: int = 0) -> None:
        self.rng = random.Random(seed)

    def act(self, observation: Observation) -> int:
        """A card of the hand for ``PLAY``, a row 0..3 for ``TAKE``."""
        if isinstance(observation, TakeObservation):
            return self.rng.randrange(4)
        return self.rng.choice(observation.hand)


def cheapest_rows(rows: tuple[tuple[int, ...], ...], table: tuple[int, ...]) -> list[int]:
    """The rows with the fewest bullheads, by number."""
    costs = [sum(table[card] for card in row) for row in rows]
    return [k for k, cost in enumerate(costs) if cost == min(costs)]


class GreedyBot:
    """The card with the lowest one-ply expected penalty; the cheapest row to take.

    Args:
        seed: Seeds the tie-breaks.
    """

    def __init__(self, seed: int = 0) -> None:
        self.rng = random.Random(seed)
        self.tracker = CardTracker()

    def act(self, observation: Observation) -> int:
        """A card of the hand for ``PLAY``, a row 0..3 for ``TAKE``."""
        self.tracker.update(observation)
        table = TABLES[observation.bullheads]
        if isinstance(observation, TakeObservation):
            return self.rng.choice(cheapest_rows(observation.rows, table))
        return min(self.risks(observation).items(), key=lambda item: (item[1], self.rng.random()))[0]

    def risks(self, observation: PlayObservation) -> dict[int, float]:
        """Per card of the hand, the penalty it is expected to cost this round."""
        unseen = self.tracker.unseen()
        chance = play_chance(observation.players, len(unseen))
        table = TABLES[observation.bullheads]
        risks = landing_risks(observation.hand, observation.rows, unseen, chance, table)
        return dict(zip(observation.hand, risks, strict=True))


BUILTIN_BOTS: dict[str, type] = {"random": RandomBot, "greedy": GreedyBot, "montecarlo": MonteCarloBot}
