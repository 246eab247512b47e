"""The report of a Swiss league (``format: swiss``): its standings with the tie-breaks, and every round's pairings.

The rounds are taken again from the folder alone: the manifest's ``swiss.rounds_paired`` (each
round's pairings, bye and game ids) and the stored games, in round order, a round counting once all
its games are stored, as ``league.plan.formats.swiss.SwissRun`` takes them. So the report says what
``league run`` said whatever order the games were stored in. The standings are ranked by score,
then Buchholz, then Sonneborn-Berger, then the draw order (``league.plan.swiss_standings``).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import pandas as pd

from engine.core import plural
from league.plan.formats.swiss import played_round
from league.plan.swiss_pairing import RoundPairing
from league.plan.swiss_standings import PlayedRound, final_order, standings
from league.report.page import Paragraph, Section, Table
from league.stats.game_record import INFRA_ERROR, GameRecord

STANDINGS_NOTES = (
    ("score", "points from its games (a win 1, a draw 1/2), a bye counting a win of each game of its round"),
    ("Buchholz", "the sum of the scores of the opponents it met (whole: none dropped; a bye adds nothing)"),
    ("Sonneborn-Berger", "the sum over its meetings of its points in the meeting times that opponent's score"),
    ("byes", "rounds it sat out (an odd field)"),
)


def swiss_section(manifest: dict[str, Any], records: Sequence[GameRecord]) -> Section | None:
    """The Swiss section of a league whose manifest holds its rounds, or None for other leagues."""
    swiss = manifest.get("swiss")
    if manifest.get("format") != "swiss" or not swiss:
        return None
    bots = list(manifest.get("bots") or swiss["draw_order"])
    games = swiss["games_per_round"]
    stored = {record.game_id: record for record in records if record.result.termination != INFRA_ERROR}
    played: list[PlayedRound] = []
    rows = []
    for entry in swiss["rounds_paired"]:
        pairing = RoundPairing(
            tuple(tuple(pair) for pair in entry["pairings"]),  # type: ignore[misc]
            entry["bye"],
            tuple(tuple(pair) for pair in entry["repeats"]),  # type: ignore[misc]
        )
        ids = [game_id for pair_ids in entry["game_ids"] for game_id in pair_ids]
        complete = len(played) == entry["round"] - 1 and all(game_id in stored for game_id in ids)
        done = played_round(pairing, [stored[game_id] for game_id in ids]) if complete else None
        if done is not None:
            played.append(done)
        rows += round_rows(entry, done, games)
    table = standings(bots, played, games)
    figures = final_order(table, swiss["draw_order"])
    frame = pd.DataFrame(
        {
            "place": range(1, len(figures) + 1),
            "bot": [tie.bot for tie in figures],
            "score": [f"{tie.score:g}" for tie in figures],
            "Buchholz": [f"{tie.buchholz:g}" for tie in figures],
            "Sonneborn-Berger": [f"{tie.sonneborn_berger:g}" for tie in figures],
            "byes": [table[tie.bot].byes for tie in figures],
        }
    )
    return Section(
        "Swiss",
        [
            Paragraph(summary(swiss, len(played), bots)),
            Table(frame, STANDINGS_NOTES, name="swiss", text=True),
            Paragraph("Each round's pairings, the bot in the first seat of the round's first game first:"),
            Table(pd.DataFrame(rows, columns=["round", "pairing", "points"]), name="swiss-rounds", text=True),
        ],
    )


def summary(swiss: dict[str, Any], played: int, bots: Sequence[str]) -> str:
    """What the Swiss was and where it stands: rounds played, games a pairing, the bye, the tie-breaks, repeats."""
    rounds, games = swiss["rounds"], swiss["games_per_round"]
    how = (
        "a seat-swapped pair on one seed"
        if games == 2
        else "seats by history"
        if games == 1
        else "seat-swapped pairs on shared seeds"
    )
    order = "drawn from the league seed" if swiss.get("seeding") == "random" else "the file's order"
    where = (
        f"all {plural(rounds, 'round')} played"
        if played == rounds
        else f"{played} of {plural(rounds, 'round')} played (run the league again to go on)"
    )
    bye = (
        f" With {len(bots)} bots one sits out each round: a bye scores {plural(games, 'point')}, a win of each game."
        if len(bots) % 2
        else ""
    )
    repeats = sum(len(entry["repeats"]) for entry in swiss["rounds_paired"][:played])
    again = (
        f" {plural(repeats, 'pairing')} repeated an earlier one: the rounds before left no pairing without."
        if repeats
        else ""
    )
    return (
        f"A Swiss of {where}, {plural(games, 'game')} a pairing each round ({how}): each round pairs bots of equal"
        " or near scores who have not met (maximum-weight matching). Places go by score, then Buchholz, then"
        f" Sonneborn-Berger, then the draw order ({order}).{bye}{again}"
    )


def round_rows(entry: dict[str, Any], done: PlayedRound | None, games: int) -> list[list[str]]:
    """A round's rows: each pairing with its points (or that it is not played yet), and its bye's points."""
    rows = []
    points = {meeting.seats: meeting.points for meeting in done.meetings} if done else {}
    for pair in entry["pairings"]:
        first, second = pair
        got = points.get((first, second))
        shown = f"{got[0]:g} - {got[1]:g}" if got is not None else "not all played yet"
        rows.append([str(entry["round"]), f"{first} - {second}", shown])
    if entry["bye"] is not None:
        rows.append([str(entry["round"]), f"{entry['bye']} (bye)", f"{games:g}" if done else ""])
    return rows
