"""The league file's keys as pydantic models: each key's type and default, and the rules between keys.

``league.plan.config.load_league`` validates a file into a ``LeagueConfig`` and words its errors
(``ValueError`` here, one ``ConfigError`` naming the file and the key there).
"""

from __future__ import annotations

import re
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, field_validator, model_validator

from engine import GAMES
from league.match.did_you_mean import did_you_mean
from league.plan.formats import FORMATS, league_format
from league.plan.formats.finals import FinalsConfig, check_finals
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


class ContestConfig(_Strict):
    """``contest: {daily_submissions, per_minute, validate_against, upload_mb}``: a live contest's rules.

    ``daily_submissions`` caps an author's submissions in a UTC day, ``per_minute`` in any minute;
    ``validate_against`` is the built-in a new version plays its validation game against (None: the
    game's ``greedy``, or its first built-in); ``upload_mb`` caps an uploaded archive.
    """

    daily_submissions: int = Field(20, ge=1, strict=True)
    per_minute: int = Field(3, ge=1, strict=True)
    validate_against: str | None = None
    upload_mb: float = Field(16.0, gt=0, le=1024)

    def opponent(self, game: str) -> str:
        """The built-in of ``game`` a validation game is played against, as ``GAME.NAME``."""
        names = list(GAMES[game].builtin_bots())
        short = self.validate_against.rpartition(".")[2] if self.validate_against else None
        return f"{game}.{short or ('greedy' if 'greedy' in names else names[0])}"


MAX_TABLES = 100_000
"""The most tables of one size a league may draw (each is played once per seat rotation and variant)."""


class LeagueConfig(_Strict):
    """A whole league; see the README for every key."""

    name: str
    game: str
    variants: dict[str, dict[str, Any]] = Field(default_factory=lambda: {"default": {}})
    bots: list[BotConfig] = Field(min_length=2)
    format: str = "round_robin"  # a name of league.plan.formats.FORMATS
    games_per_pair: int = Field(2, ge=1, strict=True)
    players_per_table: list[int] | None = None
    tables: int = Field(10, ge=1, le=MAX_TABLES, strict=True)
    runs_per_case: int = Field(3, ge=1, strict=True)
    candidates: list[str] = Field(default_factory=list)
    sprt: SprtConfig | None = None
    adaptive: AdaptiveConfig | None = None
    knockout: KnockoutConfig | None = None  # league.plan.formats.knockout
    finals: FinalsConfig | None = None  # league.plan.formats.finals
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
    contest: ContestConfig = Field(default_factory=ContestConfig)  # league serve

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

    @field_validator("format")
    @classmethod
    def _format(cls, value: str) -> str:
        if value not in FORMATS:
            known = ", ".join(FORMATS)
            raise ValueError(f"unknown format {value!r}{did_you_mean(value, FORMATS)}; known formats: {known}")
        return value

    @model_validator(mode="after")
    def _consistent(self) -> LeagueConfig:
        names = [bot.name for bot in self.bots]
        duplicates = sorted({name for name in names if names.count(name) > 1})
        if duplicates:
            raise ValueError(f"bots: duplicate bot name {duplicates[0]!r}")
        FORMATS[self.format].check(self)  # its own keys and rules (league.plan.formats)
        check_finals(self, FORMATS)
        self._check_other_formats_keys()
        if not self.variants:
            raise ValueError("variants: give at least one variant (or leave the key out)")
        self._check_validate_against()
        return self

    def _check_validate_against(self) -> None:
        """Refuse a ``contest.validate_against`` that is no built-in of the league's game."""
        given = self.contest.validate_against
        if given is None:
            return
        names = list(GAMES[self.game].builtin_bots())
        prefix, dot, short = given.rpartition(".")
        if short not in names or (dot and prefix != self.game):
            raise ValueError(
                f"contest.validate_against: {given!r} is not a built-in of {self.game}{did_you_mean(short, names)};"
                f" give one of {', '.join(names)}"
            )

    def _check_other_formats_keys(self) -> None:
        """Refuse a key that only other formats give a meaning to (``Format.keys``): ``sprt`` in a round robin.

        Whether every variant can seat the format's games is checked once the variants are built
        (``league.plan.formats.format_problem``).
        """
        own = league_format(self).keys
        for key in type(self).model_fields:
            if key not in self.model_fields_set or key in own:
                continue
            owners = [format_ for format_ in FORMATS.values() if key in format_.keys]
            if not owners:
                continue
            if len(owners) == 1:
                which = f"format: {owners[0].name}"
            else:
                which = f"formats {', '.join(owner.name for owner in owners[:-1])} and {owners[-1].name}"
            raise ValueError(f"{key}: only {which} {owners[0].keys[key]} (this league is {self.format})")

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
