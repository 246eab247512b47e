"""Accepting an upload: caps, hostile archives, the command rule, one version per content, durable across SIGKILL."""

import io
import os
import re
import signal
import stat
import subprocess
import sys
import tarfile
import textwrap
import zipfile
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

from league.contest.model import Status
from league.contest.submit import INCOMING, VERSIONS, SubmissionRefused, accept_upload, sweep_leftovers
from league.plan.config import load_league
from league.store.authors import add_author, remove_author
from league.store.submissions import submissions
from tests.league.store.test_uploads import tar_member, tar_of, zip_of

FILE = stat.S_IFREG | 0o644
EXEC = stat.S_IFREG | 0o755
BOT = ("bot/bot.py", b"print('1 1')\n", FILE)
LIB = ("bot/lib.py", b"X = 1\n", FILE)
T0 = datetime(2026, 12, 7, 12, 0, 0, tzinfo=UTC)


def contest(tmp_path: Path, **rules) -> object:
    lines = "".join(f"  {key}: {value}\n" for key, value in rules.items())
    path = tmp_path / "contest.yaml"
    path.write_text(
        "name: c\ngame: versus2048\noutput: out\nbots:\n"
        "  - {name: random, builtin: versus2048.random}\n  - {name: greedy, builtin: versus2048.greedy}\n"
        + (f"contest:\n{lines}" if lines else "")
    )
    league = load_league(path)
    add_author(league.output, "alice")
    add_author(league.output, "bob")
    return league


def versions_left(league) -> list[str]:
    root = league.output / VERSIONS
    return sorted(str(p.relative_to(root)) for p in root.rglob("*")) if root.exists() else []


def refused(league, data, command=("python3", "bot.py"), author="alice", now=T0) -> SubmissionRefused:
    before = versions_left(league), submissions(league.output)
    with pytest.raises(SubmissionRefused) as caught:
        accept_upload(league, author, data, list(command), now=now)
    assert (versions_left(league), submissions(league.output)) == before  # nothing kept of it
    message = caught.value.message
    assert "\n" not in message and not re.search(r"\. [A-Z]", message) and message.endswith(".")  # one sentence
    return caught.value


def test_an_upload_becomes_a_queued_version_in_its_own_folder(tmp_path):
    league = contest(tmp_path)
    submission = accept_upload(league, "ALICE", zip_of(BOT, LIB), ["python3", "bot.py"], now=T0)
    assert (submission.id, submission.author, submission.status) == (1, "alice", Status.QUEUED)
    assert submission.command == ("python3", "bot.py") and submission.submitted == "2026-12-07T12:00:00Z"
    assert submission.folder == league.output / VERSIONS / "alice" / submission.digest
    assert sorted(p.name for p in submission.folder.iterdir()) == ["bot.py", "lib.py"]  # its top folder unwrapped
    assert (submission.folder / "bot.py").read_bytes() == BOT[1]
    assert versions_left(league) == [
        "alice",
        f"alice/{submission.digest}",
        *(f"alice/{submission.digest}/{n}" for n in ("bot.py", "lib.py")),
    ]
    assert submissions(league.output) == [submission]
    tar = tar_of(("bot.py", BOT[1], 0o644), ("lib.py", LIB[1], 0o644))  # the same content as a .tar.gz
    assert refused(league, tar, now=T0 + timedelta(minutes=5)).http_status == 409


HOSTILE = {
    "dot-dot": zip_of(BOT, ("../escape.py", b"x", FILE)),
    "absolute": tar_of(("bot.py", b"x", 0o644), ("/tmp/escape.py", b"x", 0o644)),
    "symlink": tar_of(("bot.py", b"x", 0o644), tar_member("link", tarfile.SYMTYPE, linkname="/etc/passwd")),
    "hard link": tar_of(("bot.py", b"x", 0o644), tar_member("hard", tarfile.LNKTYPE, linkname="bot.py")),
    "device": tar_of(("bot.py", b"x", 0o644), tar_member("dev", tarfile.CHRTYPE)),
    "setuid": tar_of(("bot.py", b"x", 0o4755)),
    "not an archive": b"just some text, not an archive",
}


