"""Every format that fits a field, sized to one budget of games and simulated (``league.plan.format_simulation``).

The organiser's question is which format, for the games they can afford, finds the best bot and
the right order. So every format is sized to about the same budget of games (``Field.budget``:
by default the league's own round robin, ``budget_of``), by these rules:

* **round robin**: the most games per pair that fit, in whole seat-swapped pairs, 2 at least;
* **adaptive** (three bots or more): its settings with ``max_games`` the budget; it fits only where
  the budget holds more than its warm-up (a warm-up as long as the budget is the round robin);
* **SPRT** (two bots alone): its test with ``max_games`` the budget, handed out as many games at
  once as the league runs (``Field.workers``), since it stops at its verdict.

Each is played through its real run: a round robin's ``ScheduledRun`` of
``league.plan.schedule.round_robin_schedule``, the adaptive league's ``AdaptiveTracker`` and the
SPRT's ``SprtTracker`` (the runs the league plays today, ``TrackedRun`` giving them the
``FormatRun`` face). ``COMPARED`` lists the formats compared, one line a format: a new format is
one more line there.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass

from league.plan.adaptive import AdaptiveTracker, adaptive_settings
from league.plan.adaptive_batches import AdaptiveSettings
from league.plan.adaptive_simulation import Model
from league.plan.config import League
from league.plan.format_simulation import FormatOutcome, SimulatedFormat, simulate_format
from league.plan.formats.base import FormatRun, ScheduledRun
from league.plan.game_spec import GameSpec
from league.plan.schedule import round_robin_schedule
from league.plan.sequential import SprtTracker
from league.stats.game_record import GameRecord
from league.stats.sprt import SprtSettings


@dataclass(frozen=True)
class Field:
    """The bots to compare formats on, and what the organiser can spend.

    Attributes:
        league: The league's name (part of every game id).
        variant: Its one variant's name.
        bots: The bots, in the league file's order.
        budget: About how many games each format may play (module docstring).
        workers: Games the league runs at once (how an SPRT is handed its games).
        adaptive: The adaptive league's settings (``max_games`` aside: the budget caps it).
        sprt: The SPRT's test, for two bots.
    """

    league: str
    variant: str
    bots: list[str]
    budget: int
    workers: int = 1
    adaptive: AdaptiveSettings | None = None
    sprt: SprtSettings | None = None

    @property
    def pairs(self) -> int:
        """The pairs of bots."""
        return len(self.bots) * (len(self.bots) - 1) // 2


def budget_of(games_per_pair: int, bots: int) -> int:
    """The round robin's games at ``games_per_pair``: the default budget."""
    return games_per_pair * bots * (bots - 1) // 2


class TrackedRun(FormatRun):
    """An adaptive league's ``AdaptiveTracker`` or an SPRT's ``SprtTracker`` over its schedule, as a ``FormatRun``."""

    def __init__(self, tracker: AdaptiveTracker | SprtTracker, schedule: Sequence[GameSpec] = ()) -> None:
        self.tracker = tracker
        self._schedule = list(schedule)

    @property
    def games(self) -> Sequence[GameSpec]:
        """The tracker's games (an SPRT: its whole schedule)."""
        return self.tracker.games if isinstance(self.tracker, AdaptiveTracker) else self._schedule

    def add(self, records: Iterable[GameRecord]) -> list[GameSpec]:
        """Feed the tracker; the games it plans next (an SPRT plans none: its schedule is whole)."""
        planned = self.tracker.add(records)
        return planned if isinstance(planned, list) else []

    @property
    def over(self) -> bool:
        """Whether it stopped: an adaptive league settled or capped, an SPRT at its verdict."""
        return self.tracker.decided

    @property
    def counted(self) -> Sequence[GameSpec]:
        """The games its result rests on: an adaptive league's batches taken, an SPRT's pairs taken."""
        if isinstance(self.tracker, AdaptiveTracker):
            return self.tracker.counted_games
        return self._schedule[: 2 * self.tracker.pairs_taken]


def round_robin(field: Field) -> SimulatedFormat | None:
    """A round robin of the most games per pair that fit the budget (2 at least)."""
    per_pair = max(2, 2 * (field.budget // (2 * field.pairs)))

    def start(seed: int) -> FormatRun:
        return ScheduledRun(list(round_robin_schedule(field.league, field.bots, [field.variant], per_pair, seed)))

    return SimulatedFormat("round robin", f"games_per_pair {per_pair}", start)


def adaptive(field: Field) -> SimulatedFormat | None:
    """An adaptive league capped at the budget, where the budget holds more than its warm-up."""
    if len(field.bots) < 3 or field.adaptive is None:
        return None
    settings = AdaptiveSettings(
        field.adaptive.confidence,
        field.adaptive.tie_elo,
        field.adaptive.warmup_units,
        field.adaptive.batch_units,
        field.budget // 2,
    )
    if 2 * settings.warmup_units * field.pairs >= field.budget:
        return None

    def start(seed: int) -> FormatRun:
        return TrackedRun(AdaptiveTracker(field.league, field.bots, field.variant, seed, {}, settings))

    described = f"confidence {settings.confidence:g}, max_games {2 * settings.max_units:,}"
    return SimulatedFormat("adaptive", described, start)


def sprt(field: Field) -> SimulatedFormat | None:
    """Two bots' SPRT (the first the candidate), ``max_games`` the budget, handed out ``workers`` games at once."""
    if len(field.bots) != 2 or field.sprt is None or field.budget < 2:
        return None
    test = field.sprt
    most = field.budget - field.budget % 2
    candidate, baseline = field.bots

    def start(seed: int) -> FormatRun:
        schedule = list(round_robin_schedule(field.league, field.bots, [field.variant], most, seed))
        tracker = SprtTracker(candidate, baseline, test, [spec.game_id for spec in schedule])
        return TrackedRun(tracker, schedule)

    described = f"H0 {test.elo0:g}, H1 {test.elo1:g} normalized Elo, max_games {most:,}"
    return SimulatedFormat("sprt", described, start, wave=max(2, field.workers + field.workers % 2))


COMPARED: list[Callable[[Field], SimulatedFormat | None]] = [round_robin, adaptive, sprt]
"""The formats compared, one line a format: each sizes itself to the field, None where it does not fit."""


def formats_for(field: Field) -> list[SimulatedFormat]:
    """Every format of ``COMPARED`` that fits the field, sized to its budget."""
    return [format_ for format_ in (size(field) for size in COMPARED) if format_ is not None]


def field_of(league: League, budget: int, sprt: SprtSettings) -> Field:
    """A league's bots as a field to compare formats on (its one variant, its settings), ``budget`` games to spend."""
    config = league.config
    (variant,) = league.games
    bots = [bot.name for bot in config.bots]
    return Field(config.name, variant, bots, budget, config.concurrency, adaptive_settings(league), sprt)


def compare_formats(field: Field, model: Model, leagues: int, seed: int, top: int = 3) -> list[FormatOutcome]:
    """Every format that fits the field, each simulated ``leagues`` times (``simulate_format``)."""
    return [simulate_format(format_, model, leagues, seed, top) for format_ in formats_for(field)]
