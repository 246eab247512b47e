"""The report's variants part: rule variants compared on the same seeds (``league.stats.variant_compare``).

With one variant the section is a short table of its games; with several it gives each variant's
figures, the paired per-seed differences from the baseline (the first variant) with their 95%
intervals and the pairs left out because a game ended by a fault, whether the rule changes who is
strong (Kendall's tau with its 95% interval, ``league.stats.variant_ranks``), and charts of scores,
lengths and differences. On the page the per-variant figures are a row each and the variants a
column each, so that the table fits the page; ``variants.csv`` keeps a row per variant. Exact
figures of scores are shown with two decimals (``league.stats.variant_cells``).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import pandas as pd

from league.report.page import Bullets, Chart, Paragraph, ReportParts, Section, Table
from league.report.variant_charts import chart_differences, chart_lengths, chart_scores
from league.stats.game_record import GameRecord
from league.stats.variant_cells import figures_as_text
from league.stats.variant_compare import VariantComparison, compare_variants

VARIANT_CHARTS = ("variant_scores.png", "variant_lengths.png", "variant_differences.png")

BY_VARIANT_NOTES = (
    (
        "distinct_games",
        "games that differ in their seats or moves (identical games between deterministic bots count once)",
    ),
    ("faults", "games that ended by a fault (a seat faulted, or a safety cap of ours ended it)"),
    ("mean_score", "the mean score per seat and game in the game's unit, exact"),
    ("score_sd / median_score / score_q1 / score_q3", "the spread of the scores: sd, median and quartiles"),
    ("mean_plies / median_plies", "game length in plies (replies)"),
    ("draw_rate", "the share of games whose first place is shared"),
    ("first_seat_win_rate", "seat 0's share of the games with one winner"),
    ("first_seat_points", "seat 0's mean points by rank (1/2: no advantage), with its 95% interval"),
    ("rating_spread", "the standard deviation of the bots' Bradley-Terry Elo in this variant: how much skill matters"),
)

DIFFERENCE_NOTES = (
    ("mean_difference", "the variant's figure minus the baseline's, averaged over games played on the same seed"),
    ("low_95 / high_95", "its 95% interval (bootstrap over seat-swapped pairs, tables or solo runs)"),
    ("relative", "the difference as a share of the baseline's mean"),
    ("pairs", "the pairs of games compared: the same seed and seats under both variants, neither ended by a fault"),
    (
        "faulted_pairs",
        "the pairs left out because either game ended by a fault: a game cut short says nothing of the rule",
    ),
    ("clear", "whether the interval excludes 0"),
    ("draw_rate / first_seat_points", "shares: a difference of 0.05 is 5 percentage points"),
)


CORRELATION_NOTES = (
    ("bots", "the bots rated under both variants"),
    (
        "kendall_tau",
        "Kendall's tau between their Bradley-Terry strengths under the two (1: the same order, -1: reversed)",
    ),
    (
        "tau_low_95 / tau_high_95",
        "its 95% interval, resampling seat-swapped pairs or tables alike under both variants; blank below 4 bots"
        " (too few to say) or 5 pairs or tables. Below 0: the rule reorders the bots clearly; above 0: the orders"
        " agree beyond noise; across 0: the data cannot tell. A tau below 1 alone shows no change: each variant's"
        " strengths are measured with error",
    ),
    ("baseline_order / variant_order", "the bots best first under each"),
)


def _drawer(draw: Callable[[VariantComparison, Path], Path | None], comparison: VariantComparison):  # noqa: ANN202
    return lambda path: draw(comparison, path)


def by_figure(by_variant: pd.DataFrame) -> pd.DataFrame:
    """The per-variant figures as the page shows them: a row per figure, a column per variant, exact figures as text."""
    shown = figures_as_text(by_variant).set_index("variant").T.astype(object)
    shown = shown.where(shown.notna(), "")
    shown.columns = [str(variant) for variant in shown.columns]
    return shown.rename_axis("figure").reset_index()


def _shown(differences: pd.DataFrame) -> pd.DataFrame:
    """The paired differences as a person reads them: 3 decimals (exact means 2), blank where a figure has no value."""
    shown = figures_as_text(differences).map(lambda value: round(value, 3) if isinstance(value, float) else value)
    return shown.astype(object).where(differences.notna(), "")


def variants_report(bots: Sequence[str], records: list[GameRecord], variants: Sequence[str], game: Any) -> ReportParts:
    """The variants section, ``variants.csv``, ``variant_differences.csv`` and the variant charts."""
    comparison = compare_variants(bots, records, variants, game)
    parts = ReportParts()
    parts.tables["variants.csv"] = figures_as_text(comparison.by_variant)
    present = set(comparison.by_variant.columns)
    notes = [(column, meaning) for column, meaning in BY_VARIANT_NOTES if column.split()[0] in present]
    blocks: list[Any] = [Table(by_figure(comparison.by_variant), notes, name="variants")]
    if comparison.scores_spread and records:
        parts.charts["variant_scores.png"] = _drawer(chart_scores, comparison)
        blocks.append(Chart("variant_scores.png", f"{comparison.score_label.capitalize()} per variant."))
    if records:
        parts.charts["variant_lengths.png"] = _drawer(chart_lengths, comparison)
        blocks.append(Chart("variant_lengths.png", "Game length per variant, in plies."))
    if len(comparison.variants) > 1:
        parts.tables["variant_differences.csv"] = figures_as_text(comparison.differences)
        blocks += [
            Paragraph(f"Each variant against {comparison.baseline}, game by game on the same seeds:"),
            Bullets(comparison.sentences),
            Table(_shown(comparison.differences), DIFFERENCE_NOTES, name="differences"),
        ]
        if (comparison.differences["pairs"] > 0).any():
            parts.charts["variant_differences.png"] = _drawer(chart_differences, comparison)
            blocks.append(Chart("variant_differences.png", "Paired differences from the baseline, 95% intervals."))
        if len(comparison.correlation):
            orders = comparison.correlation.copy()
            for column in ("baseline_order", "variant_order"):
                orders[column] = [" > ".join(order) for order in orders[column]]
            shown = orders.round(3).astype(object).where(orders.notna(), "")
            blocks += [Paragraph("Does the rule change who is strong?"), Table(shown, CORRELATION_NOTES)]
        if len(comparison.by_bot):
            blocks += [Paragraph("Each bot in each variant:"), Table(figures_as_text(comparison.by_bot))]
    title = "Variants compared" if len(comparison.variants) > 1 else "Games by variant"
    parts.sections.append(Section(title, blocks))
    return parts
