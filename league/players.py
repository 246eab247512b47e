"""Who sits at a seat: a built-in strategy or a program, and how to start it for the referee.

A built-in bot runs in this process through the bot side of its game's protocol (fast, same
bytes), or as a real program (``league bot GAME.NAME``). A program is any command line that
speaks the game's protocol on stdin/stdout.
"""

from __future__ import annotations

import json
import os
import shlex
import shutil
import sys
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from engine.core import PLAY, Game, ProcessKey, derive_seed
from league.referee import Launcher
from sandbox.jail import Sandbox
from sandbox.limits import Limits
from sandbox.process import BotProcess, LaunchError
from sandbox.transport import InProcessTransport, Transport

PROJECT_ROOT = Path(__file__).resolve().parents[1]
_SCRIPT_SUFFIXES = (".py", ".js", ".jar", ".rb", ".pl", ".class", ".sh", ".lua", ".php")


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
        params: Keyword parameters of a built-in strategy.
        as_program: Run a built-in as a real program instead of in this process.
        roles: For games whose bots have several roles (attack2048): a spec per role.
    """

    name: str
    builtin: str | None = None
    command: tuple[str, ...] | None = None
    cwd: str | None = None
    params: dict[str, Any] = field(default_factory=dict)
    as_program: bool = False
    roles: dict[str, BotSpec] | None = None

    def for_role(self, role: str) -> BotSpec:
        """The spec that plays ``role`` (itself unless it has one per role)."""
        return self.roles[role] if self.roles else self

    def describe(self) -> str:
        """What the bot is, for people."""
        if self.roles:
            return " :: ".join(f"{role}: {spec.describe()}" for role, spec in self.roles.items())
        if self.builtin:
            return f"built-in {self.builtin}"
        return shlex.join(self.command or ())


def parse_bot_argument(game: type[Game], text: str, as_program: bool = False) -> BotSpec:
    """A BOT argument of the CLI: a built-in name (``greedy`` or ``GAME.greedy``) or a command line.

    For a game with two roles (attack2048) ``ROLE1::ROLE2`` gives one side per role, each a
    built-in name or a command line; a lone built-in name plays every role.

    Raises:
        BotSpecError: A built-in of another game, an unknown built-in, or an empty command.
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
        sides = [_parse_one_side(game, part.strip(), as_program) for part in parts]
        roles = dict(zip(game.roles, sides, strict=True))
        return BotSpec(name="::".join(side.name for side in sides), roles=roles)
    spec = _parse_one_side(game, text.strip(), as_program)
    if spec.command is not None and len(game.roles) > 1:
        wanted = "::".join(role.upper() for role in game.roles)
        raise BotSpecError(f"{text!r}: a {game.name} program needs one command per role, as {wanted}")
    return spec


def _parse_one_side(game: type[Game], text: str, as_program: bool) -> BotSpec:
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
            known = ", ".join(sorted(game.builtin_bots()))
            raise BotSpecError(f"{game.name} has no built-in bot {candidate!r}; built-ins: {known}")
    argv = tuple(shlex.split(text))
    return BotSpec(name=Path(argv[-1]).stem or argv[0], command=argv)


def _game_names() -> set[str]:
    from engine import GAMES

    return set(GAMES)


def check_command(spec: BotSpec) -> None:
    """Fail early on a command that cannot start: missing program or missing script file.

    Raises:
        BotSpecError: The message names the bot, its command and what is missing.
    """
    if spec.roles:
        for side in spec.roles.values():
            check_command(side)
        return
    if spec.command is None:
        return
    cwd = Path(spec.cwd or ".")
    if not cwd.is_dir():
        raise BotSpecError(f"bot {spec.name!r}: working folder {str(cwd)!r} does not exist")
    program = spec.command[0]
    if "/" in program:
        path = cwd / program
        if not path.is_file():
            raise BotSpecError(f"bot {spec.name!r}: {program!r} does not exist (in {cwd.resolve()})")
        if not os.access(path, os.X_OK):
            raise BotSpecError(f"bot {spec.name!r}: {program!r} is not executable (chmod +x it)")
    elif shutil.which(program) is None:
        raise BotSpecError(f"bot {spec.name!r}: program {program!r} is not on PATH")
    for argument in spec.command[1:]:
        if argument.endswith(_SCRIPT_SUFFIXES) and not argument.startswith("-") and not (cwd / argument).exists():
            raise BotSpecError(f"bot {spec.name!r}: file {argument!r} named in its command does not exist")


def builtin_class(game: type[Game], builtin: str, role: str) -> type:
    """The class of a built-in ``GAME.NAME`` playing ``role``.

    A game whose bots have several roles maps each built-in name to a class per role.
    """
    _, _, short = builtin.rpartition(".")
    entry = game.builtin_bots()[short]
    return entry[role] if isinstance(entry, Mapping) else entry


def builtin_params(game: Game, spec: BotSpec) -> dict[str, Any]:
    """A built-in's parameters: the game's rules it must know, then its own ``params``."""
    return {**game.bot_rules(), **spec.params}


def program_command(game: Game, spec: BotSpec, seed: int, role: str) -> list[str]:
    """The command line that runs a bot as a program (built-ins through ``league bot``)."""
    if spec.command is not None:
        return list(spec.command)
    assert spec.builtin is not None
    command = [sys.executable, "-m", "league", "bot", spec.builtin, "--seed", str(seed)]
    if role != PLAY:
        command += ["--role", role]
    for key, value in builtin_params(game, spec).items():
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
            bot = builtin_class(type(game), side.builtin, key.role)(seed=seed, **builtin_params(game, side))
            return InProcessTransport(game.bot_protocol(bot), limits.line_bytes)
        try:
            return BotProcess(
                program_command(game, side, seed, key.role),
                cwd=side.cwd,
                max_line_bytes=limits.line_bytes,
                sandbox=sandbox,
                read_only=[str(PROJECT_ROOT)] if side.builtin is not None else [],
                max_output_bytes=limits.output_bytes,
            )
        except LaunchError as error:
            raise LaunchError(f"bot {spec.name!r}: {error}") from None

    return launch
