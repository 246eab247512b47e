"""The report's tables of results: standings, TrueSkill per variant, the cross table and the faults.

Each is a pandas DataFrame computed from the scored records; the column notes say what every
column means, for the report to print under its table. The standings' order is
``league.stats.ranking``'s (Bradley-Terry strength fitted to every game at once); TrueSkill, rated
game by game in schedule order, is a column beside it.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Callable, Sequence
from typing import Any

import pandas as pd

from league.stats.game_record import GameRecord
from league.stats.placing import places, seat_faults
from league.stats.ranking import RULE, Ranking
from league.stats.ratings import LeagueTable

COLUMN_NOTES = (
    (
        "elo / low_95 / high_95",
        "Bradley-Terry strength on the Elo scale (mean 0) and its 95% interval, as in the strength table",
    ),
    ("games", "games scored (games that failed for reasons of ours are never scored)"),
    (
        "points",
        "points by rank: 1 for first, 0 for last, linear between; seats without a fault that tie share the"
        " places they span, a faulted seat gets the points of its own rank (below)",
    ),
    ("points_per_game", "points / games: 1/2 is par at any table size"),
    (
        "mean_rank",
        "the mean of the ranks the games gave (1 is first), except that a faulted seat ranks below every seat"
        " without a fault, and faulted seats that tie all take the last place of their tie: two seats that fault"
        " at the same moment in a game of two both rank 2; a double fault is a loss for both here and a draw"
        " between them in the cross table and the ratings",
    ),
    ("wins / draws / losses", "games ranked first alone / first with others / anything below first"),
    ("faults", "games in which the bot faulted itself (timeout, crash, bad output, illegal move), whoever else did"),
    ("score_sum / mean_score", "the game's own score, summed exactly and averaged per game"),
    (
        "mu / sigma / conservative",
        "TrueSkill's skill estimate, its uncertainty and mu - 3 sigma, for comparison only: rated game by game in"
        " schedule order, so the same games fed in another order would give other figures; never the order",
    ),
)
"""The standings' columns but their place, each with what it means."""


def standings_notes(rule: str = RULE) -> tuple[tuple[str, str], ...]:
    """The standings' notes: ``place`` by ``rule`` (``league.report.standings_rule``), then the columns'."""
    place = f"{RULE}; the strength table below has the same order" if rule == RULE else rule
    return (("place", place), *COLUMN_NOTES)


STANDINGS_NOTES = standings_notes()
"""The notes of a league placed by Bradley-Terry (``league.stats.ranking``)."""


def standings_frame(table: LeagueTable, order: Sequence[str], ranked: Ranking | None = None) -> pd.DataFrame:
    """One row per bot, best first: points by rank and per game, mean rank, wins/draws/losses, faults, ratings.

    Args:
        table: The league's results.
        order: The bots best first (``ranked.order`` where there is a ranking).
        ranked: The standings' ranking (places and strengths); None: places 1, 2, 3, ... and no strengths
            (a league whose every game ended in a fault).
    """
    rows = []
    places = ranked.places if ranked is not None else range(1, len(order) + 1)
    for place, name in zip(places, order, strict=True):
        standing, rating = table.standings[name], table.ratings[name]
        elo, low, high = ranked.strength(name) if ranked is not None else (math.nan,) * 3
        rows.append(
            {
                "place": place,
                "bot": name,
                "games": standing.games,
                "points": round(standing.points, 3),
                "points_per_game": round(standing.points_per_game, 3),
                "mean_rank": round(standing.mean_rank, 3),
                "wins": standing.wins,
                "draws": standing.draws,
                "losses": standing.losses,
                "faults": standing.faults,
                "score_sum": str(standing.score_sum),
                "mean_score": standing.mean_score,
                "elo": round(elo, 1),
                "low_95": round(low, 1),
                "high_95": round(high, 1),
                "mu": round(rating.mu, 3),
                "sigma": round(rating.sigma, 3),
                "conservative": round(rating.conservative, 3),
            }
        )
    return pd.DataFrame(rows)


def ratings_frame(tables: dict[str, LeagueTable], order: Sequence[str]) -> pd.DataFrame:
    """TrueSkill per bot, overall and per variant."""
    rows = []
    for variant, table in tables.items():
        for name in order:
            rating = table.ratings[name]
            rows.append(
                {
                    "variant": variant,
                    "bot": name,
                    "mu": round(rating.mu, 3),
                    "sigma": round(rating.sigma, 3),
                    "conservative": round(rating.conservative, 3),
                    "games": rating.games,
                }
            )
    return pd.DataFrame(rows)


