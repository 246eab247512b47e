"""Adaptive leagues against plain round robins: games to a settled ranking (simulated), and idle workers (on Ray).

``python benchmarks/adaptive_efficiency.py [--sizes 10 20 50] [--fields 5 5 3] [--leagues 4 4 2]
[--confidence 0.95] [--tie-elo 50] [--repeats 3] [--no-idle] [--quick] [--figures FILE]``

1. **Games to a settled ranking** (simulated: no game is played). For each size, ``--fields``
   fields of bots whose strengths are spread as in a real contest
   (``league.plan.adaptive_simulation.spread_elos``: gaps of about 60 Elo, three neighbours in ten
   near-twins within 5 Elo), each drawn from a fixed seed, and on each field ``--leagues`` times:
   an adaptive league played to its stop (``simulate_adaptive``: the league's own batches and
   stop, its units drawn from the synthetic game's model) beside the fewest ``games_per_pair`` at
   which a plain round robin, judged once at the same confidence, is settled
   (``round_robin_units``, found with hindsight on a growing grid: the comparison favours the
   round robin), each on a stream of its own. Both use the same ``AdaptiveSettings``: confidence
   0.95 and tie_elo 50 by default, since 30% of neighbours are near-twins that only a tie can
   settle and the games to prove a tie grow like 1 / (tie_elo - gap)^2: 50 Elo (a 57% score) is
   about the smallest difference a contest acts on, and keeps the hardest neighbours at a few
   thousand games a pair. The warm-up (2 games a pair) and the least batch (4 games a bot after
   the first) are the league's defaults; ``max_games`` is 20 million, so that every league settles
   (any that did not is counted). The model has a draw rate of 0.3 and a first-seat advantage of
   30 Elo. Printed per size: mean games of each, the ratio round robin / adaptive per league
   (min, mean, max), the leagues where the adaptive one played more, and the share of adaptive
   leagues that claimed any order or tie wrongly (promised: at most 1 - confidence).
2. **Idle workers at batch boundaries** (on Ray, ``--no-idle`` skips it). A real adaptive league
   of synthetic built-ins (``synthetic.model`` bots stating their Elo: outcomes drawn at almost no
   cost, each game still played by a Ray worker) on an embedded cluster of 2 CPUs with 2 workers,
   then a plain round robin of the same bots and about as many games, ``--repeats`` times
   interleaved. Its 8 bots are spread as above with gaps of about 100 Elo, at tie_elo 100, so that
   it settles in about 8,000 games (``--quick``: capped at 4,000). Stored records name their
   worker but carry no start or end time, so the games' times are Ray's own: ``ray.timeline()``'s
   events of each ``GameWorker.play`` call (start, duration, worker). A run's idle share is
   1 - (time inside ``play``, both workers) / (2 x the time from the first game's start to the
   last game's end), beside the round robin's; the idle that batch boundaries hold is the time in
   workers' gaps between games that span a moment the driver had taken a batch (``run_league``'s
   ``on_run``), beside what as many moments drawn at random in the same run would find
   (a moment falls in a gap of length g with chance g / window). Workers are killed as a league
   ends, so the events of its last moments never reach Ray (reported every 100 ms here, not
   Ray's 1 s): the window ends at the last game reported, and the games reported are printed
   beside those stored (a game cancelled on a busy worker and played by an idle one may be played
   twice). These games take a few milliseconds inside a worker, about what the driver spends on
   each (it stores what comes back, fsynced, and an adaptive league's driver also feeds its
   batches), so the workers wait for the driver much of the time in both designs.

The simulated figures do not depend on the machine's load; the idle shares do (the driver, the 2
workers and Ray share the cores with whatever else runs). ``--figures FILE`` writes the figures as
JSON for ``benchmarks/run_all.py``.
"""

from __future__ import annotations

import argparse
import itertools
import logging
import math
import os
import shutil
import statistics
import sys
import tempfile
import time
from collections import defaultdict
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from benchmarks.figures import Figure, write_figures  # noqa: E402
from league.plan.adaptive_batches import STOP_CAPPED, AdaptiveSettings  # noqa: E402
from league.plan.adaptive_simulation import Model, round_robin_units, simulate_adaptive, spread_elos  # noqa: E402

