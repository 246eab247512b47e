"""nimmt: 6 Nimmt! under the GPCC 2016 rules (rules/nimmt.md).

2 to 10 players, cards 1..104, each worth bullheads (``gpcc`` or ``classic`` table). A deal: one
shuffle of ``random.Random(seed)`` (one generator for the whole game), 10 cards a seat (seat s
gets ``deck[10s .. 10s+9]``), four rows started by ``deck[10n .. 10n+3]``. Ten rounds: every seat
chooses a card at once (``PLAY``); the cards are resolved in ascending order. The lowest card,
if lower than every row end, makes its owner take a row of its choice (``TAKE``) and start it
anew; any other card goes on the row with the largest end below it, and as a sixth card makes
its owner take the five cards there. Totals add up over all deals; lower is better. The game
ends after ``deals`` deals, or with ``target > 0`` after the first deal ending with a total at
or over ``target``. A faulted seat becomes a fallback seat (lowest card; cheapest row, lowest
number on ties) and ranks below every clean seat, later faults better; with fewer than two
live seats left after a request phase the game stops at once, that round abandoned.
"""

from __future__ import annotations

import copy
import random
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from engine.core import Fault, ProcessKey, Request, Result, State, Termination, plural

CARDS = 104
HAND_SIZE = 10
ROUNDS = 10
ROW_COUNT = 4
ROW_LIMIT = 5
PLAY_PHASE, TAKE_PHASE, OVER = "play", "take", "over"
FAULT_CODES = {
    Termination.TIMEOUT: "timeout",
    Termination.CRASH: "crash",
    Termination.BAD_OUTPUT: "bad_output",
    Termination.ILLEGAL_MOVE: "illegal",
}
MATCH_COMPLETE = "match_complete"
EARLY_STOP = "early_stop"


def bullheads(card: int, table: str = "gpcc") -> int:
    """The penalty of one card under the ``gpcc`` or ``classic`` table (2.1)."""
    if card == 55:
        return 7
    if card % 11 == 0:
        return 5
    if card % 10 == 0:
        return 3
    if card % 5 == 0:
        return 2 if table == "classic" else 1
    return 1


def row_cost(row: list[int], table: str) -> int:
    """The bullheads of every card of a row."""
    return sum(bullheads(card, table) for card in row)


def shuffled_deck(seed: int, deal: int) -> list[int]:
    """The deck of deal ``deal`` (from 1): the ``deal``-th shuffle of one ``random.Random(seed)`` (3.1)."""
    rng = random.Random(seed)
    deck: list[int] = []
    for _ in range(deal):
        deck = list(range(1, CARDS + 1))
        rng.shuffle(deck)
    return deck


def cheapest_row(rows: list[list[int]], table: str) -> int:
    """The fallback's row to take: fewest bullheads, the lowest number among equals (7.3)."""
    costs = [row_cost(row, table) for row in rows]
    return costs.index(min(costs))


def target_row(rows: list[list[int]], card: int) -> int | None:
    """The row whose end is the largest value below ``card``; None for a low card (4.3)."""
    below = [(row[-1], k) for k, row in enumerate(rows) if row[-1] < card]
    return max(below)[1] if below else None


@dataclass(frozen=True)
class PlayObservation:
    """A ``PLAY`` request: choose a card of ``hand``.

    Attributes:
        seat: The receiver's seat.
        players: How many seats play.
        bullheads: The table in force, ``gpcc`` or ``classic``.
        deal: The deal, from 1.
        round: The round of this deal, 1..10.
        hand: The receiver's cards, ascending.
        rows: The four rows, each in the order its cards were added.
        totals: Every seat's total so far.
    """

    seat: int
    players: int
    bullheads: str
    deal: int
    round: int
    hand: tuple[int, ...]
    rows: tuple[tuple[int, ...], ...]
    totals: tuple[int, ...]


