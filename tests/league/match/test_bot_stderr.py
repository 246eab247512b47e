"""A bot's stderr is kept with its game and shown: a traceback, Java's missing class, per process."""

import json
import shutil
import sys
from pathlib import Path

import pytest

from league.cluster.worker import LeagueSetup, play_game
from tests.conftest import BOTS, bot_command, script_bot

SHORT = ["--set", "turns_per_player=10"]


def test_a_crashing_python_bot_has_its_traceback_in_the_json_record(play_json):
    data = play_json("versus2048", bot_command("v2048_traceback.py"), "greedy", *SHORT)
    assert data["result"]["offenders"] == [0] and data["result"]["termination"] == "CRASH"
    [tail] = data["stderr"]
    assert (tail["seat"], tail["role"], tail["epoch"]) == (0, "play", 0)
    assert "Traceback (most recent call last)" in tail["text"]
    assert "RuntimeError: the bot's own bug, reported on stderr" in tail["text"]


def test_the_summary_prints_the_faulted_seats_stderr_under_the_result(league_cli):
    status, out, _ = league_cli("play", "versus2048", "greedy", bot_command("v2048_traceback.py"), *SHORT)
    assert status == 0
    result_at = out.index("wins: CRASH")
    stderr_at = out.index("stderr of seat 1 (v2048_traceback):")
    assert stderr_at > result_at
    assert "  | RuntimeError: the bot's own bug, reported on stderr" in out[stderr_at:]
    assert "stderr of seat 0" not in out, "a seat that did not fault shows its stderr only with --stderr"


def test_with_stderr_every_seat_is_shown_even_when_nobody_faulted(league_cli):
    status, out, _ = league_cli("play", "versus2048", bot_command("v2048_slow_start.py"), "greedy", *SHORT, "--stderr")
    assert status == 0 and "NORMAL" in out
    assert "stderr of seat 0 (v2048_slow_start):\n  | ready after warming up" in out
    assert "stderr of seat 1 (greedy): nothing" in out


def test_java_could_not_find_its_main_class_is_shown(league_cli, tmp_path):
    assert shutil.which("java"), "a JDK must be installed on CI machines"
    tmp_path.chmod(0o755)
    status, out, _ = league_cli("play", "versus2048", "java NoSuchBot", "greedy", "--cwd", f"0:{tmp_path}", *SHORT)
    assert status == 0
    assert "CRASH" in out
    assert "Could not find or load main class NoSuchBot" in out


def test_a_best_of_three_keeps_each_process_stderr_apart(play_json, tmp_path):
    source = "import os, sys\nsys.stdin.readline()\nprint('giving up in', os.getpid(), file=sys.stderr)\nsys.exit(1)\n"
    data = play_json("pk2048", script_bot(tmp_path, "quitter.py", source), "greedy", "--cwd", f"0:{tmp_path}")
    assert data["result"]["scores"] == [0, 2]
    tails = data["stderr"]
    assert [(tail["seat"], tail["epoch"]) for tail in tails] == [(0, 0), (0, 1)], "one tail per game's process"
    assert all(tail["text"].startswith("giving up in") for tail in tails)


def test_the_stored_game_record_holds_the_stderr_tail():
    setup = LeagueSetup(
        game="versus2048",
        variants={"v": {"turns_per_player": 10}},
        bots={
            "crash": {"name": "crash", "command": [sys.executable, str(BOTS / "v2048_traceback.py")]},
            "greedy": {"name": "greedy", "builtin": "versus2048.greedy"},
        },
    )
    spec = {"game_id": "g1", "variant": "v", "seats": ["crash", "greedy"], "seed": 3, "index": 0}
    record = play_game(spec, setup)
    json.dumps(record)  # what goes into games.jsonl
    [tail] = record["stderr"]
    assert tail["seat"] == 0 and "RuntimeError" in tail["text"]


def test_only_the_last_few_kilobytes_are_kept(play_json, tmp_path):
    bot = script_bot(
        tmp_path,
        "chatty.py",
        "import sys\nsys.stdin.readline()\nfor i in range(5000): print(f'line {i}', file=sys.stderr)\n"
        "sys.stderr.flush()\nraise SystemExit(3)\n",
    )
    data = play_json("versus2048", bot, "greedy", "--cwd", f"0:{tmp_path}", *SHORT)
    [tail] = data["stderr"]
    assert tail["text"].startswith("[") and "earlier bytes not kept" in tail["text"]
    assert "line 4999" in tail["text"] and "line 10\n" not in tail["text"]
    assert len(tail["text"]) < 5000


@pytest.mark.parametrize("flag", ["--json", None])
def test_a_bot_without_stderr_has_none_recorded(league_cli, flag):
    args = ["play", "versus2048", "greedy", "random", *SHORT] + ([flag] if flag else [])
    status, out, _ = league_cli(*args)
    assert status == 0
    if flag:
        assert json.loads(out)["stderr"] == []
    else:
        assert "stderr of" not in out


def test_league_bot_runs_through_the_console_script_in_the_jail(play_json):
    """`league bot GAME.NAME` as a program command: the jail exposes this project to it."""
    league = Path(sys.executable).with_name("league")
    data = play_json("versus2048", f"{league} bot versus2048.greedy", "random", *SHORT)
    assert data["result"]["termination"] == "NORMAL", data["stderr"]
