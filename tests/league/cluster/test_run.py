"""Whole leagues on Ray: end to end, resume, determinism across worker counts, a lost node."""

import json
import os
import signal
import subprocess
import sys
import threading
import time
from collections import Counter
from pathlib import Path

import pytest
import yaml

from engine.core import plural
from league.cluster.runner import run_league, schedule
from league.plan.config import load_league
from league.report.build import write_report
from tests.conftest import with_ctrl_c, write_league
from tests.league.plan.test_tables import nimmt_league

ROOT = Path(__file__).resolve().parents[3]


def stored_ids(folder: Path) -> list[str]:
    path = folder / "games.jsonl"
    if not path.exists():
        return []
    return [json.loads(line)["game_id"] for line in path.read_text().splitlines() if line.endswith("}")]


def test_a_small_league_end_to_end_and_a_rerun_skips_everything(ray_local, tmp_path):
    league = load_league(write_league(tmp_path))
    summary = run_league(league)
    assert (summary.total, summary.played, summary.skipped, summary.infra_errors) == (6, 6, 0, 0)
    ids = stored_ids(league.output)
    assert sorted(ids) == sorted(spec.game_id for spec in schedule(league))
    files = write_report(league.output, "tiny", list(league.bots), list(league.games))
    assert all(path.exists() and path.stat().st_size > 0 for path in files)
    standings = (league.output / "standings.csv").read_text().splitlines()
    assert standings[0].startswith("place,bot,games,points") and len(standings) == 4
    again = run_league(league)
    assert (again.played, again.skipped) == (0, 6)
    assert stored_ids(league.output) == ids


def pairs_league(folder: Path, workers: int) -> Path:
    return write_league(folder, concurrency=workers, games_per_pair=4)


def tables_league(folder: Path, workers: int) -> Path:
    return nimmt_league(folder, concurrency=workers, tables=1)


@pytest.mark.parametrize("make_league", [pairs_league, tables_league])
def test_one_and_two_workers_give_identical_standings_and_ratings(ray_local, tmp_path, make_league):
    outputs = []
    for workers in (1, 2):
        folder = tmp_path / f"w{workers}"
        folder.mkdir()
        league = load_league(make_league(folder, workers))
        run_league(league)
        write_report(league.output, league.config.name, list(league.bots), list(league.games))
        outputs.append(league.output)
    for name in ("standings.csv", "ratings.csv", "variants.csv", "strength.csv", "los.csv", "games.csv", "report.md"):
        assert without_run_facts(outputs[0] / name) == without_run_facts(outputs[1] / name), name


RUN_FACTS = ("- played: ", "- wall time: ", "- league file: ")


def without_run_facts(path: Path) -> str:
    """A report file without the header's lines that differ from run to run (when, how long, where)."""
    return "\n".join(line for line in path.read_text().splitlines() if not line.startswith(RUN_FACTS))


def test_resume_after_the_driver_is_killed(tmp_path):
    path = write_league(
        tmp_path,
        variants={"long": {"turns_per_player": 400}},
        games_per_pair=6,
        concurrency=1,
        bots=[
            {"name": "greedy", "builtin": "versus2048.greedy"},
            {"name": "minimax", "builtin": "versus2048.minimax"},
            {"name": "random", "builtin": "versus2048.random"},
        ],
    )
    total = len(schedule(load_league(path)))
    output = tmp_path / "out"
    command = [sys.executable, "-m", "league", "run", str(path), "--quiet"]
    driver = subprocess.Popen(
        command, cwd=ROOT, start_new_session=True, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE
    )
    deadline = time.monotonic() + 240
    while len(stored_ids(output)) < 2 and driver.poll() is None and time.monotonic() < deadline:
        time.sleep(0.05)
    os.killpg(driver.pid, signal.SIGKILL)
    driver.wait()
    at_kill = len(stored_ids(output))
    assert 0 < at_kill < total, f"the kill must land mid-league ({at_kill} of {total} stored)"
    before = (output / "games.jsonl").read_bytes()
    whole = before[: before.rfind(b"\n") + 1]  # a line the kill tore is cut off by the rerun
    finished = subprocess.run(command, cwd=ROOT, capture_output=True, text=True, timeout=600)
    assert finished.returncode == 0, finished.stderr
    ids = stored_ids(output)
    assert len(ids) == total and set(Counter(ids).values()) == {1}, "every game stored exactly once"
    assert f"{total - at_kill} played, {at_kill} already stored" in finished.stderr
    assert (output / "games.jsonl").read_bytes().startswith(whole), "what was stored before the kill is kept as it was"


