"""The league file's keys as pydantic models: each key's type and default, and the rules between keys.

``league.plan.config.load_league`` validates a file into a ``LeagueConfig`` and words its errors
(``ValueError`` here, one ``ConfigError`` naming the file and the key there).
"""

from __future__ import annotations

import re
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, field_validator, model_validator

from engine import GAMES
from engine.core import plural, span
from league.plan.formats.knockout import KnockoutConfig
from league.plan.formats.swiss import SwissConfig
from league.plan.openings import OpeningsConfig
from sandbox.cpus import usable_cores
from sandbox.limits import Limits, SandboxMode

_NAME = re.compile(r"[A-Za-z0-9][A-Za-z0-9_.-]*")


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class BotConfig(_Strict):
    """One entrant: ``builtin`` (GAME.NAME), a ``command``, or ``roles`` with a command per role.

    ``shared_folder: true`` accepts knowingly a program whose folder holds another bot's folder, the
    league file or the report folder (``league.plan.bot_folders``); otherwise such a league is refused.
    """

    name: str
    builtin: str | None = None
    command: list[str] | str | None = None
    cwd: str | None = None
    shared_folder: bool = False
    params: dict[str, Any] = Field(default_factory=dict)
    roles: dict[str, list[str] | str] | None = None
    transport: Literal["stdio", "tcp"] = "stdio"

    @model_validator(mode="after")
    def _one_kind(self) -> BotConfig:
        given = [key for key in ("builtin", "command", "roles") if getattr(self, key) is not None]
        if len(given) != 1:
            raise ValueError(f"give exactly one of builtin, command or roles (got {', '.join(given) or 'none'})")
        if not _NAME.fullmatch(self.name):
            raise ValueError(f"name {self.name!r}: use letters, digits, '_', '.', '-'")
        if self.params and self.builtin is None:
            raise ValueError("params are for built-in bots; a program takes its options in its command")
        if self.cwd is not None and self.builtin is not None:
            raise ValueError("cwd is for programs; a built-in runs in the league's own process")
        if self.shared_folder and self.builtin is not None:
            raise ValueError("shared_folder is for programs; a built-in runs in the league's own process")
        return self


class SandboxConfig(_Strict):
    """``sandbox: auto|strict|none``, or a mapping with a mode and extra read-only paths."""

    mode: SandboxMode = SandboxMode.AUTO
    read_only: list[str] = Field(default_factory=list)


class ClusterConfig(_Strict):
    """``cluster: {shared_path: true}``: every node sees the bots' folders and variant files at the driver's paths.

    Otherwise a run on a Ray cluster ships them to the nodes (``league.cluster.shipping``).
    """

    shared_path: bool = False


class SprtConfig(_Strict):
    """``sprt: {elo0, elo1, alpha, beta}``: the test of ``format: sprt``, in normalized Elo (``league.stats.sprt``)."""

    elo0: float
    elo1: float
    alpha: float = 0.05
    beta: float = 0.05

    @field_validator("alpha", "beta")
    @classmethod
    def _error_rate(cls, value: float) -> float:
        if not 0 < value < 0.5:
            raise ValueError(f"{value} is not an error rate between 0 and 0.5 (e.g. 0.05)")
        return value

    @model_validator(mode="after")
    def _ordered(self) -> SprtConfig:
        if self.elo0 >= self.elo1:
            raise ValueError(
                f"elo1 ({self.elo1:g}) must be above elo0 ({self.elo0:g}): H1 says the candidate is better by"
                " more than H0 does (e.g. elo0: 0, elo1: 5)"
            )
        return self


class AdaptiveConfig(_Strict):
    """``adaptive: {confidence, tie_elo, warmup_games, batch_games}``: how ``format: adaptive`` plays and stops.

    See ``league.plan.adaptive_batches`` and ``league.stats.active_ranking``.
    """

    confidence: float = 0.95
    tie_elo: float = Field(20.0, ge=0)
    warmup_games: int = Field(2, ge=2, strict=True)
    batch_games: int | None = Field(None, ge=2, strict=True)  # None: 4 a bot after the first

    @field_validator("confidence")
    @classmethod
    def _confidence(cls, value: float) -> float:
        if not 0.5 < value < 1:
            raise ValueError(f"{value} is not a confidence between 0.5 and 1 (e.g. 0.95)")
        return value

    @field_validator("warmup_games", "batch_games")
    @classmethod
    def _whole_pairs(cls, value: int | None) -> int | None:
        if value is not None and value % 2:
            raise ValueError(f"{value} is odd: games go in seat-swapped pairs, give an even number ({value + 1})")
        return value


MAX_TABLES = 100_000
"""The most tables of one size a league may draw (each is played once per seat rotation and variant)."""


