"""``league run``, ``league validate`` and ``league report``: whole leagues from a YAML file.

Before anything plays, a league is checked whole: the file, every bot's command, parameters and
files (readable by the jailed bot), the jail itself, the report folder (the league's own:
``league.store.folder``) and the seed it stores (``league.plan.seed``). A problem is one line and
exit status 2 with nothing written; so is a folder that another run is writing, told before any
word of the plan. A run whose games failed for reasons of ours exits 1 and says so on its last line.
A disk that refuses a write later (full, read-only) stops the run or the report with one line and
exit status 3 (``league.cli.main``), what is stored kept whole. Damage the run found in the store (a
torn last line cut off, lines skipped) is told, one line each.
"""

from __future__ import annotations

import argparse
import contextlib
import os
import socket
import sys
import time
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any

from engine import GAMES
from engine.core import plural
from league.cli.args import RayAddress, UsageError, parse_assignment, parse_ray_address, validated
from league.cluster.shipping import shipping_note, shipping_problem
from league.match.inert import inert_line
from league.plan.config import ConfigError, League, load_league
from league.plan.cores import cluster_note, need_of, oversubscription_warning
from league.plan.schedule import GameSpec, balance, even_tables
from league.plan.seed import describe_seed, league_seed
from league.store.faults import disk_refusals
from league.store.results import ResultStore, StoreBusy, league_store
from sandbox.jail import Sandbox, SandboxError

EXIT_INTERRUPTED = 130
EXIT_GAMES_FAILED = 1


def load(args: argparse.Namespace, create_output: bool) -> League:
    """The league of ``args.file`` with ``--set`` applied to every variant, checked whole, its seed settled.

    Args:
        args: The command's arguments.
        create_output: Make the report folder and try writing in it (``run``); ``validate``
            only looks, and writes nothing.

    Raises:
        UsageError: Anything that would stop the league, with the file, the key and the fix.
    """
    try:
        league = load_league(args.file)
        assignments = dict(parse_assignment(text) for text in getattr(args, "set", None) or [])
        if assignments:  # named as --set if they are wrong on their own, not blamed on the file
            validated(GAMES[league.config.game], assignments, "--set", f"the {league.config.game} variant")
            variants = {name: {**params, **assignments} for name, params in league.config.variants.items()}
            league = load_league(args.file, {"variants": variants})
        try:
            sandbox = Sandbox(league.config.sandbox.mode, league.config.limits)
        except SandboxError as error:
            raise ConfigError(f"{league.path}: {error}") from None
        league.check_bots(sandbox)
        problem = shipping_problem(league) if on_cluster(args) else None
        if problem is not None:
            raise ConfigError(f"{league.path}: {problem}")
        league.check_output(create=create_output)
        league_seed(league, fresh=getattr(args, "fresh", False))  # the folder's stored seed checked, nothing written
    except ConfigError as error:
        raise UsageError(str(error)) from None
    return league


def on_cluster(args: argparse.Namespace) -> bool:
    """Whether the league is meant for a Ray cluster: ``--address``, ``RAY_ADDRESS``, or ``validate --cluster``."""
    return bool(getattr(args, "address", None) or getattr(args, "cluster", False) or os.environ.get("RAY_ADDRESS"))


def cluster_address(args: argparse.Namespace) -> tuple[str, str] | None:
    """The cluster address asked for and what gave it (``--address``, else ``RAY_ADDRESS``), or None."""
    if getattr(args, "address", None):
        return args.address.strip(), "--address"
    if os.environ.get("RAY_ADDRESS"):
        return os.environ["RAY_ADDRESS"].strip(), "RAY_ADDRESS"
    return None


def check_cluster(address: tuple[str, str] | None) -> int | None:
    """Check a cluster as a run would before it writes anything: the address, its head, the token, the CPUs.

    Ray itself would try a head that does not answer again and again, for ever, and a refused token
    for 20 s; this is one line at once. ``auto`` and a Ray Client address (``ray://``) have no head
    to ask here: ``ray.init`` checks them.

    Args:
        address: ``cluster_address``'s answer (None: no cluster, nothing to check).

    Returns:
        The cluster's CPUs, or None when they could not be counted here.

    Raises:
        UsageError: Naming the address, what gave it, the problem and the fix.
    """
    from league.cluster.session import ClusterUnreachable, probe_head

    if address is None:
        return None
    given, where = address
    parsed = parse_ray_address(given, where)
    if parsed is None:
        return None
    _check_reachable(parsed, given, where)
    if parsed.client:
        return None
    try:
        cpus = probe_head(given)
    except ClusterUnreachable as error:
        raise UsageError(f"{where} {given}: {error.why}") from None
    if cpus == 0:
        raise UsageError(no_cpus(given, where))
    return cpus


