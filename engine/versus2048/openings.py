"""versus2048's openings (engine/versus2048/README.md, "Openings"): the referee plays the first plies.

The random policy draws each choice uniformly in turn: the pre-game cell among all N x N cells; a
turn's slide among the slides that change the board, then the attack's split ``M = 2**k`` among
the k that fit the opponent's empty cells, then the M cells among those empty cells. Every turn
input tells a bot the whole position, so the bots need no other bytes; the pre-game request is
still sent (it is how a bot learns its seat) and its reply judged, but the opening's cell is put.
"""

from __future__ import annotations

import random
from typing import Any

from engine.core import Request, State
from engine.openings import OpeningRules
from engine.slide import DIRECTIONS
from engine.versus2048 import rules
from engine.versus2048.protocol import encode_action
from engine.versus2048.rules import Placement, TurnMove, Versus2048State


class Versus2048Openings(OpeningRules):
    """How a versus2048 match starts from an opening."""

    def asked_anyway(self, state: State) -> bool:
        assert isinstance(state, Versus2048State)
        return state.phase == rules.PREGAME

    def random_action(self, state: State, request: Request, rng: random.Random) -> Any:
        assert isinstance(state, Versus2048State)
        n = state.board_size
        if state.phase == rules.PREGAME:
            return Placement(rng.randrange(n) + 1, rng.randrange(n) + 1)
        seat = request.seat
        board = state.boards[seat]
        slides = [(d, state.slide_outcome(seat, d)) for d in DIRECTIONS]
        direction, outcome = rng.choice([(d, o) for d, o in slides if o.changed(board)])
        opponent = state.boards[1 - seat]
        empty = [(i // n + 1, i % n + 1) for i, value in enumerate(opponent) if value == 0]
        splits = [k for k in range(outcome.merges + 1) if 1 << k <= len(empty)]
        k = rng.choice(splits)
        return TurnMove(direction, outcome.merges + 1 - k, tuple(sorted(rng.sample(empty, 1 << k))))

    def notation(self, state: State, request: Request, action: Any) -> str:
        return encode_action(action)
