"""The tables of a table league: how they are drawn, and how evenly a schedule spreads its bots.

Tables are drawn with seats and meetings balanced, in blocks never changed afterwards.

Pure: the league seed alone decides the draw (``league.plan.schedule.TableSchedule`` plays the tables).
"""

from __future__ import annotations

import itertools
import math
import random
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from engine.core import derive_seed, span

WEIGHT_POWER = 2
"""Pairs are kept apart by the square of how often they met: a pair that met often weighs more than two
that met half as often, which keeps the most frequent meetings down (see ``draw_tables``)."""


def draw_tables(bots: Sequence[str], sizes: Sequence[int], count: int, seed: int) -> list[tuple[str, ...]]:
    """The tables in play order, ``count`` of each size, the sizes taking turns, each in first seat order.

    Tables are drawn in blocks of ``ceil(len(bots) / size)`` tables of one size, in which each bot
    sits about once; blocks are drawn in the order of their first table (the sizes taking turns),
    each from the blocks before it and a random generator of its own (the league seed, the size
    and the block's number), and never changed afterwards: a longer schedule starts with the same
    tables, and every stretch of whole blocks is balanced. A table takes the bots that have sat at
    the fewest tables of its size (so any part of a block is balanced too), preferring among them
    those that have met its bots least; then, while one helps, the best swap of two bots between
    tables of the block (seats whose bots had sat equally often) is made, each pair weighing the
    square of its meetings so far (``WEIGHT_POWER``). Seat orders are random.
    """
    per_block = [math.ceil(len(bots) / size) for size in sizes]
    blocks = sorted(
        (number * per_block[k], k, number)
        for k in range(len(sizes))
        for number in range(math.ceil(count / per_block[k]))
    )
    sat = [np.zeros(len(bots), dtype=np.int64) for _ in sizes]
    met = np.zeros((len(bots), len(bots)), dtype=np.int64)
    drawn: list[list[list[int]]] = [[] for _ in sizes]
    for _, k, number in blocks:
        size = sizes[k]
        rng = random.Random(derive_seed(seed, "tables", size, number))
        for table in _draw_block(sat[k], met**WEIGHT_POWER, size, per_block[k], rng):
            sat[k][table] += 1
            for a, b in itertools.combinations(table, 2):
                met[a, b] += size  # games played together: one per seat rotation
                met[b, a] += size
            rng.shuffle(table)
            drawn[k].append(table)
    return [tuple(bots[bot] for bot in drawn[k][number]) for number in range(count) for k in range(len(sizes))]


def _draw_block(sat: np.ndarray, weight: np.ndarray, size: int, count: int, rng: random.Random) -> list[list[int]]:
    """A block of ``count`` tables (see ``draw_tables``), ``weight`` the cost of seating each pair together."""
    seated = sat.copy()
    tables: list[list[int]] = []
    levels: list[int] = []  # per seat of the block, in table order: how often its bot had sat before
    for _ in range(count):
        order = list(range(len(sat)))
        rng.shuffle(order)  # random among equals below
        table: list[int] = []
        while len(table) < size:
            free = [bot for bot in order if bot not in table]
            fewest = min(seated[bot] for bot in free)
            candidates = (bot for bot in free if seated[bot] == fewest)
            table.append(min(candidates, key=lambda bot: weight[bot, table].sum()))
            levels.append(fewest)
        seated[table] += 1
        tables.append(table)
    _improve_block(tables, np.array(levels), weight)
    return tables


