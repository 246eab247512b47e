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

``--figures FILE`` also writes the figures as JSON for ``benchmarks/run_all.py``.

Timings depend on the machine and on what else runs on it (another process busy on a core
makes every figure worse, the round trips most); run it on an idle machine. ``--quick`` runs
every part shorter (a smoke test, figures rougher).
"""

from __future__ import annotations

import argparse
import os
import random
import resource
import shutil
import statistics
import subprocess
import sys
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from figures import HIGHER, Figure, write_figures

from engine.slide import DIRECTIONS, Board, square
from engine.versus2048 import Versus2048
from engine.versus2048.bots import RandomBot
from engine.versus2048.rules import MAIN
from league.match.bot_spec import BotSpec
from league.match.players import make_launcher
from league.match.referee import Referee
from sandbox.process import BotProcess
from sandbox.transport import Transport

HERE = Path(__file__).resolve().parent
C_SOURCES = HERE / "c"
BUILD = HERE / "_build"
TARGET_RATIO = 3.0
TARGET_REFEREE_CPU_US = 30.0
SHORT_TURNS = 2
LONG_TURNS = 1000
GENEROUS_LIMITS = {"pregame_time_ms": 60_000, "turn_time_ms": 60_000, "total_time_ms": 3_600_000}
"""Time limits no bot reaches even on a busy machine: a timeout would end the measuring (costs, not limits)."""


@dataclass(frozen=True)
class Settings:
    """How much of each part to run."""

    boards: int
    slide_runs: int
    slide_passes: int
    playout_games: int
    match_pairs: int
    round_trips: int
    round_trip_warmup: int
    scripted_matches: int


FULL = Settings(
    boards=1000,
    slide_runs=5,
    slide_passes=10,
    playout_games=200,
    match_pairs=30,
    round_trips=20000,
    round_trip_warmup=2000,
    scripted_matches=30,
)
QUICK = Settings(
    boards=200,
    slide_runs=3,
    slide_passes=5,
    playout_games=20,
    match_pairs=3,
    round_trips=3000,
    round_trip_warmup=500,
    scripted_matches=5,
)


def heading(text: str) -> None:
    print(f"\n== {text}")


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


# -- 3. the referee with real programs -------------------------------------------------------
def process_cpu_ns(pid: int) -> int:
    """CPU time (user + system) of another process so far, in ns, from its Linux CPU clock."""
    return time.clock_gettime_ns(((~pid) << 3) | 2)  # MAKE_PROCESS_CPUCLOCK(pid, CPUCLOCK_SCHED)


@dataclass
class Snapshot:
    """Clocks at one moment of a match."""

    wall_ns: int
    bots_cpu_ns: int
    referee_cpu_ns: int
    plies: int


class WindowReferee(Referee):
    """The league's referee, plus a snapshot at the start of the main phase and at the end."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.start: Snapshot | None = None
        self.end: Snapshot | None = None

    def _bots_cpu_ns(self) -> int:
        return sum(process_cpu_ns(t.pid) for t in self.running.values() if isinstance(t, BotProcess))

    def _ask(self, state: Any, requests: Any) -> None:
        if self.start is None and state.phase == MAIN:
            bots = self._bots_cpu_ns()  # both bots are idle here: they answered and wait for input
            self.start = Snapshot(time.perf_counter_ns(), bots, time.process_time_ns(), state.plies)
        super()._ask(state, requests)
        if state.is_over() and self.start is not None:
            wall, referee = time.perf_counter_ns(), time.process_time_ns()
            self.end = Snapshot(wall, self._bots_cpu_ns(), referee, state.plies)


@dataclass
class MatchTiming:
    """One match: whole-match figures and the main-phase window."""

    turns: int
    plies: int
    wall_s: float
    bots_cpu_s: float
    referee_cpu_s: float
    window_plies: int
    window_wall_s: float
    window_bots_cpu_s: float
    window_referee_cpu_s: float


