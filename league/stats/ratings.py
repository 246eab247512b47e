"""Standings counts and TrueSkill ratings of a league, from its stored games, in schedule order.

These are the standings' columns, not their order: the bots are placed by Bradley-Terry strength
fitted to every game at once (``league.stats.ranking``), since TrueSkill's online updates depend on
the order the games are fed. TrueSkill is applied in the schedule's order (each record carries its
schedule index), never in the order workers finished, so the same stored games always give the
same TrueSkill column. Games that ended in INFRA_ERROR are ours, not the bots': they are never
scored. Standings and ratings read each seat's rank from ``league.stats.placing.places`` (the
game's rank, faulted seats never level with or above a seat without a fault), so that they agree
with each other and with the strengths.
"""

from __future__ import annotations

import itertools
from collections.abc import Iterable
from dataclasses import dataclass, field
from decimal import ROUND_HALF_EVEN, Decimal
from typing import Any

import trueskill

from engine.core import Termination
from league.stats.game_record import GameRecord
from league.stats.placing import place_points, places
from league.stats.ties import best_first
from league.stats.trueskill_fast import Multiplayer, OneVsOne

INFRA_ERROR = Termination.INFRA_ERROR.value


@dataclass
class BotStanding:
    """One bot's record by the game's own scoring.

    Attributes:
        name: The bot.
        games: Games played (scored ones).
        wins: Games ranked first alone (by ``league.stats.placing.places``).
        draws: Games ranked first with others (or tied, for two seats).
        losses: The rest.
        faults: Games in which it faulted itself (timeout, crash, bad output, illegal move), whatever the others did.
        score_sum: Sum of its game scores (an exact integer).
        first_seat_wins: Wins from seat 0.
        points: Points by rank (``league.stats.placing.place_points``): win 1, draw 1/2, loss 0 between two seats.
        rank_sum: Sum of its ranks (``league.stats.placing.places``; 1 is first).
    """

    name: str
    games: int = 0
    wins: int = 0
    draws: int = 0
    losses: int = 0
    faults: int = 0
    score_sum: int = 0
    first_seat_wins: int = 0
    points: float = 0.0
    rank_sum: int = 0

    @property
    def points_per_game(self) -> float:
        """Points per game (0 to 1; 1/2 is par at any table size)."""
        return self.points / self.games if self.games else 0.0

    @property
    def mean_rank(self) -> float:
        """The mean of its ranks (1 is first)."""
        return self.rank_sum / self.games if self.games else 0.0

    @property
    def mean_score(self) -> str:
        """The mean of its game scores to two decimals, computed exactly (scores can pass 2**53)."""
        return exact_mean([self.score_sum], self.games)


def exact_mean(values: list[int], count: int | None = None) -> str:
    """The mean of integers to two decimals as text, never through a float (scores can pass 2**53).

    Args:
        values: The integers (or their sum alone, with ``count``).
        count: How many values the sum stands for (default: ``len(values)``).
    """
    count = len(values) if count is None else count
    if not count:
        return "0.00"
    return str((Decimal(sum(values)) / count).quantize(Decimal("0.01"), rounding=ROUND_HALF_EVEN))


@dataclass
class Rating:
    """A TrueSkill rating.

    Attributes:
        name: The bot.
        mu: Mean skill.
        sigma: Uncertainty.
        games: Games rated.
    """

    name: str
    mu: float
    sigma: float
    games: int = 0

    @property
    def conservative(self) -> float:
        """Mu - 3 sigma: a skill the bot has with high confidence."""
        return self.mu - 3 * self.sigma


@dataclass
class LeagueTable:
    """What the records say, for one variant or for all of them.

    Attributes:
        standings: Per bot name.
        ratings: Per bot name.
        history: After each rated game: (game number, bot, mu, sigma), for convergence charts.
        pair_points: (bot, opponent) -> [points, games] of the bot against that opponent.
    """

    standings: dict[str, BotStanding] = field(default_factory=dict)
    ratings: dict[str, Rating] = field(default_factory=dict)
    history: list[tuple[int, str, float, float]] = field(default_factory=list)
    pair_points: dict[tuple[str, str], list[float]] = field(default_factory=dict)