def _check_reachable(parsed: RayAddress, given: str, where: str) -> None:
    """Refuse an address where nothing answers (refused, unreachable, an unknown host) at once."""
    try:
        socket.create_connection((parsed.host, parsed.port), timeout=5).close()
    except socket.gaierror as error:
        raise UsageError(
            f"{where} {given}: unknown host {parsed.host!r} ({error.strerror or error}); give the head's address"
            " as `ray start --head` printed it"
        ) from None
    except OSError as error:
        raise UsageError(
            f"{where} {given}: no Ray head answers there ({error.strerror or error}); start one with"
            f" `ray start --head --port={parsed.port}` on that machine, or give the address `ray start --head` printed"
        ) from None


def no_cpus(given: str, where: str) -> str:
    """The line for a cluster whose nodes have no CPU for a worker."""
    join = "HEAD_IP:PORT" if given.startswith("ray://") else given
    return (
        f"{where} {given}: the Ray cluster there has no CPU for workers (its nodes were started with --num-cpus=0,"
        f" or none with CPUs has joined); start one with CPUs on a machine of the cluster: `ray start --address={join}`"
    )


@contextlib.contextmanager
def joined(address: tuple[str, str] | None, league: League, cpus: int | None) -> Iterator[int | None]:
    """Join the cluster at ``address`` for the block (nothing without one), the league's default concurrency fitted.

    Args:
        address: ``cluster_address``'s answer.
        league: The league (its ``concurrency`` follows the cluster's CPUs unless the file gives one).
        cpus: The cluster's CPUs as ``check_cluster`` counted them (None: count them once joined).

    Yields:
        The cluster's CPUs (None without a cluster).

    Raises:
        UsageError: The cluster cannot be joined, or has no CPU for workers (nothing is written then).
    """
    from league.cluster.session import ClusterUnreachable, cluster_cpus, leave_ray, start_ray

    if address is None:
        yield None
        return
    given, where = address
    try:
        start_ray(league.config.concurrency, given, working_dir=None)
    except ClusterUnreachable as error:
        raise UsageError(f"{where} {given}: {error.why}") from None
    try:
        cpus = cluster_cpus() if cpus is None else cpus
        if not cpus:
            raise UsageError(no_cpus(given, where))
        league.fit_to_cluster(cpus)
        yield cpus
    finally:
        leave_ray()


def describe(league: League, specs: Sequence[GameSpec]) -> str:
    """What a league will do, for people: its games, variants, bots and, for tables, their balance.

    ``specs`` is its schedule: built (``league.cluster.runner.schedule``) or only counted (``planned_schedule``).
    """
    config = league.config
    if config.format == "tables":
        sizes = config.players_per_table or []
        count = f"{config.tables:,} {'table' if config.tables == 1 else 'tables'}"
        tables = (
            f"{count} of {sizes[0]} players"
            if len(sizes) == 1
            else f"{count} of each size ({' and '.join(map(str, sizes))} players)"
        )
        per = f"{tables}, each played once per seat rotation and variant"
    elif config.format == "solo":
        runs = f"{config.runs_per_case:,} {'run' if config.runs_per_case == 1 else 'runs'}"
        per = f"{runs} per bot and variant, every bot on the same seeds"
    else:
        per = f"{config.games_per_pair:,} per pair and variant"
    lines = [
        f"league {config.name}: {config.game}, {config.format.replace('_', ' ')}, {len(specs):,} games ({per}),"
        f" {describe_seed(league)}",
        "  variants: " + "; ".join(f"{name} {game.variant()}" for name, game in league.games.items()),
        "  bots:",
    ]
    lines += [f"    {name}: {spec.describe()}" for name, spec in league.bots.items()]
    if config.format == "gauntlet":
        lines.append(f"  candidates: {', '.join(config.candidates)}")
    if config.format == "tables":
        lines.append("  balance (per variant):")
        spread = balance(specs, list(league.bots))
        lines += [f"    {line}" for line in spread.lines()]
        if len(set(spread.games.values())) > 1:
            even = even_tables(len(league.bots), sizes, config.tables)
            lines.append(f"    (uneven games: tables: {even} gives every bot the same games; compare points per game)")
    pinned = " (each game pinned to cores of its own)" if config.pin_cpus else ""
    origin = f" ({league.concurrency_origin})" if league.concurrency_origin else ""
    mode = config.sandbox.mode.value
    lines.append(f"  concurrency {config.concurrency}{origin}{pinned}, sandbox {mode}, output {league.output}")
    lines.append(f"  clock {config.clock}{cpu_cap_note(league)}")
    return "\n".join(lines)


