"""Is strength one number? The transitive share of the results and the significant 3-cycles.

Following Balduzzi et al. 2018 ("Re-evaluating Evaluation"), the results are an antisymmetric
matrix F over the pairs that met: F[i, j] is the log-odds of i's smoothed score rate against j
((points + 1) / (games + 2), draws half a point, both seat orders pooled). Its Hodge (Schur)
decomposition splits F into a transitive part, the gradient phi_i - phi_j of the potential phi
that fits F best by least squares over the graph of pairs that met (every pair one edge), and a
cyclic rest (rock-paper-scissors). The transitive share ||grad||^2 / ||F||^2 says how much of the
results one number per bot explains: about 1 for a league ordered by strength, about 0 for a
pure rock-paper-scissors league.

A 3-cycle is three bots a, b, c where a beats b, b beats c and c beats a, each significantly:
the 95% Wilson interval of the pair's score rate (draws half) lies above 1/2, counted on
independent units (``pair_evidence``). A pair's results within one resampling unit of
``league.stats.pairwise`` (the seat-swapped games of a round, which share a seed; every rotation and
variant of a table) can be strongly correlated, even identical: they are not that many
independent games, while units are independent of each other (each its own seed). So the score
rate's variance is the cluster-robust one over units (the ratio estimator's, as survey statistics
use for clustered samples: right whatever the correlation inside a unit, and with m / (m - 1) for
few units), and the Wilson interval is taken on the effective number of games
n_eff = n / max(1, deff), deff (Kish's design effect) being that variance over the binomial one of
n independent games: the Wilson interval's variance then matches the clustered one, while it
keeps its good behaviour near rates of 0 and 1, where a bootstrap over units collapses to a
point. Where a pair's rate is
exactly 0 or 1 no variance shows how correlated a unit's games are, and each unit counts as one
game (the effective number of units; the cautious end, right for deterministic games). The
former method, every pairwise result independent, called a cycle from a few tables whose
rotations all ended alike.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from league.stats.bradley_terry import points_and_games
from league.stats.pairwise import DRAW, WIN, PairwiseResults
from league.stats.strength import wilson_interval

NOISY = 0.5
"""Noise share of ||F||^2 from which the transitive share is said to say little."""

EXACT_GAMES = 400
"""Up to this many games a pair's logit variance is computed exactly (``logit_variance``)."""

LISTED_CYCLES = 10
"""Cycles named in the sentence (all are counted)."""


@dataclass(frozen=True)
class Transitivity:
    """How much of the results general strength explains.

    Attributes:
        share: ||transitive part||^2 / ||F||^2 (0 to 1); None when undefined (every pair even, or no pair).
        cycle_rank: Independent cycles in the graph of pairs that met (edges - bots + components);
            0 means no cycle is possible and the share is 1 by construction.
        noise: About how much of ||F||^2 sampling noise alone would give: the variance of each
            pair's smoothed logit (``logit_variance``) summed over pairs, over ||F||^2; None when undefined.
        chance_share: The share pure noise would give: (bots - components) / pairs that met, the
            gradients' share of the dimensions.
        meaning: One sentence saying what the figure means.
    """

    share: float | None
    cycle_rank: int
    noise: float | None
    chance_share: float | None
    meaning: str

    @property
    def noisy(self) -> bool:
        """Whether sampling noise alone accounts for half of ||F||^2 or more (the share then says little)."""
        return self.noise is not None and self.noise >= NOISY


@dataclass(frozen=True)
class Cycles:
    """The significant 3-cycles (a beats b, b beats c, c beats a; each at 95%).

    Attributes:
        cycles: The first ``LISTED_CYCLES`` cycles, each (a, b, c).
        total: How many there are.
        meaning: One sentence naming them.
    """

    cycles: list[tuple[str, str, str]]
    total: int
    meaning: str


