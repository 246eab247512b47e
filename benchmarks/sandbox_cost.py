"""What the jail costs: launch time and line round trip of a bot, with and without it, in one run.

Run ``.venv/bin/python benchmarks/sandbox_cost.py [--quick]`` from the repository root (as root,
with bubblewrap installed, for the full jail). A tiny C program (``benchmarks/c/line_echo.c``,
compiled into ``benchmarks/_build/``) prints ``ready`` when it starts and echoes every line.

* **Launch**: from creating the ``BotProcess`` to reading its ``ready`` line, then shutting it
  down (cgroup and slot released, the scratch tmpfs gone with the jail), for ``--sandbox none``
  and for the jail. Target: a jailed launch under 20 ms.
* **Round trip**: one ``ping`` line sent and its echo read through the referee's own
  transport and poller, many times on one running bot, without and with the jail. Target: no
  measurable per-line cost.

Figures to read, never pass/fail; medians are printed beside means because a shared 2-core VM
is noisy.
"""

import argparse
import statistics
import subprocess
import time
from pathlib import Path

from sandbox.jail import Sandbox, jail_problem
from sandbox.limits import SandboxMode
from sandbox.process import BotProcess
from sandbox.transport import Poller

ROOT = Path(__file__).resolve().parent
BUILD = ROOT / "_build"


def build() -> str:
    BUILD.mkdir(exist_ok=True)
    binary = BUILD / "line_echo"
    subprocess.run(["gcc", "-O2", "-o", str(binary), str(ROOT / "c" / "line_echo.c")], check=True)
    return str(binary)


def read_line(process: BotProcess, poller: Poller) -> bytes:
    while True:
        event = process.take_line(False, True, None)
        if event is not None:
            return event.data
        poller.wait(5.0)


def launch_ms(binary: str, sandbox: Sandbox | None, count: int) -> list[float]:
    times = []
    for _ in range(count):
        start = time.perf_counter()
        process = BotProcess([binary], cwd=str(BUILD), sandbox=sandbox)
        poller = Poller()
        poller.add(process)
        assert read_line(process, poller) == b"ready"
        times.append((time.perf_counter() - start) * 1000)
        poller.remove(process)
        poller.close()
        process.close()
    return times


def round_trip_us(binary: str, sandbox: Sandbox | None, count: int) -> list[float]:
    process = BotProcess([binary], cwd=str(BUILD), sandbox=sandbox)
    poller = Poller()
    poller.add(process)
    read_line(process, poller)
    times = []
    for _ in range(count):
        start = time.perf_counter_ns()
        process.send(b"ping\n")
        read_line(process, poller)
        times.append((time.perf_counter_ns() - start) / 1000)
    poller.remove(process)
    poller.close()
    process.close()
    return times


def describe(values: list[float], unit: str) -> str:
    return f"median {statistics.median(values):8.2f} {unit}  mean {statistics.mean(values):8.2f} {unit}"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true")
    args = parser.parse_args()
    launches, trips = (20, 2000) if args.quick else (100, 20000)
    binary = build()
    problem = jail_problem()
    print(f"sandbox_cost: jail {'available' if problem is None else 'NOT available: ' + problem}")
    jail = Sandbox(SandboxMode.AUTO)
    launch_ms(binary, None, 3)  # warm the page cache
    launch_ms(binary, jail, 3)
    plain_launch, jailed_launch = launch_ms(binary, None, launches), launch_ms(binary, jail, launches)
    print(f"launch, no jail : {describe(plain_launch, 'ms')}   ({launches} launches)")
    print(f"launch, jailed  : {describe(jailed_launch, 'ms')}   target: under 20 ms")
    print(f"jail launch cost: {statistics.median(jailed_launch) - statistics.median(plain_launch):.2f} ms (medians)")
    plain_trip, jailed_trip = round_trip_us(binary, None, trips), round_trip_us(binary, jail, trips)
    print(f"round trip, no jail: {describe(plain_trip, 'us')}   ({trips} lines)")
    print(f"round trip, jailed : {describe(jailed_trip, 'us')}")
    cost = statistics.median(jailed_trip) - statistics.median(plain_trip)
    print(f"per-line cost of the jail: {cost:+.2f} us (medians)")


if __name__ == "__main__":
    main()
