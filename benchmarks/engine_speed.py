"""How fast the engine and the referee are: figures to read, never pass/fail.

Run ``.venv/bin/python benchmarks/engine_speed.py [--quick]`` from the repository root. It prints,
in one run:

1. **Slides per second** on 5x5 boards: ``engine.slide.square(5).slide(board, direction)`` over a
   fixed set of seeded random boards (flat row-major tuples of exponents, 0 empty), every board
   in all four directions. One untimed pass first fills ``slide_line``'s cache, as a long game
   does; the median and best of several timed runs are printed.

2. **Random playouts per second** of versus2048 in this process, no pipes and no processes:
   ``Versus2048(turns_per_player=1000).new_state(seed)``, then per ply ``to_act``,
   ``observation``, ``RandomBot.act`` (one seeded bot per seat), ``check`` and ``apply`` until
   ``is_over``. Random games end early (a board gets stuck after about 130 plies), so plies per
   second is printed beside games per second.

3. **The referee's own cost per move** with two ``versus2048.random`` bots run as real programs
   (``BotSpec(..., as_program=True)``: each is ``python -m league bot``), through the referee
   of ``league.match.referee.play_match``, with time limits no bot reaches (a busy machine can make a
   Python bot's start-up outlast the rules' 1 s, which would end the measuring). The referee's
   cost of a move is the wall time of the move less the bots' CPU time: what is left is the
   referee's Python work plus the pipes and the wake-ups, i.e. what the league adds on top of the
   bots' thinking. Two ways:

   * *Slope method* (whole matches). Matches of two lengths are played, ``turns_per_player=2``
     (6 plies) and ``turns_per_player=1000`` (as long as the random game lasts), alternating,
     on the same seeds. For each match: wall time (``perf_counter``), the bots' CPU time as the
     delta of ``resource.getrusage(RUSAGE_CHILDREN)`` (the bot processes are reaped before
     ``play_match`` returns, so the delta covers them), and the plies actually played
     (``record.result.plies``). ``wall - bot CPU`` is fitted against plies by least squares; the
     slope is the cost per move, and the start-up and shut-down of the bot processes (the same in
     short and long matches) fall into the intercept. It is printed with its standard error. On
     a 2-core machine two Python start-ups (about 0.2 s of CPU each, partly in parallel) make
     ``wall - bot CPU`` vary by tens of ms between matches, while a whole random game's moves
     add only a few tens of ms, so this figure is noisy; it is printed as a check.

   * *In-match window* (the figure the ratio uses). The same matches are played by a subclass
     of ``league.match.referee.Referee`` (``play_match(game, launchers, seed)`` is
     ``Referee(game, launchers, seed).play()``) that only takes two snapshots: before the first
     main-phase request, when both bots are up and idle, and after the move that ends the game,
     before the bots are stopped. A snapshot holds ``perf_counter_ns``, the bots' CPU clocks
     (Linux per-process CPU clocks, read with ``clock_gettime`` on the bots' pids; ns
     resolution), this process's CPU time, and the ply count. Over the long matches,
     (window wall - bots' CPU in the window) / plies in the window is the referee's cost per
     move with start-up and shut-down left out exactly. The referee's own CPU per move (the
     Python part alone, with the system calls it makes) and the bots' CPU per move are printed
     beside it.

   *3b. Scripted replies.* The replies of random matches are recorded once (built-ins in this
   process), then replayed through ``league.match.referee.Referee`` by transports that answer each
   request at once from the record, without pipes: the referee's own Python work per ply
   (request, parse, rules, clocks, bookkeeping) with warm caches, best of several replays.

   *3c. One CPU.* Long matches as in 3, with this process (and so the bots it starts) pinned to
   one CPU: the referee's own CPU per ply where a wake-up is a plain context switch.

4. **The floor: one round trip between two C programs over pipes** (sources in
   ``benchmarks/c/``, compiled with gcc into ``benchmarks/_build/`` at every run). A "referee"
   writes the same kind of request as versus2048's (11 lines, 113 bytes, one ``write``) and
   reads until the reply's LF, N times after a warm-up, timing each round trip with
   ``clock_gettime(CLOCK_MONOTONIC)``; an "echo bot" replies with a 14-byte line after each
   complete 11-line request. It is run three ways: placed by the scheduler, both pinned to one
   CPU (a wake-up on the same CPU, a few us), and pinned to two different CPUs (a wake-up
   across CPUs, which in this VM costs about 45 us). The median of the two-CPU run is *the floor*:
   with two bots and a referee on 2 cores, the referee and the bot it waits for are usually on
   different CPUs. The C referee also reports its own CPU per round trip (user + system), the
   like-for-like baseline of the referee's own CPU.

5. **The ratios**: referee cost per move (in-match window) / the floor, against the target of
   "within 3 times the floor", with the slope method's ratio beside it; and the referee's own CPU
   per move beside the C referee's own CPU placed the same way (by the scheduler; both on one
   CPU), against the target of 30 us, with the scripted figure of 3b to show how much of it is
   the referee's Python work and how much the system calls and wake-ups.

Parts 1, 2 and 5 are here; 3, 3b and 3c are in ``referee_cost.py`` beside it, 4 in
``c_round_trip.py``, and how much of each part runs (full or ``--quick``) in ``speed_settings.py``.

``--figures FILE`` also writes the figures as JSON for ``benchmarks/run_all.py``.

Timings depend on the machine and on what else runs on it (another process busy on a core
makes every figure worse, the round trips most); run it on an idle machine. ``--quick`` runs
every part shorter (a smoke test, figures rougher).
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import sys
import time
from dataclasses import dataclass
from pathlib import Path

from c_round_trip import CFloor, bench_c_floor
from figures import HIGHER, Figure, write_figures
from referee_cost import RefereeCost, bench_referee, bench_referee_one_cpu, bench_scripted
from speed_settings import FULL, LONG_TURNS, QUICK, Settings, heading

from engine.slide import DIRECTIONS, Board, square
from engine.versus2048 import Versus2048
from engine.versus2048.bots import RandomBot

TARGET_RATIO = 3.0
TARGET_REFEREE_CPU_US = 30.0


# -- 1. slides -------------------------------------------------------------------------------
def random_boards(count: int, seed: int = 2048) -> list[Board]:
    """Seeded 5x5 boards: each cell empty with probability 0.35, else an exponent 1..11."""
    rng = random.Random(seed)
    return [tuple(0 if rng.random() < 0.35 else rng.randint(1, 11) for _ in range(25)) for _ in range(count)]


def bench_slides(settings: Settings) -> float:
    """Prints the slide rates; returns the median slides per second."""
    heading("1. slides on 5x5 boards (engine.slide.square(5).slide)")
    geometry = square(5)
    boards = random_boards(settings.boards)
    for board in boards:  # untimed: fills slide_line's cache
        for direction in DIRECTIONS:
            geometry.slide(board, direction)
    slides = settings.slide_passes * len(boards) * len(DIRECTIONS)
    rates = []
    for _ in range(settings.slide_runs):
        start = time.perf_counter()
        for _ in range(settings.slide_passes):
            for board in boards:
                for direction in DIRECTIONS:
                    geometry.slide(board, direction)
        rates.append(slides / (time.perf_counter() - start))
    print(
        f"boards: {len(boards)} seeded random, x {len(DIRECTIONS)} directions; {settings.slide_runs} runs of {slides}"
    )
    median = statistics.median(rates)
    print(f"slides per second: {median:,.0f} (median), {max(rates):,.0f} (best); {1e6 / median:.2f} us per slide")
    return median


# -- 2. playouts -----------------------------------------------------------------------------
def playout(seed: int) -> int:
    """One random game in this process; returns its plies."""
    state = Versus2048(turns_per_player=LONG_TURNS).new_state(seed)
    bots = [RandomBot(2 * seed), RandomBot(2 * seed + 1)]
    while not state.is_over():
        request = state.to_act()[0]
        observation = state.observation(request)
        action = bots[request.seat].act(observation)
        fault = state.check(request, action)
        if fault is not None:
            raise RuntimeError(f"the random bot made an illegal move in game {seed}: {fault.detail}")
        state.apply({request: action})
    return state.plies


def bench_playouts(settings: Settings) -> float:
    """Prints the playout rates; returns games per second."""
    heading(f"2. random playouts of versus2048 in-process (turns_per_player={LONG_TURNS}, no processes)")
    start = time.perf_counter()
    plies = [playout(seed) for seed in range(settings.playout_games)]
    elapsed = time.perf_counter() - start
    total = sum(plies)
    print(
        f"games: {len(plies)}, plies: {total} ({statistics.mean(plies):.1f} per game, "
        f"{min(plies)}..{max(plies)}; random games end when a board is stuck)"
    )
    print(f"games per second: {len(plies) / elapsed:,.1f}")
    print(f"plies per second: {total / elapsed:,.0f} ({1e6 * elapsed / total:.1f} us per ply)")
    return len(plies) / elapsed


# -- 5. ------------------------------------------------------------------------------------
@dataclass
class RefereeCpu:
    """The referee's own CPU per ply, in seconds, three ways.

    Attributes:
        placed: Two programs, placed by the scheduler (section 3).
        one_cpu: Two programs, all on one CPU (section 3c); None where not measured.
        scripted: Scripted replies, no pipes (section 3b).
    """

    placed: float
    one_cpu: float | None
    scripted: float


def report_ratio(cost: RefereeCost, cpu: RefereeCpu, c_floor: CFloor | None) -> None:
    heading(f"5. referee cost per move / C round trip (target: within {TARGET_RATIO:g} times the floor)")
    if c_floor is None:
        print("no C floor measured: no ratio")
        return
    floor = c_floor.floor
    ratio = cost.window / floor
    verdict = "met" if ratio <= TARGET_RATIO else "not met"
    print(
        f"in-match window: {1e6 * cost.window:.0f} us / {1e6 * floor:.1f} us = {ratio:.2f} x the floor "
        f"(target <= {TARGET_RATIO:g}: {verdict})"
    )
    print(
        f"slope method:    {1e6 * cost.slope:.0f} us +- {1e6 * cost.slope_error:.0f} / {1e6 * floor:.1f} us = "
        f"{cost.slope / floor:.2f} x (+- {cost.slope_error / floor:.2f})"
    )
    verdict = "met" if 1e6 * cpu.placed <= TARGET_REFEREE_CPU_US else "not met"
    print(
        f"referee's own CPU per move, placed by the scheduler: {1e6 * cpu.placed:.1f} us; the C referee's own CPU "
        f"{1e6 * c_floor.referee_cpu_placed:.1f} us = {cpu.placed / c_floor.referee_cpu_placed:.1f} x "
        f"(target <= {TARGET_REFEREE_CPU_US:g} us: {verdict})"
    )
    if cpu.one_cpu is not None:
        print(
            f"referee's own CPU per move, all on one CPU:          {1e6 * cpu.one_cpu:.1f} us; the C referee's own"
            f" CPU {1e6 * c_floor.referee_cpu_one_cpu:.1f} us = {cpu.one_cpu / c_floor.referee_cpu_one_cpu:.1f} x"
        )
    print(
        f"of which the referee's own work, warm and without pipes (3b): {1e6 * cpu.scripted:.1f} us; the rest is"
        " the system calls, the wake-ups and the referee's code running with caches the bots have cooled"
    )


def figures_of(
    slides: float, playouts: float, cost: RefereeCost, cpu: RefereeCpu, c_floor: CFloor | None
) -> list[Figure]:
    """This run's figures, as ``benchmarks/run_all.py`` reads them."""
    c_placed = 1e6 * c_floor.referee_cpu_placed if c_floor else None
    c_one_cpu = 1e6 * c_floor.referee_cpu_one_cpu if c_floor else None
    floor = 1e6 * c_floor.floor if c_floor else None
    figures = [
        Figure(
            "referee",
            "referee's own CPU per ply (versus2048, two programs)",
            1e6 * cpu.placed,
            "us",
            c_placed,
            "a C referee's own CPU per round trip, placed by the scheduler",
            TARGET_REFEREE_CPU_US,
        ),
    ]
    if cpu.one_cpu is not None:
        figures.append(
            Figure(
                "referee",
                "referee's own CPU per ply, referee and bots on one CPU",
                1e6 * cpu.one_cpu,
                "us",
                c_one_cpu,
                "a C referee's own CPU per round trip, both on one CPU",
            )
        )
    figures += [
        Figure("referee", "referee's own work per ply, scripted replies (no pipes, warm)", 1e6 * cpu.scripted, "us"),
        Figure(
            "referee",
            "referee cost per ply (wall less the bots' CPU)",
            1e6 * cost.window,
            "us",
            floor,
            "the C floor: a round trip across two CPUs",
            TARGET_RATIO,
            target_of_ratio=True,
        ),
        Figure("engines", "versus2048 slides (5x5)", slides, "slides/s", better=HIGHER),
        Figure("engines", "versus2048 random playouts (engine_speed)", playouts, "games/s", better=HIGHER),
    ]
    return figures


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="a shorter run (rougher figures)")
    parser.add_argument("--figures", type=Path, help="also write the figures to this JSON file")
    args = parser.parse_args(argv)
    settings = QUICK if args.quick else FULL
    began = time.perf_counter()
    print(f"engine_speed ({'quick' if args.quick else 'full'}): Python {sys.version.split()[0]}, {os.cpu_count()} CPUs")
    slides = bench_slides(settings)
    playouts = bench_playouts(settings)
    cost = bench_referee(settings)
    scripted = bench_scripted(settings)
    cpu = RefereeCpu(cost.cpu, bench_referee_one_cpu(settings), scripted)
    c_floor = bench_c_floor(settings)
    report_ratio(cost, cpu, c_floor)
    if args.figures:
        write_figures(args.figures, figures_of(slides, playouts, cost, cpu, c_floor))
    print(f"\n(done in {time.perf_counter() - began:.1f} s)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
