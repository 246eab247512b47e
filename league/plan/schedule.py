"""Which games a league plays: pure functions, no Ray, no I/O.

Games come in pairs that share one seed with the seats swapped, so a first-seat advantage
cancels out; bots of multi-player games sit at tables, each table played once per rotation of
its seats on one seed; in a solo league every bot plays alone on the same seeds. Every variant
is played on the same seeds, so variants compare like with like.
Every game's id is a hash of what makes it that game (``league.plan.game_spec.game_id``): the same
config always gives the same ids, whatever runs them. A ``Schedule`` makes each game only when it is
asked for, so a league of millions of games is counted and sampled without being built.
"""

from __future__ import annotations

import itertools
import json
import typing
from collections.abc import Iterator, Mapping, Sequence

from engine.core import derive_seed
from league.plan.game_spec import GameSpec, game_id
from league.plan.openings import Openings
from league.plan.table_draw import Balance, draw_tables, table_balance

Seating = tuple[tuple[str, ...], int, tuple[str, ...], int]
"""One seating of a schedule, played once per variant: the group of bots, the round, the seat order, the match seed."""


class Schedule(Sequence[GameSpec]):
    """A league's games in schedule order, each made only when it is asked for.

    The games are ``rounds`` rounds of ``columns`` seatings each (a pair's game, a bot's solo run, a
    table's seat rotation), every seating played once per variant, in this order: so a schedule is
    counted, indexed and sampled by arithmetic, without building its games, however long it is.
    ``list(schedule)`` is the league's whole schedule (``round_robin``, ``gauntlet``, ``solo`` and
    ``tables`` build it so).

    Args:
        league: The league's name (part of every game id).
        variants: Variant names.
        seed: The league seed.
        fingerprints: Per bot and variant name, a digest of what it stands for (part of the ids).
        rounds: How many rounds.
        columns: Seatings per round.
    """

    openings: Openings | None = None
    """What each round's games start from (``league.plan.openings``; part of their ids), None for the rules' start."""

    kind = ""
    """Tells formats apart in the ids ("table", "solo"; pairs add nothing), so that a table of two is never
    taken for a pair's game of the same number stored by another format."""

    def __init__(
        self,
        league: str,
        variants: Sequence[str],
        seed: int,
        fingerprints: Mapping[str, str] | None,
        rounds: int,
        columns: int,
    ) -> None:
        self.league = league
        self.variants = tuple(variants)
        self.seed = seed
        self.fingerprints = dict(fingerprints or {})
        self.rounds = rounds
        self.columns = columns

    def __len__(self) -> int:
        return self.rounds * self.columns * len(self.variants)

    @typing.overload
    def __getitem__(self, index: int) -> GameSpec: ...

    @typing.overload
    def __getitem__(self, index: slice) -> list[GameSpec]: ...

    def __getitem__(self, index: int | slice) -> GameSpec | list[GameSpec]:
        if isinstance(index, slice):
            return [self[position] for position in range(*index.indices(len(self)))]
        position = index + len(self) if index < 0 else index
        if not 0 <= position < len(self):
            raise IndexError(f"game {index} of a schedule of {len(self)}")
        return self._game_at(position)

    def _game_at(self, position: int) -> GameSpec:
        """The game at ``position`` (0 to ``len - 1``): its seating's, in its variant."""
        slot, variant = divmod(position, len(self.variants))
        return self._spec(position, self.variants[variant], self._seating(slot))

    def __iter__(self) -> Iterator[GameSpec]:
        index = 0
        for slot in range(self.rounds * self.columns):
            seating = self._seating(slot)
            for variant in self.variants:
                yield self._spec(index, variant, seating)
                index += 1

    def sample(self, count: int) -> list[tuple[GameSpec, float]]:
        """At most ``count`` games spread over the schedule, each with how many of its games it stands for.

        A stratum is one column (a pairing, a solo bot, a table size's seat rotation) in one variant:
        every stratum holds ``rounds`` games. The sample takes one game from each of ``count`` strata
        spread evenly over them (all of them when there are no more than ``count``), the variants
        taking turns, each from a round spread evenly over the rounds. The weights add up to the
        schedule's length.
        """
        strata = self.columns * len(self.variants)
        picks = min(count, strata)
        sample = []
        for number in range(picks):
            column = number * self.columns // picks
            variant = number % len(self.variants)
            round_ = (2 * number + 1) * self.rounds // (2 * picks)
            sample.append((self[(round_ * self.columns + column) * len(self.variants) + variant], len(self) / picks))
        return sample

    def _seating(self, slot: int) -> Seating:
        """The seating of slot ``slot`` (round-major): the group, the round, the seat order, the match seed."""
        raise NotImplementedError

    def _spec(self, index: int, variant: str, seating: Seating) -> GameSpec:
        group, round_, seats, match_seed = seating
        prints = self.fingerprints
        opening = self.openings.for_round(round_) if self.openings is not None else None
        content = "|".join(
            [str(self.seed), *([self.kind] if self.kind else []), *(prints.get(name, "") for name in (variant, *group))]
            + ([json.dumps(opening, sort_keys=True)] if opening is not None else [])
        )
        return GameSpec(
            game_id=game_id(self.league, variant, group, round_, seats, content),
            index=index,
            league=self.league,
            variant=variant,
            seats=seats,
            seed=match_seed,
            round=round_,
            opening=opening,
        )


