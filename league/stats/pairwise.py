"""A league's games as pairwise results in numpy arrays, grouped by the unit a bootstrap must resample.

Every game of two or more seats is split into its pairwise results: each pair of seats (i < j)
is one result for the bot in seat i (the earlier seat, "first") against the bot in seat j
("second"): a win when its rank as the league counts it (``league.stats.placing.places``: the game's
rank, a faulted seat below every seat without a fault) is better, a draw when equal (two seats
that faulted together too), a loss when worse. A game of n seats gives n(n-1)/2 results; a game
of two seats gives one, seat 0 first.

Results are not independent, so they are grouped into resampling units, whose results a
bootstrap keeps together. In a league of pairs (every game two seats) the unit is a round's
seat-swapped pair of games (``spec.round`` and the two bots), all its variants included, since
they share one seed. In a league of tables (any game of three seats or more) the unit is the
table (``spec.round``): every rotation of its seats and every variant. Solo games (one seat) are
left out: nobody was played.

Units are numbered by their round, then by the names of their two bots, never by where the bots
stand in the list the caller gives: a bootstrap draws the same units whatever that list's order.

A unit whose games all repeat an earlier unit's (two deterministic bots that play the same pair of
games on every seed) is no new evidence: it is left out, the first of its copies kept
(``league.stats.distinct``), so every statistic built on these results (ratings and their
intervals, LOS, the verdict, separation) counts identical units once; ``repeated_units`` says how many went.
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from league.stats.distinct import first_units
from league.stats.game_record import GameRecord
from league.stats.placing import places
from league.stats.ratings import INFRA_ERROR

WIN, DRAW, LOSS = 0, 1, 2
"""Outcomes of a pairwise result for its first bot."""

SAMPLE_CHUNK = 32
"""Resamples drawn and summed at once, so that memory stays bounded."""

DENSE_COST = 50
"""Resampled counts are a dense product (units x cells entries) while that has at most this many
entries per row of results, else a sparse sum over the rows (measured: a row of the sparse sum
costs about 70 entries of the dense product)."""

BLOCK_ENTRIES = 2**21
"""Entries of the dense units-by-cells matrix built at a time (16 MB)."""


@dataclass(frozen=True)
class PairwiseResults:
    """Every pairwise result of a league, aggregated per resampling unit.

    Bots are numbered in the order of ``bots`` (those with games, in the caller's order). A cell
    is an ordered pair of bots, ``first * len(bots) + second``.

    Attributes:
        bots: The bots with games.
        unrated: The bots the caller named that have no games.
        tables: Whether any game had three seats or more (units are then whole tables).
        unit_round: Per unit, its ``spec.round``.
        row_unit: Per aggregated row, its unit.
        row_cell: Per row, its cell.
        row_outcome: Per row, the first bot's outcome (``WIN``, ``DRAW`` or ``LOSS``).
        row_count: Per row, how many results it stands for.
        unit_seat0_points: Per unit, seat 0's mean pairwise result summed over its games (1 first, 0 last;
            ``_seat0_rank_points``).
        unit_games: Per unit, its games.
        bot_games: Per bot, the games it played (distinct units only).
        repeated_units: Units left out because they repeated an earlier unit's games.
        repeated_games: The games of those units.
    """

    bots: list[str]
    unrated: list[str]
    tables: bool
    unit_round: np.ndarray
    row_unit: np.ndarray
    row_cell: np.ndarray
    row_outcome: np.ndarray
    row_count: np.ndarray
    unit_seat0_points: np.ndarray
    unit_games: np.ndarray
    bot_games: np.ndarray
    repeated_units: int = 0
    repeated_games: int = 0

    @property
    def units(self) -> int:
        """How many resampling units there are."""
        return len(self.unit_round)

    def counts(self, weights: np.ndarray | None = None) -> np.ndarray:
        """Win/draw/loss counts per cell, with every unit counted ``weights`` times.

        Args:
            weights: ``(samples, units)`` how often each sample counts each unit (a bootstrap
                draw, or 0/1 to keep some units); None counts every unit once.

        Returns:
            ``(samples, bots, bots, 3)`` counts of the first bot's wins, draws and losses against
            the second (``(bots, bots, 3)`` when ``weights`` is None).
        """
        size = len(self.bots)
        cells = size * size * 3
        flat = self.row_cell * 3 + self.row_outcome
        if weights is None:
            return np.bincount(flat, weights=self.row_count, minlength=cells).reshape(size, size, 3)
        weights = np.asarray(weights, dtype=float)
        if self.units * cells <= DENSE_COST * len(self.row_unit):
            return self._dense_counts(weights, flat, cells).reshape(len(weights), size, size, 3)
        out = np.empty((len(weights), cells))
        for start in range(0, len(weights), SAMPLE_CHUNK):
            chunk = weights[start : start + SAMPLE_CHUNK]
            offsets = (np.arange(len(chunk)) * cells)[:, None] + flat[None, :]
            values = chunk[:, self.row_unit] * self.row_count[None, :]
            out[start : start + len(chunk)] = np.bincount(
                offsets.ravel(), weights=values.ravel(), minlength=len(chunk) * cells
            ).reshape(len(chunk), cells)
        return out.reshape(len(weights), size, size, 3)

    def _dense_counts(self, weights: np.ndarray, flat: np.ndarray, cells: int) -> np.ndarray:
        """``weights`` times a dense units-by-cells matrix, built a block of units at a time.

        Rows are sorted by unit, so each block is a slice. The products are of whole numbers, so
        the sums are exact whatever order they are added in. ``einsum`` rather than ``@``: BLAS
        threads spin and slow down tenfold on a machine whose cores are busy with other work.
        """
        out = np.zeros((len(weights), cells))
        block = max(1, BLOCK_ENTRIES // max(cells, 1))
        bounds = np.searchsorted(self.row_unit, np.arange(0, self.units + block, block))
        for number, start in enumerate(range(0, self.units, block)):
            stop = min(start + block, self.units)
            rows = slice(bounds[number], bounds[number + 1])
            by_unit = np.bincount(
                (self.row_unit[rows] - start) * cells + flat[rows],
                weights=self.row_count[rows],
                minlength=(stop - start) * cells,
            ).reshape(stop - start, cells)
            out += np.einsum("su,uc->sc", weights[:, start:stop], by_unit, optimize=False)
        return out


def pairwise_results(bots: Sequence[str], records: Sequence[GameRecord]) -> PairwiseResults:
    """The pairwise results of ``records`` in one pass (see the module's docstring).

    Args:
        bots: Every bot of the league (bots without games are listed in ``unrated``).
        records: Scored games (``league.stats.ratings.scored``; INFRA_ERROR games are skipped all the same).

    Raises:
        ValueError: A game seats a bot that ``bots`` does not name.
    """
    index = {name: k for k, name in enumerate(bots)}
    by_size: dict[int, tuple[list[list[int]], list[list[int]], list[int]]] = {}
    played = [record for record in records if len(record.spec.seats) >= 2 and record.result.termination != INFRA_ERROR]
    kept, repeated_units = _distinct_units(played)
    try:
        for record in kept:
            spec, result = record.spec, record.result
            group = by_size.setdefault(len(spec.seats), ([], [], []))
            group[0].append([index[name] for name in spec.seats])
            group[1].append(places(result))
            group[2].append(spec.round)
    except KeyError as missing:
        raise ValueError(f"a game seats {missing}, a bot the league does not name") from None
    groups = {size: tuple(np.array(column, dtype=np.int64) for column in group) for size, group in by_size.items()}
    seated = np.zeros(len(bots), dtype=bool)
    for seats, _, _ in groups.values():
        seated[seats.ravel()] = True
    renumber = np.cumsum(seated) - 1
    size = int(seated.sum())
    tables = any(width > 2 for width in groups)
    all_seats = [renumber[seats] for seats, _, _ in groups.values()]
    rounds = np.concatenate([round_ for _, _, round_ in groups.values()]) if groups else np.zeros(0, dtype=np.int64)
    if tables or not groups:
        keys = rounds
    else:  # a round's pair of games: its round and its two bots, by name (never by their place in ``bots``)
        by_name = _name_ranks([name for name, present in zip(bots, seated, strict=True) if present])
        seats = by_name[np.concatenate(all_seats)]
        keys = (rounds * size + seats.min(axis=1)) * size + seats.max(axis=1)
    distinct_units, game_unit = np.unique(keys, return_inverse=True)
    units = len(distinct_units)
    unit_round = distinct_units if tables else distinct_units // (size * size) if size else distinct_units
    row_keys, seat0_points, bot_games = [], np.zeros(units), np.zeros(size, dtype=np.int64)
    start = 0
    for seats, (_, ranks, _) in zip(all_seats, groups.values(), strict=True):
        unit = game_unit[start : start + len(seats)]
        start += len(seats)
        for i, j in itertools.combinations(range(seats.shape[1]), 2):
            outcome = np.where(ranks[:, i] < ranks[:, j], WIN, np.where(ranks[:, i] == ranks[:, j], DRAW, LOSS))
            row_keys.append(((unit * size + seats[:, i]) * size + seats[:, j]) * 3 + outcome)
        seat0_points += np.bincount(unit, weights=_seat0_rank_points(ranks), minlength=units)
        bot_games += np.bincount(seats.ravel(), minlength=size)
    all_keys = np.concatenate(row_keys) if row_keys else np.zeros(0, dtype=np.int64)
    distinct, count = np.unique(all_keys, return_counts=True)
    cells = max(size * size, 1)
    return PairwiseResults(
        bots=[name for name, present in zip(bots, seated, strict=True) if present],
        unrated=[name for name, present in zip(bots, seated, strict=True) if not present],
        tables=tables,
        unit_round=unit_round,
        row_unit=distinct // (3 * cells),
        row_cell=distinct // 3 % cells,
        row_outcome=distinct % 3,
        row_count=count.astype(float),
        unit_seat0_points=seat0_points,
        unit_games=np.bincount(game_unit, minlength=units).astype(float),
        bot_games=bot_games,
        repeated_units=repeated_units,
        repeated_games=len(played) - len(kept),
    )


def _unit_of(tables: bool) -> Any:
    """A record's resampling unit as a sortable key: its round, and for pairs its two bots by name."""
    if tables:
        return lambda record: (int(record.spec.round), ())
    return lambda record: (int(record.spec.round), tuple(sorted(record.spec.seats)))


def _distinct_units(records: list[GameRecord]) -> tuple[list[GameRecord], int]:
    """``records`` less the units that repeat an earlier one (``distinct.first_units``), and how many units went."""
    unit_of = _unit_of(any(len(record.spec.seats) > 2 for record in records))
    kept = first_units(records, unit_of)
    if len(kept) == len(records):
        return kept, 0
    return kept, len({unit_of(record) for record in records}) - len({unit_of(record) for record in kept})


def _name_ranks(names: list[str]) -> np.ndarray:
    """Per bot (in the order of ``names``), its place in the names sorted: a numbering no list order changes."""
    ranks = np.empty(len(names), dtype=np.int64)
    ranks[sorted(range(len(names)), key=names.__getitem__)] = np.arange(len(names))
    return ranks


def _seat0_rank_points(ranks: np.ndarray) -> np.ndarray:
    """Seat 0's points by rank in each game from the league's ranks (``league.stats.placing.rank_points``, vectorised).

    This is seat 0's mean pairwise result against the other seats (above 1, level 1/2, below 0),
    so 1/2 is par in every game: where seat 0 faulted together with others it draws with them
    here, while the standings give a faulted seat the points of the last place of its tie
    (``league.stats.placing.place_points``).
    """
    seats = ranks.shape[1]
    mine = ranks[:, :1]
    place = 1 + (ranks < mine).sum(axis=1) + ((ranks == mine).sum(axis=1) - 1) / 2
    return (seats - place) / (seats - 1)


def bootstrap(results: PairwiseResults, samples: int, rng: np.random.Generator) -> tuple[np.ndarray, np.ndarray]:
    """The counts of ``samples`` bootstrap resamples of the units, and seat 0's mean points in each.

    Each resample draws ``results.units`` units with replacement, ``SAMPLE_CHUNK`` resamples at a
    time so that memory stays bounded however many units there are.

    Args:
        results: The league's pairwise results.
        samples: Resamples.
        rng: The seeded generator.

    Returns:
        ``(samples, bots, bots, 3)`` win/draw/loss counts (as ``PairwiseResults.counts``) and
        ``(samples,)`` seat 0's mean points by rank per game.
    """
    size = len(results.bots)
    counts, seat0 = np.empty((samples, size, size, 3)), np.empty(samples)
    for start in range(0, samples, SAMPLE_CHUNK):
        weights = unit_draws(results.units, min(SAMPLE_CHUNK, samples - start), rng)
        counts[start : start + len(weights)] = results.counts(weights)
        games = np.einsum("su,u->s", weights, results.unit_games, optimize=False)
        points = np.einsum("su,u->s", weights, results.unit_seat0_points, optimize=False)
        seat0[start : start + len(weights)] = points / np.maximum(games, 1)
    return counts, seat0


def unit_draws(units: int, samples: int, rng: np.random.Generator) -> np.ndarray:
    """``(samples, units)``: how often each resample draws each unit (``units`` draws with replacement)."""
    draws = rng.integers(0, units, size=(samples, units)) if units else np.zeros((samples, 0), dtype=np.int64)
    offsets = draws + (np.arange(samples) * units)[:, None]
    return np.bincount(offsets.ravel(), minlength=samples * units).reshape(samples, units).astype(float)
