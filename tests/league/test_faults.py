"""Misbehaving programs from tests/bots/ forfeit by the rules, with a detail a person can act on."""

import subprocess

import pytest

from tests.conftest import bot_command

FAST = ["--set", "turn_time_ms=300", "--set", "pregame_time_ms=300", "--set", "turns_per_player=30"]

CASES = [
    # script, termination, reason_code, words the detail must contain
    (
        "v2048_sleeper.py",
        "TIMEOUT",
        "TURN_TIME_LIMIT_EXCEEDED_AT_MAIN_OR_ATTACK",
        ["turn 1", "over the limit of 300 ms"],
    ),
    ("v2048_crasher.py", "CRASH", "PRESENTATION_ERROR_AT_MAIN_OR_ATTACK", ["signal SIGSEGV", "turn 1"]),
    ("v2048_garbage.py", "BAD_OUTPUT", "PRESENTATION_ERROR_AT_MAIN_OR_ATTACK", ["hello, referee!"]),
    ("v2048_illegal.py", "ILLEGAL_MOVE", "ALREADY_OCCUPIED_AT_ATTACK", ["is occupied"]),
    ("v2048_early_exit.py", "CRASH", "PRESENTATION_ERROR_AT_INIT", ["exited with status 3", "pre-game"]),
    ("v2048_twice.py", "BAD_OUTPUT", "PRESENTATION_ERROR_AT_MAIN_OR_ATTACK", ["'1 1'", "turn 1"]),
]


def bot_processes(script):
    listing = subprocess.run(["ps", "-eo", "args"], capture_output=True, text=True).stdout
    return [line for line in listing.splitlines() if script in line]


@pytest.mark.parametrize("hostile_seat", [0, 1])
@pytest.mark.parametrize(("script", "termination", "reason", "words"), CASES, ids=[c[0] for c in CASES])
def test_hostile_bot_forfeits(play_json, hostile_seat, script, termination, reason, words):
    bots = [bot_command(script), "greedy"]
    if hostile_seat == 1:
        bots.reverse()
    data = play_json("versus2048", *bots, *FAST)
    result = data["result"]
    assert result["termination"] == termination
    assert result["reason_code"] == reason
    assert result["winner"] == 1 - hostile_seat
    assert result["offenders"] == [hostile_seat]
    assert result["ranks"][hostile_seat] == 2
    for word in words:
        assert word in result["detail"]
    assert f"seat {hostile_seat}" in result["detail"]
    assert bot_processes(script) == [], "the bot's process must not outlive its game"


def test_pregame_fault_of_seat_0_never_asks_seat_1(play_json):
    data = play_json("versus2048", bot_command("v2048_early_exit.py"), "greedy")
    assert data["result"]["extra"]["turn"] == 0
    assert data["plies"] == 0
    assert data["time_used_ms"][1] == 0


def test_bot_written_for_the_original_judge_plays_unmodified(play_json):
    data = play_json("versus2048", bot_command("v2048_judge_style.py"), "greedy", "--set", "turns_per_player=40")
    assert data["result"]["termination"] == "NORMAL"
    assert data["result"]["offenders"] == []
    assert data["plies"] > 2


def test_both_built_ins_as_programs_play_the_same_game_as_in_process(play_json):
    args = ("versus2048", "greedy", "minimax", "--seed", "11", "--set", "turns_per_player=25")
    in_process = play_json(*args)
    as_programs = play_json(*args, "--programs")
    assert as_programs["result"] == in_process["result"]
    assert as_programs["plies"] == in_process["plies"]


def test_a_built_in_bot_that_raises_forfeits_with_the_error():
    from engine.versus2048 import Versus2048
    from engine.versus2048.bots import BUILTIN_BOTS
    from league.players import BotSpec, make_launcher
    from league.referee import play_match

    class Broken:
        def __init__(self, seed=0):
            pass

        def act(self, observation):
            raise ValueError("bug in my bot")

    BUILTIN_BOTS["broken_for_test"] = Broken
    try:
        game = Versus2048()
        specs = [
            BotSpec("greedy", builtin="versus2048.greedy"),
            BotSpec("broken", builtin="versus2048.broken_for_test"),
        ]
        record = play_match(game, [make_launcher(game, s, i, 0) for i, s in enumerate(specs)], 0)
    finally:
        del BUILTIN_BOTS["broken_for_test"]
    assert record.result.termination.value == "CRASH"
    assert record.result.offenders == [1]
    assert "ValueError: bug in my bot" in record.result.detail
