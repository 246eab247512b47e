"""``format: gauntlet``: each candidate plays each bot of the field (not each other), as a round robin's pairs."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from league.plan.formats.base import FormatInputs, ScheduledFormat
from league.plan.formats.round_robin import check_even, check_pairs, opened
from league.plan.game_spec import GameSpec
from league.plan.schedule import Schedule, gauntlet_schedule

if TYPE_CHECKING:
    from league.plan.config_schema import LeagueConfig


class Gauntlet(ScheduledFormat):
    """The ``candidates`` against the rest of the bots, ``games_per_pair`` games per pair and variant."""

    name = "gauntlet"
    keys = {"candidates": "has candidates"}

    def seats(self, config: LeagueConfig) -> list[int]:
        """Two a game."""
        return [2]

    def check(self, config: LeagueConfig) -> None:
        """Candidates named once each, bots of the league, with a field beside them; an even ``games_per_pair``."""
        names = [bot.name for bot in config.bots]
        if not config.candidates:
            raise ValueError("candidates: a gauntlet needs at least one candidate")
        if len(set(config.candidates)) != len(config.candidates):
            raise ValueError("candidates: a candidate is named twice")
        unknown = [name for name in config.candidates if name not in names]
        if unknown:
            raise ValueError(f"candidates: {unknown[0]!r} is not a bot of this league")
        if len(set(config.candidates)) == len(names):
            raise ValueError("candidates: a gauntlet needs bots outside the candidates (the field)")
        check_even(config)
        check_pairs(config)

    def planned(self, inputs: FormatInputs) -> Schedule:
        """Its whole schedule, counted lazily."""
        config = inputs.config
        field = [name for name in inputs.bots if name not in config.candidates]
        schedule = gauntlet_schedule(
            inputs.league,
            config.candidates,
            field,
            inputs.variants,
            config.games_per_pair,
            inputs.seed,
            inputs.fingerprints,
        )
        return opened(schedule, inputs)

    def describe(self, config: LeagueConfig) -> str:
        """``2 per pair and variant``."""
        return f"{config.games_per_pair:,} per pair and variant"

    def plan_lines(self, inputs: FormatInputs, planned: Sequence[GameSpec]) -> list[str]:
        """Its candidates."""
        return [f"candidates: {', '.join(inputs.config.candidates)}"]
