"""attack2048 on the wire (engine/attack2048/README.md, the protocol), both sides.

Referee -> either role: ``game`` then the four rows top to bottom, each value in decimal (tile
VALUES, 0 for empty) followed by one space, every line ending in LF; ``quit`` when the half is
over (attacker first, then defender). Attacker -> referee: ``x y v`` (x the column, y the row, v
the value). Defender -> referee: one direction word (``north east south west`` or an alias,
any case). Lines are trimmed of spaces and tabs and split at runs of them; blank lines are
skipped; a line over 1024 bytes or with bytes other than printable ASCII, space and tab is
``bad_output``. Engine boards are exponents; this module converts at the wire.
"""

from __future__ import annotations

import re
from typing import Any, Protocol

from engine.attack2048 import ATTACK
from engine.attack2048.rules import (
    BAD_OUTPUT,
    CRASH,
    DIRECTION_WORDS,
    ILLEGAL_MOVE,
    ROLE_WORDS,
    SIZE,
    TIMEOUT,
    Attack2048Observation,
    Attack2048State,
    Placement,
    Slide,
)
from engine.core import ProcessKey, Request, State, Termination
from engine.protocol import BotDriver, LineRules, ParseError, RefereeProtocol
from engine.slide import Board

MAX_LINE_BYTES = 1024
QUIT = b"quit\n"
_INTEGER = re.compile(r"[+-]?[0-9]+")
_PRINTABLE = re.compile(r"[\t\x20-\x7e]*")
_SPACES = re.compile(r"[ \t]+")
_ALIASES = {
    **{word: "U" for word in ("north", "n", "up", "u")},
    **{word: "R" for word in ("east", "e", "right", "r")},
    **{word: "D" for word in ("south", "s", "down", "d")},
    **{word: "L" for word in ("west", "w", "left", "l")},
}
_CODES = {
    Termination.TIMEOUT: TIMEOUT,
    Termination.CRASH: CRASH,
    Termination.BAD_OUTPUT: BAD_OUTPUT,
    Termination.ILLEGAL_MOVE: ILLEGAL_MOVE,
}


def encode_board(board: Board) -> str:
    """The 5 request lines for a board of exponents: ``game`` and rows of values, each followed by a space."""
    rows = []
    for y in range(SIZE):
        rows.append("".join(f"{1 << e if e else 0} " for e in board[SIZE * y : SIZE * y + SIZE]))
    return "game\n" + "\n".join(rows) + "\n"


def decode_rows(rows: list[str]) -> Board:
    """A board of exponents from the four row lines (values separated by spaces)."""
    values = [int(token) for row in rows for token in row.split()]
    if len(values) != SIZE * SIZE:
        raise ValueError(f"expected {SIZE * SIZE} values in 4 rows, got {len(values)}")
    return tuple(value.bit_length() - 1 if value else 0 for value in values)


def encode_action(action: Placement | Slide) -> str:
    """The reply line (without LF) for an action: ``x y v`` or a lower-case direction word."""
    if isinstance(action, Placement):
        return f"{action.x} {action.y} {action.value}"
    return DIRECTION_WORDS[action.direction]


def tokens(line: str) -> list[str]:
    """Check a reply line's bytes and split it into tokens (7.4): CR removed, spaces and tabs trimmed.

    Raises:
        ParseError: The line holds a byte that is not printable ASCII, space or tab.
    """
    line = line.removesuffix("\r")
    if not _PRINTABLE.fullmatch(line):
        bad = next(ch for ch in line if not _PRINTABLE.fullmatch(ch))
        raise ParseError(f"byte 0x{ord(bad):02x} is not printable ASCII in {line!r}")
    trimmed = line.strip(" \t")
    return _SPACES.split(trimmed) if trimmed else []


def parse_placement(line: str) -> Placement:
    """An attacker reply ``x y v``, form checks only.

    Raises:
        ParseError: Not exactly three integers.
    """
    parts = tokens(line)
    if len(parts) != 3:
        raise ParseError(f"expected 3 integers 'x y v', got {len(parts)} token(s) in {line!r}")
    for part in parts:
        if not _INTEGER.fullmatch(part):
            raise ParseError(f"{part!r} is not an integer in {line!r} (expected 'x y v', e.g. '0 3 2')")
    x, y, value = (int(part) for part in parts)
    return Placement(x, y, value)


def parse_slide(line: str) -> Slide:
    """A defender reply: one direction word or alias, any case.

    Raises:
        ParseError: Not exactly one known direction token.
    """
    parts = tokens(line)
    if len(parts) != 1:
        raise ParseError(f"expected one direction word, got {len(parts)} token(s) in {line!r}")
    direction = _ALIASES.get(parts[0].lower())
    if direction is None:
        raise ParseError(f"{parts[0]!r} is not a direction (north, east, south or west)")
    return Slide(direction)


class Attack2048Referee(RefereeProtocol):
    """The referee side: exact bytes out, typed actions in, ``quit`` to attacker then defender."""

    line_rules = LineRules(
        max_bytes=MAX_LINE_BYTES, skip_blank=True, fragment_at_eof_is_line=False, broken_pipe_is_crash=True
    )

    def request(self, state: State, request: Request) -> bytes:
        assert isinstance(state, Attack2048State)
        return encode_board(state.board).encode("ascii")

    def parse(self, state: State, request: Request, line: str) -> Any:
        return parse_placement(line) if request.role == ATTACK else parse_slide(line)

    def describe(self, state: State, request: Request) -> str:
        assert isinstance(state, Attack2048State)
        return f"its {ROLE_WORDS[request.role]} request for ply {state.plies + 1} of half {state.half}"

    def fault_code(self, state: State, request: Request, termination: Termination) -> str:
        return _CODES[termination]

    def shutdown_wait_ms(self) -> int:
        return 2000

    def stop_rank(self, state: State, key: ProcessKey) -> Any:
        return (key.epoch, 0 if key.role == ATTACK else 1, key.seat)

    def farewell(self, state: State, key: ProcessKey) -> bytes:
        return QUIT


class Attack2048Bot(Protocol):
    """What a built-in attack2048 bot (either role) implements."""

    def act(self, observation: Attack2048Observation) -> Placement | Slide:
        """Choose the reply to a board."""


class Attack2048Driver(BotDriver):
    """The bot side: collects ``game`` and four rows, asks the bot, formats its reply; ``quit`` ends."""

    def __init__(self, bot: Attack2048Bot) -> None:
        self.bot = bot
        self.rows: list[str] | None = None
        self.quit = False

    def feed(self, line: str) -> str | None:
        if self.rows is None:
            if line == "game":
                self.rows = []
            elif line == "quit":
                self.quit = True
            return None
        self.rows.append(line)
        if len(self.rows) < SIZE:
            return None
        board = decode_rows(self.rows)
        self.rows = None
        return encode_action(self.bot.act(Attack2048Observation(board)))
