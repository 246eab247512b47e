"""``league run``: play a whole league from its YAML file (resuming what is stored) and write its report.

The league is checked whole before anything plays (``league.cli.league_file``), and a cluster it
runs on is joined before the report folder is touched (``league.cli.cluster_join``): a problem is
one line and exit status 2 with nothing written; so is a folder that another run is writing, told
before any word of the plan (``league.cli.plan_text``). Each bot changed since its stored games is
told, one line each (``league.plan.bot_version.changed_bots``). A run whose games failed for reasons of ours
exits 1 and says so on its last line. A disk that refuses a write later (full, read-only) stops the
run with one line and exit status 3 (``league.cli.main``), what is stored kept whole. Damage the run
found in the store (a torn last line cut off, lines skipped) is told, one line each. The run ends
with the standings table on stderr (``league.cli.standings_table``, as ``league standings`` prints it).
"""

from __future__ import annotations

import argparse
import contextlib
import sys
import time
from typing import Any

from engine import GAMES
from league.cli.args import UsageError
from league.cli.cluster_join import check_cluster, cluster_address, joined
from league.cli.league_file import load
from league.cli.plan_text import describe, tell_store_problems, warn_if_oversubscribed
from league.cluster.shipping import shipping_note
from league.match.inert import inert_line
from league.plan.bot_version import changed_bots
from league.plan.config import ConfigError, League
from league.plan.formats.base import FormatRun
from league.plan.league_schedule import LeaguePlan
from league.store.faults import disk_refusals
from league.store.results import ResultStore, StoreBusy, league_store
from sandbox.jail import SandboxError

LIVE_HOST = "127.0.0.1"
"""Where ``--live`` serves its pages: this machine alone."""
DEFAULT_LIVE_PORT = 8000
EXIT_INTERRUPTED = 130
EXIT_GAMES_FAILED = 1


def cmd_run(args: argparse.Namespace) -> int:
    """Play a league (resuming what is stored) and write its report.

    On a cluster the driver joins it (and counts its CPUs) before the report folder is touched, so a
    cluster that cannot be joined leaves an old report as it was. With ``--live``, the games being played
    are shown on pages served on 127.0.0.1 while the league runs (``live_pages``).
    """
    league = load(args, create_output=False)
    address = cluster_address(args)
    watching = live_pages(args, league.config.name)  # a port in use is one line, before anything runs
    try:
        summary = _played(args, league, address, watching)
    finally:
        if watching is not None:
            watching[1].stop()
    return _told(args, league, summary)


def _played(args: argparse.Namespace, league: League, address: Any, watching: Any) -> Any:
    """The league played (its folder held, the plan told), with the live pages fed where ``watching``."""
    from league.plan.league_schedule import league_plan

    with joined(address, league, check_cluster(address)) as cpus:
        try:
            league.check_output(create=True)
        except ConfigError as error:
            raise UsageError(str(error)) from None
        with contextlib.closing(held_store(league)) as store:  # before a word is printed: a busy folder is one line
            plan = league_plan(league, args.fresh)  # settled once: the plan told is what the run plays
            print(describe(plan, plan.planned()), file=sys.stderr)  # counted, not built
            for line in [] if args.fresh else changed_bots(league, store.records()):
                print(f"  {line}", file=sys.stderr)
            if address is not None:
                print(f"  {shipping_note(league)}", file=sys.stderr)
            warn_if_oversubscribed(league, address is not None, cpus)
            live = watching[0] if watching is not None else None
            return play_with_progress(league, args, store, plan, live)


def _told(args: argparse.Namespace, league: League, summary: Any) -> int:
    """What the run says at its end (and its report written): its exit status."""
    from league.report.build import write_report

    tell_store_problems(summary.store_notes)
    run = summary.run  # the format's play over what is stored now
    assert run is not None
    note = f"{summary.played - summary.infra_errors} played, {summary.skipped} already stored, {summary.total} in all"
    if summary.infra_errors:
        note += f", {summary.infra_errors} failed for reasons of ours"
    beyond = summary.skipped + summary.played - summary.infra_errors - summary.total
    if run.over and beyond > 0:
        note += f" ({beyond} more, in flight when it stopped, count for nothing)"
    if summary.interrupted:
        removed = " (the old report was removed: it described other games)" if summary.removed_report else ""
        print(
            f"league: stopped: {note}{removed}. Run the same command again to resume,"
            f" or `league report {league.output}` for a report of the games stored so far.",
            file=sys.stderr,
        )
        return EXIT_INTERRUPTED
    ids = [spec.game_id for spec in run.counted]
    label = GAMES[league.config.game].score_label
    with disk_refusals(league.output):
        files = write_report(league.output, league.config.name, list(league.bots), list(league.games), ids, label)
    print(f"{note} in {summary.seconds:.1f} s", file=sys.stderr)
    for line in run.closing_lines():  # the SPRT's verdict, the adaptive league's ranking
        print(line, file=sys.stderr)
    from league.cli.standings_table import print_standings

    print_standings(league.output)  # the standings table on stderr, as `league standings` prints it
    print(f"report: {files[-1]}")
    from league.report.faults import fault_summary

    for line in fault_summary(league.output, GAMES[league.config.game]):
        print(line, file=sys.stderr)
    if summary.infra_errors:
        print(
            f"league: error: {summary.infra_errors} of {summary.total} games failed for reasons of ours and are not"
            f" in the report (first: {inert_line(summary.infra_detail)}); run the same command again to retry them",
            file=sys.stderr,
        )
        return EXIT_GAMES_FAILED
    return 0


