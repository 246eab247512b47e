"""Hostile bots (tests/bots/hostile.py) through ``league play``, jailed: each forfeits its own game.

Every case asserts the forfeit of the hostile seat, that no process of the bot survives the
game, and that nothing appeared outside its scratch folder.
"""

import json
import os
import shutil
import socket
import subprocess
import sys
import threading

import pytest

from league.cli.main import main
from sandbox.jail import jail_problem
from sandbox.slots import FIRST_UID, SLOT_COUNT
from tests.conftest import BOTS, own_processes, seated

QUICK = ["--set", "turn_time_ms=600", "--set", "pregame_time_ms=2000", "--sandbox", "strict"]


def slot_processes():
    """Our own processes running as a bot slot's uid (other leagues on this machine are not ours)."""
    return [(pid, args) for pid, uid, args in own_processes() if FIRST_UID <= uid < FIRST_UID + SLOT_COUNT]


def play_hostile(capsys, *mode, extra=(), seat=0):
    hostile = f"{sys.executable} {BOTS / 'hostile.py'} {' '.join(mode)}"
    status = main(["play", "versus2048", *seated(hostile, seat), *QUICK, *extra, "--json"])
    out, err = capsys.readouterr()
    assert status == 0, err
    return json.loads(out)["result"]


@pytest.fixture(autouse=True)
def jail_is_available():
    assert jail_problem() is None, f"the jail must work on CI machines: {jail_problem()}"
    yield
    assert slot_processes() == [], "no bot process may survive its game"


@pytest.fixture
def outside(tmp_path):
    """A folder outside every bot's scratch, with its contents before the game."""
    before = sorted(p.name for p in tmp_path.iterdir())
    yield tmp_path
    assert sorted(p.name for p in tmp_path.iterdir()) == before


def assert_forfeit(result, termination, seat=0):
    assert result["termination"] == termination, result["detail"]
    assert result["offenders"] == [seat]
    assert result["winner"] == 1 - seat


def test_fork_bomb_is_capped_and_times_out(capsys, outside):
    result = play_hostile(capsys, "forkbomb", extra=["--limit", "processes=32"])
    assert_forfeit(result, "TIMEOUT")


def test_memory_hog_is_killed_at_its_cap(capsys, outside):
    result = play_hostile(capsys, "memhog", extra=["--limit", "memory_mb=200"])
    assert_forfeit(result, "CRASH")
    assert "memory cap of 200 MB" in result["detail"]


def test_infinite_loop_times_out(capsys, outside):
    assert_forfeit(play_hostile(capsys, "spin"), "TIMEOUT")


def test_sleeping_past_the_deadline_times_out(capsys, outside):
    result = play_hostile(capsys, "oversleep", seat=1)
    assert_forfeit(result, "TIMEOUT", seat=1)
    assert result["reason_code"] == "TURN_TIME_LIMIT_EXCEEDED_AT_MAIN_OR_ATTACK"


def test_spending_the_time_bank_is_a_total_time_fault(capsys, outside):
    result = play_hostile(capsys, "bank", extra=["--set", "total_time_ms=500"])
    assert_forfeit(result, "TIMEOUT")
    assert result["reason_code"] == "TOTAL_TIME_LIMIT_EXCEEDED_AT_MAIN_OR_ATTACK"


def test_stdout_flood_without_newline_is_bad_output(capsys, outside):
    result = play_hostile(capsys, "flood_stdout", extra=["--limit", "line_bytes=100000"])
    assert_forfeit(result, "BAD_OUTPUT")
    assert "over 100000 bytes" in result["detail"]


def test_stderr_flood_cannot_block_the_referee(capsys, outside):
    assert_forfeit(play_hostile(capsys, "flood_stderr"), "TIMEOUT")


def test_closing_stdout_and_lingering_forfeits(capsys, outside):
    # The jail's own helper processes hold the pipe too, so a bot that closes stdout but lives
    # on is seen as silent (a timeout) rather than as an end of stream.
    result = play_hostile(capsys, "close_linger")
    assert result["offenders"] == [0] and result["termination"] in ("CRASH", "TIMEOUT")


def test_exiting_at_once_is_a_crash(capsys, outside):
    status = main(
        ["play", "versus2048", f"{sys.executable} {BOTS / 'v2048_early_exit.py'}", "greedy", *QUICK, "--json"]
    )
    result = json.loads(capsys.readouterr().out)["result"]
    assert status == 0
    assert_forfeit(result, "CRASH")


def test_daemon_child_holding_the_pipe_is_killed_with_the_bot(capsys, outside):
    result = play_hostile(capsys, "daemon")
    assert result["offenders"] == [0] and result["termination"] in ("CRASH", "TIMEOUT")


def test_no_connection_reaches_a_host_listener(capsys, outside):
    listener = socket.socket()
    listener.bind(("127.0.0.1", 0))
    listener.listen()
    listener.settimeout(0.2)
    accepted = []

    def accept_until_closed():
        while True:
            try:
                accepted.append(listener.accept())
            except TimeoutError:
                continue
            except OSError:
                return

    thread = threading.Thread(target=accept_until_closed, daemon=True)
    thread.start()
    result = play_hostile(capsys, "connect", str(listener.getsockname()[1]))
    listener.close()
    thread.join(2)
    assert accepted == []
    assert_forfeit(result, "BAD_OUTPUT")
    assert "no connection" in result["detail"]


