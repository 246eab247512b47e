"""The standings table as the terminal shows it: ``league standings`` prints it, ``league run`` ends with it.

One table for both, as cutechess ends a tournament with its standings: place, bot, games, points,
mean rank, wins-draws-losses, faults, the Bradley-Terry strength with its 95% interval and
conservative TrueSkill beside it, in the report's order (``league.stats.ranking``: the format's own
result the manifest keeps, a knockout's placing or a Swiss's standings, else the strengths'), then
one line saying the rule (``league.report.standings_rule``, from the manifest) and, where there are
any, who is tied. A solo league shows the qualifier's table (``league.stats.qualifier``); a league
whose every game ended in a fault shows its forfeits and says why nobody is rated
(``league.report.all_faults``), as the report does.
"""

from __future__ import annotations

import math
import sys
from pathlib import Path
from typing import Any

from rich.console import Console, Group
from rich.table import Table
from rich.text import Text

from league.plan.manifest import read_manifest, scheduled_games
from league.report.all_faults import every_game_faulted, fault_order, no_ratings_sentence
from league.report.standings_rule import standings_rule
from league.stats.qualifier import qualifier_frame
from league.stats.ranking import RULE, TIE_WHAT, manifest_order, rank_league
from league.stats.ratings import league_table
from league.stats.ties import tie_sentence
from league.store.results import league_store

COLUMNS = ("place", "bot", "games", "points", "points/game", "mean rank", "W-D-L", "faults", "elo", "95%", "TS μ-3σ")
"""The table's columns (a league of two or more seats)."""

COLUMNS_LEGEND = (
    "elo: Bradley-Terry strength (mean 0) with its 95% interval. TS μ-3σ: conservative TrueSkill, rated game by"
    " game in schedule order, shown for comparison, never the order."
)
"""What the strength columns are, under the table."""


def legend(rule: str = RULE) -> str:
    """The line under the table: the one rule it is ordered by (``league.report.standings_rule``), then its columns."""
    return f"place: {rule}. {COLUMNS_LEGEND}"


LEGEND = legend()
"""The line under the table of a league placed by Bradley-Terry."""


def standings_view(folder: Path, manifest: dict[str, Any]) -> tuple[Group, bool]:
    """The table of what is stored now, and whether every game of the league is stored."""
    records = scheduled_games(league_store(folder).records(), manifest["game_ids"])
    planned = len(set(manifest["game_ids"]))
    done = len(records) >= planned
    heading = Text(f"{manifest['name']}: {len(records)} of {planned} games stored", style="bold")
    bots = manifest["bots"]
    if records and all(len(record.spec.seats) == 1 for record in records):
        frame = qualifier_frame(records, bots, manifest["variants"])
        columns = ["place", "bot", "rank_sum", "score", "max_chain", "turns", "faults", "overflows"]
        table = Table(*columns)
        for row in frame.itertuples(index=False):
            table.add_row(*(str(getattr(row, column)) for column in columns))
        return Group(heading, table), done
    overall = league_table(records, bots, keep_history=False)
    table = Table(*COLUMNS)
    if every_game_faulted(records):  # then no ratings: they would rank bots by who faulted first
        order, places, ranked = fault_order(overall), range(1, len(bots) + 1), None
        sentences = [no_ratings_sentence(records)]
    else:
        ranked = rank_league(bots, records, final_order=manifest_order(manifest))
        order, places = ranked.order, ranked.places
        sentences = [legend(standings_rule(manifest)), tie_sentence(ranked.ties, TIE_WHAT)]
    for place, name in zip(places, order, strict=True):
        standing, rating = overall.standings[name], overall.ratings[name]
        elo, low, high = ranked.strength(name) if ranked is not None else (math.nan,) * 3
        strength = ("-", "-") if math.isnan(elo) else (f"{elo:.1f}", f"{low:.1f} to {high:.1f}")
        trueskill = "-" if ranked is None else f"{rating.conservative:.2f}"
        table.add_row(
            str(place),
            name,
            str(standing.games),
            f"{round(standing.points, 3):g}",
            f"{standing.points_per_game:.3f}",
            f"{standing.mean_rank:.2f}",
            f"{standing.wins}-{standing.draws}-{standing.losses}",
            str(standing.faults),
            *strength,
            trueskill,
        )
    return Group(heading, table, *(Text(sentence) for sentence in sentences if sentence)), done


def terminal(stderr: bool = False) -> Console:
    """A console for the table: the terminal's width, or 200 columns when piped (no truncated columns)."""
    stream = sys.stderr if stderr else sys.stdout
    return Console(stderr=stderr) if stream.isatty() else Console(stderr=stderr, width=200)


def print_standings(folder: Path) -> None:
    """Print the standings of a league's folder on stderr (``league run``'s last table); nothing without a manifest."""
    manifest = read_manifest(folder)
    if manifest is not None:
        terminal(stderr=True).print(standings_view(folder, manifest)[0])
