"""versus2048 replays: every stored game of a league with faulty programs replays exactly, and its viewer plays.

The league mixes built-ins with programs that time out, crash, print garbage and break the rules,
so the replay meets every way a game can end.
"""

from __future__ import annotations

import json
import re
import shutil
import sys
from pathlib import Path

import pytest

from league.cli.main import main
from league.replay.files import LeagueReplays
from league.replay.rebuild import game_for_record, replay_game
from tests.browser import page_log
from tests.conftest import BOTS
from tests.league.replay.replay_checks import assert_replays_exactly, check_viewer, play_league


def program(name: str, script: str) -> dict:
    return {"name": name, "command": f"{sys.executable} {script}", "cwd": str(BOTS)}


@pytest.fixture(scope="module")
def league(tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = tmp_path_factory.mktemp("versus2048")
    return play_league(
        folder,
        {
            "name": "replays",
            "game": "versus2048",
            "variants": {"default": {"turns_per_player": 40, "turn_time_ms": 300}},
            "bots": [
                {"name": "random", "builtin": "versus2048.random"},
                {"name": "greedy", "builtin": "versus2048.greedy"},
                program("sleeper", "v2048_sleeper.py"),
                program("crasher", "v2048_crasher.py"),
                program("garbage", "v2048_garbage.py"),
                program("illegal", "v2048_illegal.py"),
            ],
            "games_per_pair": 2,
        },
    )


def test_every_stored_game_replays_to_its_stored_result_and_moves(league: Path):
    seen = assert_replays_exactly(league)
    assert {"NORMAL", "TIMEOUT", "CRASH", "BAD_OUTPUT", "ILLEGAL_MOVE"} <= set(seen)


def test_league_replay_writes_a_page_and_prints_its_path(league: Path, capsys: pytest.CaptureFixture[str]):
    game_id = LeagueReplays(league).records[0]["game_id"]
    assert main(["replay", str(league), game_id[:8]]) == 0
    path = Path(capsys.readouterr().out.strip())
    assert path == league / "replays" / f"{game_id}.html"
    text = path.read_text()
    assert "<script src" not in text and "http://" not in text.replace("http://www.w3.org/2000/svg", "")


def test_league_replay_print_shows_every_move_and_board(league: Path, capsys: pytest.CaptureFixture[str]):
    replays = LeagueReplays(league)
    record = next(r for r in replays.records if r.result.termination == "NORMAL")
    assert main(["replay", str(league), record.game_id, "--print"]) == 0
    out = capsys.readouterr().out
    replay = replays.replay(record)
    assert out.count("\n-- ") == len(replay.frames)
    first_reply = replay.frames[1].moves[0]["reply"]
    assert repr(first_reply) in out
    assert "seat 0" in out and "scores" in out


def test_highlights_pick_the_tensest_stretches(league: Path, capsys: pytest.CaptureFixture[str]):
    assert main(["replay", str(league), "--highlights", "3"]) == 0
    lines = capsys.readouterr().out.strip().splitlines()
    path = Path(lines[-1])
    assert path == league / "replays" / "highlights.html"
    replays = LeagueReplays(league)
    from league.replay.files import HIGHLIGHT_WINDOW, tensest

    means = sorted((tensest(replays.replay(r), HIGHLIGHT_WINDOW).mean for r in replays.records), reverse=True)
    page = path.read_text()
    assert page.count('"title":"1. ') == 1 and page.count('"title":"3. ') == 1 and '"title":"4. ' not in page
    assert means[0] >= means[2] > 0


@pytest.mark.parametrize(
    ("arguments", "words"),
    [
        (["replay", "{league}"], "name one game"),
        (["replay", "{league}", "zzzz"], "no game 'zzzz'"),
        (["replay", "{league}", "--highlights", "0"], "at least 1"),
        (["replay", "{missing}", "abc"], "no such folder"),
        (["replay", "{league}", "0", "-o", "{league}"], "that is a folder"),
        (["replay", "{league}", "0", "-o", "/proc/x/page.html"], "not writable"),
    ],
)
def test_mistakes_are_one_line_and_exit_2(league: Path, tmp_path: Path, arguments, words, capsys):
    filled = [a.format(league=league, missing=tmp_path / "nope") for a in arguments]
    assert main(filled) == 2
    err = capsys.readouterr().err
    assert words in err and "Traceback" not in err and err.count("\n") == 1


def test_the_viewer_plays_a_stored_game_in_chromium(league: Path, page):
    replays = LeagueReplays(league)
    record = max(replays.records, key=lambda r: r.result.plies)
    seen = check_viewer(page, league, record.game_id, "replay-versus2048.png", step_to=30)
    assert seen["frames"] == record.result.plies + 1


def test_the_report_links_every_game_to_its_replay_page(league: Path, page, tmp_path: Path):
    from league.report.build import write_report

    replays = LeagueReplays(league)
    bots = ["random", "greedy", "sleeper", "crasher", "garbage", "illegal"]
    write_report(league, "replays", bots, ["default"])
    for record in replays.records:
        assert (league / "replays" / f"{record['game_id']}.html").is_file()
    assert (league / "replays" / "highlights.html").is_file()
    again = tmp_path / "highlights.html"  # the report's stretches, found from its own replays, are the command's
    assert main(["replay", str(league), "--highlights", "5", "-o", str(again)]) == 0
    assert again.read_bytes() == (league / "replays" / "highlights.html").read_bytes()
    page.goto((league / "index.html").resolve().as_uri())
    assert page_log(page).errors() == []
    links = page.evaluate("[...document.querySelectorAll('a.games-watch')].map(a => a.href)")
    assert len(links) == len(replays.records)
    for link in links:
        assert link.startswith("file://") and Path(link.removeprefix("file://")).is_file()
    report = (league / "report.md").read_text()
    assert f"(replays/{replays.records[0]['game_id']}.html)" in report


def test_league_play_replay_writes_the_matchs_page(tmp_path: Path, capsys: pytest.CaptureFixture[str]):
    path = tmp_path / "match.html"
    arguments = ["play", "versus2048", "random", "greedy", "--set", "turns_per_player=20", "--replay", str(path)]
    assert main(arguments) == 0
    assert f"replay: {path}" in capsys.readouterr().out
    blob = re.search(r'<script id="replay-data" type="application/json">(.*?)</script>', path.read_text()).group(1)
    reel = json.loads(blob)["reels"][0]
    assert reel["diverged"] == ""
    assert reel["seats"] == ["random", "greedy"]
    assert len(reel["frames"]) == reel["frames"][-1]["view"]["plies"] + 1
    assert reel["frames"][-1]["view"]["over"]


def test_a_record_from_before_moves_kept_their_event_replays_its_crash(league: Path):
    replays = LeagueReplays(league)
    for record in (r for r in replays.records if r.result.termination in ("CRASH", "TIMEOUT")):
        details = replays.store.details([record.game_id])[record.game_id]
        old = {**details, "moves": [move[:5] for move in details["moves"]]}
        replay = replay_game(game_for_record("versus2048", replays.manifest["settings"]["default"]), record, old)
        assert replay.diverged == "", replay.diverged


def test_a_report_that_cannot_write_its_replays_is_one_line_and_exit_3(league: Path, tmp_path: Path, capsys):
    copy = tmp_path / "copy"
    shutil.copytree(league, copy)
    shutil.rmtree(copy / "replays", ignore_errors=True)
    (copy / "replays").write_text("in the way\n")
    assert main(["report", str(copy)]) == 3
    err = capsys.readouterr().err
    assert "replays" in err and "Traceback" not in err and err.count("\n") == 1
