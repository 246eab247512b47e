"""Reading /proc: the fields of each process's ``stat`` line, the process tree, clock ticks.

One parser for what the sandbox asks the kernel about processes: which ones are zombies to reap,
which belong to a bot, how much CPU they used, when a scratch folder's owner started.
"""

from __future__ import annotations

import os

TICK_NS = 1_000_000_000 // os.sysconf("SC_CLK_TCK")
"""Nanoseconds in one clock tick, the unit of /proc's CPU times."""

# Indexes into the fields of /proc/PID/stat after the command name (man 5 proc, counted from 0).
STATE, PPID, PGRP = 0, 1, 2
UTIME, STIME, CUTIME, CSTIME = 11, 12, 13, 14
START_TIME = 19


def read_small(path: str) -> bytes | None:
    """A small /proc file's bytes (one read, no Python file object: scans read thousands), or None."""
    try:
        fd = os.open(path, os.O_RDONLY)
    except OSError:
        return None
    try:
        return os.read(fd, 4096)
    except OSError:
        return None
    finally:
        os.close(fd)


def stat_fields(pid: int | str) -> list[str] | None:
    """The fields of a process's stat line after its ``(name)``, or None if there is no such process."""
    data = read_small(f"/proc/{pid}/stat")
    if not data:
        return None
    _, paren, rest = data.rpartition(b")")
    return rest.decode("ascii", "replace").split() if paren else None


def process_table() -> dict[int, list[str]]:
    """Every process's stat fields, from one scan of /proc."""
    table = {}
    for name in os.listdir("/proc"):
        if name.isdigit():
            fields = stat_fields(name)
            if fields is not None:
                table[int(name)] = fields
    return table


def children_of(table: dict[int, list[str]]) -> dict[int, list[int]]:
    """Parent pid -> its child pids, from a ``process_table``."""
    children: dict[int, list[int]] = {}
    for pid, fields in table.items():
        children.setdefault(int(fields[PPID]), []).append(pid)
    return children


def descendants(pid: int, children: dict[int, list[int]] | None = None) -> list[int]:
    """``pid`` and every process below it (from ``children``, else from a fresh scan)."""
    children = children if children is not None else children_of(process_table())
    found, frontier = [], [pid]
    while frontier:
        current = frontier.pop()
        found.append(current)
        frontier += children.get(current, [])
    return found


class OpenCounter:
    """A /proc or cgroup file of counters kept open and read again from its start each time (one system call).

    Args:
        path: The file; one that cannot be opened reads as None.
    """

    def __init__(self, path: str | os.PathLike[str]) -> None:
        try:
            self.fd: int | None = os.open(path, os.O_RDONLY)
        except OSError:
            self.fd = None

    def read(self) -> bytes | None:
        """The file's bytes now, or None (not opened, or gone: a process that ended)."""
        if self.fd is None:
            return None
        try:
            return os.pread(self.fd, 4096, 0)
        except OSError:
            return None

    def schedstat(self) -> tuple[int, int] | None:
        """A ``schedstat`` file's (CPU ns, run-queue wait ns) (see ``schedstat``), or None."""
        return _schedstat(self.read())

    def close(self) -> None:
        """Close the file (reads then give None)."""
        if self.fd is not None:
            os.close(self.fd)
            self.fd = None


def schedstat(path: str) -> tuple[int, int] | None:
    """A thread's (CPU ns, run-queue wait ns) from a ``schedstat`` file, or None if it is gone.

    ``/proc/PID/schedstat`` is the process's main thread; ``/proc/thread-self/schedstat`` the
    calling thread. The wait is the time it was ready to run while another task held its CPU.
    """
    return _schedstat(read_small(path))


def _schedstat(data: bytes | None) -> tuple[int, int] | None:
    try:
        cpu, wait = data.split()[:2]  # type: ignore[union-attr]
        return int(cpu), int(wait)
    except (AttributeError, ValueError):
        return None


def main_process(pid: int, wrappers: tuple[str, ...]) -> int | None:
    """The first process below ``pid`` that is not one of ``wrappers`` (program names), following first children.

    ``pid`` itself must have become a wrapper: a jailed bot's command runs below the jail's own
    processes (bubblewrap and its init), which ``pid`` becomes once the launch chain before it
    (a shell joining the cgroup, prlimit) has run. None while the bot's command has not started
    yet, or when it is gone.
    """
    current = pid
    for _ in range(8):
        try:
            name = os.path.basename(os.readlink(f"/proc/{current}/exe"))
        except OSError:
            return None
        if name not in wrappers:
            return None if current == pid else current
        data = read_small(f"/proc/{current}/task/{current}/children")
        children = data.split() if data else []
        if not children:
            return None
        current = int(children[0])
    return None
