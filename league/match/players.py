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
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from engine.core import PLAY, Game, ProcessKey, derive_seed
from league.match.bot_spec import STDIO, TCP, BotSpec, BotSpecError
from league.match.builtins import (
    BuiltinError,
    accepted,
    builtin_class,
    builtin_params,
    check_params,
    make_bot,
)
from league.match.commands import CommandError, check_command_line
from league.match.inprocess import InProcessTransport
from league.match.referee import Launcher
from sandbox.jail import Sandbox, SandboxError
from sandbox.limits import Limits
from sandbox.process import BotProcess, LaunchError
from sandbox.tcp import TcpBotProcess, shared_relay_problem
from sandbox.transport import Transport

PROJECT_ROOT = Path(__file__).resolve().parents[2]
PACKAGES = ("engine", "league", "sandbox")
"""This project's packages: what a built-in run as a program imports."""
_PLACEHOLDER = re.compile(r"\{[A-Za-z_]+\}")


def check_command(spec: BotSpec) -> None:
    """Fail early on a command that cannot start (see ``league.match.commands``).

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
