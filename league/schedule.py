"""Which games a league plays: pure functions, no Ray, no I/O.

Games come in pairs that share one seed with the seats swapped, so a first-seat advantage
cancels out; bots of multi-player games sit at tables, each table played once per rotation of
its seats on one seed; in a solo league every bot plays alone on the same seeds. Every variant
is played on the same seeds, so variants compare like with like.
A game's id is a hash of the league, the variant, the pairing, the round and the seat order:
the same config always gives the same ids, whatever runs them.
"""

from __future__ import annotations

import hashlib
import itertools
import math
import random
from collections.abc import Mapping, Sequence
from dataclasses import asdict, dataclass
from typing import Any

import numpy as np

from engine.core import derive_seed, span


@dataclass(frozen=True)
class GameSpec:
    """One match to play, as it crosses the wire to a worker.

    Attributes:
        game_id: Deterministic id (hex).
        index: Position in the schedule (ratings are applied in this order).
        league: The league's name.
        variant: The variant's name.
        seats: Bot names, seat 0 first.
        seed: The match seed (below 2**63), shared by the seat-swapped twin (a table's rotations)
            and by every variant.
        round: Which repetition of the pairing this is (0-based pair of games); for tables, the
            table's number in the schedule.
    """

    game_id: str
    index: int
    league: str
    variant: str
    seats: tuple[str, ...]
    seed: int
    round: int

    def to_json(self) -> dict[str, Any]:
        """JSON-ready data."""
        data = asdict(self)
        data["seats"] = list(self.seats)
        return data


def game_id(
    league: str, variant: str, pairing: Sequence[str], round_: int, seats: Sequence[str], content: str = ""
) -> str:
    """The id of one game: a hash of what makes it that game.

    Args:
        league: The league's name.
        variant: The variant's name.
        pairing: The bots that meet.
        round_: Which repetition of the pairing.
        seats: The seat order.
        content: What the names stand for (variant parameters, bot specs, seed, limits), so a
            changed config gives new games instead of reusing stored ones.
    """
    text = "\x1f".join([league, variant, ",".join(sorted(pairing)), str(round_), ",".join(seats), content])
    return hashlib.sha256(text.encode()).hexdigest()[:20]


def _pair_games(
    league: str,
    seed: int,
    variants: Sequence[str],
    pairings: Sequence[tuple[str, str]],
    games_per_pair: int,
    fingerprints: Mapping[str, str],
) -> list[GameSpec]:
    games: list[GameSpec] = []
    for game_number in range(games_per_pair):
        round_, swapped = divmod(game_number, 2)
        for pairing in pairings:
            key = ",".join(sorted(pairing))
            match_seed = derive_seed(seed, "match", key, round_)
            # Odd rounds open with the other seat first, so an odd games_per_pair stays balanced overall.
            first_first = (round_ % 2 == 0) != bool(swapped)
            seats = pairing if first_first else (pairing[1], pairing[0])
            _add_variants(games, league, seed, variants, fingerprints, pairing, round_, seats, match_seed)
    return games


def _add_variants(
    games: list[GameSpec],
    league: str,
    seed: int,
    variants: Sequence[str],
    fingerprints: Mapping[str, str],
    group: Sequence[str],
    round_: int,
    seats: Sequence[str],
    match_seed: int,
    kind: str = "",
) -> None:
    """Append one game per variant of ``group`` seated as ``seats`` on ``match_seed`` (in place).

    ``kind`` tells formats apart in the ids ("table" for tables; pairs add nothing), so that a
    table of two is never taken for a pair's game of the same number stored by another format.
    """
    for variant in variants:
        content = "|".join(
            [str(seed), *([kind] if kind else []), *(fingerprints.get(name, "") for name in (variant, *group))]
        )
        games.append(
            GameSpec(
                game_id=game_id(league, variant, group, round_, seats, content),
                index=len(games),
                league=league,
                variant=variant,
                seats=tuple(seats),
                seed=match_seed,
                round=round_,
            )
        )


def round_robin(
    league: str,
    bots: Sequence[str],
    variants: Sequence[str],
    games_per_pair: int,
    seed: int,
    fingerprints: Mapping[str, str] | None = None,
) -> list[GameSpec]:
    """Every pair of bots meets ``games_per_pair`` times per variant, seats swapped inside each pair.

    Args:
        league: The league's name (part of every game id).
        bots: Bot names.
        variants: Variant names.
        games_per_pair: Games each pair plays per variant.
        seed: The league seed.
        fingerprints: Per bot and variant name, a digest of what it stands for (part of the ids).
    """
    pairings = list(itertools.combinations(bots, 2))
    return _pair_games(league, seed, variants, pairings, games_per_pair, fingerprints or {})


