"""An adaptive league's statistics: which neighbour orders are settled, and where the next games go.

Games come in seat-swapped pairs on one seed, called units here: a unit's score, the mean of its
two games for the pair's first bot, is one of 0, 1/4, 1/2, 3/4 and 1, and a first-seat advantage
cancels inside it, so a pair's units are independent draws of one distribution.

**The ranking** is the Bradley-Terry fit of every unit (``league.stats.bradley_terry``); its
neighbours are the claims an adaptive league settles.

**The intervals.** Each pair of bots has an interval on its mean unit score from its own units
alone: the tighter of Hoeffding's bound and the empirical Bernstein bound (Maurer and Pontil 2009,
"Empirical Bernstein bounds and sample variance penalization", theorem 4), each at half the
pair's error. The league's error, 1 - confidence, is split evenly over all pairs of bots
(Bonferroni), and a pair's share over its looks. A pair is judged only when its units reach the
next point of a grid (1, 2, 3, 4, 5, 7, 9, 12, ...: about 25% more each time, ``look_point``), on
the units up to that point; its k-th look spends 6 / (pi^2 k^2) of its share, a union over looks
as in Darling and Robbins's iterated-logarithm bounds
(Howard et al. 2021, "Time-uniform, nonparametric, nonasymptotic confidence sequences", give
tighter ones). So every interval the league ever shows holds at once with probability at least the
confidence: stopping as soon as the ranking first looks settled (optional stopping), over many
pairs, makes a claim wrong no more often than 1 - confidence.

**Settled.** Two neighbours are ordered when the upper one's interval lies above 1/2, or tied
when the interval lies inside the scores of +-``tie_elo``. A league is settled when every pair of
neighbours is one or the other.

**Where games go.** A batch's units go one at a time to the unsettled pair of neighbours whose
interval would shrink most from one more unit, counting the units already planned for it: Chatbot
Arena's active sampling (Chiang et al. 2024, "Chatbot Arena: an open platform for evaluating LLMs
by human preference", section 5: sample a pair in proportion to the reduction of its interval),
restricted, as Heckel et al. 2019 ("Active ranking from pairwise comparisons and when parametric
assumptions do not help") do, to the comparisons still open.
"""

from __future__ import annotations

import functools
import heapq
import math
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from enum import Enum

import numpy as np

from league.stats import bradley_terry
from league.stats.ties import best_first

Pair = tuple[str, str]
"""Two bots, in the league's order of bots: a unit's score is the first one's."""

LOOK_WEIGHT = 6 / math.pi**2
"""The k-th look of a pair spends LOOK_WEIGHT / k^2 of its share of the error (the shares add up to 1)."""

GRID_GROWTH = 1.25
"""A pair is judged again once its units have grown by this factor: few looks, each cheap in error."""

VARIANCE_FLOOR = 1 / 64
"""The unit variance the sampling assumes at least, so that a pair whose few units agree still gets games."""


class Claim(Enum):
    """What the league says of two neighbours in its ranking."""

    ORDERED = "ordered"
    TIED = "tied"
    OPEN = "open"


@dataclass(frozen=True)
class Neighbours:
    """Two bots next to each other in the ranking, and what their units say.

    Attributes:
        upper: The bot ranked above.
        lower: The bot ranked below.
        claim: Ordered, tied, or still open.
        units: Units they have played against each other.
        low: The lower end of the interval on the upper bot's mean unit score.
        high: Its upper end.
    """

    upper: str
    lower: str
    claim: Claim
    units: int
    low: float
    high: float


@dataclass
class PairUnits:
    """The units of one pair of bots (its first bot's scores, in the order played), as sums, and its judged prefix.

    A pair is judged at the grid points of its unit count (``look_point``): its interval rests on
    the units up to the last grid point reached, and each grid point is one look.
    """

    count: int = 0
    total: float = 0.0
    """The first bot's unit scores added up (unit scores are quarters: sums are exact)."""
    squares: float = 0.0
    looks: int = 0
    judged: int = 0
    """Units up to the last grid point reached (those the interval rests on)."""
    judged_total: float = 0.0
    judged_squares: float = 0.0

    def add(self, values: Sequence[float] | np.ndarray) -> None:
        """Append units; judge the pair at each grid point they reach."""
        scores = np.asarray(values, dtype=float)
        before = self.count
        if scores.size == 0:
            return
        totals, squares = np.cumsum(scores), np.cumsum(scores * scores)
        self.count += int(scores.size)
        while (point := look_point(self.looks + 1)) <= self.count:
            last = point - before - 1  # the grid point's unit among those added
            self.judged_total = self.total + float(totals[last])
            self.judged_squares = self.squares + float(squares[last])
            self.judged, self.looks = point, self.looks + 1
        self.total += float(totals[-1])
        self.squares += float(squares[-1])

    def judged_mean_and_variance(self, every_unit: bool = False) -> tuple[int, float, float]:
        """Units, mean and sample variance of the judged prefix (or of every unit)."""
        if every_unit:
            count, total, squares = self.count, self.total, self.squares
        else:
            count, total, squares = self.judged, self.judged_total, self.judged_squares
        if count == 0:
            return 0, 0.5, 0.0
        variance = max(0.0, (squares - total**2 / count) / (count - 1)) if count > 1 else 0.0
        return count, total / count, variance


