"""A league as one YAML file, read, validated and resolved into a ``League`` before anything runs.

The file's keys and the rules between them are ``league.plan.config_schema``'s models; here the file is
read, its variants built and its bots resolved. Every problem becomes one ``ConfigError`` whose message
names the file, the key and the problem (``league.yaml: bots[2].command: file 'bots/mine.py' does not exist``).
"""

from __future__ import annotations

import dataclasses
import os
import re
import shlex
import typing
from pathlib import Path
from typing import Any

import yaml
from pydantic import BaseModel, ValidationError

from engine import GAMES
from engine.core import Game
from engine.openings import OpeningError
from league.match.bot_spec import BotSpec, BotSpecError, parse_bot_argument
from league.match.did_you_mean import did_you_mean
from league.match.players import check_builtin_params, check_command, check_program_access, check_transport
from league.plan.bot_folders import league_folders_problem
from league.plan.config_schema import BotConfig, LeagueConfig
from league.plan.cores import cluster_concurrency, cluster_origin, default_concurrency, need_of
from league.plan.formats import FORMATS, format_problem, league_format
from league.plan.openings import Openings
from league.plan.openings import resolve as resolve_openings
from league.store.folder import output_problem
from sandbox.jail import Sandbox
from sandbox.limits import SandboxMode


class ConfigError(Exception):
    """A league file that cannot be used; the message names the file, the key and the problem."""


class League:
    """A validated league: its config, where it came from, its games and its bots; plain data, as its file was read.

    What is computed from it (its seed, its games) is passed on beside it, never set on it
    (``league.plan.league_schedule.league_plan``).

    Attributes:
        config: The validated file.
        path: The file.
        games: Per variant name, the game with that variant's parameters.
        bots: Per bot name, how to start it (paths resolved against the file's folder).
        concurrency_given: Whether the file gave ``concurrency`` (else it is the default: this machine's
            cores, or a cluster's CPUs once ``fit_to_cluster`` counted them, divided by the cores a game needs).
        concurrency_origin: Where ``config.concurrency`` came from, for people, once ``fit_to_cluster`` ran.
        concurrency_source: Who gave ``concurrency`` when it is given (the file, or ``league run --concurrency``).
        openings: What each pair of games starts from (``league.plan.openings``), None for the rules' start.
    """

    def __init__(
        self,
        config: LeagueConfig,
        path: Path,
        games: dict[str, Game],
        bots: dict[str, BotSpec],
        concurrency_given: bool = True,
        openings: Openings | None = None,
    ) -> None:
        self.config = config
        self.path = path
        self.games = games
        self.bots = bots
        self.concurrency_given = concurrency_given
        self.concurrency_origin = ""
        self.concurrency_source = "the league file's"
        self.openings = openings

    def fit_to_cluster(self, cpus: int | None) -> None:
        """On a Ray cluster of ``cpus`` CPUs (None: not counted), a default concurrency is its CPUs / a game's cores.

        A concurrency the file gives is kept; either way ``concurrency_origin`` says where it came from.
        """
        if self.concurrency_given:
            self.concurrency_origin = self.concurrency_source
        elif cpus is None:
            self.concurrency_origin = "this machine's cores: the cluster's were not counted"
        else:
            config = self.config
            need = need_of(config, self.games, self.bots)
            self.config = self.config.model_copy(update={"concurrency": cluster_concurrency(cpus, need)})
            self.concurrency_origin = cluster_origin(cpus, need)

    @property
    def output(self) -> Path:
        """The report folder: ``output``, default ``reports/<name>/``, relative to the league file."""
        output = Path(self.config.output) if self.config.output else Path("reports") / self.config.name
        return Path(os.path.normpath(output if output.is_absolute() else self.path.parent / output))

    def output_problem(self, create: bool) -> str | None:
        """Why the league cannot write its report folder (``output: PROBLEM; FIX``), or None.

        The folder must be the league's own: new, empty, or holding a league (``league.store.folder``).

        Args:
            create: Make the folder and try a file in it (``run``); otherwise only look (``validate``
                writes nothing).
        """
        return output_problem(self.output, create)

    def check_output(self, create: bool) -> None:
        """Raise ``ConfigError`` (the file, the folder, the problem and the fix) if the report folder is refused."""
        problem = self.output_problem(create)
        if problem is not None:
            raise ConfigError(f"{self.path}: {problem}")

    def check_bots(self, sandbox: Sandbox) -> None:
        """Refuse program bots that cannot be jailed here, whose files the jailed bot cannot read, or not kept apart.

        Jailed, no bot's folder may hold another bot's, the league file or the report folder
        (``league.plan.bot_folders``), unless the bot says ``shared_folder: true``; nor may any other
        path its jail shows, nor hold the folder the league runs from (``league.plan.shown_paths``).

        Raises:
            ConfigError: Naming the file, the bot, the path and the fix.
        """
        read_only = [("sandbox.read_only", Path(path)) for path in self.sandbox_read_only]
        read_only += [("limits.read_only", Path(path).resolve()) for path in self.config.limits.read_only]
        problem = (
            None
            if sandbox.mode == SandboxMode.NONE
            else league_folders_problem(self.bots, self.path, self.output, read_only)
        )
        if problem is not None:
            raise ConfigError(f"{self.path}: {problem}")
        for index, spec in enumerate(self.bots.values()):
            try:
                check_program_access(spec, sandbox, self.sandbox_read_only)
            except BotSpecError as error:
                raise ConfigError(f"{self.path}: bots[{index}] ({spec.name}): {_unnamed(error)}") from None

    @property
    def sandbox_read_only(self) -> list[str]:
        """Extra read-only paths, resolved against the file's folder."""
        return [str((self.path.parent / p).resolve()) for p in self.config.sandbox.read_only]


