"""Host-wide numbered leases: the first free one of a set of lock files, held by an open file.

A lease is held while its file descriptor is open (``flock``), so a process that dies releases
its leases with its descriptors; nothing to clean up after a crash.
"""

from __future__ import annotations

import fcntl
import os
from collections.abc import Iterable
from pathlib import Path


def hold_first_free(folder: Path, names: Iterable[str]) -> tuple[str, int] | None:
    """Lock the first of ``names`` (files in ``folder``) that nobody holds.

    Args:
        folder: Where the lock files live (made, private, if missing).
        names: Lock file names, in the order to try them.

    Returns:
        The name held and its open, locked file descriptor (close it to release), or None when
        every one is held.
    """
    folder.mkdir(mode=0o700, exist_ok=True)
    for name in names:
        fd = os.open(folder / name, os.O_RDWR | os.O_CREAT | os.O_CLOEXEC, 0o600)
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            os.close(fd)
            continue
        return name, fd
    return None
