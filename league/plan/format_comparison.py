"""Every format that fits a field, sized to one budget of games and simulated (``league.plan.format_simulation``).

The organiser's question is which format, for the games they can afford, finds the best bot and
the right order. So every format is sized to about the same budget of games (``Field.budget``:
by default the league's own round robin, ``budget_of``), by these rules:

* **round robin**: the most games per pair that fit, in whole seat-swapped pairs, 2 at least;
* **adaptive** (three bots or more): its settings with ``max_games`` the budget; it fits only where
  the budget holds more than its warm-up (a warm-up as long as the budget is the round robin);
* **SPRT** (two bots alone): its test with ``max_games`` the budget, handed out as many games at
  once as the league runs (``Field.workers``), since it stops at its verdict;
* **Swiss** (three bots or more): its own rounds (``swiss.rounds`` of the file, else ceil(log2 N) + 1,
  at most what the field allows; fewer where one pair of games a pairing and round would not fit),
  and the most ``games_per_round`` (whole seat-swapped pairs, 2 at least) that fit: budget /
  (rounds x floor(N / 2) pairings);
* **knockout**, single and double elimination: the most ``pairs_per_series`` that fit, 1 at least:
  budget / (2 x the bracket's series; byes play none), the file's other ``knockout`` keys (seeding
  at random from the league seed where the file has none); a level series' extra pairs come on top
  (the games column shows them);
* **Swiss then knockout** (five bots or more, the paper's qualifier and finals): a Swiss sized to
  half the budget, its best K (the largest power of two below N, at most 8) seeded by its
  standings into a single-elimination knockout sized to the games the Swiss left.

Each is played through its real run: a round robin's ``ScheduledRun`` of
``league.plan.schedule.round_robin_schedule``, the adaptive league's ``AdaptiveRun`` and the
SPRT's ``SprtRun`` (the runs the league plays), ``SwissRun`` and ``KnockoutRun`` started by their
formats, and the qualifier and finals as the league plays them (``league.plan.formats.finals``:
the Swiss's run, then a knockout's run of its best K seeded by its standings). ``COMPARED`` lists
the formats compared, one line a format: a new format is one more line there.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from engine import GAMES
from engine.core import plural
from league.plan.adaptive import AdaptiveTracker, adaptive_settings
from league.plan.adaptive_batches import AdaptiveSettings
from league.plan.adaptive_simulation import Model
from league.plan.bracket import Bracket
from league.plan.config import League
from league.plan.config_schema import LeagueConfig
from league.plan.format_simulation import FormatOutcome, SimulatedFormat, simulate_format
from league.plan.formats import league_format
from league.plan.formats.adaptive import AdaptiveRun
from league.plan.formats.base import FormatInputs, FormatRun, ScheduledRun
from league.plan.formats.finals import FinalsConfig, Staged
from league.plan.formats.knockout import KnockoutConfig, KnockoutFormat
from league.plan.formats.sprt import SprtRun
from league.plan.formats.swiss import SwissConfig, SwissFormat, rounds_of
from league.plan.schedule import round_robin_schedule
from league.plan.sequential import SprtTracker
from league.stats.sprt import SprtSettings

MOST_FINALISTS = 8


@dataclass(frozen=True)
class Field:
    """The bots to compare formats on, and what the organiser can spend.

    Attributes:
        inputs: What the league plays from (its seed replaced by each simulated league's own).
        budget: About how many games each format may play (module docstring).
        workers: Games the league runs at once (how an SPRT is handed its games).
        adaptive: The adaptive league's settings (``max_games`` aside: the budget caps it).
        sprt: The SPRT's test, for two bots.
    """

    inputs: FormatInputs
    budget: int
    workers: int = 1
    adaptive: AdaptiveSettings | None = None
    sprt: SprtSettings | None = None

    @property
    def bots(self) -> list[str]:
        """The bots, in the league file's order."""
        return self.inputs.bots

    @property
    def league(self) -> str:
        """The league's name."""
        return self.inputs.league

    @property
    def variant(self) -> str:
        """Its one variant."""
        (variant,) = self.inputs.variants
        return variant

    @property
    def pairs(self) -> int:
        """The pairs of bots."""
        return len(self.bots) * (len(self.bots) - 1) // 2

    def started(self, seed: int, **changes: object) -> FormatInputs:
        """The inputs of one simulated league: its seed, the league file with ``changes``."""
        return dataclasses.replace(self.inputs, config=self.inputs.config.model_copy(update=changes), seed=seed)


def budget_of(games_per_pair: int, bots: int) -> int:
    """The round robin's games at ``games_per_pair``: the default budget."""
    return games_per_pair * bots * (bots - 1) // 2


def synthetic_field(
    bots: Sequence[str],
    budget: int,
    workers: int = 1,
    adaptive: AdaptiveSettings | None = None,
    sprt: SprtSettings | None = None,
) -> Field:
    """A field of synthetic bots without a league file (a benchmark's, a test's): defaults for every key."""
    data = {
        "name": "simulated",
        "game": "synthetic",
        "bots": [{"name": bot, "builtin": "synthetic.model"} for bot in bots],
    }
    inputs = FormatInputs(LeagueConfig.model_validate(data), {"default": GAMES["synthetic"]()}, 0, {})
    return Field(inputs, budget, workers, adaptive, sprt)


def field_of(league: League, budget: int, sprt: SprtSettings) -> Field:
    """A league's bots as a field to compare formats on (its one variant, its settings), ``budget`` games to spend."""
    inputs = FormatInputs(league.config, league.games, 0, {}, None)
    return Field(inputs, budget, league.config.concurrency, adaptive_settings(league), sprt)


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
    settings = dataclasses.replace(field.adaptive, max_units=field.budget // 2)
    if 2 * settings.warmup_units * field.pairs >= field.budget:
        return None

    def start(seed: int) -> FormatRun:
        tracker = AdaptiveTracker(field.league, field.bots, field.variant, seed, {}, settings)
        return AdaptiveRun(tracker, {"max_games": 2 * settings.max_units})

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
        return SprtRun(schedule, tracker, {})

    described = f"H0 {test.elo0:g}, H1 {test.elo1:g} normalized Elo, max_games {most:,}"
    return SimulatedFormat("sprt", described, start, wave=max(2, field.workers + field.workers % 2))


def swiss_settings(field: Field, budget: int) -> SwissConfig:
    """The file's ``swiss`` keys (or the defaults) with the most ``games_per_round`` that fit ``budget``.

    Its rounds are its own, fewer where even one seat-swapped pair a pairing and round would not fit.
    """
    given = field.inputs.config.swiss or SwissConfig()
    pairings = len(field.bots) // 2
    rounds = min(rounds_of(given, len(field.bots)), max(1, budget // (2 * pairings)))
    per_round = max(2, 2 * (budget // (2 * rounds * pairings)))
    return given.model_copy(update={"rounds": rounds, "games_per_round": per_round})


def swiss(field: Field) -> SimulatedFormat | None:
    """A Swiss of its own rounds, each pairing playing the most games a round that fit."""
    if len(field.bots) < 3:
        return None
    settings = swiss_settings(field, field.budget)

    def start(seed: int) -> FormatRun:
        return SwissFormat().start(field.started(seed, format="swiss", swiss=settings))

    return SimulatedFormat("swiss", f"{settings.rounds} rounds, games_per_round {settings.games_per_round}", start)


def knockout_settings(field: Field, elimination: str, finalists: int, budget: int) -> KnockoutConfig:
    """The file's ``knockout`` keys (or seeding at random) with the most ``pairs_per_series`` that fit ``budget``."""
    given = field.inputs.config.knockout or KnockoutConfig(seeding="random")
    series = len(Bracket.build([str(k) for k in range(finalists)], elimination).series)
    update = {"elimination": elimination, "pairs_per_series": max(1, budget // (2 * series))}
    return given.model_copy(update=update)


def knockout(elimination: str) -> Callable[[Field], SimulatedFormat | None]:
    """The ``elimination`` knockout of the whole field, its series as long as fit."""

    def sized(field: Field) -> SimulatedFormat | None:
        if len(field.bots) < (2 if elimination == "single" else 3):
            return None
        settings = knockout_settings(field, elimination, len(field.bots), field.budget)

        def start(seed: int) -> FormatRun:
            return KnockoutFormat().start(field.started(seed, format="knockout", knockout=settings))

        described = (
            f"{plural(settings.pairs_per_series, 'pair')} a series, up to {settings.extra_pairs} more when level"
        )
        return SimulatedFormat(f"knockout ({elimination})", f"{described}, seeding {settings.seeding}", start)

    return sized


def swiss_then_knockout(field: Field) -> SimulatedFormat | None:
    """A Swiss on half the budget, then a single-elimination knockout of its best K on what it left."""
    if len(field.bots) < 5:
        return None
    finalists = min(MOST_FINALISTS, 1 << (len(field.bots) - 1).bit_length() - 1)
    qualifier = swiss_settings(field, field.budget // 2)
    qualifier_games = qualifier.rounds * (len(field.bots) // 2) * qualifier.games_per_round
    finals = knockout_settings(field, "single", finalists, max(0, field.budget - qualifier_games))

    def start(seed: int) -> FormatRun:
        stages = {"swiss": qualifier, "knockout": finals, "finals": FinalsConfig(best=finalists)}
        return Staged(SwissFormat(), KnockoutFormat(), finalists).start(field.started(seed, format="swiss", **stages))

    described = (
        f"swiss of {qualifier.rounds} rounds, games_per_round {qualifier.games_per_round}; its best {finalists}"
        f" to a single knockout, {plural(finals.pairs_per_series, 'pair')} a series"
    )
    return SimulatedFormat("swiss + knockout", described, start)


def this_file(field: Field) -> SimulatedFormat:
    """The league file's own format, as its keys say (finals included): the first row for a knockout or Swiss file.

    ``league plan`` simulates the design of a round robin, adaptive or SPRT file on its own
    (``league.plan.design_simulation``); any other file's format is played here, its mean games the budget.
    """
    config = field.inputs.config
    format_ = league_format(config)

    def start(seed: int) -> FormatRun:
        return format_.start(dataclasses.replace(field.inputs, seed=seed))

    name = config.format.replace("_", " ") + (f" + {config.finals.format}" if config.finals else "")
    return SimulatedFormat(f"{name} (this file)", format_.describe(config), start)


COMPARED: list[Callable[[Field], SimulatedFormat | None]] = [
    round_robin,
    adaptive,
    sprt,
    swiss,
    knockout("single"),
    knockout("double"),
    swiss_then_knockout,
]
"""The formats compared, one line a format: each sizes itself to the field, None where it does not fit."""


def formats_for(field: Field) -> list[SimulatedFormat]:
    """Every format of ``COMPARED`` that fits the field, sized to its budget."""
    return [format_ for format_ in (size(field) for size in COMPARED) if format_ is not None]


def compare_formats(field: Field, model: Model, leagues: int, seed: int, top: int = 3) -> list[FormatOutcome]:
    """Every format that fits the field, each simulated ``leagues`` times (``simulate_format``)."""
    return [simulate_format(format_, model, leagues, seed, top) for format_ in formats_for(field)]
