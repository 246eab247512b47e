"""How fast ``league report`` is on big leagues: the split store against the old single file.

Run ``.venv/bin/python benchmarks/report_speed.py [--games 10000 100000] [--profile]`` from the
repository root. All figures come from one run on one machine, so their ratios mean something.

1. **A real pool**: a few dozen versus2048 games of the quickstart's kind (200 turns per player,
   built-in bots) are played in this process through ``league.cluster.worker.play_game``, on both rule
   variants (the 5x5 board and a 4x4 one), so replies, game lengths, scores and timings are real.
2. **Synthetic leagues**: a round robin of 8 bots on those 2 variants is scheduled by the real
   scheduler (``league.cluster.runner.schedule``, the manifest ``league run`` writes included), with
   ``games_per_pair`` set to give about 10,000 or 100,000 games. Each scheduled game gets a pool
   game of its variant with about 5% of its replies swapped for other real replies (so every game
   is distinct), an outcome drawn from fixed bot strengths, and 1% of games a timeout fault with
   a stderr tail. Every league is written twice: through the store (``ResultStore.extend``: the
   results in ``games.jsonl``, the moves in ``moves.jsonl``) and in the old single-file format
   (whole records, moves inside, one a line in ``games.jsonl``: the baseline, read by the same code).
3. **The report**: ``python -m league report DIR`` (the real CLI path, bootstrap included) runs
   in a subprocess on each folder; its wall time and its own peak memory (``os.wait4``'s
   ``ru_maxrss``) are printed with the targets (100,000 games: under 30 s and 1.5 GB; 10,000
   games: under 5 s), and whether both formats gave the same tables and Markdown report.
   The files were just written, so they are in the page cache for both formats alike.

``--profile`` also runs the report of each split-format league under cProfile and prints the
functions that cost most (cumulative and own time).
"""

from __future__ import annotations

import argparse
import cProfile  # noqa: F401 - run as ``python -m cProfile`` below; imported to fail early where missing
import json
import os
import platform
import pstats
import random
import shutil
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import yaml

from league.cluster.runner import schedule
from league.cluster.worker import LeagueSetup, play_game
from league.plan.config import load_league
from league.plan.manifest import write_manifest
from league.plan.seed import league_seed
from league.store.results import ResultStore

ROOT = Path(__file__).resolve().parents[1]
VARIANTS = {"default": {"turns_per_player": 200}, "board4": {"turns_per_player": 200, "board_size": 4}}
BOTS = [
    {"name": "random", "builtin": "versus2048.random"},
    {"name": "greedy", "builtin": "versus2048.greedy"},
    {"name": "minimax", "builtin": "versus2048.minimax"},
    {"name": "minimax-d1", "builtin": "versus2048.minimax", "params": {"depth": 1}},
    {"name": "minimax-c2", "builtin": "versus2048.minimax", "params": {"cells": 2}},
    {"name": "minimax-m0", "builtin": "versus2048.minimax", "params": {"mobility_weight": 0}},
    {"name": "minimax-m32", "builtin": "versus2048.minimax", "params": {"mobility_weight": 32}},
    {"name": "minimax-deep", "builtin": "versus2048.minimax", "params": {"depth": 3, "max_nodes": 4000}},
]
STRENGTH = {bot["name"]: 60.0 * place for place, bot in enumerate(BOTS)}
"""Elo-like strength of each bot: who wins a synthetic game is drawn from these."""
PAIRINGS = len(BOTS) * (len(BOTS) - 1) // 2 * len(VARIANTS)
POOL_GAMES = 12
"""Real games played per variant (random, greedy and minimax against each other)."""
FAULT_SHARE = 0.01
SWAPPED_SHARE = 0.05
TARGETS = {10_000: (5.0, None), 100_000: (30.0, 1.5)}
"""Games -> (seconds, GB) the split store must stay under."""


