"""Bot folders, and the files variants name, sent to the nodes of a Ray cluster: packed once, unpacked once a node.

On a cluster the driver's paths mean nothing to the other machines. So before the first game the
driver packs what each program bot needs and each file a variant names (codevs21's
``packs_file``) into a tar with a fixed order, owner and time, named by a hash of its bytes, and
puts it once into Ray's object store (``pack_all``, then the runner). What a bot needs is what
its version digests (``league.plan.bot_files``, one rule for both): with a ``cwd``, that folder;
without one, only the folders of the files its command names in the league file's folder, inside a
copy of that folder that holds nothing else, so relative paths still work (a command that names no
file of its own gets an empty folder to run in). Never shipped, at any depth (``LEFT_BEHIND``):
version control, virtual environments, caches, report folders and stores.

A shipment's hash is the ``league.plan.file_digests.TreeDigest`` of the very bytes it packs: for a
bot's own folder, the folder digest that is part of the bot's version (``league.plan.bot_version``),
so the copy on a node is named by what the bot's games were played with, and both change only when
the bots' own files do.

A worker unpacks what its game needs once a node into a cache there (league/cluster/bot_cache.py, which
also sweeps it), and every path of the bot and the variant under a shipped one is rewritten to the
copy (``localized``).

Where every node sees the same files at the same paths (a shared filesystem), ``cluster:
{shared_path: true}`` in the league file turns all this off. What cannot be shipped is refused
before anything plays (``shipping_problem``): a folder or file over ``MAX_SHIPPED_BYTES``, a file
named in a bot's command that lies outside its folder, or one that is never shipped.
"""

from __future__ import annotations

import io
import os
import stat
import tarfile
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from engine.core import plural
from league.cluster.bot_cache import ShippedPath, unpacked
from league.plan.bot_files import command_parts, installed, members, stays_behind, within
from league.plan.file_digests import TreeDigest, file_digest
from sandbox.access import named_paths

if TYPE_CHECKING:
    from league.plan.config import League

MAX_SHIPPED_BYTES = 512 << 20
"""The most a shipped folder or file may hold (each is packed in the driver's memory)."""


@dataclass(frozen=True)
class Shipment:
    """What a cluster run sends of one path of the driver, and who needs it.

    Attributes:
        path: The folder or file (absolute, as bot and variant data name it).
        named_by: Who needs it: ``bots[0] (mine)``, ``variants.a.packs_file``.
        parts: Of a folder, the files and folders shipped (those the commands of bots without a
            ``cwd`` name); None: all of it. Either way without what stays behind.
    """

    path: Path
    named_by: tuple[str, ...]
    parts: tuple[Path, ...] | None = None


def shipped_sources(league: League) -> list[Shipment]:
    """What a cluster run ships: each program's folder (or the part of it its command names) and each variant file."""
    found: dict[Path, Shipment] = {}

    def add(path: Path, who: str, parts: tuple[Path, ...] | None) -> None:
        known = found.get(path)
        if known is None:
            found[path] = Shipment(path, (who,), parts)
            return
        both = None if known.parts is None or parts is None else tuple(sorted({*known.parts, *parts}))
        found[path] = Shipment(path, tuple(dict.fromkeys((*known.named_by, who))), both)

    for index, (spec, bot) in enumerate(zip(league.bots.values(), league.config.bots, strict=True)):
        for side in spec.sides():
            if side.command is not None and side.cwd is not None:
                folder = Path(side.cwd)
                parts = None if bot.cwd is not None else command_parts(side.command, folder)
                add(folder, f"bots[{index}] ({spec.name})", None if parts is not None and folder in parts else parts)
    for name, game in league.games.items():
        for key in type(game).path_keys:
            value = getattr(game, key, None)
            if isinstance(value, str):
                add(Path(value), f"variants.{name}.{key}", None)
    return list(found.values())


