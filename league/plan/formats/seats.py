"""Which league formats a game's variants can be played in: the seats each format's games have (``Format.seats``).

A pair format (round robin, gauntlet, SPRT, adaptive) seats two bots a game, tables seat their
sizes, a solo league one bot. A game may seat different numbers in different variants (codevs21:
one in solo mode, two in versus), so the check is made per variant, once the variants are built.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING

from engine.core import Game, span

if TYPE_CHECKING:
    from league.plan.config_schema import LeagueConfig
    from league.plan.formats.base import Format


def format_problem(format_: Format, config: LeagueConfig, games: Mapping[str, Game]) -> str | None:
    """``variants.NAME: ...`` for the first variant the format cannot seat, or None when all fit."""
    for name, game in games.items():
        counts = game.seat_counts()
        if format_.alone_too and list(counts) == [1]:
            continue  # a game played alone: e.g. an SPRT compares both bots' runs seed by seed
        for seats in format_.seats(config):
            if seats in counts:
                continue
            allowed = span(counts)
            fits = fitting_formats(counts)
            hint = f"; it fits format: {' or '.join(fits)}" if fits else ""
            what = f"a game of {game.name} here seats {allowed} {'bot' if counts[-1] == 1 else 'bots'}"
            return f"variants.{name}: {what}, and format: {format_.name} plays {seats} a game{hint}"
    return None


def fitting_formats(counts: range) -> list[str]:
    """The formats to suggest for a variant of these seat counts: a round robin, tables, a solo league."""
    fits = ["round_robin"] if 2 in counts else []
    fits += ["tables"] if counts[-1] > 2 else []
    return fits + (["solo"] if 1 in counts else [])
