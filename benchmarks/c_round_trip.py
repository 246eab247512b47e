"""The floor, for ``benchmarks/engine_speed.py`` (its part 4): request/reply round trips between two C programs.

The sources are in ``benchmarks/c/``, compiled with gcc (or cc) into ``benchmarks/_build/`` at every run.
"""

from __future__ import annotations

import os
import shutil
import subprocess
from dataclasses import dataclass
from pathlib import Path

from speed_settings import Settings, heading

HERE = Path(__file__).resolve().parent
C_SOURCES = HERE / "c"
BUILD = HERE / "_build"


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
