"""The contest's submissions in ``contest.sqlite``: queued, claimed once, finished, entries; schema 2 over schema 1."""

import sqlite3
import subprocess
import sys

import pytest

from league.contest.model import Status, Submission
from league.store import authors
from league.store.authors import DATABASE, add_author, is_organiser, list_authors, remove_author
from league.store.submissions import (
    add_submission,
    entries,
    finish_validation,
    next_queued,
    requeue_interrupted,
    submission,
    submissions,
    submitted_since,
)


def digest(n: int) -> str:
    return f"{n:064x}"


def add(folder, author, n, when="2026-12-07T10:00:00Z"):
    version = folder / "versions" / author / digest(n)
    version.mkdir(parents=True)
    return add_submission(folder, author, digest(n), ["python3", "bot.py"], version, submitted=when)


def test_a_submission_is_stored_queued_with_its_folder_and_read_back(tmp_path):
    add_author(tmp_path, "alice")
    first = add(tmp_path, "alice", 1)
    assert isinstance(first, Submission)
    assert (first.id, first.author, first.status, first.command) == (1, "alice", Status.QUEUED, ("python3", "bot.py"))
    assert first.folder == tmp_path / "versions" / "alice" / digest(1) and first.folder.is_absolute()
    assert first.version == digest(1)[:12] and first.submitted == "2026-12-07T10:00:00Z"
    second = add(tmp_path, "alice", 2)
    assert submission(tmp_path, 2) == second and submission(tmp_path, 3) is None
    assert submissions(tmp_path) == [first, second] == submissions(tmp_path, "ALICE")
    assert submissions(tmp_path, "bob") == []
    with sqlite3.connect(tmp_path / DATABASE) as db:  # the folder is kept relative: a moved league folder keeps it
        assert db.execute("SELECT folder FROM submissions WHERE id = 1").fetchone() == (f"versions/alice/{digest(1)}",)


def test_an_author_has_each_content_once_and_a_folder_must_be_the_league_s(tmp_path):
    add(tmp_path, "alice", 1)
    with pytest.raises(ValueError, match="submitted the content 000000000000 already"):
        add_submission(tmp_path, "alice", digest(1), ["./bot"], tmp_path / "versions" / "alice" / digest(1))
    assert add(tmp_path, "bob", 1).id == 2  # another author's same content is theirs
    with pytest.raises(ValueError):
        add_submission(tmp_path, "alice", digest(9), ["./bot"], tmp_path.parent)
    assert len(submissions(tmp_path)) == 2


def test_the_queue_is_claimed_in_order_once_and_finished_with_fault_and_stderr(tmp_path):
    for n in (1, 2, 3):
        add(tmp_path, "alice", n)
    claimed = next_queued(tmp_path)
    assert claimed.id == 1 and claimed.status == Status.VALIDATING
    assert submission(tmp_path, 1).status == Status.VALIDATING
    assert next_queued(tmp_path).id == 2
    done = finish_validation(tmp_path, 1, True, stderr="warming up\n")
    assert (done.status, done.fault, done.stderr) == (Status.VALID, "", "warming up\n")
    refused = finish_validation(tmp_path, 2, False, "seat 0 crashed", "Traceback ...")
    assert (refused.status, refused.fault, refused.stderr) == (Status.REFUSED, "seat 0 crashed", "Traceback ...")
    assert next_queued(tmp_path).id == 3
    assert next_queued(tmp_path) is None
    with pytest.raises(KeyError):
        finish_validation(tmp_path, 99, True)


def test_a_killed_server_s_validations_are_queued_again(tmp_path):
    add(tmp_path, "alice", 1)
    add(tmp_path, "alice", 2)
    assert next_queued(tmp_path).id == 1
    assert requeue_interrupted(tmp_path) == 1
    assert [s.status for s in submissions(tmp_path)] == [Status.QUEUED, Status.QUEUED]
    assert next_queued(tmp_path).id == 1  # in order still
    assert requeue_interrupted(tmp_path / "none") == 0 and not (tmp_path / "none").exists()