def children_cpu_s() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def play_timed(turns: int, seed: int) -> MatchTiming:
    game = Versus2048(turns_per_player=turns, **GENEROUS_LIMITS)
    specs = [BotSpec(name=f"random{seat}", builtin="versus2048.random", as_program=True) for seat in range(2)]
    launchers = [make_launcher(game, spec, seat, seed) for seat, spec in enumerate(specs)]
    children_before, self_before = children_cpu_s(), time.process_time()
    start = time.perf_counter()
    referee = WindowReferee(game, launchers, seed)
    record = referee.play()
    wall = time.perf_counter() - start
    bots_cpu = children_cpu_s() - children_before
    referee_cpu = time.process_time() - self_before
    if record.result.offenders:
        raise RuntimeError(f"match {seed} ended by a fault: {record.result.detail}")
    first, last = referee.start, referee.end
    if first is None or last is None:
        raise RuntimeError(f"match {seed} never reached its main phase")
    return MatchTiming(
        turns=turns,
        plies=record.result.plies,
        wall_s=wall,
        bots_cpu_s=bots_cpu,
        referee_cpu_s=referee_cpu,
        window_plies=last.plies - first.plies,
        window_wall_s=(last.wall_ns - first.wall_ns) / 1e9,
        window_bots_cpu_s=(last.bots_cpu_ns - first.bots_cpu_ns) / 1e9,
        window_referee_cpu_s=(last.referee_cpu_ns - first.referee_cpu_ns) / 1e9,
    )


def _us(seconds: float) -> str:
    """A per-ply time in us; a slope below zero is noise, said so."""
    return f"{1e6 * seconds:.0f} us" if seconds >= 0 else f"{1e6 * seconds:.0f} us (below measurement noise)"


def fit_slope(xs: list[float], ys: list[float]) -> tuple[float, float, float]:
    """Least squares y = a + b x: (b, standard error of b, a)."""
    n = len(xs)
    mean_x, mean_y = statistics.fmean(xs), statistics.fmean(ys)
    sxx = sum((x - mean_x) ** 2 for x in xs)
    slope = sum((x - mean_x) * (y - mean_y) for x, y in zip(xs, ys, strict=True)) / sxx
    intercept = mean_y - slope * mean_x
    residuals = sum((y - intercept - slope * x) ** 2 for x, y in zip(xs, ys, strict=True))
    error = (residuals / (n - 2) / sxx) ** 0.5 if n > 2 else float("nan")
    return slope, error, intercept


@dataclass
class RefereeCost:
    """Per-move figures, in seconds.

    Attributes:
        window: Referee cost per move in the main-phase window (wall less the bots' CPU).
        slope: The same by the slope method over whole matches.
        slope_error: The slope's standard error.
        cpu: The referee process's own CPU per move in the window.
    """

    window: float
    slope: float
    slope_error: float
    cpu: float


def bench_referee(settings: Settings) -> RefereeCost:
    heading("3. the referee's own cost per move, two versus2048.random bots as real programs")
    matches: list[MatchTiming] = []
    for pair in range(settings.match_pairs):
        seed = 1000 + pair
        lengths = (SHORT_TURNS, LONG_TURNS) if pair % 2 == 0 else (LONG_TURNS, SHORT_TURNS)
        matches.extend(play_timed(turns, seed) for turns in lengths)
    short = [m for m in matches if m.turns == SHORT_TURNS]
    long = [m for m in matches if m.turns == LONG_TURNS]
    long_plies = [m.plies for m in long]
    print(
        f"matches: {len(short)} of turns_per_player={SHORT_TURNS} ({statistics.mean(m.plies for m in short):.0f} plies)"
        f" and {len(long)} of turns_per_player={LONG_TURNS} ({statistics.mean(long_plies):.1f} plies, "
        f"{min(long_plies)}..{max(long_plies)}), seeds 1000..{999 + settings.match_pairs}"
    )
    for name, group in (("short", short), ("long", long)):
        print(
            f"  {name:5} match mean: wall {1e3 * statistics.mean(m.wall_s for m in group):7.1f} ms, "
            f"bots' CPU {1e3 * statistics.mean(m.bots_cpu_s for m in group):7.1f} ms, "
            f"wall - bots' CPU {1e3 * statistics.mean(m.wall_s - m.bots_cpu_s for m in group):7.1f} ms "
            f"(sd {1e3 * statistics.pstdev([m.wall_s - m.bots_cpu_s for m in group]):.1f})"
        )

    plies = [float(m.plies) for m in matches]
    slope, error, intercept = fit_slope(plies, [m.wall_s - m.bots_cpu_s for m in matches])
    wall_slope, _, _ = fit_slope(plies, [m.wall_s for m in matches])
    bots_slope, _, _ = fit_slope(plies, [m.bots_cpu_s for m in matches])
    self_slope, _, _ = fit_slope(plies, [m.referee_cpu_s for m in matches])
    print("slope method (whole matches, per ply, start-up in the intercept):")
    print(
        f"  wall {_us(wall_slope)}, bots' CPU {_us(bots_slope)}, "
        f"referee process CPU {_us(self_slope)}; intercept of wall - bots' CPU {1e3 * intercept:.0f} ms"
    )
    print(f"  referee cost per move = slope of (wall - bots' CPU): {_us(slope)} +- {1e6 * error:.0f} (1 s.e.)")
    if min(wall_slope, bots_slope, slope) < 0:
        print("  (a slope below zero: start-up noise swamps the moves here; the in-match window below is the figure)")

    window_plies = sum(m.window_plies for m in long)
    window_wall = sum(m.window_wall_s for m in long)
    window_bots = sum(m.window_bots_cpu_s for m in long)
    window_self = sum(m.window_referee_cpu_s for m in long)
    window = (window_wall - window_bots) / window_plies
    per_match = [(m.window_wall_s - m.window_bots_cpu_s) / m.window_plies for m in long]
    print(f"in-match window (main phase of the {len(long)} long matches, {window_plies} plies):")
    print(
        f"  wall {1e6 * window_wall / window_plies:.0f} us, bots' CPU {1e6 * window_bots / window_plies:.0f} us, "
        f"referee process CPU {1e6 * window_self / window_plies:.0f} us per ply"
    )
    print(
        f"  referee cost per move = (wall - bots' CPU) / plies: {1e6 * window:.0f} us "
        f"(per match: median {1e6 * statistics.median(per_match):.0f}, "
        f"{1e6 * min(per_match):.0f}..{1e6 * max(per_match):.0f})"
    )
    return RefereeCost(window, slope, error, window_self / window_plies)


