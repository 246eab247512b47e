"""fish on the wire (rules/fish.md, section 8), both sides, every line ending LF.

Referee -> bot: setup ``GAME fish <n> <s>``, ``PENGUINS <k>``, ``BOARD <8 rows>``; requests
``PLACE`` and ``MOVE``; information ``PLACED <s> <r> <c>`` and ``MOVED <s> <r1> <c1> <r2> <c2>``
(every placement and move, fallback seats' included, to every live bot); at the end ``SCORES``,
``TILES`` and ``END`` with one number per seat. A faulted seat's bot gets nothing more. Bot ->
referee: ``r c`` or ``r1 c1 r2 c2``; one trailing CR dropped, spaces and tabs trimmed, tokens of
1 to 9 ASCII digits split on runs of spaces and tabs; over 1024 bytes is bad output.

Information lines reach each live bot in order: those due after an applied action at once, those
of a fallback seat's action played inside a fault just before that bot's next request or its
end lines (the bytes each bot receives are the same either way).
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any, Protocol

from engine.core import PLAY, ProcessKey, Request, State, Termination
from engine.fish.board import CELLS, board_rows
from engine.fish.observations import FishObservation, Move, Place
from engine.fish.rules import FAULT_CODES, MOVE, OVER, PLACE, FishState
from engine.protocol import BotDriver, LineRules, ParseError, RefereeProtocol

MAX_LINE = 1024
_TOKEN = re.compile(r"[0-9]{1,9}")
_SEPARATORS = re.compile(r"[ \t]+")


def parse_reply(line: str, phase: str) -> Place | Move:
    """A reply line (without LF) as an action of ``phase``, form checks only (8.5).

    Raises:
        ParseError: Not exactly 2 (``place``) or 4 (``move``) tokens of 1 to 9 ASCII digits.
    """
    text = line.removesuffix("\r").strip(" \t")
    tokens = _SEPARATORS.split(text) if text else []
    wanted = 2 if phase == PLACE else 4
    if len(tokens) != wanted:
        form = "r c" if phase == PLACE else "r1 c1 r2 c2"
        raise ParseError(f"expected {wanted} numbers '{form}', got {len(tokens)} token(s)")
    for token in tokens:
        if not _TOKEN.fullmatch(token):
            raise ParseError(f"{token!r} is not a number of 1 to 9 digits")
    numbers = [int(token) for token in tokens]
    return Place(*numbers) if phase == PLACE else Move(*numbers)


def event_line(entry: list[int]) -> str:
    """The ``PLACED``/``MOVED`` line (without LF) of one ``FishState.log`` entry."""
    word = "PLACED" if len(entry) == 3 else "MOVED"
    return " ".join([word, *map(str, entry)])


def end_lines(state: FishState) -> str:
    """``SCORES``, ``TILES`` and ``END``, each ending LF."""
    ranks = state.ranks()
    return "".join(
        f"{word} {' '.join(map(str, values))}\n"
        for word, values in (("SCORES", state.scores), ("TILES", state.tiles), ("END", ranks))
    )


class FishReferee(RefereeProtocol):
    """The referee side for one match: exact bytes out, typed actions in."""

    line_rules = LineRules(
        max_bytes=MAX_LINE, skip_blank=False, fragment_at_eof_is_line=False, broken_pipe_is_crash=True
    )
    kills_offenders = True

    def __init__(self) -> None:
        self.sent: dict[int, int] = {}
        """Per seat, how many entries of the state's log its bot has been sent."""

    def _pending(self, state: FishState, seat: int) -> str:
        start = self.sent.get(seat, 0)
        self.sent[seat] = len(state.log)
        return "".join(event_line(entry) + "\n" for entry in state.log[start:])

    def greeting(self, state: State, key: ProcessKey) -> bytes:
        assert isinstance(state, FishState)
        self.sent[key.seat] = 0
        lines = (
            f"GAME fish {state.players} {key.seat}\n"
            f"PENGUINS {state.penguins_per_player}\n"
            f"BOARD {' '.join(board_rows(state.fish))}\n"
        )
        return lines.encode("ascii")

    def request(self, state: State, request: Request) -> bytes:
        assert isinstance(state, FishState)
        word = "PLACE" if state.phase == PLACE else "MOVE"
        return f"{self._pending(state, request.seat)}{word}\n".encode("ascii")

    def parse(self, state: State, request: Request, line: str) -> Any:
        assert isinstance(state, FishState)
        return parse_reply(line, state.phase)

    def fault_code(self, state: State, request: Request, termination: Termination) -> str:
        return FAULT_CODES.get(termination, termination.value.lower())

    def describe(self, state: State, request: Request) -> str:
        assert isinstance(state, FishState)
        word = "PLACE" if state.phase == PLACE else "MOVE"
        return f"its {word} request for turn {state.turn + 1}"

    def shutdown_wait_ms(self) -> int:
        return 1000

    def notices(self, state: State, applied: Mapping[Request, Any]) -> list[tuple[ProcessKey, bytes]]:
        """The ``PLACED``/``MOVED`` lines not yet sent, to every live bot in seat order."""
        assert isinstance(state, FishState)
        out = []
        for seat in range(state.players):
            if state.live[seat] and seat in self.sent:
                data = self._pending(state, seat)
                if data:
                    out.append((ProcessKey(seat), data.encode("ascii")))
        return out

    def farewell(self, state: State, key: ProcessKey) -> bytes:
        """A live bot's last lines: what it has not yet been sent, then the end lines; a faulted bot gets nothing."""
        assert isinstance(state, FishState)
        if state.phase != OVER or not state.live[key.seat] or key.seat not in self.sent:
            return b""
        return (self._pending(state, key.seat) + end_lines(state)).encode("ascii")


