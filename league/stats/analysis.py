"""Are strong programs really strong? One entry point, ``assess``, for the report.

It rates the bots with Bradley-Terry (first-seat advantage and a weak prior,
``league.stats.bradley_terry``), bootstraps the games by their resampling units (``league.stats.pairwise``)
for intervals, likelihoods of superiority and place probabilities (``league.stats.strength``), and
weighs the evidence that the ranking is real (``league.stats.evidence``, ``league.stats.cycles``): split-half
reliability, held-out predictive power, the transitive share and significant 3-cycles, the
first-seat advantage, agreement with TrueSkill. ``league.stats.verdict`` says which places are
settled, how many more games would settle the rest, and sums it up in plain words.
"""

from __future__ import annotations

import hashlib
from collections.abc import Sequence
from dataclasses import dataclass, field

import numpy as np
import pandas as pd

from league.stats.bradley_terry import PRIOR_SD
from league.stats.cycles import Cycles, Transitivity, pair_scores, significant_cycles, transitivity
from league.stats.evidence import Agreement, Prediction, Reliability, SeatAdvantage, agreement, prediction, reliability
from league.stats.evidence import seat_advantage as first_seat_advantage
from league.stats.game_record import GameRecord
from league.stats.pairwise import PairwiseResults, pairwise_results
from league.stats.separation import Separation, separations
from league.stats.strength import (
    DESIGN_EFFECT_SE,
    MAX_SAMPLES,
    MAX_UNIT_DRAWS,
    StrengthEstimate,
    estimate,
    likelihood_of_superiority,
    place_probabilities,
    posterior_draws,
)
from league.stats.ties import best_first, shared_places, tied_runs
from league.stats.verdict import league_games_needed, neighbours, settled_places, verdict

STRENGTH_COLUMNS = [
    "place",
    "bot",
    "elo",
    "low_95",
    "high_95",
    "sd",
    "games",
    "score_rate",
    "p_first",
    "group",
    "gap_below_at_least",
]
NEIGHBOUR_COLUMNS = [
    "higher",
    "lower",
    "difference",
    "sd",
    "los",
    "settled",
    "factor",
    "more_games_per_pair",
    "tie",
    "separated",
]


@dataclass(frozen=True)
class Assessment:
    """Everything the report shows about strength and the evidence for the ranking.

    Attributes:
        strength: One row per rated bot, best first: ``place`` (Bradley-Terry order; bots of equal
            strength share a place and are listed by name, ``league.stats.ties``), ``bot``,
            ``elo``, ``low_95``, ``high_95`` (Elo, mean 0), ``sd`` (the one LOS uses),
            ``games``, ``score_rate`` (points per pairwise result, draws half), ``p_first``
            (its probability of the highest rating, as ``rank_probabilities``), ``group`` (its
            group of ``league.stats.separation``, 1 best; one group when nothing is separated) and
            ``gap_below_at_least`` (on a group's last bot: the data's 95% lower bound on the gap to
            the next group, Elo; empty elsewhere or where the games bound nothing).
        ties: Runs of bots whose strengths are equal (``league.stats.ties.tied_runs``), best first.
        los: Likelihood of superiority, row bot over column bot (bots best first; diagonal NaN).
        rank_probabilities: Bot (index, best first) by place (columns 1, 2, ...): the probability of
            each place under the normal approximation LOS uses (``league.stats.strength.posterior_draws``).
        neighbours: One row per pair of neighbours: ``higher``, ``lower``, ``difference``, ``sd``,
            ``los``, ``settled``, ``factor``, ``more_games_per_pair``, ``tie``, ``separated``
            (``league.stats.verdict``).
        seat_advantage: The first-seat advantage.
        reliability: Split-half reliability.
        prediction: Held-out predictive power.
        transitivity: Transitive share of the results.
        cycles: Significant 3-cycles.
        agreement: Agreement with the caller's (TrueSkill) order.
        verdict: The verdict in plain words.
        games_needed: Sentences: per unsettled neighbour pair, then for the league.
        unrated: Bots without games (no rating).
        design_effect: How much more the bootstrap varies than the model (at least 1).
        design_effect_se: Its Monte Carlo standard error.
        samples: The bootstrap resamples drawn (more than asked when the design effect needed them).
        separation: Groups of bots that never lost a point to the groups below (``league.stats.separation``).
        method: How it was all computed, a sentence each.
    """

    strength: pd.DataFrame
    ties: list[list[str]]
    los: pd.DataFrame
    rank_probabilities: pd.DataFrame
    neighbours: pd.DataFrame
    seat_advantage: SeatAdvantage
    reliability: Reliability
    prediction: Prediction
    transitivity: Transitivity
    cycles: Cycles
    agreement: Agreement
    verdict: str
    games_needed: list[str]
    unrated: list[str]
    design_effect: float
    design_effect_se: float
    samples: int
    separation: Separation
    method: list[str] = field(default_factory=list)

    @property
    def figures(self) -> list[str]:
        """The evidence's sentences in reading order."""
        return [
            self.reliability.meaning,
            self.prediction.meaning,
            self.transitivity.meaning,
            self.cycles.meaning,
            self.seat_advantage.meaning,
            self.agreement.meaning,
        ]


