"""Adaptive and plain round-robin leagues simulated on the synthetic game's model: games needed, claims right.

No game is played: each unit (a seat-swapped pair of games on one seed) is drawn from the chances
of ``engine.synthetic.model`` (BayesElo with a draw rate and a first-seat advantage) for the bots'
true strengths, and the league decides exactly as a real one does (``AdaptiveBatches``). A plain
round robin is judged once, at the end, with the same intervals at one look (its pairs'
error split over pairs alone): its games are the fewest per pair at which it would have settled,
found with hindsight, so the comparison favours it.
"""

from __future__ import annotations

import itertools
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

import numpy as np

from engine.synthetic.model import draw_elo, outcome_probabilities
from league.plan.adaptive_batches import AdaptiveBatches, AdaptiveSettings
from league.stats.active_ranking import ActiveRanking, Claim, Neighbours, Pair, score_at

UNIT_SCORES = np.array([0.0, 0.25, 0.5, 0.75, 1.0])


@dataclass(frozen=True)
class Model:
    """The true league the simulation draws from.

    Attributes:
        elos: Each bot's true Elo.
        draw_rate: The chance of a draw between equals.
        first_seat_elo: The first seat's advantage in Elo.
    """

    elos: Mapping[str, float]
    draw_rate: float = 0.0
    first_seat_elo: float = 0.0

    def game_chances(self, first: str, second: str, first_seated: bool) -> tuple[float, float, float]:
        """``first``'s chances to win, draw and lose one game, seated first or second."""
        difference = self.elos[first] - self.elos[second]
        d = difference + self.first_seat_elo if first_seated else -difference + self.first_seat_elo
        win, draw, loss = outcome_probabilities(d, draw_elo(self.draw_rate))
        return (win, draw, loss) if first_seated else (loss, draw, win)

    def unit_chances(self, first: str, second: str) -> np.ndarray:
        """The chances of ``first``'s unit scores 0, 1/4, 1/2, 3/4, 1 (first in one game, second in the other)."""
        chances = np.zeros(5)
        seated_first = dict(zip((1.0, 0.5, 0.0), self.game_chances(first, second, True), strict=True))
        seated_second = dict(zip((1.0, 0.5, 0.0), self.game_chances(first, second, False), strict=True))
        for a, p in seated_first.items():
            for b, q in seated_second.items():
                chances[round((a + b) * 2)] += p * q
        return chances / chances.sum()

    def true_score(self, first: str, second: str) -> float:
        """``first``'s expected unit score against ``second``."""
        return float(self.unit_chances(first, second) @ UNIT_SCORES)

    def wrong(self, claim: Neighbours, tie_elo: float) -> bool:
        """Whether a claim about two neighbours is false in this model."""
        score = self.true_score(claim.upper, claim.lower)
        if claim.claim is Claim.ORDERED:
            return score <= 0.5
        if claim.claim is Claim.TIED:
            return not score_at(-tie_elo) <= score <= score_at(tie_elo)
        return False


class UnitSource:
    """Units drawn from a model, per pair in a fixed stream, so two designs can be fed the same units."""

    def __init__(self, model: Model, rng: np.random.Generator) -> None:
        self.model, self.rng = model, rng
        self._chances: dict[Pair, np.ndarray] = {}

    def draw(self, pair: Pair, count: int) -> np.ndarray:
        """``count`` unit scores of ``pair``'s first bot."""
        if pair not in self._chances:
            self._chances[pair] = self.model.unit_chances(*pair)
        return UNIT_SCORES[self.rng.choice(5, size=count, p=self._chances[pair])]


@dataclass(frozen=True)
class AdaptiveOutcome:
    """One simulated adaptive league: its units, why it stopped, its claims, and whether any is wrong."""

    units: int
    stop: str
    claims: list[Neighbours]
    any_wrong: bool
    batches: int


def simulate_adaptive(model: Model, settings: AdaptiveSettings, rng: np.random.Generator) -> AdaptiveOutcome:
    """Run one adaptive league on ``model`` until it stops; its claims at the stop judged against the truth."""
    bots = list(model.elos)
    league = AdaptiveBatches(bots, settings)
    source = UnitSource(model, rng)
    while league.stop is None:
        batch = league.batches[league.taken]
        league.take({pair: source.draw(pair, count) for pair, count in batch.items()})
    claims = league.ranking.claims()
    wrong = any(model.wrong(claim, settings.tie_elo) for claim in claims)
    return AdaptiveOutcome(league.counted_units, league.stop, claims, wrong, league.taken)


def round_robin_units(model: Model, settings: AdaptiveSettings, rng: np.random.Generator, most: int) -> int | None:
    """The fewest units per pair at which a plain round robin on ``model`` is settled, judged once; None past ``most``.

    Units per pair are tried on a growing grid (each about 10% more than the one before), on one
    stream of units, and the first settled one is returned.
    """
    bots = list(model.elos)
    pairs = list(itertools.combinations(bots, 2))
    source = UnitSource(model, rng)
    drawn: dict[Pair, np.ndarray] = {pair: np.empty(0) for pair in pairs}
    count = 1
    while count <= most:
        for pair in pairs:
            if len(drawn[pair]) < count:
                drawn[pair] = np.concatenate([drawn[pair], source.draw(pair, count - len(drawn[pair]))])
        ranking = ActiveRanking(bots, settings.confidence, settings.tie_elo, one_look=True)
        ranking.take({pair: drawn[pair][:count] for pair in pairs})
        if ranking.settled:
            return count
        count = max(count + 1, round(count * 1.1))
    return None


def spread_elos(
    bots: int, rng: np.random.Generator, near_tie_share: float = 0.3, gap: float = 60.0
) -> dict[str, float]:
    """True strengths spread as in a real contest: gaps of about ``gap`` Elo, some bots near-twins of the one above.

    Each bot after the first sits a gap drawn from an exponential of mean ``gap`` below the one
    before, or, with chance ``near_tie_share``, within 5 Elo of it.
    """
    elos = [0.0]
    for _ in range(bots - 1):
        step = rng.uniform(0, 5) if rng.random() < near_tie_share else rng.exponential(gap)
        elos.append(elos[-1] - step)
    return {f"bot{number:02d}": elo for number, elo in enumerate(elos)}


def wrong_share(outcomes: Sequence[AdaptiveOutcome]) -> float:
    """The share of simulated leagues that claimed anything wrong."""
    return sum(outcome.any_wrong for outcome in outcomes) / len(outcomes)
