"""versus2048 on the wire (engine/versus2048/README.md, the protocol), both sides.

Referee -> player p: ``p`` before the game; then per turn ``Turn TimeLeft MyScore OppScore`` and
the two boards (own first), one row a line, exponents separated by single spaces. Player ->
referee: ``r c`` before the game, ``Cmd M V r1 c1 ... rM cM`` per turn. Replies are trimmed of
bytes <= 0x20 and split at every single space, the original judge's way.
"""

from __future__ import annotations

import re
from functools import cache
from typing import Any, Protocol

from engine.core import Request, State, Termination
from engine.protocol import BotDriver, LineRules, ParseError, RefereeProtocol
from engine.versus2048 import rules
from engine.versus2048.rules import (
    Placement,
    PregameObservation,
    TurnInput,
    TurnMove,
    TurnObservation,
    Versus2048State,
)

_INTEGER = re.compile(r"[+-]?[0-9]+")
_INT32 = range(-(2**31), 2**31)
_DIRECTIONS = ("U", "R", "D", "L")
_TRIMMED = "".join(chr(c) for c in range(0x21))
"""The bytes a reply is trimmed of at both ends: every byte up to and including the space."""


def judge_tokens(line: str) -> list[str]:
    """Trim bytes <= 0x20 at both ends and split at every single space (7.5)."""
    trimmed = line.strip(_TRIMMED)
    return trimmed.split(" ") if trimmed else []


def judge_int(token: str) -> int:
    """A 32-bit integer token ``[+-]?[0-9]+`` (leading zeros allowed, as in ``+0005``), or ParseError."""
    if len(token) < 10 and token.isascii() and token.isdigit():  # the usual reply: up to 9 plain digits
        return int(token)
    significant = token.lstrip("+-").lstrip("0")
    if not _INTEGER.fullmatch(token) or len(significant) > 10 or int(token) not in _INT32:  # no huge int()
        raise ParseError(f"{_quoted(token)} is not a 32-bit integer")
    return int(token)


def _quoted(token: str, limit: int = 40) -> str:
    return repr(token) if len(token) <= limit else repr(token[:limit]) + f"... ({len(token)} characters)"


def format_board(board: tuple[int, ...], cols: int) -> str:
    """The judge's board text: rows of ``cols`` exponents, single spaces, LF between rows, none after."""
    return "\n".join(" ".join(map(str, board[start : start + cols])) for start in range(0, len(board), cols))


@cache
def _turn_template(size: int) -> str:
    """The text of a turn input on an N x N board with a ``%s`` for every number, in order."""
    row = " ".join(["%s"] * size) + "\n"
    return "%s %s %s %s\n" + row * (2 * size)


def encode_turn_input(fields: TurnInput, size: int) -> str:
    """The exact text of a turn input (7.3): the header line, then the two boards, own first.

    Args:
        fields: Turn, time left, own score, opponent's score, own board, opponent's board.
        size: The boards' number of columns.
    """
    turn, time_left_ms, my_score, opponent_score, my_board, opponent_board = fields
    if len(my_board) == size * size == len(opponent_board):  # one formatting of every number at once
        return _turn_template(size) % (turn, time_left_ms, my_score, opponent_score, *my_board, *opponent_board)
    header = f"{turn} {time_left_ms} {my_score} {opponent_score}"
    return f"{header}\n{format_board(my_board, size)}\n{format_board(opponent_board, size)}\n"


def encode_observation(obs: PregameObservation | TurnObservation) -> str:
    """The exact text the referee sends for an observation."""
    if isinstance(obs, PregameObservation):
        return f"{obs.seat}\n"
    fields = (obs.turn, obs.time_left_ms, obs.my_score, obs.opponent_score, obs.my_board, obs.opponent_board)
    return encode_turn_input(fields, obs.board_size)


def encode_action(action: Placement | TurnMove) -> str:
    """The reply line (without LF) for an action."""
    if isinstance(action, Placement):
        return f"{action.row} {action.col}"
    cells = " ".join(f"{r} {c}" for r, c in action.cells)
    return f"{action.direction} {len(action.cells)} {action.value} {cells}"