@functools.cache
def look_point(look: int) -> int:
    """The unit count of a pair's ``look``-th judgement: 1, 2, 3, then about 25% more each time."""
    point = 1
    for _ in range(look - 1):
        point = max(point + 1, math.ceil(point * GRID_GROWTH))
    return point


def add_units(points: np.ndarray, games: np.ndarray, cell: tuple[int, int], count: int, total: float) -> None:
    """Count ``count`` units of a pair into a Bradley-Terry fit's tables (``bradley_terry.fit``'s cells).

    A unit is two games, one each way: bot ``i`` of ``cell`` scored ``total`` points in the ``count``
    games of cell (i, j) and bot ``j`` the rest of the ``count`` games of cell (j, i), so each cell's
    mean is the unit's mean score.
    """
    i, j = cell
    points[i, j] += total
    points[j, i] += count - total
    games[i, j] += count
    games[j, i] += count


def radius(count: int, variance: float, error: float) -> float:
    """Half the width of an interval on a mean of ``count`` scores in [0, 1] that holds but with chance ``error``.

    The tighter of Hoeffding's (two-sided, at ``error / 2``) and the empirical Bernstein bound
    (Maurer and Pontil, two-sided, at ``error / 2``); infinite before the first score.
    """
    if count == 0:
        return math.inf
    hoeffding = math.sqrt(math.log(4 / error) / (2 * count))
    if count < 2:
        return hoeffding
    log_term = math.log(8 / error)
    bernstein = math.sqrt(2 * variance * log_term / count) + 7 * log_term / (3 * (count - 1))
    return min(hoeffding, bernstein)


def score_at(elo: float) -> float:
    """The expected score of a bot ``elo`` above its opponent (the Bradley-Terry model's)."""
    return float(bradley_terry.expected_score(elo))


