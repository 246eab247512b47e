"""The report of an adaptive league (``format: adaptive``): why it stopped, its games per pair, its settling.

The batches are taken again from the folder alone (``league.plan.adaptive.adaptive_history`` on
``league.json`` and the stored games), so the report says what ``league run`` said, whatever order
the games were stored in: why the league stopped (settled, ``max_games`` reached, or not yet), its
ranking with what it claims of each pair of neighbours, a heatmap of the games each pair of bots
played (most go to close neighbours), and the settling chart: pairs of neighbours still open after
each batch against the games played. The charts are drawn from the section's CSV tables.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
import pandas as pd  # noqa: E402
from matplotlib.ticker import MaxNLocator  # noqa: E402

from league.plan.adaptive import AdaptiveHistory, adaptive_history, repeats_note, repetition_line  # noqa: E402
from league.plan.adaptive_batches import STOP_CAPPED, STOP_REPEATED, STOP_SETTLED  # noqa: E402
from league.report.charts import NAME_INCHES, save_figure  # noqa: E402
from league.report.page import Chart, Paragraph, ReportParts, Section, Table  # noqa: E402
from league.stats.active_ranking import Claim, ranking_line  # noqa: E402
from league.stats.game_record import GameRecord

NEIGHBOURS_TABLE = "adaptive_neighbours.csv"
PAIRS_TABLE = "adaptive_pairs.csv"
BATCHES_TABLE = "adaptive_batches.csv"
ADAPTIVE_TABLES = (NEIGHBOURS_TABLE, PAIRS_TABLE, BATCHES_TABLE)
GAMES_CHART = "adaptive_games.png"
SETTLING_CHART = "adaptive_settling.png"
ADAPTIVE_CHARTS = (GAMES_CHART, SETTLING_CHART)

NEIGHBOURS_NOTES = (
    ("claim", "ordered: upper is stronger at the stated confidence; tied: within tie_elo; open: not settled"),
    ("units", "seat-swapped pairs of games on one seed the two have played against each other"),
    ("score", "the interval on upper's mean unit score against lower (1/2: level)"),
    ("elo", "the same interval in Elo (the Bradley-Terry scale; unbounded where the score's end is 0 or 1)"),
)


def adaptive_report(manifest: dict[str, Any], records: Sequence[GameRecord]) -> ReportParts | None:
    """The adaptive section, its tables and charts, of a league whose manifest holds its batches; None for others."""
    if manifest.get("format") != "adaptive" or not manifest.get("adaptive"):
        return None
    history = adaptive_history(manifest, records)
    order = [history.claims[0].upper, *(n.lower for n in history.claims)] if history.claims else history.bots
    neighbours = neighbours_frame(history)
    pairs = pairs_frame(history, order)
    batches = batches_frame(history)
    settings = history.settings
    signs = (
        f">: above at {settings.confidence:.0%} confidence; ~: within {settings.tie_elo:g} Elo of each other;"
        " ?: not settled"
    )
    counted = sum(history.games.values())
    capped_at = history.max_games if history.stop == STOP_CAPPED else None
    blocks = [
        Paragraph(stop_sentence(history)),
        Paragraph(f"Ranking: {ranking_line(history.claims)} ({signs}). {method_sentence(history)}"),
        Table(neighbours_shown(neighbours), NEIGHBOURS_NOTES, name="adaptive", text=True),
        Chart(
            GAMES_CHART,
            f"Games each pair of bots played, of the {counted:,} the league counts (bots in ranking order:"
            " neighbours sit beside the diagonal).",
        ),
        Chart(
            SETTLING_CHART,
            "Pairs of neighbours in the ranking still open after each batch, against the games played"
            " (the first point is the warm-up).",
        ),
        Paragraph("How the ranking settled (the batches after which it changed; every batch in adaptive_batches.csv):"),
        Table(changes_frame(batches), name="adaptive-settling", text=True),
    ]
    return ReportParts(
        tables={NEIGHBOURS_TABLE: neighbours, PAIRS_TABLE: pairs, BATCHES_TABLE: batches},
        charts={
            GAMES_CHART: lambda path: games_chart(pairs, order, path),
            SETTLING_CHART: lambda path: settling_chart(batches, len(history.claims), capped_at, path),
        },
        sections=[Section("Adaptive league", blocks)],
    )


def stop_sentence(history: AdaptiveHistory) -> str:
    """Why the league stopped (settled, ``max_games`` reached, most units repeated), or that it has not."""
    settings = history.settings
    taken = len(history.batches)
    games = f"{history.games_taken:,} games in {taken} batch{'es' if taken != 1 else ''}{repeats_note(history.seen)}"
    if history.stop == STOP_REPEATED:
        return f"It stopped after {games} without claims: {repetition_line(history.seen, history.game)}."
    if history.stop == STOP_SETTLED:
        return (
            f"It stopped settled after {games} (the warm-up and {taken - 1} more): every pair of neighbours in"
            f" the ranking is ordered at {settings.confidence:.0%} confidence or within {settings.tie_elo:g} Elo"
            " of each other."
        )
    still = [f"{n.upper} ? {n.lower}" for n in history.claims if n.claim is Claim.OPEN]
    if history.stop == STOP_CAPPED:
        return (
            f"It stopped at max_games ({history.max_games:,}) after {games}, with {len(still)} of"
            f" {len(history.claims)} pairs of neighbours not settled ({', '.join(still)}): raise max_games to go on."
        )
    waiting = sum(history.games.values()) - history.games_taken
    stored = f" {waiting:,} more games are stored of batches not complete." if waiting else ""
    return (
        f"It has not stopped yet: after {games}, {len(still)} of {len(history.claims)} pairs of neighbours are"
        f" open.{stored} Run the league again to go on."
    )


def method_sentence(history: AdaptiveHistory) -> str:
    """How the claims are made, for people."""
    settings = history.settings
    return (
        f"Every pair of bots played a warm-up of {2 * settings.warmup_units} games, then batches went to the open"
        " neighbours whose intervals shrink most. A unit is two games on one seed, seats swapped, scored for the"
        " upper bot 0, 1/4, 1/2, 3/4 or 1; the intervals hold all at once, over every pair and every look, with"
        f" probability {settings.confidence:.0%} at least, so stopping when the ranking first looks settled keeps"
        " the confidence."
    )


def elo_at(score: float) -> float:
    """The Elo difference whose expected score is ``score`` (infinite at 0 and 1)."""
    if score <= 0:
        return -math.inf
    if score >= 1:
        return math.inf
    return 400 * math.log10(score / (1 - score))


def elo_interval(low: float, high: float) -> str:
    """An interval in Elo as text (an unbounded end, NaN in the table, written as infinity)."""
    ends = ["-inf" if math.isnan(low) else f"{low:+.0f}", "+inf" if math.isnan(high) else f"{high:+.0f}"]
    return f"{ends[0]} to {ends[1]}"


def neighbours_frame(history: AdaptiveHistory) -> pd.DataFrame:
    """Each pair of neighbours, best first: claim, units, the interval as scores and Elo (blank when unbounded)."""

    def finite(value: float) -> float:
        return round(value, 1) if math.isfinite(value) else math.nan

    return pd.DataFrame(
        {
            "upper": [n.upper for n in history.claims],
            "lower": [n.lower for n in history.claims],
            "claim": [n.claim.value for n in history.claims],
            "units": [n.units for n in history.claims],
            "score_low": [round(n.low, 4) for n in history.claims],
            "score_high": [round(n.high, 4) for n in history.claims],
            "elo_low": [finite(elo_at(n.low)) for n in history.claims],
            "elo_high": [finite(elo_at(n.high)) for n in history.claims],
        }
    )


def neighbours_shown(neighbours: pd.DataFrame) -> pd.DataFrame:
    """The neighbours table for the page: each interval as text, in scores and in Elo."""
    rows = neighbours.to_dict("records")
    return pd.DataFrame(
        {
            "upper": [row["upper"] for row in rows],
            "lower": [row["lower"] for row in rows],
            "claim": [row["claim"] for row in rows],
            "units": [str(row["units"]) for row in rows],
            "score": [f"{row['score_low']:.3f} to {row['score_high']:.3f}" for row in rows],
            "elo": [elo_interval(row["elo_low"], row["elo_high"]) for row in rows],
        },
        columns=["upper", "lower", "claim", "units", "score", "elo"],
    )


def pairs_frame(history: AdaptiveHistory, order: Sequence[str]) -> pd.DataFrame:
    """Every pair of bots (in ranking order): the units of the batches taken and the games counted."""
    rows = []
    for i, bot in enumerate(order):
        for opponent in order[i + 1 :]:
            pair = (bot, opponent) if history.bots.index(bot) < history.bots.index(opponent) else (opponent, bot)
            rows.append((bot, opponent, history.units.get(pair, 0), history.games.get(pair, 0)))
    return pd.DataFrame(rows, columns=["bot", "opponent", "units", "games"])


def batches_frame(history: AdaptiveHistory) -> pd.DataFrame:
    """Each batch taken (1 is the warm-up): its games, the games so far, the neighbours open after it, the ranking."""
    return pd.DataFrame(
        {
            "batch": range(1, len(history.batches) + 1),
            "games": [batch.games for batch in history.batches],
            "games_played": [batch.games_so_far for batch in history.batches],
            "open_neighbours": [batch.open for batch in history.batches],
            "ranking": [ranking_line(batch.claims) for batch in history.batches],
        },
        columns=["batch", "games", "games_played", "open_neighbours", "ranking"],
    )


def changes_frame(batches: pd.DataFrame) -> pd.DataFrame:
    """The batches after which the ranking line changed (the first always), for the page."""
    changed = batches["ranking"] != batches["ranking"].shift()
    return batches.loc[changed, ["batch", "games_played", "open_neighbours", "ranking"]].astype(str)


def games_chart(pairs: pd.DataFrame, order: Sequence[str], path: Path) -> None:
    """A heatmap of the games each pair of bots played (symmetric, bots in ranking order)."""
    size = len(order)
    position = {bot: number for number, bot in enumerate(order)}
    matrix = [[math.nan] * size for _ in range(size)]
    for bot, opponent, games in zip(pairs["bot"], pairs["opponent"], pairs["games"], strict=True):
        matrix[position[bot]][position[opponent]] = matrix[position[opponent]][position[bot]] = float(games)
    longest = NAME_INCHES * max((len(name) for name in order), default=0)
    figure, axes = plt.subplots(figsize=(1.8 + 0.7 * size + longest, 1.4 + 0.6 * size + 0.7 * longest))
    image = axes.imshow(matrix, vmin=0, cmap="Blues")
    axes.set_xticks(range(size), order, rotation=45, ha="right")
    axes.set_yticks(range(size), order)
    most = max((value for row in matrix for value in row if not math.isnan(value)), default=0.0)
    if size <= 20:  # numbers in the cells while they fit
        for i in range(size):
            for j in range(size):
                if not math.isnan(matrix[i][j]):
                    colour = "white" if matrix[i][j] > most / 2 else "black"
                    axes.text(j, i, f"{matrix[i][j]:.0f}", ha="center", va="center", fontsize=8, color=colour)
    axes.set_title("Games per pair")
    figure.colorbar(image, ax=axes, label="games")
    save_figure(figure, path)


def settling_chart(batches: pd.DataFrame, neighbours: int, capped_at: int | None, path: Path) -> None:
    """Pairs of neighbours still open after each batch against the games played (``max_games`` dashed if reached)."""
    figure, axes = plt.subplots(figsize=(7, 3.6))
    axes.step(batches["games_played"], batches["open_neighbours"], where="post", marker="o", markersize=3)
    if capped_at is not None:
        axes.axvline(capped_at, color="#c33", linestyle="--", linewidth=1, label="max_games")
        axes.legend(fontsize=8)
    axes.set_ylim(-0.3, neighbours + 0.3)
    axes.yaxis.set_major_locator(MaxNLocator(integer=True))
    axes.set_xlim(left=0)
    axes.set_xlabel("games played (batch by batch)")
    axes.set_ylabel("pairs of neighbours open")
    axes.set_title(f"Settling (of {neighbours} pairs of neighbours)")
    save_figure(figure, path)
