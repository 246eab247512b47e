"""nimmt: 6 Nimmt! under the GPCC 2016 rules, 2 to 10 players (rules/nimmt.md)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, ClassVar, Literal

from pydantic import Field

from engine.core import Game


class Nimmt(Game):
    """nimmt with its variant parameters (section 9 of the rules file)."""

    name: ClassVar[str] = "nimmt"
    title: ClassVar[str] = "6 Nimmt! (GPCC 2016): 2-10 players, simultaneous card choices, fewest bullheads wins"
    no_openings: ClassVar[str] = "its deal is drawn from the match seed: every pair of games already differs"
    score_label: ClassVar[str] = "bullheads (lower is better)"
    min_seats: ClassVar[int] = 2
    max_seats: ClassVar[int] = 10

    bullheads: Literal["gpcc", "classic"] = Field(
        "gpcc", description="gpcc: the GPCC 2016 table; classic: other multiples of 5 are worth 2"
    )
    deals: int = Field(1, ge=1, description="number of deals played when target is 0")
    target: int = Field(
        0, ge=0, description="0 = off; else deals are played until a deal ends with a total >= target (deals ignored)"
    )
    timeout_ms: int = Field(1000, ge=1, description="time limit per request after the first")
    first_timeout_ms: int = Field(5000, ge=1, description="time limit for each bot's first request (covers start-up)")

    def new_state(self, seed: int, seats: int | None = None) -> Any:
        """A fresh game for ``seats`` players (2 when not given), dealt from ``seed`` only."""
        from engine.nimmt.rules import NimmtState

        players = self.min_seats if seats is None else seats
        if not self.min_seats <= players <= self.max_seats:
            raise ValueError(f"nimmt is played by {self.min_seats} to {self.max_seats} bots, not {players}")
        if not 0 <= seed < 2**63:
            raise ValueError(f"the game seed must be in 0 .. 2**63 - 1, not {seed}")
        return NimmtState(
            players=players,
            seed=seed,
            table=self.bullheads,
            deals=self.deals,
            target=self.target,
            timeout_ms=self.timeout_ms,
            first_timeout_ms=self.first_timeout_ms,
        )

    def referee_protocol(self) -> Any:
        """A fresh referee side (it remembers what each seat was sent: one per game)."""
        from engine.nimmt.protocol import NimmtReferee

        return NimmtReferee()

    def bot_protocol(self, bot: Any) -> Any:
        from engine.nimmt.protocol import NimmtDriver

        return NimmtDriver(bot)

    def render(self, final_state: dict[str, Any]) -> str:
        """The four rows as the last deal left them, each card with its bullheads."""
        from engine.nimmt.rules import bullheads

        lines = [f"rows at the end of deal {final_state['deal']} (card:bullheads):"]
        for number, row in enumerate(final_state["rows"]):
            cards = " ".join(f"{card}:{bullheads(card, final_state['table'])}" for card in row)
            lines.append(f"  row {number}: {cards}")
        return "\n".join(lines)

    @classmethod
    def builtin_bots(cls) -> Mapping[str, type]:
        from engine.nimmt.bots import BUILTIN_BOTS

        return BUILTIN_BOTS
