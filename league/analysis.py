"""Is the ranking real? An order-free Bradley-Terry fit with bootstrap intervals.

TrueSkill depends on the order games are rated in; the Bradley-Terry model does not: it finds
strengths s_i so that bot i beats bot j with probability s_i / (s_i + s_j), from all games at
once (Hunter's MM algorithm; a draw counts half a win each way). Strengths are shown on the Elo
scale (400 log10), centred on 0. Resampling the games with replacement (a seeded RNG, so the
report stays the same for the same games) gives 95% intervals, and for each pair of neighbours
in the ranking the share of resamples in which the higher one is still stronger.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

PRIOR_GAMES = 0.5
"""Half a virtual draw between every pair that met, so unbeaten or winless bots stay finite."""


@dataclass(frozen=True)
class Strength:
    """One bot's Bradley-Terry strength.

    Attributes:
        name: The bot.
        elo: Strength on the Elo scale (mean 0 over the bots).
        low: Lower end of the bootstrap 95% interval.
        high: Upper end of the bootstrap 95% interval.
    """

    name: str
    elo: float
    low: float
    high: float


def pair_counts(bots: Sequence[str], records: Sequence[dict[str, Any]]) -> np.ndarray:
    """counts[a, b, k]: games of bot a against bot b that a won (k=0), drew (1) or lost (2)."""
    index = {name: k for k, name in enumerate(bots)}
    counts = np.zeros((len(bots), len(bots), 3), dtype=np.int64)
    for record in records:
        seats, ranks = record["spec"]["seats"], record["result"]["ranks"]
        for i in range(len(seats)):
            for j in range(i + 1, len(seats)):
                a, b = index[seats[i]], index[seats[j]]
                outcome = 0 if ranks[i] < ranks[j] else 1 if ranks[i] == ranks[j] else 2
                counts[a, b, outcome] += 1
                counts[b, a, 2 - outcome] += 1
    return counts


def fit(counts: np.ndarray, iterations: int = 200) -> np.ndarray:
    """Bradley-Terry strengths on the Elo scale (mean 0) for one or many count tables.

    Args:
        counts: ``(..., bots, bots, 3)`` win/draw/loss counts (leading axes: resamples).
        iterations: MM iterations.
    """
    games = counts.sum(axis=-1).astype(float)
    met = games > 0
    games = games + 2 * PRIOR_GAMES * met
    wins = (counts[..., 0] + 0.5 * counts[..., 1] + PRIOR_GAMES * met).sum(axis=-1)
    strength = np.ones(wins.shape)
    for _ in range(iterations):
        pair_sums = strength[..., :, None] + strength[..., None, :]
        denominator = (games / pair_sums).sum(axis=-1)
        updated = np.where(denominator > 0, wins / np.where(denominator > 0, denominator, 1), strength)
        strength = updated / np.exp(np.log(updated).mean(axis=-1, keepdims=True))
    return 400 * np.log10(strength)


def bootstrap(
    bots: Sequence[str], records: Sequence[dict[str, Any]], samples: int = 200, seed: int = 0
) -> tuple[list[Strength], dict[tuple[str, str], float]]:
    """Strengths with 95% intervals, and for ranked neighbours the share of resamples keeping their order.

    Each pair's games are resampled with replacement (a multinomial draw of its wins, draws and
    losses), so the cost does not grow with the number of games. Games of more than two seats
    are resampled whole instead: a table's pairwise results are not independent of each other.

    Args:
        bots: Every bot.
        records: Scored games.
        samples: Resamples.
        seed: Seeds the resampling (the same games always give the same intervals).

    Returns:
        The strengths best first, and {(higher, lower): share} for each pair of neighbours.
    """
    counts = pair_counts(bots, records)
    point = fit(counts)
    order = sorted(range(len(bots)), key=lambda k: (-point[k], bots[k]))
    rng = np.random.default_rng(seed)
    if any(len(record["spec"]["seats"]) > 2 for record in records):
        resampled = _resample_games(bots, records, samples, rng)
    else:
        resampled = _resample_pairs(counts, samples, rng)
    elo = fit(resampled, iterations=100)
    strengths = []
    for k in order:
        low, high = np.quantile(elo[:, k], [0.025, 0.975]) if samples else (point[k], point[k])
        strengths.append(Strength(bots[k], float(point[k]), float(low), float(high)))
    shares = {
        (bots[higher], bots[lower]): float(np.mean(elo[:, higher] > elo[:, lower])) if samples else 0.0
        for higher, lower in zip(order, order[1:], strict=False)
    }
    return strengths, shares


def _resample_pairs(counts: np.ndarray, samples: int, rng: np.random.Generator) -> np.ndarray:
    """Count tables of ``samples`` resamples, each pair's games drawn apart (two-seat games)."""
    resampled = np.zeros((samples, *counts.shape), dtype=np.int64)
    for a in range(counts.shape[0]):
        for b in range(a + 1, counts.shape[0]):
            total = int(counts[a, b].sum())
            if total:
                draws = rng.multinomial(total, counts[a, b] / total, size=samples)
                resampled[:, a, b] = draws
                resampled[:, b, a] = draws[:, ::-1]
    return resampled


def _resample_games(
    bots: Sequence[str], records: Sequence[dict[str, Any]], samples: int, rng: np.random.Generator
) -> np.ndarray:
    """Count tables of ``samples`` resamples of whole games (each game keeps all its pairwise results)."""
    index = {name: k for k, name in enumerate(bots)}
    cells, games = [], []
    size = len(bots)
    for number, record in enumerate(records):
        seats, ranks = record["spec"]["seats"], record["result"]["ranks"]
        for i in range(len(seats)):
            for j in range(i + 1, len(seats)):
                a, b = index[seats[i]], index[seats[j]]
                outcome = 0 if ranks[i] < ranks[j] else 1 if ranks[i] == ranks[j] else 2
                cells += [(a * size + b) * 3 + outcome, (b * size + a) * 3 + 2 - outcome]
                games += [number, number]
    flat, owner = np.array(cells, dtype=np.int64), np.array(games, dtype=np.int64)
    resampled = np.zeros((samples, size * size * 3), dtype=np.int64)
    for sample in range(samples):
        weights = rng.multinomial(len(records), np.full(len(records), 1 / len(records))) if records else []
        resampled[sample] = np.bincount(flat, weights=np.asarray(weights)[owner], minlength=size * size * 3)
    return resampled.reshape(samples, size, size, 3)