@pytest.mark.parametrize("kind", sorted(HOSTILE))
def test_a_hostile_archive_is_refused_400_with_nothing_unpacked(tmp_path, kind):
    league = contest(tmp_path, per_minute=100)
    error = refused(league, HOSTILE[kind])
    assert error.http_status == 400
    assert versions_left(league) == []


def test_a_zip_bomb_is_refused_and_nothing_is_left(tmp_path):
    league = contest(tmp_path, upload_mb=1)
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as archive:
        archive.writestr("bot.py", b"x")
        archive.writestr("zeros.bin", bytes(80 << 20))  # 80 MB of zeros in well under 1 MB
    assert len(buffer.getvalue()) < 1 << 20
    error = refused(league, buffer.getvalue())
    assert error.http_status == 400 and "unpacks to more than 64.0 MB" in error.message


def test_an_archive_over_the_upload_cap_is_refused_413(tmp_path):
    league = contest(tmp_path, upload_mb=0.01)  # about 10 KB
    error = refused(league, zip_of(BOT, ("bot/noise.bin", os.urandom(20_000), FILE)))
    assert error.http_status == 413 and "an upload may hold" in error.message


@pytest.mark.parametrize(
    ("command", "files", "problem"),
    [
        (["python3", "main.py"], [BOT], "names no file of the archive"),
        (["python3"], [BOT], "names no file of the archive"),
        (["sh", "-c", "cat /etc/passwd"], [BOT], "names no file of the archive"),
        (["python3", "../bot.py"], [BOT], "outside the bot's folder"),
        (["./missing"], [BOT], "names no file of the archive"),
        (["/usr/bin/env", "python3", "/etc/passwd"], [BOT], "outside the bot's folder"),
        (["./run.sh"], [BOT, ("bot/run.sh", b"#!/bin/sh\nexec python3 bot.py\n", FILE)], "is not executable"),
        (["run"], [BOT, ("bot/run", b"#!/bin/sh\nexec python3 bot.py\n", EXEC)], "not on PATH"),
        ([], [BOT], "The command is empty"),
        (["python3", "bot.py\n"], [BOT], "control character"),
    ],
)
def test_a_command_that_runs_no_file_of_the_archive_is_refused_400(tmp_path, command, files, problem):
    league = contest(tmp_path, per_minute=100)
    error = refused(league, zip_of(*files), command)
    assert error.http_status == 400 and problem in error.message, error.message
    assert str(league.output) not in error.message  # the server's paths are not told


@pytest.mark.parametrize(
    ("command", "files"),
    [
        (["python3", "bot.py", "--depth", "3"], [BOT]),
        (["python3", "-u", "./bot.py"], [BOT]),
        (["./run.sh"], [BOT, ("bot/run.sh", b"#!/bin/sh\nexec python3 bot.py\n", EXEC)]),
        (["sh", "run.sh"], [BOT, ("bot/run.sh", b"exec python3 bot.py\n", FILE)]),
        (["java", "-cp", "out", "net.example.Main"], [BOT, ("bot/out/net/example/Main.class", b"\xca\xfe", FILE)]),
    ],
)
def test_a_command_that_runs_a_file_of_the_archive_is_accepted(tmp_path, command, files):
    if command[0] == "java" and not __import__("shutil").which("java"):
        pytest.skip("no java here")
    league = contest(tmp_path)
    assert accept_upload(league, "alice", zip_of(*files), command, now=T0).command == tuple(command)


def test_one_content_is_one_version_of_an_author_and_another_s_is_theirs(tmp_path):
    league = contest(tmp_path)
    first = accept_upload(league, "alice", zip_of(BOT), ["python3", "bot.py"], now=T0)
    error = refused(league, zip_of(BOT), now=T0 + timedelta(minutes=1))
    assert error.http_status == 409 and first.version in error.message
    theirs = accept_upload(league, "bob", zip_of(BOT), ["python3", "bot.py"], now=T0)
    assert theirs.digest == first.digest and theirs.folder != first.folder


