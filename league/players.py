"""Who sits at a seat: a built-in strategy or a program, and how to start it for the referee.

A built-in bot runs in this process through the bot side of its game's protocol (fast, same
bytes), or as a real program (``league bot GAME.NAME``). A program is any command line that
speaks the game's protocol on stdin/stdout, run in its own folder (``cwd``) inside the jail.
Everything that would make a bot fail every game (an unknown name, a command that cannot start,
files the jailed bot cannot read, bad parameters) is refused here, before anything plays.
"""

from __future__ import annotations

import dataclasses
import itertools
import json
import re
import shlex
import shutil
import sys
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from engine.core import PLAY, Game, ProcessKey, derive_seed
from league.builtins import (
    BuiltinError,
    accepted,
    builtin_class,
    builtin_names,
    builtin_params,
    check_params,
    make_bot,
    role_classes,
)
from league.commands import CommandError, check_command_line
from league.inprocess import InProcessTransport
from league.referee import Launcher
from sandbox.jail import Sandbox, SandboxError
from sandbox.limits import Limits
from sandbox.process import BotProcess, LaunchError
from sandbox.tcp import TcpBotProcess, shared_relay_problem
from sandbox.transport import Transport

PROJECT_ROOT = Path(__file__).resolve().parents[1]
PACKAGES = ("engine", "league", "sandbox")
"""This project's packages: what a built-in run as a program imports."""
STDIO, TCP = "stdio", "tcp"
_PLACEHOLDER = re.compile(r"\{[A-Za-z_]+\}")


class BotSpecError(ValueError):
    """A bot that cannot be used; the message names it and says why."""


@dataclass(frozen=True)
class BotSpec:
    """One entrant.

    Attributes:
        name: Its name in results.
        builtin: A built-in strategy as ``GAME.NAME`` (exclusive with ``command``).
        command: A program's command line.
        cwd: The program's working folder.
        own_folder: ``cwd`` is the program's own folder (``cwd:`` in a league file, ``--cwd``), which
            its jail shows whole; otherwise it is only where the program runs (a league file's
            folder, the current one), shown empty but for the folders of the files its command
            names (``sandbox.folders``).
        shared_folder: Its folder may hold another bot's, the league file or the report folder,
            knowingly (``shared_folder: true`` in a league file; see ``league.bot_folders``).
        params: Keyword parameters of a built-in strategy.
        as_program: Run a built-in as a real program instead of in this process.
        roles: For games whose bots have several roles (attack2048): a spec per role.
        transport: ``stdio``, or ``tcp`` for a program that connects to a host and port (the
            game's original server protocol); ``{host}`` and ``{port}`` in its command are
            replaced by the address.
    """

    name: str
    builtin: str | None = None
    command: tuple[str, ...] | None = None
    cwd: str | None = None
    own_folder: bool = False
    shared_folder: bool = False
    params: dict[str, Any] = field(default_factory=dict)
    as_program: bool = False
    roles: dict[str, BotSpec] | None = None
    transport: str = STDIO

    def for_role(self, role: str) -> BotSpec:
        """The spec that plays ``role`` (itself unless it has one per role)."""
        return self.roles[role] if self.roles else self

    def sides(self) -> list[BotSpec]:
        """The specs that run: one per role, or itself."""
        return list(self.roles.values()) if self.roles else [self]

    def describe(self) -> str:
        """What the bot is, for people."""
        if self.roles:
            return " :: ".join(f"{role}: {spec.describe()}" for role, spec in self.roles.items())
        if self.builtin:
            params = ", ".join(f"{key}={value!r}" for key, value in self.params.items())
            details = [params] if params else []
            details += ["as a program"] if self.as_program else []
            return f"built-in {self.builtin}" + (f" ({'; '.join(details)})" if details else "")
        command = shlex.join(self.command or ()).replace("'{host}'", "{host}").replace("'{port}'", "{port}")
        return command + (" (TCP client)" if self.transport == TCP else "")


