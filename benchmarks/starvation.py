"""Can a bot starve its opponent? A CPU hog against a bot doing fixed work per move, beside a quiet opponent.

Run ``.venv/bin/python benchmarks/starvation.py [--quick]`` from the repository root, as root with
bubblewrap (the bots are jailed, as in a league), on a machine doing nothing else.

Every game is versus2048 (``turn_time_ms`` 1000) between the victim, ``tests/bots/v2048_fixed_work.py``
(the same loop every move, calibrated here to about ``--work-ms`` (400) ms of CPU), and either a
quiet opponent (the same bot doing no work) or ``tests/bots/v2048_cpu_hog.py``: once it has placed
its pre-game tile it forks 58 processes that each start a session of their own and spin forever.
The victim measures its own work per move in wall time. Quiet and hog games are interleaved
(``--repeats`` of each), one game at a time, the victim always seat 0.

Printed per setting: the victim's median and 90th percentile work time per move against each
opponent and their ratio; the median of its work's wall time over its CPU time per move (1.00:
never kept from a CPU) against each and their ratio (target with the jail: at most 1.10; unlike
the times, it does not move with the machine's own speed, which on a shared VM varies by tens of
percent within minutes); the victim's games lost on time (target: none) and the cores the hog's
processes got together (its own count from /proc). The
settings: the jail (each bot's processes capped together at ``limits.cores``, 1, by a cgroup
quota, its CPU weight at the least while it is not asked), under ``clock: wall`` and ``clock:
own``; and, as the baseline of the attack, ``--sandbox none`` (plain processes, nothing capped)
under ``clock: wall``. Figures to read, never pass/fail.
"""

from __future__ import annotations

import argparse
import os
import re
import statistics
import sys
import time
from pathlib import Path

from engine.versus2048 import Versus2048
from league.match.bot_spec import BotSpec
from league.match.players import make_launcher
from league.match.record import ClockSettings
from league.match.referee import play_match
from sandbox.cgroups import cpu_cap_problem
from sandbox.jail import Sandbox, jail_problem
from sandbox.limits import SandboxMode

ROOT = Path(__file__).resolve().parents[1]
BOTS = ROOT / "tests" / "bots"
PYTHON = sys.executable  # the interpreter that calibrated the work


def calibrate(work_ms: float) -> int:
    """Loop iterations that take about ``work_ms`` of CPU in the victim's loop (the same Python)."""
    count = 2_000_000
    began = time.process_time()
    total = 0
    for step in range(count):
        total += step
    seconds = max(time.process_time() - began, 1e-6)
    return max(1, round(count * work_ms / 1000 / seconds))


def play(opponent: str, iterations: int, turns: int, mode: SandboxMode, clock: str, seed: int) -> dict[str, object]:
    """One game of the victim against ``opponent`` (``quiet`` or ``hog``): its work times, loss, the hog's cores."""
    game = Versus2048(turns_per_player=turns, turn_time_ms=1000)
    victim = BotSpec("victim", command=(PYTHON, "v2048_fixed_work.py", str(iterations)), cwd=str(BOTS), own_folder=True)
    other_command = ("v2048_cpu_hog.py", "58") if opponent == "hog" else ("v2048_fixed_work.py", "1")
    other = BotSpec(opponent, command=(PYTHON, *other_command), cwd=str(BOTS), own_folder=True)
    sandbox = Sandbox(mode)
    launchers = [make_launcher(game, spec, seat, seed, sandbox) for seat, spec in enumerate((victim, other))]
    record = play_match(game, launchers, seed, ClockSettings(kind=clock))
    victim_text = "".join(tail.text for tail in record.stderr if tail.seat == 0)
    hog_text = "".join(tail.text for tail in record.stderr if tail.seat == 1)
    hog_cores = [float(value) for value in re.findall(r"hog cores ([0-9.]+)", hog_text)]
    return {
        "work": [float(value) for value in re.findall(r"work ([0-9.]+) ms wall", victim_text)],
        "stretch": [
            float(wall) / max(float(cpu), 1e-3)
            for wall, cpu in re.findall(r"work ([0-9.]+) ms wall ([0-9.]+) ms cpu", victim_text)
        ],
        "lost": record.result.termination.value == "TIMEOUT" and 0 in record.result.offenders,
        "hog_cores": max(hog_cores) if hog_cores else None,
    }


