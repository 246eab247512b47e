"""The league driver's peak memory while it schedules, tracks and stores a 100,000-game league.

Run ``.venv/bin/python benchmarks/driver_memory.py [--games N] [--figures FILE]`` from the
repository root (about a minute for 100,000 games). The league's folder is in /dev/shm where
there is one: the store's two fsyncs a game then cost nothing, and memory is all that is measured.

A league driver (``league.cluster.runner.run_league``) holds the whole schedule, the ids already stored,
the games in flight and the store, and Ray's own driver (its core worker) runs in its process.
Here a fresh process does what it does for a round robin of 8 built-in versus2048 bots on 2 rule
variants with about N games, without playing them: ``ray.init`` (an embedded cluster of 1 CPU),
``load_league``, ``schedule``, the store's ``lock`` and ``done_ids``, ``write_manifest``, then for
every game ``spec.to_json()`` (what is sent to a worker) and ``ResultStore.append`` of its record
(what a worker returns: a real game of its variant, played once beforehand in another process,
with the game's id and spec), with the progress bar of ``league run`` (rich's, drawn to /dev/null) updated after each.

Printed: the process's peak resident memory (``ru_maxrss``) once every game is stored, beside its
peak before the league was loaded (imports and Ray's driver: the baseline), and what the league
added per 1,000 games. The games' play is not in it: that happens in the workers. Then what
resuming costs: the time a rerun of the finished league takes before its first game
(``load_league``, ``schedule``, the store's ``lock`` and ``done_ids``, the games left), the store
read from /dev/shm (or the page cache), not from a cold disk.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import yaml
from figures import Figure, write_figures
from report_speed import BOTS, VARIANTS

PAIRINGS = len(BOTS) * (len(BOTS) - 1) // 2 * len(VARIANTS)


def write_league(folder: Path, games: int) -> Path:
    """A round robin of about ``games`` games, output in ``folder``."""
    config = {
        "name": f"memory{games}",
        "game": "versus2048",
        "variants": VARIANTS,
        "bots": BOTS,
        "format": "round_robin",
        "games_per_pair": max(2, 2 * round(games / PAIRINGS / 2)),
        "seed": 5,
        "concurrency": 1,
        "output": str(folder / "out"),
    }
    path = folder / "league.yaml"
    path.write_text(yaml.safe_dump(config, sort_keys=False))
    return path


def sample_records(path: Path) -> dict[str, dict[str, Any]]:
    """One real game record per variant (greedy against random), as a worker returns it."""
    from league.cluster.runner import league_setup, schedule
    from league.cluster.worker import play_game
    from league.plan.config import load_league

    league = load_league(path)
    setup = league_setup(league)
    samples = {}
    for spec in schedule(league):
        if spec.variant not in samples and set(spec.seats) == {"greedy", "random"}:
            samples[spec.variant] = play_game(spec.to_json(), setup)
    return samples


def peak_mb() -> float:
    """This process's peak resident memory so far, in MB (``ru_maxrss`` is in KB on Linux)."""
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def drive(path: Path, samples_path: Path) -> dict[str, float]:
    """Do a driver's work for the league at ``path`` in this (fresh) process; the figures."""
    import ray
    from rich.console import Console
    from rich.progress import Progress

    from league.plan.manifest import write_manifest
    from league.plan.seed import league_seed

    samples = json.loads(samples_path.read_text())
    ray.init(address="local", num_cpus=1, include_dashboard=False, log_to_driver=False)
    try:
        baseline = peak_mb()
        started = time.perf_counter()
        league, specs, store, done = open_league(path)
        write_manifest(league, league_seed(league), specs)
        todo = [spec for spec in specs if spec.game_id not in done]
        with open(os.devnull, "w") as nowhere, Progress(console=Console(file=nowhere)) as progress:
            task = progress.add_task("games", total=len(specs))
            for count, spec in enumerate(todo, 1):
                sent = spec.to_json()
                store.append(dict(samples[spec.variant], game_id=spec.game_id, spec=sent))
                progress.update(task, completed=count)
        store.close()
        seconds = time.perf_counter() - started
        peak = peak_mb()
        resume_s, left = resume(path)
    finally:
        ray.shutdown()
    return {
        "games": len(todo),
        "baseline_mb": baseline,
        "peak_mb": peak,
        "seconds": seconds,
        "resume_s": resume_s,
        "left": left,
    }


def open_league(path: Path) -> tuple[Any, list[Any], Any, set[str]]:
    """What a run does before its first game: the league, its schedule, its store (locked) and the ids stored."""
    from league.cluster.runner import schedule
    from league.plan.config import load_league
    from league.store.results import ResultStore

    league = load_league(path)
    specs = schedule(league)
    store = ResultStore(league.output / "games.jsonl")
    store.lock()
    return league, specs, store, store.done_ids()


def resume(path: Path) -> tuple[float, int]:
    """What a rerun of the finished league does before its first game: seconds, and the games it finds to play.

    ``load_league``, ``schedule``, the store's ``lock`` and ``done_ids`` (one read of ``games.jsonl``),
    and the games not stored.
    """
    started = time.perf_counter()
    _, specs, store, done = open_league(path)
    left = sum(spec.game_id not in done for spec in specs)
    seconds = time.perf_counter() - started
    store.close()
    return seconds, left


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=100_000, help="games in the league (default 100,000)")
    parser.add_argument("--figures", type=Path, help="also write the figures to this JSON file")
    parser.add_argument("--drive", nargs=2, type=Path, help=argparse.SUPPRESS)  # the measured process
    args = parser.parse_args()
    if args.drive:
        print(json.dumps(drive(*args.drive)))
        return
    shared_memory = Path("/dev/shm")
    folder = Path(tempfile.mkdtemp(prefix="driver-memory-", dir=shared_memory if shared_memory.is_dir() else None))
    try:
        path = write_league(folder, args.games)
        samples_path = folder / "samples.json"
        samples_path.write_text(json.dumps(sample_records(path)))
        command = [sys.executable, __file__, "--drive", str(path), str(samples_path)]
        output = subprocess.run(command, check=True, capture_output=True, text=True).stdout
        figures = json.loads(output.strip().splitlines()[-1])
    finally:
        shutil.rmtree(folder, ignore_errors=True)
    games, baseline, peak = int(figures["games"]), figures["baseline_mb"], figures["peak_mb"]
    print(f"driver_memory: {games:,} games scheduled, tracked and stored in {figures['seconds']:.1f} s")
    print(f"  peak resident memory of the driver : {peak:7.0f} MB")
    print(f"  before the league (imports, Ray)   : {baseline:7.0f} MB")
    added = peak - baseline
    print(f"  added by the league                : {added:7.0f} MB ({added / games * 1000:.2f} MB per 1,000 games)")
    print(
        f"  resume (a rerun finding every game stored: load, schedule, read the store's ids):"
        f" {figures['resume_s']:.2f} s, {figures['left']} games left to play"
    )
    if args.figures:
        write_figures(
            args.figures,
            [
                Figure(
                    "league",
                    f"driver's peak memory, {games:,}-game league",
                    peak,
                    "MB",
                    baseline,
                    "the same process before the league (imports and Ray's driver)",
                ),
                Figure(
                    "league",
                    f"resuming a finished {games:,}-game league (load, schedule, read the store's ids)",
                    figures["resume_s"],
                    "s",
                    note="store in /dev/shm where there is one: no disk read",
                ),
            ],
        )


if __name__ == "__main__":
    main()
