"""A user's mistake is refused before anything plays: one line naming the problem and the fix, exit 2.

Bot files the jailed bot could not read, folders given as programs, unknown or mistyped built-in
parameters, unknown names, unquoted command lines, and programs where no jail can be made.
"""

import os
import sys
from pathlib import Path

import pytest
import yaml

from tests.conftest import BOTS, write_league

SHORT = ["--set", "turns_per_player=5"]
AS_ROOT = pytest.mark.skipif(os.geteuid() != 0, reason="bots get a uid of their own only when the league runs as root")


def one_line_error(status, err, *words):
    assert status == 2, err
    assert err.startswith("league: error: ") and err.count("\n") == 1, err
    for word in words:
        assert word in err, err


def bot_folder(parent: Path, mode: int = 0o755) -> Path:
    """A bot folder with a judge-style versus2048 bot (and its helper modules) in it."""
    folder = parent / "mybot"
    folder.mkdir()
    for name in ("v2048_judge_style.py", "v2048lib.py", "botio.py"):
        (folder / name).write_text((BOTS / name).read_text())
    folder.chmod(mode)
    parent.chmod(0o755)
    return folder


@AS_ROOT
def test_a_bot_folder_of_mode_700_is_refused_naming_the_folder_and_the_fix(league_cli, tmp_path):
    folder = bot_folder(tmp_path, 0o700)
    status, out, err = league_cli(
        "play", "versus2048", "python3 v2048_judge_style.py", "greedy", "--cwd", f"0:{folder}"
    )
    one_line_error(
        status, err, f"{folder} (folder, mode 700) is not readable by other users", f"chmod -R a+rX {folder}"
    )
    assert out == ""


@AS_ROOT
def test_a_helper_file_of_mode_600_is_refused_naming_the_file(league_cli, tmp_path):
    folder = bot_folder(tmp_path)
    (folder / "v2048lib.py").chmod(0o600)
    status, _, err = league_cli("play", "versus2048", "python3 v2048_judge_style.py", "greedy", "--cwd", f"0:{folder}")
    one_line_error(status, err, f"{folder / 'v2048lib.py'} (file, mode 600)", f"chmod a+r {folder / 'v2048lib.py'}")


@AS_ROOT
def test_the_same_bot_plays_once_readable_or_unjailed(play_json, tmp_path):
    folder = bot_folder(tmp_path, 0o700)
    args = ["versus2048", "python3 v2048_judge_style.py", "greedy", "--cwd", f"0:{folder}", *SHORT]
    assert play_json(*args, "--sandbox", "none")["result"]["offenders"] == []
    folder.chmod(0o755)
    assert play_json(*args)["result"]["offenders"] == []


@AS_ROOT
def test_a_word_too_long_for_a_file_name_is_just_an_argument(play_json, tmp_path):
    # The jail looks for files named in the command; a 1100-byte word must not crash that look.
    folder = bot_folder(tmp_path)
    args = ["versus2048", f"python3 v2048_judge_style.py {'1' * 1100}", "greedy", "--cwd", f"0:{folder}", *SHORT]
    assert play_json(*args)["result"]["offenders"] == []


@AS_ROOT
def test_validate_and_run_refuse_an_unreadable_bot_folder_before_writing_anything(league_cli, tmp_path):
    folder = bot_folder(tmp_path, 0o700)
    bots = [
        {"name": "mine", "command": "python3 v2048_judge_style.py", "cwd": "mybot"},
        {"name": "greedy", "builtin": "versus2048.greedy"},
    ]
    path = write_league(tmp_path, bots=bots)
    for command in ("validate", "run"):
        status, _, err = league_cli(command, str(path))
        one_line_error(status, err, "bots[0] (mine):", f"{folder} (folder, mode 700)", "chmod -R a+rX")
    assert not (tmp_path / "out").exists(), "nothing is written"


def test_a_folder_given_as_the_program_is_refused_with_what_is_inside(league_cli, tmp_path):
    folder = bot_folder(tmp_path)
    status, _, err = league_cli("play", "versus2048", str(folder), "greedy")
    one_line_error(status, err, f"{str(folder)!r} is a folder, not a program", "v2048_judge_style.py")


