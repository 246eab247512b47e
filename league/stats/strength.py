"""How strong is each bot, and how sure are we? Ratings, intervals, LOS and place probabilities.

The ratings are the MAP of ``league.stats.bradley_terry`` on all games. Their uncertainty comes from
two sources, and each interval is the wider of the two:

- a bootstrap over games: ``samples`` resamples (seeded) of the resampling units of
  ``league.stats.pairwise`` (a round's seat-swapped pair of games, or a whole table, every variant
  with it), each refitted; the 2.5% and 97.5% percentiles of a bot's ratings;
- the model's own Laplace interval, MAP +/- 1.96 sd from the Hessian of the log posterior at
  its peak (prior included).

The 95% interval is the hull of the two (from the lower of their low ends to the higher of their
high ends). The bootstrap alone can be degenerate (a 60-0 bot is 60-0 in every resample, so its
resampled ratings barely move); the Laplace interval alone assumes independent games, which a
table's pairwise results are not.

The likelihood of superiority LOS[i, j] = P(r_i > r_j) is computed as BayesElo does: the normal
CDF of r_i - r_j over its standard deviation from the Laplace covariance, that covariance scaled
up by the design effect: the median over bots of the ratio of bootstrap variance to Laplace
variance, at least 1 (games less independent than the model assumes widen every LOS alike).

The design effect is itself an estimate from a finite number of resamples. Its Monte Carlo
standard error is measured (the resamples redrawn ``NOISE_REDRAWS`` times, the median ratio
recomputed on each), and when a target is given more resamples are drawn (as many as the error's
1/sqrt(n) law asks for, at least twice as many each time) until that error is at most the target
or ``MAX_SAMPLES`` are drawn (fewer in big leagues: ``MAX_UNIT_DRAWS``); the error reached is
stated. Resamples come from the seed and the units themselves (``league.stats.pairwise`` numbers
units by round and bot names), and draws for place probabilities are made in the order of the
bots' names: listing the same bots in another order gives the same figures.

P(place = k) is the share of draws from the normal approximation LOS uses (``posterior_draws``: the
peak, the covariance times the design effect) in which a bot's rating is the k-th highest (exact
ties share their places); settled places are judged by LOS (``league.stats.verdict``).
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from league.stats.bradley_terry import covariance, expected_score, fit, points_and_games
from league.stats.pairwise import PairwiseResults, bootstrap

Z95 = 1.959963984540054
"""The two-sided 95% quantile of the standard normal."""


@dataclass(frozen=True)
class StrengthEstimate:
    """Ratings with their uncertainty, the bots in ``PairwiseResults.bots`` order.

    Attributes:
        bots: The rated bots.
        elo: MAP ratings (Elo, mean 0).
        low: Lower ends of the 95% intervals (the hull described in the module docstring).
        high: Upper ends.
        covariance: ``(bots + 1, bots + 1)`` Laplace covariance of the centred ratings and h.
        design_effect: Bootstrap variance over Laplace variance (median over bots, at least 1).
        design_effect_se: The Monte Carlo standard error of that median (0 without resamples).
        resampled: ``(samples, bots)`` the bootstrap fits' ratings (every resample drawn).
        seat: MAP first-seat advantage h (Elo; 0 for tables).
        seat_low: Lower end of h's 95% interval (same hull).
        seat_high: Upper end.
        seat0_points: Seat 0's mean points by rank per game (1 first, 0 last; 1/2 par).
        seat0_low: Lower end of its 95% interval (hull of the bootstrap percentile interval and
            the Wilson interval of independent games).
        seat0_high: Upper end.
    """

    bots: list[str]
    elo: np.ndarray
    low: np.ndarray
    high: np.ndarray
    covariance: np.ndarray
    design_effect: float
    design_effect_se: float
    resampled: np.ndarray
    seat: float
    seat_low: float
    seat_high: float
    seat0_points: float
    seat0_low: float
    seat0_high: float

    @property
    def sd(self) -> np.ndarray:
        """Per bot, the standard deviation LOS uses: Laplace sd times the square root of the design effect."""
        return np.sqrt(np.maximum(np.diag(self.covariance)[: len(self.bots)], 0) * self.design_effect)

    @property
    def samples(self) -> int:
        """How many bootstrap resamples were drawn."""
        return len(self.resampled)


MAX_SAMPLES = 6400
"""The most resamples drawn while the design effect's noise is above its target."""