def live_pages(args: argparse.Namespace, name: str) -> tuple[Any, Any] | None:
    """With ``--live``: the run's ``LiveGames`` and their pages served on 127.0.0.1 (its address on stdout).

    The socket is bound first: a port in use is one line (exit status 2) and nothing has run.

    Raises:
        UsageError: ``--port`` without ``--live``, or the port cannot be listened on.
    """
    if not args.live:
        if args.port is not None:
            raise UsageError("--port is the port of the live pages: give it with --live")
        return None
    from league.live.games import LiveGames
    from league.live.pages import live_app
    from league.serve.listen import Background, ListenRefused, address_line, bound_socket

    try:
        sock = bound_socket(LIVE_HOST, DEFAULT_LIVE_PORT if args.port is None else args.port)
    except ListenRefused as error:
        raise UsageError(str(error)) from None
    games = LiveGames()
    server = Background(live_app(games, name), sock)
    server.start()
    print(address_line(sock), flush=True)
    print(
        f"league: the games being played are shown at {address_line(sock)}live while the league runs", file=sys.stderr
    )
    return games, server


def held_store(league: League) -> ResultStore:
    """The league's store, locked for this run: held before the run says anything, so that a busy folder is one line.

    Raises:
        UsageError: Another run holds the league's folder (nothing is written).
        StoreWriteError: The folder refuses the store's files (exit status 3, ``league.cli.main``).
    """
    store = league_store(league.output)
    try:
        store.lock()
    except StoreBusy as error:
        raise UsageError(str(error)) from None
    return store


def play_with_progress(
    league: League,
    args: argparse.Namespace,
    store: ResultStore | None = None,
    plan: LeaguePlan | None = None,
    live: Any = None,
) -> Any:
    """``run_league`` with a progress bar on stderr (none with ``--quiet``); its ``RunSummary``.

    The bar is drawn from the run's first progress on: a refusal before it is a line alone. Beside
    it, where the format's play stands (``FormatRun.progress``: an SPRT's LLR, an adaptive league's batch).

    Args:
        league: The checked league.
        args: The command's arguments.
        store: The league's store, held already (``held_store``); None: ``run_league`` locks it.
        plan: Its seed and what its format plays from, settled already (``league_plan``); None: by the run.
        live: Where the games being played go while someone watches (``league.live.games.LiveGames``), or None.

    Raises:
        UsageError: The jail cannot be made, another run holds the league's folder, or one that held it stored
            a seed that cannot be read.
    """
    from rich.console import Console
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn

    from league.cluster.runner import run_league
    from league.cluster.session import ClusterUnreachable

    columns = [
        TextColumn("[bold]{task.description}"),
        BarColumn(),
        MofNCompleteColumn(),
        TextColumn("{task.fields[rate]}"),
        TimeRemainingColumn(),
        TextColumn("{task.fields[test]}"),
    ]
    progress = Progress(*columns, transient=False, disable=args.quiet, console=Console(stderr=True))
    task = progress.add_task("games", total=None, rate="", test="")
    state = {"first": None, "start": time.monotonic()}

    def on_progress(done: int, total: int) -> None:
        if state["first"] is None:
            state["first"] = done
            progress.start()
        elapsed = time.monotonic() - state["start"]
        played = done - state["first"]
        rate = f"{played / elapsed:.1f} games/s" if played and elapsed > 0 else ""
        progress.update(task, completed=done, total=max(total, done), rate=rate)  # a stop leaves games in flight

    def on_run(run: FormatRun) -> None:
        progress.update(task, test=run.progress())

    from league.report.build import remove_report

    try:
        return run_league(
            league,
            address=args.address,
            fresh=args.fresh,
            on_progress=on_progress,
            on_run=on_run,
            store=store,
            plan=plan,
            remove_stale_report=remove_report,
            live=live,
        )
    except (SandboxError, StoreBusy, ClusterUnreachable, ConfigError) as error:
        raise UsageError(str(error)) from None
    finally:
        if state["first"] is not None:  # nothing drawn when the run never began
            progress.stop()


def add_commands(commands: Any) -> None:
    """Register ``run`` on the ``league`` parser."""
    run = commands.add_parser("run", help="play a league from a YAML file (resumes what is stored)")
    run.add_argument("file", help="the league's YAML file")
    run.add_argument("--address", help="a Ray cluster to run on (default: RAY_ADDRESS, else a local one)")
    run.add_argument("--fresh", action="store_true", help="forget stored games and start over")
    run.add_argument("--set", action="append", metavar="KEY=VALUE", help="a variant key for every variant")
    run.add_argument("--quiet", action="store_true", help="no progress bar")
    run.add_argument("--output", metavar="DIR", help="the report folder (instead of the file's output)")
    run.add_argument("--concurrency", metavar="N", help="games at once (instead of the file's concurrency)")
    run.add_argument(
        "--live", action="store_true", help="show the games being played on local web pages while the league runs"
    )
    run.add_argument(
        "--port",
        type=int,
        help=f"the live pages' port on {LIVE_HOST} (default {DEFAULT_LIVE_PORT}; 0 takes a free one)",
    )
    run.set_defaults(handler=cmd_run)
