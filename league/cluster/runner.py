"""Ray at the edge: fan a league's games out to workers and store each result as it arrives.

Long-lived worker actors play the games, one per game at once (``league.cluster.pool``: each keeps the
league's setup and its sandbox warm, and holds up to three games so that it never waits for the
driver), each record naming its node; on a cluster the bots' folders reach the nodes through Ray's
object store (``league.cluster.shipping``). The driver takes games back as they finish (``ray.wait``),
hands out the next ones before it writes, appends all that came back together to the store at once
(flushed, fsynced: one pair of fsyncs however many) and shows progress. A rerun skips what is
stored, so a league survives Ctrl-C, a killed driver or a lost node, and never stores a game twice.
The games of a worker or node that dies are played again elsewhere (the one it was playing uses a
try); a game that failed for a reason of ours is played again a few times, then stored as
INFRA_ERROR (never scored, replayed by the next run); a bot's forfeit is a result and is never
retried. A disk that refuses a write (full, read-only) stops the run with ``StoreWriteError``: what
is stored stays whole, and a rerun goes on from there.
"""

from __future__ import annotations

import contextlib
import functools
import os
import sys
import threading
import time
from collections import Counter, deque
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field, replace
from datetime import UTC, datetime
from pathlib import Path
from typing import TYPE_CHECKING, Any

from league.cluster.session import leave_ray, start_ray, watch_first_worker
from league.cluster.shipping import ShippedPath, pack_all
from league.cluster.worker import LeagueSetup, infra_record
from league.match.bot_spec import spec_to_data
from league.plan.bot_version import league_versions
from league.plan.config import League
from league.plan.cores import need_of
from league.plan.formats import league_format
from league.plan.formats.base import FormatInputs, FormatRun
from league.plan.game_spec import GameSpec
from league.plan.league_schedule import LeaguePlan, league_inputs, league_plan
from league.plan.manifest import (
    RUN_TIME,
    publish_seed,
    record_run,
    write_manifest,
)
from league.plan.seed import LeagueSeed, keep_seed
from league.stats.game_record import GameRecord
from league.store.results import INFRA_ERROR, ResultStore, StoreWriteError, league_store
from sandbox.jail import Sandbox, sweep_stale_scratch

if TYPE_CHECKING:
    from league.cluster.live_tap import LiveSink
    from league.cluster.pool import Outcome, WorkerPool

TASK_RETRIES = 3


@dataclass
class RunSummary:
    """What a run did.

    Attributes:
        total: Games in the schedule.
        skipped: Games already stored before this run.
        played: Games stored by this run.
        infra_errors: Games that failed for reasons of ours (replayed by the next run).
        interrupted: Whether the run was stopped before the end (Ctrl-C).
        seconds: Wall time of the run.
        infra_detail: What the first game that failed for reasons of ours said.
        removed_report: Whether an old report was removed because it no longer matched the store.
        store_notes: What was wrong with the store before the run (a torn last line cut off, damaged
            lines skipped), one sentence each; those games are played again.
        startup_seconds: Seconds from the start of the run until every worker was ready to play (Ray
            started, the workers' processes up): the fixed cost before games flow; None if some never was.
        run: The league's format's play (``league.plan.formats.base.FormatRun``) over every game stored
            once the run ended: what it counts, where it stands, what it says at the end (an SPRT's
            verdict, an adaptive league's ranking); one that is over plays nothing more.
    """

    total: int
    skipped: int
    played: int = 0
    infra_errors: int = 0
    interrupted: bool = False
    seconds: float = 0.0
    infra_detail: str = ""
    removed_report: bool = False
    store_notes: list[str] = field(default_factory=list)
    startup_seconds: float | None = None
    run: FormatRun | None = None


def schedule(league: League) -> list[GameSpec]:
    """The games the league's format plays first, in schedule order: a fixed schedule's whole.

    Ids change when what the names stand for changes; the seed is the league's (``league.plan.seed``).
    """
    return list(start_run(league_inputs(league)).games)


def start_run(inputs: FormatInputs) -> FormatRun:
    """The league's format's play from its first game on (``Format.start``); its games' ids checked distinct."""
    run = league_format(inputs.config).start(inputs)
    if len({spec.game_id for spec in run.games}) != len(run.games):
        raise ValueError("two scheduled games share an id")
    return run


