"""The league driver's cost per game with 2, 100 and 1,600 workers (100 nodes of 16 cores), the workers stood in for.

Run ``.venv/bin/python benchmarks/driver_scaling.py [--quick] [--figures FILE]`` from the
repository root, on an otherwise idle machine.

What runs is the real driver: ``league.cluster.runner.run_league`` (schedule, hand out, ``pool.wait``,
settle, store with its fsyncs, progress) and ``league.cluster.pool.WorkerPool`` with every one of its
Ray calls (actor calls, their futures, cancels). Only the workers are stood in for, since 1,600
worker processes do not fit on one machine: every worker slot's actor is the same async Ray
actor (``StandIn``, no CPU reserved), which answers a game's call after ``--game-ms`` (default
0: at once) with a copy of one real game's record (a 2-turn versus2048 game played here once
beforehand) under that game's id and spec. So with 1,600 workers the driver holds 4,800 calls
out, as on a 100-node cluster, and the stand-in answers them as fast as it can.

Measured per run, from the first game handed out to the last stored (every game of the league
counted; the pool's start and close left out): the driver process's CPU per game
(``time.process_time``: all its threads, Ray's own threads in the driver included, and of it
the main thread's, the rest being mostly Ray telling the pool of each call that came back), its
wall time per game, the games each ``pool.wait`` gave back, and the share of the window the
driver was busy. 1 / (driver CPU per game) is the driver's throughput ceiling: the games a
second it can hand out and store with a core to itself, whatever the cluster. The wall rate
here is not that ceiling: the stand-in, Ray's own processes and the driver share this
machine's cores. Not measured: the workers' own CPU, a real network's latency (the driver does
not wait on it while calls are out), starting 1,600 actors.

The worker counts run interleaved (2, 100, 1,600, then again: ``--repeats``), so that load on
the machine hits each alike; printed per count are the median and the range over the repeats.
"""

from __future__ import annotations

import argparse
import asyncio
import shutil
import statistics
import tempfile
import time
from pathlib import Path
from typing import Any

import ray
import yaml
from figures import Figure, write_figures

import league.cluster.pool as pool_module
from league.cluster.pool import CALLS_PER_WORKER, GameWorker, WorkerPool
from league.cluster.runner import league_setup, run_league, schedule
from league.plan.config import load_league

WORKERS = (2, 100, 1600)


@ray.remote(num_cpus=0, max_concurrency=100_000)
class StandIn:
    """Every worker at once: answers each game's call with the template record under the game's id."""

    def __init__(self, template: dict[str, Any], game_s: float) -> None:
        self.template = template
        self.game_s = game_s

    async def ready(self) -> bool:
        return True

    async def play(self, spec: Any) -> dict[str, Any]:
        if self.game_s:
            await asyncio.sleep(self.game_s)
        data = spec if isinstance(spec, dict) else spec.to_json()  # as GameWorker.play takes it
        return {**self.template, "game_id": data["game_id"], "spec": data}


class SharedActor:
    """What the pool takes for an actor class: every worker "started" is the one stand-in."""

    def __init__(self, handle: Any) -> None:
        self.handle = handle

    def remote(self, *_: Any) -> Any:
        return self.handle


class CountingPool(WorkerPool):
    """The pool, its workers the stand-in; it notes its first game handed out and counts its waits."""

    handle: Any = None
    first_submit: tuple[float, float, float] | None = None
    waits = 0

    def __init__(self, setup: Any, size: int) -> None:
        super().__init__(setup, size, actor_class=SharedActor(CountingPool.handle))

    def submit(self, spec: Any) -> bool:
        before = (time.perf_counter(), time.process_time(), time.thread_time())
        taken = super().submit(spec)
        if taken and CountingPool.first_submit is None:
            CountingPool.first_submit = before
        return taken

    def wait(self) -> list[pool_module.Outcome]:
        CountingPool.waits += 1
        return super().wait()


def league_file(folder: Path, workers: int, games: int) -> Path:
    """A league of ``games`` 2-turn games of greedy against random at ``workers`` at once, no jail."""
    name = f"driver{workers}"
    config = {
        "name": name,
        "game": "versus2048",
        "variants": {"v": {"turns_per_player": 2}},
        "bots": [
            {"name": "greedy", "builtin": "versus2048.greedy"},
            {"name": "random", "builtin": "versus2048.random"},
        ],
        "games_per_pair": games,
        "seed": 7,
        "concurrency": workers,
        "sandbox": "none",
        "output": str(folder / name),
    }
    path = folder / f"{name}.yaml"
    path.write_text(yaml.safe_dump(config))
    return path


def template_record(path: Path) -> dict[str, Any]:
    """A real game's record (the league's first game, played here)."""
    league = load_league(path)
    return GameWorker(league_setup(league)).play(schedule(league)[0].to_json())


