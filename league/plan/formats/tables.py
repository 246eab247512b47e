"""``format: tables``: ``tables`` tables of each size in ``players_per_table``, each played in every seat rotation."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from engine import GAMES
from engine.core import plural, span
from league.plan.formats.base import FormatInputs, ScheduledFormat
from league.plan.formats.round_robin import opened
from league.plan.game_spec import GameSpec
from league.plan.schedule import Schedule, TableSchedule, balance
from league.plan.table_draw import even_tables

if TYPE_CHECKING:
    from league.plan.config_schema import LeagueConfig


class Tables(ScheduledFormat):
    """Tables of three or more (``league.plan.table_draw``), each played once per seat rotation and variant."""

    name = "tables"
    qualifies = True  # its best may go on to finals (league.plan.formats.finals)
    keys = {"players_per_table": "seat bots at tables", "tables": "seats bots at tables"}  # the first: knockout too

    def seats(self, config: LeagueConfig) -> list[int]:
        """Its table sizes."""
        return list(config.players_per_table or [])

    def check(self, config: LeagueConfig) -> None:
        """Sizes the game allows and the bots fill, enough tables to seat every bot, no pairs."""
        game = GAMES[config.game]
        allowed = span(range(game.min_seats, game.max_seats + 1))
        names = [bot.name for bot in config.bots]
        if "games_per_pair" in config.model_fields_set:
            raise ValueError("games_per_pair: tables have no pairs; say how many tables to draw with tables: N")
        if config.players_per_table is None:
            raise ValueError(f"players_per_table: format tables needs a size ({game.name}: {allowed} players)")
        for size in config.players_per_table:
            if not game.min_seats <= size <= game.max_seats:
                raise ValueError(f"players_per_table: {game.name} is played by {allowed} players, not {size}")
            if size > len(names):
                raise ValueError(f"players_per_table: a table of {size} needs at least {size} bots, not {len(names)}")
        seats = config.tables * sum(config.players_per_table)
        if seats < len(names):
            enough = -(-len(names) // sum(config.players_per_table))
            raise ValueError(
                f"tables: {plural(config.tables, 'table')} of each size seat {seats} of the {len(names)} bots;"
                f" give tables: {enough} or more so that every bot plays"
            )

    def planned(self, inputs: FormatInputs) -> Schedule:
        """Its whole schedule, counted lazily (its tables drawn, their games made when asked for)."""
        config = inputs.config
        sizes = config.players_per_table or []
        schedule = TableSchedule(
            inputs.league, inputs.bots, inputs.variants, sizes, config.tables, inputs.seed, inputs.fingerprints
        )
        return opened(schedule, inputs)

    def describe(self, config: LeagueConfig) -> str:
        """``2 tables of each size (3 and 4 players), each played once per seat rotation and variant``."""
        sizes = config.players_per_table or []
        count = f"{config.tables:,} {'table' if config.tables == 1 else 'tables'}"
        tables = (
            f"{count} of {sizes[0]} players"
            if len(sizes) == 1
            else f"{count} of each size ({' and '.join(map(str, sizes))} players)"
        )
        return f"{tables}, each played once per seat rotation and variant"

    def plan_lines(self, inputs: FormatInputs, planned: Sequence[GameSpec]) -> list[str]:
        """The balance of its tables: games, meetings and seats per bot; the tables that would even the games."""
        lines = ["balance (per variant):"]
        spread = balance(planned, inputs.bots)
        lines += [f"  {line}" for line in spread.lines()]
        if len(set(spread.games.values())) > 1:
            even = even_tables(len(inputs.bots), inputs.config.players_per_table or [], inputs.config.tables)
            lines.append(f"  (uneven games: tables: {even} gives every bot the same games; compare points per game)")
        return lines

    def fewer_games(self, config: LeagueConfig) -> str:
        """Fewer tables."""
        return f"draw fewer tables (tables: {config.tables:,})"
