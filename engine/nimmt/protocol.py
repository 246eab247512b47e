"""nimmt on the wire (rules/nimmt.md, section 8), both sides.

Referee -> bot, every line ending LF: setup ``GAME nimmt <n> <s>``, ``BULLHEADS <table>``,
``MATCH deals <k>`` or ``MATCH target <t>``; per deal ``DEAL <d>``, ``HAND <10 cards>``,
``ROWS <r0> <r1> <r2> <r3>`` (a row's cards joined by commas); per round the request ``PLAY <r>``,
then ``REVEAL <n cards>``, for a low card ``TAKE <c>`` (a request, to its owner if live) and
``CHOSE <s> <k>``, then ``ROWS`` and ``SCORES <n totals>``; last ``END <n ranks>``. A fallback
seat's bot is sent nothing more. Bot -> referee: one token of 1 to 9 ASCII digits per request.

The referee side renders the state's event log (``NimmtState.log``) and remembers how much of
it each seat was sent, so one ``NimmtReferee`` serves one game. Lines the state produced in a
phase completed by a fault (no ``apply``, hence no notices) go out before the seat's next
request or its ``END``.
"""

from __future__ import annotations

import re
from typing import Any, Protocol

from engine.core import ProcessKey, Request, State, Termination
from engine.nimmt.rules import FAULT_CODES, NimmtState, PlayObservation, TakeObservation
from engine.protocol import BotDriver, LineRules, ParseError, RefereeProtocol

MAX_LINE = 1024
_TOKEN = re.compile(r"[0-9]{1,9}")
_BLANKS = re.compile(r"[ \t]+")


def join(values: Any) -> str:
    """Integers separated by single spaces."""
    return " ".join(str(value) for value in values)


def rows_line(rows: list[list[int]] | tuple[tuple[int, ...], ...]) -> str:
    """The ``ROWS`` line (without LF)."""
    return "ROWS " + " ".join(",".join(str(card) for card in row) for row in rows)


def event_lines(event: list[Any], seat: int) -> list[str]:
    """The lines (without LF) one logged event gives ``seat``."""
    kind = event[0]
    if kind == "deal":
        _, deal, hands, rows = event
        return [f"DEAL {deal}", f"HAND {join(hands[seat])}", rows_line(rows)]
    if kind == "reveal":
        return [f"REVEAL {join(event[1])}"]
    if kind == "chose":
        return [f"CHOSE {event[1]} {event[2]}"]
    _, rows, totals = event
    return [rows_line(rows), f"SCORES {join(totals)}"]


def parse_reply(line: str) -> int:
    """A reply line (without LF) as its value: one token of 1 to 9 ASCII digits (8.5).

    Raises:
        ParseError: Anything else.
    """
    text = line.removesuffix("\r").strip(" \t")
    tokens = _BLANKS.split(text) if text else []
    if len(tokens) != 1:
        raise ParseError(f"expected exactly one number, got {len(tokens)} tokens")
    if not _TOKEN.fullmatch(tokens[0]):
        raise ParseError(f"{tokens[0][:20]!r} is not 1 to 9 ASCII digits")
    return int(tokens[0])


