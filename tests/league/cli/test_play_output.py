"""What ``league play`` tells people: timeouts that say why, clean summaries, own folders, fair start-up."""

import os
import shutil
import subprocess
import sys
import time
from pathlib import Path

from sandbox.procfs import children_of, process_table
from sandbox.reaper import become_subreaper
from tests.conftest import BOTS, alive, bot_command, processes_below, script_bot

ROOT = Path(__file__).resolve().parents[3]
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
    bot = script_bot(tmp_path, "once.py", "raise SystemExit(0)\n")  # seat 0 answers the pre-game, seat 1 is gone
    status, out, _ = league_cli("play", "versus2048", "greedy", bot, *SHORT)
    assert status == 0 and "after 1 ply\n" in out


def test_two_programs_of_the_same_name_get_names_that_tell_them_apart(play_json, tmp_path):
    tmp_path.chmod(0o755)
    for side in ("a", "b"):
        (tmp_path / side).mkdir()
        shutil.copy(BOTS / "v2048_judge_style.py", tmp_path / side / "bot.py")
        shutil.copy(BOTS / "v2048lib.py", tmp_path / side / "v2048lib.py")
        shutil.copy(BOTS / "botio.py", tmp_path / side / "botio.py")
    folders = ["--cwd", f"0:{tmp_path}", "--cwd", f"1:{tmp_path}", "--shared-folder"]
    data = play_json("versus2048", "python3 a/bot.py", "python3 b/bot.py", *folders)
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


def test_a_bot_that_computes_past_the_start_up_wait_pays_for_it(play_json):
    """5 s of CPU before reading: the referee waits 2 s at most, then the pre-game reply's clock runs."""
    data = play_json(
        "versus2048", bot_command("v2048_startup_thief.py"), "greedy", *SHORT, "--set", "pregame_time_ms=150"
    )
    assert data["result"]["termination"] == "TIMEOUT" and data["result"]["offenders"] == [0]
    assert "pre-game reply" in data["result"]["detail"]


def _bwrap_children() -> set[int]:
    """Our children (zombies included) that are bubblewrap processes."""
    found = set()
    for pid in children_of(process_table()).get(os.getpid(), []):
        try:
            if Path(f"/proc/{pid}/comm").read_text().strip() == "bwrap":
                found.add(pid)
        except OSError:
            continue
    return found


def test_no_jail_process_outlives_league_play():
    """The referee adopts its bots' orphans; whatever a finished `league play` left would come to us."""
    become_subreaper()
    before = _bwrap_children()
    command = [sys.executable, "-m", "league", "play", "versus2048", bot_command("v2048_judge_style.py")]
    command += [bot_command("v2048_early_exit.py"), *SHORT, "--sandbox", "strict", "--shared-folder"]
    completed = subprocess.run(command, cwd=ROOT, capture_output=True, text=True)
    assert completed.returncode == 0, completed.stderr
    assert _bwrap_children() - before == set(), "bwrap processes outlived league play"


def test_a_fault_in_a_game_that_did_not_decide_the_match_shows_that_seats_stderr(league_cli, tmp_path):
    """pk2048: the bot crashes whenever it moves second, and still wins a game as first player."""
    bot = script_bot(
        tmp_path,
        "second.py",
        "import sys\n"
        "line = sys.stdin.readline()\n"
        "if line.split()[0] == '1':\n"
        "    raise SystemExit('I only ever play first')\n"
        "print('0 0 9', flush=True)\n"
        "raise SystemExit('and then I give up')\n",
    )
    status, out, _ = league_cli("play", "pk2048", bot, "random", "--cwd", f"0:{tmp_path}")
    assert status == 0
    assert "stderr of seat 0 (second, game 1):" in out and "stderr of seat 0 (second, game 2):" in out


def test_names_come_from_the_script_class_or_built_in_a_command_runs(play_json, tmp_path):
    tmp_path.chmod(0o755)
    shutil.copy(BOTS / "v2048_judge_style.py", tmp_path / "bot.py")
    for helper in ("v2048lib.py", "botio.py"):
        shutil.copy(BOTS / helper, tmp_path / helper)
    league = Path(sys.executable).with_name("league")
    data = play_json(
        "versus2048", "python3 -u bot.py 3", f"{league} bot versus2048.greedy", "--cwd", f"0:{tmp_path}", *SHORT
    )
    assert [seat["name"] for seat in data["seats"]] == ["bot", "versus2048.greedy"]


def test_sigterm_ends_league_play_as_ctrl_c_does():
    command = [sys.executable, "-m", "league", "play", "versus2048", bot_command("v2048_unflushed.py"), "greedy"]
    player = subprocess.Popen(command + ["--set", "pregame_time_ms=60000"], cwd=ROOT, stderr=subprocess.PIPE)
    deadline = time.monotonic() + 60
    while not (bot := processes_below(player.pid, str(BOTS / "v2048_unflushed.py"))):
        assert time.monotonic() < deadline
        time.sleep(0.05)
    player.terminate()
    _, err = player.communicate(timeout=60)
    assert player.returncode == 130 and b"league: interrupted" in err and b"Traceback" not in err
    assert not any(alive(pid) for pid in bot), "the bot was stopped before league play ended"


def test_a_java_class_in_a_package_is_named_by_its_class():
    from league.match.bot_spec import command_name

    assert command_name(["java", "-cp", "classes", "net.wasamon.geister.player.RandomPlayer", "{host}"]) == (
        "RandomPlayer"
    )
    assert command_name(["java", "-cp", "out", "GreedyAI"]) == "GreedyAI"
    assert command_name(["java", "-jar", "bot.jar"]) == "bot"
    assert command_name(["python3", "bots/mine.py", "--depth", "3"]) == "mine"