def parse_bot_argument(game: type[Game], text: str, as_program: bool = False, cwd: str | None = None) -> BotSpec:
    """A BOT argument of the CLI: a built-in name (``greedy`` or ``GAME.greedy``) or a command line.

    For a game with two roles (attack2048) ``ROLE1::ROLE2`` gives one side per role, each a
    built-in name or a command line; a lone built-in name plays every role.

    Args:
        game: The game.
        text: The argument.
        as_program: Run built-ins as programs.
        cwd: The folder a command runs in, given as its own (None: it runs in the current one).

    Raises:
        BotSpecError: A built-in of another game, an unknown name, or an empty command.
    """
    if "::" in text:
        parts = text.split("::")
        if len(game.roles) < 2 or len(parts) != len(game.roles):
            wanted = "::".join(role.upper() for role in game.roles)
            raise BotSpecError(
                f"{text!r}: {game.name} takes {wanted}"
                if len(game.roles) > 1
                else f"{text!r}: {game.name} bots have one role; '::' is for attack2048-like games"
            )
        sides = [_parse_one_side(game, part.strip(), as_program, cwd) for part in parts]
        roles = dict(zip(game.roles, sides, strict=True))
        names = list(dict.fromkeys(side.name for side in sides))  # one program for both roles: one name
        return BotSpec(name="::".join(names), roles=roles)
    spec = _parse_one_side(game, text.strip(), as_program, cwd)
    if spec.command is not None and len(game.roles) > 1:
        wanted = "::".join(role.upper() for role in game.roles)
        raise BotSpecError(f"{text!r}: a {game.name} program needs one command per role, as {wanted}")
    return spec


def _parse_one_side(game: type[Game], text: str, as_program: bool, cwd: str | None) -> BotSpec:
    if not text:
        raise BotSpecError("an empty bot argument")
    if " " not in text and "/" not in text:
        prefix, dot, short = text.rpartition(".")
        if dot and prefix in _game_names() and prefix != game.name:
            raise BotSpecError(f"{text!r} is a bot of {prefix}, not of {game.name}")
        candidate = short if dot and prefix == game.name else text
        if candidate in game.builtin_bots():
            return BotSpec(name=candidate, builtin=f"{game.name}.{candidate}", as_program=as_program)
        if dot and prefix == game.name:
            try:
                role_classes(game, candidate)  # says it is not one, and which are
            except BuiltinError as error:
                raise BotSpecError(str(error)) from None
        known = f"its built-ins: {', '.join(builtin_names(game))}"
        if shutil.which(text) is None and not (Path(cwd or ".") / text).is_file():
            elsewhere = sorted(name for name in _game_names() if candidate in _builtins_of(name))
            if elsewhere:
                raise BotSpecError(
                    f"{candidate!r} is not a {game.name} built-in (it is one of {' and '.join(elsewhere)}'s); {known}"
                )
            raise BotSpecError(
                f"{text!r} is neither a {game.name} built-in ({known}) nor a program on PATH;"
                " give a program as a path or a quoted command line, e.g. './mybot' or 'python3 bot.py'"
            )
    argv = tuple(shlex.split(text))
    return BotSpec(name=command_name(argv), command=argv, cwd=cwd, own_folder=cwd is not None)


_TAKES_A_VALUE = {"-cp", "-classpath", "--class-path", "-X", "-W"}


def command_name(argv: Sequence[str]) -> str:
    """A short name for a program bot: its script, class or module, else its program.

    ``python3 bots/mine.py --depth 3`` is ``mine``, ``java -cp out GreedyAI`` is ``GreedyAI``,
    ``java -cp out net.example.RandomPlayer`` is ``RandomPlayer``, ``league bot
    pk2048.expectimax`` is ``pk2048.expectimax``, ``./a.out`` is ``a``.
    """
    named = _named_argument(argv)
    if Path(argv[0]).name == "league" or "league" in argv[1:3]:
        return named
    if Path(argv[0]).name == "java" and "/" not in named and not named.endswith(".jar"):
        return named.rpartition(".")[2] or named  # a class name with its package
    return Path(named).stem or named


def _named_argument(argv: Sequence[str]) -> str:
    """The argument that says what a command runs (its script, class, module or built-in)."""
    arguments = list(argv[1:])
    if Path(argv[0]).name == "league" or arguments[:2] == ["-m", "league"]:
        rest = arguments[arguments.index("bot") + 1 :] if "bot" in arguments else []
        return rest[0] if rest else "league"
    skip = False
    for argument in arguments:
        if skip:
            skip = False
        elif argument in _TAKES_A_VALUE:
            skip = True
        elif not argument.startswith("-"):
            return argument
    return argv[0]


