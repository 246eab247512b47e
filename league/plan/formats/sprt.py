"""``format: sprt``: a candidate against a baseline in seat-swapped pairs until the test decides (``max_games``).

Its play is ``league.plan.sequential``'s test fed the stored games; a game played alone (codevs21's
solo mode) is tested on both bots' runs, seed by seed.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import TYPE_CHECKING, Any

from league.plan.formats.base import Format, FormatInputs, FormatRun
from league.plan.formats.round_robin import check_pairs, opened
from league.plan.game_spec import GameSpec
from league.plan.schedule import Schedule, SoloSchedule, round_robin_schedule
from league.plan.sequential import SprtTracker, plays_alone
from league.stats.sprt import verdict_sentence

if TYPE_CHECKING:
    from league.plan.config_schema import LeagueConfig
    from league.stats.game_record import GameRecord


def sprt_games(max_games: int, solo: bool = False) -> int:
    """The games an SPRT league may play: ``max_games`` in whole pairs (two games seats swapped; solo, two seeds).

    A solo game's pair is both bots' runs on two seeds: four games, each bot's run being one.
    """
    per_pair = 4 if solo else 2
    return max_games - max_games % per_pair


class SprtRun(FormatRun):
    """An SPRT league's test over its stored games: its schedule, until the verdict (or ``max_games``).

    Args:
        schedule: Its games in order (the most it may play).
        tracker: The test over them.
        test: The league file's ``sprt`` (the manifest keeps it, for the report).
    """

    def __init__(self, schedule: Sequence[GameSpec], tracker: SprtTracker, test: dict[str, Any]) -> None:
        self._games = list(schedule)
        self.tracker = tracker
        """The test (``league.plan.sequential``): its state, the pairs taken."""
        self._test = test

    @property
    def games(self) -> Sequence[GameSpec]:
        """The whole schedule (what it may play)."""
        return self._games

    def add(self, records: Iterable[GameRecord]) -> list[GameSpec]:
        """Take the stored games into the test; nothing more is ever planned."""
        self.tracker.add(records)
        return []

    @property
    def counted(self) -> Sequence[GameSpec]:
        """The whole schedule until the test is over; then the pairs it took, its verdict's games.

        Games stored after the verdict (in flight when it came) count for nothing: how many there are
        depends on the workers' timing, and the report must not.
        """
        if not self.tracker.decided:
            return self._games
        return self._games[: self.tracker.games_per_pair * self.tracker.pairs_taken]

    @property
    def over(self) -> bool:
        """Whether the test has decided (or stopped because most pairs repeated)."""
        return self.tracker.decided

    def progress(self) -> str:
        """``LLR 1.20 (-2.94, 2.94), 40 pairs``."""
        test = self.tracker.state
        bounds = f"({test.settings.lower:.2f}, {test.settings.upper:.2f})"
        pairs = "pairs of seeds" if test.solo else "pairs"  # a solo game's pair: both bots alone on two seeds
        return f"LLR {test.llr:.2f} {bounds}, {test.pairs:,} {pairs}"

    def closing_lines(self) -> list[str]:
        """The verdict (``league.stats.sprt.verdict_sentence``)."""
        test = self.tracker
        return [verdict_sentence(test.state, test.candidate, test.baseline, test.capped)]

    def manifest(self) -> dict[str, Any]:
        """The test (``sprt``), which the report takes again from the stored games."""
        return {"sprt": self._test}


class Sprt(Format):
    """The sequential probability ratio test of the first bot against the second (``league.stats.sprt``)."""

    name = "sprt"
    report_key = "sprt"
    plans_as_it_goes = True
    keys = {"sprt": "runs a sequential test", "max_games": "stop on their own"}
    alone_too = True

    def seats(self, config: LeagueConfig) -> list[int]:
        """Two a game (or, for a game played alone, both bots alone on the same seeds: ``alone_too``)."""
        return [2]

    def check(self, config: LeagueConfig) -> None:
        """Its test, two bots (the candidate first), one variant, games capped by ``max_games``."""
        check_pairs(config)
        if config.sprt is None:
            raise ValueError("sprt: format sprt needs its test, e.g. sprt: {elo0: 0, elo1: 5, alpha: 0.05, beta: 0.05}")
        if len(config.bots) != 2:
            raise ValueError(
                f"bots: an SPRT tests one candidate against one baseline; give exactly two bots, the candidate"
                f" first ({len(config.bots)} given)"
            )
        if len(config.variants) != 1:
            raise ValueError("variants: an SPRT tests under one rule set; give one variant (a league file for each)")
        if "games_per_pair" in config.model_fields_set:
            raise ValueError("games_per_pair: an SPRT plays pairs until it decides; cap them with max_games: N")

    def planned(self, inputs: FormatInputs) -> Schedule:
        """Seat-swapped pairs on one seed each, in order (a solo game: both bots alone on each seed in turn)."""
        config = inputs.config
        if plays_alone(inputs.games):
            runs = sprt_games(config.max_games, solo=True) // 2
            schedule: Schedule = SoloSchedule(
                inputs.league, inputs.bots, inputs.variants, runs, inputs.seed, inputs.fingerprints
            )
        else:
            games = sprt_games(config.max_games)
            schedule = round_robin_schedule(
                inputs.league, inputs.bots, inputs.variants, games, inputs.seed, inputs.fingerprints
            )
        return opened(schedule, inputs)

    def start(self, inputs: FormatInputs) -> SprtRun:
        """Its schedule and the test over it."""
        specs = list(self.planned(inputs))
        tracker = SprtTracker.of_schedule(inputs.config, specs, plays_alone(inputs.games))
        assert inputs.config.sprt is not None
        return SprtRun(specs, tracker, inputs.config.sprt.model_dump())

    def describe(self, config: LeagueConfig) -> str:
        """``at most; seat-swapped pairs until the test decides: H0 0 against H1 5 normalized Elo, ...``."""
        test = config.sprt
        assert test is not None
        return (
            f"at most; seat-swapped pairs until the test decides: H0 {test.elo0:g} against H1 {test.elo1:g}"
            f" normalized Elo, alpha {test.alpha:g}, beta {test.beta:g}"
        )

    def plan_lines(self, inputs: FormatInputs, planned: Sequence[GameSpec]) -> list[str]:
        """The candidate and the baseline."""
        candidate, baseline = inputs.bots
        return [f"candidate: {candidate}; baseline: {baseline}"]

    def fewer_games(self, config: LeagueConfig) -> str:
        """A lower cap."""
        return f"cap the test lower (max_games: {config.max_games:,})"
