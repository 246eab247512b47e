"""``format: adaptive``: a warm-up for every pair, then batches where the ranking is least settled, until it settles.

Its play is ``league.plan.adaptive``'s batches as games, fed the stored games; the batches are
planned by ``league.plan.adaptive_batches``.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import TYPE_CHECKING, Any

from engine import GAMES
from league.plan.adaptive import AdaptiveTracker, adaptive_batch_sizes, outcome_sentence, settings_in_units
from league.plan.formats.base import Format, FormatInputs, FormatRun
from league.plan.formats.round_robin import check_pairs, opened
from league.plan.game_spec import GameSpec
from league.plan.schedule import Schedule, round_robin_schedule
from league.stats.active_ranking import Claim

if TYPE_CHECKING:
    from league.plan.config_schema import LeagueConfig
    from league.stats.game_record import GameRecord


def adaptive_games_per_pair(config: LeagueConfig) -> int:
    """The games per pair of a round robin as long as an adaptive league's ``max_games`` (whole seat-swapped pairs).

    What ``league validate`` counts and estimates: the most the league may play, its warm-up at least.
    """
    pairs = len(config.bots) * (len(config.bots) - 1) // 2
    most = config.max_games // pairs
    return max(config.adaptive_settings().warmup_games, most - most % 2)


class AdaptiveRun(FormatRun):
    """An adaptive league's batches over its stored games.

    Args:
        tracker: Its batches as games, from the warm-up on.
        given: Its ``adaptive`` settings in games (defaults filled in) and ``max_games``, as the manifest keeps them.
    """

    def __init__(self, tracker: AdaptiveTracker, given: dict[str, Any]) -> None:
        self.tracker = tracker
        """The batches (``league.plan.adaptive``): the ranking, why it stopped."""
        self._given = given
        self._max_games: int = given["max_games"]
        self._games = tracker.games
        self._progress = self._progress_now()

    @property
    def games(self) -> Sequence[GameSpec]:
        """Every game planned so far, batch by batch."""
        return self._games

    def add(self, records: Iterable[GameRecord]) -> list[GameSpec]:
        """Take the stored games; the games of the batches this plans (none once it has stopped)."""
        taken = self.tracker.batches.taken
        planned = self.tracker.add(records)
        if planned:
            self._games = self.tracker.games
        if self.tracker.batches.taken != taken:
            self._progress = self._progress_now()
        return planned

    @property
    def counted(self) -> Sequence[GameSpec]:
        """The games of the batches taken once it stopped, else all planned."""
        return self.tracker.counted_games

    @property
    def over(self) -> bool:
        """Whether it has stopped: settled, capped, or mostly repeats."""
        return self.tracker.decided

    @property
    def most_games(self) -> int:
        """Its cap: ``max_games``."""
        return self._max_games

    def progress(self) -> str:
        """``batch 3, 1 of 2 neighbours open``."""
        return self._progress

    def _progress_now(self) -> str:
        claims = self.tracker.batches.ranking.claims()
        still = sum(neighbours.claim is Claim.OPEN for neighbours in claims)
        return f"batch {self.tracker.batches.taken}, {still} of {len(claims)} neighbours open"

    def closing_lines(self) -> list[str]:
        """Why it stopped (or that it has not), its games, its ranking (``league.plan.adaptive.outcome_sentence``)."""
        return [outcome_sentence(self.tracker)]

    def manifest(self) -> dict[str, Any]:
        """Its settings (defaults filled in), ``max_games`` and the sizes of the batches it counts, for the report."""
        return {"adaptive": self._given | {"batches": adaptive_batch_sizes(self.tracker)}}


class Adaptive(Format):
    """Batches planned from completed ones (``league.plan.adaptive_batches``), ``max_games`` at most."""

    name = "adaptive"
    qualifies = True  # its best may go on to finals (league.plan.formats.finals)
    report_key = "adaptive"
    plans_as_it_goes = True
    keys = {"adaptive": "plays in batches", "max_games": "stop on their own"}

    def seats(self, config: LeagueConfig) -> list[int]:
        """Two a game."""
        return [2]

    def check(self, config: LeagueConfig) -> None:
        """Pairs (no tables yet), one variant, no ``games_per_pair``, ``max_games`` no lower than the warm-up."""
        for key in ("players_per_table", "tables"):
            if key in config.model_fields_set:
                raise ValueError(
                    f"{key}: an adaptive league of tables is not supported yet; use format: tables, or leave"
                    f" {key} out to play {GAMES[config.game].name} two a game"
                )
        check_pairs(config)
        if len(config.variants) != 1:
            raise ValueError(
                "variants: an adaptive league ranks under one rule set; give one variant (a file for each)"
            )
        if "games_per_pair" in config.model_fields_set:
            raise ValueError(
                "games_per_pair: an adaptive league plays each pair until settled; cap all with max_games: N"
            )
        warmup = config.warmup_games()
        if config.max_games < warmup:
            raise ValueError(
                f"max_games: {config.max_games:,} is below the warm-up's {warmup:,} games"
                f" ({config.adaptive_settings().warmup_games} for each pair of {len(config.bots)} bots);"
                f" give max_games: {warmup:,} or more"
            )

    def planned(self, inputs: FormatInputs) -> Schedule:
        """The most it may play, as a round robin (a run plans its batches as it goes)."""
        config = inputs.config
        schedule = round_robin_schedule(
            inputs.league,
            inputs.bots,
            inputs.variants,
            adaptive_games_per_pair(config),
            inputs.seed,
            inputs.fingerprints,
        )
        return opened(schedule, inputs)

    def start(self, inputs: FormatInputs) -> AdaptiveRun:
        """Its warm-up."""
        config = inputs.config
        (variant,) = inputs.variants
        given = config.adaptive_settings().model_dump() | {"max_games": config.max_games}
        settings = settings_in_units(given)
        tracker = AdaptiveTracker(
            config.name,
            inputs.bots,
            variant,
            inputs.seed,
            dict(inputs.fingerprints),
            settings,
            inputs.openings,
            config.game,
        )
        return AdaptiveRun(tracker, given)

    def describe(self, config: LeagueConfig) -> str:
        """``at most; a warm-up of 2 per pair, then batches of 8 or more until ...``."""
        given = config.adaptive_settings()
        return (
            f"at most; a warm-up of {given.warmup_games} per pair, then batches of {given.batch_games:,} or more"
            f" until every pair of neighbours is ordered at {given.confidence:.0%} confidence or within"
            f" {given.tie_elo:g} Elo"
        )

    def fewer_games(self, config: LeagueConfig) -> str:
        """A lower cap."""
        return f"cap the league lower (max_games: {config.max_games:,})"