AREA = "statistics"
"""The table of ``benchmarks/RESULTS.md`` these figures go in."""
DRAW_RATE, FIRST_SEAT_ELO = 0.3, 30.0
"""The model's draw rate between equals and first-seat advantage (the synthetic game's variant keys)."""
MAX_UNITS = 10_000_000
"""An adaptive league's cap in units (20 million games): far above what any field here needs."""
MOST_ROUND_ROBIN_UNITS = 100_000
"""The most units a pair the round robin's search tries (200,000 games a pair)."""
TARGET_SIZE, TARGET_RATIO = 20, 3.0
"""The issue's target: at 20 bots, the round robin plays at least 3 times the adaptive league's games."""
WORKERS = 2
IDLE_BOTS, IDLE_GAP, IDLE_TIE_ELO, IDLE_FIELD_SEED = 8, 100.0, 100.0, 1
"""The Ray league's field (``spread_elos`` with this gap and seed) and its tie_elo."""
EVENT_REPORT_MS = "100"
"""How often a Ray worker reports its calls' events (Ray's default is 1000 ms)."""


def field_elos(bots: int, field: int, seed: int) -> dict[str, float]:
    """The true strengths of field ``field`` of ``bots`` bots (the same for every run of the same seed)."""
    return spread_elos(bots, np.random.default_rng([seed, bots, field]))


@dataclass(frozen=True)
class Comparison:
    """One adaptive league beside one round robin on the same field.

    Attributes:
        field: Which field of its size.
        adaptive_games: The adaptive league's games (those its claims rest on).
        capped: Whether it stopped at its cap rather than settled.
        any_wrong: Whether it claimed any order or tie that is false.
        round_robin_games: The round robin's games at its fewest settled games per pair (None: none
            up to ``MOST_ROUND_ROBIN_UNITS``).
    """

    field: int
    adaptive_games: int
    capped: bool
    any_wrong: bool
    round_robin_games: int | None


def compare(bots: int, fields: int, leagues: int, confidence: float, tie_elo: float, seed: int) -> list[Comparison]:
    """``leagues`` adaptive leagues and round robins on each of ``fields`` fields of ``bots`` bots."""
    # The league's default warm-up (a unit a pair) and least batch (2 units a bot after the first).
    settings = AdaptiveSettings(confidence, tie_elo, warmup_units=1, batch_units=2 * (bots - 1), max_units=MAX_UNITS)
    pairs = bots * (bots - 1) // 2
    found = []
    for field in range(fields):
        model = Model(field_elos(bots, field, seed), DRAW_RATE, FIRST_SEAT_ELO)
        for league in range(leagues):
            adaptive_stream, round_robin_stream = np.random.SeedSequence([seed, bots, field, league]).spawn(2)
            adaptive = simulate_adaptive(model, settings, np.random.default_rng(adaptive_stream))
            units = round_robin_units(
                model, settings, np.random.default_rng(round_robin_stream), MOST_ROUND_ROBIN_UNITS
            )
            found.append(
                Comparison(
                    field,
                    2 * adaptive.units,
                    adaptive.stop == STOP_CAPPED,
                    adaptive.any_wrong,
                    None if units is None else 2 * units * pairs,
                )
            )
    return found


def field_line(bots: int, field: int, seed: int, tie_elo: float, comparisons: list[Comparison]) -> str:
    """A field's shape and its leagues' games, for people."""
    elos = list(field_elos(bots, field, seed).values())
    gaps = [upper - lower for upper, lower in zip(elos, elos[1:], strict=False)]
    twins = sum(gap < 5 for gap in gaps)
    close = sum(5 <= gap < tie_elo for gap in gaps)
    ours = [c for c in comparisons if c.field == field]
    adaptive = ", ".join(f"{c.adaptive_games:,}" for c in ours)
    round_robin = ", ".join(f"{c.round_robin_games:,}" if c.round_robin_games else "unsettled" for c in ours)
    return (
        f"    field {field}: {elos[0] - elos[-1]:.0f} Elo from top to bottom, {twins} near-twin neighbours (< 5 Elo),"
        f" {close} 5 to {tie_elo:g} Elo apart; games adaptive {adaptive}; round robin {round_robin}"
    )