def shipping_problem(league: League) -> str | None:
    """Why the league cannot run on a cluster whose nodes do not share the driver's files, or None.

    Nothing is checked where the league declares ``cluster: {shared_path: true}``.
    """
    if league.config.cluster.shared_path:
        return None
    shared = "declare cluster: {shared_path: true} where every node sees the same paths"
    skip = _left_behind(league)
    for index, (spec, bot) in enumerate(zip(league.bots.values(), league.config.bots, strict=True)):
        for side in spec.sides():
            folder = Path(side.cwd or ".")
            outside = _named_outside(side.command or (), folder)
            if outside is not None:
                own = f"its folder {side.cwd}" if bot.cwd is not None else f"the league file's folder {side.cwd}"
                return (
                    f"bots[{index}] ({spec.name}): its command names {outside}, outside {own}, and only that folder's"
                    " files are shipped to the cluster's nodes; move the file into a folder and give that folder as"
                    f" the bot's cwd, or {shared}"
                )
            for word, path in named_paths(side.command or (), folder):
                if stays_behind(folder, Path(os.path.abspath(path)), skip):
                    return (
                        f"bots[{index}] ({spec.name}): its command names {word}, which is never shipped to the"
                        " cluster's nodes (.git, .venv, __pycache__, report folders and league stores stay behind);"
                        f" name an installed program or move the file out of there, or {shared}"
                    )
    for shipment in shipped_sources(league):
        path, bots = shipment.path, shipment.named_by[0].startswith("bots[")
        size = packed_size(path, skip, limit=MAX_SHIPPED_BYTES, parts=shipment.parts)
        if size > MAX_SHIPPED_BYTES:
            fix = "give the bot a folder of its own with only what it runs (cwd), or " if path.is_dir() else ""
            where = f"{', '.join(shipment.named_by)}{': its folder' if bots else ''}"
            return (
                f"{where} {path} holds over {MAX_SHIPPED_BYTES >> 20} MB, too much to ship to the cluster's nodes;"
                f" {fix}{shared}"
            )
    return None


def shipping_note(league: League) -> str:
    """What a cluster run sends to the nodes: a summary line, then one indented line a folder or file shipped."""
    if league.config.cluster.shared_path:
        return "cluster: shared path: bot folders and variant files are used where they are on every node"
    skip = _left_behind(league)
    shipments = shipped_sources(league)
    if not shipments:
        return "cluster: nothing to ship (built-in bots only)"
    lines, total, folders = [], 0, 0
    for shipment in shipments:
        path, parts = shipment.path, shipment.parts
        left: list[Path] = []
        entries = list(members(path, skip, parts, left)) if path.is_dir() else [path]
        files = [member.lstat() for member in entries if stat.S_ISREG(member.lstat().st_mode)]
        size = sum(info.st_size for info in files)
        total, folders = total + size, folders + path.is_dir()
        if parts is None:
            scope = ""
        elif parts:
            scope = f" (only {', '.join(part.relative_to(path).as_posix() for part in parts)})"
        else:
            scope = " (none of it: the command names no file there; an empty folder to run in)"
        line = f"    {path}{scope} for {', '.join(shipment.named_by)}: {plural(len(files), 'file')}, {_size(size)}"
        if left:
            names = [entry.relative_to(path).as_posix() for entry in left]
            more = f" and {len(names) - 6} more" if len(names) > 6 else ""
            line += f"; left behind: {', '.join(names[:6])}{more}"
        lines.append(line)
    kinds = [plural(folders, "bot folder")] if folders else []
    kinds += [plural(len(shipments) - folders, "variant file")] if len(shipments) > folders else []
    head = f"cluster: {' and '.join(kinds)} ({_size(total)}) shipped to the nodes through Ray's object store"
    return "\n".join([head, *lines])


