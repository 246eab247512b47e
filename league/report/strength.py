"""The report's "Are strong programs strong?" part, from ``league.stats.analysis.assess``.

Bradley-Terry strengths with honest intervals, the likelihood of superiority of every pair, each
bot's chance of every place, the evidence that the ranking is real (each figure with a sentence
saying what it means), how many more games would settle what is not settled, and the verdict.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import pandas as pd

from league.report import charts
from league.report.page import Bullets, Chart, Paragraph, ReportParts, Section, Table
from league.stats.analysis import Assessment, assess
from league.stats.game_record import GameRecord
from league.stats.strength import StrengthEstimate
from league.stats.ties import tie_sentence

STRENGTH_NOTES = (
    (
        "place",
        "the order by Bradley-Terry strength, the standings' order (TrueSkill's may differ: it depends on the"
        " order the games were fed); bots of equal strength share a place and are listed by name",
    ),
    (
        "elo / low_95 / high_95",
        "strength on the Elo scale (mean 0) and its 95% interval; an end left blank reaches across a separation"
        " (below): its group never lost a point to the next, so the games bound the gap from below only"
        " (gap_below_at_least) and no figure there would be theirs",
    ),
    ("sd", "the rating's standard deviation used for the likelihood of superiority"),
    ("games", "games the bot played"),
    ("score_rate", "its points per pairwise result (a win 1, a draw 1/2)"),
    ("p_first", "its probability of being the strongest (as the place probabilities below)"),
    (
        "group",
        "bots of one group took points off each other; a group never lost a point to a group below it, so the"
        " gap between groups is a lower bound only, and the Elo and intervals across it come from the prior",
    ),
    ("gap_below_at_least", "on a group's last bot: what the games say of the gap to the next group (95% lower bound)"),
)
FORMAT_PLACE = (
    "the order by Bradley-Terry strength, not the standings' here: they follow the format's own result, as"
    " their note says; bots of equal strength share a place and are listed by name"
)
"""The strength table's place where the standings follow the format (``league.stats.ranking``)."""

NEIGHBOUR_NOTES = (
    ("difference / sd", "Elo between the two and the standard deviation of that difference"),
    ("los", "likelihood that the higher is really stronger"),
    ("settled", "los at least 0.95 (across a separation: the sign test, at least 5 games between the groups)"),
    ("factor / more_games_per_pair", "how many times today's games, and how many more per pair, would settle it"),
    ("tie", "so close that it may be a tie: no number of games settles a true tie"),
    (
        "separated",
        "in two groups, the higher's never having lost a point to the lower's: the order is settled by the"
        " sign test (5 games all won), the gap is never measured, and no games are suggested to measure it",
    ),
)


def strength_report(
    bots: Sequence[str],
    records: list[GameRecord],
    trueskill_order: Sequence[str],
    fitted: StrengthEstimate | None = None,
    by_format: bool = False,
) -> ReportParts:
    """``strength.csv``, ``los.csv``, ``rank_probabilities.csv``, their charts, sections and the verdict.

    Args:
        bots: Every bot of the league.
        records: Its scored games.
        trueskill_order: The bots best first by conservative TrueSkill (compared with Bradley-Terry).
        fitted: The strengths the standings were ranked by (``league.stats.ranking``), fitted once.
        by_format: Whether the standings follow the format's own result instead (``Ranking.by_format``): the
            strength table's note then says its order is not theirs.
    """
    found = assess(bots, records, trueskill_order, fitted=fitted)
    parts = ReportParts()
    parts.tables |= {
        "strength.csv": found.strength,
        "los.csv": found.los,
        "rank_probabilities.csv": found.rank_probabilities,
    }
    if len(found.strength):
        parts.charts["strength.png"] = lambda path: charts.strength_chart(found.strength, path)
    if len(found.los) > 1:
        parts.charts["los.png"] = lambda path: charts.los_chart(found.los, path)
    parts.verdict = [Paragraph(found.verdict)]
    parts.sections += [_ratings_section(found, by_format), _evidence_section(found)]
    return parts


def _ratings_section(found: Assessment, by_format: bool = False) -> Section:
    notes = (("place", FORMAT_PLACE), *STRENGTH_NOTES[1:]) if by_format else STRENGTH_NOTES
    blocks: list[Any] = [
        Paragraph("Bradley-Terry strengths from all games at once, with 95% intervals:"),
        Table(_blank_missing(found.strength), notes, name="strength"),
    ]
    if found.ties:
        blocks.append(Paragraph(tie_sentence(found.ties, "Bradley-Terry strength")))
    if found.separation.separated:
        blocks.append(Paragraph(found.separation.meaning))
    if found.unrated:
        blocks.append(Paragraph(f"No games yet, so no strength: {', '.join(found.unrated)}."))
    if len(found.strength):
        blocks.append(Chart("strength.png", "Bradley-Terry strength with 95% intervals."))
    if len(found.los) > 1:
        blocks += [
            Paragraph("Likelihood of superiority: the probability that the row bot is stronger than the column bot."),
            Table(_blank_missing(found.los).reset_index(names="bot"), name="los"),
            Chart("los.png", "Likelihood of superiority, row bot over column bot."),
            Paragraph("Each bot's chance of each place (the normal approximation LOS uses, bootstrap included):"),
            Table(found.rank_probabilities.reset_index(), name="places"),
        ]
    return Section("Ratings with their uncertainty", blocks)


def _blank_missing(frame: pd.DataFrame) -> pd.DataFrame:
    """``frame`` with its missing figures shown blank (a bot against itself, no bound on a gap, no factor)."""
    return frame.astype(object).where(frame.notna(), "")


def _neighbours_shown(neighbours: pd.DataFrame) -> pd.DataFrame:
    """The neighbours table as a person reads it: Elo to 0.1, LOS to 3 decimals, yes or no."""
    shown = neighbours.copy()
    shown[["difference", "sd"]] = shown[["difference", "sd"]].round(1)
    shown["los"] = shown["los"].round(3)
    shown["factor"] = shown["factor"].round(2)
    for column in ("settled", "tie", "separated"):
        shown[column] = ["yes" if value else "no" for value in shown[column]]
    return shown


def _evidence_section(found: Assessment) -> Section:
    blocks: list[Any] = [Bullets(found.figures), Paragraph(found.verdict)]
    if len(found.neighbours):
        blocks += [
            Paragraph("Enough games? Neighbours in the ranking, best first:"),
            Table(_blank_missing(_neighbours_shown(found.neighbours)), NEIGHBOUR_NOTES, name="neighbours"),
            Bullets(found.games_needed),
        ]
    blocks.append(Bullets(found.method))
    return Section("Are strong programs strong?", blocks)
