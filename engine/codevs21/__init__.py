"""codevs21: CODE VS 2.1's "make the sum S" falling-block puzzle, solo and versus (rules/codevs21.md).

``packs.py`` holds the numbers, packs and generator, ``field.py`` the well with its chains and
scores, ``solo.py`` and ``versus.py`` the two modes, ``state.py`` and ``protocol.py`` what the
referee needs (both sides of the wire), ``observations.py`` what a built-in sees, ``bots.py`` the
built-in players. Solo leagues (``format: solo``) are ranked by ``league/stats/qualifier.py``.
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Any, ClassVar, Literal

from pydantic import Field, PrivateAttr, model_validator

from engine.core import Game

OVERRIDES = ("W", "H", "T", "S", "N", "P", "Th", "A", "B_obs")


class Codevs21(Game):
    """codevs21 with its variant parameters (section 11 of the rules file)."""

    name: ClassVar[str] = "codevs21"
    title: ClassVar[str] = "CODE VS 2.1 (2013): drop packs of numbered blocks, erase runs that sum to S, chain them"
    no_openings: ClassVar[str] = "its packs are drawn from the match seed: every pair of games already differs"
    score_label: ClassVar[str] = "score"
    min_seats: ClassVar[int] = 1
    max_seats: ClassVar[int] = 2

    mode: Literal["solo", "versus"] = Field("solo", description="solo: one bot, the qualifier; versus: two bots")
    case: Literal["small", "medium", "large"] | None = Field(
        None, description="the standard numbers: small, medium or large (default: small solo, large versus)"
    )
    W: int | None = Field(None, description="field width (default: the case's)")
    H: int | None = Field(None, description="field height (default: the case's)")
    T: int | None = Field(None, description="pack side (default: the case's)")
    S: int | None = Field(None, description="the sum that erases (default: the case's)")
    N: int | None = Field(None, description="turns, one pack each (default: the case's)")
    P: int | None = Field(None, description="score exponent cap (default: the case's)")
    Th: int | None = Field(None, description="fire threshold (default: the case's)")
    A: int | None = Field(None, description="generator: blocks of each small value (default: the case's)")
    B_obs: int | None = Field(None, description="generator: obstruction blocks (default: the case's)")
    packs_file: str | None = Field(None, description="an official-format problem file played instead of the generator")
    time_total_s: float = Field(60, gt=0, description="each bot's time bank for the whole game, in seconds")
    send_params: bool = Field(False, description="true: the first input line is 'W H T S N P Th'")

    _file_packs: list[tuple[int, ...]] | None = PrivateAttr(None)

    @model_validator(mode="after")
    def _playable(self) -> Codevs21:
        """The numbers must make a game, and a packs file must hold its packs (section 11)."""
        from engine.codevs21.packs import PackFileError, read_pack_file

        params = self.params()
        problems = params.problems(generating=self.packs_file is None)
        if problems:
            raise ValueError("; ".join(problems))
        if self.packs_file is not None:
            path = Path(self.packs_file)
            try:
                text = path.read_text(encoding="ascii")
            except (OSError, UnicodeDecodeError) as error:
                raise ValueError(f"packs_file {path}: cannot be read ({error})") from None
            try:
                self._file_packs = read_pack_file(text, params)
            except PackFileError as error:
                raise ValueError(f"packs_file {path}: {error}") from None
        return self

    def params(self) -> Any:
        """The effective numbers: the case's, with the keys given here instead."""
        from dataclasses import replace

        from engine.codevs21.packs import CASES

        case = self.case or ("small" if self.mode == "solo" else "large")
        given = {key: getattr(self, key) for key in OVERRIDES if getattr(self, key) is not None}
        return replace(CASES[case], **given)

    path_keys: ClassVar[tuple[str, ...]] = ("packs_file",)

    def seat_counts(self) -> range:
        """One bot in solo, two in versus."""
        return range(1, 2) if self.mode == "solo" else range(2, 3)

    def variant(self) -> dict[str, Any]:
        """The variant parameters as plain data, the overrides not given left out."""
        return {key: value for key, value in super().variant().items() if value is not None or key == "case"}

    def seats_hint(self) -> str:
        """The mode decides the seats."""
        return "--set mode=solo: one bot; --set mode=versus: two"

    def new_state(self, seed: int, seats: int | None = None) -> Any:
        """A fresh game: one seat in solo, two in versus; packs from ``seed`` unless a packs file."""
        from engine.codevs21.state import Codevs21State

        wanted = 1 if self.mode == "solo" else 2
        if seats is not None and seats != wanted:
            raise ValueError(f"codevs21 {self.mode} is played by {wanted} bot{'s' if wanted > 1 else ''}, not {seats}")
        if not 0 <= seed < 2**63:
            raise ValueError(f"the game seed must be in 0 .. 2**63 - 1, not {seed}")
        return Codevs21State(
            mode=self.mode,
            params=self.params(),
            seed=seed,
            file_packs=self._file_packs,
            time_total_ms=round(self.time_total_s * 1000),
            send_params=self.send_params,
        )

    def referee_protocol(self) -> Any:
        from engine.codevs21.protocol import Codevs21Referee

        return Codevs21Referee()

    def bot_protocol(self, bot: Any) -> Any:
        """The bot side of this mode: the built-in learns P and Th here (they are not on the wire)."""
        from engine.codevs21.protocol import SoloDriver, VersusDriver

        params = self.params()
        return (SoloDriver if self.mode == "solo" else VersusDriver)(bot, params.P, params.Th)

    def render(self, final_state: dict[str, Any]) -> str:
        """Each seat's record and its well as the game left it (top row first, ``#`` obstruction)."""
        from engine.codevs21.state import Codevs21State
        from engine.codevs21.versus import VersusGame

        state = Codevs21State.from_json(final_state)
        game, lines = state.game, []
        wells = [player.well for player in game.players] if isinstance(game, VersusGame) else [game.well]
        for seat, (record, well) in enumerate(zip(state.records(), wells, strict=True)):
            figures = ", ".join(f"{key} {value}" for key, value in record.items())
            lines.append(f"seat {seat}: {figures}")
            top = max((len(column) for column in well.columns), default=0)
            for y in range(top - 1, -1, -1):
                cells = [column[y] if y < len(column) else 0 for column in well.columns]
                row = " ".join("#" if value > well.params.S else str(value) if value else "." for value in cells)
                lines.append(f"  {y:>2} | {row}")
        return "\n".join(lines)

    @classmethod
    def builtin_bots(cls) -> Mapping[str, type]:
        from engine.codevs21.bots import BUILTIN_BOTS

        return BUILTIN_BOTS
