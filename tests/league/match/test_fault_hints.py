"""Hints for bot authors in a fault's detail: a write the jail refused, the network, debug text on stdout.

And a script made executable without a ``#!`` line is refused before the game, as other command
mistakes are. Each case is a real misbehaving bot of tests/bots/ played through ``league play``.
"""

import shutil
import sys
from pathlib import Path

import pytest

from league.match.fault_hints import reply_hint, stderr_hints
from tests.conftest import BOTS, bot_command, write_league

JAILED = ["--sandbox", "strict", "--set", "turns_per_player=10", "--set", "pregame_time_ms=10000"]
JAILED += ["--set", "turn_time_ms=10000"]
LIBRARIES = ("botio.py", "v2048lib.py")
WRITE_HINT = "a bot may write only in its scratch folder /tmp (also its $HOME and $TMPDIR)"
NETWORK_HINT = "a bot has no network (limits.network is off)"
DEBUG_HINT = "debug output belongs on stderr"


def bot_copy(folder: Path, script: str) -> Path:
    """``script`` of tests/bots/ and its libraries in ``folder`` (readable by the jailed bot): the copy's path."""
    folder.mkdir(parents=True, exist_ok=True)
    for path in (folder, *folder.parents):
        if path == Path("/tmp"):
            break
        path.chmod(0o755)
    for name in (script, *LIBRARIES):
        shutil.copy(BOTS / name, folder / name)
        (folder / name).chmod(0o644)
    return folder / script


def assert_crash_of_seat_0(result: dict) -> None:
    """The hint changed nothing but the detail: seat 0 crashed at its first turn and lost."""
    assert (result["termination"], result["reason_code"]) == ("CRASH", "PRESENTATION_ERROR_AT_MAIN_OR_ATTACK")
    assert result["offenders"] == [0] and result["winner"] == 1
    assert result["detail"].startswith("seat 0 exited with status 1 before answering turn "), result["detail"]


@pytest.mark.parametrize(("mode", "turn"), [("crash", 1), ("play_on", 2)])
def test_a_bot_writing_beside_itself_is_told_where_it_may_write(play_json, tmp_path, mode, turn):
    # A copy, so that a jail that let the write through would leave its file in tmp_path, not in tests/bots.
    script = bot_copy(tmp_path / "bot", "v2048_writes_beside_itself.py")
    data = play_json("versus2048", f"{sys.executable} {script} {mode}", "greedy", *JAILED)
    result = data["result"]
    assert_crash_of_seat_0(result)
    assert f"before answering turn {turn};" in result["detail"], "it played on, and crashed a turn later"
    assert "seat 0's stderr shows a write refused ('Read-only file system')" in result["detail"]
    assert WRITE_HINT in result["detail"] and result["detail"].count(WRITE_HINT) == 1
    assert "Read-only file system" in data["stderr"][0]["text"]
    assert not (script.parent / "v2048_saved_state.txt").exists()


@pytest.mark.parametrize(
    ("mode", "errors"),
    [
        ("connect", ["Address family not supported by protocol"]),
        ("resolve", ["Temporary failure in name resolution", "Name or service not known"]),
        ("refused", ["Address family not supported by protocol"]),
    ],
)
def test_a_bot_reaching_for_the_network_is_told_it_has_none(play_json, mode, errors):
    data = play_json("versus2048", bot_command(f"v2048_network.py {mode}"), "greedy", *JAILED)
    result = data["result"]
    assert_crash_of_seat_0(result)
    found = [error for error in errors if f"seat 0's stderr shows it tried the network ({error!r})" in result["detail"]]
    assert len(found) == 1 and result["detail"].count(NETWORK_HINT) == 1, result["detail"]


def test_with_the_network_kept_no_network_hint_is_given(play_json):
    bot = bot_command("v2048_network.py refused")
    data = play_json("versus2048", bot, "greedy", *JAILED, "--limit", "network=true")
    result = data["result"]
    assert result["offenders"] == [0] and result["termination"] == "CRASH"
    assert "network" not in result["detail"], result["detail"]


def test_the_seat_that_did_not_fault_gets_no_hint(play_json, tmp_path):
    script = bot_copy(tmp_path / "bot", "v2048_writes_beside_itself.py")
    writer, network = f"{sys.executable} {script} play_on", bot_command("v2048_network.py connect")
    data = play_json("versus2048", writer, network, *JAILED)
    result = data["result"]
    # Seat 0 failed to save at turn 1 and played on; seat 1 crashed at its turn 1, before seat 0 read back.
    assert (result["termination"], result["offenders"]) == ("CRASH", [1]), result["detail"]
    assert "seat 1's stderr shows it tried the network" in result["detail"] and "seat 0" not in result["detail"]
    assert WRITE_HINT not in result["detail"]
    assert any("Read-only file system" in tail["text"] for tail in data["stderr"] if tail["seat"] == 0)


