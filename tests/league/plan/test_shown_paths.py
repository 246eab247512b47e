"""Every folder a jail shows is checked: installations, interpreters, ``read_only`` paths, as bot folders are.

A path a bot's jail shows beside its own folders (its program's installation above its ``bin``, an
interpreter a ``#!`` line names, the organiser's ``read_only`` paths) may neither hold nor lie in
the league file, the report folder or another bot's folder, nor hold the folder the league runs
from: ``league validate``, ``league run`` and ``league play`` refuse it in one line, exit status 2,
nothing written. A ``#!`` line that names its interpreter by a relative path is found where the
bot runs: in its own folder it plays (and sees nothing of the league), anywhere else it is refused.
"""

import shutil
import sys
from pathlib import Path

import pytest
import yaml

from sandbox.jail import isolation_problem, jail_problem
from tests.conftest import BOTS, refusal, write_league
from tests.league.match.test_secrets_out_of_sight import (
    SLOW_MACHINE_TIMES,
    assert_nothing_read,
    guesses,
    readable,
    reader_tails,
)

needs_bwrap = pytest.mark.skipif(isolation_problem() is not None, reason=f"no jail here: {isolation_problem()}")
needs_jail = pytest.mark.skipif(jail_problem() is not None, reason=f"the full jail cannot run here: {jail_problem()}")
WRAPPER = '#!/bin/sh\nexec python3 "$@"\n'
"""The relative interpreter ``x``: runs the script it is given with the system's Python."""
TRICK = "v2048_relative_shebang.py"
HELPERS = ("v2048_secret_reader.py", "v2048lib.py", "botio.py")
SHORT = ["--set", "turns_per_player=3", "--set", "pregame_time_ms=30000", "--set", "turn_time_ms=30000"]


def trick_folder(folder: Path) -> Path:
    """A folder holding the ``#!x`` bot, its helpers and ``x``, all readable (and runnable) by the jailed bot."""
    folder.mkdir(parents=True, exist_ok=True)
    for name in (TRICK, *HELPERS):
        shutil.copy(BOTS / name, folder / name)
    (folder / "x").write_text(WRAPPER)
    readable(folder)
    for name in (TRICK, "x"):
        (folder / name).chmod(0o755)
    return folder


def contest(root: Path) -> dict[str, Path]:
    """An organiser's folder: ``bots/reader`` (the ``#!x`` bot), ``bots/rival`` (a program and its book)."""
    reader, rival = trick_folder(root / "bots" / "reader"), root / "bots" / "rival"
    rival.mkdir(parents=True)
    for name in ("v2048_judge_style.py", "v2048lib.py", "botio.py"):
        shutil.copy(BOTS / name, rival / name)
    (rival / "book.txt").write_text("the rival's opening book")
    (root / "x").write_text(WRAPPER)  # an x where the league runs: never the one a bot may get
    readable(root)
    for program in (root / "x", reader / "x", reader / TRICK):
        program.chmod(0o755)
    return {"reader": reader, "rival": rival, "book": rival / "book.txt"}


def league_file(root: Path, reader: dict, **keys) -> Path:
    """The contest's league file: the ``reader`` bot against the rival program, one game."""
    config = {
        "name": "trick",
        "game": "versus2048",
        "variants": {"short": {"turns_per_player": 4, **SLOW_MACHINE_TIMES}},
        "bots": [
            {"name": "reader", **reader},
            {"name": "rival", "command": ["python3", "v2048_judge_style.py"], "cwd": "bots/rival"},
        ],
        "games_per_pair": 2,
        "concurrency": 2,
        "output": "reports/trick",
        **keys,
    }
    path = root / "league.yaml"
    path.write_text(yaml.safe_dump(config))
    path.chmod(0o644)
    return path


