"""``format: knockout``: single or double elimination, each match a series of seat-swapped pairs of games.

The league file's ``knockout`` key (``KnockoutConfig``, every key optional):

* ``elimination``: ``single`` (default) or ``double`` (``league.plan.bracket``: a losers' bracket and
  one grand final, no bracket reset);
* ``pairs_per_series`` (default 2), ``extra_pairs`` (default 2) and ``then`` (``higher_seed``, the
  default, or ``tie_rule``): a series' length and its decider when level
  (``league.plan.knockout_series``);
* ``seeding``: ``order`` (the file's, default), ``random`` (from the league seed) or ``rating``, from
  ``ratings: {bot: number}`` (highest first) or ``ratings_from: FOLDER`` (a stored league's
  standings, ``league.stats.ranking``; a relative folder is taken from where ``league`` runs);
* ``best: K``: only the top K of the seeding go on (a qualifier's best; ``order`` or ``rating`` seeding).

The run (``KnockoutRun``) plans the first round's series; it takes stored games in schedule order
only, and once a series' last planned game is taken it is decided (or given one more pair), and the
series whose two sides are then known are planned, in the bracket's order. So the same stored games
give the same games, ids and bracket whatever order they were stored in, and a resumed run plans
again exactly the series it had planned, finding their games stored: no series is played twice.

Games of more than two seats (nimmt, fish) are refused: a knockout whose best K of each table go on
is not supported yet.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any, ClassVar, Literal

from pydantic import BaseModel, ConfigDict, Field

from engine import GAMES
from league.plan.bracket import Bracket, Elimination, seed_order
from league.plan.formats.base import Format, FormatInputs, FormatRun
from league.plan.game_spec import GameSpec
from league.plan.knockout_series import Decision, KnockoutPlan, SeriesRules, SeriesSchedule, Then, chalk, decide
from league.plan.schedule import Schedule
from league.stats.game_record import GameRecord

if TYPE_CHECKING:
    from league.plan.config_schema import LeagueConfig

STAGE = "knockout"
"""The stage name in a knockout's game ids when it is the league's only stage."""


class KnockoutConfig(BaseModel):
    """``knockout: {elimination, pairs_per_series, extra_pairs, then, seeding, ratings, ratings_from, best}``."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    elimination: Elimination = "single"
    pairs_per_series: int = Field(2, ge=1, strict=True)
    extra_pairs: int = Field(2, ge=0, strict=True)
    then: Then = "higher_seed"
    seeding: Literal["order", "random", "rating"] = "order"
    ratings: dict[str, float] | None = None
    ratings_from: str | None = None
    best: int | None = Field(None, strict=True)

    @property
    def rules(self) -> SeriesRules:
        """The series' rules."""
        return SeriesRules(self.pairs_per_series, self.extra_pairs, self.then)


def settings_of(config: LeagueConfig) -> KnockoutConfig:
    """The league's knockout settings, defaults where the file gives none."""
    return getattr(config, "knockout", None) or KnockoutConfig()


