"""The folder a bot runs in is shown whole only when it is the bot's own; otherwise it is empty but for its files.

A bot without a folder of its own runs in the league file's folder (or the current one): its jail
keeps that path, so relative paths of its command work, but shows there only the folders of the
files its command names, never the league file, the reports or other bots beside them.
"""

import json
import sys
from pathlib import Path

import pytest

from sandbox.folders import mount_arguments, own_folders
from sandbox.jail import Sandbox, isolation_problem
from sandbox.limits import SandboxMode
from tests.conftest import run_jailed

needs_bwrap = pytest.mark.skipif(isolation_problem() is not None, reason=f"no jail here: {isolation_problem()}")
LOOKER = "import json, os\nprint(json.dumps({'here': sorted(os.listdir('.')), 'bots': sorted(os.listdir('bots'))}))\n"
"""Prints what it sees of the folder it runs in and of ``bots/`` there."""


def league_folder(root: Path) -> Path:
    """A league file's folder: the league file, a report, the looker (``bots/mine``), another bot (``bots/theirs``)."""
    for folder in (root, root / "bots", root / "bots" / "mine", root / "bots" / "theirs", root / "reports"):
        folder.mkdir(parents=True, exist_ok=True)
        folder.chmod(0o755)
    for path, text in (
        (root / "league.yaml", "seed: 1\n"),
        (root / "reports" / "games.jsonl", "{}\n"),
        (root / "bots" / "mine" / "look.py", LOOKER),
        (root / "bots" / "theirs" / "book.txt", "secret\n"),
    ):
        path.write_text(text)
        path.chmod(0o644)
    return root


def seen(root: Path, argv: list[str], own_folder: bool) -> dict:
    """What the jailed command printed, run in ``root``."""
    completed = run_jailed(Sandbox(SandboxMode.AUTO), argv, root, own_folder=own_folder)
    assert completed.returncode == 0, completed.stderr
    return json.loads(completed.stdout)


@needs_bwrap
def test_a_bot_without_a_folder_of_its_own_sees_only_its_files_where_it_runs(tmp_path):
    root = league_folder(tmp_path / "league")
    assert seen(root, ["python3", "bots/mine/look.py"], own_folder=False) == {"here": ["bots"], "bots": ["mine"]}


@needs_bwrap
def test_a_folder_given_as_the_bots_own_is_shown_whole(tmp_path):
    root = league_folder(tmp_path / "league")
    everything = {"here": ["bots", "league.yaml", "reports"], "bots": ["mine", "theirs"]}
    assert seen(root, ["python3", "bots/mine/look.py"], own_folder=True) == everything


def test_the_working_folder_is_made_empty_unless_a_shown_path_holds_it(tmp_path):
    here, mine = tmp_path / "league", tmp_path / "league" / "bots" / "mine"
    made = mount_arguments([mine], here)
    assert made[-3:] == ["--ro-bind", str(mine), str(mine)]
    assert made.index(str(here)) < made.index(str(here / "bots")) < made.index("--ro-bind"), "parents first"
    assert made.count(str(here)) == 1
    covered = mount_arguments([here], here)
    assert covered[-3:] == ["--ro-bind", str(here), str(here)] and covered.count(str(here)) == 2, "bound, not made"


def test_a_bots_own_folders_leave_out_its_interpreters_installation(tmp_path):
    (tmp_path / "bots").mkdir()
    (tmp_path / "bots" / "a.py").write_text("")
    assert own_folders([sys.executable, "bots/a.py"], tmp_path, own_folder=False) == [tmp_path / "bots"]
    assert own_folders(["python3", "-c", "print(1)"], tmp_path, own_folder=False) == []
    assert own_folders(["python3", "-c", "print(1)"], tmp_path, own_folder=True) == [tmp_path]
    pypy = tmp_path / "pypy" / "bin" / "pypy3"
    pypy.parent.mkdir(parents=True)
    pypy.write_text("")
    assert own_folders([str(pypy), "bots/a.py"], tmp_path, own_folder=False) == [tmp_path / "bots"]
