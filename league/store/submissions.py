"""A contest's submissions, in the ``submissions`` table of the league folder's ``contest.sqlite``.

A submission is one version an author uploaded (``league.contest.model.Submission``): immutable once
stored but for its status, which goes ``queued`` (waiting for its validation game), ``validating``
(claimed by the validation queue, in the same write that reads it, so no two validators take it),
then ``valid`` or ``refused`` (with the fault's sentence and the bot's stderr). The table lives in
the authors' database (``league.store.authors``: its schema version 2, its write lock, its durability:
a change is on disk when its call returns, and a process killed with SIGKILL leaves every change it
returned from and none it did not).

A version's folder is stored relative to the league folder (``versions/<author>/<digest>``), so a
league folder moved elsewhere keeps its versions; a ``Submission`` gives it as an absolute path.
An author has each content once: ``(author, digest)`` is unique. The types ``Status`` and
``Submission`` are defined here, beside the table that keeps them, and named with the contest's other
shared types in ``league.contest.model`` (which the store, a floor below, cannot import).

Every function raises ``league.store.authors.AuthorError`` for a database it cannot use (not a
database, of a newer schema, held by another process too long), said for people.
"""

from __future__ import annotations

import json
import sqlite3
from dataclasses import dataclass
from datetime import UTC, datetime
from enum import StrEnum
from pathlib import Path

from league.store.authors import _database, _writing


class Status(StrEnum):
    """Where a submission stands: queued for its validation game, being validated, valid, or refused."""

    QUEUED = "queued"
    VALIDATING = "validating"
    VALID = "valid"
    REFUSED = "refused"


@dataclass(frozen=True)
class Submission:
    """One version an author submitted (immutable once stored, but for its status).

    Attributes:
        id: Its number in the contest, in order of arrival.
        author: Who submitted it.
        digest: The SHA-256 of its content (``league.store.uploads.UnpackedBot.digest``): it names the version.
        command: How to start it, from inside its folder (the argv; its first word names a file of the archive
            or a program of the system such as ``python3``).
        folder: Where its files are (``versions/<author>/<digest>/`` in the league folder), read-only to it.
        submitted: When it arrived, UTC, ``YYYY-MM-DDTHH:MM:SSZ``.
        status: Where it stands.
        fault: Why its validation refused it (a sentence), or "".
        stderr: Its stderr in its validation game (shown only to its author and the organiser), or "".
    """

    id: int
    author: str
    digest: str
    command: tuple[str, ...]
    folder: Path
    submitted: str
    status: Status
    fault: str = ""
    stderr: str = ""

    @property
    def version(self) -> str:
        """The short name of the version shown on pages: the digest's first 12 hex digits."""
        return self.digest[:12]


_COLUMNS = "id, author, digest, command, folder, submitted, status, fault, stderr"


def now_iso(moment: datetime | None = None) -> str:
    """A moment (now when None) as the database keeps it: UTC, ``YYYY-MM-DDTHH:MM:SSZ``."""
    return (moment or datetime.now(UTC)).astimezone(UTC).strftime("%Y-%m-%dT%H:%M:%SZ")


def add_submission(
    folder: Path,
    author: str,
    digest: str,
    command: list[str] | tuple[str, ...],
    version_folder: Path,
    submitted: str | None = None,
) -> Submission:
    """Store a new submission, queued for its validation.

    Args:
        folder: The league's report folder (the contest's database is made there if missing).
        author: Who submitted it (an author of the contest, as they are named there).
        digest: Its content digest.
        command: How to start it, from inside its folder.
        version_folder: Its files' folder, inside ``folder``.
        submitted: When it arrived (``now_iso``'s form); now when None.

    Raises:
        ValueError: ``version_folder`` is not inside ``folder``, or the author has this content already
            (a caller checks that first: ``league.contest.submit``).
    """
    relative = Path(version_folder).resolve().relative_to(Path(folder).resolve())
    row = (author, digest, json.dumps(list(command)), relative.as_posix(), submitted or now_iso(), Status.QUEUED.value)
    with _database(folder, create=True) as db:
        assert db is not None  # made when missing
        with _writing(db):
            try:
                cursor = db.execute(
                    "INSERT INTO submissions (author, digest, command, folder, submitted, status)"
                    " VALUES (?, ?, ?, ?, ?, ?)",
                    row,
                )
            except sqlite3.IntegrityError:
                raise ValueError(f"{author} has submitted the content {digest[:12]} already") from None
            number = cursor.lastrowid
        found = _one(db, folder, "WHERE id = ?", (number,))
    assert found is not None
    return found