def test_an_author_no_longer_in_the_contest_is_refused_403(tmp_path):
    league = contest(tmp_path)
    remove_author(league.output, "bob")
    assert refused(league, zip_of(BOT), author="bob").http_status == 403
    assert refused(league, zip_of(BOT), author="nobody").http_status == 403


def version(n: int) -> bytes:
    return zip_of(BOT, ("bot/n.txt", str(n).encode(), FILE))


def test_the_daily_cap_counts_an_author_s_submissions_of_the_utc_day(tmp_path):
    league = contest(tmp_path, daily_submissions=2)
    accept_upload(league, "alice", version(1), ["python3", "bot.py"], now=T0 - timedelta(hours=11))
    accept_upload(league, "alice", version(2), ["python3", "bot.py"], now=T0)
    error = refused(league, version(3), now=T0 + timedelta(hours=2))
    assert error.http_status == 429
    assert "2 submissions today" in error.message and "in 10 h 0 min" in error.message
    assert accept_upload(league, "bob", version(3), ["python3", "bot.py"], now=T0).author == "bob"  # bob's own cap
    next_day = datetime(2026, 12, 8, 0, 0, 0, tzinfo=UTC)
    assert accept_upload(league, "alice", version(3), ["python3", "bot.py"], now=next_day).id == 4


def test_the_per_minute_rate_counts_refused_uploads_too(tmp_path):
    league = contest(tmp_path, per_minute=2)
    accept_upload(league, "alice", version(1), ["python3", "bot.py"], now=T0)
    accept_upload(league, "alice", version(2), ["python3", "bot.py"], now=T0 + timedelta(seconds=10))
    error = refused(league, version(3), now=T0 + timedelta(seconds=20))
    assert error.http_status == 429 and "wait a minute" in error.message
    assert accept_upload(league, "alice", version(3), ["python3", "bot.py"], now=T0 + timedelta(seconds=61)).id == 3
    later = T0 + timedelta(minutes=10)
    assert refused(league, HOSTILE["symlink"], now=later).http_status == 400
    assert refused(league, HOSTILE["setuid"], now=later + timedelta(seconds=1)).http_status == 400
    assert refused(league, version(4), now=later + timedelta(seconds=2)).http_status == 429


KILLER = textwrap.dedent(
    """
    import os, sys, time
    from pathlib import Path
    from league.contest import submit
    from league.plan.config import load_league

    point = sys.argv[2]
    real = getattr(submit, point)

    def stop_here(*args, **kwargs):
        print("AT", point, flush=True)
        time.sleep(600)

    setattr(submit, point, stop_here)
    submit.accept_upload(load_league(sys.argv[1]), "alice", Path(sys.argv[3]).read_bytes(), ["python3", "bot.py"])
    """
)


@pytest.mark.parametrize("point", ["_durable", "add_submission"])
def test_a_server_killed_mid_upload_leaves_no_half_submission_and_its_leftovers_are_swept(tmp_path, point):
    league = contest(tmp_path)
    archive = tmp_path / "bot.zip"
    archive.write_bytes(zip_of(BOT, LIB))
    child = subprocess.Popen(
        [sys.executable, "-c", KILLER, str(league.path), point, str(archive)], stdout=subprocess.PIPE, text=True
    )
    try:
        assert child.stdout.readline().strip() == f"AT {point}"  # unpacked (and, at add_submission, renamed)
        child.send_signal(signal.SIGKILL)
    finally:
        child.wait(timeout=60)
    assert submissions(league.output) == []
    left = versions_left(league)
    if point == "_durable":
        assert left and left[0].startswith(INCOMING)  # the unpacked upload, never renamed
    else:
        assert left and left[0] == "alice"  # renamed into place, never stored
    assert sweep_leftovers(league.output) == 1
    assert versions_left(league) in ([], ["alice"])
    again = accept_upload(league, "alice", archive.read_bytes(), ["python3", "bot.py"])
    assert submissions(league.output) == [again] and (again.folder / "lib.py").exists()
    assert sweep_leftovers(league.output) == 0  # a stored version is never swept
    assert (again.folder / "bot.py").exists()