def _keys_at(location: tuple[Any, ...]) -> list[str]:
    """The keys a mapping of the league file may hold, at the place of an unknown key."""
    model: Any = LeagueConfig
    for part in location[:-1]:
        if isinstance(part, int):
            continue  # an item of a list: the list's own model below
        annotation = model.model_fields[part].annotation
        models = [
            arg
            for arg in (annotation, *typing.get_args(annotation))
            if isinstance(arg, type) and typing.get_origin(arg) is None and issubclass(arg, BaseModel)
        ]
        if not models:
            return []
        model = models[0]
    return list(model.model_fields)


def _where(location: tuple[Any, ...]) -> str:
    text = ""
    for part in location:
        text += f"[{part}]" if isinstance(part, int) else (f".{part}" if text else str(part))
    return text or "(top level)"


def load_league(path: str | Path, overrides: dict[str, Any] | None = None) -> League:
    """Read, validate and resolve a league file.

    Args:
        path: The YAML file.
        overrides: Top-level keys replacing the file's (from the CLI).

    Raises:
        ConfigError: Anything wrong, with the file, the key and the problem.
    """
    path = Path(path)
    try:
        data = yaml.safe_load(league_text(path))
    except OSError as error:
        raise ConfigError(f"{path}: cannot read it ({error.strerror})") from None
    except yaml.YAMLError as error:
        mark = getattr(error, "problem_mark", None)
        where = f" at line {mark.line + 1}, column {mark.column + 1}" if mark else ""
        raise ConfigError(f"{path}: not valid YAML{where}: {getattr(error, 'problem', error)}") from None
    if not isinstance(data, dict):
        raise ConfigError(f"{path}: expected a mapping of keys (name, game, bots, ...), got {type(data).__name__}")
    data.update(overrides or {})
    _paths_from_file(data, path.parent)
    try:
        config = LeagueConfig(**data)
    except ValidationError as error:
        problem = error.errors()[0]
        message = problem["msg"].removeprefix("Value error, ")
        if problem["type"] == "extra_forbidden":
            keys = _keys_at(problem["loc"])
            message = f"unknown key{did_you_mean(problem['loc'][-1], keys)}; keys here: {', '.join(keys)}"
        if not problem["loc"] and re.match(r"[a-z_]+(\.[a-z_]+)*(\[\d+\])?: ", message):
            raise ConfigError(f"{path}: {message}") from None  # a rule between keys names its key itself
        raise ConfigError(f"{path}: {_where(problem['loc'])}: {message}") from None
    game_class = GAMES[config.game]
    games = {name: _variant(path, game_class, name, params) for name, params in config.variants.items()}
    problem = format_problem(league_format(config), config, games)
    if problem:
        raise ConfigError(f"{path}: {problem}")
    bots = {bot.name: _bot(path, list(games.values()), index, bot) for index, bot in enumerate(config.bots)}
    try:
        openings = resolve_openings(config.openings, path.parent, games)
    except OpeningError as error:
        raise ConfigError(f"{path}: openings: {error}") from None
    given = "concurrency" in config.model_fields_set
    if not given:  # a core for every bot thinking at once
        need = need_of(config, games, bots)
        config = config.model_copy(update={"concurrency": default_concurrency(need, config.clock)})
    return League(config, path, games, bots, concurrency_given=given, openings=openings)


def _paths_from_file(data: dict[str, Any], folder: Path) -> None:
    """A format's path keys (``Format.file_keys``: ``knockout.ratings_from``), when relative, from the file's folder."""
    for format_ in FORMATS.values():
        for dotted in format_.file_keys:
            section, key = dotted.split(".")
            block = data.get(section)
            if isinstance(block, dict) and isinstance(block.get(key), str) and not Path(block[key]).is_absolute():
                block[key] = os.path.normpath(folder / block[key])


UTF8_BOM = b"\xef\xbb\xbf"
UTF16_BOMS = (b"\xff\xfe", b"\xfe\xff")