def test_python_on_a_folder_without_main_is_refused_and_with_one_it_plays(league_cli, play_json, tmp_path):
    folder = bot_folder(tmp_path)
    status, _, err = league_cli("play", "versus2048", "python3 mybot", "greedy", "--cwd", f"0:{tmp_path}")
    one_line_error(status, err, "python cannot run the folder 'mybot': it has no __main__.py", "v2048_judge_style.py")
    (folder / "__main__.py").write_text((folder / "v2048_judge_style.py").read_text())
    data = play_json("versus2048", "python3 mybot", "greedy", "--cwd", f"0:{tmp_path}", *SHORT)
    assert data["result"]["offenders"] == []


def test_a_mistyped_builtin_parameter_names_the_valid_ones(league_cli, tmp_path):
    bots = [
        {"name": "deep", "builtin": "versus2048.minimax", "params": {"depht": 3}},
        {"name": "greedy", "builtin": "versus2048.greedy"},
    ]
    for command in ("validate", "run"):
        status, _, err = league_cli(command, str(write_league(tmp_path, bots=bots)))
        one_line_error(
            status,
            err,
            "bots[0] (deep): params: versus2048.minimax has no parameter 'depht' (did you mean 'depth'?)",
            "its parameters: depth, cells, max_nodes, budget_ms, mobility_weight",
        )
    assert not (tmp_path / "out").exists()


def test_a_builtin_parameter_of_the_wrong_type_names_the_type(league_cli, tmp_path):
    bots = [
        {"name": "deep", "builtin": "versus2048.minimax", "params": {"depth": "deep"}},
        {"name": "greedy", "builtin": "versus2048.greedy"},
    ]
    status, _, err = league_cli("validate", str(write_league(tmp_path, bots=bots)))
    one_line_error(status, err, "parameter depth must be an integer, not 'deep'")


def test_params_on_a_program_bot_is_an_error(league_cli, tmp_path):
    bots = [
        {"name": "mine", "command": f"{sys.executable} {BOTS / 'v2048_judge_style.py'}", "params": {"depth": 3}},
        {"name": "greedy", "builtin": "versus2048.greedy"},
    ]
    status, _, err = league_cli("validate", str(write_league(tmp_path, bots=bots)))
    one_line_error(status, err, "params are for built-in bots; a program takes its options in its command")


def test_play_and_bot_check_parameters_too(league_cli):
    status, _, err = league_cli("play", "versus2048", "minimax", "greedy", "--param", "0:depht=3")
    one_line_error(status, err, "has no parameter 'depht' (did you mean 'depth'?)")
    status, _, err = league_cli("play", "versus2048", "minimax", f"{sys.executable} x.py", "--param", "1:depth=3")
    one_line_error(status, err, "seat 1 is a program")
    status, _, err = league_cli("bot", "versus2048.minimax", "--param", "depth=[1]")
    one_line_error(status, err, "parameter depth must be an integer, not [1]")
    status, _, err = league_cli("bot", "attack2048.expectimax", "--role", "attack", "--param", "pessimism=0.9")
    one_line_error(status, err, "attack2048.expectimax has no parameter 'pessimism'")


def test_a_parameter_of_one_role_goes_to_that_role_only(play_json, tmp_path):
    """attack2048's expectimax defender takes `pessimism`, its attacker `root_width`: both in one bot."""
    data = play_json(
        "attack2048",
        "expectimax",
        "greedy",
        "--param",
        "0:pessimism=0.9",
        "--param",
        "0:root_width=2",
        "--param",
        "0:max_nodes=300",
        "--set",
        "max_plies_per_half=30",
    )
    assert data["result"]["offenders"] == []
    bots = [
        {"name": "search", "builtin": "attack2048.expectimax", "params": {"pessimism": 0.9, "root_width": 2}},
        {"name": "greedy", "builtin": "attack2048.greedy"},
    ]
    path = write_league(tmp_path, game="attack2048", variants={"v": {"tiles": [2]}}, bots=bots)
    from league.plan.config import load_league

    assert load_league(path).bots["search"].params == {"pessimism": 0.9, "root_width": 2}


