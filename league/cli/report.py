"""``league report``: rewrite the report of a league folder from the games stored in it.

A folder that is not a league's, or holds no games yet, is one line and exit status 2; so is a
damaged ``league.json``. A folder without ``league.json`` is reported from what its stored games tell
(their game, rules, bots and rules of play: ``league.replay.recorded``); one whose games name no game
(stored by an older version) or several is one line and exit status 2, and nothing is written. A
disk that refuses the report's files (full, read-only) is one line and exit status 3
(``league.cli.main``). Damage found in the store (a torn last line, lines skipped) is told, one line
each.
"""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import Any

from league.cli.args import UsageError
from league.cli.plan_text import tell_store_problems
from league.store.faults import disk_refusals
from league.store.results import league_store


def cmd_report(args: argparse.Namespace) -> int:
    """Rewrite the report of a league folder from its games.jsonl."""
    from league.plan.manifest import ManifestDamaged, read_manifest
    from league.replay.recorded import GameUnknown, named_game, recorded_league
    from league.report.build import write_report

    folder = Path(args.folder)
    if not folder.is_dir():
        what = f"{folder} is a file, not a folder" if folder.exists() else f"{folder}: no such folder"
        raise UsageError(f"{what}; give a league's output folder (where games.jsonl is)")
    try:
        manifest = read_manifest(folder)
    except ManifestDamaged as error:
        raise UsageError(str(error)) from None
    store = league_store(folder)
    if manifest is not None and (not store.path.exists() or not store.path.stat().st_size):
        raise UsageError(f"{folder}: no games of this league are stored yet; `league run` plays them")
    if manifest is not None:
        names = (manifest["name"], manifest["bots"], manifest["variants"])
        with disk_refusals(folder):
            files = write_report(folder, *names, manifest["game_ids"], store=store)
        tell_store_problems(store.problems())  # what the report's own reading of the store met
        print(f"report: {files[-1]}")
        return 0
    records = store.records()
    if not records:  # the damage found, if any, said in this one line
        damaged = " (its lines are damaged: none is a whole game record)" if store.problems() else ""
        raise UsageError(f"{folder}: no games.jsonl with games in it{damaged}")
    try:
        named_game(folder, records)
    except GameUnknown as error:
        raise UsageError(str(error)) from None
    tell_store_problems(store.problems())
    league = recorded_league(store, sorted(records, key=lambda record: record.spec.index))
    with disk_refusals(folder):
        files = write_report(folder, league["name"], league["bots"], league["variants"], store=store)
    print(f"report: {files[-1]}")
    return 0


def add_commands(commands: Any) -> None:
    """Register ``report`` on the ``league`` parser."""
    report = commands.add_parser("report", help="write the report of a league folder (games.jsonl)")
    report.add_argument("folder")
    report.set_defaults(handler=cmd_report)
