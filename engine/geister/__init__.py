"""geister: GPCC's Geister, hidden information on a 6x6 board (engine/geister/README.md)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, ClassVar, Literal

from pydantic import Field, model_validator

from engine.core import Game, TcpSettings


def _ms(seconds: float) -> int:
    return int(round(seconds * 1000))


class Geister(Game):
    """geister with its variant parameters (section 8 of the rules file)."""

    name: ClassVar[str] = "geister"
    title: ClassVar[str] = (
        "Geister (GPCC, miyo's Geister server): 8 ghosts each, red or blue, colours hidden until captured"
    )
    score_label: ClassVar[str] = "pieces captured"

    escape: Literal["on_turn_start", "move_off"] = Field(
        "on_turn_start",
        description="on_turn_start: a blue on an exit when its turn begins wins (GPCC); move_off: it moves off",
    )
    max_plies: int = Field(254, ge=1, description="draw once this many plies are played without a result")
    ng_terminate: bool = Field(
        True, description="true: a rejected command loses at once; false: NG, and the bot may try again in its time"
    )
    setup_timeout_s: float = Field(10, gt=0, description="time for the SET reply")
    move_timeout_s: float = Field(10, gt=0, description="per-move allowance once the budget is spent (byoyomi)")
    budget_s: float | None = Field(600, ge=0, description="per-player time budget for moves; null = none")
    first_port: int = Field(
        10000, ge=1024, le=65535, description="TCP transport: the port seat 0's client connects to (1024 and up)"
    )
    second_port: int = Field(
        10001, ge=1024, le=65535, description="TCP transport: the port seat 1's client connects to (1024 and up)"
    )
    connect_timeout_s: float = Field(30, gt=0, description="TCP transport: time for a client to connect")

    @model_validator(mode="after")
    def _distinct_ports(self) -> Geister:
        if self.first_port == self.second_port:
            raise ValueError(f"first_port and second_port must differ (both are {self.first_port})")
        return self

    def new_state(self, seed: int, seats: int | None = None) -> Any:
        """A fresh game (geister has no randomness: ``seed`` is not used)."""
        from engine.geister.rules import GeisterState

        if seats not in (None, 2):
            raise ValueError(f"geister is played by 2 bots, not {seats}")
        budget = None if self.budget_s is None else _ms(self.budget_s)
        return GeisterState(
            escape=self.escape,
            max_plies=self.max_plies,
            ng_terminate=self.ng_terminate,
            setup_ms=_ms(self.setup_timeout_s),
            move_ms=_ms(self.move_timeout_s),
            budget_ms=budget,
            remaining_ms=[budget or 0, budget or 0],
        )

    def referee_protocol(self) -> Any:
        from engine.geister.protocol import GeisterReferee

        return GeisterReferee()

    def draws_from_seed(self) -> bool:
        """Never: the setups are the bots' own and the rules have no randomness (README)."""
        return False

    def opening_rules(self) -> Any:
        """The referee plays an opening's moves after both setups; every MOV? shows the board (README, Openings)."""
        from engine.geister.openings import GeisterOpenings

        return GeisterOpenings()

    def bot_protocol(self, bot: Any) -> Any:
        from engine.geister.protocol import GeisterDriver

        return GeisterDriver(bot)

    def bot_rules(self) -> dict[str, Any]:
        """The escape rule and the ply cap: the protocol never tells a bot either."""
        return {"escape": self.escape, "max_plies": self.max_plies}

    def tcp(self) -> TcpSettings:
        """Clients written for the server connect to ``first_port`` (seat 0) or ``second_port`` (seat 1)."""
        return TcpSettings((self.first_port, self.second_port), self.connect_timeout_s)

    def render(self, final_state: dict[str, Any]) -> str:
        from engine.geister.rules import GeisterState

        return GeisterState.from_json(final_state).picture()

    @classmethod
    def builtin_bots(cls) -> Mapping[str, type]:
        from engine.geister.bots import BUILTIN_BOTS

        return BUILTIN_BOTS
