"""Bot slots: a numeric uid (and cgroup name) for each bot running at once on this host.

RLIMIT_NPROC counts per real uid, so two bots must never share one. A slot is held by an
exclusive ``flock`` on a file named after its uid, which works across every process of the host
(several Ray workers, several leagues) and is released by the kernel if the holder dies.
"""

from __future__ import annotations

import fcntl
import os
from dataclasses import dataclass
from pathlib import Path

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
        """A name for the slot's cgroup and scratch folder."""
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
    LOCK_DIR.mkdir(mode=0o700, exist_ok=True)
    for offset in range(SLOT_COUNT):
        uid = FIRST_UID + (start + offset) % SLOT_COUNT
        fd = os.open(LOCK_DIR / str(uid), os.O_RDWR | os.O_CREAT | os.O_CLOEXEC, 0o600)
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            os.close(fd)
            continue
        return Slot(uid, fd)
    raise RuntimeError(f"all {SLOT_COUNT} bot slots (uids {FIRST_UID}+) are in use")