def league_setup(league: League, shipped: Mapping[str, ShippedPath] | None = None) -> LeagueSetup:
    """The data every worker needs; ``shipped``: the bot folders and variant files sent to a cluster's nodes."""
    config = league.config
    bots = {name: spec_to_data(spec) for name, spec in league.bots.items()}
    limits = config.limits.model_dump()
    limits["read_only"] = tuple(limits["read_only"]) + tuple(league.sandbox_read_only)
    return LeagueSetup(
        game=config.game,
        variants={name: game.variant() for name, game in league.games.items()},
        bots=bots,
        limits=limits,
        sandbox=config.sandbox.mode.value,
        clock={"kind": config.clock, "margin_ms": config.time_margin_ms, "game_wall_s": config.limits.wall_seconds},
        shipped=dict(shipped or {}),
        versions=league_versions(league),
        pin_cores=need_of(config, league.games, league.bots) if config.pin_cpus else 0,
    )


def _ship(league: League) -> dict[str, ShippedPath]:
    """The league's bot folders and variant files packed, each put once into Ray's object store for the nodes."""
    import ray

    return {
        source: replace(entry, data=functools.partial(ray.get, ray.put(entry.data)))
        for source, entry in pack_all(league).items()
    }


def run_league(
    league: League,
    address: str | None = None,
    fresh: bool = False,
    on_progress: Callable[[int, int], None] | None = None,
    store: ResultStore | None = None,
    on_run: Callable[[FormatRun], None] | None = None,
    remove_stale_report: Callable[[Path], list[Path]] | None = None,
    plan: LeaguePlan | None = None,
    stop: threading.Event | None = None,
    publish: bool = True,
    live: LiveSink | None = None,
) -> RunSummary:
    """Play every game of the league not yet stored, storing each as it finishes.

    The league's format says what to play (``league.plan.formats``): its ``FormatRun`` takes the
    stored games first (where it stopped, or what is next), then each batch of games as it is stored,
    and plans what follows; once it is over (a verdict, a settled ranking) nothing more is handed out.
    On a cluster the driver joins it first: one it cannot join leaves the report folder as it was.
    A seed the league drew is stored in its folder before any game is played (``league.plan.seed``);
    ``league.json`` states it only once no game of the league is left to play.

    Args:
        league: The validated league.
        address: A Ray cluster's address (default: ``RAY_ADDRESS``, else a local cluster).
        fresh: Forget stored games first (and a stored seed: a league file without one draws a new one).
        on_progress: Called with (games stored, games in the schedule) after each game.
        store: The league's store, locked by the caller (``league run`` holds it before it prints anything);
            None: locked here. Closed (its lock let go) when the run ends, either way.
        on_run: Called with the format's play at the start and each time where it stands has changed
            (``FormatRun.progress``: an SPRT's LLR, an adaptive league's batch).
        remove_stale_report: Deletes the folder's report files, returning those it found
            (``league.report.build.remove_report``): called before a run that plays games, since the old
            report describes other games. None: an old report stays.
        plan: The league's seed and what its format plays from, settled by the caller
            (``league_plan(league, fresh)``); None: settled here.
        stop: Once set, the run ends as Ctrl-C ends it (what is stored stays, the games in flight are
            dropped and played by the next run): a live contest's field changed (``league.contest.play_loop``).
        publish: Whether ``league.json`` states the seed once no game is left (False: a live contest,
            whose next version plays on the same seed, keeps it secret).
        live: Where the games being played go, move by move, while it says someone watches
            (``league.cluster.live_tap``; ``league run --live`` and a live contest's pages); None: nowhere.

    Raises:
        StoreBusy: Another run holds the league's store (nothing is written).
        ConfigError: The folder's stored seed is damaged or differs from the league file's (nothing is written).
    """
    started = time.monotonic()
    started_at = _utc_minute()
    plan = plan or league_plan(league, fresh)  # a stored seed that is damaged or not the file's stops here
    run = start_run(plan.inputs)  # drawn before anything runs (a large table league takes a moment)
    growing = plan.format.plans_as_it_goes
    Sandbox(league.config.sandbox.mode, league.config.limits)  # strict refuses here, before anything runs
    cluster = bool(address or os.environ.get("RAY_ADDRESS"))
    we_started = start_ray(league.config.concurrency, address, working_dir=None) if cluster else False
    store = store if store is not None else league_store(league.output)
    try:
        store.lock()  # held already where the caller locked it
        if fresh:
            store.reset()
        seed = keep_seed(league, plan.seed, fresh)  # a drawn seed is stored before any game: later runs play on it
        if seed.value != plan.seed.value:  # a run that held the folder since stored another seed: its games
            run = start_run(plan.on_seed(seed).inputs)
        if run.takes_results:  # where it stopped, or what it plays next, from the stored games
            run.add(store.records())
        done = store.done_ids()
        specs = run.counted
        write_manifest(league, seed, specs, _kept(run), growing)
        todo = [spec for spec in specs if spec.game_id not in done]
        summary = RunSummary(total=len(specs), skipped=len(specs) - len(todo), store_notes=store.problems(), run=run)
        if run.over:  # a verdict or a settled ranking in what is stored: nothing more to play
            todo = []
        if on_run:
            on_run(run)
        if todo and remove_stale_report:  # the old report describes other games: gone until this run rewrites it
            summary.removed_report = bool(remove_stale_report(league.output))
        if on_progress:
            on_progress(summary.skipped, summary.total)
        if todo:
            we_started = start_ray(league.config.concurrency, address, working_dir=None) or we_started
            _play(league, seed, deque(todo), store, summary, cluster, (on_progress, on_run), started, stop, live)
        if publish and _all_played(summary, store):
            publish_seed(league, seed)  # no game is left to play on it: league.json states it (league.plan.seed)
        if not todo:
            return summary
    finally:
        store.close()
        if we_started:
            leave_ray()  # the workers go with it
            sweep_stale_scratch()  # host scratch folders that killed runs of earlier versions left
    summary.seconds = time.monotonic() - started
    ended_at = _utc_minute()
    with contextlib.suppress(StoreWriteError):  # a disk that refuses this line is told by the store or the report
        record_run(league.output, started_at, ended_at, summary.seconds, summary.played)
    return summary