def test_a_node_lost_mid_league_still_completes_every_game_once(tmp_path):
    import ray
    from ray.cluster_utils import Cluster

    if ray.is_initialized():
        ray.shutdown()  # this test runs its own two-node cluster
    cluster = Cluster(initialize_head=True, head_node_args={"num_cpus": 0})
    try:
        keep = cluster.add_node(num_cpus=1)
        doomed = cluster.add_node(num_cpus=1)
        cluster.wait_for_nodes()
        ray.init(address=cluster.address, log_to_driver=False)
        league = load_league(
            write_league(tmp_path, variants={"v": {"turns_per_player": 250}}, games_per_pair=4, concurrency=2)
        )
        summary = {}
        runner = threading.Thread(target=lambda: summary.setdefault("run", run_league(league)))
        runner.start()
        deadline = time.monotonic() + 120
        while len(stored_ids(league.output)) < 2 and time.monotonic() < deadline:
            time.sleep(0.02)
        cluster.remove_node(doomed)
        runner.join(300)
        assert not runner.is_alive()
        ids = stored_ids(league.output)
        assert sorted(ids) == sorted(spec.game_id for spec in schedule(league)), "every game stored once"
        assert summary["run"].infra_errors == 0
        assert keep is not None
    finally:
        ray.shutdown()
        cluster.shutdown()


@pytest.mark.parametrize("stop", [signal.SIGINT, signal.SIGTERM], ids=["ctrl-c", "sigterm"])
def test_ctrl_c_after_fresh_stops_cleanly_keeps_what_is_done_and_leaves_no_stale_report(tmp_path, stop):
    path = write_league(tmp_path, variants={"long": {"turns_per_player": 400}}, games_per_pair=8, concurrency=1)
    output = tmp_path / "out"
    output.mkdir()
    for name in ("report.md", "index.html", "standings.csv"):  # the report of an earlier run
        (output / name).write_text("an earlier league's report\n")
    (output / "games.jsonl").touch()  # and its store: the folder is a league's
    command = [sys.executable, "-m", "league", "run", str(path), "--quiet", "--fresh"]
    driver = subprocess.Popen(
        command, cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, preexec_fn=with_ctrl_c
    )
    deadline = time.monotonic() + 240
    while len(stored_ids(output)) < 1 and driver.poll() is None and time.monotonic() < deadline:
        time.sleep(0.05)
    driver.send_signal(stop)  # SIGTERM too: Ray's core handler (a stack dump, exit 15) must not win
    _, err = driver.communicate(timeout=120)
    assert driver.returncode == 130, err
    assert "SIGTERM received" not in err
    assert "Run the same command again to resume" in err
    assert "the old report was removed" in err
    assert not any((output / name).exists() for name in ("report.md", "index.html", "standings.csv"))
    lines = (output / "games.jsonl").read_text().splitlines()
    assert lines and all(json.loads(line)["game_id"] for line in lines)
    report = subprocess.run(
        [sys.executable, "-m", "league", "report", str(output)], cwd=ROOT, capture_output=True, text=True
    )
    assert report.returncode == 0, report.stderr
    assert f"{plural(len(set(stored_ids(output))), 'game')} scored" in (output / "report.md").read_text()


def test_a_changed_config_plays_new_games_and_the_report_shows_only_them(ray_local, tmp_path, league_cli):
    first = load_league(write_league(tmp_path, games_per_pair=2))
    run_league(first)
    changed = load_league(write_league(tmp_path, games_per_pair=2, seed=8))
    summary = run_league(changed)
    assert (summary.played, summary.skipped) == (6, 0), "a new seed makes new games"
    assert len(stored_ids(changed.output)) == 12
    status, out, _ = league_cli("report", str(changed.output))
    assert status == 0 and "report:" in out
    assert "6 games scored" in (changed.output / "report.md").read_text()


def test_a_bot_added_to_a_played_league_plays_only_its_own_games(ray_local, tmp_path):
    first = load_league(write_league(tmp_path))
    run_league(first)
    before = set(stored_ids(first.output))
    newcomer = {"name": "greedy-2", "builtin": "versus2048.greedy"}
    grown = load_league(write_league(tmp_path, bots=[*yaml.safe_load(first.path.read_text())["bots"], newcomer]))
    summary = run_league(grown)
    assert (summary.played, summary.skipped) == (6, 6), "only the newcomer's 3 pairs x 2 games are played"
    records = [json.loads(line) for line in (grown.output / "games.jsonl").read_text().splitlines()]
    assert {r["game_id"] for r in records} - before == {
        r["game_id"] for r in records if "greedy-2" in r["spec"]["seats"]
    }
    assert before <= {spec.game_id for spec in schedule(grown)}  # the stored games keep their ids
