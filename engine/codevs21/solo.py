"""codevs21 solo: the qualifier's game, one bot's moves applied to the N packs (rules 4.2, 7.1, 8).

``read_move`` reads one reply line as the referee does (a ``format`` fault); ``SoloGame`` applies
moves (or lines) in turn order until the game ends by ``clear`` (N turns), ``overflow``
(the last turn still scores) or a fault (the move not applied, everything earned kept).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from dataclasses import field as data_field

from engine.codevs21.field import Field, Step
from engine.codevs21.packs import Pack, Params, legal_positions, rotate

MAX_LINE = 1000
"""The longest reply line in bytes, without its line end (section 8)."""
MOVE_LINE = re.compile(rb"[ \t]*(-?[0-9]+)[ \t]+(-?[0-9]+)[ \t]*")

CLEAR, OVERFLOW = "clear", "overflow"
FORMAT, ILLEGAL_MOVE, TIMEOUT, EOF = "format", "illegal_move", "timeout", "eof"


class MoveFault(ValueError):
    """A reply that is not a move: ``code`` is the rules' fault code (section 8)."""

    def __init__(self, code: str, detail: str) -> None:
        super().__init__(detail)
        self.code = code


def read_move(line: bytes) -> tuple[int, int]:
    r"""``(X, R)`` from one reply line (its ``\n`` removed; one trailing ``\r`` is dropped here).

    Raises:
        MoveFault: ``format`` when the line is not two integers (an empty line, ``+1 0``,
            ``1 2 3``, ``1,2``), longer than 1000 bytes or not ASCII.
    """
    if line.endswith(b"\r"):
        line = line[:-1]
    if len(line) > MAX_LINE:
        raise MoveFault(FORMAT, f"a line of {len(line)} bytes, over the {MAX_LINE} allowed")
    match = MOVE_LINE.fullmatch(line)
    if match is None:
        shown = line[:40].decode("ascii", "backslashreplace")  # non-ASCII bytes shown as \\xNN
        raise MoveFault(FORMAT, f"'{shown}' is not 'X R' (two integers in ASCII)")
    return int(match.group(1)), int(match.group(2))


def check_move(pack: Pack, params: Params, x: int, rotation: int) -> Pack:
    """The pack rotated for a legal move.

    Raises:
        MoveFault: ``illegal_move`` when R is not 0-3 or a block would leave the well (3.3).
    """
    if rotation not in range(4):
        raise MoveFault(ILLEGAL_MOVE, f"rotation {rotation} is not 0, 1, 2 or 3")
    rotated = rotate(pack, params.T, rotation)
    allowed = legal_positions(rotated, params.T, params.W)
    if x not in allowed:
        span = f"X can be {allowed[0]} to {allowed[-1]}"
        raise MoveFault(ILLEGAL_MOVE, f"X={x} with R={rotation} puts a block outside the well ({span})")
    return rotated


@dataclass
class SoloGame:
    """One solo game in progress.

    Attributes:
        params: The game's numbers.
        packs: The N packs, in turn order.
        well: The well and the record (score, fire count, max chain, turns).
        end: ``clear``, ``overflow`` or ``fault:<code>`` once over; empty while playing.
        steps: Per applied turn, its erase steps.
    """

    params: Params
    packs: Sequence[Pack]
    well: Field = data_field(init=False)
    end: str = ""
    steps: list[list[Step]] = data_field(default_factory=list)

    def __post_init__(self) -> None:
        self.well = Field(self.params)

    @property
    def turn(self) -> int:
        """The number of the turn to play next (0-based)."""
        return self.well.turns

    def play(self, line: bytes) -> None:
        """Apply one reply line: a move, or a fault that ends the game (``MoveFault`` raised)."""
        try:
            move = read_move(line)
        except MoveFault as fault:
            self.end = f"fault:{fault.code}"
            raise
        self.move(*move)

    def move(self, x: int, rotation: int) -> None:
        """Apply one move, or end the game by ``illegal_move`` (``MoveFault`` raised)."""
        try:
            rotated = check_move(self.packs[self.turn], self.params, x, rotation)
        except MoveFault as fault:
            self.end = f"fault:{fault.code}"
            raise
        self.steps.append(self.well.play(rotated, x))
        if self.well.overflowed():
            self.end = OVERFLOW
        elif self.turn == self.params.N:
            self.end = CLEAR

    def fault(self, code: str) -> None:
        """End the game by a fault that is not the line's (``timeout``, ``eof``)."""
        self.end = f"fault:{code}"

    def record(self) -> dict[str, int | str]:
        """The result record (7.1): score, max_chain, turns, fc, end."""
        well = self.well
        return {"score": well.score, "max_chain": well.max_chain, "turns": well.turns, "fc": well.fire, "end": self.end}