def cpu_cap_note(league: League) -> str:
    """``; CPU: ...`` for a league with program bots: how each bot's CPU is capped here, or why it is not."""
    if all(spec.builtin is not None for spec in league.bots.values()):
        return ""
    try:
        return "; " + Sandbox(league.config.sandbox.mode, league.config.limits).cpu_cap()
    except SandboxError as error:
        return f"; {error}"


def warn_if_oversubscribed(league: League, cluster: bool, cpus: int | None = None) -> None:
    """Print one line on stderr when more bots may think at once than there are cores (on a cluster, always one).

    Args:
        league: The league.
        cluster: Whether it runs on a Ray cluster (its CPUs, not this machine's cores, count).
        cpus: The cluster's CPUs, if counted.
    """
    config = league.config
    need = need_of(config.format, config.players_per_table, league.games, league.bots, config.limits.cores)
    if cluster:
        level, line = cluster_note(config.concurrency, need, config.clock, cpus)
        print(f"league: {level}: {league.path}: {line}", file=sys.stderr)
        return
    warning = oversubscription_warning(config.concurrency, need, config.clock)
    if warning is not None:
        print(f"league: WARNING: {league.path}: {warning}", file=sys.stderr)


def cmd_validate(args: argparse.Namespace) -> int:
    """Check a league file and say what it will do (with ``--cluster`` or ``--address``, as a cluster run would).

    The schedule is counted, never built (``league.cluster.estimate``); unless ``--no-estimate``, a few
    sample games are played here to tell the time and the store's size, with a warning past a day.
    """
    from league.cluster.estimate import estimate
    from league.plan.league_schedule import planned_schedule

    league = load(args, create_output=False)
    checked = bool(args.cluster or args.address)  # RAY_ADDRESS alone only makes it a cluster's league
    cpus = check_cluster(cluster_address(args)) if checked else None
    if checked:
        league.fit_to_cluster(cpus)
    specs = planned_schedule(league)
    print(describe(league, specs))
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

        sized = estimate(league, specs, on_start=tell)
        print("\n".join(f"  {line}" for line in sized.lines()))
        for warning in sized.warnings(league):
            print(f"league: WARNING: {league.path}: {warning}", file=sys.stderr)
    print("ok")
    return 0


def cmd_run(args: argparse.Namespace) -> int:
    """Play a league (resuming what is stored) and write its report.

    On a cluster the driver joins it (and counts its CPUs) before the report folder is touched, so a
    cluster that cannot be joined leaves an old report as it was.
    """
    from league.cluster.runner import schedule
    from league.report.build import write_report

    league = load(args, create_output=False)
    address = cluster_address(args)
    with joined(address, league, check_cluster(address)) as cpus:
        try:
            league.check_output(create=True)
        except ConfigError as error:
            raise UsageError(str(error)) from None
        with contextlib.closing(held_store(league)) as store:  # before a word is printed: a busy folder is one line
            print(describe(league, schedule(league)), file=sys.stderr)
            if address is not None:
                print(f"  {shipping_note(league)}", file=sys.stderr)
            warn_if_oversubscribed(league, address is not None, cpus)
            summary = play_with_progress(league, args, store)
    tell_store_problems(summary.store_notes)
    note = f"{summary.played - summary.infra_errors} played, {summary.skipped} already stored, {summary.total} in all"
    if summary.infra_errors:
        note += f", {summary.infra_errors} failed for reasons of ours"
    if summary.interrupted:
        removed = " (the old report was removed: it described other games)" if summary.removed_report else ""
        print(
            f"league: stopped: {note}{removed}. Run the same command again to resume,"
            f" or `league report {league.output}` for a report of the games stored so far.",
            file=sys.stderr,
        )
        return EXIT_INTERRUPTED
    ids = [spec.game_id for spec in schedule(league)]
    label = GAMES[league.config.game].score_label
    with disk_refusals(league.output):
        files = write_report(league.output, league.config.name, list(league.bots), list(league.games), ids, label)
    print(f"{note} in {summary.seconds:.1f} s", file=sys.stderr)
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