def gauntlet(
    league: str,
    candidates: Sequence[str],
    field: Sequence[str],
    variants: Sequence[str],
    games_per_pair: int,
    seed: int,
    fingerprints: Mapping[str, str] | None = None,
) -> list[GameSpec]:
    """Each candidate plays each bot of the field (not each other), like a round robin's pairs."""
    pairings = [(candidate, opponent) for candidate in candidates for opponent in field if opponent != candidate]
    return _pair_games(league, seed, variants, pairings, games_per_pair, fingerprints or {})


def solo(
    league: str,
    bots: Sequence[str],
    variants: Sequence[str],
    runs: int,
    seed: int,
    fingerprints: Mapping[str, str] | None = None,
) -> list[GameSpec]:
    """Every bot plays every variant ``runs`` times alone, all bots on the same seeds (a qualifier).

    Run ``r`` of every variant and bot has one seed, so bots are compared on the same packs and
    variants (the qualifier's cases) on the same seeds.
    """
    prints = fingerprints or {}
    games: list[GameSpec] = []
    for run in range(runs):
        run_seed = derive_seed(seed, "solo", run)
        for name in bots:
            _add_variants(games, league, seed, variants, prints, (name,), run, (name,), run_seed, "solo")
    return games


def tables(
    league: str,
    bots: Sequence[str],
    variants: Sequence[str],
    sizes: Sequence[int],
    tables_per_size: int,
    seed: int,
    fingerprints: Mapping[str, str] | None = None,
) -> list[GameSpec]:
    """Bots sit at tables of ``sizes`` players; each table plays one game per rotation of its seats.

    ``tables_per_size`` tables are drawn of each size, the sizes taking turns, one table at a time
    (see ``_draw_tables``): every bot sits at about as many tables of each size as every other,
    in the whole schedule and in any stretch of it that has been played, and pairs meet about
    equally often. A table of ``n`` bots is played ``n`` times on one seed with its seats
    rotated, so each of its bots sits in every seat, and gets every hand of a dealt game, once:
    the table counterpart of a pair's seat-swapped games. Every variant is played on the same
    tables and seeds. Raising ``tables_per_size`` keeps every table drawn before, so stored
    games stay valid, as raising ``games_per_pair`` does for pairs.

    Args:
        league: The league's name (part of every game id).
        bots: Bot names.
        variants: Variant names.
        sizes: The table sizes, each at most ``len(bots)``.
        tables_per_size: Tables drawn per size (each played once per seat rotation and variant).
        seed: The league seed (draws the tables and seeds their games).
        fingerprints: Per bot and variant name, a digest of what it stands for (part of the ids).
    """
    prints = fingerprints or {}
    games: list[GameSpec] = []
    for number, table in enumerate(_draw_tables(bots, sizes, tables_per_size, seed)):
        table_seed = derive_seed(seed, "table", number, ",".join(sorted(table)))
        for rotation in range(len(table)):
            seats = table[rotation:] + table[:rotation]
            _add_variants(games, league, seed, variants, prints, table, number, seats, table_seed, "table")
    return games


WEIGHT_POWER = 2
"""Pairs are kept apart by the square of how often they met: a pair that met often weighs more than two
that met half as often, which keeps the most frequent meetings down (see ``_draw_tables``)."""


def _draw_tables(bots: Sequence[str], sizes: Sequence[int], count: int, seed: int) -> list[tuple[str, ...]]:
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
    """A block of ``count`` tables (see ``_draw_tables``), ``weight`` the cost of seating each pair together."""
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


def balance(specs: Sequence[GameSpec], bots: Sequence[str]) -> Balance:
    """The games, meetings and seats of each bot in the first variant's games of ``specs``."""
    first = specs[0].variant if specs else ""
    games = dict.fromkeys(bots, 0)
    meetings = {pair: 0 for pair in itertools.combinations(sorted(bots), 2)}
    seats: dict[int, dict[str, list[int]]] = {}
    for spec in specs:
        if spec.variant != first:
            continue
        size = len(spec.seats)
        per_bot = seats.setdefault(size, {name: [0] * size for name in bots})
        for seat, name in enumerate(spec.seats):
            games[name] += 1
            per_bot[name][seat] += 1
        for pair in itertools.combinations(sorted(spec.seats), 2):
            meetings[pair] += 1  # type: ignore[index]
    return Balance(games, meetings, seats)