def _all_played(summary: RunSummary, store: ResultStore) -> bool:
    """Whether the league has no game left to play: its format's play over, or every game it counts stored.

    A run stopped by Ctrl-C, and games that failed for reasons of ours (the next run plays them), leave some.
    """
    run = summary.run
    if summary.interrupted or run is None:
        return False
    return run.over or {spec.game_id for spec in run.counted} <= store.done_ids()


def _utc_minute() -> str:
    """Now, as the manifest records a run's start and end (``manifest.RUN_TIME``)."""
    return datetime.now(UTC).strftime(RUN_TIME)


def _play(
    league: League,
    seed: LeagueSeed,
    pending: deque[GameSpec],
    store: ResultStore,
    summary: RunSummary,
    cluster: bool,
    callbacks: tuple[Callable[[int, int], None] | None, Callable[[FormatRun], None] | None],
    started: float,
    stop: threading.Event | None = None,
    live: LiveSink | None = None,
) -> None:
    """Hand the games out to workers and store each as it comes back, until none is left, Ctrl-C or ``stop``.

    With ``live``, a ``LivePoller`` asks the workers for their games' moves while it says someone watches.
    """
    from league.cluster.live_tap import LivePoller
    from league.cluster.pool import WorkerPool  # imports Ray: only a run needs it

    on_progress, on_run = callbacks
    run = summary.run
    assert run is not None

    setup = league_setup(league, _ship(league) if cluster else None)  # bot folders go through Ray's object store
    tries: Counter[str] = Counter()
    pool: WorkerPool | None = None
    poller: LivePoller | None = None
    first_worker = threading.Event()
    if cluster:  # a cluster may have no CPU free for a long while: say so rather than wait silently
        watch_first_worker(first_worker)
    try:
        most = max(len(pending), run.most_games - summary.skipped)  # games it may still plan count too
        pool = WorkerPool(setup, max(1, min(league.config.concurrency, most)))  # no idle worker to start
        if live is not None:
            poller = LivePoller(pool.actors, live)
            poller.start()
        while pending or pool.busy():
            if stop is not None and stop.is_set():
                summary.interrupted = True  # as Ctrl-C ends it: the games in flight go with the workers
                break
            _hand_out(pool, pending)
            if pool.busy():
                first_worker.set()
            if pending and pool.broken():  # no worker can start: every game left fails as ours
                detail = f"no worker could start ({pool.start_failure})"
                finished = [infra_record(spec.to_json(), detail) for spec in pending]
                pending.clear()
            else:
                finished = _settle(pool.wait(), tries, pending)
                _hand_out(pool, pending)  # before the store's fsyncs: no worker waits for them
            if finished:
                stored = store.extend(finished)  # all that came back together: one pair of fsyncs
                _take(league, seed, summary, pending, stored, on_run)
            for record in finished:
                if record["result"]["termination"] == INFRA_ERROR:
                    summary.infra_errors += 1
                    summary.infra_detail = summary.infra_detail or record["result"]["detail"]
                summary.played += 1
                if on_progress:
                    on_progress(summary.skipped + summary.played, summary.total)
    except KeyboardInterrupt:
        # Games in flight are dropped with the workers (the next run replays them).
        summary.interrupted = True
    finally:
        first_worker.set()
        summary.startup_seconds = pool.ready_at - started if pool and pool.ready_at else None
        if poller:
            poller.stop()  # the games it followed are told gone: those not stored are played again
        if pool:
            pool.close()