DESIGN_EFFECT_SE = 0.03
"""The target for the design effect's Monte Carlo standard error that the report asks for: it scales
every LOS's variance, so 0.03 moves a LOS's z-score by about 1.5%."""

MAX_UNIT_DRAWS = 10_000_000
"""The most units drawn over all resamples while the design effect's noise is above its target: a
resample costs in proportion to the league's units, so a league of 100,000 games (25,000 units) stops
at 400 resamples and states the noise it has, while a league of 2,000 units may draw ``MAX_SAMPLES``."""

GROWTH_MARGIN = 1.2
"""More resamples are drawn to this many times the count the error's 1/sqrt(n) law asks for (at least twice as many)."""

NOISE_REDRAWS = 100
"""How often the resamples are redrawn to measure the design effect's Monte Carlo error."""


def estimate(
    results: PairwiseResults,
    samples: int = 200,
    seed: int = 0,
    target_se: float | None = None,
    max_samples: int = MAX_SAMPLES,
) -> StrengthEstimate:
    """Ratings, first-seat advantage and their intervals from all games and ``samples`` resamples or more.

    Args:
        results: The league's pairwise results.
        samples: Bootstrap resamples drawn first (0: the Laplace intervals alone).
        seed: Seeds the resampling: the same games always give the same figures.
        target_se: Draw more resamples, at least twice as many each time, until the design effect's
            Monte Carlo standard error is at most this (None: ``samples`` alone).
        max_samples: The most resamples drawn for ``target_se`` (fewer where ``MAX_UNIT_DRAWS`` says so).
    """
    two_seat = not results.tables
    point = fit(*_batch(results.counts()), seat_advantage=two_seat)
    laplace = covariance(point.precision[0])
    size = len(results.bots)
    laplace_sd = np.sqrt(np.maximum(np.diag(laplace), 0))
    rng = np.random.default_rng(seed)
    ratings, seats, seat0_boot = _resampled_fits(results, samples, rng, two_seat)
    elo, seat = point.ratings[0], float(point.seat[0])
    design_effect, design_effect_se = _design_effect(ratings, laplace_sd[:size] ** 2, seed)
    max_samples = min(max_samples, max(samples, MAX_UNIT_DRAWS // max(results.units, 1)))
    while target_se is not None and design_effect_se > target_se and 0 < len(ratings) < max_samples:
        wanted = math.ceil(len(ratings) * GROWTH_MARGIN * (design_effect_se / target_se) ** 2)  # error ~ 1/sqrt(n)
        more = _resampled_fits(
            results, min(max(wanted, 2 * len(ratings)) - len(ratings), max_samples - len(ratings)), rng, two_seat
        )
        ratings, seats = np.concatenate([ratings, more[0]]), np.concatenate([seats, more[1]])
        seat0_boot = np.concatenate([seat0_boot, more[2]])
        design_effect, design_effect_se = _design_effect(ratings, laplace_sd[:size] ** 2, seed)
    if len(ratings):
        boot_low, boot_high = _percentiles(ratings, elo)
        seat_boot = _percentiles(seats[:, None], np.array([seat]))
    else:
        boot_low, boot_high, seat_boot = elo, elo, (np.array([seat]), np.array([seat]))
    games = results.unit_games.sum()
    seat0 = float(results.unit_seat0_points.sum() / games) if games else 0.5
    wilson = wilson_interval(np.array(seat0 * games), np.array(games))
    seat0_low, seat0_high = _hull(seat0_boot, float(wilson[0]), float(wilson[1]))
    return StrengthEstimate(
        bots=list(results.bots),
        elo=elo,
        low=np.minimum(boot_low, elo - Z95 * laplace_sd[:size]),
        high=np.maximum(boot_high, elo + Z95 * laplace_sd[:size]),
        covariance=laplace,
        design_effect=design_effect,
        design_effect_se=design_effect_se,
        resampled=ratings,
        seat=seat,
        seat_low=min(float(seat_boot[0][0]), seat - Z95 * laplace_sd[size]) if two_seat else 0.0,
        seat_high=max(float(seat_boot[1][0]), seat + Z95 * laplace_sd[size]) if two_seat else 0.0,
        seat0_points=seat0,
        seat0_low=seat0_low,
        seat0_high=seat0_high,
    )


def _resampled_fits(
    results: PairwiseResults, samples: int, rng: np.random.Generator, two_seat: bool
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """``samples`` bootstrap resamples fitted: ``(samples, bots)`` ratings, ``(samples,)`` h and seat 0's points."""
    counts, seat0 = bootstrap(results, samples, rng)
    if not samples:
        return np.zeros((0, len(results.bots))), np.zeros(0), seat0
    fitted = fit(*points_and_games(counts), seat_advantage=two_seat)
    return fitted.ratings, fitted.seat, seat0


def _design_effect(ratings: np.ndarray, laplace_variance: np.ndarray, seed: int) -> tuple[float, float]:
    """The design effect of ``ratings`` (resampled, one row each) and its Monte Carlo standard error.

    The error is the spread of the median ratio over ``NOISE_REDRAWS`` redraws of the resamples
    (with replacement, seeded): how much the figure would move with other resamples. The floor at 1
    is applied to the figure, not to its redraws. Fewer than two resamples: 1, with no error.
    """
    if len(ratings) < 2 or not ratings.shape[1]:
        return 1.0, 0.0
    scale = np.maximum(laplace_variance, 1e-12)
    median = float(np.median(np.nanvar(ratings, axis=0) / scale))
    picks = np.random.default_rng([seed, len(ratings)]).integers(0, len(ratings), (NOISE_REDRAWS, len(ratings)))
    redrawn = np.stack([np.nanvar(ratings[rows], axis=0) for rows in picks]) / scale
    return max(1.0, median), float(np.std(np.median(redrawn, axis=1)))


def _batch(counts: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Points and games of one count table as a batch of one."""
    points, games = points_and_games(counts)
    return points[None], games[None]


def _percentiles(values: np.ndarray, fallback: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The 2.5% and 97.5% percentiles of each column, ignoring NaN (``fallback`` where a column has none)."""
    low, high = np.array(fallback, dtype=float), np.array(fallback, dtype=float)
    present = ~np.isnan(values).all(axis=0)
    if present.any():
        low[present], high[present] = np.nanquantile(values[:, present], [0.025, 0.975], axis=0)
    return low, high


def _hull(resampled: np.ndarray, low: float, high: float) -> tuple[float, float]:
    """The hull of the bootstrap percentile interval of ``resampled`` and the interval from ``low`` to ``high``."""
    if len(resampled):
        low, high = min(low, float(np.quantile(resampled, 0.025))), max(high, float(np.quantile(resampled, 0.975)))
    return low, high


def wilson_interval(points: np.ndarray, games: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The 95% Wilson interval of a score rate ``points / games`` (draws half); (0, 1) where there are no games."""
    games = np.asarray(games, dtype=float)
    n = np.maximum(games, 1)
    rate = np.asarray(points, dtype=float) / n
    centre = (rate + Z95**2 / (2 * n)) / (1 + Z95**2 / n)
    spread = Z95 * np.sqrt(rate * (1 - rate) / n + Z95**2 / (4 * n**2)) / (1 + Z95**2 / n)
    return np.where(games > 0, centre - spread, 0.0), np.where(games > 0, centre + spread, 1.0)


def normal_cdf(z: np.ndarray) -> np.ndarray:
    """The standard normal CDF, elementwise (via ``math.erf``; NaN stays NaN)."""
    z = np.asarray(z, dtype=float)
    return 0.5 * (1 + np.vectorize(math.erf, otypes=[float])(z / math.sqrt(2))) if z.size else z


def likelihood_of_superiority(estimate: StrengthEstimate) -> np.ndarray:
    """LOS[i, j] = P(r_i > r_j) as BayesElo computes it, the covariance scaled by the design effect.

    The diagonal is NaN (a bot against itself). LOS[i, j] + LOS[j, i] = 1.
    """
    size = len(estimate.bots)
    ratings = estimate.covariance[:size, :size] * estimate.design_effect
    variance = np.diag(ratings)[:, None] + np.diag(ratings)[None, :] - 2 * ratings
    difference = estimate.elo[:, None] - estimate.elo[None, :]
    with np.errstate(divide="ignore", invalid="ignore"):
        z = np.where(variance > 0, difference / np.sqrt(np.maximum(variance, 1e-300)), 0.0)
    los = normal_cdf(z)
    los[range(size), range(size)] = np.nan
    return los


POSTERIOR_DRAWS = 4000
"""Draws from the normal approximation that place probabilities are counted over."""


def posterior_draws(estimate: StrengthEstimate, draws: int = POSTERIOR_DRAWS, seed: int = 0) -> np.ndarray:
    """Ratings drawn from the normal approximation LOS uses: the peak, the covariance times the design effect.

    A bootstrap alone cannot vary where every resample of a pair is the same (a 2-2 split in each
    seat-swapped pair, an unbeaten bot): its place probabilities would claim certainty that the
    model's own curvature denies. These draws carry both: the Laplace covariance, and the
    bootstrap through the design effect. Seeded, so the same games give the same shares.
    """
    size = len(estimate.bots)
    if not size:
        return np.zeros((0, 0))
    by_name = sorted(range(size), key=estimate.bots.__getitem__)  # draws never depend on the bots' list order
    ratings = (estimate.covariance[:size, :size] * estimate.design_effect)[np.ix_(by_name, by_name)]
    ratings = (ratings + ratings.T) / 2
    jitter = 1e-9 * max(float(np.trace(ratings)), 1e-9) * np.eye(size)  # the centred covariance is singular
    root = np.linalg.cholesky(ratings + jitter)
    noise = np.random.default_rng(seed).standard_normal((draws, size))
    deviations = np.einsum("ij,dj->di", root, noise)
    deviations -= deviations.mean(axis=1, keepdims=True)  # centred exactly, as the ratings are
    drawn = np.empty_like(deviations)
    drawn[:, by_name] = deviations
    return estimate.elo[None, :] + drawn


def place_probabilities(resampled: np.ndarray) -> np.ndarray:
    """P[i, k]: the share of draws (``posterior_draws``) or resamples in which bot i holds place k + 1.

    Bots whose ratings are equal (within 1e-6 Elo) in a resample share the places they span; a
    bot without games in a resample (NaN) ranks below every bot that has some.
    """
    samples, size = resampled.shape
    if not samples:
        return np.full((size, size), np.nan)
    filled = np.where(np.isnan(resampled), -np.inf, resampled)
    above = (filled[:, None, :] > filled[:, :, None] + 1e-6).sum(axis=2)
    with np.errstate(invalid="ignore"):  # -inf - -inf: two bots without games, level all the same
        level = np.abs(filled[:, None, :] - filled[:, :, None]) <= 1e-6
    equal = (level | (np.isinf(filled[:, None, :]) & np.isinf(filled[:, :, None]))).sum(axis=2)
    places = np.arange(1, size + 1)[None, None, :]
    holds = (above[..., None] < places) & (places <= above[..., None] + equal[..., None])
    return (holds / equal[..., None]).mean(axis=0)


def seat_score_rate(seat_elo: float) -> float:
    """The first seat's expected score against an equal opponent, for an advantage of ``seat_elo`` Elo."""
    return float(expected_score(seat_elo))
