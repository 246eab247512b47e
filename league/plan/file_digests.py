"""Digests of folder trees (names, bytes, modes, links), with a cache of file digests as git's index keeps one.

``TreeDigest`` is the one definition of a tree's digest: each entry's relative name, kind (file,
folder, link), permission bits and content (a file's BLAKE2b, a link's target), in the order given.
``league.cluster.shipping`` feeds it the bytes it packs; ``tree_digest`` reads the files itself,
through a ``DigestCache``, so an unchanged folder of 100 MB or 10,000 files costs only its ``lstat``
calls (see benchmarks/bot_version_speed.py).

The cache (``cache_path``: ``$LEAGUE_DIGEST_CACHE``, else ``$XDG_CACHE_HOME/league/file-digests.json``,
else ``~/.cache/league/file-digests.json``) keeps, per absolute path, the file's size, mtime, ctime,
inode and device with its digest; a file whose stat differs in any of them is read again. An edit
that keeps size and mtime (``touch -d`` back) still moves the ctime, which no user can set. The
racy case (git's "racily clean" entries): a file changed twice within one timestamp tick, once
before it was read and once after, keeps all of its stat; so an entry whose mtime or ctime lies
within ``RACY_NS`` of the moment the cache is written is never kept, and such a file is read again
next time. A cache that is missing, damaged, or cannot be written only means reading the files
again: it never fails a command.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
import stat
import tempfile
import time
from collections.abc import Iterable
from pathlib import Path
from typing import BinaryIO

CACHE_VARIABLE = "LEAGUE_DIGEST_CACHE"
"""The environment variable naming the cache file (default: under the user's cache folder)."""
RACY_NS = 2_000_000_000
"""An entry changed this close to the cache's writing (2 s: the coarsest timestamps, FAT's) is not kept."""
MAX_ENTRIES = 200_000
"""Past this many entries a written cache keeps only those used since it was read."""
DIGEST_SIZE = 16
"""Bytes of every digest (32 hex digits: the name of a shipped copy, ``league.cluster.bot_cache``)."""
_FORMAT = 1
_CHUNK = 1 << 20


class TreeDigest:
    """The digest of a tree, fed entry by entry in order (a folder's sorted walk, or one file)."""

    def __init__(self) -> None:
        """An empty tree."""
        self._hash = hashlib.blake2b(digest_size=DIGEST_SIZE)

    def add(self, name: str, mode: int, content: str = "") -> None:
        """Add one entry.

        Args:
            name: Its path relative to the tree's root (``/`` between parts); a file alone: its name.
            mode: Its ``lstat`` mode (the kind and the permission bits count; owners and times never).
            content: A file's ``file_digest``, a link's target, "" for a folder.
        """
        kind = "l" if stat.S_ISLNK(mode) else "d" if stat.S_ISDIR(mode) else "f"
        self._hash.update(f"{name}\0{kind}\0{mode & 0o777:o}\0{content}\0".encode("utf-8", "surrogateescape"))

    def hexdigest(self) -> str:
        """The digest so far, 32 hex digits."""
        return self._hash.hexdigest()


def file_digest(stream: BinaryIO) -> str:
    """The BLAKE2b digest of a file's bytes, read in chunks."""
    digest = hashlib.blake2b(digest_size=DIGEST_SIZE)
    while chunk := stream.read(_CHUNK):
        digest.update(chunk)
    return digest.hexdigest()


def cache_path() -> Path:
    """Where the cache of file digests lives (``CACHE_VARIABLE``, else the user's cache folder)."""
    given = os.environ.get(CACHE_VARIABLE)
    if given:
        return Path(given)
    base = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(base) / "league" / "file-digests.json"


class DigestCache:
    """File digests by path, trusted while the file's stat is the same (see the module's docstring).

    Attributes:
        path: The cache file (None: nothing read or written, every file read).
        reads: How many files were read (not found in the cache) since it was opened.
    """

    def __init__(self, path: Path | None) -> None:
        """Open the cache at ``path`` (a missing or damaged file is an empty cache)."""
        self.path = path
        self.reads = 0
        self._entries: dict[str, list[int | str]] = {}
        self._used: set[str] = set()
        self._dirty = False
        if path is not None:
            with contextlib.suppress(OSError, ValueError, TypeError, AttributeError):
                data = json.loads(path.read_text())
                if data.get("format") == _FORMAT and isinstance(data.get("files"), dict):
                    self._entries = data["files"]  # each entry checked when looked up (``_well_formed``)

    def digest(self, path: Path, info: os.stat_result) -> str:
        """The digest of the regular file ``path`` whose ``lstat`` is ``info``: from the cache, else read."""
        key = str(path)
        signature = [info.st_size, info.st_mtime_ns, info.st_ctime_ns, info.st_ino, info.st_dev]
        known = self._entries.get(key)
        self._used.add(key)
        if _well_formed(known) and known[:-1] == signature:
            return str(known[-1])
        with path.open("rb") as stream:
            value = file_digest(stream)
        self.reads += 1
        after = path.lstat()
        if [after.st_size, after.st_mtime_ns, after.st_ctime_ns, after.st_ino, after.st_dev] == signature:
            self._entries[key] = [*signature, value]  # changed while read: not kept, read again next time
            self._dirty = True
        return value

    def save(self, now: int | None = None) -> None:
        """Write the cache (whole, beside it then renamed), without its racy entries; never raises.

        Args:
            now: The moment the cache is written, in ns since the epoch (default: the clock's now).
        """
        if self.path is None or not self._dirty:
            return
        now = time.time_ns() if now is None else now
        entries = self._entries
        if len(entries) > MAX_ENTRIES:
            entries = {key: entries[key] for key in self._used if key in entries}
        kept = {key: value for key, value in entries.items() if _well_formed(value) and _settled(value, now)}
        with contextlib.suppress(OSError):
            self.path.parent.mkdir(parents=True, exist_ok=True)
            fd, partial = tempfile.mkstemp(prefix=".file-digests-", dir=self.path.parent)
            try:
                with os.fdopen(fd, "w") as out:
                    json.dump({"format": _FORMAT, "files": kept}, out, separators=(",", ":"))
                os.replace(partial, self.path)
            finally:
                with contextlib.suppress(OSError):
                    os.unlink(partial)
        self._dirty = False


def _well_formed(entry: object) -> bool:
    """Whether a cache entry read back is five integers and a digest (anything else is dropped)."""
    return (
        isinstance(entry, list)
        and len(entry) == 6
        and all(isinstance(value, int) for value in entry[:5])
        and isinstance(entry[5], str)
    )


def _settled(entry: list[int | str], now: int) -> bool:
    """Whether an entry's file last changed long enough before ``now`` to be trusted by its stat later."""
    mtime, ctime = entry[1], entry[2]
    return isinstance(mtime, int) and isinstance(ctime, int) and max(mtime, ctime) < now - RACY_NS


def tree_digest(root: Path, entries: Iterable[Path], cache: DigestCache) -> str:
    """The ``TreeDigest`` of ``entries`` (paths under the folder ``root``, in order), files through ``cache``.

    Where ``root`` is a file, ``entries`` is ``[root]`` and it is named by its own name.
    """
    tree = TreeDigest()
    prefix = len(str(root)) + 1
    for entry in entries:
        info = entry.lstat()
        name = entry.name if entry == root else str(entry)[prefix:]  # relative to root: ``/`` between parts
        if stat.S_ISREG(info.st_mode):
            tree.add(name, info.st_mode, cache.digest(entry, info))
        elif stat.S_ISLNK(info.st_mode):
            tree.add(name, info.st_mode, os.readlink(entry))
        else:
            tree.add(name, info.st_mode)
    return tree.hexdigest()
