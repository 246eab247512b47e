"""Whether a jailed bot can read the host files it is given.

When the league runs as root, every bot runs as an unprivileged uid of its own (sandbox/slots.py)
with no groups: the bind mounts of the jail show it its folder and the files of its command, but
the files' own permission bits still apply, and for that uid only the bits for "others" count. A
bot folder of mode 700 or a helper file of mode 600 would make every game a forfeit, so the
league checks before anything plays and names the first file the bot could not read.

What a bot is shown of the host beyond its own folder follows from its command: the folder of
every file the command names (a script's helper modules live beside it; ``named_paths`` and
``bound_folder``; the whole list is ``sandbox.folders``). The jail binds those folders, this check
walks them, and a cluster run ships them (league/cluster/shipping.py): all three from the same two functions.
"""

from __future__ import annotations

import os
import stat
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path

WALK_LIMIT = 5_000
"""Entries looked at in one folder tree; past that the rest is not checked (no false refusals)."""

_READ_DIR = stat.S_IROTH | stat.S_IXOTH
BROAD_FOLDERS = tuple(
    map(Path, ("/", "/tmp", "/var/tmp", "/home", "/root", "/var", "/run", "/mnt", "/media", "/srv", "/boot"))
)
"""Folders never shown to a bot whole because a file it names lies in them (``/tmp`` is its scratch)."""
_DEVICES = tuple(map(Path, ("/dev", "/proc", "/sys")))
"""The jail's own: no folder of them is ever bound from the host (``/dev/null`` named is the jail's)."""


def named_paths(argv: Sequence[str], cwd: Path) -> list[tuple[str, Path]]:
    """The existing host paths a command line names, each with the words that name it.

    The program when given by a path (``./bot``, ``/opt/x/bin/bot``; a bare name is found on
    ``PATH``), and every other argument, or each ``:``-separated part of one (a class path), that
    is not an option and names a file or folder relative to ``cwd``.

    Args:
        argv: The command line.
        cwd: Where it runs.

    Returns:
        (word, ``cwd / word``) pairs, not resolved, in command order.
    """
    found: list[tuple[str, Path]] = []
    for index, argument in enumerate(argv):
        if not argument or argument.startswith("-") or (index == 0 and "/" not in argument):
            continue
        parts = [argument] if ":" not in argument or os.path.exists(cwd / argument) else argument.split(":")
        # os.path.exists: a word too long to be a file name (or holding a NUL) is no file, not an error
        found += [(part, cwd / part) for part in parts if part and os.path.exists(cwd / part)]
    return found


def broad(path: Path) -> bool:
    """Whether ``path`` (resolved) is a folder too broad to show a bot whole: ``/``, ``/tmp``, a home folder..."""
    return path in BROAD_FOLDERS or path.parent == Path("/home") or path == Path.home().resolve()


def bound_folder(path: Path) -> Path | None:
    """What a bot is shown for a path its command names (resolved): the folder it lies in, or the folder itself.

    A script's helper modules and data live beside it, so the whole folder comes with it. Where
    that folder is too broad (``broad``: a script straight in ``/tmp`` or a home folder) the file
    alone comes; a broad folder named itself, or anything of ``/dev``, ``/proc`` and ``/sys`` (the
    jail has its own), brings nothing.
    """
    if any(path == top or top in path.parents for top in _DEVICES):
        return None
    if path.is_dir():
        return None if broad(path) else path
    return path if broad(path.parent) else path.parent


@dataclass(frozen=True)
class Unreadable:
    """A host path a jailed bot cannot use.

    Attributes:
        path: The path.
        mode: Its permission bits.
        what: ``folder``, ``file`` or ``program``.
        root: The folder that was being checked (the bot's folder), or the path itself.
    """

    path: Path
    mode: int
    what: str
    root: Path

    def message(self) -> str:
        """One sentence: what cannot be read, why, and the fix."""
        need = "executable" if self.what == "program" else "readable"
        own = "give the bot a folder of its own (--cwd SEAT:FOLDER, or cwd: in a league file)"
        if self.what == "program":
            fix = f"chmod a+rx {self.path}"
        elif _private(self.path) or _private(self.root):
            fix = own  # never advise opening a home folder, / or a dot-folder to everyone
        else:
            fix = f"chmod -R a+rX {self.path}" if self.what == "folder" else f"chmod a+r {self.path}"
            if self.root != self.path:
                fix += f", or move it out of the bot's folder {self.root}"
        return (
            f"{self.path} ({self.what}, mode {stat.S_IMODE(self.mode):03o}) is not {need} by other users, and"
            f" bots run in the jail as an unprivileged user: {fix}"
        )


def _private(path: Path) -> bool:
    """Folders no one should open to all users: /, /root, /tmp, home folders, dot-folders."""
    home = Path.home().resolve()
    return (
        path in (Path("/"), Path("/root"), Path("/tmp"), Path("/home"), home)
        or path.parent == Path("/home")
        or path.name.startswith(".")
    )


def _problem(path: Path, status: os.stat_result, root: Path) -> Unreadable | None:
    mode = status.st_mode
    if stat.S_ISDIR(mode) and mode & _READ_DIR != _READ_DIR:
        return Unreadable(path, mode, "folder", root)
    if stat.S_ISREG(mode) and not mode & stat.S_IROTH:
        return Unreadable(path, mode, "file", root)
    return None


def check_tree(root: Path, limit: int = WALK_LIMIT) -> Unreadable | None:
    """The first entry of ``root`` (itself included) that others cannot read, or None.

    Hidden entries (a dot-folder such as ``.ssh`` or ``.git``) are not the bot's code and are left
    out; symbolic links are not followed; after ``limit`` entries the rest is taken as readable.
    """
    try:
        found = _problem(root, root.stat(), root)
    except OSError:
        return None
    if found is not None or not root.is_dir():
        return found
    seen = 0
    for folder, dirs, files in os.walk(root):
        dirs[:] = [name for name in dirs if not name.startswith(".")]
        for name in [*dirs, *(name for name in files if not name.startswith("."))]:
            seen += 1
            if seen > limit:
                return None
            path = Path(folder, name)
            try:
                status = path.lstat()
            except OSError:
                continue
            found = _problem(path, status, root)
            if found is not None:
                return found
        dirs[:] = [name for name in dirs if not Path(folder, name).is_symlink()]
    return None


def check_paths(paths: Iterable[Path]) -> Unreadable | None:
    """The first of ``paths`` (not their contents) that others cannot read, or None."""
    for path in paths:
        try:
            found = _problem(path, path.stat(), path)
        except OSError:
            continue
        if found is not None:
            return found
    return None


def check_program(path: Path) -> Unreadable | None:
    """The program file itself: others must be able to run it (and read it if it is a script)."""
    try:
        status = path.stat()
    except OSError:
        return None
    if not stat.S_ISREG(status.st_mode):
        return None
    script = _starts_with_shebang(path)
    needed = stat.S_IXOTH | (stat.S_IROTH if script else 0)
    if status.st_mode & needed != needed:
        return Unreadable(path, status.st_mode, "program", path)
    return None


def _starts_with_shebang(path: Path) -> bool:
    try:
        with path.open("rb") as handle:
            return handle.read(2) == b"#!"
    except OSError:
        return False
