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
   (target: under 30 s), and of 100,000 five-seat table games, beside the ``trueskill``
   package's own factor graph (``env.rate``) on a slice of the same games, scaled up: the
   baseline that ``league.trueskill_fast.Multiplayer`` replaces with the same numbers.
"""

import argparse
import random
import shutil
import tempfile
import time
from pathlib import Path

import ray
import trueskill
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


def synthetic_records(games: int, seats: int) -> tuple[list[str], list[dict]]:
    """Bots and ``games`` seeded records of ``seats`` seats, ranks drawn at random (ties included)."""
    rng = random.Random(1)
    bots = [f"bot{i}" for i in range(10)]
    records = []
    for index in range(games):
        ranks = sorted(rng.randint(1, seats) for _ in range(seats))
        ranks = [1 + sum(other < rank for other in ranks) for rank in ranks]  # competition ranks: 1 1 3
        rng.shuffle(ranks)
        records.append(
            {
                "spec": {"index": index, "seats": rng.sample(bots, seats), "round": index},
                "result": {"termination": "NORMAL", "ranks": ranks, "scores": [0] * seats},
            }
        )
    return bots, records


def rate_synthetic(games: int, seats: int = 2) -> float:
    bots, records = synthetic_records(games, seats)
    started = time.perf_counter()
    league_table(records, bots)
    return time.perf_counter() - started


def rate_with_the_package(games: int, seats: int) -> float:
    """Seconds for the ``trueskill`` package's ``env.rate`` alone on ``games`` table games."""
    _, records = synthetic_records(games, seats)
    env = trueskill.TrueSkill(draw_probability=0.1)
    current: dict[str, trueskill.Rating] = {}
    started = time.perf_counter()
    for record in records:
        names = record["spec"]["seats"]
        groups = [(current.get(name, env.create_rating()),) for name in names]
        rated = env.rate(groups, ranks=[rank - 1 for rank in record["result"]["ranks"]])
        current.update((name, group[0]) for name, group in zip(names, rated, strict=True))
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
        tables_s = rate_synthetic(count, seats=5)
        sample = count // 20
        package_s = rate_with_the_package(sample, seats=5) * count / sample
        print(
            f"  ratings of {count} five-seat games: {tables_s:.2f} s; the trueskill package's factor graph"
            f" alone: about {package_s:.1f} s (from {sample} games): {package_s / tables_s:.1f} x"
        )
    finally:
        shutil.rmtree(folder, ignore_errors=True)


if __name__ == "__main__":
    main()