def assess(
    bots: Sequence[str],
    records: Sequence[GameRecord],
    trueskill_order: Sequence[str],
    samples: int = 200,
    seed: int | None = None,
    fitted: StrengthEstimate | None = None,
) -> Assessment:
    """Ratings, their uncertainty and the evidence that the ranking is real (module docstring).

    Args:
        bots: Every bot of the league (bots without games are listed in ``unrated``).
        records: Scored games (``league.stats.ratings.scored``; INFRA_ERROR games are skipped anyway).
            Games of one seat are left out.
        trueskill_order: Bot names best first by TrueSkill (compared with the Bradley-Terry order).
        samples: Bootstrap resamples drawn first; more are drawn until the design effect's Monte
            Carlo error is at most ``DESIGN_EFFECT_SE`` (``league.stats.strength``).
        seed: Seeds the resampling (default: drawn from the games' own seeds, which the league seed
            decides): the same games always give the same figures, whatever the bots' list order.
        fitted: The strengths already estimated from the same ``bots``, ``records``, ``samples`` and
            ``seed`` (``league.stats.ranking.Ranking.fitted``, the standings' own), so that they are
            fitted once; default: estimated here.
    """
    results = pairwise_results(bots, records)
    seed = games_seed(records) if seed is None else seed
    if fitted is None:
        fitted = estimate(results, samples, seed, target_se=DESIGN_EFFECT_SE)
    names = results.bots
    order = best_first(names, fitted.elo.tolist())
    ranked = [names[k] for k in order]
    los = likelihood_of_superiority(fitted)
    counts = results.counts()
    points, games = pair_scores(counts)
    met = np.triu(games > 0, k=1).sum()
    variants = max(1, len({record.spec.variant for record in records if len(record.spec.seats) > 1}))
    games_per_pair = float(np.triu(games).sum() / met / variants) if met else 0.0
    per = "per pair and variant" if variants > 1 else "per pair"
    separation = separations(results, fitted.elo)
    sd_of = _difference_sd(fitted)
    pairs = neighbours(order, names, fitted.elo, sd_of, los, games_per_pair, games > 0, per, separation)
    places = place_probabilities(posterior_draws(fitted, seed=seed))
    transitive, forecast = transitivity(names, counts), prediction(results)
    circles = significant_cycles(results)
    return Assessment(
        strength=_strength_frame(
            fitted, order, results.bot_games, points.sum(axis=1), games.sum(axis=1), places, separation
        ),
        ties=tied_runs(names, order, fitted.elo.tolist()),
        los=pd.DataFrame(np.round(los[np.ix_(order, order)], 3), index=ranked, columns=ranked),
        rank_probabilities=pd.DataFrame(
            np.round(places[order], 3), index=pd.Index(ranked, name="bot"), columns=range(1, len(names) + 1)
        ),
        neighbours=pd.DataFrame(
            [[getattr(pair, column) for column in NEIGHBOUR_COLUMNS] for pair in pairs], columns=NEIGHBOUR_COLUMNS
        ),
        seat_advantage=first_seat_advantage(fitted, results.tables, int(results.unit_games.sum())),
        reliability=reliability(results),
        prediction=forecast,
        transitivity=transitive,
        cycles=circles,
        agreement=agreement(names, fitted.elo.tolist(), trueskill_order),
        verdict=verdict(settled_places(pairs), transitive, forecast, circles, separation),
        games_needed=[pair.meaning for pair in pairs if pair.meaning]
        + ([league_games_needed(pairs, games_per_pair, per)] if pairs else []),
        unrated=results.unrated,
        design_effect=fitted.design_effect,
        design_effect_se=fitted.design_effect_se,
        samples=fitted.samples,
        separation=separation,
        method=method_notes(results.tables, fitted.samples, fitted.design_effect, fitted.design_effect_se)
        + repeats_note(results),
    )


def repeats_note(results: PairwiseResults) -> list[str]:
    """The sentence that says how many units repeated earlier ones and counted once (none when none did)."""
    if not results.repeated_units:
        return []
    unit = "tables" if results.tables else "seat-swapped pairs"
    distinct = results.units
    return [
        f"{results.repeated_units:,} {unit} ({results.repeated_games:,} games) repeated earlier ones move for move"
        f" and are left out of every figure here: the ratings, intervals, LOS and"
        f" verdict rest on {distinct:,} distinct {unit}. Bots that never randomise play the same games on every"
        " seed of a game without randomness; openings (`openings: {plies: 4}`) make every pair start apart."
    ]


def games_seed(records: Sequence[GameRecord]) -> int:
    """A resampling seed drawn from the games' own seeds (the league seed decides them), in no order of theirs."""
    seeds = sorted({str(record.spec.seed) for record in records})
    return int.from_bytes(hashlib.sha256(",".join(seeds).encode()).digest()[:8], "big")


