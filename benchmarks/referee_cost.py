"""The referee's own cost per move, for ``benchmarks/engine_speed.py`` (its parts 3, 3b and 3c).

3: two ``versus2048.random`` bots run as real programs through ``league.match.referee``: the cost
per move by the slope method over whole matches, and in the main-phase window of each match.
3b: the referee alone, replaying recorded replies without pipes. 3c: as 3, all on one CPU.
"""

from __future__ import annotations

import os
import resource
import statistics
import time
from dataclasses import dataclass
from typing import Any

from speed_settings import LONG_TURNS, Settings, heading

from engine.versus2048 import Versus2048
from engine.versus2048.rules import MAIN
from league.match.bot_spec import BotSpec
from league.match.players import make_launcher
from league.match.referee import Referee
from sandbox.process import BotProcess
from sandbox.transport import Transport

SHORT_TURNS = 2
GENEROUS_LIMITS = {"pregame_time_ms": 60_000, "turn_time_ms": 60_000, "total_time_ms": 3_600_000}
"""Time limits no bot reaches even on a busy machine: a timeout would end the measuring (costs, not limits)."""


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