def _game_names() -> set[str]:
    from engine import GAMES

    return set(GAMES)


def _builtins_of(game: str) -> list[str]:
    from engine import GAMES

    return builtin_names(GAMES[game])


def unique_names(specs: Sequence[BotSpec]) -> list[BotSpec]:
    """The specs with names that tell seats apart: ``bot`` and ``bot`` become ``a/bot`` and ``b/bot``.

    A program's name gains its folder where that makes it unique; what is still shared gets the
    seat number (``greedy#0``, ``greedy#1``).
    """
    names = [spec.name for spec in specs]
    if len(set(names)) == len(names):
        return list(specs)
    renamed = []
    for spec in specs:
        name = spec.name
        if names.count(name) > 1 and spec.command is not None:
            script = Path(_named_argument(spec.command))
            name = f"{script.parent.name}/{script.stem}" if script.parent.name else name
        renamed.append(name)
    final = [f"{name}#{seat}" if renamed.count(name) > 1 else name for seat, name in enumerate(renamed)]
    return [dataclasses.replace(spec, name=name) for spec, name in zip(specs, final, strict=True)]


def check_command(spec: BotSpec) -> None:
    """Fail early on a command that cannot start (see ``league.commands``).

    Raises:
        BotSpecError: The message names the bot, its command and what is wrong.
    """
    for side in spec.sides():
        if side.command is not None:
            try:
                check_command_line(side.command, Path(side.cwd or "."))
            except CommandError as error:
                raise BotSpecError(f"bot {spec.name!r}: {error}") from None


def check_transport(game: type[Game], spec: BotSpec) -> None:
    """Refuse ``transport: tcp`` where it cannot work: built-ins, or a game without a TCP protocol.

    Raises:
        BotSpecError: The message names the bot and the fix.
    """
    placeholders = sorted({found for arg in spec.command or () for found in _PLACEHOLDER.findall(arg)})
    if spec.transport == STDIO:
        if placeholders:
            raise BotSpecError(
                f"bot {spec.name!r}: its command has {', '.join(placeholders)}, which only a TCP client gets:"
                " add --tcp SEAT on league play, or transport: tcp in a league file"
            )
        return
    unknown = [found for found in placeholders if found not in ("{host}", "{port}")]
    if unknown:
        raise BotSpecError(
            f"bot {spec.name!r}: {', '.join(unknown)} in its command: only {{host}} and {{port}} are replaced"
        )
    if spec.transport != TCP:
        raise BotSpecError(f"bot {spec.name!r}: transport {spec.transport!r}: use stdio or tcp")
    if game().tcp() is None:
        raise BotSpecError(
            f"bot {spec.name!r}: transport tcp: {game.name} has no TCP protocol; its bots speak stdin/stdout"
        )
    if spec.command is None:
        raise BotSpecError(
            f"bot {spec.name!r}: transport tcp is for programs that connect to a port; built-ins speak stdin/stdout"
        )


def check_builtin_params(game: Game, spec: BotSpec) -> BotSpec:
    """The spec with its built-ins' parameters checked and converted; ``params`` on a program is an error.

    A bot with one side per role (attack2048's ``expectimax::greedy``) gives the parameters to
    its built-in sides, each the ones it takes.

    Raises:
        BotSpecError: An unknown parameter (the valid ones named), a wrong type, or a refusal.
    """
    if not spec.params:
        return spec
    sides = {role: side.builtin for role, side in (spec.roles or {}).items() if side.builtin is not None}
    if spec.builtin is not None:
        sides = {role: spec.builtin for role in type(game).roles}
    if not sides:
        raise BotSpecError(
            f"bot {spec.name!r}: params are for built-in bots; a program takes its options in its command"
        )
    try:
        params = check_params(game, sides, spec.params)
    except BuiltinError as error:
        raise BotSpecError(f"bot {spec.name!r}: {error}") from None
    if spec.roles:
        roles = {
            role: dataclasses.replace(side, params=accepted(builtin_class(type(game), sides[role], role), params))
            if role in sides
            else side
            for role, side in spec.roles.items()
        }
        return dataclasses.replace(spec, params=params, roles=roles)
    return dataclasses.replace(spec, params=params)