def _difference_sd(fitted: StrengthEstimate) -> np.ndarray:
    """The standard deviation of elo[i] - elo[j] from the Laplace covariance, scaled by the design effect."""
    size = len(fitted.bots)
    ratings = fitted.covariance[:size, :size] * fitted.design_effect
    return np.sqrt(np.maximum(np.diag(ratings)[:, None] + np.diag(ratings)[None, :] - 2 * ratings, 0))


def _strength_frame(
    fitted: StrengthEstimate,
    order: list[int],
    bot_games: np.ndarray,
    points: np.ndarray,
    results: np.ndarray,
    places: np.ndarray,
    separation: Separation,
) -> pd.DataFrame:
    """The ``strength`` table (see ``Assessment``)."""
    sd = fitted.sd
    shared = shared_places(order, fitted.elo.tolist())
    last_of_group = {group[-1]: gap.at_least for group, gap in zip(separation.groups, separation.gaps, strict=False)}
    groups = len(separation.groups)
    rows = [
        [
            place,
            fitted.bots[k],
            round(float(fitted.elo[k]), 1),
            *_interval_ends(float(fitted.low[k]), float(fitted.high[k]), separation.group_of(fitted.bots[k]), groups),
            round(float(sd[k]), 1),
            int(bot_games[k]),
            round(float(points[k] / results[k]), 3) if results[k] else float("nan"),
            round(float(places[k, 0]), 3) if len(places) else float("nan"),
            separation.group_of(fitted.bots[k]),
            _rounded(last_of_group.get(fitted.bots[k])),
        ]
        for place, k in zip(shared, order, strict=True)
    ]
    return pd.DataFrame(rows, columns=STRENGTH_COLUMNS)


def _interval_ends(low: float, high: float, group: int, groups: int) -> tuple[float, float]:
    """A bot's interval to 0.1, an end reaching across a separation blank (NaN): the games bound it one way only.

    A group that never lost a point to the group below it is above it by at least the gap's bound
    (``gap_below_at_least``) and by how much more the games cannot say (every bot of it won every
    game: the maximum-likelihood gap is infinite), so its bots' upper ends, and the lower group's
    lower ends, are no figure of the games; what the fit puts there comes from its prior alone.
    """
    return (
        round(low, 1) if group == 1 else float("nan"),
        round(high, 1) if group == groups else float("nan"),
    )


def _rounded(elo: float | None) -> float:
    """An Elo figure to 0.1, NaN where there is none."""
    return float("nan") if elo is None else round(elo, 1)


def method_notes(tables: bool, samples: int, design_effect: float, design_effect_se: float = 0.0) -> list[str]:
    """How the strengths and the evidence were computed, a sentence each, for the report."""
    unit = (
        "whole tables, every rotation and variant of a table together"
        if tables
        else "seat-swapped pairs of games, a pair's two games of a round with every variant together"
    )
    model = (
        "Each game of n seats counts as its n(n-1)/2 pairwise results (the better rank wins, equal ranks"
        " draw), and the ratings have no seat term at tables (every bot sits in every seat alike)."
        if tables
        else "Seat 0 scores 1/(1 + 10^(-(r_a - r_b + h)/400)) against seat 1, the first-seat advantage h fitted"
        " with the ratings."
    )
    return [
        "Bradley-Terry ratings on the Elo scale (mean 0 over the bots with games), at the peak of the"
        f" posterior with a weak Gaussian prior (sd {PRIOR_SD:.0f} Elo) on every rating, so that unbeaten and"
        f" winless bots stay finite; draws count half a point. {model}",
        f"95% intervals span both a bootstrap percentile interval ({samples} seeded resamples of {unit}) and"
        " the model's own interval (rating +/- 1.96 sd from the curvature of the posterior, prior included),"
        " so a bot unbeaten in every resample still gets an honest width.",
        "LOS is the probability that the row bot is stronger than the column bot (normal approximation, as"
        f" BayesElo), its variance multiplied by the design effect, here {design_effect:.2f}"
        f" (Monte Carlo standard error {design_effect_se:.3f} from {samples} resamples: resamples are drawn until"
        f" it is at most {DESIGN_EFFECT_SE}, or {MAX_SAMPLES} are drawn, fewer in leagues so big that"
        f" {MAX_UNIT_DRAWS:,} units would be drawn): how much more the bootstrap varies than the model (at least 1)."
        " Resamples are drawn from the games' own seeds and the units themselves, so"
        " listing the bots in another order changes nothing.",
        "Place probabilities come from the same normal approximation as LOS (seeded draws), so they never"
        " claim more certainty than the model's own curvature allows, even where every bootstrap resample"
        " is the same; a place is settled at 95% when its bot's LOS over the neighbour below and the"
        " neighbour above's LOS over it are both at least 0.95.",
    ]
