"""Leagues of known strengths for ``benchmarks/hidden_truth.py``: drawn, simulated, assessed and judged.

A ``Population`` says how leagues are drawn; ``draw_league`` draws one's hidden truth, ``league_records``
its games as the synthetic game stores them (no game played: outcomes drawn from
``engine.synthetic.model``), and ``judge`` runs the report's own ``league.stats.analysis.assess`` on
them and keeps what ``hidden_truth`` compares with the truth. See ``hidden_truth``'s docstring.
"""

from __future__ import annotations

import itertools
import statistics
import sys
from dataclasses import dataclass, replace
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from benchmarks.simulated_records import record  # noqa: E402
from engine.synthetic.model import draw_elo, outcome_probabilities, pick_outcome  # noqa: E402
from league.plan.adaptive_simulation import spread_elos  # noqa: E402
from league.stats.analysis import assess  # noqa: E402
from league.stats.bradley_terry import fit  # noqa: E402
from league.stats.game_record import GameRecord  # noqa: E402
from league.stats.verdict import settled_places  # noqa: E402

ENDLESS_GAMES = 1e6
"""Games per ordered pair of the fit that gives the true ratings: enough that the prior's pull is below 0.01 Elo."""


@dataclass(frozen=True)
class League:
    """One league's hidden truth.

    Attributes:
        elos: Each bot's true Elo (the synthetic game's, BayesElo's scale), best first.
        draw_rate: The chance of a draw between equals.
        first_seat_elo: The first seat's advantage (Elo).
        games_per_pair: Games each pair plays, half of them with each bot first.
        seed: Seeds its games.
    """

    elos: dict[str, float]
    draw_rate: float
    first_seat_elo: float
    games_per_pair: int
    seed: int

    def seat0_chances(self, first: str, second: str) -> tuple[float, float, float]:
        """Seat 0's chances to win, draw and lose when ``first`` sits first against ``second``."""
        d = self.elos[first] - self.elos[second] + self.first_seat_elo
        return outcome_probabilities(d, draw_elo(self.draw_rate))

    def rating_truth(self) -> dict[str, float]:
        """The ratings the report estimates: Bradley-Terry (draws half) fitted to the expected scores, without end."""
        bots = list(self.elos)
        points = np.zeros((1, len(bots), len(bots)))
        games = np.zeros_like(points)
        for (i, first), (j, second) in itertools.permutations(enumerate(bots), 2):
            win, draw, _ = self.seat0_chances(first, second)
            points[0, i, j], games[0, i, j] = ENDLESS_GAMES * (win + draw / 2), ENDLESS_GAMES
        return dict(zip(bots, fit(points, games, seat_advantage=True).ratings[0].tolist(), strict=True))

    def stated_centred(self) -> dict[str, float]:
        """The true Elos on BayesElo's scale, centred on their mean as the report's ratings are."""
        mean = statistics.fmean(self.elos.values())
        return {bot: elo - mean for bot, elo in self.elos.items()}


@dataclass(frozen=True)
class Population:
    """The leagues the truths are drawn from; the defaults are spread as real contests are.

    Attributes:
        bots: The fewest and most bots of a league.
        games_per_pair: The fewest and most games a pair plays (even: seat-swapped pairs).
        draw_rates: A league's draw rate between equals, drawn uniformly from this range.
        first_seat_elo: A league's first-seat advantage (Elo), drawn uniformly from this range.
        gap_elo: The mean gap between neighbours that are not near-twins (``spread_elos``).
        near_tie_share: The share of neighbours within 5 Elo of each other.
        spread_elo: The weakest bot is at most this far below the strongest (spreads are drawn again until so).
    """

    bots: tuple[int, int] = (4, 8)
    games_per_pair: tuple[int, int] = (20, 60)
    draw_rates: tuple[float, float] = (0.0, 0.5)
    first_seat_elo: tuple[float, float] = (0.0, 60.0)
    gap_elo: float = 80.0
    near_tie_share: float = 0.25
    spread_elo: float = 600.0

    def describe(self) -> str:
        """The population in one line."""
        return (
            f"{self.bots[0]} to {self.bots[1]} bots within {self.spread_elo:.0f} Elo (gaps of about"
            f" {self.gap_elo:.0f}, {self.near_tie_share:.0%} near-twins), {self.games_per_pair[0]} to"
            f" {self.games_per_pair[1]} games a pair, draw rate {self.draw_rates[0]:g} to {self.draw_rates[1]:g},"
            f" first seat {self.first_seat_elo[0]:g} to {self.first_seat_elo[1]:g} Elo"
        )