def play_with_progress(league: League, args: argparse.Namespace, store: ResultStore | None = None) -> Any:
    """``run_league`` with a progress bar on stderr (none with ``--quiet``); its ``RunSummary``.

    The bar is drawn from the run's first progress on: a refusal before it is a line alone.

    Args:
        league: The checked league.
        args: The command's arguments.
        store: The league's store, held already (``held_store``); None: ``run_league`` locks it.

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
    ]
    progress = Progress(*columns, transient=False, disable=args.quiet, console=Console(stderr=True))
    task = progress.add_task("games", total=None, rate="")
    state = {"first": None, "start": time.monotonic()}

    def on_progress(done: int, total: int) -> None:
        if state["first"] is None:
            state["first"] = done
            progress.start()
        elapsed = time.monotonic() - state["start"]
        played = done - state["first"]
        rate = f"{played / elapsed:.1f} games/s" if played and elapsed > 0 else ""
        progress.update(task, completed=done, total=total, rate=rate)

    from league.report.build import remove_report

    try:
        return run_league(
            league,
            address=args.address,
            fresh=args.fresh,
            on_progress=on_progress,
            store=store,
            remove_stale_report=remove_report,
        )
    except (SandboxError, StoreBusy, ClusterUnreachable, ConfigError) as error:
        raise UsageError(str(error)) from None
    finally:
        if state["first"] is not None:  # nothing drawn when the run never began
            progress.stop()


def cmd_report(args: argparse.Namespace) -> int:
    """Rewrite the report of a league folder from its games.jsonl."""
    from league.plan.manifest import ManifestDamaged, read_manifest
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
    tell_store_problems(store.problems())
    bots: list[str] = []
    variants: list[str] = []
    for record in sorted(records, key=lambda r: r["spec"]["index"]):
        for name in record["spec"]["seats"]:
            if name not in bots:
                bots.append(name)
        if record["spec"]["variant"] not in variants:
            variants.append(record["spec"]["variant"])
    with disk_refusals(folder):
        files = write_report(folder, records[0]["spec"]["league"], bots, variants)
    print(f"report: {files[-1]}")
    return 0


def tell_store_problems(problems: list[str]) -> None:
    """Print what was wrong with a league's store (``ResultStore.problems``) on stderr, one line each."""
    for problem in problems:
        print(f"league: {inert_line(problem)}", file=sys.stderr)


def add_commands(commands: Any) -> None:
    """Register run, validate and report on the ``league`` parser."""
    run = commands.add_parser("run", help="play a league from a YAML file (resumes what is stored)")
    run.add_argument("file", help="the league's YAML file")
    run.add_argument("--address", help="a Ray cluster to run on (default: RAY_ADDRESS, else a local one)")
    run.add_argument("--fresh", action="store_true", help="forget stored games and start over")
    run.add_argument("--set", action="append", metavar="KEY=VALUE", help="a variant key for every variant")
    run.add_argument("--quiet", action="store_true", help="no progress bar")
    run.set_defaults(handler=cmd_run)

    validate = commands.add_parser("validate", help="check a league file and print what it will do")
    validate.add_argument("file")
    validate.add_argument("--set", action="append", metavar="KEY=VALUE", help="a variant key for every variant")
    validate.add_argument("--no-estimate", action="store_true", help="skip the sample games that estimate the time")
    validate.add_argument("--cluster", action="store_true", help="check it as `league run --address` would")
    validate.add_argument(
        "--address", help="the Ray cluster to check it against (implies --cluster; default: RAY_ADDRESS)"
    )
    validate.set_defaults(handler=cmd_validate)

    report = commands.add_parser("report", help="write the report of a league folder (games.jsonl)")
    report.add_argument("folder")
    report.set_defaults(handler=cmd_report)
