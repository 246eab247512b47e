"""pk2048: PK2048, a best of three on one shared 4x4 2048 board (engine/pk2048/README.md)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, ClassVar, Literal

from pydantic import Field, field_validator

from engine.core import Game, plural


class PK2048(Game):
    """pk2048 with its variant parameters (section 8 of the rules file)."""

    name: ClassVar[str] = "pk2048"
    title: ClassVar[str] = (
        "PK2048: two players on one shared 4x4 board, with one interference and one bomb; best of three"
    )
    no_openings: ClassVar[str] = "its spawned tiles are drawn from the match seed: every pair of games already differs"
    score_label: ClassVar[str] = "games won"
    scores_spread: ClassVar[bool] = False

    four_probability: float = Field(0.5, ge=0.0, le=1.0, description="probability that a spawned tile is 4 (else 2)")
    decision_time_ms: int = Field(1000, ge=1, description="per answer; strictly more is TIMEOUT")
    target_tile: int = Field(2048, ge=8, description="a game ends when a tile of this value appears")
    games_per_match: int = Field(3, ge=1, description="odd; first to (games_per_match + 1) / 2 wins")
    first_player: Literal["random", "seat0", "seat1"] = Field("random", description="first player of game 1")
    play_all_games: bool = Field(False, description="play every game even once the match is decided")

    @field_validator("target_tile")
    @classmethod
    def _power_of_two(cls, value: int) -> int:
        if value & (value - 1):
            raise ValueError(f"target_tile must be a power of two (8, 16, ..., 2048), not {value}")
        return value

    @field_validator("games_per_match")
    @classmethod
    def _odd(cls, value: int) -> int:
        if value % 2 == 0:
            raise ValueError(f"games_per_match must be odd so that a match always has a winner, not {value}")
        return value

    def new_state(self, seed: int, seats: int | None = None, spawns: list[tuple[int, int]] | None = None) -> Any:
        """A new match; ``spawns`` scripts ``(cell, value)`` spawns before the RNG takes over (tests)."""
        from engine.pk2048.match import PK2048State

        return PK2048State.start(
            seed,
            self.first_player,
            spawns,
            four_probability=self.four_probability,
            decision_time_ms=self.decision_time_ms,
            target_tile=self.target_tile,
            games_per_match=self.games_per_match,
            play_all_games=self.play_all_games,
        )

    def bot_rules(self) -> dict[str, Any]:
        """The spawn odds and the target tile: the protocol never tells a bot the variant."""
        return {"four_probability": self.four_probability, "target_tile": self.target_tile}

    def referee_protocol(self) -> Any:
        from engine.pk2048.protocol import PK2048Referee

        return PK2048Referee()

    def bot_protocol(self, bot: Any) -> Any:
        from engine.pk2048.protocol import PK2048Driver

        return PK2048Driver(bot)

    def render(self, final_state: dict[str, Any]) -> str:
        lines = []
        for record in final_state["games"]:
            s0, s1 = record["scores"]
            lines.append(
                f"game {record['game']}: seat {record['winner']} wins {record['reason']} ({record['decided_by']}), "
                f"scores {s0}-{s1}, {plural(record['operations'], 'operation')}, seat {record['first']} first"
            )
        if final_state["games"]:
            board = final_state["games"][-1]["final_board"]
            width = max(len(str(value)) for value in board)
            lines.append("last board:")
            lines += [" ".join(f"{value:>{width}}" for value in board[row * 4 : row * 4 + 4]) for row in range(4)]
        return "\n".join(lines)

    def process_label(self, epoch: int) -> str:
        """Every game of the match starts fresh processes; epoch 0 is game 1."""
        return f"game {epoch + 1}"

    @classmethod
    def builtin_bots(cls) -> Mapping[str, type]:
        from engine.pk2048.bots import BUILTIN_BOTS

        return BUILTIN_BOTS
