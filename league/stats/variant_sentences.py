"""The sentences of a variant comparison: how much a variant differs from the baseline, and who is strong.

Kept apart from the numbers (``league.stats.variant_compare``): these functions only word what the
comparison's rows already hold.
"""

from __future__ import annotations

import math
from typing import Any

import pandas as pd

from league.stats.variant_ranks import MIN_RANKED_BOTS

WORDS = {
    "score": ("higher", "lower"),
    "plies": ("longer", "shorter"),
    "draw_rate": ("higher", "lower"),
    "first_seat_points": ("higher", "lower"),
}
"""Per figure, the words for a positive and a negative difference."""


def amount(value: float) -> str:
    """A magnitude for people: thousands separated, fewer decimals the larger it is (``2,413``, ``18.2``, ``0.04``)."""
    size = abs(value)
    if size >= 100:
        return f"{value:,.0f}"
    if size >= 10:
        return f"{value:,.1f}"
    return f"{value:,.2f}"


def span_words(low: float, high: float, up: str, down: str, scale: float = 1.0) -> str:
    """An interval in words: ``1,980 to 2,850 lower``, or ``40 lower to 64 higher`` when it spans 0."""
    low, high = low * scale, high * scale
    if low < 0 < high:
        return f"{amount(-low)} {down} to {amount(high)} {up}"
    if high <= 0:
        return f"{amount(abs(high))} to {amount(abs(low))} {down}"
    return f"{amount(low)} to {amount(high)} {up}"


def figure_clause(row: dict[str, Any], label: str, per: str) -> str:
    """One figure's difference in words, its interval, and whether the interval excludes 0."""
    figure, mean = row["figure"], row["mean_difference"]
    up, down = WORDS[figure]
    scale, unit, noun = {
        "score": (1.0, "", label),
        "plies": (1.0, " plies", "games"),
        "draw_rate": (100.0, " percentage points", "draw rate"),
        "first_seat_points": (100.0, " percentage points", "first seat's share of the points"),
    }[figure]
    after = f" {per}" if figure == "score" else ""
    if mean == row["low_95"] == row["high_95"] == 0:
        return f"{noun} the same in every paired game"
    if mean == 0:
        text = f"{noun} the same on average{after}"
    else:
        text = f"{noun} {amount(abs(mean) * scale)}{unit} {up if mean > 0 else down}{after}"
    details = []
    if not math.isnan(row["relative"]):
        details.append(f"{row['relative']:+.0%}" if abs(row["relative"]) >= 0.01 else f"{row['relative']:+.1%}")
    if math.isnan(row["low_95"]):
        details.append("too few independent games for an interval")
        clear = ""
    else:
        details.append(f"95%: {span_words(row['low_95'], row['high_95'], up, down, scale)}")
        clear = "" if row["clear"] else ", not a clear difference"
    return f"{text}{clear} ({'; '.join(details)})"


def difference_sentence(variant: str, baseline: str, rows: pd.DataFrame, label: str, per: str) -> str:
    """``two_or_four vs two_only (36 paired games): defender score 2,413 lower per bot and game (...); ...``.

    Pairs left out because a game was cut short are said in the parentheses: ``(33 paired games;
    3 pairs left out, where either game ended by a fault)``.

    Args:
        variant: The variant.
        baseline: The variant it is compared with.
        rows: Its rows of ``VariantComparison.differences`` (one per figure).
        label: What a score counts, e.g. "defender score".
        per: What a score difference is per ("per bot and game", "per game").
    """
    pairs = int(rows["pairs"].max()) if len(rows) else 0
    faulted = int(rows["faulted_pairs"].max()) if len(rows) else 0
    left_out = f"{faulted} {'pair' if faulted == 1 else 'pairs'} left out"
    if not pairs and faulted:
        return (
            f"{variant} vs {baseline}: nothing to compare: in every pair of games played under both,"
            f" a game ended by a fault ({left_out})."
        )
    if not pairs:
        return f"{variant} vs {baseline}: no games played under both, so nothing to compare yet."
    clauses = [figure_clause(row, label, per) for row in rows.to_dict("records") if row["pairs"]]
    games = "paired game" if pairs == 1 else "paired games"
    games += f"; {left_out}, where either game ended by a fault" if faulted else ""
    return f"{variant} vs {baseline} ({pairs} {games}): {'; '.join(clauses)}."


def correlation_sentence(row: dict[str, Any], spread: float, baseline_spread: float) -> str:
    """Whether a variant changes who is strong: Kendall's tau with its 95% interval, what it means, both orders.

    The interval's end (``league.stats.variant_ranks``) decides the words: below 0, the rule reorders the
    bots clearly; above 0, the orders agree beyond noise (a tau below 1 may be noise alone); across
    0, the data cannot tell. Below 4 bots rated under both there is no interval: too few bots to say.

    Args:
        row: A row of ``VariantComparison.correlation``.
        spread: The variant's rating spread (Elo).
        baseline_spread: The baseline's.
    """
    variant, baseline, tau, bots = row["variant"], row["baseline"], row["kendall_tau"], row["bots"]
    head = f"Who is strong, {variant} vs {baseline}"
    if bots < 2 or math.isnan(tau):
        return f"{head}: fewer than two bots rated apart under both, so no rank correlation."
    spreads = f"rating spread {spread:.0f} Elo against {baseline_spread:.0f}"
    if row["variant_order"] == row["baseline_order"]:
        orders = f"the same order: {' > '.join(row['variant_order'])}"
    else:
        orders = f"{baseline}: {' > '.join(row['baseline_order'])}; {variant}: {' > '.join(row['variant_order'])}"
    low, high = row.get("tau_low_95", math.nan), row.get("tau_high_95", math.nan)
    if bots < MIN_RANKED_BOTS:
        return (
            f"{head}: Kendall tau {tau:.2f} over {bots} bots ({orders}), too few bots to say whether the rule"
            f" changes who is strong (tau between {bots} bots says almost nothing); {spreads}."
        )
    if math.isnan(low):
        return (
            f"{head}: Kendall tau {tau:.2f} over {bots} bots ({orders}), too few independent games for an"
            f" interval, so the data cannot tell whether the rule changes who is strong; {spreads}."
        )
    figure = f"Kendall tau {tau:.2f}, 95%: {low:.2f} to {high:.2f}, over {bots} bots; {orders}"
    if low == high == 1:
        return f"{head}: the rule keeps the order in every resample ({figure}); {spreads}."
    if high < 0:
        return f"{head}: the rule reorders the bots clearly, the orders disagree beyond noise ({figure}); {spreads}."
    if low > 0 and row["variant_order"] == row["baseline_order"]:
        return f"{head}: the rule keeps the order, the orders agreeing beyond noise ({figure}); {spreads}."
    if low > 0:
        return (
            f"{head}: the orders agree beyond noise ({figure}); where they differ, that may be noise alone,"
            f" each variant's strengths being measured with error; {spreads}."
        )
    return f"{head}: the data cannot tell whether the rule keeps or reorders who is strong ({figure}); {spreads}."
