"""A contest server killed with SIGKILL and started again: every submission and game kept, none played twice."""

import shutil
import sqlite3

import pytest

from tests.league.contest.serving import STARTER, Server, add_author, contest_file, played_ids, submit

pytestmark = pytest.mark.skipif(shutil.which("bwrap") is None, reason="the validation game runs in the jail")


def test_a_killed_server_goes_on_with_every_submission_and_game_and_plays_none_twice(tmp_path):
    path = contest_file(tmp_path, max_games=60)
    token = add_author(path, "alice")
    server = Server(path)
    try:
        done = submit(server.url, STARTER, "python3 bot.py", token)
        assert done.returncode == 0, done.stderr
        server.wait_for(lambda b: any(r["bot"] == "alice" and r["games"] >= 2 for r in b["rows"]), what="alice's games")
        second = tmp_path / "second"
        shutil.copytree(STARTER, second)
        (second / "NOTES.txt").write_text("another version\n")
        queued = submit(server.url, second, "python3 bot.py", token, "--no-wait")
        assert queued.returncode == 0, queued.stderr
        server.kill()  # SIGKILL to the server and every process of its session, Ray's included
    finally:
        server.stop()
    before = played_ids(tmp_path / "out")
    assert len(before) == len(set(before))

    again = Server(path)
    try:
        board = again.wait_for(
            lambda b: (
                any(r["bot"] == "alice" and r["version"] and r["games"] >= 2 for r in b["rows"])
                and "Waiting" in b["state"]
            ),
            what="the league settled again",
        )
        submissions = again.get("api/board")  # the board names the newest valid version
        assert board["rows"] and submissions
    finally:
        again.stop()
    after = played_ids(tmp_path / "out")
    assert len(after) == len(set(after)), "a game was stored twice"
    assert set(before) <= set(after), "a stored game was lost"
    alice = next(r for r in board["rows"] if r["bot"] == "alice")
    with sqlite3.connect(tmp_path / "out" / "contest.sqlite") as db:
        rows = db.execute("SELECT id, status, digest FROM submissions ORDER BY id").fetchall()
    assert [status for _, status, _ in rows] == ["valid", "valid"], rows  # the one queued at the kill was validated
    assert alice["version"] == rows[1][2][:12]  # the newest valid version is the entry
