"""Every benchmark in one command: each figure beside its baseline measured in the same run.

Run ``.venv/bin/python benchmarks/run_all.py [--quick] [--only NAME ...]`` from the repository
root (as root with bubblewrap and gcc, as the jail and the C baselines need). It runs the scripts
below one after another, each in a process of its own, prints every figure as its script ends
(value, baseline, ratio, target, met?), and writes ``benchmarks/RESULTS.md``: the machine it ran
on (CPU, cores, memory, OS, Python, Ray, commit, load average), a table per area, and what each
script printed. The full run takes about 24 minutes on an idle 2-core machine (fairness under
three clocks about 14 of them, starvation about 3), sprt_errors about 19 more (under a load
average of 2 to 4.5; its 0 against 5 nElo tests 15 of them), adaptive_efficiency about 5
(under a load average of 1 to 3), hidden_truth about 4, league_or_tournament about 6 and contest_load about 3;
``--quick`` about 6 (rougher figures, no 100,000-game report, SPRT tests of 0 against 20 nElo
only, 5 simulated fields of adaptive leagues, 100 hidden-truth leagues). A script that fails or
overruns its time limit leaves its figures "not measured" and the rest goes on.

Figures of the full run rest on: league_throughput 3 interleaved repeats of 100 games of 50
turns (300 a setting; the issue's 1,000 would add about 3.5 minutes) and of 1,000 2-turn
games; program_throughput 3 interleaved repeats of 40 games; fairness at least 1,000 turn
replies a setting at the usable cores and above and under clock: own (250 at one game at a time
under wall and cpu); starvation 5 interleaved games against each opponent a setting;
driver_scaling 3 interleaved repeats of 6,000 games at each worker count; sprt_errors 1,000
simulated tests at each true difference of 0 against 10 and 0 against 5 normalized Elo;
adaptive_efficiency 20, 20 and 6 simulated adaptive leagues and round robins at 10, 20 and 50
bots (5, 5 and 3 fields), and 3 interleaved repeats of its leagues on Ray; hidden_truth 2,000
simulated round robins (the issue asks 200: ten times as many make the Monte Carlo error of LOS
near 0.9 about 0.6 points, small enough to see a miscalibration of a few).

| script | figures |
|---|---|
| engine_speed.py | referee CPU per ply beside a C referee's, and warm without pipes; cost per ply beside the C floor |
| playouts.py | random playouts per second of every game, engine alone beside through the referee |
| codevs21_solo.py | a 1000-turn codevs21 game through the referee beside the engine alone |
| league_throughput.py | built-in leagues on Ray with 1 and 2 workers; Ray's cost per game; ratings |
| driver_scaling.py | the driver's CPU per game with 2, 100 and 1,600 workers (stood in for by one actor) |
| program_throughput.py | leagues of program bots on 1, 2 and all cores, jail on beside jail off |
| driver_memory.py | the driver's peak memory for a 100,000-game league beside it before the league |
| report_speed.py | report time at 10,000 and 100,000 games beside the old single-file store |
| sandbox_cost.py | a jailed launch and line round trip beside unjailed ones |
| fairness.py | losses on time of bots using 80% of their limit, at 1 game at once and more, under each clock |
| starvation.py | a bot's work per move against a CPU hog (58 processes, each a session) beside a quiet bot |
| analysis_speed.py | the whole assessment of a 100,000-game league |
| sprt_errors.py | SPRT wrong-verdict rates beside alpha and beta, mean games beside a fixed-length test's (simulated) |
| adaptive_efficiency.py | adaptive leagues' games beside a round robin's (simulated); idle workers at batches (Ray) |
| hidden_truth.py | leagues of known strengths (simulated): interval coverage, LOS calibration, settled places wrong |
| league_or_tournament.py | every format on one budget, simulated through its real run: best found, top 3, tau, wall |
| contest_load.py | a live contest's games per second with 100 live viewers beside none; its board page's load time |
| bot_version_speed.py | a warm bot version of a 100 MB folder and of 10,000 files beside the cold digest |

Scripts that accept ``--figures FILE`` write their figures as JSON (``benchmarks/figures.py``);
the others' printed lines are read by ``benchmarks/output_parsers.py``.
"""

from __future__ import annotations

import argparse
import shlex
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

import output_parsers
from figures import Figure, read_figures
from output_parsers import Parser
from results_page import ROOT, ScriptRun, load_average, now, table, write_page

HERE = ROOT / "benchmarks"
RESULTS = HERE / "RESULTS.md"
OUTPUT_TAIL_LINES = 40
"""Lines of a script's stderr kept with its stdout in RESULTS.md."""


@dataclass(frozen=True)
class Script:
    """One benchmark script of the run.

    Attributes:
        name: Its file in benchmarks/, without ``.py``.
        area: Where its figures go when it fails before giving any.
        full: Its arguments in a full run.
        quick: Its arguments with ``--quick``.
        limit_s: Its time limit in a full run (a quick run gives it a third).
        parser: How its printed output becomes figures; None: it writes ``--figures FILE``.
    """

    name: str
    area: str
    full: tuple[str, ...]
    quick: tuple[str, ...]
    limit_s: int
    parser: Parser | None = None


