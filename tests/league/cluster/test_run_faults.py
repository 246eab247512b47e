"""Faults around a league run, each the real thing: a worker killed mid-game, a disk that fills or turns
unwritable mid-run, a torn and a damaged line in the store. Each game ends up stored exactly once."""

import contextlib
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

from league.cluster.runner import run_league, schedule
from league.plan.config import League, load_league
from league.store.results import ResultStore
from sandbox.jail import jail_problem
from sandbox.procfs import PPID, stat_fields
from tests.conftest import BOTS, alive, processes_below, write_league

LONG = {"long": {"turns_per_player": 300}}
SLOW = "v2048_slow.py"


def assert_whole_lines(path: Path) -> None:
    """Every line of a store file is whole: it ends with its newline and holds a JSON object."""
    data = path.read_bytes()
    assert data.endswith(b"\n"), f"{path.name} ends in half a line"
    assert all(isinstance(json.loads(line), dict) for line in data.splitlines())


def assert_every_game_once(league: League) -> None:
    """Every scheduled game is stored exactly once, none as a failure of ours, each with its moves."""
    store = ResultStore(league.output / "games.jsonl")
    records = store.records()
    lines = (league.output / "games.jsonl").read_bytes().splitlines()
    raw_ids = Counter(json.loads(line)["game_id"] for line in lines if line[:1] == b"{")  # damaged lines left out
    assert sorted(record["game_id"] for record in records) == sorted(spec.game_id for spec in schedule(league))
    assert set(raw_ids.values()) == {1}, "no game is stored twice"
    assert not [record for record in records if record["result"]["termination"] == "INFRA_ERROR"]
    details = store.details(record["game_id"] for record in records)
    assert all(details[record["game_id"]]["moves"] for record in records), "every game's moves are there"


def after_the_first_game(output: Path, act) -> threading.Thread:
    """A thread that does ``act()`` as soon as the run has stored its first game."""

    def wait_then_act() -> None:
        deadline = time.monotonic() + 120
        games = output / "games.jsonl"
        while not (games.exists() and games.stat().st_size) and time.monotonic() < deadline:
            time.sleep(0.005)
        act()

    watcher = threading.Thread(target=wait_then_act)
    watcher.start()
    return watcher


def the_referee_of_a_game_in_flight(script: str) -> tuple[int, list[int]]:
    """The process refereeing a game where ``script`` plays (the parent of its launch), and the bot's processes."""
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline:
        bots = processes_below(os.getpid(), str(BOTS / script))
        for pid in bots:
            fields = stat_fields(pid)
            parent = int(fields[PPID]) if fields else 0
            if parent and parent not in bots:
                return parent, bots
        time.sleep(0.02)
    raise AssertionError(f"no game with {script} started")


def test_a_worker_killed_mid_game_has_its_game_played_again_and_stored_once(ray_local, tmp_path):
    if jail_problem() is not None:
        pytest.skip(f"the full jail cannot run here: {jail_problem()}")
    tmp_path.chmod(0o755)  # the league file's folder is the jailed bot's
    slow = {"name": "slow", "command": f"{sys.executable} {BOTS / SLOW} 25"}
    bots = [slow, {"name": "greedy", "builtin": "versus2048.greedy"}]
    league = load_league(write_league(tmp_path, variants={"v": {"turns_per_player": 40}}, games_per_pair=4, bots=bots))
    outcome = {}
    runner = threading.Thread(target=lambda: outcome.setdefault("run", run_league(league)))
    runner.start()
    referee, bot = the_referee_of_a_game_in_flight(SLOW)
    assert referee != os.getpid(), "games are refereed by workers, not by the driver"
    os.kill(referee, signal.SIGKILL)
    runner.join(300)
    assert not runner.is_alive()
    summary = outcome["run"]
    assert (summary.played, summary.infra_errors) == (len(schedule(league)), 0)
    assert_every_game_once(league)
    assert not alive(referee) and not any(alive(pid) for pid in bot), "the killed game's bots died with it"


@pytest.fixture
def small_disk(tmp_path):
    """A 16 MB tmpfs mounted for the test (it takes root), unmounted after."""
    disk = tmp_path / "disk"
    disk.mkdir()
    mounted = subprocess.run(
        ["mount", "-t", "tmpfs", "-o", "size=16m,mode=0755", "league-test-disk", str(disk)],
        capture_output=True,
        text=True,
    )
    if mounted.returncode != 0:
        pytest.skip(f"cannot mount a small tmpfs here: {mounted.stderr.strip() or 'mount failed'}")
    try:
        yield disk
    finally:
        subprocess.run(["umount", str(disk)], check=True)


