"""``format: solo``: every bot plays every variant ``runs_per_case`` times alone, all bots on the same seeds."""

from __future__ import annotations

from typing import TYPE_CHECKING

from league.plan.formats.base import FormatInputs, ScheduledFormat
from league.plan.formats.round_robin import opened
from league.plan.schedule import Schedule, SoloSchedule

if TYPE_CHECKING:
    from league.plan.config_schema import LeagueConfig


class Solo(ScheduledFormat):
    """A qualifier of runs alone (codevs21's solo mode), ranked on the scores of the same seeds."""

    name = "solo"
    report_key = "solo"
    keys = {"runs_per_case": "plays runs"}

    def seats(self, config: LeagueConfig) -> list[int]:
        """One bot a game."""
        return [1]

    def check(self, config: LeagueConfig) -> None:
        """No pairs to count games of."""
        if "games_per_pair" in config.model_fields_set:
            raise ValueError("games_per_pair: a solo league has no pairs; say how many runs with runs_per_case: N")

    def planned(self, inputs: FormatInputs) -> Schedule:
        """Its whole schedule, counted lazily."""
        config = inputs.config
        schedule = SoloSchedule(
            inputs.league, inputs.bots, inputs.variants, config.runs_per_case, inputs.seed, inputs.fingerprints
        )
        return opened(schedule, inputs)

    def describe(self, config: LeagueConfig) -> str:
        """``3 runs per bot and variant, every bot on the same seeds``."""
        runs = f"{config.runs_per_case:,} {'run' if config.runs_per_case == 1 else 'runs'}"
        return f"{runs} per bot and variant, every bot on the same seeds"

    def fewer_games(self, config: LeagueConfig) -> str:
        """Fewer runs."""
        return f"play fewer runs (runs_per_case: {config.runs_per_case:,})"
