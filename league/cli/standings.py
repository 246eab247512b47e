"""``league standings DIR``: the league table in the terminal, also while the league is still running.

``DIR`` is the league's output folder, or its league file (read for the folder: its ``output``).

It reads what is stored so far (``games.jsonl``; a run that is writing it is not disturbed, and a
line being written is not read) and the league's manifest (``league.json``), and prints the
standings table of ``league.cli.standings_table`` (the report's order: the format's own result the
manifest keeps, else Bradley-Terry strength fitted to every game at once, with its interval; no
ratings where every game ended in a fault, as the report); damage in the store (a torn last line, lines
that are not records) is skipped and told once on stderr. ``--watch SECONDS`` redraws the table
every few seconds until every game of the league is stored (or Ctrl-C), the manifest read again each
time (a knockout's or Swiss's run adds games and moves its order as it goes).
"""

from __future__ import annotations

import argparse
import contextlib
import sys
import time
from pathlib import Path
from typing import Any

from rich.live import Live

from league.cli.args import UsageError
from league.cli.standings_table import standings_view, terminal
from league.plan.manifest import ManifestDamaged, read_manifest
from league.store.results import league_store


def league_folder(text: str) -> tuple[Path, dict[str, Any]]:
    """A league's report folder and its manifest, given the folder or the league's file (its ``output``).

    Raises:
        UsageError: The folder is missing, holds no league (no league.json), or the league file
            cannot be read.
    """
    folder = Path(text)
    if folder.is_file():  # a league file: its report folder is its output
        from league.plan.config import ConfigError, load_league

        try:
            folder = load_league(folder).output
        except ConfigError as error:
            raise UsageError(str(error)) from None
        if not folder.is_dir():
            raise UsageError(f"{folder}: no such folder yet; `league run {text}` writes its games there")
    if not folder.is_dir():
        raise UsageError(f"{folder}: no such folder; give a league's output folder (e.g. reports/quickstart)")
    manifest = read_manifest(folder)
    if manifest is None:
        raise UsageError(f"{folder}: no league.json here; `league run LEAGUE.yaml` writes it into its output folder")
    return folder, manifest


def cmd_standings(args: argparse.Namespace) -> int:
    """Print the standings of a league folder (redrawn every ``--watch`` seconds until the league is done)."""
    folder, manifest = league_folder(args.folder)
    for problem in league_store(folder).problems():  # once, not at every redraw
        print(f"league: {problem}", file=sys.stderr)
    console = terminal()
    view, done = standings_view(folder, manifest)
    if args.watch is None or done:
        console.print(view)
        return 0
    with Live(view, console=console, auto_refresh=False) as live:
        while not done:
            time.sleep(args.watch)
            with contextlib.suppress(ManifestDamaged):  # damaged meanwhile: the last one read stays
                manifest = read_manifest(folder) or manifest
            view, done = standings_view(folder, manifest)
            live.update(view, refresh=True)
    return 0


def _seconds(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        value = 0.0
    if value <= 0:
        raise argparse.ArgumentTypeError(f"{text!r} is not a number of seconds above 0")
    return value


def add_commands(commands: Any) -> None:
    """Register ``standings`` on the ``league`` parser."""
    standings = commands.add_parser("standings", help="print a league's standings so far (while it runs, too)")
    standings.add_argument(
        "folder",
        metavar="DIR|FILE.yaml",
        help="the league's output folder (holds games.jsonl and league.json), or its league file",
    )
    standings.add_argument("--watch", type=_seconds, metavar="SECONDS", help="redraw every SECONDS until done")
    standings.set_defaults(handler=cmd_standings)
