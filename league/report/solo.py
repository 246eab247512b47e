"""The report of a solo league (every bot alone on the same seeds), ranked as the CODE VS 2.1 qualifier was.

No bot played another, so there are no ratings, cross table or head-to-head strengths: the page
shows the qualifier's standings, each case's score distribution per bot, the faults and the games.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from pathlib import Path

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
import pandas as pd  # noqa: E402

from league.report.charts import save_figure  # noqa: E402
from league.report.page import Chart, Paragraph, Section, Table  # noqa: E402
from league.stats.game_record import GameRecord
from league.stats.qualifier import METHOD, qualifier_frame  # noqa: E402

SOLO_CHARTS = ("solo_scores.png",)


def solo_scores_chart(records: Sequence[GameRecord], bots: Sequence[str], cases: Sequence[str], path: Path) -> None:
    """Per case, each bot's scores over its runs (a box per bot; scores as floats for drawing only)."""
    figure, axes_row = plt.subplots(1, len(cases), figsize=(3 + 2.6 * len(cases), 4), squeeze=False)
    for axes, case in zip(axes_row[0], cases, strict=True):
        data = [
            [float(r.result.scores[0]) for r in records if r.spec.variant == case and r.spec.seats[0] == bot]
            for bot in bots
        ]
        axes.boxplot(data)
        axes.set_xticks(range(1, len(bots) + 1), list(bots), rotation=45, ha="right")
        axes.set_title(case)
        axes.ticklabel_format(axis="y", style="sci", scilimits=(-3, 5))
    axes_row[0][0].set_ylabel("score per run")
    figure.suptitle("Scores per case and bot")
    save_figure(figure, path)


def solo_sections(
    folder: Path,
    records: list[GameRecord],
    bots: Sequence[str],
    cases: Sequence[str],
) -> tuple[dict[str, pd.DataFrame], dict[str, Callable[[Path], None]], list[Section]]:
    """The solo league's tables, charts and sections (standings and scores; the caller adds the rest)."""
    frame = qualifier_frame(records, bots, cases)
    tables = {"standings.csv": frame}
    drawers = {"solo_scores.png": lambda path: solo_scores_chart(records, bots, cases, path)}
    sections = [
        Section(
            "Standings",
            [
                Table(frame, name="standings"),
                Paragraph(METHOD),
                Chart("solo_scores.png", "Each bot's score in every run, per case (the same seeds for every bot)."),
            ],
        )
    ]
    return tables, drawers, sections
