"""An adaptive league over its games (``format: adaptive``): batches as games, stored games as units.

Each pair of bots has one endless sequence of games, the round robin's (``PairSchedule``): games
``2r`` and ``2r + 1`` share a seed with the seats swapped, and a game's id depends only on its pair,
its number in the sequence and what the names stand for. A batch of ``u`` units for a pair is that
pair's next ``2u`` games. So a batch's games are the same whoever plans it, stored games keep their
ids when the league grows (the warm-up of old pairs is the games they played first), and the
league's claims rest on ``league.plan.adaptive_batches`` fed the stored games batch by batch in
order: the same league and seed play the same games and reach the same ranking whatever the
number of workers, and a resumed league goes on from where it stopped.

``adaptive_history`` takes the batches again from a league folder alone (its manifest and stored
games), for the report: the claims after each batch, the games per pair, why it stopped.

A unit (a seat-swapped pair of games) that repeats an earlier unit of its pair is no new evidence
(``league.stats.distinct``): it is not counted, and once most units taken are repeats the league
stops without claims (``STOP_REPEATED``), saying why and what to do (``repetition_line``).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import TYPE_CHECKING, Any

from league.plan.adaptive_batches import (
    STOP_CAPPED,
    STOP_REPEATED,
    STOP_SETTLED,
    AdaptiveBatches,
    AdaptiveSettings,
    Batch,
)
from league.plan.game_spec import GameSpec
from league.plan.openings import Openings
from league.plan.schedule import PairSchedule
from league.stats.active_ranking import Claim, Neighbours, Pair, ranking_line
from league.stats.distinct import UnitLog, most_repeated, mostly_repeated, repetition_sentence
from league.stats.game_record import GameRecord
from league.stats.sprt import game_points
from league.store.results import INFRA_ERROR

if TYPE_CHECKING:
    from league.plan.config import League


def adaptive_settings(league: League) -> AdaptiveSettings:
    """An adaptive league's settings in units (seat-swapped pairs of games) from its file's games."""
    config = league.config
    return settings_in_units(config.adaptive_settings().model_dump() | {"max_games": config.max_games})


def settings_in_units(given: Mapping[str, Any]) -> AdaptiveSettings:
    """Settings in units from settings in games: the ``adaptive`` keys and ``max_games`` the manifest keeps."""
    return AdaptiveSettings(
        confidence=given["confidence"],
        tie_elo=given["tie_elo"],
        warmup_units=given["warmup_games"] // 2,
        batch_units=given["batch_games"] // 2,
        max_units=given["max_games"] // 2,
    )


def adaptive_batch_sizes(tracker: AdaptiveTracker | None) -> list[int] | None:
    """The games of each batch the league counts (the manifest's ``adaptive.batches``); None for other leagues."""
    if tracker is None:
        return None
    counted = tracker.batches.taken if tracker.decided else len(tracker.batch_games)
    return [len(games) for games in tracker.batch_games[:counted]]


class AdaptiveTracker:
    """An adaptive league's batches as games, fed its stored games.

    Args:
        league_name: The league's name (part of the ids).
        bots: Its bots in the file's order.
        variant: Its one variant.
        seed: The league seed.
        fingerprints: What each name stands for (part of the ids).
        settings: How it plays and stops.
        openings: What each pair of games starts from (``league.plan.openings``), None for the rules' start.
        game: The game's name (for the sentence of a league stopped for repetition).
    """

    def __init__(
        self,
        league_name: str,
        bots: Sequence[str],
        variant: str,
        seed: int,
        fingerprints: dict[str, str],
        settings: AdaptiveSettings,
        openings: Openings | None = None,
        game: str = "",
    ) -> None:
        self._naming = (league_name, variant, seed, fingerprints)
        self.openings = openings
        self.batches = AdaptiveBatches(bots, settings)
        self.game = game
        self.seen: dict[Pair, UnitLog] = {}
        """Per pair, the units taken, repeats included."""
        self.batch_games: list[list[GameSpec]] = []
        self._next_game: dict[Pair, int] = {}
        self._taken: set[str] = set()
        """Games of the batches taken (their records are let go)."""
        self._records: dict[str, GameRecord] = {}
        self._add_batch(self.batches.batches[0])

    @classmethod
    def of_league(cls, league: League, seed: int, fingerprints: dict[str, str]) -> AdaptiveTracker:
        """The tracker of a league of ``format: adaptive``."""
        config = league.config
        (variant,) = league.games
        bots = [bot.name for bot in config.bots]
        settings = adaptive_settings(league)
        return cls(config.name, bots, variant, seed, fingerprints, settings, league.openings, config.game)

    @property
    def decided(self) -> bool:
        """Whether the league has stopped: settled, or every unit ``max_games`` allows taken."""
        return self.batches.stop is not None

    @property
    def games(self) -> list[GameSpec]:
        """Every game planned so far, batch by batch."""
        return [spec for batch in self.batch_games for spec in batch]

    @property
    def counted_games(self) -> list[GameSpec]:
        """The games the league's claims rest on: those of the batches taken once it stopped, else all planned."""
        if not self.decided:
            return self.games
        return [spec for batch in self.batch_games[: self.batches.taken] for spec in batch]

    def add(self, records: Iterable[GameRecord]) -> list[GameSpec]:
        """Take stored records (INFRA_ERROR ones wait for their replay); the games to play of the batches this plans.

        A planned game already stored (a league that grew: its old pairs' games played before) is in
        ``games`` but not returned: it is taken from the store, never played again.
        """
        for record in records:  # kept whether planned yet or not: stored games of batches to come are found
            if record.result.termination != INFRA_ERROR and record.game_id not in self._taken:
                self._records[record.game_id] = record
        planned: list[GameSpec] = []
        while not self.decided and self.batches.taken < len(self.batch_games):
            batch = self.batch_games[self.batches.taken]
            if any(spec.game_id not in self._records for spec in batch):
                break
            records = [self._records.pop(spec.game_id) for spec in batch]
            self._taken.update(spec.game_id for spec in batch)
            for new in take_batch(self.batches, records, self.seen):
                planned += self._add_batch(new)
        return [spec for spec in planned if spec.game_id not in self._records]

    def _add_batch(self, batch: Batch) -> list[GameSpec]:
        """Make a planned batch's games (each pair's next games in its sequence), numbered on from the last."""
        league_name, variant, seed, fingerprints = self._naming
        made = []
        index = sum(len(games) for games in self.batch_games)
        for pair, units in batch.items():
            start = self._next_game.get(pair, 0)
            sequence = PairSchedule(league_name, [pair], [variant], start + 2 * units, seed, fingerprints)
            sequence.openings = self.openings
            for spec in sequence[start:]:
                made.append(dataclasses.replace(spec, index=index))
                index += 1
            self._next_game[pair] = start + 2 * units
        self.batch_games.append(made)
        return made


def take_batch(league: AdaptiveBatches, records: Sequence[GameRecord], seen: dict[Pair, UnitLog]) -> list[Batch]:
    """Take a complete batch's stored games, its distinct units only; the batches it plans (none once stopped).

    The league stops without claims (``STOP_REPEATED``) once most units taken, over all pairs, repeat
    earlier ones: what it would claim rests on a handful of games counted over and over.
    """
    planned = league.take(unit_scores(records, league.ranking.pair, seen))
    if mostly_repeated(seen.values()):
        league.stop = STOP_REPEATED
        return []
    return planned


def repetition_line(seen: dict[Pair, UnitLog], game: str) -> str:
    """Why a league stopped for repetition, told of its most repeated pair (``distinct.repetition_sentence``)."""
    pair = most_repeated(seen)
    return repetition_sentence(pair[0], pair[1], seen[pair], "seat-swapped pairs", game)


def repeats_note(seen: dict[Pair, UnitLog]) -> str:
    """What the claims rest on where units repeated: " (3 of 40 units repeated earlier ones ...)", else ""."""
    units, repeated = sum(log.units for log in seen.values()), sum(log.repeated for log in seen.values())
    return f" ({repeated:,} of {units:,} units repeated earlier ones and count once)" if repeated else ""


def outcome_sentence(tracker: AdaptiveTracker) -> str:
    """Where an adaptive league stands, for people: why it stopped (or that it has not), its games, its ranking."""
    league = tracker.batches
    if league.stop == STOP_REPEATED:
        return f"adaptive: no claims: {repetition_line(tracker.seen, tracker.game)}"
    claims = league.ranking.claims()
    settings = league.settings
    games = len(tracker.counted_games)
    line = ranking_line(claims) + repeats_note(tracker.seen)
    signs = f"(>: above at {settings.confidence:.0%} confidence; ~: within {settings.tie_elo:g} Elo; ?: not settled)"
    if league.stop == STOP_SETTLED:
        return f"adaptive: settled after {games:,} games in {league.taken} batches: {line} {signs}"
    still = sum(neighbours.claim is Claim.OPEN for neighbours in claims)
    if league.stop == STOP_CAPPED:
        return (
            f"adaptive: max_games reached after {games:,} games with {still} of {len(claims)} pairs of neighbours"
            f" not settled: {line} {signs}; raise max_games to go on"
        )
    return f"adaptive: not settled yet after {league.taken} batches: {line} {signs}; run the league again to go on"


def unit_scores(
    records: Sequence[GameRecord], pair_of: Callable[[str, str], Pair], seen: dict[Pair, UnitLog] | None = None
) -> dict[Pair, list[float]]:
    """A complete batch's unit scores per pair: its stored games two by two, the pair's first bot's points halved.

    Args:
        records: The batch's stored games in its order (a unit's two games side by side).
        pair_of: The pair of two bots in the league's order (``ActiveRanking.pair``).
        seen: Per pair, the units taken before (noted here): a unit that repeats one is left out
            (``league.stats.distinct``). None: every unit counts.
    """
    units: dict[Pair, list[float]] = {}
    for first, second in zip(records[::2], records[1::2], strict=True):
        pair = pair_of(*first.spec.seats)
        scores = units.setdefault(pair, [])
        if seen is None or seen.setdefault(pair, UnitLog()).take([first, second]):
            scores.append(sum(game_points(record, pair[0]) for record in (first, second)) / 2)
    return units


@dataclasses.dataclass(frozen=True)
class BatchTaken:
    """One batch an adaptive league took, and where its ranking stood after it.

    Attributes:
        games: The batch's games.
        games_so_far: The games of every batch taken up to this one, this one's included.
        claims: What the league said of each pair of neighbours after it, best first.
    """

    games: int
    games_so_far: int
    claims: list[Neighbours]

    @property
    def open(self) -> int:
        """Pairs of neighbours still open after it."""
        return sum(neighbours.claim is Claim.OPEN for neighbours in self.claims)


@dataclasses.dataclass(frozen=True)
class AdaptiveHistory:
    """An adaptive league's history, rebuilt from its folder: its batches, its games per pair, why it stopped.

    Attributes:
        bots: Its bots in the league's order.
        settings: How it played and stopped (in units).
        max_games: Its cap in games.
        batches: The batches taken, in order (the warm-up first).
        stop: ``STOP_SETTLED``, ``STOP_CAPPED``, ``STOP_REPEATED``, or None when it has not stopped yet.
        claims: What it says now of each pair of neighbours, best first.
        units: Per pair, the units of the batches taken.
        games: Per pair, the stored games it counts (when it has not stopped, those of batches not
            complete yet too).
        seen: Per pair, the units of the batches taken, repeats included (``league.stats.distinct``).
        game: The game's name ("" when unknown).
    """

    bots: list[str]
    settings: AdaptiveSettings
    max_games: int
    batches: list[BatchTaken]
    stop: str | None
    claims: list[Neighbours]
    units: dict[Pair, int]
    games: dict[Pair, int]
    seen: dict[Pair, UnitLog] = dataclasses.field(default_factory=dict)
    game: str = ""

    @property
    def games_taken(self) -> int:
        """The games of the batches taken (those the claims rest on)."""
        return self.batches[-1].games_so_far if self.batches else 0


def adaptive_history(manifest: Mapping[str, Any], records: Iterable[GameRecord]) -> AdaptiveHistory:
    """An adaptive league's history from its manifest (``league.json``) and stored games alone.

    The manifest's ``game_ids`` are the games the league counts, batch by batch in order (its
    ``adaptive.batches`` say how many each holds). The batches are taken in that order, as
    ``AdaptiveTracker`` takes them, until the league stops or a batch is not all stored (INFRA_ERROR
    games wait for their replay): the same claims, open pairs after each batch and stop as the
    tracker fed the same records.

    Args:
        manifest: The folder's manifest of a ``format: adaptive`` league.
        records: Its stored games, in any order (games it does not count are left out).
    """
    given = manifest["adaptive"]
    settings = settings_in_units(given)
    stored = {record.game_id: record for record in records if record.result.termination != INFRA_ERROR}
    league = AdaptiveBatches(manifest["bots"], settings)
    ids: list[str] = manifest["game_ids"]
    taken: list[BatchTaken] = []
    seen: dict[Pair, UnitLog] = {}
    end = 0
    for size in given["batches"]:
        batch, end = ids[end : end + size], end + size
        if league.stop is not None or any(game_id not in stored for game_id in batch):
            break
        take_batch(league, [stored[game_id] for game_id in batch], seen)
        taken.append(BatchTaken(size, end, league.ranking.claims()))
    games: dict[Pair, int] = {}
    for game_id in ids:
        if game_id in stored:
            pair = league.ranking.pair(*stored[game_id].spec.seats)
            games[pair] = games.get(pair, 0) + 1
    units = {pair: evidence.count for pair, evidence in league.ranking.pairs.items()}
    claims = league.ranking.claims()
    return AdaptiveHistory(
        list(manifest["bots"]),
        settings,
        given["max_games"],
        taken,
        league.stop,
        claims,
        units,
        games,
        seen,
        str(manifest.get("game", "")),
    )
