"""Charts of a variant comparison (matplotlib, Agg, PNG): score and length distributions, paired differences.

Each function takes a ``VariantComparison`` and a path, draws from the comparison alone and
writes the same bytes for the same games.
"""

from __future__ import annotations

import math
from pathlib import Path

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

from league.report.charts import save_figure  # noqa: E402
from league.stats.variant_compare import VariantComparison  # noqa: E402
from league.stats.variant_pairs import DRAWS, FIRST_SEAT, PLIES, SCORE, SOLO  # noqa: E402

"""No matplotlib version in the file: the same games give the same bytes on any install."""


def _boxes(values: dict[str, list[int]], variants: list[str], ylabel: str, title: str, path: Path) -> Path | None:
    """One box per variant that has values; None (nothing written) when none has."""
    shown = [variant for variant in variants if values.get(variant)]
    if not shown:
        return None
    figure, axes = plt.subplots(figsize=(1.6 + 1.1 * len(shown), 4.2))
    axes.boxplot([[float(value) for value in values[variant]] for variant in shown], showmeans=True)
    axes.set_xticks(range(1, len(shown) + 1), shown, rotation=30, ha="right")
    axes.set_ylabel(ylabel)
    axes.set_title(title)
    return save_figure(figure, path)


def chart_scores(comparison: VariantComparison, path: Path) -> Path | None:
    """Score distributions per variant (box: quartiles, line: median, triangle: mean).

    Returns the path written, or None where scores do not spread (``Game.scores_spread`` is
    False, e.g. pk2048's games won: its draw and first-seat rates tell the story) or no games exist.
    """
    if not comparison.scores_spread:
        return None
    per = "per game" if comparison.layout == SOLO else "per bot and game"
    title = f"{comparison.score_label.capitalize()} per variant"
    return _boxes(comparison.scores, comparison.variants, f"{comparison.score_label} {per}", title, path)


def chart_lengths(comparison: VariantComparison, path: Path) -> Path | None:
    """Game length distributions per variant, in plies; None when no games exist."""
    return _boxes(comparison.plies, comparison.variants, "plies per game", "Game length per variant", path)


PANELS = {
    SCORE: ("{label} {per}", "{label}", 1.0),
    PLIES: ("game length", "plies", 1.0),
    DRAWS: ("draw rate", "percentage points", 100.0),
    FIRST_SEAT: ("first seat's share of the points", "percentage points", 100.0),
}
"""Per figure: the panel's title, the unit of its axis, and the scale from the figure to that unit.

Rates (the draw rate, seat 0's share of the points by rank) are shares: their differences are
drawn in percentage points, never in the units of a score."""


def chart_differences(comparison: VariantComparison, path: Path) -> Path | None:
    """The forest plot of ``differences_figure``, written to ``path``.

    Returns the path written, or None when there is nothing to compare (one variant, or no paired games).
    """
    figure = differences_figure(comparison)
    return None if figure is None else save_figure(figure, path)


def differences_figure(comparison: VariantComparison) -> plt.Figure | None:
    """A forest plot: per figure a panel, per variant its mean paired difference from the baseline and 95% interval.

    Each panel's axis is labelled in its figure's unit (``PANELS``): the score's, plies, or
    percentage points for a rate. None when there is nothing to compare.
    """
    frame = comparison.differences[comparison.differences["pairs"] > 0]
    figures = [figure for figure in PANELS if figure in set(frame["figure"])]
    if not figures:
        return None
    variants = [variant for variant in comparison.variants if variant in set(frame["variant"])]
    figure, panels = plt.subplots(1, len(figures), figsize=(3.4 * len(figures), 1.4 + 0.45 * len(variants)))
    panels = panels if len(figures) > 1 else [panels]
    label = comparison.score_label.split(" (")[0]
    per = "per game" if comparison.layout == SOLO else "per bot and game"
    for axes, name in zip(panels, figures, strict=True):
        rows = frame[frame["figure"] == name].set_index("variant")
        title, unit, scale = PANELS[name]
        for place, variant in enumerate(reversed(variants)):
            if variant not in rows.index:
                continue
            row = rows.loc[variant]
            mean, low, high = (float(row[key]) * scale for key in ("mean_difference", "low_95", "high_95"))
            colour = "tab:red" if bool(row["clear"]) else "tab:gray"
            if not math.isnan(low):
                axes.plot([low, high], [place, place], color=colour, linewidth=2)
            axes.plot([mean], [place], "o", color=colour)
        axes.axvline(0, color="black", linewidth=0.8)
        axes.set_yticks(range(len(variants)), list(reversed(variants)))
        axes.set_title(title.format(label=label, per=per), fontsize=9)
        axes.set_xlabel(f"difference, {unit.format(label=label)}", fontsize=8)
    figure.suptitle(f"Paired differences from {comparison.baseline} (95% intervals; red: excludes 0)", fontsize=10)
    return figure


def write_charts(comparison: VariantComparison, folder: Path) -> list[Path]:
    """Every chart of the comparison into ``folder`` (variant_scores.png, variant_lengths.png, variant_differences.png).

    Returns the files written (charts with nothing to show are skipped).
    """
    folder.mkdir(parents=True, exist_ok=True)
    drawn = [
        chart_scores(comparison, folder / "variant_scores.png"),
        chart_lengths(comparison, folder / "variant_lengths.png"),
        chart_differences(comparison, folder / "variant_differences.png"),
    ]
    return [path for path in drawn if path is not None]
