"""Small statistics for comparing rule variants: exact quantiles, Kendall's tau, a cluster bootstrap.

numpy only (no scipy). Scores can pass 2**53, so the quantiles and spreads of integer scores are
computed exactly (``Fraction``) and only turned into floats or text for display. Bootstrap
intervals resample clusters of games that are not independent of each other (a pair's two
seat-swapped games, a table's rotations, a solo run's games on one seed) and are drawn from a
seeded generator, so the same games always give the same intervals.
"""

from __future__ import annotations

import math
import zlib
from collections.abc import Hashable, Sequence
from decimal import ROUND_HALF_EVEN, Decimal
from fractions import Fraction

import numpy as np

CONFIDENCE = 0.95
BOOTSTRAP_SAMPLES = 2000
CELLS_PER_CHUNK = 2_000_000
"""Resampled cells drawn at once (samples times clusters), so a large league stays within memory."""


def exact_quantile(values: Sequence[int], share: Fraction) -> Fraction:
    """The ``share`` quantile of integers with linear interpolation (numpy's default), exactly.

    Args:
        values: The integers (at least one).
        share: Between 0 and 1, e.g. ``Fraction(1, 2)`` for the median.
    """
    ordered = sorted(values)
    position = (len(ordered) - 1) * share
    below = math.floor(position)
    if below + 1 >= len(ordered):
        return Fraction(ordered[-1])
    return ordered[below] + (position - below) * (ordered[below + 1] - ordered[below])


def exact_sd(values: Sequence[int]) -> float:
    """The population standard deviation of integers, the variance computed exactly (0.0 when empty)."""
    if not values:
        return 0.0
    count, total = len(values), sum(values)
    variance = Fraction(count * sum(value * value for value in values) - total * total, count * count)
    return math.sqrt(variance)


def decimal_text(value: Fraction) -> str:
    """A fraction as text with two decimals, rounded half to even, never through a float."""
    return str((Decimal(value.numerator) / Decimal(value.denominator)).quantize(Decimal("0.01"), ROUND_HALF_EVEN))


def kendall_tau(first: Sequence[float], second: Sequence[float]) -> float:
    """Kendall's tau-b between two rankings of the same items (1: same order, -1: reversed).

    Ties count as neither concordant nor discordant, and tau-b scales by the pairs untied in
    each ranking. NaN when fewer than two items, or when either ranking ties every pair.

    Args:
        first: One value per item.
        second: One value per item, the items in the same order as ``first``.
    """
    if len(first) != len(second):
        raise ValueError("kendall_tau needs two rankings of the same items")
    concordant = discordant = untied_first = untied_second = 0
    for i in range(len(first)):
        for j in range(i + 1, len(first)):
            a = (first[i] > first[j]) - (first[i] < first[j])
            b = (second[i] > second[j]) - (second[i] < second[j])
            untied_first += a != 0
            untied_second += b != 0
            concordant += a * b > 0
            discordant += a * b < 0
    if not untied_first or not untied_second:
        return math.nan
    return (concordant - discordant) / math.sqrt(untied_first * untied_second)


def bootstrap_seed(seed: int, *names: str) -> list[int]:
    """A generator seed for one interval: the caller's seed and stable hashes of what it is for.

    Each interval gets its own stream, so adding a variant to a league changes no other
    variant's intervals.
    """
    return [seed, *(zlib.crc32(name.encode()) for name in names)]


def cluster_interval(
    values: Sequence[float],
    clusters: Sequence[Hashable],
    rng: np.random.Generator,
    samples: int = BOOTSTRAP_SAMPLES,
) -> tuple[float, float]:
    """A percentile bootstrap interval (95%) of the mean of ``values``, resampling whole clusters.

    Each resample draws as many clusters as there are, with replacement, and takes the mean of
    all the values of the clusters drawn. NaN ends when there are no values.

    Args:
        values: One value per game.
        clusters: Per value, the cluster it belongs to (values of one cluster are resampled together).
        rng: A seeded generator.
        samples: Resamples.
    """
    if not len(values):
        return math.nan, math.nan
    keys = {key: k for k, key in enumerate(dict.fromkeys(clusters))}
    owner = np.array([keys[key] for key in clusters], dtype=np.int64)
    sums = np.bincount(owner, weights=np.asarray(values, dtype=np.float64), minlength=len(keys))
    counts = np.bincount(owner, minlength=len(keys)).astype(np.float64)
    means = []
    rows = max(1, CELLS_PER_CHUNK // len(keys))
    for start in range(0, samples, rows):
        drawn = rng.integers(0, len(keys), size=(min(rows, samples - start), len(keys)))
        means.append(sums[drawn].sum(axis=1) / counts[drawn].sum(axis=1))
    tail = (1 - CONFIDENCE) / 2
    low, high = np.quantile(np.concatenate(means), [tail, 1 - tail])
    return float(low), float(high)