def p90(values: list[float]) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(0.9 * len(ordered)) - 1)] if ordered else float("nan")


def setting(label: str, mode: SandboxMode, clock: str, iterations: int, args: argparse.Namespace) -> None:
    work: dict[str, list[float]] = {"quiet": [], "hog": []}
    stretch: dict[str, list[float]] = {"quiet": [], "hog": []}
    lost = {"quiet": 0, "hog": 0}
    hog_cores: list[float] = []
    for repeat in range(args.repeats):
        for opponent in ("quiet", "hog"):
            outcome = play(opponent, iterations, args.turns, mode, clock, seed=repeat)
            work[opponent] += outcome["work"]  # type: ignore[arg-type]
            stretch[opponent] += outcome["stretch"]  # type: ignore[arg-type]
            lost[opponent] += bool(outcome["lost"])
            if outcome["hog_cores"] is not None:
                hog_cores.append(outcome["hog_cores"])  # type: ignore[arg-type]
    cores = f"{max(hog_cores):.2f}" if hog_cores else "-"
    quiet, hog = _times(work["quiet"]), _times(work["hog"])
    ratio = f"{statistics.median(work['hog']) / statistics.median(work['quiet']):8.2f}" if work["hog"] else "       -"
    stretched = (
        f"{statistics.median(stretch['quiet']):6.2f} {statistics.median(stretch['hog']):6.2f}"
        f" {statistics.median(stretch['hog']) / statistics.median(stretch['quiet']):9.2f}"
        if stretch["hog"] and stretch["quiet"]
        else "     -      -         -"
    )
    print(
        f"  {label:28} {quiet} {hog} {ratio} {stretched} {lost['quiet']:4d}/{args.repeats}"
        f" {lost['hog']:4d}/{args.repeats} {cores:>10}",
        flush=True,
    )


def _times(values: list[float]) -> str:
    """Median and 90th percentile of work times, or dashes where none was done (lost at the first move)."""
    return f"{statistics.median(values):7.0f} {p90(values):6.0f}" if values else "      -      -"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="2 repeats of 3-turn games (about 30 s)")
    parser.add_argument("--repeats", type=int, default=None, help="games against each opponent a setting (default 5)")
    parser.add_argument("--turns", type=int, default=None, help="turns per player (default 8; quick 3)")
    parser.add_argument("--work-ms", type=float, default=400, help="the victim's CPU work per move (default 400)")
    args = parser.parse_args()
    args.repeats = args.repeats or (2 if args.quick else 5)
    args.turns = args.turns or (3 if args.quick else 8)
    iterations = calibrate(args.work_ms)
    print(
        f"starvation: versus2048, turn_time_ms 1000, {args.turns} turns a player; the victim works about"
        f" {args.work_ms:.0f} ms of CPU a move ({iterations:,} iterations); {args.repeats} games against each"
        f" opponent a setting, interleaved; load average {os.getloadavg()[0]:.2f}"
    )
    print(f"  CPU cap: {Sandbox().cpu_cap()}")
    print(
        "  setting                      quiet ms (p50    p90)  hog ms (p50    p90)  hog/quiet  wall/cpu quiet hog"
        "  hog/quiet  lost quiet/hog  hog cores"
    )
    settings = [("jail, clock: own", SandboxMode.AUTO, "own"), ("jail, clock: wall", SandboxMode.AUTO, "wall")]
    if jail_problem() is not None or cpu_cap_problem() is not None:
        print(f"  (the jail cannot cap CPU here: {jail_problem() or cpu_cap_problem()})")
    settings.append(("no jail (sandbox none), wall", SandboxMode.NONE, "wall"))
    for label, mode, clock in settings:
        setting(label, mode, clock, iterations, args)
    print(f"  (load average now {os.getloadavg()[0]:.2f})")


if __name__ == "__main__":
    main()