def test_two_processes_never_claim_the_same_submission(tmp_path):
    for n in range(20):
        add(tmp_path, "alice", n)
    code = (
        "import sys; from pathlib import Path; from league.store.submissions import next_queued\n"
        "got = []\n"
        "while (s := next_queued(Path(sys.argv[1]))) is not None: got.append(s.id)\n"
        "print(' '.join(map(str, got)))\n"
    )
    workers = [
        subprocess.Popen([sys.executable, "-c", code, str(tmp_path)], stdout=subprocess.PIPE, text=True)
        for _ in range(2)
    ]
    claimed = [int(n) for worker in workers for n in worker.communicate(timeout=300)[0].split()]
    assert sorted(claimed) == list(range(1, 21))  # each once, none lost


def test_entries_are_each_present_author_s_newest_valid_version(tmp_path):
    add_author(tmp_path, "alice")
    add_author(tmp_path, "bob")
    add_author(tmp_path, "carol")
    for n, author in enumerate(["alice", "alice", "alice", "bob", "carol"], start=1):
        add(tmp_path, author, n)
    for number, ok in [(1, True), (2, True), (3, False), (4, True)]:
        finish_validation(tmp_path, number, ok)
    found = entries(tmp_path)
    assert {author: entry.id for author, entry in found.items()} == {"alice": 2, "bob": 4}  # 3 refused, 5 queued
    remove_author(tmp_path, "bob")
    assert set(entries(tmp_path)) == {"alice"}  # a removed author's versions leave the field
    assert entries(tmp_path / "none") == {}


def test_submissions_since_a_moment_are_counted_per_author(tmp_path):
    add(tmp_path, "alice", 1, "2026-12-06T23:59:59Z")
    add(tmp_path, "alice", 2, "2026-12-07T00:00:00Z")
    add(tmp_path, "alice", 3, "2026-12-07T12:00:00Z")
    add(tmp_path, "bob", 4, "2026-12-07T12:00:00Z")
    assert submitted_since(tmp_path, "alice", "2026-12-07T00:00:00Z") == 2
    assert submitted_since(tmp_path, "Alice", "2026-12-07T11:59:01Z") == 1
    assert submitted_since(tmp_path, "carol", "2026-01-01T00:00:00Z") == 0


def test_organisers_are_marked_and_listed(tmp_path):
    add_author(tmp_path, "alice")
    add_author(tmp_path, "orga", organiser=True)
    assert [(a.name, a.organiser) for a in list_authors(tmp_path)] == [("alice", False), ("orga", True)]
    assert is_organiser(tmp_path, "orga") and is_organiser(tmp_path, "ORGA")
    assert not is_organiser(tmp_path, "alice") and not is_organiser(tmp_path, "nobody")
    assert not is_organiser(tmp_path / "none", "orga")


def test_a_schema_1_database_is_brought_to_schema_2_keeping_its_authors(tmp_path):
    path = tmp_path / DATABASE
    with sqlite3.connect(path) as db:
        db.execute("CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL)")
        for statement in authors.MIGRATIONS[1]:
            db.execute(statement)
        db.execute("INSERT INTO meta VALUES ('schema_version', '1')")
        db.execute("INSERT INTO authors (name, token_sha256, created) VALUES ('old', 'ab', '2026-01-01T00:00:00Z')")
    assert authors.SCHEMA_VERSION == 2
    assert [(a.name, a.organiser) for a in list_authors(tmp_path)] == [("old", False)]
    add(tmp_path, "old", 1)
    with sqlite3.connect(path) as db:
        assert db.execute("SELECT value FROM meta WHERE key = 'schema_version'").fetchone() == ("2",)
    assert [s.author for s in submissions(tmp_path)] == ["old"]
