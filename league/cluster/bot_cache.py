"""A node's cache of what the driver shipped (``shipping``): unpacked once a node, swept of what nobody uses.

A worker unpacks what its game needs into ``<tmp>/league-bots/<hash>`` (or ``$LEAGUE_BOT_CACHE/<hash>``
in the environment of the node's ``ray start``), named by the hash of the packed bytes, so a later
run with the same files finds it there. Beside each copy lie two lock files (``flock``, held by an
open descriptor, so a killed worker lets go of them; as in sandbox/locks.py):

* ``<hash>.lock``: every worker that uses the copy holds it shared for as long as it lives; a
  sweep removes a copy only when it can hold it exclusively;
* ``<hash>.unpack``: the workers that find the copy missing take turns on it, so the first fetches
  the bytes and unpacks them beside the copy (``<hash>.part-*``), then renames them into place: a
  copy that exists is always whole.

Each copy made anew sweeps the cache (``sweep_cache``): copies nobody holds that were last used
over ``KEEP_DAYS`` ago or are not among the ``KEEP_COPIES`` used last, and what killed workers
left half done.
"""

from __future__ import annotations

import contextlib
import fcntl
import io
import os
import re
import shutil
import tarfile
import tempfile
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path

CACHE_VARIABLE = "LEAGUE_BOT_CACHE"
"""The environment variable of a node's Ray workers that says where copies go (default ``<tmp>/league-bots``)."""
KEEP_COPIES = 16
"""A node's cache keeps at least the copies used last, this many, while they are not too old."""
KEEP_DAYS = 7
"""A copy nobody used for this many days goes at the next sweep."""
_COPY = re.compile(r"[0-9a-f]{32}")
_unpacked_here: dict[str, tuple[Path, int]] = {}
"""This process's unpacked copies, by hash, with the descriptor of the shared lock that keeps each."""


@dataclass(frozen=True)
class ShippedPath:
    """A folder or file of the driver, packed for the nodes.

    Attributes:
        source: Its absolute path on the driver (what bot and variant data name).
        digest: A hash of the packed bytes; the name of its copy on each node.
        is_folder: A folder (its copy is the unpacked folder) or one file (the file in it).
        data: The packed bytes, or a function that fetches them (from Ray's object store on a cluster).
    """

    source: str
    digest: str
    is_folder: bool
    data: bytes | Callable[[], bytes]


def unpacked(entry: ShippedPath, cache: Path | None = None) -> Path:
    """This node's copy of a shipped folder or file (the folder it is unpacked in), unpacked once a node.

    A worker holds a shared lock on each copy it uses (``<hash>.lock``) for as long as it lives, so
    no sweep removes a copy in use. Where the copy is missing, the workers of the node take turns
    on a second lock (``<hash>.unpack``): the first fetches the bytes and unpacks them beside the
    copy, then renames them into place, so a copy that exists is always whole. A copy made anew
    sweeps the cache (``sweep_cache``).
    """
    known = _unpacked_here.get(entry.digest)
    if known is not None and known[0].is_dir():
        return known[0]
    root = cache or Path(os.environ.get(CACHE_VARIABLE) or Path(tempfile.gettempdir()) / "league-bots")
    root.mkdir(mode=0o755, parents=True, exist_ok=True)
    copy, made = root / entry.digest, False
    in_use = _lock(root / f"{entry.digest}.lock", fcntl.LOCK_SH)
    try:
        if not copy.is_dir():
            unpacking = _lock(root / f"{entry.digest}.unpack", fcntl.LOCK_EX)
            try:
                if not copy.is_dir():
                    _unpack(entry, root, copy)
                    made = True
                (root / f"{entry.digest}.unpack").unlink(missing_ok=True)  # the copy is whole: a waiter finds it
            finally:
                os.close(unpacking)
        with contextlib.suppress(OSError):
            os.utime(copy)  # used now: it is among the last used
    except BaseException:
        os.close(in_use)
        raise
    known = _unpacked_here.get(entry.digest)
    _unpacked_here[entry.digest] = (copy, in_use)
    if known is not None:
        os.close(known[1])  # a copy removed under us (by hand), or another thread's: one lock is enough
    if made:
        sweep_cache(root)
    return copy


def release_copies() -> None:
    """Let go of this process's copies (a sweep may then remove them); a worker does so by ending."""
    for _, fd in _unpacked_here.values():
        os.close(fd)
    _unpacked_here.clear()