def parse_placement(line: str) -> Placement:
    """Parse a pre-game reply (6.2, steps 2)."""
    tokens = judge_tokens(line)
    if len(tokens) != 2:
        raise ParseError(f"expected 2 integers, got {len(tokens)} token(s) in {line!r}")
    return Placement(judge_int(tokens[0]), judge_int(tokens[1]))


def parse_turn(line: str) -> TurnMove:
    """Parse a turn reply, format checks only (6.2, steps 3-7)."""
    tokens = judge_tokens(line)
    if len(tokens) < 5:
        raise ParseError(f"expected at least 5 tokens, got {len(tokens)} in {line!r}")
    if tokens[0] not in _DIRECTIONS:
        raise ParseError(f"{tokens[0]!r} is not one of U R D L")
    m, v = judge_int(tokens[1]), judge_int(tokens[2])
    if len(tokens) != 3 + 2 * m:
        raise ParseError(f"M = {m} needs {3 + 2 * m} tokens, got {len(tokens)}")
    if v < 1:
        raise ParseError(f"V = {v} is below 1")
    numbers = [judge_int(token) for token in tokens[3:]]
    return TurnMove(tokens[0], v, tuple(zip(numbers[0::2], numbers[1::2], strict=False)))


class Versus2048Referee(RefereeProtocol):
    """The referee side: exact bytes out, typed actions in."""

    line_rules = LineRules(max_bytes=None, skip_blank=False, fragment_at_eof_is_line=True)

    def request(self, state: State, request: Request) -> bytes:
        assert isinstance(state, Versus2048State)
        if state.phase == rules.PREGAME:
            return encode_observation(state.observation(request)).encode("ascii")
        # The turn input straight from the state: the same text as its observation's, built faster.
        return encode_turn_input(state.turn_input(request.seat), state.board_size).encode("ascii")

    def parse(self, state: State, request: Request, line: str) -> Any:
        assert isinstance(state, Versus2048State)
        return parse_placement(line) if state.phase == rules.PREGAME else parse_turn(line)

    def describe(self, state: State, request: Request) -> str:
        assert isinstance(state, Versus2048State)
        return "the pre-game request" if state.phase == rules.PREGAME else f"turn {state.turn}"

    def fault_code(self, state: State, request: Request, termination: Termination) -> str:
        assert isinstance(state, Versus2048State)
        pregame = state.phase == rules.PREGAME
        if termination == Termination.TIMEOUT:
            return rules.TIME_LIMIT_EXCEEDED_AT_INIT if pregame else rules.TURN_TIME_LIMIT_EXCEEDED
        return rules.PRESENTATION_ERROR_AT_INIT if pregame else rules.PRESENTATION_ERROR_AT_MAIN


class Versus2048Bot(Protocol):
    """What a built-in versus2048 bot implements."""

    def act(self, observation: PregameObservation | TurnObservation) -> Placement | TurnMove:
        """Choose the reply to an observation."""


class Versus2048Driver(BotDriver):
    """The bot side: collects the lines of a request, asks the bot, formats its reply."""

    def __init__(self, bot: Versus2048Bot) -> None:
        self.bot = bot
        self.seat: int | None = None
        self.lines: list[str] = []

    def feed(self, line: str) -> str | None:
        if self.seat is None:
            self.seat = int(line)
            return encode_action(self.bot.act(PregameObservation(self.seat)))
        self.lines.append(line)
        if len(self.lines) < 2:
            return None
        size = len(self.lines[1].split())
        if len(self.lines) < 1 + 2 * size:
            return None
        obs = decode_turn(self.lines, size)
        self.lines = []
        return encode_action(self.bot.act(obs))


def decode_turn(lines: list[str], size: int) -> TurnObservation:
    """The typed observation of one turn input's 1 + 2N lines."""
    turn, time_left, mine, theirs = (int(x) for x in lines[0].split())
    cells = [int(x) for row in lines[1 : 1 + 2 * size] for x in row.split()]
    return TurnObservation(
        turn=turn,
        time_left_ms=time_left,
        my_score=mine,
        opponent_score=theirs,
        my_board=tuple(cells[: size * size]),
        opponent_board=tuple(cells[size * size :]),
        board_size=size,
    )
