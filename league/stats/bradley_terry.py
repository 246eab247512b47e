"""Bradley-Terry ratings with a first-seat advantage and a weak prior, fitted by Newton's method.

The model: the bot in seat 0, rated r_a, scores against the bot in seat 1, rated r_b, with
probability 1 / (1 + 10^(-(r_a - r_b + h) / 400)), where h is the first-seat advantage in Elo,
estimated with the ratings as Ordo and BayesElo do. A draw counts as half a point for each side
(the likelihood is the binomial one with half points), so no draw parameter is fitted.

A weak Gaussian prior, mean 0 and ``PRIOR_SD`` Elo, on every rating and on h keeps every
estimate finite: an unbeaten bot gets a high rating with a wide interval rather than infinity.
Its pull is negligible once a bot has played a few dozen games. The peak of the posterior (the
MAP) is found by Newton's method on counts aggregated per ordered pair (seat-0 bot, seat-1 bot),
a whole batch of count tables (bootstrap resamples, folds) at once with batched
``np.linalg.solve``. The prior centres the ratings on mean 0 over the bots with games; bots
without games get NaN.

Leagues of tables fit ratings only (``seat_advantage=False``): their pairwise results are
between seats i < j of one game, not seat 0 against seat 1, so the model has no seat term there.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

ELO = math.log(10) / 400
"""Natural-log odds per Elo point."""

PRIOR_SD = 400.0
"""Standard deviation (Elo) of the weak Gaussian prior on every rating and on the first-seat advantage."""

MAX_STEP = 300.0
"""Largest change (Elo) of any parameter in one Newton step, so that early steps cannot overshoot."""

TOLERANCE = 1e-7
"""Newton stops when no parameter of any fit moves more than this (Elo)."""

MAX_ITERATIONS = 200


@dataclass(frozen=True)
class Fit:
    """The MAP ratings of a batch of count tables.

    Attributes:
        ratings: ``(batch, bots)`` Elo, mean 0 over the bots with games; NaN for bots without.
        seat: ``(batch,)`` first-seat advantage h in Elo (0 when not fitted).
        precision: ``(batch, bots + 1, bots + 1)`` minus the Hessian of the log posterior at its
            peak (ratings, then h; the prior included): the inverse of the Laplace covariance.
    """

    ratings: np.ndarray
    seat: np.ndarray
    precision: np.ndarray


def points_and_games(counts: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The first bot's points (win 1, draw 1/2) and the games of every cell.

    Args:
        counts: ``(..., bots, bots, 3)`` win/draw/loss counts of the first bot against the second.
    """
    return counts[..., 0] + 0.5 * counts[..., 1], counts.sum(axis=-1)


def expected_score(difference: np.ndarray | float) -> np.ndarray:
    """The model's expected score of a bot ``difference`` Elo (seat term included) above its opponent."""
    return 1 / (1 + np.exp(-ELO * np.clip(difference, -20_000, 20_000)))


def fit(points: np.ndarray, games: np.ndarray, seat_advantage: bool, prior_sd: float = PRIOR_SD) -> Fit:
    """MAP ratings (and first-seat advantage) of a batch of count tables, by Newton's method.

    Args:
        points: ``(batch, bots, bots)`` points of the first bot (seat 0 in a game of two) against the second.
        games: ``(batch, bots, bots)`` games of each ordered pair.
        seat_advantage: Fit the first-seat advantage h (two-seat games) or hold it at 0 (tables).
        prior_sd: The prior's standard deviation in Elo.

    Returns:
        The fits, one per table of the batch.
    """
    points, games = np.asarray(points, dtype=float), np.asarray(games, dtype=float)
    batch, size = games.shape[0], games.shape[1]
    theta = np.zeros((batch, size + 1))
    prior = np.full(size + 1, 1 / prior_sd**2)
    for _ in range(MAX_ITERATIONS):
        gradient, precision = _gradient_and_precision(theta, points, games, prior, seat_advantage)
        step = np.linalg.solve(precision, gradient[..., None])[..., 0]
        largest = np.abs(step).max(axis=1, initial=0.0)
        theta += step * np.minimum(1.0, MAX_STEP / np.maximum(largest, 1e-300))[:, None]
        if largest.max(initial=0.0) < TOLERANCE:
            break
    _, precision = _gradient_and_precision(theta, points, games, prior, seat_advantage)
    played = (games.sum(axis=1) + games.sum(axis=2)) > 0
    raw = theta[:, :size]
    mean = np.where(played, raw, 0.0).sum(axis=1, keepdims=True) / np.maximum(played.sum(axis=1, keepdims=True), 1)
    return Fit(ratings=np.where(played, raw - mean, np.nan), seat=theta[:, size], precision=precision)


def _gradient_and_precision(
    theta: np.ndarray, points: np.ndarray, games: np.ndarray, prior: np.ndarray, seat_advantage: bool
) -> tuple[np.ndarray, np.ndarray]:
    """The gradient of the log posterior and minus its Hessian, for every fit of the batch."""
    size = games.shape[1]
    ratings, seat = theta[:, :size], theta[:, size]
    difference = ratings[:, :, None] - ratings[:, None, :] + seat[:, None, None]
    expected = expected_score(difference)
    residual = ELO * (points - games * expected)
    weight = ELO**2 * games * expected * (1 - expected)
    gradient = np.empty_like(theta)
    gradient[:, :size] = residual.sum(axis=2) - residual.sum(axis=1)
    gradient[:, size] = residual.sum(axis=(1, 2)) if seat_advantage else 0.0
    precision = np.zeros((len(theta), size + 1, size + 1))
    by_bot = weight.sum(axis=2) + weight.sum(axis=1)
    precision[:, :size, :size] = -weight - weight.transpose(0, 2, 1)
    precision[:, range(size), range(size)] += by_bot
    if seat_advantage:
        precision[:, :size, size] = precision[:, size, :size] = weight.sum(axis=2) - weight.sum(axis=1)
        precision[:, size, size] = weight.sum(axis=(1, 2))
    precision[:, range(size + 1), range(size + 1)] += prior
    gradient -= theta * prior
    return gradient, precision


def covariance(precision: np.ndarray) -> np.ndarray:
    """The Laplace covariance of the centred ratings and h, from one fit's precision.

    The ratings are reported centred on their mean, so their covariance is projected onto
    mean-zero vectors (differences between bots are unaffected).

    Args:
        precision: ``(bots + 1, bots + 1)`` from ``Fit.precision`` (one fit of the batch).
    """
    size = len(precision) - 1
    full = np.linalg.inv(precision)
    centre = np.eye(size + 1)
    centre[:size, :size] -= 1 / size if size else 0
    return centre @ full @ centre.T
