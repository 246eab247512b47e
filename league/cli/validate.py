"""``league validate``: check a league file whole and say what it will do, writing nothing.

The checks are a run's (``league.cli.league_file``), and with ``--cluster`` or ``--address`` the
cluster's as well (``league.cli.cluster_join``): a problem is one line and exit status 2. Then the
plan is printed (``league.cli.plan_text``), with a line for each bot changed since its stored games
(``league.plan.bot_version.changed_bots``), and, unless ``--no-estimate``, the time and the store's
size that a few sample games played here foretell.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any

from engine.core import plural
from league.cli.cluster_join import check_cluster, cluster_address, on_cluster
from league.cli.league_file import load
from league.cli.plan_text import describe, warn_if_oversubscribed
from league.cluster.shipping import shipping_note
from league.plan.bot_version import changed_bots
from league.stats.game_record import GameRecord
from league.store.folder import STORE
from league.store.results import league_store


def cmd_validate(args: argparse.Namespace) -> int:
    """Check a league file and say what it will do (with ``--cluster`` or ``--address``, as a cluster run would).

    The schedule is counted, never built (``league.cluster.estimate``); unless ``--no-estimate``, a few
    sample games are played here to tell the time, the store's size and the replay pages'
    (``league.report.replay_size``), with a warning past a day or past the free disk.
    """
    from league.plan.league_schedule import league_plan
    from league.report.replay_size import estimate_with_replays

    league = load(args, create_output=False)
    checked = bool(args.cluster or args.address)  # RAY_ADDRESS alone only makes it a cluster's league
    cpus = check_cluster(cluster_address(args)) if checked else None
    if checked:
        league.fit_to_cluster(cpus)
    plan = league_plan(league)
    specs = plan.planned()  # counted, never built
    print(describe(plan, specs))
    for line in changed_bots(league, stored_records(league.output)):
        print(f"  {line}")
    if on_cluster(args):
        print(f"  {shipping_note(league)}")
    warn_if_oversubscribed(league, on_cluster(args), cpus)
    if not args.no_estimate:

        def tell(count: int) -> None:
            print(
                f"league: playing {plural(count, 'sample game')} to estimate the time (--no-estimate skips them)",
                file=sys.stderr,
                flush=True,
            )

        sized = estimate_with_replays(league, specs, on_start=tell)
        print("\n".join(f"  {line}" for line in sized.lines()))
        for warning in sized.warnings(league):
            print(f"league: WARNING: {league.path}: {warning}", file=sys.stderr)
    print("ok")
    return 0


def stored_records(folder: Path) -> list[GameRecord]:
    """The results lines stored in a league's folder (none when it holds no store); the store is only read."""
    return league_store(folder).records() if (folder / STORE).is_file() else []


def add_commands(commands: Any) -> None:
    """Register ``validate`` on the ``league`` parser."""
    validate = commands.add_parser("validate", help="check a league file and print what it will do")
    validate.add_argument("file")
    validate.add_argument("--set", action="append", metavar="KEY=VALUE", help="a variant key for every variant")
    validate.add_argument("--no-estimate", action="store_true", help="skip the sample games that estimate the time")
    validate.add_argument("--cluster", action="store_true", help="check it as `league run --address` would")
    validate.add_argument(
        "--address", help="the Ray cluster to check it against (implies --cluster; default: RAY_ADDRESS)"
    )
    validate.set_defaults(handler=cmd_validate)
