"""Which league formats a game's variants can be played in: the seats each format needs.

A pair format (round robin, gauntlet) seats two bots a game, tables seat their sizes, a solo
league one bot. A game may seat different numbers in different variants (codevs21: one in solo
mode, two in versus), so the check is made per variant, once the variants are built.
"""

from __future__ import annotations

from collections.abc import Mapping

from engine.core import Game, span

PAIRS = ("round_robin", "gauntlet", "sprt", "adaptive", "swiss")


def seats_needed(format_: str, sizes: list[int] | None) -> list[int]:
    """The seat counts a format plays."""
    if format_ in PAIRS:
        return [2]
    if format_ == "tables":
        return list(sizes or [])
    return [1]


def format_problem(format_: str, sizes: list[int] | None, games: Mapping[str, Game]) -> str | None:
    """``variants.NAME: ...`` for the first variant the format cannot seat, or None when all fit."""
    for name, game in games.items():
        counts = game.seat_counts()
        if format_ == "sprt" and list(counts) == [1]:
            continue  # a game played alone: its SPRT compares both bots' runs seed by seed
        for seats in seats_needed(format_, sizes):
            if seats in counts:
                continue
            allowed = span(counts)
            fits = [other for other in (*PAIRS[:1], "tables", "solo") if _fits(other, counts)]
            hint = f"; it fits format: {' or '.join(fits)}" if fits else ""
            what = f"a game of {game.name} here seats {allowed} {'bot' if counts[-1] == 1 else 'bots'}"
            return f"variants.{name}: {what}, and format: {format_} plays {seats} a game{hint}"
    return None


def _fits(format_: str, counts: range) -> bool:
    if format_ == "tables":
        return counts[-1] > 2
    return all(seats in counts for seats in seats_needed(format_, None))