def cross_table(records: Sequence[GameRecord], order: Sequence[str]) -> tuple[pd.DataFrame, str]:
    """The row bot's results against each column bot, and a sentence saying what a cell holds.

    Between two seats a cell is wins-draws-losses; at tables (games of three or more seats) it is
    the row bot's mean rank in the games both sat in, with how many games that was. Ranks are the
    standings' (``league.stats.placing.places``).
    """
    tables = any(len(record.spec.seats) > 2 for record in records)
    tally: dict[tuple[str, str], list[int]] = {}
    for record in records:
        seats, ranks = record.spec.seats, places(record.result)
        for i, bot in enumerate(seats):
            for j, other in enumerate(seats):
                if i == j:
                    continue
                cell = tally.setdefault((bot, other), [0, 0, 0, 0])  # wins, draws, losses, rank sum
                cell[0 if ranks[i] < ranks[j] else 1 if ranks[i] == ranks[j] else 2] += 1
                cell[3] += ranks[i]
    rows = []
    for bot in order:
        row: dict[str, Any] = {"bot": bot}
        for other in order:
            cell = tally.get((bot, other))
            if bot == other or cell is None:
                row[other] = ""
            elif tables:
                games = sum(cell[:3])
                row[other] = f"{cell[3] / games:.2f} ({games})"
            else:
                row[other] = f"{cell[0]}-{cell[1]}-{cell[2]}"
        rows.append(row)
    meaning = (
        "Each cell: the row bot's mean rank in the games it shared with the column bot (games in brackets)."
        if tables
        else "Each cell: the row bot's wins-draws-losses against the column bot."
    )
    return pd.DataFrame(rows), meaning


FAULT_KINDS = ("TIMEOUT", "CRASH", "BAD_OUTPUT", "ILLEGAL_MOVE", "MAX_PLIES")


def faults_by_bot(records: Sequence[GameRecord], order: Sequence[str]) -> pd.DataFrame:
    """Per bot, its games and how many of them it faulted in, by the kind of its own fault (a row per bot that faulted).

    Each seat is charged its own fault (``league.stats.placing.seat_faults``), not the game's first: at a
    table where one bot timed out and another crashed, one is charged a TIMEOUT and the other a CRASH.
    """
    counts: Counter[tuple[str, str]] = Counter()
    games: Counter[str] = Counter()
    for record in records:
        seats = record.spec.seats
        games.update(seats)
        for seat, fault in seat_faults(record.result).items():
            counts[seats[seat], fault.termination] += 1
    kinds = [kind for kind in FAULT_KINDS if any(key[1] == kind for key in counts)]
    kinds += sorted({key[1] for key in counts} - set(kinds))
    rows = []
    for bot in order:
        row = {"bot": bot, "games": games[bot], **{kind: counts[bot, kind] for kind in kinds}}
        total = sum(row[kind] for kind in kinds)
        if total:
            rows.append({**row, "total": total})
    return pd.DataFrame(rows)


STDERR_TAIL_CHARS = 1500


def fault_list(
    records: Sequence[GameRecord],
    details: Callable[[list[str]], dict[str, dict[str, Any]]],
    limit: int = 100,
) -> tuple[list[dict[str, Any]], int, int]:
    """The faulted games (at most ``limit``), an entry per faulted seat: who, its own fault, and its stderr tail.

    Args:
        records: Scored games in schedule order.
        details: The stored details (``stderr`` among them) of some games, by game id.
        limit: How many to list.

    Returns:
        The entries (``game_id``, ``variant``, ``bot``, ``seat``, ``termination``, ``reason_code``,
        ``detail``, ``stderr``), how many faulted games there are in all, and how many of those
        listed have lost their stored details (a missing or damaged ``moves.jsonl``).
    """
    faulted = [record for record in records if record.result.offenders]
    shown = faulted[:limit]
    found = details([record.game_id for record in shown]) if shown else {}
    entries = []
    for record in shown:
        tails = found.get(record.game_id, {}).get("stderr", [])
        for seat, fault in seat_faults(record.result).items():
            text = "\n".join(tail["text"] for tail in tails if tail["seat"] == seat).strip()
            entries.append(
                {
                    "game_id": record.game_id,
                    "variant": record.spec.variant,
                    "bot": record.spec.seats[seat],
                    "seat": seat,
                    "termination": fault.termination,
                    "reason_code": fault.reason_code,
                    "detail": fault.detail,
                    "stderr": text[-STDERR_TAIL_CHARS:],
                }
            )
    lost = sum(1 for record in shown if record.game_id not in found)
    return entries, len(faulted), lost
