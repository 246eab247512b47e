"""A ``#!`` line that names its interpreter by a relative path is looked up where the bot runs, as the kernel does.

A script starting ``#!x`` runs ``x`` found from the folder the process runs in: in the jail, the
bot's own working folder. It was once looked up from the league's own current folder instead,
and that folder bound into the jail whole as "the interpreter's installation": run from a contest
folder, the jail showed the league file, the report folder and every other bot. Here the league
runs from such a folder while the bot runs in a folder of its own.
"""

import json
from pathlib import Path

import pytest

from sandbox.folders import exec_chain, exposed_paths, program_installations, relative_interpreters
from sandbox.jail import Sandbox, isolation_problem
from sandbox.limits import SandboxMode
from tests.conftest import run_jailed

needs_bwrap = pytest.mark.skipif(isolation_problem() is not None, reason=f"no jail here: {isolation_problem()}")
WRAPPER = '#!/bin/sh\nexec python3 "$@"\n'
"""The relative interpreter ``x``: runs the script it is given with the system's Python."""
LOOKER = """#!x
import json, os
print(json.dumps({"here": sorted(os.listdir(".")), "above": sorted(os.listdir(".."))}))
"""
"""Says what it sees of the folder it runs in and of the one above it."""


def contest(root: Path) -> Path:
    """A contest folder (league file, report, another bot's book) holding ``bots/trick``: a ``#!x`` looker and ``x``."""
    trick = root / "bots" / "trick"
    for folder in (root, root / "bots", trick, root / "bots" / "rival", root / "reports"):
        folder.mkdir(parents=True, exist_ok=True)
        folder.chmod(0o755)
    for path, text, mode in (
        (root / "league.yaml", "seed: 1\n", 0o644),
        (root / "reports" / "games.jsonl", "{}\n", 0o644),
        (root / "bots" / "rival" / "book.txt", "secret\n", 0o644),
        (root / "x", WRAPPER, 0o755),  # an x where the league runs: never the one the bot gets
        (trick / "x", WRAPPER, 0o755),
        (trick / "look", LOOKER, 0o755),
    ):
        path.write_text(text)
        path.chmod(mode)
    return trick


def test_a_relative_interpreter_is_looked_up_from_the_bots_folder_not_the_leagues(tmp_path, monkeypatch):
    trick = contest(tmp_path / "contest")
    monkeypatch.chdir(tmp_path / "contest")
    chain = [(trick / "look", None), (trick / "x", "x"), (Path("/bin/sh"), "/bin/sh")]
    assert exec_chain(["./look"], trick) == chain
    assert relative_interpreters(["./look"], trick) == [(trick / "look", "x", trick / "x")]
    assert program_installations(["./look"], trick) == {trick}, "the program's own folder, nothing of the league's"
    assert exposed_paths(["./look"], trick) == [trick]


def test_a_relative_interpreter_brings_nothing_but_what_a_link_of_that_name_points_to(tmp_path, monkeypatch):
    trick = contest(tmp_path / "contest")
    elsewhere = tmp_path / "pyenv" / "bin" / "python3"
    elsewhere.parent.mkdir(parents=True)
    elsewhere.write_text(WRAPPER)
    monkeypatch.chdir(tmp_path / "contest")
    here = tmp_path / "contest"  # the script named from where the league runs: x is found there
    assert program_installations(["bots/trick/look"], here) == {trick}, "the script's folder, not the x beside it"
    (trick / "x").unlink()
    (trick / "x").symlink_to(elsewhere)
    assert program_installations(["./look"], trick) == {trick, tmp_path / "pyenv"}


@needs_bwrap
def test_a_jailed_bot_whose_interpreter_is_relative_sees_nothing_of_the_folder_the_league_runs_from(
    tmp_path, monkeypatch
):
    trick = contest(tmp_path / "contest")
    monkeypatch.chdir(tmp_path / "contest")  # the league runs from the contest folder
    completed = run_jailed(Sandbox(SandboxMode.AUTO), ["./look"], trick, own_folder=True)
    assert completed.returncode == 0, completed.stderr
    seen = json.loads(completed.stdout)
    assert seen["here"] == ["look", "x"], "the bot's own folder, whole"
    assert seen["above"] == ["trick"], f"of the folders above it only the way down: {seen['above']}"