def test_debug_text_on_stdout_is_quoted_once_and_sent_to_stderr(play_json, league_cli):
    data = play_json("versus2048", "greedy", bot_command("v2048_debug_print.py"), "--set", "turns_per_player=10")
    result = data["result"]
    assert (result["termination"], result["offenders"], result["winner"]) == ("BAD_OUTPUT", [1], 0)
    detail = result["detail"]
    assert detail.startswith("seat 1 sent a malformed reply to turn 1 ('debug: thinking'): "), detail
    assert detail.count(DEBUG_HINT) == 1 and detail.endswith("stdout carries the replies only"), detail
    status, out, _ = league_cli("play", "versus2048", "greedy", bot_command("v2048_debug_print.py"))
    assert status == 0 and DEBUG_HINT in out


def test_the_debug_line_stays_inert_where_it_is_shown(league_cli):
    line = "debug: \x1b]0;pwned\x07thinking \x1b[2J"
    status, out, _ = league_cli("play", "versus2048", bot_command(f"v2048_debug_print.py '{line}'"), "greedy")
    assert status == 0
    assert "\x1b" not in out and "\x07" not in out
    assert "debug: \\x1b]0;pwned\\x07thinking \\x1b[2J" in out and DEBUG_HINT in out


@pytest.mark.parametrize("line", ["1,2", "U 1 2 3 x", "SET:ABCD", "MOV:A,NORTH", "", "\x00\xff"])
def test_a_line_that_does_not_read_like_words_gets_no_debug_hint(line):
    assert reply_hint(line) == ""


def test_hints_come_only_from_what_the_stderr_shows():
    assert stderr_hints(0, "Traceback ...\nValueError: bad move\n", network=False) == []
    assert stderr_hints(0, "OSError: [Errno 101] Network is unreachable\n", network=True) == []
    [hint] = stderr_hints(2, "java.net.UnknownHostException: example.com\n", network=False)
    assert hint.startswith("seat 2's stderr shows it tried the network ('UnknownHostException')")


def no_shebang_copy(tmp_path: Path) -> Path:
    """The no-``#!`` bot, made executable (mode 755) in a folder of its own: its path."""
    script = bot_copy(tmp_path / "bot", "v2048_no_shebang.py")
    script.chmod(0o755)
    return script


def test_an_executable_script_without_a_shebang_is_refused_before_the_game(league_cli, tmp_path, monkeypatch):
    script = no_shebang_copy(tmp_path)
    monkeypatch.chdir(script.parent)
    status, out, err = league_cli("play", "versus2048", "./v2048_no_shebang.py", "greedy")
    assert status == 2 and out == "" and err.startswith("league: error: ") and err.count("\n") == 1, err
    assert "'./v2048_no_shebang.py' is neither a script with a '#!' line nor a binary" in err
    assert "(Exec format error)" in err
    assert "start it with '#!/usr/bin/env python3', or run it as 'python3 ./v2048_no_shebang.py'" in err


def test_a_league_with_such_a_script_is_refused_naming_the_bot(league_cli, tmp_path):
    script = no_shebang_copy(tmp_path)
    bots = [{"name": "mine", "command": [str(script)]}, {"name": "greedy", "builtin": "versus2048.greedy"}]
    path = write_league(tmp_path, bots=bots)
    for command in ("validate", "run"):
        status, _, err = league_cli(command, str(path))
        assert status == 2 and err.count("\n") == 1, err
        assert "mine" in err and "Exec format error" in err and "#!/usr/bin/env python3" in err
    assert not (tmp_path / "out").exists(), "nothing is written"


def test_the_same_script_plays_through_python_or_with_its_shebang(play_json, tmp_path):
    script = no_shebang_copy(tmp_path)
    args = ["greedy", "--set", "turns_per_player=10", "--set", "pregame_time_ms=10000"]
    assert play_json("versus2048", f"{sys.executable} {script}", *args)["result"]["offenders"] == []
    script.write_text(f"#!{sys.executable}\n" + script.read_text())
    assert play_json("versus2048", str(script), *args)["result"]["offenders"] == []