def fill(path: Path) -> None:
    """Write ``path`` until its disk has no byte left."""
    handle = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_APPEND)
    try:
        for size in (1 << 20, 1 << 12, 1):
            with contextlib.suppress(OSError):
                while True:
                    os.write(handle, b"\0" * size)
    finally:
        os.close(handle)


def test_a_disk_that_fills_mid_run_stops_it_in_one_line_and_a_rerun_goes_on(
    ray_local, league_cli, small_disk, tmp_path
):
    output = small_disk / "out"
    league = load_league(write_league(tmp_path, variants=LONG, games_per_pair=6, output=str(output)))
    filler = small_disk / "filler"
    watcher = after_the_first_game(output, lambda: fill(filler))
    status, _, err = league_cli("run", str(league.path), "--quiet")
    watcher.join()
    assert status == 3, err
    assert "Traceback" not in err
    last = err.strip().splitlines()[-1]
    assert last.startswith(f"league: error: cannot write {output}/") and "No space left on device" in last, last
    assert f"free some space on the disk of {output}" in last and "run the same command again" in last
    for name in ("games.jsonl", "moves.jsonl"):
        assert_whole_lines(output / name)
    kept = len(ResultStore(output / "games.jsonl").records())
    total = len(schedule(league))
    assert 0 < kept < total, "the disk filled mid-run"
    status, _, err = league_cli("report", str(output))
    assert status == 3 and err.count("\n") == 1, err
    assert err.startswith(f"league: error: cannot write {output}") and "No space left on device" in err
    filler.unlink()
    status, _, err = league_cli("run", str(league.path), "--quiet")
    assert status == 0, err
    assert f"{total - kept} played, {kept} already stored, {total} in all" in err
    assert_every_game_once(league)


def immutable_flag_works(folder: Path) -> bool:
    probe = folder / "probe"
    probe.write_text("")
    works = subprocess.run(["chattr", "+i", str(probe)], capture_output=True).returncode == 0
    if works:
        subprocess.run(["chattr", "-i", str(probe)], check=True)
    probe.unlink()
    return works


def test_a_store_made_unwritable_mid_run_stops_it_in_one_line_and_a_rerun_goes_on(ray_local, league_cli, tmp_path):
    if not immutable_flag_works(tmp_path):
        pytest.skip("cannot set the immutable flag here (it takes root and a file system that has it)")
    league = load_league(write_league(tmp_path, variants=LONG, games_per_pair=6))
    games = league.output / "games.jsonl"
    watcher = after_the_first_game(league.output, lambda: subprocess.run(["chattr", "+i", str(games)], check=True))
    try:
        status, _, err = league_cli("run", str(league.path), "--quiet")
        watcher.join()
    finally:
        subprocess.run(["chattr", "-i", str(games)], check=True)
    assert status == 3, err
    last = err.strip().splitlines()[-1]
    assert last.startswith(f"league: error: cannot write {games}: Operation not permitted"), last
    assert f"make {league.output} writable" in last
    for name in ("games.jsonl", "moves.jsonl"):
        assert_whole_lines(league.output / name)
    kept = len(ResultStore(games).records())
    status, _, err = league_cli("run", str(league.path), "--quiet")
    assert status == 0, err
    assert f"{kept} already stored" in err
    assert_every_game_once(league)


def test_a_torn_and_a_damaged_line_are_told_and_their_games_played_again(ray_local, league_cli, tmp_path):
    league = load_league(write_league(tmp_path))
    status, _, err = league_cli("run", str(league.path), "--quiet")
    assert status == 0, err
    games = league.output / "games.jsonl"
    lines = games.read_bytes().splitlines(keepends=True)
    assert len(lines) == 6
    damaged = b"#" + lines[1][1:]  # line 2 is no JSON any more
    torn = lines[-1][: len(lines[-1]) // 2]  # a crash halfway through the last line
    games.write_bytes(lines[0] + damaged + b"".join(lines[2:-1]) + torn)

    status, _, err = league_cli("report", str(league.output))
    assert status == 0, err
    assert "league: games.jsonl: line 2 is damaged (not a game record) and skipped" in err
    assert "league: games.jsonl: the last line is incomplete (torn by a crash while it was written" in err
    assert "4 games scored" in (league.output / "report.md").read_text()
    status, table, err = league_cli("standings", str(league.output))
    assert status == 0, err
    assert "4 of 6 games stored" in table and "line 2 is damaged" in err

    status, _, err = league_cli("run", str(league.path), "--quiet")
    assert status == 0, err
    assert (
        "league: games.jsonl: the last line was torn (a crash while it was written); it was cut off and its game is"
        " played again" in err
    )
    assert "league: games.jsonl: line 2 is damaged (not a game record) and skipped" in err
    assert "2 played, 4 already stored, 6 in all" in err
    assert_every_game_once(league)
    assert "6 games scored" in (league.output / "report.md").read_text()
