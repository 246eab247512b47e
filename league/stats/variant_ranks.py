"""Does a rule variant change who is strong? Kendall's tau between variants, with a paired bootstrap interval.

``correlation_row`` gives Kendall's tau-b between the bots' Bradley-Terry strengths under the
baseline and under a variant (``league.stats.variant_compare.variant_strengths``), both orders, and
a 95% interval for tau. Every variant is played on the same seeds and seatings, so each resampling
unit of ``league.stats.pairwise`` (a round's seat-swapped pair of games, or a table with its
rotations) exists under both variants. The interval resamples those units, the same draw for both
variants: each resample refits both variants' strengths (one batched ``league.stats.bradley_terry.fit``
per variant over ``PairwiseResults.counts(weights)``) and takes tau between them; the interval is the
2.5% and 97.5% percentiles of the resampled taus, widened to hold the point estimate where the
resamples fall on one side of it (a percentile interval of a bounded figure can miss its own
estimate: tau 1 between two orders whose close neighbours swap in some resamples).

The draw depends on the games alone, never on the order of the bot list: units are ordered by
their identity (the round and the names of their bots), the fits are over the bots in name order,
and strengths equal to ``TIE_DECIMALS`` places count as tied, so float noise never breaks a tie one
way or the other. The generator is seeded as the comparison's other intervals
(``league.stats.variant_stats.bootstrap_seed``), so adding a variant changes no other variant's interval.

What the interval says: below 0 (both ends), the variant reverses the order more than it keeps it,
beyond sampling noise; above 0, the orders agree beyond noise. An interval below 1 does not show
that the rule changes the order: each variant's strengths are measured with error, and that
error alone brings tau below 1. Below ``MIN_RANKED_BOTS`` bots rated under both, or with fewer than
``league.stats.variant_pairs.MIN_CLUSTERS`` units, there is no interval: tau between two or three bots
says almost nothing, and a bootstrap over a handful of units nothing about its own width.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

import numpy as np

from league.stats.bradley_terry import fit, points_and_games
from league.stats.game_record import GameRecord
from league.stats.pairwise import PairwiseResults, pairwise_results, unit_draws
from league.stats.ties import best_first
from league.stats.variant_pairs import MIN_CLUSTERS
from league.stats.variant_stats import CONFIDENCE, bootstrap_seed, kendall_tau

MIN_RANKED_BOTS = 4
"""Fewest bots rated under both variants for an interval of tau (with 2 or 3, tau takes 3 or 4 values)."""

TIE_DECIMALS = 4
"""Strengths (Elo) are compared rounded to this many decimals, so that float noise never breaks a tie."""

FIT_CHUNK = 250
"""Resamples fitted at once, so that memory stays bounded however many bots and units there are."""

RANK_CORRELATION = "kendall_tau"
"""What the interval's generator is seeded for (with the two variants' names)."""


def correlation_row(
    variant: str,
    baseline: str,
    mine: dict[str, float],
    theirs: dict[str, float],
    games: Sequence[GameRecord],
    baseline_games: Sequence[GameRecord],
    seed: int,
    samples: int,
) -> dict[str, Any]:
    """Kendall's tau between the strengths of the bots rated under both variants, its 95% interval, both orders.

    Args:
        variant: The variant.
        baseline: The variant it is compared with.
        mine: The variant's strengths (Elo) by bot.
        theirs: The baseline's.
        games: The variant's scored games (the ones ``mine`` was fitted on).
        baseline_games: The baseline's.
        seed: The comparison's seed.
        samples: Bootstrap resamples.

    Returns:
        variant, baseline, bots (rated under both), kendall_tau, tau_low_95 and tau_high_95 (NaN
        below ``MIN_RANKED_BOTS`` bots, below ``MIN_CLUSTERS`` units or without samples), baseline_order
        and variant_order (best first).
    """
    common = sorted(name for name in theirs if name in mine)
    tau = kendall_tau([_level(theirs[name]) for name in common], [_level(mine[name]) for name in common])
    low = high = math.nan
    if len(common) >= MIN_RANKED_BOTS and samples > 0 and not math.isnan(tau):
        rng = np.random.default_rng(bootstrap_seed(seed, variant, baseline, RANK_CORRELATION))
        low, high = tau_interval(resampled_taus(common, games, baseline_games, rng, samples))
        if not math.isnan(low):
            low, high = min(low, tau), max(high, tau)
    return {
        "variant": variant,
        "baseline": baseline,
        "bots": len(common),
        "kendall_tau": round(tau, 3),
        "tau_low_95": round(low, 3),
        "tau_high_95": round(high, 3),
        "baseline_order": [common[k] for k in best_first(common, [theirs[name] for name in common])],
        "variant_order": [common[k] for k in best_first(common, [mine[name] for name in common])],
    }


def _level(elo: float) -> float:
    """A strength as tau compares it: rounded to ``TIE_DECIMALS`` places."""
    return round(elo, TIE_DECIMALS)


def tau_interval(resampled: np.ndarray) -> tuple[float, float]:
    """The 2.5% and 97.5% percentiles of ``resampled_taus`` (NaN, NaN where there are none)."""
    if np.isnan(resampled).all():
        return math.nan, math.nan
    tail = (1 - CONFIDENCE) / 2
    low, high = np.nanquantile(resampled, [tail, 1 - tail])
    return float(low), float(high)


def resampled_taus(
    common: Sequence[str],
    games: Sequence[GameRecord],
    baseline_games: Sequence[GameRecord],
    rng: np.random.Generator,
    samples: int,
) -> np.ndarray:
    """Tau between the variants' refitted strengths on each paired bootstrap resample of the units (module docstring).

    Args:
        common: The bots rated under both variants (in any order).
        games: The variant's scored games (in any order).
        baseline_games: The baseline's.
        rng: The seeded generator.
        samples: Resamples.

    Returns:
        ``(samples,)`` taus (NaN where a resample ranks no two bots apart in both); empty with
        fewer than ``MIN_CLUSTERS`` units.
    """
    mine, theirs = _results(games), _results(baseline_games)
    mine_units, theirs_units = unit_identities(mine), unit_identities(theirs)
    universe = sorted(set(mine_units) | set(theirs_units))
    if len(universe) < MIN_CLUSTERS:
        return np.zeros(0)
    position = {unit: k for k, unit in enumerate(universe)}
    mine_columns = np.array([position[unit] for unit in mine_units], dtype=np.int64)
    theirs_columns = np.array([position[unit] for unit in theirs_units], dtype=np.int64)
    names = sorted(common)
    mine_bots = [mine.bots.index(name) for name in names]
    theirs_bots = [theirs.bots.index(name) for name in names]
    taus = [np.zeros(0)]
    for start in range(0, samples, FIT_CHUNK):
        weights = unit_draws(len(universe), min(FIT_CHUNK, samples - start), rng)
        mine_elo = _refit(mine, weights[:, mine_columns])[:, mine_bots]
        theirs_elo = _refit(theirs, weights[:, theirs_columns])[:, theirs_bots]
        taus.append(kendall_taus(np.round(theirs_elo, TIE_DECIMALS), np.round(mine_elo, TIE_DECIMALS)))
    return np.concatenate(taus)


def _results(games: Sequence[GameRecord]) -> PairwiseResults:
    """A variant's pairwise results over the bots that played it, in name order."""
    return pairwise_results(sorted({name for record in games for name in record.spec.seats}), games)