def timed_run(path: Path, template: dict[str, Any], game_s: float) -> dict[str, float]:
    """Play the league against the stand-in; the driver's figures over its window."""
    league = load_league(path)
    CountingPool.handle = StandIn.remote(template, game_s)
    ray.get(CountingPool.handle.ready.remote())
    last: list[tuple[float, float, float]] = []

    def progress(done: int, total: int) -> None:
        if done == total:
            last.append((time.perf_counter(), time.process_time(), time.thread_time()))

    CountingPool.first_submit, CountingPool.waits = None, 0
    real_pool, pool_module.WorkerPool = pool_module.WorkerPool, CountingPool  # run_league imports it when it runs
    try:
        summary = run_league(league, fresh=True, on_progress=progress)
    finally:
        pool_module.WorkerPool = real_pool
    if summary.played != summary.total or summary.infra_errors or not last or CountingPool.first_submit is None:
        raise RuntimeError(f"{path.name}: {summary.played} of {summary.total} stored, {summary.infra_detail}")
    (wall0, cpu0, main0), (wall1, cpu1, main1) = CountingPool.first_submit, last[-1]
    games = summary.played
    return {
        "cpu_ms": 1000 * (cpu1 - cpu0) / games,
        "main_ms": 1000 * (main1 - main0) / games,
        "wall_ms": 1000 * (wall1 - wall0) / games,
        "per_wait": games / max(1, CountingPool.waits),
        "busy": (cpu1 - cpu0) / (wall1 - wall0),
        "games": games,
    }


def spread(values: list[float], digits: int = 3) -> str:
    """Median, and the range over the repeats where there are several."""
    middle = f"{statistics.median(values):.{digits}f}"
    return middle if len(values) == 1 else f"{middle} ({min(values):.{digits}f}-{max(values):.{digits}f})"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="fewer games, one repeat: a check that it runs")
    parser.add_argument("--games", type=int, help="games a run (default 12,000; quick 6,000)")
    parser.add_argument("--repeats", type=int, help="runs of each worker count, interleaved (default 3; quick 1)")
    parser.add_argument(
        "--workers", type=int, nargs="+", default=list(WORKERS), help="worker counts (default 2 100 1600)"
    )
    parser.add_argument("--game-ms", type=float, default=0.0, help="how long the stand-in takes a game (default 0)")
    parser.add_argument("--figures", type=Path, help="also write the figures to this JSON file")
    args = parser.parse_args()
    games = args.games or (6_000 if args.quick else 12_000)
    repeats = args.repeats or (1 if args.quick else 3)
    folder = Path(tempfile.mkdtemp(prefix="driver-scaling-"))
    counts = sorted(set(args.workers))
    results: dict[int, list[dict[str, float]]] = {workers: [] for workers in counts}
    print(
        f"driver_scaling: run_league's driver, every worker one stand-in actor answering after {args.game_ms:g} ms;"
        f" {games:,} 2-turn games a run, {repeats} run(s) of each worker count, interleaved"
    )
    try:
        template = template_record(league_file(folder, 2, 1))
        ray.init(address="local", num_cpus=2, include_dashboard=False, log_to_driver=False)
        try:
            for _ in range(repeats):
                for workers in counts:
                    path = league_file(folder, workers, games)
                    results[workers].append(timed_run(path, template, args.game_ms / 1e3))
        finally:
            ray.shutdown()
    finally:
        shutil.rmtree(folder, ignore_errors=True)
    print(
        "  workers  calls out  driver CPU ms/game     main thread  wall ms/game   games a wait  driver busy"
        "  ceiling games/s"
    )
    figures = []
    for workers in counts:
        runs = results[workers]
        cpu = [run["cpu_ms"] for run in runs]
        ceiling = 1000 / statistics.median(cpu)
        main, wall, per_wait, busy = ([run[key] for run in runs] for key in ("main_ms", "wall_ms", "per_wait", "busy"))
        print(
            f"  {workers:7,d}  {workers * CALLS_PER_WORKER:9,d}  {spread(cpu):>18}  {spread(main):>14}"
            f"  {spread(wall):>12}  {spread(per_wait, 1):>13}  {spread(busy, 2):>11}  {ceiling:15,.0f}"
        )
        figures.append(
            Figure(
                "league",
                f"driver CPU per game, {workers:,} workers (stand-in actor)",
                statistics.median(cpu),
                "ms",
                baseline=statistics.median(run["cpu_ms"] for run in results[counts[0]])
                if workers != counts[0]
                else None,
                baseline_name=f"{counts[0]} workers, interleaved runs" if workers != counts[0] else "",
                target=2.0 if workers == counts[-1] else None,
                target_of_ratio=True,
                note=f"median of {len(runs)}" if len(runs) > 1 else "",
            )
        )
    largest = statistics.median(run["cpu_ms"] for run in results[counts[-1]])
    print(
        f"  the driver's ceiling with {counts[-1]:,} workers: about {1000 / largest:,.0f} games/s"
        f" ({largest:.3f} ms of driver CPU a game); a million games: {largest * 1e6 / 6e4:.0f} minutes of driver CPU"
    )
    if args.figures:
        write_figures(args.figures, figures)


if __name__ == "__main__":
    main()
