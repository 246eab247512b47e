"""The report's faults section: what each bot did wrong, how often, and what it said on stderr.

What a bot wrote (its stderr tail, the reply a detail quotes) is shown inert (league/match/inert.py): its
control characters escaped, its stderr in a code block that no line of it can close.
"""

from __future__ import annotations

from collections.abc import Sequence
from html import escape
from pathlib import Path
from typing import Any

import pandas as pd

from engine.core import Game, plural
from league.match.inert import inert_block, inert_line, markdown_block, markdown_code, markdown_text
from league.report.page import Block, Paragraph, Raw, Table

FAULT_NOTES = (
    ("TIMEOUT", "no reply in time (per move or in total)"),
    ("CRASH", "the program exited, closed its output or was killed (memory cap, signal)"),
    ("BAD_OUTPUT", "a reply that does not parse, a line over the cap, a reply in the wrong phase"),
    ("ILLEGAL_MOVE", "a well-formed reply that breaks a rule"),
    ("MAX_PLIES", "a safety cap of ours, not the rules' (charged to the seat that reached it)"),
)


def faults_blocks(counts: pd.DataFrame, entries: Sequence[dict[str, Any]], total: int, lost: int = 0) -> list[Block]:
    """The faults section: counts by bot and kind, then each faulted game with its detail and stderr tail.

    Args:
        counts: ``faults_by_bot``: a row per bot that faulted, its games, a column per kind (each seat's own fault).
        entries: ``fault_list`` entries (the first faulted games).
        total: How many games ended by a fault in all.
        lost: How many of the listed games have no stored details (their stderr tails are unknown).
    """
    if not total:
        return [Paragraph("No bot faulted: every game ended by the rules.")]
    kinds = [column for column in counts.columns if column not in ("bot", "games", "total")]
    notes = [("games", "games the bot played")]
    notes += [(kind, meaning) for kind, meaning in FAULT_NOTES if kind in kinds]
    notes.append(("total", "games in which the bot itself faulted, each counted under its own fault's kind"))
    listed = len({entry["game_id"] for entry in entries})
    more = f" (the first {listed} are listed; games.csv has them all)" if listed < total else ""
    blocks: list[Block] = [
        Table(counts, notes, name="faults"),
        Paragraph(f"{plural(total, 'game')} ended by a fault{more}:"),
    ]
    if lost:
        blocks.append(
            Paragraph(
                "moves.jsonl (beside games.jsonl) is missing or damaged: the bots' stderr tails of"
                f" {plural(lost, 'game')} below cannot be shown; their results are whole."
            )
        )
    blocks.append(Raw(_entries_html(entries), _entries_markdown(entries)))
    return blocks


RUN_HINTS = {
    "TIMEOUT": ("timed out", "is its stdout flushed after every reply, and is it fast enough for {limits}?"),
    "CRASH": ("crashed", "its exit status and what it wrote to stderr are in the report"),
    "BAD_OUTPUT": ("gave bad output", "does it print anything but its replies on stdout? debug text belongs on stderr"),
    "ILLEGAL_MOVE": ("made an illegal move", "the report quotes it; `league games {game}` names the rules file"),
    "MAX_PLIES": ("reached our safety cap of plies", "the report says which games"),
}
"""Per kind of fault: what the bot did, and a short hint for its author (``fault_summary``)."""


def fault_summary(folder: Path, game: type[Game] | None) -> list[str]:
    """What ``league run`` says at its end of the bots that faulted: a line per bot, then where the report lists them.

    A bot with one kind of fault: ``noflush: timed out in 16 of 16 games; is its stdout flushed ...?``;
    with several, each kind with its count and hint. The counts are the report's ``faults.csv``
    (``faults_by_bot``: each seat's own faults), so the lines say what the report says.

    Args:
        folder: The league's report folder, its report just written.
        game: The league's game (``engine.GAMES``: its time-limit keys and name go into the hints), None if unknown.

    Returns:
        The lines (none when no bot faulted).
    """
    try:
        counts = pd.read_csv(folder / "faults.csv", keep_default_na=False)
    except (OSError, pd.errors.EmptyDataError):
        return []
    if counts.empty or not {"bot", "games", "total"} <= set(counts.columns):
        return []
    fields = game.model_fields if game is not None else {}
    limits = " and ".join(key for key in fields if key.endswith(("_ms", "_s"))) or "the game's time limits"
    values = {"limits": limits, "game": game.name if game is not None else "GAME"}
    kinds = [column for column in counts.columns if column not in ("bot", "games", "total")]
    lines = []
    for row in counts.to_dict("records"):
        found = [(*RUN_HINTS.get(kind, (f"faulted ({kind})", "see the report")), int(row[kind])) for kind in kinds]
        found = [(what, hint.format(**values), count) for what, hint, count in found if count]
        games = plural(int(row["games"]), "game")
        if len(found) == 1:
            what, hint, count = found[0]
            lines.append(f"{inert_line(str(row['bot']))}: {what} in {count} of {games}; {hint}")
        else:
            parts = "; ".join(f"{what} in {count} ({hint})" for what, hint, count in found)
            lines.append(f"{inert_line(str(row['bot']))}: faulted in {int(row['total'])} of {games}: {parts}")
    return [*lines, f"faults: {folder / 'index.html'}#faults (report.md beside it: section Faults)"]


def _entries_markdown(entries: Sequence[dict[str, Any]]) -> str:
    lines = []
    for entry in entries:
        lines.append(
            f"- {markdown_code(entry['game_id'])} ({markdown_text(entry['variant'])}):"
            f" {markdown_text(entry['bot'])} (seat {entry['seat']}), {entry['termination']}"
            f" {markdown_code(str(entry['reason_code']))}: {markdown_text(entry['detail'])}"
        )
        if entry["stderr"]:
            lines += ["", *(f"  {line}" for line in markdown_block(entry["stderr"]))]
    return "\n".join(lines)


def _entries_html(entries: Sequence[dict[str, Any]]) -> str:
    items = []
    for entry in entries:
        shown = escape(inert_block(entry["stderr"]))
        stderr = (
            f"<details><summary>stderr (last lines)</summary><pre>{shown}</pre></details>"
            if entry["stderr"]
            else "<div><small>(nothing on stderr)</small></div>"
        )
        items.append(
            f"<li><code>{escape(entry['game_id'])}</code> ({escape(entry['variant'])}):"
            f" <b>{escape(inert_line(entry['bot']))}</b> (seat {entry['seat']}), {escape(entry['termination'])}"
            f" <code>{escape(str(entry['reason_code']))}</code>: {escape(inert_line(entry['detail']))}{stderr}</li>"
        )
    return f"<ul class='faults'>{''.join(items)}</ul>"
