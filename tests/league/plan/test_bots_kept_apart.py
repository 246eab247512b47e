"""Bots kept apart: a bot whose folder holds another bot's, the league file or the report folder is refused.

A jailed bot reads all of its own folder, so such a league is refused before anything is written
(one line, exit status 2) by ``league validate``, ``league run`` and ``league play``, unless the
organiser accepts it knowingly (``shared_folder: true``, ``--shared-folder``). The same bot seated
twice and the roles of one attack2048 bot are no overlap.
"""

import shutil
import sys
from pathlib import Path

import pytest

from league.replay.command import replay_command
from league.stats.game_record import GameRecord
from sandbox.jail import isolation_problem
from tests.conftest import BOTS, write_league

needs_bwrap = pytest.mark.skipif(isolation_problem() is not None, reason=f"no jail here: {isolation_problem()}")
SHORT = ["--set", "turns_per_player=3", "--set", "pregame_time_ms=30000", "--set", "turn_time_ms=30000"]


def bot_files(folder: Path, script: str = "v2048_judge_style.py") -> Path:
    """A folder holding a versus2048 script and its helper modules, readable by the jailed bot."""
    folder.mkdir(parents=True, exist_ok=True)
    for name in (script, "v2048lib.py", "botio.py"):
        shutil.copy(BOTS / name, folder / name)
    for path in (folder, *folder.iterdir()):
        path.chmod(0o755 if path.is_dir() else 0o644)
    return folder


def program(name: str, script: str, cwd: str | None = None, **keys) -> dict:
    """A league file's program bot running ``script`` with this Python."""
    return {"name": name, "command": [sys.executable, script], **({"cwd": cwd} if cwd else {}), **keys}


def one_line_refusal(status: int, err: str, *words: str) -> None:
    assert status == 2, err
    assert err.count("\n") == 1 and "Traceback" not in err, err
    for word in words:
        assert word in err, err


def test_two_bots_in_one_folder_are_refused_by_validate_and_run_with_nothing_written(league_cli, tmp_path):
    bots = [program("judge", str(BOTS / "v2048_judge_style.py")), program("slow", str(BOTS / "v2048_slow.py"))]
    path = write_league(tmp_path, bots=bots)
    for command in ("validate", "run"):
        status, _, err = league_cli(command, str(path), *(["--no-estimate"] if command == "validate" else []))
        one_line_refusal(
            status, err, "bots[0] (judge) and bots[1] (slow) share the folder", str(BOTS), "cwd:", "shared_folder: true"
        )
        assert not (tmp_path / "out").exists(), f"league {command} wrote something"


def test_a_bot_whose_folder_holds_another_bots_folder_is_refused(league_cli, tmp_path):
    bot_files(tmp_path / "bots" / "inner")
    bots = [
        program("outer", "inner/v2048_judge_style.py", cwd="bots"),
        program("inner", "v2048_judge_style.py", cwd="bots/inner"),
    ]
    status, _, err = league_cli("validate", str(write_league(tmp_path, bots=bots)), "--no-estimate")
    inner = tmp_path / "bots" / "inner"
    one_line_refusal(
        status, err, f"bots[0] (outer): its folder {tmp_path / 'bots'} holds bots[1] (inner)'s folder {inner}"
    )
    assert "shared_folder: true on bots[0] (outer)" in err


def test_a_bot_beside_the_league_file_is_refused_and_told_to_take_a_folder_of_its_own(league_cli, tmp_path):
    bot_files(tmp_path)
    bots = [program("mine", "v2048_judge_style.py"), {"name": "greedy", "builtin": "versus2048.greedy"}]
    status, _, err = league_cli("validate", str(write_league(tmp_path, bots=bots)), "--no-estimate")
    one_line_refusal(status, err, "bots[0] (mine)", f"holds the league file {tmp_path / 'league.yaml'}", "cwd:")
    assert "move the league file out of it" in err


def test_a_report_folder_inside_a_bots_folder_is_refused(league_cli, tmp_path):
    bot_files(tmp_path / "mine")
    bots = [program("mine", "v2048_judge_style.py", cwd="mine"), {"name": "greedy", "builtin": "versus2048.greedy"}]
    path = write_league(tmp_path, bots=bots, output="mine/reports")
    status, _, err = league_cli("run", str(path))
    one_line_refusal(status, err, f"holds the report folder {tmp_path / 'mine' / 'reports'}", "set output:")
    assert not (tmp_path / "mine" / "reports").exists()


def test_a_folder_as_broad_as_the_root_is_no_bots_own(league_cli, tmp_path):
    bots = [
        {"name": "everything", "command": ["/bin/true"], "cwd": "/"},
        {"name": "greedy", "builtin": "versus2048.greedy"},
    ]
    status, _, err = league_cli("validate", str(write_league(tmp_path, bots=bots)), "--no-estimate")
    one_line_refusal(status, err, "bots[0] (everything): cwd: / is too broad", "give the bot a folder of its own")