@needs_bwrap
def test_a_bot_whose_interpreter_is_relative_and_in_its_own_folder_plays_and_reads_nothing_of_the_league(
    ray_local, league_cli, tmp_path, monkeypatch
):
    root = tmp_path / "contest"
    files = contest(root)
    output = root / "reports" / "trick"
    told = guesses(root / "league.yaml", output, output / "league.json", output / "games.jsonl", files["book"])
    monkeypatch.chdir(root)  # the organiser runs the league from the contest folder
    for games_per_pair in (2, 4):  # the second run plays new games with the first one's store beside it
        reader = {"command": [f"./{TRICK}", *told], "cwd": "bots/reader"}
        league_file(root, reader, games_per_pair=games_per_pair)
        status, _, err = league_cli("run", "league.yaml", "--quiet")
        assert status == 0, err
        readable(output)  # the store too: only the jail stands between it and the bot
    tails = reader_tails(output)
    assert len(tails) == 4, "the bot ran through x in all four games, and said what it read"
    assert_nothing_read(tails, root)


@pytest.mark.parametrize("mode", ["auto", pytest.param("strict", marks=needs_jail)])
def test_a_relative_interpreter_outside_the_bots_own_folder_is_refused_in_one_line(
    league_cli, tmp_path, monkeypatch, mode
):
    root = tmp_path / "contest"
    contest(root)
    path = league_file(root, {"command": [f"bots/reader/{TRICK}"]}, sandbox=mode)  # runs in the contest folder
    monkeypatch.chdir(root)
    for command in ("validate", "run"):
        line = refusal(league_cli, command, "league.yaml", *(["--no-estimate"] if command == "validate" else []))
        assert "bots[0] (reader): the #! line of" in line and "names a relative interpreter 'x'" in line, line
        assert f"{root / 'x'} is not in the bot's own folders ({root / 'bots' / 'reader'})" in line, line
        assert "give the interpreter's absolute path (#!/usr/bin/env python3)" in line, line
        assert "cwd: in the league file" in line, line
        assert not (root / "reports").exists(), f"league {command} wrote something"
    line = refusal(league_cli, "play", "versus2048", f"bots/reader/{TRICK}", "greedy", "--sandbox", mode, *SHORT)
    assert "seat 0 (" in line and "names a relative interpreter 'x'" in line, line
    assert path.exists()


def program_under_bin(folder: Path, name: str = "bot") -> Path:
    """A versus2048 program ``folder/bin/NAME`` (with its helpers beside it): its installation is ``folder``."""
    bin_folder = folder / "bin"
    bin_folder.mkdir(parents=True, exist_ok=True)
    for helper in ("v2048lib.py", "botio.py"):
        shutil.copy(BOTS / helper, bin_folder / helper)
    program = bin_folder / name
    program.write_text("#!/usr/bin/env python3\n" + (BOTS / "v2048_judge_style.py").read_text())
    readable(folder)
    program.chmod(0o755)
    return program


def test_an_installation_that_holds_the_league_file_or_another_bots_folder_is_refused(league_cli, tmp_path):
    program_under_bin(tmp_path)
    greedy = {"name": "greedy", "builtin": "versus2048.greedy"}
    path = write_league(tmp_path, bots=[{"name": "mine", "command": ["bin/bot"]}, greedy])
    line = refusal(league_cli, "validate", str(path), "--no-estimate")
    assert f"bots[0] (mine): its jail would show {tmp_path} (where its program" in line, line
    assert f"which holds the league file {path}" in line and "move the league file out of it" in line, line
    assert "install the program where nothing of the league lies" in line, line

    bots = tmp_path / "entries"
    program_under_bin(bots, "runner")
    rival = bots / "rival"
    rival.mkdir()
    shutil.copy(BOTS / "v2048_judge_style.py", rival)
    entries = [
        {"name": "mine", "command": ["entries/bin/runner"]},
        {"name": "rival", "command": [sys.executable, "v2048_judge_style.py"], "cwd": "entries/rival"},
    ]
    line = refusal(league_cli, "validate", str(write_league(tmp_path, bots=entries)), "--no-estimate")
    assert f"its jail would show {bots} (where its program" in line, line
    assert f"which holds bots[1] (rival)'s folder {rival}" in line and "shared_folder: true" in line, line