def size_figures(bots: int, comparisons: list[Comparison], confidence: float, fields: int) -> list[Figure]:
    """A size's figures: mean games beside the round robin's, leagues where adaptive played more, wrong claims."""
    settled = [c for c in comparisons if c.round_robin_games is not None]
    ratios = [(c.round_robin_games or 0) / c.adaptive_games for c in settled]
    more = sum(c.adaptive_games > (c.round_robin_games or math.inf) for c in comparisons)
    wrong = sum(c.any_wrong for c in comparisons)
    capped = sum(c.capped for c in comparisons)
    name = f"adaptive league, {bots} bots ({fields} fields x {len(comparisons) // fields} leagues, simulated)"
    note = (
        f"round robin / adaptive per league: min {min(ratios, default=0):.2f}, mean"
        f" {statistics.fmean(ratios or [0]):.2f}, max {max(ratios, default=0):.2f} x; adaptive leagues capped"
        f" {capped}; round robins unsettled at {2 * MOST_ROUND_ROBIN_UNITS:,} games a pair"
        f" {len(comparisons) - len(settled)}"
    )
    target = 1 / TARGET_RATIO if bots == TARGET_SIZE else None
    allowed = 1 - confidence
    error = math.sqrt(allowed * (1 - allowed) / len(comparisons))
    return [
        Figure(
            AREA,
            f"{name}: mean games to a settled ranking",
            statistics.fmean(c.adaptive_games for c in settled) if settled else None,
            "games",
            baseline=statistics.fmean(c.round_robin_games or 0 for c in settled) if settled else None,
            baseline_name="the fewest games_per_pair of a plain round robin settled at the same confidence",
            target=target,
            target_of_ratio=target is not None,
            note=note,
        ),
        Figure(
            AREA,
            f"{name}: leagues where the adaptive one played more than the round robin",
            more,
            "leagues",
            target=0,
            note=f"of {len(comparisons)}",
        ),
        Figure(
            AREA,
            f"{name}: leagues with any claim wrong",
            100 * wrong / len(comparisons),
            "%",
            baseline=100 * allowed,
            baseline_name="1 - confidence, the most promised",
            note=f"{wrong} of {len(comparisons)}; at the promise, ± {100 * error:.1f} % Monte Carlo standard error",
        ),
    ]


@dataclass(frozen=True)
class IdleRun:
    """One league on Ray, timed from its workers' calls.

    Attributes:
        played: Games it stored.
        reported: ``play`` calls Ray reported (a game cancelled on a busy worker may be played twice;
            the calls of the league's last moments are lost).
        window_s: From the first reported game's start to the last one's end.
        busy_s: Time inside ``play``, all workers together.
        longest_gap_s: The longest time a worker spent between two games.
        boundary_idle_s: Time workers spent in gaps between games that span a moment the league
            had taken a batch (0 for a round robin).
        random_idle_s: What as many moments drawn at random in the window would find so (the
            expected length of the gap a moment falls in, times the moments).
        batches: Batches the league took (0 for a round robin).
    """

    played: int
    reported: int
    window_s: float
    busy_s: float
    longest_gap_s: float
    boundary_idle_s: float = 0.0
    random_idle_s: float = 0.0
    batches: int = 0

    @property
    def idle_share(self) -> float:
        """The share of the workers' time in the window spent between games."""
        return 1 - self.busy_s / (WORKERS * self.window_s)

    def share(self, seconds: float) -> float:
        """``seconds`` of worker time as a share of the workers' time in the window."""
        return seconds / (WORKERS * self.window_s)


def idle_league_file(folder: Path, design: str, games_per_pair: int = 0, max_games: int = 0) -> Path:
    """The Ray league's file: an adaptive league of synthetic built-ins, or a round robin of the same bots."""
    import yaml

    elos = spread_elos(IDLE_BOTS, np.random.default_rng([IDLE_FIELD_SEED, IDLE_BOTS]), gap=IDLE_GAP)
    config: dict[str, Any] = {
        "name": f"idle-{design}",
        "game": "synthetic",
        "variants": {"default": {"draw_rate": DRAW_RATE, "first_seat_elo": FIRST_SEAT_ELO}},
        "bots": [
            {"name": name, "builtin": "synthetic.model", "params": {"elo": round(elo, 1)}} for name, elo in elos.items()
        ],
        "seed": 11,
        "concurrency": WORKERS,
        "output": str(folder / f"out-{design}"),
        "format": design,
    }
    if design == "adaptive":
        config |= {"adaptive": {"confidence": 0.95, "tie_elo": IDLE_TIE_ELO}, "max_games": max_games}
    else:
        config["games_per_pair"] = games_per_pair
    path = folder / f"{design}.yaml"
    path.write_text(yaml.safe_dump(config))
    return path


