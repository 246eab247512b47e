"""What the jail shows a bot of the host for the files its command names: the folder each lies in, read-only.

A script named by a path outside its working folder imports its helper modules from beside it, so
the jail binds that folder (and the access check walks the same one); never a folder as broad as
``/tmp`` (the bot's scratch) or a home folder, and nothing beside the folders it needs.
"""

import os
import shutil
import sys
from pathlib import Path

import pytest

from sandbox.access import bound_folder, named_paths
from sandbox.jail import exposed_paths, jail_problem
from tests.conftest import BOTS

STRICT = ["--sandbox", "strict", "--set", "turns_per_player=6", "--set", "pregame_time_ms=5000"]
PEEKER = """\
import os
import sys

here = os.path.dirname(__file__)
target = open(os.path.join(here, "target.txt")).read()
if os.path.exists(target):
    sys.exit(f"I can see {target}")
exec(open(os.path.join(here, "v2048_slow.py")).read())
"""
"""A versus2048 bot that quits if it can see the path written in ``target.txt`` beside it, else plays as v2048_slow.

The path is not in its command: a path the command names is shown to the bot on purpose.
"""

needs_jail = pytest.mark.skipif(jail_problem() is not None, reason=f"the full jail cannot run here: {jail_problem()}")


def script_folder(where: Path) -> Path:
    """A folder holding a versus2048 script and the helper modules it imports, readable by the jailed bot."""
    where.mkdir(parents=True)
    for name in ("v2048_slow.py", "v2048lib.py", "botio.py"):
        shutil.copy(BOTS / name, where / name)
    (where / "peeker.py").write_text(PEEKER)
    for path in (where, *where.iterdir()):
        path.chmod(0o755 if path.is_dir() else 0o644)
    return where


@needs_jail
def test_a_script_named_from_outside_its_working_folder_imports_its_helpers_in_the_jail(
    play_json, tmp_path, monkeypatch
):
    other = script_folder(tmp_path / "other")
    here = tmp_path / "bots" / "slow"
    here.mkdir(parents=True)
    for path in (tmp_path, tmp_path / "bots", here):
        path.chmod(0o755)
    monkeypatch.chdir(here)
    data = play_json("versus2048", f"python3 {other}/v2048_slow.py 1", "greedy", *STRICT)
    result = data["result"]
    assert result["termination"] == "NORMAL" and result["offenders"] == [], result["detail"]
    assert data["stderr"] == [] and data["time_used_ms"][0] > 0, "the program played, and said nothing on stderr"


@needs_jail
def test_the_folder_of_the_script_is_all_a_bot_sees_of_the_folders_around_it(play_json, tmp_path, monkeypatch):
    other = script_folder(tmp_path / "bots" / "other")
    secret = tmp_path / "bots" / "secret.txt"  # beside the script's folder, readable by all
    secret.write_text("the field's bots")
    secret.chmod(0o644)
    beside = tmp_path / "bots" / "theirs" / "bot.py"
    beside.parent.mkdir()
    beside.write_text("")
    here = tmp_path / "here"
    here.mkdir()
    for path in (tmp_path, tmp_path / "bots", beside.parent, here):
        path.chmod(0o755)
    monkeypatch.chdir(here)
    for target in (secret, beside, other / "v2048lib.py"):
        (other / "target.txt").write_text(str(target))
        (other / "target.txt").chmod(0o644)
        data = play_json("versus2048", f"python3 {other}/peeker.py 1", "greedy", *STRICT)
        sees = data["result"]["offenders"] == [0]
        assert sees == (target.parent == other), (target, data["result"]["detail"])


@needs_jail
def test_a_helper_the_jailed_bot_could_not_read_is_refused_in_the_folder_the_jail_shows(league_cli, tmp_path):
    other = script_folder(tmp_path / "other")
    (other / "botio.py").chmod(0o600)
    status, _, err = league_cli("play", "versus2048", f"python3 {other}/v2048_slow.py 1", "greedy", *STRICT)
    assert status == 2 and f"{other / 'botio.py'} (file, mode 600)" in err, err


def test_a_named_file_brings_its_folder_and_a_broad_folder_only_the_file(tmp_path):
    other = script_folder(tmp_path / "other")
    here = tmp_path / "here"
    here.mkdir()
    argv = ["/usr/bin/python3", f"{other}/v2048_slow.py", "-v", "/usr/bin/env", "/dev/null", "/", "nonexistent", "1"]
    named = [word for word, _ in named_paths(argv, here)]
    assert named == ["/usr/bin/python3", f"{other}/v2048_slow.py", "/usr/bin/env", "/dev/null", "/"]
    assert exposed_paths(argv, here) == [other], "the working folder is shown only as the bot's own (extra)"
    assert exposed_paths(argv, here, [str(here)]) == sorted([here, other])
    assert bound_folder(other / "botio.py") == other and bound_folder(other) == other
    assert bound_folder(Path("/dev/null")) is None and bound_folder(Path("/")) is None
    assert bound_folder(Path("/tmp")) is None and bound_folder(Path.home()) is None
    straight_in_tmp = Path("/tmp") / f"league-test-{os.getpid()}.py"
    straight_in_tmp.write_text("")
    try:
        assert bound_folder(straight_in_tmp) == straight_in_tmp, "/tmp is the bot's scratch: never bound whole"
        assert exposed_paths(["/usr/bin/python3", str(straight_in_tmp)], here) == [straight_in_tmp]
    finally:
        straight_in_tmp.unlink()
    classpath = f"{other}:{here}/missing.jar"
    assert named_paths(["java", "-cp", classpath, "Main"], here) == [(str(other), other)]


def test_a_program_under_a_home_folders_bin_brings_its_bin_not_the_home_folder(tmp_path, monkeypatch):
    home = tmp_path / "home"
    (home / "bin").mkdir(parents=True)
    (home / "bin" / "bot").write_text("")
    monkeypatch.setattr(Path, "home", classmethod(lambda cls: home))
    assert exposed_paths([f"{home}/bin/bot"], tmp_path / "run") == [home / "bin"]
    assert exposed_paths([sys.executable], tmp_path) != [], "an interpreter's installation still comes"
