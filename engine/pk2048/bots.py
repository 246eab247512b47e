"""Built-in pk2048 players, written against typed observations, each seeded.

* ``random``: a legal operation drawn uniformly from all of them (slides, interferences, bombs).
* ``greedy``: the operation with the best immediate score; a plain slide wins ties against a
  bomb (the bomb is kept for later), remaining ties are broken by the seeded RNG. It never
  interferes (an interference scores nothing, and a slide always exists when it is possible).
* ``expectimax``: a search over own operations including bomb and interference, the spawn as a
  chance node and the opponent's reply as its best answer (engine/pk2048/search.py).
"""

from __future__ import annotations

import random

from engine.pk2048.rules import Observation, Operation, legal_operations
from engine.pk2048.search import ExpectimaxBot


class RandomBot:
    """A uniformly random legal operation.

    Args:
        seed: Seeds its choices.
        four_probability: The variant's spawn odds (``PK2048.bot_rules``); not needed here.
        target_tile: The variant's target tile; not needed here.
    """

    def __init__(self, seed: int = 0, four_probability: float = 0.5, target_tile: int = 2048) -> None:
        self.rng = random.Random(seed)

    def act(self, observation: Observation) -> Operation:
        options = legal_operations(observation.board, observation.my_interference_used, observation.my_bomb_used)
        return self.rng.choice(options)[0]


class GreedyBot:
    """The best immediate score, slides before bombs, seeded tie-breaks.

    Args:
        seed: Seeds its tie-breaks.
        four_probability: The variant's spawn odds (``PK2048.bot_rules``); not needed here.
        target_tile: The variant's target tile; not needed here.
    """

    def __init__(self, seed: int = 0, four_probability: float = 0.5, target_tile: int = 2048) -> None:
        self.rng = random.Random(seed)

    def act(self, observation: Observation) -> Operation:
        options = legal_operations(observation.board, True, observation.my_bomb_used)
        best = max(gain for _, _, gain in options)
        top = [operation for operation, _, gain in options if gain == best]
        slides = [operation for operation in top if operation.bomb == 0]
        return self.rng.choice(slides or top)


BUILTIN_BOTS: dict[str, type] = {"random": RandomBot, "greedy": GreedyBot, "expectimax": ExpectimaxBot}
