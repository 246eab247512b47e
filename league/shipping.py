"""Bot folders, and the files variants name, sent to the nodes of a Ray cluster: packed once, unpacked once a node.

On a cluster the driver's paths mean nothing to the other machines. So before the first game the
driver packs each program bot's folder (its ``cwd``) and each file a variant names (codevs21's
``packs_file``) into a tar with a fixed order, owner and time, named by a hash of its bytes, and
puts it once into Ray's object store (``pack_all``, then the runner). A worker unpacks what its game needs into a cache
on its node (``<tmp>/league-bots/<hash>``, or ``$LEAGUE_BOT_CACHE/<hash>``), under a lock so that
the workers of one node unpack it once, and every path of the bot and the variant under a shipped
one is rewritten to the copy (``localized``). A later run with the same files finds them
unpacked. A folder's ``.git`` and the league's own report folder stay behind.

Where every node sees the same files at the same paths (a shared filesystem), ``cluster:
{shared_path: true}`` in the league file turns all this off. What cannot be shipped is refused
before anything plays (``shipping_problem``): a folder or file over ``MAX_SHIPPED_BYTES``, or a
file named in a bot's command that lies outside its folder.
"""

from __future__ import annotations

import contextlib
import fcntl
import hashlib
import io
import os
import shutil
import stat
import sys
import tarfile
import tempfile
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from engine.core import plural

if TYPE_CHECKING:
    from league.config import League

MAX_SHIPPED_BYTES = 512 << 20
"""The most a shipped folder or file may hold (each is packed in the driver's memory)."""
LEFT_BEHIND = (".git",)
"""Entries of a bot's folder that are never shipped."""
CACHE_VARIABLE = "LEAGUE_BOT_CACHE"
"""The environment variable of a node's Ray workers that says where copies go (default ``<tmp>/league-bots``)."""
INSTALLED = ("/usr", "/bin", "/sbin", "/lib", "/lib64", "/opt", "/etc")
"""Where files every node has installed live: a command may name them from outside its folder."""
_unpacked_here: dict[str, Path] = {}
"""This process's unpacked copies, by hash (a game does not take the lock again)."""


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


def shipped_sources(league: League) -> list[tuple[str, Path]]:
    """What a cluster run ships: (where it is named, path) for each program's folder and each variant file."""
    found: dict[Path, str] = {}
    for index, spec in enumerate(league.bots.values()):
        for side in spec.sides():
            if side.command is not None and side.cwd is not None:
                found.setdefault(Path(side.cwd), f"bots[{index}] ({spec.name}): its folder")
    for name, game in league.games.items():
        for key in type(game).path_keys:
            value = getattr(game, key, None)
            if isinstance(value, str):
                found.setdefault(Path(value), f"variants.{name}.{key}")
    return [(where, path) for path, where in found.items()]


def shipping_problem(league: League) -> str | None:
    """Why the league cannot run on a cluster whose nodes do not share the driver's files, or None.

    Nothing is checked where the league declares ``cluster: {shared_path: true}``.
    """
    if league.config.cluster.shared_path:
        return None
    for index, spec in enumerate(league.bots.values()):
        for side in spec.sides():
            outside = _named_outside(side.command or (), Path(side.cwd or "."))
            if outside is not None:
                return (
                    f"bots[{index}] ({spec.name}): its command names {outside}, outside its folder {side.cwd}, and only"
                    " the folder is shipped to the cluster's nodes; move the file into the folder (give the folder as"
                    " cwd), or declare cluster: {shared_path: true} where every node sees the same paths"
                )
    skip = _left_behind(league)
    for where, path in shipped_sources(league):
        size = packed_size(path, skip, limit=MAX_SHIPPED_BYTES)
        if size > MAX_SHIPPED_BYTES:
            fix = (
                "give the bot a folder of its own with only what it runs (cwd), or declare"
                if path.is_dir()
                else "declare"
            )
            return (
                f"{where} {path} holds over {MAX_SHIPPED_BYTES >> 20} MB, too much to ship to the cluster's nodes;"
                f" {fix} cluster: {{shared_path: true}} where every node sees the same paths"
            )
    return None


def shipping_note(league: League) -> str:
    """One line saying what a cluster run sends to the nodes."""
    if league.config.cluster.shared_path:
        return "cluster: shared path: bot folders and variant files are used where they are on every node"
    skip = _left_behind(league)
    paths = [path for _, path in shipped_sources(league)]
    if not paths:
        return "cluster: nothing to ship (built-in bots only)"
    folders = sum(path.is_dir() for path in paths)
    parts = [plural(folders, "bot folder")] if folders else []
    parts += [plural(len(paths) - folders, "variant file")] if len(paths) > folders else []
    total = sum(packed_size(path, skip) for path in paths)
    size = f"{total / 1e6:.1f} MB" if total >= 1e6 else f"{max(1, round(total / 1e3))} KB"
    return f"cluster: {' and '.join(parts)} ({size}) shipped to the nodes through Ray's object store"


def pack_all(league: League) -> dict[str, ShippedPath]:
    """Pack every folder and file the league's workers need (the runner then puts each into Ray's object store).

    Returns:
        Per source path, what to ship with its bytes; empty where the league declares a shared path.
    """
    if league.config.cluster.shared_path:
        return {}
    skip = _left_behind(league)
    shipped = {}
    for _, path in shipped_sources(league):
        packed = pack(path, skip)
        shipped[str(path)] = ShippedPath(str(path), _digest(packed), path.is_dir(), packed)
    return shipped


