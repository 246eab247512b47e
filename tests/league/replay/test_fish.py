"""fish replays: every stored game of small table leagues (2, 3 and 4 players) replays exactly, and its viewer plays.

One league of clean bots (built-ins and a program) at tables of 2 and 4; one where programs from
tests/bots/fish_hostile.py time out, crash, print garbage and break the rules, after which the
fallback policy plays their seats on (or the game stops once fewer than two seats are live).
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import TYPE_CHECKING

import pytest

from league.cli.main import main
from league.replay.files import LeagueReplays
from tests.browser import page_log
from tests.conftest import BOTS
from tests.league.replay.replay_checks import assert_replays_exactly, check_viewer, play_league

if TYPE_CHECKING:
    from playwright.sync_api import BrowserContext

LIMITS = {"timeout_ms": 300, "first_timeout_ms": 3000}
"""Short limits, so that sleeping programs time out soon."""
CLEAN_LIMITS = {"timeout_ms": 3000, "first_timeout_ms": 10000}
"""Limits no clean bot comes near, even on a busy machine: the clean games end by the rules."""


def program(name: str, arguments: str) -> dict:
    return {"name": name, "command": f"{sys.executable} fish_hostile.py {arguments}", "cwd": str(BOTS)}


@pytest.fixture(scope="module")
def clean(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return play_league(
        tmp_path_factory.mktemp("fish-clean"),
        {
            "name": "clean",
            "game": "fish",
            "variants": {"default": CLEAN_LIMITS},
            "bots": [
                {"name": "random", "builtin": "fish.random"},
                {"name": "greedy", "builtin": "fish.greedy"},
                {"name": "greedy-2", "builtin": "fish.greedy"},
                program("plain", "plain"),
            ],
            "format": "tables",
            "players_per_table": [2, 4],
            "tables": 1,
        },
    )


@pytest.fixture(scope="module")
def duels(tmp_path_factory: pytest.TempPathFactory) -> Path:
    modes = ["gap", "bent 2", "malformed 2", "crash 3", "sleep 2"]
    return play_league(
        tmp_path_factory.mktemp("fish-duels"),
        {
            "name": "duels",
            "game": "fish",
            "variants": {"default": LIMITS},
            "bots": [
                {"name": "greedy", "builtin": "fish.greedy"},
                *(program(mode.replace(" ", "-"), mode) for mode in modes),
            ],
            "format": "gauntlet",
            "candidates": [mode.replace(" ", "-") for mode in modes],
            "games_per_pair": 2,
        },
    )


@pytest.fixture(scope="module")
def crowd(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return play_league(
        tmp_path_factory.mktemp("fish-crowd"),
        {
            "name": "crowd",
            "game": "fish",
            "variants": {"default": LIMITS},
            "bots": [
                {"name": "random", "builtin": "fish.random"},
                {"name": "greedy", "builtin": "fish.greedy"},
                program("penguin", "penguin"),
                program("sleep-3", "sleep 3"),
            ],
            "format": "tables",
            "players_per_table": [3, 4],
            "tables": 1,
        },
    )


def test_every_stored_game_replays_to_its_stored_result_and_moves(clean: Path, duels: Path, crowd: Path):
    seen = assert_replays_exactly(clean) + assert_replays_exactly(duels) + assert_replays_exactly(crowd)
    assert {"NORMAL", "TIMEOUT", "CRASH", "BAD_OUTPUT", "ILLEGAL_MOVE"} <= set(seen)
    folders = (clean, duels, crowd)
    sizes = {len(record["spec"]["seats"]) for folder in folders for record in LeagueReplays(folder).records}
    assert sizes == {2, 3, 4}


def test_a_faulted_seat_is_played_on_by_the_fallback_in_the_frames(crowd: Path):
    replays = LeagueReplays(crowd)
    record = next(r for r in replays.records if r["result"]["offenders"] and r["result"]["extra"]["end"] == "no_move")
    frames = replays.replay(record).frames
    seat = record["result"]["offenders"][0]
    faulted = next(i for i, f in enumerate(frames) if not f.view["live"][seat])
    assert frames[faulted].view["faults"][0]["seat"] == seat
    later = [entry for f in frames[faulted + 1 :] for entry in f.view["recent"] if entry[1] == seat]
    assert later, "the fallback moves the faulted seat's penguins on"
    assert frames[-1].view["scores"] == record["result"]["scores"]


def test_a_four_player_game_shows_every_turn_and_tension_rises(clean: Path):
    replays = LeagueReplays(clean)
    record = max((r for r in replays.records if len(r["spec"]["seats"]) == 4), key=lambda r: r["result"]["plies"])
    frames = replays.replay(record).frames
    assert [f.view["plies"] for f in frames] == list(range(record["result"]["plies"] + 1))
    assert all(f.tension == 0.0 for f in frames if f.view["phase"] == "place")
    tensions = [f.tension for f in frames]
    assert max(tensions) > 0.5 and len(set(tensions)) > 10
    last = frames[-1].view
    assert last["over"] and last["end"]["ranks"] == record["result"]["ranks"]
    assert last["scores"] == record["result"]["scores"] and last["tiles"] == record["result"]["extra"]["tiles"]


def test_league_replay_print_shows_the_board_and_moves(clean: Path, capsys: pytest.CaptureFixture[str]):
    replays = LeagueReplays(clean)
    record = next(r for r in replays.records if len(r["spec"]["seats"]) == 2)
    assert main(["replay", str(clean), record["game_id"], "--print"]) == 0
    out = capsys.readouterr().out
    replay = replays.replay(record)
    assert out.count("\n-- ") == len(replay.frames)
    assert repr(replay.frames[1].moves[0]["reply"]) in out
    assert "r0:" in out and "r7:" in out and "fish," in out and "over (no_move)" in out


def test_the_viewer_plays_a_four_player_game_in_chromium(clean: Path, page):
    replays = LeagueReplays(clean)
    record = max((r for r in replays.records if len(r["spec"]["seats"]) == 4), key=lambda r: r["result"]["plies"])
    plies = record["result"]["plies"]
    seen = check_viewer(page, clean, record["game_id"], "replay-fish.png", step_to=plies * 3 // 5)
    assert seen["frames"] == plies + 1


def test_the_viewer_steps_through_games_with_faults(duels: Path, crowd: Path, context):
    for folder in (duels, crowd):
        replays = LeagueReplays(folder)
        for record in replays.records[::2]:
            _step_through(context, replays, record)


def _step_through(context: BrowserContext, replays: LeagueReplays, record: dict) -> None:
    """Show every frame of a game in a page of its own; the last one draws every penguin, and nothing goes wrong."""
    page = context.new_page()
    try:
        page.goto(replays.write(record["game_id"]).resolve().as_uri())
        frames = page.evaluate("replayPlayer.reels[0].frames.length")
        for index in range(frames):
            page.evaluate(f"replayPlayer.show({index})")
        penguins = page.evaluate("document.querySelectorAll('#board [data-penguin]').length")
        assert penguins == sum(len(cells) for cells in replays.replay(record).frames[-1].view["penguins"])
        assert page_log(page).errors() == []
    finally:
        page.close()