def pair_scores(counts: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Points of i against j (both seat orders, draws half) and the games of each unordered pair.

    Args:
        counts: ``(bots, bots, 3)`` win/draw/loss counts of the first bot against the second.
    """
    points, games = points_and_games(counts)
    return points + (games - points).T, games + games.T


def transitivity(bots: list[str], counts: np.ndarray) -> Transitivity:
    """The transitive share of the Hodge decomposition of the pairwise results (module docstring).

    Args:
        bots: The rated bots.
        counts: ``(bots, bots, 3)`` win/draw/loss counts of the first bot against the second.
    """
    scores, games = pair_scores(counts)
    first, second = np.nonzero(np.triu(games > 0, k=1))
    size = len(bots)
    components = _components(size, first, second)
    cycle_rank = len(first) - size + components
    if not len(first):
        return Transitivity(None, 0, None, None, "No pair of bots met, so there is nothing to decompose.")
    rate = (scores[first, second] + 1) / (games[first, second] + 2)
    flow = np.log(rate / (1 - rate))
    total = float(np.sum(flow**2))
    noise = float(np.sum(logit_variance(games[first, second], rate))) / total if total else None
    chance = (size - components) / len(first)
    if cycle_rank == 0:
        reason = "there is one pair" if size == 2 else "the pairs that met form no cycle"
        meaning = f"Results are transitive by construction here: {reason}, so no cycle can show."
        return Transitivity(1.0 if total else None, 0, noise, chance, meaning)
    if not total:
        meaning = "Every pair is even, so there is neither strength nor cycle to measure."
        return Transitivity(None, cycle_rank, None, chance, meaning)
    laplacian = np.zeros((size, size))
    np.add.at(laplacian, (first, first), 1.0)
    np.add.at(laplacian, (second, second), 1.0)
    np.add.at(laplacian, (first, second), -1.0)
    np.add.at(laplacian, (second, first), -1.0)
    divergence = np.bincount(first, weights=flow, minlength=size) - np.bincount(second, weights=flow, minlength=size)
    potential = np.linalg.lstsq(laplacian, divergence, rcond=None)[0]
    gradient = potential[first] - potential[second]
    share = min(1.0, float(np.sum(gradient**2)) / total)
    meaning = (
        f"General strength (one number per bot) explains {share:.0%} of the pairwise results' log-odds;"
        f" the other {1 - share:.0%} is cyclic, rock-paper-scissors (Hodge decomposition, Balduzzi et al. 2018)."
    )
    if noise is not None and noise >= NOISY:
        meaning = (
            f"General strength (one number per bot) explains {share:.0%} of the pairwise results' log-odds, but"
            f" sampling noise alone makes about {min(noise, 1):.0%} of them (pure chance would give a share near"
            f" {chance:.0%}): too few games, or too even a field, to tell strength from cycles."
        )
    return Transitivity(share, cycle_rank, noise, chance, meaning)


def pair_evidence(results: PairwiseResults) -> tuple[np.ndarray, np.ndarray]:
    """Each pair's score rate and its effective number of independent games, counted on units (module docstring).

    Per unordered pair and unit u, p_u are i's points against j (draws half) and n_u their games;
    R = sum p_u / sum n_u. The ratio estimator's cluster-robust variance over the m units where the
    pair met, m / (m - 1) sum (p_u - R n_u)^2 / (sum n_u)^2, over the binomial R (1 - R) / n of n
    independent games is the design effect deff; n_eff = n / max(1, deff). Where R is 0 or 1, or the
    pair met in one unit, deff cannot be estimated and n_eff is (sum n_u)^2 / sum n_u^2, the
    number of units when they are of one size.

    Args:
        results: The league's pairwise results.

    Returns:
        ``(bots, bots)`` i's score rate against j (NaN where they never met) and the effective
        number of games of the pair (symmetric; 0 where they never met).
    """
    size = len(results.bots)
    first, second = results.row_cell // max(size, 1), results.row_cell % max(size, 1)
    low, high = np.minimum(first, second), np.maximum(first, second)
    won = np.select([results.row_outcome == WIN, results.row_outcome == DRAW], [1.0, 0.5], 0.0)
    low_points = results.row_count * np.where(first == low, won, 1 - won)  # the lower-numbered bot's points
    keys, row_key = np.unique((results.row_unit * size + low) * size + high, return_inverse=True)
    unit_points = np.bincount(row_key, weights=low_points, minlength=len(keys))
    unit_games = np.bincount(row_key, weights=results.row_count, minlength=len(keys))
    pairs, pair_of = np.unique(keys % max(size * size, 1), return_inverse=True)
    games = np.bincount(pair_of, weights=unit_games, minlength=len(pairs))
    rate = np.bincount(pair_of, weights=unit_points, minlength=len(pairs)) / games
    units = np.bincount(pair_of, minlength=len(pairs))
    squares = np.bincount(pair_of, weights=(unit_points - rate[pair_of] * unit_games) ** 2, minlength=len(pairs))
    clustered = units / np.maximum(units - 1, 1) * squares / games**2
    binomial = rate * (1 - rate) / games
    estimable = (units > 1) & (binomial > 0)
    deff = np.where(estimable, clustered / np.where(estimable, binomial, 1.0), 1.0)
    whole_units = games**2 / np.bincount(pair_of, weights=unit_games**2, minlength=len(pairs))
    effective = np.where(estimable, games / np.maximum(1.0, deff), whole_units)
    rates, counted = np.full((size, size), np.nan), np.zeros((size, size))
    i, j = pairs // max(size, 1), pairs % max(size, 1)
    rates[i, j], rates[j, i] = rate, 1 - rate
    counted[i, j] = counted[j, i] = effective
    return rates, counted


def significant_cycles(results: PairwiseResults) -> Cycles:
    """Every 3-cycle whose three results are each significant at 95% (Wilson interval above 1/2, on units).

    Args:
        results: The league's pairwise results: each pair's Wilson interval is taken on its
            effective number of independent games (``pair_evidence``).
    """
    bots = results.bots
    if len(bots) < 3:
        return Cycles([], 0, f"With {len(bots)} rated bots there can be no 3-cycle.")
    rates, effective = pair_evidence(results)
    beats = wilson_interval(np.nan_to_num(rates) * effective, effective)[0] > 0.5
    # axes (a, b, c): beats[a, b] and beats[b, c] and beats[c, a]
    a, b, c = np.nonzero(beats[:, :, None] & beats[None, :, :] & beats.T[:, None, :])
    first = (a < b) & (a < c)
    found = [(bots[x], bots[y], bots[z]) for x, y, z in zip(a[first], b[first], c[first], strict=True)]
    if not found:
        return Cycles([], 0, "No significant 3-cycle: no three bots beat each other in a circle at 95%.")
    named = "; ".join(f"{x} beats {y}, {y} beats {z}, {z} beats {x}" for x, y, z in found[:LISTED_CYCLES])
    more = f" (and {len(found) - LISTED_CYCLES} more)" if len(found) > LISTED_CYCLES else ""
    count = "1 significant 3-cycle" if len(found) == 1 else f"{len(found)} significant 3-cycles"
    together = "a table's games" if results.tables else "a round's seat-swapped games"
    counted = f" ({together} counted as one unit)"
    return Cycles(found[:LISTED_CYCLES], len(found), f"{count}, each result at 95%{counted}: {named}{more}.")


def logit_variance(games: np.ndarray, rate: np.ndarray) -> np.ndarray:
    """The variance of logit((x + 1) / (games + 2)) for x ~ Binomial(games, rate), per pair.

    Exact up to ``EXACT_GAMES`` games (draws are taken as decisive: a little too high then), the
    delta method 1 / (games rate (1 - rate)) above, where it is close.
    """
    games, rate = np.asarray(games, dtype=float), np.asarray(rate, dtype=float)
    variance = 1 / (games * rate * (1 - rate))
    trials = np.rint(games).astype(np.int64)
    small = trials <= EXACT_GAMES
    if small.any():
        n, q = trials[small][:, None], rate[small][:, None]
        x = np.arange(EXACT_GAMES + 1)[None, :]
        possible = x <= n
        log_factorial = np.cumsum(np.log(np.maximum(np.arange(EXACT_GAMES + 1), 1)))
        log_pmf = (
            log_factorial[n]
            - log_factorial[np.minimum(x, n)]
            - log_factorial[np.maximum(n - x, 0)]
            + x * np.log(q)
            + (n - x) * np.log(1 - q)
        )
        pmf = np.where(possible, np.exp(np.where(possible, log_pmf, 0.0)), 0.0)
        smoothed = np.clip((x + 1) / (n + 2), 1e-12, 1 - 1e-12)
        value = np.log(smoothed / (1 - smoothed))
        mean = np.sum(pmf * value, axis=1, keepdims=True)
        variance[small] = np.sum(pmf * (value - mean) ** 2, axis=1)
    return variance


def _components(size: int, first: np.ndarray, second: np.ndarray) -> int:
    """Connected components of the graph of pairs that met (a bot alone is one)."""
    parent = list(range(size))

    def root(node: int) -> int:
        while parent[node] != node:
            parent[node] = parent[parent[node]]
            node = parent[node]
        return node

    for x, y in zip(first.tolist(), second.tolist(), strict=True):
        parent[root(x)] = root(y)
    return len({root(node) for node in range(size)}) if size else 0
