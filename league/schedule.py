"""Which games a league plays: pure functions, no Ray, no I/O.

Games come in pairs that share one seed with the seats swapped, so a first-seat advantage
cancels out; bots of multi-player games sit at tables, each table played once per rotation of
its seats on one seed. Every variant is played on the same seeds, so variants compare like with
like.
A game's id is a hash of the league, the variant, the pairing, the round and the seat order:
the same config always gives the same ids, whatever runs them.
"""

from __future__ import annotations

import hashlib
import itertools
import random
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import asdict, dataclass
from typing import Any

from engine.core import derive_seed


@dataclass(frozen=True)
class GameSpec:
    """One match to play, as it crosses the wire to a worker.

    Attributes:
        game_id: Deterministic id (hex).
        index: Position in the schedule (ratings are applied in this order).
        league: The league's name.
        variant: The variant's name.
        seats: Bot names, seat 0 first.
        seed: The match seed (below 2**63), shared by the seat-swapped twin and by every variant.
        round: Which repetition of the pairing this is (0-based pair of games).
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
) -> None:
    """Append one game per variant of ``group`` seated as ``seats`` on ``match_seed`` (in place)."""
    for variant in variants:
        content = "|".join([str(seed), *(fingerprints.get(name, "") for name in (variant, *group))])
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

    For each size, ``tables_per_size`` tables are drawn: each seats the bots that have sat at the
    fewest tables so far, preferring those that have met the chosen ones least (seeded tie-breaks),
    so every bot plays about equally often and every pair meets about equally often. A table of
    ``n`` bots is played ``n`` times on one seed with its seats rotated, so each of its bots sits
    in every seat, and gets every hand of a dealt game, once: the table counterpart of a pair's
    seat-swapped games. Every variant is played on the same tables and seeds.

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
    chosen = _draw_tables(bots, sizes, tables_per_size, seed)
    games: list[GameSpec] = []
    for number, table in enumerate(chosen):
        table_seed = derive_seed(seed, "table", number, ",".join(sorted(table)))
        for rotation in range(len(table)):
            seats = table[rotation:] + table[:rotation]
            _add_variants(games, league, seed, variants, prints, table, number, seats, table_seed)
    return games


SWAPS_PER_TABLE = 200
"""Seeded swap proposals per table that improve how evenly pairs meet (see ``_draw_tables``)."""


def _draw_tables(bots: Sequence[str], sizes: Sequence[int], count: int, seed: int) -> list[tuple[str, ...]]:
    """The tables, in play order: for each size, ``count`` groups of bots in their first seat order.

    Two steps, both seeded: each table seats the bots that have sat at the fewest tables so far,
    preferring those that have met the chosen ones least; then bots are swapped between two
    tables of one size (which keeps every bot's table count) whenever that leaves the pairs'
    meetings no less even (by the sum of squared meetings).
    """
    rng = random.Random(derive_seed(seed, "tables"))
    sat = dict.fromkeys(bots, 0)
    met = {frozenset(pair): 0 for pair in itertools.combinations(bots, 2)}
    drawn: list[list[str]] = []
    for size in sizes:
        for _ in range(count):
            table: list[str] = []
            while len(table) < size:
                free = [name for name in bots if name not in table]
                tie_break = {name: rng.random() for name in free}
                table.append(
                    min(free, key=lambda n: (sat[n], sum(met[frozenset((n, o))] for o in table), tie_break[n]))
                )
            for name in table:
                sat[name] += 1
            for pair in itertools.combinations(table, 2):
                met[frozenset(pair)] += size  # games played together: one per seat rotation
            drawn.append(table)
    _even_out_meetings(drawn, met, rng)
    for table in drawn:
        rng.shuffle(table)
    return [tuple(table) for table in drawn]


def _even_out_meetings(drawn: list[list[str]], met: dict[frozenset[str], int], rng: random.Random) -> None:
    """Swap bots between same-sized tables unless that raises the sum of squared meetings (in place)."""
    for _ in range(SWAPS_PER_TABLE * len(drawn)):
        one, other = rng.sample(range(len(drawn)), 2) if len(drawn) > 1 else (0, 0)
        first, second = drawn[one], drawn[other]
        if one == other or len(first) != len(second):
            continue
        a, b = rng.choice(first), rng.choice(second)
        if a in second or b in first:
            continue
        size = len(first)  # meetings count games: a table is played once per seat rotation
        stay_first = [name for name in first if name != a]
        stay_second = [name for name in second if name != b]
        changes: dict[frozenset[str], int] = {}
        for leaving, joining, stay in ((a, b, stay_first), (b, a, stay_second)):
            for other in stay:
                changes[frozenset((leaving, other))] = changes.get(frozenset((leaving, other)), 0) - size
                changes[frozenset((joining, other))] = changes.get(frozenset((joining, other)), 0) + size
        if sum(2 * step * met[pair] + step * step for pair, step in changes.items()) <= 0:  # sideways too
            for pair, step in changes.items():
                met[pair] += step
            first[first.index(a)], second[second.index(b)] = b, a


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
        """The balance for people: games, meetings per pair and seats per bot, each as min to max."""
        meetings = list(self.meetings.values())
        mean = sum(meetings) / len(meetings) if meetings else 0
        out = [
            f"games per bot: {_span(self.games.values())}",
            f"meetings per pair: {_span(meetings)} games at one table (mean {mean:.1f})",
        ]
        for size, per_bot in sorted(self.seats.items()):
            counts = [count for row in per_bot.values() for count in row]
            out.append(f"seats per bot at {size}-player tables: each seat {_span(counts)} times")
        return out


def _span(values: Iterable[int]) -> str:
    values = list(values)
    low, high = (min(values), max(values)) if values else (0, 0)
    return str(low) if low == high else f"{low} to {high}"


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