def check_program_access(spec: BotSpec, sandbox: Sandbox, read_only: Sequence[str] = ()) -> None:
    """Refuse a program that cannot be jailed here, whose files the jailed bot cannot read, or whose relay is unguarded.

    Args:
        spec: The bot.
        sandbox: Where it will run.
        read_only: More host paths it may read.

    Raises:
        BotSpecError: The message names the bot, the file and the fix.
    """
    for side in spec.sides():
        if side.builtin is not None and not side.as_program:
            continue
        try:
            sandbox.require_isolation()
        except SandboxError as error:
            raise BotSpecError(f"bot {spec.name!r}: {error}") from None
        if side.command is not None:
            extra = [*read_only, *program_read_only(side)]
            found = sandbox.unreadable(side.command, side.cwd, extra, own_folder=side.own_folder)
            if found is not None:
                raise BotSpecError(f"bot {spec.name!r}: {found.message()}")
    relay_problem = shared_relay_problem(sandbox) if spec.transport == TCP else None
    if relay_problem is not None:
        raise BotSpecError(f"bot {spec.name!r}: {relay_problem}")


def program_read_only(spec: BotSpec) -> list[str]:
    """Host paths a program needs besides its own: this project's packages for built-ins and ``league bot`` commands.

    Only the packages, never the whole project: its ``configs/`` and ``reports/`` hold league files
    and stores, which no bot may see.
    """
    argv = spec.command or ()
    runs_league = bool(argv) and (
        Path(argv[0]).name == "league" or any(a == "-m" and b == "league" for a, b in itertools.pairwise(argv))
    )
    packages = [str(PROJECT_ROOT / package) for package in PACKAGES]
    return packages if spec.builtin is not None or runs_league else []


def program_command(game: Game, spec: BotSpec, seed: int, role: str) -> list[str]:
    """The command line that runs a bot as a program (built-ins through ``league bot``)."""
    if spec.command is not None:
        return list(spec.command)
    assert spec.builtin is not None
    command = [sys.executable, "-m", "league", "bot", spec.builtin, "--seed", str(seed)]
    if role != PLAY:
        command += ["--role", role]
    for key, value in builtin_params(game, spec.builtin, role, spec.params).items():
        command += ["--param", f"{key}={json.dumps(value)}"]
    return command


def make_launcher(game: Game, spec: BotSpec, seat: int, match_seed: int, sandbox: Sandbox | None = None) -> Launcher:
    """How the referee starts ``spec``'s processes at ``seat`` of a match seeded ``match_seed``.

    Args:
        game: The game and its variant.
        spec: The bot.
        seat: Its seat.
        match_seed: The match seed (built-in bots derive theirs from it).
        sandbox: Confines program bots (None: plain child processes).
    """
    limits = sandbox.limits if sandbox is not None else Limits()

    def launch(key: ProcessKey) -> Transport:
        seed = derive_seed(match_seed, "bot", seat, key.role, key.epoch)
        side = spec.for_role(key.role)
        if side.builtin is not None and not side.as_program:
            bot = make_bot(game, side.builtin, key.role, seed, side.params)
            return InProcessTransport(game.bot_protocol(bot), limits.line_bytes)
        options: dict[str, Any] = {
            "cwd": side.cwd if side.builtin is None else str(PROJECT_ROOT),
            "own_folder": side.own_folder and side.builtin is None,
            "max_line_bytes": limits.line_bytes,
            "sandbox": sandbox,
            "read_only": program_read_only(side),
            "max_output_bytes": limits.output_bytes,
        }
        command = program_command(game, side, seed, key.role)
        try:
            tcp = game.tcp()
            if side.transport == TCP and tcp is not None:
                return TcpBotProcess(command, tcp.ports[seat], tcp.connect_timeout_s, **options)
            return BotProcess(command, **options)
        except LaunchError as error:
            raise LaunchError(f"bot {spec.name!r}: {error}") from None

    return launch