class ScriptedTransport(Transport):
    """A bot that is only its recorded replies: each request is answered at once, with no pipe."""

    def __init__(self, replies: list[str]) -> None:
        super().__init__(max_line_bytes=1 << 20)
        self.replies = iter(replies)
        self.sent_ns = time.monotonic_ns()

    def send(self, data: bytes) -> None:
        self.sent_ns = time.monotonic_ns()
        self._received(next(self.replies).encode("latin-1") + b"\n")

    def flushed_at_ns(self) -> int | None:
        return self.sent_ns

    def close(self) -> None:
        self._ended()


def bench_scripted(settings: Settings) -> float:
    """The referee's own work per ply, warm, with replies recorded once and replayed without pipes."""
    heading("3b. the referee's own work per ply with scripted replies (no pipes, no bots, warm caches)")
    game = Versus2048(turns_per_player=LONG_TURNS, **GENEROUS_LIMITS)
    recorded: list[tuple[int, list[list[str]], int]] = []
    for seed in range(1000, 1000 + settings.scripted_matches):
        specs = [BotSpec(name=f"random{seat}", builtin="versus2048.random") for seat in range(2)]
        launchers = [make_launcher(game, spec, seat, seed) for seat, spec in enumerate(specs)]
        record = Referee(game, launchers, seed).play()
        replies = [[move.reply for move in record.moves if move.seat == seat] for seat in range(2)]
        recorded.append((seed, replies, record.result.plies))
    plies = sum(match[2] for match in recorded)

    def replay() -> float:
        began = time.process_time()
        for seed, replies, expected in recorded:
            launchers = [lambda key, mine=mine: ScriptedTransport(mine) for mine in replies]
            record = Referee(game, launchers, seed).play()
            if record.result.plies != expected:
                raise RuntimeError(f"match {seed} replayed to {record.result.plies} plies, not {expected}")
        return (time.process_time() - began) / plies

    per_ply = min(replay() for _ in range(settings.slide_runs))
    print(f"{len(recorded)} matches, {plies} plies, best of {settings.slide_runs} replays")
    print(f"referee's own work per ply (request, parse, rules, clocks, bookkeeping): {1e6 * per_ply:.1f} us")
    return per_ply


