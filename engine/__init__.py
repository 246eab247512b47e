"""Game rules, pure and deterministic. The registry maps a game's name to its Game class."""

from __future__ import annotations

from engine.attack2048 import Attack2048
from engine.codevs21 import Codevs21
from engine.core import Game
from engine.fish import Fish
from engine.geister import Geister
from engine.nimmt import Nimmt
from engine.pk2048 import PK2048
from engine.synthetic import Synthetic
from engine.versus2048 import Versus2048

GAMES: dict[str, type[Game]] = {
    Attack2048.name: Attack2048,
    Versus2048.name: Versus2048,
    PK2048.name: PK2048,
    Geister.name: Geister,
    Nimmt.name: Nimmt,
    Fish.name: Fish,
    Codevs21.name: Codevs21,
    Synthetic.name: Synthetic,
}


def get_game(name: str) -> type[Game]:
    """The Game class registered under ``name``.

    Raises:
        KeyError: No such game; the message lists the known ones.
    """
    try:
        return GAMES[name]
    except KeyError:
        raise KeyError(f"unknown game {name!r}; known games: {', '.join(sorted(GAMES))}") from None
