"""Fair under load: how often a bot that computes for 80% of its time limit loses on time.

Run ``.venv/bin/python benchmarks/fairness.py [--quick] [--replies N]`` from the repository root,
as root with bubblewrap (the bots are jailed, as in a league), on a machine doing nothing else:
the figures are about load, so any other load (other programs, other users) is part of what they
measure. ``--quick`` (about 25 s on 2 cores) only checks that everything runs; the full run
(about 13 minutes on 2 cores) plays, in every setting at the usable cores and above and in every
setting of ``clock: own``, enough games for at least ``--replies`` (1,000) turn replies, and a
quarter of that at concurrency 1 (one game at a time: the baseline) under the other clocks. Its
length grows little with more cores: games run that many at once.

Every game is versus2048 between two copies of ``tests/bots/v2048_spinner.py``, a program that
busy-computes (a CPU loop, not a sleep) for ``--share`` (80%) of the ``turn_time_ms`` limit
(100 ms) of CPU time before every reply. versus2048's seats alternate, so a game keeps one core
busy (a simultaneous game such as nimmt would keep one busy per seat). The same league runs on
one embedded Ray cluster (workers started and warm before the clock runs) at concurrency 1, the
usable cores and twice that, with ``clock: wall``, ``clock: own`` (the default: wall time less
the bot's waits for a CPU) and ``clock: cpu``, without and with ``pin_cpus`` (each game in flight
pinned to a core of its own, the bots inheriting it). Then the ``own`` clock's other side: bots
that sleep 120% of the limit (at concurrency = cores), or compute 120% of it alone on a core
(concurrency 1), must lose every game; and the throughput of each clock's default concurrency.

Printed per setting: games, turn replies, games lost on time, timeouts per 1000 replies (a game
ends at its first timeout, so replies are the fair denominator) with the one-sided 95% upper
bound of that rate (Clopper-Pearson: about 3000 / replies when none was lost, the "rule of
three"), the charged time of turn replies as a share of the limit (median, 99th percentile,
max; CPU time under ``clock: cpu``), games and replies per second, and the CPUs the bots said
they could run on (what pinning did). Figures to read, never pass/fail.
"""

from __future__ import annotations

import argparse
import math
import os
import shutil
import statistics
import tempfile
import time
from pathlib import Path
from typing import Any

import ray
import yaml

from league.cluster.runner import run_league
from league.cluster.session import start_ray
from league.plan.config import load_league
from league.plan.cores import default_concurrency
from league.store.results import ResultStore
from sandbox.cpus import available_cpus, cgroup_cpu_quota, usable_cores

ROOT = Path(__file__).resolve().parents[1]
BOTS = ROOT / "tests" / "bots"
PREGAME_REPLIES = 1  # each seat's first reply places a tile: no computing, not counted


def league_file(
    folder: Path,
    clock: str,
    pin: bool,
    concurrency: int,
    games: int,
    args: argparse.Namespace,
    script: str = "v2048_spinner.py",
    share: float | None = None,
) -> Path:
    """A league of two copies of ``script`` (computing, or sleeping: v2048_slow.py) playing ``games`` games at once."""
    spin_ms = round(args.limit_ms * (args.share if share is None else share))
    command = f"python3 {script} {spin_ms}"
    name = f"fair-{clock}-{'pinned' if pin else 'free'}-{concurrency}-{Path(script).stem}-{spin_ms}"
    config = {
        "name": name,
        "game": "versus2048",
        "variants": {"v": {"turns_per_player": args.turns, "turn_time_ms": args.limit_ms}},
        "bots": [{"name": seat, "command": command, "cwd": str(BOTS)} for seat in ("spin_a", "spin_b")],
        "games_per_pair": games,
        "concurrency": concurrency,
        "clock": clock,
        "pin_cpus": pin,
        "output": str(folder / name),
    }
    path = folder / f"{name}.yaml"
    path.write_text(yaml.safe_dump(config))
    return path


