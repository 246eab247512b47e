"""nimmt replays: every stored game of a league of 2- and 5-seat tables with faulty programs replays exactly.

The league seats built-ins beside tests/bots/nimmt_hostile.py in modes that crash, time out (at a
PLAY and at a TAKE), print garbage and name a row that does not exist, over two deals, so the
replay meets simultaneous choices, row choices, fallback seats, early stops and a new deal.
"""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from engine.nimmt.rules import ROW_LIMIT
from league.cli.main import main
from league.replay.files import LeagueReplays
from tests.conftest import BOTS
from tests.league.replay.replay_checks import assert_replays_exactly, check_viewer, play_league


def hostile(name: str, mode: str) -> dict:
    return {"name": name, "command": f"{sys.executable} nimmt_hostile.py {mode}", "cwd": str(BOTS)}


@pytest.fixture(scope="module")
def league(tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = tmp_path_factory.mktemp("nimmt")
    return play_league(
        folder,
        {
            "name": "replays",
            "game": "nimmt",
            "variants": {"default": {"deals": 2, "timeout_ms": 300}},
            "bots": [
                {"name": "random", "builtin": "nimmt.random"},
                {"name": "greedy", "builtin": "nimmt.greedy"},
                {"name": "greedy-2", "builtin": "nimmt.greedy"},
                hostile("plain", "plain"),
                hostile("crasher", "crash 3"),
                hostile("sleeper", "sleep 4"),
                hostile("garbage", "malformed 2"),
                hostile("bad-row", "take_row 7"),
                hostile("slow-take", "sleep_take"),
            ],
            "format": "tables",
            "players_per_table": [2, 5],
            "tables": 3,
        },
    )


def test_every_stored_game_replays_to_its_stored_result_and_moves(league: Path):
    seen = assert_replays_exactly(league)
    assert {"NORMAL", "TIMEOUT", "CRASH", "BAD_OUTPUT", "ILLEGAL_MOVE"} <= set(seen), seen
    sizes = {len(record["spec"]["seats"]) for record in LeagueReplays(league).records}
    assert sizes == {2, 5}


def test_frames_show_every_reveal_together_and_each_take(league: Path):
    replays = LeagueReplays(league)
    takes = chose = 0
    for record in replays.records:
        replay = replays.replay(record)
        players = len(record["spec"]["seats"])
        for frame in replay.frames:
            view = frame.view
            assert len(view["rows"]) == 4 and len(view["hands"]) == players
            assert all(1 <= len(row) <= ROW_LIMIT for row in view["rows"])
            last = view["last"]
            if last is None:
                continue
            assert len(last["cards"]) == players, "every seat's card of the round, shown together"
            if last["resolved"]:
                assert sorted(step["card"] for step in last["placed"]) == sorted(last["cards"])
                takes += sum("took" in step for step in last["placed"])
                chose += sum(bool(step.get("chose")) for step in last["placed"])
    assert takes and chose
    first = replays.replay(replays.records[0]).frames[0]
    assert first.tension == 0.0 and first.view["last"] is None


def test_league_replay_print_shows_rows_reveals_and_takes(league: Path, capsys: pytest.CaptureFixture[str]):
    replays = LeagueReplays(league)
    record = next(r for r in replays.records if len(r["spec"]["seats"]) == 5 and r["result"]["offenders"])
    assert main(["replay", str(league), record["game_id"], "--print"]) == 0
    out = capsys.readouterr().out
    replay = replays.replay(record)
    assert out.count("\n-- ") == len(replay.frames)
    assert repr(replay.frames[1].moves[0]["reply"]) in out
    assert "row 3: " in out and "revealed (deal 1, round 1)" in out and "takes" in out and "FAULT" in out


def test_the_viewer_plays_a_stored_game_in_chromium(league: Path, page):
    replays = LeagueReplays(league)
    record = max(
        (r for r in replays.records if len(r["spec"]["seats"]) == 5), key=lambda r: (r["result"]["plies"], r["game_id"])
    )
    seen = check_viewer(page, league, record["game_id"], "replay-nimmt.png", step_to=7)
    assert seen["frames"] == len(replays.replay(record).frames)
    assert max(seen["tensions"]) > 0.5 > min(seen["tensions"]) == 0.0
