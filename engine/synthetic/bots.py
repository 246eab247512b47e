"""Built-in synthetic players: each states a strength, written against typed observations, each seeded.

* ``model``: states the Elo and the style it is given, every game the same.
* ``random``: states a random whole Elo from 1000 to 2000 and a random style or none (for the
  conformance tests' random playouts).
"""

from __future__ import annotations

import random
from typing import Literal

from engine.synthetic.rules import MAX_ELO, Strength, StrengthRequest

Style = Literal["none", "rock", "paper", "scissors"]
_DECIMALS = 6


class ModelBot:
    """States its parameters as its strength: an ``elo`` and, unless none, a ``style``.

    Args:
        seed: Unused: the reply is the same every game.
        elo: The Elo it states (from -100000 to 100000, rounded to 6 decimal places).
        style: Its place in the rock-paper-scissors cycle, or none to stay outside it.
    """

    def __init__(self, seed: int = 0, elo: float = 1500, style: Style = "none") -> None:
        if not -MAX_ELO <= elo <= MAX_ELO:
            raise ValueError(f"elo must be from -{MAX_ELO} to {MAX_ELO}, not {elo}")
        if style not in ("none", "rock", "paper", "scissors"):
            raise ValueError(f"style must be none, rock, paper or scissors, not {style!r}")
        self.strength = Strength(round(float(elo), _DECIMALS), None if style == "none" else style)

    def act(self, observation: StrengthRequest) -> Strength:
        """The strength it was given."""
        return self.strength


class RandomBot:
    """States a random whole Elo from 1000 to 2000 and a random style or none.

    Args:
        seed: Seeds the choice.
    """

    def __init__(self, seed: int = 0) -> None:
        self.rng = random.Random(seed)

    def act(self, observation: StrengthRequest) -> Strength:
        """A fresh random strength."""
        return Strength(float(self.rng.randint(1000, 2000)), self.rng.choice((None, "rock", "paper", "scissors")))


BUILTIN_BOTS: dict[str, type] = {"model": ModelBot, "random": RandomBot}
