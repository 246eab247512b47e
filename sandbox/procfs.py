"""Reading /proc: the fields of each process's ``stat`` line, the process tree, clock ticks.

One parser for what the sandbox asks the kernel about processes: which ones are zombies to reap,
which belong to a bot, how much CPU they used, when a scratch folder's owner started.
"""

from __future__ import annotations

import os
from pathlib import Path

TICK_NS = 1_000_000_000 // os.sysconf("SC_CLK_TCK")
"""Nanoseconds in one clock tick, the unit of /proc's CPU times."""

# Indexes into the fields of /proc/PID/stat after the command name (man 5 proc, counted from 0).
STATE, PPID, PGRP = 0, 1, 2
UTIME, STIME, CUTIME, CSTIME = 11, 12, 13, 14
START_TIME = 19


def stat_fields(pid: int | str) -> list[str] | None:
    """The fields of a process's stat line after its ``(name)``, or None if there is no such process."""
    try:
        return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except (OSError, IndexError):
        return None


def process_table() -> dict[int, list[str]]:
    """Every process's stat fields, from one scan of /proc."""
    table = {}
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            fields = stat_fields(entry.name)
            if fields is not None:
                table[int(entry.name)] = fields
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
