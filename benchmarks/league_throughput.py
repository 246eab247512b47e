"""League throughput on Ray: 1 vs 2 workers, Ray's overhead per game, and rating 100,000 games.

Run ``.venv/bin/python benchmarks/league_throughput.py [--games N] [--quick]`` from the repository
root. All figures come from one run, on the same machine, so their ratios mean something.

1. **Scaling**: the same league of built-in versus2048 bots (games of about 50 ms or longer:
   ``minimax`` against ``greedy``) is played with ``concurrency`` 1 on an embedded Ray cluster of
   1 CPU, then with 2 on one of 2 CPUs (workers started before the clock runs); games per second
   for each and their ratio (target: 2 workers at least 1.8 times 1 worker).
2. **Ray overhead per game**: the same games played one after another in this process through
   ``league.worker.play_game`` (no Ray); overhead = (1-worker wall time - in-process wall time)
   / games. Long games make that difference noisy on a 2-core machine (the Ray processes share
   the cores), so it is also measured on many 2-turn games, where the game itself costs about a
   millisecond (target: under 5 ms).
3. **Ratings**: TrueSkill standings of 100,000 synthetic two-player games in schedule order
   (target: under 30 s).
"""

import argparse
import random
import shutil
import tempfile
import time
from pathlib import Path

import ray
import yaml

from league.config import load_league
from league.ratings import league_table
from league.runner import league_setup, run_league, schedule
from league.worker import play_game


def make_league(folder: Path, games_per_pair: int, concurrency: int, turns: int = 60) -> Path:
    config = {
        "name": f"throughput{turns}",
        "game": "versus2048",
        "variants": {"v": {"turns_per_player": turns}},
        "bots": [
            {"name": "minimax", "builtin": "versus2048.minimax", "params": {"max_nodes": 3000}},
            {"name": "greedy", "builtin": "versus2048.greedy"},
        ],
        "games_per_pair": games_per_pair,
        "seed": 11,
        "concurrency": concurrency,
        "output": str(folder / f"out{concurrency}-{turns}"),
    }
    path = folder / f"league{concurrency}-{turns}.yaml"
    path.write_text(yaml.safe_dump(config))
    return path


def timed_run(path: Path) -> tuple[float, int]:
    """Play a league on its own embedded Ray cluster of ``concurrency`` CPUs (workers warmed first)."""
    league = load_league(path)
    ray.init(address="local", num_cpus=league.config.concurrency, include_dashboard=False, log_to_driver=False)
    try:
        warm = [ray.remote(lambda: None).remote() for _ in range(league.config.concurrency)]
        ray.get(warm)
        started = time.perf_counter()
        summary = run_league(league)
        return time.perf_counter() - started, summary.played
    finally:
        ray.shutdown()


def in_process(path: Path) -> tuple[float, int]:
    league = load_league(path)
    setup = league_setup(league)
    specs = schedule(league)
    started = time.perf_counter()
    for spec in specs:
        play_game(spec.to_json(), setup)
    return time.perf_counter() - started, len(specs)


def rate_synthetic(games: int) -> float:
    rng = random.Random(1)
    bots = [f"bot{i}" for i in range(10)]
    records = []
    for index in range(games):
        seats = rng.sample(bots, 2)
        ranks = rng.choice([[1, 2], [2, 1], [1, 1]])
        records.append(
            {
                "spec": {"index": index, "seats": seats},
                "result": {"termination": "NORMAL", "ranks": ranks, "scores": [0, 0]},
            }
        )
    started = time.perf_counter()
    league_table(records, bots)
    return time.perf_counter() - started


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=60, help="games per run (default 60)")
    parser.add_argument("--quick", action="store_true", help="fewer games and ratings")
    args = parser.parse_args()
    games = 16 if args.quick else args.games
    folder = Path(tempfile.mkdtemp(prefix="league-throughput-"))
    try:
        one_path, two_path = make_league(folder, games, 1), make_league(folder, games, 2)
        one_s, one_n = timed_run(one_path)
        two_s, two_n = timed_run(two_path)
        local_s, local_n = in_process(one_path)
        short = make_league(folder, 4 * games, 1, turns=2)
        short_ray_s, short_n = timed_run(short)
        short_local_s, _ = in_process(short)
        print(f"league_throughput: {one_n} games of minimax vs greedy (versus2048, 60 turns a player)")
        print(f"  in one process, no Ray : {local_n / local_s:6.2f} games/s ({local_s / local_n * 1000:.1f} ms a game)")
        print(f"  Ray, 1 worker          : {one_n / one_s:6.2f} games/s")
        print(f"  Ray, 2 workers         : {two_n / two_s:6.2f} games/s")
        print(f"  scaling 2 vs 1 workers : {one_s / two_s * two_n / one_n:.2f} x   (target >= 1.8)")
        print(f"  Ray overhead per game, these games      : {(one_s - local_s) / one_n * 1000:6.2f} ms")
        overhead_ms = (short_ray_s - short_local_s) / short_n * 1000
        print(
            f"  Ray overhead per game, {short_n} 2-turn games: {overhead_ms:6.2f} ms   (target < 5 ms;"
            f" {short_local_s / short_n * 1000:.2f} ms a game in one process)"
        )
        count = 20_000 if args.quick else 100_000
        print(f"  ratings of {count} games: {rate_synthetic(count):.2f} s   (target < 30 s for 100,000)")
    finally:
        shutil.rmtree(folder, ignore_errors=True)


if __name__ == "__main__":
    main()
