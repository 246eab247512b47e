"""pk2048 on the wire (engine/pk2048/README.md, the protocol), both sides.

Referee -> player to move: at a player's first turn of a game the seat line (``1`` first player,
``2`` second) and the state line in one write, later the state line alone: 23 integers
``spawn_cell spawn_value opp_I opp_B opp_D a1 .. a16 my_score opp_score`` with tile VALUES.
Player -> referee: ``I B D``. Nothing is sent at the end of a game. A reply is trimmed of bytes
<= 0x20 at both ends and split at every single space into exactly three ``[+-]?[0-9]+`` tokens.
"""

from __future__ import annotations

import re
from typing import Any, Protocol

from engine.core import Request, State, Termination
from engine.pk2048.match import PK2048State
from engine.pk2048.rules import (
    CRASH,
    PRESENTATION_ERROR,
    TIMEOUT,
    Observation,
    Operation,
    exponent_of,
    value_of,
)
from engine.protocol import BotDriver, LineRules, ParseError, RefereeProtocol

_INTEGER = re.compile(r"[+-]?[0-9]+")
_BLANKS = "".join(chr(code) for code in range(0x21))
_MAX_DIGITS = 18
_HUGE = 10**_MAX_DIGITS
STATE_LINE_FIELDS = 23


def answer_tokens(line: str) -> list[str]:
    """Trim bytes <= 0x20 at both ends and split at every single space (7.4, steps 2 and 3)."""
    trimmed = line.strip(_BLANKS)
    return trimmed.split(" ") if trimmed else []


def answer_int(token: str) -> int:
    """A token ``[+-]?[0-9]+`` as an integer of any size, or ParseError.

    Values beyond 18 digits are out of every range the rules check and are kept as +-10**18
    (same sign, never 0), so Python's limit on converting huge digit strings never bites.
    """
    if not _INTEGER.fullmatch(token):
        raise ParseError(f"{token[:40]!r} is not an integer")
    sign = -1 if token[0] == "-" else 1
    digits = token.lstrip("+-").lstrip("0") or "0"
    return sign * _HUGE if len(digits) > _MAX_DIGITS else sign * int(digits)


def parse_answer(line: str) -> Operation:
    """An answer line (without LF) as an operation; only its form is checked here.

    Raises:
        ParseError: Not exactly three integers separated by single spaces.
    """
    tokens = answer_tokens(line)
    if len(tokens) != 3:
        shown = line if len(line) <= 60 else line[:60] + "..."
        raise ParseError(f"expected 3 integers 'I B D' separated by single spaces, got {len(tokens)} in {shown!r}")
    interference, bomb, direction = (answer_int(token) for token in tokens)
    return Operation(interference, bomb, direction)


def state_line(observation: Observation) -> str:
    """The 23-integer state line (with its LF) of an observation."""
    fields = [
        observation.spawn_cell,
        observation.spawn_value,
        observation.opp_interference,
        observation.opp_bomb,
        observation.opp_move,
        *(value_of(exponent) for exponent in observation.board),
        observation.my_score,
        observation.opp_score,
    ]
    return " ".join(map(str, fields)) + "\n"


def encode_request(observation: Observation, first_turn: bool) -> str:
    """The exact text of a request: the seat line at a player's first turn, then the state line."""
    return (f"{observation.player}\n" if first_turn else "") + state_line(observation)


class PK2048Referee(RefereeProtocol):
    """The referee side: exact bytes out, typed operations in."""

    line_rules = LineRules(max_bytes=None, skip_blank=False, fragment_at_eof_is_line=True)

    def request(self, state: State, request: Request) -> bytes:
        assert isinstance(state, PK2048State)
        first_turn = state.is_first_turn(request.seat)
        return encode_request(state.observation(request), first_turn).encode("ascii")

    def parse(self, state: State, request: Request, line: str) -> Any:
        return parse_answer(line)

    def describe(self, state: State, request: Request) -> str:
        assert isinstance(state, PK2048State)
        return state.describe_turn()

    def fault_code(self, state: State, request: Request, termination: Termination) -> str:
        if termination == Termination.TIMEOUT:
            return TIMEOUT
        if termination == Termination.CRASH:
            return CRASH
        return PRESENTATION_ERROR


class PK2048Bot(Protocol):
    """What a built-in pk2048 bot implements."""

    def act(self, observation: Observation) -> Operation:
        """Choose the operation for an observation."""


class PK2048Driver(BotDriver):
    """The bot side: reads the seat line and state lines, asks the bot, formats its answer.

    It also keeps what the lines imply: which special operations each player has used in this
    game (its own from its answers, the opponent's from fields 3 and 4). A seat line starts a
    new game, so one driver may serve several games.
    """

    def __init__(self, bot: PK2048Bot) -> None:
        self.bot = bot
        self.player = 0
        self.used = {"my_interference": False, "my_bomb": False, "opp_interference": False, "opp_bomb": False}

    def feed(self, line: str) -> str | None:
        numbers = [int(token) for token in line.split()]
        if len(numbers) == 1:
            self.player = numbers[0]
            self.used = dict.fromkeys(self.used, False)
            return None
        observation = decode_state_line(numbers, self.player, self.used)
        operation = self.bot.act(observation)
        self.used["my_interference"] |= operation.interference != 0
        self.used["my_bomb"] |= operation.interference == 0 and operation.bomb != 0
        return str(operation)


def decode_state_line(numbers: list[int], player: int, used: dict[str, bool]) -> Observation:
    """The typed observation of a state line's 23 integers (tile values become exponents).

    Args:
        numbers: The integers of the line.
        player: 1 or 2, from the seat line.
        used: The special operations used so far (the opponent's are updated from this line).

    Raises:
        ValueError: Not 23 integers.
    """
    if len(numbers) != STATE_LINE_FIELDS:
        raise ValueError(f"a state line has {STATE_LINE_FIELDS} integers, got {len(numbers)}")
    spawn_cell, spawn_value, opp_interference, opp_bomb, opp_move = numbers[:5]
    used["opp_interference"] |= opp_interference != 0
    used["opp_bomb"] |= opp_bomb != 0
    return Observation(
        player=player,
        spawn_cell=spawn_cell,
        spawn_value=spawn_value,
        opp_interference=opp_interference,
        opp_bomb=opp_bomb,
        opp_move=opp_move,
        board=tuple(exponent_of(value) for value in numbers[5:21]),
        my_score=numbers[21],
        opp_score=numbers[22],
        my_interference_used=used["my_interference"],
        my_bomb_used=used["my_bomb"],
        opp_interference_used=used["opp_interference"],
        opp_bomb_used=used["opp_bomb"],
    )
