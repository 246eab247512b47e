"""Ray at the edge: fan a league's games out to workers and store each result as it arrives.

One remote task plays one game (``league.worker.play_game``). The driver keeps a bounded number
in flight, takes results as they finish (``ray.wait``), appends each to the store at once
(flushed, fsynced) and shows progress. A rerun skips what is stored, so a league survives
Ctrl-C, a killed driver or a lost node, and never stores a game twice. A worker or node that
dies has its game retried by Ray; a game that failed for a reason of ours is submitted again by
the driver a few times, then stored as INFRA_ERROR (never scored, replayed by the next run); a
bot's forfeit is a result and is never retried.
"""

from __future__ import annotations

import hashlib
import json
import logging
import os
import signal
import sys
import threading
import time
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from league.config import League
from league.manifest import read_manifest, record_run, write_manifest  # noqa: F401 - read_manifest: callers' import
from league.report import remove_report
from league.schedule import GameSpec, gauntlet, round_robin, solo, tables
from league.store import INFRA_ERROR, ResultStore
from league.worker import LeagueSetup, failure_detail, infra_record, play_game, spec_to_data
from sandbox.jail import Sandbox, sweep_stale_scratch

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
    """

    total: int
    skipped: int
    played: int = 0
    infra_errors: int = 0
    interrupted: bool = False
    seconds: float = 0.0
    infra_detail: str = ""
    removed_report: bool = False


def fingerprints(league: League) -> dict[str, str]:
    """Per bot and variant name, a digest of what it stands for (with the league-wide rules of play)."""
    config = league.config
    common = {"game": config.game, "limits": config.limits.model_dump(mode="json"), "clock": config.clock}
    common |= {"margin": config.time_margin_ms, "sandbox": config.sandbox.model_dump(mode="json")}
    parts: dict[str, Any] = {name: game.variant() for name, game in league.games.items()}
    parts |= {name: spec_to_data(spec) for name, spec in league.bots.items()}
    return {name: _digest({"common": common, "own": value}) for name, value in parts.items()}


def _digest(data: Any) -> str:
    return hashlib.sha256(json.dumps(data, sort_keys=True, default=str).encode()).hexdigest()[:12]


def schedule(league: League) -> list[GameSpec]:
    """The league's games in schedule order (ids change when what the names stand for changes).

    Drawn once per ``League`` and kept on it (a large table league takes a moment to draw).
    """
    if league.scheduled is None:
        league.scheduled = _draw_schedule(league)
    return league.scheduled


def _draw_schedule(league: League) -> list[GameSpec]:
    config = league.config
    names = [bot.name for bot in config.bots]
    variants = list(config.variants)
    prints = fingerprints(league)
    if config.format == "gauntlet":
        field = [name for name in names if name not in config.candidates]
        specs = gauntlet(config.name, config.candidates, field, variants, config.games_per_pair, config.seed, prints)
    elif config.format == "solo":
        specs = solo(config.name, names, variants, config.runs_per_case, config.seed, prints)
    elif config.format == "tables":
        sizes = config.players_per_table or []
        specs = tables(config.name, names, variants, sizes, config.tables, config.seed, prints)
    else:
        specs = round_robin(config.name, names, variants, config.games_per_pair, config.seed, prints)
    if len({spec.game_id for spec in specs}) != len(specs):
        raise ValueError("two scheduled games share an id")
    return specs


def league_setup(league: League, relative_to: Path | None = None) -> LeagueSetup:
    """The data every worker needs, with bot folders relative to ``relative_to`` for clusters."""
    config = league.config
    bots = {}
    for name, spec in league.bots.items():
        data = spec_to_data(spec)
        if relative_to is not None:
            _relativize(data, relative_to)
        bots[name] = data
    limits = config.limits.model_dump()
    limits["read_only"] = tuple(limits["read_only"]) + tuple(league.sandbox_read_only)
    return LeagueSetup(
        game=config.game,
        variants={name: game.variant() for name, game in league.games.items()},
        bots=bots,
        limits=limits,
        sandbox=config.sandbox.mode.value,
        clock={"kind": config.clock, "margin_ms": config.time_margin_ms, "game_wall_s": config.limits.wall_seconds},
        relative_to_cwd=relative_to is not None,
    )


def _relativize(data: dict[str, Any], base: Path) -> None:
    for side in (data.get("roles") or {}).values():
        _relativize(side, base)
    if data.get("cwd"):
        folder = Path(data["cwd"]).resolve()
        if base not in (folder, *folder.parents):
            raise ValueError(f"bot {data['name']!r}: its folder {folder} is outside {base}, so it cannot be shipped")
        data["cwd"] = str(folder.relative_to(base))


def start_ray(concurrency: int, address: str | None, working_dir: Path | None) -> bool:
    """Connect to Ray (a cluster with an address, else an embedded local one); True if we started it."""
    import ray

    if ray.is_initialized():
        return False
    on_sigterm = signal.getsignal(signal.SIGTERM)
    address = address or os.environ.get("RAY_ADDRESS")
    if address:
        project = Path(__file__).resolve().parents[1]
        modules = [str(project / name) for name in ("engine", "league", "sandbox")]
        runtime_env: dict[str, Any] = {"py_modules": modules}
        if working_dir is not None:
            runtime_env["working_dir"] = str(working_dir)
        ray.init(address=address, runtime_env=runtime_env, log_to_driver=False, logging_level=logging.WARNING)
    else:
        # The embedded cluster turns Ray's token authentication on by itself: good, and not news.
        logging.getLogger("ray._private.authentication.authentication_token_setup").setLevel(logging.ERROR)
        ray.init(
            address="local",
            num_cpus=concurrency,
            include_dashboard=False,
            log_to_driver=False,
            logging_level=logging.WARNING,
        )
    if callable(on_sigterm) and threading.current_thread() is threading.main_thread():
        # Ray's core sets its own SIGTERM handler (a stack dump, then exit): ours stops the run as
        # Ctrl-C does, keeping what is stored and saying how to resume.
        signal.signal(signal.SIGTERM, on_sigterm)
    return True


def run_league(
    league: League,
    address: str | None = None,
    fresh: bool = False,
    on_progress: Callable[[int, int], None] | None = None,
) -> RunSummary:
    """Play every game of the league not yet stored, storing each as it finishes.

    Args:
        league: The validated league.
        address: A Ray cluster's address (default: ``RAY_ADDRESS``, else a local cluster).
        fresh: Forget stored games first.
        on_progress: Called with (games stored, games in the schedule) after each game.
    """
    import ray

    started = time.monotonic()
    started_at = datetime.now(UTC).strftime("%Y-%m-%d %H:%M UTC")
    specs = schedule(league)
    Sandbox(league.config.sandbox.mode, league.config.limits)  # strict refuses here, before anything runs
    store = ResultStore(league.output / "games.jsonl")
    store.lock()
    if fresh:
        store.reset()
    done = store.done_ids()
    write_manifest(league, specs)
    todo = [spec for spec in specs if spec.game_id not in done]
    summary = RunSummary(total=len(specs), skipped=len(specs) - len(todo))
    if todo:  # the old report describes other games: gone until this run rewrites it
        summary.removed_report = bool(remove_report(league.output))
    if on_progress:
        on_progress(summary.skipped, summary.total)
    if not todo:
        store.close()
        return summary
    cluster = bool(address or os.environ.get("RAY_ADDRESS"))
    folder = league.path.parent.resolve() if cluster else None
    setup = league_setup(league, relative_to=folder)
    we_started = start_ray(league.config.concurrency, address, folder)
    task = ray.remote(num_cpus=1, max_retries=TASK_RETRIES)(play_game)  # Ray replays games of lost workers
    setup_ref = ray.put(setup)
    in_flight: dict[Any, GameSpec] = {}
    tries: Counter[str] = Counter()
    pending = iter(todo)
    # Games in flight: `concurrency`. Where the cluster's CPUs already cap the games at once at
    # `concurrency` (the embedded default), more are queued behind them: no worker waits for the
    # driver, and Ray's cost per task (a few ms on a small machine) is paid while games run.
    concurrency = max(1, league.config.concurrency)
    capped = ray.cluster_resources().get("CPU", 0) <= concurrency
    limit = 2 * concurrency + 2 if capped else concurrency
    try:
        while True:
            while len(in_flight) < limit:
                spec = next(pending, None)
                if spec is None:
                    break
                in_flight[task.remote(spec.to_json(), setup_ref)] = spec
            if not in_flight:
                break
            ready, _ = ray.wait(list(in_flight), num_returns=1)
            for ref in ready:
                spec = in_flight.pop(ref)
                try:
                    record = ray.get(ref)
                except Exception as error:  # noqa: BLE001 - Ray's retries exhausted: the failure is ours
                    cause = getattr(error, "cause", None) or error
                    record = infra_record(spec.to_json(), failure_detail(cause))
                if record["result"]["termination"] == INFRA_ERROR:
                    if tries[spec.game_id] < TASK_RETRIES:  # ours: play it again, maybe on another worker
                        tries[spec.game_id] += 1
                        in_flight[task.remote(spec.to_json(), setup_ref)] = spec
                        continue
                    summary.infra_errors += 1
                    summary.infra_detail = summary.infra_detail or record["result"]["detail"]
                store.append(record)
                summary.played += 1
                if on_progress:
                    on_progress(summary.skipped + summary.played, summary.total)
    except KeyboardInterrupt:
        # Games in flight are dropped with the cluster (the next run replays them). Cancelling them
        # one by one instead races with their completion inside Ray and can abort the driver.
        summary.interrupted = True
    finally:
        store.close()
        if we_started:
            ray.shutdown()
            sweep_stale_scratch()  # bots' scratch folders of workers that died with the cluster
        summary.seconds = time.monotonic() - started
        record_run(league.output, started_at, summary.seconds, summary.played)
    return summary


def stderr_is_terminal() -> bool:
    """Whether progress can be drawn in place."""
    return sys.stderr.isatty()
