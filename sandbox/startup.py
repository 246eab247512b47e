"""Fair start-up: let freshly started bots settle before their first request is sent.

A rules file measures a request's time from the moment its last byte is written. A bot whose
process was started just before (a JVM takes 100-200 ms in the jail, a Python bot 50 ms) would
pay its start-up out of that first limit. The referee starts every process a game (or half)
needs at once, then waits until each is idle, i.e. waiting for input: its own command has
started (not only the jail that starts it), none of its processes is running or waiting on the
disk, and together they have used almost no CPU over a short window. Then the first request goes
out and the clock starts as the rules say. The wait has a cap, so a bot that computes before
reading only delays the game by it.
"""

from __future__ import annotations

import os
import time
from collections.abc import Sequence

from sandbox.process import BotProcess
from sandbox.procfs import (
    CSTIME,
    CUTIME,
    STATE,
    TICK_NS,
    children_of,
    descendants,
    process_table,
    read_small,
    stat_fields,
)

QUIET_WINDOW_S = 0.02
"""How long a bot must stay (almost) idle to count as settled, where a cgroup counts its CPU time."""
QUIET_WINDOW_PROC_S = 0.05
"""The same from /proc's counts, which miss short-lived helpers that end within an accounting tick."""
BUSY_SHARE = 0.05
"""CPU share over the window above which a bot is still starting (a running process shows far
more, whatever the kernel's accounting granularity; an idle JVM's housekeeping far less)."""
SAMPLE_S = 0.002
ACTIVE_STATES = frozenset("RD")
"""Process states of a bot still starting: running, or blocked on the disk (loading its code)."""


def thread_cpu_ns(pids: Sequence[int], table: dict[int, list[str]]) -> dict[int, dict[int, int]]:
    """Per pid of ``pids``, CPU time counters of it and its live descendants (counter -> ns).

    For bots whose CPU time no cgroup tracks (no cgroups, or no jail). Each live thread counts
    with the scheduler's own nanoseconds (``/proc/PID/task/TID/schedstat``, key TID), since /proc's
    tick counts move in 10 ms steps, far too coarse to tell a starting bot from an idle one; each
    process also counts the time of the children it reaped (ticks, key -PID), so that short-lived
    helpers (a shell wrapper's subcommands) are seen even when they end between two samples.
    Pids that are gone are left out.

    Args:
        pids: The bots' processes.
        table: One scan of /proc (``process_table``), shared with the rest of the sample.
    """
    children = children_of(table)
    found: dict[int, dict[int, int]] = {}
    for pid in pids:
        if pid not in table:
            continue
        counters: dict[int, int] = {}
        for current in descendants(pid, children):
            fields = table.get(current)
            counters[-current] = (int(fields[CUTIME]) + int(fields[CSTIME])) * TICK_NS if fields else 0
            try:
                tasks = os.listdir(f"/proc/{current}/task")
            except OSError:
                tasks = []
            for task in tasks:
                data = read_small(f"/proc/{current}/task/{task}/schedstat")
                try:  # its CPU time and its wait for a CPU: a starved thread is no idle one
                    counters[int(task)] = sum(map(int, data.split()[:2]))  # type: ignore[union-attr]
                except (AttributeError, IndexError, ValueError):  # the thread ended meanwhile
                    continue
        found[pid] = counters
    return found


def _cpu_ns(processes: Sequence[BotProcess], table: dict[int, list[str]] | None) -> dict[int, dict[int, int]]:
    """Per process (by pid), time it ran or waited to run, by counter: cgroup CPU and main thread wait, else threads'.

    Its cgroup's CPU time and its main thread's wait for a CPU are precise and cheap; without a
    cgroup, each thread's CPU time and wait.

    A bot kept from a CPU by a busy machine uses little CPU while it starts: its wait tells it from an idle one.
    ``table`` is the sample's one scan of /proc, taken when some bot has no cgroup (None: scanned here if needed).
    """
    found: dict[int, dict[int, int]] = {}
    for process in processes:
        used = process.plan.cgroup.cpu_ns() if process.plan.cgroup is not None else None
        if used is not None:
            waited = process.wait_ns()
            found[process.pid] = {0: used} if waited is None else {0: used, 1: waited}
    rest = [process.pid for process in processes if process.pid not in found]
    if not rest:
        return found
    return found | thread_cpu_ns(rest, table if table is not None else process_table())  # a cgroup that cannot tell


def _gain(before: dict[int, int], after: dict[int, int]) -> int:
    """CPU time used between two samples: what each counter gained (threads that ended count nothing)."""
    return sum(value - before.get(key, 0) for key, value in after.items())


def _active(process: BotProcess, children: dict[int, list[int]] | None) -> bool:
    """Whether the bot has not started its own command yet, or one of its processes runs or waits on the disk.

    A jail that sets itself up, or a program whose code is still coming from a busy disk, uses
    almost no CPU and would look idle by its CPU time alone. ``children`` is the sample's process
    tree (``children_of``), taken when some bot has no cgroup.
    """
    if process.main_pid() is None:
        return True
    cgroup = process.plan.cgroup
    pids = cgroup.pids() if cgroup is not None else descendants(process.pid, children)
    for pid in pids:
        fields = stat_fields(pid)
        if fields is not None and fields[STATE] in ACTIVE_STATES:
            return True
    return False


def wait_until_idle(processes: Sequence[BotProcess], cap_s: float) -> float:
    """Wait until every process is idle (or has exited), at most ``cap_s``; returns the seconds waited.

    Args:
        processes: Bots just started, before anything was sent to them.
        cap_s: The longest wait.
    """
    began = time.monotonic()
    if not processes or cap_s <= 0:
        return 0.0
    history: dict[int, list[tuple[float, dict[int, int]]]] = {process.pid: [] for process in processes}
    waiting = list(processes)
    while waiting and time.monotonic() - began < cap_s:
        now = time.monotonic()
        table = process_table() if any(process.plan.cgroup is None for process in waiting) else None
        children = children_of(table) if table is not None else None  # one scan of /proc a sample, at most
        used = _cpu_ns(waiting, table)
        still = []
        for process in waiting:
            if process.pid not in used or process.popen.poll() is not None:
                continue  # exited: nothing to wait for
            samples = history[process.pid]
            started = sum(used[process.pid].values()) > 0  # a process not yet scheduled has used nothing
            if not started or _active(process, children):
                samples.clear()  # the quiet window starts once it is seen waiting
            samples.append((now, used[process.pid]))
            window = QUIET_WINDOW_S if process.plan.cgroup is not None else QUIET_WINDOW_PROC_S
            earlier = [sample for sample in samples if sample[0] <= now - window]
            if not earlier or _gain(earlier[-1][1], used[process.pid]) >= BUSY_SHARE * (now - earlier[-1][0]) * 1e9:
                still.append(process)
        waiting = still
        if waiting:
            time.sleep(SAMPLE_S)
    return time.monotonic() - began
