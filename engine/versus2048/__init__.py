"""versus2048: 5x5 Versus 2048 (engine/versus2048/README.md)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, ClassVar

from pydantic import Field

from engine.core import Game
from engine.slide import square


class Versus2048(Game):
    """versus2048 with its variant parameters (section 8 of the rules file)."""

    name: ClassVar[str] = "versus2048"
    title: ClassVar[str] = (
        "5x5 Versus 2048 (AI Challenge 2018 @ CODE FESTIVAL): slide your board, then attack the other's"
    )

    board_size: int = Field(5, ge=2, description="N: rows = columns = N")
    turns_per_player: int = Field(1000, ge=1, description="turns each player takes before the score decides")
    turn_time_ms: int = Field(1000, ge=1, description="per main turn limit; strictly more is a fault")
    total_time_ms: int = Field(100_000, ge=1, description="per player, sum over main turns")
    pregame_time_ms: int = Field(1000, ge=1, description="limit for the pre-game reply")

    def new_state(self, seed: int, seats: int | None = None) -> Any:
        from engine.versus2048.rules import Versus2048State

        empty = (0,) * square(self.board_size).cells
        return Versus2048State(
            board_size=self.board_size,
            turns_per_player=self.turns_per_player,
            turn_time_ms=self.turn_time_ms,
            total_time_ms=self.total_time_ms,
            pregame_time_ms=self.pregame_time_ms,
            boards=[empty, empty],
            scores=[0, 0],
            used_ms=[0, 0],
        )

    def referee_protocol(self) -> Any:
        from engine.versus2048.protocol import Versus2048Referee

        return Versus2048Referee()

    def bot_protocol(self, bot: Any) -> Any:
        from engine.versus2048.protocol import Versus2048Driver

        return Versus2048Driver(bot)

    def draws_from_seed(self) -> bool:
        """Never: versus2048 has no randomness (README, section 1)."""
        return False

    def opening_rules(self) -> Any:
        """The referee plays an opening's plies; every turn input tells the bots the position (README, Openings)."""
        from engine.versus2048.openings import Versus2048Openings

        return Versus2048Openings()

    def render(self, final_state: dict[str, Any]) -> str:
        n = final_state["board_size"]
        width = max(len(str(v)) for board in final_state["boards"] for v in board)
        lines = [f"{'seat 0':<{n * (width + 1)}}   seat 1"]
        for row in range(n):
            halves = [
                " ".join(f"{v:>{width}}" for v in board[row * n : (row + 1) * n]) for board in final_state["boards"]
            ]
            lines.append("    ".join(halves))
        return "\n".join(lines) + "\n(exponents: 0 empty, e a tile of 2^e)"

    @classmethod
    def builtin_bots(cls) -> Mapping[str, type]:
        from engine.versus2048.bots import BUILTIN_BOTS

        return BUILTIN_BOTS
