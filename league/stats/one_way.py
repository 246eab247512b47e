"""What a sweep says: the honest bound on a strength when one side took every unit.

Where one side won every one of n units (games, or seat-swapped pairs), the maximum-likelihood
strength is infinite and a normal interval around any finite fit is meaningless (a fit can print
``+17486.6 ± 339912.8``). What the results do say is a one-sided bound, found exactly: a side
that takes a unit with chance p takes all n with chance p^n, which is at least 5% only while
p >= 0.05^(1/n). So at 95% the side's chance of taking a unit is at least ``0.05 ** (1 / n)``
(the Clopper-Pearson bound for n successes in n), and its Elo at least ``400 log10(s / (1 - s))``
of that score s. For pentanomial pairs that all scored the same b (1 or 3/4, say) the t-value is
bounded the same way: at least s of the pairs score b, and the least t-value left is the one with
every other pair lost (score 0), t = (s b - 1/2) / (b sqrt(s (1 - s))).

For n of 1 to 4 the bound is below 0 Elo: so few units cannot say the sweeper is better.
"""

from __future__ import annotations

import math

LEVEL = 0.95
"""The bounds' confidence."""


def score_bound(units: int) -> float:
    """At 95%, the least chance of taking a unit for a side that took all ``units`` (0.05^(1/n))."""
    if units < 1:
        raise ValueError("a bound needs at least one unit")
    return (1 - LEVEL) ** (1 / units)


def elo_bound(units: int) -> float:
    """At 95%, the least Elo over its opponents of a side that won all ``units`` games (logistic Elo)."""
    score = score_bound(units)
    return 400 * math.log10(score / (1 - score))


def t_bound(units: int, pair_score: float) -> float:
    """At 95%, the least t-value (mean - 1/2) / sd of a side whose ``units`` pairs all scored ``pair_score`` (> 1/2).

    At least a share s = 0.05^(1/n) of its pairs score ``pair_score``; the least t-value of such a
    distribution puts the rest at 0 (a lower value lowers the mean by more than it widens the spread).
    """
    if not 0.5 < pair_score <= 1:
        raise ValueError("a pair score above 1/2 is bounded from below")
    share = score_bound(units)
    return (share * pair_score - 0.5) / (pair_score * math.sqrt(share * (1 - share)))


def bound_words(bound: float, won: bool, unit: str = "Elo") -> str:
    """The bound in words: "at least +182.7 Elo at 95%" for the sweeper, "at most -182.7 Elo at 95%" for the swept.

    Args:
        bound: The sweeper's bound (``elo_bound``, or a t-value's in normalized Elo).
        won: Whether the side spoken of is the sweeper (else its opponent, whose bound is the negative).
        unit: The scale's name.
    """
    return f"at least {bound:+.1f} {unit} at 95%" if won else f"at most {-bound:+.1f} {unit} at 95%"
