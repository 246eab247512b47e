"""``format: round_robin``: every pair of bots plays ``games_per_pair`` games per variant, in seat-swapped pairs.

Also what the other pair formats share: an even ``games_per_pair`` and games of two seats.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from engine import GAMES
from engine.core import span
from league.plan.formats.base import FormatInputs, ScheduledFormat
from league.plan.schedule import Schedule, round_robin_schedule

if TYPE_CHECKING:
    from league.plan.config_schema import LeagueConfig


def opened(schedule: Schedule, inputs: FormatInputs) -> Schedule:
    """``schedule`` with each round's games starting from its opening, where the league has ``openings``."""
    schedule.openings = inputs.openings
    return schedule


def check_pairs(config: LeagueConfig) -> None:
    """Refuse a game of more than two players in a format that plays two a game."""
    game = GAMES[config.game]
    if game.min_seats > 2:
        allowed = span(range(game.min_seats, game.max_seats + 1))
        raise ValueError(f"format: {game.name} is played by {allowed} players; use format: tables")


def check_even(config: LeagueConfig) -> None:
    """Refuse an odd ``games_per_pair``: it would give one bot of each pair one first seat more than the other."""
    if config.games_per_pair % 2:
        lower = config.games_per_pair - 1
        raise ValueError(
            f"games_per_pair: {config.games_per_pair} must be even: games are played in seat-swapped pairs (each"
            f" bot first in one of a pair's two games); use {' or '.join(str(n) for n in (lower, lower + 2) if n)}"
        )


class RoundRobin(ScheduledFormat):
    """Every pair, ``games_per_pair`` games per variant; game ``2r + 1`` is game ``2r`` with the seats swapped."""

    name = "round_robin"
    qualifies = True  # its best may go on to finals (league.plan.formats.finals)

    def seats(self, config: LeagueConfig) -> list[int]:
        """Two a game."""
        return [2]

    def check(self, config: LeagueConfig) -> None:
        """An even ``games_per_pair``, a game of two seats."""
        check_even(config)
        check_pairs(config)

    def planned(self, inputs: FormatInputs) -> Schedule:
        """Its whole schedule, counted lazily."""
        config = inputs.config
        schedule = round_robin_schedule(
            inputs.league, inputs.bots, inputs.variants, config.games_per_pair, inputs.seed, inputs.fingerprints
        )
        return opened(schedule, inputs)

    def describe(self, config: LeagueConfig) -> str:
        """``2 per pair and variant``."""
        return f"{config.games_per_pair:,} per pair and variant"
