"""What a geister player is asked and what it answers, typed: requests, the pieces they show, replies.

The referee's state (engine/geister/rules.py) makes the requests; engine/geister/protocol.py
turns them into bytes and the bytes of a reply into ``SetReds`` or ``Move``.
"""

from __future__ import annotations

from dataclasses import dataclass

from engine.geister.board import CAPTURED, ESCAPED


@dataclass(frozen=True)
class SetReds:
    """A setup reply ``SET:<4 letters>``: the pieces named are red (upper case, as sent)."""

    reds: str


@dataclass(frozen=True)
class Move:
    """A move reply ``MOV:<piece>,<direction>``: piece A-H, direction NORTH/EAST/SOUTH/WEST."""

    piece: str
    direction: str

    def __str__(self) -> str:
        return f"MOV:{self.piece},{self.direction}"


@dataclass(frozen=True)
class Piece:
    """One piece as a player sees it: where (own frame) and its colour letter.

    Attributes:
        x: Column 0-5 in the receiver's frame; 9 captured, 8 escaped.
        y: Row 0-5 in the receiver's frame; 9 captured, 8 escaped.
        colour: ``R``/``B`` own secret colour on the board, ``r``/``b`` colour known to both,
            ``u`` an opponent's piece of unknown colour.
    """

    x: int
    y: int
    colour: str

    @property
    def on_board(self) -> bool:
        """Whether it still stands on the board."""
        return (self.x, self.y) not in (CAPTURED, ESCAPED)


@dataclass(frozen=True)
class SetupObservation:
    """The setup request ``SET?``: choose four reds."""


@dataclass(frozen=True)
class MoveObservation:
    """A move request ``MOV?<board>``, typed: the receiver's pieces and the opponent's, A-H.

    Attributes:
        own: The receiver's eight pieces (colours ``R``/``B``, lower case once captured).
        opponent: The opponent's eight pieces (``u`` unless captured: then ``r`` or ``b``).
        move_number: How many ``MOV?`` this player has received, this one included.
    """

    own: tuple[Piece, ...]
    opponent: tuple[Piece, ...]
    move_number: int


def encode_board(own: tuple[Piece, ...], opponent: tuple[Piece, ...]) -> str:
    """The 48-character board string of 16 pieces (own A-H, then the opponent's A-H)."""
    return "".join(f"{p.x}{p.y}{p.colour}" for p in (*own, *opponent))