def bench_referee_one_cpu(settings: Settings) -> float:
    """The referee's own CPU per ply with the referee and both bots on one CPU."""
    heading("3c. the same, with the referee and both bots on one CPU")
    cpus = sorted(os.sched_getaffinity(0))
    before = set(cpus)
    os.sched_setaffinity(0, {cpus[0]})  # the bots started now inherit it
    try:
        long = [play_timed(LONG_TURNS, 1000 + pair) for pair in range(settings.match_pairs // 2 or 1)]
    finally:
        os.sched_setaffinity(0, before)
    plies = sum(m.window_plies for m in long)
    cpu = sum(m.window_referee_cpu_s for m in long) / plies
    wall = sum(m.window_wall_s for m in long) / plies
    print(f"{len(long)} long matches on CPU {cpus[0]}, {plies} plies in the main-phase window")
    print(f"referee's own CPU per ply: {1e6 * cpu:.1f} us (wall per ply {1e6 * wall:.0f} us)")
    return cpu


# -- 4. the C floor --------------------------------------------------------------------------
@dataclass
class RoundTrip:
    """One pipe_referee run, in ns."""

    request_bytes: int
    reply_bytes: int
    count: int
    mean: float
    median: float
    minimum: float
    p90: float
    referee_cpu: float
    """The C referee's own CPU (user + system) per round trip."""


def build_c() -> tuple[Path, Path] | None:
    compiler = shutil.which("gcc") or shutil.which("cc")
    if compiler is None:
        return None
    BUILD.mkdir(exist_ok=True)
    programs = []
    for name in ("pipe_referee", "echo_bot"):
        program = BUILD / name
        subprocess.run(
            [compiler, "-O2", "-Wall", "-o", str(program), str(C_SOURCES / f"{name}.c")],
            check=True,
        )
        programs.append(program)
    return programs[0], programs[1]


def round_trip(referee: Path, bot: Path, settings: Settings, cpus: tuple[int, int] | None) -> RoundTrip:
    argv = [str(referee), str(bot), str(settings.round_trips), str(settings.round_trip_warmup)]
    if cpus is not None:
        argv += [str(cpus[0]), str(cpus[1])]
    output = subprocess.run(argv, check=True, capture_output=True, text=True).stdout.split()
    request_bytes, reply_bytes, count = (int(x) for x in output[:3])
    mean, median, minimum, p90, referee_cpu = (float(x) for x in output[3:8])
    return RoundTrip(request_bytes, reply_bytes, count, mean, median, minimum, p90, referee_cpu)


@dataclass
class CFloor:
    """Medians of the C round trips, in seconds.

    Attributes:
        floor: Across two CPUs (one CPU on a machine with one): the floor.
        one_cpu: Both programs on one CPU, where a round trip is all CPU time.
        referee_cpu_placed: The C referee's own CPU per round trip, placed by the scheduler.
        referee_cpu_one_cpu: The C referee's own CPU per round trip, both programs on one CPU.
    """

    floor: float
    one_cpu: float
    referee_cpu_placed: float
    referee_cpu_one_cpu: float


def bench_c_floor(settings: Settings) -> CFloor | None:
    """Prints the C round trips; returns their medians (None without a C compiler)."""
    heading("4. the floor: one request/reply round trip between two C programs over pipes")
    programs = build_c()
    if programs is None:
        print("skipped: no gcc or cc on PATH")
        return None
    cpus = sorted(os.sched_getaffinity(0))
    placements: list[tuple[str, tuple[int, int] | None]] = [("placed by the scheduler", None)]
    placements.append((f"both on CPU {cpus[0]}", (cpus[0], cpus[0])))
    if len(cpus) > 1:
        placements.append((f"on CPUs {cpus[0]} and {cpus[1]}", (cpus[0], cpus[1])))
    results = []
    for label, pinned in placements:
        trip = round_trip(programs[0], programs[1], settings, pinned)
        results.append(trip)
        if len(results) == 1:
            print(
                f"request {trip.request_bytes} bytes (11 lines), reply {trip.reply_bytes} bytes; "
                f"{trip.count} round trips per run after {settings.round_trip_warmup} warm-up"
            )
        print(
            f"  {label:24}: median {trip.median / 1e3:6.1f} us, mean {trip.mean / 1e3:6.1f} us, "
            f"min {trip.minimum / 1e3:5.1f} us, p90 {trip.p90 / 1e3:6.1f} us; the C referee's own CPU "
            f"{trip.referee_cpu / 1e3:5.1f} us"
        )
    floor = results[-1].median / 1e9
    where = "two CPUs" if len(cpus) > 1 else "one CPU"
    print(f"the floor (median, {where}): {1e6 * floor:.1f} us")
    return CFloor(floor, results[1].median / 1e9, results[0].referee_cpu / 1e9, results[1].referee_cpu / 1e9)


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
