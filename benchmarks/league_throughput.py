"""League throughput on Ray: start-up, Ray's marginal cost per game, 1 vs 2 workers, and rating 100,000 games.

Run ``.venv/bin/python benchmarks/league_throughput.py [--games N] [--short-games N] [--repeats R]
[--quick]`` from the repository root, on an otherwise idle machine. All figures come from one
run, so their ratios mean something.

Leagues of built-in versus2048 bots (``minimax`` against ``greedy``) are played by ``run_league``
on an embedded Ray cluster of as many CPUs as workers, and the same games one after another in
this process without Ray, through what a worker runs (``league.cluster.pool.GameWorker.play``: the game,
its sandbox made once). A run's games are timed from its first game stored to its last (the
games between them counted); what comes before is the fixed start-up, stated on its own:
``ray.init``, and the workers' start (processes, imports). Beside wall time, the CPU a game costs
the driver, the worker (against the same game in one process) and Ray's own processes, read from
/proc: on a busy machine it still says where Ray's cost goes.

1. **Ray's marginal cost per game**: 1000 (``--short-games``) 2-turn games, where a game costs a
   few milliseconds: 1-worker time a game - in-process time a game (target: under 1 ms).
2. **Scaling**: 1000 (``--games``) games of 50 turns a player (about 0.1 s each): games per
   second with 1 and 2 workers, and in one process (targets: 2 workers at least 1.8 times 1
   worker, and at least 1.7 times one process), and the cores in use with 2 workers.
3. **Ratings**: TrueSkill standings of 100,000 synthetic two-player games in schedule order
   (target: under 30 s), and of 100,000 five-seat table games, beside the ``trueskill``
   package's own factor graph (``env.rate``) on a slice of the same games, scaled up: the
   baseline that ``league.stats.trueskill_fast.Multiplayer`` replaces with the same numbers.

With ``--repeats R`` every setting runs R times, interleaved (all settings once, then again), so
that load on the machine hits each alike: a figure is the median of its runs and a difference or
ratio is taken between neighbouring runs, printed with its range over the repeats. A cost that
comes out below zero is printed with a caveat: the load swamped the difference.
"""

import argparse
import os
import random
import shutil
import statistics
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

import ray
import trueskill
import yaml

from league.cluster.pool import GameWorker
from league.cluster.runner import league_setup, run_league, schedule
from league.plan.config import load_league
from league.stats.game_record import GameRecord
from league.stats.ratings import league_table
from sandbox.procfs import STIME, TICK_NS, UTIME, children_of, descendants, process_table


def make_league(folder: Path, games: int, concurrency: int, turns: int) -> Path:
    """A league file of ``games`` games of minimax against greedy, ``turns`` turns a player."""
    config = {
        "name": f"throughput{turns}",
        "game": "versus2048",
        "variants": {"v": {"turns_per_player": turns}},
        "bots": [
            {"name": "minimax", "builtin": "versus2048.minimax", "params": {"max_nodes": 3000}},
            {"name": "greedy", "builtin": "versus2048.greedy"},
        ],
        "games_per_pair": games,
        "seed": 11,
        "concurrency": concurrency,
        "output": str(folder / f"out{concurrency}-{turns}"),
    }
    path = folder / f"league{concurrency}-{turns}.yaml"
    path.write_text(yaml.safe_dump(config))
    return path


@dataclass
class Timing:
    """A league's games timed from the first game stored to the last (the fixed start-up apart).

    Attributes:
        games: Games in the window (all but the first).
        seconds: The window's wall time.
        cpu: CPU seconds spent in the window by the driver (``driver``), the worker processes
            (``workers``) and Ray's own processes (``ray``).
        ray_init_s: ``ray.init`` of the embedded cluster.
        workers_s: From the run's start until every worker was ready.
    """

    games: int
    seconds: float
    cpu: dict[str, float]
    ray_init_s: float = 0.0
    workers_s: float = 0.0

    @property
    def rate(self) -> float:
        """Games per second."""
        return self.games / self.seconds

    def cpu_ms(self, role: str) -> float:
        """CPU milliseconds a game of ``role``."""
        return self.cpu[role] / self.games * 1000


