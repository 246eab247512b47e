"""The report's charts of ratings and results (matplotlib, written as PNG files).

Every chart is drawn from data already computed for the report's tables, so the picture and the
numbers never disagree; drawing is deterministic (no random jitter), so a report is the same
byte for byte for the same games.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
import pandas as pd  # noqa: E402

from league.stats.ratings import LeagueTable  # noqa: E402

DPI = 100


def save_figure(figure: plt.Figure, path: Path) -> Path:
    """Lay out, write and close a chart; returns ``path``.

    The PNG carries no matplotlib version (``Software``), so the same games give the same bytes.
    """
    figure.tight_layout()
    figure.savefig(path, dpi=DPI, metadata={"Software": None})
    plt.close(figure)
    return path


def strength_chart(strength: pd.DataFrame, path: Path) -> None:
    """Bradley-Terry Elo of each bot with its 95% interval, best at the top."""
    rows = strength.iloc[::-1]
    figure, axes = plt.subplots(figsize=(7, 0.6 + 0.45 * max(len(rows), 1)))
    elo = rows["elo"].astype(float)
    low = (elo - rows["low_95"].astype(float)).clip(lower=0)
    high = (rows["high_95"].astype(float) - elo).clip(lower=0)
    axes.errorbar(elo, range(len(rows)), xerr=[low, high], fmt="o", capsize=4)
    axes.set_yticks(range(len(rows)), list(rows["bot"]))
    axes.axvline(0, color="#bbb", linewidth=0.8)
    axes.set_xlabel("Bradley-Terry strength, Elo (bars: 95% interval)")
    axes.set_title("Strength")
    save_figure(figure, path)


def trueskill_chart(table: LeagueTable, order: Sequence[str], path: Path) -> None:
    """TrueSkill mu of each bot with 3 sigma either side, best at the top."""
    figure, axes = plt.subplots(figsize=(7, 0.6 + 0.45 * len(order)))
    names = list(reversed(order))
    mus = [table.ratings[n].mu for n in names]
    errors = [3 * table.ratings[n].sigma for n in names]
    axes.errorbar(mus, range(len(names)), xerr=errors, fmt="o", capsize=4)
    axes.set_yticks(range(len(names)), names)
    axes.set_xlabel("TrueSkill mu (bars: 3 sigma)")
    axes.set_title("TrueSkill")
    save_figure(figure, path)


NAME_INCHES = 0.075
"""About the width of one character of a tick label (10 pt), in inches: room made for long bot names."""


def _heatmap(matrix: list[list[float]], names: Sequence[str], title: str, path: Path) -> None:
    size = len(names)
    longest = NAME_INCHES * max((len(name) for name in names), default=0)  # names label both axes
    figure, axes = plt.subplots(figsize=(1.8 + 0.7 * size + longest, 1.4 + 0.6 * size + 0.7 * longest))
    image = axes.imshow(matrix, vmin=0, vmax=1, cmap="RdYlGn")
    axes.set_xticks(range(size), names, rotation=45, ha="right")
    axes.set_yticks(range(size), names)
    for i in range(size):
        for j in range(size):
            if matrix[i][j] == matrix[i][j]:  # not NaN
                axes.text(j, i, f"{matrix[i][j]:.2f}", ha="center", va="center", fontsize=8)
    axes.set_title(title)
    figure.colorbar(image, ax=axes)
    save_figure(figure, path)


def los_chart(los: pd.DataFrame, path: Path) -> None:
    """The likelihood of superiority: P(row bot is stronger than column bot)."""
    matrix = [[float("nan") if i == j else float(los.iat[i, j]) for j in range(len(los))] for i in range(len(los))]
    _heatmap(matrix, list(los.index), "LOS, row bot over column bot", path)


def score_rate_chart(table: LeagueTable, order: Sequence[str], path: Path) -> None:
    """Each bot's score rate against each other (points by rank, pairwise)."""
    matrix = []
    for bot in order:
        row = []
        for other in order:
            points, games = table.pair_points.get((bot, other), [0.0, 0])
            row.append(points / games if games else float("nan"))
        matrix.append(row)
    _heatmap(matrix, order, "Score rate, row bot vs column bot", path)


def convergence_chart(table: LeagueTable, order: Sequence[str], path: Path) -> None:
    """Each bot's conservative TrueSkill after every game, in schedule order."""
    figure, axes = plt.subplots(figsize=(7, 4))
    frame = pd.DataFrame(table.history, columns=["game", "bot", "mu", "sigma"])
    for name in order:
        mine = frame[frame["bot"] == name]
        axes.plot(mine["game"], mine["mu"] - 3 * mine["sigma"], label=name)
    axes.set_xlabel("games rated (schedule order)")
    axes.set_ylabel("mu - 3 sigma")
    axes.set_title("TrueSkill convergence")
    axes.legend(fontsize=8)
    save_figure(figure, path)