def test_an_interpreters_installation_that_holds_the_report_folder_is_refused(league_cli, tmp_path):
    interpreter = tmp_path / "env" / "bin" / "python3"
    interpreter.parent.mkdir(parents=True)
    interpreter.symlink_to(sys.executable)
    mine = tmp_path / "mine"
    mine.mkdir()
    (mine / "bot").write_text(f"#!{interpreter}\n")
    (mine / "bot").chmod(0o755)
    bots = [{"name": "mine", "command": ["./bot"], "cwd": "mine"}, {"name": "greedy", "builtin": "versus2048.greedy"}]
    path = write_league(tmp_path, bots=bots, output="env/reports")
    line = refusal(league_cli, "run", str(path))
    assert f"its jail would show {tmp_path / 'env'} (where its program, or an interpreter a #! line names" in line
    assert f"which holds the report folder {tmp_path / 'env' / 'reports'}" in line, line
    assert "set output: to a folder outside it" in line, line
    assert not (tmp_path / "env" / "reports").exists()


@pytest.mark.parametrize(
    ("sandbox", "words"),
    [
        ({"mode": "auto", "read_only": ["."]}, "sandbox.read_only: {root} holds the league file"),
        ({"mode": "auto", "read_only": ["out"]}, "sandbox.read_only: {root}/out holds the report folder"),
        ({"mode": "auto", "read_only": ["out/games.jsonl"]}, "lies in the report folder"),
        ({"mode": "auto", "read_only": ["rival/book.txt"]}, "lies in bots[1] (rival)'s folder"),
    ],
    ids=["league-file", "report-folder", "in-the-report-folder", "another-bots-file"],
)
def test_a_read_only_path_that_shows_what_no_bot_may_see_is_refused(league_cli, tmp_path, sandbox, words):
    (tmp_path / "out").mkdir()
    (tmp_path / "out" / "games.jsonl").write_text("")
    for name in ("mine", "rival"):
        (tmp_path / name).mkdir()
        shutil.copy(BOTS / "v2048_judge_style.py", tmp_path / name)
    (tmp_path / "rival" / "book.txt").write_text("e4")
    bots = [
        {"name": name, "command": [sys.executable, "v2048_judge_style.py"], "cwd": name} for name in ("mine", "rival")
    ]
    path = write_league(tmp_path, bots=bots, sandbox=sandbox)
    line = refusal(league_cli, "validate", str(path), "--no-estimate")
    assert words.format(root=tmp_path) in line and "every jailed bot is shown it read-only" in line, line


@needs_jail
def test_an_installation_that_holds_the_folder_league_play_runs_from_is_refused_unless_it_is_the_bots_own(
    league_cli, play_json, tmp_path, monkeypatch
):
    program_under_bin(tmp_path)
    monkeypatch.chdir(tmp_path)
    line = refusal(league_cli, "play", "versus2048", "./bin/bot", "greedy", *SHORT)
    assert f"seat 0 (bot): its jail would show {tmp_path} (where its program" in line, line
    assert f"which holds the folder the league runs from {tmp_path}" in line, line
    assert "--cwd SEAT:FOLDER" in line and "run league from a folder outside it" in line, line
    data = play_json("versus2048", "./bin/bot", "greedy", "--cwd", f"0:{tmp_path}", *SHORT)
    assert data["result"]["termination"] == "NORMAL", data["result"]["detail"]
    line = refusal(
        league_cli, "play", "versus2048", "greedy", "random", "--programs", "--limit", f"read_only=[{tmp_path}]"
    )
    assert f"limits.read_only: {tmp_path} holds the folder the league runs from" in line, line