@dataclass(frozen=True)
class TakeObservation:
    """A ``TAKE`` request: the receiver's ``card`` is low; choose the row (0..3) to take.

    Attributes:
        seat: The receiver's seat.
        players: How many seats play.
        bullheads: The table in force.
        deal: The deal, from 1.
        round: The round of this deal.
        card: The receiver's low card.
        revealed: The card of each seat this round, in seat order.
        hand: The receiver's cards left, ascending.
        rows: The four rows before this round's resolution.
        totals: Every seat's total before this round's takes.
    """

    seat: int
    players: int
    bullheads: str
    deal: int
    round: int
    card: int
    revealed: tuple[int, ...]
    hand: tuple[int, ...]
    rows: tuple[tuple[int, ...], ...]
    totals: tuple[int, ...]


@dataclass
class NimmtState(State):
    """A game in progress (see the module docstring).

    ``log`` holds the public events a bot is told, in order (the protocol renders them):
    ``["deal", d, hands, rows]``, ``["reveal", cards]``, ``["chose", seat, row]`` and
    ``["round", rows, totals]`` (the ``ROWS`` and ``SCORES`` lines after a round).
    ``faults[seat]`` is None or ``{"termination", "reason", "detail", "moment": [d, r, phase]}``.
    """

    players: int = 2
    seed: int = 0
    table: str = "gpcc"
    deals: int = 1
    target: int = 0
    timeout_ms: int = 1000
    first_timeout_ms: int = 5000
    deal: int = 0
    round: int = 1
    phase: str = PLAY_PHASE
    hands: list[list[int]] = field(default_factory=list)
    rows: list[list[int]] = field(default_factory=list)
    totals: list[int] = field(default_factory=list)
    chosen: list[int | None] = field(default_factory=list)
    awaiting: list[int] = field(default_factory=list)
    faults: list[dict[str, Any] | None] = field(default_factory=list)
    log: list[list[Any]] = field(default_factory=list)
    plies: int = 0
    reason: str = ""

    def __post_init__(self) -> None:
        if not self.totals:
            self.totals = [0] * self.players
            self.faults = [None] * self.players
            self._new_deal()

    # -- queries ---------------------------------------------------------------------------
    def live(self, seat: int) -> bool:
        """Whether ``seat`` is still played by its bot."""
        return self.faults[seat] is None

    def live_seats(self) -> list[int]:
        """The seats still played by their bots."""
        return [seat for seat in range(self.players) if self.live(seat)]

    def low_card(self) -> tuple[int, int] | None:
        """(card, seat) of this round's low card while its row is to be chosen, else None."""
        if self.phase != TAKE_PHASE:
            return None
        card = min(c for c in self.chosen if c is not None)
        return card, self.chosen.index(card)

    def fallback_card(self, seat: int) -> int:
        """The fallback's card: the lowest of the seat's hand (7.3)."""
        return min(self.hands[seat])

    def fallback_row(self) -> int:
        """The fallback's row to take now (7.3)."""
        return cheapest_row(self.rows, self.table)

    # -- referee interface -----------------------------------------------------------------
    def to_act(self) -> list[Request]:
        return [] if self.phase == OVER else [Request(seat) for seat in sorted(self.awaiting)]

    def processes(self) -> frozenset[ProcessKey]:
        if self.phase == OVER:
            return frozenset()
        return frozenset(ProcessKey(seat) for seat in self.live_seats())

    def observation(self, request: Request) -> PlayObservation | TakeObservation:
        seat = request.seat
        rows = tuple(tuple(row) for row in self.rows)
        common = (seat, self.players, self.table, self.deal, self.round)
        low = self.low_card()
        if low is None:
            return PlayObservation(*common, tuple(self.hands[seat]), rows, tuple(self.totals))
        revealed = tuple(c for c in self.chosen if c is not None)
        return TakeObservation(*common, low[0], revealed, tuple(self.hands[seat]), rows, tuple(self.totals))

    def time_allowance_ms(self, request: Request) -> int:
        first = (self.deal, self.round, self.phase) == (1, 1, PLAY_PHASE)
        return self.first_timeout_ms if first else self.timeout_ms

    def charge_time(self, request: Request, elapsed_ms: int) -> Fault | None:
        allowed = self.time_allowance_ms(request)
        if elapsed_ms <= allowed:
            return None
        return Fault(
            request.seat,
            Termination.TIMEOUT,
            FAULT_CODES[Termination.TIMEOUT],
            f"seat {request.seat} took {elapsed_ms} ms for {self.describe()}, over the {allowed} ms it had",
        )

    def describe(self) -> str:
        """Names the current request for detail sentences."""
        word = "PLAY" if self.phase == PLAY_PHASE else "TAKE"
        return f"{word} of deal {self.deal}, round {self.round}"

    def check(self, request: Request, action: Any) -> Fault | None:
        seat = request.seat
        if self.phase == PLAY_PHASE:
            if action not in self.hands[seat]:
                return self._illegal(seat, f"played {action}, which is not in its hand {self.hands[seat]}")
        elif not 0 <= action < ROW_COUNT:
            return self._illegal(seat, f"chose row {action}; rows are numbered 0 to 3")
        return None

    def _illegal(self, seat: int, what: str) -> Fault:
        code = FAULT_CODES[Termination.ILLEGAL_MOVE]
        return Fault(seat, Termination.ILLEGAL_MOVE, code, f"seat {seat} at {self.describe()}: {what}")

    def apply(self, actions: Mapping[Request, Any]) -> None:
        if self.phase == OVER:
            return
        row = None
        for request, action in actions.items():
            assert request.seat in self.awaiting, f"seat {request.seat} was not asked"
            assert self.check(request, action) is None, "apply() takes checked actions only"
            self.awaiting.remove(request.seat)
            self.plies += 1
            if self.phase == PLAY_PHASE:
                self.chosen[request.seat] = action
            else:
                row = action
        if not self.awaiting:
            self._complete_phase(row)

    def fault(self, fault: Fault) -> None:
        seat = fault.seat
        if self.phase == OVER or not self.live(seat):
            return
        phase = 1 if self.phase == TAKE_PHASE else 0
        self.faults[seat] = {
            "termination": fault.termination.value,
            "reason": fault.reason_code,
            "detail": fault.detail,
            "moment": [self.deal, self.round, phase],
        }
        if seat in self.awaiting:
            self.awaiting.remove(seat)
            if not self.awaiting:
                self._complete_phase(None)

    def is_over(self) -> bool:
        return self.phase == OVER

    # -- resolution ------------------------------------------------------------------------
    def _new_deal(self) -> None:
        self.deal += 1
        self.round = 1
        deck = shuffled_deck(self.seed, self.deal)
        self.hands = [sorted(deck[HAND_SIZE * s : HAND_SIZE * (s + 1)]) for s in range(self.players)]
        start = HAND_SIZE * self.players
        self.rows = [[deck[start + k]] for k in range(ROW_COUNT)]
        self.log.append(["deal", self.deal, [list(h) for h in self.hands], [list(r) for r in self.rows]])
        self._new_round()

    def _new_round(self) -> None:
        self.phase = PLAY_PHASE
        self.chosen = [None] * self.players
        self.awaiting = self.live_seats()

    def _complete_phase(self, row: int | None) -> None:
        """A request phase is answered (or faulted): early stop, or resolve on."""
        if len(self.live_seats()) < 2:
            self._finish(EARLY_STOP)
            return
        if self.phase == PLAY_PHASE:
            for seat in range(self.players):
                if self.chosen[seat] is None:
                    self.chosen[seat] = self.fallback_card(seat)
                self.hands[seat].remove(self.chosen[seat])
            self.log.append(["reveal", list(self.chosen)])
            card = min(self.chosen)  # type: ignore[type-var]
            owner = self.chosen.index(card)
            if target_row(self.rows, card) is not None:
                self._resolve(skip_lowest=False)
                return
            if self.live(owner):
                self.phase = TAKE_PHASE
                self.awaiting = [owner]
                return
            row = None
        card, owner = min((c, s) for s, c in enumerate(self.chosen) if c is not None)
        if row is None:
            row = self.fallback_row()
        self.log.append(["chose", owner, row])
        self.totals[owner] += row_cost(self.rows[row], self.table)
        self.rows[row] = [card]
        self._resolve(skip_lowest=True)

    def _resolve(self, skip_lowest: bool) -> None:
        """Place the round's cards in ascending order (the low card already placed if ``skip_lowest``)."""
        order = sorted((c, s) for s, c in enumerate(self.chosen) if c is not None)
        for card, seat in order[1:] if skip_lowest else order:
            k = target_row(self.rows, card)
            assert k is not None, "only the lowest card of a round can be low"
            if len(self.rows[k]) == ROW_LIMIT:
                self.totals[seat] += row_cost(self.rows[k], self.table)
                self.rows[k] = [card]
            else:
                self.rows[k].append(card)
        self.log.append(["round", [list(r) for r in self.rows], list(self.totals)])
        if self.round < ROUNDS:
            self.round += 1
            self._new_round()
            return
        done = max(self.totals) >= self.target if self.target > 0 else self.deal >= self.deals
        if done:
            self._finish(MATCH_COMPLETE)
        else:
            self._new_deal()

    def _finish(self, reason: str) -> None:
        self.phase = OVER
        self.reason = reason
        self.awaiting = []

    # -- outcome ---------------------------------------------------------------------------
    def ranks(self) -> list[int]:
        """Per seat its rank (5, 7.4): clean seats by total, then faulted seats, later faults better."""
        keys: list[tuple[int, ...]] = []
        for seat in range(self.players):
            fault = self.faults[seat]
            keys.append((0, self.totals[seat]) if fault is None else (1, *(-x for x in fault["moment"])))
        return [1 + sum(1 for other in keys if other < key) for key in keys]

    def result(self) -> Result:
        if self.phase != OVER:
            raise RuntimeError("the game is not over")
        offenders = [seat for seat in range(self.players) if not self.live(seat)]
        termination, code = Termination.NORMAL, self.reason
        if self.reason == EARLY_STOP:
            detail = f"the game stopped early in round {self.round} of deal {self.deal}: fewer than two live seats"
        else:
            detail = f"the game ended by the rules after {plural(self.deal, 'deal')}"
        if offenders:
            first = min(offenders, key=lambda s: (self.faults[s]["moment"], s))  # type: ignore[index]
            fault = self.faults[first]
            assert fault is not None
            termination, code = Termination(fault["termination"]), fault["reason"]
            details = "; ".join(self.faults[s]["detail"] for s in offenders)  # type: ignore[index]
            detail = f"{detail}; {details}"
        return Result(
            scores=list(self.totals),
            ranks=self.ranks(),
            termination=termination,
            offenders=offenders,
            reason_code=code,
            detail=detail,
            plies=self.plies,
            extra={"deals": self.deal, "end": self.reason, "faults": list(self.faults)},
            faults=[self._seat_fault(seat) for seat in offenders],
        )

    def _seat_fault(self, seat: int) -> Fault:
        """A faulted seat's own fault, as ``Result.faults`` keeps it."""
        fault = self.faults[seat]
        assert fault is not None
        return Fault(seat, Termination(fault["termination"]), fault["reason"], fault["detail"])

    def to_json(self) -> dict[str, Any]:
        return copy.deepcopy({key: getattr(self, key) for key in self.__dataclass_fields__})

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> NimmtState:
        return cls(**{key: value for key, value in data.items() if key in cls.__dataclass_fields__})