def upper_bound(lost: int, trials: int, confidence: float = 0.95) -> float:
    """The one-sided upper confidence bound of a rate seen as ``lost`` of ``trials`` (Clopper-Pearson).

    With none lost it is ``1 - (1 - confidence) ** (1 / trials)``, about 3 / trials at 95%.
    """
    if trials <= 0:
        return 1.0
    if lost >= trials:
        return 1.0

    def at_most_lost(rate: float) -> float:  # P(X <= lost) for X ~ Binomial(trials, rate)
        return sum(
            math.exp(
                math.lgamma(trials + 1)
                - math.lgamma(k + 1)
                - math.lgamma(trials - k + 1)
                + k * math.log(rate)
                + (trials - k) * math.log1p(-rate)
            )
            for k in range(lost + 1)
        )

    low, high = lost / trials, 1.0
    for _ in range(60):  # bisection: the rate at which seeing so few losses has become unlikely
        middle = (low + high) / 2
        low, high = (middle, high) if at_most_lost(middle) > 1 - confidence else (low, middle)
    return high


def games_for(replies: int, concurrency: int, turns: int) -> int:
    """Games that give at least ``replies`` turn replies if none is lost, in whole waves of ``concurrency``."""
    per_game = 2 * (turns - PREGAME_REPLIES)
    waves = max(1, math.ceil(replies / per_game / concurrency))
    return waves * concurrency


def percentile(values: list[float], share: float) -> float:
    """The value below which ``share`` of ``values`` lie (nearest rank)."""
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, round(share * len(ordered)) - 1))] if ordered else float("nan")


def measure(path: Path, limit_ms: int) -> dict[str, Any]:
    """Play one league and sum up its timeouts, charged times and speed."""
    league = load_league(path)
    summary = run_league(league, fresh=True)
    store = ResultStore(league.output / "games.jsonl")
    records = store.records()
    details = store.details(record.game_id for record in records)
    charged: list[float] = []
    cpus: set[str] = set()
    for detail in details.values():
        seen: dict[int, int] = {}
        for seat, _role, _reply, elapsed_ms, *_ in detail.get("moves", []):  # fault, then its event unless a line
            seen[seat] = seen.get(seat, 0) + 1
            if seen[seat] > PREGAME_REPLIES:
                charged.append(elapsed_ms / limit_ms)
        for tail in detail.get("stderr", []):
            cpus |= {line.removeprefix("cpus ") for line in tail["text"].splitlines() if line.startswith("cpus ")}
    lost = sum(record.result.termination == "TIMEOUT" for record in records)
    infra = sum(record.result.termination == "INFRA_ERROR" for record in records)
    return {
        "games": len(records),
        "lost": lost,
        "infra": infra,
        "replies": len(charged),
        "charged": charged,
        "seconds": summary.seconds,
        "cpus": " | ".join(sorted(cpus, key=lambda text: (len(text), text))),
    }


def warm_workers(count: int) -> None:
    """Start ``count`` Ray workers at once and import the worker's modules in each."""

    def warm() -> None:
        import league.cluster.worker  # noqa: F401 - the import is the warming

        time.sleep(1.0)  # held, so that every task gets a worker of its own

    task = ray.remote(num_cpus=1)(warm)
    ray.get([task.remote() for _ in range(count)])


def row(clock: str, pin: bool, concurrency: int, result: dict[str, Any]) -> str:
    charged = result["charged"]
    replies = max(1, result["replies"])
    shares = "/".join(f"{100 * value:.0f}" for value in (statistics.median(charged or [0]), percentile(charged, 0.99)))
    peak = f"{100 * max(charged or [0]):.0f}"
    seconds = max(result["seconds"], 1e-9)
    bound = 1000 * upper_bound(result["lost"], result["replies"])
    return (
        f"  {clock:5} {'on' if pin else 'off':4} {concurrency:11d} {result['games']:6d} {result['replies']:7d}"
        f" {result['lost']:5d} ({100 * result['lost'] / max(1, result['games']):3.0f}%)"
        f" {1000 * result['lost'] / replies:10.1f} {bound:9.1f} {shares + '/' + peak:>16}"
        f" {result['games'] / seconds:7.2f} {result['replies'] / seconds:9.1f}   {result['cpus']}"
        + (f"  ({result['infra']} failed for reasons of ours)" if result["infra"] else "")
    )