def play_pool() -> dict[str, list[dict[str, Any]]]:
    """Per variant, real game records as the worker stores them."""
    names = ("random", "greedy", "minimax")
    setup = LeagueSetup(game="versus2048", variants=VARIANTS, bots={b["name"]: b for b in BOTS if b["name"] in names})
    pool: dict[str, list[dict[str, Any]]] = {variant: [] for variant in VARIANTS}
    for variant in VARIANTS:
        for game in range(POOL_GAMES):
            seats = [names[game % 3], names[(game // 3 + game + 1) % 3]]
            spec = {"game_id": f"pool{game}", "index": game, "league": "pool", "variant": variant, "seats": seats}
            pool[variant].append(play_game({**spec, "seed": 1000 + game, "round": 0}, setup))
    return pool


class Synthesiser:
    """Game records for scheduled games, made from a pool of real ones (seeded: the same every run).

    Args:
        pool: Per variant, real records.
    """

    def __init__(self, pool: dict[str, list[dict[str, Any]]]) -> None:
        self.pool = pool
        self.rng = random.Random(2018)
        self.replies = {
            v: [[m for r in games for m in r["moves"] if m[0] == s] for s in (0, 1)] for v, games in pool.items()
        }

    def record(self, spec: dict[str, Any]) -> dict[str, Any]:
        """A record for ``spec`` shaped as ``league.cluster.worker.play_game`` returns it."""
        rng, variant = self.rng, spec["variant"]
        base = rng.choice(self.pool[variant])
        moves = list(base["moves"])
        for _ in range(max(1, int(len(moves) * SWAPPED_SHARE))):
            at = rng.randrange(2, len(moves))  # the two pre-game placements stay
            moves[at] = rng.choice(self.replies[variant][moves[at][0]])
        edge = STRENGTH[spec["seats"][0]] - STRENGTH[spec["seats"][1]]
        winner = 0 if rng.random() < 1 / (1 + 10 ** (-edge / 400)) else 1
        loser, turn = 1 - winner, len(moves) // 2
        scores = sorted(base["result"]["scores"], reverse=True)
        result = {
            "scores": scores if winner == 0 else scores[::-1],
            "ranks": [1, 2] if winner == 0 else [2, 1],
            "termination": "NORMAL",
            "offenders": [],
            "reason_code": "CANNOT_MOVE_AT_MAIN",
            "detail": f"seat {loser} cannot move at the start of turn {turn}",
            "plies": len(moves),
            "extra": {"winner": winner, "reason": "CANNOT_MOVE_AT_MAIN", "turn": turn},
            "winner": winner,
        }
        stderr: list[dict[str, Any]] = []
        if rng.random() < FAULT_SHARE:
            code = "TURN_TIME_LIMIT_EXCEEDED_AT_MAIN_OR_ATTACK"
            moves[-1] = [loser, "play", "", 1001, code]
            result |= {"termination": "TIMEOUT", "offenders": [loser], "reason_code": code}
            result["detail"] = f"seat {loser} took 1001 ms on turn {turn}, over the turn limit of 1000 ms"
            stderr = [{"seat": loser, "role": "play", "epoch": 0, "text": "searching depth 9\n" * 40}]
        used = [sum(m[3] for m in moves if m[0] == seat) for seat in (0, 1)]
        return {
            "game_id": spec["game_id"],
            "spec": spec,
            "result": result,
            "time_used_ms": used,
            "moves": moves,
            "stderr": stderr,
            "worker": f"node{spec['index'] % 4}:{4100 + spec['index'] % 7}",
        }


def make_league(root: Path, games: int, pool: dict[str, list[dict[str, Any]]]) -> tuple[Path, Path, int]:
    """Write a league of about ``games`` games in both formats; returns the two folders and the games written."""
    split, single = root / f"split{games}", root / f"single{games}"
    config = {
        "name": f"speed{games}",
        "game": "versus2048",
        "variants": VARIANTS,
        "bots": BOTS,
        "format": "round_robin",
        "games_per_pair": max(2, 2 * round(games / PAIRINGS / 2)),
        "seed": 7,
        "output": str(split),
    }
    path = root / f"speed{games}.yaml"
    path.write_text(yaml.safe_dump(config, sort_keys=False))
    league = load_league(path)
    specs = schedule(league)
    split.mkdir()
    single.mkdir()
    write_manifest(league, league_seed(league), specs)
    shutil.copy(split / "league.json", single / "league.json")
    synthesiser = Synthesiser(pool)
    store = ResultStore(split / "games.jsonl")
    with (single / "games.jsonl").open("wb") as old:
        for chunk in _chunks((synthesiser.record(spec.to_json()) for spec in specs), 1000):
            old.write(b"".join(json.dumps(r, separators=(",", ":")).encode() + b"\n" for r in chunk))
            store.extend(chunk)
    store.close()
    return split, single, len(specs)


def _chunks(records: Iterator[dict[str, Any]], size: int) -> Iterator[list[dict[str, Any]]]:
    chunk: list[dict[str, Any]] = []
    for record in records:
        chunk.append(record)
        if len(chunk) == size:
            yield chunk
            chunk = []
    if chunk:
        yield chunk


def timed_report(folder: Path) -> tuple[float, float]:
    """(wall seconds, peak resident GB) of ``league report folder`` in its own process."""
    log = folder / "report.log"
    with log.open("wb") as out:
        started = time.monotonic()
        child = subprocess.Popen(
            [sys.executable, "-m", "league", "report", str(folder)], cwd=ROOT, stdout=out, stderr=out
        )
        _, status, usage = os.wait4(child.pid, 0)
        seconds = time.monotonic() - started
    child.returncode = os.waitstatus_to_exitcode(status)
    if child.returncode != 0:
        sys.exit(f"league report {folder} failed ({child.returncode}): {log.read_text()[-2000:]}")
    return seconds, usage.ru_maxrss / 2**20  # ru_maxrss is in KB on Linux


def same_report(one: Path, other: Path) -> bool:
    """Whether two folders' tables and Markdown reports are byte for byte the same."""
    names = sorted(p.name for p in one.iterdir() if p.suffix in (".csv", ".md"))
    return bool(names) and all((one / n).read_bytes() == (other / n).read_bytes() for n in names)


def profile(folder: Path, lines: int) -> None:
    """Run the report under cProfile and print what costs most."""
    output = folder / "report.prof"
    command = [sys.executable, "-m", "cProfile", "-o", str(output), "-m", "league", "report", str(folder)]
    subprocess.run(command, cwd=ROOT, check=True, stdout=subprocess.DEVNULL)
    stats = pstats.Stats(str(output))
    print(f"\nprofile of `league report` on {folder.name} (cumulative):")
    stats.sort_stats("cumulative").print_stats(r"league|json|pandas/io|matplotlib/figure", lines)
    print(f"profile of `league report` on {folder.name} (own time):")
    stats.sort_stats("tottime").print_stats(lines)


def machine() -> str:
    """Cores, memory and CPU of this machine, in a line."""
    memory = next(line for line in Path("/proc/meminfo").read_text().splitlines() if line.startswith("MemTotal"))
    model = next(
        (
            line.split(":", 1)[1].strip()
            for line in Path("/proc/cpuinfo").read_text().splitlines()
            if "model name" in line
        ),
        platform.processor(),
    )
    gigabytes = int(memory.split()[1]) / 2**20
    return f"{os.cpu_count()} cores ({model}), {gigabytes:.0f} GB RAM, Python {platform.python_version()}"


def main() -> None:
    """Generate the leagues, time the reports, print the table."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, nargs="+", default=[10_000, 100_000], help="league sizes")
    parser.add_argument("--profile", action="store_true", help="profile the report of each split-format league")
    parser.add_argument("--keep", type=Path, help="write the leagues here and keep them (default: a temporary folder)")
    parser.add_argument("--lines", type=int, default=25, help="profile lines to print")
    args = parser.parse_args()
    print(f"machine: {machine()}")
    started = time.monotonic()
    pool = play_pool()
    moves = [len(r["moves"]) for games in pool.values() for r in games]
    print(
        f"pool: {len(moves)} real games played in {time.monotonic() - started:.1f} s, {min(moves)}-{max(moves)} moves"
    )
    root = args.keep or Path(tempfile.mkdtemp(prefix="report_speed_"))
    root.mkdir(parents=True, exist_ok=True)
    rows = []
    try:
        for games in args.games:
            started = time.monotonic()
            split, single, count = make_league(root, games, pool)
            size = {folder: sum(p.stat().st_size for p in folder.glob("*.jsonl")) / 2**20 for folder in (split, single)}
            print(f"{count} games written in both formats in {time.monotonic() - started:.1f} s")
            figures = {folder: timed_report(folder) for folder in (split, single)}
            same = same_report(split, single)
            seconds_target, memory_target = TARGETS.get(games, (None, None))
            for folder, label in ((split, "split (new)"), (single, "single file (old)")):
                seconds, peak = figures[folder]
                target = " ".join(
                    f"{'ok' if value < limit else 'MISSED'} <{limit:g}{unit}"
                    for value, limit, unit in ((seconds, seconds_target, " s"), (peak, memory_target, " GB"))
                    if limit is not None and folder == split
                )
                rows.append((count, label, size[folder], seconds, peak, target))
            print(f"same tables and report.md from both formats: {'yes' if same else 'NO'}")
            if args.profile:
                profile(split, args.lines)
    finally:
        if args.keep is None:
            shutil.rmtree(root, ignore_errors=True)
    print(f"\n{'games':>8}  {'store':<18} {'files MB':>9} {'report s':>9} {'peak GB':>8}  target")
    for count, label, megabytes, seconds, peak, target in rows:
        print(f"{count:>8}  {label:<18} {megabytes:>9.0f} {seconds:>9.1f} {peak:>8.2f}  {target}")


if __name__ == "__main__":
    main()
