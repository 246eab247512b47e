"""geister's openings (engine/geister/README.md, "Openings"): the referee plays the first moves after both setups.

The setups stay the bots' own secret: the opening starts once both are accepted, and its random
policy draws each move uniformly among the legal moves of the seat to move. Every ``MOV?`` tells a
bot the whole board in its frame (captured pieces with their colours), so the bots need no other
bytes; a bot is sent no acknowledgement for a move it did not make.
"""

from __future__ import annotations

import random
from typing import Any

from engine.core import Request, State
from engine.geister import rules
from engine.geister.protocol import encode_action
from engine.geister.rules import GeisterState
from engine.openings import OpeningRules


class GeisterOpenings(OpeningRules):
    """How a geister match starts from an opening."""

    no_moves_file = "a move's legality and result depend on the setups, which are the bots' secret"

    def starts(self, state: State) -> bool:
        assert isinstance(state, GeisterState)
        return state.phase == rules.PLAY

    def random_action(self, state: State, request: Request, rng: random.Random) -> Any:
        assert isinstance(state, GeisterState)
        return rng.choice(state.legal_moves(request.seat))

    def notation(self, state: State, request: Request, action: Any) -> str:
        return encode_action(action)
