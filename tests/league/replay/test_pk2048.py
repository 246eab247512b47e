"""pk2048 replays: every stored best of three of a league with faulty programs replays exactly, and its viewer plays.

The league pits the greedy built-in against the random built-in, a contestant-style program and
programs that time out, crash, print garbage and bomb an empty cell, so the replay meets every
way a game can end, fresh processes for every game of a match, and matches that go to game 3.
"""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from league.cli.main import main
from league.replay.files import LeagueReplays
from tests.conftest import BOTS
from tests.league.replay.replay_checks import assert_replays_exactly, check_viewer, play_league


def program(name: str, script: str) -> dict:
    return {"name": name, "command": f"{sys.executable} {script}", "cwd": str(BOTS)}


@pytest.fixture(scope="module")
def league(tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = tmp_path_factory.mktemp("pk2048")
    return play_league(
        folder,
        {
            "name": "replays",
            "game": "pk2048",
            "variants": {"default": {"target_tile": 256, "decision_time_ms": 600}},
            "format": "gauntlet",
            "candidates": ["greedy"],
            "bots": [
                {"name": "greedy", "builtin": "pk2048.greedy"},
                {"name": "random", "builtin": "pk2048.random"},
                program("plain", "pk2048_plain.py"),
                program("sleeper", "pk2048_sleeper.py"),
                program("crasher", "pk2048_crasher.py"),
                program("garbage", "pk2048_garbage.py"),
                program("empty_bomb", "pk2048_empty_bomb.py"),
            ],
            "games_per_pair": 2,
        },
    )


def longest(replays: LeagueReplays) -> dict:
    return max(replays.records, key=lambda r: r["result"]["plies"])


def test_every_stored_game_replays_to_its_stored_result_and_moves(league: Path):
    seen = assert_replays_exactly(league)
    assert {"NORMAL", "TIMEOUT", "BAD_OUTPUT"} <= set(seen)
    # Each game of a match ends its own way (on a loaded machine a slow start can turn a crash into a timeout).
    games = {game["termination"] for r in LeagueReplays(league).records for game in r["result"]["extra"]["games"]}
    assert {"NORMAL", "TIMEOUT", "CRASH", "BAD_OUTPUT", "ILLEGAL_MOVE"} <= games


def test_frames_follow_the_best_of_three(league: Path):
    replays = LeagueReplays(league)
    record = longest(replays)
    games = record["result"]["extra"]["games"]
    frames = [frame.view for frame in replays.replay(record).frames]
    assert frames[0]["game"] == 1 and frames[0]["wins"] == [0, 0] and "ended" not in frames[0]
    assert frames[0]["interference_used"] == [False, False] and frames[0]["bomb_used"] == [False, False]
    ends = [frame["ended"] for frame in frames if "ended" in frame]
    assert [end["game"] for end in ends] == [game["game"] for game in games]
    assert [end["winner"] for end in ends] == [game["winner"] for game in games]
    assert [end["scores"] for end in ends] == [game["scores"] for game in games]
    values = [[1 << e if e else 0 for e in end["board"]] for end in ends]
    assert values == [game["final_board"] for game in games]
    assert frames[-1]["wins"] == record["result"]["scores"] and frames[-1]["over"]
    # Every operation of a game is shown with its mover and spawn; moves alternate within a game.
    shown = [frame["last"] for frame in frames if "last" in frame]
    assert shown and all(last["seat"] in (0, 1) for last in shown)
    assert any(last["spawn"][0] for last in shown)
    tensions = [frame.tension for frame in replays.replay(record).frames]
    assert tensions[0] == 0.0 and max(tensions) > 0.5 and len(set(tensions)) > 10


def test_bombs_and_interferences_are_shown(league: Path):
    replays = LeagueReplays(league)
    answers = [
        frame.view["last"]["answer"]
        for record in replays.records
        for frame in replays.replay(record).frames
        if "last" in frame.view
    ]
    assert any(answer[0] for answer in answers), "the random built-in interferes"
    assert any(answer[1] for answer in answers), "someone bombs"


def test_league_replay_print_shows_every_move_and_board(league: Path, capsys: pytest.CaptureFixture[str]):
    replays = LeagueReplays(league)
    record = longest(replays)
    assert main(["replay", str(league), record["game_id"], "--print"]) == 0
    out = capsys.readouterr().out
    replay = replays.replay(record)
    assert out.count("\n-- ") == len(replay.frames)
    assert repr(replay.frames[1].moves[0]["reply"]) in out
    assert "game 1 of 3" in out and "final board of game 1:" in out and "specials left" in out


def test_the_page_of_a_faulted_game_names_the_fault(league: Path, capsys: pytest.CaptureFixture[str]):
    replays = LeagueReplays(league)
    record = next(r for r in replays.records if "crasher" in r["spec"]["seats"])
    assert main(["replay", str(league), record["game_id"][:10], "--print"]) == 0
    out = capsys.readouterr().out
    fault = record["result"]["extra"]["games"][0]["termination"]
    winner = record["result"]["extra"]["games"][0]["winner"]
    assert f"FAULT {fault}" in out and f"game 1 over: seat {winner} wins" in out and "game 2 over" in out


def test_the_viewer_plays_a_stored_game_in_chromium(league: Path, page):
    replays = LeagueReplays(league)
    record = longest(replays)
    frames = replays.replay(record).frames
    # Show the tensest bomb just thrown if there is one (with the board before it), else the tensest position.
    bombs = [i for i, f in enumerate(frames) if "last" in f.view and f.view["last"]["answer"][1]]
    step_to = max(bombs or range(len(frames)), key=lambda i: frames[i].tension)
    seen = check_viewer(page, league, record["game_id"], "replay-pk2048.png", step_to=step_to)
    assert seen["frames"] == len(frames)
