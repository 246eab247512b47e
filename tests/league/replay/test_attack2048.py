"""attack2048 replays: every stored match of a league with faulty programs replays exactly, and its viewer plays.

The greedy built-in meets the random built-in and program bots (one command per role, fresh
processes per half) that play legally or time out, crash, print garbage and place on an occupied
cell, under 4-credits and a ply cap, so the replay meets both halves, both roles and every end.
"""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from league.cli.main import main
from league.replay.files import LeagueReplays
from tests.conftest import BOTS
from tests.league.replay.replay_checks import assert_replays_exactly, check_viewer, play_league


def hostile(name: str, attack: str, defend: str) -> dict:
    """A program bot of tests/bots/attack2048_hostile.py, misbehaving in the modes given per role."""
    command = f"{sys.executable} attack2048_hostile.py"
    return {"name": name, "roles": {"attack": f"{command} attack {attack}", "defend": f"{command} defend {defend}"}}


@pytest.fixture(scope="module")
def league(tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = tmp_path_factory.mktemp("attack2048")
    bots = [
        hostile("legal", "legal", "legal"),
        hostile("sleeper", "sleep", "legal"),
        hostile("crasher", "legal", "exit3"),
        hostile("garbage", "garbage", "legal"),
        hostile("occupier", "occupied", "legal"),
    ]
    return play_league(
        folder,
        {
            "name": "replays",
            "game": "attack2048",
            "variants": {
                "default": {"decision_ms": 600, "startup_ms": 2000, "four_every_twos": 3, "max_plies_per_half": 200}
            },
            "format": "gauntlet",
            "candidates": ["greedy"],
            "bots": [
                {"name": "greedy", "builtin": "attack2048.greedy"},
                {"name": "random", "builtin": "attack2048.random"},
                *[{**bot, "cwd": str(BOTS)} for bot in bots],
            ],
            "games_per_pair": 2,
        },
    )


def both_halves(replays: LeagueReplays) -> dict:
    """The longest match that played both halves to their end."""
    played = [r for r in replays.records if r["result"]["termination"] in ("NORMAL", "MAX_PLIES")]
    return max(played, key=lambda r: r["result"]["plies"])


def test_every_stored_game_replays_to_its_stored_result_and_moves(league: Path):
    seen = assert_replays_exactly(league)
    assert {"TIMEOUT", "CRASH", "BAD_OUTPUT", "ILLEGAL_MOVE"} <= set(seen)
    assert {"NORMAL", "MAX_PLIES"} & set(seen)


def test_frames_show_both_halves_roles_and_scores(league: Path):
    replays = LeagueReplays(league)
    record = both_halves(replays)
    halves = record["result"]["extra"]["halves"]
    replay = replays.replay(record)
    frames = [frame.view for frame in replay.frames]
    assert frames[0]["half"] == 1 and frames[0]["attacker"] == 0 and frames[0]["defender"] == 1
    assert frames[0]["to_move"] == [0] and frames[0]["role"] == "attack" and replay.frames[0].tension == 0.0
    turn = next(i for i, frame in enumerate(frames) if frame["half"] == 2)
    # The frame where half 1 ended shows the board it ended on and its record; half 2 starts empty.
    assert frames[turn]["halves"] == halves[:1] and "first_half_board" in frames[turn]
    assert frames[turn]["board"] == [0] * 16 and frames[turn]["attacker"] == 1 and frames[turn]["to_move"] == [1]
    assert all(frame["first_half_board"] == frames[turn]["first_half_board"] for frame in frames[turn:])
    assert frames[-1]["scores"] == record["result"]["scores"] and frames[-1]["over"]
    # Every ply is shown: placements by the attacker, slides by the defender with their points.
    plies = [frame["last"] for frame in frames if "last" in frame]
    assert {last["kind"] for last in plies} == {"place", "slide"}
    placements = [
        (frame["half"], frame["last"]["seat"]) for frame in frames if frame.get("last", {}).get("kind") == "place"
    ]
    assert {seat for half, seat in placements if half == 1} == {0} and {
        seat for half, seat in placements if half == 2
    } == {1}
    # Each slide's points are what the defender's score gained; the frame where half 1 ended shows its record,
    # not the ply that ended it (a slide, when the safety cap ended it), and the last frame ends half 2.
    slides = [
        (before, frame) for before, frame in zip(frames, frames[1:], strict=False) if frame["half"] == before["half"]
    ]
    slides = [(before, frame) for before, frame in slides if frame.get("last", {}).get("kind") == "slide"]
    assert slides and all(frame["score"] - before["score"] == frame["last"]["gain"] for before, frame in slides)
    assert max(frame["score"] for frame in frames if frame["half"] == 1) <= halves[0]["score"]
    assert frames[-1]["score"] == halves[1]["score"]
    tensions = [frame.tension for frame in replay.frames]
    assert max(tensions) > 0.6 and len(set(tensions)) > 10


def test_league_replay_print_shows_every_move_and_board(league: Path, capsys: pytest.CaptureFixture[str]):
    replays = LeagueReplays(league)
    record = both_halves(replays)
    assert main(["replay", str(league), record["game_id"], "--print"]) == 0
    out = capsys.readouterr().out
    replay = replays.replay(record)
    assert out.count("\n-- ") == len(replay.frames)
    assert repr(replay.frames[1].moves[0]["reply"]) in out and " as attack:" in out and " as defend:" in out
    assert "half 1 ended on:" in out and "half 2 · bot 1 attacks · bot 0 defends" in out and "over: " in out


def test_a_fault_in_the_second_half_keeps_the_first(league: Path, capsys: pytest.CaptureFixture[str]):
    replays = LeagueReplays(league)
    record = next(r for r in replays.records if r["result"]["termination"] == "BAD_OUTPUT")
    last = replays.replay(record).frames[-1].view
    assert last["over"] and last["end"]["faulted"] == record["result"]["offenders"][0]
    assert [h["end"] for h in last["halves"]] == [h["end"] for h in record["result"]["extra"]["halves"]]
    assert main(["replay", str(league), record["game_id"][:10], "--print"]) == 0
    assert "FAULT bad_output" in capsys.readouterr().out


def test_the_viewer_plays_a_stored_game_in_chromium(league: Path, page):
    replays = LeagueReplays(league)
    record = both_halves(replays)
    frames = replays.replay(record).frames
    # Show half 2 late on: half 1's final board beside a crowded second half.
    turn = next(i for i, frame in enumerate(frames) if frame.view["half"] == 2)
    step_to = turn + (len(frames) - turn) * 3 // 4
    seen = check_viewer(page, league, record["game_id"], "replay-attack2048.png", step_to=step_to)
    assert seen["frames"] == len(frames)
