"""What a built-in codevs21 player sees before a move: snapshots that never change once made."""

from __future__ import annotations

from dataclasses import dataclass

from engine.codevs21.field import Field
from engine.codevs21.packs import Pack, Params


@dataclass(frozen=True)
class Well:
    """A field as it stood: each column's blocks bottom first, the score and the fire count."""

    columns: tuple[tuple[int, ...], ...]
    score: int
    fire: int

    @classmethod
    def of(cls, field: Field) -> Well:
        """The snapshot of ``field``."""
        return cls(tuple(tuple(column) for column in field.columns), field.score, field.fire)

    def field(self, params: Params) -> Field:
        """A field to try moves on, as this snapshot shows it."""
        return Field(params, [list(column) for column in self.columns], self.score, self.fire)


@dataclass(frozen=True)
class SoloObservation:
    """One solo turn.

    Attributes:
        params: The game's numbers.
        turn: The turn (0-based).
        own: Its field.
        packs: Every pack of the game; this turn's is ``pack``.
    """

    params: Params
    turn: int
    own: Well
    packs: tuple[Pack, ...]

    @property
    def pack(self) -> Pack:
        """The pack to drop this turn."""
        return self.packs[self.turn]

    def well(self) -> Field:
        """Its field, to try moves on."""
        return self.own.field(self.params)


@dataclass(frozen=True)
class VersusObservation:
    """One versus turn: both fields, both packs as the stocks filled them, both stocks.

    Attributes:
        params: The game's numbers.
        turn: The turn (0-based).
        own: Its field.
        other: The opponent's field.
        pack: The pack it drops this turn (its stock's obstruction inserted).
        other_pack: The opponent's pack this turn.
        stocks: Its stock, then the opponent's, after this turn's insertion.
        packs: The base packs of the game (later turns' insertion unknown yet).
    """

    params: Params
    turn: int
    own: Well
    other: Well
    pack: Pack
    other_pack: Pack
    stocks: tuple[int, int]
    packs: tuple[Pack, ...]

    def well(self) -> Field:
        """Its field, to try moves on."""
        return self.own.field(self.params)
