"""A knockout of tables, for games of more than two seats (nimmt, fish): the best K of each table go on.

Pure: no I/O. A round seats its field at as few tables of at most ``size`` as hold it, the bots
dealt by seed in snake order (seeds 1..t to tables 1..t, then t..1, and so on), so every table has
one of the top seeds and table sizes differ by at most one. A field of ``size`` or fewer is the
final table. Each table plays ``sets`` sets of games (``pairs_per_series``), a set being one game
per rotation of its seats on one seed (each bot in every seat once, as ``format: tables`` plays a
table); its bots are ordered by points over the table's games (1 for first, 0 for last, ties
sharing: ``league.stats.placing``). The best K (``advance``) go on; the final table's best is champion.

A tie across the cut (the K-th and the next bot level on points; at the final table, for first)
plays ``extra_pairs`` more sets one at a time, the cut going to the first order without that tie;
still tied, ``then`` decides among the tied: ``higher_seed`` (the higher seed first) or ``tie_rule``
(their places in the table's last game, which hold the game's own tie-break; the higher seed where
that game left them level). Bots level elsewhere in a table's order are listed by seed.

The next round's field is those who went on, by their place at their table, then by seed. The
placing: the final table's order, then the bots out in later rounds before those out earlier; out
in one round, by their place at their table, then by seed.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from engine.core import derive_seed
from league.plan.knockout_series import SeriesRules
from league.plan.openings import Openings
from league.plan.schedule import Schedule, Seating
from league.stats.game_record import GameRecord
from league.stats.placing import place_points, places


def deal(field: Sequence[str], size: int) -> list[list[str]]:
    """One round's tables: ``field`` (by seed) dealt in snake order to as few tables of at most ``size`` as hold it."""
    count = -(-len(field) // size)
    tables: list[list[str]] = [[] for _ in range(count)]
    for place, bot in enumerate(field):
        row, column = divmod(place, count)
        tables[column if row % 2 == 0 else count - 1 - column].append(bot)
    return tables


def round_sizes(field: int, size: int, advance: int) -> list[list[int]]:
    """The table sizes of every round of ``field`` bots (the last one final table, if it ever comes to one)."""
    rounds = []
    while field > size:
        sizes = [len(table) for table in deal([str(n) for n in range(field)], size)]
        rounds.append(sizes)
        if advance * len(sizes) >= field:
            return rounds  # no fewer bots go on: it never comes down to a final table (``sizes_problem``)
        field = advance * len(sizes)
    rounds.append([field])
    return rounds


def sizes_problem(field: int, size: int, advance: int, fewest: int) -> str | None:
    """Why tables of ``size`` with the best ``advance`` going on cannot play ``field`` bots down to a winner, or None.

    Every table but the final one must seat more than ``advance`` (else everyone there goes on), and
    every table at least ``fewest`` (the game's fewest seats).
    """
    if advance >= size:
        return f"knockout.advance: {advance} of each table go on, but a table seats only {size}; give fewer"
    rounds = round_sizes(field, size, advance)
    for number, sizes in enumerate(rounds, 1):
        final = number == len(rounds) and len(sizes) == 1
        if min(sizes) < fewest:
            return (
                f"players_per_table: round {number} of a knockout of {field} bots would seat a table of"
                f" {min(sizes)}, and the game seats at least {fewest}; give another size or knockout.advance"
            )
        if not final and min(sizes) <= advance:
            return (
                f"knockout.advance: round {number} would seat a table of {min(sizes)}, where all {advance} go on;"
                f" give a smaller knockout.advance or a larger players_per_table"
            )
    return None


@dataclass(frozen=True)
class TableDecision:
    """Where a table stands after the sets it played.

    Attributes:
        points: Per bot of the table, its points over the table's games.
        sets: The sets played.
        order: The table's bots best first once decided, None while another set is needed.
        how: How the cut was made (``points``, ``extra set 1``, ``higher seed``, ``tie rule``), "" while open.
    """

    points: dict[str, float]
    sets: int
    order: list[str] | None
    how: str


def decide_table(
    bots: Sequence[str], records: Sequence[GameRecord], rules: SeriesRules, cut: int, seeds: Sequence[str]
) -> TableDecision:
    """A table's order from its games of whole sets in schedule order (module docstring).

    Args:
        bots: The table's bots.
        records: Its games so far, whole sets, in schedule order.
        rules: ``pairs`` sets first, up to ``extra_pairs`` more, then ``then``.
        cut: How many go on (1 at the final table: its winner).
        seeds: The knockout's bots by seed (ties listed in this order).
    """
    points = dict.fromkeys(bots, 0.0)
    for record in records:
        ranks, offenders = places(record.result), record.result.offenders or []
        for seat, bot in enumerate(record.spec.seats):
            points[bot] += place_points(ranks, offenders, seat)
    per_set = len(bots) * len({record.spec.variant for record in records}) if records else 1
    sets = len(records) // per_set
    seed_of = {bot: number for number, bot in enumerate(seeds)}
    order = sorted(bots, key=lambda bot: (-points[bot], seed_of[bot]))
    if sets < rules.pairs:
        return TableDecision(points, sets, None, "")
    level = points[order[cut - 1]] == points[order[cut]]
    if not level:
        return TableDecision(
            points, sets, order, "points" if sets == rules.pairs else f"extra set {sets - rules.pairs}"
        )
    if sets < rules.most_pairs:
        return TableDecision(points, sets, None, "")
    tied = [bot for bot in order if points[bot] == points[order[cut - 1]]]
    start = order.index(tied[0])  # the tied stand together in ``order``, by seed
    how = "higher seed"
    if rules.then == "tie_rule":
        last = records[-1]
        ranks = places(last.result)
        place_of = {bot: ranks[seat] for seat, bot in enumerate(last.spec.seats)}
        tied.sort(key=lambda bot: (place_of[bot], seed_of[bot]))
        how = "tie rule (the last game)"
    return TableDecision(points, sets, [*order[:start], *tied, *order[start + len(tied) :]], how)


class TableSeriesSchedule(Schedule):
    """The games of one table at its longest: ``sets`` sets, each one game per seat rotation, every variant.

    Set ``s`` (its ``round``) is played on one seed drawn from the league seed, the stage, the table's
    key and ``s``; its ids hash the same, the seats, the fingerprints and the league seed.

    Args:
        league: The league's name.
        stage: The stage's name.
        key: The table's key (``T1.2``: round 1, table 2; ``F``: the final table).
        table: Its bots (by seed).
        variants: Variant names.
        sets: The most sets it may play.
        seed: The league seed.
        fingerprints: Per bot and variant name, a digest of what it stands for.
        openings: What each set starts from, None for the rules' start.
    """

    def __init__(
        self,
        league: str,
        stage: str,
        key: str,
        table: Sequence[str],
        variants: Sequence[str],
        sets: int,
        seed: int,
        fingerprints: Mapping[str, str] | None = None,
        openings: Openings | None = None,
    ) -> None:
        super().__init__(league, variants, seed, fingerprints, sets, len(table))
        self.stage, self.key, self.table = stage, key, tuple(table)
        self.kind = f"knockout/{stage}/{key}"
        self.openings = openings

    def _seating(self, slot: int) -> Seating:
        set_, rotation = divmod(slot, self.columns)
        seats = self.table[rotation:] + self.table[:rotation]
        return self.table, set_, seats, derive_seed(self.seed, "knockout", self.stage, self.key, set_)

    def set_games(self, set_: int) -> range:
        """The positions of set ``set_``'s games in this schedule."""
        width = self.columns * len(self.variants)
        return range(set_ * width, (set_ + 1) * width)