@needs_bwrap
def test_shared_folder_accepts_it_knowingly(league_cli, tmp_path):
    shared = {"shared_folder": True}
    bots = [
        program("judge", str(BOTS / "v2048_judge_style.py"), **shared),
        program("slow", str(BOTS / "v2048_slow.py"), **shared),
    ]
    status, out, err = league_cli("validate", str(write_league(tmp_path, bots=bots)), "--no-estimate")
    assert status == 0 and out.endswith("ok\n"), err
    bots[1] = program("slow", str(BOTS / "v2048_slow.py"))
    status, _, err = league_cli("validate", str(write_league(tmp_path, bots=bots)), "--no-estimate")
    one_line_refusal(status, err, "bots[1] (slow): its folder", "bots[0] (judge)'s folder", "on bots[1] (slow)")


def test_shared_folder_is_for_programs(league_cli, tmp_path):
    bots = [{"name": "greedy", "builtin": "versus2048.greedy", "shared_folder": True}, {"name": "x", "command": "true"}]
    status, _, err = league_cli("validate", str(write_league(tmp_path, bots=bots)), "--no-estimate")
    one_line_refusal(status, err, "shared_folder is for programs")


@needs_bwrap
def test_the_roles_of_one_attack2048_bot_share_its_folder(league_cli, tmp_path):
    roles = {
        "attack": [sys.executable, str(BOTS / "attack2048_bridge_offender.py")],
        "defend": [sys.executable, str(BOTS / "attack2048_bridge_defender.py")],
    }
    bots = [{"name": "bridge", "roles": roles}, {"name": "greedy", "builtin": "attack2048.greedy"}]
    path = write_league(tmp_path, game="attack2048", variants={"default": {}}, bots=bots)
    status, out, err = league_cli("validate", str(path), "--no-estimate")
    assert status == 0 and out.endswith("ok\n"), err


def test_two_program_seats_in_one_folder_are_refused_by_league_play(league_cli):
    judge, slow = f"python3 {BOTS / 'v2048_judge_style.py'}", f"python3 {BOTS / 'v2048_slow.py'} 1"
    status, _, err = league_cli("play", "versus2048", judge, slow, *SHORT)
    one_line_refusal(status, err, "seat 0 (v2048_judge_style) and seat 1 (v2048_slow) share the folder", str(BOTS))
    assert "--shared-folder" in err and "--cwd SEAT:FOLDER" in err


@needs_bwrap
def test_league_play_accepts_the_same_bot_twice_and_a_shared_folder_knowingly(play_json):
    judge, slow = f"python3 {BOTS / 'v2048_judge_style.py'}", f"python3 {BOTS / 'v2048_slow.py'} 1"
    data = play_json("versus2048", judge, judge, *SHORT)
    assert data["result"]["termination"] == "NORMAL", data["result"]["detail"]
    data = play_json("versus2048", slow, f"python3 {BOTS / 'v2048_slow.py'} 2", *SHORT)  # one bot, two modes
    assert data["result"]["termination"] == "NORMAL", data["result"]["detail"]
    data = play_json("versus2048", judge, slow, *SHORT, "--shared-folder")
    assert data["result"]["termination"] == "NORMAL", data["result"]["detail"]


def test_a_seat_whose_cwd_holds_another_seats_folder_is_refused(league_cli, tmp_path):
    inner = bot_files(tmp_path / "inner")
    args = ["python3 inner/v2048_judge_style.py", f"python3 {inner / 'v2048_judge_style.py'} x"]
    status, _, err = league_cli("play", "versus2048", *args, "--cwd", f"0:{tmp_path}", *SHORT)
    one_line_refusal(status, err, "seat 0 (", f"its folder {tmp_path} holds seat 1 (", f"'s folder {inner}")


def test_a_replay_command_runs_each_bot_as_the_league_did():
    """Bots without a folder of their own ran in the league file's folder: the command goes there first."""
    mine = {"name": "mine", "command": ["python3", "bots/mine.py"], "cwd": "/contest"}
    theirs = {"name": "theirs", "command": ["./run"], "cwd": "/contest/entries/theirs", "own_folder": True}
    manifest = {"game": "versus2048", "settings": {"v": {}}, "bot_specs": {"mine": mine, "theirs": theirs}}
    record = GameRecord.from_json({"game_id": "g", "spec": {"variant": "v", "seats": ["mine", "theirs"], "seed": 3}})
    expected = (
        "cd /contest && league play versus2048 'python3 bots/mine.py' ./run --seed 3 --cwd 1:/contest/entries/theirs"
    )
    assert replay_command(manifest, record) == expected
    manifest["bot_specs"]["theirs"] = {**theirs, "shared_folder": True}
    assert replay_command(manifest, record) == f"{expected} --shared-folder"