def _refit(results: PairwiseResults, weights: np.ndarray) -> np.ndarray:
    """``(samples, bots)`` the Bradley-Terry strengths of each resample (``weights``: per resample, per unit)."""
    return fit(*points_and_games(results.counts(weights)), seat_advantage=not results.tables).ratings


def unit_identities(results: PairwiseResults) -> list[tuple[int, tuple[str, ...]]]:
    """Per resampling unit, what it is under any variant: its round and the names of its bots, sorted.

    A round's seat-swapped pair of games is its round and its two bots; a table is its round and
    the bots at it. The same seed and seating give the same identity under every variant.
    """
    size = len(results.bots)
    members: list[set[str]] = [set() for _ in range(results.units)]
    first, second = results.row_cell // max(size, 1), results.row_cell % max(size, 1)
    for unit, a, b in zip(results.row_unit.tolist(), first.tolist(), second.tolist(), strict=True):
        members[unit].update((results.bots[a], results.bots[b]))
    return [(int(round_), tuple(sorted(names))) for round_, names in zip(results.unit_round, members, strict=True)]


def kendall_taus(first: np.ndarray, second: np.ndarray) -> np.ndarray:
    """Kendall's tau-b row by row (``league.stats.variant_stats.kendall_tau`` of every row, at once).

    An item that is NaN in either row of a pair is left out of that row (a bot without games in
    a resample); a row without a pair untied in each ranking gives NaN.

    Args:
        first: ``(rows, items)`` one ranking per row.
        second: ``(rows, items)`` the other ranking of the same items.
    """
    first, second = np.asarray(first, dtype=float), np.asarray(second, dtype=float)
    present = ~(np.isnan(first) | np.isnan(second))
    upper = np.triu(np.ones((first.shape[1],) * 2, dtype=bool), k=1)
    pairs = present[:, :, None] & present[:, None, :] & upper[None]
    with np.errstate(invalid="ignore"):
        a = np.where(pairs, np.sign(first[:, :, None] - first[:, None, :]), 0.0)
        b = np.where(pairs, np.sign(second[:, :, None] - second[:, None, :]), 0.0)
    untied = (a != 0).sum(axis=(1, 2)) * (b != 0).sum(axis=(1, 2))
    agreement = (a * b).sum(axis=(1, 2))
    with np.errstate(invalid="ignore", divide="ignore"):
        return np.where(untied > 0, agreement / np.sqrt(np.maximum(untied, 1)), np.nan)
