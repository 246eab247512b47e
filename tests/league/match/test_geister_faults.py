"""geister through ``league play --json`` with real misbehaving programs (rules/geister.md section 6).

The programs are tests/bots/geister_hostile.py in one MODE each; a fault loses at once for the
seat that made it (6.2), with the rules' reason code and a detail naming the offending line.
Timeouts use small limits, so the whole file runs in seconds.
"""

import pytest

from tests.conftest import assert_forfeited, bot_command, bot_processes, seated

SETUP_FAST = ["--set", "setup_timeout_s=0.3"]
MOVE_FAST = ["--set", "move_timeout_s=0.3", "--set", "budget_s=0"]


def hostile(mode):
    return bot_command(f"geister_hostile.py {mode}")


CASES = [
    # mode, opponent, extra options, termination, reason_code, words the detail must contain, plies
    ("mov_in_setup", "random", [], "BAD_OUTPUT", "bad_output", ["'MOV:A,N'", "setup", "a MOV during the setup"], 0),
    ("duplicate", "random", [], "ILLEGAL_MOVE", "illegal_move", ["SET:AABC", "names A twice", "its setup"], 0),
    ("set_in_play", "random", [], "BAD_OUTPUT", "bad_output", ["'SET:ABCD'", "a SET after the setup"], None),
    ("letter", "random", [], "BAD_OUTPUT", "bad_output", ["'MOV:I,N'", "one letter A-H"], None),
    (
        "off_board",
        "random",
        [],
        "ILLEGAL_MOVE",
        "illegal_move",
        ["MOV:E,SOUTH", "off the board", "not an escape"],
        None,
    ),
    ("captured", hostile("plain"), [], "ILLEGAL_MOVE", "illegal_move", ["MOV:A,NORTH", "which was captured"], None),
    ("crash", "random", [], "CRASH", "crash", ["exited with status 3", "before answering its move request"], None),
    ("sleep_setup", "random", SETUP_FAST, "TIMEOUT", "timeout", ["its setup (SET)", "over the 300 ms"], 0),
    ("sleep_move", "random", MOVE_FAST, "TIMEOUT", "timeout", ["ply", "over the 300 ms"], None),
]


@pytest.mark.parametrize("seat", [0, 1])
@pytest.mark.parametrize(
    ("mode", "other", "options", "termination", "reason", "words", "plies"), CASES, ids=[c[0] for c in CASES]
)
def test_a_fault_loses_at_once(play_json, seat, mode, other, options, termination, reason, words, plies):
    data = play_json("geister", *seated(hostile(mode), seat, other), *options)
    result = data["result"]
    assert_forfeited(result, seat, termination, reason, words)
    extra = result["extra"]
    assert extra["faulted"] == seat and extra["winner"] == 1 - seat and extra["reason"] == reason
    if plies == 0:  # a setup fault: the game never started, and the faulty setup is not recorded
        assert data["plies"] == 0 and extra["sets"][seat] is None and extra["sets"][1 - seat] is not None
    else:  # the fault came at the offender's first move (or, for "captured", later) and was not played
        assert extra["sets"][seat] == "SET:ABCD"
        first = seat if mode != "captured" else None
        assert first is None or data["plies"] == seat
        assert f"ply {data['plies'] + 1}" in result["detail"]
    assert extra["final"].startswith("WON:" if seat == 1 else "LST:")
    assert "u" not in extra["final"], "the end message reveals every colour"
    assert bot_processes("geister_hostile.py") == [], "no process outlives its game"


def test_a_crashing_bot_keeps_its_stderr(play_json):
    data = play_json("geister", hostile("crash"), "random")
    [tail] = [tail for tail in data["stderr"] if tail["seat"] == 0]
    assert "geister_hostile: out of ghosts" in tail["text"]


def test_two_failed_setups_are_a_double_fault_after_waiting_for_both(play_json):
    # Seat 0's SET fails at once; the referee still waits for seat 1, which times out: a draw.
    data = play_json("geister", hostile("duplicate"), hostile("sleep_setup"), *SETUP_FAST)
    result = data["result"]
    assert result["winner"] is None and result["ranks"] == [1, 1]
    assert result["reason_code"] == "double_fault" and result["offenders"] == [0, 1]
    assert result["extra"]["faulted"] == [0, 1] and result["extra"]["sets"] == [None, None]
    for words in ("SET:AABC", "names A twice", "seat 1", "300 ms"):
        assert words in result["detail"], result["detail"]
    assert result["extra"]["final"] == "DRW:14B24B34B44B15B25B35B45B41b31b21b11b40b30b20b10b"


def test_with_ng_terminate_false_a_rejected_line_is_followed_by_a_good_one(play_json):
    for seat in (0, 1):
        data = play_json("geister", *seated(hostile("retry"), seat, "random"), "--set", "ng_terminate=false")
        result = data["result"]
        assert result["termination"] == "NORMAL" and result["offenders"] == [], result["detail"]
        assert result["reason_code"] in ("escape", "all_blue_captured", "all_red_captured", "max_plies")
        assert data["plies"] > 4 and result["extra"]["sets"][seat] == "SET:ABCD"


def test_with_ng_terminate_true_the_same_bot_loses_at_its_first_move(play_json):
    data = play_json("geister", hostile("retry"), "random")
    assert_forfeited(data["result"], 0, "BAD_OUTPUT", "bad_output", ["'MOV:I,N'", "ply 1"])
    assert data["plies"] == 0


def test_a_retry_is_charged_from_the_original_request(play_json):
    options = ["--set", "ng_terminate=false", "--set", "max_plies=3"]
    data = play_json("geister", hostile("slow_retry"), "random", *options)
    result = data["result"]
    assert result["termination"] == "NORMAL" and result["reason_code"] == "max_plies"
    # The rejected attempt's 0.4 s counts (without it, the retry alone: a few ms). On a busy machine the
    # referee may note the request's start a little after the bot began (399 ms was seen): a margin.
    assert data["time_used_ms"][0] >= 300, "the rejected attempt's time counts"


def test_a_retry_does_not_restart_the_clock(play_json):
    # Each pause is 0.3 s, under the 0.5 s allowed; together they are over it.
    options = ["--set", "ng_terminate=false", "--set", "move_timeout_s=0.5", "--set", "budget_s=0"]
    data = play_json("geister", "random", hostile("retry_too_slow"), *options)
    assert_forfeited(data["result"], 1, "TIMEOUT", "timeout", ["over the 500 ms", "ply 2"])
    assert data["plies"] == 1


def test_lines_over_1024_bytes_are_rejected_and_with_ng_terminate_false_retried(play_json):
    options = ["--set", "ng_terminate=false", "--set", "max_plies=3"]
    data = play_json("geister", hostile("overlong"), "random", *options)
    result = data["result"]
    assert result["termination"] == "NORMAL" and result["reason_code"] == "max_plies", result["detail"]
    assert data["plies"] == 3
    data = play_json("geister", hostile("overlong"), "random")
    assert_forfeited(data["result"], 0, "BAD_OUTPUT", "bad_output", ["line over 1024 bytes", "ply 1"])