def localized(data: Any, shipped: Mapping[str, ShippedPath], cache: Path | None = None) -> Any:
    """``data`` (bot or variant data) with every path under a shipped source rewritten to this node's copy.

    The copies are unpacked on first use (see ``unpacked``).

    Args:
        data: Strings, lists, tuples and dicts of them.
        shipped: What the driver shipped, by source path.
        cache: Where copies are unpacked (default: ``$LEAGUE_BOT_CACHE``, else ``<tmp>/league-bots``).
    """
    if not shipped:
        return data
    if isinstance(data, dict):
        return {key: localized(value, shipped, cache) for key, value in data.items()}
    if isinstance(data, list | tuple):
        return type(data)(localized(value, shipped, cache) for value in data)
    if not isinstance(data, str):
        return data
    for source in sorted(shipped, key=len, reverse=True):  # a bot's own folder before a folder around it
        if data == source or data.startswith(source.rstrip("/") + "/"):
            entry = shipped[source]
            copy = unpacked(entry, cache)
            local = copy if entry.is_folder else copy / Path(source).name
            return str(local) + data[len(source) :]
    return data


def unpacked(entry: ShippedPath, cache: Path | None = None) -> Path:
    """This node's copy of a shipped folder or file (the folder it is unpacked in), unpacked once a node.

    Workers of one node take turns on a lock; the first fetches the bytes and unpacks them beside
    the copy, then renames them into place, so a copy that exists is always whole.
    """
    known = _unpacked_here.get(entry.digest)
    if known is not None and known.is_dir():
        return known
    root = cache or Path(os.environ.get(CACHE_VARIABLE) or Path(tempfile.gettempdir()) / "league-bots")
    root.mkdir(mode=0o755, parents=True, exist_ok=True)
    copy = root / entry.digest
    with _locked(root / f"{entry.digest}.lock"):
        if not copy.is_dir():
            partial = Path(tempfile.mkdtemp(prefix=f"{entry.digest}.part-", dir=root))
            try:
                partial.chmod(0o755)  # jailed bots run as other users
                with tarfile.open(fileobj=io.BytesIO(_fetch(entry.data)), mode="r:") as archive:
                    archive.extractall(partial, filter="tar")
                partial.rename(copy)
            finally:
                shutil.rmtree(partial, ignore_errors=True)  # gone already once renamed
    _unpacked_here[entry.digest] = copy
    return copy


def pack(path: Path, skip: tuple[Path, ...] = ()) -> bytes:
    """A folder's tree (or one file) as tar bytes that depend only on names, contents, modes and links.

    Entries come in sorted order with owner root and time 0; ``.git`` folders, ``skip`` and
    anything but files, folders and symbolic links are left out.
    """
    buffer = io.BytesIO()
    with tarfile.open(fileobj=buffer, mode="w:", format=tarfile.PAX_FORMAT) as archive:
        if path.is_dir():
            for entry in _tree(path, skip):
                _add(archive, entry, entry.relative_to(path).as_posix())
        else:
            _add(archive, path, path.name)
    return buffer.getvalue()


def packed_size(path: Path, skip: tuple[Path, ...] = (), limit: int | None = None) -> int:
    """Bytes of the files ``pack`` would take (counting stops once past ``limit``)."""
    if not path.is_dir():
        return path.stat().st_size
    total = 0
    for entry in _tree(path, skip):
        info = entry.lstat()
        total += info.st_size if stat.S_ISREG(info.st_mode) else 0
        if limit is not None and total > limit:
            break
    return total


def _tree(folder: Path, skip: tuple[Path, ...]) -> Iterator[Path]:
    """The files, folders and links under ``folder`` in sorted order, without what stays behind."""
    for entry in sorted(folder.iterdir()):
        if entry.name in LEFT_BEHIND or entry in skip:
            continue
        mode = entry.lstat().st_mode
        if stat.S_ISLNK(mode) or stat.S_ISREG(mode):
            yield entry
        elif stat.S_ISDIR(mode):
            yield entry
            yield from _tree(entry, skip)


def _add(archive: tarfile.TarFile, path: Path, name: str) -> None:
    info = archive.gettarinfo(str(path), arcname=name)
    info.mtime, info.uid, info.gid, info.uname, info.gname = 0, 0, 0, "", ""
    info.mode &= 0o777
    if info.isreg():
        with path.open("rb") as contents:
            archive.addfile(info, contents)
    else:
        archive.addfile(info)


def _digest(packed: bytes) -> str:
    return hashlib.blake2b(packed, digest_size=16).hexdigest()


def _fetch(data: bytes | Callable[[], bytes]) -> bytes:
    """The packed bytes: given as they are, or fetched."""
    return data if isinstance(data, bytes) else data()


@contextlib.contextmanager
def _locked(path: Path) -> Iterator[None]:
    with path.open("a") as handle:
        fcntl.flock(handle, fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(handle, fcntl.LOCK_UN)


def _left_behind(league: League) -> tuple[Path, ...]:
    """Paths never shipped: the league's report folder (it may lie in a bot's folder)."""
    return (league.output.resolve(),)


def _named_outside(argv: tuple[str, ...] | list[str], folder: Path) -> str | None:
    """The first existing path a command names outside ``folder`` and outside what every node has installed."""
    installed = (*INSTALLED, sys.prefix, sys.base_prefix)
    for index, argument in enumerate(argv):
        if argument.startswith("-") or (index == 0 and "/" not in argument):
            continue  # an option, or a program found on PATH
        path = folder / argument
        try:
            if not path.exists():
                continue
            resolved = path.resolve()
        except OSError:
            continue
        inside = [folder.resolve(), *map(Path, installed)]
        if not any(resolved == base or base in resolved.parents for base in inside):
            return argument
    return None
