"""What can go wrong with a league's store files, said in sentences a person can act on.

Two kinds: a write the disk refuses (full, read-only, no permission), which stops a run (or a
report) with ``StoreWriteError``, exit status 3; and damage found when reading (a torn last line
left by a crash, a line that is not a game record), which is never fatal: the damaged lines are
skipped, their games played again by the next run, and the run says so.
"""

from __future__ import annotations

import errno
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path

from engine.core import plural

OUTPUT_ERRNOS = frozenset({errno.ENOSPC, errno.EDQUOT, errno.EFBIG, errno.EROFS, errno.EACCES, errno.EPERM, errno.EIO})
"""The errors of a disk or folder that refuses to be written, rather than of a bug of ours."""
_NO_ROOM = frozenset({errno.ENOSPC, errno.EDQUOT, errno.EFBIG})
_SHOWN_LINES = 3


class StoreWriteError(Exception):
    """A league's folder refused a write (a full disk, a read-only one, no permission); the message says what to do."""


def write_failure(path: Path, error: OSError) -> str:
    """One line for a write to ``path`` that failed: the problem, what is kept, and the fix.

    Args:
        path: The file (or folder) that could not be written.
        error: What the system said.
    """
    reason = error.strerror or str(error)
    folder = path if path.is_dir() else path.parent
    if error.errno in _NO_ROOM:
        fix = f"free some space on the disk of {folder}"
    elif error.errno in (errno.EROFS, errno.EACCES, errno.EPERM):
        fix = f"make {folder} writable"
    else:
        fix = f"check the disk of {folder}"
    return (
        f"cannot write {path}: {reason}. The games stored so far are intact: {fix} (or set `output` in the league"
        " file to a folder elsewhere), then run the same command again"
    )


@contextmanager
def disk_refusals(folder: Path) -> Iterator[None]:
    """Turn a write that the disk refuses (``OUTPUT_ERRNOS``) inside the block into ``StoreWriteError``.

    Args:
        folder: Named when the error names no file.

    Raises:
        StoreWriteError: With the file, the problem and the fix; other errors pass unchanged.
    """
    try:
        yield
    except OSError as error:
        if error.errno not in OUTPUT_ERRNOS:
            raise
        raise StoreWriteError(write_failure(Path(error.filename) if error.filename else folder, error)) from error


def torn_tail_cut(name: str) -> str:
    """The sentence for a torn last line of the store file ``name`` that was cut off before appending."""
    what = f"{name}: the last line was torn (a crash while it was written); it was cut off"
    if name == "games.jsonl":
        return f"{what} and its game is played again"
    return f"{what} (its game's result was never stored, so the game is played again)"


@dataclass
class Damage:
    """What reading a results file met besides whole game records.

    Attributes:
        bad_lines: Numbers (from 1) of whole lines that are not a game record (not JSON, not an
            object, no game id).
        torn: Whether the last line has no newline (torn by a crash, or being written now).
    """

    bad_lines: list[int] = field(default_factory=list)
    torn: bool = False

    def notes(self, name: str) -> list[str]:
        """One sentence per kind of damage found in the file ``name`` (none when it is whole)."""
        notes = []
        if self.bad_lines:
            count = len(self.bad_lines)
            shown = ", ".join(map(str, self.bad_lines[:_SHOWN_LINES]))
            more = f" and {count - _SHOWN_LINES} more" if count > _SHOWN_LINES else ""
            which = f"line {shown} is" if count == 1 else f"{plural(count, 'line')} ({shown}{more}) are"
            notes.append(
                f"{name}: {which} damaged (not a game record) and skipped; a game stored only there is left out"
                " and played again by `league run`"
            )
        if self.torn:
            notes.append(
                f"{name}: the last line is incomplete (torn by a crash while it was written, or being written now)"
                " and left out; `league run` cuts it off and plays its game again"
            )
        return notes