def league_text(path: Path) -> str:
    """A league file's text: UTF-8, a UTF-8 byte order mark (as some Windows editors save) dropped.

    Raises:
        OSError: The file cannot be read.
        ConfigError: It is not UTF-8 text (latin-1, UTF-16 with or without its byte order mark,
            binary): the file, the first byte that is not and the fix.
    """
    data = path.read_bytes()
    fix = "save it as UTF-8"
    if data.startswith(UTF16_BOMS):
        raise ConfigError(
            f"{path} is not UTF-8 text (it is UTF-16: it starts with byte order mark 0x{data[:2].hex()}); {fix}"
        )
    data = data.removeprefix(UTF8_BOM)
    if b"\0" in data:  # valid UTF-8, never a YAML file: UTF-16 without its mark, or binary
        offset = data.index(b"\0")
        raise ConfigError(f"{path} is not UTF-8 text (byte 0x00 at offset {offset}: UTF-16, or not text); {fix}")
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as error:
        byte = data[error.start]
        raise ConfigError(f"{path} is not UTF-8 text (byte 0x{byte:02x} at offset {error.start}); {fix}") from None


def _variant(path: Path, game_class: type[Game], name: str, params: dict[str, Any]) -> Game:
    params = dict(params or {})
    for key in game_class.path_keys:  # files named in a variant are found next to the league file
        if isinstance(params.get(key), str):
            params[key] = str((path.parent / params[key]).resolve())
    try:
        return game_class(**params)
    except ValidationError as error:
        problem = error.errors()[0]
        key = _where(problem["loc"])
        if problem["type"] == "extra_forbidden":
            hint = did_you_mean(problem["loc"][-1], game_class.model_fields)
            known = ", ".join(game_class.model_fields)
            raise ConfigError(
                f"{path}: variants.{name}.{key}: {game_class.name} has no such key{hint}; keys: {known}"
            ) from None
        where = f"variants.{name}.{key}" if problem["loc"] else f"variants.{name}"
        raise ConfigError(f"{path}: {where}: {problem['msg'].removeprefix('Value error, ')}") from None


def _bot(path: Path, games: list[Game], index: int, bot: BotConfig) -> BotSpec:
    where = f"{path}: bots[{index}] ({bot.name})"
    cwd = str((path.parent / bot.cwd).resolve()) if bot.cwd else str(path.parent.resolve())
    game_class = type(games[0])
    try:
        if bot.builtin is not None:
            try:
                spec = parse_bot_argument(game_class, bot.builtin)
            except BotSpecError as error:
                raise BotSpecError(f"builtin: {error}") from None
            if spec.builtin is None:
                raise BotSpecError(f"builtin: {bot.builtin!r} is not a built-in bot of {game_class.name}")
            spec = BotSpec(name=bot.name, builtin=spec.builtin, params=bot.params)
            for game in games:  # each variant tells the bot its own rules: every one must be accepted
                try:
                    checked = check_builtin_params(game, spec)
                except BotSpecError as error:
                    raise BotSpecError(f"params: {_unnamed(error)}") from None
            spec = checked
        elif bot.command is not None:
            spec = BotSpec(name=bot.name, command=_argv(bot.command), cwd=cwd, own_folder=bot.cwd is not None)
        else:
            assert bot.roles is not None
            unknown = [role for role in bot.roles if role not in game_class.roles]
            if unknown and len(game_class.roles) > 1:
                raise BotSpecError(
                    f"roles.{unknown[0]}: {game_class.name} has no role {unknown[0]!r}"
                    f"{did_you_mean(unknown[0], game_class.roles)}; give exactly the roles {list(game_class.roles)}"
                )
            if set(bot.roles) != set(game_class.roles) or len(game_class.roles) < 2:
                wanted = (
                    "command: instead" if len(game_class.roles) < 2 else f"exactly the roles {list(game_class.roles)}"
                )
                raise BotSpecError(f"roles: {game_class.name} bots have {len(game_class.roles)} role(s); give {wanted}")
            roles = {
                role: BotSpec(name=f"{bot.name}.{role}", command=_argv(cmd), cwd=cwd, own_folder=bot.cwd is not None)
                for role, cmd in bot.roles.items()
            }
            spec = BotSpec(name=bot.name, roles=roles)
        spec = dataclasses.replace(spec, transport=bot.transport, shared_folder=bot.shared_folder)
        check_transport(game_class, spec)
        check_command(spec)
    except BotSpecError as error:
        raise ConfigError(f"{where}: {_unnamed(error)}") from None
    return spec


def _unnamed(error: Exception) -> str:
    """A bot error's message without its leading "bot 'NAME': " (the file's key names the bot)."""
    return re.sub(r"^bot '[^']*': ", "", str(error))


def _argv(command: list[str] | str) -> tuple[str, ...]:
    argv = tuple(shlex.split(command)) if isinstance(command, str) else tuple(command)
    if not argv:
        raise BotSpecError("command: empty")
    return argv
