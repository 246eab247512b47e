"""The ``own`` clock (the default): wall time less what the machine kept the bot waiting for a CPU.

A bot starved by other processes on its core is charged only the time it could run; a bot that
sleeps, or computes past its limit alone, is charged all of it. Built-ins played in-process are
charged by every clock as programs are.
"""

import contextlib
import os
import signal
import subprocess
import sys

import pytest

from tests.conftest import bot_command

CORE = min(os.sched_getaffinity(0))
HOGS = 8


@contextlib.contextmanager
def crowded_core():
    """This thread (and every bot it starts) and HOGS spinning processes, each a session of its own, on one core."""
    before = os.sched_getaffinity(0)
    hogs = [
        subprocess.Popen(
            [sys.executable, "-c", "while True: pass"],
            start_new_session=True,
            preexec_fn=lambda: os.sched_setaffinity(0, {CORE}),
        )
        for _ in range(HOGS)
    ]
    os.sched_setaffinity(0, {CORE})
    try:
        yield
    finally:
        os.sched_setaffinity(0, before)
        for hog in hogs:
            os.killpg(hog.pid, signal.SIGKILL)
            hog.wait()


def spinner_game(play_json, spin_ms: int, *clock: str):
    spinner = bot_command("v2048_spinner.py") + f" {spin_ms}"
    sets = ("--set", "turn_time_ms=100", "--set", "turns_per_player=3")
    return play_json("versus2048", spinner, "random", *sets, *clock)


def test_a_bot_starved_on_a_crowded_core_is_charged_only_its_own_time(play_json):
    with crowded_core():
        by_own = spinner_game(play_json, 80)
        by_wall = spinner_game(play_json, 80, "--clock", "wall")
    assert by_own["result"]["termination"] == "NORMAL", by_own["result"]["detail"]
    assert by_wall["result"]["termination"] == "TIMEOUT", "the wall clock charges the starved time"


def test_a_bot_that_sleeps_past_its_limit_loses_on_the_own_clock(play_json):
    data = play_json(
        "versus2048", bot_command("v2048_slow.py") + " 120", "random", "--set", "turn_time_ms=100", "--clock", "own"
    )
    assert data["result"]["termination"] == "TIMEOUT"
    assert data["result"]["offenders"] == [0]


def test_a_bot_that_computes_past_its_limit_alone_loses_on_the_own_clock(play_json):
    data = spinner_game(play_json, 120)
    assert data["result"]["termination"] == "TIMEOUT"
    assert data["result"]["offenders"] == [0]


@pytest.mark.parametrize("clock", ["cpu", "own"])
def test_built_ins_in_process_are_charged_their_thinking(play_json, clock):
    solo = play_json("codevs21", "chains", "--set", "case=small", "--clock", clock)
    assert solo["time_used_ms"][0] > 0, "a built-in that answers every move while it reads is charged for it"
    versus = play_json("versus2048", "minimax", "greedy", "--set", "turns_per_player=10", "--clock", clock)
    assert versus["time_used_ms"][0] > 0
