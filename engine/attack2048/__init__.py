"""attack2048: Attacker/Defender 2048 on a 4x4 board (engine/attack2048/README.md)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, ClassVar, Literal

from pydantic import Field, field_validator

from engine.core import Game, plural

ATTACK = "attack"
DEFEND = "defend"
MAX_SEED = 2**64 - 1


class Attack2048(Game):
    """attack2048 with its variant parameters (section 8 of the rules file).

    One match is two halves with the roles swapped: bot 0 attacks in half 1, bot 1 in half 2.
    Each bot has two roles, so each seat runs an attacker and a defender command.
    """

    name: ClassVar[str] = "attack2048"
    title: ClassVar[str] = (
        "Attacker/Defender 2048 (GPCC): one bot places tiles, the other slides; two halves, roles swapped"
    )
    score_label: ClassVar[str] = "defender score"
    roles: ClassVar[tuple[str, ...]] = (ATTACK, DEFEND)

    tiles: tuple[int, ...] = Field((2, 4), description="tile values the attacker may place: [2] or [2, 4]")
    four_limit: int | None = Field(None, ge=0, description="most 4s the attacker may place per half; null = no limit")
    four_every_twos: int | None = Field(None, ge=1, description="one 4-credit after every N placed 2s; null = off")
    four_on_new_max: bool = Field(False, description="one 4-credit each time a slide raises the largest tile")
    opening: Literal["empty", "random_two", "attacker_two"] = Field("empty", description="how a half starts")
    max_plies_per_half: int | None = Field(100_000, ge=1, description="safety cap on plies per half; null = none")
    decision_ms: int = Field(1000, ge=1, description="time per request; strictly more is a timeout")
    startup_ms: int = Field(4000, ge=0, description="extra time on the first request to each process")

    @field_validator("tiles", mode="before")
    @classmethod
    def _tiles_are_2_or_2_and_4(cls, value: Any) -> tuple[int, ...]:
        try:
            tiles = tuple(sorted(value))
        except TypeError:
            raise ValueError("tiles must be a list: [2] or [2, 4]") from None
        if tiles not in ((2,), (2, 4)):
            raise ValueError(f"tiles must be [2] or [2, 4] (in any order), not {list(value)}")
        return tiles

    def new_state(self, seed: int, seats: int | None = None) -> Any:
        """A fresh match; ``seed`` (0 <= seed < 2**64) matters only to the ``random_two`` opening."""
        from engine.attack2048.rules import Attack2048State

        if not 0 <= seed <= MAX_SEED:
            raise ValueError(f"attack2048 seeds are 0 to 2**64 - 1, not {seed}")
        if seats not in (None, 2):
            raise ValueError(f"attack2048 is played by 2 bots, not {seats}")
        state = Attack2048State(
            tiles=list(self.tiles),
            four_limit=self.four_limit,
            four_every_twos=self.four_every_twos,
            four_on_new_max=self.four_on_new_max,
            opening=self.opening,
            max_plies_per_half=self.max_plies_per_half,
            decision_ms=self.decision_ms,
            startup_ms=self.startup_ms,
            seed=seed,
        )
        state.start_half(1)
        return state

    def bot_rules(self) -> dict[str, Any]:
        """The 4-tile rules (3.5): the protocol never tells a process its counters or the variant."""
        return {
            "tiles": list(self.tiles),
            "four_limit": self.four_limit,
            "four_every_twos": self.four_every_twos,
            "four_on_new_max": self.four_on_new_max,
        }

    def draws_from_seed(self) -> bool:
        """Only the ``random_two`` opening draws from the seed (its two cells); the attacker places every tile."""
        return self.opening == "random_two"

    def opening_rules(self) -> Any:
        """Both halves start with the opening's plies; every request shows the board (README, Openings)."""
        from engine.attack2048.openings import Attack2048Openings

        return Attack2048Openings()

    def referee_protocol(self) -> Any:
        from engine.attack2048.protocol import Attack2048Referee

        return Attack2048Referee()

    def bot_protocol(self, bot: Any) -> Any:
        from engine.attack2048.protocol import Attack2048Driver

        return Attack2048Driver(bot)

    def render(self, final_state: dict[str, Any]) -> str:
        lines = []
        for record in final_state["halves"]:
            lines.append(
                f"half {record['half']}: bot {record['attacker']} attacked, bot {record['defender']} defended:"
                f" score {record['score']}, {plural(record['plies'], 'ply', 'plies')}, end {record['end']},"
                f" {plural(record['twos'], 'two')}, {plural(record['fours'], 'four')}"
            )
        board = final_state["board"]
        lines.append("last board (values):")
        width = max(len(str(1 << e if e else 0)) for e in board)
        for row in range(4):
            lines.append(" ".join(f"{(1 << e if e else 0):>{width}}" for e in board[row * 4 : row * 4 + 4]))
        return "\n".join(lines)

    def process_label(self, epoch: int) -> str:
        """A process of attack2048 lives for one half; its epoch is the half (1 or 2)."""
        return f"half {epoch}"

    @classmethod
    def builtin_bots(cls) -> Mapping[str, Mapping[str, type]]:
        from engine.attack2048.bots import BUILTIN_BOTS

        return BUILTIN_BOTS
