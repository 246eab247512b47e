"""A refusal of ``league run`` or ``league report`` is its one line: no plan, no progress bar, no other line."""

import signal
import subprocess
import sys
import time
from pathlib import Path

from tests.conftest import BOTS, processes_below, refusal, with_ctrl_c, write_league

ROOT = Path(__file__).resolve().parents[3]


def test_a_second_run_while_a_first_one_plays_the_league_is_only_its_refusal(league_cli, tmp_path):
    """The first run is real (another process) and stays busy: its program bot never answers a turn."""
    sleeper = {"name": "sleeper", "command": [sys.executable, "v2048_sleeper.py"], "cwd": str(BOTS)}
    bots = [sleeper, {"name": "greedy", "builtin": "versus2048.greedy"}]
    never = {"turns_per_player": 15, "turn_time_ms": 3_600_000, "total_time_ms": 3_600_000}
    path = write_league(tmp_path, bots=bots, variants={"never": never}, games_per_pair=2, concurrency=1)
    output = tmp_path / "out"
    first = subprocess.Popen(
        [sys.executable, "-m", "league", "run", str(path), "--quiet"],
        cwd=ROOT,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        preexec_fn=with_ctrl_c,
    )
    try:
        deadline = time.monotonic() + 240
        while not processes_below(first.pid, "v2048_sleeper.py") and first.poll() is None:
            assert time.monotonic() < deadline, "the first run's game never began"
            time.sleep(0.05)  # its game is on: the run holds the folder
        assert first.poll() is None, first.communicate()
        for extra in ((), ("--fresh",)):
            status, out, err = league_cli("run", str(path), *extra)
            assert (status, out) == (2, ""), err
            assert err.count("\n") == 1, f"the refusal alone, no plan nor progress bar:\n{err}"
            assert err.startswith(f"league: error: {output / 'games.jsonl'}: another league run is writing it"), err
        assert first.poll() is None, "the first run goes on"
    finally:
        first.send_signal(signal.SIGINT)
        try:
            first.communicate(timeout=120)
        except subprocess.TimeoutExpired:
            first.kill()
            first.communicate()
    assert first.returncode == 130, "the first run stopped as Ctrl-C stops it"


def test_report_of_a_file_a_missing_folder_or_only_damaged_lines_is_one_line(league_cli, tmp_path):
    path = write_league(tmp_path)
    assert refusal(league_cli, "report", str(path)).endswith(
        f"{path} is a file, not a folder; give a league's output folder (where games.jsonl is)"
    )
    assert f"{tmp_path / 'nowhere'}: no such folder" in refusal(league_cli, "report", str(tmp_path / "nowhere"))
    damaged = tmp_path / "damaged"
    damaged.mkdir()
    (damaged / "games.jsonl").write_text("not a game\n{}\n")
    line = refusal(league_cli, "report", str(damaged))
    assert "no games.jsonl with games in it (its lines are damaged: none is a whole game record)" in line


def test_a_damaged_manifest_is_one_line_for_report_and_a_run_writes_it_again(ray_local, league_cli, tmp_path):
    path = write_league(tmp_path, games_per_pair=2)
    output = tmp_path / "out"
    status, _, err = league_cli("run", str(path), "--quiet")
    assert status == 0, err
    (output / "league.json").write_text('{"name": "tiny", "ga')  # torn by hand
    for command in ("report", "standings", "compare"):  # every command that reads it: one line
        line = refusal(league_cli, command, str(output))
        assert f"{output / 'league.json'}: the league's manifest is damaged (not a JSON object)" in line, line
        assert "`league run` of the league's file writes it again (the games stored are kept)" in line, line
    status, _, err = league_cli("run", str(path), "--quiet")
    assert status == 0, err
    assert "0 played, 6 already stored" in err, err
    status, out, err = league_cli("report", str(output))
    assert (status, out) == (0, f"report: {output / 'index.html'}\n"), err
