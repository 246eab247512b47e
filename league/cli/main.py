"""The ``league`` command line: the parser and ``main``; each command lives in a module of its own.

* ``league play`` / ``league bot``: league/cli/play.py
* ``league run``: league/cli/run.py
* ``league validate``: league/cli/validate.py
* ``league plan``: league/cli/plan.py
* ``league report``: league/cli/report.py
* ``league games``: league/cli/games.py
* ``league compare``: league/cli/compare.py
* ``league standings``: league/cli/standings.py
* ``league replay``: league/cli/replay.py
* ``league authors``: league/cli/authors.py
* ``league submit``: league/cli/submit.py

A user's mistake is one line on stderr naming the problem and the fix, with exit status 2; never
a traceback. A disk that refuses the league's files (full, read-only) is one line too, status 3.
Such a line may quote a name or a line a bot wrote: its control characters are shown escaped.
Output piped into a program that stops reading (``| head``) ends quietly.
"""

from __future__ import annotations

import argparse
import importlib
import os
import signal
import sys
from typing import Any

USAGE_ERROR = 2
OUTPUT_REFUSED = 3
EXIT_INTERRUPTED = 130


COMMAND_MODULES = {
    "play": "play",
    "bot": "play",
    "run": "run",
    "validate": "validate",
    "plan": "plan",
    "report": "report",
    "games": "games",
    "standings": "standings",
    "compare": "compare",
    "replay": "replay",
    "authors": "authors",
    "submit": "submit",
}
"""Which module registers each command, in the order ``league --help`` lists them."""


def build_parser(command: str | None = None) -> argparse.ArgumentParser:
    """The argument parser of ``league``.

    Args:
        command: The command about to run: only its module is imported, so that ``league bot``
            (a built-in run as a program, started for every game) does not pay for pandas and
            matplotlib. None (or an unknown name, for argparse to refuse) registers every command.
    """
    names = [COMMAND_MODULES[command]] if command in COMMAND_MODULES else list(dict.fromkeys(COMMAND_MODULES.values()))
    parser = argparse.ArgumentParser(prog="league", description="Round-robin leagues for game-AI bots.")
    parser.add_argument("--version", action="version", version=f"league {installed_version()}")
    commands = parser.add_subparsers(dest="command", required=True)
    for name in names:
        importlib.import_module(f"league.cli.{name}").add_commands(commands)
    return parser


def installed_version() -> str:
    """The version of the installed ``league`` distribution (its metadata: pyproject.toml's ``version``)."""
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version("league")
    except PackageNotFoundError:  # run from a checkout that was never installed
        return "(not installed: no version; pip install -e . gives it one)"


def _terminated(signum: int, frame: Any) -> None:
    """SIGTERM ends a run as Ctrl-C does: bots stopped, scratch folders removed, what is stored kept."""
    raise KeyboardInterrupt


def main(argv: list[str] | None = None) -> int:
    """Run the command line; returns the exit status."""
    try:
        previous = signal.signal(signal.SIGTERM, _terminated)
    except ValueError:  # not the main thread (embedded): leave signals alone
        previous = None
    try:
        from league.cli.args import UsageError  # inside the try: Ctrl-C while importing is quiet too
        from league.match.inert import inert_block
        from league.plan.manifest import ManifestDamaged
        from league.store.faults import StoreWriteError

        arguments = sys.argv[1:] if argv is None else argv
        args = build_parser(arguments[0] if arguments else None).parse_args(arguments)
        try:
            status = args.handler(args)
            sys.stdout.flush()
            return status
        except (UsageError, ManifestDamaged) as error:  # a damaged league.json, whichever command read it
            print(f"league: error: {inert_block(str(error))}", file=sys.stderr)
            return USAGE_ERROR
        except StoreWriteError as error:
            print(f"league: error: {inert_block(str(error))}", file=sys.stderr)
            return OUTPUT_REFUSED
    except KeyboardInterrupt:
        print("league: interrupted", file=sys.stderr)
        return EXIT_INTERRUPTED
    except BrokenPipeError:
        # The reader of our output went away (`league play ... | head`): stop quietly, and keep
        # Python from failing again when it flushes stdout at exit.
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 1
    finally:
        if previous is not None:
            signal.signal(signal.SIGTERM, previous)
