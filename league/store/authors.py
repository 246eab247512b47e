"""A contest's authors and their tokens, in the league folder's embedded database (``contest.sqlite``).

The contest server's state lives in one SQLite file in the league's report folder (``DATABASE``),
so it is there whether a server runs or not: ``league authors add`` writes it with no server, a
server reads it. The file is made with mode 0600 (SQLite gives its ``-wal`` and ``-shm`` files the
same mode), kept in WAL mode with ``synchronous=FULL``: a change is on the disk when its call
returns, and a process killed at any moment (SIGKILL) leaves every change it returned from.
Processes that write at once wait their turn (a lock taken before writing, up to ``WAIT_S``).

The schema is versioned: ``meta`` holds ``schema_version``, and ``MIGRATIONS`` lists what each
version adds, applied in order inside one write lock when the file is opened; a later slice adds its
tables as a new version (version 2: the submissions of ``league.store.submissions``, and who is an
organiser). A file of a newer version is refused.

An author is a name (the rules of a bot's name: letters, digits, ``_``, ``.``, ``-``; unique whatever
the case, so no author passes for another on a board) with a token: ``secrets.token_urlsafe(32)``,
shown once and stored only as its SHA-256. A token is 256 random bits, not a password a person
chose: no dictionary or guess list reaches it, so a slow salted hash (scrypt, PBKDF2), which only
slows guesses at weak secrets, adds nothing, and the plain digest cannot be turned back into it.
A token is checked against every stored digest with ``hmac.compare_digest`` (constant time), so
how long a check takes tells nothing of which digest, or how much of one, a guess matched.
"""

from __future__ import annotations

import contextlib
import hashlib
import hmac
import os
import re
import secrets
import sqlite3
import time
from collections.abc import Iterator
from datetime import UTC, datetime
from pathlib import Path
from typing import NamedTuple

from league.store.folder import CONTEST

DATABASE = CONTEST
"""The contest's database file, in the league's report folder (one of the files that make it a league's)."""
SCHEMA_VERSION = 2
"""The schema this code writes and reads (``meta.schema_version``)."""
WAIT_S = 30.0
"""How long a write waits for another process's to end before it is refused."""
AUTHOR_NAME = re.compile(r"[A-Za-z0-9][A-Za-z0-9_.-]*")
"""An author's name: the rule of a bot's name (``league.plan.config_schema``), which ``store`` cannot import."""
MAX_NAME = 64

MIGRATIONS: dict[int, tuple[str, ...]] = {
    1: (
        "CREATE TABLE authors ("
        " id INTEGER PRIMARY KEY,"
        " name TEXT NOT NULL UNIQUE COLLATE NOCASE,"
        " token_sha256 TEXT NOT NULL UNIQUE,"
        " created TEXT NOT NULL)",
    ),
    2: (
        "ALTER TABLE authors ADD COLUMN organiser INTEGER NOT NULL DEFAULT 0",
        "CREATE TABLE submissions ("
        " id INTEGER PRIMARY KEY,"
        " author TEXT NOT NULL COLLATE NOCASE,"
        " digest TEXT NOT NULL,"
        " command TEXT NOT NULL,"
        " folder TEXT NOT NULL,"
        " submitted TEXT NOT NULL,"
        " status TEXT NOT NULL,"
        " fault TEXT NOT NULL DEFAULT '',"
        " stderr TEXT NOT NULL DEFAULT '',"
        " UNIQUE (author, digest))",
        "CREATE INDEX submissions_by_time ON submissions (author, submitted)",
        "CREATE INDEX submissions_by_status ON submissions (status, id)",
    ),
}
"""What each schema version adds to the one before (1: the authors; 2: organisers and the submissions)."""


class AuthorError(Exception):
    """An author that cannot be added or read (a bad or taken name, a database that is not one); said for people."""


class Author(NamedTuple):
    """An author as listed: never their token."""

    name: str
    created: str
    """When the author was added: UTC, ISO 8601 to the second (``2026-12-07T16:08:00Z``)."""
    organiser: bool = False
    """Whether they organise the contest (they see every page and every bot's stderr)."""


def token_digest(token: str) -> str:
    """The SHA-256 of a token, as stored (hex)."""
    return hashlib.sha256(token.encode("utf-8", "surrogatepass")).hexdigest()


def token_matches(token: str, stored: str) -> bool:
    """Whether ``token`` is the one whose digest is ``stored``, compared in constant time."""
    return hmac.compare_digest(token_digest(token), stored)


def name_problem(name: str) -> str | None:
    """Why ``name`` cannot name an author (with the fix), or None."""
    if not AUTHOR_NAME.fullmatch(name) or not name.isascii():
        return f"author name {name!r}: use letters, digits, '_', '.', '-', starting with a letter or digit"
    if len(name) > MAX_NAME:
        return f"author name {name[:20]!r}...: at most {MAX_NAME} characters"
    return None


def add_author(folder: Path, name: str, organiser: bool = False) -> str:
    """Add an author to the contest of ``folder`` (made if missing); returns their token, which is not kept.

    Args:
        folder: The league's report folder.
        name: The author's name.
        organiser: They organise the contest: they see every page and every bot's stderr.

    Raises:
        AuthorError: The name breaks the rules or is taken (whatever its case), or the database is unusable.
    """
    problem = name_problem(name)
    if problem is not None:
        raise AuthorError(problem)
    token = secrets.token_urlsafe(32)
    created = datetime.now(UTC).strftime("%Y-%m-%dT%H:%M:%SZ")
    with _database(folder, create=True) as db:
        assert db is not None  # made when missing
        _add(db, name, token_digest(token), created, organiser)
    return token


