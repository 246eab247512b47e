"""synthetic: two seats state their strength, the result is drawn from BayesElo (engine/synthetic/README.md).

For planning leagues and testing statistics, not a contest: a bot's reply is taken as its
strength. Seat 0 is asked first, then seat 1, one request each (``STRENGTH <seat>``); each replies
its Elo and, optionally, a style of the rock-paper-scissors cycle. Once both have replied, the
outcome is drawn from the model of ``engine/synthetic/model.py`` with one uniform number of a
generator seeded by the game's seed and both stated strengths in seat order, so the two games of a
seat-swapped pair (one seed) are drawn independently unless both seats state the same strength.
A winner ranks 1 and scores 2, a loser ranks 2 and scores 0, a draw ranks both 1 and scores 1
each. A reply that is late, malformed or missing loses at once (the other seat is not asked if
seat 0 faulted).
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from engine.core import Fault, ProcessKey, Request, Result, State, Termination, derive_seed
from engine.synthetic.model import draw_elo, elo_difference, outcome_probabilities, pick_outcome

MODEL_OUTCOME = "model_outcome"
"""The reason code of a game decided by the model (termination NORMAL)."""
FAULT_CODES = {
    Termination.TIMEOUT: "timeout",
    Termination.CRASH: "crash",
    Termination.BAD_OUTPUT: "bad_output",
    Termination.ILLEGAL_MOVE: "illegal",
}
"""The reason code of each kind of fault."""
MAX_ELO = 100_000
"""A stated Elo lies in -MAX_ELO .. MAX_ELO."""

_BOTH = frozenset({ProcessKey(0), ProcessKey(1)})
_NONE: frozenset[ProcessKey] = frozenset()
_REQUESTS = (Request(0), Request(1))
_POINTS = {1: [2, 0], 0: [1, 1], -1: [0, 2]}
"""Scores by seat 0's outcome: 2 a win, 1 a draw, 0 a loss."""
_RANKS = {1: [1, 2], 0: [1, 1], -1: [2, 1]}


@dataclass(frozen=True)
class StrengthRequest:
    """What a seat is asked: its strength. It is told its seat and nothing else."""

    seat: int


@dataclass(frozen=True)
class Strength:
    """A reply: the seat's Elo and its style in the cycle (None: outside the cycle)."""

    elo: float
    style: str | None = None


@dataclass
class SyntheticState(State):
    """A game in progress; see the module docstring for the rules."""

    seed: int
    draw_rate: float
    first_seat_elo: float
    cycle_elo: float
    reply_time_ms: int
    elos: list[float | None] = field(default_factory=lambda: [None, None])
    styles: list[str | None] = field(default_factory=lambda: [None, None])
    to_move: int = 0
    plies: int = 0
    over: bool = False
    outcome: int | None = None
    """Seat 0's outcome once decided by the model: 1 a win, 0 a draw, -1 a loss."""
    offender: int | None = None
    reason: str = ""
    termination: Termination = Termination.NORMAL
    detail: str = ""

    # -- referee interface -------------------------------------------------------------
    def to_act(self) -> list[Request]:
        return [] if self.over else [_REQUESTS[self.to_move]]

    def processes(self) -> frozenset[ProcessKey]:
        return _NONE if self.over else _BOTH

    def observation(self, request: Request) -> StrengthRequest:
        return StrengthRequest(request.seat)

    def time_allowance_ms(self, request: Request) -> int:
        return self.reply_time_ms

    def charge_time(self, request: Request, elapsed_ms: int) -> Fault | None:
        if elapsed_ms <= self.reply_time_ms:
            return None
        detail = (
            f"seat {request.seat} took {elapsed_ms} ms to state its strength, over the limit of {self.reply_time_ms} ms"
        )
        return Fault(request.seat, Termination.TIMEOUT, FAULT_CODES[Termination.TIMEOUT], detail)

    def check(self, request: Request, action: Any) -> Fault | None:
        return None  # every well-formed strength is legal

    def apply(self, actions: Mapping[Request, Any]) -> None:
        ((request, action),) = actions.items()
        seat = request.seat
        self.elos[seat], self.styles[seat] = float(action.elo), action.style
        self.plies += 1
        if seat == 0:
            self.to_move = 1
            return
        probabilities = self.probabilities()
        assert probabilities is not None
        self.outcome = pick_outcome(self.uniform(), probabilities)
        self.over, self.reason = True, MODEL_OUTCOME
        words = {1: "seat 0 won", 0: "a draw", -1: "seat 1 won"}[self.outcome]
        win, draw, loss = probabilities
        self.detail = (
            f"{words} (the model's chances for seat 0 at d = {self.difference():g} Elo: win {win:.3f}, "
            f"draw {draw:.3f}, loss {loss:.3f})"
        )

    def fault(self, fault: Fault) -> None:
        self.over, self.offender = True, fault.seat
        self.reason, self.termination, self.detail = fault.reason_code, fault.termination, fault.detail

    def is_over(self) -> bool:
        return self.over

    # -- the model ---------------------------------------------------------------------
    def difference(self) -> float | None:
        """d, seat 0's side, once both seats stated their strength (else None)."""
        elo_0, elo_1 = self.elos
        if elo_0 is None or elo_1 is None:
            return None
        styles = (self.styles[0], self.styles[1])
        return elo_difference((elo_0, elo_1), styles, self.first_seat_elo, self.cycle_elo)

    def probabilities(self) -> tuple[float, float, float] | None:
        """Seat 0's chances to win, draw and lose, once both seats stated their strength (else None)."""
        d = self.difference()
        return None if d is None else outcome_probabilities(d, draw_elo(self.draw_rate))

    def uniform(self) -> float:
        """The game's one uniform draw in [0, 1): from the seed and both stated strengths, in seat order."""
        stated = [f"{elo!r}/{style}" for elo, style in zip(self.elos, self.styles, strict=True)]
        return random.Random(derive_seed(self.seed, "outcome", *stated)).random()

    # -- the end -----------------------------------------------------------------------
    def result(self) -> Result:
        if not self.over:
            raise RuntimeError("the game is not over")
        if self.offender is not None:
            decided = -1 if self.offender == 0 else 1
        else:
            assert self.outcome is not None
            decided = self.outcome
        winner = {1: 0, 0: None, -1: 1}[decided]
        probabilities = self.probabilities()
        return Result(
            scores=list(_POINTS[decided]),
            ranks=list(_RANKS[decided]),
            termination=self.termination,
            offenders=[] if self.offender is None else [self.offender],
            reason_code=self.reason,
            detail=self.detail,
            plies=self.plies,
            extra={
                "winner": winner,
                "elos": list(self.elos),
                "styles": list(self.styles),
                "elo_difference": self.difference(),
                "probabilities": None if probabilities is None else list(probabilities),
            },
        )

    def to_json(self) -> dict[str, Any]:
        data = {key: getattr(self, key) for key in self.__dataclass_fields__}
        data["elos"], data["styles"] = list(self.elos), list(self.styles)
        data["termination"] = self.termination.value
        return data

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> SyntheticState:
        fields = dict(data)
        fields["elos"], fields["styles"] = list(data["elos"]), list(data["styles"])
        fields["termination"] = Termination(data["termination"])
        return cls(**fields)
