"""League throughput with program bots: 1, 2 and all cores, the jail on and off, in one run.

Run ``.venv/bin/python benchmarks/program_throughput.py [--games N] [--repeats R] [--figures FILE]`` from the
repository root, as root with bubblewrap installed for the jail (without it the jailed runs are
skipped and say why).

The bots are two copies of ``tests/bots/v2048_bot.c`` (a versus2048 bot in C: first effective
slide, one tile on the first empty cell; compiled into ``benchmarks/_build/``), so a game is
mostly the league's own work: two launches, the fair start-up wait (sandbox/startup.py), the
referee's plies and Ray's task. The same league (versus2048, 50 turns a player, ``games_per_pair``
N) is played by ``league.cluster.runner.run_league`` on an embedded Ray cluster of 1, 2 and all usable
cores (``concurrency`` the same; the workers are started and have imported the league's modules
before the clock runs), each with ``sandbox: none`` (the baseline) and ``sandbox: auto`` (the
jail). With ``--repeats R`` each core count plays its leagues R times, jail off and on
interleaved, so that load on the machine hits both alike. Printed per setting: games per second
(the median of its runs, and their range); then the jail's cost per game (the difference of the
seconds per game, each run beside its neighbour; one below zero is noise, and said so) and each
core count's games per second beside 1 core's. Figures to read, never pass/fail; run it on an
otherwise idle machine.
"""

from __future__ import annotations

import argparse
import os
import shutil
import statistics
import subprocess
import tempfile
import time
from pathlib import Path

import ray
import yaml
from figures import HIGHER, Figure, write_figures

from league.cluster.runner import run_league
from league.plan.config import load_league
from sandbox.jail import jail_problem

ROOT = Path(__file__).resolve().parents[1]
BUILD = ROOT / "benchmarks" / "_build"
TURNS = 50


def build_bot() -> Path:
    """Compile the C bot into benchmarks/_build/ (readable by the jail's unprivileged uids)."""
    BUILD.mkdir(exist_ok=True)
    binary = BUILD / "v2048_bot"
    subprocess.run(["gcc", "-O2", "-o", str(binary), str(ROOT / "tests" / "bots" / "v2048_bot.c")], check=True)
    return binary


def league_file(folder: Path, bot: Path, games: int, cores: int, sandbox: str) -> Path:
    """A league of ``games`` games between two copies of the C bot."""
    name = f"programs-{cores}-{sandbox}"
    config = {
        "name": name,
        "game": "versus2048",
        "variants": {"v": {"turns_per_player": TURNS}},
        "bots": [{"name": seat, "command": [f"./{bot.name}"], "cwd": str(bot.parent)} for seat in ("c_a", "c_b")],
        "games_per_pair": games,
        "seed": 13,
        "concurrency": cores,
        "sandbox": sandbox,
        "output": str(folder / name),
    }
    path = folder / f"{name}.yaml"
    path.write_text(yaml.safe_dump(config))
    return path


def warm_worker() -> None:
    """Import what a game needs, so that no worker's first game pays for it."""
    import league.cluster.worker  # noqa: F401

    time.sleep(1.0)  # held, so that every core's task starts a worker of its own


def games_per_second(path: Path) -> tuple[float, int]:
    """Play the league on the running Ray cluster.

    Returns:
        Games per second, and the games played.
    """
    league = load_league(path)
    started = time.perf_counter()
    summary = run_league(league, fresh=True)  # fresh: a repeat plays every game again
    seconds = time.perf_counter() - started
    if summary.infra_errors or summary.played != summary.total:
        raise RuntimeError(f"{path.name}: {summary.played} of {summary.total} games stored: {summary.infra_detail}")
    return summary.played / seconds, summary.played


def core_counts() -> list[int]:
    """1, 2 and all usable cores, each once."""
    usable = len(os.sched_getaffinity(0))
    return sorted({1, min(2, usable), usable})


def spread(values: list[float], digits: int = 2) -> str:
    """The median, and the range over the repeats where there are several."""
    middle = f"{statistics.median(values):.{digits}f}"
    return middle if len(values) == 1 else f"{middle} ({min(values):.{digits}f} to {max(values):.{digits}f})"


NOISE = "below zero: below measurement noise, the machine's load swamped the difference"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=40, help="games_per_pair of each setting's league (default 40)")
    parser.add_argument("--repeats", type=int, default=1, help="interleaved runs of each setting (default 1)")
    parser.add_argument("--figures", type=Path, help="also write the figures to this JSON file")
    args = parser.parse_args()
    repeats = max(1, args.repeats)
    bot = build_bot()
    problem = jail_problem()
    sandboxes = ["none"] + (["auto"] if problem is None else [])
    how = f"{repeats} interleaved runs of each (medians; range in brackets)" if repeats > 1 else "one run of each"
    print(f"program_throughput: two C bots, versus2048 of {TURNS} turns a player, {args.games} games a pair; {how}")
    if problem:
        print(f"  the jail is not available here, jailed runs skipped: {problem}")
    folder = Path(tempfile.mkdtemp(prefix="program-throughput-"))
    rates: dict[tuple[int, str], list[float]] = {}
    try:
        for cores in core_counts():
            ray.init(address="local", num_cpus=cores, include_dashboard=False, log_to_driver=False)
            try:
                ray.get([ray.remote(warm_worker).remote() for _ in range(cores)])
                for _ in range(repeats):  # jail off, on, off, on: load on the machine hits both alike
                    for sandbox in sandboxes:
                        rate, _played = games_per_second(league_file(folder, bot, args.games, cores, sandbox))
                        rates.setdefault((cores, sandbox), []).append(rate)
                for sandbox in sandboxes:
                    jail = "jail" if sandbox == "auto" else "no jail"
                    print(f"  {cores} core(s), {jail:7}: {spread(rates[cores, sandbox])} games/s", flush=True)
            finally:
                ray.shutdown()
    finally:
        shutil.rmtree(folder, ignore_errors=True)
    figures = []
    note = f"median of {repeats} interleaved runs of {args.games} games" if repeats > 1 else f"{args.games} games"
    one_core = statistics.median(rates[1, "none"])
    for cores in core_counts():
        plain = statistics.median(rates[cores, "none"])
        if (cores, "auto") in rates:
            jailed = statistics.median(rates[cores, "auto"])
            pairs = zip(rates[cores, "auto"], rates[cores, "none"], strict=True)
            costs = [1000 * (1 / on - 1 / off) for on, off in pairs]  # each run beside its neighbour
            cost = statistics.median(costs)
            print(
                f"  the jail's cost per game on {cores} core(s): {spread(costs, 1)} ms"
                + (f"  ({NOISE})" if cost < 0 else "")
            )
            figures.append(
                Figure(
                    "league",
                    f"program bots, jail on, {cores} core(s)",
                    jailed,
                    "games/s",
                    plain,
                    "the same league, jail off",
                    better=HIGHER,
                    note=note + (f"; the jail's cost {NOISE}" if cost < 0 else ""),
                )
            )
        if cores > 1:
            print(f"  {cores} cores against 1, no jail: {plain / one_core:.2f} x")
            figures.append(
                Figure(
                    "league",
                    f"program bots, jail off, {cores} cores",
                    plain,
                    "games/s",
                    one_core,
                    "the same league on 1 core",
                    better=HIGHER,
                    note=note,
                )
            )
    if args.figures:
        write_figures(args.figures, figures)


if __name__ == "__main__":
    main()
