"""attack2048 through ``league play --json`` with real programs: faults forfeit by the rules (section 6).

Each bot is ``ATTACKER::DEFENDER``. Seat 0 attacks in half 1 and defends in half 2; seat 1 the
other way round, so a hostile attacker at seat 0 faults in half 1 and one at seat 1 in half 2.
"""

import shutil
import subprocess
import sys

import pytest

from tests.conftest import BOTS, assert_forfeited, assert_programs_agree, bot_command, bot_processes, seated

FAST = ["--set", "decision_ms=300", "--set", "startup_ms=700"]


def hostile(role, mode):
    """The BOT argument whose ``role`` process misbehaves in ``mode`` (the other role is greedy)."""
    command = bot_command(f"attack2048_hostile.py {role} {mode}")
    return f"{command}::greedy" if role == "attack" else f"greedy::{command}"


CASES = [
    # role, mode, extra --set, termination, reason_code, words the detail must contain
    ("attack", "occupied", [], "ILLEGAL_MOVE", "illegal_move", ["is occupied", "ply 3"]),
    ("defend", "nochange", [], "ILLEGAL_MOVE", "illegal_move", ["changes nothing"]),
    ("attack", "four", ["--set", "tiles=[2]"], "ILLEGAL_MOVE", "illegal_move", ["a 4 is not allowed", "tiles [2]"]),
    ("attack", "garbage", [], "BAD_OUTPUT", "bad_output", ["'hello, referee!'", "3 integers"]),
    ("defend", "garbage", [], "BAD_OUTPUT", "bad_output", ["'hello, referee!'", "one direction word"]),
    ("defend", "nonascii", [], "BAD_OUTPUT", "bad_output", ["not printable ASCII"]),
    ("attack", "segv", [], "CRASH", "crash", ["killed by signal SIGSEGV", "before answering"]),
    ("defend", "exit3", [], "CRASH", "crash", ["exited with status 3", "defender request"]),
    ("attack", "sleep", [], "TIMEOUT", "timeout", ["over the limit of 300 ms"]),
]


@pytest.mark.parametrize("hostile_seat", [0, 1])
@pytest.mark.parametrize(
    ("role", "mode", "settings", "termination", "reason", "words"), CASES, ids=[c[1] for c in CASES]
)
def test_hostile_process_forfeits_the_match(play_json, hostile_seat, role, mode, settings, termination, reason, words):
    data = play_json("attack2048", *seated(hostile(role, mode), hostile_seat), *FAST, *settings)
    result = data["result"]
    assert_forfeited(result, hostile_seat, termination, reason, words)
    extra = result["extra"]
    half = 1 if (role == "attack") == (hostile_seat == 0) else 2
    assert (extra["faulted"], extra["half"], extra["role"]) == (hostile_seat, half, role + "er")
    assert extra["reason"] == reason and extra["winner"] == 1 - hostile_seat
    assert [record["half"] for record in extra["halves"]] == list(range(1, half + 1))
    assert extra["halves"][-1]["end"] == "fault"
    assert bot_processes("attack2048_hostile.py") == [], "no process outlives its match"


def test_blank_lines_are_skipped_then_the_reply_counts(play_json):
    blank = bot_command("attack2048_hostile.py attack blank") + "::" + bot_command("attack2048_hostile.py defend blank")
    data = play_json("attack2048", blank, "greedy", *FAST)
    result = data["result"]
    assert result["termination"] == "NORMAL" and result["offenders"] == []
    assert result["reason_code"] in ("score", "equal_score")
    assert [record["end"] for record in result["extra"]["halves"]] == ["stuck", "stuck"]
    assert data["plies"] == sum(record["plies"] for record in result["extra"]["halves"]) > 10


def python3():
    return shutil.which("python3") or sys.executable


def test_bots_in_the_vs2048_bridge_format_run_unmodified(play_json):
    bridge = (
        f"{python3()} {BOTS / 'attack2048_bridge_offender.py'}::{python3()} {BOTS / 'attack2048_bridge_defender.py'}"
    )
    for bots in ([bridge, "greedy"], ["greedy", bridge]):
        data = play_json("attack2048", *bots)
        result = data["result"]
        assert result["termination"] == "NORMAL", result["detail"]
        assert result["offenders"] == [] and result["reason_code"] in ("score", "equal_score")
        halves = result["extra"]["halves"]
        assert [h["end"] for h in halves] == ["stuck", "stuck"] and all(h["plies"] > 10 for h in halves)
        assert result["scores"] == [halves[1]["score"], halves[0]["score"]]


def test_a_lone_built_in_plays_both_roles_and_scores_decide(play_json):
    data = play_json("attack2048", "greedy", "attack2048.random", "--seed", "4")
    seats = data["seats"]
    assert seats[0]["bot"] == "built-in attack2048.greedy"
    result = data["result"]
    assert result["termination"] == "NORMAL"
    s0, s1 = result["scores"]
    assert result["winner"] == (None if s0 == s1 else int(s1 > s0))
    assert result["extra"]["halves"][0]["attacker"] == 0 and result["extra"]["halves"][1]["attacker"] == 1


def test_two_built_ins_per_side_as_programs_play_the_same_match_as_in_process(play_json):
    args = ("attack2048", "greedy::expectimax", "random::greedy", "--seed", "9", "--set", "max_plies_per_half=150")
    assert_programs_agree(play_json, *args)


def test_attack2048_bot_arguments_are_checked(league_cli):
    status, _, err = league_cli("play", "attack2048", "python3 bot.py", "greedy")
    assert status == 2 and "one command per role" in err
    status, _, err = league_cli("play", "attack2048", "greedy::random::greedy", "greedy")
    assert status == 2 and "ATTACK::DEFEND" in err
    status, _, err = league_cli("play", "attack2048", "greedy", "greedy", "--set", "tiles=[4]")
    assert status == 2 and "tiles" in err
    status, _, err = league_cli("play", "attack2048", "greedy", "greedy", "--set", "opening=middle")
    assert status == 2 and "opening" in err


def test_league_bot_runs_one_role_byte_exact():
    request = b"game\n2 0 0 0 \n0 0 0 0 \n0 0 0 0 \n0 0 0 0 \n"
    for role, check in (
        ("attack", lambda line: line.split(b" ")[2] == b"2"),
        ("defend", lambda line: line in (b"east", b"south")),
    ):
        completed = subprocess.run(
            [sys.executable, "-m", "league", "bot", "attack2048.greedy", "--role", role, "--seed", "1"],
            input=request + request + b"quit\n",
            capture_output=True,
            timeout=60,
        )
        assert completed.returncode == 0, completed.stderr
        lines = completed.stdout.split(b"\n")
        assert len(lines) == 3 and lines[-1] == b"" and all(check(line) for line in lines[:2]), lines


def test_a_request_that_cannot_be_written_is_a_crash(play_json):
    # Outside the jail: inside it, the jail's own helpers keep the pipe open (see README).
    defender = f"{bot_command('attack2048_close_stdin.py')}"
    data = play_json("attack2048", f"greedy::{defender}", "greedy", "--sandbox", "none")
    result = data["result"]
    assert result["termination"] == "CRASH" and result["offenders"] == [0]
    assert "stopped reading its input" in result["detail"]
