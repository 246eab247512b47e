"""Which files of a program bot's folder count: what the cluster ships of it and what its version digests.

One rule, used by both (``league.cluster.shipping`` packs these entries, ``league.plan.bot_version``
digests them), so a bot's version covers exactly what is shipped of it:

* with a ``cwd`` (a folder of its own), that folder;
* without one (it runs in the league file's folder), only the folders of the files its command
  names there, as the jail shows and the access check walks them (``sandbox.access``): for
  ``python3 bots/mine/bot.py`` the folder ``bots/mine`` (its helper modules); a command that names
  no file of its own (``python3 -c ...``, ``/usr/bin/x``) has none.

Never counted, at any depth (``LEFT_BEHIND``): version control, virtual environments and caches
(``.git``, ``.venv``, ``__pycache__``...), report folders (``reports``, any folder holding a
league's ``games.jsonl``, the league's own ``output``) and stores (``games.jsonl``,
``moves.jsonl``): what a run writes there never changes a bot's version. Only files, folders and
symbolic links count (sockets, fifos and devices never).
"""

from __future__ import annotations

import os
import sys
from collections.abc import Iterator, Sequence
from pathlib import Path

from league.store.folder import MOVE_LOG, STORE, holds_store
from sandbox.access import bound_folder, named_paths

LEFT_BEHIND = frozenset(
    {".git", ".hg", ".svn", ".venv", "__pycache__", ".pytest_cache", ".mypy_cache", ".ruff_cache", "reports"}
    | {STORE, MOVE_LOG}
)
"""Names of entries never shipped nor digested, at any depth; so is any folder holding a league's store (``STORE``)."""
INSTALLED = ("/usr", "/bin", "/sbin", "/lib", "/lib64", "/opt", "/etc")
"""Where files every node has installed live: a command may name them from outside its folder."""


def command_parts(argv: Sequence[str], folder: Path) -> tuple[Path, ...]:
    """What a bot without a folder of its own needs of the one it runs in: the folders of the files its command names.

    Each existing path its command names inside ``folder`` and not installed brings the folder it
    lies in (``sandbox.access.bound_folder``: a script's helper modules live beside it), as the
    jail shows it. A command that names none (``python3 -c ...``, ``/usr/bin/x``) needs nothing.
    """
    parts = set()
    for _, path in named_paths(argv, folder):
        resolved = path.resolve()
        if installed(Path(os.path.abspath(path))) or installed(resolved) or not within(resolved, folder):
            continue
        bound = bound_folder(resolved)
        if bound is not None and within(bound, folder):
            parts.add(bound)
    return tuple(sorted(parts))


def members(
    folder: Path, skip: tuple[Path, ...], parts: tuple[Path, ...] | None, left: list[Path] | None = None
) -> Iterator[Path]:
    """The entries that count of ``folder``, in sorted order; what stays behind is added to ``left``.

    Args:
        folder: The bot's folder.
        skip: More paths never counted (the league's report folder).
        parts: Only these files and folders of it (and the folders that lead to them); None: all.
        left: Where to add what stays behind (for ``shipping_note``).
    """
    if parts is None:
        yield from tree(folder, skip, left)
        return
    entries: set[Path] = set()
    for part in parts:
        if stays_behind(folder, part, skip):
            continue
        relative = part.relative_to(folder).parts
        entries |= {folder.joinpath(*relative[:depth]) for depth in range(1, len(relative) + 1)}
        if part.is_dir():
            entries.update(tree(part, skip, left))
    yield from sorted(entries, key=lambda entry: entry.relative_to(folder).parts)


def tree(folder: Path, skip: tuple[Path, ...], left: list[Path] | None = None) -> Iterator[Path]:
    """The files, folders and links under ``folder`` in sorted order, without what stays behind."""
    with os.scandir(folder) as scan:
        found = sorted(scan, key=lambda item: item.name)
    for item in found:  # a scan's entry knows its kind without a stat
        entry = folder / item.name
        is_folder = item.is_dir(follow_symlinks=False)
        if never_shipped(entry, is_folder, skip):
            if left is not None:
                left.append(entry)
            continue
        if item.is_symlink() or item.is_file(follow_symlinks=False):
            yield entry
        elif is_folder:
            yield entry
            yield from tree(entry, skip, left)


def never_shipped(entry: Path, is_folder: bool, skip: tuple[Path, ...]) -> bool:
    """Whether ``entry`` stays behind: a name of ``LEFT_BEHIND``, one of ``skip``, or a folder holding a league."""
    return entry.name in LEFT_BEHIND or entry in skip or (is_folder and holds_store(entry))


def stays_behind(folder: Path, path: Path, skip: tuple[Path, ...]) -> bool:
    """Whether ``path`` (absolute, under ``folder``) lies in something never shipped."""
    if not within(path, folder):
        return False
    relative = path.relative_to(folder).parts
    for depth in range(1, len(relative) + 1):
        entry = folder.joinpath(*relative[:depth])
        if never_shipped(entry, entry.is_dir(), skip):
            return True
    return False


def installed(path: Path) -> bool:
    """Whether ``path`` lies where every node has the same files installed (the system, this Python)."""
    return any(within(path, Path(base)) for base in (*INSTALLED, sys.prefix, sys.base_prefix))


def within(path: Path, folder: Path) -> bool:
    """Whether ``path`` is ``folder`` or lies in it."""
    return path == folder or folder in path.parents
