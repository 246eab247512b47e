"""synthetic: outcomes drawn from a strength model, for planning and tests (engine/synthetic/README.md)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, ClassVar

from pydantic import Field

from engine.core import Game


class Synthetic(Game):
    """synthetic with its variant parameters (section 7 of its README)."""

    name: ClassVar[str] = "synthetic"
    title: ClassVar[str] = (
        "Synthetic, for planning and tests: each bot states its Elo (and a rock/paper/scissors style);"
        " the result is drawn from the BayesElo model"
    )
    score_label: ClassVar[str] = "points (2 a win, 1 a draw)"
    scores_spread: ClassVar[bool] = False

    draw_rate: float = Field(0.0, ge=0.0, le=0.9, description="chance of a draw between equal strengths (d = 0)")
    first_seat_elo: float = Field(
        0.0, ge=-1000.0, le=1000.0, description="Elo added to seat 0's side of d (the first seat's advantage)"
    )
    cycle_elo: float = Field(
        0.0,
        ge=0.0,
        le=1000.0,
        description="Elo added to d when seat 0's style beats seat 1's (rock > scissors > paper > rock);"
        " taken off when it loses",
    )
    reply_time_ms: int = Field(1000, ge=1, description="limit on each reply, in ms; strictly more is a fault")

    def new_state(self, seed: int, seats: int | None = None) -> Any:
        """A fresh game for two seats, its outcome drawn from ``seed`` (and both stated strengths) only."""
        from engine.synthetic.rules import SyntheticState

        if seats not in (None, 2):
            raise ValueError(f"synthetic is played by 2 bots, not {seats}")
        return SyntheticState(
            seed=seed,
            draw_rate=self.draw_rate,
            first_seat_elo=self.first_seat_elo,
            cycle_elo=self.cycle_elo,
            reply_time_ms=self.reply_time_ms,
        )

    def referee_protocol(self) -> Any:
        from engine.synthetic.protocol import SyntheticReferee

        return SyntheticReferee()

    def bot_protocol(self, bot: Any) -> Any:
        from engine.synthetic.protocol import SyntheticDriver

        return SyntheticDriver(bot)

    def render(self, final_state: dict[str, Any]) -> str:
        """Each seat's stated strength and seat 0's chances (the result itself is shown beside it)."""
        from engine.synthetic.rules import SyntheticState
        from engine.synthetic.view import frame, text

        return text(frame(SyntheticState.from_json(final_state)), with_end=False)

    @classmethod
    def builtin_bots(cls) -> Mapping[str, type]:
        from engine.synthetic.bots import BUILTIN_BOTS

        return BUILTIN_BOTS