def _add(db: sqlite3.Connection, name: str, digest: str, created: str, organiser: bool = False) -> None:
    """Store an author under the write lock, refused if the name is taken whatever its case."""
    with _writing(db):
        taken = db.execute("SELECT name FROM authors WHERE name = ?", (name,)).fetchone()
        if taken is not None:
            raise AuthorError(
                f"author {taken[0]!r} exists already (names are unique whatever their case); choose another name"
            )
        db.execute(
            "INSERT INTO authors (name, token_sha256, created, organiser) VALUES (?, ?, ?, ?)",
            (name, digest, created, int(organiser)),
        )


def author_of_token(folder: Path, token: str) -> str | None:
    """The author whose token this is, or None (a wrong token, or no contest database yet)."""
    if not isinstance(token, str) or not token:
        return None
    found = None
    with _database(folder, create=False) as db:
        if db is None:
            return None
        for name, stored in db.execute("SELECT name, token_sha256 FROM authors").fetchall():
            if token_matches(token, stored) and found is None:  # no early stop: every digest compared
                found = name
    return found


def list_authors(folder: Path) -> list[Author]:
    """The contest's authors in the order they were added (none when there is no database yet)."""
    with _database(folder, create=False) as db:
        if db is None:
            return []
        rows = db.execute("SELECT name, created, organiser FROM authors ORDER BY id").fetchall()
        return [Author(name, created, bool(organiser)) for name, created, organiser in rows]


def is_organiser(folder: Path, name: str) -> bool:
    """Whether ``name`` is an author of the contest who organises it (False for no such author)."""
    with _database(folder, create=False) as db:
        if db is None:
            return False
        row = db.execute("SELECT organiser FROM authors WHERE name = ?", (name,)).fetchone()
        return bool(row and row[0])


def remove_author(folder: Path, name: str) -> None:
    """Remove an author (their token stops working).

    Raises:
        AuthorError: No such author.
    """
    with _database(folder, create=False) as db:
        gone = 0
        if db is not None:
            with _writing(db):
                gone = db.execute("DELETE FROM authors WHERE name = ?", (name,)).rowcount
        if not gone:
            raise AuthorError(f"no author {name!r} in this contest; `league authors list` shows them")


@contextlib.contextmanager
def _database(folder: Path, create: bool) -> Iterator[sqlite3.Connection | None]:
    """The contest database of ``folder``, its schema brought up to date; None if missing and not ``create``.

    Raises:
        AuthorError: The file is not a database, is of a newer schema, or cannot be opened.
    """
    path = folder / DATABASE
    if not create and not path.exists():
        yield None
        return
    try:
        if create:
            folder.mkdir(parents=True, exist_ok=True)
            os.close(os.open(path, os.O_CREAT | os.O_RDWR, 0o600))  # 0600 from the start, never wider
        db = sqlite3.connect(path, timeout=WAIT_S, isolation_level=None)
    except (OSError, sqlite3.Error) as error:
        raise AuthorError(f"{path}: cannot open the contest database ({_reason(error)})") from None
    try:
        _prepare(db, path)
        yield db
    except sqlite3.OperationalError as error:
        if "locked" not in str(error):
            raise AuthorError(f"{path}: {_reason(error)}") from None
        raise AuthorError(f"{path}: another process held the contest database over {WAIT_S:.0f} s; try again") from None
    except sqlite3.DatabaseError as error:
        raise AuthorError(f"{path}: {_reason(error)}; move the file away to start a new contest database") from None
    finally:
        db.close()


def _prepare(db: sqlite3.Connection, path: Path) -> None:
    """WAL and full sync set, and the schema migrated to ``SCHEMA_VERSION`` (under the write lock)."""
    db.execute(f"PRAGMA busy_timeout = {int(WAIT_S * 1000)}")
    deadline = time.monotonic() + WAIT_S
    while True:  # switching a new file to WAL can be refused at once while another process does it too
        try:
            db.execute("PRAGMA journal_mode = WAL")
            break
        except sqlite3.OperationalError as error:
            if "locked" not in str(error) or time.monotonic() > deadline:
                raise
            time.sleep(0.05)
    db.execute("PRAGMA synchronous = FULL")
    with _writing(db):
        db.execute("CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL)")
        row = db.execute("SELECT value FROM meta WHERE key = 'schema_version'").fetchone()
        version = int(row[0]) if row else 0
        if version > SCHEMA_VERSION:
            raise AuthorError(
                f"{path}: written by a newer league (schema {version}, this one reads up to {SCHEMA_VERSION});"
                " upgrade league to use it"
            )
        for step in range(version + 1, SCHEMA_VERSION + 1):
            for statement in MIGRATIONS[step]:
                db.execute(statement)
        if version < SCHEMA_VERSION:
            db.execute("INSERT OR REPLACE INTO meta VALUES ('schema_version', ?)", (str(SCHEMA_VERSION),))


@contextlib.contextmanager
def _writing(db: sqlite3.Connection) -> Iterator[None]:
    """One transaction holding the write lock from its start (``BEGIN IMMEDIATE``), committed or rolled back."""
    db.execute("BEGIN IMMEDIATE")
    try:
        yield
    except BaseException:
        db.execute("ROLLBACK")
        raise
    db.execute("COMMIT")


def _reason(error: Exception) -> str:
    if isinstance(error, OSError):
        return error.strerror or str(error)
    text = str(error)
    return "it is not an SQLite database" if "not a database" in text else text
