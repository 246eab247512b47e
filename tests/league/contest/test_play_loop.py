"""The contest's play loop: the league played on its field, again on each new field, nothing played twice."""

import shutil
import threading
from pathlib import Path

import yaml

from league.contest.board import make_board
from league.contest.field import field_league
from league.contest.model import Status, Submission
from league.contest.play_loop import PlayLoop, PlayState
from league.store.results import league_store
from tests.league.contest.serving import contest_file as served_contest_file
from tests.league.contest.serving import played_ids

BOTS = Path(__file__).resolve().parents[2] / "bots"


def contest_file(folder: Path) -> Path:
    """A contest of two house bots whose adaptive league stops after 12 games: a field plays out in seconds."""
    return served_contest_file(folder, variants={"short": {"turns_per_player": 8}}, max_games=12, seed=11)


def version(folder: Path, number: int, order: str) -> Submission:
    """A version of alice's steady bot (its slide order makes it another version), in a folder of its own."""
    where = folder / "versions" / "alice" / f"v{number}"
    where.mkdir(parents=True)
    for name in ("v2048_steady.py", "botio.py", "v2048lib.py"):
        shutil.copy(BOTS / name, where / name)
    (where / "order.txt").write_text(order)  # content differs: another version
    digest = f"{number:064x}"
    command = ("python3", "v2048_steady.py", order)
    return Submission(number, "alice", digest, command, where, "2026-12-07T18:00:00Z", Status.VALID)


def no_game_twice(folder: Path) -> list:
    """The stored games, checked to have been played once each (the store's own lines, not its reader's ids)."""
    ids = played_ids(folder)
    assert len(ids) == len(set(ids)), "a game was played twice"
    return league_store(folder).records()


class Watcher:
    """Collects the loop's states; waits for the run to end."""

    def __init__(self):
        self.states: list[PlayState] = []
        self.ended = threading.Event()

    def __call__(self, state: PlayState) -> None:
        self.states.append(state)
        if not state.playing and state.run is not None:
            self.ended.set()

    def wait_end(self, timeout=300.0) -> PlayState:
        assert self.ended.wait(timeout), [s.sentence for s in self.states[-3:]]
        self.ended.clear()
        return self.states[-1]


def test_the_league_plays_on_each_new_field_and_a_replaced_version_leaves_the_board(ray_local, tmp_path):
    path = contest_file(tmp_path)
    entries: dict[str, Submission] = {}
    watcher = Watcher()
    loop = PlayLoop(path, lambda: dict(entries), watcher)
    loop.start()
    try:
        first = watcher.wait_end()
        assert first.run.over and "Waiting for a new version" in first.sentence
        house_games = {r.game_id for r in league_store(tmp_path / "out").records()}
        stored = league_store(tmp_path / "out").records()
        assert house_games and all(set(r.spec.seats) == {"random", "greedy"} for r in stored)

        entries["alice"] = version(tmp_path, 1, "URDL")
        loop.field_changed()
        second = watcher.wait_end()
        records = no_game_twice(tmp_path / "out")
        assert house_games <= {r.game_id for r in records}
        board = make_board(1, second.league, second.run, records, entries, second.sentence)
        alice = next(row for row in board.rows if row.bot == "alice")
        assert alice.author == "alice" and alice.version == entries["alice"].version and alice.games >= 4
        first_version = {r.spec.versions["alice"] for r in records if "alice" in r.spec.seats}
        assert len(first_version) == 1

        entries["alice"] = version(tmp_path, 2, "LDRU")
        loop.field_changed()
        third = watcher.wait_end()
        records = no_game_twice(tmp_path / "out")
        board = make_board(2, third.league, third.run, records, entries, third.sentence)
        alice = next(row for row in board.rows if row.bot == "alice")
        now = {r.spec.versions["alice"] for r in records if "alice" in r.spec.seats} - first_version
        assert len(now) == 1, "the new version played"
        counted_alice = [
            r for r in records if "alice" in r.spec.seats and r.game_id in {s.game_id for s in third.run.counted}
        ]
        assert counted_alice and all(r.spec.versions["alice"] in now for r in counted_alice)
        assert alice.games == len(counted_alice) and alice.version == entries["alice"].version
        assert loop.runs == 3
    finally:
        loop.stop()
    assert not any(t.name == "contest-play" for t in threading.enumerate())


def test_a_field_the_contest_cannot_play_is_told_and_the_loop_waits(tmp_path):
    path = contest_file(tmp_path)
    data = yaml.safe_load(path.read_text())
    data["format"] = "sprt"
    path.write_text(yaml.safe_dump(data))
    told = threading.Event()
    states = []
    loop = PlayLoop(path, dict, lambda state: (states.append(state), told.set()))
    loop.start()
    try:
        assert told.wait(30)
        assert "cannot be played as a live contest" in states[-1].sentence
        assert "adaptive or round_robin" in states[-1].sentence
    finally:
        loop.stop()


def test_the_field_is_the_house_bots_and_the_entries_with_adaptive_by_default(tmp_path):
    path = contest_file(tmp_path)
    data = yaml.safe_load(path.read_text())
    del data["format"]  # a contest's file that names no format plays adaptive
    path.write_text(yaml.safe_dump(data))
    league = field_league(path, {"alice": version(tmp_path, 1, "URDL")})
    assert list(league.bots) == ["random", "greedy", "alice"]
    assert league.config.format == "adaptive"
    assert league.bots["alice"].cwd == str(tmp_path / "versions" / "alice" / "v1")
