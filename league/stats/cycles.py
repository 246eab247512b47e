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
the 95% Wilson interval of the pair's score rate (draws half) lies above 1/2. The interval
treats a pair's pairwise results as independent; at tables they are not, so read it as a
little too eager there.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from league.stats.bradley_terry import points_and_games
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


def significant_cycles(bots: list[str], counts: np.ndarray) -> Cycles:
    """Every 3-cycle whose three results are each significant at 95% (Wilson interval above 1/2).

    Args:
        bots: The rated bots.
        counts: ``(bots, bots, 3)`` win/draw/loss counts of the first bot against the second.
    """
    if len(bots) < 3:
        return Cycles([], 0, f"With {len(bots)} rated bots there can be no 3-cycle.")
    scores, games = pair_scores(counts)
    beats = wilson_interval(scores, games)[0] > 0.5
    # axes (a, b, c): beats[a, b] and beats[b, c] and beats[c, a]
    a, b, c = np.nonzero(beats[:, :, None] & beats[None, :, :] & beats.T[:, None, :])
    first = (a < b) & (a < c)
    found = [(bots[x], bots[y], bots[z]) for x, y, z in zip(a[first], b[first], c[first], strict=True)]
    if not found:
        return Cycles([], 0, "No significant 3-cycle: no three bots beat each other in a circle at 95%.")
    named = "; ".join(f"{x} beats {y}, {y} beats {z}, {z} beats {x}" for x, y, z in found[:LISTED_CYCLES])
    more = f" (and {len(found) - LISTED_CYCLES} more)" if len(found) > LISTED_CYCLES else ""
    count = "1 significant 3-cycle" if len(found) == 1 else f"{len(found)} significant 3-cycles"
    return Cycles(found[:LISTED_CYCLES], len(found), f"{count}, each result at 95%: {named}{more}.")


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