def cpu_by_role() -> dict[str, float]:
    """CPU seconds used so far by this process, its Ray workers (league actors) and Ray's other processes.

    Built-in bots play inside the workers; a bot program's CPU would count as Ray's.
    """
    table = process_table()
    found = {"driver": 0.0, "workers": 0.0, "ray": 0.0}
    for pid in descendants(os.getpid(), children_of(table)):
        fields = table.get(pid)
        if fields is None:
            continue
        try:
            command = Path(f"/proc/{pid}/cmdline").read_bytes()
        except OSError:
            continue
        role = "driver" if pid == os.getpid() else "workers" if command.startswith(b"ray::GameWorker") else "ray"
        found[role] += (int(fields[UTIME]) + int(fields[STIME])) * TICK_NS / 1e9
    return found


def timed_run(path: Path) -> Timing:
    """Play a league on its own embedded Ray cluster of ``concurrency`` CPUs."""
    league = load_league(path)
    started = time.perf_counter()
    ray.init(address="local", num_cpus=league.config.concurrency, include_dashboard=False, log_to_driver=False)
    ray_init_s = time.perf_counter() - started
    marks: list[tuple[float, int, dict[str, float]]] = []

    def progress(done: int, total: int) -> None:
        if done in (1, total):  # the window's ends
            marks.append((time.perf_counter(), done, cpu_by_role()))

    try:
        summary = run_league(league, fresh=True, on_progress=progress)  # fresh: a repeat plays every game again
    finally:
        ray.shutdown()
    (first, first_done, first_cpu), (last, last_done, last_cpu) = marks[0], marks[-1]
    cpu = {role: last_cpu[role] - first_cpu[role] for role in first_cpu}
    return Timing(last_done - first_done, last - first, cpu, ray_init_s, summary.startup_seconds or 0.0)


def in_process(path: Path) -> Timing:
    """The league's games played one after another here, as a worker plays them (its sandbox made once)."""
    league = load_league(path)
    worker = GameWorker(league_setup(league))
    specs = [spec.to_json() for spec in schedule(league)]
    started, cpu = time.perf_counter(), time.process_time()
    for spec in specs:
        worker.play(spec)
    return Timing(len(specs), time.perf_counter() - started, {"driver": time.process_time() - cpu})


def synthetic_records(games: int, seats: int) -> tuple[list[str], list[dict]]:
    """Bots and ``games`` seeded records of ``seats`` seats, ranks drawn at random (ties included)."""
    rng = random.Random(1)
    bots = [f"bot{i}" for i in range(10)]
    records = []
    for index in range(games):
        ranks = sorted(rng.randint(1, seats) for _ in range(seats))
        ranks = [1 + sum(other < rank for other in ranks) for rank in ranks]  # competition ranks: 1 1 3
        rng.shuffle(ranks)
        spec = {"index": index, "seats": rng.sample(bots, seats), "round": index}
        result = {"termination": "NORMAL", "ranks": ranks, "scores": [0] * seats}
        records.append(GameRecord.from_json({"game_id": f"g{index}", "spec": spec, "result": result}))
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
        names = record.spec.seats
        groups = [(current.get(name, env.create_rating()),) for name in names]
        rated = env.rate(groups, ranks=[rank - 1 for rank in record.result.ranks])
        current.update((name, group[0]) for name, group in zip(names, rated, strict=True))
    return time.perf_counter() - started


def spread(values: list[float], digits: int = 2) -> str:
    """The median, and the range over the repeats where there are several."""
    middle = f"{statistics.median(values):.{digits}f}"
    return middle if len(values) == 1 else f"{middle} ({min(values):.{digits}f} to {max(values):.{digits}f})"


