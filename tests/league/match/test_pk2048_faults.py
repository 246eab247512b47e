"""pk2048 against misbehaving programs from tests/bots/: each fault loses its game by the rules.

A fault loses one game of the best of three, not the match; a hostile program faults in every
game it plays, so it loses 0-2 and the fault of game 2 is what decided the match.
"""

import subprocess

import pytest

from tests.conftest import assert_forfeited, assert_programs_agree, bot_command, bot_processes, seated

CASES = [
    # script, extra --set, termination, reason_code, words the detail must contain
    ("pk2048_crasher.py", [], "CRASH", "CRASH", ["signal SIGSEGV", "before answering operation"]),
    ("pk2048_garbage.py", [], "BAD_OUTPUT", "PRESENTATION_ERROR", ["'up, please!'", "expected 3 integers"]),
    ("pk2048_empty_bomb.py", [], "ILLEGAL_MOVE", "INVALID_BOMB_CELL", ["is empty", "must name a cell holding a tile"]),
    ("pk2048_combination.py", [], "ILLEGAL_MOVE", "ILLEGAL_COMBINATION", ["combined with a slide", "the whole turn"]),
    ("pk2048_no_effect.py", [], "ILLEGAL_MOVE", "INVALID_MOVE", ["changes nothing", "slides that change it"]),
    ("pk2048_sleeper.py", ["decision_time_ms=300"], "TIMEOUT", "TIMEOUT", ["over the limit of 300 ms", "operation"]),
]


@pytest.mark.parametrize("hostile_seat", [0, 1])
@pytest.mark.parametrize(("script", "sets", "termination", "reason", "words"), CASES, ids=[c[0] for c in CASES])
def test_hostile_bot_loses_every_game_and_the_match(play_json, hostile_seat, script, sets, termination, reason, words):
    options = [option for key_value in sets for option in ("--set", key_value)]
    data = play_json("pk2048", *seated(bot_command(script), hostile_seat), "--seed", "4", *options)
    result = data["result"]
    assert_forfeited(result, hostile_seat, termination, reason, words)
    assert result["scores"][1 - hostile_seat] == 2 and result["scores"][hostile_seat] == 0
    games = result["extra"]["games"]
    assert len(games) == 2
    for game in games:
        assert game["winner"] == 1 - hostile_seat and game["offender"] == hostile_seat
        assert game["reason"] == reason and game["decided_by"] == "fault" and game["termination"] == termination
    assert result["detail"].startswith(f"seat {1 - hostile_seat} wins the match 2-0; game 2 decided it: ")
    assert bot_processes(script) == [], "the bot's processes must not outlive their games"


def test_both_games_start_a_fresh_process(play_json):
    # The crasher dies in game 1; if game 2 reused its process, the fault would be different.
    data = play_json("pk2048", bot_command("pk2048_crasher.py"), "greedy", "--set", "first_player=seat1")
    games = data["result"]["extra"]["games"]
    assert [game["first"] for game in games] == [1, 0]
    assert [game["operations"] for game in games] == [1, 0], "seat 0 answers second in game 1, first in game 2"
    assert all("signal SIGSEGV" in game["detail"] for game in games)


def test_a_contestant_style_program_plays_whole_games(play_json):
    data = play_json("pk2048", bot_command("pk2048_plain.py"), "random", "--seed", "2")
    result = data["result"]
    assert result["offenders"] == []
    assert all(game["termination"] == "NORMAL" for game in result["extra"]["games"])
    assert all(game["reason"] in ("NO_LEGAL_OPERATION", "REACHED_TARGET_TILE") for game in result["extra"]["games"])
    assert data["plies"] > 20


def test_built_ins_as_programs_play_the_same_match_as_in_process(play_json):
    args = ("pk2048", "greedy", "expectimax", "--seed", "11", "--set", "target_tile=64")
    assert_programs_agree(play_json, *args)


def test_league_bot_speaks_the_protocol():
    import sys

    request = "1\n0 0 0 0 0 0 0 0 0 0 2 4 0 0 4 2 0 0 0 0 0 0 0\n"
    completed = subprocess.run(
        [sys.executable, "-m", "league", "bot", "pk2048.greedy", "--seed", "3"],
        input=request,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert completed.returncode == 0, completed.stderr
    interference, bomb, direction = (int(token) for token in completed.stdout.split())
    assert (interference, bomb) == (0, 0) and direction in (1, 2, 3, 4)
    assert completed.stdout.endswith("\n") and completed.stdout.count("\n") == 1