class PairSchedule(Schedule):
    """Pairs that meet ``games_per_pair`` times per variant, seats swapped inside each pair of games (``round_robin``).

    A round is one game of every pairing; the two games of round ``r // 2`` of a pairing share
    one seed with the seats swapped, odd rounds opening with the other seat first, so an odd
    ``games_per_pair`` stays balanced overall.
    """

    def __init__(
        self,
        league: str,
        pairings: Sequence[tuple[str, str]],
        variants: Sequence[str],
        games_per_pair: int,
        seed: int,
        fingerprints: Mapping[str, str] | None = None,
    ) -> None:
        super().__init__(league, variants, seed, fingerprints, games_per_pair, len(pairings))
        self.pairings = [tuple(pairing) for pairing in pairings]

    def _seating(self, slot: int) -> Seating:
        game_number, column = divmod(slot, self.columns)
        pairing = self.pairings[column]
        round_, swapped = divmod(game_number, 2)
        match_seed = derive_seed(self.seed, "match", ",".join(sorted(pairing)), round_)
        first_first = (round_ % 2 == 0) != bool(swapped)
        return pairing, round_, pairing if first_first else (pairing[1], pairing[0]), match_seed


class SoloSchedule(Schedule):
    """Every bot alone ``runs`` times per variant, all bots on the same seeds (``solo``)."""

    kind = "solo"

    def __init__(
        self,
        league: str,
        bots: Sequence[str],
        variants: Sequence[str],
        runs: int,
        seed: int,
        fingerprints: Mapping[str, str] | None = None,
    ) -> None:
        super().__init__(league, variants, seed, fingerprints, runs, len(bots))
        self.bots = list(bots)

    def _seating(self, slot: int) -> Seating:
        run, column = divmod(slot, self.columns)
        alone = (self.bots[column],)
        return alone, run, alone, derive_seed(self.seed, "solo", run)


class TableSchedule(Schedule):
    """Tables of ``sizes`` players, each played once per rotation of its seats and variant (``tables``).

    Its tables are drawn when it is made (at most ``tables_per_size`` of each size, see
    ``league.plan.table_draw.draw_tables``), its games only when asked for. A round is one table of each size; its
    columns are their seat rotations.
    """

    kind = "table"

    def __init__(
        self,
        league: str,
        bots: Sequence[str],
        variants: Sequence[str],
        sizes: Sequence[int],
        tables_per_size: int,
        seed: int,
        fingerprints: Mapping[str, str] | None = None,
    ) -> None:
        super().__init__(league, variants, seed, fingerprints, tables_per_size, sum(sizes))
        self.sizes = list(sizes)
        self.tables = draw_tables(bots, sizes, tables_per_size, seed)

    def _seating(self, slot: int) -> Seating:
        round_, rotation = divmod(slot, self.columns)
        number = round_ * len(self.sizes)
        for size in self.sizes:
            if rotation < size:
                break
            rotation -= size
            number += 1
        table = self.tables[number]
        table_seed = derive_seed(self.seed, "table", number, ",".join(sorted(table)))
        return table, number, table[rotation:] + table[:rotation], table_seed

    def balance(self, bots: Sequence[str]) -> Balance:
        """``balance`` of this schedule, from its tables alone."""
        return table_balance(self.tables, bots)


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
    return list(round_robin_schedule(league, bots, variants, games_per_pair, seed, fingerprints))


def round_robin_schedule(
    league: str,
    bots: Sequence[str],
    variants: Sequence[str],
    games_per_pair: int,
    seed: int,
    fingerprints: Mapping[str, str] | None = None,
) -> PairSchedule:
    """``round_robin``'s games, made only when asked for (see ``Schedule``)."""
    pairings = list(itertools.combinations(bots, 2))
    return PairSchedule(league, pairings, variants, games_per_pair, seed, fingerprints)


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
    return list(gauntlet_schedule(league, candidates, field, variants, games_per_pair, seed, fingerprints))


def gauntlet_schedule(
    league: str,
    candidates: Sequence[str],
    field: Sequence[str],
    variants: Sequence[str],
    games_per_pair: int,
    seed: int,
    fingerprints: Mapping[str, str] | None = None,
) -> PairSchedule:
    """``gauntlet``'s games, made only when asked for (see ``Schedule``)."""
    pairings = [(candidate, opponent) for candidate in candidates for opponent in field if opponent != candidate]
    return PairSchedule(league, pairings, variants, games_per_pair, seed, fingerprints)


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
    return list(SoloSchedule(league, bots, variants, runs, seed, fingerprints))


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
    (see ``league.plan.table_draw.draw_tables``): every bot sits at about as many tables of each size as every other,
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
    return list(TableSchedule(league, bots, variants, sizes, tables_per_size, seed, fingerprints))


def balance(specs: Sequence[GameSpec], bots: Sequence[str]) -> Balance:
    """The games, meetings and seats of each bot in the first variant's games of ``specs``.

    A ``TableSchedule``'s is counted from its tables, without making its games.
    """
    if isinstance(specs, TableSchedule):
        return specs.balance(bots)
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