def submissions(folder: Path, author: str | None = None) -> list[Submission]:
    """Every submission (of ``author`` only, whatever the case of the name, when given), oldest first."""
    with _database(folder, create=False) as db:
        if db is None:
            return []
        if author is None:
            rows = db.execute(f"SELECT {_COLUMNS} FROM submissions ORDER BY id").fetchall()
        else:
            rows = db.execute(f"SELECT {_COLUMNS} FROM submissions WHERE author = ? ORDER BY id", (author,)).fetchall()
    return [_submission(folder, row) for row in rows]


def submission(folder: Path, number: int) -> Submission | None:
    """The submission numbered ``number``, or None."""
    with _database(folder, create=False) as db:
        return None if db is None else _one(db, folder, "WHERE id = ?", (number,))


def next_queued(folder: Path) -> Submission | None:
    """The oldest queued submission, claimed for validation (now ``validating``) in the write that reads it; or None."""
    with _database(folder, create=False) as db:
        if db is None:
            return None
        with _writing(db):
            row = db.execute(
                f"SELECT {_COLUMNS} FROM submissions WHERE status = ? ORDER BY id LIMIT 1", (Status.QUEUED.value,)
            ).fetchone()
            if row is None:
                return None
            db.execute("UPDATE submissions SET status = ? WHERE id = ?", (Status.VALIDATING.value, row[0]))
    return _submission(folder, (*row[:6], Status.VALIDATING.value, *row[7:]))


def finish_validation(folder: Path, number: int, ok: bool, fault: str = "", stderr: str = "") -> Submission:
    """Record a submission's validation: ``valid``, or ``refused`` with its fault's sentence; its stderr kept.

    Raises:
        KeyError: No such submission.
    """
    status = Status.VALID if ok else Status.REFUSED
    with _database(folder, create=False) as db:
        changed = 0
        if db is not None:
            with _writing(db):
                changed = db.execute(
                    "UPDATE submissions SET status = ?, fault = ?, stderr = ? WHERE id = ?",
                    (status.value, "" if ok else fault, stderr, number),
                ).rowcount
            found = _one(db, folder, "WHERE id = ?", (number,))
    if not changed or found is None:
        raise KeyError(f"no submission {number} in this contest")
    return found


def requeue_interrupted(folder: Path) -> int:
    """Queue again every submission left ``validating`` (by a server that was killed); returns how many."""
    with _database(folder, create=False) as db:
        if db is None:
            return 0
        with _writing(db):
            return db.execute(
                "UPDATE submissions SET status = ? WHERE status = ?", (Status.QUEUED.value, Status.VALIDATING.value)
            ).rowcount


def entries(folder: Path) -> dict[str, Submission]:
    """Per author still in the contest (by their name there), their entry: their newest valid submission."""
    with _database(folder, create=False) as db:
        if db is None:
            return {}
        rows = db.execute(
            f"SELECT {', '.join('s.' + column.strip() for column in _COLUMNS.split(','))}, a.name"
            " FROM submissions s JOIN authors a ON a.name = s.author"
            " WHERE s.status = ? AND s.id ="
            " (SELECT MAX(id) FROM submissions t WHERE t.author = s.author AND t.status = ?)"
            " ORDER BY s.id",
            (Status.VALID.value, Status.VALID.value),
        ).fetchall()
    return {row[-1]: _submission(folder, row[:-1]) for row in rows}


def submitted_since(folder: Path, author: str, since_iso: str) -> int:
    """How many submissions ``author`` made at ``since_iso`` or later (``now_iso``'s form), whatever became of them."""
    with _database(folder, create=False) as db:
        if db is None:
            return 0
        row = db.execute(
            "SELECT COUNT(*) FROM submissions WHERE author = ? AND submitted >= ?", (author, since_iso)
        ).fetchone()
    return int(row[0])


def version_folders(folder: Path) -> set[Path]:
    """The folders of every stored submission, absolute (what a sweep of ``versions/`` keeps)."""
    with _database(folder, create=False) as db:
        if db is None:
            return set()
        return {Path(folder) / row[0] for row in db.execute("SELECT folder FROM submissions")}


def _one(db: sqlite3.Connection, folder: Path, where: str, args: tuple[object, ...]) -> Submission | None:
    row = db.execute(f"SELECT {_COLUMNS} FROM submissions {where}", args).fetchone()
    return None if row is None else _submission(folder, row)


def _submission(folder: Path, row: tuple[object, ...] | sqlite3.Row) -> Submission:
    number, author, digest, command, relative, submitted, status, fault, stderr = row
    return Submission(
        id=int(number),  # type: ignore[arg-type]
        author=str(author),
        digest=str(digest),
        command=tuple(json.loads(str(command))),
        folder=Path(folder).absolute() / str(relative),
        submitted=str(submitted),
        status=Status(str(status)),
        fault=str(fault),
        stderr=str(stderr),
    )
