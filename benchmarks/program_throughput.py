"""League throughput with program bots: 1, 2 and all cores, the jail on and off, in one run.

Run ``.venv/bin/python benchmarks/program_throughput.py [--games N] [--figures FILE]`` from the
repository root, as root with bubblewrap installed for the jail (without it the jailed runs are
skipped and say why).

The bots are two copies of ``tests/bots/v2048_bot.c`` (a versus2048 bot in C: first effective
slide, one tile on the first empty cell; compiled into ``benchmarks/_build/``), so a game is
mostly the league's own work: two launches, the fair start-up wait (sandbox/startup.py), the
referee's plies and Ray's task. The same league (versus2048, 50 turns a player, ``games_per_pair``
N) is played by ``league.runner.run_league`` on an embedded Ray cluster of 1, 2 and all usable
cores (``concurrency`` the same; the workers are started and have imported the league's modules
before the clock runs), each with ``sandbox: none`` (the baseline) and ``sandbox: auto`` (the
jail). Printed per setting: games per second; then the jail's cost per game (the difference of
the seconds per game) and each core count's games per second beside 1 core's. Figures to read,
never pass/fail; run it on an otherwise idle machine.
"""

from __future__ import annotations

import argparse
import os
import shutil
import subprocess
import tempfile
import time
from pathlib import Path

import ray
import yaml
from figures import HIGHER, Figure, write_figures

from league.config import load_league
from league.runner import run_league
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
    import league.worker  # noqa: F401

    time.sleep(1.0)  # held, so that every core's task starts a worker of its own


def games_per_second(path: Path) -> tuple[float, int]:
    """Play the league on the running Ray cluster.

    Returns:
        Games per second, and the games played.
    """
    league = load_league(path)
    started = time.perf_counter()
    summary = run_league(league)
    seconds = time.perf_counter() - started
    if summary.infra_errors or summary.played != summary.total:
        raise RuntimeError(f"{path.name}: {summary.played} of {summary.total} games stored: {summary.infra_detail}")
    return summary.played / seconds, summary.played


def core_counts() -> list[int]:
    """1, 2 and all usable cores, each once."""
    usable = len(os.sched_getaffinity(0))
    return sorted({1, min(2, usable), usable})


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=40, help="games_per_pair of each setting's league (default 40)")
    parser.add_argument("--figures", type=Path, help="also write the figures to this JSON file")
    args = parser.parse_args()
    bot = build_bot()
    problem = jail_problem()
    sandboxes = ["none"] + (["auto"] if problem is None else [])
    print(f"program_throughput: two C bots, versus2048 of {TURNS} turns a player, {args.games} games a pair")
    if problem:
        print(f"  the jail is not available here, jailed runs skipped: {problem}")
    folder = Path(tempfile.mkdtemp(prefix="program-throughput-"))
    rates: dict[tuple[int, str], float] = {}
    try:
        for cores in core_counts():
            ray.init(address="local", num_cpus=cores, include_dashboard=False, log_to_driver=False)
            try:
                ray.get([ray.remote(warm_worker).remote() for _ in range(cores)])
                for sandbox in sandboxes:
                    rates[cores, sandbox], played = games_per_second(
                        league_file(folder, bot, args.games, cores, sandbox)
                    )
                    jail = "jail" if sandbox == "auto" else "no jail"
                    print(
                        f"  {cores} core(s), {jail:7}: {rates[cores, sandbox]:7.2f} games/s ({played} games)",
                        flush=True,
                    )
            finally:
                ray.shutdown()
    finally:
        shutil.rmtree(folder, ignore_errors=True)
    figures = []
    for cores in core_counts():
        plain = rates[cores, "none"]
        if (cores, "auto") in rates:
            jailed = rates[cores, "auto"]
            cost_ms = 1000 * (1 / jailed - 1 / plain)
            print(f"  the jail's cost per game on {cores} core(s): {cost_ms:+.1f} ms")
            figures.append(
                Figure(
                    "league",
                    f"program bots, jail on, {cores} core(s)",
                    jailed,
                    "games/s",
                    plain,
                    "the same league, jail off",
                    better=HIGHER,
                )
            )
        if cores > 1:
            scaling = plain / rates[1, "none"]
            print(f"  {cores} cores against 1, no jail: {scaling:.2f} x")
            figures.append(
                Figure(
                    "league",
                    f"program bots, jail off, {cores} cores",
                    plain,
                    "games/s",
                    rates[1, "none"],
                    "the same league on 1 core",
                    better=HIGHER,
                )
            )
    if args.figures:
        write_figures(args.figures, figures)


if __name__ == "__main__":
    main()
