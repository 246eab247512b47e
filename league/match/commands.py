"""Checking a program bot's command line before anything plays, with a hint for each usual mistake.

A command that cannot start would be a forfeit in every game; each check here ends in one
sentence naming the bot, the file and the fix instead: a missing program or script, a file that
is not executable, a script made executable without a ``#!`` line (the kernel will not run it: ENOEXEC,
"Exec format error"), a folder given as the program, ``python3 folder`` without a ``__main__.py``,
``cbot`` meant as ``./cbot``, an unquoted ``python3 bot.py`` on the command line.
"""

from __future__ import annotations

import os
import re
import shutil
from collections.abc import Sequence
from pathlib import Path

SCRIPT_RUNNERS = {
    ".py": "python3 {name}",
    ".class": "java {stem}",
    ".jar": "java -jar {name}",
    ".js": "node {name}",
    ".rb": "ruby {name}",
    ".pl": "perl {name}",
    ".sh": "sh {name}",
    ".lua": "lua {name}",
    ".php": "php {name}",
}
"""How a script of each kind is run, by its suffix."""
SCRIPT_SUFFIXES = tuple(SCRIPT_RUNNERS)
_ELF = b"\x7fELF"
"""How a binary the kernel runs begins."""
_PYTHON = re.compile(r"(python|pypy)[0-9.]*")
_INTERPRETERS = re.compile(r"(python|pypy)[0-9.]*|java|node|nodejs|ruby|perl|php|lua|sh|bash|dash|Rscript|julia")


class CommandError(ValueError):
    """A command line that cannot run; the message names what is wrong and the fix."""


def check_command_line(argv: Sequence[str], cwd: Path) -> None:
    """Fail early on a command that cannot start.

    Args:
        argv: The command line.
        cwd: The folder it runs in (relative paths are taken from there).

    Raises:
        CommandError: The message names the file or program and the fix.
    """
    if not cwd.is_dir():
        raise CommandError(f"working folder {str(cwd)!r} does not exist")
    program = argv[0]
    if "/" in program:
        path = cwd / program
        if path.is_dir():
            raise CommandError(f"{program!r} is a folder, not a program{_inside(path)}")
        if not path.is_file():
            raise CommandError(f"{program!r} does not exist (in {cwd.resolve()})")
        if not os.access(path, os.X_OK):
            raise CommandError(f"{program!r} is not executable (chmod +x {program})")
        _check_executable_format(path, program)
    elif shutil.which(program) is None:
        if (cwd / program).is_file():
            raise CommandError(f"program {program!r} is not on PATH; {_how_to_run(cwd / program)}")
        raise CommandError(f"program {program!r} is not on PATH")
    if _PYTHON.fullmatch(Path(program).name):
        _check_python_target(argv[1:], cwd)
    for argument in argv[1:]:
        if argument.endswith(SCRIPT_SUFFIXES) and not argument.startswith("-") and not (cwd / argument).exists():
            raise CommandError(f"file {argument!r} named in its command does not exist (in {cwd.resolve()})")


def _check_executable_format(path: Path, program: str) -> None:
    """Refuse a program file the kernel cannot execute: neither a binary (ELF) nor a script with a ``#!`` line.

    Such a file fails to start with ENOEXEC ("Exec format error"), or is run by ``/bin/sh`` where the
    jail's launcher falls back to it (a Python script then fails on its first ``import``).
    """
    try:
        with path.open("rb") as handle:
            head = handle.read(4)
    except OSError:
        return  # whether its bot can read it is checked with its jail (sandbox.access)
    if head.startswith((b"#!", _ELF)):
        return
    runner = SCRIPT_RUNNERS.get(path.suffix)
    if runner is None:
        fix = (
            "a script's first line must name its interpreter (e.g. '#!/usr/bin/env python3');"
            " a binary must be built for this machine"
        )
    else:
        interpreter, run = runner.split()[0], runner.format(name=program, stem=path.stem)
        fix = (
            f"run it as {run!r}"
            if interpreter == "java"
            else f"start it with '#!/usr/bin/env {interpreter}', or run it as {run!r}"
        )
    raise CommandError(
        f"{program!r} is neither a script with a '#!' line nor a binary this machine runs (Exec format error): {fix}"
    )


def _how_to_run(path: Path) -> str:
    """How to run a file of the current folder that was named like a program on PATH."""
    runner = SCRIPT_RUNNERS.get(path.suffix)
    where = f"to run the file {path.name!r} in {path.parent.resolve()}"
    if runner:
        return f"{where}, give {runner.format(name=path.name, stem=path.stem)!r}"
    if os.access(path, os.X_OK):
        return f"{where}, write ./{path.name}"
    return f"{path.name!r} in {path.parent.resolve()} is not executable: chmod +x {path.name}, then write ./{path.name}"


def _check_python_target(arguments: Sequence[str], cwd: Path) -> None:
    """``python3 TARGET``: a folder needs a ``__main__.py``; ``-m``/``-c`` are left alone."""
    for argument in arguments:
        if argument in ("-m", "-c", "-"):
            return
        if argument.startswith("-"):
            continue
        target = cwd / argument
        if target.is_dir() and not (target / "__main__.py").is_file():
            raise CommandError(
                f"python cannot run the folder {argument!r}: it has no __main__.py;"
                f" name the script instead{_inside(target, scripts_only=True)}"
            )
        return


def _inside(folder: Path, scripts_only: bool = False) -> str:
    """A hint naming a few programs or scripts in ``folder`` (", e.g. 'bots/x/run.sh'")."""
    try:
        entries = sorted(folder.iterdir())
    except OSError:
        return ""
    found = [
        entry
        for entry in entries
        if entry.is_file() and (entry.suffix in SCRIPT_SUFFIXES or (not scripts_only and os.access(entry, os.X_OK)))
    ]
    if not found:
        return "; give the program inside it, or the folder as the bot's working folder (cwd)"
    return "; e.g. " + " or ".join(repr(str(entry)) for entry in found[:3])


def _is_bot_like(argument: str) -> bool:
    """Whether an argument looks like a BOT of its own (a path to a program, a quoted command)."""
    if _INTERPRETERS.fullmatch(Path(argument).name):
        return True
    return " " in argument or "::" in argument or (argument.startswith("./") and not argument.endswith(SCRIPT_SUFFIXES))


def unquoted_command(arguments: Sequence[str], builtins: Sequence[str]) -> str | None:
    """A command line that the shell split into several BOT arguments (``python3 bot.py``), if any.

    Args:
        arguments: The BOT arguments as given.
        builtins: The game's built-in names (never part of a command).

    Returns:
        The command as it should have been quoted, e.g. ``'python3 bot.py'``, or None.
    """
    for index, argument in enumerate(arguments[:-1]):
        following = arguments[index + 1]
        if (
            _INTERPRETERS.fullmatch(Path(argument).name)
            and "::" not in argument
            and following not in builtins
            and " " not in argument
        ):
            end = index + 2
            while end < len(arguments) and arguments[end] not in builtins and not _is_bot_like(arguments[end]):
                end += 1
            return "'" + " ".join(arguments[index:end]) + "'"
    return None
