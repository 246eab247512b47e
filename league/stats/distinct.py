"""What counts as one unit of evidence: identical games, and identical pairs of games, count once.

Two deterministic bots in a game without randomness play the same games on every seed; counting
each copy as new evidence makes any statistic as sure as it likes. Every statistic of the league
(the Bradley-Terry ratings and their intervals, LOS, the verdict and separation, the SPRT, the
adaptive league's claims, ``league compare``) takes its units through this module:

- A game is known by its variant, its stored ``fingerprint`` (``league.store.results.fingerprint``:
  its seats, opening, each seat's replies and, in a game whose rules draw from the seed, its seed;
  for a record without one, its id) and its
  result (scores, ranks, offenders). A fingerprint stored before fingerprints held the seed (20
  hex digits) is joined by the seed unless its game is one of ``SEEDLESS_BEFORE``. Two games with
  the same key are one game: the first counts, copies do not.
- A unit of several games (a seat-swapped pair, a round's games between two bots, a table's
  rotations, a solo SPRT's two seeds) is known by the keys of all its games. A unit is a repeat
  when every one of its games together repeats an earlier unit's: a pair whose first game repeats
  an earlier game and whose second is new is a new pair (it is new evidence on the second game).
- Units are compared in the order given (schedule order for a test; round order for the ratings),
  so which copy counts never depends on the order games were stored.

A test that finds most of its units repeated stops without deciding (``mostly_repeated``): its
evidence is a handful of games, counted over and over.
"""

from __future__ import annotations

from collections.abc import Hashable, Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

from league.stats.game_record import GameRecord

MIN_UNITS_TO_JUDGE = 8
"""Units a test takes before it may stop for repetition (fewer are too few to call "most")."""


OLD_FINGERPRINT_DIGITS = 20
"""The length of a fingerprint stored before fingerprints held the seed of a seeded game (today's: 24)."""
SEEDLESS_BEFORE = frozenset({"versus2048", "geister"})
"""For fingerprints stored before they held the seed: the games whose rules draw nothing from it
(``Game.draws_from_seed``; attack2048's default openings too, but its variant is not on the results
line, so its old fingerprints keep the seed: at worst two of its repeats count twice, never two
games once)."""


def game_key(record: GameRecord) -> tuple[str, ...]:
    """A game's identity: its variant, fingerprint (else its id), result, and seed.

    The result is part of it because a fingerprint holds the bots' replies only. The seed is in a
    fingerprint where the game draws from it: there bots that ignore what they see reply alike in
    games that differ. A record without a fingerprint of today's kind adds the seed itself unless its
    game draws nothing from it (``SEEDLESS_BEFORE``). An opening the spec names (``opening``) is
    part of it too. Strings throughout, so that keys sort.
    """
    spec, result = record.spec, record.result
    current = len(record.fingerprint or "") not in (0, OLD_FINGERPRINT_DIGITS)
    seed = "" if current or spec.game in SEEDLESS_BEFORE else str(spec.seed)
    outcome = (f"{result.scores}{result.ranks}{result.offenders}", str(spec.opening), seed)
    if record.fingerprint:
        return ("fingerprint", spec.variant, record.fingerprint, *outcome)
    return ("id", record.game_id)  # a record the store could not fingerprint is a game of its own


def unit_key(records: Iterable[GameRecord]) -> tuple[tuple[str, ...], ...]:
    """A unit's identity: its games' keys, sorted (a unit is the same whatever order its games come in)."""
    return tuple(sorted(game_key(record) for record in records))


def distinct_games(records: Iterable[GameRecord]) -> list[GameRecord]:
    """The first record of each distinct game, in the order given."""
    seen: set[tuple[str, ...]] = set()
    kept = []
    for record in records:
        key = game_key(record)
        if key not in seen:
            seen.add(key)
            kept.append(record)
    return kept


def count_distinct(records: Iterable[GameRecord]) -> int:
    """How many distinct games ``records`` hold."""
    return len({game_key(record) for record in records})


def distinct_units(units: Sequence[Sequence[GameRecord]]) -> list[bool]:
    """Per unit, in the order given, whether it is new (not a repeat of an earlier unit)."""
    seen = UnitLog()
    return [seen.take(unit) for unit in units]


def first_units(records: Iterable[GameRecord], unit_of: Any) -> list[GameRecord]:
    """``records`` less those of units that repeat an earlier unit, units ordered by ``unit_of(record)``.

    Args:
        records: Games.
        unit_of: A record's unit (any sortable key, such as its round and its two bots): the games
            of one unit are judged together, units in the ascending order of their keys.
    """
    groups: dict[Hashable, list[GameRecord]] = {}
    for record in records:
        groups.setdefault(unit_of(record), []).append(record)
    seen = UnitLog()
    return [record for key in sorted(groups) if seen.take(groups[key]) for record in groups[key]]


@dataclass
class UnitLog:
    """The units a test has taken, in order: which were new, and how many games they held that were.

    Attributes:
        units: Units taken.
        repeated: Units that repeated an earlier one.
        opened: Whether a game taken started from an opening (its spec's ``opening``).
    """

    units: int = 0
    repeated: int = 0
    opened: bool = False
    _keys: set[tuple[tuple[str, ...], ...]] = field(default_factory=set)
    _games: set[tuple[str, ...]] = field(default_factory=set)

    def take(self, unit: Sequence[GameRecord]) -> bool:
        """Note one unit's games; whether the unit is new."""
        key = unit_key(unit)
        self.units += 1
        self.opened = self.opened or any(record.spec.opening for record in unit)
        self._games.update(key)
        if key in self._keys:
            self.repeated += 1
            return False
        self._keys.add(key)
        return True

    @property
    def distinct(self) -> int:
        """Units taken that were new."""
        return self.units - self.repeated

    @property
    def distinct_games(self) -> int:
        """Distinct games among the units taken."""
        return len(self._games)

    @property
    def mostly_repeated(self) -> bool:
        """Whether most units taken repeat earlier ones (once at least ``MIN_UNITS_TO_JUDGE`` were taken)."""
        return self.units >= MIN_UNITS_TO_JUDGE and 2 * self.repeated > self.units


def mostly_repeated(logs: Iterable[UnitLog]) -> bool:
    """Whether most units of several logs together repeat earlier ones (``UnitLog.mostly_repeated`` of their sum)."""
    units = repeated = 0
    for log in logs:
        units, repeated = units + log.units, repeated + log.repeated
    return units >= MIN_UNITS_TO_JUDGE and 2 * repeated > units


def most_repeated(logs: dict[Any, UnitLog]) -> Any:
    """The key of the log with the most repeated units (the first such key in order)."""
    return max(logs, key=lambda key: logs[key].repeated)


def repetition_sentence(first: str, second: str, log: UnitLog, unit: str, game: str) -> str:
    """Why a test stopped without deciding, and what to do: "a and b played 2 distinct games in 38 pairs: ...".

    Args:
        first: One bot.
        second: The other.
        log: The units the test took.
        unit: What a unit is called ("pairs", "pairs of seeds", "batches").
        game: The game's name ("" when unknown).
    """
    where = f"{game} draws nothing from the seed" if game else "the game draws nothing from the seed"
    if log.opened:
        fix = (
            "its openings give too few positions: give more plies (`openings: {plies: 8}`) or an openings file"
            " with more lines"
        )
    else:
        fix = "add `openings: {plies: 4}` to the league file so that each pair starts from its own position"
    return (
        f"{first} and {second} played {log.distinct_games} distinct games in {log.units} {unit}"
        f" ({log.repeated} repeated earlier ones, counted once): both bots are deterministic and {where}; {fix}"
    )
