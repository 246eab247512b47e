"""What a league's report tells: the header, the cross table, faults with stderr, replay commands, standings."""

import json
import shlex
import sys

import pandas as pd
import pytest

from league.cluster.runner import run_league
from league.plan.config import load_league
from league.plan.manifest import read_manifest
from league.replay.command import replay_command
from league.report.build import write_report
from league.store.results import ResultStore
from tests.conftest import BOTS, write_league

BUGGY = {"name": "buggy", "command": [sys.executable, "v2048_traceback.py"], "cwd": str(BOTS)}


@pytest.fixture(scope="module")
def faulty_league(tmp_path_factory):
    """A played league of two variants whose program bot raises at its first turn, and its report."""
    import ray

    if not ray.is_initialized():
        ray.init(address="local", num_cpus=2, include_dashboard=False, log_to_driver=False)
    folder = tmp_path_factory.mktemp("faulty")
    path = write_league(
        folder,
        variants={"short": {"turns_per_player": 12}, "longer": {"turns_per_player": 20}},
        bots=[
            {"name": "random", "builtin": "versus2048.random"},
            {"name": "greedy", "builtin": "versus2048.greedy"},
            {"name": "minimax", "builtin": "versus2048.minimax", "params": {"max_nodes": 300}},
            BUGGY,
        ],
        games_per_pair=2,
    )
    league = load_league(path)
    summary = run_league(league)
    assert summary.played == summary.total == 24
    write_report(league.output, league.config.name, list(league.bots), list(league.games))
    return league


def test_the_header_names_the_game_each_variants_rules_each_bot_the_seed_and_the_runs(faulty_league):
    report = (faulty_league.output / "report.md").read_text()
    assert "versus2048: 5x5 Versus 2048" in report
    assert "- seed: 7" in report and "- format: round robin" in report
    assert "| short     | turns_per_player=12" in report and "| longer    | turns_per_player=20" in report
    assert "built-in versus2048.minimax (max_nodes=300)" in report
    assert "v2048_traceback.py" in report
    runs = read_manifest(faulty_league.output)["runs"]
    assert len(runs) == 1 and runs[0]["played"] == 24 and runs[0]["seconds"] > 0
    assert "- wall time: " in report and "in 1 run" in report


def test_the_cross_table_holds_each_pairs_wins_draws_and_losses(faulty_league):
    cross = pd.read_csv(faulty_league.output / "cross_table.csv", dtype=str, keep_default_na=False).set_index("bot")
    records = ResultStore(faulty_league.output / "games.jsonl").records()
    for bot in cross.index:
        for other in cross.columns:
            if bot == other:
                assert cross.loc[bot, other] == ""
                continue
            wins = draws = losses = 0
            for record in records:
                seats, ranks = record.spec.seats, record.result.ranks
                if set(seats) == {bot, other}:
                    mine, theirs = ranks[seats.index(bot)], ranks[seats.index(other)]
                    wins, draws, losses = wins + (mine < theirs), draws + (mine == theirs), losses + (mine > theirs)
            assert cross.loc[bot, other] == f"{wins}-{draws}-{losses}"
    assert cross.loc["buggy", "greedy"] == "0-0-4" and cross.loc["greedy", "buggy"] == "4-0-0"


def test_faults_are_counted_by_bot_and_kind_and_listed_with_the_bots_stderr(faulty_league):
    faults = pd.read_csv(faulty_league.output / "faults.csv")
    assert list(faults["bot"]) == ["buggy"] and int(faults.loc[0, "CRASH"]) == 12 and int(faults.loc[0, "total"]) == 12
    report = (faulty_league.output / "report.md").read_text()
    assert "12 games ended by a fault" in report
    assert "RuntimeError: the bot's own bug, reported on stderr" in report
    page = (faulty_league.output / "index.html").read_text()
    assert "RuntimeError: the bot&#x27;s own bug, reported on stderr" in page