class ActiveRanking:
    """The evidence of an adaptive league: its units per pair, its ranking and claims, its next batch.

    Args:
        bots: The league's bots, in its order (a pair's first bot is the earlier one).
        confidence: The chance that every claim the league makes is right.
        tie_elo: Neighbours proven within this many Elo of each other are declared tied.
        one_look: A fixed design judged once, at its end (a plain round robin): a pair's whole
            share of the error goes to its one look.
    """

    def __init__(self, bots: Sequence[str], confidence: float, tie_elo: float, one_look: bool = False) -> None:
        self.bots = list(bots)
        self.confidence, self.tie_elo, self.one_look = confidence, tie_elo, one_look
        self._position = {bot: number for number, bot in enumerate(self.bots)}
        self.pairs: dict[Pair, PairUnits] = {}
        self._claims: list[Neighbours] | None = None

    def pair(self, first: str, second: str) -> Pair:
        """The pair of two bots, in the league's order."""
        return (first, second) if self._position[first] < self._position[second] else (second, first)

    @property
    def pair_error(self) -> float:
        """One pair's share of the league's error, over all its looks (Bonferroni over every pair of bots)."""
        count = len(self.bots) * (len(self.bots) - 1) // 2
        return (1 - self.confidence) / max(count, 1)

    def look_error(self, look: int) -> float:
        """The error a pair's ``look``-th judgement spends (``look`` from 1)."""
        return self.pair_error if self.one_look else self.pair_error * LOOK_WEIGHT / look**2

    def take(self, units: Mapping[Pair, Iterable[float]]) -> None:
        """Take a completed batch: per pair, the first bot's unit scores in the order played."""
        for pair, scores in units.items():
            values = np.fromiter(scores, dtype=float)  # lists, arrays and generators alike
            if values.size:
                self.pairs.setdefault(pair, PairUnits()).add(values)
        self._claims = None

    def interval(self, upper: str, lower: str) -> tuple[float, float, int]:
        """The interval on ``upper``'s mean unit score against ``lower`` at the pair's last look, and its units."""
        pair = self.pair(upper, lower)
        evidence = self.pairs.get(pair, PairUnits())
        count, mean, variance = evidence.judged_mean_and_variance(every_unit=self.one_look)
        if count == 0:
            return 0.0, 1.0, evidence.count
        half = radius(count, variance, self.look_error(max(evidence.looks, 1)))
        mean = mean if pair[0] == upper else 1 - mean
        return max(0.0, mean - half), min(1.0, mean + half), evidence.count

    def ranking(self) -> list[str]:
        """The bots, strongest first, by the Bradley-Terry fit of every unit (exact ties by name, ``ties``)."""
        size = len(self.bots)
        points, games = np.zeros((1, size, size)), np.zeros((1, size, size))
        for (first, second), evidence in self.pairs.items():
            add_units(
                points[0], games[0], (self._position[first], self._position[second]), evidence.count, evidence.total
            )
        ratings = bradley_terry.fit(points, games, seat_advantage=False).ratings[0]
        return [self.bots[k] for k in best_first(self.bots, ratings.tolist())]

    def claims(self) -> list[Neighbours]:
        """What the league says of each pair of neighbours in its ranking, best first."""
        if self._claims is None:
            order = self.ranking()
            tie_low, tie_high = score_at(-self.tie_elo), score_at(self.tie_elo)
            claims = []
            for upper, lower in zip(order, order[1:], strict=False):
                low, high, units = self.interval(upper, lower)
                if low > 0.5:
                    claim = Claim.ORDERED
                elif self.tie_elo > 0 and tie_low <= low and high <= tie_high:
                    claim = Claim.TIED
                else:
                    claim = Claim.OPEN
                claims.append(Neighbours(upper, lower, claim, units, low, high))
            self._claims = claims
        return self._claims

    @property
    def settled(self) -> bool:
        """Whether every pair of neighbours is ordered or tied."""
        return all(neighbours.claim is not Claim.OPEN for neighbours in self.claims())

    def next_batch(self, units: int, planned: Mapping[Pair, int] | None = None) -> dict[Pair, int]:
        """Where the next ``units`` units go: per open pair of neighbours, how many (pairs given none left out).

        Args:
            units: The batch's size in units.
            planned: Units already planned per pair and not yet taken (batches in flight).
        """
        planned = planned or {}
        open_pairs = [self.pair(n.upper, n.lower) for n in self.claims() if n.claim is Claim.OPEN]
        if not open_pairs:
            return {}
        given: dict[Pair, int] = dict.fromkeys(open_pairs, 0)
        shapes = {}  # per pair: units so far (played and planned), its variance and its next look's error
        for pair in open_pairs:
            evidence = self.pairs.get(pair, PairUnits())
            variance = max(evidence.judged_mean_and_variance()[2], VARIANCE_FLOOR)
            shapes[pair] = (evidence.count + planned.get(pair, 0), variance, self.look_error(evidence.looks + 1))

        def gain(pair: Pair) -> float:
            before, variance, error = shapes[pair]
            count = before + given[pair]
            return math.inf if count == 0 else radius(count, variance, error) - radius(count + 1, variance, error)

        # Best first; among equal gains the pair earlier in the ranking.
        heap = [(-gain(pair), number, pair) for number, pair in enumerate(open_pairs)]
        heapq.heapify(heap)
        for _ in range(units):
            _, number, best = heapq.heappop(heap)
            given[best] += 1
            heapq.heappush(heap, (-gain(best), number, best))
        return {pair: count for pair, count in given.items() if count}


CLAIM_SIGNS = {Claim.ORDERED: ">", Claim.TIED: "~", Claim.OPEN: "?"}
"""How a ranking line joins two neighbours: proven above, proven within ``tie_elo``, not settled."""


def ranking_line(claims: Sequence[Neighbours]) -> str:
    """The ranking in one line, each pair of neighbours joined by its claim's sign: ``a > b ~ c ? d``."""
    if not claims:
        return ""
    parts = [claims[0].upper]
    for neighbours in claims:
        parts += [CLAIM_SIGNS[neighbours.claim], neighbours.lower]
    return " ".join(parts)
