"""A seat's bot as data: its spec, parsed from a command-line argument, and as stored in a league folder.

A ``BotSpec`` names a built-in (with its parameters) or a program (its command line, folder and
transport); a game that needs two roles (attack2048) gives one spec a role. ``parse_bot_argument``
reads what ``league play`` is given; ``spec_to_data`` and ``spec_from_data`` are the form the
manifest, the schedule's game ids and the workers use.
"""

from __future__ import annotations

import dataclasses
import shlex
import shutil
from collections.abc import Sequence
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from engine.core import Game
from league.match.builtins import (
    BuiltinError,
    builtin_names,
    role_classes,
)

STDIO, TCP = "stdio", "tcp"


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
            knowingly (``shared_folder: true`` in a league file; see ``league.plan.bot_folders``).
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


def spec_to_data(spec: BotSpec) -> dict[str, Any]:
    """A BotSpec as plain data (roles included); its folder flags only where set, so earlier ids stay as they were."""
    data = asdict(spec)
    for flag in ("own_folder", "shared_folder"):
        if not data[flag]:
            del data[flag]
    if spec.roles:
        data["roles"] = {role: spec_to_data(side) for role, side in spec.roles.items()}
    return data


def spec_from_data(data: dict[str, Any]) -> BotSpec:
    """The BotSpec of ``spec_to_data`` output."""
    fields = dict(data)
    if fields.get("roles"):
        fields["roles"] = {role: spec_from_data(side) for role, side in fields["roles"].items()}
    if fields.get("command") is not None:
        fields["command"] = tuple(fields["command"])
    return BotSpec(**fields)