def below_noise(values: list[float]) -> str:
    """A caveat for a cost measured below zero: the load on the machine swamped the difference."""
    if statistics.median(values) >= 0:
        return ""
    return "  (below zero: below measurement noise, the machine's load swamped the difference)"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=1000, help="50-turn games per league and repeat (default 1000)")
    parser.add_argument("--short-games", type=int, default=1000, help="2-turn games per league and repeat (1000)")
    parser.add_argument("--repeats", type=int, default=1, help="interleaved runs of every setting (default 1)")
    parser.add_argument("--quick", action="store_true", help="100 games a league, fewer ratings: a check that it runs")
    args = parser.parse_args()
    games = 100 if args.quick else args.games
    short_games = 100 if args.quick else args.short_games
    repeats = max(1, args.repeats)
    folder = Path(tempfile.mkdtemp(prefix="league-throughput-"))
    try:
        short = make_league(folder, short_games, 1, turns=2)
        one_path, two_path = make_league(folder, games, 1, turns=50), make_league(folder, games, 2, turns=50)
        runs: dict[str, list[Timing]] = {name: [] for name in ("short_local", "short_ray", "local", "one", "two")}
        for _ in range(repeats):  # every setting once, then again: load on the machine hits each alike
            runs["short_local"].append(in_process(short))
            runs["short_ray"].append(timed_run(short))
            runs["local"].append(in_process(one_path))
            runs["one"].append(timed_run(one_path))
            runs["two"].append(timed_run(two_path))
        how = (
            f"{repeats} interleaved repeats of every setting; medians, the range over the repeats in brackets"
            if repeats > 1
            else "one run of every setting"
        )
        print(f"league_throughput: minimax vs greedy (versus2048); {how}")
        init = statistics.median(run.ray_init_s for run in runs["short_ray"])
        ready = [statistics.median(run.workers_s for run in runs[name]) for name in ("one", "two")]
        print(
            f"  fixed start-up: ray.init {init:.2f} s, then the workers ready {ready[0]:.2f} s"
            f" (1), {ready[1]:.2f} s (2) after the run's start"
        )
        pairs = list(zip(runs["short_local"], runs["short_ray"], strict=True))
        own_ms = statistics.median(1000 / local.rate for local, _ in pairs)
        count = f"{repeats} x {runs['short_ray'][0].games}" if repeats > 1 else f"{runs['short_ray'][0].games}"
        print(f"  {count} 2-turn games ({own_ms:.2f} ms a game in one process):")
        marginal = [1000 / ray_run.rate - 1000 / local.rate for local, ray_run in pairs]  # each beside its neighbour
        print(f"    Ray's marginal cost per game : {spread(marginal)} ms   (target < 1 ms){below_noise(marginal)}")
        cpu = {role: statistics.median(run.cpu_ms(role) for run in runs["short_ray"]) for role in ("driver", "workers")}
        cpu["ray"] = statistics.median(run.cpu_ms("ray") for run in runs["short_ray"])
        own_cpu = statistics.median(local.cpu_ms("driver") for local, _ in pairs)
        print(
            f"    CPU a game: driver {cpu['driver']:.2f} ms, worker {cpu['workers']:.2f} ms"
            f" ({cpu['workers'] - own_cpu:+.2f} ms on the game's own), Ray {cpu['ray']:.2f} ms"
        )
        count = f"{repeats} x {runs['one'][0].games}" if repeats > 1 else f"{runs['one'][0].games}"
        print(f"  {count} games of 50 turns a player:")
        local_rate = statistics.median(run.rate for run in runs["local"])
        one_rate = statistics.median(run.rate for run in runs["one"])
        two_rate = statistics.median(run.rate for run in runs["two"])
        extra = [1000 / one.rate - 1000 / local.rate for local, one in zip(runs["local"], runs["one"], strict=True)]
        print(f"    in one process, no Ray : {local_rate:6.2f} games/s ({1000 / local_rate:.1f} ms a game)")
        print(f"    Ray, 1 worker          : {one_rate:6.2f} games/s ({spread(extra)} ms a game){below_noise(extra)}")
        print(f"    Ray, 2 workers         : {two_rate:6.2f} games/s")
        scaling = [two.rate / one.rate for one, two in zip(runs["one"], runs["two"], strict=True)]
        against_local = [two.rate / local.rate for local, two in zip(runs["local"], runs["two"], strict=True)]
        print(f"    2 vs 1 worker          : {spread(scaling)} x   (target >= 1.8)")
        print(f"    2 workers vs 1 process : {spread(against_local)} x   (target >= 1.7)")
        busy = statistics.median(
            (run.cpu["workers"] + run.cpu["driver"] + run.cpu["ray"]) / run.seconds for run in runs["two"]
        )
        print(f"    CPU in use with 2 workers: {busy:.2f} cores (workers, driver and Ray's processes)")
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