SCRIPTS = [
    Script("engine_speed", "referee", (), ("--quick",), 600),
    Script("playouts", "engines", ("--seconds", "3"), ("--seconds", "0.5"), 300),
    Script(
        "codevs21_solo",
        "referee",
        ("--seeds", "1", "--cases", "small", "--bots", "random"),
        ("--seeds", "1", "--cases", "small", "--bots", "random"),
        120,
        output_parsers.codevs21_solo,
    ),
    Script(
        "league_throughput",
        "league",
        ("--games", "100", "--short-games", "1000", "--repeats", "3"),
        ("--quick",),
        900,
        output_parsers.league_throughput,
    ),
    Script("driver_scaling", "league", ("--games", "6000", "--repeats", "3"), ("--quick",), 600),
    Script("program_throughput", "league", ("--games", "40", "--repeats", "3"), ("--games", "6"), 600),
    Script("driver_memory", "league", ("--games", "100000"), ("--games", "20000"), 600),
    Script(
        "report_speed",
        "report",
        ("--games", "10000", "100000"),
        ("--games", "10000"),
        900,
        output_parsers.report_speed,
    ),
    Script("sandbox_cost", "sandbox", (), ("--quick",), 300, output_parsers.sandbox_cost),
    Script("fairness", "fairness", (), ("--quick",), 1200, output_parsers.fairness),
    Script("starvation", "fairness", (), ("--quick",), 300, output_parsers.starvation),
    Script(
        "analysis_speed",
        "analysis",
        (),
        ("--games", "20000", "--samples", "50"),
        300,
        output_parsers.analysis_speed,
    ),
    Script("sprt_errors", "statistics", (), ("--tests", "200", "--elo1", "20"), 2400),
    Script("adaptive_efficiency", "statistics", (), ("--quick",), 1500),
    Script("hidden_truth", "statistics", ("--leagues", "2000"), ("--leagues", "100"), 1200),
    Script("league_or_tournament", "statistics", (), ("--quick",), 900),
    Script("bot_version_speed", "versions", ("--repeats", "3"), ("--repeats", "1"), 300),
    Script("contest_load", "contest", (), ("--quick",), 600),
]


def run_script(script: Script, quick: bool, folder: Path) -> tuple[ScriptRun, list[Figure]]:
    """Run one script in its own process; what it did and its figures."""
    path = HERE / f"{script.name}.py"
    arguments = list(script.quick if quick else script.full)
    figures_file = folder / f"{script.name}.json"
    extra = ["--figures", str(figures_file)] if script.parser is None else []
    command = f"python benchmarks/{script.name}.py {shlex.join(arguments)}".strip()
    if not path.exists():
        return ScriptRun(command, 0.0, 1, "not found"), [
            Figure(script.area, f"{script.name}.py", None, "", note="not found")
        ]
    limit_s = script.limit_s // 3 if quick else script.limit_s
    started = time.monotonic()
    try:
        done = subprocess.run(
            [sys.executable, str(path), *arguments, *extra], cwd=ROOT, capture_output=True, text=True, timeout=limit_s
        )
        status: int | None = done.returncode
        stdout, stderr = done.stdout, done.stderr
    except subprocess.TimeoutExpired as expired:
        status = None
        stdout, stderr = _text(expired.stdout), _text(expired.stderr)
    seconds = time.monotonic() - started
    tail = "\n".join(stderr.strip().splitlines()[-OUTPUT_TAIL_LINES:])
    output = stdout + (f"\n--- stderr (last {OUTPUT_TAIL_LINES} lines) ---\n{tail}" if tail else "")
    run = ScriptRun(command, seconds, status, output)
    if script.parser is not None:
        figures = script.parser(stdout)
    elif figures_file.exists():
        figures = read_figures(figures_file)
    else:
        figures = []
    if status != 0:
        why = (
            f"{script.name}.py stopped at its time limit of {limit_s} s"
            if status is None
            else f"{script.name}.py failed (exit status {status})"
        )
        figures = [figure for figure in figures if figure.value is not None]
        figures.append(Figure(script.area, f"{script.name}.py", None, "", note=why))
    return run, figures


def _text(data: bytes | str | None) -> str:
    if data is None:
        return ""
    return data.decode(errors="replace") if isinstance(data, bytes) else data


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="every script shorter (about 4 minutes; rougher figures)")
    parser.add_argument("--only", nargs="+", metavar="NAME", help="run only these scripts (e.g. engine_speed playouts)")
    parser.add_argument(
        "--output", type=Path, default=RESULTS, help="where to write the results page (default benchmarks/RESULTS.md)"
    )
    args = parser.parse_args()
    chosen = [script for script in SCRIPTS if not args.only or script.name in args.only]
    unknown = set(args.only or ()) - {script.name for script in SCRIPTS}
    if unknown:
        parser.error(f"unknown script(s) {', '.join(sorted(unknown))}; known: {', '.join(s.name for s in SCRIPTS)}")
    mode = "quick" if args.quick else "full"
    started, load_before = now(), load_average()
    print(f"run_all ({mode}): {len(chosen)} scripts; load average {load_before:.2f}", flush=True)
    runs: list[ScriptRun] = []
    figures: list[Figure] = []
    with tempfile.TemporaryDirectory(prefix="run-all-") as folder:
        try:
            for script in chosen:
                print(f"\n== {script.name}.py", flush=True)
                run, found = run_script(script, args.quick, Path(folder))
                runs.append(run)
                figures += found
                print("\n".join(table(found)))
                print(f"({run.seconds:.0f} s)", flush=True)
        except KeyboardInterrupt:
            print("\nstopped: the page is written with what was measured")
    write_page(args.output, figures, runs, mode, started, (load_before, load_average()))
    missed = [figure for figure in figures if figure.met is False]
    print(f"\n{len(figures)} figures, {len(missed)} target(s) missed; written to {args.output}")


if __name__ == "__main__":
    main()
