"""geister on the wire (engine/geister/README.md, the protocol), both sides: miyo's server bytes.

Referee -> bot, every line ending CR LF: ``SET?`` (choose reds), ``MOV?<board>`` (your move, the
48-character board of section 2.4 in your frame, opponent colours hidden), ``OK `` / ``OKR`` /
``OKB`` (accepted; captured a red / a blue), ``NG `` (rejected), and at the end ``WON:``, ``LST:``
or ``DRW:`` with the board fully revealed. Bot -> referee: ``SET:ABCD``, ``MOV:A,NORTH`` (or
``MOV:A,N``), ending LF or CR LF; spaces and tabs around a line are trimmed, blank lines skipped.
"""

from __future__ import annotations

import re
from typing import Any, Protocol

from engine.core import Fault, ProcessKey, Request, State, Termination
from engine.geister.board import DIRECTIONS, LETTERS, SHORT
from engine.geister.observations import Move, MoveObservation, Piece, SetReds, SetupObservation
from engine.geister.rules import FAULT_CODES, SETUP, GeisterState
from engine.protocol import BotDriver, LineRules, ParseError, RefereeProtocol

CRLF = "\r\n"
MAX_LINE = 1024
_SET = re.compile(r"SET:(.*)", re.DOTALL)
_MOV = re.compile(r"MOV:(.*)", re.DOTALL)
_PRINTABLE = re.compile(r"[\x20-\x7e]*")
_BOARD = re.compile(r"(?:[0-9][0-9][RBrbu]){16}")


def clean_line(line: str) -> str:
    """A received line as the rules read it: one CR before the LF removed, spaces and tabs trimmed (7.2)."""
    return line.removesuffix("\r").strip(" \t")


def parse_command(line: str, setup: bool) -> SetReds | Move:
    """A bot's line (without LF) as a command of the current phase, form checks only (7.5).

    Args:
        line: The line as received.
        setup: Whether a ``SET`` is expected (else a ``MOV``).

    Raises:
        ParseError: Not a well-formed command for this phase.
    """
    text = clean_line(line)
    if not _PRINTABLE.fullmatch(text):
        raise ParseError(f"{text!r} holds a byte that is not printable ASCII")
    if setup:
        match = _SET.fullmatch(text)
        if match is None:
            expected = "a MOV during the setup" if text.startswith("MOV:") else f"{text!r}"
            raise ParseError(f"expected SET:<four of A-H> during the setup, got {expected}")
        letters = match.group(1)
        if len(letters) != 4 or any(c.upper() not in LETTERS for c in letters):
            raise ParseError(f"{text!r}: SET: must be followed by exactly four letters A-H")
        return SetReds(letters.upper())
    match = _MOV.fullmatch(text)
    if match is None:
        expected = "a SET after the setup" if text.startswith("SET:") else f"{text!r}"
        raise ParseError(f"expected MOV:<piece>,<direction>, got {expected}")
    piece, comma, direction = match.group(1).partition(",")
    if not comma or len(piece) != 1 or piece.upper() not in LETTERS:
        raise ParseError(f"{text!r}: the piece must be one letter A-H followed by a comma")
    word = direction.upper()
    word = SHORT.get(word, word)
    if word not in DIRECTIONS:
        raise ParseError(f"{text!r}: the direction must be NORTH, EAST, SOUTH, WEST or N, E, S, W")
    return Move(piece.upper(), word)


def encode_action(action: SetReds | Move) -> str:
    """The reply line (without LF) for an action."""
    return f"SET:{action.reds}" if isinstance(action, SetReds) else str(action)


def decode_board(board: str) -> tuple[tuple[Piece, ...], tuple[Piece, ...]]:
    """The receiver's pieces and the opponent's from a 48-character board string.

    Raises:
        ValueError: Not 16 groups of two digits and a colour letter.
    """
    if not _BOARD.fullmatch(board):
        raise ValueError(f"not a board string: {board!r}")
    pieces = tuple(Piece(int(board[i]), int(board[i + 1]), board[i + 2]) for i in range(0, 48, 3))
    return pieces[:8], pieces[8:]


class GeisterReferee(RefereeProtocol):
    """The referee side: exact bytes out (CR LF), typed commands in."""

    line_rules = LineRules(
        max_bytes=MAX_LINE, skip_blank=True, fragment_at_eof_is_line=False, broken_pipe_is_crash=True
    )

    def request(self, state: State, request: Request) -> bytes:
        assert isinstance(state, GeisterState)
        if state.phase == SETUP:
            return f"SET?{CRLF}".encode("ascii")
        return f"MOV?{state.board_string(request.seat, reveal=False)}{CRLF}".encode("ascii")

    def parse(self, state: State, request: Request, line: str) -> Any:
        assert isinstance(state, GeisterState)
        return parse_command(line, state.phase == SETUP)

    def describe(self, state: State, request: Request) -> str:
        assert isinstance(state, GeisterState)
        return "its setup request (SET?)" if state.phase == SETUP else f"its move request for ply {state.plies + 1}"

    def fault_code(self, state: State, request: Request, termination: Termination) -> str:
        return FAULT_CODES[termination]

    def acceptance(self, state: State, request: Request, action: Any) -> bytes:
        """``OK `` for an accepted command; ``OKR``/``OKB`` for a move that captures a red/blue."""
        assert isinstance(state, GeisterState)
        captured = state.capture_of(request.seat, action) if isinstance(action, Move) else None
        return f"OK{captured or ' '}{CRLF}".encode("ascii")

    def rejection(self, state: State, request: Request, fault: Fault) -> bytes:
        """``NG `` for every rejected command (7.4)."""
        return f"NG {CRLF}".encode("ascii")

    def retries_rejected(self, state: State) -> bool:
        """With ``ng_terminate: false`` a rejected command may be followed by another in the same time."""
        assert isinstance(state, GeisterState)
        return not state.ng_terminate

    def shutdown_wait_ms(self) -> int:
        return 2000

    def stop_rank(self, state: State, key: ProcessKey) -> Any:
        """The winner's ``WON:`` goes out before the loser's ``LST:``; a draw's to seat 0 first."""
        assert isinstance(state, GeisterState)
        return (0 if state.winner is None or key.seat == state.winner else 1, key.seat)

    def farewell(self, state: State, key: ProcessKey) -> bytes:
        assert isinstance(state, GeisterState)
        return f"{state.end_line(key.seat)}{CRLF}".encode("ascii") if state.is_over() else b""


class GeisterBot(Protocol):
    """What a built-in geister bot implements."""

    def act(self, observation: SetupObservation | MoveObservation) -> SetReds | Move:
        """Choose the reply to a request."""


class GeisterDriver(BotDriver):
    """The bot side: answers ``SET?`` and ``MOV?``; acknowledgements and end messages need no reply."""

    def __init__(self, bot: GeisterBot) -> None:
        self.bot = bot
        self.move_number = 0

    def feed(self, line: str) -> str | None:
        line = line.removesuffix("\r")
        if line == "SET?":
            return encode_action(self.bot.act(SetupObservation()))
        if line.startswith("MOV?"):
            self.move_number += 1
            own, opponent = decode_board(line[4:])
            return encode_action(self.bot.act(MoveObservation(own, opponent, self.move_number)))
        return None