class FishBot(Protocol):
    """What a built-in fish bot implements."""

    def act(self, observation: FishObservation) -> Place | Move:
        """Choose the reply to a ``PLACE`` or ``MOVE`` request."""


class FishDriver(BotDriver):
    """The bot side: rebuilds the game from the lines received and asks the bot at each request.

    Attributes:
        state: The game as tracked from ``BOARD``, ``PLACED`` and ``MOVED`` (every seat live).
        seat: This bot's seat.
        final: ``SCORES``, ``TILES`` and ``END`` as received, by word.
    """

    def __init__(self, bot: FishBot) -> None:
        self.bot = bot
        self.players = 0
        self.seat = 0
        self.penguins = 0
        self.state: FishState | None = None
        self.final: dict[str, list[int]] = {}

    def feed(self, line: str) -> str | None:
        words = line.removesuffix("\r").split(" ")
        head, numbers = words[0], words[1:]
        if head == "GAME":
            self.players, self.seat = int(numbers[1]), int(numbers[2])
        elif head == "PENGUINS":
            self.penguins = int(numbers[0])
        elif head == "BOARD":
            fish = [int(digit) for digit in "".join(numbers)]
            assert len(fish) == CELLS, f"a BOARD line holds {CELLS} tiles, not {len(fish)}"
            self.state = FishState(players=self.players, penguins_per_player=self.penguins, fish=fish)
        elif head in ("PLACED", "MOVED"):
            assert self.state is not None, f"{head} before BOARD"
            values = [int(value) for value in numbers]
            self.state.track(values[0], Place(*values[1:]) if head == "PLACED" else Move(*values[1:]))
        elif head in ("PLACE", "MOVE"):
            assert self.state is not None, f"{head} before BOARD"
            assert self.state.phase == (PLACE if head == "PLACE" else MOVE), f"{head} in phase {self.state.phase}"
            return str(self.bot.act(self.state.observation(Request(self.seat, PLAY))))
        elif head in ("SCORES", "TILES", "END"):
            self.final[head] = [int(value) for value in numbers]
        return None