def _improve_block(tables: list[list[int]], levels: np.ndarray, weight: np.ndarray) -> None:
    """Make the best swap of two bots between tables while one lowers the weight of the pairs seated together.

    Only seats of the same level (how often their bot had sat before) are swapped, so every table
    still seats bots that had sat least, and the block stays balanced table by table. ``weight``
    is symmetric with a zero diagonal. Changes ``tables``.
    """
    if len(tables) < 2:
        return
    size = len(tables[0])
    owner = np.repeat(np.arange(len(tables)), size)
    same_level = levels[:, None] == levels[None, :]
    for _ in range(size * len(tables)):  # each swap lowers the cost: a bound that is never reached in practice
        grid = np.array(tables)
        flat = grid.ravel()
        with_table = weight[flat][:, grid].sum(axis=2)  # [position, table]: met with that table's bots
        own = with_table[np.arange(len(flat)), owner]
        joined = with_table[:, owner]  # [i, j]: bot i with the table of position j
        delta = joined + joined.T - own[:, None] - own[None, :] - 2 * weight[np.ix_(flat, flat)]
        member = np.zeros((weight.shape[0], len(tables)), dtype=bool)
        member[flat, owner] = True
        elsewhere = ~member[flat][:, owner]  # [i, j]: bot i not at position j's table (so not one table)
        delta = np.where(elsewhere & elsewhere.T & same_level, delta, 0)
        i, j = np.unravel_index(int(np.argmin(delta)), delta.shape)
        if delta[i, j] >= 0:
            return
        (ti, si), (tj, sj) = divmod(int(i), size), divmod(int(j), size)
        tables[ti][si], tables[tj][sj] = tables[tj][sj], tables[ti][si]


@dataclass(frozen=True)
class Balance:
    """How evenly a schedule spreads its bots (per variant: every variant has the same games).

    Attributes:
        games: Per bot, its games.
        meetings: Per pair of bots (sorted names), the games they played at one table.
        seats: Per table size, per bot, how often it sat in each seat.
    """

    games: dict[str, int]
    meetings: dict[tuple[str, str], int]
    seats: dict[int, dict[str, list[int]]]

    def lines(self) -> list[str]:
        """The balance for people: games, games together per pair, tables and seats per bot, as min to max."""
        meetings = list(self.meetings.values())
        mean = sum(meetings) / len(meetings) if meetings else 0
        out = [
            f"games per bot: {span(self.games.values())}",
            f"games each pair plays together: {span(meetings)} (mean {mean:.1f})",
        ]
        for size, per_bot in sorted(self.seats.items()):
            counts = [count for row in per_bot.values() for count in row]
            tables_of = [sum(row) // size for row in per_bot.values()]  # a table is one game per seat rotation
            out.append(
                f"{size}-player tables per bot: {span(tables_of)}; each bot sits in each seat"
                f" {span(counts)} {'time' if max(counts) == 1 else 'times'}"
            )
        return out


def even_tables(bots: int, sizes: Sequence[int], tables_per_size: int) -> int:
    """The fewest tables per size, at least ``tables_per_size``, that give every bot the same games.

    That is when every size's seats (tables times size) divide evenly among the bots: each bot
    then sits at the same number of tables of each size. A multiple of ``bots`` always does, so
    the answer is below ``tables_per_size + bots``.
    """
    return next(
        count
        for count in range(tables_per_size, tables_per_size + bots)
        if all(count * size % bots == 0 for size in sizes)
    )


def table_balance(tables: Sequence[tuple[str, ...]], bots: Sequence[str]) -> Balance:
    """The ``Balance`` of a table league's games in one variant, from its tables alone.

    Each table is played once per rotation of its seats: each of its bots plays as many games as
    the table seats, once in every seat, and each pair of them meets as often.
    """
    games = dict.fromkeys(bots, 0)
    meetings = {pair: 0 for pair in itertools.combinations(sorted(bots), 2)}
    seats: dict[int, dict[str, list[int]]] = {}
    for table in tables:
        size = len(table)
        per_bot = seats.setdefault(size, {name: [0] * size for name in bots})
        for name in table:
            games[name] += size
            for seat in range(size):
                per_bot[name][seat] += 1
        for pair in itertools.combinations(sorted(table), 2):
            meetings[pair] += size  # type: ignore[index]
    return Balance(games, meetings, seats)
