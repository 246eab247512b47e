"""A knockout's series: seat-swapped pairs of games on shared seeds, their ids, and who wins one.

A series between two bots is ``pairs`` pairs of games, every pair played in every variant: the two
games of a pair share one seed with the seats swapped (the pair's first game seats the bracket's
upper side first in even pairs, the lower side in odd ones), so a first-seat advantage cancels out.
All ``pairs`` pairs are planned at once (they are played side by side).

Who wins (``decide``): the bot with more points over the series' games (1 a win, 1/2 a draw, 0 a
loss by the game's ranks, which already apply each game's own tie rule; a faulted seat loses:
``league.stats.placing``). When the points are level after the ``pairs`` pairs, ``extra_pairs``
more pairs are played one at a time, the series going to the first bot ahead after one of them.
Still level after the last extra pair, ``then`` decides:

* ``higher_seed``: the higher seed (the lower seed number) goes on;
* ``tie_rule``: the game's own tie rule at series level: the bot ranked first alone in the series'
  last game (its last pair's second game, in the last variant; that game's rank already holds its
  rules' tie-break, e.g. versus2048 gives a level score to the second player); where that game has
  no single winner (a draw its rules allow), the higher seed.

A series' games are ``SeriesSchedule`` games (a whole bracket's at their longest: ``KnockoutPlan``):
their ids hash the stage, the series' key in the bracket, the pair's number, the seats, the bots'
fingerprints and the league seed, so the same bracket slot between the same bots is the same games
on every run (a resumed run finds them stored), and a rematch in another slot (a grand final) is
other games.
"""

from __future__ import annotations

import bisect
import dataclasses
import itertools
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import Literal

from engine.core import derive_seed
from league.plan.bracket import Bracket
from league.plan.game_spec import GameSpec
from league.plan.openings import Openings
from league.plan.schedule import Schedule, Seating
from league.stats.game_record import GameRecord
from league.stats.placing import place_points, places

Then = Literal["tie_rule", "higher_seed"]


@dataclass(frozen=True)
class SeriesRules:
    """How long a series is and what decides a level one.

    Attributes:
        pairs: Pairs of games every series plays.
        extra_pairs: The most pairs played one at a time after them while the series is level.
        then: What decides a series still level after those (``tie_rule`` or ``higher_seed``).
    """

    pairs: int = 2
    extra_pairs: int = 2
    then: Then = "higher_seed"

    @property
    def most_pairs(self) -> int:
        """The most pairs a series may play."""
        return self.pairs + self.extra_pairs


class SeriesSchedule(Schedule):
    """The games of one series at its longest: ``most_pairs`` seat-swapped pairs, each in every variant.

    Games ``2 p`` and ``2 p + 1`` of the series (times the variants) are pair ``p`` (its ``round``),
    on one seed drawn from the league seed, the stage, the series' key and ``p``.

    Args:
        league: The league's name.
        stage: The stage the knockout is (``knockout``, or a finals stage's name).
        key: The series' key in the bracket (``W1.2``).
        pairing: Its two bots, the bracket's upper side first.
        variants: Variant names.
        pairs: The most pairs it may play.
        seed: The league seed.
        fingerprints: Per bot and variant name, a digest of what it stands for.
        openings: What each pair starts from, None for the rules' start.
    """

    def __init__(
        self,
        league: str,
        stage: str,
        key: str,
        pairing: tuple[str, str],
        variants: Sequence[str],
        pairs: int,
        seed: int,
        fingerprints: Mapping[str, str] | None = None,
        openings: Openings | None = None,
    ) -> None:
        super().__init__(league, variants, seed, fingerprints, 2 * pairs, 1)
        self.stage, self.key, self.pairing = stage, key, pairing
        self.kind = f"knockout/{stage}/{key}"
        self.openings = openings

    def _seating(self, slot: int) -> Seating:
        pair, swapped = divmod(slot, 2)
        upper_first = (pair % 2 == 0) != bool(swapped)
        seats = self.pairing if upper_first else (self.pairing[1], self.pairing[0])
        return self.pairing, pair, seats, derive_seed(self.seed, "knockout", self.stage, self.key, pair)

    def pair_games(self, pair: int) -> Sequence[int]:
        """The positions of pair ``pair``'s games in this schedule."""
        width = 2 * len(self.variants)
        return range(pair * width, (pair + 1) * width)


