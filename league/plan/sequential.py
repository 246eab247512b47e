"""A sequential league's test, fed its pairs of games in schedule order as they are stored (``format: sprt``).

The schedule of an SPRT league is seat-swapped pairs of games, each pair on one seed. Games come
back in any order; the test takes a pair only once it and every pair before it are stored, so it
decides at the first pair, in schedule order, where the LLR crosses a bound. Games stored after
that (in flight when it decided, or beyond it) never change the verdict: the same league and seed
give the same verdict whatever the number of workers or the order they finish in, and a resumed
league finds the verdict its stored games give.

A solo game's SPRT schedule is the two bots' runs alone on the same seeds, seed by seed, the
candidate's run first: its pair is two seeds in a row, four games (``league.stats.sprt.seed_points``),
taken in the same way.

Pairs count only once (``league.stats.distinct``): a pair that repeats an earlier one is taken but
not counted, and once most pairs taken are repeats the test is over without a verdict
(``SprtState.repeated``): the league stops there, as at a verdict, and says why.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import TYPE_CHECKING

from league.plan.game_spec import GameSpec
from league.stats.game_record import GameRecord
from league.stats.sprt import SprtSettings, SprtState
from league.store.results import INFRA_ERROR

if TYPE_CHECKING:
    from engine.core import Game
    from league.plan.config import League
    from league.plan.config_schema import LeagueConfig


def plays_alone(games: Mapping[str, Game]) -> bool:
    """Whether an SPRT league's game is played alone (its variant seats one bot: codevs21's solo mode)."""
    return all(list(game.seat_counts()) == [1] for game in games.values())


class SprtTracker:
    """The test of an SPRT league over its stored games.

    Args:
        candidate: The bot tested (the league's first).
        baseline: The bot it is tested against.
        settings: The test.
        game_ids: The schedule's game ids in order: seat-swapped pairs, each two games in a row; for a
            solo game, pairs of seeds, each four games in a row (both bots' runs on one seed, then on the next).
        solo: Whether the game is played alone.
        game: The game's name (for the sentence of a test stopped for repetition).
    """

    def __init__(
        self,
        candidate: str,
        baseline: str,
        settings: SprtSettings,
        game_ids: Sequence[str],
        solo: bool = False,
        game: str = "",
    ) -> None:
        self.candidate, self.baseline = candidate, baseline
        self.state = SprtState(settings, solo=solo, game=game)
        self.games_per_pair = 4 if solo else 2
        whole = len(game_ids) - len(game_ids) % self.games_per_pair
        self.pairs = [
            tuple(game_ids[start : start + self.games_per_pair]) for start in range(0, whole, self.games_per_pair)
        ]
        self._pair_of = {game_id: number for number, pair in enumerate(self.pairs) for game_id in pair}
        self._records: dict[str, GameRecord] = {}
        self._taken = 0

    @classmethod
    def of_league(cls, league: League, specs: Sequence[GameSpec]) -> SprtTracker:
        """The test of a league of ``format: sprt`` over its schedule ``specs``."""
        return cls.of_schedule(league.config, specs, plays_alone(league.games))

    @classmethod
    def of_schedule(cls, config: LeagueConfig, specs: Sequence[GameSpec], solo: bool) -> SprtTracker:
        """The test of a league file of ``format: sprt`` over its schedule ``specs`` (``solo``: its game alone)."""
        test = config.sprt
        if test is None:
            raise ValueError("not an SPRT league")
        candidate, baseline = (bot.name for bot in config.bots)
        for first, second in zip(specs[::2], specs[1::2], strict=False):
            if solo and (first.seed != second.seed or (first.seats, second.seats) != ((candidate,), (baseline,))):
                raise ValueError(f"games {first.game_id} and {second.game_id} are not both bots' runs on one seed")
            if not solo and (first.seed != second.seed or first.seats != tuple(reversed(second.seats))):
                raise ValueError(f"games {first.game_id} and {second.game_id} are not a seat-swapped pair")
        settings = SprtSettings(test.elo0, test.elo1, test.alpha, test.beta)
        return cls(candidate, baseline, settings, [spec.game_id for spec in specs], solo, config.game)

    @property
    def capped(self) -> bool:
        """Whether every pair the league may play was taken without a verdict (``max_games`` reached)."""
        return not self.decided and self._taken == len(self.pairs)

    @property
    def decided(self) -> bool:
        """Whether the test is over: it reached its verdict, or stopped because most pairs repeated (``repeated``)."""
        return self.state.over

    @property
    def repeated(self) -> bool:
        """Whether the test stopped without a verdict because most of its pairs repeated earlier ones."""
        return self.state.repeated

    @property
    def pairs_taken(self) -> int:
        """The pairs the test has taken, repeats included (those up to its end, or every complete one so far)."""
        return self._taken

    def add(self, records: Iterable[GameRecord]) -> bool:
        """Take stored records (INFRA_ERROR ones wait for their replay); whether the test has decided."""
        for record in records:
            number = self._pair_of.get(record.game_id, -1)
            if not self.decided and number >= self._taken and record.result.termination != INFRA_ERROR:
                self._records[record.game_id] = record
        while not self.decided and self._taken < len(self.pairs):
            pair = self.pairs[self._taken]
            if any(game_id not in self._records for game_id in pair):
                break
            records = [self._records.pop(game_id) for game_id in pair]
            if self.state.solo:
                self.state.take_seeds(records[:2], records[2:], self.candidate)
            else:
                self.state.take(records[0], records[1], self.candidate)
            self._taken += 1
        return self.decided