def scored(records: Iterable[GameRecord]) -> list[GameRecord]:
    """The records that count, in schedule order."""
    kept = [r for r in records if r.result.termination != INFRA_ERROR]
    return sorted(kept, key=lambda record: record.spec.index)


def draw_probability(records: list[GameRecord]) -> float:
    """How often neighbours in a game's order tie (the share of drawn games between two seats).

    TrueSkill's draw probability is the chance that two players next to each other in a game's
    order share their rank (``league.stats.placing.places``), so every neighbouring pair of a table counts. Kept inside
    TrueSkill's working range.
    """
    neighbours = ties = 0
    for record in records:
        ranks = sorted(places(record.result))
        neighbours += len(ranks) - 1
        ties += sum(1 for higher, lower in itertools.pairwise(ranks) if higher == lower)
    if not neighbours:
        return 0.1
    return min(0.5, max(0.001, ties / neighbours))


def league_table(records: Iterable[GameRecord], bots: Iterable[str], keep_history: bool = True) -> LeagueTable:
    """Standings, pairwise points and TrueSkill ratings of ``records`` (any mix of variants).

    Args:
        records: Stored game records (``spec``, ``result``).
        bots: Every bot of the league, so bots without games still appear.
        keep_history: Record the ratings after every game (for the convergence chart).
    """
    games = scored(records)
    table = LeagueTable()
    env = trueskill.TrueSkill(draw_probability=draw_probability(games))
    for name in bots:
        table.standings[name] = BotStanding(name)
        table.ratings[name] = Rating(name, env.mu, env.sigma)
    current = {name: env.create_rating() for name in table.ratings}
    one_vs_one, multiplayer = OneVsOne(env), Multiplayer(env)
    for number, record in enumerate(games, start=1):
        seats: list[str] = record.spec.seats
        result = record.result
        ranks = places(result)
        _tally(table, seats, result.scores, ranks, result.offenders or ())
        if len(seats) == 1:  # a solo game: nobody was played, nothing to rate
            continue
        if len(seats) == 2:
            rated = one_vs_one.rate(current[seats[0]], current[seats[1]], ranks[0], ranks[1])
        else:
            rated = multiplayer.rate([current[name] for name in seats], ranks)
        for name, rating in zip(seats, rated, strict=True):
            current[name] = rating
            if keep_history:
                table.history.append((number, name, rating.mu, rating.sigma))
    for name, rating in current.items():
        table.ratings[name] = Rating(name, rating.mu, rating.sigma, table.standings[name].games)
    return table


def _tally(table: LeagueTable, seats: list[str], scores: list[Any], ranks: list[int], faulted: list[int]) -> None:
    pair_points = table.pair_points
    firsts = ranks.count(1)
    for seat, name in enumerate(seats):
        mine = ranks[seat]
        standing = table.standings[name]
        standing.games += 1
        standing.score_sum += int(scores[seat])
        standing.rank_sum += mine
        if seat in faulted:
            standing.faults += 1
        if mine == 1 and firsts == 1:
            standing.wins += 1
            standing.first_seat_wins += seat == 0
        elif mine == 1:
            standing.draws += 1
        else:
            standing.losses += 1
        standing.points += place_points(ranks, faulted, seat)
        for other_seat, other in enumerate(seats):
            if other_seat == seat:
                continue
            theirs = ranks[other_seat]
            tally = pair_points.get((name, other))
            if tally is None:
                tally = pair_points[name, other] = [0.0, 0]
            tally[0] += 1.0 if mine < theirs else 0.5 if mine == theirs else 0.0
            tally[1] += 1


def trueskill_order(table: LeagueTable) -> list[str]:
    """Bot names best first by conservative TrueSkill, then points, then name (``league.stats.ties``).

    Not the standings' order (``league.stats.ranking`` is): TrueSkill here depends on the order the
    games are fed. The report compares it with the Bradley-Terry order (``league.stats.evidence.agreement``).
    """
    names = list(table.ratings)
    keys = [table.ratings[name].conservative for name in names], [table.standings[name].points for name in names]
    return [names[k] for k in best_first(names, *keys)]