def _take(
    league: League,
    seed: LeagueSeed,
    summary: RunSummary,
    pending: deque[GameSpec],
    stored: list[GameRecord],
    on_run: Callable[[FormatRun], None] | None,
) -> None:
    """Feed the format's play what was stored: the games it plans join ``pending``; once it is over, nothing more does.

    Where what it counts or its order has changed (an adaptive league's batches, a decided series, an
    SPRT's verdict), the manifest follows, before any game it planned is handed out.
    """
    run = summary.run
    assert run is not None
    shown, kept, before, counting = run.progress(), _kept(run), len(run.games), len(run.counted)
    planned = run.add(stored)
    summary.skipped += len(run.games) - before - len(planned)  # planned already stored (a stage that resumed)
    pending.extend(planned)
    if run.over:
        pending.clear()  # games in flight are stored; they count for nothing
    now = _kept(run)
    if now != kept or len(run.counted) != counting:  # an SPRT's verdict: its pairs taken are what it counts
        counted = run.counted
        write_manifest(league, seed, counted, now, league_format(league.config).plans_as_it_goes)
        summary.total = len(counted) if run.over else len(run.games)
    if on_run and run.progress() != shown:
        on_run(run)


def _kept(run: FormatRun) -> dict[str, Any]:
    """What the manifest keeps of a format's play: its own part (``FormatRun.manifest``) and its order, if any.

    ``final_order``: the format's own order of the bots so far (a bracket's placing, a Swiss's standings
    after the rounds played), which the standings follow (``league.stats.ranking``); absent for a format
    without one (a round robin: the standings are by Bradley-Terry).
    """
    order = run.final_order()
    return {**run.manifest(), **({"final_order": order} if order is not None else {})}


def _hand_out(pool: WorkerPool, pending: deque[GameSpec]) -> None:
    """Give the workers the games waiting, as far as they take them; with none left, even out their queues."""
    while pending and pool.submit(pending[0]):
        pending.popleft()
    if not pending:
        pool.rebalance()


def _settle(outcomes: list[Outcome], tries: Counter[str], pending: deque[GameSpec]) -> list[dict[str, Any]]:
    """The records to store of what came back; games to play again go back to the front of ``pending``.

    A game is played again when it came back unplayed (its worker died, or it was cancelled on a busy
    worker and its takeover failed), or failed for a reason of ours; after ``TASK_RETRIES`` more
    tries (a try: a game played, or being played when its worker died) it is stored as ``INFRA_ERROR``.
    """
    finished, again = [], []
    for outcome in outcomes:
        spec, record = outcome.spec, outcome.record
        ours = record is None or record["result"]["termination"] == INFRA_ERROR
        tried = outcome.tried if record is None else True
        if ours and not (tried and tries[spec.game_id] >= TASK_RETRIES):
            if tried:
                tries[spec.game_id] += 1
            again.append(spec)
            continue
        finished.append(record if record is not None else infra_record(spec.to_json(), outcome.detail))
    pending.extendleft(reversed(again))
    return finished


def stderr_is_terminal() -> bool:
    """Whether progress can be drawn in place."""
    return sys.stderr.isatty()
