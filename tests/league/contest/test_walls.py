"""What an entry could reach beyond its own folder, tried by real bots: nothing, in its validation and in league games.

A command's words are paths a jail shows (``sandbox.folders``), so a word that leaves the version's
folder is refused at upload (an author would see another's versions through its stderr). The
intruder (tests/bots/contest_intruder.py), entered and played in the league's games on Ray, reaches
for another author's version, the contest's database and store, the league folder and file, the
server's process and a port the test listens on, and reaches none.
"""

import json
import os
import socket
import time
from pathlib import Path

import pytest
import yaml

from league.contest.contest import Contest, contest_walls_problem
from league.contest.field import FieldError
from league.contest.submit import SubmissionRefused, accept_upload
from league.plan.config import load_league
from league.store.authors import add_author
from league.store.submissions import submissions
from sandbox.jail import isolation_problem
from tests.league.contest.serving import contest_file
from tests.league.contest.test_validation import archive

needs_bwrap = pytest.mark.skipif(isolation_problem() is not None, reason=f"no jail here: {isolation_problem()}")


@pytest.mark.parametrize(
    "command",
    [
        ["python3", "v2048_steady.py", "../.."],
        ["python3", "v2048_steady.py", "../../bob"],
        ["python3", "v2048_steady.py", "/tmp"],
        ["python3", "v2048_steady.py", "--data=../x"],
        ["python3", "-X", "pycache_prefix=/srv", "v2048_steady.py"],
        ["java", "-cp", ".:../..", "Main"],
        ["python3", "v2048_steady.py", "~/"],
        ["./../v2048_steady.py"],
        ["/home/someone/python3", "v2048_steady.py"],
    ],
)
def test_a_command_naming_a_path_outside_its_folder_is_refused(tmp_path, command):
    league = load_league(contest_file(tmp_path))
    add_author(league.output, "alice")
    with pytest.raises(SubmissionRefused) as refused:
        accept_upload(league, "alice", archive("v2048_steady.py"), command)
    assert refused.value.http_status == 400 and "outside the bot's folder" in str(refused.value)
    assert submissions(league.output) == []


@pytest.mark.parametrize(
    "command",
    [
        ["python3", "v2048_steady.py", "data/x"],
        ["/usr/bin/python3", "v2048_steady.py"],
        ["python3", "./v2048_steady.py"],
    ],
)
def test_a_command_naming_its_own_files_is_taken(tmp_path, command):
    league = load_league(contest_file(tmp_path))
    add_author(league.output, "alice")
    assert accept_upload(league, "alice", archive("v2048_steady.py"), command).command == tuple(command)


def test_a_contest_whose_walls_would_open_is_refused_before_anything_is_written(tmp_path):
    data = yaml.safe_load(contest_file(tmp_path).read_text())
    path = tmp_path / "contest.yaml"
    path.write_text(yaml.safe_dump({**data, "limits": {"network": True}}))
    with pytest.raises(FieldError, match="network: true would let every entry reach the contest server"):
        Contest(path)
    path.write_text(yaml.safe_dump({**data, "output": "/usr/local/share/league-contest-test"}))
    assert "lies in a system folder" in contest_walls_problem(load_league(path))
    with pytest.raises(FieldError, match="lies in a system folder"):
        Contest(path)
    assert not Path("/usr/local/share/league-contest-test").exists()


@needs_bwrap
def test_an_entry_playing_league_games_reaches_nothing_beyond_its_folder(ray_local, tmp_path):
    path = contest_file(tmp_path, max_games=16)
    contest = Contest(path)
    for name in ("alice", "bob"):
        add_author(contest.folder, name)
    bob = accept_upload(contest.league, "bob", archive("v2048_steady.py"), ["python3", "v2048_steady.py"])
    with socket.create_server(("127.0.0.1", 0)) as listener:
        (contest.folder / "games.jsonl").touch()
        targets = {
            "files": [
                str(bob.folder / "v2048_steady.py"),
                str(bob.folder.parent),
                str(contest.folder / "versions"),
                str(contest.folder / "contest.sqlite"),
                str(contest.folder / "games.jsonl"),
                str(contest.folder),
                str(path),
            ],
            "pid": os.getpid(),
            "cmdline": Path("/proc/self/cmdline").read_bytes().decode().split("\0")[:-1],
            "port": listener.getsockname()[1],
        }
        data = archive("contest_intruder.py", {"targets.json": json.dumps(targets)})
        contest.start()
        try:
            contest.submit("alice", data, ["python3", "contest_intruder.py"])
            deadline = time.monotonic() + 300
            while not (
                any(r.bot == "alice" and r.games >= 4 for r in contest.board().rows)
                and "Waiting" in contest.board().state
            ):
                assert time.monotonic() < deadline, contest.board()
                time.sleep(0.5)
            games = contest.games_of("alice")
        finally:
            contest.stop()
        listener.setblocking(False)
        with pytest.raises(BlockingIOError):
            listener.accept()  # nothing connected: not the validation game, not a league game
    assert len(games) >= 4
    tries = len(targets["files"]) + 3
    for game in games:
        seat = game.spec.seats.index("alice")
        said = contest.stderr_of(game.game_id)[seat]
        assert f"reached: 0 of {tries}" in said, said
        assert "REACHED" not in said
