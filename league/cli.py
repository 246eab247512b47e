"""The ``league`` command line: the parser and ``main``; each command lives in a module of its own.

* ``league play`` / ``league bot``: league/cli_play.py
* ``league run`` / ``league validate`` / ``league report``: league/cli_league.py
* ``league games``: league/cli_games.py
* ``league compare``: league/cli_compare.py
* ``league standings``: league/cli_standings.py

A user's mistake is one line on stderr naming the problem and the fix, with exit status 2; never
a traceback. A disk that refuses the league's files (full, read-only) is one line too, status 3.
Output piped into a program that stops reading (``| head``) ends quietly.
"""

from __future__ import annotations

import argparse
import os
import signal
import sys
from typing import Any

USAGE_ERROR = 2
OUTPUT_REFUSED = 3
EXIT_INTERRUPTED = 130


def build_parser() -> argparse.ArgumentParser:
    """The argument parser of ``league``."""
    from league import cli_compare, cli_games, cli_league, cli_play, cli_standings

    parser = argparse.ArgumentParser(prog="league", description="Round-robin leagues for game-AI bots.")
    commands = parser.add_subparsers(dest="command", required=True)
    cli_play.add_commands(commands)
    cli_league.add_commands(commands)
    cli_games.add_commands(commands)
    cli_standings.add_commands(commands)
    cli_compare.add_commands(commands)
    return parser


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
        from league.cli_args import UsageError  # inside the try: Ctrl-C while importing is quiet too
        from league.store_faults import StoreWriteError

        args = build_parser().parse_args(argv)
        try:
            status = args.handler(args)
            sys.stdout.flush()
            return status
        except UsageError as error:
            print(f"league: error: {error}", file=sys.stderr)
            return USAGE_ERROR
        except StoreWriteError as error:
            print(f"league: error: {error}", file=sys.stderr)
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
