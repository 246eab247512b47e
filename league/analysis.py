"""Is the ranking real? An order-free Bradley-Terry fit with bootstrap intervals.

TrueSkill depends on the order games are rated in; the Bradley-Terry model does not: it finds
strengths s_i so that bot i beats bot j with probability s_i / (s_i + s_j), from all games at
once (Hunter's MM algorithm; a draw counts half a win each way). Strengths are shown on the Elo
scale (400 log10), centred on 0. Resampling the games with replacement (a seeded RNG, so the
report stays the same for the same games) gives 95% intervals, and for each pair of neighbours
in the ranking the share of resamples in which the higher one is still stronger.
"""

from __future__ import annotations

import itertools
from collections.abc import Iterator, Sequence
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


def _pairwise(bots: Sequence[str], records: Sequence[dict[str, Any]]) -> Iterator[tuple[int, int, int, int]]:
    """Every game's pairwise results: (game's position in ``records``, bot a, bot b, a's outcome).

    The outcome is 0 when a ranked better than b (a win), 1 for the same rank (a draw), 2 worse.
    """
    index = {name: k for k, name in enumerate(bots)}
    for number, record in enumerate(records):
        seats, ranks = record["spec"]["seats"], record["result"]["ranks"]
        for i, j in itertools.combinations(range(len(seats)), 2):
            outcome = 0 if ranks[i] < ranks[j] else 1 if ranks[i] == ranks[j] else 2
            yield number, index[seats[i]], index[seats[j]], outcome


def pair_counts(bots: Sequence[str], records: Sequence[dict[str, Any]]) -> np.ndarray:
    """counts[a, b, k]: games of bot a against bot b that a won (k=0), drew (1) or lost (2)."""
    counts = np.zeros((len(bots), len(bots), 3), dtype=np.int64)
    for _, a, b, outcome in _pairwise(bots, records):
        counts[a, b, outcome] += 1
        counts[b, a, 2 - outcome] += 1
    return counts


def fit(counts: np.ndarray, iterations: int = 200) -> np.ndarray:
    """Bradley-Terry strengths on the Elo scale (mean 0 over the bots that played) for one or many count tables.

    A bot without games (in a resample too) has no strength: NaN.

    Args:
        counts: ``(..., bots, bots, 3)`` win/draw/loss counts (leading axes: resamples).
        iterations: MM iterations.
    """
    games = counts.sum(axis=-1).astype(float)
    met = games > 0
    played = met.any(axis=-1)
    games = games + 2 * PRIOR_GAMES * met
    wins = (counts[..., 0] + 0.5 * counts[..., 1] + PRIOR_GAMES * met).sum(axis=-1)
    strength = np.ones(wins.shape)
    players = np.maximum(played.sum(axis=-1, keepdims=True), 1)
    for _ in range(iterations):
        pair_sums = strength[..., :, None] + strength[..., None, :]
        denominator = (games / pair_sums).sum(axis=-1)
        updated = np.where(denominator > 0, wins / np.where(denominator > 0, denominator, 1), strength)
        centre = np.where(played, np.log(updated), 0.0).sum(axis=-1, keepdims=True) / players
        strength = updated / np.exp(centre)
    return np.where(played, 400 * np.log10(strength), np.nan)


def bootstrap(
    bots: Sequence[str], records: Sequence[dict[str, Any]], samples: int = 200, seed: int = 0
) -> tuple[list[Strength], dict[tuple[str, str], float]]:
    """Strengths with 95% intervals, and for ranked neighbours the share of resamples keeping their order.

    Each pair's games are resampled with replacement (a multinomial draw of its wins, draws and
    losses), so the cost does not grow with the number of games. Leagues of tables (games of
    more than two seats) resample whole tables instead, every rotation and variant of a table
    together: the pairwise results of one table, and of its rotations on one deal, are not
    independent of each other. Bots without games are left out.

    Args:
        bots: Every bot.
        records: Scored games.
        samples: Resamples.
        seed: Seeds the resampling (the same games always give the same intervals).

    Returns:
        The strengths best first, and {(higher, lower): share} for each pair of neighbours.
    """
    playing = {name for record in records for name in record["spec"]["seats"]}
    bots = [name for name in bots if name in playing]
    counts = pair_counts(bots, records)
    point = fit(counts)
    order = sorted(range(len(bots)), key=lambda k: (-point[k], bots[k]))
    rng = np.random.default_rng(seed)
    if any(len(record["spec"]["seats"]) > 2 for record in records):
        resampled = _resample_tables(bots, records, samples, rng)
    else:
        resampled = _resample_pairs(counts, samples, rng)
    elo = fit(resampled, iterations=100)
    strengths = []
    for k in order:
        low, high = np.nanquantile(elo[:, k], [0.025, 0.975]) if samples else (point[k], point[k])
        strengths.append(Strength(bots[k], float(point[k]), float(low), float(high)))
    shares = {
        (bots[higher], bots[lower]): float(np.mean(elo[:, higher] > elo[:, lower])) if samples else 0.0
        for higher, lower in itertools.pairwise(order)
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


def _resample_tables(
    bots: Sequence[str], records: Sequence[dict[str, Any]], samples: int, rng: np.random.Generator
) -> np.ndarray:
    """Count tables of ``samples`` resamples of whole tables (``spec.round``: a table's number).

    Each drawn table brings all its games (every rotation and variant), each game all its
    pairwise results.
    """
    size = len(bots)
    table_of = {number: record["spec"]["round"] for number, record in enumerate(records)}
    tables = {table: k for k, table in enumerate(sorted(set(table_of.values())))}
    cells, owners = [], []
    for number, a, b, outcome in _pairwise(bots, records):
        cells += [(a * size + b) * 3 + outcome, (b * size + a) * 3 + 2 - outcome]
        owners += [tables[table_of[number]]] * 2
    flat, owner = np.array(cells, dtype=np.int64), np.array(owners, dtype=np.int64)
    resampled = np.zeros((samples, size * size * 3), dtype=np.int64)
    for sample in range(samples):
        weights = rng.multinomial(len(tables), np.full(len(tables), 1 / len(tables))) if tables else []
        resampled[sample] = np.bincount(flat, weights=np.asarray(weights)[owner], minlength=size * size * 3)
    return resampled.reshape(samples, size, size, 3)
