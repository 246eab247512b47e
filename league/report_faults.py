"""The report's faults section: what each bot did wrong, how often, and what it said on stderr.

What a bot wrote (its stderr tail, the reply a detail quotes) is shown inert (league/inert.py): its
control characters escaped, its stderr in a code block that no line of it can close.
"""

from __future__ import annotations

from collections.abc import Sequence
from html import escape
from typing import Any

import pandas as pd

from engine.core import plural
from league.inert import inert_block, inert_line, markdown_block, markdown_code, markdown_text
from league.report_page import Block, Paragraph, Raw, Table

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
        counts: ``faults_by_bot``: a row per bot that faulted, a column per kind.
        entries: ``fault_list`` entries (the first faulted games).
        total: How many games ended by a fault in all.
        lost: How many of the listed games have no stored details (their stderr tails are unknown).
    """
    if not total:
        return [Paragraph("No bot faulted: every game ended by the rules.")]
    kinds = [column for column in counts.columns if column not in ("bot", "total")]
    notes = [(kind, meaning) for kind, meaning in FAULT_NOTES if kind in kinds]
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
