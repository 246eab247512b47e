"""The contest as the pages see it: a real league folder, a real upload validated in the jail, the board following."""

import io
import tarfile
import threading
import time

import pytest
import yaml

from league.contest.contest import Contest, describe
from league.contest.field import FieldError
from league.store.authors import add_author
from sandbox.jail import isolation_problem
from tests.league.contest.serving import STARTER, contest_file

needs_bwrap = pytest.mark.skipif(isolation_problem() is not None, reason=f"no jail here: {isolation_problem()}")


def starter_archive(note: str = "") -> bytes:
    buffer = io.BytesIO()
    with tarfile.open(fileobj=buffer, mode="w:gz") as packed:
        packed.add(STARTER / "bot.py", "bot.py")
        if note:
            data = note.encode()
            info = tarfile.TarInfo("NOTE.txt")
            info.size = len(data)
            packed.addfile(info, io.BytesIO(data))
    return buffer.getvalue()


def wait(check, timeout=300.0, what="it"):
    deadline = time.monotonic() + timeout
    while not check():
        assert time.monotonic() < deadline, f"{what} never happened"
        time.sleep(0.2)


@needs_bwrap
def test_a_submitted_version_is_validated_enters_the_board_and_the_pages_can_read_it(ray_local, tmp_path):
    path = contest_file(tmp_path)
    contest = Contest(path)
    token = add_author(contest.folder, "alice")
    boards = []
    contest.add_listener(boards.append)
    contest.start()
    try:
        assert contest.author_of(token) == "alice" and contest.author_of("nope") is None
        assert not contest.is_organiser("alice")
        wait(lambda: boards and "Waiting" in boards[-1].state, what="the house league settling")
        watching = contest.live_games.following()  # as a live page follows the games
        watching.__enter__()
        submitted = contest.submit("alice", starter_archive(), ["python3", "bot.py"])
        assert submitted.author == "alice" and contest.submission(submitted.id).digest == submitted.digest
        wait(
            lambda: (
                any(r.bot == "alice" and r.games >= 2 for r in contest.board().rows)
                and "Waiting" in contest.board().state
            ),
            what="alice on the settled board",
        )
        live = [game for game in contest.live_games.games() if "alice" in game.seats]
        assert live and all(game.frames for game in live), "alice's games were shown as they were played"
        watching.__exit__(None, None, None)
        board = contest.board()
        alice = next(r for r in board.rows if r.bot == "alice")
        assert alice.author == "alice" and alice.version == submitted.version
        serials = [b.serial for b in boards]
        assert serials == sorted(serials) and len(set(serials)) == len(serials)
        assert describe(board)["rows"][0]["bot"] == board.rows[0].bot
        games = contest.games_of("alice")
        assert games and all("alice" in g.spec.seats for g in games)
        page = contest.replay_page(games[0].game_id)
        assert page is not None and "<html" in page.lower()
        assert contest.replay_page("no-such-game") is None
        assert contest.record(games[0].game_id).game_id == games[0].game_id
        assert contest.queue() == []
        assert any("workers" in line for line in contest.workers())
        assert isinstance(contest.stderr_of(games[0].game_id), dict)
    finally:
        contest.stop()
    assert not {t.name for t in threading.enumerate()} & {"contest-play", "contest-board", "contest-validation"}


def test_a_contest_needs_the_jail_and_a_game_of_one_role(tmp_path):
    path = contest_file(tmp_path, sandbox="none")
    with pytest.raises(FieldError, match="jail"):
        Contest(path)
    data = yaml.safe_load(contest_file(tmp_path).read_text())
    data.update(game="attack2048", variants={"default": {}})
    data["bots"] = [{"name": "a", "builtin": "attack2048.random"}, {"name": "b", "builtin": "attack2048.greedy"}]
    path.write_text(yaml.safe_dump(data))
    with pytest.raises(FieldError, match="a command per role"):
        Contest(path)