def check_settings(config: LeagueConfig) -> None:
    """Refuse a knockout's keys when wrong: ``ValueError("KEY: problem; fix")`` (``KnockoutFormat.check``)."""
    settings, bots = settings_of(config), [bot.name for bot in config.bots]
    game = GAMES[config.game]
    if game.min_seats > 2:
        raise ValueError(
            f"format: a knockout plays two bots a game and {game.name} seats {game.min_seats} or more (a knockout"
            " whose best of each table go on is not supported yet); use format: tables"
        )
    if "games_per_pair" in config.model_fields_set:
        raise ValueError("games_per_pair: a knockout plays series; give their length with knockout.pairs_per_series")
    rated = settings.ratings is not None or settings.ratings_from is not None
    if settings.seeding == "rating" and (settings.ratings is None) == (settings.ratings_from is None):
        raise ValueError(
            "knockout.seeding: seeding by rating needs exactly one of knockout.ratings ({bot: number}) or"
            " knockout.ratings_from (a stored league's folder)"
        )
    if settings.seeding != "rating" and rated:
        which = "ratings" if settings.ratings is not None else "ratings_from"
        raise ValueError(f"knockout.{which}: a rating seeds the bracket only with knockout.seeding: rating")
    for name in settings.ratings or {}:
        if name not in bots:
            raise ValueError(
                f"knockout.ratings: {name!r} is not a bot of this league; rate only its bots ({', '.join(bots)})"
            )
    missing = [name for name in bots if settings.ratings is not None and name not in settings.ratings]
    if missing:
        raise ValueError(f"knockout.ratings: {missing[0]!r} has no rating; give every bot a rating")
    if settings.ratings_from is not None and not (Path(settings.ratings_from) / "games.jsonl").is_file():
        raise ValueError(
            f"knockout.ratings_from: {settings.ratings_from} holds no stored league (no games.jsonl); give the"
            " report folder of a league that has run"
        )
    if settings.best is not None:
        if settings.seeding == "random":
            raise ValueError("knockout.best: the best K are the top of a rating or of the file; use seeding: rating")
        if settings.best > len(bots):
            raise ValueError(
                f"knockout.best: {settings.best} is more than the {len(bots)} bots of this league; give best:"
                f" {len(bots)} or fewer"
            )
        if settings.best < 2:
            raise ValueError(f"knockout.best: a knockout of {settings.best} bot plays nothing; give best: 2 or more")


def stored_ratings(folder: Path, bots: Sequence[str]) -> dict[str, float]:
    """Per bot, a rating from a stored league's standings (``league.stats.ranking``): higher for a better place.

    Only the games among ``bots`` count; a bot without games there comes last.
    """
    from league.stats.ranking import rank_league
    from league.store.results import ResultStore

    names = set(bots)
    records = [r for r in ResultStore(folder / "games.jsonl").records() if set(r.spec.seats) <= names and not r.infra]
    order = rank_league(list(bots), records).order
    return {bot: float(len(order) - place) for place, bot in enumerate(order)}


def field_seeds(inputs: FormatInputs) -> list[str]:
    """The knockout's field by seed, top seed first (the top ``best`` of the seeding)."""
    settings = settings_of(inputs.config)
    ratings = settings.ratings
    if settings.seeding == "rating" and settings.ratings_from is not None:
        ratings = stored_ratings(Path(settings.ratings_from), inputs.bots)
    seeds = seed_order(inputs.bots, settings.seeding, inputs.seed, ratings)
    return seeds[: settings.best] if settings.best is not None else seeds


def qualified(order: Sequence[str], config: LeagueConfig) -> list[str]:
    """A finals knockout's field by seed: the top ``knockout.best`` of a qualifier's final order (all without it)."""
    best = settings_of(config).best
    return list(order[:best] if best is not None else order)


