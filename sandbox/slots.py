"""Bot slots: a numeric uid (and cgroup name) for each bot running at once on this host.

RLIMIT_NPROC counts per real uid, so two bots must never share one. A slot is held by an
exclusive ``flock`` on a file named after its uid, which works across every process of the host
(several Ray workers, several leagues) and is released by the kernel if the holder dies.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path

from sandbox.locks import hold_first_free

FIRST_UID = 60000
SLOT_COUNT = 4096
LOCK_DIR = Path("/tmp/league-slots")


@dataclass
class Slot:
    """One held slot.

    Attributes:
        uid: The unprivileged uid (and gid) the bot runs as.
        fd: The open lock file that holds the slot.
    """

    uid: int
    fd: int

    @property
    def name(self) -> str:
        """A name for the slot's cgroup."""
        return f"slot{self.uid}"

    def release(self) -> None:
        """Give the slot back."""
        if self.fd >= 0:
            os.close(self.fd)
            self.fd = -1


def acquire_slot(start: int = 0) -> Slot:
    """Hold the first free slot, scanning from ``start`` (spread callers to scan less).

    Raises:
        RuntimeError: Every slot is taken.
    """
    uids = (FIRST_UID + (start + offset) % SLOT_COUNT for offset in range(SLOT_COUNT))
    held = hold_first_free(LOCK_DIR, (str(uid) for uid in uids))
    if held is None:
        raise RuntimeError(f"all {SLOT_COUNT} bot slots (uids {FIRST_UID}+) are in use")
    return Slot(int(held[0]), held[1])