def draw_league(seed: int, population: Population = Population()) -> League:
    """A league's truth drawn from ``seed`` (see ``Population``)."""
    rng = np.random.default_rng(seed)
    bots = int(rng.integers(population.bots[0], population.bots[1] + 1))
    while True:
        elos = spread_elos(bots, rng, population.near_tie_share, population.gap_elo)
        if max(elos.values()) - min(elos.values()) <= population.spread_elo:
            break
    low, high = population.games_per_pair
    return League(
        elos=elos,
        draw_rate=float(rng.uniform(*population.draw_rates)),
        first_seat_elo=float(rng.uniform(*population.first_seat_elo)),
        games_per_pair=2 * int(rng.integers(low // 2, high // 2 + 1)),
        seed=seed,
    )


SCORES = {1: [2, 0], 0: [1, 1], -1: [0, 2]}
"""The synthetic game's scores by seat 0's outcome (engine/synthetic/rules.py)."""
RANKS = {1: [1, 2], 0: [1, 1], -1: [2, 1]}


def league_records(league: League) -> list[GameRecord]:
    """The league's games as the store keeps a synthetic round robin: a round's pair of games on one seed."""
    rng = np.random.default_rng(league.seed)
    chances = {seats: league.seat0_chances(*seats) for seats in itertools.permutations(league.elos, 2)}
    records = []
    for round_ in range(league.games_per_pair // 2):
        seed = int(rng.integers(2**63))
        for pair in itertools.combinations(league.elos, 2):
            for seats in (pair, pair[::-1]):
                outcome = pick_outcome(float(rng.random()), chances[seats])
                game = record(len(records), seats, RANKS[outcome], round_, variant="default")
                spec = replace(game.spec, league=f"hidden{league.seed}", seed=seed, game_id=game.game_id)
                result = replace(game.result, scores=SCORES[outcome], reason_code="model_outcome", plies=2)
                records.append(replace(game, spec=spec, result=result))
    return records


@dataclass(frozen=True)
class Judged:
    """One league's assessment judged against its truth.

    Attributes:
        league: The truth.
        covered: Per bot (the report's order), whether its interval covers its true rating.
        covered_stated: The same for the stated Elos centred on their mean.
        los: Per pair of bots, the LOS of the higher-rated over the lower.
        ordered: Per pair (as ``los``), whether the higher-rated is truly stronger.
        settled: How many places the verdict calls settled.
        wrong_places: How many settled places hold a bot whose true place differs.
        reversed_pairs: How many settled neighbour pairs are truly the other way round.
        separated: Whether the assessment found groups that never lost a point to those below.
        design_effect: The assessment's design effect.
    """

    league: League
    covered: list[bool]
    covered_stated: list[bool]
    los: list[float]
    ordered: list[bool]
    settled: int
    wrong_places: int
    reversed_pairs: int
    separated: bool
    design_effect: float


def judge(league: League) -> Judged:
    """Assess one league's games as the report does, and judge the assessment against the truth."""
    bots = list(league.elos)
    found = assess(bots, league_records(league), bots)
    strength = found.strength
    truth, stated = league.rating_truth(), league.stated_centred()

    def covers(values: dict[str, float]) -> list[bool]:
        return [bool(row.low_95 <= values[row.bot] <= row.high_95) for row in strength.itertuples(index=False)]

    ranked = strength["bot"].tolist()
    pairs = list(itertools.combinations(range(len(ranked)), 2))
    true_place = {bot: place for place, bot in enumerate(sorted(bots, key=lambda bot: -league.elos[bot]), start=1)}
    # settled_places reads only each neighbour pair's ``settled``, which the frame's rows carry
    settled = settled_places(list(found.neighbours.itertuples(index=False)))  # type: ignore[arg-type]
    return Judged(
        league=league,
        covered=covers(truth),
        covered_stated=covers(stated),
        los=[float(found.los.iat[i, j]) for i, j in pairs],
        ordered=[league.elos[ranked[i]] > league.elos[ranked[j]] for i, j in pairs],
        settled=sum(settled),
        wrong_places=sum(
            is_settled and true_place[bot] != place
            for place, (bot, is_settled) in enumerate(zip(ranked, settled, strict=True), start=1)
        ),
        reversed_pairs=sum(
            bool(row.settled) and league.elos[row.higher] < league.elos[row.lower]
            for row in found.neighbours.itertuples(index=False)
        ),
        separated=len(found.separation.groups) > 1,
        design_effect=found.design_effect,
    )


def measure(leagues: int, seed: int, population: Population = Population()) -> list[Judged]:
    """Draw, simulate, assess and judge ``leagues`` leagues, the i-th from seed ``seed * 100_000 + i``."""
    return [judge(draw_league(seed * 100_000 + index, population)) for index in range(leagues)]
