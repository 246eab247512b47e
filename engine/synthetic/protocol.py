"""synthetic on the wire (engine/synthetic/README.md, the protocol), both sides.

Referee -> seat s: one line ``STRENGTH <s>`` (seat 0 first, seat 1 once seat 0 has replied).
Seat -> referee: one line, ``<elo>`` or ``<elo> <style>``: an Elo written as an integer or a
decimal fraction (``1650``, ``-20``, ``1512.5``; no exponent) within -100000 .. 100000, and
optionally ``rock``, ``paper`` or ``scissors``, separated by spaces or tabs; spaces, tabs and a CR
around the line are ignored. Nothing else is sent: no greeting, no result; stdin closes at the end.
"""

from __future__ import annotations

import re
from typing import Any, Protocol

from engine.core import Request, State, Termination
from engine.protocol import BotDriver, LineRules, ParseError, RefereeProtocol
from engine.synthetic.model import STYLES
from engine.synthetic.rules import FAULT_CODES, MAX_ELO, Strength, StrengthRequest

REQUEST_WORD = "STRENGTH"
_NUMBER = re.compile(r"[+-]?[0-9]+(?:\.[0-9]+)?")
_BLANKS = re.compile(r"[ \t]+")
_DECIMALS = 6
"""Decimal places a built-in's Elo is written with (it rounds its Elo to them, so both sides agree)."""


def encode_request(request: StrengthRequest) -> str:
    """The exact text of a request, LF included."""
    return f"{REQUEST_WORD} {request.seat}\n"


def format_elo(elo: float) -> str:
    """An Elo as a reply writes it: an integer when whole, else up to 6 decimal places (``1500``, ``1512.5``)."""
    if elo == int(elo):
        return str(int(elo))
    return f"{elo:.{_DECIMALS}f}".rstrip("0").rstrip(".")


def encode_strength(strength: Strength) -> str:
    """The reply line (without LF) for a strength."""
    elo = format_elo(strength.elo)
    return elo if strength.style is None else f"{elo} {strength.style}"


def _quoted(token: str, limit: int = 20) -> str:
    return repr(token) if len(token) <= limit else repr(token[:limit]) + f"... ({len(token)} characters)"


def parse_strength(line: str) -> Strength:
    """A reply line (without LF) as the strength it states.

    Raises:
        ParseError: Not an Elo in range, optionally followed by one style, and nothing else.
    """
    text = line.removesuffix("\r").strip(" \t")
    tokens = _BLANKS.split(text) if text else []
    if not 1 <= len(tokens) <= 2:
        raise ParseError(f"expected an Elo and at most a style (rock, paper, scissors), got {len(tokens)} tokens")
    if not _NUMBER.fullmatch(tokens[0]):
        raise ParseError(f"{_quoted(tokens[0])} is not an Elo (an integer or a decimal such as 1512.5)")
    elo = float(tokens[0])
    if not -MAX_ELO <= elo <= MAX_ELO:
        raise ParseError(f"Elo {_quoted(tokens[0])} is outside -{MAX_ELO} .. {MAX_ELO}")
    style = tokens[1] if len(tokens) == 2 else None
    if style is not None and style not in STYLES:
        raise ParseError(f"{_quoted(style)} is not a style: rock, paper or scissors (lower case)")
    return Strength(elo, style)


class SyntheticReferee(RefereeProtocol):
    """The referee side: one request line out, one strength in."""

    line_rules = LineRules(max_bytes=None, skip_blank=False, fragment_at_eof_is_line=True)

    def request(self, state: State, request: Request) -> bytes:
        return encode_request(StrengthRequest(request.seat)).encode("ascii")

    def parse(self, state: State, request: Request, line: str) -> Any:
        return parse_strength(line)

    def fault_code(self, state: State, request: Request, termination: Termination) -> str:
        return FAULT_CODES.get(termination, termination.value.lower())

    def describe(self, state: State, request: Request) -> str:
        return "its strength request"


class SyntheticBot(Protocol):
    """What a built-in synthetic bot implements."""

    def act(self, observation: StrengthRequest) -> Strength:
        """The strength to state."""


class SyntheticDriver(BotDriver):
    """The bot side: answers each ``STRENGTH`` line with the bot's strength."""

    def __init__(self, bot: SyntheticBot) -> None:
        self.bot = bot

    def feed(self, line: str) -> str | None:
        word, _, rest = line.removesuffix("\r").partition(" ")
        if word != REQUEST_WORD:
            return None
        return encode_strength(self.bot.act(StrengthRequest(int(rest))))
