"""Reaping what bots leave behind: the league process adopts its bots' orphans and waits for them.

bubblewrap's processes end just after the one the referee kills, and would otherwise outlive the
league as zombies of init. The process that starts bots makes itself a child subreaper, so every
orphan below it comes back to it, and waits for each bot's processes before going on.
"""

from __future__ import annotations

import ctypes
import os
import time
from collections.abc import Iterable

from sandbox.procfs import PPID, STATE, process_table

_PR_SET_CHILD_SUBREAPER = 36
_subreaper = False
TRACKED: set[int] = set()
"""Children that their own ``Popen`` objects wait for (never reaped behind their back)."""


def become_subreaper() -> None:
    """Adopt orphaned descendants of our bots (Linux), so they can be reaped, not left as zombies."""
    global _subreaper
    if _subreaper:
        return
    _subreaper = True
    try:
        libc = ctypes.CDLL(None, use_errno=True)
        libc.prctl(_PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0)
    except (OSError, AttributeError):
        pass


def reap_orphans() -> int:
    """Reap exited descendants we adopted that no BotProcess owns; returns how many."""
    me = os.getpid()
    reaped = 0
    for pid, fields in process_table().items():
        if pid not in TRACKED and fields[STATE] == "Z" and int(fields[PPID]) == me:
            try:
                os.waitpid(pid, os.WNOHANG)
                reaped += 1
            except ChildProcessError:
                pass
    return reaped


def wait_gone(pids: Iterable[int], deadline: float) -> None:
    """Wait until none of ``pids`` exists any more (reaping those we adopted), until ``deadline``.

    A jail's inner processes end just after the one we killed; were we to exit first they would
    linger on the host as zombies of init.
    """
    left = set(pids)
    while left and time.monotonic() < deadline:
        for pid in list(left):
            try:
                os.waitpid(pid, os.WNOHANG)
            except ChildProcessError:
                pass
            try:
                os.kill(pid, 0)
            except ProcessLookupError:
                left.discard(pid)
            except PermissionError:
                pass
        if left:
            time.sleep(0.001)