class KnockoutRun(FormatRun):
    """A knockout's play over its stored games (module docstring).

    Args:
        inputs: What the league plays from.
        seeds: The field by seed, top seed first.
        stage: The stage's name in the game ids.
    """

    def __init__(self, inputs: FormatInputs, seeds: Sequence[str], stage: str = STAGE) -> None:
        settings = settings_of(inputs.config)
        self.inputs, self.stage, self.rules = inputs, stage, settings.rules
        self.bracket = Bracket.build(seeds, settings.elimination)
        self.winners: dict[str, str] = {}
        self.decisions: dict[str, Decision] = {}
        self.schedules: dict[str, SeriesSchedule] = {}  # the series planned, in the order planned
        self._games: list[GameSpec] = []
        self._series_of: dict[str, str] = {}  # game id -> series key
        self._planned: dict[str, int] = {}  # series key -> games planned
        self._taken_of: dict[str, list[GameRecord]] = {}  # series key -> its games taken, in schedule order
        self._stored: dict[str, GameRecord] = {}
        self._taken = 0
        self._plan_ready()

    @property
    def games(self) -> Sequence[GameSpec]:
        """Every game planned so far, in schedule order."""
        return self._games

    def add(self, records: Iterable[GameRecord]) -> list[GameSpec]:
        """Take stored games; the games of the series (or extra pairs) this plans next, in order."""
        start = len(self._games)
        for record in records:
            if not record.infra:
                self._stored.setdefault(record.game_id, record)
        while self._taken < len(self._games) and self._games[self._taken].game_id in self._stored:
            game_id = self._games[self._taken].game_id
            self._taken += 1
            key = self._series_of[game_id]
            taken = self._taken_of.setdefault(key, [])
            taken.append(self._stored[game_id])
            if len(taken) == self._planned[key]:
                self._settle(key)
        return list(self._games[start:])

    def _settle(self, key: str) -> None:
        """Decide series ``key`` from its games taken, or plan it one more pair; plan what is ready then."""
        schedule = self.schedules[key]
        seed_of = {bot: number for number, bot in enumerate(self.bracket.seeds)}
        higher = min(schedule.pairing, key=seed_of.__getitem__)
        decision = decide(schedule.pairing, self._taken_of[key], self.rules, higher)
        self.decisions[key] = decision
        if decision.winner is None:
            self._plan(key, schedule, decision.pairs, decision.pairs + 1)
            return
        self.winners[key] = decision.winner
        self._plan_ready()

    def _plan_ready(self) -> None:
        sides = self.bracket.sides(self.winners)
        for series in self.bracket.ready(self.winners):
            if series.key in self.schedules:
                continue
            upper, lower = sides[series.key]
            inputs = self.inputs
            schedule = SeriesSchedule(
                inputs.league,
                self.stage,
                series.key,
                (str(upper), str(lower)),
                inputs.variants,
                self.rules.most_pairs,
                inputs.seed,
                inputs.fingerprints,
                inputs.openings,
            )
            self.schedules[series.key] = schedule
            self._plan(series.key, schedule, 0, self.rules.pairs)

    def _plan(self, key: str, schedule: SeriesSchedule, first: int, last: int) -> None:
        """Plan pairs ``first`` to ``last - 1`` of a series."""
        for pair in range(first, last):
            for position in schedule.pair_games(pair):
                spec = dataclasses.replace(schedule[position], index=len(self._games))
                self._games.append(spec)
                self._series_of[spec.game_id] = key
                self._planned[key] = self._planned.get(key, 0) + 1

    @property
    def most_games(self) -> int:
        """The games planned and those every series still open may add at its longest."""
        per_pair = 2 * len(self.inputs.variants)
        unplanned = len(self.bracket.series) - len(self.schedules)
        open_ = [key for key in self.schedules if key not in self.winners]
        extra = sum(self.rules.most_pairs * per_pair - self._planned[key] for key in open_)
        return len(self._games) + extra + unplanned * self.rules.most_pairs * per_pair

    def champion(self) -> str | None:
        """The final's winner, None while it is open."""
        return self.bracket.champion(self.winners)

    def progress(self) -> str:
        """``3 of 7 series decided``."""
        return f"{len(self.winners)} of {len(self.bracket.series)} series decided"

    def closing_lines(self) -> list[str]:
        """The champion, and the final's score; or how many series are still to play."""
        champion = self.champion()
        if champion is None:
            left = len(self.bracket.series) - len(self.winners)
            return [f"The knockout is not over: {left} of {len(self.bracket.series)} series still to play."]
        final = self.bracket.final
        decision = self.decisions[final.key]
        upper, lower = self.schedules[final.key].pairing
        points = decision.points if champion == upper else decision.points[::-1]
        runner_up = lower if champion == upper else upper
        score = f"{_points(points[0])}-{_points(points[1])}"
        return [f"Champion: {champion}, beating {runner_up} {score} in the final ({decision.how})."]

    def final_order(self) -> list[str]:
        """The bracket's placing (``league.plan.bracket.Bracket.placing``)."""
        return self.bracket.placing(self.winners)

    def manifest(self) -> dict[str, Any]:
        """``{"knockout": ...}``: the bracket's series, sides, scores, winners and games, for the report."""
        sides = self.bracket.sides(self.winners)
        games_of: dict[str, list[str]] = {}
        for spec in self._games:
            games_of.setdefault(self._series_of[spec.game_id], []).append(spec.game_id)
        series = []
        for slot in self.bracket.series:
            decision = self.decisions.get(slot.key)
            schedule = self.schedules.get(slot.key)
            series.append(
                {
                    "key": slot.key,
                    "bracket": slot.bracket,
                    "round": slot.round,
                    "number": slot.number,
                    "level": slot.level,
                    "sources": [side.words(self.bracket.seeds) for side in slot.sides],
                    "sides": list(schedule.pairing) if schedule else list(sides[slot.key]),
                    "points": list(decision.points) if decision else None,
                    "pairs": decision.pairs if decision else 0,
                    "winner": self.winners.get(slot.key),
                    "decided_by": decision.how if decision else "",
                    "games": games_of.get(slot.key, []),
                }
            )
        rules = self.rules
        return {
            "knockout": {
                "stage": self.stage,
                "elimination": self.bracket.elimination,
                "seeds": list(self.bracket.seeds),
                "byes": self.bracket.byes(),
                "pairs_per_series": rules.pairs,
                "extra_pairs": rules.extra_pairs,
                "then": rules.then,
                "series": series,
                "champion": self.champion(),
                "placing": self.final_order(),
            }
        }


