"""The contest's authors in ``contest.sqlite``: tokens kept hashed, names unique, safe across processes and kills."""

import json
import os
import signal
import sqlite3
import stat
import subprocess
import sys

import pytest

from league.store import authors
from league.store.authors import DATABASE, AuthorError, add_author, author_of_token, list_authors, remove_author
from league.store.folder import output_problem


def _in_process(code: str) -> subprocess.Popen:
    return subprocess.Popen([sys.executable, "-c", code], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)


def test_a_token_names_its_author_and_is_stored_only_as_a_hash(tmp_path):
    token = add_author(tmp_path, "alice")
    other = add_author(tmp_path, "bob")
    assert len(token) >= 43 and token != other  # 32 random bytes, URL-safe
    assert author_of_token(tmp_path, token) == "alice"
    assert author_of_token(tmp_path, other) == "bob"
    assert author_of_token(tmp_path, token[:-1] + ("A" if token[-1] != "A" else "B")) is None
    assert author_of_token(tmp_path, "") is None
    stored = b"".join(path.read_bytes() for path in tmp_path.iterdir())  # the database with any -wal beside it
    assert token.encode() not in stored and other.encode() not in stored
    assert authors.token_digest(token).encode() in stored
    assert [author.name for author in list_authors(tmp_path)] == ["alice", "bob"]


def test_a_token_is_checked_against_every_author_in_constant_time(tmp_path, monkeypatch):
    tokens = [add_author(tmp_path, name) for name in ("a", "b", "c")]
    compared = []
    real = authors.hmac.compare_digest

    def recording(x, y):
        compared.append(y)
        return real(x, y)

    monkeypatch.setattr(authors.hmac, "compare_digest", recording)
    assert author_of_token(tmp_path, tokens[0]) == "a"
    assert len(compared) == 3  # no early stop at the first author, who matched
    compared.clear()
    assert author_of_token(tmp_path, "not a token") is None
    assert len(compared) == 3


def test_a_taken_name_is_refused_whatever_its_case_and_a_bad_name_too(tmp_path):
    add_author(tmp_path, "alice")
    with pytest.raises(AuthorError, match="'alice' exists already.*choose another name"):
        add_author(tmp_path, "Alice")
    for bad in ("", "-x", "a b", "../x", "a/b", "é", "a\x1b[2J", "x" * 65):
        with pytest.raises(AuthorError, match="author name"):
            add_author(tmp_path, bad)
    assert [author.name for author in list_authors(tmp_path)] == ["alice"]


def test_the_database_is_made_0600_in_wal_mode_with_its_schema_version(tmp_path):
    folder = tmp_path / "new" / "league"
    add_author(folder, "alice")
    path = folder / DATABASE
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    with sqlite3.connect(path) as db:
        assert db.execute("PRAGMA journal_mode").fetchone() == ("wal",)
        assert db.execute("SELECT value FROM meta WHERE key = 'schema_version'").fetchone() == (
            str(authors.SCHEMA_VERSION),
        )


def test_reading_a_folder_without_a_contest_writes_nothing(tmp_path):
    assert list_authors(tmp_path) == []
    assert author_of_token(tmp_path, "x") is None
    with pytest.raises(AuthorError, match="no author 'x'"):
        remove_author(tmp_path, "x")
    assert list(tmp_path.iterdir()) == []


def test_a_removed_author_s_token_stops_working(tmp_path):
    token = add_author(tmp_path, "alice")
    remove_author(tmp_path, "alice")
    assert author_of_token(tmp_path, token) is None
    assert list_authors(tmp_path) == []


def test_a_file_that_is_not_a_database_or_is_newer_is_one_clear_error(tmp_path):
    (tmp_path / DATABASE).write_bytes(b"not sqlite at all, " * 100)
    with pytest.raises(AuthorError, match="not an SQLite database; move the file away"):
        list_authors(tmp_path)
    newer = tmp_path / "newer"
    add_author(newer, "alice")
    with sqlite3.connect(newer / DATABASE) as db:
        db.execute("UPDATE meta SET value = '99' WHERE key = 'schema_version'")
    with pytest.raises(AuthorError, match="newer league.*upgrade"):
        list_authors(newer)


def test_two_processes_adding_authors_at_once_both_land(tmp_path):
    code = (
        "import json, sys; from pathlib import Path; from league.store.authors import add_author\n"
        "print(json.dumps({f'{p}-{i}': add_author(Path(sys.argv[1]), f'{p}-{i}') for i in range(15)}))\n"
    )
    runs = [
        subprocess.Popen(
            [sys.executable, "-c", code.replace("{p}", prefix), str(tmp_path)],
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        for prefix in ("a", "b")
    ]  # both on a folder with no database yet: the schema is made by whichever is first
    tokens = {}
    for run in runs:
        out, err = run.communicate()
        assert run.returncode == 0, err
        tokens |= json.loads(out)
    assert sorted(author.name for author in list_authors(tmp_path)) == sorted(tokens)
    assert len(tokens) == 30
    assert all(author_of_token(tmp_path, token) == name for name, token in tokens.items())


def test_an_author_added_by_a_process_killed_at_once_is_kept(tmp_path):
    add_author(tmp_path, "first")  # the database made beforehand, so the killed process only adds
    run = _in_process(
        "import os, signal, sqlite3; from pathlib import Path; from league.store.authors import add_author\n"
        f"folder = Path({str(tmp_path)!r})\n"
        "held = sqlite3.connect(folder / 'contest.sqlite'); held.execute('SELECT 1 FROM authors').fetchall()\n"
        "print(add_author(folder, 'alice'), flush=True)\n"
        "os.kill(os.getpid(), signal.SIGKILL)\n"  # killed with a connection open: nothing checkpointed or closed
    )
    out, err = run.communicate()
    assert run.returncode == -signal.SIGKILL, err
    log = (tmp_path / "contest.sqlite-wal").stat()
    assert log.st_size > 0  # the author was only in the log when killed
    assert stat.S_IMODE(log.st_mode) == 0o600
    assert author_of_token(tmp_path, out.strip()) == "alice"
    assert [author.name for author in list_authors(tmp_path)] == ["first", "alice"]


def test_a_folder_holding_only_the_contest_database_is_the_league_s_own(tmp_path):
    add_author(tmp_path, "alice")
    assert os.path.exists(tmp_path / DATABASE)
    assert output_problem(tmp_path, create=False) is None
