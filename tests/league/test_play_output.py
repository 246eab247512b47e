"""What ``league play`` tells people: timeouts that say why, clean summaries, own folders, fair start-up."""

import os
import shutil
import subprocess
import sys
from pathlib import Path

from sandbox.process import become_subreaper
from tests.conftest import BOTS, bot_command

ROOT = Path(__file__).resolve().parents[2]
SHORT = ["--set", "turns_per_player=10"]


def test_a_bot_that_never_flushes_is_asked_whether_it_does(play_json):
    result = play_json("versus2048", bot_command("v2048_unflushed.py"), "greedy", "--set", "pregame_time_ms=300")[
        "result"
    ]
    assert result["termination"] == "TIMEOUT" and result["offenders"] == [0]
    assert "it has printed nothing at all: is its stdout flushed after each line?" in result["detail"]


def test_a_reply_without_its_newline_is_quoted(play_json):
    result = play_json("versus2048", bot_command("v2048_no_newline.py"), "greedy", "--set", "pregame_time_ms=300")[
        "result"
    ]
    assert result["termination"] == "TIMEOUT"
    assert "it sent '1 1' without a newline" in result["detail"]


def test_a_timeout_after_earlier_answers_gives_no_flush_hint(play_json):
    result = play_json("versus2048", bot_command("v2048_sleeper.py"), "greedy", "--set", "turn_time_ms=300")["result"]
    assert result["termination"] == "TIMEOUT"
    assert "flushed" not in result["detail"] and "without a newline" not in result["detail"]


def test_the_summary_says_each_thing_once_and_labels_scores(league_cli):
    status, out, _ = league_cli("play", "versus2048", bot_command("v2048_early_exit.py"), "greedy", *SHORT)
    assert status == 0
    assert "CRASH CRASH" not in out and "CRASH (" in out
    status, out, _ = league_cli("play", "pk2048", "greedy", "random", "--seed", "2")
    assert "games won" in out and "plies" in out
    assert " 1 plies" not in out


def test_one_ply_is_singular(league_cli, tmp_path):
    tmp_path.chmod(0o755)
    bot = tmp_path / "once.py"
    bot.write_text("raise SystemExit(0)\n")  # seat 0 answers the pre-game, then seat 1 is gone: one ply
    status, out, _ = league_cli("play", "versus2048", "greedy", f"{sys.executable} {bot}", *SHORT)
    assert status == 0 and "after 1 ply\n" in out


def test_two_programs_of_the_same_name_get_names_that_tell_them_apart(play_json, tmp_path):
    tmp_path.chmod(0o755)
    for side in ("a", "b"):
        (tmp_path / side).mkdir()
        shutil.copy(BOTS / "v2048_judge_style.py", tmp_path / side / "bot.py")
        shutil.copy(BOTS / "v2048lib.py", tmp_path / side / "v2048lib.py")
        shutil.copy(BOTS / "botio.py", tmp_path / side / "botio.py")
    data = play_json(
        "versus2048", "python3 a/bot.py", "python3 b/bot.py", "--cwd", f"0:{tmp_path}", "--cwd", f"1:{tmp_path}"
    )
    assert [seat["name"] for seat in data["seats"]] == ["a/bot", "b/bot"]
    data = play_json("versus2048", "greedy", "greedy", *SHORT)
    assert [seat["name"] for seat in data["seats"]] == ["greedy#0", "greedy#1"]


def test_output_piped_into_head_ends_without_a_traceback():
    shell = f"{sys.executable} -m league play versus2048 greedy random --set turns_per_player=50 | head -1"
    completed = subprocess.run(["bash", "-c", f"set -o pipefail; {shell}"], cwd=ROOT, capture_output=True, text=True)
    assert completed.stdout.startswith("versus2048 seed 0")
    assert "Traceback" not in completed.stderr and "Exception" not in completed.stderr, completed.stderr


def test_each_bot_runs_in_its_own_folder_java_against_c(play_json, tmp_path):
    assert shutil.which("javac") and shutil.which("gcc"), "a JDK and gcc must be installed on CI machines"
    java, c = tmp_path / "java", tmp_path / "c"
    java.mkdir()
    c.mkdir()
    subprocess.run(["javac", "-d", str(java), str(BOTS / "V2048Bot.java")], check=True)
    subprocess.run(["gcc", "-O2", "-o", str(c / "a.out"), str(BOTS / "v2048_bot.c")], check=True)
    for folder in (tmp_path, java, c):
        folder.chmod(0o755)
    data = play_json("versus2048", "java V2048Bot", "./a.out", "--cwd", f"0:{java}", "--cwd", f"1:{c}", *SHORT)
    assert data["result"]["termination"] == "NORMAL" and data["result"]["offenders"] == []
    assert [seat["bot"] for seat in data["seats"]] == ["java V2048Bot", "./a.out"]


def test_a_bot_that_starts_slowly_is_not_charged_its_start_up(play_json):
    """Half a second of CPU before reading anything, against a pre-game limit of 150 ms."""
    data = play_json("versus2048", bot_command("v2048_slow_start.py"), "greedy", *SHORT, "--set", "pregame_time_ms=150")
    assert data["result"]["termination"] == "NORMAL", data["result"]["detail"]
    assert data["result"]["offenders"] == []


def _bwrap_children() -> set[str]:
    found = set()
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                stat = (entry / "stat").read_text()
            except OSError:
                continue
            if int(stat.rsplit(")", 1)[1].split()[1]) == os.getpid() and "(bwrap)" in stat:
                found.add(stat.split(")")[0])
    return found


def test_no_jail_process_outlives_league_play():
    """The referee adopts its bots' orphans; whatever a finished `league play` left would come to us."""
    become_subreaper()
    before = _bwrap_children()
    command = [sys.executable, "-m", "league", "play", "versus2048", bot_command("v2048_judge_style.py")]
    command += [bot_command("v2048_early_exit.py"), *SHORT, "--sandbox", "strict"]
    completed = subprocess.run(command, cwd=ROOT, capture_output=True, text=True)
    assert completed.returncode == 0, completed.stderr
    assert _bwrap_children() - before == set(), "bwrap processes outlived league play"
