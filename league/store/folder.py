"""A league's output folder: whether it holds a league, and why a league cannot write there.

The folder is the league's own: ``league run`` writes into a new folder, an empty one, or one that
holds a league (its manifest or its store: a rerun resumes it, ``--fresh`` starts it over), never
into a folder of other files, whose own ``index.html`` or ``report.md`` the report would replace.
A folder that cannot be made or written is told in words a person can act on (a read-only disk, no
permission, a system folder such as ``/proc`` that takes no new files), not as the system's bare
``No such file or directory``.
"""

from __future__ import annotations

import errno
import os
import tempfile
from pathlib import Path

STORE = "games.jsonl"
"""The results file: what makes a folder a league's (``league.store.results.league_store`` opens it)."""
MOVE_LOG = "moves.jsonl"
"""The move log beside it: what only replays read."""
MANIFEST = "league.json"
"""The league's manifest (written and read by ``league.plan.manifest``)."""
CONTEST = "contest.sqlite"
"""The contest's database (``league.store.authors``): ``league authors add`` may make it before any run."""
LEAGUE_FILES = (MANIFEST, STORE, CONTEST)
"""The files that make a folder a league's (a run makes its store before anything else)."""
_SHOWN = 3


def holds_store(folder: Path) -> bool:
    """Whether ``folder`` holds a league's store (``STORE``): shipping a bot's folder leaves such a folder behind."""
    return (folder / STORE).exists()


def holds_league(folder: Path) -> bool:
    """Whether ``folder`` holds a league: its manifest or its store, written by ``league run``."""
    return any((folder / name).exists() for name in LEAGUE_FILES)


def output_problem(folder: Path, create: bool) -> str | None:
    """Why a league cannot write its report into ``folder``, as ``output: PROBLEM; FIX``, or None.

    Args:
        folder: The league's output folder.
        create: Make the folder and try a file in it (``run``); otherwise only look (``validate``
            writes nothing: a probe folder made beside it is removed at once).
    """
    if folder.is_dir():
        foreign = _foreign_files(folder)  # a line of its own: the folder could be written, but is not the league's
        if foreign is not None:
            return foreign
    existing, problem = _nearest(folder)
    if problem is None and not existing.is_dir():
        problem = f"{existing} is a file, not a folder"
    problem = problem or _write_problem(folder, existing, create)
    return None if problem is None else _cannot_write(folder, problem)


def folder_problem(folder: Path) -> str | None:
    """Why files could not be written in ``folder`` (made if missing), in words a person can act on, or None.

    Nothing is left written: a probe folder made in it, or in its nearest existing ancestor, is removed at once.
    """
    existing, problem = _nearest(folder)
    if problem is None and not existing.is_dir():
        problem = f"{existing} is a file, not a folder"
    return problem or _write_problem(folder, existing, create=False)


def _cannot_write(folder: Path, problem: str) -> str:
    return f"output: cannot write the report folder {folder}: {problem}; choose another with output: in the file"


def _nearest(folder: Path) -> tuple[Path, str | None]:
    """The folder itself or its nearest ancestor that exists; or why it cannot be known."""
    existing = folder
    while True:
        try:
            existing.stat()
            return existing, None
        except (FileNotFoundError, NotADirectoryError):
            if existing.is_symlink():
                return existing, f"{existing} is a link to {os.readlink(existing)}, which does not exist"
            if existing == existing.parent:
                return existing, None
            existing = existing.parent
        except OSError as error:
            closed = [parent for parent in reversed(existing.parents) if not os.access(parent, os.X_OK)]
            return existing, _refusal(closed[0] if closed else existing, error, looking=True)


def _foreign_files(folder: Path) -> str | None:
    """The refusal of an existing folder that holds files but no league, or None."""
    if holds_league(folder):
        return None
    try:
        names = sorted(entry.name for entry in os.scandir(folder))
    except OSError as error:
        return _cannot_write(folder, _refusal(folder, error, looking=True))
    if not names:
        return None
    shown = ", ".join(names[:_SHOWN]) + (f" and {len(names) - _SHOWN} more" if len(names) > _SHOWN else "")
    return (
        f"output: {folder} is not a league's folder: it holds other files ({shown}) and no {MANIFEST} or {STORE},"
        " and the league's report would mix with them or replace some; choose a new or empty folder with output:"
        " in the file"
    )


def _write_problem(folder: Path, existing: Path, create: bool) -> str | None:
    """Why ``folder`` cannot be made (below ``existing``, its nearest existing ancestor) or written, or None."""
    try:
        if not create:  # a folder made and removed at once: nothing is left written
            os.rmdir(tempfile.mkdtemp(prefix=".league-probe-", dir=existing))
            return None
        folder.mkdir(parents=True, exist_ok=True)
        with tempfile.TemporaryFile(dir=folder):
            pass
    except OSError as error:
        failed = Path(error.filename) if error.filename else folder
        place = failed.parent if failed != folder or not folder.is_dir() else folder
        return _refusal(place, error)
    return None


def _refusal(place: Path, error: OSError, looking: bool = False) -> str:
    """Why ``place`` refused to be written (or, ``looking``, read), in words a person can act on."""
    code = error.errno
    if code == errno.EACCES:
        return f"this user has no permission to {'look' if looking else 'write'} in {place}"
    if looking:
        return f"{place}: {error.strerror or error}"
    if code == errno.ENOENT:
        return f"{place} takes no new folders or files (a system folder such as /proc)"
    if code == errno.EROFS:
        return f"{place} is on a read-only file system"
    if code == errno.EPERM:
        return f"{place} lets no one add folders or files (a system folder, or one marked immutable)"
    if code in (errno.ENOSPC, errno.EDQUOT):
        return f"the disk of {place} is full"
    return f"{place}: {error.strerror or error}"