def test_a_builtin_of_another_game_lists_this_games_builtins(league_cli):
    status, _, err = league_cli("play", "pk2048", "minimax", "greedy")
    one_line_error(
        status, err, "'minimax' is not a pk2048 built-in (it is one of versus2048's)", "expectimax, greedy, random"
    )


def test_an_unquoted_command_line_gets_the_hint_to_quote_it(league_cli, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "bot.py").write_text("")
    status, _, err = league_cli("play", "versus2048", "python3", "bot.py", "greedy")
    one_line_error(status, err, "3 given", "quote it, e.g. 'python3 bot.py'")
    status, _, err = league_cli("play", "versus2048", "python3", "bot.py")
    one_line_error(status, err, "a command line with spaces is one BOT: quote it, e.g. 'python3 bot.py'")


def test_a_program_in_the_current_folder_gets_the_hint_to_write_dot_slash(league_cli, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "cbot").write_text("#!/bin/sh\n")
    (tmp_path / "cbot").chmod(0o755)
    status, _, err = league_cli("play", "versus2048", "cbot", "greedy")
    one_line_error(status, err, "program 'cbot' is not on PATH", "write ./cbot")


def test_no_jail_means_no_program_unless_asked_for(league_cli, tmp_path, monkeypatch):
    monkeypatch.setenv("LEAGUE_BWRAP", "")
    bots = [
        {"name": "mine", "command": f"{sys.executable} {BOTS / 'v2048_judge_style.py'}"},
        {"name": "greedy", "builtin": "versus2048.greedy"},
    ]
    path = write_league(tmp_path, bots=bots)
    status, _, err = league_cli("validate", str(path), "--no-estimate")
    one_line_error(status, err, "bots[0] (mine):", "apt-get install bubblewrap", "sandbox: none")
    config = yaml.safe_load(path.read_text())
    path.write_text(yaml.safe_dump({**config, "sandbox": "none"}))
    status, out, err = league_cli("validate", str(path), "--no-estimate")
    assert status == 0 and out.endswith("ok\n"), err


@AS_ROOT
def test_a_private_folder_beside_the_bot_is_none_of_its_business(play_json, tmp_path, monkeypatch):
    """Without --cwd the current folder is where the bot runs, not its own: only its files are walked."""
    folder = bot_folder(tmp_path)
    (tmp_path / "secrets").mkdir(mode=0o700)
    monkeypatch.chdir(tmp_path)
    data = play_json("versus2048", f"python3 {folder.name}/v2048_judge_style.py", "greedy", *SHORT)
    assert data["result"]["offenders"] == []


@AS_ROOT
def test_the_folder_of_the_script_is_walked_and_a_home_folder_is_never_opened_to_all(league_cli, tmp_path):
    folder = bot_folder(tmp_path, 0o700)
    status, _, err = league_cli("play", "versus2048", f"python3 {folder}/v2048_judge_style.py", "greedy")
    one_line_error(status, err, f"{folder} (folder, mode 700)", f"chmod -R a+rX {folder}")
    status, _, err = league_cli("play", "versus2048", "true", "greedy", "--cwd", f"0:{Path.home()}")
    if os.stat(Path.home()).st_mode & 0o005 != 0o005:
        one_line_error(status, err, "give the bot a folder of its own")
        assert "chmod" not in err


def test_a_parameter_value_the_bot_cannot_use_is_refused(league_cli):
    status, _, err = league_cli("play", "versus2048", "minimax", "greedy", "--param", "0:depth=0")
    one_line_error(status, err, "versus2048.minimax: depth must be at least 1, not 0")
    status, _, err = league_cli("play", "versus2048", "minimax", "greedy", "--param", "0:depth=true")
    one_line_error(status, err, "parameter depth must be an integer, not True")
    status, _, err = league_cli("play", "attack2048", "expectimax", "greedy", "--param", "0:pessimism=2.0")
    one_line_error(status, err, "pessimism must be from 0 to 1, not 2.0")