def pack_all(league: League) -> dict[str, ShippedPath]:
    """Pack every folder and file the league's workers need (the runner then puts each into Ray's object store).

    Returns:
        Per source path, what to ship with its bytes; empty where the league declares a shared path.
    """
    if league.config.cluster.shared_path:
        return {}
    skip = _left_behind(league)
    shipped = {}
    for shipment in shipped_sources(league):
        path = shipment.path
        data, digest = packed(path, skip, shipment.parts)
        shipped[str(path)] = ShippedPath(str(path), digest, path.is_dir(), data)
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


def pack(path: Path, skip: tuple[Path, ...] = (), parts: tuple[Path, ...] | None = None) -> bytes:
    """A folder's tree (or one file) as tar bytes that depend only on names, contents, modes and links (``packed``)."""
    return packed(path, skip, parts)[0]


def packed(path: Path, skip: tuple[Path, ...] = (), parts: tuple[Path, ...] | None = None) -> tuple[bytes, str]:
    """A folder's tree (or one file) as tar bytes, and the ``TreeDigest`` of the bytes packed.

    Entries come in sorted order with owner root and time 0; what stays behind (``LEFT_BEHIND``,
    report folders, ``skip``) and anything but files, folders and symbolic links are left out. The
    digest is taken of what went into the tar, as it was read: for a bot's folder, the folder digest
    of its version (``league.plan.bot_version``) while its files are unchanged.

    Args:
        path: The folder or file.
        skip: More paths never shipped (the league's report folder).
        parts: Only these files and folders of it (and the folders that lead to them); None: all.
    """
    buffer, tree = io.BytesIO(), TreeDigest()
    with tarfile.open(fileobj=buffer, mode="w:", format=tarfile.PAX_FORMAT) as archive:
        if path.is_dir():
            for entry in members(path, skip, parts):
                _add(archive, entry, entry.relative_to(path).as_posix(), tree)
        else:
            _add(archive, path, path.name, tree)
    return buffer.getvalue(), tree.hexdigest()


def packed_size(
    path: Path, skip: tuple[Path, ...] = (), limit: int | None = None, parts: tuple[Path, ...] | None = None
) -> int:
    """Bytes of the files ``pack`` would take (counting stops once past ``limit``)."""
    if not path.is_dir():
        return path.stat().st_size
    total = 0
    for entry in members(path, skip, parts):
        info = entry.lstat()
        total += info.st_size if stat.S_ISREG(info.st_mode) else 0
        if limit is not None and total > limit:
            break
    return total


def _add(archive: tarfile.TarFile, path: Path, name: str, tree: TreeDigest) -> None:
    info = archive.gettarinfo(str(path), arcname=name)
    mode = info.mode
    info.mtime, info.uid, info.gid, info.uname, info.gname = 0, 0, 0, "", ""
    info.mode &= 0o777
    if info.isreg():
        data = path.read_bytes()  # the bytes packed are the bytes digested
        info.size = len(data)
        archive.addfile(info, io.BytesIO(data))
        tree.add(name, stat.S_IFREG | mode, file_digest(io.BytesIO(data)))
    else:
        archive.addfile(info)
        kind = stat.S_IFLNK if info.issym() else stat.S_IFDIR
        tree.add(name, kind | mode, info.linkname if info.issym() else "")


def _left_behind(league: League) -> tuple[Path, ...]:
    """Paths never shipped besides ``LEFT_BEHIND``: the league's report folder (it may lie in a bot's folder)."""
    return (league.output.resolve(),)


def _size(total: int) -> str:
    return f"{total / 1e6:.1f} MB" if total >= 1e6 else f"{max(1, round(total / 1e3)) if total else 0} KB"


def _named_outside(argv: tuple[str, ...] | list[str], folder: Path) -> str | None:
    """The first existing path a command names outside ``folder`` and outside what every node has installed."""
    for argument, path in named_paths(argv, folder):
        try:
            resolved = path.resolve()
        except OSError:
            continue
        if not within(resolved, folder.resolve()) and not installed(resolved):
            return argument
    return None