def sweep_cache(root: Path, now: float | None = None) -> list[str]:
    """Remove from a node's cache the copies nobody uses that are too old or too many, and leftovers.

    A copy goes when no worker holds its lock and it was last used over ``KEEP_DAYS`` ago, or is
    not among the ``KEEP_COPIES`` used last. What killed workers left goes too: a half-unpacked
    copy nobody unpacks any more, a half-removed one, locks without a copy. Safe beside the
    workers of other processes: a copy is taken out of its place (renamed) under its lock, held
    exclusively, and a worker waiting on that lock finds it gone and unpacks it again. Never raises.

    Returns:
        The names removed.
    """
    now = time.time() if now is None else now
    removed: list[str] = []
    try:
        entries = sorted(root.iterdir())
        copies = sorted(
            ((entry.stat().st_mtime, entry) for entry in entries if _COPY.fullmatch(entry.name) and entry.is_dir()),
            reverse=True,
        )
    except OSError:
        return removed
    for rank, (used, copy) in enumerate(copies):
        if rank < KEEP_COPIES and now - used <= KEEP_DAYS * 86400:
            continue
        with _unused(root / f"{copy.name}.lock") as free, contextlib.suppress(OSError):
            if free and copy.stat().st_mtime == used:  # not used since it was listed
                _discard(copy)
                (root / f"{copy.name}.lock").unlink()
                removed.append(copy.name)
    removed += [entry.name for entry in entries if _remove_leftover(root, entry)]
    return removed


def _remove_leftover(root: Path, entry: Path) -> bool:
    """Remove ``entry`` of a cache if a killed worker left it: half removed, half unpacked, a lock without a copy."""
    digest, _, rest = entry.name.partition(".")
    if rest.startswith("gone-"):
        shutil.rmtree(entry, ignore_errors=True)
        return True
    if rest.startswith("part-"):
        lock = root / f"{digest}.unpack"  # held while it is being unpacked
    elif rest in ("lock", "unpack") and entry.exists() and not (root / digest).is_dir():
        lock = entry
    else:
        return False
    with _unused(lock, create=False) as free:
        if not free or (root / digest).is_dir() and lock == entry:
            return False
        try:
            if lock == entry:
                entry.unlink()
            else:
                shutil.rmtree(entry)
        except OSError:
            return False
    return True


def _fetch(data: bytes | Callable[[], bytes]) -> bytes:
    """The packed bytes: given as they are, or fetched."""
    return data if isinstance(data, bytes) else data()


def _unpack(entry: ShippedPath, root: Path, copy: Path) -> None:
    """Fetch and unpack ``entry`` beside ``copy``, then rename it into place (the caller holds its unpack lock)."""
    partial = Path(tempfile.mkdtemp(prefix=f"{entry.digest}.part-", dir=root))
    try:
        partial.chmod(0o755)  # jailed bots run as other users
        with tarfile.open(fileobj=io.BytesIO(_fetch(entry.data)), mode="r:") as archive:
            archive.extractall(partial, filter="tar")
        partial.rename(copy)
    finally:
        shutil.rmtree(partial, ignore_errors=True)  # gone already once renamed


def _discard(copy: Path) -> None:
    """Take a copy out of its place at once (a rename), then remove it."""
    gone = copy.with_name(f"{copy.name}.gone-{os.getpid()}-{time.monotonic_ns()}")
    copy.rename(gone)
    shutil.rmtree(gone, ignore_errors=True)


def _lock(path: Path, operation: int) -> int:
    """An open descriptor of the lock file ``path``, locked (``flock``) as asked, still the file at ``path``."""
    while True:
        fd = os.open(path, os.O_RDWR | os.O_CREAT | os.O_CLOEXEC, 0o644)
        try:
            fcntl.flock(fd, operation)
        except BaseException:
            os.close(fd)
            raise
        if _same_file(fd, path):
            return fd
        os.close(fd)  # removed by a sweep while we waited: lock the new one


def _same_file(fd: int, path: Path) -> bool:
    try:
        return os.path.samestat(os.fstat(fd), path.stat())
    except OSError:
        return False


@contextlib.contextmanager
def _unused(path: Path, create: bool = True) -> Iterator[bool]:
    """Hold the lock file ``path`` exclusively if nobody holds it; yields whether it was had.

    Args:
        path: The lock file.
        create: Make it if it is missing (a copy's); otherwise a missing lock is nobody's.
    """
    if not create and not path.exists():
        yield True
        return
    try:
        fd = _lock(path, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except OSError:  # BlockingIOError: held
        yield False
        return
    try:
        yield True
    finally:
        os.close(fd)
