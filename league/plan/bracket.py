"""A knockout's bracket: seeding, placement, byes, single and double elimination, ready series, placings.

Pure: no I/O, no randomness but the seed's. A bracket is the series it may play, each with two
sides taken from a seed (a bot), the winner of an earlier series or its loser; which series are
ready and who places where follow from the winners of the series decided so far.

* Seeding (``seed_order``): by a rating (highest first, equal ratings in the file's order), by the
  file's order, or at random from the league seed (``engine.core.derive_seed``).
* Placement (``placement``): the standard bracket of ``P`` lines, ``P`` the smallest power of two
  holding the field: 1 v P, 2 v P-1, ..., nested so that seeds 1 and 2 can meet only in the final,
  1 to 4 only in the semi-finals, and so on.
* Byes: a field that is not a power of two leaves seeds ``n+1..P`` empty; their opponents, the top
  seeds (seed 1 meets line P), go on without playing. A series with one empty side is not played:
  its one bot goes where its winner would, and its loser's place is empty too (so in double
  elimination a bye never sends anyone to the losers' bracket).
* Single elimination: the winners' rounds W1..Wk; the final is the last of them.
* Double elimination: the winners' rounds, a losers' bracket and a grand final. Losers' round L1
  pairs the losers of W1; each even round L2j meets L(2j-1)'s winners with the losers of W(j+1),
  in reverse order (so two bots of one half do not meet again at once); each odd round after L1
  pairs the winners of the round before. The grand final meets the winners' and the losers'
  champions once: there is no bracket reset (the grand final's winner is champion even when the
  losers' champion wins it, the winners' champion's first loss then being its last), so every
  bracket is a fixed set of series known in advance.
* Placing (``Bracket.placing``): the champion, the runner-up (the final's loser), then the others
  by the round that put them out (a later one is better: the depth of its series, ``Series.level``),
  bots out at the same depth in seed order. Bots still in come before those out.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Literal

from engine.core import derive_seed

Elimination = Literal["single", "double"]


@dataclass(frozen=True)
class Source:
    """Where one side of a series comes from.

    Attributes:
        kind: ``seed`` (a bot of the field), ``winner`` or ``loser`` (of an earlier series), ``none`` (a bye).
        value: The seed's number (1 is the top seed) or the series' key; 0 for ``none``.
    """

    kind: Literal["seed", "winner", "loser", "none"]
    value: int | str = 0

    def words(self, seeds: Sequence[str]) -> str:
        """The side in words, for a bracket drawn before it is known: ``winner of W1.2``."""
        if self.kind == "seed":
            return seeds[int(self.value) - 1]
        return f"{self.kind} of {self.value}" if self.kind != "none" else "bye"


NONE = Source("none")


@dataclass(frozen=True)
class Series:
    """One series of a bracket.

    Attributes:
        key: Its name, stable for the bracket (``W1.2``: winners' round 1, second series; ``L3.1``; ``GF``).
        bracket: ``winners``, ``losers`` or ``final`` (double elimination's grand final).
        round: Its round within its bracket (1 first).
        number: Its place within its round (1 first, top of the bracket first).
        sides: Where its two sides come from (the higher seed's line first in round 1).
        level: How deep it is: 1 for a series of seeds, else one more than the deepest series it waits for.
    """

    key: str
    bracket: str
    round: int
    number: int
    sides: tuple[Source, Source]
    level: int


def placement(lines: int) -> list[int]:
    """The seeds of a bracket of ``lines`` lines (a power of two) from the top: ``[1, 4, 2, 3]`` for four.

    Series ``i`` of round 1 meets the seeds at places ``2i`` and ``2i+1``: 1 v 4 and 2 v 3 for four.
    """
    order = [1]
    while len(order) < lines:
        total = 2 * len(order) + 1
        order = [seed for top in order for seed in (top, total - top)]
    return order


def seed_order(
    bots: Sequence[str],
    seeding: Literal["order", "random", "rating"],
    seed: int,
    ratings: Mapping[str, float] | None = None,
) -> list[str]:
    """The bots by seed, top seed first.

    Args:
        bots: The field, in the file's order.
        seeding: ``order`` (the file's), ``random`` (drawn from ``seed``) or ``rating`` (highest first).
        seed: The league seed (for ``random``).
        ratings: Per bot, its rating (for ``rating``; every bot of ``bots`` has one).
    """
    if seeding == "order":
        return list(bots)
    if seeding == "random":
        drawn = list(bots)
        random.Random(derive_seed(seed, "knockout", "seeding")).shuffle(drawn)
        return drawn
    if ratings is None or any(bot not in ratings for bot in bots):
        raise ValueError("seeding by rating needs a rating for every bot")
    return sorted(bots, key=lambda bot: -ratings[bot])  # stable: equal ratings keep the file's order


def _lines(field: int) -> int:
    lines = 1
    while lines < field:
        lines *= 2
    return lines


def _raw_series(lines: int, elimination: Elimination) -> list[tuple[str, str, int, int, tuple[Source, Source]]]:
    """Every series of a full bracket of ``lines`` lines, each after those it waits for."""
    order = placement(lines)
    found = []
    rounds = lines.bit_length() - 1
    for number in range(1, lines // 2 + 1):
        sides = (Source("seed", order[2 * number - 2]), Source("seed", order[2 * number - 1]))
        found.append((f"W1.{number}", "winners", 1, number, sides))
    for round_ in range(2, rounds + 1):
        for number in range(1, lines // 2**round_ + 1):
            before = f"W{round_ - 1}"
            sides = (Source("winner", f"{before}.{2 * number - 1}"), Source("winner", f"{before}.{2 * number}"))
            found.append((f"W{round_}.{number}", "winners", round_, number, sides))
    final = Source("winner", f"W{rounds}.1")
    if elimination == "single":
        return found
    if rounds == 1:  # two lines: the winners' final's loser is the losers' champion
        found.append(("GF", "final", 1, 1, (final, Source("loser", "W1.1"))))
        return found
    count = lines // 4
    for number in range(1, count + 1):
        sides = (Source("loser", f"W1.{2 * number - 1}"), Source("loser", f"W1.{2 * number}"))
        found.append((f"L1.{number}", "losers", 1, number, sides))
    for step in range(1, rounds):
        even, count = 2 * step, lines // 2 ** (step + 1)
        for number in range(1, count + 1):
            sides = (Source("winner", f"L{even - 1}.{number}"), Source("loser", f"W{step + 1}.{count + 1 - number}"))
            found.append((f"L{even}.{number}", "losers", even, number, sides))
        if step < rounds - 1:
            for number in range(1, count // 2 + 1):
                sides = (Source("winner", f"L{even}.{2 * number - 1}"), Source("winner", f"L{even}.{2 * number}"))
                found.append((f"L{even + 1}.{number}", "losers", even + 1, number, sides))
    found.append(("GF", "final", 1, 1, (final, Source("winner", f"L{2 * rounds - 2}.1"))))
    return found


@dataclass(frozen=True)
class Bracket:
    """A bracket of a seeded field.

    Attributes:
        seeds: The bots by seed, seed 1 first.
        elimination: ``single`` or ``double``.
        series: The series it plays (byes left out), by level, then winners' before losers' before
            the grand final, then round and number.
    """

    seeds: tuple[str, ...]
    elimination: Elimination
    series: tuple[Series, ...]

    @classmethod
    def build(cls, seeds: Sequence[str], elimination: Elimination = "single") -> Bracket:
        """The bracket of ``seeds`` (top seed first; at least two bots) by the module's rules."""
        if len(seeds) < 2:
            raise ValueError("a knockout needs at least two bots")
        field = len(seeds)
        alias: dict[str, tuple[Source, Source]] = {}  # a series not played: who goes on as its winner, its loser
        levels: dict[str, int] = {}
        kept = []

        def through(source: Source) -> Source:
            if source.kind == "seed":
                return source if int(source.value) <= field else NONE
            if source.kind in ("winner", "loser") and source.value in alias:
                return alias[str(source.value)][0 if source.kind == "winner" else 1]
            return source

        rank = {"winners": 0, "losers": 1, "final": 2}
        for key, bracket, round_, number, raw in _raw_series(_lines(field), elimination):
            sides = (through(raw[0]), through(raw[1]))
            if NONE in sides:
                alias[key] = (sides[1] if sides[0] == NONE else sides[0], NONE)
                continue
            level = 1 + max((levels[str(side.value)] for side in sides if side.kind != "seed"), default=0)
            levels[key] = level
            kept.append(Series(key, bracket, round_, number, sides, level))
        kept.sort(key=lambda series: (series.level, rank[series.bracket], series.round, series.number))
        return cls(tuple(seeds), elimination, tuple(kept))

    def get(self, key: str) -> Series:
        """The series named ``key``."""
        for series in self.series:
            if series.key == key:
                return series
        raise KeyError(key)

    @property
    def final(self) -> Series:
        """The series whose winner is champion (the last winners' round, or the grand final)."""
        return self.series[-1]

    def byes(self) -> list[str]:
        """The bots that go on without playing a series of the first round (the top seeds), by seed."""
        lines = _lines(len(self.seeds))
        return [self.seeds[seed - 1] for seed in range(1, lines - len(self.seeds) + 1)]

    def sides(self, winners: Mapping[str, str]) -> dict[str, tuple[str | None, str | None]]:
        """Per series, its two bots as far as known (None: not yet), given the winners of decided series.

        Raises:
            ValueError: A winner given is not one of its series' sides.
        """
        known: dict[str, tuple[str | None, str | None]] = {}

        def bot(source: Source) -> str | None:
            if source.kind == "seed":
                return self.seeds[int(source.value) - 1]
            key = str(source.value)
            winner = winners.get(key)
            if winner is None or source.kind == "winner":
                return winner
            first, second = known[key]
            return second if winner == first else first

        for series in self.series:
            pair = (bot(series.sides[0]), bot(series.sides[1]))
            known[series.key] = pair
            winner = winners.get(series.key)
            if winner is not None and winner not in pair:
                raise ValueError(f"{winner} cannot win series {series.key}: it is not one of its sides")
        return known

    def ready(self, winners: Mapping[str, str]) -> list[Series]:
        """The series not decided whose two sides are known, in the bracket's order."""
        sides = self.sides(winners)
        return [series for series in self.series if series.key not in winners and None not in sides[series.key]]

    def champion(self, winners: Mapping[str, str]) -> str | None:
        """The final's winner, None while it is not decided."""
        return winners.get(self.final.key)

    def placing(self, winners: Mapping[str, str]) -> list[str]:
        """Every bot, best first (module docstring): champion, runner-up, then by the depth that put it out."""
        sides = self.sides(winners)
        fed = {str(side.value) for series in self.series for side in series.sides if side.kind == "loser"}
        out: dict[str, int] = {}
        for series in self.series:
            winner = winners.get(series.key)
            if winner is None or series.key in fed:
                continue
            first, second = sides[series.key]
            out[second if winner == first else first] = series.level  # type: ignore[index]
        seed_of = {bot: number for number, bot in enumerate(self.seeds)}
        still = [bot for bot in self.seeds if bot not in out]
        gone = sorted(out, key=lambda bot: (-out[bot], seed_of[bot]))
        champion = self.champion(winners)
        if champion is not None:
            still = [champion]
        return [*still, *gone]