def _points(value: float) -> str:
    return f"{value:g}" if value != int(value) else str(int(value))


class KnockoutFormat(Format):
    """``format: knockout`` (module docstring)."""

    name = "knockout"
    report_key = "knockout"
    plans_as_it_goes = True
    keys: ClassVar[dict[str, str]] = {"knockout": "plays a bracket of series"}

    def seats(self, config: LeagueConfig) -> list[int]:
        """Two a game."""
        return [2]

    def check(self, config: LeagueConfig) -> None:
        """``check_settings``."""
        check_settings(config)

    def planned(self, inputs: FormatInputs) -> Schedule:
        """Every series of the bracket at its longest, its sides those of a bracket the higher seeds win."""
        settings = settings_of(inputs.config)
        bracket = Bracket.build(field_seeds(inputs), settings.elimination)
        sides = bracket.sides(chalk(bracket))
        parts = [
            SeriesSchedule(
                inputs.league,
                STAGE,
                series.key,
                (str(sides[series.key][0]), str(sides[series.key][1])),
                inputs.variants,
                settings.rules.most_pairs,
                inputs.seed,
                inputs.fingerprints,
                inputs.openings,
            )
            for series in bracket.series
        ]
        return KnockoutPlan(parts)

    def start(self, inputs: FormatInputs) -> KnockoutRun:
        """The first round's series planned."""
        return KnockoutRun(inputs, field_seeds(inputs))

    def describe(self, config: LeagueConfig) -> str:
        """``at most: single elimination, 2 pairs a series, up to 2 more when level, then the higher seed``."""
        settings = settings_of(config)
        then = "the higher seed" if settings.then == "higher_seed" else "the last game's winner"
        extra = f", up to {settings.extra_pairs} more when level" if settings.extra_pairs else ""
        return (
            f"at most: {settings.elimination} elimination, {settings.pairs_per_series} seat-swapped pairs a series"
            f"{extra}, then {then}"
        )

    def fewer_games(self, config: LeagueConfig) -> str:
        """Shorter series."""
        settings = settings_of(config)
        return (
            f"play shorter series (knockout.pairs_per_series: {settings.pairs_per_series},"
            f" knockout.extra_pairs: {settings.extra_pairs})"
        )

    def plan_lines(self, inputs: FormatInputs, planned: Sequence[GameSpec]) -> list[str]:
        """The seeds, and the byes."""
        seeds = field_seeds(inputs)
        bracket = Bracket.build(seeds, settings_of(inputs.config).elimination)
        lines = ["seeds: " + ", ".join(f"{number} {bot}" for number, bot in enumerate(seeds, 1))]
        byes = bracket.byes()
        if byes:
            lines.append(f"byes in the first round: {', '.join(byes)}")
        return lines
