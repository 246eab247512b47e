"""The output folder is the league's own, and a folder it cannot write is refused with the real reason."""

import subprocess
from pathlib import Path

import pytest

from league.store.results import ResultStore
from tests.conftest import refusal, write_league


def snapshot(folder: Path) -> dict[str, bytes]:
    return {str(path.relative_to(folder)): path.read_bytes() for path in sorted(folder.rglob("*")) if path.is_file()}


def test_a_folder_of_other_files_is_refused_and_an_empty_one_or_a_leagues_is_the_leagues_own(
    ray_local, league_cli, tmp_path
):
    output = tmp_path / "site"
    output.mkdir()
    (output / "index.html").write_text("<p>the organiser's own page</p>\n")
    (output / "notes.txt").write_text("mine\n")
    path = write_league(tmp_path, output="site", games_per_pair=2)
    before = snapshot(tmp_path)
    for args in (("validate", "--no-estimate"), ("run", "--quiet"), ("run", "--quiet", "--fresh")):
        line = refusal(league_cli, args[0], str(path), *args[1:])
        assert f"output: {output} is not a league's folder" in line, line
        assert "(index.html, notes.txt)" in line and "no league.json or games.jsonl" in line, line
        assert "choose a new or empty folder with output: in the file" in line, line
        assert snapshot(tmp_path) == before, f"{args[0]} wrote nothing"
    for name in ("index.html", "notes.txt"):
        (output / name).unlink()
    for args in (("run", "--quiet"), ("run", "--quiet"), ("run", "--quiet", "--fresh")):  # empty, resumed, fresh
        status, out, err = league_cli(args[0], str(path), *args[1:])
        assert status == 0, err
        assert out == f"report: {output / 'index.html'}\n"
    store = ResultStore(tmp_path / "killed" / "games.jsonl")
    store.lock()  # a run makes its store first: one killed then left it alone
    store.close()
    path = write_league(tmp_path, output="killed")
    status, _, err = league_cli("validate", str(path), "--no-estimate")
    assert status == 0, err


@pytest.mark.skipif(not Path("/proc/self").exists(), reason="no /proc here")
def test_a_folder_under_proc_says_nothing_can_be_made_there(league_cli, tmp_path):
    path = write_league(tmp_path, output="/proc/out")
    for args in (("validate", "--no-estimate"), ("run", "--quiet")):
        line = refusal(league_cli, args[0], str(path), *args[1:])
        assert "output: cannot write the report folder /proc/out: /proc takes no new folders or files" in line, line
        assert "No such file or directory" not in line


def test_a_replay_page_under_proc_or_a_file_says_why_before_the_match(league_cli, tmp_path):
    (tmp_path / "notes.txt").write_text("")
    for place, reason in (
        ("/proc/x.html", "/proc takes no new folders or files"),
        (str(tmp_path / "notes.txt" / "x.html"), f"{tmp_path / 'notes.txt'} is a file, not a folder"),
    ):
        line = refusal(league_cli, "play", "versus2048", "greedy", "greedy", "--replay", place)
        assert f"--replay {place}: cannot write it: {reason}" in line and line.endswith("; give a writable path"), line
    page = tmp_path / "new" / "x.html"  # a folder that can be made is made
    status, _, err = league_cli("play", "versus2048", "greedy", "greedy", "--replay", str(page))
    assert status == 0 and page.is_file(), err


def test_a_folder_below_a_link_to_nothing_names_the_link(league_cli, tmp_path):
    (tmp_path / "results").symlink_to(tmp_path / "gone")
    path = write_league(tmp_path, output="results/tiny")
    for args in (("validate", "--no-estimate"), ("run", "--quiet")):
        line = refusal(league_cli, args[0], str(path), *args[1:])
        assert f"{tmp_path / 'results'} is a link to {tmp_path / 'gone'}, which does not exist" in line, line
    assert not (tmp_path / "gone").exists()


def test_a_folder_on_a_read_only_disk_says_so(league_cli, tmp_path):
    disk = tmp_path / "disk"
    disk.mkdir()
    mounted = subprocess.run(
        ["mount", "-t", "tmpfs", "-o", "ro,size=1m", "league-test-ro", str(disk)], capture_output=True, text=True
    )
    if mounted.returncode != 0:
        pytest.skip(f"cannot mount a read-only tmpfs here: {mounted.stderr.strip() or 'mount failed'}")
    try:
        for output in (disk, disk / "tiny"):
            path = write_league(tmp_path, output=str(output))
            for args in (("validate", "--no-estimate"), ("run", "--quiet")):
                line = refusal(league_cli, args[0], str(path), *args[1:])
                assert f"output: cannot write the report folder {output}: {disk} is on a read-only file system" in line
    finally:
        subprocess.run(["umount", str(disk)], check=True)
