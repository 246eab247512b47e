"""The CPU side of a running bot: the CPU time of its processes, its main thread's counters, its CPU weight.

``BotCpu`` is mixed into ``sandbox.process.BotProcess``. The referee's ``own`` clock reads a bot's
CPU time and its main thread's run-queue wait at each end of a reply (``own_counters``); a bot
seen computing between its reply and its next request loses CPU weight while it is not asked
(``thinking``). Counts come from the bot's cgroup where it has one, else from /proc.
"""

from __future__ import annotations

import os
import subprocess

from sandbox.jail import LaunchPlan
from sandbox.procfs import CSTIME, STATE, TICK_NS, UTIME, OpenCounter, main_process, read_small, stat_fields

PONDERING_NS = 5_000_000
"""CPU time a bot may use between its reply and its next request before it counts as computing on others' time."""
JAIL_WRAPPERS = ("bwrap",)
"""Programs of the jail that run above the bot's own command (bubblewrap and its init process)."""


def tree_cpu_ns(pid: int) -> int:
    """CPU time (user + system, with reaped children) of a process and every process below it, from /proc.

    Walks the tree through each process's ``children`` file (a few reads for a bot, not a scan of
    every process on the host); a process that left the tree (its parent died) is not counted.
    """
    ticks, frontier = 0, [pid]
    while frontier:
        current = frontier.pop()
        fields = stat_fields(current)
        if fields is None:
            continue
        ticks += sum(int(value) for value in fields[UTIME : CSTIME + 1])
        for task in _tasks(current):
            data = read_small(f"/proc/{current}/task/{task}/children")
            frontier += [int(child) for child in data.split()] if data else []
    return ticks * TICK_NS


def _tasks(pid: int) -> list[str]:
    try:
        return os.listdir(f"/proc/{pid}/task")
    except OSError:
        return []


class BotCpu:
    """The CPU counters of a bot run as a child process, mixed into ``BotProcess``.

    The class it is mixed into sets ``plan`` (how the bot was launched: its jail and cgroup) and
    ``popen`` (the outermost process: the jail's, or the bot's own where it has none).
    """

    plan: LaunchPlan
    popen: subprocess.Popen[bytes]
    _main_schedstat: OpenCounter | None = None
    _answered_cpu_ns: int | None = None
    ponders = False
    """Whether the bot was seen computing between its reply and its next request (see ``thinking``)."""

    def cpu_ns(self) -> int | None:
        """CPU time of everything the bot started: from its cgroup, else from /proc for its process tree."""
        if self.plan.cgroup is not None:
            return self.plan.cgroup.cpu_ns()
        return tree_cpu_ns(self.popen.pid)

    def main_pid(self) -> int | None:
        """The process of the bot's own command: below the jail's processes, the first that is not one of them.

        None while the jail has not started it yet.
        """
        return main_process(self.popen.pid, JAIL_WRAPPERS) if self.plan.jailed else self.popen.pid

    def _main_counts(self) -> tuple[int, int] | None:
        """The main thread's (CPU ns, run-queue wait ns), read from a file kept open; None before it runs."""
        if self._main_schedstat is None:
            pid = self.main_pid()
            if pid is None:
                return None
            self._main_schedstat = OpenCounter(f"/proc/{pid}/schedstat")
        return self._main_schedstat.schedstat()

    def _close_main_counts(self) -> None:
        """Close the main thread's counters file (the bot has ended)."""
        if self._main_schedstat is not None:
            self._main_schedstat.close()

    def wait_ns(self) -> int | None:
        counts = self._main_counts()
        return counts[1] if counts is not None else None

    def own_counters(self) -> tuple[int | None, int | None]:
        """Its cgroup's CPU time (jailed), else its main thread's (unjailed: a bot one trusts), and its wait.

        One read of the main thread's counters gives both where there is no cgroup, so an unjailed
        bot costs the referee no walk of its process tree each reply.
        """
        counts = self._main_counts()
        wait = counts[1] if counts is not None else None
        if self.plan.cgroup is not None:
            return self.plan.cgroup.cpu_ns(), wait
        if self.plan.jailed:
            return tree_cpu_ns(self.popen.pid), wait
        return (counts[0] if counts is not None else None), wait

    def ready_to_run(self) -> bool:
        pid = self.main_pid()
        fields = stat_fields(pid) if pid is not None else None
        return fields is not None and fields[STATE] == "R"

    def thinking(self, asked: bool) -> None:
        """Lower the CPU weight of a bot that computes on others' time while it is not asked; restore it when asked.

        A bot that waits for its next request (almost every bot) keeps its weight and costs no
        cgroup write. One that used more than ``PONDERING_NS`` of CPU between its reply and its
        next request (pondering, or hogging) is marked, and from then on its weight drops after
        each reply (``CgroupSlot.thinking``): only the turn it was caught on ran at full weight.
        """
        cgroup = self.plan.cgroup
        if cgroup is None or cgroup.cpu_dir is None:
            return
        used = cgroup.cpu_ns()
        if asked:
            if used is not None and self._answered_cpu_ns is not None and used - self._answered_cpu_ns > PONDERING_NS:
                self.ponders = True
            cgroup.thinking(True)
            return
        self._answered_cpu_ns = used
        if self.ponders:
            cgroup.thinking(False)