@dataclass(frozen=True)
class Decision:
    """Where a series stands after the pairs it played.

    Attributes:
        points: Each side's points over its games (upper side first).
        pairs: The pairs played.
        winner: Who goes on, None while another pair is needed.
        how: How it was decided (``points``, ``extra pair 1``, ``higher seed``, ``tie rule``), "" while open.
    """

    points: tuple[float, float]
    pairs: int
    winner: str | None
    how: str


def series_points(pairing: tuple[str, str], records: Sequence[GameRecord]) -> tuple[float, float]:
    """Each side's points over ``records`` (games between the two, in any order)."""
    totals = [0.0, 0.0]
    for record in records:
        ranks, offenders = places(record.result), record.result.offenders or []
        for side, bot in enumerate(pairing):
            totals[side] += place_points(ranks, offenders, list(record.spec.seats).index(bot))
    return totals[0], totals[1]


def decide(pairing: tuple[str, str], records: Sequence[GameRecord], rules: SeriesRules, higher: str) -> Decision:
    """Who wins a series from its games so far (module docstring), its records in schedule order.

    Args:
        pairing: Its two bots, the bracket's upper side first.
        records: Its games of whole pairs, in schedule order (a pair's games in every variant).
        rules: The series' length and decider.
        higher: The higher seed of the two.
    """
    per_pair = 0
    if records:
        per_pair = 2 * len({record.spec.variant for record in records})
    pairs = len(records) // per_pair if per_pair else 0
    points = series_points(pairing, records)
    if pairs < rules.pairs:
        return Decision(points, pairs, None, "")
    if points[0] != points[1]:
        how = "points" if pairs == rules.pairs else f"extra pair {pairs - rules.pairs}"
        return Decision(points, pairs, pairing[0] if points[0] > points[1] else pairing[1], how)
    if pairs < rules.most_pairs:
        return Decision(points, pairs, None, "")
    if rules.then == "tie_rule":
        last = records[-1].result
        ranks = places(last)
        if ranks.count(1) == 1:
            return Decision(points, pairs, records[-1].spec.seats[ranks.index(1)], "tie rule (the last game)")
        return Decision(points, pairs, higher, "higher seed (the last game was drawn)")
    return Decision(points, pairs, higher, "higher seed")


class KnockoutPlan(Schedule):
    """The most a knockout may play, for ``validate``: every series (or table) at its longest, one after another.

    Counted in one round of every game (``Schedule.sample`` then spreads its picks over the games evenly).

    Args:
        parts: Each series' games at its longest.
    """

    def __init__(self, parts: Sequence[Schedule]) -> None:
        first = parts[0]
        slots = sum(len(part) for part in parts) // len(first.variants)
        super().__init__(first.league, first.variants, first.seed, first.fingerprints, 1, slots)
        self.parts = list(parts)
        self._starts = list(itertools.accumulate((len(part) for part in parts), initial=0))

    def _game_at(self, position: int) -> GameSpec:
        """The game at ``position``: its part's, numbered in the whole."""
        part = bisect.bisect_right(self._starts, position) - 1
        spec = self.parts[part][position - self._starts[part]]
        return dataclasses.replace(spec, index=position)

    def __iter__(self) -> Iterator[GameSpec]:
        for position in range(len(self)):
            yield self[position]


def chalk(bracket: Bracket) -> dict[str, str]:
    """The winners of a bracket where the higher seed wins every series."""
    seed_of = {bot: number for number, bot in enumerate(bracket.seeds)}
    winners: dict[str, str] = {}
    for series in bracket.series:
        pair = bracket.sides(winners)[series.key]
        winners[series.key] = min((bot for bot in pair if bot is not None), key=seed_of.__getitem__)
    return winners
