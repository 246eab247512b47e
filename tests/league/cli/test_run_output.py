"""Where a league writes, what happens when it cannot, and runs whose games failed for reasons of ours."""

import os
import subprocess
import sys

import pandas as pd
import pytest

import league.cli.run
from tests.conftest import program_in_own_folder, write_league


def one_line_error(status, err, *words):
    assert status == 2, err
    assert err.startswith("league: error: ") and err.count("\n") == 1, err
    for word in words:
        assert word in err, err


def test_the_default_report_folder_is_next_to_the_league_file_whatever_the_current_folder(
    ray_local, league_cli, tmp_path, monkeypatch
):
    home, elsewhere = tmp_path / "league", tmp_path / "elsewhere"
    home.mkdir()
    elsewhere.mkdir()
    path = write_league(home, output=None)
    monkeypatch.chdir(elsewhere)
    status, out, err = league_cli("validate", "../league/league.yaml", "--no-estimate")
    assert status == 0, err
    assert "output ../league/reports/tiny" in out
    status, out, err = league_cli("run", os.path.relpath(path), "--quiet")
    assert status == 0, err
    assert (home / "reports" / "tiny" / "games.jsonl").exists()
    assert not (elsewhere / "reports").exists()


def test_a_relative_output_is_relative_to_the_league_file(league_cli, tmp_path, monkeypatch):
    home = tmp_path / "league"
    home.mkdir()
    write_league(home, output="results/here")
    monkeypatch.chdir(tmp_path)
    status, out, err = league_cli("validate", "league/league.yaml", "--no-estimate")
    assert status == 0, err
    assert "output league/results/here" in out


def test_an_output_folder_below_a_file_is_refused_at_validate_and_run(league_cli, tmp_path):
    path = write_league(tmp_path, output="league.yaml/out")
    for command in ("validate", "run"):
        status, _, err = league_cli(command, str(path))
        one_line_error(status, err, "output: cannot write the report folder", "is a file, not a folder")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["league.yaml"], "nothing is written"


def test_an_unwritable_output_folder_is_refused_at_validate_and_run(league_cli, tmp_path):
    locked = tmp_path / "locked"
    locked.mkdir()
    if os.geteuid() == 0:
        if subprocess.run(["chattr", "+i", str(locked)], capture_output=True).returncode != 0:
            pytest.skip("root ignores permissions and this file system has no immutable flag")
    else:
        locked.chmod(0o555)
    try:
        path = write_league(tmp_path, output="locked/out")
        for command in ("validate", "run"):
            status, _, err = league_cli(command, str(path))
            one_line_error(status, err, "output: cannot write the report folder", str(locked))
            why = "lets no one add folders or files" if os.geteuid() == 0 else "this user has no permission to write"
            assert why in err, err
        assert list(locked.iterdir()) == [], "nothing is written"
    finally:
        if os.geteuid() == 0:
            subprocess.run(["chattr", "-i", str(locked)], check=True)
        locked.chmod(0o755)


def test_a_run_whose_games_failed_for_reasons_of_ours_exits_1_and_says_so_last(
    ray_local, league_cli, tmp_path, monkeypatch
):
    """The bot's script vanishes after the league was checked: every game of it fails on the workers."""
    tmp_path.chmod(0o755)
    script = tmp_path / "vanishing.py"
    script.write_text("print('1 1', flush=True)\n")
    bots = [
        {"name": "vanishing", "command": f"{sys.executable} vanishing.py", "shared_folder": True},  # beside the file
        {"name": "g", "builtin": "versus2048.greedy"},
    ]
    path = write_league(tmp_path, bots=bots, games_per_pair=2)
    checked = league.cli.run.load

    def load_then_lose_the_script(*args, **kwargs):
        loaded = checked(*args, **kwargs)
        script.unlink()
        return loaded

    monkeypatch.setattr(league.cli.run, "load", load_then_lose_the_script)
    status, out, err = league_cli("run", str(path), "--quiet")
    assert status == 1, err
    last = err.strip().splitlines()[-1]
    assert last.startswith("league: error: 2 of 2 games failed for reasons of ours"), last
    assert "vanishing.py" in last and "run the same command again to retry them" in last


def test_a_league_whose_every_game_is_a_crash_gets_standings_and_a_sentence_and_no_ratings(
    ray_local, league_cli, tmp_path
):
    # real programs that crash at their first turn, each in its own folder
    bots = [program_in_own_folder(tmp_path, name, "v2048_crasher.py") for name in ("first", "second")]
    path = write_league(tmp_path, bots=bots, games_per_pair=2)
    status, out, err = league_cli("run", str(path), "--quiet")
    assert status == 0, err
    report = tmp_path / "out"
    assert not (report / "strength.csv").exists() and not (report / "ratings.csv").exists()
    text = (report / "report.md").read_text()
    assert "Every one of the 2 games ended in a fault (2 crashes)" in text and "no ratings are given" in text, text
    status, out, err = league_cli("standings", str(report))
    assert status == 0, err
    assert "no ratings are given" in " ".join(out.split()) and "27." not in out  # TrueSkill's mu is never shown


def test_a_run_ends_with_the_standings_table_in_the_reports_order(ray_local, league_cli, tmp_path):
    """Two real program bots and two built-ins: the run's last table is `league standings`' and the report's."""
    bots = [{"name": "random", "builtin": "versus2048.random"}, {"name": "greedy", "builtin": "versus2048.greedy"}]
    bots += [program_in_own_folder(tmp_path, name, "v2048_judge_style.py") for name in ("judge_a", "judge_b")]
    path = write_league(tmp_path, bots=bots, games_per_pair=2)
    status, out, err = league_cli("run", str(path), "--quiet")
    assert status == 0, err
    assert out == f"report: {tmp_path / 'out' / 'index.html'}\n"
    standings = pd.read_csv(tmp_path / "out" / "standings.csv")
    assert len(standings) == 4 and standings["games"].tolist() == [6] * 4
    table = err[err.index("tiny: 12 of 12 games stored") :]
    header = table.splitlines()[2]
    for column in ("place", "bot", "games", "points", "elo", "95%"):
        assert column in header, header
    rows = [line.split("│")[1:-1] for line in table.splitlines() if line.count("│") > 5 and "place" not in line]
    shown = [[cell.strip() for cell in row] for row in rows]
    assert [row[1] for row in shown] == standings["bot"].tolist(), "the run's order is the report's"
    assert [int(row[0]) for row in shown] == standings["place"].tolist()
    assert [float(row[3]) for row in shown] == standings["points"].tolist()
    assert [float(row[8]) for row in shown] == standings["elo"].tolist()
    low_high = [[float(end) for end in row[9].split(" to ")] for row in shown]
    assert low_high == standings[["low_95", "high_95"]].values.tolist()
    assert "place: the order by Bradley-Terry strength (elo), fitted to every game at once" in " ".join(table.split())
    status, printed, _ = league_cli("standings", str(tmp_path / "out"))
    assert status == 0 and printed.split("\n", 1)[1] in table, "the same table as `league standings`"