def test_every_stored_games_replay_command_plays_that_very_game_again(faulty_league, league_cli):
    manifest = read_manifest(faulty_league.output)
    records = ResultStore(faulty_league.output / "games.jsonl").records()
    checked = 0
    for record in records[::3]:  # every third: each pairing and variant comes up
        words = shlex.split(replay_command(manifest, record))
        assert words[:3] == ["league", "play", "versus2048"]
        status, out, err = league_cli(*words[1:], "--json")
        assert status == 0, err
        replayed = json.loads(out)
        assert replayed["result"]["scores"] == record.result.scores
        assert replayed["result"]["ranks"] == record.result.ranks
        assert replayed["plies"] == record.result.plies
        assert replayed["result"]["termination"] == record.result.termination
        checked += 1
    assert checked == 8


def test_a_report_rebuilt_from_the_folder_alone_is_the_same(faulty_league, league_cli, tmp_path):
    import shutil

    copy = tmp_path / "copy"
    shutil.copytree(faulty_league.output, copy)
    for name in ("report.md", "index.html", "standings.csv", "cross_table.csv", "strength.csv"):
        (copy / name).unlink()
    status, out, err = league_cli("report", str(copy))
    assert status == 0, err
    for name in ("report.md", "standings.csv", "cross_table.csv", "strength.csv", "games.csv"):
        assert (copy / name).read_text() == (faulty_league.output / name).read_text(), name


def test_standings_print_what_is_stored_while_a_run_holds_the_store(faulty_league, league_cli, tmp_path):
    import shutil

    copy = tmp_path / "running"
    copy.mkdir()
    shutil.copy(faulty_league.output / "league.json", copy)
    lines = (faulty_league.output / "games.jsonl").read_bytes().splitlines(keepends=True)
    (copy / "games.jsonl").write_bytes(b"".join(lines[:10]) + lines[10][:40])  # a line being written
    shutil.copy(faulty_league.output / "moves.jsonl", copy)
    store = ResultStore(copy / "games.jsonl")
    store.lock()  # a run is writing
    try:
        status, out, err = league_cli("standings", str(copy))
    finally:
        store.close()
    assert status == 0, err
    assert "tiny: 10 of 24 games stored" in out
    for bot in ("random", "greedy", "minimax", "buggy"):
        assert bot in out
    status, out, err = league_cli("standings", str(faulty_league.output))
    assert "tiny: 24 of 24 games stored" in out


def test_standings_of_a_folder_without_a_league_is_one_line(league_cli, tmp_path):
    status, out, err = league_cli("standings", str(tmp_path))
    assert status == 2 and err.count("\n") == 1 and "no league.json here" in err
    status, out, err = league_cli("standings", str(tmp_path / "nowhere"))
    assert status == 2 and "no such folder" in err


def test_a_report_without_the_move_log_says_the_stderr_tails_are_lost(faulty_league, league_cli, tmp_path):
    import shutil

    copy = tmp_path / "results-only"
    copy.mkdir()
    for name in ("games.jsonl", "league.json"):
        shutil.copy(faulty_league.output / name, copy)
    status, out, err = league_cli("report", str(copy))
    assert status == 0, err
    report = (copy / "report.md").read_text()
    assert "12 games ended by a fault" in report and "RuntimeError" not in report
    assert "moves.jsonl (beside games.jsonl) is missing or damaged: the bots' stderr tails of 12 games" in report
    assert (copy / "standings.csv").read_text() == (faulty_league.output / "standings.csv").read_text()


def test_a_report_of_a_league_with_no_games_stored_yet_is_one_line(faulty_league, league_cli, tmp_path):
    import shutil

    shutil.copy(faulty_league.output / "league.json", tmp_path)
    status, out, err = league_cli("report", str(tmp_path))
    assert status == 2 and err.count("\n") == 1 and "no games of this league are stored yet" in err
