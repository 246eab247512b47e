"""Papercuts of the command line: league files not in UTF-8, ``--version``, ``league run --output/--concurrency``,
odd ``games_per_pair`` and ``league standings FILE.yaml``.

Each mistake is one line naming the problem and the fix, exit status 2, and nothing written.
"""

import importlib.metadata
import subprocess
import sys
from pathlib import Path

import pytest
import yaml

from tests.conftest import BOTS, refusal, write_league

ROOT = Path(__file__).resolve().parents[3]


def snapshot(folder: Path) -> dict[str, bytes]:
    """Every file under ``folder`` and its bytes."""
    return {str(path): path.read_bytes() for path in sorted(folder.rglob("*")) if path.is_file()}


UTF8_TEXT = "name: tiny\ngame: versus2048\n# caf\u00e9 au lait\nbots: []\n"
NOT_UTF8 = {
    "latin-1": (UTF8_TEXT.encode("latin-1"), f"byte 0xe9 at offset {UTF8_TEXT.index(chr(0xE9))}"),
    "utf-16 with its mark": (UTF8_TEXT.encode("utf-16"), "it is UTF-16: it starts with byte order mark 0xfffe"),
    "utf-16-be with its mark": (b"\xfe\xff" + UTF8_TEXT.encode("utf-16-be"), "byte order mark 0xfeff"),
    "utf-16 without a mark": (UTF8_TEXT.encode("utf-16-le"), "byte 0x00 at offset 1: UTF-16, or not text"),
    "binary": (bytes(range(256)), "byte 0x00 at offset 0: UTF-16, or not text"),
}


@pytest.mark.parametrize("encoding", list(NOT_UTF8))
@pytest.mark.parametrize(
    "command", [("validate",), ("run", "--quiet"), ("plan", "--no-estimate"), ("standings",)], ids=lambda c: c[0]
)
def test_a_league_file_not_in_utf8_is_one_line_naming_the_byte_and_the_fix(league_cli, tmp_path, encoding, command):
    data, where = NOT_UTF8[encoding]
    path = tmp_path / "league.yaml"
    path.write_bytes(data)
    before = snapshot(tmp_path)
    line = refusal(league_cli, command[0], str(path), *command[1:])
    assert line.startswith(f"league: error: {path} is not UTF-8 text (") and where in line, line
    assert line.endswith("); save it as UTF-8"), line
    assert snapshot(tmp_path) == before, "nothing written"
    assert not (tmp_path / "reports").exists()


def test_a_league_file_with_a_utf8_byte_order_mark_is_read(league_cli, tmp_path):
    """As some Windows editors save UTF-8: the mark is dropped, the rest read (a comment in French here)."""
    path = write_league(tmp_path)
    path.write_bytes("\ufeff# la ligue du caf\u00e9\n".encode() + path.read_bytes())
    status, out, err = league_cli("validate", str(path), "--no-estimate")
    assert status == 0, err
    assert "league tiny: versus2048, round robin, 6 games" in out


def test_version_is_the_installed_distributions(tmp_path):
    run = subprocess.run([sys.executable, "-m", "league", "--version"], cwd=tmp_path, capture_output=True, text=True)
    assert (run.returncode, run.stderr) == (0, ""), run.stderr
    assert run.stdout == f"league {importlib.metadata.version('league')}\n"
    assert importlib.metadata.version("league") in (ROOT / "pyproject.toml").read_text()


@pytest.mark.parametrize("given", ["0", "-2", "two", "1.5", "", "\u0663"])
def test_a_concurrency_that_is_not_a_whole_number_above_0_is_one_line(league_cli, tmp_path, given):
    path = write_league(tmp_path)
    before = snapshot(tmp_path)
    line = refusal(league_cli, "run", str(path), "--quiet", "--concurrency", given)
    assert line == (
        f"league: error: --concurrency {given!r}: give how many games to play at once, a whole number above 0"
        " (e.g. --concurrency 4)"
    )
    assert snapshot(tmp_path) == before