class NimmtReferee(RefereeProtocol):
    """The referee side: exact bytes out, integers in; one instance per game."""

    line_rules = LineRules(
        max_bytes=MAX_LINE, skip_blank=False, fragment_at_eof_is_line=False, broken_pipe_is_crash=True
    )
    kills_offenders = True

    def __init__(self) -> None:
        self.sent: dict[int, int] = {}

    def _pending(self, state: NimmtState, seat: int) -> list[str]:
        """The logged lines ``seat`` has not been sent yet (and marks them sent)."""
        start = self.sent.get(seat, 0)
        self.sent[seat] = len(state.log)
        return [line for event in state.log[start:] for line in event_lines(event, seat)]

    @staticmethod
    def _bytes(lines: list[str]) -> bytes:
        return "".join(line + "\n" for line in lines).encode("ascii")

    def greeting(self, state: State, key: ProcessKey) -> bytes:
        assert isinstance(state, NimmtState)
        match = f"MATCH target {state.target}" if state.target > 0 else f"MATCH deals {state.deals}"
        setup = [f"GAME nimmt {state.players} {key.seat}", f"BULLHEADS {state.table}", match]
        return self._bytes(setup + self._pending(state, key.seat))

    def request(self, state: State, request: Request) -> bytes:
        assert isinstance(state, NimmtState)
        low = state.low_card()
        line = f"PLAY {state.round}" if low is None else f"TAKE {low[0]}"
        return self._bytes([*self._pending(state, request.seat), line])

    def parse(self, state: State, request: Request, line: str) -> Any:
        return parse_reply(line)

    def fault_code(self, state: State, request: Request, termination: Termination) -> str:
        return FAULT_CODES.get(termination, termination.value.lower())

    def describe(self, state: State, request: Request) -> str:
        assert isinstance(state, NimmtState)
        return state.describe()

    def shutdown_wait_ms(self) -> int:
        return 1000

    def notices(self, state: State, applied: Any) -> list[tuple[ProcessKey, bytes]]:
        """What the phase just played told every live seat (REVEAL, CHOSE, ROWS, SCORES, DEAL ...)."""
        assert isinstance(state, NimmtState)
        out = []
        for seat in state.live_seats():
            lines = self._pending(state, seat)
            if lines:
                out.append((ProcessKey(seat), self._bytes(lines)))
        return out

    def farewell(self, state: State, key: ProcessKey) -> bytes:
        """``END <ranks>`` for a live seat once the game is over; a faulted seat gets nothing."""
        assert isinstance(state, NimmtState)
        if not state.is_over() or not state.live(key.seat):
            return b""
        return self._bytes([*self._pending(state, key.seat), f"END {join(state.ranks())}"])


class NimmtBot(Protocol):
    """What a built-in nimmt bot implements."""

    def act(self, observation: PlayObservation | TakeObservation) -> int:
        """A card for ``PlayObservation``, a row 0..3 for ``TakeObservation``."""


class NimmtDriver(BotDriver):
    """The bot side: tracks the lines, answers ``PLAY`` and ``TAKE`` with the bot's choice."""

    def __init__(self, bot: NimmtBot) -> None:
        self.bot = bot
        self.seat = self.players = self.deal = self.round = 0
        self.table = "gpcc"
        self.hand: list[int] = []
        self.rows: tuple[tuple[int, ...], ...] = ()
        self.totals: tuple[int, ...] = ()
        self.revealed: tuple[int, ...] = ()

    def feed(self, line: str) -> str | None:
        word, _, rest = line.removesuffix("\r").partition(" ")
        values = rest.split(" ")
        if word == "GAME":
            self.players, self.seat = int(values[1]), int(values[2])
            self.totals = (0,) * self.players
        elif word == "BULLHEADS":
            self.table = rest
        elif word == "DEAL":
            self.deal = int(rest)
        elif word == "HAND":
            self.hand = [int(v) for v in values]
        elif word == "ROWS":
            self.rows = tuple(tuple(int(c) for c in row.split(",")) for row in values)
        elif word == "SCORES":
            self.totals = tuple(int(v) for v in values)
        elif word == "REVEAL":
            self.revealed = tuple(int(v) for v in values)
            if self.revealed[self.seat] in self.hand:
                self.hand.remove(self.revealed[self.seat])
        elif word == "PLAY":
            self.round = int(rest)
            common = (self.seat, self.players, self.table, self.deal, self.round)
            return str(self.bot.act(PlayObservation(*common, tuple(self.hand), self.rows, self.totals)))
        elif word == "TAKE":
            common = (self.seat, self.players, self.table, self.deal, self.round)
            observation = TakeObservation(*common, int(rest), self.revealed, tuple(self.hand), self.rows, self.totals)
            return str(self.bot.act(observation))
        return None


__all__ = ["NimmtDriver", "NimmtReferee", "event_lines", "parse_reply"]
