"""``format: knockout``: single or double elimination, each match a series of seat-swapped pairs of games.

The league file's ``knockout`` key (``KnockoutConfig``, every key optional):

* ``elimination``: ``single`` (default) or ``double`` (``league.plan.bracket``: a losers' bracket and
  one grand final, no bracket reset);
* ``pairs_per_series`` (default 2), ``extra_pairs`` (default 2) and ``then`` (``higher_seed``, the
  default, or ``tie_rule``): a series' length and its decider when level
  (``league.plan.knockout_series``);
* ``seeding``: ``order`` (the file's, default), ``random`` (from the league seed) or ``rating``, from
  ``ratings: {bot: number}`` (highest first) or ``ratings_from: FOLDER`` (a stored league's
  standings, ``league.stats.ranking``; a relative folder is taken from the league file's);
* ``best: K``: only the top K of the seeding go on (a qualifier's best; ``order`` or ``rating`` seeding);
* ``advance: K`` (default 1), with the league's ``players_per_table: N``: a knockout of tables, for
  games of more than two seats (nimmt, fish): rounds of tables of at most N, the best K of each
  going on, down to a final table (``league.plan.table_knockout``); single elimination only.

Its runs (``league.plan.formats.knockout_run``: ``KnockoutRun``, a bracket of pairs;
``TableKnockoutRun``, rounds of tables) take stored games in schedule order only, so the same
stored games give the same games, ids and bracket whatever order they were stored in, and a
resumed run plays no series twice.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, ClassVar, Literal

from pydantic import BaseModel, ConfigDict, Field

from engine import GAMES
from engine.core import plural
from league.plan.bracket import Bracket, Elimination, seed_order
from league.plan.formats.base import Format, FormatInputs
from league.plan.formats.knockout_run import STAGE, KnockoutRun, TableKnockoutRun
from league.plan.game_spec import GameSpec
from league.plan.knockout_series import KnockoutPlan, SeriesRules, SeriesSchedule, Then, chalk
from league.plan.schedule import Schedule
from league.plan.table_knockout import TableSeriesSchedule, deal, round_sizes, sizes_problem

if TYPE_CHECKING:
    from league.plan.config_schema import LeagueConfig


class KnockoutConfig(BaseModel):
    """``knockout: {elimination, pairs_per_series, extra_pairs, then, seeding, ratings, ratings_from, best, advance}``.

    Every key optional (the module docstring says what each does).
    """

    model_config = ConfigDict(extra="forbid", frozen=True)

    elimination: Elimination = "single"
    pairs_per_series: int = Field(2, ge=1, strict=True)
    extra_pairs: int = Field(2, ge=0, strict=True)
    then: Then = "higher_seed"
    seeding: Literal["order", "random", "rating"] = "order"
    ratings: dict[str, float] | None = None
    ratings_from: str | None = None
    best: int | None = Field(None, strict=True)
    advance: int = Field(1, ge=1, strict=True)

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
    _check_tables(config, settings)
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


def _check_tables(config: LeagueConfig, settings: KnockoutConfig) -> None:
    """A knockout of tables: one size the game seats, single elimination, rounds that come down to a final table."""
    game = GAMES[config.game]
    sizes = config.players_per_table
    if sizes is None:
        if game.min_seats > 2:
            raise ValueError(
                f"players_per_table: {game.name} seats {game.min_seats} or more, so its knockout is of tables; give"
                " players_per_table: N (and knockout.advance: K, the best K of each table going on)"
            )
        if "advance" in settings.model_fields_set:
            raise ValueError("knockout.advance: only a knockout of tables (players_per_table: N) has tables")
        return
    allowed = f"{game.min_seats} to {game.max_seats}"
    if len(sizes) != 1 or not game.min_seats <= sizes[0] <= game.max_seats:
        raise ValueError(f"players_per_table: a knockout's tables are of one size, {allowed} for {game.name}")
    if settings.elimination != "single":
        raise ValueError("knockout.elimination: a knockout of tables is single elimination; leave the key out")
    field = settings.best if settings.best is not None else len(config.bots)
    problem = sizes_problem(field, sizes[0], settings.advance, max(game.min_seats, 2))
    if problem is not None:
        raise ValueError(problem)


def stored_ratings(folder: Path, bots: Sequence[str]) -> dict[str, float]:
    """Per bot, a rating from a stored league's standings (``league.stats.ranking``): higher for a better place.

    Its format's own order where its manifest keeps one (a Swiss's standings; a damaged manifest keeps
    none), else the strengths of its games among ``bots`` only; a bot without games there comes last.
    """
    from league.plan.manifest import ManifestDamaged, read_manifest
    from league.stats.ranking import manifest_order, rank_league
    from league.store.results import ResultStore

    try:
        kept = manifest_order(read_manifest(folder) or {})
    except ManifestDamaged:
        kept = None
    names = set(bots)
    records = [r for r in ResultStore(folder / "games.jsonl").records() if set(r.spec.seats) <= names and not r.infra]
    order = rank_league(list(bots), records, final_order=kept).order
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


class KnockoutFormat(Format):
    """``format: knockout`` (module docstring)."""

    name = "knockout"
    report_key = "knockout"
    plans_as_it_goes = True
    keys: ClassVar[dict[str, str]] = {
        "knockout": "plays a bracket of series",
        "players_per_table": "seat bots at tables",  # format tables too
    }

    def seats(self, config: LeagueConfig) -> list[int]:
        """Two a game, or its tables' size."""
        return list(config.players_per_table or [2])

    def check(self, config: LeagueConfig) -> None:
        """``check_settings``."""
        check_settings(config)

    def planned(self, inputs: FormatInputs) -> Schedule:
        """Every series (table) at its longest, its bots those of a knockout the higher seeds win."""
        settings, seeds = settings_of(inputs.config), field_seeds(inputs)
        most, at = settings.rules.most_pairs, (inputs.league, STAGE)
        rest = (inputs.variants, most, inputs.seed, inputs.fingerprints, inputs.openings)
        if inputs.config.players_per_table:
            tables = []
            for keys, field in _chalk_tables(seeds, inputs.config.players_per_table[0], settings.advance):
                tables += [TableSeriesSchedule(*at, key, table, *rest) for key, table in zip(keys, field, strict=True)]
            return KnockoutPlan(tables)
        bracket = Bracket.build(seeds, settings.elimination)
        sides = bracket.sides(chalk(bracket))
        pairs = [(str(sides[s.key][0]), str(sides[s.key][1])) for s in bracket.series]
        return KnockoutPlan(
            [SeriesSchedule(*at, s.key, pair, *rest) for s, pair in zip(bracket.series, pairs, strict=True)]
        )

    def start(self, inputs: FormatInputs) -> KnockoutRun | TableKnockoutRun:
        """The first round's series (tables) planned."""
        settings, seeds = settings_of(inputs.config), field_seeds(inputs)
        if inputs.config.players_per_table:
            return TableKnockoutRun(inputs, seeds, settings.rules, inputs.config.players_per_table[0], settings.advance)
        return KnockoutRun(inputs, seeds, settings.rules, settings.elimination)

    seeded_finals = True
    file_keys = ("knockout.ratings_from",)

    def check_finals(self, config: LeagueConfig, best: int) -> None:
        """As finals of a qualifier's best ``best``: seeded by the qualifier, not by itself; tables that fit."""
        settings = settings_of(config)
        for key in ("seeding", "ratings", "ratings_from", "best"):
            if key in settings.model_fields_set:
                raise ValueError(
                    f"knockout.{key}: finals are seeded by the qualifier's order (its best finals.best: {best} go"
                    f" on); leave knockout.{key} out"
                )
        _check_tables(config, settings.model_copy(update={"best": best}))

    def seeded_run(self, inputs: FormatInputs, seeds: Sequence[str], stage: str) -> KnockoutRun | TableKnockoutRun:
        """A knockout of ``seeds`` (top seed first), its game ids under ``stage``."""
        settings = settings_of(inputs.config)
        if inputs.config.players_per_table:
            size = inputs.config.players_per_table[0]
            return TableKnockoutRun(inputs, seeds, settings.rules, size, settings.advance, stage)
        return KnockoutRun(inputs, seeds, settings.rules, settings.elimination, stage)

    def describe(self, config: LeagueConfig) -> str:
        """``at most: single elimination, 2 seat-swapped pairs a series, up to 2 more when level, then ...``."""
        settings = settings_of(config)
        then = "the higher seed" if settings.then == "higher_seed" else "the last game's order"
        if config.players_per_table:
            extra = f", up to {settings.extra_pairs} more when tied at the cut" if settings.extra_pairs else ""
            return (
                f"at most: tables of {config.players_per_table[0]}, the best {settings.advance} of each going on,"
                f" {plural(settings.pairs_per_series, 'set')} of seat rotations a table{extra}, then {then}"
            )
        extra = f", up to {settings.extra_pairs} more when level" if settings.extra_pairs else ""
        return (
            f"at most: {settings.elimination} elimination,"
            f" {plural(settings.pairs_per_series, 'seat-swapped pair')} a series"
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
        """The seeds, and the byes (or the tables of each round)."""
        seeds = field_seeds(inputs)
        lines = ["seeds: " + ", ".join(f"{number} {bot}" for number, bot in enumerate(seeds, 1))]
        if inputs.config.players_per_table:
            sizes = round_sizes(len(seeds), inputs.config.players_per_table[0], settings_of(inputs.config).advance)
            for number, round_ in enumerate(sizes, 1):
                lines.append(f"round {number}: tables of {' '.join(str(size) for size in round_)}")
            return lines
        byes = Bracket.build(seeds, settings_of(inputs.config).elimination).byes()
        if byes:
            lines.append(f"byes in the first round: {', '.join(byes)}")
        return lines


def _chalk_tables(seeds: Sequence[str], size: int, advance: int) -> list[tuple[list[str], list[list[str]]]]:
    """Every round's table keys and tables where the higher seeds go on (``planned``)."""
    rounds, field, number = [], list(seeds), 1
    while True:
        if len(field) <= size:
            rounds.append((["F"], [field]))
            return rounds
        tables = deal(field, size)
        rounds.append(([f"T{number}.{n}" for n in range(1, len(tables) + 1)], tables))
        seed_of = {bot: place for place, bot in enumerate(seeds)}
        going = [(place, seed_of[bot], bot) for table in tables for place, bot in enumerate(table[:advance])]
        field, number = [bot for *_, bot in sorted(going)], number + 1