class LeagueConfig(_Strict):
    """A whole league; see the README for every key."""

    name: str
    game: str
    variants: dict[str, dict[str, Any]] = Field(default_factory=lambda: {"default": {}})
    bots: list[BotConfig] = Field(min_length=2)
    format: Literal["round_robin", "gauntlet", "tables", "solo", "sprt", "adaptive", "knockout", "swiss"] = (
        "round_robin"
    )
    games_per_pair: int = Field(2, ge=1, strict=True)
    players_per_table: list[int] | None = None
    tables: int = Field(10, ge=1, le=MAX_TABLES, strict=True)
    runs_per_case: int = Field(3, ge=1, strict=True)
    candidates: list[str] = Field(default_factory=list)
    sprt: SprtConfig | None = None
    adaptive: AdaptiveConfig | None = None
    knockout: KnockoutConfig | None = None  # league.plan.formats.knockout
    swiss: SwissConfig | None = None
    max_games: int = Field(20_000, ge=2, strict=True)
    seed: int | None = Field(None, ge=0, lt=2**63)  # None: drawn at the first run (league.plan.seed)
    concurrency: int = Field(default_factory=usable_cores, ge=1)  # load_league: the cores a game needs
    pin_cpus: bool = False
    limits: Limits = Field(default_factory=Limits)
    sandbox: SandboxConfig = Field(default_factory=SandboxConfig)
    cluster: ClusterConfig = Field(default_factory=ClusterConfig)
    clock: Literal["own", "wall", "cpu"] = "own"
    time_margin_ms: int = Field(0, ge=0)
    output: str | None = None
    openings: OpeningsConfig | None = None  # league.plan.openings

    @field_validator("sandbox", mode="before")
    @classmethod
    def _sandbox_mode_alone(cls, value: Any) -> Any:
        if isinstance(value, str):
            return {"mode": value}
        if not isinstance(value, dict):
            raise ValueError("give auto, strict or none, or {mode: ..., read_only: [paths]}")
        return value

    @field_validator("players_per_table", mode="before")
    @classmethod
    def _one_size_or_several(cls, value: Any) -> Any:
        sizes = [value] if not isinstance(value, list) else value
        if not sizes or not all(isinstance(size, int) and not isinstance(size, bool) for size in sizes):
            raise ValueError("give a table size (players_per_table: 4) or a list of sizes ([3, 4])")
        if len(set(sizes)) != len(sizes):
            raise ValueError(f"a size is given twice in {sizes}")
        return sizes

    @field_validator("name")
    @classmethod
    def _name(cls, value: str) -> str:
        if not _NAME.fullmatch(value):
            raise ValueError("use letters, digits, '_', '.', '-' (it names the report folder)")
        return value

    @field_validator("game")
    @classmethod
    def _game(cls, value: str) -> str:
        if value not in GAMES:
            raise ValueError(f"unknown game {value!r}; known games: {', '.join(sorted(GAMES))}")
        return value

    @model_validator(mode="after")
    def _consistent(self) -> LeagueConfig:
        names = [bot.name for bot in self.bots]
        duplicates = sorted({name for name in names if names.count(name) > 1})
        if duplicates:
            raise ValueError(f"bots: duplicate bot name {duplicates[0]!r}")
        if self.format == "gauntlet":
            if not self.candidates:
                raise ValueError("candidates: a gauntlet needs at least one candidate")
            if len(set(self.candidates)) != len(self.candidates):
                raise ValueError("candidates: a candidate is named twice")
            unknown = [name for name in self.candidates if name not in names]
            if unknown:
                raise ValueError(f"candidates: {unknown[0]!r} is not a bot of this league")
            if len(set(self.candidates)) == len(names):
                raise ValueError("candidates: a gauntlet needs bots outside the candidates (the field)")
        elif self.candidates:
            raise ValueError("candidates: only a gauntlet has candidates")
        self._check_format(names)
        self._check_sprt()
        self._check_adaptive()
        if not self.variants:
            raise ValueError("variants: give at least one variant (or leave the key out)")
        return self

    def _check_sprt(self) -> None:
        """``format: sprt``: its test, two bots (the candidate first), one variant, games capped by ``max_games``."""
        if self.format != "sprt":
            if "sprt" in self.model_fields_set:
                raise ValueError(f"sprt: only format: sprt runs a sequential test (this league is {self.format})")
            if "max_games" in self.model_fields_set and self.format != "adaptive":
                raise ValueError(
                    f"max_games: only formats sprt and adaptive stop on their own (this league is {self.format})"
                )
            return
        if self.sprt is None:
            raise ValueError("sprt: format sprt needs its test, e.g. sprt: {elo0: 0, elo1: 5, alpha: 0.05, beta: 0.05}")
        if len(self.bots) != 2:
            raise ValueError(
                f"bots: an SPRT tests one candidate against one baseline; give exactly two bots, the candidate"
                f" first ({len(self.bots)} given)"
            )
        if len(self.variants) != 1:
            raise ValueError("variants: an SPRT tests under one rule set; give one variant (a league file for each)")
        if "games_per_pair" in self.model_fields_set:
            raise ValueError("games_per_pair: an SPRT plays pairs until it decides; cap them with max_games: N")

    def adaptive_settings(self) -> AdaptiveConfig:
        """The settings of an adaptive league, defaults filled in (``batch_games``: 4 a bot after the first)."""
        given = self.adaptive or AdaptiveConfig()
        return (
            given
            if given.batch_games is not None
            else given.model_copy(update={"batch_games": 4 * (len(self.bots) - 1)})
        )

    def warmup_games(self) -> int:
        """The games of an adaptive league's warm-up: ``warmup_games`` for every pair of bots."""
        pairs = len(self.bots) * (len(self.bots) - 1) // 2
        return self.adaptive_settings().warmup_games * pairs

    def _check_adaptive(self) -> None:
        """``format: adaptive``: one variant, no ``games_per_pair``, ``max_games`` no lower than the warm-up."""
        if self.format != "adaptive":
            if "adaptive" in self.model_fields_set:
                raise ValueError(f"adaptive: only format: adaptive plays in batches (this league is {self.format})")
            return
        if len(self.variants) != 1:
            raise ValueError(
                "variants: an adaptive league ranks under one rule set; give one variant (a file for each)"
            )
        if "games_per_pair" in self.model_fields_set:
            raise ValueError(
                "games_per_pair: an adaptive league plays each pair until settled; cap all with max_games: N"
            )
        warmup = self.warmup_games()
        if self.max_games < warmup:
            raise ValueError(
                f"max_games: {self.max_games:,} is below the warm-up's {warmup:,} games"
                f" ({self.adaptive_settings().warmup_games} for each pair of {len(self.bots)} bots);"
                f" give max_games: {warmup:,} or more"
            )

    def _check_format(self, names: list[str]) -> None:
        """Each format's keys only with it (pairs, tables, solo runs); table sizes the game allows and bots fill.

        A round robin's or gauntlet's ``games_per_pair`` is even: an odd one would give one bot of
        each pair one first seat more than the other.

        Whether every variant can seat the format's games is checked once the variants are built
        (``league.plan.formats``).
        """
        game = GAMES[self.game]
        allowed = span(range(game.min_seats, game.max_seats + 1))
        if self.format in ("round_robin", "gauntlet") and self.games_per_pair % 2:
            lower = self.games_per_pair - 1
            raise ValueError(
                f"games_per_pair: {self.games_per_pair} must be even: games are played in seat-swapped pairs (each"
                f" bot first in one of a pair's two games); use {' or '.join(str(n) for n in (lower, lower + 2) if n)}"
            )
        if self.format != "solo" and "runs_per_case" in self.model_fields_set:
            raise ValueError(f"runs_per_case: only format: solo plays runs (this league is {self.format})")
        if self.format == "solo" and "games_per_pair" in self.model_fields_set:
            raise ValueError("games_per_pair: a solo league has no pairs; say how many runs with runs_per_case: N")
        if self.format != "tables":
            for key in ("players_per_table", "tables"):
                if key in self.model_fields_set and self.format == "adaptive":
                    raise ValueError(
                        f"{key}: an adaptive league of tables is not supported yet; use format: tables, or leave"
                        f" {key} out to play {game.name} two a game"
                    )
                if key in self.model_fields_set:
                    raise ValueError(f"{key}: only format: tables seats bots at tables (this league is {self.format})")
            if game.min_seats > 2 and self.format != "solo":
                raise ValueError(f"format: {game.name} is played by {allowed} players; use format: tables")
            return
        if "games_per_pair" in self.model_fields_set:
            raise ValueError("games_per_pair: tables have no pairs; say how many tables to draw with tables: N")
        if self.players_per_table is None:
            raise ValueError(f"players_per_table: format tables needs a size ({game.name}: {allowed} players)")
        for size in self.players_per_table:
            if not game.min_seats <= size <= game.max_seats:
                raise ValueError(f"players_per_table: {game.name} is played by {allowed} players, not {size}")
            if size > len(names):
                raise ValueError(f"players_per_table: a table of {size} needs at least {size} bots, not {len(names)}")
        seats = self.tables * sum(self.players_per_table)
        if seats < len(names):
            enough = -(-len(names) // sum(self.players_per_table))
            raise ValueError(
                f"tables: {plural(self.tables, 'table')} of each size seat {seats} of the {len(names)} bots;"
                f" give tables: {enough} or more so that every bot plays"
            )
