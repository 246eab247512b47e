"""The referee's clocks against real programs: per-turn and total limits, strict greater-than."""

import itertools

from engine.core import Termination
from engine.versus2048 import Versus2048
from league.match.bot_spec import BotSpec
from league.match.players import make_launcher
from league.match.referee import play_match
from tests.conftest import bot_command


def test_per_turn_limit_is_enforced_on_a_slow_program(play_json):
    data = play_json("versus2048", bot_command("v2048_slow.py") + " 400", "greedy", "--set", "turn_time_ms=200")
    result = data["result"]
    assert result["termination"] == "TIMEOUT"
    assert result["reason_code"] == "TURN_TIME_LIMIT_EXCEEDED_AT_MAIN_OR_ATTACK"
    assert result["extra"]["turn"] == 1
    assert data["time_used_ms"][0] < 400, "the referee stops waiting once the limit has passed"


def test_total_limit_counts_every_turn():
    game = Versus2048(total_time_ms=250, turn_time_ms=1000)
    specs = [
        BotSpec("greedy", builtin="versus2048.greedy"),
        BotSpec("slow", command=tuple(bot_command("v2048_slow.py").split()) + ("60",)),
    ]
    record = play_match(game, [make_launcher(game, spec, seat, 0) for seat, spec in enumerate(specs)], 0)
    result = record.result
    assert result.termination == Termination.TIMEOUT
    assert result.reason_code == "TOTAL_TIME_LIMIT_EXCEEDED_AT_MAIN_OR_ATTACK"
    assert result.winner == 0
    turn_times = [move.elapsed_ms for move in record.moves if move.seat == 1][1:]  # the first is the pre-game
    totals = list(itertools.accumulate(turn_times))
    assert totals[-1] > 250 >= totals[-2], "the fault comes on the first turn that passes the total"
    assert result.extra["turn"] == len(turn_times)
    assert "over the total of 250 ms" in result.detail


def test_slow_but_within_limits_plays_to_the_end(play_json):
    slow = bot_command("v2048_slow.py") + " 20"
    data = play_json("versus2048", slow, "random", "--set", "turns_per_player=5", "--clock", "wall")
    assert data["result"]["termination"] == "NORMAL"
    assert data["time_used_ms"][0] >= 5 * 20


def test_cpu_clock_does_not_charge_a_bot_for_sleeping(play_json):
    args = ("versus2048", bot_command("v2048_slow.py") + " 300", "random", "--set", "turn_time_ms=100")
    by_wall = play_json(*args, "--set", "turns_per_player=3", "--clock", "wall")
    assert by_wall["result"]["termination"] == "TIMEOUT"
    by_cpu = play_json(*args, "--set", "turns_per_player=3", "--clock", "cpu")
    assert by_cpu["result"]["termination"] == "NORMAL", by_cpu["result"]["detail"]
    assert by_cpu["time_used_ms"][0] < 3 * 100


def test_cpu_clock_still_times_out_a_spinning_bot(play_json):
    hostile = bot_command("hostile.py") + " spin"
    data = play_json("versus2048", hostile, "random", "--set", "turn_time_ms=200", "--clock", "cpu")
    assert data["result"]["termination"] == "TIMEOUT"
    assert data["result"]["offenders"] == [0]


def test_time_margin_forgives_harness_overhead(play_json):
    args = ("versus2048", bot_command("v2048_slow.py") + " 150", "random", "--set", "turn_time_ms=100")
    assert play_json(*args, "--set", "turns_per_player=2")["result"]["termination"] == "TIMEOUT"
    forgiven = play_json(*args, "--set", "turns_per_player=2", "--time-margin-ms", "200")
    assert forgiven["result"]["termination"] == "NORMAL"


def test_game_wall_limit_times_out_the_awaited_bot(play_json):
    data = play_json("versus2048", bot_command("v2048_slow.py") + " 100", "random", "--limit", "wall_seconds=0.5")
    result = data["result"]
    assert result["termination"] == "TIMEOUT" and result["offenders"] == [0]
    assert "wall limit of 0.5 s" in result["detail"]
