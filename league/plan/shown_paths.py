"""What a bot's jail shows beside its own folders, and the rules every such path is held to.

Beside a bot's own folders (``sandbox.folders.own_folders``) its jail shows, read-only
(``sandbox.folders.exposed_paths``): its program's installation and each interpreter's a ``#!``
line names, the folder of a file its command names that is not its own (one in an installation),
the TCP relay's files (``sandbox.tcp``), this project's packages for a command that runs ``league
bot``, and the organiser's ``sandbox.read_only`` and ``limits.read_only`` paths. ``side_shown``
lists the first four for one program with the reason each is shown; league/plan/bot_folders.py
holds them, and the ``read_only`` paths (``read_only_problem``), against the league file, the
report folder, the other bots' folders and the folder the league runs from (``HERE``).

A ``#!`` line may name its interpreter by a relative path (``#!x``): the kernel looks it up from
the folder the bot runs in, so the jail finds it only where that place lies in the bot's own
folders (``interpreter_problem``).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from league.match.bot_spec import TCP, BotSpec
from league.match.players import program_read_only
from sandbox.folders import (
    exposed_paths,
    is_system,
    outermost,
    own_folders,
    program_installations,
    relative_interpreters,
    within,
)
from sandbox.tcp import relay_command

HERE = "the folder the league runs from"
"""The current folder of ``league run``, ``league validate`` or ``league play``: no path a jail shows may hold it."""
INSTALLATION = "where its program, or an interpreter a #! line names, is installed"
NAMED_FILE = "the folder of a file its command names"
RELAY = "the TCP relay's files"
PACKAGES = "this project's packages, which it runs"


@dataclass(frozen=True)
class Shown:
    """A host path a bot's jail shows that is not one of its own folders.

    Attributes:
        path: The path (resolved).
        why: Why the jail shows it, for people (``INSTALLATION``, ``NAMED_FILE``, ``RELAY``, ``PACKAGES``).
    """

    path: Path
    why: str


def side_shown(side: BotSpec, transport: str, own: Sequence[Path]) -> list[Shown]:
    """The paths the jail of one program (a side of a bot) shows beside ``own``, each with why.

    Args:
        side: The program (its ``command`` is not None).
        transport: The bot's transport (``TCP``: the relay's files are shown too).
        own: Its own folders (``sandbox.folders.own_folders``).
    """
    assert side.command is not None
    cwd = Path(side.cwd or ".").resolve()
    installed = outermost(program_installations(side.command, cwd))
    relay = exposed_paths(relay_command(0), cwd) if transport == TCP else []
    packages = outermost(Path(path) for path in program_read_only(side))
    shown: dict[Path, Shown] = {}
    for paths, why in ((relay, RELAY), (packages, PACKAGES), (exposed_paths(side.command, cwd), NAMED_FILE)):
        for path in paths:
            if not any(within(path, folder) for folder in own):
                shown.setdefault(path, Shown(path, INSTALLATION if path in installed else why))
    return list(shown.values())


def meeting(path: Path, other: Path) -> str | None:
    """How ``path`` meets ``other``: it ``holds`` it (or is it), it ``lies in`` it, or None."""
    return "holds" if within(other, path) else "lies in" if within(path, other) else None


def marking(path: Path, what: str, other: Path) -> str | None:
    """How a shown ``path`` meets the guarded ``other`` (``what`` it is), or None: ``HERE`` only where held."""
    if what == HERE:
        return "holds" if within(other, path) else None
    return meeting(path, other)


def league_runs_from() -> Path | None:
    """The folder the league runs from (this process's current one, resolved), or None where it is gone."""
    try:
        return Path.cwd().resolve()
    except OSError:
        return None


def marks(guarded: Sequence[tuple[str, Path]]) -> list[tuple[str, Path]]:
    """``guarded`` and the folder the league runs from (``HERE``), unless that is a system folder."""
    here = league_runs_from()
    return [*guarded, *([(HERE, here)] if here is not None and not is_system(here) else [])]


def interpreter_problem(spec: BotSpec, own_folder_fix: str) -> str | None:
    """Why a ``#!`` line of ``spec``'s program names an interpreter its jail cannot show it, or None.

    A relative interpreter (``#!x``) is looked up by the kernel from the folder the bot runs in:
    its jail shows it there only where that place lies in the bot's own folders (or the system's).
    Anywhere else it is not found, or would be found in a folder that is not the bot's.

    Args:
        spec: The bot.
        own_folder_fix: How to give a bot a folder of its own (``cwd: in the league file``).
    """
    for side in spec.sides():
        if side.command is None:
            continue
        cwd = Path(side.cwd or ".").resolve()
        own = own_folders(side.command, cwd, side.own_folder)
        for script, word, place in relative_interpreters(side.command, cwd):
            if is_system(place) or any(within(place, folder) for folder in own):
                continue
            folders = ", ".join(map(str, own)) or "none"
            return (
                f"the #! line of {script} names a relative interpreter {word!r}, which the kernel looks up from the"
                f" folder the bot runs in ({cwd}): {place} is not in the bot's own folders ({folders}); give the"
                f" interpreter's absolute path (#!/usr/bin/env python3), or put it in the bot's own folder"
                f" ({own_folder_fix})"
            )
    return None


def read_only_problem(
    read_only: Sequence[tuple[str, Path]], folders: Sequence[tuple[str, Path]], guarded: Sequence[tuple[str, Path]]
) -> str | None:
    """Why a path every jail shows (``sandbox.read_only``, ``limits.read_only``) shows what no bot may see, or None.

    Such a path may neither hold nor lie in a bot's folder, the league file or the report folder,
    and may not hold the folder the league runs from.

    Args:
        read_only: (how the organiser names it, resolved path) pairs.
        folders: (whose, resolved path) of the bots' own folders that another bot would be shown
            (``bots[1] (b)'s folder``); none where one bot alone runs.
        guarded: (what it is, resolved path) of what no bot may see, ``HERE`` among them (``marks``).
    """
    for label, path in read_only:
        if is_system(path) or not path.exists():
            continue  # the jail shows the system anyway, and binds no path that is not there
        for what, other in [*guarded, *folders]:
            how = marking(path, what, other)
            if how is not None:
                return (
                    f"{label}: {path} {how} {what} {other}, and every jailed bot is shown it read-only; list only"
                    " what bots need, apart from the league file, the report folder, the bots' folders and the"
                    " folder the league runs from"
                )
    return None