def test_the_variants_rules_are_set_as_variant_keys_not_as_parameters(league_cli, tmp_path):
    status, _, err = league_cli("play", "attack2048", "greedy", "random", "--param", "0:tiles=[2, 4]")
    one_line_error(status, err, "'tiles' is the variant's", "--set tiles=")
    bots = [
        {"name": "search", "builtin": "pk2048.expectimax", "params": {"target_tile": 4}},
        {"name": "greedy", "builtin": "pk2048.greedy"},
    ]
    status, _, err = league_cli("validate", str(write_league(tmp_path, game="pk2048", variants={"v": {}}, bots=bots)))
    one_line_error(status, err, "bots[0] (search): params: pk2048.expectimax: 'target_tile' is the variant's")


def test_parameters_go_to_the_built_in_sides_of_a_bot_with_one_per_role(play_json):
    data = play_json(
        "attack2048", "expectimax::greedy", "greedy", "--param", "0:depth=1", "--set", "max_plies_per_half=20"
    )
    assert data["seats"][0]["bot"] == (
        "attack: built-in attack2048.expectimax (depth=1) :: defend: built-in attack2048.greedy"
    )


def test_cwd_is_for_programs_once_per_seat_and_a_folder(league_cli, tmp_path):
    status, _, err = league_cli("play", "versus2048", "greedy", "random", "--cwd", f"0:{tmp_path}")
    one_line_error(status, err, "seat 0 is a built-in")
    program = f"{sys.executable} {BOTS / 'v2048_judge_style.py'}"
    status, _, err = league_cli("play", "versus2048", program, "greedy", "--cwd", f"0:{tmp_path}", "--cwd", "0:/tmp")
    one_line_error(status, err, "seat 0 already has the folder")
    (tmp_path / "a.out").write_text("")
    status, _, err = league_cli("play", "versus2048", program, "greedy", "--cwd", f"0:{tmp_path / 'a.out'}")
    one_line_error(status, err, "is a file, not a folder")
    status, _, err = league_cli("play", "versus2048", program, "greedy", "--cwd", str(tmp_path))
    one_line_error(status, err, f"expected SEAT:{tmp_path}, e.g. --cwd 0:{tmp_path}")


def test_a_script_named_like_a_program_gets_its_interpreter_as_the_hint(league_cli, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "bot.py").write_text("")
    (tmp_path / "GreedyAI.class").write_text("")
    status, _, err = league_cli("play", "versus2048", "bot.py", "greedy")
    one_line_error(status, err, "give 'python3 bot.py'")
    status, _, err = league_cli("play", "versus2048", "GreedyAI.class", "greedy")
    one_line_error(status, err, "give 'java GreedyAI'")


def test_league_file_mistakes_name_what_is_valid(league_cli, tmp_path):
    path = write_league(tmp_path, colour="red")
    status, _, err = league_cli("validate", str(path))
    one_line_error(status, err, "colour: unknown key; keys here: name, game, variants, bots")
    path = write_league(tmp_path, sandbox=5)
    status, _, err = league_cli("validate", str(path))
    one_line_error(status, err, "sandbox: give auto, strict or none")
    path = write_league(tmp_path)
    status, _, err = league_cli("validate", str(path), "--set", "turns=3")
    one_line_error(status, err, "--set turns: the versus2048 variant has no key 'turns'")
    status, _, err = league_cli("validate", str(write_league(tmp_path, limits={"processes": 2})))
    one_line_error(status, err, "limits.processes")


def test_a_seed_out_of_range_and_a_negative_margin_are_refused(league_cli):
    status, _, err = league_cli("play", "versus2048", "greedy", "random", "--seed", "-1")
    one_line_error(status, err, "--seed -1")
    status, _, err = league_cli("play", "versus2048", "greedy", "random", "--seed", str(2**63))
    one_line_error(status, err, "a seed is 0 to 2**63 - 1")
    status, _, err = league_cli("play", "versus2048", "greedy", "random", "--time-margin-ms", "-5")
    one_line_error(status, err, "--time-margin-ms -5")


def test_league_bot_sent_something_else_than_its_protocol_says_so_in_one_line(tmp_path):
    import subprocess

    completed = subprocess.run(
        [sys.executable, "-m", "league", "bot", "pk2048.greedy"], input="1\n0 0 0\n", capture_output=True, text=True
    )
    assert completed.returncode == 2
    assert completed.stderr.count("\n") == 1 and "cannot read what it was sent" in completed.stderr
