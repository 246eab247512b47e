"""Misbehaving programs from tests/bots/ forfeit by the rules, with a detail a person can act on."""

import pytest

from tests.conftest import assert_forfeited, assert_programs_agree, bot_command, bot_processes, seated

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


@pytest.mark.parametrize("hostile_seat", [0, 1])
@pytest.mark.parametrize(("script", "termination", "reason", "words"), CASES, ids=[c[0] for c in CASES])
def test_hostile_bot_forfeits(play_json, hostile_seat, script, termination, reason, words):
    data = play_json("versus2048", *seated(bot_command(script), hostile_seat), *FAST)
    assert_forfeited(data["result"], hostile_seat, termination, reason, words)
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
    assert_programs_agree(play_json, *args)


def test_a_built_in_bot_that_raises_forfeits_with_the_error():
    from engine.versus2048 import Versus2048
    from engine.versus2048.bots import BUILTIN_BOTS
    from league.match.bot_spec import BotSpec
    from league.match.players import make_launcher
    from league.match.referee import play_match

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


def test_a_number_too_long_for_the_parser_is_bad_output_not_our_error(play_json):
    result = play_json("versus2048", bot_command("v2048_bigint.py"), "greedy")["result"]
    assert result["termination"] == "BAD_OUTPUT"
    assert result["reason_code"] == "PRESENTATION_ERROR_AT_INIT"
    assert result["offenders"] == [0]
    assert "(5002 characters)" in result["detail"] and len(result["detail"]) < 500
