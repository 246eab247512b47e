"""attack2048's openings (engine/attack2048/README.md, "Openings"): each half starts with the same plies.

The referee plays the opening's plies at the start of both halves, so each half (and both games
of a seat-swapped pair) starts from one board. The random policy draws each choice uniformly: the
attacker's placement among the (empty cell, allowed tile) pairs, the defender's slide among those
that change the board. Every request shows the whole board, so the bots need no other bytes. The
half's score starts once the opening is over: its slides score for no one.
"""

from __future__ import annotations

import random
from typing import Any

from engine.attack2048 import ATTACK
from engine.attack2048.protocol import encode_action
from engine.attack2048.rules import SIZE, Attack2048State, Placement, Slide
from engine.core import Request, State
from engine.openings import OpeningRules
from engine.slide import DIRECTIONS


class Attack2048Openings(OpeningRules):
    """How an attack2048 match starts from an opening."""

    def section(self, state: State) -> Any:
        assert isinstance(state, Attack2048State)
        return state.half

    def opened(self, state: State) -> None:
        assert isinstance(state, Attack2048State)
        state.score = 0  # the opening's slides are the referee's: the defender scores from here

    def random_action(self, state: State, request: Request, rng: random.Random) -> Any:
        assert isinstance(state, Attack2048State)
        if request.role == ATTACK:
            cells = [(i % SIZE, i // SIZE) for i, value in enumerate(state.board) if value == 0]
            choices = [
                Placement(x, y, value)
                for x, y in cells
                for value in sorted(state.tiles)
                if state.check(request, Placement(x, y, value)) is None
            ]
            return rng.choice(choices)
        return Slide(rng.choice([d for d in DIRECTIONS if state.slide_outcome(d).changed(state.board)]))

    def notation(self, state: State, request: Request, action: Any) -> str:
        return encode_action(action)