def play_timed(path: Path) -> IdleRun:
    """Play a league on the running Ray cluster; its games' times from ``ray.timeline()``."""
    import ray

    from league.cluster.runner import run_league
    from league.plan.config import load_league

    taken_at: list[float] = []  # when the driver took each batch (the first call: the league's start)
    started = time.time() * 1e6  # the timeline's clock: microseconds since the epoch
    summary = run_league(load_league(path), fresh=True, on_run=lambda _: taken_at.append(time.time()))
    ended = time.time() * 1e6
    time.sleep(2 * int(EVENT_REPORT_MS) / 1000 + 1)  # what the workers reported reaches Ray's store
    calls: dict[str, list[tuple[float, float]]] = defaultdict(list)
    for event in ray.timeline():
        if event.get("cat") == "task::GameWorker.play" and started <= event["ts"] <= ended:
            calls[event["tid"]].append((event["ts"] / 1e6, (event["ts"] + event["dur"]) / 1e6))
    spans = sorted(span for worker in calls.values() for span in worker)
    gaps = [
        (earlier[1], later[0]) for worker in calls.values() for earlier, later in itertools.pairwise(sorted(worker))
    ]
    first, last = spans[0][0], max(end for _, end in spans)
    boundaries = np.array(taken_at[1:])
    at_boundaries = sum(end - start for start, end in gaps if np.any((boundaries >= start) & (boundaries <= end)))
    # A moment drawn at random in the window falls in a gap of length g with chance g / window.
    at_random = len(boundaries) * sum((end - start) ** 2 for start, end in gaps) / (last - first)
    return IdleRun(
        summary.played,
        len(spans),
        last - first,
        sum(end - start for start, end in spans),
        max((end - start for start, end in gaps), default=0.0),
        at_boundaries,
        at_random,
        summary.run.tracker.batches.taken if summary.run.tracker else 0,
    )


def measure_idle(repeats: int, max_games: int) -> tuple[list[IdleRun], list[IdleRun]]:
    """The adaptive league and a round robin of about as many games, ``repeats`` times interleaved."""
    import ray

    os.environ["RAY_task_events_report_interval_ms"] = EVENT_REPORT_MS  # before Ray starts: its workers read it
    folder = Path(tempfile.mkdtemp(prefix="adaptive-idle-"))
    ray.init(
        address="local", num_cpus=WORKERS, include_dashboard=False, log_to_driver=False, logging_level=logging.ERROR
    )
    adaptive_runs: list[IdleRun] = []
    round_robin_runs: list[IdleRun] = []
    try:
        adaptive_path = idle_league_file(folder, "adaptive", max_games=max_games)
        for _ in range(repeats):  # one then the other: load on the machine hits both alike
            adaptive_runs.append(play_timed(adaptive_path))
            pairs = IDLE_BOTS * (IDLE_BOTS - 1) // 2
            per_pair = max(2, 2 * round(adaptive_runs[-1].played / pairs / 2))
            round_robin_runs.append(play_timed(idle_league_file(folder, "round_robin", games_per_pair=per_pair)))
    finally:
        ray.shutdown()
        shutil.rmtree(folder, ignore_errors=True)
    return adaptive_runs, round_robin_runs