def machine_line() -> str:
    model = ""
    try:
        model = next(
            line.split(":", 1)[1].strip()
            for line in Path("/proc/cpuinfo").read_text().splitlines()
            if line.startswith("model name")
        )
    except (OSError, StopIteration):
        pass
    quota = cgroup_cpu_quota()
    return (
        f"machine: {usable_cores()} usable cores (CPUs {','.join(map(str, available_cpus()))} of {os.cpu_count()};"
        f" cgroup quota {'none' if quota is None else f'{quota:g}'}) {model}; load average {os.getloadavg()[0]:.2f}"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="short games, one wave of games a setting (~25 s)")
    parser.add_argument("--turns", type=int, default=None, help="turns per player (default 25; quick 4)")
    parser.add_argument(
        "--replies",
        type=int,
        default=None,
        help="turn replies a setting at least, at the usable cores and above (default 1000; quick: one wave)",
    )
    parser.add_argument("--limit-ms", type=int, default=100, help="turn_time_ms (default 100)")
    parser.add_argument("--share", type=float, default=0.8, help="share of the limit bots compute (default 0.8)")
    args = parser.parse_args()
    args.turns = args.turns or (4 if args.quick else 25)
    replies = args.replies if args.replies is not None else (1 if args.quick else 1000)
    cores = usable_cores()
    levels = sorted({1, cores, 2 * cores})
    spin_ms = round(args.limit_ms * args.share)
    print(
        f"fairness: versus2048, {args.turns} turns a player, turn_time_ms {args.limit_ms}; both bots busy-compute"
        f" {spin_ms} ms of CPU a turn (seats alternate: one core busy a game); "
        + (
            "one wave of games a setting"
            if args.quick
            else f"games for at least {replies:,} turn replies a setting ({max(1, replies // 4):,} at concurrency 1)"
        )
    )
    print(machine_line())
    folder = Path(tempfile.mkdtemp(prefix="league-fairness-"))
    started = time.monotonic()
    start_ray(max(levels), address=None, working_dir=None)  # the embedded cluster of `league run`
    try:
        warm_workers(max(levels))
        print(
            "  clock pin  concurrency  games replies  lost on time  /1000 replies  95% up to  charged % p50/p99/max"
            "  games/s  replies/s  bot CPUs"
        )
        speed: dict[tuple[str, int], float] = {}
        for clock in ("wall", "own", "cpu"):
            for pin in (False, True):
                for concurrency in levels:
                    full = concurrency >= cores or clock == "own"  # the default clock: every level in full
                    wanted = replies if full else max(1, replies // 4)
                    games = games_for(wanted, concurrency, args.turns)
                    path = league_file(folder, clock, pin, concurrency, games, args)
                    result = measure(path, args.limit_ms)
                    print(row(clock, pin, concurrency, result), flush=True)
                    if not pin:
                        speed[clock, concurrency] = result["games"] / max(result["seconds"], 1e-9)
        must_lose = max(4, cores) if args.quick else 20
        print("  clock: own must still time out (every game lost at its first turn):")
        for label, script, concurrency in (("sleeps 120%", "v2048_slow.py", cores), ("computes 120%", None, 1)):
            path = league_file(folder, "own", False, concurrency, must_lose, args, script or "v2048_spinner.py", 1.2)
            result = measure(path, args.limit_ms)
            print(
                f"    a bot that {label} of its limit, concurrency {concurrency}:"
                f" lost {result['lost']} of {result['games']}"
            )
    finally:
        ray.shutdown()
        shutil.rmtree(folder, ignore_errors=True)
    for clock in ("own", "wall"):
        default = default_concurrency(1, clock)
        games_per_s = speed.get((clock, default))
        shown = f"{games_per_s:.2f} games/s" if games_per_s is not None else "not measured"
        print(f"  default concurrency under clock: {clock}: {default} (one bot thinking a game): {shown}")
    own_speed, wall_speed = (
        speed.get(("own", default_concurrency(1, "own"))),
        speed.get(("wall", default_concurrency(1, "wall"))),
    )
    if own_speed and wall_speed:
        print(f"  league throughput gained by the own clock's default: {own_speed / wall_speed:.2f}x")
    print(f"  ({time.monotonic() - started:.0f} s in all; load average now {os.getloadavg()[0]:.2f})")


if __name__ == "__main__":
    main()