def test_writing_outside_the_scratch_folder_fails(capsys, outside):
    target = outside / "pwned.txt"
    result = play_hostile(capsys, "write", str(target))
    assert not target.exists()
    assert_forfeit(result, "BAD_OUTPUT")
    assert "cannot write" in result["detail"]


def test_a_host_secret_not_named_in_the_command_is_invisible(capsys, tmp_path):
    secret = tmp_path / "secret.txt"
    secret.write_text("TOPSECRET")
    os.chmod(secret, 0o644)
    result = play_hostile(capsys, "read", str(secret).replace("/", "|"))
    assert "TOPSECRET" not in result["detail"]
    assert "No such file" in result["detail"]


def test_etc_shadow_is_unreadable_because_the_bot_is_not_root(capsys, outside):
    result = play_hostile(capsys, "read", "/etc/shadow")
    assert_forfeit(result, "BAD_OUTPUT")
    assert "Permission denied" in result["detail"]


def test_the_referee_cannot_be_killed(capsys, outside):
    result = play_hostile(capsys, "kill", str(os.getpid()))
    assert_forfeit(result, "BAD_OUTPUT")
    assert "cannot kill" in result["detail"]


def test_a_line_longer_than_the_cap_is_bad_output(capsys, outside):
    result = play_hostile(capsys, "longline", "5000", extra=["--limit", "line_bytes=4096"])
    assert_forfeit(result, "BAD_OUTPUT")


def test_a_c_bot_runs_in_the_jail(capsys, tmp_path):
    gcc = shutil.which("gcc")
    assert gcc, "gcc must be installed on CI machines"
    subprocess.run([gcc, "-O2", "-o", str(tmp_path / "bot"), str(BOTS / "v2048_bot.c")], check=True)
    tmp_path.chmod(0o755)  # the bot runs as an unprivileged uid: its folder must be readable
    status = main(
        ["play", "versus2048", str(tmp_path / "bot"), "greedy", *QUICK, "--set", "turns_per_player=40", "--json"]
    )
    result = json.loads(capsys.readouterr().out)["result"]
    assert status == 0
    assert result["termination"] == "NORMAL" and result["offenders"] == []


def test_a_java_bot_runs_in_the_jail(capsys, tmp_path):
    javac = shutil.which("javac")
    assert javac and shutil.which("java"), "a JDK must be installed on CI machines"
    subprocess.run([javac, "-d", str(tmp_path), str(BOTS / "V2048Bot.java")], check=True)
    tmp_path.chmod(0o755)  # the bot runs as an unprivileged uid: its class folder must be readable
    command = f"java -cp {tmp_path} V2048Bot"
    status = main(
        [
            "play",
            "versus2048",
            command,
            "greedy",
            *QUICK,
            "--set",
            "pregame_time_ms=10000",
            "--set",
            "turns_per_player=40",
            "--json",
        ]
    )
    result = json.loads(capsys.readouterr().out)["result"]
    assert status == 0
    assert result["termination"] == "NORMAL" and result["offenders"] == [], result["detail"]


def test_strict_refuses_without_bubblewrap(capsys, monkeypatch):
    monkeypatch.setenv("LEAGUE_BWRAP", "")
    status = main(["play", "versus2048", "greedy", "greedy", "--sandbox", "strict"])
    err = capsys.readouterr().err
    assert status == 2
    assert "bubblewrap is not installed" in err and "apt-get install bubblewrap" in err


def test_auto_without_bubblewrap_refuses_programs_with_the_install_hint(capsys, monkeypatch, tmp_path):
    monkeypatch.setenv("LEAGUE_BWRAP", "")
    marker = tmp_path / "ran"
    bot = tmp_path / "bot.py"
    bot.write_text(f"open({str(marker)!r}, 'w').close()\n")
    status = main(["play", "versus2048", f"{sys.executable} {bot}", "greedy", "--sandbox", "auto"])
    err = capsys.readouterr().err
    assert status == 2 and err.count("\n") == 1
    assert "cannot be jailed here: bubblewrap is not installed (apt-get install bubblewrap)" in err
    assert "--sandbox none" in err
    assert not marker.exists(), "nothing may run unjailed"


def test_auto_without_bubblewrap_still_plays_built_ins_in_process(play_json, monkeypatch):
    monkeypatch.setenv("LEAGUE_BWRAP", "")
    result = play_json("versus2048", "greedy", "random", "--set", "turns_per_player=5")["result"]
    assert result["termination"] == "NORMAL"


def test_sandbox_none_runs_a_program_without_bubblewrap_when_asked(play_json, monkeypatch):
    monkeypatch.setenv("LEAGUE_BWRAP", "")
    bot = f"{sys.executable} {BOTS / 'v2048_judge_style.py'}"
    result = play_json("versus2048", bot, "greedy", "--set", "turns_per_player=5", "--sandbox", "none")["result"]
    assert result["termination"] == "NORMAL" and result["offenders"] == []