def idle_figures(adaptive: list[IdleRun], round_robin: list[IdleRun]) -> list[Figure]:
    """The idle shares, adaptive beside round robin, and the idle at batch boundaries beside moments at random."""

    def median(runs: list[IdleRun], value: Any) -> float:
        return statistics.median(value(run) for run in runs)

    shares = [f"{100 * run.idle_share:.1f}" for run in [*adaptive, *round_robin]]
    reported = ", ".join(f"{run.reported:,} of {run.played:,}" for run in [*adaptive, *round_robin])
    where = f"adaptive league of {IDLE_BOTS} synthetic built-ins on Ray, {WORKERS} workers"
    return [
        Figure(
            AREA,
            f"workers idle from the first game to the last, {where} ({adaptive[0].played:,} games in"
            f" {adaptive[0].batches} batches; median of {len(adaptive)})",
            100 * median(adaptive, lambda run: run.idle_share),
            "%",
            baseline=100 * median(round_robin, lambda run: run.idle_share),
            baseline_name=f"a plain round robin of the same bots, {round_robin[0].played:,} games, same run",
            note=f"each run: adaptive {', '.join(shares[: len(adaptive)])} %, round robin"
            f" {', '.join(shares[len(adaptive) :])} %; a game inside play"
            f" {1000 * median(adaptive, lambda run: run.busy_s / run.reported):.1f} ms, wall time a game"
            f" {1000 * median(adaptive, lambda run: run.window_s / run.reported):.1f} ms adaptive,"
            f" {1000 * median(round_robin, lambda run: run.window_s / run.reported):.1f} ms round robin;"
            f" longest gap of a worker {1000 * median(adaptive, lambda run: run.longest_gap_s):.0f} ms adaptive,"
            f" {1000 * median(round_robin, lambda run: run.longest_gap_s):.0f} ms round robin;"
            f" play calls Ray reported, of games stored: {reported}",
        ),
        Figure(
            AREA,
            f"workers idle in gaps spanning the taking of a batch, {where} (median of {len(adaptive)})",
            100 * median(adaptive, lambda run: run.share(run.boundary_idle_s)),
            "%",
            baseline=100 * median(adaptive, lambda run: run.share(run.random_idle_s)),
            baseline_name="in gaps spanning as many moments at random in the same run (expected)",
            note="of the workers' time from the first game to the last",
        ),
    ]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--sizes", type=int, nargs="+", default=[10, 20, 50], help="bots a league (default 10 20 50)")
    parser.add_argument("--fields", type=int, nargs="+", help="fields a size (default 5 5 3; quick 2 2 1)")
    parser.add_argument("--leagues", type=int, nargs="+", help="leagues a field (default 4 4 2; quick 1 1 1)")
    parser.add_argument("--confidence", type=float, default=0.95)
    parser.add_argument("--tie-elo", type=float, default=50.0)
    parser.add_argument("--seed", type=int, default=2024)
    parser.add_argument("--repeats", type=int, help="interleaved runs of each league on Ray (default 3; quick 1)")
    parser.add_argument("--idle-max-games", type=int, default=20_000, help="the Ray league's max_games (20000)")
    parser.add_argument("--no-idle", action="store_true", help="skip the leagues on Ray")
    parser.add_argument("--quick", action="store_true", help="fewer fields and leagues, one shorter run on Ray")
    parser.add_argument("--figures", type=Path, help="also write the figures to this JSON file")
    args = parser.parse_args()
    args.fields = args.fields or ([2, 2, 1] if args.quick else [5, 5, 3])
    args.leagues = args.leagues or ([1, 1, 1] if args.quick else [4, 4, 2])
    args.repeats = args.repeats or (1 if args.quick else 3)
    if not len(args.sizes) == len(args.fields) == len(args.leagues):
        parser.error("give as many --fields and --leagues as --sizes")
    if min(args.sizes) < 2 or min(args.fields + args.leagues) < 1 or args.repeats < 1:
        parser.error("give --sizes of at least 2 and --fields, --leagues and --repeats of at least 1")
    if not (0.5 < args.confidence < 1 and args.tie_elo >= 0):
        parser.error("give --confidence between 0.5 and 1 and --tie-elo of at least 0")
    if args.idle_max_games < IDLE_BOTS * (IDLE_BOTS - 1):
        parser.error(f"give --idle-max-games of at least {IDLE_BOTS * (IDLE_BOTS - 1)} (the warm-up)")
    print(
        f"adaptive_efficiency: confidence {args.confidence:g}, tie_elo {args.tie_elo:g}; model draw rate"
        f" {DRAW_RATE:g}, first seat +{FIRST_SEAT_ELO:g} Elo; warm-up 2 games a pair, batches of 4 games a bot"
        f" after the first or more, max_games {2 * MAX_UNITS:,}; seed {args.seed}",
        flush=True,
    )
    figures: list[Figure] = []
    for bots, fields, leagues in zip(args.sizes, args.fields, args.leagues, strict=True):
        started = time.perf_counter()
        comparisons = compare(bots, fields, leagues, args.confidence, args.tie_elo, args.seed)
        print(f"  {bots} bots, {fields} fields x {leagues} leagues ({time.perf_counter() - started:.0f} s):")
        for field in range(fields):
            print(field_line(bots, field, args.seed, args.tie_elo, comparisons))
        found = size_figures(bots, comparisons, args.confidence, fields)
        games, more, wrong = found
        ratio = f"{games.baseline / games.value:.2f}" if games.value and games.baseline else "?"
        print(
            f"    mean games: adaptive {games.value or 0:,.0f}, round robin {games.baseline or 0:,.0f}"
            f" ({ratio} x); {games.note}; adaptive played more in {more.value:g} {more.note};"
            f" any claim wrong in {wrong.note.split(';')[0]}",
            flush=True,
        )
        figures += found
    if not args.no_idle:
        started = time.perf_counter()
        load = os.getloadavg()[0]
        adaptive, round_robin = measure_idle(args.repeats, 4_000 if args.quick else args.idle_max_games)
        found = idle_figures(adaptive, round_robin)
        for figure in found:
            print(f"  {figure.name}: {figure.value:.1f} %, beside {figure.baseline:.1f} % ({figure.baseline_name});")
            print(f"    {figure.note}")
        print(
            f"  ({time.perf_counter() - started:.0f} s; load average {load:.2f} before, {os.getloadavg()[0]:.2f} after)"
        )
        figures += found
    if args.figures:
        write_figures(args.figures, figures)


if __name__ == "__main__":
    main()
