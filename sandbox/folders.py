"""What of the host a jailed bot is shown: its own folders, its interpreter's installation, and nothing else.

Of the host beyond the system folders (``/usr``, ``/etc``, ``/opt``) the jail shows a bot, read-only:

* the folder given as its own (``cwd`` in a league file, ``--cwd`` of ``league play``), whole;
* the folder of every file its command names (``sandbox.access.bound_folder``: a script's helper
  modules live beside it), so ``python3 bots/mine/bot.py`` sees ``bots/mine`` and nothing beside it;
* its program's installation (the prefix above its ``bin``) and that of each interpreter a ``#!``
  line names (``program_installations``). A ``#!`` line that names its interpreter by a relative
  path (``#!x``) is looked up by the kernel in the folder the bot runs in, so that is where it is
  looked up here (never in the league's own current folder); such an interpreter brings nothing of
  its own (it must lie in the bot's own folders, ``relative_interpreters``), only the installation
  a symbolic link of that name points to;
* the paths the organiser lists (``sandbox.read_only``).

The folder a bot runs in is shown only when it is its own. Otherwise (the league file's folder, the
current folder of ``league play``) it is an empty folder at the same path, holding only what the
list above puts in it: relative paths of the command keep working, while the league file, the report
folder and other bots' folders beside it stay out of sight (``mount_arguments``).

``own_folders`` is the part of this that belongs to the bot alone (no installation, no extra path):
what the league compares between bots so that none is shown another's files (league/plan/bot_folders.py);
every other path a jail shows (installations, the relay's files, the organiser's ``read_only``) is
held against the same and against the folder the league runs from (league/plan/shown_paths.py).
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


def exec_chain(argv: Sequence[str], cwd: Path) -> list[tuple[Path, str | None]]:
    """The files the kernel runs for a command: its program, then each interpreter a ``#!`` line names.

    A program given by a path and an interpreter named by a relative path are found, as the kernel
    finds them, from the folder the command runs in (``cwd``), never from this process's own.

    Args:
        argv: The command line (a bare program name is found on ``PATH``).
        cwd: Where it runs (resolved).

    Returns:
        (path, word) pairs in the order the kernel meets them: the path absolute but not resolved,
        the word as the ``#!`` line writes it (None for the program itself). Empty where the
        program is not found.
    """
    cwd = cwd.absolute()
    program = argv[0] if argv else ""
    where = shutil.which(program) if program and "/" not in program else None
    located = cwd / program if "/" in program else (Path(where).absolute() if where else None)
    chain: list[tuple[Path, str | None]] = []
    word: str | None = None
    while located is not None and located not in (path for path, _ in chain):
        chain.append((located, word))
        named = shebang_program(located.resolve())
        word = str(named) if named is not None else None
        located = None if named is None else named if named.is_absolute() else cwd / named
    return chain


def _relative(word: str | None) -> bool:
    """Whether the word of a ``#!`` line names its interpreter by a relative path (None: no ``#!`` line's)."""
    return word is not None and not word.startswith("/")


def _location(path: Path) -> Path:
    """Where ``path`` (absolute) is as a name: its folder resolved, its own name kept (a link stays a link)."""
    return path.parent.resolve() / path.name


def relative_interpreters(argv: Sequence[str], cwd: Path) -> list[tuple[Path, str, Path]]:
    """The interpreters ``#!`` lines of a command name by a relative path, each with where the kernel finds it.

    Args:
        argv: The command line.
        cwd: Where it runs (resolved): the kernel looks a relative interpreter up from there.

    Returns:
        (the file whose ``#!`` line names it, the word of that line, its place: ``cwd`` joined to
        the word, its folder resolved) triples, in the order the kernel meets them.
    """
    chain = exec_chain(argv, cwd)
    return [
        (script, word, _location(path))
        for (script, _), (path, word) in zip(chain, chain[1:], strict=False)
        if word is not None and _relative(word)
    ]


def program_installations(argv: Sequence[str], cwd: Path) -> set[Path]:
    """Where a command's program is installed, and each interpreter its ``#!`` lines name (system folders left out).

    An interpreter a ``#!`` line names by a relative path is found from the folder the bot runs in,
    which the jail shows only where it is the bot's own (or through the folders of the files its
    command names): it brings nothing of its own, only what a symbolic link of that name points to.

    Args:
        argv: The command line (a bare program name is found on ``PATH``).
        cwd: Where it runs (resolved).
    """
    wanted: set[Path] = set()
    for located, word in exec_chain(argv, cwd):
        target = located.resolve()
        if _relative(word):
            candidates = [target] if target != _location(located) else []
        else:
            candidates = [located, target]
        for candidate in candidates:
            if not is_system(candidate):
                wanted |= installation_roots(candidate)
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
