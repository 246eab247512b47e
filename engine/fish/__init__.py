"""fish: Hey, That's My Fish! with GPCC 2016's rules, 2 to 4 players (rules/fish.md)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Annotated, Any, ClassVar, Literal

from pydantic import Field, field_validator

from engine.core import Game


class Fish(Game):
    """fish with its variant parameters (section 9 of the rules file)."""

    name: ClassVar[str] = "fish"
    title: ClassVar[str] = (
        "Hey, That's My Fish! (GPCC 2016): penguins slide over hex ice floes, collecting the tiles they leave"
    )
    no_openings: ClassVar[str] = "its fish are shuffled from the match seed: every pair of games already differs"
    score_label: ClassVar[str] = "fish"
    min_seats: ClassVar[int] = 2
    max_seats: ClassVar[int] = 4

    penguins: Literal["auto"] | Annotated[int, Field(ge=1, le=4)] = Field(
        "auto", description="penguins per player: auto = 4 / 3 / 2 for 2 / 3 / 4 players, or an integer 1..4"
    )
    timeout_ms: int = Field(1000, ge=1, description="time limit per request after the first, in ms")
    first_timeout_ms: int = Field(
        5000, ge=1, description="time limit for each bot's first request (covers start-up), in ms"
    )

    @field_validator("penguins", mode="before")
    @classmethod
    def _auto_or_one_to_four(cls, value: Any) -> Any:
        """``auto`` or a whole number 1 to 4, said in one sentence (``true`` is not 1)."""
        if value == "auto" or (isinstance(value, int) and not isinstance(value, bool) and 1 <= value <= 4):
            return value
        shown = str(value).lower() if isinstance(value, bool) else repr(value)
        raise ValueError(f"penguins must be auto or an integer 1 to 4, not {shown}")

    def penguins_for(self, players: int) -> int:
        """Penguins per player for ``players`` seats (3.2)."""
        from engine.fish.rules import PENGUINS_AUTO

        return PENGUINS_AUTO[players] if self.penguins == "auto" else int(self.penguins)

    def new_state(self, seed: int, seats: int | None = None) -> Any:
        """A fresh game for ``seats`` players (2 if not given), its board shuffled from ``seed``."""
        from engine.fish.board import board_from_seed
        from engine.fish.rules import FishState

        players = 2 if seats is None else seats
        if not self.min_seats <= players <= self.max_seats:
            raise ValueError(f"fish is played by 2 to 4 bots, not {players}")
        if not 0 <= seed < 2**63:
            raise ValueError(f"the game seed must be in 0 .. 2**63 - 1, not {seed}")
        return FishState(
            players=players,
            penguins_per_player=self.penguins_for(players),
            timeout_ms=self.timeout_ms,
            first_timeout_ms=self.first_timeout_ms,
            fish=board_from_seed(seed),
        )

    def referee_protocol(self) -> Any:
        from engine.fish.protocol import FishReferee

        return FishReferee()

    def bot_protocol(self, bot: Any) -> Any:
        from engine.fish.protocol import FishDriver

        return FishDriver(bot)

    def render(self, final_state: dict[str, Any]) -> str:
        """The final board (fish on tiles, ``.`` gaps, ``aN``..``dN`` penguins), then the tiles collected."""
        from engine.fish.board import ROW_LENGTHS, ROW_STARTS

        owner = {cell: seat for seat, cells in enumerate(final_state["penguins"]) for cell in cells}
        lines = []
        for r, length in enumerate(ROW_LENGTHS):
            row = []
            for cell in range(ROW_STARTS[r], ROW_STARTS[r] + length):
                fish = final_state["fish"][cell]
                text = str(fish) if fish else "."
                row.append(f"{'abcd'[owner[cell]]}{text}" if cell in owner else text)
            lines.append(f"r{r}: {'   ' if r % 2 == 0 else ''}" + "".join(f"{text:<6}" for text in row).rstrip())
        tiles = " ".join(str(count) for count in final_state["tiles"])
        key = "(digits: fish; '.': a gap; a-d: a penguin of seat 0-3)"
        return "\n".join([*lines, key, f"tiles collected, seat 0 first (they break ties on fish): {tiles}"])

    @classmethod
    def builtin_bots(cls) -> Mapping[str, type]:
        from engine.fish.bots import BUILTIN_BOTS

        return BUILTIN_BOTS
