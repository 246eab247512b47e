"""What of the host a jailed bot is shown: its own folders, its interpreter's installation, and nothing else.

Of the host beyond the system folders (``/usr``, ``/etc``, ``/opt``) the jail shows a bot, read-only:

* the folder given as its own (``cwd`` in a league file, ``--cwd`` of ``league play``), whole;
* the folder of every file its command names (``sandbox.access.bound_folder``: a script's helper
  modules live beside it), so ``python3 bots/mine/bot.py`` sees ``bots/mine`` and nothing beside it;
* its program's installation (the prefix above its ``bin``) and that of each interpreter a ``#!``
  line names;
* the paths the organiser lists (``sandbox.read_only``).

The folder a bot runs in is shown only when it is its own. Otherwise (the league file's folder, the
current folder of ``league play``) it is an empty folder at the same path, holding only what the
list above puts in it: relative paths of the command keep working, while the league file, the report
folder and other bots' folders beside it stay out of sight (``mount_arguments``).

``own_folders`` is the part of this that belongs to the bot alone (no installation, no extra path):
what the league compares between bots so that none is shown another's files (league/plan/bot_folders.py).
"""

from __future__ import annotations

import re
import shutil
import sys
from collections.abc import Iterable, Sequence
from pathlib import Path

from sandbox.access import bound_folder, broad, named_paths

SYSTEM_DIRS = ("/usr", "/etc", "/opt")
SYSTEM_LINKS = ("/bin", "/sbin", "/lib", "/lib32", "/lib64", "/libx32")
INTERPRETERS = re.compile(r"(python|pypy)[0-9.]*|java|node|nodejs|ruby|perl|php|lua|sh|bash|dash|Rscript|julia")
"""Program names of interpreters: their installation is shared, never a bot's own folder."""


def is_system(path: Path) -> bool:
    """Whether ``path`` lies in the system folders every jail shows anyway."""
    return any(path == Path(top) or Path(top) in path.parents for top in (*SYSTEM_DIRS, *SYSTEM_LINKS))


def within(path: Path, folder: Path) -> bool:
    """Whether ``path`` is ``folder`` or lies in it."""
    return path == folder or folder in path.parents


def installation_roots(path: Path) -> set[Path]:
    """Folders an installed program needs: the prefix above its ``bin``/``shims``, or its folder (never a broad one)."""
    folder = path.parent
    root = folder.parent if folder.name in ("bin", "shims", "sbin") else folder
    for candidate in (root, folder):
        if not broad(candidate):
            return {candidate}
    return {path}


def shebang_program(path: Path) -> Path | None:
    """The interpreter a ``#!`` line of ``path`` names, or None."""
    try:
        with path.open("rb") as handle:
            first = handle.readline(256)
    except OSError:
        return None
    if not first.startswith(b"#!"):
        return None
    words = first[2:].decode("latin-1").split()
    return Path(words[0]) if words else None


def program_installations(argv: Sequence[str], cwd: Path) -> set[Path]:
    """Where a command's program is installed, and each interpreter its ``#!`` lines name (system folders left out).

    Args:
        argv: The command line (a bare program name is found on ``PATH``).
        cwd: Where it runs.
    """
    wanted: set[Path] = set()
    program = argv[0]
    where = shutil.which(program) if "/" not in program else None
    located = cwd / program if "/" in program else (Path(where) if where else None)
    seen: set[Path] = set()
    while located is not None and located not in seen:
        seen.add(located)
        for candidate in (located.absolute(), located.resolve()):
            if not is_system(candidate):
                wanted |= installation_roots(candidate)
        located = shebang_program(located.resolve())
    return wanted


def outermost(paths: Iterable[Path]) -> list[Path]:
    """The existing ``paths`` outside the system folders, sorted, without those that lie in another."""
    kept = sorted({path for path in paths if not is_system(path) and path.exists()})
    return [path for path in kept if not any(other in path.parents for other in kept)]


def _named_folders(argv: Sequence[str], cwd: Path, skipped: Iterable[Path] = ()) -> set[Path]:
    """The folders the jail shows for the paths a command names (``bound_folder``), but those in ``skipped``."""
    skipped = tuple(skipped)
    folders: set[Path] = set()
    for _, path in named_paths(argv, cwd):
        resolved = path.resolve()
        if is_system(resolved) or any(within(resolved, root) for root in skipped):
            continue
        folder = bound_folder(resolved)
        folders |= {folder} if folder is not None else set()
    return folders


def exposed_paths(argv: Sequence[str], cwd: Path, extra: Sequence[str] = ()) -> list[Path]:
    """Host paths a bot is shown read-only: the folders of the files of its command, its interpreter, ``extra``.

    A file its command names comes with the folder it lies in (``sandbox.access.bound_folder``), so
    a script named from outside its working folder still finds its helper modules beside it. The
    working folder itself is not among them: a bot whose folder is its own has it in ``extra``.

    Args:
        argv: The bot's command line.
        cwd: Its working folder (resolved).
        extra: More paths: its own folder, the config's ``sandbox.read_only``.
    """
    wanted = program_installations(argv, cwd) | _named_folders(argv, cwd)
    return outermost(wanted | {Path(path).resolve() for path in extra})


def own_folders(argv: Sequence[str], cwd: Path, own_folder: bool) -> list[Path]:
    """The host folders a bot is shown that are its own: what no other bot may share unknowingly.

    Its working folder when given as its own, and the folder of each file its command names, but
    for what is installed: the system, the league's own Python, and an interpreter's installation
    (``/opt/pypy/bin/pypy3 bot.py``: ``/opt/pypy`` is shared by right).

    Args:
        argv: The bot's command line.
        cwd: Its working folder (resolved).
        own_folder: ``cwd`` was given as the bot's own folder (shown whole).
    """
    installed = {Path(sys.prefix).resolve(), Path(sys.base_prefix).resolve()}
    if INTERPRETERS.fullmatch(Path(argv[0]).name):
        installed |= program_installations(argv, cwd)
    return outermost(_named_folders(argv, cwd, installed) | ({cwd} if own_folder else set()))


def mount_arguments(exposed: Sequence[Path], cwd: Path) -> list[str]:
    """The bubblewrap arguments that show ``exposed`` read-only at their own paths, and ``cwd`` to run in.

    A ``cwd`` that no exposed path holds is made an empty folder (as are the folders leading to
    each path): the bot can run there, and sees of it only the exposed paths inside it.

    Args:
        exposed: The host paths (``exposed_paths``), none inside another.
        cwd: Where the bot runs (resolved).
    """
    args: list[str] = []
    made: set[Path] = set()

    def make(folders: Iterable[Path]) -> None:
        for folder in folders:
            if folder != Path("/") and folder not in made and not is_system(folder):
                made.add(folder)
                args.extend(["--perms", "0755", "--dir", str(folder)])

    if not any(within(cwd, path) for path in exposed):
        make([*reversed(cwd.parents), cwd])
    for path in exposed:
        make(reversed(path.parents))
        args += ["--ro-bind", str(path), str(path)]
    return args
