"""Stored games as table rows, for the bot's page and the organiser's: who played, how it ended, who faulted."""

from __future__ import annotations

from collections.abc import Iterable

from league.serve.layout import text
from league.stats.game_record import GameRecord

HEAD = "<tr><th>game</th><th>seats</th><th>variant</th><th>scores</th><th>ending</th><th>fault</th></tr>"


def faults_of(record: GameRecord) -> str:
    """Who faulted in a game and why ("seat 1 (alice): its reply ..."), or ""."""
    seats = record.spec.seats
    if record.result.faults:
        return "; ".join(
            f"seat {fault.seat} ({seats[fault.seat] if fault.seat < len(seats) else '?'}): {fault.detail}"
            for fault in record.result.faults
        )
    if record.result.offenders:
        named = ", ".join(
            f"seat {seat} ({seats[seat] if seat < len(seats) else '?'})" for seat in record.result.offenders
        )
        return f"{named}: {record.result.detail}"
    return ""


def game_row(record: GameRecord, extra: str = "") -> str:
    """One game as a row: its replay link, seats (with versions), variant, scores, termination, faults."""
    versions = record.spec.versions or {}
    seats = ", ".join(
        text(seat) + (f" <code>{text(str(versions[seat])[:12])}</code>" if seat in versions else "")
        for seat in record.spec.seats
    )
    scores = " : ".join(str(score) for score in record.result.scores)
    return (
        f'<tr><td><a href="/games/{text(record.game_id)}">{text(record.game_id)}</a>{extra}</td><td>{seats}</td>'
        f"<td>{text(record.spec.variant)}</td><td>{text(scores)}</td><td>{text(record.result.termination)}</td>"
        f"<td>{text(faults_of(record))}</td></tr>"
    )


def games_table(records: Iterable[GameRecord], extra=None) -> str:
    """A table of games; ``extra(record)`` adds HTML after each game's link (a stderr link), if given."""
    rows = "".join(game_row(record, extra(record) if extra else "") for record in records)
    return f"<table><thead>{HEAD}</thead><tbody>{rows}</tbody></table>" if rows else "<p>None.</p>"