def test_run_with_output_and_concurrency_writes_there_and_standings_and_reruns_find_it(ray_local, league_cli, tmp_path):
    """The file says ``out``; ``--output`` (from the folder league runs in) puts the whole run elsewhere."""
    judge = {"name": "judge", "command": [sys.executable, "v2048_judge_style.py"], "cwd": str(BOTS)}
    bots = [judge, {"name": "greedy", "builtin": "versus2048.greedy"}]
    path = write_league(tmp_path, bots=bots, variants={"short": {"turns_per_player": 8}})
    elsewhere = tmp_path / "elsewhere"
    status, out, err = league_cli("run", str(path), "--quiet", "--output", str(elsewhere), "--concurrency", "1")
    assert status == 0, err
    assert out == f"report: {elsewhere / 'index.html'}\n"
    assert f"concurrency 1, sandbox auto, output {elsewhere}" in err, err  # the file says 2
    assert not (tmp_path / "out").exists(), "the file's output is left alone"
    assert len((elsewhere / "games.jsonl").read_text().splitlines()) == 2
    status, out, err = league_cli("standings", str(elsewhere))
    assert status == 0, err
    assert "tiny: 2 of 2 games stored" in out and "judge" in out and "greedy" in out
    status, _, err = league_cli("run", str(path), "--quiet", "--output", str(elsewhere))
    assert status == 0, err
    assert "0 played, 2 already stored" in err, err
    line = refusal(league_cli, "standings", str(path))  # the file's own folder: never played
    assert line == f"league: error: {tmp_path / 'out'}: no such folder yet; `league run {path}` writes its games there"


def test_standings_takes_the_league_file_for_its_output_folder(ray_local, league_cli, tmp_path):
    path = write_league(tmp_path, variants={"short": {"turns_per_player": 5}})
    status, _, err = league_cli("run", str(path), "--quiet")
    assert status == 0, err
    by_folder = league_cli("standings", str(tmp_path / "out"))
    by_file = league_cli("standings", str(path))
    assert by_file == by_folder and by_file[0] == 0, by_file
    assert "tiny: 6 of 6 games stored" in by_file[1]
    bad = tmp_path / "bad.yaml"
    bad.write_text(yaml.safe_dump({"name": "tiny", "game": "versus2048"}))
    assert refusal(league_cli, "standings", str(bad)).startswith(f"league: error: {bad}: bots")


@pytest.mark.parametrize(("given", "fix"), [(1, "use 2"), (3, "use 2 or 4"), (5, "use 4 or 6")])
@pytest.mark.parametrize("format_", ["round_robin", "gauntlet"])
def test_an_odd_games_per_pair_is_refused_naming_the_key_and_the_fix(league_cli, tmp_path, given, fix, format_):
    keys = {"format": format_, "candidates": ["greedy"]} if format_ == "gauntlet" else {}
    path = write_league(tmp_path, games_per_pair=given, **keys)
    before = snapshot(tmp_path)
    for command in (("validate", "--no-estimate"), ("run", "--quiet"), ("plan", "--no-estimate")):
        line = refusal(league_cli, command[0], str(path), *command[1:])
        assert line == (
            f"league: error: {path}: games_per_pair: {given} must be even: games are played in seat-swapped pairs"
            f" (each bot first in one of a pair's two games); {fix}"
        )
    assert snapshot(tmp_path) == before


def test_formats_without_pairs_still_say_so_for_an_odd_games_per_pair(league_cli, tmp_path):
    data = yaml.safe_load(write_league(tmp_path, games_per_pair=3).read_text())
    data.update(game="nimmt", format="tables", players_per_table=3, variants={"gpcc": {}})
    data["bots"] = [{"name": f"bot{k}", "builtin": "nimmt.random"} for k in range(3)]
    path = tmp_path / "tables.yaml"
    path.write_text(yaml.safe_dump(data))
    assert "games_per_pair: tables have no pairs" in refusal(league_cli, "validate", str(path), "--no-estimate")
